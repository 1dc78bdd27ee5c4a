"""Comparing runs query by query: is run B better than run A, and can the gain be trusted?

The input is a long table with one row per (run, query) and a measure column (``ndcg``,
``ndcg@10``, ...), as the batch evaluation writes it. Every run must have a value for the same
queries: the tests are *paired*, each query measured under both runs. One run is the baseline
(the first in order of appearance, or the one named); every other run is compared with it:

- the mean of each run and the mean per-query difference (run − baseline);
- a bootstrap confidence interval of the mean difference: queries resampled with replacement,
  the same resamples for the run and the baseline (paired), seeded; percentile method (the
  alpha/2 and 1 − alpha/2 quantiles of the resampled means, ``numpy.quantile``'s linear
  interpolation, as ``scipy.stats.bootstrap(..., method="percentile")`` computes them);
- the paired t-test, by ``scipy.stats.ttest_rel`` itself, two-sided;
- the paired randomization test (sign flip; Fisher, as Smucker, Allan & Carterette 2007 use it
  for IR): under the null hypothesis each query's difference is as likely to have the other
  sign, so the statistic (the mean difference) is recomputed under sign flips. It enumerates
  all 2**n flips when 2**n <= ``n_resamples`` (exact, equal to
  ``scipy.stats.permutation_test(..., permutation_type="samples")``), otherwise it draws
  ``n_resamples`` seeded flips (Monte Carlo; p = (1 + count) / (1 + n_resamples), so never 0);
- wins, ties and losses per query (a tie is |difference| <= 1e-12, :data:`TIE_TOLERANCE`);
- with more than one compared run, Holm–Bonferroni adjusted p-values of both tests across the
  compared runs (:func:`holm`; with one compared run they equal the raw p-values).

Defined cases, so every number is finite: when every query is a tie, both tests give
p = 1.0 (the runs are equal on every query; SciPy's t is 0/0 there). When every query
differs by the same non-zero amount, SciPy's t is infinite and its p is 0.0, which is kept; the
randomization test's p then shows its floor, 2 / 2**n (exact).

Why the sign flip is done here and not by ``scipy.stats.permutation_test``: SciPy builds every
permutation as index arrays through a Python generator (``itertools.product``) and calls the
statistic on them, which is ~100x slower for 13 queries; here one matrix of ±1 times the
differences of all compared runs gives every flipped mean at once, in chunks of bounded size.

Contents
--------
compare_runs, Comparison, holm, TIE_TOLERANCE, PERMUTATIONS, RUN_COLUMNS, TEST_COLUMNS,
DIFFERENCE_COLUMNS
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from .batch import _check_columns, _shown
from .options import MAX_RESAMPLES
from .validate import check_choice, fail

__all__ = [
    "DIFFERENCE_COLUMNS",
    "PERMUTATIONS",
    "RUN_COLUMNS",
    "TEST_COLUMNS",
    "TIE_TOLERANCE",
    "Comparison",
    "compare_runs",
    "holm",
]

#: Two per-query values closer than this are a tie (neither a win nor a loss).
TIE_TOLERANCE = 1e-12
#: How the randomization test is done: ``"auto"`` (exact when 2**n_queries <= n_resamples),
#: ``"exact"`` (all 2**n_queries sign flips) or ``"monte_carlo"`` (n_resamples seeded flips).
PERMUTATIONS: tuple[str, ...] = ("auto", "exact", "monte_carlo")
Permutation = Literal["auto", "exact", "monte_carlo"]
#: Most queries the exact test may enumerate when asked for explicitly (2**20 sign flips).
MAX_EXACT_QUERIES = 20


#: Columns of :attr:`Comparison.runs` (one row per run, in order of appearance).
RUN_COLUMNS: tuple[str, ...] = ("run", "is_baseline", "n_queries", "mean", "median", "std", "min", "max")
#: Columns of :attr:`Comparison.tests` (one row per run compared with the baseline).
TEST_COLUMNS: tuple[str, ...] = (
    "run",
    "baseline",
    "n_queries",
    "mean",
    "baseline_mean",
    "mean_difference",
    "ci_low",
    "ci_high",
    "p_t_test",
    "p_randomization",
    "p_t_test_holm",
    "p_randomization_holm",
    "wins",
    "ties",
    "losses",
)
#: Columns of :attr:`Comparison.differences` (one row per compared run and query).
DIFFERENCE_COLUMNS: tuple[str, ...] = (
    "run",
    "order",
    "query",
    "value",
    "baseline_value",
    "difference",
    "outcome",
)

# Cells (resamples x queries) handled at once: bounds the memory of the resampling passes.
_CHUNK_CELLS = 1 << 20
_MAX_SEED = 2**32 - 1
_SIGNS = np.array([1.0, -1.0])


@dataclass(frozen=True, slots=True)
class Comparison:
    """Runs compared with a baseline, query by query (see :func:`compare_runs`).

    Attributes
    ----------
    runs : pandas.DataFrame
        One row per run in order of appearance, columns :data:`RUN_COLUMNS`: the mean, median,
        sample standard deviation (ddof = 1), smallest and largest per-query value.
    tests : pandas.DataFrame
        One row per run compared with the baseline, columns :data:`TEST_COLUMNS`.
        ``mean_difference`` is the mean of the per-query differences (run − baseline);
        ``ci_low`` / ``ci_high`` its bootstrap interval at ``confidence``; ``p_*`` two-sided
        p-values, ``p_*_holm`` Holm-adjusted across the rows; wins, ties and losses count
        queries.
    differences : pandas.DataFrame
        One row per compared run and query, columns :data:`DIFFERENCE_COLUMNS`, each run's
        queries sorted by ``difference``, largest gain first (``order`` 1, 2, ...; equal
        differences keep the order of the queries in the table): the topic-by-topic chart.
        ``outcome`` is ``"win"``, ``"tie"`` or ``"loss"`` for the compared run.
    measure : str
        The column compared.
    baseline : str
        The baseline run's name.
    n_queries : int
        Queries per run (the same for every run).
    confidence : float
        Level of the bootstrap interval.
    n_resamples : int
        Bootstrap resamples, and the Monte Carlo flips of the randomization test.
    seed : int
        The seed of both resamplings (the one given, or the fresh one drawn for ``None``).
    permutation : {"exact", "monte_carlo"}
        How the randomization test was done.
    n_permutations : int
        Sign flips it counted: 2**n_queries (exact) or ``n_resamples``.
    interval : str
        The bootstrap interval's method (``"percentile"``).
    tie_tolerance : float
        Largest |difference| counted as a tie.
    """

    runs: pd.DataFrame
    tests: pd.DataFrame
    differences: pd.DataFrame
    measure: str
    baseline: str
    n_queries: int
    confidence: float
    n_resamples: int
    seed: int
    permutation: Literal["exact", "monte_carlo"]
    n_permutations: int
    interval: str = "percentile"
    tie_tolerance: float = TIE_TOLERANCE


# --- public functions --------------------------------------------------------------------


def holm(p_values: ArrayLike) -> NDArray[np.float64]:
    """Holm–Bonferroni adjusted p-values (step-down; they control the family-wise error).

    Sort the m p-values ascending, p(1) <= ... <= p(m); the adjusted value of p(i) is
    max over j <= i of min(1, (m − j + 1) · p(j)), given back in the input's order.

    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=np.float64)
    m = p.size
    if m == 0:
        return p.copy()
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


def compare_runs(
    per_query: pd.DataFrame,
    *,
    measure: str = "ndcg",
    baseline: str | None = None,
    confidence: float = 0.95,
    n_resamples: int = 10_000,
    seed: int | None = 0,
    permutation: Permutation = "auto",
    run: str = "run",
    query: str = "query",
) -> Comparison:
    """Compare every run with a baseline: mean difference, bootstrap CI, paired tests.

    For each run other than the baseline, with d_q = value(run, q) − value(baseline, q) over
    the n queries: mean difference = (1/n) · Σ d_q; a percentile bootstrap interval of it;
    the paired t-test (``scipy.stats.ttest_rel``); the paired randomization test (signs of
    the d_q flipped, exact or Monte Carlo); wins (d_q > 1e-12), ties and losses; and the
    Holm-adjusted p-values of both tests across the compared runs.

    Parameters
    ----------
    per_query : pandas.DataFrame
        One row per (run, query) with the columns ``run``, ``query`` and ``measure``. Run
        names and query ids are compared as text; every run needs a finite value for the
        same queries (a missing or non-finite value is refused, never dropped: leave a query
        out of every run, or give it a value, e.g. 0 for a query the run did not answer).
    measure : str, default "ndcg"
        The column to compare, e.g. ``"ndcg@10"``.
    baseline : str, optional
        The baseline run's name; ``None`` takes the first run in the table.
    confidence : float, default 0.95
        Level of the bootstrap interval, strictly between 0 and 1.
    n_resamples : int, default 10000
        Bootstrap resamples, and the randomization test's flips when it is not exact; at
        most :data:`MAX_RESAMPLES` (1,000,000).
    seed : int or None, default 0
        Seed of the resampling (0 to 2**32 − 1), so results repeat; ``None`` draws a fresh
        one, which :attr:`Comparison.seed` reports. The bootstrap draws its resamples from
        ``numpy.random.default_rng(numpy.random.SeedSequence(seed).spawn(2)[0])``, the
        Monte Carlo flips (one bit of ``Generator.bytes`` per sign) from ``spawn(2)[1]``;
        every compared run uses the same draws.
    permutation : {"auto", "exact", "monte_carlo"}, default "auto"
        ``"auto"`` enumerates all 2**n sign flips when 2**n <= ``n_resamples``, else draws
        ``n_resamples`` of them; ``"exact"`` always enumerates (at most 20 queries).
    run, query : str
        Names of the run and query columns.

    Returns
    -------
    Comparison
        The tables ``runs``, ``tests`` and ``differences`` and the settings used.

    Raises
    ------
    NDCGInputError
        On a missing column, fewer than two runs or two queries, an unknown baseline, a run
        without a value for some query, a value twice for a (run, query), a value that is not
        a finite number, or an invalid option.

    Examples
    --------
    >>> table = pd.DataFrame({
    ...     "run": ["A"] * 4 + ["B"] * 4,
    ...     "query": ["q1", "q2", "q3", "q4"] * 2,
    ...     "ndcg": [0.5, 0.25, 0.75, 0.5, 0.75, 0.5, 0.75, 1.0],
    ... })
    >>> result = compare_runs(table)
    >>> result.baseline, result.permutation, result.n_permutations, result.seed
    ('A', 'exact', 16, 0)
    >>> row = result.tests.iloc[0]
    >>> float(row["mean_difference"]), int(row["wins"]), int(row["ties"]), int(row["losses"])
    (0.25, 3, 1, 0)
    >>> float(row["p_randomization"])  # 4 of the 16 sign flips reach |mean| >= 0.25
    0.25
    >>> result.differences["query"].tolist()
    ['q4', 'q1', 'q2', 'q3']
    """
    measure_name = _column_name(measure, "measure")
    run_name = _column_name(run, "run")
    query_name = _column_name(query, "query")
    confidence = _confidence(confidence)
    n_resamples = _positive_int(n_resamples, "samples")
    if n_resamples > MAX_RESAMPLES:
        fail("compare_too_many_resamples", limit=MAX_RESAMPLES, got=n_resamples)
    seed = _seed(seed)
    check_choice(permutation, PERMUTATIONS, option="permutation")
    if not isinstance(per_query, pd.DataFrame):
        fail("shape", what="per_query_table", rule="rule_data_frame", got=type(per_query).__name__)
    _check_columns(per_query, (run_name, query_name, measure_name))

    runs_text = _ids(per_query[run_name], run_name)
    queries_text = _ids(per_query[query_name], query_name)
    values = _numbers(per_query[measure_name], measure_name)
    run_codes, run_names = pd.factorize(runs_text)
    query_codes, query_ids = pd.factorize(queries_text)
    names = [str(name) for name in run_names]
    if len(names) < 2:
        fail("compare_too_few_runs", got=len(names))
    if query_ids.size < 2:
        fail("compare_too_few_queries", got=int(query_ids.size))
    base = _baseline_index(baseline, names)

    matrix = _matrix(run_codes, query_codes, values, names, query_ids, measure_name)
    n_queries = matrix.shape[0]
    exact = _exact(permutation, n_queries, n_resamples)
    others = [j for j in range(len(names)) if j != base]
    # differences of every compared run, one row per run (contiguous: each row is resampled)
    diffs = np.ascontiguousarray((matrix[:, others] - matrix[:, [base]]).T)
    streams = np.random.SeedSequence(seed).spawn(2)
    boot = _bootstrap_means(diffs, n_resamples, np.random.default_rng(streams[0]))
    alpha = (1.0 - confidence) / 2.0
    ci = np.quantile(boot, [alpha, 1.0 - alpha], axis=1)
    all_ties = np.all(np.abs(diffs) <= TIE_TOLERANCE, axis=1, keepdims=False).reshape(-1)
    p_t = np.array(
        [
            1.0 if tie else _t_test_p(matrix[:, j], matrix[:, base])
            for j, tie in zip(others, all_ties.tolist(), strict=True)
        ]
    )
    if exact:
        p_rand = _exact_sign_flip(diffs)
        n_permutations = 2**n_queries
    else:
        p_rand = _monte_carlo_sign_flip(diffs, n_resamples, np.random.default_rng(streams[1]))
        n_permutations = n_resamples
    p_rand[all_ties] = 1.0
    _check_finite(p_t, "p_t_test")

    tests = pd.DataFrame(
        {
            "run": [names[j] for j in others],
            "baseline": names[base],
            "n_queries": n_queries,
            "mean": matrix[:, others].mean(axis=0),
            "baseline_mean": float(matrix[:, base].mean()),
            "mean_difference": diffs.mean(axis=1),
            "ci_low": ci[0],
            "ci_high": ci[1],
            "p_t_test": p_t,
            "p_randomization": p_rand,
            "p_t_test_holm": holm(p_t),
            "p_randomization_holm": holm(p_rand),
            "wins": (diffs > TIE_TOLERANCE).sum(axis=1),
            "ties": (np.abs(diffs) <= TIE_TOLERANCE).sum(axis=1),
            "losses": (diffs < -TIE_TOLERANCE).sum(axis=1),
        },
        columns=list(TEST_COLUMNS),
    )
    return Comparison(
        runs=_run_table(matrix, names, base),
        tests=tests,
        differences=_difference_table(matrix, diffs, names, others, base, query_ids),
        measure=measure_name,
        baseline=names[base],
        n_queries=n_queries,
        confidence=confidence,
        n_resamples=n_resamples,
        seed=seed,
        permutation="exact" if exact else "monte_carlo",
        n_permutations=n_permutations,
    )


# --- validation ----------------------------------------------------------------------------


def _column_name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        fail("compare_column_name", option=what, got=repr(value)[:40])
    return value


def _positive_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        fail("shape", what=what, rule="rule_positive_integer", got=repr(value))
    return int(value)


def _confidence(value: Any) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not 0.0 < float(value) < 1.0  # NaN fails this too
    ):
        fail("shape", what="confidence", rule="rule_confidence", got=repr(value))
    return float(value)


def _seed(value: Any) -> int:
    if value is None:
        # a fresh seed from the operating system's entropy, reported so the result repeats
        return int(np.random.SeedSequence().generate_state(1, np.uint32)[0])
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 0 <= int(value) <= _MAX_SEED:
        fail("shape", what="seed", rule="rule_seed_or_none", got=repr(value), limit=_MAX_SEED)
    return int(value)


def _ids(series: pd.Series, column: str) -> pd.Series:
    """A run or query column as text; a missing id is refused (it could not be paired)."""
    missing = series.isna().to_numpy()
    if missing.any():
        fail("compare_missing_id", column=column, count=int(missing.sum()))
    return series.astype(str)


def _numbers(series: pd.Series, column: str) -> NDArray[np.float64]:
    # numbers, or text that reads as numbers (a CSV column read as text); not booleans or dates
    if pd.api.types.is_bool_dtype(series.dtype) or not (
        pd.api.types.is_numeric_dtype(series.dtype)
        or pd.api.types.is_string_dtype(series.dtype)
        or series.dtype == object
    ):
        fail("bad_values", column=column, count=len(series), rule="rule_number", value=_shown(series.iloc[0]))
    coerced = pd.to_numeric(series, errors="coerce")
    # a value that was there but is not a number (text) is refused here; NaN and infinity are
    # refused later, naming the run and the query
    not_number = (coerced.isna() & series.notna()).to_numpy()
    if not_number.any():
        first = int(np.argmax(not_number))
        fail(
            "bad_values",
            column=column,
            count=int(not_number.sum()),
            rule="rule_number",
            value=_shown(series.iloc[first]),
        )
    values: NDArray[np.float64] = coerced.to_numpy(dtype=np.float64, na_value=np.nan)
    return values


def _baseline_index(baseline: Any, names: list[str]) -> int:
    if baseline is None:
        return 0
    name = str(baseline)
    if name not in names:
        shown = ", ".join(repr(n) for n in names[:20]) + (", ..." if len(names) > 20 else "")
        fail("compare_unknown_baseline", baseline=_shown(name), runs=shown)
    return names.index(name)


def _matrix(
    run_codes: NDArray[np.intp],
    query_codes: NDArray[np.intp],
    values: NDArray[np.float64],
    names: list[str],
    query_ids: pd.Index,
    measure: str,
) -> NDArray[np.float64]:
    """The values as a (queries x runs) matrix; refuses duplicates, gaps and non-finite values."""
    n_runs, n_queries = len(names), query_ids.size
    cell = run_codes.astype(np.int64) * n_queries + query_codes
    counts = np.bincount(cell, minlength=n_runs * n_queries).reshape(n_runs, n_queries)
    if (counts > 1).any():
        r, q = np.argwhere(counts > 1)[0]
        fail(
            "compare_duplicate",
            run=_shown(names[r]),
            query=_shown(query_ids[q]),
            count=int(counts[r, q]),
        )
    absent = counts == 0
    if absent.any():
        r = int(np.argmax(absent.any(axis=1)))
        q = int(np.argmax(absent[r]))
        fail(
            "compare_missing_queries",
            run=_shown(names[r]),
            count=int(absent[r].sum()),
            total=n_queries,
            query=_shown(query_ids[q]),
        )
    matrix = np.empty((n_queries, n_runs))
    matrix[query_codes, run_codes] = values
    finite = np.isfinite(matrix)
    if not finite.all():
        q, r = np.argwhere(~finite)[0]
        fail(
            "compare_not_finite",
            run=_shown(names[r]),
            query=_shown(query_ids[q]),
            measure=measure,
            value=str(matrix[q, r]),
            count=int((~finite).sum()),
        )
    return matrix


def _exact(permutation: str, n_queries: int, n_resamples: int) -> bool:
    if permutation == "exact":
        if n_queries > MAX_EXACT_QUERIES:
            fail("compare_exact_too_many", got=n_queries, limit=MAX_EXACT_QUERIES)
        return True
    if permutation == "monte_carlo":
        return False
    return n_queries <= MAX_EXACT_QUERIES and 2**n_queries <= n_resamples


def _check_finite(values: NDArray[np.float64], name: str) -> None:
    # SciPy's t-test gives NaN only for 0/0 (every difference 0), which is set to 1 above;
    # a NaN here would be a case this module does not know, so it is refused, not shown.
    if not np.isfinite(values).all():
        fail("compare_undefined", statistic=name)


def _t_test_p(values: NDArray[np.float64], baseline: NDArray[np.float64]) -> float:
    # imported here: scipy.stats takes ~1-2 s to import, which every `import ndcg_core` (the
    # app's first visitor, the CLI) would otherwise pay for a test few of them run
    from scipy import stats

    with warnings.catch_warnings():
        # SciPy warns of "catastrophic cancellation" when the differences are (nearly) equal;
        # its result there (t infinite, p = 0) is the documented one, so the warning would
        # only reach the page's log without telling its reader anything
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(stats.ttest_rel(values, baseline).pvalue)


# --- kernels: trust their input -------------------------------------------------------------


def _bootstrap_means(
    diffs: NDArray[np.float64], n_resamples: int, rng: np.random.Generator
) -> NDArray[np.float64]:
    """Mean of each row of ``diffs`` over ``n_resamples`` resamples of its columns (queries).

    The resamples are drawn in chunks as ``scipy.stats.bootstrap`` draws them
    (``rng.integers(0, n, (chunk, n))``) and every compared run uses the same ones.
    """
    n_runs, n = diffs.shape
    out = np.empty((n_runs, n_resamples))
    chunk = max(1, _CHUNK_CELLS // n)
    for start in range(0, n_resamples, chunk):  # chunks bound the memory
        size = min(chunk, n_resamples - start)
        index = rng.integers(0, n, (size, n))
        for j in range(n_runs):  # one row at a time: the mean runs along a contiguous axis
            out[j, start : start + size] = diffs[j][index].mean(axis=-1)
    return out


def _extreme_counts(
    signs: NDArray[np.float64], diffs: NDArray[np.float64], limit: NDArray[np.float64]
) -> NDArray[np.int64]:
    """Per compared run, how many rows of ``signs`` give |Σ s·d| >= its limit."""
    # one matrix-vector product per run: OpenBLAS's gemv is several times faster here than a
    # gemm with two or three columns (measured 3.4 vs 25 ms per 10**6 signs)
    return np.array(
        [np.count_nonzero(np.abs(signs @ row) >= bound) for row, bound in zip(diffs, limit, strict=True)],
        dtype=np.int64,
    )


def _limits(diffs: NDArray[np.float64]) -> NDArray[np.float64]:
    """|observed sum| less a rounding tolerance: flips whose sum is this large or larger count.

    Flips that give the same sum in exact arithmetic can differ in the last bits (another
    summation order), so a sum within 100 ulps of the scale (Σ|d|) counts as reaching it;
    SciPy uses 100 eps relative to the observed statistic for the same purpose.
    """
    observed = np.abs(diffs.sum(axis=1))
    scale = np.abs(diffs).sum(axis=1)
    limit: NDArray[np.float64] = observed - 100 * np.finfo(np.float64).eps * scale
    return limit


def _exact_sign_flip(diffs: NDArray[np.float64]) -> NDArray[np.float64]:
    """Two-sided p of the mean difference over all 2**n sign flips: count(|T| >= |t|) / 2**n."""
    n_runs, n = diffs.shape
    total = 2**n
    limit = _limits(diffs)
    counts = np.zeros(n_runs, dtype=np.int64)
    chunk = max(1, _CHUNK_CELLS // n)
    bits = np.arange(n, dtype=np.int64)
    for start in range(0, total, chunk):
        patterns = np.arange(start, min(total, start + chunk), dtype=np.int64)
        signs = _SIGNS[(patterns[:, None] >> bits) & 1]
        counts += _extreme_counts(signs, diffs, limit)
    p: NDArray[np.float64] = counts / total
    return p


def _monte_carlo_sign_flip(
    diffs: NDArray[np.float64], n_resamples: int, rng: np.random.Generator
) -> NDArray[np.float64]:
    """Two-sided p from ``n_resamples`` random sign flips: (1 + count(|T| >= |t|)) / (1 + B)."""
    n_runs, n = diffs.shape
    limit = _limits(diffs)
    counts = np.zeros(n_runs, dtype=np.int64)
    chunk = max(1, _CHUNK_CELLS // n)
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        # one random bit per sign from raw bytes: ~40x fewer generator calls than integers()
        bits = np.unpackbits(np.frombuffer(rng.bytes(-(-size * n // 8)), dtype=np.uint8), count=size * n)
        signs = _SIGNS[bits].reshape(size, n)
        counts += _extreme_counts(signs, diffs, limit)
    p: NDArray[np.float64] = (counts + 1) / (n_resamples + 1)
    return p


def _run_table(matrix: NDArray[np.float64], names: list[str], base: int) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "run": names,
            "is_baseline": np.arange(len(names)) == base,
            "n_queries": matrix.shape[0],
            "mean": matrix.mean(axis=0),
            "median": np.median(matrix, axis=0),
            "std": matrix.std(axis=0, ddof=1),
            "min": matrix.min(axis=0),
            "max": matrix.max(axis=0),
        },
        columns=list(RUN_COLUMNS),
    )


def _difference_table(
    matrix: NDArray[np.float64],
    diffs: NDArray[np.float64],
    names: list[str],
    others: list[int],
    base: int,
    query_ids: pd.Index,
) -> pd.DataFrame:
    n_queries = matrix.shape[0]
    # per run, largest gain first; stable, so equal differences keep the table's query order
    order = np.argsort(-diffs, axis=1, kind="stable")
    flat = order.ravel()
    run_of = np.repeat(np.arange(len(others)), n_queries)
    difference = diffs[run_of, flat]
    outcome = np.where(
        difference > TIE_TOLERANCE, "win", np.where(difference < -TIE_TOLERANCE, "loss", "tie")
    )
    return pd.DataFrame(
        {
            "run": np.repeat(np.array([names[j] for j in others], dtype=object), n_queries),
            "order": np.tile(np.arange(1, n_queries + 1), len(others)),
            "query": np.asarray(query_ids, dtype=object)[flat],
            "value": matrix[flat, np.asarray(others)[run_of]],
            "baseline_value": matrix[flat, base],
            "difference": difference,
            "outcome": outcome,
        },
        columns=list(DIFFERENCE_COLUMNS),
    )
