"""Gain functions: how much a grade is worth before it is discounted.

- ``"linear"``: gain = rel (scikit-learn, trec_eval, ranx ``ndcg``).
- ``"exponential"``: gain = 2^rel - 1 (Burges et al. 2005; LightGBM, XGBoost, ranx ``ndcg_burges``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from .validate import check_choice, fail

__all__ = ["GAINS", "Gain", "apply_gain", "first_overflow"]

Gain = Literal["linear", "exponential"]


def _linear(rel: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.asarray(rel, dtype=np.float64)


def _exponential(rel: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.exp2(rel) - 1.0


#: Gain name -> vectorised function of the grades.
GAINS: dict[Gain, Callable[[NDArray[np.float64]], NDArray[np.float64]]] = {
    "linear": _linear,
    "exponential": _exponential,
}


def first_overflow(gains: NDArray[np.float64]) -> tuple[int, str] | None:
    """Where a list's gains stop being computable: ``(index, "gain" | "sum")`` or ``None``.

    ``"gain"``: the gain at ``index`` is itself infinite (``2**rel - 1`` above 1.8e308, or a
    non-finite grade). ``"sum"``: every gain is finite but their running sum (of absolute
    values) passes the largest float at ``index``. Every discount is at most 1, so when the sum
    of a list's gains is finite, its DCG and IDCG at every cutoff are finite too: this one
    check is the whole overflow rule, used by the single-list functions, the batch engine
    and (as the same arithmetic) the Spark engine.

    >>> first_overflow(np.array([3.0, 1.0])) is None
    True
    >>> first_overflow(np.array([1e308, 1e308, 1.0]))
    (1, 'sum')
    >>> first_overflow(np.array([3.0, np.inf]))
    (1, 'gain')
    """
    finite = np.isfinite(gains)
    if not finite.all():
        return int(np.argmin(finite)), "gain"
    with np.errstate(over="ignore"):
        if np.isfinite(np.abs(gains).sum()):
            return None
        running = np.cumsum(np.abs(gains))
    return int(np.argmin(np.isfinite(running))), "sum"


def apply_gain(rel: NDArray[np.float64], gain: str) -> NDArray[np.float64]:
    """The gain of each grade; refuses grades whose gains, or their sum, are not finite.

    Raises
    ------
    NDCGInputError
        ``gain_overflow`` (one grade's gain is infinite) or ``sum_overflow`` (the gains add
        up to infinity), naming the grade.

    >>> apply_gain(np.array([3.0, 2.0, 0.0]), "exponential").tolist()
    [7.0, 3.0, 0.0]
    >>> apply_gain(np.array([1100.0]), "exponential")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ndcg_core.validate.NDCGInputError: The grade 1100 is too large for the exponential gain: ...
    """
    rel = np.asarray(rel, dtype=np.float64)
    with np.errstate(over="ignore"):
        gains = GAINS[check_choice(gain, GAINS, option="gain")](rel)
    problem = first_overflow(gains)
    if problem is not None:
        index, kind = problem
        value = float(rel.flat[index])
        if kind == "gain":
            fail("gain_overflow", value=value)
        fail("sum_overflow", value=value, position=index + 1)
    return gains
