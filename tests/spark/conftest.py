"""One local Spark session for the whole Spark suite (starting Spark takes seconds).

It has Hive support, with the warehouse and an embedded Derby metastore in a temporary folder,
so the warehouse-table tests go through a real metastore; the other tests do not touch it.
"""

from __future__ import annotations

import os

import pytest

pyspark = pytest.importorskip("pyspark", reason="PySpark is optional (the spark extra of pyproject.toml)")


#: Every JVM the Spark tests start (the session below, and the command-line test's process)
#: compiles with the first of Java's two compilers only: C1; C2, the optimising one, pays off
#: in long jobs, not in thousands of tiny ones. PySpark reads the variable when it starts the
#: JVM; nothing Spark computes depends on it (the Spark corpus alone, 2026-12-07: 110 -> 84 s
#: of the machine's CPU, the wall time unchanged).
os.environ.setdefault(
    "PYSPARK_SUBMIT_ARGS", "--conf spark.driver.defaultJavaOptions=-XX:TieredStopAtLevel=1 pyspark-shell"
)


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    """local[2] (the machine has 2 cores), no web UI, two shuffle partitions, Hive metastore
    in a temporary folder."""
    from ndcg_core import spark as nspark

    folder = tmp_path_factory.mktemp("hive")
    session = nspark.session(
        "local[2]",
        app_name="ndcg-lab-tests",
        hive=True,
        warehouse=folder / "warehouse",
        metastore=folder / "metastore_db",
        partitions=2,
    )
    session.sparkContext.setLogLevel("ERROR")
    # the suite's tables have a few rows: compiling each query's whole-stage Java code and
    # re-planning it adaptively cost more than running it (49 corpus cases: 45 -> 40 s); the
    # results do not depend on either (Spark runs the same plan interpreted)
    session.conf.set("spark.sql.codegen.wholeStage", "false")
    session.conf.set("spark.sql.adaptive.enabled", "false")
    # nor compiling each expression's Java code (Janino) before running it: Spark's own test
    # setting (internal), which evaluates every expression interpreted, with the same answers
    # (Spark's suite runs both ways); the command-line test's process keeps Spark's default
    # (the Spark corpus alone, 2026-12-07: 101 -> 84 s of the machine's CPU, 84 -> 72 s)
    session.conf.set("spark.sql.codegen.factoryMode", "NO_CODEGEN")
    yield session
    session.stop()
