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

No Python UDF runs on the rows. PySpark is optional: it is imported inside the functions, so
``import ndcg_core`` works without it, and a missing PySpark raises an ``ImportError`` that
says how to install it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from .batch import (
    RunResult,
    RunSummary,
    Ties,
    _check_options,
    _is_parquet,
    check_csv_fields,
    summarize,
)
from .discounting import JARVELIN_BASE, Discount
from .gains import Gain
from .options import NO_RELEVANT, NoRelevant
from .validate import check_choice, fail

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from pyspark.sql import Column, DataFrame, Row, SparkSession

__all__ = ["evaluate", "evaluate_run", "read_run", "session", "summarize_spark"]

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


def session(master: str = "local[*]", *, app_name: str = "nDCG Lab") -> SparkSession:
    """A SparkSession for the command line: no web UI or console progress, few shuffle
    partitions in local mode."""
    sql = _spark()
    builder = sql.SparkSession.builder.master(master).appName(app_name)
    builder = builder.config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
    if master.startswith("local"):
        builder = builder.config("spark.sql.shuffle.partitions", str(max(4, 2 * (os.cpu_count() or 1))))
    spark: SparkSession = builder.getOrCreate()
    return spark


def read_run(spark: SparkSession, path: str) -> DataFrame:
    """Read a CSV (with a header row) or Parquet run with ``spark.read``.

    Parquet is recognised by its magic bytes for a local file, by the extension otherwise.
    CSV columns are read as text; :func:`evaluate` casts grades and scores and reports values
    that are not numbers. A local CSV file is first checked for rows with more or fewer fields
    than the header (:func:`ndcg_core.batch.check_csv_fields`), so the message names the row.
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
    if not parquet and local and os.path.isfile(path):
        # Spark pads a short row with nulls and fails on a long one without naming it
        check_csv_fields(path, name=name)
    try:
        frame = (
            spark.read.parquet(str(path))
            if parquet
            else spark.read.option("header", True).option("mode", "FAILFAST").csv(str(path))
        )
    except Exception as error:  # Spark raises its own (Py4J-backed) exception types
        if not _is_spark_error(sql, error):
            raise
        fail("unreadable", name=name, kind=kind, reason=_first_line(error))
    if not frame.columns or frame.isEmpty():
        fail("empty_table", what="file", name=name)
    return frame


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


def _check(
    frame: DataFrame, *, query: str, relevance: str, score: str, item: str | None, gain: str = "linear"
) -> None:
    """One pass over the rows counting bad values; a second only to show an example."""
    F = _spark().functions
    rel, sc = _as_double(frame, relevance), _as_double(frame, score)
    problems = [
        (query, F.col(query).isNull() | (F.col(query).cast("string") == F.lit("")), "rule_id"),
        (relevance, _not_finite(rel), "rule_finite"),
        (relevance, ~_not_finite(rel) & (rel < 0), "rule_grade"),
        (score, _not_finite(sc), "rule_finite"),
    ]
    counts = frame.agg(
        *[
            F.sum(F.when(condition, 1).otherwise(0)).alias(f"c{index}")
            for index, (_, condition, _) in enumerate(problems)
        ]
    ).first()
    if counts is None or all(value is None for value in counts):
        fail("empty_table", what="run")
    for index, (column, condition, rule) in enumerate(problems):
        count = counts[f"c{index}"] or 0
        if count:
            example = _first(frame.filter(condition).select(F.col(column)))[0]
            fail(
                "bad_values",
                column=column,
                count=int(count),
                rule=rule,
                value="a missing value" if example is None else example,
            )
    if item is not None:
        repeated = frame.groupBy(query, item).count().filter(F.col("count") > 1).limit(1).collect()
        if repeated:
            row = repeated[0]
            fail("duplicate_pairs", item=row[item], query=row[query], count=int(row["count"]))
    _check_gains(frame, query=query, relevance=relevance, gain=gain)


def _check_gains(frame: DataFrame, *, query: str, relevance: str, gain: str) -> None:
    """The rule of :func:`ndcg_core.gains.first_overflow`: every gain, and every query's sum
    of gains, finite (discounts are at most 1, so then every DCG and IDCG is finite)."""
    F = _spark().functions
    gains = _gain(_as_double(frame, relevance), gain)
    top = _first(frame.agg(F.max(gains).alias("top"), F.count(F.lit(1)).alias("n")))
    largest = float(top["top"] or 0.0)
    if largest == float("inf"):
        grade = _first(frame.filter(gains == float("inf")).select(_as_double(frame, relevance)))[0]
        fail("gain_overflow", value=float(grade))
    if largest * int(top["n"]) < 1.7e308:  # no sum can reach infinity: skip the grouping
        return
    over = (
        frame.groupBy(query)
        .agg(F.sum(gains).alias("total"), F.max(_as_double(frame, relevance)).alias("grade"))
        .filter(F.col("total") == float("inf"))
        .limit(1)
        .collect()
    )
    if over:
        fail("sum_overflow_spark", query=str(over[0][query]), value=float(over[0]["grade"]))


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
    k, gain, discount, ties, no_relevant, query, relevance, score, item
        As in :func:`ndcg_core.batch.evaluate`.
    validate : bool
        Check the data first (one extra pass, plus a ``groupBy`` when an item column is
        used): missing or non-numeric values, infinities, negative grades, repeated
        (query, item) pairs, gains or sums of gains that are not finite. Turn it off only for
        data already checked.

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
    _check_options(k, gain, discount, ties, no_relevant)
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
    query: str = "query",
    relevance: str = "relevance",
    score: str = "score",
    item: str | None = "item",
    validate: bool = True,
) -> RunResult:
    """:func:`evaluate` with the per-query rows brought to pandas (one row per query, sorted
    by query) and summarised as :func:`ndcg_core.batch.evaluate_run` does."""
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
    summary = summarize(table, no_relevant=no_relevant)
    return RunResult(
        per_query=table,
        mean=summary.mean,
        n_queries=summary.n_queries,
        n_no_relevant=summary.n_no_relevant,
        n_in_mean=summary.n_in_mean,
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        no_relevant=no_relevant,
    )
