"""Unjudged items ("?") in the shared ranking: the Calculator computes with them, every other
page either computes correctly or says it needs grades; nothing crashes, nothing shows nan.

Expected numbers are written out as arithmetic (grades [3, ?, 2, 0, 1]) and checked against
pytrec_eval, whose convention is trec_eval's: an item not in the qrels has gain 0 and the
ideal comes from the judged items.
"""

from __future__ import annotations

import math
import re

import pytest
import pytrec_eval
from app_helpers import static_table

import ndcg_core as nc
from ui.components import widgets as w
from ui.framework.state import Ranking, ranking_from_params, ranking_to_params

NAN = float("nan")
GRADES = [3, NAN, 2, 0, 1]  # D2 was never judged
LINK = "3,?,2,0,1"
L2 = math.log2

# DCG@5 with D2 counted as irrelevant: 3/log2(2) + 0/log2(3) + 2/log2(4) + 0/log2(5) + 1/log2(6)
DCG_ZERO = 3 / L2(2) + 0 / L2(3) + 2 / L2(4) + 0 / L2(5) + 1 / L2(6)
# IDCG@5 from the judged grades 3, 2, 1, 0: 3/log2(2) + 2/log2(3) + 1/log2(4) + 0/log2(5)
IDCG = 3 / L2(2) + 2 / L2(3) + 1 / L2(4) + 0 / L2(5)
# the condensed list [3, 2, 0, 1] (D2 removed, the rest move up): DCG′@4
DCG_DROP = 3 / L2(2) + 2 / L2(3) + 0 / L2(4) + 1 / L2(5)
JUDGED = 4 / 5  # four of the top five carry a grade

PAGES = (
    "app.py",
    "app_pages/1_Lesson.py",
    "app_pages/2_Scores_and_ties.py",
    "app_pages/3_Variants_and_libraries.py",
    "app_pages/4_Blind_spots.py",
    "app_pages/5_Explore.py",
    "app_pages/6_Practice.py",
    "app_pages/7_Evaluate_a_run.py",
)


def metrics_shown(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def rendered_text(at) -> str:
    """Every text the page drew (Markdown, captions, messages, metrics, widget labels and values)."""
    parts: list[str] = []
    for kind in ("markdown", "caption", "info", "warning", "error", "success", "title", "subheader"):
        parts += [str(e.value) for e in getattr(at, kind)]
    parts += [f"{m.label} {m.value}" for m in at.metric]
    parts += [f"{x.label} {x.value}" for x in at.text_input]
    parts += [str(x.label) for x in at.button]
    return "\n".join(parts)


def pytrec_ndcg(grades: list[float], k: int | None = None) -> float:
    """nDCG@k of the run D1 > D2 > ... by pytrec_eval, with unjudged items left out of the qrels."""
    qrels = {"q": {f"D{i}": int(g) for i, g in enumerate(grades, 1) if not math.isnan(g)}}
    run = {"q": {f"D{i}": float(len(grades) - i) for i in range(1, len(grades) + 1)}}
    measure = "ndcg" if k is None else f"ndcg_cut.{k}"
    result = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)["q"]
    return result["ndcg" if k is None else f"ndcg_cut_{k}"]


# --- the core's numbers against hand arithmetic and pytrec_eval --------------------------------


def test_ndcg_unjudged_zero_matches_hand_arithmetic_and_pytrec_eval():
    assert nc.ndcg(GRADES, unjudged="zero") == pytest.approx(DCG_ZERO / IDCG, abs=1e-12)
    assert nc.ndcg(GRADES, unjudged="zero") == pytest.approx(pytrec_ndcg(GRADES), abs=1e-12)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_ndcg_unjudged_zero_at_k_matches_pytrec_eval(k):
    assert nc.ndcg(GRADES, k=k, unjudged="zero") == pytest.approx(pytrec_ndcg(GRADES, k), abs=1e-12)


def test_ndcg_unjudged_drop_matches_pytrec_eval_on_the_condensed_list():
    """nDCG′ is trec_eval's nDCG of the run with the unjudged items removed (trec_eval -J)."""
    assert nc.ndcg(GRADES, unjudged="drop") == pytest.approx(DCG_DROP / IDCG, abs=1e-12)
    assert nc.ndcg(GRADES, unjudged="drop") == pytest.approx(pytrec_ndcg([3, 2, 0, 1]), abs=1e-12)


# --- the shared ranking and its link ----------------------------------------------------------


def test_ranking_from_params_reads_question_mark_as_nan():
    ranking, errors = ranking_from_params({"rel": LINK})
    assert not errors
    assert math.isnan(ranking.relevance[1]) and ranking.n_unjudged == 1


def test_ranking_to_params_round_trips_unjudged_and_its_treatment():
    ranking, _ = ranking_from_params({"rel": LINK, "unj": "drop"})
    params = ranking_to_params(ranking)
    assert params == {"rel": LINK, "unj": "drop"}
    assert ranking_from_params(params) == (ranking, [])


def test_ranking_refuses_a_list_with_nothing_judged():
    ranking, errors = ranking_from_params({"rel": "?, ?"})
    assert ranking == Ranking()
    assert [e.key for e in errors] == ["all_unjudged"]


def test_ranking_with_two_nan_objects_compares_equal():
    """Tuples compare NaN by identity: the ranking keeps one NaN object, so equal rankings are equal."""
    assert Ranking().with_items([3, float("nan")]) == Ranking().with_items([3, float("nan")])


# --- the Calculator ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_calculator_typed_question_mark_shows_both_conventions(app, lang):
    at = app(lang=lang)
    at.text_input(key="calc.text").set_value("3, ?, 2, 0, 1").run()
    assert not at.exception
    shown = metrics_shown(at)
    assert shown["DCG@5"] == f"{DCG_ZERO:.4f}"
    assert shown["IDCG@5"] == f"{IDCG:.4f}"
    assert shown["nDCG@5"] == f"{DCG_ZERO / IDCG:.4f}" == "0.9212"
    zero, drop, judged = (m.value for m in at.metric[4:7])
    assert (zero, drop, judged) == (f"{DCG_ZERO / IDCG:.4f}", f"{DCG_DROP / IDCG:.4f}", f"{JUDGED:.4f}")
    assert at.query_params["rel"] == LINK
    assert "nan" not in rendered_text(at).lower()


def test_calculator_typed_full_width_question_mark_is_unjudged(app):
    at = app(lang="zh")
    at.text_input(key="calc.text").set_value("3，？，2，0，1").run()
    assert not at.exception
    assert at.query_params["rel"] == LINK


def test_calculator_zh_labels_the_conventions_in_chinese(app):
    at = app(lang="zh", rel=LINK)
    labels = [m.label for m in at.metric]
    assert "nDCG@5，未标注按 0 计" in labels and "nDCG′@4，移除未标注" in labels and "已标注比例@5" in labels


def test_calculator_step_table_shows_question_mark_and_gain_zero(app):
    at = app(rel=LINK)
    table = static_table(at, "Discounted gain")
    assert table["Grade"].tolist() == ["3", "?", "2", "0", "1"]
    assert table["Gain"].tolist() == ["3", "0", "2", "0", "1"]
    assert table["DCG"].iloc[-1] == f"{DCG_ZERO:.4f}"
    assert table["nDCG"].iloc[-1] == f"{DCG_ZERO / IDCG:.4f}"


def test_calculator_drop_uses_the_condensed_list_everywhere(app):
    at = app(rel=LINK)
    at.segmented_control(key="calc.unjudged").set_value("drop").run()
    assert not at.exception
    shown = metrics_shown(at)
    assert shown["nDCG′@4"] == f"{DCG_DROP / IDCG:.4f}" == "0.9854"
    assert shown["DCG′@4"] == f"{DCG_DROP:.4f}"
    table = static_table(at, "Discounted gain")
    assert table["Item"].tolist() == ["D1", "D3", "D4", "D5"]
    assert table["DCG"].iloc[-1] == f"{DCG_DROP:.4f}"
    formulas = " ".join(m.value for m in at.markdown if "DCG@4" in m.value)
    assert f"{DCG_DROP:.4f}" in formulas
    assert at.query_params["unj"] == "drop"


def test_calculator_formulas_write_unjudged_as_gain_zero(app):
    at = app(rel=LINK)
    dcg = next(m.value for m in at.markdown if "\\mathrm{DCG@5} = \\dfrac" in m.value)
    assert "\\dfrac{0}{\\log_2 3}" in dcg and dcg.endswith(f"= {DCG_ZERO:.4f}$")


def test_calculator_table_choosing_question_mark_marks_unjudged(app):
    at = app()
    at.session_state[w.table_key(Ranking(), "calc")] = {
        "edited_rows": {1: {"grade": "?"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    assert at.query_params["rel"] == "3,?,0,0,1"
    # D2 unjudged: DCG = 3/log2(2) + 0 + 0 + 0 + 1/log2(6); ideal from 3, 1, 0, 0
    expected = (3 + 1 / L2(6)) / (3 + 1 / L2(3))
    assert metrics_shown(at)["nDCG@5"] == f"{expected:.4f}"
    assert expected == pytest.approx(pytrec_ndcg([3, NAN, 0, 0, 1]), abs=1e-12)


def test_calculator_table_keeps_unjudged_rows_when_another_row_is_edited(app):
    at = app(rel=LINK)
    start = ranking_from_params({"rel": LINK})[0]
    at.session_state[w.table_key(start, "calc")] = {
        "edited_rows": {4: {"grade": "3"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    assert at.query_params["rel"] == "3,?,2,0,3"


def test_calculator_drag_moves_an_unjudged_card(app):
    at = app(rel=LINK)
    start = ranking_from_params({"rel": LINK})[0]
    cards = w.cards(start)
    assert cards[1] == "D2 · ?"
    dropped = [cards[0], cards[2], cards[3], cards[4], cards[1]]
    at.session_state[w.sortable_key(start, "calc")] = [{"header": None, "items": dropped}]
    at.run()
    assert not at.exception
    assert at.query_params["rel"] == "3,2,0,1,?"
    # D2 moved to the bottom: 3/log2(2) + 2/log2(3) + 0/log2(4) + 1/log2(5) + 0/log2(6)
    assert metrics_shown(at)["nDCG@5"] == f"{DCG_DROP / IDCG:.4f}"


def test_calculator_preset_unjudged_loads_question_mark(app):
    at = app()
    at.selectbox(key="calc.preset").set_value("unjudged").run()
    assert not at.exception
    assert at.query_params["rel"] == LINK
    assert metrics_shown(at)["nDCG@5"] == f"{DCG_ZERO / IDCG:.4f}"


def test_calculator_all_question_marks_shows_message_and_keeps_ranking(app):
    at = app()
    at.text_input(key="calc.text").set_value("?, ?").run()
    assert not at.exception
    assert "unjudged" in at.error[0].value
    assert at.query_params["rel"] == "3,2,0,0,1"


def test_calculator_regrading_an_unjudged_item_says_so(app):
    at = app(rel=LINK)
    at.text_input(key="calc.text").set_value("3, 2, 2, 0, 1").run()
    note = " ".join(i.value for i in at.info)
    assert "from ? to 2" in note.replace("\\", "")


def test_ideal_order_button_puts_unjudged_items_last(app):
    at = app(rel="?,1,3")
    at.button(key="calc.ideal").click().run()
    assert not at.exception
    assert at.query_params["rel"] == "3,1,?"


# --- every page, given a ranking with "?" -----------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", PAGES)
def test_page_with_unjudged_ranking_runs_without_nan(app, page, lang):
    at = app(page=page, rel=LINK, lang=lang, timeout=60)
    assert not at.exception
    assert not re.search(r"\bnan\b|\binf\b", rendered_text(at), re.IGNORECASE)


@pytest.mark.parametrize(
    ("page", "prefix"),
    [
        ("app_pages/1_Lesson.py", "lesson"),
        ("app_pages/2_Scores_and_ties.py", "ties"),
        ("app_pages/3_Variants_and_libraries.py", "variants"),
        ("app_pages/5_Explore.py", "explore"),
    ],
)
def test_page_needing_grades_says_so_and_can_grade_unjudged_zero(app, page, prefix):
    at = app(page=page, rel=LINK)
    assert any("unjudged items (?): D2" in i.value for i in at.info)
    at.button(key=f"{prefix}.unjudged_as_zero").click().run()
    assert not at.exception
    assert at.query_params["rel"] == "3,0,2,0,1"
    assert not any("unjudged items (?)" in i.value for i in at.info)


def test_page_needing_grades_says_so_in_chinese(app):
    at = app(page="app_pages/5_Explore.py", rel=LINK, lang="zh")
    assert any("未标注的项（?）：D2" in i.value for i in at.info)


def test_handout_shows_question_mark_and_the_convention():
    from ui.components.handout import handout_html, step_table_csv

    ranking = ranking_from_params({"rel": LINK})[0]
    html = handout_html(ranking, "en")
    assert "nan" not in html.lower()
    assert "count as irrelevant" in html and f"{DCG_ZERO / IDCG:.4f}" in html
    assert b"nan" not in step_table_csv(ranking).lower()


@pytest.mark.parametrize("page", PAGES)
def test_page_with_unjudged_ranking_in_chinese_has_no_english(app, page):
    from chinese_text import english_leftovers

    at = app(page=page, rel=LINK, lang="zh", timeout=90)
    assert not at.exception
    assert english_leftovers(at) == []


def test_calculator_drop_in_chinese_has_no_english(app):
    from chinese_text import english_leftovers

    at = app(rel=LINK, unj="drop", lang="zh", timeout=90)
    assert english_leftovers(at) == []


def test_blind_spots_padding_with_my_unjudged_ranking_says_it_needs_grades(app):
    at = app(page="app_pages/4_Blind_spots.py", rel=LINK)
    at.radio(key="blind.padding.predict").set_value("same").run()
    at.radio(key="blind.padding.base").set_value("mine").run()
    assert not at.exception
    assert any("unjudged items (?): D2" in i.value for i in at.info)
    assert "nan" not in rendered_text(at).lower()


def test_blind_spots_difficulty_with_unjudged_ranking_says_it_needs_grades(app):
    at = app(page="app_pages/4_Blind_spots.py", rel=LINK)
    at.radio(key="blind.difficulty.predict").set_value("A").run()
    assert not at.exception
    assert any("unjudged items (?): D2" in i.value for i in at.info)
    assert "nan" not in rendered_text(at).lower()


def test_calculator_unjudged_choice_says_what_changed(app):
    at = app(rel=LINK)
    at.segmented_control(key="calc.unjudged").set_value("drop").run()
    note = " ".join(i.value for i in at.info).replace("\\", "")
    assert "from counted as 0 to removed (condensed list)" in note
    assert f"{DCG_ZERO / IDCG:.4f}" in note and f"{DCG_DROP / IDCG:.4f}" in note


def test_calculator_without_unjudged_items_offers_no_unjudged_choice(app):
    at = app()
    assert not [s for s in at.segmented_control if s.key == "calc.unjudged"]
    assert len(at.metric) == 4
