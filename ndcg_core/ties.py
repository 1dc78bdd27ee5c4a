"""From scores to a ranking: tie groups and the six ways to treat tied scores.

A system outputs scores; the ranking is the items sorted by score, highest first. Equal scores
(ties) leave the order open, and nDCG depends on it. The answers, for one list (:data:`TIES`):

- ``"average"``: McSherry & Najork (2008), scikit-learn's default. Each tie group's positions
  get the group's mean gain, which equals the mean DCG over every order of the tied items.
- ``"optimistic"``: ties broken best grade first (what ``sorted(zip(scores, grades),
  reverse=True)`` does), the highest value any order of the ties can give.
- ``"pessimistic"``: ties broken worst grade first, the lowest.
- ``"input"``: a stable sort: tied items keep their input order (LightGBM's
  ``std::stable_sort``, XGBoost's stable ``ArgSort``).
- ``"trec_eval"``: score descending, then item id descending compared as text
  (trec_eval's ``comp_sim_docno``: ``strcmp``). As text "D10" sorts before "D2", so among
  tied D2 and D10 trec_eval ranks D2 first. Needs the item ids (default D1, D2, ...).
- ``"ignore"``: exactly scikit-learn's ``ignore_ties=True``: the same call,
  ``np.argsort(y_score)[:, ::-1]``, on the row built as scikit-learn builds it (same dtype).
  NumPy's default sort is not stable, so this is **one arbitrary order** of the ties that
  depends on the row's length, its dtype and the machine (NumPy's SIMD sorts); it is neither
  input order nor "later input first" in general. Defined for a single list (and the 2-D API
  of :mod:`ndcg_core.sklearn_compat`), not for ragged batches.

The ideal (IDCG) never depends on the scores, so only DCG changes between them.
These functions serve single lists (pages, small n); the batch path is in
:mod:`ndcg_core.sklearn_compat`.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .discounting import DISCOUNTS, Discount, discounts
from .gains import GAINS, Gain, apply_gain
from .ranked import dcg, idcg
from .validate import (
    as_relevance,
    as_scores,
    check_choice,
    check_k,
    check_labels,
    check_same_length,
    fail,
)

__all__ = [
    "TIES",
    "ScoreRanking",
    "TieView",
    "Ties",
    "dcg_from_scores",
    "ndcg_from_scores",
    "rank_by_score",
    "ranx_order",
    "round_scores",
    "tie_groups",
    "tie_view",
]

Ties = Literal["average", "optimistic", "pessimistic", "input", "trec_eval", "ignore"]
_ArrayT = TypeVar("_ArrayT", bound="NDArray[Any]")
#: The tie treatments of a single list, in the order pages list them.
TIES: tuple[Ties, ...] = ("average", "optimistic", "pessimistic", "input", "trec_eval", "ignore")
_MAX_DECIMALS = 15


# eq=False: the fields are arrays, whose == is elementwise, so a generated __eq__ would raise.
@dataclass(frozen=True, slots=True, eq=False)
class ScoreRanking:
    """Items sorted by score, position 1 first (all arrays read-only, one entry per position).

    Attributes
    ----------
    order : numpy.ndarray of int
        Index into the input of the item at each position.
    relevance, scores : numpy.ndarray of float
        The items' grades and scores in rank order.
    group : numpy.ndarray of int
        The tie group of each position, 1 = the highest score.
    group_size : numpy.ndarray of int
        How many items share the position's score (1 = not tied).
    """

    order: NDArray[np.intp]
    relevance: NDArray[np.float64]
    scores: NDArray[np.float64]
    group: NDArray[np.intp]
    group_size: NDArray[np.intp]


@dataclass(frozen=True, slots=True, eq=False)
class TieView:
    """nDCG@k of one scored list under each tie treatment of :data:`TIES`, and the ties themselves.

    ``pessimistic <= average <= optimistic`` always; ``input``, ``trec_eval`` and ``ignore``
    are one order each, so they lie between pessimistic and optimistic too. Without ties all
    six are equal.
    """

    optimistic: float
    average: float
    pessimistic: float
    input: float
    trec_eval: float
    ignore: float
    n_groups: int
    n_tied_items: int
    ranking: ScoreRanking


def _readonly(array: _ArrayT) -> _ArrayT:
    array.setflags(write=False)
    return array


def _group_ids(scores: NDArray[np.float64]) -> NDArray[np.intp]:
    # np.unique sorts -scores ascending, i.e. the highest score first; -0.0 equals 0.0.
    levels = np.unique(-scores)
    return np.searchsorted(levels, -scores) + 1


def tie_groups(scores: ArrayLike) -> NDArray[np.intp]:
    """The tie group of each item, in input order: 1 = the items with the highest score.

    Items with equal scores share a group; group g + 1 holds the next lower score.

    Raises
    ------
    NDCGInputError
        On an empty list or a non-finite score.

    >>> tie_groups([0.9, 0.5, 0.6, 0.9, 0.9]).tolist()
    [1, 3, 2, 1, 1]
    """
    return _group_ids(as_scores(scores))


@dataclass(frozen=True, slots=True, eq=False)
class _Scored:
    """A validated list: grades, scores (float), scikit-learn's row of the scores, item ids."""

    rel: NDArray[np.float64]
    sc: NDArray[np.float64]
    row: NDArray[Any]
    labels: list[str]


def _sklearn_row(scores: ArrayLike, sc: NDArray[np.float64]) -> NDArray[Any]:
    """The scores as scikit-learn's ``check_array`` leaves them: numeric dtypes kept as given.

    The dtype matters: NumPy's unstable argsort may order equal int64 scores differently from
    equal float64 ones. Object arrays become float64, as ``check_array(dtype="numeric")`` does.
    """
    if isinstance(scores, str):
        return sc
    row = np.asarray(scores)
    if row.ndim != 1 or row.dtype.kind not in "biuf":
        return sc
    return row


def _order(scored: _Scored, ties: str) -> NDArray[np.intp]:
    rel, sc = scored.rel, scored.sc
    if ties == "ignore":
        # scikit-learn's own call on its own 2-D array (one row): NumPy's default, unstable
        # sort, reversed. No other call reproduces its order of ties on every machine.
        first_row: NDArray[np.intp] = np.argsort(scored.row[np.newaxis, :])[:, ::-1][0]
        return first_row
    index = np.arange(sc.size)
    if ties == "trec_eval":
        # Item id descending as text (Python compares code points, as strcmp compares UTF-8
        # bytes), then score descending: the id breaks ties only.
        by_id = np.empty(sc.size, dtype=np.intp)
        by_id[sorted(range(sc.size), key=scored.labels.__getitem__, reverse=True)] = index
        return np.lexsort((by_id, -sc))
    if ties == "optimistic":
        return np.lexsort((index, -rel, -sc))
    if ties == "pessimistic":
        return np.lexsort((index, rel, -sc))
    return np.lexsort((index, -sc))  # "input" and "average": tied items in input order


def _ranking(scored: _Scored, ties: str) -> ScoreRanking:
    rel, sc = scored.rel, scored.sc
    order = _order(scored, ties)
    ids = _group_ids(sc)
    sizes = np.bincount(ids)
    return ScoreRanking(
        order=_readonly(np.ascontiguousarray(order)),
        relevance=_readonly(rel[order]),
        scores=_readonly(sc[order]),
        group=_readonly(ids[order]),
        group_size=_readonly(sizes[ids[order]]),
    )


def _inputs(
    relevance: ArrayLike, scores: ArrayLike, labels: Sequence[Any] | None, *, allow_negative: bool
) -> _Scored:
    rel = as_relevance(relevance, allow_negative=allow_negative)
    sc = as_scores(scores)
    check_same_length(rel, sc, what="relevance_and_scores")
    if labels is None:
        names = [f"D{i}" for i in range(1, sc.size + 1)]
    else:
        names = list(labels)
        check_same_length(names, sc, what="labels_and_grades")
        names = check_labels(names)
    return _Scored(rel, sc, _sklearn_row(scores, sc), names)


def rank_by_score(
    relevance: ArrayLike,
    scores: ArrayLike,
    *,
    ties: Ties = "average",
    labels: Sequence[Any] | None = None,
) -> ScoreRanking:
    """Sort items by score, highest first, breaking ties as ``ties`` says.

    Parameters
    ----------
    relevance : array-like of float
        The items' grades, in input order.
    scores : array-like of float
        The system's scores, same length.
    ties : {"average", "optimistic", "pessimistic", "input", "trec_eval", "ignore"}
        ``"average"`` and ``"input"``: ties in input order (with ``"average"``, ``group``
        tells which positions share a score; :func:`dcg_from_scores` averages their gains);
        ``"optimistic"`` / ``"pessimistic"``: best / worst grade first among ties;
        ``"trec_eval"``: item id descending as text among ties; ``"ignore"``: scikit-learn's
        ``ignore_ties`` order (one arbitrary, machine-dependent order).
    labels : sequence of str, optional
        Item ids, for ``"trec_eval"``; default D1, D2, ...

    Returns
    -------
    ScoreRanking

    Raises
    ------
    NDCGInputError
        On empty or non-finite input, different lengths, bad labels or an unknown ``ties``.

    >>> r = rank_by_score([7, 4, 1, 0, 0], [0.9, 0.5, 0.6, 0.9, 0.9], ties="input")
    >>> r.order.tolist(), r.relevance.tolist()
    ([0, 3, 4, 2, 1], [7.0, 0.0, 0.0, 1.0, 4.0])
    >>> rank_by_score([7, 4, 1, 0, 0], [0.9, 0.5, 0.6, 0.9, 0.9], ties="pessimistic").relevance.tolist()
    [0.0, 0.0, 7.0, 1.0, 4.0]
    >>> rank_by_score([1, 0, 2], [0.5, 0.5, 0.5], ties="trec_eval", labels=["D2", "D10", "D9"]).order.tolist()
    [2, 0, 1]
    >>> r = rank_by_score([3, 2, 0, 0, 1], [5, 4, 3, 3, 1], ties="average")
    >>> r.group.tolist(), r.group_size.tolist()
    ([1, 2, 3, 3, 4], [1, 1, 2, 2, 1])
    """
    check_choice(ties, TIES, option="ties")
    return _ranking(_inputs(relevance, scores, labels, allow_negative=True), ties)


def _averaged_dcg(ranking: ScoreRanking, k: int, gain: Gain, discount: Discount) -> float:
    gains = apply_gain(ranking.relevance, gain)
    # Gains are averaged, not grades: the mean over every order of the group of the DCG.
    sums = np.bincount(ranking.group, weights=gains)
    mean_gain = sums[ranking.group] / ranking.group_size
    return float(mean_gain[:k] @ discounts(k, discount))


def _dcg(scored: _Scored, k: int | None, gain: Gain, discount: Discount, ties: str) -> float:
    ranking = _ranking(scored, ties)
    if ties == "average":
        return _averaged_dcg(ranking, check_k(k, scored.rel.size), gain, discount)
    return dcg(ranking.relevance, k=k, gain=gain, discount=discount)


def _check_options(gain: str, discount: str, ties: str) -> None:
    check_choice(gain, tuple(GAINS), option="gain")
    check_choice(discount, tuple(DISCOUNTS), option="discount")
    check_choice(ties, TIES, option="ties")


def dcg_from_scores(
    relevance: ArrayLike,
    scores: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    ties: Ties = "average",
    labels: Sequence[Any] | None = None,
) -> float:
    """DCG@k of the ranking the scores induce, with tied scores treated as ``ties`` says.

    With ``ties="average"``: DCG@k = sum over positions i = 1..k of mean_gain(group(i)) *
    discount(i), where mean_gain is the mean gain of all items sharing position i's score
    (the whole group, even where it straddles k).

    Raises
    ------
    NDCGInputError
        On empty or non-finite input, different lengths, an invalid ``k`` or option.

    The tutorial's slip of TEACHING.md §2: grades [3, 2, 1, 0, 0] with scores [3, 2, 0, 0, 1]
    tie two items at score 0, whose gains 1 and 0 are averaged over positions 4 and 5:

    >>> round(dcg_from_scores([3, 2, 1, 0, 0], [3, 2, 0, 0, 1]), 4)
    4.6706
    >>> round(dcg_from_scores([3, 2, 0, 0, 1], [5, 4, 3, 2, 1]), 4)
    4.6487
    """
    _check_options(gain, discount, ties)
    check_k(k, 1)
    return _dcg(_inputs(relevance, scores, labels, allow_negative=True), k, gain, discount, ties)


def ndcg_from_scores(
    relevance: ArrayLike,
    scores: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    ties: Ties = "average",
    pool: ArrayLike | None = None,
    labels: Sequence[Any] | None = None,
) -> float:
    """nDCG@k of the ranking the scores induce: DCG@k (ties treated as ``ties`` says) / IDCG@k.

    IDCG does not depend on the scores; IDCG = 0 gives 0.0. ``pool`` is the judged pool of
    :func:`ndcg_core.idcg`; ``labels`` the item ids that ``ties="trec_eval"`` sorts by.
    ``ties="ignore"`` equals ``sklearn.metrics.ndcg_score([relevance], [scores], k=k,
    ignore_ties=True)`` (same order of ties, on this machine).

    Raises
    ------
    NDCGInputError
        On empty or non-finite input, negative grades, different lengths, an invalid ``k``
        or option, or a pool that lacks a graded item.

    The example of TEACHING.md §3, three items tied at 0.9:

    >>> grades, scores = [7, 4, 1, 0, 0], [0.9, 0.5, 0.6, 0.9, 0.9]
    >>> round(ndcg_from_scores(grades, scores), 5)            # scikit-learn's default
    0.69338
    >>> round(ndcg_from_scores(grades, scores, ties="optimistic"), 5)   # best case
    0.89568
    >>> round(ndcg_from_scores(grades, scores, ties="input"), 5)   # here input order is the best
    0.89568
    >>> round(ndcg_from_scores(grades, scores, ties="trec_eval"), 5)   # D5, D4, D1 at 0.9
    0.54651
    >>> round(ndcg_from_scores(grades, scores, gain="exponential", ties="input"), 5)
    0.97276
    >>> round(ndcg_from_scores([3, 2, 0, 0, 1], [5, 4, 3, 2, 1]), 4)
    0.9762
    """
    _check_options(gain, discount, ties)
    check_k(k, 1)
    scored = _inputs(relevance, scores, labels, allow_negative=False)
    ideal = idcg(scored.rel, k=k, gain=gain, discount=discount, pool=pool)
    if ideal == 0:
        return 0.0
    return _dcg(scored, k, gain, discount, ties) / ideal


def tie_view(
    relevance: ArrayLike,
    scores: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
    labels: Sequence[Any] | None = None,
) -> TieView:
    """nDCG@k under every tie treatment of :data:`TIES`, the number of tie groups and the ranking.

    What the "scores and ties" page shows: how far the ties let nDCG move
    (pessimistic .. optimistic), where the average lands, and the single orders of LightGBM and
    XGBoost (input), trec_eval (``labels``, default D1, D2, ...) and scikit-learn's
    ``ignore_ties`` (the same number as ``ndcg_score([relevance], [scores], k=k,
    ignore_ties=True)``).

    >>> v = tie_view([7, 4, 1, 0, 0], [0.9, 0.5, 0.6, 0.9, 0.9])
    >>> [round(x, 5) for x in (v.pessimistic, v.average, v.optimistic, v.input, v.trec_eval)]
    [0.54651, 0.69338, 0.89568, 0.89568, 0.54651]
    >>> v.n_groups, v.n_tied_items, v.ranking.group.tolist()
    (3, 3, [1, 1, 1, 2, 3])
    """
    check_choice(gain, tuple(GAINS), option="gain")
    check_choice(discount, tuple(DISCOUNTS), option="discount")
    check_k(k, 1)
    scored = _inputs(relevance, scores, labels, allow_negative=False)
    ideal = idcg(scored.rel, k=k, gain=gain, discount=discount, pool=pool)
    values = {ties: (_dcg(scored, k, gain, discount, ties) / ideal if ideal > 0 else 0.0) for ties in TIES}
    ranking = _ranking(scored, "average")
    sizes = np.bincount(ranking.group)[1:]
    return TieView(
        optimistic=values["optimistic"],
        average=values["average"],
        pessimistic=values["pessimistic"],
        input=values["input"],
        trec_eval=values["trec_eval"],
        ignore=values["ignore"],
        n_groups=int(sizes.size),
        n_tied_items=int(sizes[sizes > 1].sum()),
        ranking=ranking,
    )


def round_scores(scores: ArrayLike, decimals: int) -> NDArray[np.float64]:
    """The scores rounded to ``decimals`` decimal places (0 to 15): round, and ties appear.

    Raises
    ------
    NDCGInputError
        On empty or non-finite scores, or ``decimals`` not an integer from 0 to 15.

    >>> round_scores([0.91, 0.5, 0.62, 0.87, 0.94], 1).tolist()
    [0.9, 0.5, 0.6, 0.9, 0.9]
    """
    if (
        isinstance(decimals, bool)
        or not isinstance(decimals, numbers.Integral)
        or not 0 <= decimals <= _MAX_DECIMALS
    ):
        fail("decimals_invalid", got=repr(decimals), limit=_MAX_DECIMALS)
    return np.round(as_scores(scores), int(decimals))


#: Numba's quicksort sorts runs of at most this many items + 1 by insertion sort, which is stable
#: (``numba.misc.quicksort.SMALL_QUICKSORT``): a list of at most 15 items keeps its ties in input
#: order; from 16 items the partitions move tied items.
_NUMBA_SMALL_QUICKSORT = 15


def ranx_order(scores: ArrayLike) -> NDArray[np.intp]:
    """The order in which ranx ranks items: score descending, ties as Numba's quicksort leaves them.

    ranx sorts a query's run with ``np.argsort`` of the negated scores inside Numba
    (``ranx.data_structures.common.sort_dict_by_value``), and Numba's ``argsort`` is its own
    quicksort (``numba/misc/quicksort.py``: median-of-three partitions, an insertion sort for
    runs of at most 15 items, the larger partition stacked). It is deterministic but not
    stable: a list of at most 15 items keeps tied items in input order; from 16 items any tie,
    even of two, can be reordered. NumPy's own ``kind="quicksort"`` is an introsort with other
    partitions and does not reproduce it. This is that algorithm, step for step, over Python
    floats (the comparisons are the same ``<`` on float64; scores are finite).

    Raises
    ------
    NDCGInputError
        On empty or non-finite scores.

    >>> ranx_order([0.5, 0.9, 0.5]).tolist()  # short list: ties in input order
    [1, 0, 2]
    >>> scores = [16.0 - i for i in range(16)]
    >>> scores[10] = scores[13] = 100.0  # D11 and D14 tied at the top of 16 items
    >>> ranx_order(scores)[:2].tolist()  # ranx ranks D14 first
    [13, 10]
    """
    keys = [-float(x) for x in as_scores(scores)]
    order = list(range(len(keys)))
    stack = [(0, len(keys) - 1)]
    while stack:
        low, high = stack.pop()
        while high - low >= _NUMBA_SMALL_QUICKSORT:
            pivot_at = _numba_partition(keys, order, low, high)
            if high - pivot_at > pivot_at - low:  # the larger side waits on the stack
                if high > pivot_at:
                    stack.append((pivot_at + 1, high))
                high = pivot_at - 1
            else:
                if pivot_at > low:
                    stack.append((low, pivot_at - 1))
                low = pivot_at + 1
        _numba_insertion_sort(keys, order, low, high)
    return np.asarray(order, dtype=np.intp)


def _numba_insertion_sort(keys: list[float], order: list[int], low: int, high: int) -> None:
    """Numba's ``insertion_sort`` of ``order[low:high + 1]`` by ``keys`` (stable)."""
    for i in range(low + 1, high + 1):
        item = order[i]
        value = keys[item]
        j = i
        while j > low and value < keys[order[j - 1]]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = item


def _numba_partition(keys: list[float], order: list[int], low: int, high: int) -> int:
    """Numba's ``partition``: median of three as pivot, Hoare-style swaps; the pivot's place."""
    mid = (low + high) >> 1
    if keys[order[mid]] < keys[order[low]]:
        order[low], order[mid] = order[mid], order[low]
    if keys[order[high]] < keys[order[mid]]:
        order[high], order[mid] = order[mid], order[high]
    if keys[order[mid]] < keys[order[low]]:
        order[low], order[mid] = order[mid], order[low]
    pivot = keys[order[mid]]
    order[high], order[mid] = order[mid], order[high]
    i, j = low, high - 1
    while True:
        while i < high and keys[order[i]] < pivot:
            i += 1
        while j >= low and pivot < keys[order[j]]:
            j -= 1
        if i >= j:
            break
        order[i], order[j] = order[j], order[i]
        i += 1
        j -= 1
    order[i], order[high] = order[high], order[i]
    return i
