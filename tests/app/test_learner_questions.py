"""The questions learners ask (issue 23, items 5-10), answered on the pages in English and
Chinese: each page's numbers against scikit-learn, pytrec_eval or ranx, or written out by hand."""

from __future__ import annotations

import functools

import numpy as np
import pytest
import pytrec_eval
from app_helpers import static_table
from sklearn.metrics import ndcg_score

from ndcg_teach import questions
from ui.framework.i18n import translate
from ui.views.lesson import STEPS

LESSON = "app_pages/1_Lesson.py"
TIES = "app_pages/2_Scores_and_ties.py"
VARIANTS = "app_pages/3_Variants_and_libraries.py"
BLIND = "app_pages/4_Blind_spots.py"
LANGS = ("en", "zh")
LONG_MIXED = [1, 0, 2, 1, 3, 1, 2, 1, 1, 2, 1, 1]


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


# --- 5. "Got multiclass instead" --------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", [LESSON, TIES])
def test_shape_mistake_shows_scikit_learns_error_and_the_fix(app, page, lang):
    # the Lesson shows scikit-learn's calls at its last step ("play")
    at = app(page=page, lang=lang, step=str(len(STEPS))) if page == LESSON else app(page=page, lang=lang)
    assert not at.exception
    with pytest.raises(ValueError) as err:
        ndcg_score([3, 2, 0, 0, 1], [5, 4, 3, 2, 1])
    assert "Got multiclass instead" in str(err.value)
    codes = [c.value for c in at.code]
    assert "ndcg_score([3, 2, 0, 0, 1],\n           [5, 4, 3, 2, 1])" in codes
    assert f"ValueError: {err.value}" in codes
    fixed = ndcg_score([[3, 2, 0, 0, 1]], [[5, 4, 3, 2, 1]])
    assert f"ndcg_score([[3, 2, 0, 0, 1]],\n           [[5, 4, 3, 2, 1]])\n# {fixed:.4f}" in codes
    assert f"{fixed:.4f}" == "0.9762"
    assert any(e.label == translate(lang, "lesson.shape.title") for e in at.expander)


# --- 6. ndcg_score(y, y) < 1 --------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_ndcg_score_of_y_and_y_below_one_and_what_each_tool_reports(app, lang):
    import ranx  # imported here: its Numba functions compile on import (seconds)

    at = app(page=BLIND, lang=lang)
    at.radio(key="blind.nothing.predict").set_value("zero").run()
    assert not at.exception
    y = [list(r) for r in questions.EMPTY_BATCH]
    assert _metrics(at)["ndcg_score(y, y)"] == f"{ndcg_score(y, y):.4f}" == "0.6667"
    col_tool = translate(lang, "blind_spots.batch.col_tool")
    col_mean = translate(lang, "blind_spots.batch.col_mean")
    table = static_table(at, col_tool).set_index(col_tool)
    # ids of four characters, as in every ranx test (CONTRIBUTING)
    qrels = {f"q{i}": {f"d{j:03d}": int(g) for j, g in enumerate(r)} for i, r in enumerate(y)}
    run = {f"q{i}": {f"d{j:03d}": float(g) for j, g in enumerate(r)} for i, r in enumerate(y)}
    trec = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg"}).evaluate(run)
    assert table.loc["trec_eval", col_mean] == f"{np.mean([v['ndcg'] for v in trec.values()]):.4f}"
    assert table.loc["ranx", col_mean] == f"{ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), 'ndcg'):.4f}"
    # by hand: LightGBM and XGBoost score the empty query 1 (3 / 3); gdeval leaves it out (2 / 2)
    assert table.loc["LightGBM", col_mean] == table.loc["gdeval", col_mean] == "1.0000"
    assert table.loc["gdeval", translate(lang, "blind_spots.batch.col_queries")] == "2"


# --- 7. why @k ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_why_at_k_whole_list_ndcg_creeps_toward_one(app, lang):
    at = app(page=BLIND, lang=lang)
    at.radio(key="blind.lengths.predict").set_value("B").run()
    assert not at.exception
    shown = _metrics(at)
    for n in (5000, 100):
        if n != 5000:
            at.select_slider(key="blind.lengths.drift").set_value(n).run()
            shown = _metrics(at)
        rel = [np.resize(LONG_MIXED, n).tolist()]
        scores = [list(range(n, 0, -1))]
        label = translate(lang, "blind_spots.drift.metric_pattern", n=f"{n:,}")
        assert shown[label] == f"{ndcg_score(rel, scores):.4f}"
    at.select_slider(key="blind.lengths.drift").set_value(5000).run()
    shown = _metrics(at)
    pattern = float(shown[translate(lang, "blind_spots.drift.metric_pattern", n="5,000")])
    shuffled = float(shown[translate(lang, "blind_spots.drift.metric_shuffled", n="5,000")])
    rel = [np.resize(LONG_MIXED, 5000).tolist()]
    at_10 = ndcg_score(rel, [list(range(5000, 0, -1))], k=10)
    assert pattern > 0.9 and shuffled > 0.9 and abs(pattern - shuffled) < 0.01
    assert at_10 < 0.5  # nDCG@10 keeps its distance from 1
    # the explanation gives the numbers shown for the length chosen, not a fixed claim
    why = " ".join(i.value for i in at.info)
    assert f"{pattern:.4f}" in why and f"{shuffled:.4f}" in why and f"{at_10:.4f}" in why


# --- 8. nDCG, MAP, MRR, P@k ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_which_metric_numbers_equal_pytrec_eval(app, lang):
    at = app(page=VARIANTS, rel="3,2,0,0,1", k="3", lang=lang)
    assert not at.exception
    col_metric = translate(lang, "variants.metrics.col_metric")
    col_value = translate(lang, "variants.metrics.col_value")
    yours = static_table(at, translate(lang, "variants.metrics.col_rewards")).set_index(col_metric)[col_value]
    qrels = {"q": {f"D{i}": g for i, g in enumerate([3, 2, 0, 0, 1])}}
    run = {"q": {f"D{i}": float(5 - i) for i in range(5)}}
    got = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.3", "map_cut.3", "recip_rank", "P.3"}).evaluate(
        run
    )["q"]
    assert yours.to_dict() == {
        "nDCG@3": f"{got['ndcg_cut_3']:.4f}",
        "AP@3": f"{got['map_cut_3']:.4f}",
        "RR@3": f"{got['recip_rank']:.4f}",
        "P@3": f"{got['P_3']:.4f}",
    }
    pair = static_table(at, translate(lang, "variants.metrics.col_prefers")).set_index(col_metric)
    col_a, col_b = translate(lang, "variants.metrics.col_a"), translate(lang, "variants.metrics.col_b")
    for column, ranked, missed in (
        (col_a, questions.DISAGREE_A, [1]),
        (col_b, questions.DISAGREE_B, [3, 3]),
    ):
        qrels = {
            "q": {f"D{i}": int(g) for i, g in enumerate(ranked)} | {f"U{i}": g for i, g in enumerate(missed)}
        }
        run = {"q": {f"D{i}": float(5 - i) for i in range(5)}}
        got = pytrec_eval.RelevanceEvaluator(
            qrels, {"ndcg_cut.5", "map_cut.5", "recip_rank", "P.5"}
        ).evaluate(run)["q"]
        assert pair[column].to_dict() == {
            "nDCG@5": f"{got['ndcg_cut_5']:.4f}",
            "AP@5": f"{got['map_cut_5']:.4f}",
            "RR@5": f"{got['recip_rank']:.4f}",
            "P@5": f"{got['P_5']:.4f}",
        }
    prefers = pair[translate(lang, "variants.metrics.col_prefers")].tolist()
    a, b = translate(lang, "variants.metrics.prefers_a"), translate(lang, "variants.metrics.prefers_b")
    assert prefers == [a, b, b, a]  # nDCG and P@5 prefer A, AP and RR prefer B


# --- 9. sampled negatives -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_sampled_negatives_overstate_and_reorder(app, lang):
    at = app(page=BLIND, lang=lang)
    assert not [m for m in at.metric if "10" in m.label]  # nothing before the prediction
    at.radio(key="blind.sampled.predict").set_value("B").run()
    assert not at.exception
    assert at.success  # B is right: the sampled numbers reorder the models
    pos = questions.sampled_positions()
    shown = _metrics(at)

    def mean_ndcg(model: str, column: str) -> float:
        positions = pos.loc[pos.model == model, column]
        return float(np.mean([_sklearn_one_relevant(int(p)) for p in positions]))

    for model in ("A", "B"):
        label = translate(lang, "blind_spots.sampled.metric", model=model, negatives="100")
        assert shown[label] == f"{mean_ndcg(model, 'sampled'):.4f}"
    a_full, b_full = mean_ndcg("A", "full"), mean_ndcg("B", "full")
    a_sampled, b_sampled = mean_ndcg("A", "sampled"), mean_ndcg("B", "sampled")
    assert a_full > b_full and a_sampled < b_sampled
    assert a_sampled > a_full and b_sampled > b_full


@functools.cache
def _sklearn_one_relevant(position: int) -> float:
    """scikit-learn's nDCG@10 of a list whose one relevant item is at ``position``, computed once
    per position (1,000 users share a few hundred positions)."""
    return float(ndcg_score([_one_hot(position)], [_descending(position)], k=10))


def _one_hot(position: int) -> list[int]:
    row = [0] * max(position, 11)
    row[position - 1] = 1
    return row


def _descending(position: int) -> list[int]:
    n = max(position, 11)
    return list(range(n, 0, -1))


# --- 10. LightGBM's label_gain ----------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_label_gain_maps_grades_to_labels_and_keeps_ndcg(app, lang):
    at = app(page=VARIANTS, rel="72,0,12.5,72", lang=lang)
    assert not at.exception
    codes = [c.value for c in at.code]
    expected = (
        "y = [2, 0, 1, 2]  # "
        + translate(lang, "variants.label_gain.code_labels", m=2)
        + '\nparams = {"objective": "lambdarank", "metric": "ndcg", "eval_at": [4],\n'
        + '          "label_gain": [0, 12.5, 72]}\n'
        + "train = lightgbm.Dataset(X, label=y, group=[4])"
    )
    assert expected in codes
    value = ndcg_score([[72, 0, 12.5, 72]], [[4, 3, 2, 1]])
    shown = _metrics(at)
    gain = translate(lang, "variants.gain_linear")
    assert shown[translate(lang, "variants.label_gain.metric_grades", gain=gain)] == f"{value:.4f}"
    assert shown[translate(lang, "variants.label_gain.metric_labels")] == f"{value:.4f}"


def test_label_gain_with_exponential_gain_holds_two_to_the_grade(app):
    at = app(page=VARIANTS, rel="3,0,1", gain="exponential")
    # by hand: levels 0, 1, 3 -> gains 2^0 - 1, 2^1 - 1, 2^3 - 1
    assert any('"label_gain": [0, 1, 7]' in c.value and "y = [2, 0, 1]" in c.value for c in at.code)


def test_tools_table_names_gdeval(app):
    at = app(page=VARIANTS, rel="3,2,0,0,1")
    tools = static_table(at, translate("en", "variants.call"))  # the tools table
    row = tools[tools.iloc[:, 0] == "gdeval"]
    assert len(row) == 1
    assert row.iloc[0, 1] == "gdeval.pl qrels run 5"
