"""The "variants and libraries" page (AppTest): variants and tool numbers equal the core's."""

from __future__ import annotations

import ndcg_core as nc
from ndcg_core.tools import tool_scores

PAGE = "pages/3_Variants_and_libraries.py"


def _reveal(at, answer="higher"):
    return at.radio(key="variants.predict.guess").set_value(answer).run()


def _tools(at):
    """The tools table: the page's last table."""
    return at.dataframe[-1].value


def test_variants_runs_on_defaults(app):
    at = app(page=PAGE)
    assert not at.exception
    assert at.title[0].value == "Variants and libraries"
    assert at.radio(key="variants.predict.guess").value is None


def test_variants_prediction_is_judged_by_the_core(app):
    at = _reveal(app(page=PAGE, rel="3,2,0,0,1"), "higher")
    linear = nc.ndcg([3, 2, 0, 0, 1])
    exponential = nc.ndcg([3, 2, 0, 0, 1], gain="exponential")
    assert exponential > linear
    assert at.success[0].value.startswith("Right")
    assert f"{exponential:.4f}" in at.success[0].value


def test_variants_side_by_side_rows_equal_the_core(app):
    at = _reveal(app(page=PAGE, rel="3,2,3,0,1", k="4"))
    table = at.dataframe[0].value
    assert table["nDCG@k"].tolist() == [
        f"{nc.ndcg([3, 2, 3, 0, 1], k=4, gain=g, discount=d):.4f}"
        for g, d in (("linear", "log2"), ("exponential", "log2"), ("linear", "jarvelin"),
                     ("exponential", "jarvelin"))
    ]


def test_variants_judged_items_add_rows_with_the_pooled_ideal(app):
    at = _reveal(app(page=PAGE, rel="3,2,0,0,1", judged="3,2"))
    table = at.dataframe[0].value
    assert len(table) == 8
    pooled = nc.ndcg([3, 2, 0, 0, 1], pool=[3, 2, 0, 0, 1, 3, 2])
    assert f"{pooled:.4f}" in table["nDCG@k"].tolist()


def test_variants_tools_table_equals_the_core_tool_scores(app):
    at = app(page=PAGE, rel="3,2,0,0,1", judged="3,2")
    expected = tool_scores([3, 2, 0, 0, 1], pool=[3, 2, 0, 0, 1, 3, 2])
    assert _tools(at)["nDCG"].tolist() == [f"{x:.4f}" for x in expected["ndcg"]]


def test_variants_tools_rank_by_scores_when_asked(app):
    at = app(page=PAGE, rel="7,4,1,0,0", scores="0.9,0.5,0.6,0.9,0.9", by_score="1")
    expected = tool_scores([7, 4, 1, 0, 0], [0.9, 0.5, 0.6, 0.9, 0.9])
    shown = _tools(at)["nDCG"].tolist()
    assert shown == [f"{x:.4f}" for x in expected["ndcg"]]
    assert len(set(shown)) > 3  # the tools disagree on tied scores


def test_variants_tools_table_says_which_tools_refuse_fractional_grades(app):
    at = app(page=PAGE, rel="2.5,1,0")
    tools = _tools(at)
    refused = tools.loc[tools["nDCG"] == "error", "Tool"].tolist()
    assert refused == ["trec_eval", "LightGBM", "XGBoost", "torchmetrics"]


def test_variants_malformed_input_shows_messages_not_a_crash(app):
    at = app(page=PAGE, rel="3,2,x", judged="<script>", scores="1,2", by_score="1")
    assert not at.exception
    messages = " ".join(e.value for e in at.error)
    assert "not a number" in messages
    assert "same length" in messages


def test_variants_in_chinese(app):
    at = _reveal(app(page=PAGE, lang="zh"))
    assert not at.exception
    assert at.title[0].value == "变体与工具库"
