"""Judging: one rule for comparing computed values, one for a number a person typed."""

from __future__ import annotations

import math

import pytest

import ndcg_core as nc
from ndcg_core.judging import ANSWER_TOLERANCE, SAME_TOLERANCE, answer_tolerance, compare_values, judge_number
from ndcg_teach.exercises import check_answer, make_exercises

WORKED_NDCG = (3 + 2 / math.log2(3) + 1 / math.log2(6)) / (3 + 2 / math.log2(3) + 1 / math.log2(4))


def test_compare_values_higher():
    assert compare_values(0.9, 0.8) == "higher"


def test_compare_values_lower():
    assert compare_values(0.8, 0.9) == "lower"


def test_compare_values_rounding_noise_is_same():
    # 0.1 + 0.2 is 0.30000000000000004 in binary
    assert compare_values(0.1 + 0.2, 0.3) == "same"


def test_compare_values_tolerance_is_relative_for_large_values():
    big = 1e300
    assert compare_values(big, big + big * SAME_TOLERANCE / 2) == "same"


def test_compare_values_difference_above_tolerance_counts():
    assert compare_values(1.0, 1.0 + 1e-9) == "lower"


def test_compare_values_log_base_cancels_in_ndcg():
    # nDCG is the same for every log base in exact arithmetic; the core's floats agree by this rule
    table = nc.base_comparison([3, 2, 0, 0, 1])
    assert compare_values(float(table["ndcg"].iloc[0]), float(table["ndcg"].iloc[-1])) == "same"


@pytest.mark.parametrize("bad", [math.nan, math.inf, "0.5", None, True])
def test_compare_values_refuses_non_finite(bad):
    with pytest.raises(nc.NDCGInputError):
        compare_values(bad, 0.5)


def test_judge_number_default_tolerance_is_two_decimals():
    assert answer_tolerance() == ANSWER_TOLERANCE == 0.01


def test_judge_number_accepts_within_default_tolerance():
    assert judge_number("0.97", WORKED_NDCG).correct


def test_judge_number_rejects_outside_default_tolerance():
    assert not judge_number("0.96", WORKED_NDCG).correct


def test_judge_number_accepts_answer_at_the_tolerance_edge():
    # 0.5 + 0.01 typed as text: the decimal edge must not fail by binary rounding
    assert judge_number("0.51", 0.5).correct


def test_judge_number_decimals_accepts_the_rounded_value():
    # nDCG of the worked example is 0.97619...: to 2 decimals 0.98
    assert judge_number("0.98", WORKED_NDCG, decimals=2).correct


def test_judge_number_decimals_rejects_truncation():
    assert not judge_number("0.97", WORKED_NDCG, decimals=2).correct


def test_judge_number_decimals_tolerance_is_half_a_unit():
    assert judge_number("1", 1.0, decimals=3).tolerance == 0.5 * 10**-3


def test_judge_number_decimals_zero_rounds_to_integer():
    assert judge_number("5", 4.6487, decimals=0).correct


def test_judge_number_reports_given_and_error():
    v = judge_number(" 4.6 ", 4.75, tol=0.2)
    assert (v.correct, v.given, v.expected) == (True, 4.6, 4.75)
    assert v.error == pytest.approx(0.15)


def test_judge_number_reads_full_width_digits():
    assert judge_number("０.９８", WORKED_NDCG, decimals=2).correct


def test_judge_number_refuses_two_numbers():
    with pytest.raises(nc.NDCGInputError) as err:
        judge_number("0.9 0.8", WORKED_NDCG)
    assert (err.value.key, err.value.params) == ("answer_too_many", {"got": 2})


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("abc", "Your answer is 'abc', which is not a number. Enter one number, e.g. 0.85."),
        ("  ", "Your answer is empty. Enter one number, e.g. 0.85."),
        ("0.9 0.8", "Your answer has 2 parts. Enter one number only, e.g. 0.85."),
        ("nan", "Your answer is nan. Enter one finite number (no NaN or infinity), e.g. 0.85."),
    ],
)
def test_judge_number_messages_name_the_answer_and_ask_for_one_number(typed, message):
    with pytest.raises(nc.NDCGInputError) as err:
        judge_number(typed, WORKED_NDCG)
    assert str(err.value) == message


def test_judge_number_refuses_tol_and_decimals_together():
    with pytest.raises(nc.NDCGInputError) as err:
        judge_number("0.98", WORKED_NDCG, tol=0.01, decimals=2)
    assert err.value.params["rule"] == "rule_tolerance_or_decimals"


@pytest.mark.parametrize("decimals", [-1, 16, 2.0, True])
def test_judge_number_refuses_bad_decimals(decimals):
    with pytest.raises(nc.NDCGInputError):
        judge_number("0.98", WORKED_NDCG, decimals=decimals)


@pytest.mark.parametrize("tol", [-0.1, math.nan, math.inf])
def test_judge_number_refuses_bad_tolerance(tol):
    with pytest.raises(nc.NDCGInputError):
        judge_number("0.98", WORKED_NDCG, tol=tol)


def test_judge_number_refuses_non_finite_expected():
    with pytest.raises(nc.NDCGInputError):
        judge_number("0.98", math.nan)


def test_check_answer_judges_numbers_by_judge_number():
    ex = make_exercises(7, n=1)[0]
    assert check_answer(ex, "15.005") == judge_number("15.005", float(ex.answer))
