"""The seed's own setting (the issue "Read every file trec_eval reads", item 14): predictions
with their labels in one warehouse table, graded ("regression") or 0/1, evaluated with
``--engine spark --table DB.PRED`` and no ``--qrels-table``, exactly as the one-file form
evaluates the same rows (scikit-learn's semantics, ties averaged), the per-query rows written
to ``--output-table``.

Expected values are scikit-learn's ``ndcg_score`` per query, and the one-file form (pandas
engine) on the same rows written to a CSV file."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import ndcg_score

import ndcg_lab.evaluate as cli
from ndcg_core import NDCGInputError

pytestmark = [
    pytest.mark.spark,
    pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning"),
]

#: Graded labels, ties in the scores (q1: 0.5 three times, q2: 0.9 twice), a query whose
#: labels are all 0 (q3), one query of more than ten rows (q4: k cuts it).
GRADED = pd.DataFrame(
    {
        "query": ["q1"] * 4 + ["q2"] * 3 + ["q3"] * 2 + ["q4"] * 12,
        "item": [f"d{i}" for i in range(21)],
        "relevance": [3, 0, 2, 1, 2, 2, 0, 0, 0, 1, 0, 3, 0, 2, 0, 0, 1, 0, 0, 0, 3],
        "score": [0.5, 0.5, 0.5, 0.9, 0.9, 0.9, 0.1, 0.3, 0.2, *[1.0 - i / 20 for i in range(12)]],
    }
)

#: 0/1 labels (clicks) under other column names, without an item column; q2 has no click.
BINARY = pd.DataFrame(
    {
        "qid": [7, 7, 7, 8, 8, 9, 9, 9, 9],
        "label": [0, 1, 1, 0, 0, 1, 0, 0, 1],
        "pred": [0.2, 0.7, 0.7, 0.4, 0.6, 0.1, 0.9, 0.3, 0.3],
    }
)
BINARY_RENAMES = ("--query", "qid", "--relevance", "label", "--score", "pred")


def _sklearn(frame: pd.DataFrame, query: str, relevance: str, score: str, k: int) -> dict[str, float]:
    """ndcg_score(k=k) of each query (its default ignore_ties=False: ties averaged)."""
    values = {}
    for name, rows in frame.groupby(query):
        values[str(name)] = float(ndcg_score([rows[relevance].to_numpy()], [rows[score].to_numpy()], k=k))
    return values


@pytest.fixture(scope="module")
def predictions(spark):
    """The database ``p14`` with the tables graded and binary."""
    spark.sql("CREATE DATABASE IF NOT EXISTS p14")
    spark.createDataFrame(GRADED).write.mode("overwrite").saveAsTable("p14.graded")
    spark.createDataFrame(BINARY).write.mode("overwrite").saveAsTable("p14.binary")
    return spark


def _both_forms(spark, tmp_path, capsys, frame: pd.DataFrame, table: str, *args: str):
    """The one-file form (pandas engine) on the rows written to a CSV file, then the table
    form with --output-table: (file form's per-query rows, its summary lines, the table
    written, sorted by query; the table form's summary lines)."""
    source, out = tmp_path / "same_rows.csv", tmp_path / "file_form.csv"
    frame.to_csv(source, index=False)
    assert cli.main([str(source), *args, "--output", str(out)]) == 0
    file_summary = capsys.readouterr().out.splitlines()
    status = cli.main(["--engine", "spark", "--table", table, *args, "--output-table", table + "_ndcg"])
    printed = capsys.readouterr()
    assert status == 0, printed.err
    written = spark.table(table + "_ndcg").toPandas().sort_values("query", ignore_index=True)
    return pd.read_csv(out, dtype={"query": str}), file_summary, written, printed.out.splitlines()


def test_graded_table_equals_sklearn_and_the_one_file_form(predictions, tmp_path, capsys):
    file_rows, file_summary, written, summary = _both_forms(
        predictions, tmp_path, capsys, GRADED, "p14.graded", "--k", "10"
    )
    assert list(written.columns) == ["query", "n_items", "dcg@10", "idcg@10", "ndcg@10"]
    expected = _sklearn(GRADED, "query", "relevance", "score", 10)
    assert dict(zip(written["query"], written["ndcg@10"], strict=True)) == pytest.approx(expected, abs=1e-12)
    for column in ("n_items", "dcg@10", "idcg@10", "ndcg@10"):
        np.testing.assert_allclose(written[column], file_rows[column], rtol=0, atol=1e-12)
    # the same summary as the file form: mean, queries, queries with nothing relevant (q3)
    assert summary[:3] == file_summary[:3]
    assert summary[2] == "queries with nothing relevant: 1 (counted as 0 in the mean)"
    assert summary[3] == "per-query table: p14.graded_ndcg"


def test_binary_table_with_renamed_columns_and_two_cutoffs(predictions, tmp_path, capsys):
    file_rows, file_summary, written, summary = _both_forms(
        predictions, tmp_path, capsys, BINARY, "p14.binary", "--k", "2,3", *BINARY_RENAMES
    )
    assert list(written["query"]) == ["7", "8", "9"]  # ids are text, as in the file form
    for k in (2, 3):
        expected = _sklearn(BINARY, "qid", "label", "pred", k)
        got = dict(zip(written["query"], written[f"ndcg@{k}"], strict=True))
        assert got == pytest.approx(expected, abs=1e-12)
        np.testing.assert_allclose(written[f"ndcg@{k}"], file_rows[f"ndcg@{k}"], rtol=0, atol=1e-12)
    assert summary[:4] == file_summary[:4]


def test_table_json_mean_without_an_output_table(predictions, capsys):
    """Without --output-table the command prints the mean, as the file form does."""
    import json

    assert (
        cli.main(
            ["--engine", "spark", "--table", "p14.binary", "--k", "3", "--format", "json", *BINARY_RENAMES]
        )
        == 0
    )
    document = json.loads(capsys.readouterr().out)
    expected = _sklearn(BINARY, "qid", "label", "pred", 3)
    assert document["table"] == "p14.binary"
    assert document["means"]["ndcg@3"] == pytest.approx(sum(expected.values()) / 3, abs=1e-12)
    assert (document["n_queries"], document["n_no_relevant"]) == (3, 1)


@pytest.mark.parametrize(
    ("option", "value"),
    [("--ideal", "pool"), ("--unjudged", "drop"), ("--missing", "drop"), ("--grades", "truncate")],
)
def test_options_of_judgments_are_refused(predictions, capsys, option, value):
    """--ideal, --unjudged, --missing (and --grades) are about separate judgments: a table of
    predictions carries its own labels."""
    with pytest.raises(SystemExit) as exited:
        cli.main(["--engine", "spark", "--table", "p14.graded", option, value])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"{option} needs --qrels-table" in err
    assert "carries its own labels" in err


def test_two_prediction_tables_are_refused(predictions, capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(["--engine", "spark", "--table", "p14.graded", "--table", "p14.binary"])
    assert exited.value.code == 2
    assert "one --table" in capsys.readouterr().err


def test_output_table_rules_as_for_trec_tables(predictions, capsys):
    """An existing table needs --overwrite; an input is refused; a bad column name is the
    file form's message."""
    predictions.createDataFrame(pd.DataFrame({"x": [1]})).write.mode("overwrite").saveAsTable("p14.taken")
    base = ["--engine", "spark", "--table", "p14.graded"]
    assert cli.main([*base, "--output-table", "p14.taken"]) == 2
    assert capsys.readouterr().err == f"error: {NDCGInputError('table_exists', name='p14.taken')}\n"
    assert predictions.table("p14.taken").columns == ["x"]
    assert cli.main([*base, "--output-table", "p14.taken", "--overwrite"]) == 0, capsys.readouterr().err
    # without --k, as the file form: the whole list, columns without a cutoff
    assert predictions.table("p14.taken").columns == ["query", "n_items", "dcg", "idcg", "ndcg"]
    assert cli.main([*base, "--output-table", "p14.GRADED", "--overwrite"]) == 2
    assert capsys.readouterr().err == f"error: {NDCGInputError('output_is_input', name='p14.GRADED')}\n"
    assert cli.main([*base, "--score", "pred"]) == 2
    assert "'pred'" in capsys.readouterr().err
