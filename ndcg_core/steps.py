"""The explained part of the core: nDCG built position by position, and what-if views.

Contents
--------
step_table
    One row per position: G, CG, discount, DCG, the ideal ranking, IDCG and nDCG at that position.
ndcg_at_each_k
    DCG@k, IDCG@k and nDCG@k for every cutoff k (the "nDCG@k for every k" chart).
swap_matrix
    nDCG after swapping every pair of positions (the Explore heatmap).
slide_down
    nDCG as one item slides down the list.
permutation_distribution
    nDCG over every ordering of the items (or a seeded sample), and where the current one lies;
    with the worst, mean and best over all orderings in closed form (any length).
order_bounds
    Only the closed forms: worst order (grades ascending), mean over random orders, best order.
mismatched_cutoffs
    The trap of dividing DCG@k by IDCG at another cutoff, next to the right nDCG@k.
base_comparison
    DCG, IDCG and nDCG with the discount 1 / log_b(i + 1) for several bases b (b cancels in nDCG).
describe_change
    What changed between two rankings (which item moved where) and nDCG before and after,
    as data: the user interface builds the sentence from a translated template.

Conventions (the same as :mod:`ndcg_core.ranked`): positions are 1-based; ``k=None`` or
``k > n`` means the whole list; with ``pool`` the ideal ranking is built from every judged item,
and ``k=None`` then means the whole pool; IDCG = 0 gives nDCG = 0.0. Every function here is
vectorised over positions (no Python loop over orderings or cutoffs).
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from .discounting import DISCOUNTS, Discount, discounts, log_terms
from .gains import GAINS, Gain, apply_gain
from .judging import SAME_TOLERANCE, compare_values
from .ranked import Unjudged, ideal_relevance, metrics, prepared
from .validate import (
    as_relevance,
    check_choice,
    check_k,
    check_labels,
    check_same_length,
    fail,
)

__all__ = [
    "NO_ITEM",
    "STEP_COLUMNS",
    "Change",
    "CutoffMismatch",
    "OrderBounds",
    "PermutationDistribution",
    "base_comparison",
    "default_labels",
    "describe_change",
    "mismatched_cutoffs",
    "ndcg_at_each_k",
    "order_bounds",
    "permutation_distribution",
    "slide_down",
    "step_table",
    "swap_matrix",
]

#: Shown in ``item`` for positions beyond the ranked list, and in ``ideal_item`` for ideal
#: positions held by a judged item the system did not return (or beyond the judged pool).
NO_ITEM = "—"

#: The columns of :func:`step_table`, in order.
STEP_COLUMNS: tuple[str, ...] = (
    "position",
    "item",
    "relevance",
    "gain",
    "cg",
    "log_term",
    "discount",
    "discounted_gain",
    "dcg",
    "ideal_item",
    "ideal_relevance",
    "ideal_gain",
    "ideal_discounted_gain",
    "idcg",
    "ndcg",
    "in_cutoff",
)


def default_labels(n: int) -> list[str]:
    """The item names used when none are given: D1, D2, ..., Dn.

    >>> default_labels(3)
    ['D1', 'D2', 'D3']
    """
    return [f"D{i}" for i in range(1, n + 1)]


def _labels(labels: Sequence[Any] | None, n: int) -> list[str]:
    if labels is None:
        return default_labels(n)
    labels = list(labels)
    check_same_length(labels, range(n), what="labels_and_grades")
    return check_labels(labels)


def _options(gain: str, discount: str) -> None:
    check_choice(gain, GAINS, option="gain")
    check_choice(discount, DISCOUNTS, option="discount")


def _ratio(num: NDArray[np.float64], den: NDArray[np.float64]) -> NDArray[np.float64]:
    """num / den, and 0 where den = 0 (nothing relevant)."""
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=np.broadcast_to(den > 0, out.shape))
    return out


def _ideal_items(rel: NDArray[np.float64], ideal: NDArray[np.float64], labels: list[str]) -> list[str]:
    """The label of the item at each ideal position, NO_ITEM for judged items not returned.

    Items of the list take the first ideal slots of their grade, in list order; an item with
    a NaN grade (unjudged) takes none.
    """
    judged = ~np.isnan(rel)
    rel, labels = rel[judged], [name for name, keep in zip(labels, judged.tolist(), strict=False) if keep]
    order = np.argsort(-rel, kind="stable")
    sorted_rel = rel[order]
    # occurrence number of each value within its run of equal grades (both arrays are sorted)
    list_occ = np.arange(rel.size) - np.searchsorted(-sorted_rel, -sorted_rel, side="left")
    ideal_occ = np.arange(ideal.size) - np.searchsorted(-ideal, -ideal, side="left")
    slot = {(g, int(o)): labels[i] for g, o, i in zip(sorted_rel.tolist(), list_occ, order, strict=False)}
    return [slot.get((g, int(o)), NO_ITEM) for g, o in zip(ideal.tolist(), ideal_occ, strict=False)]


def _padded(values: NDArray[np.float64], rows: int, fill: float) -> NDArray[np.float64]:
    out = np.full(rows, fill)
    out[: values.size] = values[:rows]
    return out


def _cumulative(
    rel: NDArray[np.float64], cutoff: int, rows: int, gain: str, discount: str
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(gain * discount within the cutoff, 0 elsewhere; its running sum), over ``rows`` rows."""
    contrib = np.zeros(rows)
    contrib[:cutoff] = apply_gain(rel[:cutoff], gain) * discounts(cutoff, discount)
    return contrib, np.cumsum(contrib)


def step_table(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
    labels: Sequence[Any] | None = None,
    unjudged: Unjudged | None = None,
) -> pd.DataFrame:
    """G → CG → DCG → IDCG → nDCG, one row per position.

    Row i holds CG@i, DCG@i, IDCG@i and nDCG@i (nDCG@i = 0 where IDCG@i = 0), so the last
    row equals ``ndcg(relevance, k=k, ...)``. Positions beyond ``k`` are shown with
    ``in_cutoff`` False and contribute nothing: their ``discounted_gain`` and
    ``ideal_discounted_gain`` are 0 and the cumulative columns keep their value at k.

    Parameters
    ----------
    relevance : array-like of float
        Grades in rank order, position 1 first.
    k : int, optional
        Cutoff; ``None`` or a value above the length means the whole list (and the whole pool).
    gain : {"linear", "exponential"}
    discount : {"log2", "jarvelin"}
    pool : array-like of float, optional
        Grades of every judged item of the query; the ideal ranking is built from them.
    labels : sequence of str, optional
        Item names, one per grade; default D1, D2, ...
    unjudged : {"zero", "drop"}, optional
        What a NaN grade (unjudged item) means, as in :func:`ndcg_core.ranked.metrics`:
        ``"zero"`` keeps the row with ``relevance`` NaN and gain 0; ``"drop"`` removes the
        item (and its label) before the table is built (the condensed list; a list with no
        judged item at all then has no rows and is refused as empty).

    Returns
    -------
    pandas.DataFrame
        The columns of :data:`STEP_COLUMNS`: ``position`` (1-based), ``item``, ``relevance``,
        ``gain``, ``cg``, ``log_term`` (the divisor: log2(i + 1), or max(1, log2 i) for
        Järvelin), ``discount`` (1 / log_term), ``discounted_gain``, ``dcg``, ``ideal_item``,
        ``ideal_relevance``, ``ideal_gain``, ``ideal_discounted_gain``, ``idcg``, ``ndcg``,
        ``in_cutoff``. CG is the sum of the **gains** (as :func:`ndcg_core.ranked.cg`).

        With a ``pool`` longer than the list, the table continues past the list up to the
        ideal's cutoff: those rows have ``item`` :data:`NO_ITEM`, ``relevance`` and ``gain``
        NaN (no item was returned there) and carry DCG forward while IDCG still grows.
        ``ideal_item`` is :data:`NO_ITEM` where the ideal position holds a judged item the
        system did not return; ideal positions beyond the pool have NaN grades.

    Raises
    ------
    NDCGInputError
        On invalid grades, ``k``, options, labels (wrong count, empty, duplicate, too long) or
        a pool that lacks a graded item of the list.

    >>> t = step_table([3, 2, 0, 0, 1])
    >>> t[["position", "item", "relevance", "cg", "ideal_relevance"]].to_numpy().tolist()[:2]
    [[1, 'D1', 3.0, 3.0, 3.0], [2, 'D2', 2.0, 5.0, 2.0]]
    >>> t[["dcg", "idcg", "ndcg"]].iloc[-1].round(4).tolist()
    [4.6487, 4.7619, 0.9762]
    >>> t3 = step_table([3, 2, 0, 0, 1], k=3)
    >>> t3["in_cutoff"].tolist(), round(float(t3["ndcg"].iloc[-1]), 4)
    ([True, True, True, False, False], 0.895)
    >>> step_table([3, 2, 0, 0, 1], gain="exponential")["cg"].tolist()  # 7, 7 + 3, ...
    [7.0, 10.0, 10.0, 10.0, 11.0]
    """
    shown_rel: NDArray[np.float64] | None = None
    if unjudged is None:
        rel = as_relevance(relevance)
    else:
        raw = as_relevance(relevance, allow_unjudged=True)
        missing = np.isnan(raw)
        items_all = _labels(labels, raw.size)
        rel = prepared(raw, unjudged)
        if unjudged == "drop":
            if not rel.size:
                fail("empty", what="relevance_list")
            labels = [name for name, gone in zip(items_all, missing, strict=False) if not gone]
        else:
            shown_rel = raw
            labels = items_all
    _options(gain, discount)
    n = rel.size
    items = _labels(labels, n)
    ideal = ideal_relevance(rel, pool=pool)
    k_list, k_ideal = check_k(k, n), check_k(k, ideal.size)
    rows = max(n, k_ideal)

    contrib, dcg = _cumulative(rel, k_list, rows, gain, discount)
    ideal_contrib, idcg = _cumulative(ideal, k_ideal, rows, gain, discount)
    within = np.arange(rows) < k_list
    position = np.arange(1, rows + 1)
    # against a pool, an unjudged item (gain 0 here) is not among the judged items the ideal
    # ranks, so it takes no ideal slot (a judged 0 of the list does)
    ideal_items = (
        _ideal_items(rel, ideal, items)
        if pool is None or shown_rel is None
        else _ideal_items(shown_rel, ideal, items)
    )
    gains = apply_gain(rel, gain)
    return pd.DataFrame(
        {
            "position": position,
            "item": (items + [NO_ITEM] * rows)[:rows],
            "relevance": _padded(rel if shown_rel is None else shown_rel, rows, np.nan),
            "gain": _padded(gains, rows, np.nan),
            # CG sums gains (Järvelin & Kekäläinen 2002), so it equals DCG with every discount 1
            "cg": np.cumsum(np.where(within, _padded(gains, rows, 0.0), 0.0)),
            "log_term": log_terms(rows, discount),
            "discount": discounts(rows, discount),
            "discounted_gain": contrib,
            "dcg": dcg,
            "ideal_item": (ideal_items + [NO_ITEM] * rows)[:rows],
            "ideal_relevance": _padded(ideal, rows, np.nan),
            "ideal_gain": _padded(apply_gain(ideal, gain), rows, np.nan),
            "ideal_discounted_gain": ideal_contrib,
            "idcg": idcg,
            "ndcg": _ratio(dcg, idcg),
            "in_cutoff": position <= (rows if k is None else k),
        }
    )


def ndcg_at_each_k(
    relevance: ArrayLike,
    *,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
    unjudged: Unjudged | None = None,
) -> pd.DataFrame:
    """DCG@k, IDCG@k and nDCG@k for every cutoff k = 1, 2, ... (the "nDCG@k for every k" chart).

    k runs to the length of the list, or of the pool if that is longer, so the last row
    equals ``ndcg(relevance, pool=pool)``. ``unjudged`` as in :func:`ndcg_core.metrics.metrics`
    (with ``"drop"``, k counts the positions of the condensed list).

    Returns
    -------
    pandas.DataFrame
        Columns ``k``, ``dcg``, ``idcg``, ``ndcg``.

    >>> ndcg_at_each_k([3, 2, 0, 0, 1])["ndcg"].round(4).tolist()
    [1.0, 1.0, 0.895, 0.895, 0.9762]
    """
    rel = prepared(relevance, unjudged)
    if not rel.size:  # the condensed list of a ranking without a judged item
        fail("all_unjudged", what="relevance_list")
    _options(gain, discount)
    ideal = ideal_relevance(rel, pool=pool)
    rows = max(rel.size, ideal.size)
    _, dcg = _cumulative(rel, rel.size, rows, gain, discount)
    _, idcg = _cumulative(ideal, ideal.size, rows, gain, discount)
    return pd.DataFrame({"k": np.arange(1, rows + 1), "dcg": dcg, "idcg": idcg, "ndcg": _ratio(dcg, idcg)})


def _weights(
    rel: NDArray[np.float64], k: int | None, gain: str, discount: str
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(gain of each item, discount of each position with 0 beyond the cutoff)."""
    n = rel.size
    cutoff = check_k(k, n)
    weight = np.zeros(n)
    weight[:cutoff] = discounts(cutoff, discount)
    return apply_gain(rel, gain), weight


def swap_matrix(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
    labels: Sequence[Any] | None = None,
) -> pd.DataFrame:
    """nDCG@k after swapping the items at positions i and j, for every pair (the Explore heatmap).

    Swapping does not change the ideal, so
    nDCG_ij = (DCG + (G_i - G_j) * (d_j - d_i)) / IDCG, with d = 0 beyond k.

    Returns
    -------
    pandas.DataFrame
        Long format, n * n rows: ``i``, ``j`` (1-based positions), ``item_i``, ``item_j``,
        ``ndcg`` (after the swap; i = j is the current ranking) and ``delta`` (change from the
        current nDCG).

    >>> s = swap_matrix([3, 2, 0, 0, 1])
    >>> round(s.query("i == 1 and j == 5")["ndcg"].item(), 4)
    0.7187
    """
    rel = as_relevance(relevance)
    _options(gain, discount)
    items = _labels(labels, rel.size)
    m = metrics(rel, k=k, gain=gain, discount=discount, pool=pool)
    g, d = _weights(rel, k, gain, discount)
    after = m.dcg + np.subtract.outer(g, g) * np.subtract.outer(d, d).T
    ndcg = _ratio(after, np.asarray(m.idcg))
    n = rel.size
    i, j = np.divmod(np.arange(n * n), n)
    names = np.asarray(items, dtype=object)
    return pd.DataFrame(
        {
            "i": i + 1,
            "j": j + 1,
            "item_i": names[i],
            "item_j": names[j],
            "ndcg": ndcg.ravel(),
            "delta": ndcg.ravel() - m.ndcg,
        }
    )


def _position(position: Any, n: int) -> int:
    if (
        isinstance(position, bool)
        or not isinstance(position, numbers.Integral)
        or not 1 <= int(position) <= n
    ):
        fail("position_invalid", n=n, got=repr(position))
    return int(position)


def slide_down(
    relevance: ArrayLike,
    *,
    position: int = 1,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
) -> pd.DataFrame:
    """nDCG@k as the item at ``position`` moves down by d = 0, 1, ..., n - position places.

    The items it passes move up one place each.

    Returns
    -------
    pandas.DataFrame
        Columns ``d``, ``to_position`` (position + d), ``dcg``, ``ndcg``; d = 0 is the current
        ranking.

    >>> slide_down([3, 2, 0, 0, 1])["ndcg"].round(4).tolist()
    [0.9762, 0.8987, 0.8162, 0.7726, 0.7542]
    """
    rel = as_relevance(relevance)
    _options(gain, discount)
    n = rel.size
    p = _position(position, n) - 1
    m = metrics(rel, k=k, gain=gain, discount=discount, pool=pool)
    g, d = _weights(rel, k, gain, discount)
    # moving down by t: positions p..p+t lose their old terms, the moved item lands at p+t and
    # each passed item takes the discount of the place above it
    lost = np.cumsum(g[p:] * d[p:])
    passed = np.concatenate(([0.0], np.cumsum(g[p + 1 :] * d[p : n - 1])))
    dcg = m.dcg - lost + g[p] * d[p:] + passed
    return pd.DataFrame(
        {
            "d": np.arange(n - p),
            "to_position": np.arange(p + 1, n + 1),
            "dcg": dcg,
            "ndcg": _ratio(dcg, np.asarray(m.idcg)),
        }
    )


@dataclass(frozen=True, slots=True)
class OrderBounds:
    """nDCG@k of the worst order, the mean over all orders and the best order of the same items.

    Closed forms that hold for any length (see :func:`order_bounds`).

    Attributes
    ----------
    worst, mean, best : float
        nDCG@k of the grades in ascending order, the mean over uniformly random orders, and
        nDCG@k of the grades in descending order (1 when the ideal is the list itself and some
        grade is above 0; lower against a judged pool that holds items the list lacks).
    current : float
        nDCG@k of the ranking as given.
    k : int
        The cutoff used on the list.
    """

    worst: float
    mean: float
    best: float
    current: float
    k: int


def _bounds(rel: NDArray[np.float64], m: Any, gain: str, discount: str) -> tuple[float, float, float]:
    """(worst, mean, best) nDCG@k over the orderings of ``rel``, in closed form.

    With discounts d_1 >= d_2 >= ... >= d_k > 0 (both discounts are non-increasing):

    - worst: any order scores sum over i <= k of g_(i) d_i. Swapping an item inside the top k for
      a smaller one outside can only lower the sum (d_i > 0), so the top k hold the k smallest
      gains; by the rearrangement inequality their sum with a non-increasing d is smallest when
      the gains increase down the list. The ascending order of the whole list does both.
    - mean: each position holds each item with probability 1/n, so E[DCG@k] = mean(g) * sum d_i.
    - best: the descending order (the list's own ideal).
    """
    g = np.sort(apply_gain(rel, gain))
    d = discounts(m.k, discount)
    worst = float(g[: m.k] @ d)
    mean = float(g.mean() * d.sum()) if rel.size else 0.0
    best = float(np.ascontiguousarray(g[::-1][: m.k]) @ d)
    if m.idcg <= 0:
        return 0.0, 0.0, 0.0
    return worst / m.idcg, mean / m.idcg, best / m.idcg


def order_bounds(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
) -> OrderBounds:
    """Worst, mean and best nDCG@k over every order of the same items, for any length.

    - worst = DCG@k of the grades sorted ascending (smallest first) / IDCG@k;
    - mean over uniformly random orders = (mean gain × Σ_{i<=k} discount_i) / IDCG@k;
    - best = DCG@k of the grades sorted descending / IDCG@k.

    Two lists with the same nDCG can face very different floors: the worst order of
    [1, 1, 1, 1, 0] still scores 0.761, that of [1, 0, 0, 0, 0] 0.387.

    >>> b = order_bounds([3, 2, 0, 0, 1])
    >>> round(b.worst, 3), round(b.best, 3)
    (0.53, 1.0)
    >>> round(order_bounds([1, 1, 1, 1, 0]).mean, 3), round(order_bounds([1, 0, 0, 0, 0]).mean, 3)
    (0.921, 0.59)
    """
    rel = as_relevance(relevance)
    _options(gain, discount)
    m = metrics(rel, k=k, gain=gain, discount=discount, pool=pool)
    worst, mean, best = _bounds(rel, m, gain, discount)
    return OrderBounds(worst=worst, mean=mean, best=best, current=m.ndcg, k=m.k)


@dataclass(frozen=True, slots=True, eq=False)
class PermutationDistribution:
    """nDCG@k over orderings of the same items, and the current ranking's place among them.

    Attributes
    ----------
    values : numpy.ndarray
        nDCG@k of every ordering (exact) or of ``samples`` random orderings (not exact),
        read-only. Every ordering of the items counts once, so orderings that only exchange
        items of equal grade repeat a value: this is the distribution of a random shuffle.
    exact : bool
        True when every ordering was enumerated (n <= max_exact).
    current : float
        nDCG@k of the ranking as given.
    percentile : float
        Percent of the orderings whose nDCG@k is at most ``current`` (100 for an ideal ranking).
    mean : float
        The expected nDCG@k of a random shuffle, in closed form (exact at any length; equal to
        the mean of ``values`` when exact).
    k : int
        The cutoff used on the list.
    worst, best : float
        nDCG@k of the worst order (ascending grades) and of the best (descending), exact at
        any length (see :func:`order_bounds`).
    """

    values: NDArray[np.float64]
    exact: bool
    current: float
    percentile: float
    mean: float
    k: int
    worst: float
    best: float


def _positive_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        fail("shape", what=what, rule="rule_positive_integer", got=repr(value))
    return int(value)


def permutation_distribution(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
    max_exact: int = 8,
    samples: int = 20000,
    seed: int = 0,
) -> PermutationDistribution:
    """nDCG@k over every ordering of the items (n <= max_exact), else over a seeded sample.

    All orderings go into one integer array, then one matrix product with the discounts gives
    every DCG at once (8 items: 40320 orderings). ``mean``, ``worst`` and ``best`` come from
    the closed forms of :func:`order_bounds`, so they are exact even when ``values`` is a sample.

    >>> dist = permutation_distribution([3, 2, 0, 0, 1])
    >>> dist.exact, dist.values.size, round(dist.percentile, 2)
    (True, 120, 96.67)
    >>> round(float(dist.values.max()), 4), round(float(dist.values.min()), 4)
    (1.0, 0.5296)
    >>> round(dist.worst, 4), round(dist.best, 4)
    (0.5296, 1.0)
    """
    rel = as_relevance(relevance)
    _options(gain, discount)
    max_exact = _positive_int(max_exact, "largest_exact")
    samples = _positive_int(samples, "samples")
    m = metrics(rel, k=k, gain=gain, discount=discount, pool=pool)
    n, cutoff = rel.size, m.k
    g = apply_gain(rel, gain)
    d = discounts(cutoff, discount)
    exact = n <= max_exact
    if exact:
        orders = np.fromiter(
            itertools.chain.from_iterable(itertools.permutations(range(n))), dtype=np.int16
        ).reshape(-1, n)[:, :cutoff]
        dcg = g[orders] @ d
    else:
        rng = np.random.default_rng(seed)
        chunk = max(1, 2_000_000 // n)
        parts = []
        for start in range(0, samples, chunk):  # chunks bound the memory, not a per-order loop
            keys = rng.random((min(chunk, samples - start), n))
            top = np.argsort(keys, axis=1)[:, :cutoff]
            parts.append(g[top] @ d)
        dcg = np.concatenate(parts)
    values = _ratio(dcg, np.asarray(m.idcg))
    values.setflags(write=False)
    tolerance = SAME_TOLERANCE * max(1.0, m.ndcg)  # orders whose nDCG is the same count as at most
    worst, mean, best = _bounds(rel, m, gain, discount)
    return PermutationDistribution(
        values=values,
        exact=exact,
        current=m.ndcg,
        percentile=float(np.mean(values <= m.ndcg + tolerance) * 100.0),
        mean=mean,
        k=cutoff,
        worst=worst,
        best=best,
    )


@dataclass(frozen=True, slots=True)
class CutoffMismatch:
    """DCG at one cutoff divided by IDCG at another (a mistake), next to nDCG at the first.

    Attributes
    ----------
    dcg, idcg : float
        DCG@dcg_k and IDCG@idcg_k.
    ratio : float
        dcg / idcg (0 when idcg = 0): what the mistake reports.
    ndcg : float
        The right nDCG@dcg_k, both sides cut at the same k.
    dcg_k, idcg_k : int
        The two cutoffs, as applied to the list and the ideal.
    """

    dcg: float
    idcg: float
    ratio: float
    ndcg: float
    dcg_k: int
    idcg_k: int


def mismatched_cutoffs(
    relevance: ArrayLike,
    *,
    dcg_k: int,
    idcg_k: int,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
) -> CutoffMismatch:
    """DCG@dcg_k / IDCG@idcg_k: what a program reports when the two sides use different k.

    >>> c = mismatched_cutoffs([3, 2, 2, 1], dcg_k=2, idcg_k=4)
    >>> round(c.ratio, 4), c.ndcg
    (0.7487, 1.0)
    """
    top = metrics(relevance, k=dcg_k, gain=gain, discount=discount, pool=pool)
    ideal = metrics(relevance, k=idcg_k, gain=gain, discount=discount, pool=pool)
    ratio = top.dcg / ideal.idcg if ideal.idcg > 0 else 0.0
    return CutoffMismatch(
        dcg=top.dcg,
        idcg=ideal.idcg,
        ratio=ratio,
        ndcg=top.ndcg,
        dcg_k=top.k,
        idcg_k=check_k(idcg_k, ideal_relevance(relevance, pool=pool).size),
    )


#: The log bases :func:`base_comparison` shows by default: 2, e (Spark's natural log) and 10.
BASES: tuple[float, ...] = (2.0, float(np.e), 10.0)


def base_comparison(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    pool: ArrayLike | None = None,
    bases: Sequence[float] = BASES,
) -> pd.DataFrame:
    """DCG@k, IDCG@k and nDCG@k with the discount 1 / log_b(i + 1), one row per base b.

    1 / log_b(i + 1) = ln(b) / ln(i + 1): changing b multiplies every discount, hence DCG and
    IDCG, by the same constant, which cancels in nDCG but not in DCG (scikit-learn's
    ``dcg_score(..., log_base=b)`` computes the same DCG).

    >>> t = base_comparison([3, 2, 0, 0, 1])
    >>> t["dcg"].round(4).tolist(), t["ndcg"].round(4).tolist()
    ([4.6487, 6.7067, 15.4427], [0.9762, 0.9762, 0.9762])
    """
    rel = as_relevance(relevance)
    m = metrics(rel, k=k, gain=gain, pool=pool)  # log2: the reference DCG and IDCG
    base = np.asarray([float(b) for b in bases], dtype=np.float64)
    if base.size == 0 or not (np.isfinite(base).all() and (base > 1).all()):
        fail("shape", what="log_bases", rule="rule_log_base", got=repr(list(bases))[:40])
    scale = np.log2(base)  # 1 / log_b(x) = log2(b) / log2(x)
    dcg, idcg = m.dcg * scale, m.idcg * scale
    return pd.DataFrame({"base": base, "dcg": dcg, "idcg": idcg, "ndcg": _ratio(dcg, idcg)})


ChangeKind = Literal["unchanged", "moved", "swapped", "reordered", "regraded", "other"]


@dataclass(frozen=True, slots=True)
class Change:
    """What changed between two rankings, and nDCG@k before and after.

    Attributes
    ----------
    kind : str
        ``"unchanged"``; ``"moved"`` (one item moved from ``from_position`` to ``to_position``,
        the items between shifted by one); ``"swapped"`` (``item`` and ``other_item`` exchanged
        places); ``"reordered"`` (any other new order of the same items and grades);
        ``"regraded"`` (same order, grades changed; ``item`` and the grades are set when
        exactly one changed); ``"other"`` (items added, removed or renamed, or order and
        grades both changed).
    item, other_item : str or None
        The item that moved; for ``"swapped"`` the upper and the lower of the two.
    from_position, to_position : int or None
        1-based positions of ``item`` before and after.
    grade_before, grade_after : float or None
        For ``"regraded"`` with one changed item.
    k : int
        The cutoff to name in a sentence: ``k``, or the whole list (or pool) when ``k`` is None.
    ndcg_before, ndcg_after, delta : float
        nDCG@k of both rankings and the difference (after - before).
    effect : {"raised", "lowered", "unchanged"}
        How nDCG@k changed, judged by :func:`ndcg_core.judging.compare_values` (rounding
        noise is "unchanged").
    """

    kind: ChangeKind
    item: str | None
    other_item: str | None
    from_position: int | None
    to_position: int | None
    grade_before: float | None
    grade_after: float | None
    k: int
    ndcg_before: float
    ndcg_after: float
    delta: float
    effect: Literal["raised", "lowered", "unchanged"]


def _same_grade(x: float, y: float) -> bool:
    """Equal grades, where two unjudged items (NaN) count as equal."""
    return x == y or (np.isnan(x) and np.isnan(y))


def _classify(
    before: list[str],
    after: list[str],
    rel_b: NDArray[np.float64],
    rel_a: NDArray[np.float64],
    mover: str | None = None,
) -> dict[str, Any]:
    none: dict[str, Any] = dict(
        item=None, other_item=None, from_position=None, to_position=None, grade_before=None, grade_after=None
    )
    if sorted(before) != sorted(after):
        return {**none, "kind": "other"}
    grade_b = dict(zip(before, rel_b.tolist(), strict=False))
    grade_a = dict(zip(after, rel_a.tolist(), strict=False))
    regraded = [name for name in after if not _same_grade(grade_a[name], grade_b[name])]
    if regraded:
        if before != after:
            return {**none, "kind": "other"}
        if len(regraded) > 1:
            return {**none, "kind": "regraded"}
        name = regraded[0]
        at = after.index(name) + 1
        return {
            **none,
            "kind": "regraded",
            "item": name,
            "from_position": at,
            "to_position": at,
            "grade_before": grade_b[name],
            "grade_after": grade_a[name],
        }
    if before == after:
        return {**none, "kind": "unchanged"}
    differ = [i for i, (x, y) in enumerate(zip(before, after, strict=False)) if x != y]
    a, b = differ[0], differ[-1]
    if b == a + 1 and mover not in (before[a], before[b]):
        # two neighbours exchanged: "the lower one moved up" and "the upper one moved down"
        # give the same lists, so without the mover named by the caller both are named
        return {
            **none,
            "kind": "swapped",
            "item": before[a],
            "other_item": before[b],
            "from_position": a + 1,
            "to_position": b + 1,
        }
    if b == a + 1 and mover == before[a]:
        return {**none, "kind": "moved", "item": before[a], "from_position": a + 1, "to_position": b + 1}
    if after[a] == before[b] and after[a + 1 : b + 1] == before[a:b]:
        return {**none, "kind": "moved", "item": before[b], "from_position": b + 1, "to_position": a + 1}
    if after[b] == before[a] and after[a:b] == before[a + 1 : b + 1]:
        return {**none, "kind": "moved", "item": before[a], "from_position": a + 1, "to_position": b + 1}
    if after[a] == before[b] and after[b] == before[a] and after[a + 1 : b] == before[a + 1 : b]:
        return {
            **none,
            "kind": "swapped",
            "item": before[a],
            "other_item": before[b],
            "from_position": a + 1,
            "to_position": b + 1,
        }
    return {**none, "kind": "reordered"}


#: The effect of a change named from how nDCG after compares with nDCG before.
_EFFECTS: dict[str, Literal["raised", "lowered", "unchanged"]] = {
    "higher": "raised",
    "lower": "lowered",
    "same": "unchanged",
}


def describe_change(
    before_relevance: ArrayLike,
    after_relevance: ArrayLike,
    labels_before: Sequence[Any] | None = None,
    labels_after: Sequence[Any] | None = None,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
    unjudged: Unjudged | None = None,
    pool_before: ArrayLike | None = None,
    mover: str | None = None,
) -> Change:
    """Which item moved from which position to which, and nDCG@k before and after.

    Two neighbours that exchanged places are ``"swapped"`` (both named): "D3 down one" and
    "D4 up one" give the same lists, so a new order alone cannot tell which was moved. A
    caller that knows (a "move this item" button) names it as ``mover``, and the change is
    then that item's ``"moved"``.

    ``unjudged`` as in :func:`ndcg_core.metrics.metrics`; an unjudged item's grade is NaN in
    ``grade_before`` / ``grade_after``. ``pool`` is the judged pool of the ranking after;
    ``pool_before`` that of the ranking before, when the change changed the judgments too (a
    regraded item of a pooled list); ``None`` means the same as ``pool``.

    Returns data, not text: the user interface fills a translated template such as
    "moving {item} from {from_position} to {to_position} {effect} nDCG@{k} from ... to ...".
    Labels default to D1, D2, ... for each list.

    >>> c = describe_change([3, 2, 0, 0, 1], [3, 2, 1, 0, 0],
    ...                     ["D1", "D2", "D3", "D4", "D5"], ["D1", "D2", "D5", "D3", "D4"])
    >>> c.kind, c.item, c.from_position, c.to_position, c.effect
    ('moved', 'D5', 5, 3, 'raised')
    >>> round(c.ndcg_before, 4), round(c.ndcg_after, 4)
    (0.9762, 1.0)
    """
    allow = unjudged is not None
    rel_b = as_relevance(before_relevance, allow_unjudged=allow)
    rel_a = as_relevance(after_relevance, allow_unjudged=allow)
    _options(gain, discount)
    before = _labels(labels_before, rel_b.size)
    after = _labels(labels_after, rel_a.size)
    m_b = metrics(
        rel_b,
        k=k,
        gain=gain,
        discount=discount,
        pool=pool if pool_before is None else pool_before,
        unjudged=unjudged,
    )
    m_a = metrics(rel_a, k=k, gain=gain, discount=discount, pool=pool, unjudged=unjudged)
    delta = m_a.ndcg - m_b.ndcg
    effect = _EFFECTS[compare_values(m_a.ndcg, m_b.ndcg)]
    kept = prepared(rel_a, unjudged) if allow else rel_a
    whole = max(kept.size, ideal_relevance(kept, pool=pool).size)
    return Change(
        **_classify(before, after, rel_b, rel_a, mover),
        k=whole if k is None else int(k),
        ndcg_before=m_b.ndcg,
        ndcg_after=m_a.ndcg,
        delta=delta,
        effect=effect,
    )
