"""Judging: the one rule for comparing two computed values and the one for a typed answer.

Contents
--------
compare_values
    How a computed value compares with another: ``"higher"``, ``"lower"`` or ``"same"``.
answer_tolerance
    The tolerance a typed number is judged with (to state it on a page).
judge_number
    A :class:`Verdict` on a number a person typed: right within a tolerance, or right when it
    is the exact value rounded to ``decimals`` places.
SAME_TOLERANCE, ANSWER_TOLERANCE
    The two tolerances, each stated once.

Two different checks, kept apart on purpose. Values the core computed (nDCG of list A and of
list B, DCG before and after an edit) differ only by floating-point rounding when they are
mathematically equal, so :func:`compare_values` allows a relative hair (:data:`SAME_TOLERANCE`). A
number a person typed was rounded by hand, so :func:`judge_number` allows an absolute
tolerance (:data:`ANSWER_TOLERANCE`, two decimals) or half a unit of the asked decimal place.
Every page, the practice exercises and the live class judge through these two functions.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Literal

from .validate import fail, parse_answer

__all__ = [
    "ANSWER_TOLERANCE",
    "MAX_DECIMALS",
    "SAME_TOLERANCE",
    "Direction",
    "Verdict",
    "answer_tolerance",
    "compare_values",
    "judge_number",
]

#: Two computed values count as the same when they differ by at most this much, relative to
#: the larger of 1 and their sizes (float rounding of a sum of a few terms is ~1e-16).
SAME_TOLERANCE = 1e-12
#: A typed number within this absolute distance of the exact value is right (two decimals, as
#: people compute by hand), unless the question asks for a number of decimals.
ANSWER_TOLERANCE = 0.01
#: The most decimals a question may ask for (a float holds about 15 significant digits).
MAX_DECIMALS = 15
#: Slack added to a typed answer's tolerance: "0.98" is not exactly 0.98 in binary, so without
#: it an answer exactly at the tolerance's edge could be refused by a rounding error.
_SLACK = 1e-12

Direction = Literal["higher", "lower", "same"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The check of one answer.

    Attributes
    ----------
    correct : bool
    given, expected
        The answer as understood (a float, a tuple of labels or a choice) and the exact one.
    error : float or None
        |given - expected| for a number, else None.
    tolerance : float
        The absolute tolerance a number was judged with (half a unit of the asked decimal place
        when the question named decimals).
    """

    correct: bool
    given: float | tuple[str, ...] | str
    expected: float | tuple[str, ...] | str
    error: float | None
    tolerance: float


def _finite(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        fail("shape", what=what, rule="rule_finite", got=repr(value)[:40])
    return float(value)


def compare_values(first: float, second: float) -> Direction:
    """How ``first`` compares with ``second``, both computed by the core.

    ``"same"`` when |first - second| <= :data:`SAME_TOLERANCE` x max(1, |first|, |second|),
    so that values equal in exact arithmetic but not in floating point (the base of the log
    cancelling in nDCG, a sum taken in another order) are the same; otherwise ``"higher"`` or
    ``"lower"``.

    Parameters
    ----------
    first, second : float
        Finite values (nDCG, DCG, CG, a mean ...).

    Returns
    -------
    {"higher", "lower", "same"}

    Raises
    ------
    NDCGInputError
        On a value that is not a finite real number (a value refused, never a guess).

    >>> compare_values(0.9762, 0.8)
    'higher'
    >>> compare_values(0.1 + 0.2, 0.3)       # 0.30000000000000004: the same value
    'same'
    >>> compare_values(1e300, 1e300 * (1 + 1e-15)), compare_values(4.0, 4.5)
    ('same', 'lower')
    """
    a = _finite(first, "compared_value")
    b = _finite(second, "compared_value")
    if abs(a - b) <= SAME_TOLERANCE * max(1.0, abs(a), abs(b)):
        return "same"
    return "higher" if a > b else "lower"


def _decimals(decimals: Any) -> int:
    if (
        isinstance(decimals, bool)
        or not isinstance(decimals, numbers.Integral)
        or not 0 <= int(decimals) <= MAX_DECIMALS
    ):
        fail("shape", what="decimals", rule="rule_decimals", limit=MAX_DECIMALS, got=repr(decimals)[:40])
    return int(decimals)


def _tolerance(tol: Any) -> float:
    if isinstance(tol, bool) or not isinstance(tol, numbers.Real) or not math.isfinite(tol) or tol < 0:
        fail("shape", what="tolerance", rule="rule_finite_non_negative", got=repr(tol)[:40])
    return float(tol)


def answer_tolerance(*, tol: float | None = None, decimals: int | None = None) -> float:
    """The absolute tolerance :func:`judge_number` judges a typed number with (checked).

    ``tol`` itself, or half a unit of the ``decimals``-th place, or :data:`ANSWER_TOLERANCE`
    when neither is given. A page states it ("within 0.01") from here.

    Raises
    ------
    NDCGInputError
        On a negative or non-finite ``tol``, ``decimals`` out of 0 to :data:`MAX_DECIMALS`,
        or both given.

    >>> answer_tolerance(), answer_tolerance(decimals=2), answer_tolerance(tol=0.1)
    (0.01, 0.005, 0.1)
    """
    if decimals is not None and tol is not None:
        fail("shape", what="tolerance", rule="rule_tolerance_or_decimals", got=repr(tol)[:40])
    if decimals is not None:
        return 0.5 * 10.0 ** -_decimals(decimals)
    return _tolerance(ANSWER_TOLERANCE if tol is None else tol)


def judge_number(
    given: str | float,
    expected: float,
    *,
    tol: float | None = None,
    decimals: int | None = None,
) -> Verdict:
    """Judge a number a person typed against the exact value the core computed.

    Right when |given - expected| <= the tolerance (plus a hair of slack for decimal answers
    stored in binary). The tolerance is ``tol`` (default :data:`ANSWER_TOLERANCE`), or, for a
    question such as "what is nDCG@5 to 2 decimals", half a unit of the ``decimals``-th place:
    the answer is right when it is the exact value rounded to that many places (at an exact
    half, rounding up and rounding to even are both right; more decimals, if as close, too).

    Parameters
    ----------
    given : str or float
        The answer: a number, or text holding exactly one number as a person types it (parsed
        like every typed number: full-width digits, spaces and brackets are fine).
    expected : float
        The exact value, from the core.
    tol : float, optional
        Absolute tolerance, 0 or more. Not together with ``decimals``.
    decimals : int, optional
        The number of decimals the question asked for, 0 to :data:`MAX_DECIMALS`.

    Returns
    -------
    Verdict
        ``given`` the number as understood, ``error`` |given - expected|, ``tolerance`` the one
        used.

    Raises
    ------
    NDCGInputError
        On text that is not exactly one number, a non-finite ``given`` or ``expected``, a
        negative or non-finite ``tol``, ``decimals`` out of range, or both ``tol`` and
        ``decimals``.

    >>> judge_number("0.98", 0.9761987, decimals=2).correct      # 0.9762 rounds to 0.98
    True
    >>> judge_number("0.97", 0.9761987, decimals=2).correct      # truncated, not rounded
    False
    >>> judge_number("0.97", 0.9761987).correct                  # within 0.01
    True
    >>> v = judge_number(" 4.6 ", 4.6487, tol=0.05)
    >>> v.correct, v.given, round(v.error, 4), v.tolerance
    (True, 4.6, 0.0487, 0.05)
    """
    tolerance = answer_tolerance(tol=tol, decimals=decimals)
    exact = _finite(expected, "expected_answer")
    if isinstance(given, str):
        value = parse_answer(given)
    elif isinstance(given, numbers.Real) and not isinstance(given, bool) and math.isfinite(given):
        value = float(given)
    else:
        fail("shape", what="answer", rule="rule_one_number", got=repr(given)[:40])
    error = abs(value - exact)
    return Verdict(error <= tolerance + _SLACK, value, exact, error, tolerance)
