"""One local Spark session for the whole Spark suite (starting Spark takes seconds)."""

from __future__ import annotations

import pytest

pyspark = pytest.importorskip("pyspark", reason="PySpark is optional (the spark extra of pyproject.toml)")


@pytest.fixture(scope="session")
def spark():
    """local[2] (the machine has 2 cores), no web UI, two shuffle partitions."""
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("ndcg-lab-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
