"""step_table and the what-if helpers of ndcg_core.steps, against hand arithmetic and brute force."""

import itertools
import math

import numpy as np
import pytest

import ndcg_core as nc

L2 = np.log2
EXAMPLE = [3, 2, 0, 0, 1]
POOL = [3, 3, 2, 2, 1, 0, 0]


def brute_ndcg(order, *, k=None, ideal_from=None):
    """nDCG@k by the textbook loop, independent of the core."""

    def dcg(grades):
        top = grades[: len(grades) if k is None else k]
        return sum(g / math.log2(i + 2) for i, g in enumerate(top))

    best = dcg(sorted(order if ideal_from is None else ideal_from, reverse=True))
    return dcg(list(order)) / best if best > 0 else 0.0


def test_step_table_has_the_documented_columns_in_order():
    table = nc.step_table(EXAMPLE)
    assert tuple(table.columns) == nc.STEP_COLUMNS
    assert nc.STEP_COLUMNS[:4] == ("position", "item", "relevance", "gain")


def test_step_table_worked_example_row_by_row():
    t = nc.step_table(EXAMPLE)
    assert t["position"].tolist() == [1, 2, 3, 4, 5]
    assert t["item"].tolist() == ["D1", "D2", "D3", "D4", "D5"]
    assert t["cg"].tolist() == [3, 3 + 2, 5, 5, 5 + 1]
    assert t["log_term"].tolist() == pytest.approx([1, L2(3), 2, L2(5), L2(6)], abs=1e-12)
    assert t["discounted_gain"].tolist() == pytest.approx([3, 2 / L2(3), 0, 0, 1 / L2(6)], abs=1e-12)
    assert t["dcg"].iloc[-1] == pytest.approx(3 + 2 / L2(3) + 1 / L2(6), abs=1e-12)
    assert t["ideal_item"].tolist() == ["D1", "D2", "D5", "D3", "D4"]
    assert t["ideal_relevance"].tolist() == [3, 2, 1, 0, 0]
    assert t["idcg"].iloc[-1] == pytest.approx(3 + 2 / L2(3) + 1 / 2, abs=1e-12)
    assert t["ndcg"].iloc[2] == pytest.approx((3 + 2 / L2(3)) / (3 + 2 / L2(3) + 1 / 2), abs=1e-12)
    assert t["in_cutoff"].all()


def test_step_table_beyond_k_contributes_nothing():
    t = nc.step_table(EXAMPLE, k=2)
    assert t["in_cutoff"].tolist() == [True, True, False, False, False]
    assert t["discounted_gain"].tolist()[2:] == [0, 0, 0]
    assert t["ideal_discounted_gain"].tolist()[2:] == [0, 0, 0]
    assert t["cg"].tolist() == [3, 5, 5, 5, 5]
    assert t["ndcg"].iloc[-1] == pytest.approx(nc.ndcg(EXAMPLE, k=2), abs=1e-12)
    assert t["relevance"].tolist() == EXAMPLE  # still shown


def test_step_table_pool_continues_past_the_list():
    t = nc.step_table(EXAMPLE, pool=POOL)
    assert len(t) == len(POOL)
    assert t["item"].tolist()[5:] == [nc.NO_ITEM, nc.NO_ITEM]
    assert t["relevance"].iloc[5:].isna().all()
    assert t["ideal_item"].tolist() == ["D1", nc.NO_ITEM, "D2", nc.NO_ITEM, "D5", "D3", "D4"]
    assert t["dcg"].iloc[-1] == t["dcg"].iloc[4]
    assert t["ndcg"].iloc[-1] == pytest.approx(nc.ndcg(EXAMPLE, pool=POOL), abs=1e-12)
    assert round(t["ndcg"].iloc[-1], 4) == 0.6510


def test_step_table_pool_with_k_stops_at_the_list():
    t = nc.step_table([3, 3, 3], pool=[3, 3, 3, 3], k=3)
    assert len(t) == 3
    assert t["ndcg"].iloc[-1] == 1.0


def test_step_table_ideal_shorter_than_list_has_nan_ideal_grades():
    t = nc.step_table([3, 0, 0], pool=[3])
    assert t["ideal_relevance"].iloc[1:].isna().all()
    assert t["idcg"].tolist() == [3, 3, 3]


def test_step_table_uses_given_labels():
    t = nc.step_table([1, 3], labels=["apple", " pear "])
    assert t["item"].tolist() == ["apple", "pear"]
    assert t["ideal_item"].tolist() == ["pear", "apple"]


def test_step_table_nothing_relevant_gives_zero_ndcg_rows():
    t = nc.step_table([0, 0, 0])
    assert t["ndcg"].tolist() == [0, 0, 0]


@pytest.mark.parametrize("pool", [None, POOL])
def test_ndcg_at_each_k_matches_ndcg_for_every_k(pool):
    frame = nc.ndcg_at_each_k(EXAMPLE, pool=pool)
    assert frame.columns.tolist() == ["k", "dcg", "idcg", "ndcg"]
    expected = [nc.ndcg(EXAMPLE, k=k, pool=pool) for k in frame["k"]]
    assert frame["ndcg"].tolist() == pytest.approx(expected, abs=1e-12)
    assert frame["ndcg"].iloc[-1] == pytest.approx(nc.ndcg(EXAMPLE, pool=pool), abs=1e-12)


@pytest.mark.parametrize("k", [None, 3])
def test_swap_matrix_matches_swapping_by_hand(k):
    frame = nc.swap_matrix(EXAMPLE, k=k)
    assert len(frame) == 5 * 5
    for row in frame.itertuples():
        order = list(EXAMPLE)
        order[row.i - 1], order[row.j - 1] = order[row.j - 1], order[row.i - 1]
        assert row.ndcg == pytest.approx(brute_ndcg(order, k=k, ideal_from=EXAMPLE), abs=1e-12)
        assert row.delta == pytest.approx(row.ndcg - nc.ndcg(EXAMPLE, k=k), abs=1e-12)
    assert frame.query("i == 1 and j == 5")[["item_i", "item_j"]].values.tolist() == [["D1", "D5"]]


@pytest.mark.parametrize(("position", "k"), [(1, None), (2, None), (1, 3), (4, 2), (5, None)])
def test_slide_down_matches_moving_by_hand(position, k):
    frame = nc.slide_down(EXAMPLE, position=position, k=k)
    assert frame["d"].tolist() == list(range(len(EXAMPLE) - position + 1))
    for row in frame.itertuples():
        order = list(EXAMPLE)
        order.insert(position - 1 + row.d, order.pop(position - 1))
        assert row.to_position == position + row.d
        assert row.ndcg == pytest.approx(brute_ndcg(order, k=k), abs=1e-12)


@pytest.mark.parametrize(("relevance", "k"), [(EXAMPLE, None), (EXAMPLE, 2), ([2, 0, 1, 3, 0, 1], 4)])
def test_permutation_distribution_exact_is_every_ordering(relevance, k):
    dist = nc.permutation_distribution(relevance, k=k)
    expected = sorted(
        brute_ndcg([relevance[i] for i in p], k=k, ideal_from=relevance)
        for p in itertools.permutations(range(len(relevance)))
    )
    assert dist.exact
    assert np.sort(dist.values).tolist() == pytest.approx(expected, abs=1e-12)
    current = brute_ndcg(relevance, k=k)
    share = sum(v <= current + 1e-12 for v in expected) / len(expected)
    assert dist.percentile == pytest.approx(100 * share)
    assert dist.mean == pytest.approx(np.mean(expected), abs=1e-12)


def test_permutation_distribution_ideal_order_is_100th_percentile():
    assert nc.permutation_distribution([3, 2, 1, 0]).percentile == 100.0


def test_permutation_distribution_sample_is_seeded_and_close_to_exact():
    rel = [3, 2, 2, 1, 1, 0, 0, 0, 1]
    exact = nc.permutation_distribution(rel, k=5, max_exact=9)
    first = nc.permutation_distribution(rel, k=5, max_exact=8, samples=5000, seed=7)
    again = nc.permutation_distribution(rel, k=5, max_exact=8, samples=5000, seed=7)
    assert exact.exact and exact.values.size == math.factorial(9)
    assert not first.exact and first.values.size == 5000
    assert np.array_equal(first.values, again.values)
    assert first.mean == pytest.approx(exact.mean, abs=0.02)
    assert exact.values.min() <= first.values.min() and first.values.max() <= exact.values.max()


def test_permutation_distribution_values_are_read_only():
    with pytest.raises(ValueError):
        nc.permutation_distribution([1, 0]).values[0] = 0.5


@pytest.mark.parametrize(
    ("after", "labels_after", "expected"),
    [
        ([3, 2, 1, 0, 0], ["D1", "D2", "D5", "D3", "D4"], ("moved", "D5", None, 5, 3, "raised")),
        ([2, 0, 0, 3, 1], ["D2", "D3", "D4", "D1", "D5"], ("moved", "D1", None, 1, 4, "lowered")),
        # neighbours exchanged: D1 down one or D2 up one, the lists cannot tell; both named
        ([2, 3, 0, 0, 1], ["D2", "D1", "D3", "D4", "D5"], ("swapped", "D1", "D2", 1, 2, "lowered")),
        ([1, 2, 0, 0, 3], ["D5", "D2", "D3", "D4", "D1"], ("swapped", "D1", "D5", 1, 5, "lowered")),
        ([0, 0, 1, 3, 2], ["D3", "D4", "D5", "D1", "D2"], ("reordered", None, None, None, None, "lowered")),
        ([3, 2, 0, 0, 1], None, ("unchanged", None, None, None, None, "unchanged")),
        ([3, 2, 0, 0, 0], ["D1", "D2", "D3", "D4", "D5"], ("regraded", "D5", None, 5, 5, "raised")),
        ([3, 2, 0, 2, 0], None, ("regraded", None, None, None, None, "lowered")),
        ([3, 2, 0, 0], None, ("other", None, None, None, None, "raised")),
    ],
)
def test_describe_change_names_the_move(after, labels_after, expected):
    c = nc.describe_change(EXAMPLE, after, None, labels_after)
    assert (c.kind, c.item, c.other_item, c.from_position, c.to_position, c.effect) == expected
    assert c.ndcg_before == nc.ndcg(EXAMPLE)
    assert c.ndcg_after == nc.ndcg(after)
    assert c.delta == c.ndcg_after - c.ndcg_before


def test_describe_change_regraded_reports_the_grades_and_cutoff():
    c = nc.describe_change(EXAMPLE, [3, 2, 2, 0, 1], k=3)
    assert (c.item, c.grade_before, c.grade_after, c.k) == ("D3", 0.0, 2.0, 3)
    assert c.ndcg_after == nc.ndcg([3, 2, 2, 0, 1], k=3)


def test_describe_change_checks_labels():
    with pytest.raises(nc.NDCGInputError) as info:
        nc.describe_change(EXAMPLE, EXAMPLE, ["a"] * 5, None)
    assert info.value.key == "label_duplicate"


# --- CG of the step table sums gains ------------------------------------------------------


def test_step_table_cg_sums_exponential_gains():
    """2^rel − 1 of [3, 2, 0, 0, 1] is 7, 3, 0, 0, 1: CG runs 7, 10, 10, 10, 11 (not 6)."""
    t = nc.step_table(EXAMPLE, gain="exponential")
    assert t["cg"].tolist() == [7, 7 + 3, 10, 10, 10 + 1]


def test_step_table_cg_equals_core_cg_for_every_gain():
    for gain in ("linear", "exponential"):
        t = nc.step_table(EXAMPLE, k=3, gain=gain)
        assert t["cg"].iloc[-1] == nc.cg(EXAMPLE, k=3, gain=gain)


# --- unjudged items in the step table -----------------------------------------------------


def test_step_table_unjudged_zero_keeps_row_with_zero_gain():
    t = nc.step_table([3, float("nan"), 1], unjudged="zero")
    assert np.isnan(t["relevance"].iloc[1]) and t["gain"].iloc[1] == 0
    assert t["ndcg"].iloc[-1] == pytest.approx((3 + 1 / L2(4)) / (3 + 1 / L2(3)), abs=1e-12)


def test_step_table_unjudged_drop_removes_item_and_label():
    t = nc.step_table([3, float("nan"), 1], labels=["a", "b", "c"], unjudged="drop")
    assert t["item"].tolist() == ["a", "c"]
    assert t["ndcg"].iloc[-1] == 1.0


# --- order bounds: closed forms against brute force ---------------------------------------


def brute_orders(relevance, k=None, gain="linear", pool=None):
    """nDCG@k of every ordering, by the textbook loop (no core)."""
    g = (lambda x: 2**x - 1) if gain == "exponential" else (lambda x: x)

    def dcg(grades, cut):
        return sum(g(x) / math.log2(i + 2) for i, x in enumerate(grades[:cut]))

    cut = len(relevance) if k is None else k
    ideal_src = relevance if pool is None else pool
    best = dcg(sorted(ideal_src, reverse=True), len(ideal_src) if k is None else k)
    return [
        dcg([relevance[i] for i in p], cut) / best if best > 0 else 0.0
        for p in itertools.permutations(range(len(relevance)))
    ]


def test_order_bounds_issue_numbers():
    """[1,1,1,1,0] averages 0.921 and never drops below 0.761; [1,0,0,0,0] averages 0.590."""
    d = [1 / L2(i + 1) for i in range(1, 6)]
    ones = nc.order_bounds([1, 1, 1, 1, 0])
    idcg4 = d[0] + d[1] + d[2] + d[3]
    assert ones.mean == pytest.approx((4 / 5) * sum(d) / idcg4, abs=1e-12)
    assert ones.worst == pytest.approx((d[1] + d[2] + d[3] + d[4]) / idcg4, abs=1e-12)
    assert (round(ones.mean, 3), round(ones.worst, 3)) == (0.921, 0.761)
    single = nc.order_bounds([1, 0, 0, 0, 0])
    assert single.mean == pytest.approx((1 / 5) * sum(d) / 1, abs=1e-12)
    assert round(single.mean, 3) == 0.590


def test_order_bounds_worst_of_worked_example():
    """Worst order of [3, 2, 0, 0, 1] is ascending [0, 0, 1, 2, 3]: 0.530, not 0."""
    worst = (1 / L2(4) + 2 / L2(5) + 3 / L2(6)) / (3 + 2 / L2(3) + 1 / L2(4))
    got = nc.order_bounds(EXAMPLE).worst
    assert got == pytest.approx(worst, abs=1e-12)
    assert round(got, 3) == 0.530


def test_order_bounds_best_is_below_one_against_a_pool():
    b = nc.order_bounds([3, 3, 3], pool=[3, 3, 3, 3])
    assert b.best == pytest.approx((3 + 3 / L2(3) + 3 / L2(4)) / (3 + 3 / L2(3) + 3 / L2(4) + 3 / L2(5)))


def test_order_bounds_nothing_relevant_is_all_zero():
    b = nc.order_bounds([0, 0, 0])
    assert (b.worst, b.mean, b.best) == (0.0, 0.0, 0.0)


def test_permutation_distribution_carries_exact_bounds_when_sampled():
    rel = [3, 2, 2, 1, 1, 0, 0, 0, 1, 2]
    sampled = nc.permutation_distribution(rel, k=5, samples=2000)
    bounds = nc.order_bounds(rel, k=5)
    assert not sampled.exact
    assert (sampled.worst, sampled.mean, sampled.best) == (bounds.worst, bounds.mean, bounds.best)
    assert sampled.worst <= sampled.values.min() and sampled.values.max() <= sampled.best + 1e-12


# --- log bases ----------------------------------------------------------------------------


def test_base_comparison_dcg_matches_scikit_learn_log_base():
    from sklearn.metrics import dcg_score

    t = nc.base_comparison(EXAMPLE)
    for base, dcg in zip(t["base"], t["dcg"], strict=False):
        assert dcg == pytest.approx(dcg_score([EXAMPLE], [[5, 4, 3, 2, 1]], log_base=base), abs=1e-12)


def test_base_comparison_ndcg_does_not_depend_on_base():
    t = nc.base_comparison(EXAMPLE, k=3)
    assert t["ndcg"].tolist() == pytest.approx([nc.ndcg(EXAMPLE, k=3)] * 3, abs=1e-12)
    # base 10 at k = 3: 3 / log10(2) + 2 / log10(3) + 0 / log10(4)
    assert t["dcg"].iloc[2] == pytest.approx(3 / np.log10(2) + 2 / np.log10(3), abs=1e-12)


def test_base_comparison_rejects_base_one():
    with pytest.raises(nc.NDCGInputError, match="log bases"):
        nc.base_comparison(EXAMPLE, bases=[1.0])


def test_mismatched_cutoffs_perfect_list_gets_0_7487():
    c = nc.mismatched_cutoffs([3, 2, 2, 1], dcg_k=2, idcg_k=4)
    assert c.ratio == pytest.approx((3 + 2 / L2(3)) / (3 + 2 / L2(3) + 2 / L2(4) + 1 / L2(5)), abs=1e-12)
    assert c.ndcg == 1.0 and (c.dcg_k, c.idcg_k) == (2, 4)


def test_order_bounds_agree_with_scikit_learn_over_all_orders():
    """scikit-learn scores every ordering (scores n..1 rank the permuted grades); min and mean match."""
    from sklearn.metrics import ndcg_score

    rel = [3, 2, 0, 0, 1, 2]
    scores = [[6, 5, 4, 3, 2, 1]]
    values = [ndcg_score([[rel[i] for i in p]], scores, k=4) for p in itertools.permutations(range(len(rel)))]
    b = nc.order_bounds(rel, k=4)
    assert b.worst == pytest.approx(min(values), abs=1e-12)
    assert b.mean == pytest.approx(float(np.mean(values)), abs=1e-12)


# --- unjudged items (NaN) in the per-k table and in describe_change -------------------------

_NAN = float("nan")


def test_ndcg_at_each_k_unjudged_zero_matches_hand_arithmetic():
    """[3, ?, 2]: DCG@k = 3, 3 + 0/log2(3), 3 + 0 + 2/log2(4); IDCG from the judged 3, 2."""
    table = nc.ndcg_at_each_k([3, _NAN, 2], unjudged="zero")
    dcg = [3, 3, 3 + 2 / np.log2(4)]
    idcg = [3, 3 + 2 / np.log2(3), 3 + 2 / np.log2(3)]
    assert table["ndcg"].tolist() == pytest.approx([d / i for d, i in zip(dcg, idcg, strict=True)], abs=1e-12)


def test_ndcg_at_each_k_unjudged_drop_is_the_condensed_list():
    """[3, ?, 2] condensed is [3, 2]: the ideal order, nDCG@k = 1 for k = 1, 2."""
    assert nc.ndcg_at_each_k([3, _NAN, 2], unjudged="drop")["ndcg"].tolist() == pytest.approx(
        [1.0, 1.0], abs=1e-12
    )


def test_ndcg_at_each_k_nothing_judged_is_refused():
    with pytest.raises(nc.NDCGInputError, match="unjudged") as info:
        nc.ndcg_at_each_k([_NAN, _NAN], unjudged="drop")
    assert info.value.key == "all_unjudged"


def test_describe_change_regrading_an_unjudged_item_is_one_regrade():
    """Two NaN are the same grade (unjudged): only the item given a grade changed."""
    c = nc.describe_change(
        [3, _NAN, _NAN], [3, 2, _NAN], ["D1", "D2", "D3"], ["D1", "D2", "D3"], unjudged="zero"
    )
    assert (c.kind, c.item) == ("regraded", "D2")
    assert np.isnan(c.grade_before) and c.grade_after == 2
    # before: 3 / log2(2) over IDCG 3; after: (3 + 2/log2(3)) over the ideal 3, 2
    assert (c.ndcg_before, c.ndcg_after) == pytest.approx((1.0, 1.0), abs=1e-12)


@pytest.mark.parametrize(
    ("mover", "expected"),
    [
        ("D3", ("moved", "D3", None, 3, 2)),
        ("D2", ("moved", "D2", None, 2, 3)),
        (None, ("swapped", "D2", "D3", 2, 3)),
    ],
)
def test_describe_change_neighbours_name_the_mover_only_when_it_is_known(mover, expected):
    """D2 down one and D3 up one give the same lists: a button that moved one names it."""
    c = nc.describe_change([3, 0, 2], [3, 2, 0], ["D1", "D2", "D3"], ["D1", "D3", "D2"], mover=mover)
    assert (c.kind, c.item, c.other_item, c.from_position, c.to_position) == expected


def test_describe_change_moving_an_unjudged_item_is_a_move():
    c = nc.describe_change(
        [3, _NAN, 2], [3, 2, _NAN], ["D1", "D2", "D3"], ["D1", "D3", "D2"], unjudged="zero", mover="D3"
    )
    assert (c.kind, c.item, c.from_position, c.to_position) == ("moved", "D3", 3, 2)
    # 3 + 0 + 2/log2(4) before, 3 + 2/log2(3) after; the ideal is 3, 2 either way
    ideal = 3 + 2 / np.log2(3)
    assert c.ndcg_before == pytest.approx((3 + 2 / np.log2(4)) / ideal, abs=1e-12)
    assert c.ndcg_after == pytest.approx(1.0, abs=1e-12)
