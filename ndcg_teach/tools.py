"""What well-known tools compute: each tool's nDCG of one list, by the core with the tool's options.

Every tool computes "nDCG", yet two tools given the same grades and scores can disagree. They
differ in five choices, and this module makes each choice explicit, then calls the core's own
functions with it (no arithmetic of its own):

- the gain: ``rel`` (linear), ``2^rel - 1`` (exponential) or 1 for every relevant item (binary);
- the discount: ``1 / log2(i + 1)`` for all of them (Spark's ``1 / ln(i + 1)`` cancels);
- the order of tied scores: averaged, input order, trec_eval's (document id descending),
  scikit-learn's ``ignore_ties`` order, or random (names of :data:`ndcg_core.ties.TIES`);
- where the ideal comes from: the scored list, or every judged item of the query (``pool``);
- what a list with nothing relevant (IDCG = 0) scores: 0 or 1 (:func:`nothing_relevant_reports`,
  the one place pages read it from), kept apart from a query the system returned nothing for
  (:data:`NOTHING_RETURNED`).

Sources, as the "variants and libraries" page cites them:

- scikit-learn, ranx, trec_eval (pytrec_eval), Spark MLlib: checked by running them
  (``../shared/TEACHING.md`` §7). trec_eval truncates non-integer grades (it reads them with
  ``atol``); pytrec_eval rejects them. ranx sorts with Numba's ``np.argsort`` (a quicksort):
  a list of at most 15 items keeps tied items in input order; from 16 items any tie, even of
  two, can be reordered. The order is deterministic, and :func:`ndcg_core.ties.ranx_order`
  reproduces it, so the ranx rows show ranx's own number.
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
- gdeval (``gdeval.pl``, the TREC Web track's script, 2010-2014): gain ``2^rel - 1`` (``sub
  dcg``), discount ``1 / ln(i + 2)`` for 0-based i (the base cancels in nDCG), the ideal from
  every judged item of the topic with a grade above 0, cut at the same k; the run sorted by
  score, then document id descending as text (``runOrder``, trec_eval's order); grades must be
  integers up to ``$MAX_JUDGMENT`` = 4 (negative grades count 0); a topic with no relevant
  judged item is left out of the mean (``topicDone``); version 1.2 always reports k = 20,
  1.2a takes k as its third argument.
- torchmetrics: ``src/torchmetrics/functional/retrieval/ndcg.py`` (``retrieval_normalized_dcg``:
  the target used as the gain, ``1 / log2(i + 2)``, ties averaged by a translation of
  scikit-learn's ``_tie_average_dcg``, an ideal of 0 gives 0; its docstring asks for integer
  targets, but non-integer targets are used as given, as gains) and the class
  ``RetrievalNormalizedDCG``, whose ``empty_target_action`` scores such a query 0 (``"neg"``,
  the default) or 1 (``"pos"``), skips it (``"skip"``) or raises (``"error"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from ndcg_core.gains import Gain, apply_gain
from ndcg_core.options import Ideal
from ndcg_core.ranked import idcg, ndcg
from ndcg_core.sklearn_compat import ndcg_score
from ndcg_core.steps import default_labels
from ndcg_core.ties import Ties, ndcg_from_scores, rank_by_score, ranx_order
from ndcg_core.validate import (
    NDCGInputError,
    as_relevance,
    as_scores,
    check_k,
    check_labels,
    check_same_length,
)

__all__ = [
    "EMPTY_SKIP",
    "NOTHING_RETURNED",
    "TIE_TOOLS",
    "TOOLS",
    "TOOL_COLUMNS",
    "Tool",
    "ToolGain",
    "ToolGrades",
    "ToolTies",
    "nothing_relevant_reports",
    "tie_calls",
    "tool_call",
    "tool_scores",
]

#: The columns of :func:`tool_scores`, in order.
TOOL_COLUMNS: tuple[str, ...] = (
    "tool",
    "label",
    "call",
    "gain",
    "discount",
    "ties",
    "ideal",
    "empty",
    "max_grade",
    "grades",
    "ndcg",
    "status",
    "source",
)

#: Largest grade LightGBM's default ``label_gain`` (2^i - 1 for i = 0..30) accepts, and
#: XGBoost's exponential gain (``MaxRel() == 31``).
_LIGHTGBM_MAX_LABEL = 30
_XGBOOST_MAX_LABEL = 31
#: gdeval's ``$MAX_JUDGMENT``: a larger grade in the qrels is a format error.
_GDEVAL_MAX_LABEL = 4
#: From this many items (tied or not) ranx's order of tied items can differ from the input
#: order (TEACHING.md §7; ranx sorts with Numba's quicksort, whose insertion sort, which is
#: stable, serves only runs of at most 15 items).
RANX_REORDERS_FROM = 16


#: A tool's gain: the core's (:data:`ndcg_core.gains.Gain`), or ``"binary"`` (relevant or not).
ToolGain = Gain | Literal["binary"]
#: A tool's tie order: the core's (:data:`ndcg_core.ties.Ties`), or one of its own.
ToolTies = Ties | Literal["ranx", "random", "ranked"]
#: How a tool reads a grade.
ToolGrades = Literal["any", "integer", "truncate", "positive"]


@dataclass(frozen=True, slots=True)
class Tool:
    """One tool's default nDCG settings.

    ``gain``: ``"linear"``, ``"exponential"`` or ``"binary"``; ``ties``: a name of
    :data:`ndcg_core.ties.TIES` (``"average"``, ``"input"``, ``"trec_eval"``, ``"ignore"``)
    or ``"ranx"`` (ranx's own order: Numba's quicksort, :func:`ndcg_core.ties.ranx_order`;
    input order for lists of fewer than :data:`RANX_REORDERS_FROM` items), ``"random"`` (shuffled:
    the expected value is the average) or ``"ranked"`` (the tool
    takes a list already ranked; shown here sorted stably); ``ideal``: ``"list"`` or ``"pool"``;
    ``empty``: the score of a list with IDCG = 0 (nothing relevant); ``grades``: ``"any"``
    (used as given), ``"integer"`` (non-integer grades are an error), ``"truncate"`` or
    ``"positive"`` (PySpark: any grade above 0 counts as relevant);
    ``label``: a short name, unique per row; ``call``: the call with the cutoff, ``{k}``
    standing for it, and ``call_all`` the call without a cutoff (``{k}`` there means the list
    length, for tools that need one); ``skips_empty``: the tool leaves a query with nothing
    relevant out of its mean (``empty`` is then NaN: it reports no value for it);
    ``cutoff_always``: the tool always cuts at some k, the ideal too (without a cutoff, the
    call and the value use the list's length).
    """

    name: str
    label: str
    call: str
    call_all: str
    gain: ToolGain
    ties: ToolTies
    ideal: Ideal
    empty: float
    grades: ToolGrades
    source: str
    max_grade: int | None = None
    skips_empty: bool = False
    cutoff_always: bool = False


#: The tools in the order the page lists them (TEACHING.md §7, row by row).
TOOLS: tuple[Tool, ...] = (
    Tool(
        "scikit-learn",
        "scikit-learn",
        "ndcg_score(y_true, y_score, k={k})",
        "ndcg_score(y_true, y_score)",
        "linear",
        "average",
        "list",
        0.0,
        "any",
        "TEACHING.md §7 (run)",
    ),
    Tool(
        "scikit-learn",
        "scikit-learn ignore_ties",
        "ndcg_score(y_true, y_score, k={k}, ignore_ties=True)",
        "ndcg_score(y_true, y_score, ignore_ties=True)",
        "linear",
        "ignore",
        "list",
        0.0,
        "any",
        "TEACHING.md §7 (run)",
    ),
    Tool(
        "ranx",
        "ranx ndcg",
        'ranx.evaluate(qrels, run, "ndcg@{k}")',
        'ranx.evaluate(qrels, run, "ndcg")',
        "linear",
        "ranx",
        "pool",
        0.0,
        "truncate",
        "TEACHING.md §7 (run)",
    ),
    Tool(
        "ranx",
        "ranx ndcg_burges",
        'ranx.evaluate(qrels, run, "ndcg_burges@{k}")',
        'ranx.evaluate(qrels, run, "ndcg_burges")',
        "exponential",
        "ranx",
        "pool",
        0.0,
        "truncate",
        "TEACHING.md §7 (run)",
    ),
    Tool(
        "trec_eval",
        "trec_eval",
        "trec_eval -m ndcg_cut.{k} qrels run",
        "trec_eval -m ndcg qrels run",
        "linear",
        "trec_eval",
        "pool",
        0.0,
        "truncate",
        "TEACHING.md §7 (run)",
    ),
    Tool(
        "Spark MLlib (Python)",
        "Spark MLlib",
        "RankingMetrics(predictionAndLabels).ndcgAt({k})",
        "RankingMetrics(predictionAndLabels).ndcgAt({k})",
        "binary",
        "ranked",
        "pool",
        0.0,
        "positive",
        "TEACHING.md §7 (run)",
    ),
    Tool(
        "LightGBM",
        "LightGBM",
        '{{"metric": "ndcg", "eval_at": [{k}]}}',
        '{{"metric": "ndcg", "eval_at": [{k}]}}',
        "exponential",
        "input",
        "list",
        1.0,
        "integer",
        "src/metric/dcg_calculator.cpp, src/metric/rank_metric.hpp",
        _LIGHTGBM_MAX_LABEL,
    ),
    Tool(
        "XGBoost",
        "XGBoost",
        'eval_metric="ndcg@{k}"',
        'eval_metric="ndcg"',
        "exponential",
        "input",
        "list",
        1.0,
        "integer",
        "src/common/ranking_utils.h, src/common/algorithm.h; docs: parameter.rst",
        _XGBOOST_MAX_LABEL,
    ),
    Tool(
        "TensorFlow Ranking",
        "TF Ranking",
        "tfr.keras.metrics.NDCGMetric(topn={k})",
        "tfr.keras.metrics.NDCGMetric()",
        "exponential",
        "random",
        "list",
        0.0,
        "any",
        "tensorflow_ranking/python/metrics_impl.py, tensorflow_ranking/python/utils.py",
    ),
    Tool(
        "torchmetrics",
        "torchmetrics",
        "retrieval_normalized_dcg(preds, target, top_k={k})",
        "retrieval_normalized_dcg(preds, target)",
        "linear",
        "average",
        "list",
        0.0,
        "any",
        "src/torchmetrics/functional/retrieval/ndcg.py",
    ),
    Tool(
        "gdeval",
        "gdeval",
        "gdeval.pl qrels run {k}",
        "gdeval.pl qrels run {k}",
        "exponential",
        "trec_eval",
        "pool",
        float("nan"),
        "integer",
        "gdeval.pl 1.2a (TREC Web track 2010-2014): sub dcg, runOrder, topicDone",
        _GDEVAL_MAX_LABEL,
        skips_empty=True,
        cutoff_always=True,
    ),
)

#: Tools that can leave a query with nothing relevant out instead of scoring it, and how.
#: torchmetrics' option is the class ``RetrievalNormalizedDCG``'s (``"neg"``, the default, scores
#: such a query 0, ``"pos"`` 1, ``"skip"`` leaves it out, ``"error"`` raises); the functional
#: ``retrieval_normalized_dcg`` of the Call column has no such option and reports 0.
EMPTY_SKIP: dict[str, str] = {"torchmetrics": 'RetrievalNormalizedDCG(empty_target_action="skip")'}
#: XGBoost's metric that scores a query with nothing relevant 0 instead of 1.
XGBOOST_EMPTY_ZERO = "ndcg@k-"

#: A query for which the system returned **nothing** (not the same as nothing relevant):
#: what each tool does with it (TEACHING.md §1). ``"left_out"``: left out of the mean;
#: ``"refused_unless"``: an error unless the option is given, which counts the query as 0.
NOTHING_RETURNED: tuple[tuple[str, str, str], ...] = (
    ("pytrec_eval", "left_out", ""),
    ("trec_eval 9", "left_out", ""),
    ("trec_eval 10", "refused_unless", "-c"),
    ("ranx", "refused_unless", "make_comparable=True"),
)


def nothing_relevant_reports() -> dict[float, tuple[str, ...]]:
    """What each tool of :data:`TOOLS` reports for a list with nothing relevant (IDCG = 0).

    nDCG is 0 / 0 there, undefined; tools pick a value. Keys are the values reported, each
    with the tools' names in :data:`TOOLS` order (a tool with two rows once). This is the one
    place the app reads it from.

    >>> nothing_relevant_reports()[1.0]
    ('LightGBM', 'XGBoost')
    >>> nothing_relevant_reports()[0.0][:3]
    ('scikit-learn', 'ranx', 'trec_eval')
    """
    out: dict[float, list[str]] = {}
    for tool in TOOLS:
        if tool.skips_empty:
            continue
        names = out.setdefault(tool.empty, [])
        if tool.name not in names:
            names.append(tool.name)
    return {value: tuple(names) for value, names in sorted(out.items())}


def tool_call(tool: Tool, k: int | None, n: int) -> str:
    """The tool's whole call for cutoff ``k`` (``None``: no cutoff) on a list of ``n`` items.

    Tools that always need a cutoff (Spark's ``ndcgAt``, LightGBM's ``eval_at``, whose default
    is 1 to 5) get the list length when there is none.

    >>> tool_call(TOOLS[0], 5, 8), tool_call(TOOLS[0], None, 8)
    ('ndcg_score(y_true, y_score, k=5)', 'ndcg_score(y_true, y_score)')
    >>> tool_call(TOOLS[4], 5, 8), tool_call(TOOLS[5], None, 8)
    ('trec_eval -m ndcg_cut.5 qrels run', 'RankingMetrics(predictionAndLabels).ndcgAt(8)')
    """
    return (tool.call_all if k is None else tool.call).format(k=n if k is None else k)


def _ordered(
    tool: Tool, rel: NDArray[np.float64], sc: ArrayLike, labels: Sequence[str]
) -> NDArray[np.float64]:
    """The grades in the order the tool ranks them (for tools that do not average ties)."""
    # "average" and "random" never come here (_one averages them); rank_by_score checks the rest
    if tool.ties == "ranx":
        return rel[ranx_order(sc)]
    ties = cast(Ties, "input" if tool.ties == "ranked" else tool.ties)
    return rank_by_score(rel, sc, ties=ties, labels=labels).relevance


def _one(
    tool: Tool,
    rel: NDArray[np.float64],
    sc: ArrayLike,
    labels: Sequence[str],
    k: int | None,
    pool: NDArray[np.float64] | None,
) -> tuple[float, str]:
    """(nDCG@k as the tool computes it, status); NaN with a status where the tool refuses.

    Statuses, the first that applies: ``rejects_fraction``, ``rejects_large``,
    ``rejects_single``, ``empty`` (IDCG = 0), ``truncated`` (non-integer grades cut to
    integers), ``fraction_as_given`` (non-integer grades used as gains), ``ties_reordered``
    (ranx on a list of :data:`RANX_REORDERS_FROM` items or more with tied scores: ranx's
    quicksort may put tied items out of input order; the value shown is ranx's own order),
    ``ok``.
    """
    if tool.cutoff_always and k is None:
        k = rel.size
    fractional = bool((np.floor(rel) != rel).any()) or (
        pool is not None and bool((np.floor(pool) != pool).any())
    )
    if tool.grades == "integer" and fractional:
        return float("nan"), "rejects_fraction"
    if tool.max_grade is not None and (rel > tool.max_grade).any():
        return float("nan"), "rejects_large"
    note = "ok"
    if tool.grades == "truncate":
        rel = np.floor(rel)
        pool = None if pool is None else np.floor(pool)
        note = "truncated" if fractional else note
    elif fractional and tool.gain != "binary":
        note = "fraction_as_given"
    if note == "ok" and tool.ties == "ranx" and rel.size >= RANX_REORDERS_FROM:
        sizes = np.unique(as_scores(sc), return_counts=True)[1]
        note = "ties_reordered" if sizes.max() > 1 else note
    used_pool = pool if tool.ideal == "pool" else None
    gain: Gain = "linear" if tool.gain == "binary" else tool.gain  # binary: 0/1 grades, linear gain
    if tool.gain == "binary":
        rel = (rel > 0).astype(np.float64)
        used_pool = None if used_pool is None else (used_pool > 0).astype(np.float64)
    if tool.name == "scikit-learn":
        try:
            # One row holding an array-like is array-like; numpy's ArrayLike alias cannot say so.
            value = ndcg_score([rel], cast(ArrayLike, [sc]), k=k, ignore_ties=tool.ties == "ignore")
        except NDCGInputError:
            return float("nan"), "rejects_single"
        return value, "empty" if idcg(rel, k=k) == 0 else note
    if idcg(rel, k=k, gain=gain, pool=used_pool) == 0:
        return (float("nan"), "empty_left_out") if tool.skips_empty else (tool.empty, "empty")
    if tool.ties in ("average", "random"):
        return ndcg_from_scores(rel, sc, k=k, gain=gain, ties="average", pool=used_pool), note
    return ndcg(_ordered(tool, rel, sc, labels), k=k, gain=gain, pool=used_pool), note


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
        name, unique per row), ``call`` (the whole call with this ``k``, see
        :func:`tool_call`), ``gain``, ``discount``, ``ties``, ``ideal``, ``empty``
        (the score when IDCG = 0), ``max_grade`` (the largest grade the tool accepts, NaN for no
        limit), ``grades`` (what the tool does with non-integer grades), ``ndcg`` (NaN where
        the tool refuses the input), ``status`` (``"ok"``,
        ``"empty"`` for IDCG = 0, ``"rejects_fraction"`` for non-integer grades,
        ``"rejects_large"`` for grades above ``max_grade``, ``"rejects_single"``
        for scikit-learn on a one-item list, ``"truncated"``, ``"fraction_as_given"`` and
        ``"ties_reordered"``, ``"empty_left_out"`` for a tool that leaves a query with nothing
        relevant out of its mean: see ``_one``) and ``source``.

    Raises
    ------
    NDCGInputError
        On invalid grades, scores, ``k``, labels or pool, or different lengths.

    The tie example of TEACHING.md §3 and §7:

    >>> t = tool_scores([7, 4, 1, 0, 0], [0.9, 0.5, 0.6, 0.9, 0.9])
    >>> t[["label", "ndcg"]].round(4).to_numpy().tolist()[2:5]
    [['ranx ndcg', 0.8957], ['ranx ndcg_burges', 0.9728], ['trec_eval', 0.5465]]
    >>> t.loc[0, "ndcg"].round(4), t.loc[6, "ndcg"].round(4), t.loc[0, "call"]
    (np.float64(0.6934), np.float64(0.9728), 'ndcg_score(y_true, y_score)')
    """
    rel = as_relevance(relevance)
    n = rel.size
    # The scores stay as given (dtype too), so the ignore_ties row sorts them as scikit-learn does.
    sc: ArrayLike = np.arange(n, 0, -1, dtype=np.float64) if scores is None else scores
    check_same_length(rel, as_scores(sc), what="grades_and_scores")
    check_k(k, n)
    names = default_labels(n) if labels is None else check_labels(list(labels))
    check_same_length(names, rel, what="labels_and_grades")
    judged = None if pool is None else as_relevance(pool, what="judged_pool")
    if judged is not None:
        idcg(rel, pool=judged)  # raises unless the pool holds every graded item of the list
    rows = []
    for tool in TOOLS:
        value, status = _one(tool, rel, sc, names, k, judged)
        rows.append(
            {
                "tool": tool.name,
                "label": tool.label,
                "call": tool_call(tool, k, n),
                "gain": tool.gain,
                "discount": "log2",
                "ties": tool.ties,
                "ideal": tool.ideal,
                "empty": tool.empty,
                "max_grade": np.nan if tool.max_grade is None else float(tool.max_grade),
                "grades": tool.grades,
                "ndcg": value,
                "status": status,
                "source": tool.source,
            }
        )
    return pd.DataFrame(rows, columns=list(TOOL_COLUMNS))


#: The tie treatments of the scores-and-ties page that are named after tools, and those tools.
TIE_TOOLS: dict[str, tuple[str, ...]] = {
    "average": ("scikit-learn",),
    "ignore": ("scikit-learn",),
    "input": ("LightGBM", "XGBoost"),
    "trec_eval": ("trec_eval",),
}


def tie_calls(
    relevance: ArrayLike,
    scores: ArrayLike,
    *,
    k: int | None,
    gain: str = "linear",
    discount: str = "log2",
) -> dict[str, str | None]:
    """For each tool-named tie treatment of :data:`TIE_TOOLS`: the call that returns the core's
    number under this gain and discount, or ``None`` when no call of the tool does.

    scikit-learn takes any gain pre-applied to ``y_true`` (it uses the values as gains) but only
    the discount 1/log(i + 1); trec_eval reads integer gains from the qrels (pre-applied too),
    breaks ties by document id and reads scores as float32 (trec_eval ≤ 9, pytrec_eval), so
    scores that only differ below float32 precision tie there; LightGBM and XGBoost take
    integer labels (0 to 30) with 2^rel − 1 by default, or the grade itself with
    ``label_gain`` / ``ndcg_exp_gain=false``. No tool offers Järvelin and Kekäläinen's discount.

    >>> calls = tie_calls([7, 4, 1, 0, 0], [0.9, 0.5, 0.6, 0.9, 0.9], k=5, gain="exponential")
    >>> calls["average"]
    'ndcg_score([2 ** np.asarray(grades) - 1], [scores], k=5)'
    >>> calls["trec_eval"]
    'trec_eval -m ndcg_cut.5 qrels run  # qrels: 2^rel − 1 for each grade (127, 15, 1, 0, 0)'
    >>> tie_calls([7, 4, 1, 0, 0], [0.9, 0.5, 0.6, 0.9, 0.9], k=5, discount="jarvelin")
    {'average': None, 'ignore': None, 'input': None, 'trec_eval': None}
    """
    rel = as_relevance(relevance)
    sc = as_scores(scores)
    check_same_length(rel, sc, what="grades_and_scores")
    calls: dict[str, str | None] = dict.fromkeys(TIE_TOOLS)
    if discount != "log2":
        return calls
    cut = "" if k is None else f", k={k}"
    y_true = "[grades]" if gain == "linear" else "[2 ** np.asarray(grades) - 1]"
    calls["average"] = f"ndcg_score({y_true}, [scores]{cut})"
    calls["ignore"] = f"ndcg_score({y_true}, [scores]{cut}, ignore_ties=True)"
    integral = bool((np.floor(rel) == rel).all())
    if integral and rel.max() <= _LIGHTGBM_MAX_LABEL:
        at = rel.size if k is None else k
        if gain == "exponential":
            calls["input"] = (
                f'LightGBM {{"metric": "ndcg", "eval_at": [{at}]}} · XGBoost eval_metric="ndcg@{at}"'
            )
        else:
            label_gain = ", ".join(str(i) for i in range(int(rel.max()) + 1))
            calls["input"] = (
                f'LightGBM {{"metric": "ndcg", "eval_at": [{at}], "label_gain": [{label_gain}]}}'
                f' · XGBoost eval_metric="ndcg@{at}", ndcg_exp_gain=False'
            )
    float32_ties = np.unique(sc.astype(np.float32)).size != np.unique(sc).size
    if integral and not float32_ties:
        measure = "ndcg" if k is None else f"ndcg_cut.{k}"
        call = f"trec_eval -m {measure} qrels run"
        if gain == "exponential":
            gains = ", ".join(str(int(x)) for x in apply_gain(rel, "exponential"))
            call += f"  # qrels: 2^rel − 1 for each grade ({gains})"
        calls["trec_eval"] = call
    return calls
