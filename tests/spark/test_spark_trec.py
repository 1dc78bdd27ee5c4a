"""ndcg_core.spark.evaluate_trec against pytrec_eval (trec_eval's ndcg_cut), and the warehouse
round trip through a real Hive metastore (embedded Derby in a temporary folder).

The collection has ties (scores are multiples of 1/8, exact in float32, so pytrec_eval's float32
scores keep the order), unjudged retrieved items, negative grades, a judged query one run does
not answer, a query with nothing relevant, and a query the qrels do not judge.
"""

from __future__ import annotations

import importlib.util
import re

import numpy as np
import pandas as pd
import pytest
import pytrec_eval

from ndcg_core import NDCGInputError
from ndcg_core import spark as nspark
from ndcg_core.batch import evaluate

pytestmark = [
    pytest.mark.spark,
    pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning"),
]

CUTOFFS = (5, 10)
#: The pandas engine of the same options, once it exists (issue 15 builds both in parallel).
HAS_PANDAS_TREC = importlib.util.find_spec("ndcg_core.trec") is not None


def _collection(seed: int = 7) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Qrels (query, item, relevance) and two runs (run, query, item, score)."""
    rng = np.random.default_rng(seed)
    items = [f"d{i}" for i in range(1, 26)]  # d1 .. d25: "d9" > "d25" as strings
    qrels, runs = [], []
    for q in range(1, 13):
        query = f"q{q}"
        judged = rng.choice(items, size=14, replace=False)
        grades = rng.choice([-2, -1, 0, 0, 1, 1, 2, 3], size=judged.size)
        if q == 4:  # nothing relevant: every grade 0 or below
            grades = np.minimum(grades, 0)
        qrels += [(query, item, int(grade)) for item, grade in zip(judged, grades, strict=True)]
        for run in ("A", "B"):
            if run == "A" and q == 3:  # a judged query run A does not answer
                continue
            returned = rng.choice(items, size=int(rng.integers(6, 16)), replace=False)
            scores = rng.integers(0, 12, size=returned.size) / 8  # few values: ties; exact in float32
            runs += [(run, query, item, float(score)) for item, score in zip(returned, scores, strict=True)]
    runs += [("A", "q99", "d1", 1.0), ("B", "q99", "d2", 0.5)]  # a query without judgments
    return (
        pd.DataFrame(qrels, columns=["query", "item", "relevance"]),
        pd.DataFrame(runs, columns=["run", "query", "item", "score"]),
    )


QRELS, RUNS = _collection()


def _pytrec(qrels: pd.DataFrame, runs: pd.DataFrame, *, judged_only: bool = False) -> dict[str, dict]:
    """pytrec_eval's ndcg_cut at CUTOFFS: {run: {query: {"ndcg_cut_5": ..., ...}}}."""
    judgments: dict[str, dict[str, int]] = {}
    for query, item, grade in qrels.itertuples(index=False):
        judgments.setdefault(query, {})[item] = int(grade)
    measure = "ndcg_cut." + ",".join(map(str, CUTOFFS))
    evaluator = pytrec_eval.RelevanceEvaluator(judgments, {measure}, judged_docs_only_flag=judged_only)
    out = {}
    for run, rows in runs.groupby("run"):
        ranked: dict[str, dict[str, float]] = {}
        for query, item, score in rows[["query", "item", "score"]].itertuples(index=False):
            ranked.setdefault(query, {})[item] = float(score)
        out[run] = evaluator.evaluate(ranked)
    return out


def _judged_share(qrels: pd.DataFrame, runs: pd.DataFrame, k: int) -> dict[tuple[str, str], float]:
    """judged@k by hand: in trec_eval's order (score descending, then item id descending), the
    judged items (grade 0 or more: trec_eval's "not judged" is negative) among the first
    min(k, n), over min(k, n)."""
    graded = qrels[qrels["relevance"] >= 0]
    judged = set(zip(graded["query"], graded["item"], strict=True))
    out = {}
    for (run, query), rows in runs.groupby(["run", "query"]):
        order = sorted(zip(rows["score"], rows["item"], strict=True), reverse=True)[:k]
        out[(run, query)] = sum((query, item) in judged for _, item in order) / len(order)
    return out


def _batch(run: pd.DataFrame, k: int, ties: str) -> dict[tuple[str, str], float]:
    """ideal="list" by the batch engine (scikit-learn's numbers): each returned item graded
    from the qrels, unjudged and negative grades as 0."""
    answered = run[run["query"].isin(set(QRELS["query"]))]
    graded = answered.merge(QRELS, on=["query", "item"], how="left")
    graded["relevance"] = graded["relevance"].fillna(0).clip(lower=0)
    out = {}
    for name, rows in graded.groupby("run"):
        table = evaluate(rows.drop(columns="run"), k=k, ties=ties)
        out.update({(name, q): v for q, v in zip(table["query"], table["ndcg"], strict=True)})
    return out


@pytest.fixture(scope="module")
def tables(spark):
    return spark.createDataFrame(QRELS), spark.createDataFrame(RUNS)


@pytest.fixture(scope="module")
def results(tables):
    """The option sets compared below, in one Spark job (a union), as pandas per case."""
    from pyspark.sql import functions as F

    qrels, runs = tables
    cases = {
        "default": {},
        "missing_drop": {"missing": "drop"},
        "judged_only": {"unjudged": "drop", "missing": "drop"},
        "list": {"ideal": "list", "missing": "drop"},
        "no_relevant_drop": {"no_relevant": "drop"},
        **{
            f"{ties}_list": {"ties": ties, "ideal": "list"}
            for ties in ("average", "optimistic", "pessimistic")
        },
    }
    union = None
    for name, options in cases.items():
        frame = nspark.evaluate_trec(qrels, runs, k=CUTOFFS, **options).withColumn("case", F.lit(name))
        union = frame if union is None else union.unionByName(frame)
    collected = union.toPandas()
    return {name: collected[collected["case"] == name].drop(columns="case") for name in cases}


def _as_dict(frame: pd.DataFrame, column: str) -> dict[tuple[str, str], float]:
    """{(run, query): value} of the queries the run answered."""
    frame = frame[~frame["missing"]]
    return {(r, q): float(v) for r, q, v in zip(frame["run"], frame["query"], frame[column], strict=True)}


def _expected(reference: dict[str, dict], k: int) -> dict[tuple[str, str], float]:
    return {
        (run, query): values[f"ndcg_cut_{k}"]
        for run, per in reference.items()
        for query, values in per.items()
    }


def _assert_close(ours: dict, expected: dict) -> None:
    assert sorted(ours) == sorted(expected)
    for key, value in expected.items():
        assert ours[key] == pytest.approx(value, abs=1e-12), key


@pytest.mark.parametrize("k", CUTOFFS)
def test_evaluate_trec_missing_drop_matches_pytrec_eval(results, k):
    """Every (run, query) pytrec_eval reports, and no other, to 1e-12; the unanswered query's
    nDCG is NaN (left out of the mean)."""
    table = results["missing_drop"]
    _assert_close(_as_dict(table, f"ndcg@{k}"), _expected(_pytrec(QRELS, RUNS), k))
    assert table.loc[table["missing"], f"ndcg@{k}"].isna().all()


@pytest.mark.parametrize("k", CUTOFFS)
def test_evaluate_trec_default_adds_zero_for_unanswered_queries(results, k):
    """trec_eval -c: pytrec_eval's values plus nDCG 0 for the judged query run A misses."""
    expected = _expected(_pytrec(QRELS, RUNS), k)
    assert ("A", "q3") not in expected
    expected[("A", "q3")] = 0.0
    table = results["default"]
    assert table.loc[table["missing"], ["run", "query"]].values.tolist() == [["A", "q3"]]
    assert table.loc[table["missing"], f"ndcg@{k}"].tolist() == [0.0]
    assert table.loc[table["missing"], f"judged@{k}"].isna().all()  # nothing returned
    _assert_close(_as_dict(table, f"ndcg@{k}"), {key: v for key, v in expected.items() if key != ("A", "q3")})


def test_summarize_trec_default_counts_unanswered_query_as_zero(spark, results):
    reference = _pytrec(QRELS, RUNS)["A"]
    judged_queries = QRELS["query"].nunique()
    means = nspark.summarize_trec(spark.createDataFrame(results["default"])).toPandas().set_index("run")
    assert means.loc["A", "n_queries"] == judged_queries == len(reference) + 1
    expected = sum(values["ndcg_cut_10"] for values in reference.values()) / judged_queries
    assert means.loc["A", "ndcg@10"] == pytest.approx(expected, abs=1e-12)


def test_summarize_trec_missing_drop_is_pytrec_eval_mean(tables):
    reference = _pytrec(QRELS, RUNS)["A"]
    frame = nspark.evaluate_trec(*tables, k=10, missing="drop")
    means = nspark.summarize_trec(frame).toPandas().set_index("run")
    assert means.loc["A", "n_queries"] == len(reference)
    expected = sum(values["ndcg_cut_10"] for values in reference.values()) / len(reference)
    assert means.loc["A", "ndcg@10"] == pytest.approx(expected, abs=1e-12)


def test_evaluate_trec_no_relevant_drop_leaves_query_out(results):
    """q4 has no grade above 0: IDCG 0, nDCG 0 by default, NaN (out of the mean) with drop."""
    default, dropped = results["default"], results["no_relevant_drop"]
    assert (default.loc[default["query"] == "q4", "ndcg@10"] == 0.0).all()
    assert dropped.loc[dropped["query"] == "q4", "ndcg@10"].isna().all()
    assert dropped.loc[dropped["query"] != "q4", "ndcg@10"].notna().all()


@pytest.mark.parametrize("ties", ["average", "optimistic", "pessimistic"])
@pytest.mark.parametrize("k", CUTOFFS)
def test_evaluate_trec_ideal_list_ties_match_batch_engine(results, ties, k):
    """ideal="list" with each tie treatment: the batch engine on the graded returned lists."""
    _assert_close(_as_dict(results[f"{ties}_list"], f"ndcg@{k}"), _batch(RUNS, k, ties))


@pytest.mark.parametrize("k", CUTOFFS)
def test_evaluate_trec_judged_only_matches_pytrec_eval_j(results, k):
    """unjudged="drop" (the condensed list) is trec_eval -J."""
    expected = _expected(_pytrec(QRELS, RUNS, judged_only=True), k)
    _assert_close(_as_dict(results["judged_only"], f"ndcg@{k}"), expected)


@pytest.mark.parametrize("k", CUTOFFS)
def test_evaluate_trec_ideal_list_matches_pytrec_eval_on_retrieved_judgments(results, k):
    """ideal="list": the same as pytrec_eval given only the judgments of retrieved items."""
    retrieved = QRELS.merge(RUNS[["query", "item"]].drop_duplicates(), on=["query", "item"])
    per_run = {}
    for run, rows in RUNS.groupby("run"):
        own = QRELS.merge(rows[["query", "item"]], on=["query", "item"])
        # a query whose retrieved items are all unjudged has no judgments left: IDCG 0, nDCG 0
        per_run[run] = {
            query: values
            for query, values in _pytrec(own, rows.assign(run=run))[run].items()
            if query in set(own["query"])
        }
    assert len(retrieved) < len(QRELS)  # the pool is larger than what was retrieved
    ours = _as_dict(results["list"], f"ndcg@{k}")
    expected = _expected(per_run, k)
    for key in set(ours) - set(expected):
        expected[key] = 0.0
    _assert_close(ours, expected)


def test_evaluate_trec_judged_share_matches_hand_count(results):
    table = results["default"]
    answered = table[~table["missing"]]
    for k in CUTOFFS:
        expected = _judged_share(QRELS, RUNS[RUNS["query"].isin(set(QRELS["query"]))], k)
        _assert_close(_as_dict(answered, f"judged@{k}"), expected)


def test_evaluate_trec_query_without_judgments_left_out_and_listed(results, tables):
    qrels, runs = tables
    assert "q99" not in set(results["default"]["query"])
    listed = nspark.queries_without_judgments(qrels, runs).toPandas()
    assert sorted(map(tuple, listed[["run", "query", "n_items"]].values.tolist())) == [
        ("A", "q99", 1),
        ("B", "q99", 1),
    ]


def test_evaluate_trec_columns_follow_options(results):
    names = ["ndcg@5", "ndcg@10", "dcg@5", "dcg@10", "idcg@5", "idcg@10", "judged@5", "judged@10"]
    assert list(results["default"].columns) == ["run", "query", "n_items", *names, "missing"]


def test_evaluate_trec_accepts_mapping_of_runs(spark, tables):
    """A binary (click / like) target, runs given as {name: frame}, one cutoff: column ``ndcg@10``."""
    qrels = spark.createDataFrame(QRELS.assign(relevance=(QRELS["relevance"] > 0).astype(int)))
    runs = {name: spark.createDataFrame(rows.drop(columns="run")) for name, rows in RUNS.groupby("run")}
    table = nspark.evaluate_trec(qrels, runs, k=10).toPandas()
    binary = QRELS.assign(relevance=(QRELS["relevance"] > 0).astype(int))
    reference = {
        run: {q: {"ndcg_cut_10": v["ndcg_cut_10"]} for q, v in per.items()}
        for run, per in _pytrec(binary, RUNS).items()
    }
    _assert_close(_as_dict(table, "ndcg@10"), _expected(reference, 10))


def test_evaluate_trec_bad_option_named(tables):
    qrels, runs = tables
    with pytest.raises(NDCGInputError, match="unjudged must be one of zero, drop") as error:
        nspark.evaluate_trec(qrels, runs, unjudged="skip")
    assert error.value.key == "unknown_option"


def test_evaluate_trec_conflicting_grades_named(spark, tables):
    _, runs = tables
    qrels = spark.createDataFrame(
        pd.DataFrame({"query": ["q1", "q1"], "item": ["d1", "d1"], "relevance": [1, 2]})
    )
    with pytest.raises(NDCGInputError, match="'d1' of the query 'q1'") as error:
        nspark.evaluate_trec(qrels, runs)
    assert error.value.key == "qrels_conflict_table"


def _frame(spark, **columns):
    return spark.createDataFrame(pd.DataFrame(columns))


def test_evaluate_trec_repeated_pair_in_a_run_named(spark):
    qrels = _frame(spark, query=["q1"], item=["d1"], relevance=[1])
    runs = _frame(
        spark, run=["r", "r", "r"], query=["q1", "q1", "q1"], item=["d1", "d2", "d1"], score=[3.0, 2.0, 1.0]
    )
    with pytest.raises(
        NDCGInputError, match=re.escape("'d1' appears 2 times for the query 'q1' in the run 'r'")
    ):
        nspark.evaluate_trec(qrels, runs)


def test_evaluate_trec_same_judgment_twice_is_not_a_conflict(spark):
    """The same grade twice (and 0 beside -0: equal numbers) is one judgment: nDCG@3 of d2, d1
    with d1 = 1, d2 = 0 is (1/log2 3) / 1, as with each judgment once."""
    runs = _frame(spark, run=["r", "r"], query=["q1", "q1"], item=["d2", "d1"], score=[2.0, 1.0])
    twice = _frame(spark, query=["q1"] * 4, item=["d1", "d1", "d2", "d2"], relevance=[1.0, 1.0, 0.0, -0.0])
    table = nspark.evaluate_trec(twice, runs, k=3).toPandas()
    assert table["ndcg@3"].tolist() == pytest.approx([1 / np.log2(3)], abs=1e-12)


def test_evaluate_trec_grade_too_large_for_the_exponential_gain_named(spark):
    runs = _frame(spark, run=["r"], query=["q1"], item=["d1"], score=[1.0])
    qrels = _frame(spark, query=["q1", "q1"], item=["d1", "d2"], relevance=[1.0, 2000.0])
    with pytest.raises(NDCGInputError, match=re.escape("The grade 2000 is too large")) as error:
        nspark.evaluate_trec(qrels, runs, gain="exponential")
    assert error.value.key == "gain_overflow"


def test_read_table_missing_table_named(spark):
    with pytest.raises(NDCGInputError, match=re.escape("The table 'nowhere.runs' does not exist")) as error:
        nspark.read_table(spark, "nowhere.runs")
    assert error.value.key == "table_missing"


def test_write_table_missing_database_named(spark, tables):
    qrels, _ = tables
    with pytest.raises(NDCGInputError, match=re.escape("database 'nowhere' of the table 'nowhere.result'")):
        nspark.write_table(qrels, "nowhere.result")


def test_warehouse_round_trip_matches_pytrec_eval(spark):
    """Run and qrels tables in a Hive metastore -> evaluate -> result table -> read back."""
    assert spark.conf.get("spark.sql.catalogImplementation") == "hive"
    spark.sql("CREATE DATABASE IF NOT EXISTS ir")
    spark.createDataFrame(RUNS).write.mode("overwrite").saveAsTable("ir.runs")
    spark.createDataFrame(QRELS).write.mode("overwrite").saveAsTable("ir.qrels")
    per_query = nspark.evaluate_trec(
        nspark.read_table(spark, "ir.qrels"), nspark.read_table(spark, "ir.runs"), k=CUTOFFS
    )
    nspark.write_table(per_query, "ir.result")
    stored = spark.catalog.getTable("ir.result")
    assert (stored.database, stored.tableType) == ("ir", "MANAGED")
    back = nspark.read_table(spark, "ir.result").toPandas()
    _assert_close(_as_dict(back, "ndcg@10"), _expected(_pytrec(QRELS, RUNS), 10))
    assert back.loc[back["missing"], ["run", "query", "ndcg@10"]].values.tolist() == [["A", "q3", 0.0]]
    if HAS_PANDAS_TREC:  # the pandas engine, same options: the same table
        from ndcg_core.trec import evaluate_trec

        runs = {name: rows.drop(columns="run") for name, rows in RUNS.groupby("run")}
        pandas_side = evaluate_trec(QRELS, runs, k=CUTOFFS).per_query
        left = back.sort_values(["run", "query"], ignore_index=True)
        right = pandas_side.sort_values(["run", "query"], ignore_index=True)
        assert list(left.columns) == list(right.columns)
        assert left[["run", "query"]].astype(str).equals(right[["run", "query"]].astype(str))
        assert (left["missing"].to_numpy() == right["missing"].to_numpy()).all()
        for column in left.columns[2:-1]:
            np.testing.assert_allclose(
                left[column].astype(float), right[column].astype(float), rtol=0, atol=1e-12, equal_nan=True
            )


def test_cli_evaluates_metastore_tables_and_writes_the_result_table(spark, capsys):
    """python -m ndcg_core --engine spark --qrels-table --table ... --output-table: the printed
    means and the result table are the pandas engine's on the same rows."""
    import json

    import ndcg_lab.evaluate as cli
    from ndcg_core.trec import evaluate_trec

    spark.sql("CREATE DATABASE IF NOT EXISTS cli")
    spark.createDataFrame(QRELS).write.mode("overwrite").saveAsTable("cli.qrels")
    names = []
    for name, rows in RUNS.groupby("run"):
        spark.createDataFrame(rows.drop(columns="run")).write.mode("overwrite").saveAsTable(f"cli.run_{name}")
        names.append(f"cli.run_{name}")
    args = ["--engine", "spark", "--qrels-table", "cli.qrels", "--output-table", "cli.result"]
    for name in names:
        args += ["--table", name]
    assert cli.main([*args, "--k", "5,10", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    runs = {f"cli.run_{name}": rows.drop(columns="run") for name, rows in RUNS.groupby("run")}
    expected = evaluate_trec(QRELS, runs, k=[5, 10])
    assert [row["run"] for row in document["means"]] == names
    for row, want in zip(document["means"], expected.means.to_dict("records"), strict=True):
        for column in ("ndcg@5", "ndcg@10", "judged@10"):
            assert row[column] == pytest.approx(want[column], abs=1e-12)
    assert document["comparisons"][0]["baseline"] == names[0]
    stored = nspark.read_table(spark, "cli.result").toPandas()
    assert len(stored) == len(expected.per_query)


def test_cli_tables_need_the_spark_engine(capsys):
    import ndcg_lab.evaluate as cli

    with pytest.raises(SystemExit):
        cli.main(["--qrels-table", "ir.qrels", "--table", "ir.runs"])
    assert "--engine spark" in capsys.readouterr().err
