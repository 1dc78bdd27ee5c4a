"""Comparing runs (ndcg_core.significance): oracles are SciPy and hand arithmetic."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import ndcg_core as nc
from ndcg_core.significance import (
    DIFFERENCE_COLUMNS,
    RUN_COLUMNS,
    TEST_COLUMNS,
    compare_runs,
    holm,
)
from ndcg_core.validate import MESSAGES, TERMS, NDCGInputError, render


def long_table(columns: dict[str, np.ndarray | list[float]], measure: str = "ndcg") -> pd.DataFrame:
    """One row per (run, query) from {run: values}, queries q1..qn in the same order."""
    frames = []
    for name, values in columns.items():
        n = len(values)
        frames.append(pd.DataFrame({"run": name, "query": [f"q{i + 1}" for i in range(n)], measure: values}))
    return pd.concat(frames, ignore_index=True)


def paired(n: int, seed: int, shift: float = 0.03) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    base = rng.random(n)
    return base, np.clip(base + rng.normal(shift, 0.1, n), 0, 1)


def mean_difference(x, y, axis):
    return np.mean(x - y, axis=axis)


# --- the numbers, against SciPy and arithmetic --------------------------------------------


@pytest.mark.parametrize(("n", "seed"), [(5, 0), (8, 1), (13, 2), (40, 3), (200, 4)])
def test_compare_runs_t_test_p_equals_scipy_ttest_rel(n, seed):
    base, run = paired(n, seed)
    row = compare_runs(long_table({"A": base, "B": run})).tests.iloc[0]
    assert row["p_t_test"] == stats.ttest_rel(run, base).pvalue


@pytest.mark.parametrize(("n", "seed"), [(3, 0), (8, 1), (12, 5), (13, 2)])
def test_compare_runs_exact_randomization_equals_scipy_permutation_test(n, seed):
    """2**n <= 10,000: both enumerate every sign flip, so the p-values are equal exactly."""
    base, run = paired(n, seed)
    result = compare_runs(long_table({"A": base, "B": run}))
    scipy_p = stats.permutation_test(
        (run, base), mean_difference, permutation_type="samples", n_resamples=10_000
    ).pvalue
    assert result.permutation == "exact"
    assert result.n_permutations == 2**n
    assert result.tests.iloc[0]["p_randomization"] == scipy_p


def test_compare_runs_exact_randomization_equals_scipy_with_tied_differences():
    """Differences of equal size (dyadic, so sums are exact): many flips tie with the observed."""
    base = np.array([0.5, 0.25, 0.75, 0.5, 0.0, 1.0, 0.25, 0.5, 0.75])
    run = base + np.array([0.25, 0.25, -0.25, 0.0, 0.25, -0.5, 0.25, 0.0, 0.25])
    p = compare_runs(long_table({"A": base, "B": run})).tests.iloc[0]["p_randomization"]
    scipy_p = stats.permutation_test(
        (run, base), mean_difference, permutation_type="samples", n_resamples=10_000
    ).pvalue
    assert p == scipy_p


def test_compare_runs_exact_randomization_counts_flips_by_hand():
    """d = (0.25, 0.25, 0, 0.5): |sum| = 1 only when the three non-zero signs agree: 2 x 2 of 16."""
    table = long_table({"A": [0.5, 0.25, 0.75, 0.5], "B": [0.75, 0.5, 0.75, 1.0]})
    assert compare_runs(table).tests.iloc[0]["p_randomization"] == 4 / 16


@pytest.mark.parametrize(("n", "seed"), [(14, 0), (16, 1), (18, 3)])
def test_compare_runs_monte_carlo_randomization_is_close_to_the_exact_p(n, seed):
    """2**n > 10,000 resamples: Monte Carlo. Its standard error is sqrt(p(1 - p) / B); the
    tolerance is 4 standard errors + 1 / B, against SciPy's exact enumeration."""
    base, run = paired(n, seed, shift=0.04)
    result = compare_runs(long_table({"A": base, "B": run}), n_resamples=10_000)
    exact = stats.permutation_test(
        (run, base), mean_difference, permutation_type="samples", n_resamples=2**n
    ).pvalue
    assert result.permutation == "monte_carlo"
    tolerance = 4 * math.sqrt(exact * (1 - exact) / 10_000) + 1 / 10_000
    assert abs(result.tests.iloc[0]["p_randomization"] - exact) <= tolerance


@pytest.mark.parametrize("seed", range(3))
def test_compare_runs_monte_carlo_randomization_is_close_to_scipy_monte_carlo(seed):
    """Both draw 10,000 flips (different streams): each p has a standard error of at most
    sqrt(0.25 / 10,000) = 0.005; their difference stays within 0.03 (4 standard errors of it)."""
    base, run = paired(60, seed, shift=0.02)
    p = compare_runs(long_table({"A": base, "B": run})).tests.iloc[0]["p_randomization"]
    scipy_p = stats.permutation_test(
        (run, base),
        mean_difference,
        permutation_type="samples",
        n_resamples=10_000,
        rng=np.random.default_rng(seed),
    ).pvalue
    assert abs(p - scipy_p) <= 0.03


def test_compare_runs_monte_carlo_p_is_never_zero():
    """(1 + count) / (1 + B): the observed assignment counts, so p >= 1 / (B + 1)."""
    base = np.linspace(0.1, 0.5, 30)
    result = compare_runs(long_table({"A": base, "B": base + 0.3}), n_resamples=999)
    assert result.tests.iloc[0]["p_randomization"] == 1 / 1000


@pytest.mark.parametrize(("n", "seed"), [(13, 0), (50, 1), (300, 2)])
def test_compare_runs_bootstrap_interval_equals_scipy_percentile_bootstrap(n, seed):
    """Same generator, same draws (``rng.integers(0, n, (B, n))``): the same interval."""
    base, run = paired(n, seed)
    result = compare_runs(long_table({"A": base, "B": run}), seed=7, n_resamples=2_000)
    rng = np.random.default_rng(np.random.SeedSequence(7).spawn(2)[0])
    ci = stats.bootstrap(
        (run - base,), np.mean, method="percentile", n_resamples=2_000, rng=rng, confidence_level=0.95
    ).confidence_interval
    row = result.tests.iloc[0]
    assert row["ci_low"] == pytest.approx(ci.low, rel=1e-12, abs=1e-15)
    assert row["ci_high"] == pytest.approx(ci.high, rel=1e-12, abs=1e-15)


def test_compare_runs_means_and_difference_match_arithmetic():
    table = long_table({"A": [0.5, 0.25, 1.0], "B": [0.75, 0.25, 0.5]})
    result = compare_runs(table)
    row = result.tests.iloc[0]
    assert row["mean"] == pytest.approx((0.75 + 0.25 + 0.5) / 3, abs=1e-15)
    assert row["baseline_mean"] == pytest.approx((0.5 + 0.25 + 1.0) / 3, abs=1e-15)
    assert row["mean_difference"] == pytest.approx((0.25 + 0 - 0.5) / 3, abs=1e-15)


def test_compare_runs_counts_wins_ties_and_losses_with_the_tie_tolerance():
    """A difference of 1e-13 is a tie (|d| <= 1e-12); 1e-11 is a win."""
    base = [0.5, 0.5, 0.5, 0.5, 0.5]
    run = [0.6, 0.5 + 1e-13, 0.5 + 1e-11, 0.4, 0.5]
    row = compare_runs(long_table({"A": base, "B": run})).tests.iloc[0]
    assert (row["wins"], row["ties"], row["losses"]) == (2, 2, 1)


def test_compare_runs_run_table_has_each_runs_summary():
    values = {"A": [0.2, 0.4, 0.9], "B": [0.5, 0.5, 0.8]}
    runs = compare_runs(long_table(values), baseline="B").runs
    assert list(runs.columns) == list(RUN_COLUMNS)
    first = runs.iloc[0]
    assert first["run"] == "A" and not first["is_baseline"]
    assert first["mean"] == pytest.approx(1.5 / 3, abs=1e-15)
    assert first["median"] == 0.4
    assert first["std"] == pytest.approx(math.sqrt(((0.3) ** 2 + 0.1**2 + 0.4**2) / 2), abs=1e-15)
    assert (first["min"], first["max"]) == (0.2, 0.9)
    assert bool(runs.iloc[1]["is_baseline"])


# --- defined cases --------------------------------------------------------------------------


def test_compare_runs_identical_runs_give_p_one():
    """Every difference 0: SciPy's t-test is 0/0 (NaN); both p-values are defined as 1."""
    base = [0.2, 0.5, 0.7, 0.1]
    row = compare_runs(long_table({"A": base, "B": base})).tests.iloc[0]
    assert math.isnan(stats.ttest_rel(base, base).pvalue)
    assert (row["p_t_test"], row["p_randomization"]) == (1.0, 1.0)
    assert (row["ci_low"], row["ci_high"], row["mean_difference"]) == (0.0, 0.0, 0.0)


def test_compare_runs_differences_within_the_tie_tolerance_give_p_one():
    """Floating-point noise (1e-17 everywhere) is not evidence: every query is a tie."""
    base = np.array([0.25, 0.5, 0.75, 0.125])
    row = compare_runs(long_table({"A": base, "B": base + 1e-17 * (base > 0.3)})).tests.iloc[0]
    assert (row["p_t_test"], row["p_randomization"], row["ties"]) == (1.0, 1.0, 4)


@pytest.mark.filterwarnings("ignore:Precision loss:RuntimeWarning")  # SciPy's own call below
def test_compare_runs_constant_difference_keeps_scipys_t_test():
    """The same gain on every query: variance 0, SciPy's t is infinite and p = 0, kept; the
    randomization test gives its floor 2 / 2**n."""
    base = np.array([0.25, 0.5, 0.125, 0.375, 0.0])
    run = base + 0.25
    row = compare_runs(long_table({"A": base, "B": run})).tests.iloc[0]
    assert row["p_t_test"] == stats.ttest_rel(run, base).pvalue == 0.0
    assert row["p_randomization"] == 2 / 2**5


# --- Holm -----------------------------------------------------------------------------------


def test_holm_matches_hand_arithmetic():
    """p = 0.01, 0.04, 0.03, m = 3: sorted 0.01, 0.03, 0.04 -> 3 x 0.01 = 0.03,
    max(0.03, 2 x 0.03) = 0.06, max(0.06, 1 x 0.04) = 0.06; back in input order."""
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06], abs=1e-15)


def test_holm_caps_at_one_and_keeps_order():
    """0.5 x 3 = 1.5 -> 1; the step-down maximum keeps the adjusted values monotone."""
    assert holm([0.5, 0.02, 0.6]) == pytest.approx([1.0, 0.06, 1.0], abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=12))
def test_holm_is_between_p_and_one_and_monotone(p):
    adjusted = holm(p)
    p_array = np.asarray(p)
    assert np.all(adjusted >= p_array - 1e-15) and np.all(adjusted <= 1.0)
    order = np.argsort(p_array, kind="stable")
    assert np.all(np.diff(adjusted[order]) >= 0)


def test_compare_runs_applies_holm_across_compared_runs():
    """Four runs, three comparisons: the adjusted p-values are Holm's of the raw ones, written
    out by hand (sort, multiply by m, m - 1, m - 2, running maximum, cap at 1)."""
    base, b = paired(25, 0, shift=0.08)
    _, c = paired(25, 1, shift=0.01)
    _, d = paired(25, 2, shift=0.04)
    tests = compare_runs(long_table({"A": base, "B": b, "C": c, "D": d})).tests
    for column in ("p_t_test", "p_randomization"):
        raw = tests[column].to_numpy()
        order = np.argsort(raw)
        expected = np.empty(3)
        running = 0.0
        for rank, index in enumerate(order):
            running = max(running, min(1.0, (3 - rank) * raw[index]))
            expected[index] = running
        assert tests[f"{column}_holm"].to_numpy() == pytest.approx(expected, abs=1e-15)


def test_compare_runs_with_one_comparison_holm_equals_raw():
    base, run = paired(20, 0)
    row = compare_runs(long_table({"A": base, "B": run})).tests.iloc[0]
    assert row["p_t_test_holm"] == row["p_t_test"]
    assert row["p_randomization_holm"] == row["p_randomization"]


# --- tables, baseline, seed ---------------------------------------------------------------


def test_compare_runs_baseline_is_the_first_run_by_default():
    base, run = paired(6, 0)
    result = compare_runs(long_table({"B": run, "A": base}))
    assert result.baseline == "B"
    assert result.tests["run"].tolist() == ["A"]
    assert list(result.tests.columns) == list(TEST_COLUMNS)


def test_compare_runs_named_baseline_compares_the_others_in_order():
    base, b = paired(6, 0)
    _, c = paired(6, 1)
    result = compare_runs(long_table({"A": base, "B": b, "C": c}), baseline="B")
    assert result.baseline == "B"
    assert result.tests["run"].tolist() == ["A", "C"]
    assert result.tests["baseline"].tolist() == ["B", "B"]


def test_compare_runs_difference_table_is_sorted_largest_gain_first():
    table = long_table({"A": [0.5, 0.5, 0.5, 0.5], "B": [0.25, 0.75, 0.5, 1.0]})
    diff = compare_runs(table).differences
    assert list(diff.columns) == list(DIFFERENCE_COLUMNS)
    assert diff["query"].tolist() == ["q4", "q2", "q3", "q1"]
    assert diff["difference"].tolist() == [0.5, 0.25, 0.0, -0.25]
    assert diff["order"].tolist() == [1, 2, 3, 4]
    assert diff["outcome"].tolist() == ["win", "win", "tie", "loss"]
    assert diff["baseline_value"].tolist() == [0.5] * 4
    assert diff["value"].tolist() == [1.0, 0.75, 0.5, 0.25]


def test_compare_runs_pairs_queries_by_id_not_by_row_order():
    table = long_table({"A": [0.1, 0.2, 0.3], "B": [0.4, 0.5, 0.6]})
    shuffled = table.iloc[[0, 5, 1, 3, 2, 4]]
    assert compare_runs(shuffled).tests.equals(compare_runs(table).tests)


def test_compare_runs_reads_another_measure_column():
    table = long_table({"A": [0.1, 0.2, 0.3], "B": [0.4, 0.5, 0.7]}, measure="ndcg@10")
    result = compare_runs(table, measure="ndcg@10")
    assert result.measure == "ndcg@10"
    assert result.tests.iloc[0]["mean_difference"] == pytest.approx(1.0 / 3, abs=1e-15)


def test_compare_runs_same_seed_same_result():
    base, run = paired(40, 0)
    table = long_table({"A": base, "B": run})
    first, second = compare_runs(table, seed=11), compare_runs(table, seed=11)
    assert first.tests.equals(second.tests)
    assert first.seed == 11


def test_compare_runs_seed_none_reports_the_seed_it_drew():
    base, run = paired(40, 0)
    table = long_table({"A": base, "B": run})
    fresh = compare_runs(table, seed=None)
    assert 0 <= fresh.seed < 2**32
    assert compare_runs(table, seed=fresh.seed).tests.equals(fresh.tests)


def test_compare_runs_forced_monte_carlo_on_few_queries():
    base, run = paired(5, 0)
    result = compare_runs(long_table({"A": base, "B": run}), permutation="monte_carlo", n_resamples=500)
    assert (result.permutation, result.n_permutations) == ("monte_carlo", 500)


def test_compare_runs_forced_exact_on_more_queries():
    base, run = paired(15, 0)
    result = compare_runs(long_table({"A": base, "B": run}), permutation="exact")
    exact = stats.permutation_test(
        (run, base), mean_difference, permutation_type="samples", n_resamples=2**15
    ).pvalue
    assert (result.permutation, result.n_permutations) == ("exact", 2**15)
    assert result.tests.iloc[0]["p_randomization"] == exact


def test_compare_runs_is_exported_from_ndcg_core():
    assert nc.compare_runs is compare_runs
    assert nc.Comparison.__name__ == "Comparison"


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0])),
        min_size=2,
        max_size=9,
    )
)
def test_compare_runs_exact_p_equals_scipy_on_grid_values(pairs):
    """Values on a grid give exact sums and many ties among the flips; still SciPy's p."""
    base = np.array([p[0] for p in pairs])
    run = np.array([p[1] for p in pairs])
    row = compare_runs(long_table({"A": base, "B": run})).tests.iloc[0]
    d = run - base
    if np.all(d == 0):
        assert row["p_randomization"] == 1.0
        return
    scipy_p = stats.permutation_test(
        (run, base), mean_difference, permutation_type="samples", n_resamples=10_000
    ).pvalue
    assert row["p_randomization"] == scipy_p
    # every p-value and interval is a finite number in its range
    assert 0 < row["p_randomization"] <= 1 and 0 <= row["p_t_test"] <= 1
    assert row["ci_low"] <= row["ci_high"]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=10), st.lists(st.floats(0, 1), min_size=2, max_size=10))
def test_compare_runs_gives_finite_numbers(first, second):
    n = min(len(first), len(second))
    row = compare_runs(long_table({"A": first[:n], "B": second[:n]})).tests.iloc[0]
    numbers = row[["mean_difference", "ci_low", "ci_high", "p_t_test", "p_randomization"]].to_numpy(float)
    assert np.isfinite(numbers).all()
    assert row["ci_low"] <= row["ci_high"]
    assert 0 <= row["p_t_test"] <= 1 and 0 < row["p_randomization"] <= 1
    assert row["wins"] + row["ties"] + row["losses"] == n


# --- errors ---------------------------------------------------------------------------------

TABLE = long_table({"A": [0.1, 0.2, 0.3], "B": [0.4, 0.5, 0.6]})

ERRORS = [
    (
        "one run",
        lambda: compare_runs(TABLE[TABLE["run"] == "A"]),
        "compare_too_few_runs",
        "at least two runs",
    ),
    (
        "one query",
        lambda: compare_runs(TABLE[TABLE["query"] == "q1"]),
        "compare_too_few_queries",
        "two queries",
    ),
    ("unknown baseline", lambda: compare_runs(TABLE, baseline="Z"), "compare_unknown_baseline", "'Z' is not"),
    (
        "missing queries",
        lambda: compare_runs(TABLE.drop(index=[4, 5])),
        "compare_missing_queries",
        "The run 'B' has no value for 2 of the 3 queries, e.g. 'q2'",
    ),
    (
        "duplicate",
        lambda: compare_runs(pd.concat([TABLE, TABLE.iloc[[1]]])),
        "compare_duplicate",
        "The run 'A' has 2 rows for the query 'q2'",
    ),
    (
        "nan",
        lambda: compare_runs(TABLE.assign(ndcg=[0.1, np.nan, 0.3, 0.4, 0.5, np.inf])),
        "compare_not_finite",
        "The run 'A' has nan as its 'ndcg' for the query 'q2' (2 value",
    ),
    (
        "text value",
        lambda: compare_runs(TABLE.assign(ndcg=["0.1", "x", "0.3", "0.4", "0.5", "0.6"])),
        "bad_values",
        "'x'",
    ),
    (
        "missing column",
        lambda: compare_runs(TABLE, measure="ndcg@10"),
        "missing_column",
        "'ndcg@10' is missing",
    ),
    (
        "missing id",
        lambda: compare_runs(TABLE.assign(query=["q1", None, "q3", "q1", "q2", "q3"])),
        "compare_missing_id",
        "1 row(s) without a value",
    ),
    ("confidence", lambda: compare_runs(TABLE, confidence=95), "shape", "confidence level must be"),
    ("confidence nan", lambda: compare_runs(TABLE, confidence=float("nan")), "shape", "confidence level"),
    ("resamples", lambda: compare_runs(TABLE, n_resamples=0), "shape", "number of samples"),
    (
        "resamples too many",
        lambda: compare_runs(TABLE, n_resamples=1_000_001),
        "compare_too_many_resamples",
        "at most 1000000 resamples",
    ),
    ("seed", lambda: compare_runs(TABLE, seed=-1), "shape", "seed must be a whole number"),
    ("permutation", lambda: compare_runs(TABLE, permutation="fast"), "unknown_option", "permutation"),
    (
        "exact too many",
        lambda: compare_runs(long_table({"A": np.zeros(21), "B": np.ones(21)}), permutation="exact"),
        "compare_exact_too_many",
        "limited to 20 queries",
    ),
    ("not a frame", lambda: compare_runs([1, 2]), "shape", "per-query table"),  # type: ignore[arg-type]
    ("column name", lambda: compare_runs(TABLE, measure=""), "compare_column_name", "non-empty"),
]


@pytest.mark.parametrize(("call", "key", "text"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_compare_runs_refuses_bad_input_with_a_clear_message(call, key, text):
    with pytest.raises(NDCGInputError) as info:
        call()
    assert info.value.key == key
    assert text in str(info.value)
    assert str(info.value) == render(MESSAGES, TERMS, key, info.value.params)


def test_compare_runs_every_new_message_key_is_raised_by_a_test():
    raised = {key for _, _, key, _ in ERRORS}
    keys = {key for key in MESSAGES if key.startswith("compare_")} - {"compare_undefined"}
    assert keys <= raised


def test_compare_runs_exact_enumeration_matches_brute_force_over_itertools():
    """The flips enumerated one by one in Python: count |mean(s * d)| >= |mean(d)|."""
    base, run = paired(7, 9)
    d = run - base
    observed = abs(d.mean())
    count = sum(
        abs(np.mean(np.array(signs) * d)) >= observed - 1e-15
        for signs in itertools.product((1, -1), repeat=7)
    )
    assert compare_runs(long_table({"A": base, "B": run})).tests.iloc[0]["p_randomization"] == count / 128


def test_compare_runs_refuses_a_t_test_p_that_is_not_a_number(monkeypatch):
    """A NaN from SciPy in a case this module does not define is refused, never shown."""

    class NotANumber:
        pvalue = float("nan")

    monkeypatch.setattr(stats, "ttest_rel", lambda *args, **kwargs: NotANumber())
    with pytest.raises(NDCGInputError) as info:
        compare_runs(TABLE)
    assert info.value.key == "compare_undefined"
