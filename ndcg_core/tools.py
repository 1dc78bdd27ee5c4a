"""What well-known tools compute: each tool's nDCG of one list, by the core with the tool's options.

Every tool computes "nDCG", yet two tools given the same grades and scores can disagree. They
differ in five choices, and this module makes each choice explicit, then calls the core's own
functions with it (no arithmetic of its own):

- the gain: ``rel`` (linear), ``2^rel - 1`` (exponential) or 1 for every relevant item (binary);
- the discount: ``1 / log2(i + 1)`` for all of them (Spark's ``1 / ln(i + 1)`` cancels);
- the order of tied scores: averaged, input order, document id descending, or random;
- where the ideal comes from: the scored list, or every judged item of the query (``pool``);
- what a list with nothing relevant (IDCG = 0) scores: 0 or 1.

Sources, as the "variants and libraries" page cites them:

- scikit-learn, ranx, trec_eval (pytrec_eval), Spark MLlib: checked by running them
  (``../shared/TEACHING.md`` §7).
- LightGBM: ``src/metric/dcg_calculator.cpp`` (``DefaultLabelGain``: 2^i - 1; discount
  ``1 / log2(2 + i)`` for 0-based i; ``std::stable_sort`` by score; ``CheckLabel`` rejects
  non-integer labels) and ``src/metric/rank_metric.hpp`` (a query with IDCG = 0 scores 1).
- XGBoost: ``src/common/ranking_utils.h`` (``ndcg_exp_gain`` default true: 2^rel - 1;
  ``CalcDCGDiscount``: ``1 / log2(i + 2)``; integer labels required with exponential gain),
  ``src/common/algorithm.h`` (``ArgSort`` is a stable sort) and the parameter documentation
  (``ndcg`` scores a list without positive samples as 1, ``ndcg-`` as 0).
- TensorFlow Ranking: ``tensorflow_ranking/python/metrics_impl.py`` (default gain
  ``2^label - 1``, rank discount ``1 / log2(1 + rank)``, ``divide_no_nan``) and
  ``tensorflow_ranking/python/utils.py`` (``sort_by_scores(..., shuffle_ties=True)``: tied
  scores in random order, so the expected value is the tie average).
- torchmetrics: ``src/torchmetrics/functional/retrieval/ndcg.py`` (``retrieval_normalized_dcg``:
  the target used as the gain, ``1 / log2(i + 2)``, ties averaged by a translation of
  scikit-learn's ``_tie_average_dcg``, an ideal of 0 gives 0; targets must be integers or bool).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from .metrics import idcg, ndcg
from .sklearn_compat import ndcg_score
from .steps import default_labels
from .ties import ndcg_from_scores, rank_by_score
from .validate import NDCGInputError, as_relevance, as_scores, check_k, check_labels, check_same_length

__all__ = ["TOOL_COLUMNS", "TOOLS", "Tool", "tool_scores"]

#: The columns of :func:`tool_scores`, in order.
TOOL_COLUMNS: tuple[str, ...] = (
    "tool", "label", "call", "gain", "discount", "ties", "ideal", "empty", "max_grade", "ndcg",
    "status", "source",
)

#: Largest grade LightGBM's default ``label_gain`` (2^i - 1 for i = 0..30) accepts, and
#: XGBoost's exponential gain (``MaxRel() == 31``).
_LIGHTGBM_MAX_LABEL = 30
_XGBOOST_MAX_LABEL = 31


@dataclass(frozen=True, slots=True)
class Tool:
    """One tool's default nDCG settings.

    ``gain``: ``"linear"``, ``"exponential"`` or ``"binary"``; ``ties``: ``"average"``
    (McSherry & Najork), ``"input"`` (a stable sort: tied items keep their input order),
    ``"id_desc"`` (document id descending), ``"ignore"`` (scikit-learn's ``ignore_ties`` order:
    the later input index first) or ``"random"`` (expected value = the average); ``ideal``:
    ``"list"`` or ``"pool"``; ``empty``: the score of a list with IDCG = 0; ``grades``:
    ``"any"``, ``"integer"`` (non-integer grades are an error) or ``"truncate"``; ``label``:
    a short name, unique per row.
    """

    name: str
    label: str
    call: str
    gain: str
    ties: str
    ideal: str
    empty: float
    grades: str
    source: str
    max_grade: int | None = None


#: The tools in the order the page lists them.
TOOLS: tuple[Tool, ...] = (
    Tool("scikit-learn", "scikit-learn", "ndcg_score(y_true, y_score)",
         "linear", "average", "list", 0.0, "any", "TEACHING.md §7 (run)"),
    Tool("scikit-learn", "scikit-learn ignore_ties", "ndcg_score(..., ignore_ties=True)",
         "linear", "ignore", "list", 0.0, "any", "TEACHING.md §7 (run)"),
    Tool("ranx", "ranx ndcg", 'evaluate(qrels, run, "ndcg")',
         "linear", "input", "pool", 0.0, "truncate", "TEACHING.md §7 (run)"),
    Tool("ranx", "ranx ndcg_burges", 'evaluate(qrels, run, "ndcg_burges")',
         "exponential", "input", "pool", 0.0, "truncate", "TEACHING.md §7 (run)"),
    Tool("trec_eval", "trec_eval", "-m ndcg / ndcg_cut.k",
         "linear", "id_desc", "pool", 0.0, "integer", "TEACHING.md §7 (run)"),
    Tool("Spark MLlib (Python)", "Spark MLlib", "RankingMetrics(...).ndcgAt(k)",
         "binary", "input", "pool", 0.0, "any", "TEACHING.md §7 (run)"),
    Tool("LightGBM", "LightGBM", 'metric="ndcg", eval_at=[k]',
         "exponential", "input", "list", 1.0, "integer",
         "src/metric/dcg_calculator.cpp, src/metric/rank_metric.hpp", _LIGHTGBM_MAX_LABEL),
    Tool("XGBoost", "XGBoost", 'eval_metric="ndcg@k"',
         "exponential", "input", "list", 1.0, "integer",
         "src/common/ranking_utils.h, src/common/algorithm.h; docs: parameter.rst",
         _XGBOOST_MAX_LABEL),
    Tool("TensorFlow Ranking", "TF Ranking", "tfr.keras.metrics.NDCGMetric(topn=k)",
         "exponential", "random", "list", 0.0, "any",
         "tensorflow_ranking/python/metrics_impl.py, tensorflow_ranking/python/utils.py"),
    Tool("torchmetrics", "torchmetrics", "retrieval_normalized_dcg(preds, target, top_k=k)",
         "linear", "average", "list", 0.0, "integer",
         "src/torchmetrics/functional/retrieval/ndcg.py"),
)


def _order_id_desc(scores: NDArray[np.float64], labels: Sequence[str]) -> NDArray[np.intp]:
    """trec_eval's order: score descending, then document id descending (as text)."""
    by_label = sorted(range(len(labels)), key=lambda i: labels[i], reverse=True)
    by_label_arr = np.asarray(by_label, dtype=np.intp)
    return by_label_arr[np.argsort(-scores[by_label_arr], kind="stable")]


def _ordered(tool: Tool, rel: NDArray[np.float64], sc: NDArray[np.float64],
             labels: Sequence[str]) -> NDArray[np.float64]:
    """The grades in the order the tool ranks them (for tools that do not average ties)."""
    if tool.ties == "id_desc":
        return rel[_order_id_desc(sc, labels)]
    ties = {"input": "average", "ignore": "ignore"}[tool.ties]  # "average" = input order here
    return rank_by_score(rel, sc, ties=ties).relevance


def _one(tool: Tool, rel: NDArray[np.float64], sc: NDArray[np.float64], labels: Sequence[str],
         k: int | None, pool: NDArray[np.float64] | None) -> tuple[float, str]:
    """(nDCG@k as the tool computes it, status); NaN with a status where the tool refuses."""
    whole = np.floor(rel) == rel
    if tool.grades == "integer" and not whole.all():
        return float("nan"), "rejects_fraction"
    if tool.max_grade is not None and (rel > tool.max_grade).any():
        return float("nan"), "rejects_large"
    if tool.grades == "truncate":
        rel = np.floor(rel)
        pool = None if pool is None else np.floor(pool)
    used_pool = pool if tool.ideal == "pool" else None
    gain = "linear" if tool.gain == "binary" else tool.gain
    if tool.gain == "binary":
        rel = (rel > 0).astype(np.float64)
        used_pool = None if used_pool is None else (used_pool > 0).astype(np.float64)
    if tool.name == "scikit-learn":
        try:
            value = ndcg_score([rel], [sc], k=k, ignore_ties=tool.ties == "ignore")
        except NDCGInputError:
            return float("nan"), "rejects_single"
        return value, "empty" if idcg(rel, k=k) == 0 else "ok"
    if idcg(rel, k=k, gain=gain, pool=used_pool) == 0:
        return tool.empty, "empty"
    if tool.ties in ("average", "random"):
        return ndcg_from_scores(rel, sc, k=k, gain=gain, ties="average", pool=used_pool), "ok"
    return ndcg(_ordered(tool, rel, sc, labels), k=k, gain=gain, pool=used_pool), "ok"


def tool_scores(
    relevance: ArrayLike,
    scores: ArrayLike | None = None,
    *,
    k: int | None = None,
    pool: ArrayLike | None = None,
    labels: Sequence[Any] | None = None,
) -> pd.DataFrame:
    """nDCG@k of one list as each tool of :data:`TOOLS` computes it by default.

    Parameters
    ----------
    relevance : array-like of float
        The items' grades (in rank order when ``scores`` is None, else in input order).
    scores : array-like of float, optional
        The system's scores; ``None`` means the list is already ranked (no ties).
    k : int, optional
        Cutoff; ``None`` means the whole list (and, for tools whose ideal is the judged pool,
        the whole pool).
    pool : array-like of float, optional
        Grades of every judged item of the query, the listed ones included; tools whose ideal
        comes from the judged items (ranx, trec_eval, Spark's label set) use it, the others
        ignore it, as they only see the scored list.
    labels : sequence of str, optional
        Document ids (trec_eval breaks ties by them); default D1, D2, ...

    Returns
    -------
    pandas.DataFrame
        One row per tool, the columns of :data:`TOOL_COLUMNS`: ``tool``, ``label`` (a short
        name, unique per row), ``call`` (the call
        with its default settings), ``gain``, ``discount``, ``ties``, ``ideal``, ``empty``
        (the score when IDCG = 0), ``max_grade`` (the largest grade the tool accepts, NaN for no
        limit), ``ndcg`` (NaN where the tool refuses the input), ``status`` (``"ok"``,
        ``"empty"`` for IDCG = 0, ``"rejects_fraction"`` for non-integer grades,
        ``"rejects_large"`` for grades above ``max_grade``, ``"rejects_single"``
        for scikit-learn on a one-item list) and ``source``.

    Raises
    ------
    NDCGInputError
        On invalid grades, scores, ``k``, labels or pool, or different lengths.

    The tie example of TEACHING.md §3 and §7:

    >>> t = tool_scores([7, 4, 1, 0, 0], [0.9, 0.5, 0.6, 0.9, 0.9])
    >>> t[["tool", "ndcg"]].round(4).head(5).to_numpy().tolist()
    [['scikit-learn', 0.6934], ['scikit-learn', 0.5465], ['ranx', 0.8957], ['ranx', 0.9728], ['trec_eval', 0.5465]]
    """
    rel = as_relevance(relevance)
    n = rel.size
    sc = np.arange(n, 0, -1, dtype=np.float64) if scores is None else as_scores(scores)
    check_same_length(rel, sc, what="grades_and_scores")
    check_k(k, n)
    names = default_labels(n) if labels is None else check_labels(list(labels))
    check_same_length(names, rel, what="labels_and_grades")
    judged = None if pool is None else as_relevance(pool, what="judged_pool")
    if judged is not None:
        idcg(rel, pool=judged)  # raises unless the pool holds every graded item of the list
    rows = []
    for tool in TOOLS:
        value, status = _one(tool, rel, sc, names, k, judged)
        rows.append({
            "tool": tool.name, "label": tool.label, "call": tool.call, "gain": tool.gain, "discount": "log2",
            "ties": tool.ties, "ideal": tool.ideal, "empty": tool.empty,
            "max_grade": np.nan if tool.max_grade is None else float(tool.max_grade), "ndcg": value,
            "status": status, "source": tool.source,
        })
    return pd.DataFrame(rows, columns=list(TOOL_COLUMNS))

