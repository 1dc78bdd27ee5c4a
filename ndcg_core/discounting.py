"""Position discounts: how much a position's gain still counts, position 1 first.

- ``"log2"``: 1 / log2(i + 1) (Burges et al. 2005; scikit-learn, trec_eval, ranx).
- ``"jarvelin"``: Järvelin & Kekäläinen (2002) with b = 2: 1 for i < b, then 1 / log_b(i),
  so positions 1 and 2 are not discounted.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from .validate import check_choice

__all__ = ["DISCOUNTS", "Discount", "discounts", "log_terms"]

Discount = Literal["log2", "jarvelin"]
DISCOUNTS: tuple[Discount, ...] = ("log2", "jarvelin")
JARVELIN_BASE = 2


@lru_cache(maxsize=32)
def _cached(n: int, discount: str) -> NDArray[np.float64]:
    positions = np.arange(1, n + 1, dtype=np.float64)
    if discount == "log2":
        values = 1.0 / np.log2(positions + 1.0)
    else:
        values = np.ones(n)
        late = positions >= JARVELIN_BASE
        values[late] = 1.0 / (np.log(positions[late]) / np.log(JARVELIN_BASE))
    values.setflags(write=False)
    return values


def discounts(n: int, discount: str = "log2") -> NDArray[np.float64]:
    """The discount of positions 1..n (a read-only array).

    >>> discounts(3).round(4).tolist()
    [1.0, 0.6309, 0.5]
    >>> discounts(3, "jarvelin").round(4).tolist()
    [1.0, 1.0, 0.6309]
    """
    return _cached(int(n), check_choice(discount, DISCOUNTS, option="discount"))


def log_terms(n: int, discount: str = "log2") -> NDArray[np.float64]:
    """The divisor of positions 1..n, i.e. 1 / discount: log2(i + 1), or max(1, log2(i)).

    >>> log_terms(3).round(3).tolist()
    [1.0, 1.585, 2.0]
    """
    return 1.0 / discounts(n, discount)
