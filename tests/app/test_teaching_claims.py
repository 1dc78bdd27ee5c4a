"""Issue 23, "Wrong" and "Imprecise": each claim the audit corrected, as the pages say it (AppTest,
English and Chinese), checked against the tool where it is installed or against hand values."""

from __future__ import annotations

import pytest
from sklearn.metrics import ndcg_score as sk_ndcg

PAGES = "app_pages/"
VARIANTS = PAGES + "3_Variants_and_libraries.py"
TIES = PAGES + "2_Scores_and_ties.py"
BLIND = PAGES + "4_Blind_spots.py"
EVALUATE = PAGES + "7_Evaluate_a_run.py"
LANGS = ("en", "zh")


def _all_text(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [i.value for i in at.info]
    parts += [m.help or "" for m in at.metric] + [e.label for e in at.expander]
    return "\n".join(parts)


def _tools(at):
    return at.dataframe[-1].value


@pytest.mark.parametrize("lang", LANGS)
def test_ranx_row_of_sixteen_items_with_a_tie_is_ranx_own_number(app, lang):
    """16 items, D11 (grade 2) tied with D14 at the top: ranx ranks D14 first, ndcg@1 = 0
    (ranx 0.3.21 run on this list gives 0.0); the page showed 1.0000 with no warning."""
    grades = ["0"] * 16
    grades[10] = "2"
    scores = [str(16 - i) for i in range(16)]
    scores[10] = scores[13] = "100"
    at = app(page=VARIANTS, rel=",".join(grades), scores=",".join(scores), by_score="1", k="1", lang=lang)
    assert not at.exception
    table = _tools(at)
    ranx = table[table.iloc[:, 0] == "ranx"].iloc[0]  # the first ranx row: ndcg@1
    assert ranx.iloc[1] == 'ranx.evaluate(qrels, run, "ndcg@1")'
    assert ranx.iloc[2] == "0.0000"
    note = str(ranx.iloc[-1])
    assert ("Numba" in note) and (("quicksort" in note) if lang == "en" else ("快速排序" in note))


@pytest.mark.parametrize("lang", LANGS)
def test_spark_row_says_any_grade_above_zero_counts_as_relevant(app, lang):
    """PySpark 4.3 here: RankingMetrics gives 0.9469 for D1..D5 ranked, labels D1, D2, D5, with
    relevance [3, 2, 1], [1, 1, 1] or none: its Python path reads predictions and labels only."""
    at = app(page=VARIANTS, rel="3,2,0,0,1", lang=lang)
    at.radio(key="variants.predict.guess").set_value("higher").run()
    text = _all_text(at)
    table = _tools(at)
    rows = table.astype(str).agg(" ".join, axis=1)
    spark = next(r for r in rows if "Spark" in r)
    wanted = "any grade above 0 counts as relevant" if lang == "en" else "任何大于 0 的等级都算作相关"
    assert wanted in spark
    assert ("graded relevance becomes binary" not in text) and ("二元相关性；" not in text)


@pytest.mark.parametrize("lang", LANGS)
def test_torchmetrics_empty_target_action_is_the_class_option(app, lang):
    at = app(page=VARIANTS, lang=lang)
    at.radio(key="variants.predict.guess").set_value("higher").run()
    text = _all_text(at)
    assert "RetrievalNormalizedDCG" in text and '"error"' in text
    assert 'or the query is skipped with `empty_target_action="skip"`' not in text
    at = app(page=BLIND, lang=lang)
    at.radio(key="blind.nothing.predict").set_value(at.radio(key="blind.nothing.predict").options[0]).run()
    assert 'RetrievalNormalizedDCG(empty_target_action="skip")' in _all_text(at)


@pytest.mark.parametrize("lang", LANGS)
def test_ignore_ties_help_says_not_reliably_either(app, lang):
    """The practitioner's example: on this server scikit-learn's ignore_ties order gives the
    later input first among ties, so "neither input order nor later input first" was wrong."""
    at = app(page=TIES, rel="7,4,1,0,0", scores="0.9,0.5,0.6,0.9,0.9", lang=lang)
    at.radio(key="ties.predict.guess").set_value("between").run()
    helps = " ".join(m.help or "" for m in at.metric)
    if lang == "en":
        assert "not reliably the input order, and not reliably" in helps
        assert "neither the input order" not in helps
    else:
        assert "不一定是输入顺序，也不一定是" in helps
        assert "随机器而异" not in " ".join(m.label for m in at.metric) + helps


@pytest.mark.parametrize("lang", LANGS)
def test_difficulty_best_order_against_a_pool_is_at_most_one(app, lang):
    at = app(page=BLIND, lang=lang)
    at.radio(key="blind.difficulty.predict").set_value("A").run()
    captions = " ".join(c.value for c in at.caption)
    assert ("at most 1" in captions) if lang == "en" else ("至多为 1" in captions)
    assert "less against a judged pool" not in captions


@pytest.mark.parametrize("lang", LANGS)
def test_evaluate_scikit_learn_note_names_the_one_item_exception(app, lang):
    with pytest.raises(ValueError, match="more than 1 document"):
        sk_ndcg([[1]], [[0.5]])  # scikit-learn refuses a one-item list
    at = app(page=EVALUATE, eval_form="table", lang=lang)
    captions = " ".join(c.value for c in at.caption)
    assert (
        ("at least 2 items; scikit-learn refuses one-item lists" in captions)
        if lang == "en"
        else ("至少有 2 项的查询" in captions)
    )
