"""Practice exercises: reproducible from a seed, answers from the core, checked with a tolerance."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_core as nc
from ndcg_teach.exercises import (
    DEFAULT_TOLERANCE,
    KINDS,
    MAX_SEED,
    Exercise,
    check_answer,
    hints,
    make_exercises,
    parse_index,
    parse_seed,
    solution_tables,
)

WORKED_DCG = 3 + 2 / math.log2(3) + 1 / math.log2(6)


def _dcg_exercise(**changes) -> Exercise:
    fields = dict(
        number=1,
        kind="dcg",
        relevance=(3.0, 2.0, 0.0, 0.0, 1.0),
        labels=("D1", "D2", "D3", "D4", "D5"),
        k=None,
        gain="linear",
        discount="log2",
        answer=WORKED_DCG,
    )
    fields.update(changes)
    return Exercise(**fields)


def test_make_exercises_same_seed_gives_same_set():
    assert make_exercises(1234, n=12) == make_exercises(1234, n=12)


def test_make_exercises_different_seeds_give_different_sets():
    assert make_exercises(1, n=12) != make_exercises(2, n=12)


def test_make_exercises_introduces_every_kind_first():
    assert [e.kind for e in make_exercises(5, n=8)][: len(KINDS)] == list(KINDS)


def test_make_exercises_respects_kinds_and_count():
    ex = make_exercises(5, n=7, kinds=("ndcg", "compare"))
    assert len(ex) == 7
    assert {e.kind for e in ex} <= {"ndcg", "compare"}
    assert [e.number for e in ex] == list(range(1, 8))


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, MAX_SEED),
    gain=st.sampled_from(["linear", "exponential"]),
    discount=st.sampled_from(["log2", "jarvelin"]),
)
def test_make_exercises_numeric_answers_equal_core_metrics(seed, gain, discount):
    for e in make_exercises(seed, n=8, kinds=("cg", "dcg", "idcg", "ndcg"), gain=gain, discount=discount):
        m = nc.metrics(list(e.relevance), k=e.k, gain=gain, discount=discount)
        assert e.answer == pytest.approx(getattr(m, e.kind), abs=1e-12)
        assert max(e.relevance) > 0
        assert 3 <= len(e.relevance) <= 6


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, MAX_SEED))
def test_make_exercises_compare_answer_matches_ndcg(seed):
    for e in make_exercises(seed, n=4, kinds=("compare",)):
        a, b = nc.ndcg(list(e.relevance)), nc.ndcg(list(e.other))
        expected = "same" if a == pytest.approx(b, abs=1e-12) else "A" if a > b else "B"
        assert e.answer == expected
        assert set(e.labels) <= set(e.other_labels)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, MAX_SEED))
def test_make_exercises_ideal_order_is_shuffled_and_answer_is_ideal(seed):
    for e in make_exercises(seed, n=3, kinds=("ideal_order",)):
        grade = dict(zip(e.labels, e.relevance, strict=False))
        shown = list(e.relevance)
        assert shown != sorted(shown, reverse=True)
        assert [grade[x] for x in e.answer] == sorted(shown, reverse=True)


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 1.5, True, "3"])
def test_make_exercises_rejects_bad_seed(seed):
    with pytest.raises(nc.NDCGInputError, match="seed"):
        make_exercises(seed)


def test_make_exercises_rejects_unknown_kind():
    with pytest.raises(nc.NDCGInputError, match="exercise kind must be one of"):
        make_exercises(1, kinds=("map",))


def test_make_exercises_rejects_zero_exercises():
    with pytest.raises(nc.NDCGInputError, match="number of exercises"):
        make_exercises(1, n=0)


def test_check_answer_accepts_within_tolerance():
    ex = _dcg_exercise()
    assert check_answer(ex, 4.65).correct  # 4.6487 rounded to two decimals
    assert check_answer(ex, WORKED_DCG + 0.009).correct


def test_check_answer_rejects_outside_tolerance():
    verdict = check_answer(_dcg_exercise(), WORKED_DCG + 0.011)
    assert not verdict.correct
    assert verdict.error == pytest.approx(0.011)
    assert verdict.tolerance == DEFAULT_TOLERANCE


def test_check_answer_uses_the_stated_tolerance():
    assert check_answer(_dcg_exercise(), 4.7, tol=0.1).correct
    assert not check_answer(_dcg_exercise(), 4.65, tol=0.0001).correct


def test_check_answer_parses_typed_text():
    verdict = check_answer(_dcg_exercise(), " 4.649 ")
    assert verdict.correct and verdict.given == 4.649


@pytest.mark.parametrize(
    ("text", "key"), [("abc", "answer_not_a_number"), ("", "answer_empty"), ("4 6", "answer_too_many")]
)
def test_check_answer_rejects_text_that_is_not_one_number(text, key):
    with pytest.raises(nc.NDCGInputError) as info:
        check_answer(_dcg_exercise(), text)
    assert info.value.key == key


def test_check_answer_rejects_negative_tolerance():
    with pytest.raises(nc.NDCGInputError, match="tolerance"):
        check_answer(_dcg_exercise(), 4.65, tol=-1)


def test_check_answer_ideal_order_accepts_any_order_of_equal_grades():
    ex = Exercise(
        1,
        "ideal_order",
        (1.0, 3.0, 1.0, 2.0),
        ("D1", "D2", "D3", "D4"),
        None,
        "linear",
        "log2",
        ("D2", "D4", "D1", "D3"),
    )
    assert check_answer(ex, ["D2", "D4", "D3", "D1"]).correct
    assert not check_answer(ex, ["D4", "D2", "D1", "D3"]).correct


@pytest.mark.parametrize(
    "order", [["D2", "D4", "D1"], ["D2", "D4", "D1", "D1"], ["D2", "D4", "D1", "D9"], "D2D4D1D3"]
)
def test_check_answer_ideal_order_refuses_what_is_not_a_permutation(order):
    ex = Exercise(
        1, "ideal_order", (1.0, 3.0, 1.0, 2.0), ("D1", "D2", "D3", "D4"), None, "linear", "log2", ()
    )
    with pytest.raises(nc.NDCGInputError) as caught:
        check_answer(ex, order)
    assert caught.value.key == "not_permutation"


def test_check_answer_compare_choices():
    ex = Exercise(
        1, "compare", (3.0,), ("D1",), None, "linear", "log2", "same", (3.0, 0.0, 0.0), ("D1", "D2", "D3")
    )
    assert check_answer(ex, "same").correct
    assert not check_answer(ex, "A").correct
    with pytest.raises(nc.NDCGInputError, match="answer must be one of"):
        check_answer(ex, "C")


def test_hints_dcg_end_with_terms_that_add_up_to_the_answer():
    steps = hints(_dcg_exercise())
    assert [h.key for h in steps] == ["dcg_rule", "gains", "discounts", "discounted_gains"]
    assert steps[2].params["values"] == pytest.approx(
        [1, 1 / math.log2(3), 0.5, 1 / math.log2(5), 1 / math.log2(6)]
    )
    assert sum(steps[-1].params["values"]) == pytest.approx(WORKED_DCG)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, MAX_SEED))
@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_hints_lead_to_the_answer(seed, gain):
    for e in make_exercises(seed, n=6, gain=gain):
        last = hints(e)[-1].params
        if e.kind in ("cg", "dcg", "idcg"):
            assert sum(hints(e)[-1].params["values"]) == pytest.approx(e.answer)
        elif e.kind == "ndcg":
            assert hints(e)[-2].params["value"] / last["value"] == pytest.approx(e.answer)
        elif e.kind == "ideal_order":
            grade = dict(zip(e.labels, e.relevance, strict=False))
            assert grade[last["item"]] == max(e.relevance)


def test_solution_tables_last_row_holds_the_answer():
    ex = _dcg_exercise(k=3, answer=3 + 2 / math.log2(3))
    table = solution_tables(ex)["A"]
    assert list(table["position"]) == [1, 2, 3]
    assert table["dcg"].iloc[-1] == pytest.approx(ex.answer)


def test_solution_tables_of_an_ideal_order_are_the_answers_table():
    """The solution of "put this list into the ideal order" is the table of the ideal order:
    nDCG 1 on its last row (the shuffled list shown by the exercise, [1, 3, 0, 2], has 0.7884
    under linear gain: (1 + 3/log2 3 + 2/log2 5) / (3 + 2/log2 3 + 1/log2 4))."""
    ex = Exercise(
        4,
        "ideal_order",
        (1.0, 3.0, 0.0, 2.0),
        ("D1", "D2", "D3", "D4"),
        None,
        "linear",
        "log2",
        ("D2", "D4", "D1", "D3"),
    )
    table = solution_tables(ex)["A"]
    assert list(table["item"]) == ["D2", "D4", "D1", "D3"]
    assert list(table["relevance"]) == [3.0, 2.0, 1.0, 0.0]
    assert list(table["ndcg"]) == [1.0, 1.0, 1.0, 1.0]
    shown = (1 + 3 / math.log2(3) + 2 / math.log2(5)) / (3 + 2 / math.log2(3) + 1 / math.log2(4))
    assert round(shown, 4) == 0.7884
    assert nc.ndcg([1, 3, 0, 2]) == pytest.approx(shown, abs=1e-12)


def test_solution_tables_compare_has_both_lists():
    ex = make_exercises(3, n=1, kinds=("compare",))[0]
    tables = solution_tables(ex)
    assert set(tables) == {"A", "B"}
    assert tables["B"]["ndcg"].iloc[-1] == pytest.approx(nc.ndcg(list(ex.other)))


@pytest.mark.parametrize(("text", "expected"), [("0", 0), (" 42 ", 42), (str(MAX_SEED), MAX_SEED)])
def test_parse_seed_accepts_whole_numbers(text, expected):
    assert parse_seed(text) == expected


@pytest.mark.parametrize("text", ["", "abc", "-1", "1.5", "１２", str(MAX_SEED + 1), "<b>", "9" * 5000])
def test_parse_seed_rejects_junk(text):
    with pytest.raises(nc.NDCGInputError) as info:
        parse_seed(text)
    assert info.value.key == "bad_link" and info.value.params["param"] == "seed"


@pytest.mark.parametrize("text", ["0", "11", "x", ""])
def test_parse_index_rejects_out_of_range(text):
    with pytest.raises(nc.NDCGInputError, match="'ex'"):
        parse_index(text, 10)


def test_parse_index_accepts_range():
    assert [parse_index(str(i), 3) for i in (1, 2, 3)] == [1, 2, 3]
