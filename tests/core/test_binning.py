"""The room's histogram of answers (``ndcg_core.binning.answer_bins``): bars written by hand.

Every case of the issue "Live class, part two", item 2 (a bar dropped or drawn over another),
answers on edges, equal to the exact value, far outside the range, negative and huge; the
bars before the reveal never depend on the exact value, and after it right and wrong answers
never share a bar.
"""

from __future__ import annotations

import itertools
import math

import pytest

from ndcg_core import NDCGInputError, judge_number
from ndcg_core.binning import Bar, answer_bins

# the 0-1 axis: 20 bins of 0.05; elsewhere a nice width >= span / 20 on its multiples


def _bars(bins) -> list[tuple[float, float, int, str]]:
    return [(b.lo, b.hi, b.count, b.verdict) for b in bins.bars]


def _approx(bars):
    return [(pytest.approx(lo, abs=1e-12), pytest.approx(hi, abs=1e-12), n, v) for lo, hi, n, v in bars]


@pytest.mark.parametrize(
    ("values", "unit", "expected"),
    [
        # issue: exact 2.8928, answers 2.89, 2.9, 3, 2.8928; span 0.11 / 20 = 0.0055 -> width 0.01
        (
            [2.89, 2.9, 3, 2.8928],
            False,
            [(2.89, 2.9, 2, "unknown"), (2.9, 2.91, 1, "unknown"), (3.0, 3.01, 1, "unknown")],
        ),
        # issue: 2.89, 2.9, 2.9, 2.9, 3 ("5 answers", bars 3 + 1)
        (
            [2.89, 2.9, 2.9, 2.9, 3],
            False,
            [(2.89, 2.9, 1, "unknown"), (2.9, 2.91, 3, "unknown"), (3.0, 3.01, 1, "unknown")],
        ),
        # issue: [0.96, 0.976, 0.98] drew one bar of height 1; all three are in 0.95-1
        ([0.96, 0.976, 0.98], True, [(0.95, 1.0, 3, "unknown")]),
        # on edges: 0.15 opens 0.15-0.2 (0.15 / 0.05 is 2.9999999999999996 in binary); 1.0 closes 0.95-1
        (
            [0.0, 0.05, 0.15, 0.5, 1.0],
            True,
            [
                (0.0, 0.05, 1, "unknown"),
                (0.05, 0.1, 1, "unknown"),
                (0.15, 0.2, 1, "unknown"),
                (0.5, 0.55, 1, "unknown"),
                (0.95, 1.0, 1, "unknown"),
            ],
        ),
        # far outside a 0-1 axis: the axis becomes the answers' range, 6.5 / 20 = 0.325 -> 0.5
        ([0.5, 7.0], True, [(0.5, 1.0, 1, "unknown"), (7.0, 7.5, 1, "unknown")]),
        # negative: span 1.25 / 20 = 0.0625 -> 0.1
        (
            [-1.0, -0.5, 0.25],
            False,
            [(-1.0, -0.9, 1, "unknown"), (-0.5, -0.4, 1, "unknown"), (0.2, 0.3, 1, "unknown")],
        ),
        # huge: span ~1e300 / 20 = 5e298 -> 5e298
        ([3.0, 1e300], False, [(0.0, 5e298, 1, "unknown"), (1e300, 1.05e300, 1, "unknown")]),
        # all the same: a width about a twentieth of the value, 2.8928 / 20 = 0.14 -> 0.2
        ([2.8928, 2.8928], False, [(2.8, 3.0, 2, "unknown")]),
    ],
)
def test_answer_bins_before_reveal_hand_written(values, unit, expected):
    bins = answer_bins(values, unit=unit)
    assert _bars(bins) == _approx(expected)
    assert sum(b.count for b in bins.bars) == len(values)


def test_answer_bins_before_reveal_depend_on_the_answers_only():
    """Before the reveal the edges come from the answers (their order does not matter)."""
    values = [0.31, 0.5, 0.52, 0.9]
    assert answer_bins(values) == answer_bins(list(reversed(values)))
    assert answer_bins(values).step == 0.05  # (0.9 - 0.31) / 20 = 0.0295 -> 0.05


@pytest.mark.parametrize(
    ("values", "unit", "truth", "expected"),
    [
        # issue: 2.89, 2.9, 2.8928 within 0.01 of 2.8928 (right bar 2.8828-2.9028), 3 wrong
        (
            [2.89, 2.9, 3, 2.8928],
            False,
            2.8928,
            [(2.8928 - 0.01, 2.8928 + 0.01, 3, "right"), (3.0, 3.01, 1, "wrong")],
        ),
        # issue: a wrong 0.96 no longer shares 0.95-1 with the right 0.976 and 0.98
        (
            [0.96, 0.976, 0.98],
            True,
            0.9762,
            [(0.95, 0.9762 - 0.01, 1, "wrong"), (0.9762 - 0.01, 0.9762 + 0.01, 2, "right")],
        ),
        # equal to the exact value; the right bar is cut at 1 on a 0-1 axis; 0.98 is 0.015 away
        ([1.0, 0.995, 0.98], True, 0.995, [(0.95, 0.985, 1, "wrong"), (0.985, 1.0, 2, "right")]),
        # on the tolerance's edge: 0.5 - 0.01 = 0.49 is right (judge_number's slack), 0.48 wrong
        ([0.48, 0.49, 0.5], True, 0.5, [(0.45, 0.49, 1, "wrong"), (0.49, 0.51, 2, "right")]),
        # far outside, negative and huge: wrong bars on the answers' range, the exact value on the axis
        # (span 1e6 + 3, / 20 = 50000.15 -> width 1e5)
        (
            [-3.0, 4.65, 1e6],
            False,
            4.6487,
            [(-1e5, 0.0, 1, "wrong"), (4.6487 - 0.01, 4.6487 + 0.01, 1, "right"), (1e6, 1.1e6, 1, "wrong")],
        ),
        # no right answer: the wrong bars are still cut where the right bar would be (0.795-0.815)
        ([0.79, 0.82], True, 0.805, [(0.75, 0.795, 1, "wrong"), (0.815, 0.85, 1, "wrong")]),
    ],
)
def test_answer_bins_after_reveal_hand_written(values, unit, truth, expected):
    bins = answer_bins(values, unit=unit, truth=truth, tol=0.01)
    assert _bars(bins) == _approx(expected)
    assert sum(b.count for b in bins.bars) == len(values)


@pytest.mark.parametrize(
    ("values", "truth", "tol", "unit"),
    [
        ([2.89, 2.9, 3, 2.8928], 2.8928, 0.01, False),
        ([2.89, 2.9, 2.9, 2.9, 3], 2.8928, 0.01, False),
        ([0.96, 0.976, 0.98], 0.9761987, 0.01, True),
        ([0.0, 0.05, 0.1, 0.15, 0.95, 1.0, 0.9662, 0.9862], 0.9762, 0.01, True),
        ([-1e300, -3.0, 0.0, 2.0, 1e300], 2.0, 0.5, False),
        ([0.1 * i for i in range(30)], 1.3, 0.01, False),
    ],
)
def test_answer_bins_right_and_wrong_never_share_a_bar(values, truth, tol, unit):
    """Every answer is in exactly one bar of its verdict (judge_number's), and bars never overlap."""
    bins = answer_bins(values, unit=unit, truth=truth, tol=tol)
    for v in values:
        right = judge_number(v, truth, tol=tol).correct
        holding = [b for b in bins.bars if b.lo <= v <= b.hi and b.verdict == ("right" if right else "wrong")]
        assert holding, v
    assert sum(b.count for b in bins.bars) == len(values)
    assert all(b.count > 0 for b in bins.bars)
    ordered = sorted(bins.bars, key=lambda b: (b.lo, b.hi))
    assert all(first.hi <= second.lo for first, second in itertools.pairwise(ordered))


def test_answer_bins_stored_verdicts_of_orders_with_no_tolerance():
    """An order is right or wrong (tolerance 0): right orders (nDCG 1) get a bar a quarter of
    a bin wide below 1, less where a wrong order is nearer (0.99: half of 0.01)."""
    bins = answer_bins(
        [1.0, 1.0, 0.99, 0.6], unit=True, truth=1.0, tol=0.0, correct=[True, True, False, False]
    )
    assert _bars(bins) == _approx(
        [(0.6, 0.65, 1, "wrong"), (0.95, 0.995, 1, "wrong"), (0.995, 1.0, 2, "right")]
    )


def test_answer_bins_stored_verdicts_are_used_as_given():
    bins = answer_bins([0.5, 0.5], unit=True, truth=0.5, tol=0.01, correct=[True, False])
    assert sorted((b.verdict, b.count) for b in bins.bars) == [("right", 1), ("wrong", 1)]


def test_answer_bins_no_answers():
    assert answer_bins([]).bars == () and answer_bins([], unit=True, truth=0.5).bars == ()


def test_answer_bins_largest_float_edges_stay_finite():
    bins = answer_bins([-1.7e308, 1.7e308])
    assert sum(b.count for b in bins.bars) == 2
    assert all(math.isfinite(b.lo) and math.isfinite(b.hi) for b in bins.bars)


def test_answer_bins_bar_is_a_frozen_row():
    assert answer_bins([0.5], unit=True).bars == (Bar(0.5, 0.55, 1, "unknown"),)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"values": [0.5, math.nan]}, "answer must be a finite number"),
        ({"values": [0.5], "truth": math.inf}, "expected answer must be a finite number"),
        ({"values": [0.5], "truth": 0.5, "tol": -1.0}, "tolerance must be"),
        ({"values": [0.5], "truth": 0.5, "correct": [True, False]}, "answers and their verdicts"),
    ],
)
def test_answer_bins_refuses(kwargs, match):
    with pytest.raises(NDCGInputError, match=match):
        answer_bins(**kwargs)
