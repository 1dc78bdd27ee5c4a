"""Issue 24, item 2: the shared ranking changes only by a person's action, never by a visit.

The rule is written in CONTRIBUTING ("The shared ranking"). Every path runs in English and
in Chinese; the expected grades are written by hand.
"""

from __future__ import annotations

import pytest

from ui.framework.i18n import translate

CALC = "app_pages/0_Calculator.py"
TIES = "app_pages/2_Scores_and_ties.py"
EVALUATE = "app_pages/7_Evaluate_a_run.py"
LANGS = pytest.mark.parametrize("lang", ["en", "zh"])


def _param(at, name):
    value = at.query_params.get(name)
    return value[-1] if isinstance(value, list) else value


def _rel(at) -> tuple[float, ...]:
    return tuple(at.session_state["lab.ranking"].relevance)


@LANGS
@pytest.mark.parametrize("link", [{}, {"rel": "3,2,0,0,1"}])
def test_a_first_visit_to_scores_and_ties_keeps_the_shared_ranking(app, lang, link):
    """(a) The visit, with or without rel= in the link, leaves 3,2,0,0,1 for every later page."""
    at = app(page=TIES, lang=lang, **link)
    assert not at.exception
    assert _rel(at) == (3, 2, 0, 0, 1)
    assert _param(at, "rel") == "3,2,0,0,1"
    at.switch_page(CALC).run()
    assert _rel(at) == (3, 2, 0, 0, 1)
    assert at.text_input(key="calc.text").value == "3, 2, 0, 0, 1"


@LANGS
def test_a_link_with_rel_shows_those_grades_on_scores_and_ties(app, lang):
    at = app(page=TIES, lang=lang, rel="3,2,0,0,1")
    assert at.text_input(key="ties.grades").value == "3, 2, 0, 0, 1"
    assert _param(at, "scores") == "5,4,3,2,1"
    assert _param(at, "grades") is None


@LANGS
def test_grades_typed_on_scores_and_ties_stay_there_until_used(app, lang):
    at = app(page=TIES, lang=lang)
    at.text_input(key="ties.grades").set_value("2, 1, 0").run()
    at.text_input(key="ties.scores").set_value("0.5, 0.5, 0.1").run()
    assert not at.exception
    assert _rel(at) == (3, 2, 0, 0, 1)
    assert _param(at, "grades") == "2,1,0"
    at.switch_page(CALC).run()
    assert at.text_input(key="calc.text").value == "3, 2, 0, 0, 1"
    at.switch_page(TIES).run()
    assert at.text_input(key="ties.grades").value == "2, 1, 0"
    assert at.text_input(key="ties.scores").value == "0.5,0.5,0.1"
    button = at.button(key="ties.use")
    assert button.label == translate(lang, "ties.use_in_calculator")
    button.click().run()  # the button opens the Calculator
    assert not at.exception
    assert at.title[0].value == translate(lang, "calculator.title")
    assert _rel(at) == (2, 1, 0)
    assert at.text_input(key="calc.text").value == "2, 1, 0"


@LANGS
def test_b_boxes_keep_their_values_and_an_old_note_is_not_shown_again(app, lang):
    """(b) Scores and ties → Calculator → type → Scores and ties → Calculator."""
    at = app(page=TIES, lang=lang)
    at.switch_page(CALC).run()
    at.text_input(key="calc.text").set_value("3, 2, 1").run()
    assert at.info  # the note of the change just made
    at.switch_page(TIES).run()
    assert at.text_input(key="ties.scores").value == "0.9,0.5,0.6,0.9,0.9"
    assert at.text_input(key="ties.grades").value == "7, 4, 1, 0, 0"
    at.switch_page(CALC).run()
    assert not at.exception
    assert at.text_input(key="calc.text").value == "3, 2, 1"
    assert at.segmented_control(key="calc.scale").value == "graded"
    assert _param(at, "scale") == "graded"
    assert not [i for i in at.info if "3" in i.value and "nDCG" in i.value]  # no old note
    at.switch_page(TIES).run()
    assert at.text_input(key="ties.scores").value == "0.9,0.5,0.6,0.9,0.9"


@LANGS
def test_c_a_graded_query_from_evaluate_switches_a_binary_scale(app, lang):
    """(c) The binary scale chosen earlier; a query with grades 0, 1, 3 opened from Evaluate."""
    at = app(page=EVALUATE, lang=lang, eval_form="table")
    at.switch_page(CALC).run()
    at.selectbox(key="calc.preset").set_value("binary").run()
    assert _param(at, "scale") == "binary"
    at.switch_page(EVALUATE).run()
    at.radio(key="evaluate.source").set_value("upload").run()
    data = b"query,item,relevance,score\na,x,3,0.1\na,y,0,0.9\na,z,1,0.5\n"
    at.file_uploader(key="evaluate.file").set_value(("run.csv", data, "text/csv"))
    at.run()
    at.button(key="evaluate.open").click().run()  # the button opens the Calculator
    assert at.title[0].value == translate(lang, "calculator.title")
    assert not at.exception
    assert _rel(at) == (0, 1, 3)
    assert at.segmented_control(key="calc.scale").value == "graded"
    assert _param(at, "scale") == "graded"
    assert not at.error


def test_a_link_whose_scale_and_grades_disagree_still_says_so(app):
    at = app(page=CALC, rel="3,2", scale="binary")
    assert at.error
    assert at.segmented_control(key="calc.scale").value == "graded"
