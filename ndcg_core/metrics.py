"""Ranked-list metrics: CG, DCG, IDCG and nDCG of one list in rank order (position 1 first).

Rules, written once:

- ``k=None`` or ``k > n`` means the whole list; ``k`` must otherwise be a positive integer.
- The ideal ranking is the grades sorted in descending order: those of the list itself, or of
  ``pool``, every judged item of the query, retrieved or not (trec_eval's ideal).
- IDCG = 0 (nothing relevant) gives nDCG = 0.0, as scikit-learn and trec_eval report.
- Negative grades and empty lists are errors for IDCG and nDCG; DCG accepts negative grades,
  as scikit-learn's ``dcg_score`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .discounts import Discount, discounts
from .gains import Gain, apply_gain
from .validate import as_relevance, check_choice, check_k, fail

__all__ = ["Metrics", "cg", "dcg", "ideal_relevance", "idcg", "metrics", "ndcg"]


@dataclass(frozen=True, slots=True)
class Metrics:
    """The four numbers of a ranked list at cutoff ``k``."""

    k: int
    cg: float
    dcg: float
    idcg: float
    ndcg: float


def _dcg_kernel(rel: NDArray[np.float64], k: int, gain: str, discount: str) -> float:
    return float(apply_gain(rel[:k], gain) @ discounts(k, discount)[: min(k, rel.size)])


def ideal_relevance(
    relevance: ArrayLike, *, pool: ArrayLike | None = None
) -> NDArray[np.float64]:
    """The ideal ranking's grades: the pool's (or the list's) grades, largest first.

    >>> ideal_relevance([3, 2, 0, 0, 1]).tolist()
    [3.0, 2.0, 1.0, 0.0, 0.0]
    """
    rel = as_relevance(relevance)
    # a contiguous copy, not a reversed view: numpy's dot product sums a negative-stride view
    # in another order, so an ideal list could score 1.0000000000000002 against its own ideal
    if pool is None:
        return np.ascontiguousarray(np.sort(rel)[::-1])
    judged = as_relevance(pool, what="judged_pool")
    grades, list_counts = np.unique(rel[rel > 0], return_counts=True)
    for grade, list_count in zip(grades, list_counts):
        pool_count = int(np.count_nonzero(judged == grade))
        if pool_count < list_count:
            fail("pool_missing", grade=float(grade), pool_count=pool_count, list_count=int(list_count))
    return np.ascontiguousarray(np.sort(judged)[::-1])


def cg(relevance: ArrayLike, *, k: int | None = None) -> float:
    """Cumulative gain: the sum of the first k grades, blind to their order.

    CG@k = rel_1 + rel_2 + ... + rel_k

    >>> cg([3, 2, 0, 0, 1])
    6.0
    """
    rel = as_relevance(relevance, allow_negative=True)
    return float(rel[: check_k(k, rel.size)].sum())


def dcg(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
) -> float:
    """Discounted cumulative gain of a ranked list.

    DCG@k = sum over i = 1..k of gain(rel_i) * discount(i), with discount(i) = 1 / log2(i + 1)
    for ``discount="log2"``.

    Parameters
    ----------
    relevance : array-like of float
        Grades in rank order, position 1 first.
    k : int, optional
        Cutoff; ``None`` or a value above the length means the whole list.
    gain : {"linear", "exponential"}
        ``rel`` or ``2**rel - 1``.
    discount : {"log2", "jarvelin"}
        ``1 / log2(i + 1)``, or Järvelin & Kekäläinen's (no discount before position 2).

    Returns
    -------
    float

    Raises
    ------
    NDCGInputError
        On an empty list, a non-finite grade, an invalid ``k`` or an unknown option.

    >>> round(dcg([3, 2, 0, 0, 1]), 4)
    4.6487
    """
    rel = as_relevance(relevance, allow_negative=True)
    check_choice(discount, ("log2", "jarvelin"), option="discount")
    return _dcg_kernel(rel, check_k(k, rel.size), gain, discount)


def idcg(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
) -> float:
    """Ideal DCG: the DCG@k of the ideal ranking (grades sorted in descending order).

    With ``pool``, the ideal is built from every judged item of the query, so relevant items
    the system never returned lower nDCG (trec_eval's ideal); ``k=None`` then means the whole
    pool, so [3, 3, 3] against a pool of four 3s scores 0.8319.

    >>> round(idcg([3, 2, 0, 0, 1]), 4)
    4.7619
    >>> round(idcg([3, 2, 0, 0, 1], pool=[3, 3, 2, 2, 1, 0, 0]), 4)
    7.141
    """
    rel = as_relevance(relevance)
    check_choice(discount, ("log2", "jarvelin"), option="discount")
    ideal = ideal_relevance(rel, pool=pool)
    return _dcg_kernel(ideal, check_k(k, ideal.size), gain, discount)


def metrics(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
) -> Metrics:
    """CG@k, DCG@k, IDCG@k and nDCG@k of a ranked list at once.

    >>> m = metrics([3, 2, 0, 0, 1])
    >>> m.k, m.cg, round(m.dcg, 4), round(m.idcg, 4), round(m.ndcg, 4)
    (5, 6.0, 4.6487, 4.7619, 0.9762)
    """
    rel = as_relevance(relevance)
    check_choice(discount, ("log2", "jarvelin"), option="discount")
    kk = check_k(k, rel.size)
    actual = _dcg_kernel(rel, kk, gain, discount)
    best = ideal_relevance(rel, pool=pool)
    ideal = _dcg_kernel(best, check_k(k, best.size), gain, discount)
    return Metrics(
        k=kk,
        cg=float(rel[:kk].sum()),
        dcg=actual,
        idcg=ideal,
        ndcg=actual / ideal if ideal > 0 else 0.0,
    )


def ndcg(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
) -> float:
    """Normalized DCG: DCG@k / IDCG@k, and 0.0 when IDCG@k = 0 (nothing relevant).

    Between 0 and 1 for non-negative grades (with ``pool``, as long as the pool holds every
    graded item of the list, which is checked).

    Raises
    ------
    NDCGInputError
        On an empty list, a negative or non-finite grade, an invalid ``k`` or option, or a
        pool that lacks a graded item of the list.

    >>> round(ndcg([3, 2, 0, 0, 1]), 4)
    0.9762
    >>> round(ndcg([3, 2, 0, 0, 1], gain="exponential"), 5)
    0.98795
    >>> round(ndcg([3, 3, 3], pool=[3, 3, 3, 3]), 4)
    0.8319
    >>> round(ndcg([3, 2, 3, 0, 1], discount="jarvelin"), 3)
    0.944
    """
    return metrics(relevance, k=k, gain=gain, discount=discount, pool=pool).ndcg
