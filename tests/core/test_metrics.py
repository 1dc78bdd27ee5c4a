"""Worked examples of CG, DCG, IDCG and nDCG (written as arithmetic) and scikit-learn agreement."""

import numpy as np
import pytest
from sklearn.metrics import dcg_score, ndcg_score

import ndcg_core as nc

L2 = np.log2
EXAMPLE = [3, 2, 0, 0, 1]
EXAMPLE_DCG = 3 + 2 / L2(3) + 1 / L2(6)
EXAMPLE_IDCG = 3 + 2 / L2(3) + 1 / L2(4)


@pytest.mark.parametrize(
    ("relevance", "k", "expected"),
    [
        (EXAMPLE, None, EXAMPLE_DCG),
        (EXAMPLE, 3, 3 + 2 / L2(3)),
        (EXAMPLE, 50, EXAMPLE_DCG),
        ([0, 0, 1], 2, 0.0),
        ([0, 0, 1], None, 1 / L2(4)),
        ([2.5, 0.5], None, 2.5 + 0.5 / L2(3)),
    ],
)
def test_dcg_matches_hand_arithmetic(relevance, k, expected):
    assert nc.dcg(relevance, k=k) == pytest.approx(expected, abs=1e-12)


def test_dcg_worked_example_rounds_to_teaching_number():
    """TEACHING.md: DCG@5 = 4.6487, not the 4.67 a tutorial printed."""
    assert round(nc.dcg(EXAMPLE), 4) == 4.6487


@pytest.mark.parametrize(
    ("relevance", "kwargs", "expected"),
    [
        (EXAMPLE, {}, EXAMPLE_IDCG),
        (EXAMPLE, {"k": 2}, 3 + 2 / L2(3)),
        (EXAMPLE, {"pool": [3, 3, 2, 2, 1, 0, 0]}, 3 + 3 / L2(3) + 2 / 2 + 2 / L2(5) + 1 / L2(6)),
        ([3, 3, 3], {"pool": [3, 3, 3, 3]}, 3 + 3 / L2(3) + 3 / 2 + 3 / L2(5)),
        ([3, 3, 3], {"pool": [3, 3, 3, 3], "k": 3}, 3 + 3 / L2(3) + 3 / 2),
    ],
)
def test_idcg_matches_hand_arithmetic(relevance, kwargs, expected):
    assert nc.idcg(relevance, **kwargs) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("relevance", [[3, 3, 2], [3, 2, 3], [2, 3, 3]])
def test_cg_is_blind_to_order(relevance):
    assert nc.cg(relevance) == 3 + 3 + 2


@pytest.mark.parametrize(
    ("relevance", "kwargs", "expected", "rounded"),
    [
        (EXAMPLE, {}, EXAMPLE_DCG / EXAMPLE_IDCG, (4, 0.9762)),
        (
            EXAMPLE,
            {"gain": "exponential"},
            (7 + 3 / L2(3) + 1 / L2(6)) / (7 + 3 / L2(3) + 1 / L2(4)),
            (5, 0.98795),
        ),
        (
            [3, 2, 3, 0, 1],
            {"discount": "jarvelin"},
            (3 + 2 / 1 + 3 / L2(3) + 0 + 1 / L2(5)) / (3 + 3 / 1 + 2 / L2(3) + 1 / L2(4) + 0),
            (3, 0.944),
        ),
        (
            [3, 2, 3, 0, 1],
            {},
            (3 + 2 / L2(3) + 3 / L2(4) + 1 / L2(6)) / (3 + 3 / L2(3) + 2 / L2(4) + 1 / L2(5)),
            (3, 0.972),
        ),
        (
            [3, 3, 3],
            {"pool": [3, 3, 3, 3]},
            (3 + 3 / L2(3) + 3 / 2) / (3 + 3 / L2(3) + 3 / 2 + 3 / L2(5)),
            (4, 0.8319),
        ),
        (
            EXAMPLE,
            {"pool": [3, 3, 2, 2, 1, 0, 0]},
            EXAMPLE_DCG / (3 + 3 / L2(3) + 2 / 2 + 2 / L2(5) + 1 / L2(6)),
            (4, 0.6510),
        ),
        (EXAMPLE, {"k": 3}, (3 + 2 / L2(3)) / (3 + 2 / L2(3) + 1 / 2), (4, 0.8950)),
    ],
)
def test_ndcg_teaching_examples(relevance, kwargs, expected, rounded):
    """The numbers of TEACHING.md, as arithmetic and as printed there."""
    value = nc.ndcg(relevance, **kwargs)
    assert value == pytest.approx(expected, abs=1e-12)
    assert round(value, rounded[0]) == rounded[1]


@pytest.mark.parametrize("relevance", [[3], [3, 0, 0], [3, 3, 3], [3, 3, 3, 3]])
def test_ndcg_blind_to_padding_and_missing_items(relevance):
    """Blind spots: irrelevant padding and unreturned items go unnoticed without a pool."""
    assert nc.ndcg(relevance) == 1.0


@pytest.mark.parametrize("relevance", [[0], [0, 0, 0], [0.0, 0.0]])
def test_ndcg_nothing_relevant_is_zero(relevance):
    assert nc.ndcg(relevance) == 0.0
    assert nc.idcg(relevance) == 0.0


def test_metrics_bundles_the_four_numbers():
    m = nc.metrics(EXAMPLE, k=10)
    assert (m.k, m.cg) == (5, 3 + 2 + 0 + 0 + 1)
    assert (m.dcg, m.idcg, m.ndcg) == pytest.approx(
        (EXAMPLE_DCG, EXAMPLE_IDCG, EXAMPLE_DCG / EXAMPLE_IDCG), abs=1e-12
    )


@pytest.mark.parametrize("seed", range(40))
def test_ndcg_and_dcg_agree_with_scikit_learn(seed):
    """Random graded lists, ranked by strictly decreasing scores: same as scikit-learn."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 30))
    rel = rng.integers(0, 4, n).astype(float) if seed % 2 else rng.uniform(0, 5, n).round(2)
    k = None if seed % 5 == 0 else int(rng.integers(1, n + 3))
    scores = np.arange(n, 0, -1, dtype=float)
    assert nc.ndcg(rel, k=k) == pytest.approx(ndcg_score([rel], [scores], k=k), abs=1e-12)
    assert nc.dcg(rel, k=k) == pytest.approx(dcg_score([rel], [scores], k=k), abs=1e-12)


def test_dcg_accepts_negative_grades_like_scikit_learn():
    rel = [2.0, -1.0, 0.5]
    assert nc.dcg(rel) == pytest.approx(dcg_score([rel], [[3, 2, 1]]), abs=1e-12)


# --- CG sums gains (Järvelin & Kekäläinen 2002) ---------------------------------------------


def test_cg_exponential_sums_gains_not_grades():
    """[3, 2, 0, 0, 1] with 2^rel − 1 has gains 7, 3, 0, 0, 1: CG = 11, not 6."""
    expected = (2**3 - 1) + (2**2 - 1) + 0 + 0 + (2**1 - 1)
    assert nc.cg(EXAMPLE, gain="exponential") == expected


def test_metrics_cg_sums_gains_with_exponential_gain():
    assert nc.metrics(EXAMPLE, k=2, gain="exponential").cg == (2**3 - 1) + (2**2 - 1)


def test_cg_linear_is_sum_of_grades():
    assert nc.cg(EXAMPLE, k=3) == 3 + 2 + 0


# --- the issue's numbers ------------------------------------------------------------------

ISSUE_POOL = [3, 2, 2, 2, 0, 0]
SYSTEM_A = [2, 2, 2, 3, 0]
SYSTEM_B = [3, 0, 0, 2, 2]
# ideal@5 of the pool {3, 2, 2, 2, 0, 0}: 3, 2, 2, 2, 0
IDCG_LINEAR = 3 + 2 / L2(3) + 2 / L2(4) + 2 / L2(5)
IDCG_EXP = 7 + 3 / L2(3) + 3 / L2(4) + 3 / L2(5)


def test_ndcg_linear_gain_ranks_system_a_first():
    a = (2 + 2 / L2(3) + 2 / L2(4) + 3 / L2(5)) / IDCG_LINEAR
    b = (3 + 2 / L2(5) + 2 / L2(6)) / IDCG_LINEAR
    got_a = nc.ndcg(SYSTEM_A, k=5, pool=ISSUE_POOL)
    got_b = nc.ndcg(SYSTEM_B, k=5, pool=ISSUE_POOL)
    assert (got_a, got_b) == (pytest.approx(a, abs=1e-12), pytest.approx(b, abs=1e-12))
    assert (round(got_a, 3), round(got_b, 3)) == (0.907, 0.757)


def test_ndcg_exponential_gain_ranks_system_b_first():
    a = (3 + 3 / L2(3) + 3 / L2(4) + 7 / L2(5)) / IDCG_EXP
    b = (7 + 3 / L2(5) + 3 / L2(6)) / IDCG_EXP
    got_a = nc.ndcg(SYSTEM_A, k=5, pool=ISSUE_POOL, gain="exponential")
    got_b = nc.ndcg(SYSTEM_B, k=5, pool=ISSUE_POOL, gain="exponential")
    assert (got_a, got_b) == (pytest.approx(a, abs=1e-12), pytest.approx(b, abs=1e-12))
    assert (round(got_a, 3), round(got_b, 3)) == (0.805, 0.809)


def test_dcg_at_2_over_idcg_at_4_is_the_mismatched_k_trap():
    """A perfect [3, 2, 2, 1] scored as DCG@2 / IDCG@4 gets 0.7487, not 1."""
    wrong = (3 + 2 / L2(3)) / (3 + 2 / L2(3) + 2 / L2(4) + 1 / L2(5))
    got = nc.dcg([3, 2, 2, 1], k=2) / nc.idcg([3, 2, 2, 1], k=4)
    assert got == pytest.approx(wrong, abs=1e-12)
    assert round(got, 4) == 0.7487
    assert nc.ndcg([3, 2, 2, 1], k=2) == 1.0


# --- unjudged items -----------------------------------------------------------------------

NAN = float("nan")


def test_ndcg_unjudged_zero_counts_unjudged_as_irrelevant():
    """trec_eval: [3, ?, 0, 1] is scored as [3, 0, 0, 1] against the ideal [3, 1, 0, 0]."""
    expected = (3 + 1 / L2(5)) / (3 + 1 / L2(3))
    assert nc.ndcg([3, NAN, 0, 1], unjudged="zero") == pytest.approx(expected, abs=1e-12)


def test_ndcg_unjudged_drop_scores_condensed_list():
    """Sakai's nDCG′: [3, ?, 0, 1] becomes [3, 0, 1] before anything is computed."""
    expected = (3 + 1 / L2(4)) / (3 + 1 / L2(3))
    assert nc.ndcg([3, NAN, 0, 1], unjudged="drop") == pytest.approx(expected, abs=1e-12)


def test_ndcg_unjudged_drop_cutoff_applies_to_condensed_list():
    expected = (3 + 1 / L2(3)) / (3 + 1 / L2(3))
    assert nc.ndcg([3, NAN, 1, 0], k=2, unjudged="drop") == pytest.approx(expected, abs=1e-12)


def test_ndcg_unjudged_with_pool_uses_judged_pool_ideal():
    expected = (3 + 1 / L2(5)) / (3 + 2 / L2(3) + 1 / L2(4))
    got = nc.ndcg([3, NAN, 0, 1], unjudged="zero", pool=[3, 2, 1, 0])
    assert got == pytest.approx(expected, abs=1e-12)


def test_ndcg_refuses_nan_without_unjudged_option():
    with pytest.raises(nc.NDCGInputError, match="finite"):
        nc.ndcg([3, NAN, 1])


def test_ndcg_unjudged_still_refuses_infinity():
    with pytest.raises(nc.NDCGInputError, match="finite"):
        nc.ndcg([3, float("inf"), 1], unjudged="zero")


def test_ndcg_unjudged_rejects_unknown_option():
    with pytest.raises(nc.NDCGInputError, match="unjudged must be one of"):
        nc.ndcg([3, 1], unjudged="skip")


def test_ndcg_unjudged_drop_of_all_unjudged_is_zero():
    """Nothing judged: the condensed list is empty, IDCG = 0, nDCG reported as 0."""
    assert nc.ndcg([NAN, NAN], unjudged="drop") == 0.0


def test_judged_at_k_counts_judged_share_of_top_k():
    assert nc.judged_at_k([3, NAN, 0, NAN, 1], k=4) == 2 / 4
    assert nc.judged_at_k([3, NAN, 0, NAN, 1]) == 3 / 5


def test_parse_relevance_accepts_question_mark_only_when_allowed():
    got = nc.parse_relevance("3, ?, 1", allow_unjudged=True)
    assert got[0] == 3 and np.isnan(got[1]) and got[2] == 1
    with pytest.raises(nc.NDCGInputError, match="'\\?', which is not a number"):
        nc.parse_relevance("3, ?, 1")


def test_parse_relevance_full_width_question_mark_is_unjudged():
    assert np.isnan(nc.parse_relevance("3，？", allow_unjudged=True)[1])


def test_parse_relevance_unjudged_still_names_bad_token_position():
    with pytest.raises(nc.NDCGInputError, match="Item 3 of the relevance list is 'x'"):
        nc.parse_relevance("?, 1, x", allow_unjudged=True)
