"""Binary-relevance metrics of one ranked list: precision@k, average precision, reciprocal rank.

The measures a learner meets next to nDCG, defined as trec_eval defines them (``P_k``,
``map_cut_k``, ``recip_rank``), so that the core's numbers equal pytrec_eval's:

- an item is **relevant** when its grade is at least 1 (trec_eval's default
  ``relevance_level``); the grade's size plays no further part (a 3 counts as much as a 1);
- ``P@k`` = relevant items in the top k / **k**, even when the list is shorter than k
  (trec_eval divides by the cutoff, not by the items retrieved);
- ``AP@k`` = the sum, over the relevant items in the top k, of the precision at each one's
  position, divided by the query's number of relevant **judged** items (``pool``, default the
  list's own grades), retrieved or not: trec_eval's ``map_cut_k`` (``map`` with ``k=None``);
- ``RR`` = 1 / the position of the first relevant item, 0 when none is in the top k
  (trec_eval's ``recip_rank`` has no cutoff: ``k=None``);
- a list with nothing relevant scores 0 on each (AP: nothing relevant judged is 0 / 0, reported
  as 0, as trec_eval does);
- with ``scores``, the list is first ranked as trec_eval ranks a run: score descending, then
  item id descending as text (:func:`ndcg_core.ties.rank_by_score` with ``ties="trec_eval"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .ties import rank_by_score
from .validate import as_relevance, check_k

__all__ = [
    "RELEVANT_FROM",
    "average_precision",
    "precision_at_k",
    "reciprocal_rank",
]

#: The smallest grade that counts as relevant (trec_eval's default ``relevance_level``).
RELEVANT_FROM = 1.0


def _ranked(
    relevance: ArrayLike, scores: ArrayLike | None, labels: Sequence[Any] | None
) -> NDArray[np.float64]:
    """The grades in rank order: as given, or ranked by ``scores`` in trec_eval's tie order."""
    if scores is None:
        return as_relevance(relevance)
    return rank_by_score(relevance, scores, ties="trec_eval", labels=labels).relevance


def precision_at_k(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    scores: ArrayLike | None = None,
    labels: Sequence[Any] | None = None,
) -> float:
    """P@k: the share of the top k positions holding a relevant item (grade ≥ 1).

    Divided by ``k`` even when the list has fewer items (trec_eval's ``P_k``); ``k=None``
    means the whole list.

    >>> precision_at_k([3, 2, 0, 0, 1], k=2), precision_at_k([3, 2, 0, 0, 1])
    (1.0, 0.6)
    >>> precision_at_k([3, 0], k=5)  # one relevant item in five positions
    0.2
    """
    rel = _ranked(relevance, scores, labels)
    kk = rel.size if k is None else check_k(k, rel.size)
    cut = k if k is not None and k > rel.size else kk
    return float(np.count_nonzero(rel[:kk] >= RELEVANT_FROM) / cut)


def average_precision(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    pool: ArrayLike | None = None,
    scores: ArrayLike | None = None,
    labels: Sequence[Any] | None = None,
) -> float:
    """AP@k: mean of the precision at each relevant item's position, over all relevant judged items.

    The sum of precision@i over the relevant items within the top k is divided by the number
    of relevant items among the judged ones (``pool``: every judged grade of the query,
    default the list's own), so a relevant item the list misses (or places below k) adds 0 to
    the sum and 1 to the divisor: trec_eval's ``map_cut_k`` (``map`` for ``k=None``).

    >>> round(average_precision([3, 2, 0, 0, 1]), 4)  # (1/1 + 2/2 + 3/5) / 3
    0.8667
    >>> round(average_precision([3, 2, 0, 0, 1], k=2), 4)  # (1 + 1) / 3
    0.6667
    >>> average_precision([0, 1], pool=[0, 1, 2, 2])  # (1/2) / 3
    0.16666666666666666
    """
    rel = _ranked(relevance, scores, labels)
    top = rel[: check_k(k, rel.size)] >= RELEVANT_FROM
    judged = rel if pool is None else as_relevance(pool, what="judged_pool")
    n_relevant = int(np.count_nonzero(judged >= RELEVANT_FROM))
    hits = np.cumsum(top)
    positions = np.arange(1, top.size + 1)
    total = float((hits[top] / positions[top]).sum())
    return total / n_relevant if n_relevant > 0 else 0.0


def reciprocal_rank(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    scores: ArrayLike | None = None,
    labels: Sequence[Any] | None = None,
) -> float:
    """RR: 1 / the position of the first relevant item (grade ≥ 1) in the top k; 0 if none.

    Only the first relevant item counts: [1, 0, 0] and [1, 3, 3] both score 1.

    >>> reciprocal_rank([0, 0, 2, 3]), reciprocal_rank([0, 0, 2, 3], k=2)
    (0.3333333333333333, 0.0)
    """
    rel = _ranked(relevance, scores, labels)
    hits = np.flatnonzero(rel[: check_k(k, rel.size)] >= RELEVANT_FROM)
    return 1.0 / float(hits[0] + 1) if hits.size else 0.0
