"""The Practice page (AppTest): seeded exercises from the link, answers checked, hints, solution."""

from __future__ import annotations

import re

import pytest
from app_helpers import static_table

import ndcg_core as nc
from ndcg_core import NDCGInputError
from ndcg_teach.exercises import MAX_SEED, hints, make_exercises
from ui.framework.i18n import error_text, translate
from ui.framework.state import MAX_NUMBER_CHARS
from ui.views import practice

PAGE = "app_pages/6_Practice.py"
SEED = 42
SET = make_exercises(SEED, n=10)


def _param(at, name: str) -> str:
    value = at.query_params[name]
    return value[-1] if isinstance(value, list) else value


def _open(app, number: int = 1, **params):
    return app(page=PAGE, seed=str(SEED), ex=str(number), **params)


def _shown_list(at, index: int = 0) -> tuple[list[str], list[float]]:
    table = at.table[index].value
    return list(table.iloc[0]), [float(x) for x in table.iloc[1]]


def _score(at) -> str:
    return next(m.value for m in at.metric if m.label == "Score")


def _type_and_check(at, number: int, text: str):
    at.text_input(key=f"practice.answer.{SEED}.{number}").input(text)
    at.button(key=f"practice.check.{SEED}.{number}").click()
    return at.run()


def test_practice_runs_on_defaults_and_puts_a_seed_in_the_link(app):
    at = app(page=PAGE)
    assert not at.exception
    seed = int(_param(at, "seed"))
    assert 0 <= seed <= MAX_SEED
    assert _param(at, "ex") == "1"


def test_practice_runs_on_the_shared_example_in_chinese(app):
    at = _open(app, rel="3,2,0,0,1", lang="zh")
    assert not at.exception
    assert at.title[0].value == "练习"


def test_same_seed_shows_the_same_exercise(app):
    first, second = _open(app, 4), _open(app, 4)
    assert _shown_list(first) == _shown_list(second)
    e = SET[3]
    assert _shown_list(first) == (list(e.labels), list(e.relevance))
    assert any(f"nDCG@{e.cutoff}" in m.value for m in first.markdown)


def test_junk_in_the_link_gives_messages_and_falls_back(app):
    at = app(page=PAGE, seed="<script>", ex="eleven")
    assert not at.exception
    texts = [w.value for w in at.warning]
    assert any("is not a whole number from 0 to 999999" in w for w in texts)
    assert any("exercise number" in w for w in texts)
    assert 0 <= int(_param(at, "seed")) <= MAX_SEED
    assert _param(at, "ex") == "1"


def test_right_answer_is_accepted_and_scored(app):
    e = SET[0]
    at = _type_and_check(_open(app, 1), 1, f"{e.answer:.2f}")
    assert not at.exception
    assert at.success[0].value.startswith("Right")
    assert _score(at) == "1 / 1"


def test_wrong_answer_is_rejected_and_scored(app):
    e = SET[2]
    at = _type_and_check(_open(app, 3), 3, f"{e.answer + 0.05:.4f}")
    assert at.error[0].value.startswith("Not yet")
    assert _score(at) == "0 / 1"


def test_right_answer_after_a_wrong_one_counts_as_right(app):
    e = SET[2]
    at = _type_and_check(_open(app, 3), 3, "1")
    at = _type_and_check(at, 3, f"{e.answer:.3f}")
    assert _score(at) == "1 / 1"


def test_malformed_answer_shows_a_message(app):
    at = _type_and_check(_open(app, 3), 3, "six")
    assert not at.exception
    assert "is 'six', which is not a number" in at.error[0].value
    assert _score(at) == "0 / 0"


def test_hints_reveal_one_step_at_a_time(app):
    e = SET[1]  # a DCG exercise
    at = _open(app, 2)
    key = f"practice.hint.{SEED}.2"
    at.button(key=key).click().run()
    shown = [m.value for m in at.markdown if m.value.startswith("1. ")]
    assert len(shown) == 1 and "2. " not in shown[0]
    at.button(key=key).click().run()
    shown = [m.value for m in at.markdown if m.value.startswith("1. ")]
    gains = ", ".join(f"{g:g}" for g in hints(e)[1].params["values"])
    assert f"2. The gains of positions 1 to {e.cutoff}: {gains}" in shown[0].replace("\\", "")


def test_show_solution_uses_the_step_table(app):
    e = SET[3]  # nDCG@3
    at = _open(app, 4)
    at.toggle(key=f"practice.solution.{SEED}.4").set_value(True).run()
    assert at.info[0].value.replace("\\", "") == f"nDCG@{e.cutoff} = {e.answer:.4f}"
    # the Calculator's step table (its headers), static: whole, and in parts for narrow screens
    table = static_table(at, "nDCG")
    assert list(table.columns) == [translate("en", f"table.{c}") for c in practice.SOLUTION_COLUMNS]
    assert table["nDCG"].iloc[-1] == f"{nc.ndcg(list(e.relevance), k=e.k):.4f}"
    assert not at.dataframe
    assert _score(at) == "0 / 1"


def test_ideal_order_solution_shows_the_table_of_the_ideal_order(app):
    """Its step table is the answer's (every nDCG 1), not the shuffled list's (a review found
    "the last row holds the answer" over the shuffled list's 0.6878)."""
    e = SET[4]
    assert e.kind == "ideal_order"
    at = _open(app, 5)
    at.toggle(key=f"practice.solution.{SEED}.5").set_value(True).run()
    assert "its nDCG is 1" in at.caption[-1].value
    table = static_table(at, "nDCG")
    assert list(table["Item"]) == list(e.answer)
    assert list(table["nDCG"]) == ["1.0000"] * len(e.relevance)
    assert nc.ndcg(list(e.relevance)) < 1  # the list shown is not ideal


def test_compare_exercise_checks_the_prediction(app):
    e = SET[5]
    assert e.kind == "compare"
    at = _open(app, 6)
    at.radio(key=f"practice.choice.{SEED}.6").set_value(e.answer)
    at.button(key=f"practice.check.{SEED}.6").click().run()
    assert at.success[0].value.startswith("Right")


def test_compare_without_a_choice_asks_for_one(app):
    at = _open(app, 6)
    at.button(key=f"practice.check.{SEED}.6").click().run()
    assert at.info[0].value == "Choose an answer first."


def test_ideal_order_exercise_checks_the_dragged_order(app):
    from ui.views.practice import cards, sort_key

    e = SET[4]
    at = _open(app, 5)
    place_key = sort_key(type("P", (), {"exercise": e, "seed": SEED, "number": 5})())
    at.button(key=f"practice.check.{SEED}.5").click().run()
    assert at.error[0].value.startswith("Not yet")  # the shuffled order as shown
    grade = dict(zip(e.labels, e.relevance, strict=False))
    order = [c for x in e.answer for c in cards(e) if c.startswith(f"{x} ")]
    assert [grade[c.split(" ")[0]] for c in order] == sorted(e.relevance, reverse=True)
    at.session_state[place_key] = [{"header": None, "items": order}]
    at.button(key=f"practice.check.{SEED}.5").click().run()
    assert at.success[0].value.startswith("Right")


def test_next_moves_to_the_next_exercise_in_the_link(app):
    at = _open(app, 1)
    at.button(key="practice.next").click().run()
    assert _param(at, "ex") == "2"
    assert _shown_list(at) == (list(SET[1].labels), list(SET[1].relevance))


def test_changing_the_seed_starts_its_set(app):
    at = _open(app, 3)
    at.number_input(key="practice.seed_box").set_value(7).run()
    assert (_param(at, "seed"), _param(at, "ex")) == ("7", "1")
    first = make_exercises(7, n=1)[0]
    assert _shown_list(at) == (list(first.labels), list(first.relevance))


def _errors(at) -> list[str]:
    return [re.sub(r"\\(.)", r"\1", e.value) for e in at.error]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_practice_5000_digit_seed_is_refused_with_one_message_and_no_traceback(app, lang):
    # issue 12, defect 5: int() of 5,000 digits raised an uncaught ValueError (traceback)
    at = app(page=PAGE, seed="9" * 5000, lang=lang)
    assert not at.exception
    err = NDCGInputError("link_value_too_long", param="seed", got=5000, limit=MAX_NUMBER_CHARS)
    assert _errors(at) == [error_text(lang, err)]
    seed = int(_param(at, "seed"))  # a fresh seed replaced it
    assert 0 <= seed <= MAX_SEED
    at.run()  # and the state stays usable
    assert not at.exception


def test_practice_seed_longer_than_max_seed_gets_the_seed_message(app):
    at = app(page=PAGE, seed="0" * 19 + "1")  # 20 characters: within the link limit
    assert not at.exception
    assert any("0000000000" in w.value for w in at.warning)
    assert len(_param(at, "seed")) <= len(str(MAX_SEED))


@pytest.mark.parametrize(
    ("value", "usable"),
    [
        (0, True),
        (MAX_SEED, True),
        (42.0, True),
        (MAX_SEED + 1, False),
        (-1, False),
        (2.5, False),
        (float("inf"), False),
        (float("nan"), False),
        (10**400, False),
        ("42", False),
        (True, False),
    ],
)
def test_practice_valid_seed_checks_before_converting(value, usable):
    # Streamlit's box clamps what a person types; the callback still checks what it is given
    assert practice.valid_seed(value) is usable


def test_unexpected_error_shows_no_traceback_or_path(app):
    # inf in the int box fails inside Streamlit's own widget code, before any app code runs;
    # client.showErrorDetails = "none" leaves a generic message, no type, traceback or path
    at = _open(app)
    at.session_state["practice.seed_box"] = float("inf")
    at.run()
    assert len(at.exception) == 1
    shown = at.exception[0]
    assert not shown.stack_trace
    assert "OverflowError" not in shown.message and "/" not in shown.message.replace("'", "")


@pytest.mark.parametrize(
    ("lang", "typed", "start"),
    [
        ("en", "abc", "Your answer is 'abc', which is not a number"),
        ("en", "0.9 0.8", "Your answer has 2 parts"),
        ("zh", "abc", "你的答案是 'abc'，不是数字"),
        ("zh", "0.9 0.8", "你的答案有 2 个部分"),
    ],
)
def test_practice_malformed_answer_message_names_the_answer(app, lang, typed, start):
    at = _type_and_check(_open(app, 3, lang=lang), 3, typed)
    assert not at.exception
    assert _errors(at)[0].startswith(start)
