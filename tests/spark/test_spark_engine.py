"""ndcg_core.spark.evaluate against the pandas engine on the same rows (agreement to 1e-9)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ndcg_core as nc
from ndcg_core import spark as nspark
from ndcg_core.batch import evaluate
from ndcg_teach.samples import sample_run

pytestmark = [
    pytest.mark.spark,
    pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning"),
]

# Each option set costs a Spark job, so a few sets cover graded and binary relevance, ties
# (all five treatments), k values, both gains and both discounts.
CASES = {
    "graded": dict(
        relevance="graded",
        options=[
            {},
            {"k": 3},
            {"k": 10, "gain": "exponential"},
            {"k": 5, "ties": "input"},
            {"k": 4, "ties": "trec_eval"},
            {"ties": "optimistic", "discount": "jarvelin"},
            {"k": 4, "ties": "pessimistic", "no_relevant": "drop"},
        ],
    ),
    "binary": dict(
        relevance="binary", options=[{}, {"k": 5}, {"k": 2, "ties": "input"}, {"k": 3, "ties": "trec_eval"}]
    ),
}


def _agree(left: pd.DataFrame, right: pd.DataFrame) -> None:
    left = left.set_index("query").sort_index()
    right = right.set_index("query").sort_index()
    assert left.index.equals(right.index)
    assert (left["n_items"].to_numpy() == right["n_items"].to_numpy()).all()
    for column in ("dcg", "idcg", "ndcg"):
        np.testing.assert_allclose(
            left[column].to_numpy(), right[column].to_numpy(), rtol=0, atol=1e-9, equal_nan=True
        )


@pytest.mark.parametrize("case", sorted(CASES))
def test_spark_evaluate_matches_pandas(spark, case):
    """All option sets of a case in one Spark job (a union), compared set by set."""
    from pyspark.sql import functions as F

    spec = CASES[case]
    run = sample_run(
        120, seed=11, max_items=30, relevance=spec["relevance"], tie_fraction=0.5, no_relevant_fraction=0.1
    )
    sdf = spark.createDataFrame(run)
    tables = [
        nspark.evaluate(sdf, validate=False, **options).withColumn("case", F.lit(index))
        for index, options in enumerate(spec["options"])
    ]
    union = tables[0]
    for table in tables[1:]:
        union = union.unionByName(table)
    collected = union.toPandas()
    for index, options in enumerate(spec["options"]):
        ours = collected[collected["case"] == index].drop(columns="case")
        _agree(ours, evaluate(run, **options))


def test_spark_evaluate_run_summary_matches_pandas(spark):
    run = sample_run(60, seed=5, max_items=12, no_relevant_fraction=0.2)
    sdf = spark.createDataFrame(run)
    ours = nspark.evaluate_run(sdf, k=5, no_relevant="drop")
    expected = nc.evaluate_run(run, k=5, no_relevant="drop")
    assert ours.n_queries == expected.n_queries
    assert ours.n_no_relevant == expected.n_no_relevant > 0
    assert ours.mean == pytest.approx(expected.mean, abs=1e-9)
    summary = nspark.summarize_spark(nspark.evaluate(sdf, k=5), no_relevant="drop")
    assert summary.mean == pytest.approx(expected.mean, abs=1e-9)


def test_spark_read_run_csv_then_evaluate(spark, tmp_path):
    """The CLI's path: spark.read on a CSV file (columns as text, cast by the engine)."""
    run = sample_run(40, seed=2, max_items=8)
    path = tmp_path / "run.csv"
    run.to_csv(path, index=False)
    table = nspark.evaluate(nspark.read_run(spark, str(path)), k=3).toPandas()
    _agree(table, evaluate(run, k=3))


def test_spark_reads_a_local_csv_without_a_job_and_checks_a_valid_run_in_two(spark, tmp_path):
    """Reading a local CSV file asks Spark for no job (the Python pass has the header and the
    number of rows); the checks of a valid run are two jobs (the values and the gains in one
    pass, the repeated pairs), its numbers a third. They were six in all: the header, whether
    the file had a row, the values, the repeated pairs, the gains, the numbers."""
    run = sample_run(40, seed=4, max_items=8)
    path = tmp_path / "run.csv"
    run.to_csv(path, index=False)
    tracker = spark.sparkContext.statusTracker()

    def jobs() -> int:
        return len(tracker.getJobIdsForGroup(None))

    before = jobs()
    frame = nspark.read_run(spark, str(path))
    assert jobs() == before
    result = nspark.evaluate_run(frame, k=3)
    assert jobs() == before + 3
    _agree(result.per_query, evaluate(run, k=3))


def test_spark_session_records_no_python_call_sites(spark):
    """``nspark.session`` (the tests' session is one) turns off PySpark 4's call sites for
    error messages: with them, building an evaluation's expressions cost the JVM about three
    times the round trips (85 small runs: 47.8 -> 29.4 s)."""
    from pyspark.errors.utils import is_debugging_enabled

    assert spark.conf.get("spark.python.sql.dataFrameDebugging.enabled") == "false"
    assert not is_debugging_enabled()


def test_spark_read_run_parquet_folder_then_evaluate(spark, tmp_path):
    """A folder of Parquet part files (what Spark itself writes) is read as Parquet."""
    run = sample_run(40, seed=3, max_items=8)
    folder = tmp_path / "run"
    folder.mkdir()
    half = len(run) // 2
    run.iloc[:half].to_parquet(folder / "part-0.parquet")
    run.iloc[half:].to_parquet(folder / "part-1.parquet")
    table = nspark.evaluate(nspark.read_run(spark, str(folder)), k=3).toPandas()
    _agree(table, evaluate(run, k=3))


@pytest.mark.parametrize(
    ("rows", "match"),
    [
        (
            {"relevance": [1.0, -2.0]},
            r"^Row 2 of the column 'relevance' holds -2\.0, which is not a relevance grade of 0 or more",
        ),
        (
            {"score": ["0.5", "high"]},
            r"^Row 2 of the column 'score' holds 'high', which is not a number",
        ),
        ({"item": ["x", "x"]}, r"The item 'x' appears more than once for the query 'a' \(rows 1, 2\)"),
    ],
)
def test_spark_evaluate_rejects_bad_values(spark, rows, match):
    data = {"query": ["a", "a"], "item": ["x", "y"], "relevance": [1.0, 0.0], "score": ["0.5", "0.4"]}
    data.update(rows)
    with pytest.raises(nc.NDCGInputError, match=match):
        nspark.evaluate(spark.createDataFrame(pd.DataFrame(data)))


def test_spark_evaluate_rejects_missing_column(spark):
    sdf = spark.createDataFrame(pd.DataFrame({"query": ["a"], "score": [1.0]}))
    with pytest.raises(nc.NDCGInputError, match=r"The column 'relevance' is missing"):
        nspark.evaluate(sdf)


def test_spark_evaluate_refuses_ties_ignore(spark):
    sdf = spark.createDataFrame(pd.DataFrame({"query": ["a"], "relevance": [1.0], "score": [1.0]}))
    with pytest.raises(nc.NDCGInputError, match=r"'ignore' .*'input' .*'trec_eval'"):
        nspark.evaluate(sdf, ties="ignore")


@pytest.mark.parametrize(
    ("rows", "gain", "key"),
    [
        ({"relevance": [1100.0, 0.0]}, "exponential", "gain_overflow_row"),
        ({"relevance": [1e308, 1e308]}, "linear", "sum_overflow_query"),
    ],
)
def test_spark_evaluate_refuses_overflow(spark, rows, gain, key):
    """The pandas engine refuses the same data with the same message (no inf DCG, no nan nDCG)."""
    data = {"query": ["a", "a"], "item": ["x", "y"], "relevance": [1.0, 0.0], "score": [0.5, 0.4]}
    data.update(rows)
    frame = pd.DataFrame(data)
    with pytest.raises(nc.NDCGInputError) as caught:
        nspark.evaluate(spark.createDataFrame(frame), gain=gain)
    assert caught.value.key == key
    with pytest.raises(nc.NDCGInputError) as pandas:
        evaluate(frame, gain=gain)
    assert str(caught.value) == str(pandas.value)


def test_spark_query_ids_are_text(spark, tmp_path):
    """Queries 1 and 1.0 of a CSV file stay two queries, as in the pandas engine."""
    path = tmp_path / "run.csv"
    path.write_text("query,item,relevance,score\n1,a,1,0.5\n1,b,0,0.4\n1.0,a,0,0.5\n1.0,b,1,0.4\n")
    table = nspark.evaluate(nspark.read_run(spark, str(path))).toPandas()
    _agree(table, evaluate(nc.read_run(str(path))))
    assert sorted(table["query"]) == ["1", "1.0"]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (
            "query,relevance,score\nq1,d1,3,0.9\nq1,d2,0,0.8\n",
            r"^Row 1 has 4 field\(s\), but the header has 3",
        ),
        ("query,item,relevance,score\nq,a,1,0.9\nq,b,0\n", r"^Row 2 has 3 field\(s\), but the header has 4"),
    ],
)
def test_spark_read_run_refuses_rows_with_another_field_count(spark, tmp_path, text, match):
    """Spark would fail on the long row without naming it, and pad the short one with null."""
    path = tmp_path / "run.csv"
    path.write_text(text)
    with pytest.raises(nc.NDCGInputError, match=match):
        nspark.read_run(spark, str(path))


def test_spark_engines_take_options(spark):
    """options= on Spark: scikit-learn's numbers with exponential gains at k = 3, and the TREC
    engine refuses a keyword that would be overridden."""
    from sklearn.metrics import ndcg_score

    from ndcg_core.options import Options

    rows = pd.DataFrame(
        {"query": ["a"] * 5, "relevance": [3, 2, 0, 0, 1], "score": [5.0, 4.0, 3.0, 2.0, 1.0]}
    )
    result = nspark.evaluate_run(spark.createDataFrame(rows), options=Options(k=3, gain="exponential"))
    assert result.mean == pytest.approx(ndcg_score([[7, 3, 0, 0, 1]], [[5, 4, 3, 2, 1]], k=3), abs=1e-12)
    qrels = spark.createDataFrame(pd.DataFrame({"query": ["a"], "item": ["x"], "relevance": [1.0]}))
    run = spark.createDataFrame(pd.DataFrame({"query": ["a"], "item": ["x"], "score": [1.0]}))
    with pytest.raises(nc.NDCGInputError) as error:
        nspark.evaluate_trec(qrels, {"r": run}, options=Options(k=3), missing="drop")
    assert error.value.key == "options_and_keywords"
