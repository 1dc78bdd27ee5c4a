"""Warehouse tables that are not what they seem (the issue "Read every file trec_eval reads",
item 16): null and non-scalar keys, output tables that exist, are views, are empty names or are
inputs, names with backticks. Each refusal is the project's message, exit status 2 from the
command line, and nothing is written."""

from __future__ import annotations

import pandas as pd
import pytest

import ndcg_lab.evaluate as cli
from ndcg_core import NDCGInputError
from ndcg_core import spark as nspark

pytestmark = [
    pytest.mark.spark,
    pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning"),
]

QRELS = pd.DataFrame({"query": ["q", "q"], "item": ["d1", "d2"], "relevance": [1, 0]})
RUN = pd.DataFrame({"query": ["q", "q"], "item": ["d2", "d1"], "score": [0.9, 0.8]})


@pytest.fixture(scope="module")
def warehouse(spark):
    """The database ``t16`` with the tables qrels and run, and the view run_view."""
    spark.sql("CREATE DATABASE IF NOT EXISTS t16")
    spark.createDataFrame(QRELS).write.mode("overwrite").saveAsTable("t16.qrels")
    spark.createDataFrame(RUN).write.mode("overwrite").saveAsTable("t16.run")
    spark.sql("CREATE OR REPLACE VIEW t16.run_view AS SELECT * FROM t16.run")
    return spark


def _cli(*extra: str) -> list[str]:
    return ["--engine", "spark", "--qrels-table", "t16.qrels", "--table", "t16.run", *extra]


# ----------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("result", (None, "result")),
        ("db.result", ("db", "result")),
        ("db.`a.b`", ("db", "a.b")),
        ("`my db`.`a``b`", ("my db", "a`b")),
        ("`db`.result_2", ("db", "result_2")),
    ],
)
def test_table_name_parts_reads_backticks(name, parts):
    assert nspark.table_name_parts(name) == parts


@pytest.mark.parametrize(
    "name", ["", " ", "a..b", ".b", "a.", "a.b.c", "`a", "a`b", "db.a-b", "db.`a`x", "a b", "`a`.`b`.`c`"]
)
def test_table_name_parts_refuses_a_bad_name(name):
    with pytest.raises(NDCGInputError) as info:
        nspark.table_name_parts(name)
    assert (info.value.key, info.value.params) == ("table_name_invalid", {"name": name})


# ----------------------------------------------------------------- keys


def test_evaluate_trec_refuses_a_null_run_name(warehouse):
    """A NULL run name gave a TypeError in the command line."""
    runs = warehouse.createDataFrame(
        [("A", "q", "d1", 0.9), (None, "q", "d2", 0.8)], "run string, query string, item string, score double"
    )
    with pytest.raises(NDCGInputError) as info:
        nspark.evaluate_trec(warehouse.table("t16.qrels"), runs, k=10)
    assert info.value.key == "bad_values"
    assert (info.value.params["column"], info.value.params["rule"]) == ("run", "rule_id")


def test_evaluate_trec_refuses_an_id_holding_nul(warehouse):
    """As the pandas engine refuses it (item 11): matched here, cut short by C tools."""
    runs = warehouse.createDataFrame([("q", "d1\x00x", 0.9)], "query string, item string, score double")
    with pytest.raises(NDCGInputError) as info:
        nspark.evaluate_trec(warehouse.table("t16.qrels"), {"A": runs}, k=10)
    assert info.value.key == "bad_values"
    assert info.value.params == {"column": "item", "count": 1, "rule": "rule_id_no_nul", "value": "d1\x00x"}


def test_evaluate_trec_refuses_an_array_item_column(warehouse):
    """An array<string> item column was cast to the text "[d2]": every item unjudged, 0.0."""
    runs = warehouse.createDataFrame([("q", ["d2"], 0.9)], "query string, item array<string>, score double")
    with pytest.raises(NDCGInputError) as info:
        nspark.evaluate_trec(warehouse.table("t16.qrels"), {"A": runs}, k=10)
    assert info.value.key == "column_type"
    assert info.value.params == {"column": "item", "type": "array<string>", "rule": "rule_scalar_id"}


def test_evaluate_trec_refuses_a_struct_query_column_in_qrels(warehouse):
    qrels = warehouse.createDataFrame(
        [(("q",), "d1", 1)], "query struct<id: string>, item string, relevance int"
    )
    with pytest.raises(NDCGInputError) as info:
        nspark.evaluate_trec(qrels, {"A": warehouse.table("t16.run")}, k=10)
    assert (info.value.key, info.value.params["column"]) == ("column_type", "query")


# ----------------------------------------------------------------- output tables


def test_cli_refuses_to_replace_an_existing_table_without_overwrite(warehouse, capsys):
    warehouse.createDataFrame(pd.DataFrame({"x": [1]})).write.mode("overwrite").saveAsTable("t16.other")
    assert cli.main(_cli("--output-table", "t16.other")) == 2
    assert capsys.readouterr().err == f"error: {NDCGInputError('table_exists', name='t16.other')}\n"
    assert warehouse.table("t16.other").columns == ["x"]


def test_cli_overwrite_replaces_an_existing_table(warehouse, capsys):
    warehouse.createDataFrame(pd.DataFrame({"x": [1]})).write.mode("overwrite").saveAsTable("t16.again")
    assert cli.main(_cli("--output-table", "t16.again", "--overwrite")) == 0, capsys.readouterr().err
    assert "ndcg@10" in warehouse.table("t16.again").columns


def test_cli_refuses_a_view_as_output_table(warehouse, capsys):
    """A view became a managed table; with or without --overwrite it is refused."""
    assert cli.main(_cli("--output-table", "t16.run_view", "--overwrite")) == 2
    assert capsys.readouterr().err == f"error: {NDCGInputError('table_is_view', name='t16.run_view')}\n"
    assert warehouse.catalog.getTable("t16.run_view").tableType == "VIEW"


@pytest.mark.parametrize("name", ["t16.run", "t16.QRELS", "`t16`.`run`"])
def test_cli_refuses_an_input_as_output_table(warehouse, capsys, name):
    """Spark refused it itself, with exit status 1."""
    assert cli.main(_cli("--output-table", name, "--overwrite")) == 2
    assert capsys.readouterr().err == f"error: {NDCGInputError('output_is_input', name=name)}\n"
    assert warehouse.table("t16.run").count() == 2


@pytest.mark.parametrize("name", ["", "t16.", "t16..x", "a.b.c", "t16.`x"])
def test_cli_refuses_a_bad_output_table_name(warehouse, capsys, name):
    """An empty name wrote nothing and exited 0; Spark's parser errors exited 1."""
    assert cli.main(_cli("--output-table", name)) == 2
    assert capsys.readouterr().err == f"error: {NDCGInputError('table_name_invalid', name=name)}\n"


@pytest.mark.parametrize("option", ["--table", "--qrels-table"])
def test_cli_refuses_a_bad_input_table_name(warehouse, capsys, option):
    args = ["--engine", "spark", "--qrels-table", "t16.qrels", "--table", "t16.run"]
    args[args.index(option) + 1] = "t16..x"
    assert cli.main(args) == 2
    assert capsys.readouterr().err == f"error: {NDCGInputError('table_name_invalid', name='t16..x')}\n"


def test_cli_writes_a_backticked_table_name(warehouse, capsys):
    assert cli.main(_cli("--output-table", "`t16`.`per_query`")) == 0, capsys.readouterr().err
    assert "ndcg@10" in warehouse.table("t16.per_query").columns


def test_cli_backticked_name_with_a_dot_is_one_table_name_hive_refuses(warehouse, capsys):
    """db.`a.b` is the table a.b of db (it was read as the database 't16.`a'); Hive's
    metastore takes letters, digits and _ only: the name is refused, status 2, not 1."""
    assert cli.main(_cli("--output-table", "t16.`per.query`")) == 2
    assert (
        capsys.readouterr().err == f"error: {NDCGInputError('table_name_invalid', name='t16.`per.query`')}\n"
    )
