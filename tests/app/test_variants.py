"""The "variants and libraries" page (AppTest): variants and tool numbers equal the core's."""

from __future__ import annotations

import pytest
from app_helpers import static_table, static_tables

import ndcg_core as nc
from ndcg_teach.tools import tool_scores
from ui.framework.i18n import translate

PAGE = "app_pages/3_Variants_and_libraries.py"


def _reveal(at, answer="higher"):
    return at.radio(key="variants.predict.guess").set_value(answer).run()


def _tools(at):
    """The tools table: a static table (its long texts wrap), named by its call column."""
    return static_table(at, "Call (with your k)")


def test_variants_runs_on_defaults(app):
    at = app(page=PAGE)
    assert not at.exception
    assert at.title[0].value == "Variants and libraries"
    assert at.radio(key="variants.predict.guess").value is None


@pytest.mark.parametrize(("lang", "hint"), [("en", "e.g. 3, 2"), ("zh", "例如 3, 2")])
def test_variants_judged_items_box_hints_an_example_that_reads_as_one(app, lang, hint):
    """An empty box's grey text said "3, 2", which read as grades already entered (a review)."""
    at = app(page=PAGE, lang=lang)
    box = at.text_input(key="variants.judged")
    assert (box.value, box.placeholder) == ("", hint)


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
        for g, d in (
            ("linear", "log2"),
            ("exponential", "log2"),
            ("linear", "jarvelin"),
            ("exponential", "jarvelin"),
        )
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
    # gdeval refuses grade 7 (its qrels allow 0-4): the page says "error"
    assert shown == ["error" if x != x else f"{x:.4f}" for x in expected["ndcg"]]
    assert shown[-1] == "error"
    assert len(set(shown)) > 3  # the tools disagree on tied scores


def test_variants_tools_table_says_which_tools_refuse_fractional_grades(app):
    at = app(page=PAGE, rel="2.5,1,0")
    tools = _tools(at)
    refused = tools.loc[tools["nDCG"] == "error", "Tool"].tolist()
    assert refused == ["LightGBM", "XGBoost", "gdeval"]


def test_variants_tools_table_says_trec_eval_truncates_and_torchmetrics_uses_as_given(app):
    at = app(page=PAGE, rel="2.5,1,0")
    grades = _tools(at).set_index("Tool")["Non-integer grades"]
    assert grades["trec_eval"] == "truncated to integers (pytrec_eval refuses them)"
    assert grades["torchmetrics"] == "used as given (its docstring says integers)"


def test_variants_call_column_shows_the_whole_call_with_k(app):
    at = app(page=PAGE, rel="3,2,0,0,1", k="3")
    calls = _tools(at)["Call (with your k)"].tolist()
    assert calls[0] == "ndcg_score(y_true, y_score, k=3)"
    assert "trec_eval -m ndcg_cut.3 qrels run" in calls
    assert 'ranx.evaluate(qrels, run, "ndcg@3")' in calls


def test_variants_call_column_without_k_drops_the_cutoff(app):
    at = app(page=PAGE, rel="3,2,0,0,1")
    calls = _tools(at)["Call (with your k)"].tolist()
    assert calls[0] == "ndcg_score(y_true, y_score)"
    assert "trec_eval -m ndcg qrels run" in calls


def test_variants_tools_chart_labels_each_row_with_its_call(app):
    at = app(page=PAGE, rel="3,2,0,0,1", k="3")
    from ui.components import charts
    from ui.framework.i18n import translate

    chart = charts.tools_chart(tool_scores([3, 2, 0, 0, 1], k=3), lambda key, **p: translate("en", key, **p))
    rows = chart.data["row"].tolist()
    assert rows[0] == "scikit-learn\nndcg_score(y_true, y_score, k=3)"
    y = chart.to_dict()["encoding"]["y"]
    assert y["field"] == "row" and "split" in y["axis"]["labelExpr"]
    assert not at.exception


def test_variants_why_names_the_tools_that_report_one_from_the_core(app):
    """IDCG = 0: LightGBM and XGBoost report 1 (core), the others 0; both languages."""
    at = app(page=PAGE)
    text = " ".join(m.value for m in at.markdown)
    assert "reported as 0 by scikit-learn, ranx, trec_eval" in text
    assert "as 1 by LightGBM and XGBoost" in text
    zh = " ".join(m.value for m in app(page=PAGE, lang="zh").markdown)
    assert "LightGBM、XGBoost 报告 1" in zh


def test_variants_tie_example_is_labelled_exponential_gain_input_order(app):
    at = app(page=PAGE)
    text = " ".join(m.value for m in at.markdown)
    expected = tool_scores([7, 4, 1, 0, 0], [0.9, 0.5, 0.6, 0.9, 0.9]).set_index("label")["ndcg"]
    assert f"{expected['LightGBM']:.4f} with exponential gain, input order (LightGBM, XGBoost)" in text
    assert f"{expected['LightGBM']:.4f}" == "0.9728"


def test_variants_load_tie_example_ranks_by_the_example_scores(app):
    at = app(page=PAGE)
    at.button(key="variants.load_tie_example").click().run()
    assert not at.exception
    shown = _tools(at).set_index("Tool")["nDCG"]
    assert shown["trec_eval"] == "0.5465" and shown["LightGBM"] == "0.9728"


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


def test_blind_spots_nothing_relevant_names_the_tools_from_the_core(app):
    """The Blind spots feedback and why texts read IDCG = 0 reports from ndcg_teach.tools."""
    from ndcg_teach.tools import nothing_relevant_reports

    at = app(page="app_pages/4_Blind_spots.py")
    at.radio(key="blind.nothing.predict").set_value("one").run()
    assert not at.exception
    text = " ".join(x.value for x in [*at.info, *at.error, *at.warning, *at.success])
    ones = " and ".join(nothing_relevant_reports()[1.0])
    assert f"{ones} do report 1" in text
    assert "the tools report 0, not 1" not in text
    assert "pytrec_eval and trec_eval 9 leave it out of the mean" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_variants_tools_table_wraps_its_long_texts(app, lang):
    """Issue 24: a data frame (a canvas) cut the "Tied scores" column at 1280 px; the tools
    table is a static table whose cells wrap, in both languages."""
    at = app(page=PAGE, lang=lang)
    header = translate(lang, "variants.ties")
    assert static_tables(at, header)
    assert not any(header in frame.value.columns for frame in at.dataframe)
