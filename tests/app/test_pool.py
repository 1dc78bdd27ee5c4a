"""A judged pool in the shared ranking (``missed=``: grades of judged items the system did not
return): the Calculator takes its ideal from the pool and says so, the link keeps it, editing
the list keeps it meaningful, "forget" drops it; every other page computes with it or says it
uses the list's own ideal; nothing crashes, nothing shows nan, in English and Chinese.

Expected numbers are written out as arithmetic (grades [3, ?, 2, 0, 1], two judged items not
returned with grades 3 and 2) and checked against pytrec_eval, whose ideal is every judged item
of the query (trec_eval's).
"""

from __future__ import annotations

import math
import re

import pytest
import pytrec_eval
from app_helpers import static_table
from test_unjudged import PAGES, rendered_text

from ui.framework.i18n import translate
from ui.framework.state import Ranking, ranking_from_params, ranking_to_params

NAN = float("nan")
LINK = "3,?,2,0,1"  # D2 was never judged
MISSED = "3,2"
L2 = math.log2

DCG = 3 / L2(2) + 0 / L2(3) + 2 / L2(4) + 0 / L2(5) + 1 / L2(6)
# the pool 3, 2, 0, 1 (the list's judged items) and 3, 2 (not returned), sorted: 3, 3, 2, 2, 1, 0
IDCG = 3 / L2(2) + 3 / L2(3) + 2 / L2(4) + 2 / L2(5) + 1 / L2(6) + 0 / L2(7)
# the list's own ideal 3, 2, 1, 0, 0
IDCG_OWN = 3 / L2(2) + 2 / L2(3) + 1 / L2(4)
NDCG = DCG / IDCG


def pytrec(k: int | None = None) -> float:
    qrels = {"q": {"D1": 3, "D3": 2, "D4": 0, "D5": 1, "M1": 3, "M2": 2}}
    run = {"q": {f"D{i}": float(6 - i) for i in range(1, 6)}}
    measure = "ndcg" if k is None else f"ndcg_cut.{k}"
    result = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)["q"]
    return result["ndcg" if k is None else f"ndcg_cut_{k}"]


def metrics_shown(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


# --- the state and its link ---------------------------------------------------------------


def test_ranking_from_params_reads_missed_and_round_trips():
    ranking, errors = ranking_from_params({"rel": LINK, "missed": "2,3,0"})
    assert errors == []
    assert ranking.missed == (3.0, 2.0)  # largest first; a 0 changes no IDCG and is left out
    assert ranking.pool == (3.0, 2.0, 0.0, 1.0, 3.0, 2.0)
    assert ranking_to_params(ranking)["missed"] == MISSED
    assert ranking_from_params(ranking_to_params(ranking))[0] == ranking


def test_ranking_without_missed_has_no_pool_and_no_link_parameter():
    ranking = Ranking()
    assert ranking.pool is None and "pool" not in ranking.judged_options()
    assert "missed" not in ranking_to_params(ranking)


def test_ranking_edit_keeps_the_pool_holding_every_graded_item():
    """A grade raised to 3 joins the pool, so the core's pool_missing cannot arise."""
    ranking = ranking_from_params({"rel": "1,0", "missed": "2"})[0]
    edited = ranking.with_items([3.0, 0.0, 3.0])
    assert edited.missed == (2.0,)
    assert edited.pool == (3.0, 0.0, 3.0, 2.0)


# --- the Calculator ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_calculator_pool_ndcg_equals_hand_arithmetic_and_pytrec_eval(app, lang):
    at = app(rel=LINK, missed=MISSED, lang=lang)
    assert not at.exception
    shown = metrics_shown(at)
    # k = all against a pool: IDCG runs over the pool's 6 positions, the metrics say @6
    assert shown["IDCG@6"] == f"{IDCG:.4f}"
    assert shown["nDCG@6"] == f"{NDCG:.4f}" == f"{pytrec():.4f}"


def test_calculator_pool_at_k_equals_pytrec_eval(app):
    at = app(rel=LINK, missed=MISSED, k="3")
    assert metrics_shown(at)["nDCG@3"] == f"{pytrec(3):.4f}"


def test_calculator_pool_note_names_the_pool(app):
    at = app(rel=LINK, missed=MISSED)
    expected = translate("en", "calculator.pool_note", n=6, judged=4, m=2, grades="3, 2")
    assert expected in [i.value for i in at.info]


def test_calculator_pool_note_counts_many_missed_grades(app):
    """Eight missed items (3, 3, 3, 2, 1, 1, 1, 1): each grade once with its count."""
    at = app(rel=LINK, missed="3,1,3,1,2,3,1,1")
    expected = translate("en", "calculator.pool_note", n=12, judged=4, m=8, grades="3 (×3), 2, 1 (×4)")
    assert expected in [i.value for i in at.info]


def test_calculator_pool_ideal_shows_items_not_returned(app):
    at = app(rel=LINK, missed=MISSED)
    pair = static_table(at, "Ideal ranking")
    assert pair["Ideal ranking"].tolist() == [
        "D1 · 3",
        "not returned · 3",
        "D3 · 2",
        "not returned · 2",
        "D5 · 1",
        "D4 · 0",
    ]
    assert pair["Actual ranking"].tolist()[-1] == "—"  # past the list


def test_calculator_pool_step_table_and_formula_use_the_pool(app):
    at = app(rel=LINK, missed=MISSED)
    table = static_table(at, "Discounted gain")
    assert table["IDCG"].iloc[-1] == f"{IDCG:.4f}"
    assert table["nDCG"].iloc[-1] == f"{NDCG:.4f}"
    formulas = " ".join(m.value for m in at.markdown)
    assert f"= {IDCG:.4f}" in formulas


def test_calculator_forget_pool_takes_the_lists_own_ideal(app):
    at = app(rel=LINK, missed=MISSED)
    at.button(key="calc.forget_pool").click().run()
    assert not at.exception
    assert "missed" not in at.query_params
    assert metrics_shown(at)["nDCG@5"] == f"{DCG / IDCG_OWN:.4f}"
    note = " ".join(i.value for i in at.info).replace("\\", "")
    assert "Forgetting the judged pool" in note and f"{NDCG:.4f}" in note


def test_calculator_regrade_with_pool_compares_against_the_old_pool(app):
    """D5 regraded 1 -> 3: the pool gains a 3 and loses the 1, nDCG before is the old one."""
    at = app(rel=LINK, missed=MISSED)
    at.text_input(key="calc.text").set_value("3, ?, 2, 0, 3").run()
    assert not at.exception
    assert at.query_params["missed"] == MISSED
    idcg_after = 3 / L2(2) + 3 / L2(3) + 3 / L2(4) + 2 / L2(5) + 2 / L2(6) + 0 / L2(7)
    dcg_after = 3 / L2(2) + 2 / L2(4) + 3 / L2(6)
    note = " ".join(i.value for i in at.info).replace("\\", "")
    assert f"from {NDCG:.4f} to {dcg_after / idcg_after:.4f}" in note


def test_calculator_adding_items_never_hits_pool_missing(app):
    at = app(rel=LINK, missed=MISSED)
    at.text_input(key="calc.text").set_value("3, ?, 2, 0, 1, 3, 3, 3").run()
    assert not at.exception and not at.error


def test_calculator_preset_starts_without_the_pool(app):
    at = app(rel=LINK, missed=MISSED)
    at.selectbox(key="calc.preset").set_value("example").run()
    assert not at.exception
    assert "missed" not in at.query_params
    assert metrics_shown(at)["nDCG@5"] == "0.9762"


def test_calculator_pool_in_chinese_has_no_english(app):
    from chinese_text import english_leftovers

    at = app(rel=LINK, missed=MISSED, lang="zh", timeout=90)
    assert english_leftovers(at) == []


def test_handout_computes_with_the_pool_and_says_so():
    from ui.components.handout import handout_html

    ranking = ranking_from_params({"rel": LINK, "missed": MISSED})[0]
    html = handout_html(ranking, "en")
    assert f"{NDCG:.4f}" in html and "judged pool" in html
    assert "nan" not in html.lower()


# --- every page, given a ranking with a pool ------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", PAGES)
def test_page_with_pool_runs_without_nan(app, page, lang):
    at = app(page=page, rel="3,2,0,0,1", missed=MISSED, lang=lang, timeout=60)
    assert not at.exception
    assert not re.search(r"\bnan\b|\binf\b", rendered_text(at), re.IGNORECASE)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    "page",
    [
        "app_pages/1_Lesson.py",
        "app_pages/2_Scores_and_ties.py",
        "app_pages/3_Variants_and_libraries.py",
        "app_pages/4_Blind_spots.py",
        "app_pages/5_Explore.py",
    ],
)
def test_page_with_list_ideal_says_it_does_not_use_the_pool(app, page, lang):
    at = app(page=page, rel="3,2,0,0,1", missed=MISSED, lang=lang, timeout=60)
    assert translate(lang, "common.pool_not_used", n=2) in [c.value for c in at.caption]


@pytest.mark.parametrize("page", PAGES)
def test_page_with_pool_in_chinese_has_no_english(app, page):
    from chinese_text import english_leftovers

    at = app(page=page, rel=LINK, missed=MISSED, lang="zh", timeout=90)
    assert not at.exception
    assert english_leftovers(at) == []


# --- opened from the Evaluate page ----------------------------------------------------------

EVALUATE = "app_pages/7_Evaluate_a_run.py"


def _open_from_evaluate(at, run: str, query: str):
    at.selectbox(key="evaluate.trec_open_run").set_value(run).run()
    at.selectbox(key="evaluate.trec_open_query").set_value(query).run()
    at.button(key="evaluate.trec_open").click().run()
    at.switch_page("app_pages/0_Calculator.py").run()
    return at


def _frame(at, column: str):
    return next(d.value for d in at.dataframe if column in d.value.columns)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_evaluate_sample_query_opens_with_its_pool_and_the_same_ndcg(app, lang):
    """Sample queries of the poor run (lowest nDCG first) whose list lacks a relevant judged
    item: the Calculator's nDCG@10 equals the Evaluate page's per-query value and pytrec_eval's
    ndcg_cut_10, under the page's default options (trec_eval's)."""
    from ndcg_teach.samples import sample_trec
    from ui.views import evaluate_trec as et

    qrels, runs = sample_trec(seed=et.SAMPLE_SEED)
    judged = {
        q: dict(zip(g["item"], g["relevance"].astype(int), strict=True)) for q, g in qrels.groupby("query")
    }
    ranked = {
        q: dict(zip(g["item"], g["score"].astype(float), strict=True))
        for q, g in runs["poor"].groupby("query")
    }
    oracle = pytrec_eval.RelevanceEvaluator(judged, {"ndcg_cut_10"}).evaluate(ranked)
    run = translate(lang, "evaluate.sample_run_poor")
    at = app(page=EVALUATE, lang=lang, timeout=90)
    per_query = _frame(at, "missing")
    page = per_query.loc[(per_query["run"] == run) & ~per_query["missing"]].set_index("query")["ndcg@10"]
    at.selectbox(key="evaluate.trec_open_run").set_value(run).run()
    pooled = 0
    for query in [str(q) for q in page.sort_values(kind="stable").index[:4]]:  # the selector's order
        at = _open_from_evaluate(at, run, query)
        assert not at.exception
        ranking = at.session_state["lab.ranking"]
        assert metrics_shown(at)["nDCG@10"] == f"{page[query]:.4f}" == f"{oracle[query]['ndcg_cut_10']:.4f}"
        pooled += bool(ranking.missed)
        at.switch_page(EVALUATE).run()
    assert pooled >= 1  # at least one of them lacks a relevant judged item: the pool matters


def test_evaluate_upload_query_opens_with_the_missed_grade(app):
    """Run A on q1 returns b (2), x (unjudged), a (3); d (1) was judged and not returned, c (0)
    too, and changes no IDCG: missed = (1,). nDCG@10 = (2 + 0 + 3/log2(4)) / (3 + 2/log2(3) + 1/2)."""
    from test_evaluate_trec import QRELS, RUN_A, _upload

    at = _upload(app(page=EVALUATE), QRELS, {"a.run": RUN_A})
    at.selectbox(key="evaluate.trec_open_query").set_value("q1").run()
    at.button(key="evaluate.trec_open").click().run()
    assert at.session_state["lab.ranking"].missed == (1.0,)
    at.switch_page("app_pages/0_Calculator.py").run()
    assert not at.exception
    expected = (2 + 0 + 3 / L2(4)) / (3 + 2 / L2(3) + 1 / 2)
    assert metrics_shown(at)["nDCG@10"] == f"{expected:.4f}"
    assert at.query_params["missed"] == "1"


def test_evaluate_query_forgetting_the_pool_says_the_numbers_are_no_longer_the_pages(app):
    from test_evaluate_trec import QRELS, RUN_A, _upload

    at = _upload(app(page=EVALUATE), QRELS, {"a.run": RUN_A})
    at.selectbox(key="evaluate.trec_open_query").set_value("q1").run()
    at.button(key="evaluate.trec_open").click().run()
    at.switch_page("app_pages/0_Calculator.py").run()
    changed = translate("en", "evaluate.origin_changed", query="q1", run="a")
    assert at.session_state["lab.ranking"].missed and changed not in [i.value for i in at.info]
    at.button(key="calc.forget_pool").click().run()
    assert changed in [i.value for i in at.info]


def _collection(n_missed: int):
    import pandas as pd

    from ui.views import evaluate_trec as et

    judged = [("a", 2.0), ("b", 0.0), *((f"m{i:03d}", 1.0 + (i % 3)) for i in range(n_missed))]
    qrels = pd.DataFrame({"query": "q", "item": [i for i, _ in judged], "relevance": [g for _, g in judged]})
    run = pd.DataFrame({"query": "q", "item": ["a", "x", "b"], "score": [3.0, 2.0, 1.0]})
    return et.Collection(qrels=qrels, runs={"r": run}, key=("test", str(n_missed)), label="test")


def test_trec_query_link_keeps_missed_grades_above_zero_and_k():
    from ndcg_core import options as opt
    from ui.views import evaluate_trec as et

    link = et.trec_query_link(_collection(3), "r", "q", opt.Options(k=10, ideal="pool"))
    assert link.pooled
    assert link.ranking.missed == (3.0, 2.0, 1.0)  # m000..m002: grades 1, 2, 3, largest first
    assert link.ranking.k == 10  # past the list of 3: against a pool IDCG@10 runs to 10


def test_trec_query_link_with_the_lists_own_ideal_has_no_pool():
    from ndcg_core import options as opt
    from ui.views import evaluate_trec as et

    link = et.trec_query_link(_collection(3), "r", "q", opt.Options(k=10, ideal="list"))
    assert link.ranking.missed == () and not link.pooled


@pytest.mark.parametrize(("k", "pooled"), [(10, True), (None, False)])
def test_trec_query_link_more_missed_than_kept_is_pooled_only_up_to_the_limit(k, pooled):
    """120 relevant items not returned: the 100 largest grades keep IDCG@k exact for k <= 100,
    not for the whole pool."""
    from ndcg_core import options as opt
    from ui.framework.state import MAX_ITEMS
    from ui.views import evaluate_trec as et

    link = et.trec_query_link(_collection(120), "r", "q", opt.Options(k=k, ideal="pool"))
    assert len(link.ranking.missed) == MAX_ITEMS
    assert link.pooled is pooled


def test_calculator_pool_condensed_list_is_named_at_k_like_the_metric_row(app):
    # k = 5 against the pool, D2 removed: the condensed list [3, 2, 0, 1] has 4 items, but
    # the ideal still runs to 5 positions, so both the metric row and the panel say @5
    at = app(rel=LINK, missed=MISSED, k="5", unj="drop")
    assert not at.exception
    shown = metrics_shown(at)
    dcg = 3 / L2(2) + 2 / L2(3) + 0 / L2(4) + 1 / L2(5)
    idcg = 3 / L2(2) + 3 / L2(3) + 2 / L2(4) + 2 / L2(5) + 1 / L2(6)
    qrels = {"q": {"D1": 3, "D3": 2, "D4": 0, "D5": 1, "M1": 3, "M2": 2}}
    run = {"q": {"D1": 5.0, "D3": 3.0, "D4": 2.0, "D5": 1.0}}  # D2 left out: trec_eval -J
    oracle = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.5"}).evaluate(run)["q"]["ndcg_cut_5"]
    assert shown["nDCG′@5"] == shown["nDCG′@5, unjudged removed"] == f"{dcg / idcg:.4f}" == f"{oracle:.4f}"
    assert "nDCG′@4, unjudged removed" not in shown
