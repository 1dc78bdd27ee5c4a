"""nDCG per query on Spark: the batch engine's numbers, computed with DataFrame operations.

The same rules as :mod:`ndcg_core.batch` (ranking by score descending, the four tie policies,
the ideal from the query's own grades, ``k``, ``gain``, ``discount``, ``no_relevant``), written
as window functions so that the rows never leave the executors:

- position = ``row_number()`` over (query ordered by score descending [, tie-break]);
- discount(position), zero beyond ``k``;
- ``ties="average"``: each row's gain is replaced by ``avg(gain)`` over (query, score), the tie
  group's mean gain; summed over the group, mean gain * its discounts is the average DCG over
  all orders of the tie, exactly as the pandas engine and scikit-learn compute it. (The order
  ``row_number`` picks inside a tie does not matter: the group's set of positions does not
  depend on it.)
- ``ties="input"``: the earlier input row of a tie first, the input order being
  ``monotonically_increasing_id()`` (the order of a file's rows, or of the rows a DataFrame was
  created from); ``ties="trec_eval"``: the larger item id (as a string) first. ``"ignore"`` is
  refused, as by the pandas engine;
- ids are text: the query id is cast to string (a CSV file is read as text already);
- with ``validate``, a grade whose gain is infinite, or a query whose gains add up to infinity,
  is refused (naming the grade, and the query), so no DCG is inf and no nDCG nan;
- IDCG: the same with the window ordered by grade descending; then one ``groupBy(query)``.

Judgments apart from the runs (the IR way, :func:`evaluate_trec`): the same window functions
over (run, query), with the ideal from the judged pool, unjudged and missing queries as
:mod:`ndcg_core.options` names them, several cutoffs in one pass; :func:`summarize_trec` gives
the means per run. Warehouse tables: :func:`read_table` and :func:`write_table` go through the
session's catalog (a Hive metastore with ``session(hive=True)``), so nothing leaves the cluster.

No Python UDF runs on the rows. PySpark is optional: it is imported inside the functions, so
``import ndcg_core`` works without it, and a missing PySpark raises an ``ImportError`` that
says how to install it.
"""

from __future__ import annotations

import contextlib
import functools
import operator
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .batch import (
    RunResult,
    RunSummary,
    Ties,
    _check_options,
    _from_options,
    _is_parquet,
    check_csv_fields,
    check_roles,
)
from .discounting import JARVELIN_BASE, Discount
from .gains import Gain
from .options import (
    NO_RELEVANT,
    TREC_DEFAULTS,
    BatchTies,
    Ideal,
    Missing,
    NoRelevant,
    Options,
    Unjudged,
    engine_options,
    measure_columns,
)
from .validate import check_choice, fail

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from pyspark.sql import Column, DataFrame, Row, SparkSession

__all__ = [
    "evaluate",
    "evaluate_run",
    "evaluate_trec",
    "queries_without_judgments",
    "read_run",
    "read_table",
    "session",
    "summarize_spark",
    "summarize_trec",
    "write_table",
]

INSTALL_HINT = (
    "The Spark engine needs PySpark and Java 17 or newer: "
    'pip install -e ".[spark]" (the spark extra of nDCG Lab)'
)


def _spark() -> Any:
    """The pyspark.sql module, or an ImportError that says how to get it."""
    try:
        import pyspark.sql
        import pyspark.sql.functions
        import pyspark.sql.window
    except ImportError as error:
        raise ImportError(f"{INSTALL_HINT} ({error})") from None
    return pyspark.sql


def session(
    master: str = "local[*]",
    *,
    app_name: str = "nDCG Lab",
    hive: bool = False,
    warehouse: str | os.PathLike[str] | None = None,
    metastore: str | os.PathLike[str] | None = None,
    partitions: int | None = None,
) -> SparkSession:
    """A SparkSession for the command line: no web UI or console progress, no Python call
    sites kept for Spark's error messages, few shuffle partitions in local mode.

    Parameters
    ----------
    master : str
        Spark's master URL; ``local[*]`` runs on this machine.
    app_name : str
        The application's name in Spark's logs and cluster manager.
    hive : bool
        Enable Hive support (``enableHiveSupport``): ``spark.table("db.table")`` and
        ``saveAsTable`` go through a Hive metastore. PySpark ships the Hive client, so this
        works offline; on a cluster the metastore comes from its ``hive-site.xml``.
    warehouse : path, optional
        The folder of managed tables (``spark.sql.warehouse.dir``).
    metastore : path, optional
        A folder for an embedded Derby metastore (created if absent; Derby's log goes next to
        it), for local mode and tests; leave it out on a cluster with its own metastore.
    partitions : int, optional
        ``spark.sql.shuffle.partitions``; in local mode twice the cores by default.

    PySpark 4 records the Python line behind every column expression it builds, for its error
    messages (``spark.python.sql.dataFrameDebugging.enabled``): several round trips to the JVM
    each, and the engine builds over a hundred expressions per evaluation, so a small run spent
    about 40 % of its time on them (85 small runs of the adversarial corpus: 47.8 -> 29.4 s).
    The lines would point into this module, and the engine words its own errors.

    Spark reads these settings when it starts: if a session is already running in this
    process, ``getOrCreate`` returns it unchanged (stop it first to change them).
    """
    sql = _spark()
    builder = sql.SparkSession.builder.master(master).appName(app_name)
    builder = builder.config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
    builder = builder.config("spark.python.sql.dataFrameDebugging.enabled", "false")  # see above
    if partitions is not None or master.startswith("local"):
        count = partitions if partitions is not None else max(4, 2 * (os.cpu_count() or 1))
        builder = builder.config("spark.sql.shuffle.partitions", str(count))
    if warehouse is not None:
        builder = builder.config("spark.sql.warehouse.dir", os.path.abspath(warehouse))
    if metastore is not None:
        folder = os.path.abspath(metastore)
        builder = builder.config(
            "spark.hadoop.javax.jdo.option.ConnectionURL", f"jdbc:derby:;databaseName={folder};create=true"
        )
        # Derby writes derby.log into the working folder unless told otherwise
        log = os.path.join(os.path.dirname(folder), "derby.log")
        builder = builder.config("spark.driver.extraJavaOptions", f"-Dderby.stream.error.file={log}")
    if hive:
        builder = builder.enableHiveSupport()
    spark: SparkSession = builder.getOrCreate()
    return spark


def read_run(spark: SparkSession, path: str) -> DataFrame:
    """Read a CSV (with a header row) or Parquet run with ``spark.read``.

    Parquet is recognised by its magic bytes for a local file, by the extension otherwise.
    CSV columns are read as text; :func:`evaluate` casts grades and scores and reports values
    that are not numbers. A CSV file is read as :func:`ndcg_core.batch.read_run` reads it:
    UTF-8 (a byte-order mark allowed), quotes doubled inside quotes, line breaks inside quoted
    values, a repeated header name made unique (``score``, ``score.1``).

    A local CSV file is first read through once in Python, in blocks
    (:func:`ndcg_core.batch.check_csv_fields`): Spark's reader has no strict encoding and
    replaces bytes that are not UTF-8 by U+FFFD without a word, so Latin-1 ``café`` and
    ``cafè`` would become one query ``caf�``; that pass refuses such a file naming the line
    (and a row with another number of fields, naming the row), and says whether a quoted value
    spans lines. Spark then splits the file across tasks unless it does (``multiLine``, which
    reads each file in one task, is only asked for when needed). A file Spark reads from
    elsewhere (``hdfs://``, ``s3://``) cannot be read here first: it is read with
    ``multiLine`` (correct whatever its quotes hold), and refused when a value holds the
    U+FFFD that Spark leaves for a byte that is not UTF-8 (one more pass over the data; the
    line cannot be named, and a file that holds U+FFFD itself is refused too). That pass
    also gives the header's names and the number of rows, so reading a local CSV file starts
    no Spark job.
    """
    sql = _spark()
    name = os.path.basename(str(path).rstrip("/")) or str(path)
    local = os.path.exists(path)
    if not local and "://" not in str(path):
        fail("file_missing", name=name)
    try:
        if os.path.isfile(path):
            parquet = _is_parquet(path)
        elif os.path.isdir(path):  # a folder Spark wrote: part files
            parquet = any(part.endswith((".parquet", ".pq")) for part in os.listdir(path))
        else:
            parquet = str(path).rstrip("/").endswith((".parquet", ".pq"))
    except OSError as error:
        fail("unreadable", name=name, kind="CSV", reason=str(error))
    kind = "Parquet" if parquet else "CSV"
    scan = None
    if not parquet and local and os.path.isfile(path):
        scan = check_csv_fields(path, name=name)
    try:
        if parquet:
            frame = spark.read.parquet(str(path))
        else:
            reader = (
                spark.read.option("header", True)
                .option("mode", "FAILFAST")
                .option("encoding", "UTF-8")
                # RFC 4180, as pyarrow and pandas read it: "a""b" is a"b (Spark escapes with \)
                .option("escape", '"')
                .option("multiLine", scan is None or scan.multiline)
            )
            if scan is not None and scan.rows is not None:
                # the pass gave the header's names and the number of rows: Spark need not run
                # a job to read the header, nor one to see whether the file has a row
                from pyspark.sql.types import StringType, StructField, StructType

                fields = [StructField(column, StringType()) for column in scan.columns]
                reader = reader.schema(StructType(fields))
            frame = reader.csv(str(path))
        if scan is not None and scan.rows is not None:
            empty = scan.rows == 0
        elif scan is not None and len(scan.columns) == len(frame.columns):
            frame = frame.toDF(*scan.columns)
            empty = frame.isEmpty()
        else:
            empty = not frame.columns or frame.isEmpty()
    except Exception as error:  # Spark raises its own (Py4J-backed) exception types
        if not _is_spark_error(sql, error):
            raise
        if parquet and os.path.isfile(path):  # it starts with PAR1 but Spark cannot read it
            fail("parquet_invalid", name=name)
        fail("unreadable", name=name, kind=kind, reason=_first_line(error))
    if empty:
        fail("empty_table", what="file", name=name)
    if not parquet and scan is None:
        F = sql.functions
        replaced = [F.col(f"`{column}`").contains("\ufffd") for column in frame.columns]
        if frame.filter(functools.reduce(operator.or_, replaced)).limit(1).count():
            fail("not_utf8", name=name, line="?")
    return frame


#: Spark's words for a file it failed to read while computing (its path follows).
_FAILED_READ = re.compile(r"Encountered error while reading file (\S+?)\.?(?:\s|$)")


@contextlib.contextmanager
def _file_errors() -> Iterator[None]:
    """A file Spark fails to read only while computing (a Parquet file damaged inside, its
    footer intact: ``spark.read`` and :func:`read_run` only read the footer) is refused with
    the message of :func:`read_run` naming the file, not Spark's failure of the job."""
    sql = _spark()
    try:
        yield
    except Exception as error:
        if not _is_spark_error(sql, error):
            raise
        found = _FAILED_READ.search(str(error))
        if found is None:
            raise
        from urllib.parse import unquote, urlparse

        path = unquote(urlparse(found[1]).path) or found[1]
        name = os.path.basename(path.rstrip("/")) or path
        parquet = path.endswith((".parquet", ".pq"))
        if not parquet and os.path.isfile(path):
            parquet = _is_parquet(path)
        if parquet:
            fail("parquet_invalid", name=name)
        causes = re.findall(r"Caused by: [\w.$]+: (.+)", str(error))
        fail("unreadable", name=name, kind="CSV", reason=(causes[-1] if causes else _first_line(error))[:300])


def _is_spark_error(sql: Any, error: Exception) -> bool:
    from pyspark.errors import PySparkException

    return isinstance(error, PySparkException) or type(error).__module__.startswith("py4j")


def _first_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return text[0][:300] if text else type(error).__name__


# --------------------------------------------------------------------------- checks


def _first(frame: DataFrame) -> Row:
    """The first row of a DataFrame known to have one: an aggregation over the whole frame,
    or the rows a count found."""
    row = frame.first()
    assert row is not None, "an aggregation, or rows a count found, has a first row"
    return row


def _as_double(frame: DataFrame, column: str) -> Column:
    """A column as double; text that is not a number becomes null (and is reported)."""
    F = _spark().functions
    from pyspark.sql.types import BooleanType, NumericType

    kind = frame.schema[column].dataType
    double: Column
    double = (
        F.col(column).cast("double")
        if isinstance(kind, (NumericType, BooleanType))
        else F.col(column).try_cast("double")
    )
    return double


def _not_finite(value: Column) -> Column:
    F = _spark().functions
    flags: Column = value.isNull() | F.isnan(value) | (F.abs(value) == float("inf"))
    return flags


def _gain(rel: Column, gain: str) -> Column:
    """gain(rel) as Spark computes it: the formulas of gains.py."""
    F = _spark().functions
    gains: Column = rel if gain == "linear" else F.pow(F.lit(2.0), rel) - F.lit(1.0)
    return gains


#: The input order of a row during the checks (``monotonically_increasing_id``: increasing
#: in the order of a file's rows, not consecutive); a row's number is 1 + how many rows have a
#: smaller one, counted only when an error names it.
_ROW = "__ndcg_row"


def _row_numbers(rows: DataFrame, ids: list[int]) -> list[int]:
    """The 1-based numbers (data rows, in input order) of the rows with these ``_ROW`` ids."""
    F = _spark().functions
    before = _first(
        rows.agg(
            *[F.sum(F.when(F.col(_ROW) < F.lit(i), 1).otherwise(0)).alias(f"b{n}") for n, i in enumerate(ids)]
        )
    )
    return [int(before[f"b{n}"] or 0) + 1 for n in range(len(ids))]


def _shown(value: Any) -> Any:
    """A cell for a message, as :func:`ndcg_core.batch._shown` shows it."""
    if value is None:
        return "a missing value"
    if isinstance(value, str) and len(value) > 40:
        return value[:40] + "..."
    return value


def _check(
    frame: DataFrame, *, query: str, relevance: str, score: str, item: str | None, gain: str = "linear"
) -> None:
    """The pandas engine's checks, in its order and with its messages (``bad_column``,
    ``duplicate_pair``, ``gain_overflow_row``, ``sum_overflow_query``, naming the row): one
    pass finds the first bad row of each kind; the passes that number it run only on error."""
    F = _spark().functions
    from pyspark.sql.types import BooleanType, NumericType, StringType

    rows = frame.select(
        *[F.col(f"`{name}`") for name in dict.fromkeys((query, relevance, score, *([item] if item else [])))],
        F.monotonically_increasing_id().alias(_ROW),
    )
    problems: list[tuple[str, Column, str]] = [
        (query, _missing_id(query), "rule_id"),
        (query, _nul_id(query), "rule_id_no_nul"),
    ]
    # the same pass finds the largest gain (no pass of its own; a grade column of another type
    # is refused before it is read); the repeated (query, item) pairs take a groupBy of their
    # own: a distinct count in this pass adds a shuffle of every row, slower on a large run
    # (bench/README.md). The passes that name a row run on error only.
    gains: Column | None = None
    for column, grade in ((relevance, True), (score, False)):
        kind = frame.schema[column].dataType
        if not isinstance(kind, (NumericType, BooleanType, StringType)):
            # dates, times, binary: not grades or scores (pandas names the first row)
            problems.append((column, F.lit(True), "rule_type"))
            continue
        raw, number = F.col(column), _as_double(frame, column)
        if isinstance(kind, StringType):
            problems.append((column, raw.isNotNull() & (raw != "") & number.isNull(), "rule_number"))
        problems.append((column, _not_finite(number), "rule_finite"))
        if grade:
            problems.append((column, ~_not_finite(number) & (number < 0), "rule_grade"))
            gains = _gain(number, gain)
    if item is not None:
        problems += [(item, _missing_id(item), "rule_id"), (item, _nul_id(item), "rule_id_no_nul")]
    found = _first(
        rows.agg(
            F.count(F.lit(1)).alias("n"),
            *[
                F.min(F.when(condition, F.col(_ROW))).alias(f"c{n}")
                for n, (_, condition, _) in enumerate(problems)
            ],
            *(_gain_aggregates(gains) if gains is not None else []),
        )
    )
    if not found["n"]:
        fail("empty_table", what="run")
    for n, (column, _, rule) in enumerate(problems):
        first = found[f"c{n}"]
        if first is None:
            continue
        (row,) = _row_numbers(rows, [int(first)])
        cell = _first(rows.filter(F.col(_ROW) == first).select(F.col(column)))[0]
        value: Any
        if rule == "rule_type":
            value, rule, row = str(_first(rows.select(F.col(column)))[0]), "rule_number", 1
        elif rule == "rule_id":
            value = "a missing value"
        elif rule == "rule_id_no_nul":
            value = str(cell)
        elif rule == "rule_number":
            value = _shown(cell)
        else:  # rule_finite, rule_grade: the number (a missing one is NaN, as pandas reads it)
            got = _first(rows.filter(F.col(_ROW) == first).select(_as_double(frame, column)))[0]
            value = float("nan") if got is None else float(got)
        fail("bad_column", row=row, column=column, value=value, rule=rule)
    if item is not None:
        repeated = (
            rows.groupBy(query, item)
            .agg(F.count(F.lit(1)).alias("count"), F.min(_ROW).alias("first"))
            .filter(F.col("count") > 1)
            .orderBy("first")
            .limit(1)
            .collect()
        )
        if repeated:
            pair = repeated[0]
            same = (F.col(query) == F.lit(pair[query])) & (F.col(item) == F.lit(pair[item]))
            ids = [int(r[0]) for r in rows.filter(same).select(_ROW).orderBy(_ROW).limit(5).collect()]
            fail(
                "duplicate_pair",
                item=_shown(str(pair[item])),
                query=_shown(str(pair[query])),
                rows=", ".join(map(str, _row_numbers(rows, ids))),
            )
    _check_gains(rows, query=query, relevance=relevance, gain=gain, numbered=True, top=found)


def _gain_aggregates(gains: Column) -> list[Column]:
    """The aggregates :func:`_check_gains` reads (``top``, ``first``), over rows with ``_ROW``."""
    F = _spark().functions
    return [F.max(gains).alias("top"), F.min(F.when(gains == float("inf"), F.col(_ROW))).alias("first")]


def _check_gains(
    frame: DataFrame,
    *,
    query: str,
    relevance: str,
    gain: str,
    numbered: bool = False,
    top: Row | None = None,
) -> None:
    """The rule of :func:`ndcg_core.gains.first_overflow`: every gain, and every query's sum
    of gains, finite (discounts are at most 1, so then every DCG and IDCG is finite).

    ``numbered``: ``frame`` has the checks' row ids, and the error names the row as the pandas
    engine's :func:`ndcg_core.batch.evaluate` does; else (judgments, as ``ndcg_core.trec``)
    the grade, and the query. ``top``: the row of :func:`_gain_aggregates` and ``n`` (the
    number of rows), when a pass over ``frame`` has computed them already."""
    F = _spark().functions
    Window = _spark().window.Window
    if not numbered:
        frame = frame.withColumn(_ROW, F.monotonically_increasing_id())
    grades = _as_double(frame, relevance)
    gains = _gain(grades, gain)
    if top is None:
        top = _first(frame.agg(F.count(F.lit(1)).alias("n"), *_gain_aggregates(gains)))
    largest = float(top["top"] or 0.0)
    if largest == float("inf"):
        grade = _first(frame.filter(F.col(_ROW) == top["first"]).select(grades))[0]
        if not numbered:
            fail("gain_overflow", value=float(grade))
        (row,) = _row_numbers(frame, [int(top["first"])])
        fail("gain_overflow_row", row=row, column=relevance, value=float(grade))
    if largest * int(top["n"]) < 1.7e308:  # no sum can reach infinity: skip the grouping
        return
    # each query's running sum in input order; the first row where it reaches infinity
    running = F.sum(gains).over(
        Window.partitionBy(query).orderBy(_ROW).rowsBetween(Window.unboundedPreceding, Window.currentRow)
    )
    over = (
        frame.select(F.col(query), F.col(_ROW), grades.alias("grade"), running.alias("total"))
        .filter(F.col("total") == float("inf"))
        .orderBy(_ROW)
        .limit(1)
        .collect()
    )
    if over and not numbered:
        grade = _first(frame.filter(F.col(query) == over[0][query]).agg(F.max(grades)))[0]
        fail("sum_overflow_spark", query=str(over[0][query]), value=float(grade))
    if over:
        (row,) = _row_numbers(frame, [int(over[0][_ROW])])
        fail("sum_overflow_query", query=str(over[0][query]), row=row, value=float(over[0]["grade"]))


# --------------------------------------------------------------------------- engine


def _discount(position: Column, discount: str, k: int | None) -> Column:
    """discount(position), positions from 1, zero beyond k (the formulas of discounting.py)."""
    F = _spark().functions
    value: Column
    if discount == "log2":
        value = F.lit(1.0) / F.log2(position + F.lit(1.0))
    else:
        # 1 before position b, then 1 / log_b(i): the same expression as discounting.py.
        value = F.when(position < JARVELIN_BASE, F.lit(1.0)).otherwise(
            F.lit(1.0) / (F.log(position.cast("double")) / F.log(F.lit(float(JARVELIN_BASE))))
        )
    if k is not None:
        value = F.when(position <= k, value).otherwise(F.lit(0.0))
    return value


def evaluate(
    frame: DataFrame,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    ties: Ties = "average",
    no_relevant: NoRelevant = "zero",
    options: Options | None = None,
    query: str = "query",
    relevance: str = "relevance",
    score: str = "score",
    item: str | None = "item",
    validate: bool = True,
) -> DataFrame:
    """nDCG@k of every query of a Spark DataFrame run; the pandas engine's numbers.

    Parameters
    ----------
    frame : pyspark.sql.DataFrame
        One row per (query, item): query id, grade, score.
    k, gain, discount, ties, no_relevant, options, query, relevance, score, item
        As in :func:`ndcg_core.batch.evaluate`.
    validate : bool
        Check the data first (one extra pass; more only to name a bad row, or to sum the
        gains of each query when their largest could overflow): missing or non-numeric
        values, infinities, negative grades, repeated (query, item) pairs, gains or sums of
        gains that are not finite. Turn it off only for data already checked.

    Returns
    -------
    pyspark.sql.DataFrame
        Lazy; one row per query with the columns ``query, n_items, dcg, idcg, ndcg``.

    Raises
    ------
    NDCGInputError
        On an unknown option or invalid ``k``, a missing column, or (with ``validate``) bad
        values, naming the column, how many rows and an example.
    ImportError
        Without PySpark.
    """
    sql = _spark()
    F, Window = sql.functions, sql.window.Window
    if options is not None:
        k, gain, discount, ties, no_relevant = _from_options(options, k, gain, discount, ties, no_relevant)
    _check_options(k, gain, discount, ties, no_relevant)
    check_roles(query=query, relevance=relevance, score=score, item=item)
    for column in (query, relevance, score):
        if column not in frame.columns:
            fail("missing_column", column=column, columns=", ".join(map(repr, frame.columns)))
    named = item
    if item is not None and item not in frame.columns:
        if item != "item":
            fail("missing_column", column=item, columns=", ".join(map(repr, frame.columns)))
        item = None
    if ties == "trec_eval" and item is None:
        fail("ties_needs_item", column=named or "item")
    if validate:
        _check(frame, query=query, relevance=relevance, score=score, item=item, gain=gain)

    rows = frame.select(
        F.col(query).cast("string").alias("query"),
        _as_double(frame, relevance).alias("rel"),
        _as_double(frame, score).alias("score"),
        *([F.monotonically_increasing_id().alias("row")] if ties == "input" else []),
        *([F.col(item).cast("string").alias("item")] if ties == "trec_eval" else []),
    )
    rows = rows.withColumn("gain", _gain(F.col("rel"), gain))
    tie_break = {
        "average": [],
        "input": [F.col("row").asc()],
        # trec_eval: item id descending, compared as strings (Spark compares UTF-8 bytes,
        # which is the order of code points, as Python's str and trec_eval's strcmp)
        "trec_eval": [F.col("item").desc()],
        "optimistic": [F.col("rel").desc()],
        "pessimistic": [F.col("rel").asc()],
    }[ties]
    ranking = Window.partitionBy("query").orderBy(F.col("score").desc(), *tie_break)
    ideal = Window.partitionBy("query").orderBy(F.col("rel").desc())
    gained = F.col("gain")
    if ties == "average":
        gained = F.avg("gain").over(Window.partitionBy("query", "score"))
    rows = rows.select(
        "query",
        (gained * _discount(F.row_number().over(ranking), discount, k)).alias("dcg_term"),
        (F.col("gain") * _discount(F.row_number().over(ideal), discount, k)).alias("idcg_term"),
    )
    per_query = rows.groupBy("query").agg(
        F.count(F.lit(1)).cast("long").alias("n_items"),
        F.sum("dcg_term").alias("dcg"),
        F.sum("idcg_term").alias("idcg"),
    )
    empty = F.lit(0.0) if no_relevant == "zero" else F.lit(float("nan"))
    return per_query.withColumn(
        "ndcg", F.when(F.col("idcg") > 0, F.col("dcg") / F.col("idcg")).otherwise(empty)
    )


def summarize_spark(per_query: DataFrame, *, no_relevant: NoRelevant = "zero") -> RunSummary:
    """:func:`ndcg_core.batch.summarize` computed by Spark (one aggregation, nothing collected
    but four numbers)."""
    F = _spark().functions
    check_choice(no_relevant, NO_RELEVANT, option="no_relevant")
    relevant = F.col("idcg") > 0
    row = _first(
        per_query.agg(
            F.count(F.lit(1)).alias("n"),
            F.sum(F.when(relevant, 0).otherwise(1)).alias("none"),
            F.sum(F.when(relevant, F.col("ndcg")).otherwise(0.0)).alias("total"),
        )
    )
    n, none, total = int(row["n"]), int(row["none"] or 0), float(row["total"] or 0.0)
    in_mean = n - none if no_relevant == "drop" else n
    return RunSummary(
        mean=total / in_mean if in_mean else float("nan"), n_queries=n, n_no_relevant=none, n_in_mean=in_mean
    )


def evaluate_run(
    frame: DataFrame,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    ties: Ties = "average",
    no_relevant: NoRelevant = "zero",
    options: Options | None = None,
    query: str = "query",
    relevance: str = "relevance",
    score: str = "score",
    item: str | None = "item",
    validate: bool = True,
) -> RunResult:
    """:func:`evaluate` with the per-query rows brought to pandas (one row per query, sorted
    by query) and summarised as :func:`ndcg_core.batch.evaluate_run` does. A file that Spark
    fails to read while computing is refused by name (``parquet_invalid``, ``unreadable``)."""
    if options is not None:
        k, gain, discount, ties, no_relevant = _from_options(options, k, gain, discount, ties, no_relevant)
    with _file_errors():
        per_query = evaluate(
            frame,
            k=k,
            gain=gain,
            discount=discount,
            ties=ties,
            no_relevant=no_relevant,
            query=query,
            relevance=relevance,
            score=score,
            item=item,
            validate=validate,
        )
        rows: pd.DataFrame = per_query.toPandas()
    table = rows.sort_values("query", ignore_index=True)
    return RunResult.summarized(table, k=k, gain=gain, discount=discount, ties=ties, no_relevant=no_relevant)


# --------------------------------------------------------------------------- TREC: qrels and runs

#: Column names of judgments (qrels) and of runs, as in :func:`ndcg_core.trec.evaluate_trec`.
QRELS_COLUMNS: tuple[str, str, str] = ("query", "item", "relevance")
RUN_COLUMNS: tuple[str, str, str] = ("query", "item", "score")


def _columns_present(frame: DataFrame, names: tuple[str, ...]) -> None:
    for column in names:
        if column not in frame.columns:
            fail("missing_column", column=column, columns=", ".join(map(repr, frame.columns)))


def _text_id(column: str) -> Column:
    F = _spark().functions
    text: Column = F.col(column).cast("string")
    return text


def _scalar_columns(frame: DataFrame, ids: tuple[str, ...], numbers: tuple[str, ...]) -> None:
    """Refuse an id or number column of lists, maps or records (an ``array<string>`` item
    column cast to text would be the id ``[d2]``, matching nothing)."""
    from pyspark.sql.types import ArrayType, MapType, StructType

    for columns, rule in ((ids, "rule_scalar_id"), (numbers, "rule_number")):
        for column in columns:
            kind = frame.schema[column].dataType
            if isinstance(kind, (ArrayType, MapType, StructType)):
                fail("column_type", column=column, type=kind.simpleString(), rule=rule)


def _runs_frame(runs: DataFrame | Mapping[str, DataFrame], *, with_row: bool) -> DataFrame:
    """One frame ``run, query, item, raw_score, score[, row]`` (ids as text, score as double)
    from a frame with a ``run`` column or from a mapping of run names to frames."""
    F = _spark().functions

    def part(frame: DataFrame, run: Column) -> DataFrame:
        return frame.select(
            run.alias("run"),
            _text_id("query").alias("query"),
            _text_id("item").alias("item"),
            F.col("score").alias("raw_score"),
            _as_double(frame, "score").alias("score"),
        )

    if isinstance(runs, Mapping):
        if not runs:
            fail("empty_table", what="run")
        parts = []
        for name, frame in runs.items():
            _columns_present(frame, RUN_COLUMNS)
            _scalar_columns(frame, ("query", "item"), ("score",))
            parts.append(part(frame, F.lit(str(name))))
        rows = parts[0]
        for other in parts[1:]:
            rows = rows.unionByName(other)
    else:
        _columns_present(runs, ("run", *RUN_COLUMNS))
        _scalar_columns(runs, ("run", "query", "item"), ("score",))
        rows = part(runs, _text_id("run"))
    if with_row:
        rows = rows.withColumn("row", F.monotonically_increasing_id())
    return rows


def _qrels_frame(qrels: DataFrame) -> DataFrame:
    """``query, item, raw_relevance, relevance`` with ids as text and the grade as double."""
    F = _spark().functions
    _columns_present(qrels, QRELS_COLUMNS)
    _scalar_columns(qrels, ("query", "item"), ("relevance",))
    return qrels.select(
        _text_id("query").alias("query"),
        _text_id("item").alias("item"),
        F.col("relevance").alias("raw_relevance"),
        _as_double(qrels, "relevance").alias("relevance"),
    )


def _missing_id(column: str) -> Column:
    F = _spark().functions
    # as text: an integer id column compared with "" would be a failed cast (ANSI mode)
    flag: Column = F.col(column).isNull() | (F.col(column).cast("string") == F.lit(""))
    return flag


def _nul_id(column: str) -> Column:
    """An id holding NUL, which C programs (trec_eval) end there (as ndcg_core.trec refuses)."""
    F = _spark().functions
    flag: Column = F.col(column).cast("string").contains("\x00")
    return flag


def _count_problems(frame: DataFrame, problems: list[tuple[str, str, Column, str]], *, what: str) -> None:
    """One pass counting each kind of bad value (``(column named, column shown, condition,
    rule)``); a second pass only to show an example, as written in the input."""
    F = _spark().functions
    counts = _first(
        frame.agg(
            F.count(F.lit(1)).alias("n"),
            *[
                F.sum(F.when(condition, 1).otherwise(0)).alias(f"c{index}")
                for index, (_, _, condition, _) in enumerate(problems)
            ],
        )
    )
    if not counts["n"]:
        fail("empty_table", what=what)
    for index, (column, shown, condition, rule) in enumerate(problems):
        count = counts[f"c{index}"] or 0
        if count:
            example = _first(frame.filter(condition).select(F.col(shown)))[0]
            fail(
                "bad_values",
                column=column,
                count=int(count),
                rule=rule,
                value="a missing value" if example is None else example,
            )


def _check_trec(runs: DataFrame, qrels: DataFrame, *, gain: str) -> None:
    """Missing ids, scores and grades that are not finite numbers, a (query, item) pair twice in
    a run, a judged pair with two different grades, gains that overflow. Negative grades are
    allowed in qrels (trec_eval's "judged, not relevant"; they count as gain 0)."""
    F = _spark().functions
    _count_problems(
        runs,
        [
            ("run", "run", _missing_id("run"), "rule_id"),
            ("query", "query", _missing_id("query"), "rule_id"),
            ("item", "item", _missing_id("item"), "rule_id"),
            ("query", "query", _nul_id("query"), "rule_id_no_nul"),
            ("item", "item", _nul_id("item"), "rule_id_no_nul"),
            ("score", "raw_score", _not_finite(F.col("score")), "rule_finite"),
        ],
        what="run",
    )
    _count_problems(
        qrels,
        [
            ("query", "query", _missing_id("query"), "rule_id"),
            ("item", "item", _missing_id("item"), "rule_id"),
            ("query", "query", _nul_id("query"), "rule_id_no_nul"),
            ("item", "item", _nul_id("item"), "rule_id_no_nul"),
            ("relevance", "raw_relevance", _not_finite(F.col("relevance")), "rule_finite"),
        ],
        what="qrels",
    )
    repeated = runs.groupBy("run", "query", "item").count().filter(F.col("count") > 1).limit(1).collect()
    if repeated:
        row = repeated[0]
        fail(
            "duplicate_pairs_run",
            item=row["item"],
            query=row["query"],
            run=row["run"],
            count=int(row["count"]),
        )
    conflicts = (
        qrels.groupBy("query", "item")
        .agg(F.min("relevance").alias("low"), F.max("relevance").alias("high"))
        .filter(F.col("low") != F.col("high"))
        .limit(1)
        .collect()
    )
    if conflicts:
        row = conflicts[0]
        fail(
            "qrels_conflict_table",
            item=row["item"],
            query=row["query"],
            low=float(row["low"]),
            high=float(row["high"]),
        )
    _check_gains(qrels, query="query", relevance="relevance", gain=gain)


def evaluate_trec(
    qrels: DataFrame,
    runs: DataFrame | Mapping[str, DataFrame],
    *,
    k: Any = 10,
    gain: Gain = "linear",
    discount: Discount = "log2",
    ties: BatchTies = "trec_eval",
    ideal: Ideal = "pool",
    unjudged: Unjudged = "zero",
    missing: Missing = "zero",
    no_relevant: NoRelevant = "zero",
    options: Options | None = None,
    validate: bool = True,
) -> DataFrame:
    """nDCG@k of every (run, query) against separate judgments, the IR way, on Spark.

    The defaults are ``trec_eval -c -m ndcg_cut.k``: the ideal from the judged pool (every
    judged item of the query), ties ranked by score descending then item id descending as a
    string, unjudged retrieved items with gain 0, and judged queries a run does not answer
    counted as 0. A negative grade (-1, -2 in many TREC qrels) is handled as trec_eval handles
    it: the item is in the pool (its query is judged) but not judged; its gain is 0 in DCG and
    in the ideal, ``unjudged="drop"`` removes it (as ``trec_eval -J``) and judged@k does not
    count it. Queries of a run without any judgment are left out
    (:func:`queries_without_judgments` lists them). These are the conventions of
    :func:`ndcg_core.trec.evaluate_trec`, the pandas engine, whose ``per_query`` table this
    function's rows equal.

    Several cutoffs (``k="5,10,20"``) are computed in one pass: each row's position and
    discount once (one sort per run and query), then one conditional sum per cutoff.

    Parameters
    ----------
    qrels : pyspark.sql.DataFrame
        Judgments: one row per judged (query, item), columns ``query, item, relevance``.
        A pair may repeat only with the same grade.
    runs : pyspark.sql.DataFrame or mapping of str to pyspark.sql.DataFrame
        Ranked results: columns ``query, item, score``, with a ``run`` column naming each
        system, or a mapping from run name to such a frame (without ``run``).
    k, gain, discount, ties, ideal, unjudged, missing, no_relevant
        The options of :class:`ndcg_core.options.Options` (see its ``DESCRIPTIONS``), or all of
        them as ``options`` (as in :func:`ndcg_core.trec.evaluate_trec`; ``grades`` stays
        ``"any"``: the grades are used as given). Inside
        a tie, ``"average"``, ``"optimistic"`` and ``"pessimistic"`` fall back on the input
        order (``monotonically_increasing_id``) where the order matters for judged@k only.
    validate : bool
        Check ids, scores, grades, repeated pairs and gains first (a few Spark jobs).

    Returns
    -------
    pyspark.sql.DataFrame
        Lazy, in no particular order; one row per (run, judged query) with the columns
        ``run, query, n_items``, then ``ndcg``, ``dcg``, ``idcg`` and ``judged`` (named
        ``ndcg@5``, ``ndcg@10``, ... for several cutoffs, see
        :func:`ndcg_core.options.measure_columns`), and ``missing``. ``n_items`` counts the
        items the run returned (before ``unjudged="drop"`` removes any); judged@k is the share
        of the first min(k, n) returned items that are judged (as ir_measures' ``Judged@k``
        divides since 0.3.1). A judged query the run does not answer has a row with
        ``missing`` true, ``n_items`` 0, DCG 0, judged NaN and nDCG 0 (``missing="drop"``:
        NaN). nDCG is NaN wherever the options leave the query out of the mean
        (``missing="drop"``, or IDCG 0 with ``no_relevant="drop"``); :func:`summarize_trec`
        averages the others.

    Raises
    ------
    NDCGInputError
        On an unknown option, a missing column, or (with ``validate``) bad values, naming the
        column, the pair or the query.
    """
    sql = _spark()
    F, Window = sql.functions, sql.window.Window
    options = engine_options(
        options,
        TREC_DEFAULTS,
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        ideal=ideal,
        unjudged=unjudged,
        missing=missing,
        no_relevant=no_relevant,
    )
    if options.grades != "any":
        fail("unknown_option", option="grades", allowed="any", got=options.grades)
    # every ranking ends on the input order, as the pandas engine's (stable sorts)
    run_rows = _runs_frame(runs, with_row=True)
    judged_rows = _qrels_frame(qrels)
    if validate:
        _check_trec(run_rows, judged_rows, gain=options.gain)
    run_rows = run_rows.drop("raw_score")
    judgments = judged_rows.select("query", "item", "relevance").distinct()
    # a negative grade has gain 0, as in trec_eval
    positive = F.greatest(F.col("relevance"), F.lit(0.0))
    judgments = judgments.withColumn("gain", _gain(positive, options.gain))
    cutoffs: tuple[int | None, ...] = options.k if options.k is not None else (None,)
    names = {measure: measure_columns(options.k, measure) for measure in ("ndcg", "dcg", "idcg", "judged")}

    # the run's rows of judged queries, with their grades (null: unjudged)
    queries = judgments.select("query").distinct()
    rows = run_rows.join(queries, "query", "left_semi").join(
        judgments.select("query", "item", "relevance", "gain"), ["query", "item"], "left"
    )
    rows = rows.select(
        "*",
        # trec_eval codes "not judged" as a negative grade: an item graded below 0 is in the
        # pool (its query is judged) but not judged, so -J removes it and judged@k skips it
        F.coalesce(F.col("relevance") >= 0, F.lit(False)).cast("int").alias("judged"),
    ).withColumn("gain", F.coalesce(F.col("gain"), F.lit(0.0)))
    tie_break = {
        "average": [F.col("row").asc()],  # any order: the tie's mean gain is the same
        "input": [F.col("row").asc()],
        # item id descending, compared as strings (UTF-8 bytes: code point order, as strcmp)
        "trec_eval": [F.col("item").desc()],
        "optimistic": [F.col("gain").desc(), F.col("row").asc()],
        "pessimistic": [F.col("gain").asc(), F.col("row").asc()],
    }[options.ties]
    ranking = Window.partitionBy("run", "query").orderBy(F.col("score").desc(), *tie_break)
    drop = options.unjudged == "drop"
    position = F.row_number().over(ranking)
    # the condensed list's position: how many judged items up to this one (same window, one sort)
    condensed = F.sum("judged").over(ranking.rowsBetween(Window.unboundedPreceding, Window.currentRow))
    rows = rows.select(
        "run", "query", "gain", "judged", "score", position.alias("position"), condensed.alias("cpos")
    )
    gained = F.col("gain")
    if options.ties == "average":
        # the mean over a tie group is the average over all its orders (McSherry & Najork);
        # in the condensed list the group holds its judged items only
        group = Window.partitionBy("run", "query", "score")
        gained = F.avg(F.when(F.col("judged") == 1, F.col("gain")) if drop else F.col("gain")).over(group)
    if drop:
        gained = F.when(F.col("judged") == 1, gained).otherwise(F.lit(0.0))
    # an item removed before the first judged one has condensed position 0; its term is 0,
    # but Spark (ANSI mode) would still refuse 1 / log2(1), so it is given position 1
    ranked_at = F.greatest(F.col("cpos"), F.lit(1)) if drop else F.col("position")
    rows = rows.select(
        "run",
        "query",
        "position",
        "judged",
        ranked_at.alias("at"),
        (gained * _discount(ranked_at, options.discount, None)).alias("term"),
    )

    def upto(cut: int | None, at: str, value: str) -> Column:
        """The value of the rows at or above the cutoff (all rows without one), else 0."""
        column: Column = F.col(value) if cut is None else F.when(F.col(at) <= cut, F.col(value)).otherwise(0)
        return column

    count = F.count(F.lit(1))
    per_query = rows.groupBy("run", "query").agg(
        count.cast("long").alias("n_items"),
        *[
            F.sum(upto(cut, "at", "term")).alias(name)
            for cut, name in zip(cutoffs, names["dcg"], strict=True)
        ],
        # the share of the first min(k, n) returned items that are judged (the whole list)
        *[
            (F.sum(upto(cut, "position", "judged")) / (count if cut is None else F.least(count, F.lit(cut))))
            .cast("double")
            .alias(name)
            for cut, name in zip(cutoffs, names["judged"], strict=True)
        ],
    )

    # IDCG: the positive gains of the pool (per query) or of the returned list (per run, query)
    def ideal_sums(frame: DataFrame, keys: list[str]) -> DataFrame:
        order = Window.partitionBy(*keys).orderBy(F.col("gain").desc())
        terms = (
            frame.filter(F.col("gain") > 0)
            .select(*keys, F.row_number().over(order).alias("at"), "gain")
            .select(
                *keys, "at", (F.col("gain") * _discount(F.col("at"), options.discount, None)).alias("term")
            )
        )
        return terms.groupBy(*keys).agg(
            *[
                F.sum(upto(cut, "at", "term")).alias(name)
                for cut, name in zip(cutoffs, names["idcg"], strict=True)
            ]
        )

    if options.ideal == "pool":
        ideal_keys = ["query"]
        ideals = ideal_sums(judgments, ideal_keys)
    else:  # the returned list's grades: those of its judged items (the others have gain 0)
        ideal_keys = ["run", "query"]
        listed = run_rows.join(judgments.select("query", "item", "gain"), ["query", "item"], "inner")
        ideals = ideal_sums(listed, ideal_keys)
    answered = per_query.join(ideals, ideal_keys, "left").withColumn("missing", F.lit(False))
    # every judged query a run does not answer: no items, DCG 0, judged@k undefined
    pairs = run_rows.select("run").distinct().crossJoin(queries)
    absent = pairs.join(per_query.select("run", "query"), ["run", "query"], "left_anti")
    if options.ideal == "pool":
        absent = absent.join(ideals, "query", "left")
    else:  # the returned list is empty, so is its ideal
        absent = absent.select("*", *[F.lit(0.0).alias(name) for name in names["idcg"]])
    absent = absent.select(
        "*",
        F.lit(0).cast("long").alias("n_items"),
        *[F.lit(0.0).alias(name) for name in names["dcg"]],
        *[F.lit(float("nan")).alias(name) for name in names["judged"]],
        F.lit(True).alias("missing"),
    )
    result = answered.unionByName(absent).fillna(0.0, subset=list(names["idcg"]))
    nan = F.lit(float("nan"))
    empty = F.lit(0.0) if options.no_relevant == "zero" else nan
    ndcg = []
    for dcg_name, idcg_name, name in zip(names["dcg"], names["idcg"], names["ndcg"], strict=True):
        value = F.when(F.col(idcg_name) > 0, F.col(dcg_name) / F.col(idcg_name)).otherwise(empty)
        if options.missing == "drop":
            value = F.when(F.col("missing"), nan).otherwise(value)
        ndcg.append(value.alias(name))
    return result.select(
        "run",
        "query",
        "n_items",
        *ndcg,
        *names["dcg"],
        *names["idcg"],
        *names["judged"],
        "missing",
    )


def summarize_trec(per_query: DataFrame) -> DataFrame:
    """One row per run of :func:`evaluate_trec`'s result: ``run, n_queries`` (the queries in
    the mean: nDCG not NaN) and the mean of each nDCG column over them, and of each judged
    column over the queries the run answered (judged not NaN), as
    ``ndcg_core.trec.TrecResult.means``. A run with no query in the mean has null means."""
    F = _spark().functions
    ndcg = [name for name in per_query.columns if name == "ndcg" or name.startswith("ndcg@")]
    judged = [name for name in per_query.columns if name == "judged" or name.startswith("judged@")]
    if not ndcg:
        fail("missing_column", column="ndcg", columns=", ".join(map(repr, per_query.columns)))

    def value(name: str) -> Column:
        """The column's numbers, NaN as null (Spark's avg would return NaN; a table written by
        another tool may hold null for NaN)."""
        column: Column = F.when(~F.isnan(F.col(name)), F.col(name))
        return column

    return (
        per_query.groupBy("run")
        .agg(
            F.count(value(ndcg[0])).cast("long").alias("n_queries"),
            *[F.avg(value(name)).alias(name) for name in (*ndcg, *judged)],
        )
        .orderBy("run")
    )


def queries_without_judgments(qrels: DataFrame, runs: DataFrame | Mapping[str, DataFrame]) -> DataFrame:
    """The (run, query) pairs that :func:`evaluate_trec` leaves out because the qrels judge
    nothing for the query: columns ``run, query, n_items``."""
    F = _spark().functions
    judged = _qrels_frame(qrels).select("query").distinct()
    rows = _runs_frame(runs, with_row=False).join(judged, "query", "left_anti")
    return rows.groupBy("run", "query").agg(F.count(F.lit(1)).cast("long").alias("n_items"))


# --------------------------------------------------------------------------- warehouse tables


#: An identifier Spark reads without backticks.
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_]+")


def table_name_parts(name: str) -> tuple[str | None, str]:
    """The database (or None) and the table of a name written ``table``, ``db.table`` or with
    backticks, as Spark's SQL reads it: ``db.`a.b``` is the table ``a.b`` of ``db``, and a
    backtick inside backticks is doubled. Anything else is refused by name.

    >>> table_name_parts("ir.`per.query`")
    ('ir', 'per.query')
    >>> table_name_parts("result")
    (None, 'result')
    """
    text = str(name)
    parts: list[str] = []
    at = 0
    while True:
        if text.startswith("`", at):
            pieces, start = [], at + 1
            while True:
                end = text.find("`", start)
                if end < 0:
                    fail("table_name_invalid", name=name)
                if text.startswith("``", end):
                    pieces.append(text[start : end + 1])
                    start = end + 2
                    continue
                pieces.append(text[start:end])
                at = end + 1
                break
            part = "".join(pieces)
        else:
            found = _PLAIN_NAME.match(text, at)
            if found is None:
                fail("table_name_invalid", name=name)
            part, at = found[0], found.end()
        if not part.strip():
            fail("table_name_invalid", name=name)
        parts.append(part)
        if at == len(text):
            break
        if text[at] != "." or len(parts) == 2:
            fail("table_name_invalid", name=name)
        at += 1
    return (parts[0], parts[1]) if len(parts) == 2 else (None, parts[0])


def _quoted(database: str | None, table: str) -> str:
    """A name Spark's parser reads back as exactly these parts."""
    parts = ([] if database is None else [database]) + [table]
    return ".".join("`" + part.replace("`", "``") + "`" for part in parts)


def _resolved(spark: SparkSession, name: str) -> tuple[str, str]:
    """(database, table) of a name, the current database filled in, case folded as the
    metastore folds it."""
    database, table = table_name_parts(name)
    return (database or spark.catalog.currentDatabase()).casefold(), table.casefold()


def read_table(spark: SparkSession, name: str) -> DataFrame:
    """A metastore table (``"db.table"``, backticks allowed) through ``spark.table``; a bad
    name, a table that does not exist, or one without rows is refused by name."""
    _spark()
    quoted = _quoted(*table_name_parts(name))
    if not spark.catalog.tableExists(quoted):
        fail("table_missing", name=name)
    frame = spark.table(quoted)
    if frame.isEmpty():
        fail("empty_table", what="table", name=name)
    return frame


def check_output_table(
    spark: SparkSession, name: str, *, inputs: Sequence[str] = (), overwrite: bool = False
) -> None:
    """Refuse ``name`` as the table the results are written to: a bad name
    (``table_name_invalid``), one of the ``inputs`` (``output_is_input``), a view
    (``table_is_view``), a database that does not exist (``database_missing``), a table that
    exists unless ``overwrite`` (``table_exists``). Checked before any work is done."""
    _spark()
    database, table = table_name_parts(name)
    target = _resolved(spark, name)
    if any(_resolved(spark, source) == target for source in inputs):
        fail("output_is_input", name=name)
    if database is not None and not spark.catalog.databaseExists(database):
        fail("database_missing", database=database, name=name)
    quoted = _quoted(database, table)
    if spark.catalog.tableExists(quoted):
        found = spark.catalog.getTable(quoted)
        if found.isTemporary or str(found.tableType).upper() in ("VIEW", "TEMPORARY"):
            fail("table_is_view", name=name)
        if not overwrite:
            fail("table_exists", name=name)


def write_table(frame: DataFrame, name: str, *, overwrite: bool = False, inputs: Sequence[str] = ()) -> None:
    """Write a result as the metastore table ``name`` (``"db.result"``, backticks allowed).

    An existing table is replaced only with ``overwrite``; a view, one of the ``inputs`` (the
    tables ``frame`` was computed from), a bad name or a database that does not exist is
    refused by name (:func:`check_output_table`)."""
    check_output_table(frame.sparkSession, name, inputs=inputs, overwrite=overwrite)
    sql = _spark()
    try:
        frame.write.mode("overwrite" if overwrite else "errorifexists").saveAsTable(
            _quoted(*table_name_parts(name))
        )
    except Exception as error:
        # a name Spark parses but the catalog refuses (Hive: letters, digits and _ only)
        if _is_spark_error(sql, error) and "INVALID_SCHEMA_OR_RELATION_NAME" in str(error):
            fail("table_name_invalid", name=name)
        raise
