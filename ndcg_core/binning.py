"""Binning: the bars of a histogram of typed answers, computed here rather than by a chart.

Contents
--------
answer_bins
    The bars of the room's histogram of answers (one :class:`Bar` per bar): every answer in
    exactly one bar; after the reveal right and wrong answers never share one.
Bar, AnswerBins
    A bar (``lo``, ``hi``, ``count``, ``verdict``) and the histogram (bars, axis, bin width).
MAX_BINS, UNIT_STEP
    At most about :data:`MAX_BINS` regular bins; :data:`UNIT_STEP` wide on a 0-1 axis.

Why here and not in the chart: a chart library that bins (Vega-Lite's ``bin``) decides edges
itself, and a second binning of the same field (a tooltip's) splits each bar into pieces drawn
over each other, so the bars no longer add up to the answers. Here the edges are decimal
multiples of a "nice" width (1, 2, 2.5 or 5 times a power of ten) and an answer is placed by
its decimal value as typed (``0.15`` is on the edge 0.15, not a hair below it in binary), so an
answer on an edge always opens the bar that starts there.

Before the reveal the edges depend on the answers alone (and the axis), never on the exact
value, which a projector would otherwise give away. After the reveal the right answers (judged
by :func:`ndcg_core.judging.judge_number`, or by the verdicts the caller stored with the same
rule) are one bar over [exact - tolerance, exact + tolerance]; a wrong answer keeps its regular
bar, cut at the right bar's edges, so the two never overlap.
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal, localcontext
from typing import Any, Literal

from .judging import answer_tolerance, judge_number
from .validate import check_same_length, fail

__all__ = ["MAX_BINS", "UNIT_STEP", "AnswerBins", "Bar", "BinVerdict", "answer_bins"]

#: Regular bins span the answers in at most about this many bars (one more when the answers'
#: range does not start on an edge).
MAX_BINS = 20
#: The width of a bin on a 0-1 axis (20 bins).
UNIT_STEP = 0.05
_NICE = (Decimal(1), Decimal(2), Decimal("2.5"), Decimal(5), Decimal(10))
_LARGEST = sys.float_info.max

BinVerdict = Literal["right", "wrong", "unknown"]


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar: the answers in [``lo``, ``hi``) (the last bar of a 0-1 axis and the right
    answers' bar are closed), how many, and whether they are ``"right"``, ``"wrong"`` or
    ``"unknown"`` (before the reveal)."""

    lo: float
    hi: float
    count: int
    verdict: BinVerdict


@dataclass(frozen=True, slots=True)
class AnswerBins:
    """The histogram: its bars in axis order, the axis (``domain``) and the regular bin width."""

    bars: tuple[Bar, ...]
    domain: tuple[float, float]
    step: float


def _finite(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        fail("shape", what=what, rule="rule_finite", got=repr(value)[:40])
    return float(value)


def _decimal(value: float) -> Decimal:
    # the shortest decimal that reads back as ``value``: what the person typed
    return Decimal(repr(value))


def _float(value: Decimal) -> float:
    # an edge past the largest float (answers near 1.8e308) stops at the largest float
    return max(-_LARGEST, min(_LARGEST, float(value)))


def _nice_step(lo: Decimal, hi: Decimal) -> Decimal:
    span = hi - lo
    if span == 0:  # one value, or all the same: a bar about a twentieth of its size
        span = max(abs(hi), Decimal(1))
    raw = span / MAX_BINS
    base = Decimal(1).scaleb(raw.adjusted())  # the power of ten at or below raw
    return next(m * base for m in _NICE if m * base >= raw)


def answer_bins(
    values: Sequence[float],
    *,
    unit: bool = False,
    truth: float | None = None,
    tol: float | None = None,
    correct: Sequence[bool] | None = None,
) -> AnswerBins:
    """The bars of a histogram of answers: every answer in exactly one bar.

    Axis: 0 to 1 in bins of :data:`UNIT_STEP` when ``unit`` and every answer lies in it (an
    nDCG); else the answers' range (and after the reveal the exact value) in about
    :data:`MAX_BINS` bins of a nice width (1, 2, 2.5 or 5 times a power of ten), on multiples
    of it. A regular bar is [lo, lo + width); the last one of a 0-1 axis is closed.

    Before the reveal (``truth`` None) every bar is ``"unknown"`` and the edges do not depend
    on the exact value. After it the right answers are one ``"right"`` bar over
    [truth - tol, truth + tol] (cut to the 0-1 axis); each wrong answer is in its regular bar,
    cut at that bar's edges (``"wrong"``). With ``tol`` 0 (an order is right or wrong, never
    close) the right bar is drawn a quarter of a bin either side of the exact value, less
    where a wrong answer is nearer.

    Parameters
    ----------
    values : sequence of float
        The answers (finite numbers), in any order.
    unit : bool
        Use the 0-1 axis when every answer lies in it.
    truth : float, optional
        The exact value, once revealed.
    tol : float, optional
        The tolerance the answers are judged with (default
        :data:`ndcg_core.judging.ANSWER_TOLERANCE`).
    correct : sequence of bool, optional
        Each answer's stored verdict (the live question's judge). Without it each answer is
        judged here with :func:`ndcg_core.judging.judge_number` and ``tol``.

    Returns
    -------
    AnswerBins
        Bars in axis order (empty bins left out), counts summing to ``len(values)``.

    Raises
    ------
    NDCGInputError
        On an answer or an exact value that is not a finite number, a negative ``tol``, or
        verdicts that are not one per answer.

    >>> [(b.lo, b.hi, b.count) for b in answer_bins([0.96, 0.976, 0.98], unit=True).bars]
    [(0.95, 1.0, 3)]
    >>> for b in answer_bins([0.96, 0.976, 0.98], unit=True, truth=0.9762, tol=0.01).bars:
    ...     print(f"{b.lo:.4f} {b.hi:.4f} {b.count} {b.verdict}")
    0.9500 0.9662 1 wrong
    0.9662 0.9862 2 right
    """
    answers = [_finite(v, "answer") for v in values]
    if correct is not None:
        check_same_length(answers, correct, what="answers_and_verdicts")
    is_unit = unit and all(0.0 <= v <= 1.0 for v in answers)
    if truth is not None:
        exact = _finite(truth, "expected_answer")
        tolerance = answer_tolerance(tol=tol)
        right = (
            [bool(c) for c in correct]
            if correct is not None
            else [judge_number(v, exact, tol=tolerance).correct for v in answers]
        )
    with localcontext() as ctx:
        ctx.prec = 60  # enough for a quotient of two 17-digit decimals 600 decades apart
        if is_unit:
            step = Decimal(repr(UNIT_STEP))
        else:
            # before the reveal from the answers alone; after it the exact value is on the axis
            ends = [_decimal(v) for v in answers] + ([_decimal(exact)] if truth is not None else [])
            step = _nice_step(min(ends, default=Decimal(0)), max(ends, default=Decimal(1)))
        last = int(1 / Decimal(repr(UNIT_STEP))) - 1

        def regular(value: float) -> tuple[float, float]:
            index = int((_decimal(value) / step).to_integral_value(rounding=ROUND_FLOOR))
            if is_unit:
                index = min(index, last)  # 1.0 closes the last bar
            return _float(index * step), _float((index + 1) * step)

        counts: dict[tuple[float, float, BinVerdict], int] = {}

        def add(lo: float, hi: float, verdict: BinVerdict, n: int = 1) -> None:
            counts[(lo, hi, verdict)] = counts.get((lo, hi, verdict), 0) + n

        if truth is None:
            for v in answers:
                add(*regular(v), "unknown")
        else:
            wrong = [v for v, ok in zip(answers, right, strict=True) if not ok]
            if tolerance > 0:
                band = (exact - tolerance, exact + tolerance)
            else:
                half = float(step) / 4
                nearest = min((abs(v - exact) for v in wrong if v != exact), default=math.inf)
                half = min(half, nearest / 2)
                band = (exact - half, exact + half)
            band = (max(-_LARGEST, band[0]), min(_LARGEST, band[1]))
            if is_unit:
                band = (max(0.0, band[0]), min(1.0, band[1]))
            n_right = len(answers) - len(wrong)
            if n_right:
                add(*band, "right", n_right)
            for v in wrong:
                lo, hi = regular(v)
                lo, hi = (lo, min(hi, band[0])) if v < exact else (max(lo, band[1]), hi)
                if not lo <= v <= hi:  # a stored "wrong" inside the right band: a bar of its own
                    lo = hi = v
                add(lo, hi, "wrong")
        bars = tuple(Bar(lo, hi, n, verdict) for (lo, hi, verdict), n in sorted(counts.items()))
        if is_unit:
            domain = (0.0, 1.0)
        elif bars:
            domain = (min(b.lo for b in bars), max(b.hi for b in bars))
        else:
            domain = (0.0, 1.0)
        return AnswerBins(bars, domain, float(step))
