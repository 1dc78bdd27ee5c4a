"""Hypothesis properties of the ranked-list metrics and the step table (STYLE.md)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_core as nc

# per test, not a global profile: other test modules keep their own settings
quick = settings(max_examples=80, deadline=None)

integer_grades = st.lists(st.integers(0, 3).map(float), min_size=1, max_size=25)
real_grades = st.lists(st.floats(0, 10, allow_nan=False, allow_infinity=False), min_size=1, max_size=25)
grades = st.one_of(integer_grades, real_grades)
cutoffs = st.one_of(st.none(), st.integers(1, 30))
options = st.fixed_dictionaries(
    {
        "gain": st.sampled_from(["linear", "exponential"]),
        "discount": st.sampled_from(["log2", "jarvelin"]),
    }
)


@st.composite
def ranked_with_pool(draw):
    """A list and a judged pool that holds every item of it plus some unretrieved ones."""
    rel = draw(integer_grades)
    extra = draw(st.lists(st.integers(0, 3).map(float), max_size=10))
    return rel, rel + extra


@quick
@given(grades, cutoffs, options)
def test_ndcg_between_zero_and_one(rel, k, opts):
    assert 0.0 <= nc.ndcg(rel, k=k, **opts) <= 1.0


@quick
@given(ranked_with_pool(), cutoffs, options)
def test_ndcg_with_pool_between_zero_and_one(rel_pool, k, opts):
    rel, pool = rel_pool
    assert 0.0 <= nc.ndcg(rel, k=k, pool=pool, **opts) <= 1.0


@quick
@given(grades, cutoffs, options)
def test_ideal_order_gives_one_when_anything_is_relevant(rel, k, opts):
    ideal = sorted(rel, reverse=True)
    expected = 1.0 if nc.idcg(rel, k=k, **opts) > 0 else 0.0
    # to 1e-12, the agreement asked of the core: DCG and IDCG sum the same terms along different
    # paths, so [1.859375] with exponential gain gave 0.9999999999999998 (found by Hypothesis)
    assert nc.ndcg(ideal, k=k, **opts) == pytest.approx(expected, abs=1e-12)


@quick
@given(grades, cutoffs, options, st.randoms(use_true_random=False))
def test_idcg_ignores_order(rel, k, opts, random):
    shuffled = list(rel)
    random.shuffle(shuffled)
    assert nc.idcg(shuffled, k=k, **opts) == nc.idcg(rel, k=k, **opts)


@quick
@given(grades, cutoffs, options)
def test_dcg_at_most_idcg(rel, k, opts):
    assert nc.dcg(rel, k=k, **opts) <= nc.idcg(rel, k=k, **opts) * (1 + 1e-12)


@quick
@given(ranked_with_pool(), cutoffs, options, st.booleans())
def test_last_step_row_equals_ndcg(rel_pool, k, opts, use_pool):
    rel, pool = rel_pool
    pool = pool if use_pool else None
    last = nc.step_table(rel, k=k, pool=pool, **opts).iloc[-1]
    m = nc.metrics(rel, k=k, pool=pool, **opts)
    assert (last["dcg"], last["idcg"], last["ndcg"]) == pytest.approx((m.dcg, m.idcg, m.ndcg), abs=1e-9)
    assert last["cg"] == pytest.approx(m.cg, abs=1e-9)


@quick
@given(grades, cutoffs, options)
def test_step_table_columns_are_consistent(rel, k, opts):
    t = nc.step_table(rel, k=k, **opts)
    n = len(rel)
    within = np.arange(1, n + 1) <= (n if k is None else k)
    r = np.asarray(rel)
    gains = nc.apply_gain(r, opts["gain"])
    assert t["in_cutoff"].tolist() == within.tolist()
    assert t["relevance"].tolist() == rel
    assert np.allclose(t["gain"], gains, rtol=1e-12)
    # CG sums gains (Järvelin & Kekäläinen 2002)
    assert np.allclose(t["cg"], np.cumsum(np.where(within, gains, 0.0)), rtol=1e-12, atol=1e-12)
    assert np.allclose(t["log_term"] * t["discount"], 1.0, rtol=1e-12)
    assert np.allclose(t["discounted_gain"], np.where(within, gains * t["discount"], 0.0), rtol=1e-12)
    assert np.allclose(t["dcg"], np.cumsum(t["discounted_gain"]), rtol=1e-12)
    assert t["ideal_relevance"].tolist() == sorted(rel, reverse=True)
    assert sorted(t["ideal_item"]) == sorted(t["item"])
    assert np.allclose(t["idcg"], np.cumsum(t["ideal_discounted_gain"]), rtol=1e-12)
    expected = np.divide(t["dcg"], t["idcg"], out=np.zeros(n), where=t["idcg"].to_numpy() > 0)
    assert np.allclose(t["ndcg"], expected, rtol=1e-12)
    assert (t["ndcg"] <= 1.0).all()


@quick
@given(grades.filter(lambda rel: len(rel) <= 12), cutoffs, options)
def test_each_k_and_what_if_views_agree_with_ndcg(rel, k, opts):
    at_k = nc.ndcg_at_each_k(rel, **opts)
    expected = [nc.ndcg(rel, k=i, **opts) for i in at_k["k"]]
    assert np.allclose(at_k["ndcg"], expected, atol=1e-12)
    swaps = nc.swap_matrix(rel, k=k, **opts)
    n = len(rel)
    matrix = swaps["ndcg"].to_numpy().reshape(n, n)
    assert np.allclose(matrix, matrix.T, atol=1e-12)
    assert np.allclose(np.diag(matrix), nc.ndcg(rel, k=k, **opts), atol=1e-12)
    slide = nc.slide_down(rel, k=k, **opts)
    assert slide["ndcg"].iloc[0] == pytest.approx(nc.ndcg(rel, k=k, **opts), abs=1e-12)
    assert slide["ndcg"].iloc[-1] == pytest.approx(nc.ndcg(rel[1:] + rel[:1], k=k, **opts), abs=1e-12)


# --- issue 11: CG sums gains; closed forms of the order bounds -----------------------------


@quick
@given(grades, cutoffs, options)
def test_dcg_never_exceeds_cg_for_non_negative_grades(relevance, k, opts):
    """Every discount is <= 1 and every gain >= 0, so DCG@k <= CG@k, for every gain and discount."""
    cg = nc.cg(relevance, k=k, gain=opts["gain"])
    assert nc.dcg(relevance, k=k, **opts) <= cg + 1e-9 * max(1.0, cg)


short_grades = st.lists(st.integers(0, 3).map(float), min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(short_grades, st.one_of(st.none(), st.integers(1, 9)), options)
def test_order_bounds_equal_brute_force_over_all_orders(relevance, k, opts):
    """Closed forms (ascending = worst, mean gain × Σ discounts / IDCG) = enumeration, n <= 8."""
    import itertools

    cut = nc.metrics(relevance, k=k, **opts).k
    idcg = nc.idcg(relevance, k=k, **opts)
    # Every distinct order of the grades stands for the same number of orders of the documents
    # (the product of m! over the grades' multiplicities m), so the mean over the distinct orders
    # is the mean over all n! orders; at most 8!/(2!)^4 = 2,520 of them instead of 40,320.
    values = [
        nc.dcg(list(order), k=cut, **opts) / idcg if idcg > 0 else 0.0
        for order in set(itertools.permutations(relevance))
    ]
    b = nc.order_bounds(relevance, k=k, **opts)
    assert b.worst == pytest.approx(min(values), abs=1e-12)
    assert b.best == pytest.approx(max(values), abs=1e-12)
    assert b.mean == pytest.approx(float(np.mean(values)), abs=1e-12)


@quick
@given(short_grades, st.one_of(st.none(), st.integers(1, 9)), options)
def test_order_bounds_worst_is_the_ascending_order(relevance, k, opts):
    b = nc.order_bounds(relevance, k=k, **opts)
    assert b.worst == pytest.approx(nc.ndcg(sorted(relevance), k=k, **opts), abs=1e-12)


unjudged_grades = st.lists(
    st.one_of(st.integers(0, 3).map(float), st.just(float("nan"))), min_size=1, max_size=15
)


@quick
@given(unjudged_grades, cutoffs, options)
def test_unjudged_zero_equals_ndcg_with_zeros(rel, k, opts):
    zeros = [0.0 if np.isnan(x) else x for x in rel]
    assert nc.ndcg(rel, k=k, unjudged="zero", **opts) == pytest.approx(nc.ndcg(zeros, k=k, **opts), abs=1e-12)


@quick
@given(unjudged_grades, cutoffs, options)
def test_condensed_ndcg_is_never_below_unjudged_as_zero(rel, k, opts):
    """Dropping unjudged items only moves judged ones up (gains >= 0, discounts non-increasing)."""
    zero = nc.ndcg(rel, k=k, unjudged="zero", **opts)
    assert nc.ndcg(rel, k=k, unjudged="drop", **opts) >= zero - 1e-12


@quick
@given(unjudged_grades, cutoffs)
def test_condensed_ndcg_equals_ndcg_of_judged_items(rel, k):
    judged = [x for x in rel if not np.isnan(x)]
    if judged:
        assert nc.ndcg(rel, k=k, unjudged="drop") == pytest.approx(nc.ndcg(judged, k=k), abs=1e-12)
