"""Answers to the questions learners ask most about nDCG, each with numbers from the core.

- :func:`shape_mistake`: scikit-learn's "Got multiclass instead" on a 1-D list, and the fix
  (one row per query), from the core's scikit-learn-compatible ``ndcg_score``, which raises
  scikit-learn's own message.
- :func:`empty_query_means`: why ``ndcg_score(y, y)`` can be below 1: a query with nothing
  relevant counts as 0 in scikit-learn's mean; what each tool reports for the same batch.
- :func:`length_drift`: why @k at all: without a cutoff, nDCG of a list drifts toward 1 as the
  list grows, even for a shuffled one (Wang et al., COLT 2013), while nDCG@k does not.
- :func:`metric_table`, :data:`DISAGREE_A` / :data:`DISAGREE_B`: nDCG, AP, RR and P@k of one
  list (:mod:`ndcg_core.binary`), and two lists on which they disagree.
- :func:`sampled_evaluation`: nDCG@10 over 1 held-out item + 100 sampled items against the
  whole catalogue, for two generated models (Krichene & Rendle, KDD 2020): the sampled numbers
  overstate both and rank the models the other way round.
- :func:`label_gain_mapping`: LightGBM's "Label 72 is not less than the number of label
  mappings (31)" and non-integer labels: grades mapped to 0..m-1, each level's gain in
  ``label_gain``; the nDCG is unchanged.

Every number comes from :mod:`ndcg_core`; this module only builds the inputs and tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ndcg_core.binary import average_precision, precision_at_k, reciprocal_rank
from ndcg_core.discounting import Discount
from ndcg_core.gains import Gain, apply_gain
from ndcg_core.ranked import idcg, ndcg
from ndcg_core.sklearn_compat import ndcg_score
from ndcg_core.ties import ndcg_from_scores
from ndcg_core.validate import NDCGInputError, as_relevance

from .tools import TOOLS

__all__ = [
    "DISAGREE_A",
    "DISAGREE_B",
    "DISAGREE_K",
    "DISAGREE_POOL",
    "DRIFT_LENGTHS",
    "EMPTY_BATCH",
    "LIGHTGBM_DEFAULT_LABELS",
    "METRICS",
    "SHAPE_GRADES",
    "SHAPE_SCORES",
    "LabelGain",
    "ShapeMistake",
    "empty_query_means",
    "label_gain_mapping",
    "length_drift",
    "metric_table",
    "one_relevant_ndcg",
    "sampled_evaluation",
    "sampled_positions",
    "shape_mistake",
]

# --- 5. "Got multiclass instead": one row per query -----------------------------------------

#: The 1-D mistake: one query's grades and scores passed as flat lists.
SHAPE_GRADES: tuple[float, ...] = (3.0, 2.0, 0.0, 0.0, 1.0)
SHAPE_SCORES: tuple[float, ...] = (5.0, 4.0, 3.0, 2.0, 1.0)


@dataclass(frozen=True, slots=True)
class ShapeMistake:
    """The 1-D call's error message (scikit-learn's words) and the 2-D call's value."""

    error: str
    fixed: float


def shape_mistake(
    grades: Sequence[float] = SHAPE_GRADES, scores: Sequence[float] = SHAPE_SCORES
) -> ShapeMistake:
    """``ndcg_score(grades, scores)`` with flat lists, and with one row per query.

    scikit-learn reads a 1-D ``y_true`` as the labels of a classifier (one label per sample),
    finds it "binary", "multiclass" or "continuous" and refuses it; nDCG needs a 2-D array,
    one row per query.

    >>> m = shape_mistake()
    >>> m.error.endswith("Got multiclass instead"), round(m.fixed, 4)
    (True, 0.9762)
    """
    try:
        ndcg_score(list(grades), list(scores))
    except NDCGInputError as err:
        message = str(err)
    else:  # pragma: no cover - the core refuses 1-D input as scikit-learn does
        raise AssertionError("a 1-D y_true was accepted")
    return ShapeMistake(message, ndcg_score([list(grades)], [list(scores)]))


# --- 6. "Why is ndcg_score(y, y) below 1?" ---------------------------------------------------

#: Three queries, the last with nothing relevant; passed as both y_true and y_score.
EMPTY_BATCH: tuple[tuple[float, ...], ...] = (
    (3.0, 2.0, 0.0, 0.0, 1.0),
    (1.0, 0.0, 2.0, 0.0, 0.0),
    (0.0, 0.0, 0.0, 0.0, 0.0),
)


def empty_query_means(batch: Sequence[Sequence[float]] = EMPTY_BATCH) -> pd.DataFrame:
    """The mean nDCG of ``ndcg_score(y, y)`` as each tool reports it, and why.

    Columns: ``tool``, ``empty`` (what the tool does with a query whose IDCG is 0:
    ``"zero"``, ``"one"`` or ``"left_out"``), ``queries`` (how many enter the mean) and
    ``mean``. scikit-learn's row is the core's ``ndcg_score(y, y)``; the others average the
    core's per-query nDCG with the tool's value for an empty query (:data:`TOOLS`).

    >>> t = empty_query_means()
    >>> t.set_index("tool").loc["scikit-learn", "mean"].round(4), t.set_index("tool").loc["gdeval", "mean"]
    (np.float64(0.6667), np.float64(1.0))
    """
    rows = [list(map(float, r)) for r in batch]
    # y scored by itself: each query ranked by its own grades (the ideal order, ties averaged)
    values = [ndcg_from_scores(r, r) for r in rows]
    empty = [idcg(r) == 0 for r in rows]
    out = [{"tool": "scikit-learn", "empty": "zero", "queries": len(rows), "mean": ndcg_score(rows, rows)}]
    seen = {"scikit-learn"}
    for tool in TOOLS:
        if tool.name in seen:
            continue
        seen.add(tool.name)
        if tool.skips_empty:
            kept = [v for v, e in zip(values, empty, strict=True) if not e]
            out.append(
                {"tool": tool.name, "empty": "left_out", "queries": len(kept), "mean": float(np.mean(kept))}
            )
            continue
        scored = [tool.empty if e else v for v, e in zip(values, empty, strict=True)]
        out.append(
            {
                "tool": tool.name,
                "empty": "one" if tool.empty == 1.0 else "zero",
                "queries": len(rows),
                "mean": float(np.mean(scored)),
            }
        )
    return pd.DataFrame(out, columns=["tool", "empty", "queries", "mean"])


# --- 7. "Why @k at all?" ----------------------------------------------------------------------

#: The lengths the drift is shown for.
DRIFT_LENGTHS: tuple[int, ...] = (12, 25, 50, 100, 250, 500, 1000, 2500, 5000)


def length_drift(
    pattern: Sequence[float],
    lengths: Sequence[int] = DRIFT_LENGTHS,
    *,
    k: int = 10,
    seed: int = 0,
    gain: Gain = "linear",
    discount: Discount = "log2",
) -> pd.DataFrame:
    """nDCG without a cutoff and nDCG@k of a list grown by repeating ``pattern``, in the
    pattern's order and shuffled (seeded), for each length.

    Columns: ``length``, ``order`` (``"pattern"`` or ``"shuffled"``), ``ndcg`` (whole list)
    and ``ndcg_k``. Without a cutoff both orders drift toward 1 and toward each other as the
    list grows (Wang et al. 2013); nDCG@k keeps its distance from 1.

    >>> d = length_drift([1, 0, 2], [3, 300])
    >>> d[d.order == "pattern"]["ndcg"].round(3).tolist()
    [0.76, 0.846]
    """
    base = as_relevance(pattern)
    rng = np.random.default_rng(seed)
    rows = []
    for n in lengths:
        grown = np.resize(base, n)
        for order, rel in (("pattern", grown), ("shuffled", rng.permutation(grown))):
            rows.append(
                {
                    "length": int(n),
                    "order": order,
                    "ndcg": ndcg(rel, gain=gain, discount=discount),
                    "ndcg_k": ndcg(rel, k=k, gain=gain, discount=discount),
                }
            )
    return pd.DataFrame(rows, columns=["length", "order", "ndcg", "ndcg_k"])


# --- 8. nDCG, MAP, MRR, precision@k ---------------------------------------------------------

#: The metrics of :func:`metric_table`, in order.
METRICS: tuple[str, ...] = ("ndcg", "ap", "rr", "precision")
#: Two rankings of one query on which the metrics disagree (k = 5): A puts three highly
#: relevant items at positions 2-4, B a barely relevant item first and one highly relevant
#: second. nDCG@5 and P@5 prefer A, AP@5 and RR prefer B.
DISAGREE_A: tuple[float, ...] = (0.0, 3.0, 3.0, 3.0, 0.0)
DISAGREE_B: tuple[float, ...] = (1.0, 3.0, 0.0, 0.0, 0.0)
#: The query's judged items (both lists are rankings of them): the ideal and AP's divisor.
DISAGREE_POOL: tuple[float, ...] = (3.0, 3.0, 3.0, 1.0, 0.0, 0.0)
DISAGREE_K = 5


def metric_table(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    pool: ArrayLike | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
) -> dict[str, float]:
    """nDCG@k (the given gain and discount), AP@k, RR@k and P@k of one ranked list.

    AP divides by the relevant items among ``pool`` (default the list), as trec_eval's
    ``map_cut`` does; a grade of at least 1 is relevant for AP, RR and P.

    >>> {m: round(v, 4) for m, v in metric_table([3, 2, 0, 0, 1], k=5).items()}
    {'ndcg': 0.9762, 'ap': 0.8667, 'rr': 1.0, 'precision': 0.6}
    """
    return {
        "ndcg": ndcg(relevance, k=k, gain=gain, discount=discount, pool=pool),
        "ap": average_precision(relevance, k=k, pool=pool),
        "rr": reciprocal_rank(relevance, k=k),
        "precision": precision_at_k(relevance, k=k),
    }


# --- 9. Sampled negatives ---------------------------------------------------------------------


def _full_ranks(model: str, n_users: int, n_items: int, rng: np.random.Generator) -> np.ndarray:
    """Where each user's held-out item lands in the whole catalogue, for one made-up model.

    ``"A"`` often puts it in the top 10 and otherwise far down; ``"B"`` always puts it near the
    top, but rarely in the top 10.
    """
    if model == "A":
        hit = rng.random(n_users) < 0.4
        return np.where(hit, rng.integers(1, 11, n_users), rng.integers(n_items // 10, n_items + 1, n_users))
    return rng.integers(5, 101, n_users)


def sampled_positions(
    *,
    n_users: int = 500,
    n_items: int = 10_000,
    negatives: int = 100,
    seed: int = 0,
) -> pd.DataFrame:
    """Where each user's held-out item lands: in the whole catalogue and among sampled items.

    Each user has one held-out relevant item. A model ranks the whole catalogue of
    ``n_items``: ``full`` is the held-out item's position there (:func:`_full_ranks`). The
    sampled evaluation draws ``negatives`` other items for the user (seeded, without
    replacement) and ranks the held-out item among those ``negatives + 1``: ``sampled`` is 1
    plus the number of drawn items the model ranked above it.

    Columns: ``model`` (``"A"``, ``"B"``), ``user``, ``full``, ``sampled``.
    """
    # two streams: the models' positions do not depend on how many items are sampled
    rank_rng, sample_rng = (np.random.default_rng([seed, stream]) for stream in (0, 1))
    full = {model: _full_ranks(model, n_users, n_items, rank_rng) for model in ("A", "B")}
    parts = []
    for model in ("A", "B"):
        sampled = np.empty(n_users, dtype=np.int64)
        for u, rank in enumerate(full[model]):
            # the other items' positions in the whole ranking: 1..n_items without the held-out one
            drawn = sample_rng.choice(n_items - 1, size=negatives, replace=False) + 1
            drawn = np.where(drawn >= rank, drawn + 1, drawn)
            sampled[u] = 1 + int(np.count_nonzero(drawn < rank))
        parts.append(
            pd.DataFrame(
                {"model": model, "user": np.arange(n_users), "full": full[model], "sampled": sampled}
            )
        )
    return pd.concat(parts, ignore_index=True)


def sampled_evaluation(
    *,
    n_users: int = 500,
    n_items: int = 10_000,
    negatives: int = 100,
    k: int = 10,
    seed: int = 0,
) -> pd.DataFrame:
    """Mean nDCG@k of two generated models, against the whole catalogue and against sampled items.

    The positions are :func:`sampled_positions`'; nDCG@k of a list with one relevant item is
    computed by the core on the top k + 1 positions (:func:`one_relevant_ndcg`). Columns:
    ``model``, ``full``, ``sampled``.

    >>> t = sampled_evaluation(n_users=200).set_index("model")
    >>> bool(t.loc["A", "full"] > t.loc["B", "full"]), bool(t.loc["A", "sampled"] < t.loc["B", "sampled"])
    (True, True)
    """
    pos = sampled_positions(n_users=n_users, n_items=n_items, negatives=negatives, seed=seed)
    # a list's nDCG@k depends only on min(position, k + 1) (positions count from 1): k + 1 values
    by_position = {p: one_relevant_ndcg(p, k) for p in range(1, k + 2)}
    rows = []
    for model, part in pos.groupby("model", sort=True):
        rows.append(
            {
                "model": model,
                "full": float(np.mean([by_position[min(int(r), k + 1)] for r in part["full"]])),
                "sampled": float(np.mean([by_position[min(int(r), k + 1)] for r in part["sampled"]])),
            }
        )
    return pd.DataFrame(rows, columns=["model", "full", "sampled"])


def one_relevant_ndcg(position: int, k: int) -> float:
    """nDCG@k of a list whose only relevant item is at ``position`` (the core, on k + 1 items)."""
    rel = np.zeros(min(position, k + 1))
    rel[-1] = 1.0
    return ndcg(rel, k=k)


# --- 10. LightGBM's label_gain -----------------------------------------------------------------

#: The labels LightGBM's default ``label_gain`` (2^i - 1 for i = 0..30) covers.
LIGHTGBM_DEFAULT_LABELS = 31


@dataclass(frozen=True, slots=True)
class LabelGain:
    """Grades mapped to LightGBM labels: ``levels`` (the distinct grades, ascending),
    ``labels`` (each item's level index 0..m-1), ``label_gain`` (each level's gain) and the
    nDCG of the grades under ``gain`` and of the labels under ``label_gain`` (equal)."""

    levels: tuple[float, ...]
    labels: tuple[int, ...]
    label_gain: tuple[float, ...]
    ndcg_grades: float
    ndcg_labels: float


def label_gain_mapping(grades: ArrayLike, *, gain: Gain = "exponential", k: int | None = None) -> LabelGain:
    """Map grades (any non-negative numbers) to labels 0..m-1 and give each its gain.

    LightGBM takes integer labels below ``len(label_gain)`` (31 by default) and uses
    ``label_gain[label]`` as the gain; with the mapping, every grade keeps the gain ``gain``
    gives it, so nDCG is unchanged (both numbers from the core).

    >>> m = label_gain_mapping([72, 0, 12.5, 72], gain="linear")
    >>> m.levels, m.labels, m.label_gain
    ((0.0, 12.5, 72.0), (2, 0, 1, 2), (0.0, 12.5, 72.0))
    """
    rel = as_relevance(grades)
    levels, labels = np.unique(rel, return_inverse=True)
    table = apply_gain(levels, gain)
    return LabelGain(
        levels=tuple(float(x) for x in levels),
        labels=tuple(int(x) for x in labels),
        label_gain=tuple(float(x) for x in table),
        ndcg_grades=ndcg(rel, k=k, gain=gain),
        ndcg_labels=ndcg(table[labels], k=k, gain="linear"),
    )
