"""Gain functions: how much a grade is worth before it is discounted.

- ``"linear"``: gain = rel (scikit-learn, trec_eval, ranx ``ndcg``).
- ``"exponential"``: gain = 2^rel - 1 (Burges et al. 2005; LightGBM, XGBoost, ranx ``ndcg_burges``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from .validate import check_choice

__all__ = ["GAINS", "Gain", "apply_gain"]

Gain = Literal["linear", "exponential"]


def _linear(rel: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.asarray(rel, dtype=np.float64)


def _exponential(rel: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.exp2(rel) - 1.0


#: Gain name -> vectorised function of the grades.
GAINS: dict[str, Callable[[NDArray[np.float64]], NDArray[np.float64]]] = {
    "linear": _linear,
    "exponential": _exponential,
}


def apply_gain(rel: NDArray[np.float64], gain: str) -> NDArray[np.float64]:
    """The gain of each grade.

    >>> apply_gain(np.array([3.0, 2.0, 0.0]), "exponential").tolist()
    [7.0, 3.0, 0.0]
    """
    return GAINS[check_choice(gain, GAINS, option="gain")](rel)
