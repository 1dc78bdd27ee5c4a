"""Ranked-list metrics: CG, DCG, IDCG and nDCG of one list in rank order (position 1 first).

Rules, written once:

- ``k=None`` or ``k > n`` means the whole list; ``k`` must otherwise be a positive integer.
- The ideal ranking is the grades sorted in descending order: those of the list itself, or of
  ``pool``, every judged item of the query, retrieved or not (trec_eval's ideal).
- IDCG = 0 (nothing relevant) gives nDCG = 0.0, as scikit-learn and trec_eval report.
- Negative grades and empty lists are errors for IDCG and nDCG; DCG accepts negative grades,
  as scikit-learn's ``dcg_score`` does.
- CG sums the **gains** (Järvelin & Kekäläinen 2002), not the grades: with exponential gain
  [3, 2, 0, 0, 1] has gains 7, 3, 0, 0, 1 and CG = 11.
- Unjudged items (NaN grades, typed ``?``) are refused unless ``unjudged`` says what they
  mean: ``"zero"`` counts them as irrelevant (gain 0, trec_eval's way); ``"drop"`` removes them
  from the ranking before anything is computed (the condensed list of Sakai 2007, nDCG′;
  trec_eval ``-J``). The ideal is built from judged grades only. :func:`judged_at_k` reports
  the share of the top k that was judged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .discounting import DISCOUNTS, Discount, discounts
from .gains import GAINS, Gain, apply_gain
from .options import UNJUDGED, Unjudged
from .validate import as_relevance, check_choice, check_k, fail

__all__ = [
    "UNJUDGED",
    "Metrics",
    "Unjudged",
    "cg",
    "dcg",
    "idcg",
    "ideal_relevance",
    "judged_at_k",
    "metrics",
    "ndcg",
    "prepared",
]


@dataclass(frozen=True, slots=True)
class Metrics:
    """The four numbers of a ranked list at cutoff ``k`` (CG is the sum of the gains)."""

    k: int
    cg: float
    dcg: float
    idcg: float
    ndcg: float


def _dcg_kernel(rel: NDArray[np.float64], k: int, gain: str, discount: str) -> float:
    return float(apply_gain(rel[:k], gain) @ discounts(k, discount)[: min(k, rel.size)])


def ideal_relevance(relevance: ArrayLike, *, pool: ArrayLike | None = None) -> NDArray[np.float64]:
    """The ideal ranking's grades: the pool's (or the list's) grades, largest first.

    >>> ideal_relevance([3, 2, 0, 0, 1]).tolist()
    [3.0, 2.0, 1.0, 0.0, 0.0]
    """
    return _ideal(as_relevance(relevance), pool)


def prepared(
    relevance: ArrayLike, unjudged: str | None, *, allow_negative: bool = False
) -> NDArray[np.float64]:
    """The grades a metric ranks: NaN refused (``unjudged=None``), set to 0, or dropped.

    >>> prepared([3, float("nan"), 1], "zero").tolist(), prepared([3, float("nan"), 1], "drop").tolist()
    ([3.0, 0.0, 1.0], [3.0, 1.0])
    """
    if unjudged is None:
        return as_relevance(relevance, allow_negative=allow_negative)
    check_choice(unjudged, UNJUDGED, option="unjudged")
    rel = as_relevance(relevance, allow_negative=allow_negative, allow_unjudged=True)
    missing = np.isnan(rel)
    if unjudged == "zero":
        return np.where(missing, 0.0, rel)
    # the condensed list may be empty (nothing judged): DCG and IDCG are then 0
    return np.ascontiguousarray(rel[~missing])


def _ideal(rel: NDArray[np.float64], pool: ArrayLike | None) -> NDArray[np.float64]:
    # a contiguous copy, not a reversed view: numpy's dot product sums a negative-stride view
    # in another order, so an ideal list could score 1.0000000000000002 against its own ideal
    if pool is None:
        return np.ascontiguousarray(np.sort(rel)[::-1])
    judged = as_relevance(pool, what="judged_pool")
    grades, list_counts = np.unique(rel[rel > 0], return_counts=True)
    for grade, list_count in zip(grades, list_counts, strict=False):
        pool_count = int(np.count_nonzero(judged == grade))
        if pool_count < list_count:
            fail("pool_missing", grade=float(grade), pool_count=pool_count, list_count=int(list_count))
    return np.ascontiguousarray(np.sort(judged)[::-1])


def cg(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    unjudged: Unjudged | None = None,
) -> float:
    """Cumulative gain: the sum of the first k **gains**, blind to their order.

    CG@k = gain(rel_1) + gain(rel_2) + ... + gain(rel_k) (Järvelin & Kekäläinen 2002). With
    linear gain that is the sum of the grades; with exponential gain it is not.

    >>> cg([3, 2, 0, 0, 1])
    6.0
    >>> cg([3, 2, 0, 0, 1], gain="exponential")  # 7 + 3 + 0 + 0 + 1
    11.0
    """
    rel = prepared(relevance, unjudged, allow_negative=True)
    return float(apply_gain(rel[: check_k(k, rel.size)], gain).sum())


def judged_at_k(relevance: ArrayLike, *, k: int | None = None) -> float:
    """judged@k: the share of the top k items that carry a grade (NaN = unjudged).

    ``k=None`` or ``k > n`` means the whole list; the share is of the items returned
    within the cutoff.

    >>> judged_at_k([3, float("nan"), 0, float("nan")], k=2)
    0.5
    """
    rel = as_relevance(relevance, allow_unjudged=True)
    top = rel[: check_k(k, rel.size)]
    return float(np.count_nonzero(~np.isnan(top)) / top.size)


def dcg(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    unjudged: Unjudged | None = None,
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
    unjudged : {"zero", "drop"}, optional
        What a NaN grade (an unjudged item) means; ``None`` refuses NaN.

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
    rel = prepared(relevance, unjudged, allow_negative=True)
    check_choice(discount, DISCOUNTS, option="discount")
    return _dcg_kernel(rel, check_k(k, rel.size), gain, discount)


def idcg(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
    unjudged: Unjudged | None = None,
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
    return metrics(relevance, k=k, gain=gain, discount=discount, pool=pool, unjudged=unjudged).idcg


def metrics(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
    unjudged: Unjudged | None = None,
) -> Metrics:
    """CG@k, DCG@k, IDCG@k and nDCG@k of a ranked list at once.

    >>> m = metrics([3, 2, 0, 0, 1])
    >>> m.k, m.cg, round(m.dcg, 4), round(m.idcg, 4), round(m.ndcg, 4)
    (5, 6.0, 4.6487, 4.7619, 0.9762)

    Unjudged items (NaN) as irrelevant, or dropped (nDCG′ of the condensed list [3, 0, 1]):

    >>> nan = float("nan")
    >>> round(metrics([3, nan, 0, 1], unjudged="zero").ndcg, 4)
    0.9448
    >>> round(metrics([3, nan, 0, 1], unjudged="drop").ndcg, 4)
    0.9639
    """
    rel = prepared(relevance, unjudged)
    check_choice(gain, tuple(GAINS), option="gain")
    check_choice(discount, DISCOUNTS, option="discount")
    kk = check_k(k, rel.size)
    actual = _dcg_kernel(rel, kk, gain, discount)
    best = _ideal(rel, pool)
    ideal = _dcg_kernel(best, check_k(k, best.size), gain, discount)
    return Metrics(
        k=kk,
        cg=float(apply_gain(rel[:kk], gain).sum()),
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
    unjudged: Unjudged | None = None,
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
    return metrics(relevance, k=k, gain=gain, discount=discount, pool=pool, unjudged=unjudged).ndcg
