"""ndcg_core.ties: tie groups, the six tie treatments, the teaching example, brute-force proofs."""

from itertools import permutations, product
from math import log2

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import dcg_score as sk_dcg_score
from sklearn.metrics import ndcg_score as sk_ndcg_score

import ndcg_core as nc
from ndcg_core.ties import (
    TIES,
    dcg_from_scores,
    ndcg_from_scores,
    rank_by_score,
    round_scores,
    tie_groups,
    tie_view,
)
from ndcg_core.validate import NDCGInputError

# TEACHING.md §3: three items tie at 0.9.
GRADES = [7, 4, 1, 0, 0]
SCORES = [0.9, 0.5, 0.6, 0.9, 0.9]
IDCG = 7 + 4 / log2(3) + 1 / log2(4)
TAIL = 1 / log2(5) + 4 / log2(6)  # grade 1 at position 4, grade 4 at position 5


# --- the teaching example, as arithmetic ------------------------------------------------


def test_ndcg_from_scores_average_is_the_mean_gain_of_the_tied_group():
    """The group (7, 0, 0) spreads its mean 7/3 over positions 1-3."""
    expected = (7 / 3 * (1 + 1 / log2(3) + 1 / log2(4)) + TAIL) / IDCG
    assert ndcg_from_scores(GRADES, SCORES) == pytest.approx(expected, abs=1e-12)
    assert round(expected, 5) == 0.69338


def test_ndcg_from_scores_optimistic_puts_the_7_first():
    expected = (7 + TAIL) / IDCG
    assert ndcg_from_scores(GRADES, SCORES, ties="optimistic") == pytest.approx(expected, abs=1e-12)
    assert round(expected, 5) == 0.89568


def test_ndcg_from_scores_trec_eval_puts_the_larger_id_first():
    """Ids descending as text among the 0.9s: D5, D4, D1, then D3, D2: grades 0, 0, 7, 1, 4."""
    expected = (7 / log2(4) + TAIL) / IDCG
    assert ndcg_from_scores(GRADES, SCORES, ties="trec_eval") == pytest.approx(expected, abs=1e-12)
    assert round(expected, 5) == 0.54651


def test_ndcg_from_scores_trec_eval_compares_ids_as_text():
    """As text "D9" > "D2" > "D10" ("1" < "2"): order D9 (grade 1), D2 (0), D10 (2)."""
    labels = ["D2", "D9", "D10"]
    expected = (1 + 0 / log2(3) + 2 / log2(4)) / (2 + 1 / log2(3))
    got = ndcg_from_scores([0, 1, 2], [0.5, 0.5, 0.5], ties="trec_eval", labels=labels)
    assert got == pytest.approx(expected, abs=1e-12)


def test_ndcg_from_scores_trec_eval_default_ids_put_d10_before_d2():
    """Default ids D1..D10 tied: D9 first, then D8 ... D2, D10, D1 (as text "D10" < "D2")."""
    grades = [0] * 9 + [3]  # only D10 is relevant
    ranking = rank_by_score(grades, [1.0] * 10, ties="trec_eval")
    assert [f"D{i + 1}" for i in ranking.order] == [
        "D9",
        "D8",
        "D7",
        "D6",
        "D5",
        "D4",
        "D3",
        "D2",
        "D10",
        "D1",
    ]
    expected = 3 / log2(9 + 1) / 3
    assert ndcg_from_scores(grades, [1.0] * 10, ties="trec_eval") == pytest.approx(expected, abs=1e-12)


def test_ndcg_from_scores_input_keeps_the_tied_items_in_input_order():
    """D1, D4, D5 at 0.9 (grades 7, 0, 0), then D3 (1), D2 (4): here the best case."""
    expected = (7 + 0 / log2(3) + 0 / log2(4) + TAIL) / IDCG
    assert ndcg_from_scores(GRADES, SCORES, ties="input") == pytest.approx(expected, abs=1e-12)
    assert round(expected, 5) == 0.89568


def test_ndcg_from_scores_input_with_exponential_gain_is_teachings_0_97276():
    """TEACHING.md §3: exponential gain, input order (LightGBM, XGBoost) gives 0.97276."""
    dcg = (2**7 - 1) + (2**1 - 1) / log2(5) + (2**4 - 1) / log2(6)
    ideal = (2**7 - 1) + (2**4 - 1) / log2(3) + (2**1 - 1) / log2(4)
    got = ndcg_from_scores(GRADES, SCORES, gain="exponential", ties="input")
    assert got == pytest.approx(dcg / ideal, abs=1e-12)
    assert round(dcg / ideal, 5) == 0.97276


def test_ndcg_from_scores_pessimistic_puts_the_7_last_in_its_group():
    expected = (7 / log2(4) + TAIL) / IDCG
    assert ndcg_from_scores(GRADES, SCORES, ties="pessimistic") == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(("ties", "ignore_ties"), [("average", False), ("ignore", True)])
def test_ndcg_from_scores_teaching_example_matches_scikit_learn(ties, ignore_ties):
    expected = sk_ndcg_score([GRADES], [SCORES], ignore_ties=ignore_ties)
    assert ndcg_from_scores(GRADES, SCORES, ties=ties) == pytest.approx(expected, abs=1e-12)


def test_dcg_from_scores_tutorial_slip_averages_the_tie_at_zero():
    """TEACHING.md §2: grades passed as scores; items with grades 1 and 0 tie at score 0."""
    expected = 3 + 2 / log2(3) + 0.5 / log2(5) + 0.5 / log2(6)
    assert dcg_from_scores([3, 2, 1, 0, 0], [3, 2, 0, 0, 1]) == pytest.approx(expected, abs=1e-12)
    assert round(expected, 4) == 4.6706


def test_ndcg_from_scores_worked_example_without_ties():
    expected = (3 + 2 / log2(3) + 1 / log2(6)) / (3 + 2 / log2(3) + 1 / log2(4))
    assert ndcg_from_scores([3, 2, 0, 0, 1], [5, 4, 3, 2, 1]) == pytest.approx(expected, abs=1e-12)


def test_ndcg_from_scores_cut_inside_a_tie_uses_the_whole_group():
    """k = 2 cuts the group (7, 0, 0): positions 1-2 get 7/3 each."""
    expected = 7 / 3 * (1 + 1 / log2(3)) / (7 + 4 / log2(3))
    assert ndcg_from_scores(GRADES, SCORES, k=2) == pytest.approx(expected, abs=1e-12)
    assert expected == pytest.approx(sk_ndcg_score([GRADES], [SCORES], k=2), abs=1e-12)


def test_ndcg_from_scores_pool_lowers_the_ideal():
    pool = [7, 7, 4, 1, 0, 0]
    ideal = 7 + 7 / log2(3) + 4 / log2(4) + 1 / log2(5)
    expected = (7 + TAIL) / ideal
    got = ndcg_from_scores(GRADES, SCORES, ties="optimistic", pool=pool)
    assert got == pytest.approx(expected, abs=1e-12)


def test_ndcg_from_scores_nothing_relevant_is_zero():
    assert ndcg_from_scores([0, 0, 0], [0.3, 0.3, 0.1]) == 0.0


def test_ndcg_from_scores_exponential_gain_averages_gains_not_grades():
    """Gains 2^7 - 1 = 127, 0, 0 are averaged: 127 / 3 each, not 2^(7/3) - 1."""
    ideal = 127 + 15 / log2(3) + 1 / log2(4)
    expected = (127 / 3 * (1 + 1 / log2(3) + 1 / log2(4)) + 1 / log2(5) + 15 / log2(6)) / ideal
    got = ndcg_from_scores(GRADES, SCORES, gain="exponential")
    assert got == pytest.approx(expected, abs=1e-12)


# --- tie groups and rankings ------------------------------------------------------------


def test_tie_groups_number_score_levels_from_the_top():
    assert tie_groups(SCORES).tolist() == [1, 3, 2, 1, 1]


def test_tie_groups_treats_minus_zero_as_zero():
    assert tie_groups([0.0, -0.0, -1.0]).tolist() == [1, 1, 2]


@pytest.mark.parametrize(
    ("ties", "order"),
    [
        ("input", [0, 3, 4, 2, 1]),
        ("trec_eval", [4, 3, 0, 2, 1]),
        ("average", [0, 3, 4, 2, 1]),
        ("optimistic", [0, 3, 4, 2, 1]),
        ("pessimistic", [3, 4, 0, 2, 1]),
    ],
)
def test_rank_by_score_orders_ties_as_asked(ties, order):
    ranking = rank_by_score(GRADES, SCORES, ties=ties)
    assert ranking.order.tolist() == order
    assert ranking.relevance.tolist() == [GRADES[i] for i in order]
    assert ranking.scores.tolist() == [SCORES[i] for i in order]


def test_rank_by_score_reports_groups_in_rank_order():
    ranking = rank_by_score(GRADES, SCORES, ties="average")
    assert ranking.group.tolist() == [1, 1, 1, 2, 3]
    assert ranking.group_size.tolist() == [3, 3, 3, 1, 1]


def test_rank_by_score_result_is_read_only():
    ranking = rank_by_score(GRADES, SCORES)
    with pytest.raises(ValueError):
        ranking.order[0] = 1
    with pytest.raises(AttributeError):
        ranking.order = np.arange(5)  # type: ignore[misc]


def test_tie_view_counts_groups_and_tied_items():
    view = tie_view(GRADES, SCORES)
    assert (view.n_groups, view.n_tied_items) == (3, 3)
    assert view.average == ndcg_from_scores(GRADES, SCORES)
    assert view.ranking.order.tolist() == [0, 3, 4, 2, 1]


def test_round_scores_makes_ties_appear():
    rounded = round_scores([0.91, 0.5, 0.62, 0.87, 0.94], 1)
    assert rounded.tolist() == SCORES
    assert tie_view(GRADES, rounded).n_tied_items == 3


def test_public_names_are_exported():
    assert nc.tie_view is tie_view and nc.rank_by_score is rank_by_score
    assert nc.TIES == TIES == ("average", "optimistic", "pessimistic", "input", "trec_eval", "ignore")


# --- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "key", "piece"),
    [
        (lambda: rank_by_score(GRADES, SCORES, ties="random"), "unknown_option", "ties must be one of"),
        (lambda: ndcg_from_scores(GRADES, SCORES, ties="best"), "unknown_option", "Got 'best'"),
        (lambda: dcg_from_scores(GRADES, SCORES, gain="square"), "unknown_option", "gain must be"),
        (lambda: tie_view(GRADES, SCORES, discount="ln"), "unknown_option", "discount must be"),
        (lambda: ndcg_from_scores(GRADES, SCORES[:4]), "length_mismatch", "Got 5 and 4 items"),
        (lambda: tie_groups([]), "empty", "score list is empty"),
        (lambda: tie_groups([0.5, float("nan")]), "not_finite", "Item 2 of the score list"),
        (lambda: ndcg_from_scores([1, -1], [0.5, 0.4]), "negative", "Item 2 of the relevance list"),
        (lambda: ndcg_from_scores(GRADES, SCORES, k=0), "k_invalid", "Got 0 instead"),
        (lambda: round_scores(SCORES, -1), "decimals_invalid", "from 0 to 15. Got -1 instead"),
        (lambda: round_scores(SCORES, 1.5), "decimals_invalid", "Got 1.5 instead"),
        (lambda: round_scores(SCORES, True), "decimals_invalid", "Got True instead"),
    ],
)
def test_ties_errors_carry_their_key(call, key, piece):
    with pytest.raises(NDCGInputError, match=piece) as info:
        call()
    assert info.value.key == key


def test_dcg_from_scores_accepts_negative_grades_like_dcg_score():
    grades, scores = [-1, 2, 0], [0.2, 0.2, 0.9]
    assert dcg_from_scores(grades, scores) == pytest.approx(sk_dcg_score([grades], [scores]))


# --- properties: brute force over every order the ties allow -----------------------------

GAINS = ("linear", "exponential")
DISCOUNTS = ("log2", "jarvelin")


@st.composite
def scored_lists(draw, max_size=6):
    n = draw(st.integers(1, max_size))
    grades = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    scores = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))  # few levels: ties
    k = draw(st.one_of(st.none(), st.integers(1, n + 1)))
    return grades, [s / 2 for s in scores], k


def _all_tie_orders_dcg(grades, scores, k, gain, discount):
    """DCG@k of every order that sorts the scores descending (each tie group permuted)."""
    levels = sorted(set(scores), reverse=True)
    groups = [[i for i, s in enumerate(scores) if s == level] for level in levels]
    values = []
    for parts in product(*(permutations(group) for group in groups)):
        order = [i for part in parts for i in part]
        values.append(nc.dcg([grades[i] for i in order], k=k, gain=gain, discount=discount))
    return values


@settings(max_examples=150, deadline=None)
@given(scored_lists(), st.sampled_from(GAINS), st.sampled_from(DISCOUNTS))
def test_average_is_the_mean_over_every_order_of_the_ties(case, gain, discount):
    grades, scores, k = case
    every = _all_tie_orders_dcg(grades, scores, k, gain, discount)
    got = dcg_from_scores(grades, scores, k=k, gain=gain, discount=discount)
    assert got == pytest.approx(np.mean(every), abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(scored_lists(), st.sampled_from(GAINS), st.sampled_from(DISCOUNTS))
def test_optimistic_and_pessimistic_are_the_best_and_worst_orders(case, gain, discount):
    grades, scores, k = case
    every = _all_tie_orders_dcg(grades, scores, k, gain, discount)
    options = {"k": k, "gain": gain, "discount": discount}
    assert dcg_from_scores(grades, scores, ties="optimistic", **options) == pytest.approx(max(every))
    assert dcg_from_scores(grades, scores, ties="pessimistic", **options) == pytest.approx(min(every))


@settings(max_examples=200, deadline=None)
@given(scored_lists(max_size=9), st.sampled_from(GAINS), st.sampled_from(DISCOUNTS))
def test_tie_view_orders_pessimistic_average_optimistic(case, gain, discount):
    grades, scores, k = case
    view = tie_view(grades, scores, k=k, gain=gain, discount=discount)
    assert view.pessimistic <= view.average + 1e-12
    assert view.average <= view.optimistic + 1e-12
    for single in (view.ignore, view.input, view.trec_eval):
        assert view.pessimistic - 1e-12 <= single <= view.optimistic + 1e-12


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=12), st.randoms(use_true_random=False))
def test_without_ties_all_six_agree(grades, rng):
    scores = list(range(len(grades)))
    rng.shuffle(scores)
    view = tie_view(grades, scores)
    assert view.n_tied_items == 0 and view.n_groups == len(grades)
    assert view.optimistic == pytest.approx(view.average, abs=1e-12)
    assert view.pessimistic == pytest.approx(view.average, abs=1e-12)
    assert view.ignore == pytest.approx(view.average, abs=1e-12)
    assert view.input == pytest.approx(view.average, abs=1e-12)
    assert view.trec_eval == pytest.approx(view.average, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(scored_lists(max_size=12))
def test_average_matches_scikit_learn(case):
    grades, scores, k = case
    if len(grades) < 2:
        return  # scikit-learn needs two documents
    expected = sk_ndcg_score([grades], [scores], k=k)
    assert ndcg_from_scores(grades, scores, k=k) == pytest.approx(expected, abs=1e-12)
    assert dcg_from_scores(grades, scores, k=k) == pytest.approx(
        sk_dcg_score([grades], [scores], k=k), abs=1e-12
    )


@st.composite
def tied_lists(draw):
    """Lengths 2..40, grades 0..3, two to four distinct scores (ints or floats): many ties."""
    n = draw(st.integers(2, 40))
    grades = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    levels = draw(st.integers(2, 4))
    scores = draw(st.lists(st.integers(0, levels - 1), min_size=n, max_size=n))
    if draw(st.booleans()):
        scores = [s / 4 for s in scores]
    k = draw(st.one_of(st.none(), st.integers(1, n)))
    return grades, scores, k


@settings(max_examples=400, deadline=None)
@given(tied_lists())
def test_ignore_equals_scikit_learns_ignore_ties_at_run_time(case):
    """The Ties page's scikit-learn treatment is scikit-learn's own number, on this machine."""
    grades, scores, k = case
    expected = sk_ndcg_score([grades], [scores], k=k, ignore_ties=True)
    assert ndcg_from_scores(grades, scores, k=k, ties="ignore") == pytest.approx(expected, abs=1e-12)
    assert tie_view(grades, scores, k=k).ignore == pytest.approx(expected, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(tied_lists())
def test_dcg_from_scores_ignore_equals_scikit_learns_dcg_at_run_time(case):
    grades, scores, k = case
    expected = sk_dcg_score([grades], [scores], k=k, ignore_ties=True)
    assert dcg_from_scores(grades, scores, k=k, ties="ignore") == pytest.approx(expected, abs=1e-12)


def test_ndcg_from_scores_ignore_matches_scikit_learn_on_the_issue_example():
    """Issue 11: the old "later input first" order gave 0.77181 here; scikit-learn's is its own."""
    grades = [2, 3, 3, 0, 0, 3, 3, 0, 1, 3, 1, 1, 3, 1, 1]
    scores = [2, 2, 0, 0, 3, 3, 3, 2, 3, 1, 1, 3, 0, 1, 0]
    expected = sk_ndcg_score([grades], [scores], ignore_ties=True)
    assert ndcg_from_scores(grades, scores, ties="ignore") == pytest.approx(expected, abs=1e-12)
    assert tie_view(grades, scores).ignore == pytest.approx(expected, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(tied_lists())
def test_input_is_a_stable_sort_by_score(case):
    """Brute force: among equal scores the earlier input index comes first."""
    grades, scores, _ = case
    expected = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    assert rank_by_score(grades, scores, ties="input").order.tolist() == expected


@settings(max_examples=200, deadline=None)
@given(tied_lists())
def test_trec_eval_sorts_by_score_then_id_descending_as_text(case):
    grades, scores, _ = case
    ids = [f"D{i + 1}" for i in range(len(scores))]
    expected = sorted(range(len(scores)), key=lambda i: (scores[i], ids[i]), reverse=True)
    assert rank_by_score(grades, scores, ties="trec_eval").order.tolist() == expected


@pytest.mark.parametrize("gain", list(nc.GAINS))
@pytest.mark.parametrize("discount", list(nc.DISCOUNTS))
def test_tie_view_takes_every_gain_and_discount_the_core_has(gain, discount):
    """The tie view offers what GAINS and DISCOUNTS hold, not a list of its own: with distinct
    scores every treatment is the ranked list's nDCG."""
    grades, scores = [3, 2, 0, 0, 1], [0.9, 0.8, 0.7, 0.6, 0.5]
    view = nc.tie_view(grades, scores, gain=gain, discount=discount)
    expected = nc.ndcg(grades, gain=gain, discount=discount)
    assert [view.average, view.optimistic, view.pessimistic] == pytest.approx([expected] * 3, abs=1e-12)


@pytest.mark.ranx
def test_ranx_order_is_the_order_ranx_gives_a_run():
    """ranx sorts a run with Numba's quicksort argsort; the core reproduces it on tied lists."""
    import ranx  # imported here: its Numba functions compile on import (seconds)

    rng = np.random.default_rng(7)
    for n in [*range(2, 20), *rng.integers(20, 61, 60).tolist()]:
        scores = rng.integers(0, int(rng.integers(1, n + 1)), n).astype(float) / 4
        # ids of four characters, as in every ranx test (CONTRIBUTING)
        ids = [f"D{i:03d}" for i in range(1, n + 1)]
        run = ranx.Run({"q": dict(zip(ids, scores.tolist(), strict=True))})
        expected = [ids.index(d) for d in run.run["q"]]
        assert nc.ranx_order(scores).tolist() == expected, scores.tolist()


def test_ranx_order_keeps_input_order_up_to_fifteen_items_only():
    assert nc.ranx_order([1.0] * 15).tolist() == list(range(15))
    assert nc.ranx_order([1.0] * 16).tolist() != list(range(16))
