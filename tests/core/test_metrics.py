"""Worked examples of CG, DCG, IDCG and nDCG (written as arithmetic) and scikit-learn agreement."""

import numpy as np
import pytest
from sklearn.metrics import dcg_score, ndcg_score

import ndcg_core as nc

L2 = np.log2
EXAMPLE = [3, 2, 0, 0, 1]
EXAMPLE_DCG = 3 + 2 / L2(3) + 1 / L2(6)
EXAMPLE_IDCG = 3 + 2 / L2(3) + 1 / L2(4)


@pytest.mark.parametrize(("relevance", "k", "expected"), [
    (EXAMPLE, None, EXAMPLE_DCG),
    (EXAMPLE, 3, 3 + 2 / L2(3)),
    (EXAMPLE, 50, EXAMPLE_DCG),
    ([0, 0, 1], 2, 0.0),
    ([0, 0, 1], None, 1 / L2(4)),
    ([2.5, 0.5], None, 2.5 + 0.5 / L2(3)),
])
def test_dcg_matches_hand_arithmetic(relevance, k, expected):
    assert nc.dcg(relevance, k=k) == pytest.approx(expected, abs=1e-12)


def test_dcg_worked_example_rounds_to_teaching_number():
    """TEACHING.md: DCG@5 = 4.6487, not the 4.67 a tutorial printed."""
    assert round(nc.dcg(EXAMPLE), 4) == 4.6487


@pytest.mark.parametrize(("relevance", "kwargs", "expected"), [
    (EXAMPLE, {}, EXAMPLE_IDCG),
    (EXAMPLE, {"k": 2}, 3 + 2 / L2(3)),
    (EXAMPLE, {"pool": [3, 3, 2, 2, 1, 0, 0]}, 3 + 3 / L2(3) + 2 / 2 + 2 / L2(5) + 1 / L2(6)),
    ([3, 3, 3], {"pool": [3, 3, 3, 3]}, 3 + 3 / L2(3) + 3 / 2 + 3 / L2(5)),
    ([3, 3, 3], {"pool": [3, 3, 3, 3], "k": 3}, 3 + 3 / L2(3) + 3 / 2),
])
def test_idcg_matches_hand_arithmetic(relevance, kwargs, expected):
    assert nc.idcg(relevance, **kwargs) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("relevance", [[3, 3, 2], [3, 2, 3], [2, 3, 3]])
def test_cg_is_blind_to_order(relevance):
    assert nc.cg(relevance) == 3 + 3 + 2


@pytest.mark.parametrize(("relevance", "kwargs", "expected", "rounded"), [
    (EXAMPLE, {}, EXAMPLE_DCG / EXAMPLE_IDCG, (4, 0.9762)),
    (EXAMPLE, {"gain": "exponential"},
     (7 + 3 / L2(3) + 1 / L2(6)) / (7 + 3 / L2(3) + 1 / L2(4)), (5, 0.98795)),
    ([3, 2, 3, 0, 1], {"discount": "jarvelin"},
     (3 + 2 / 1 + 3 / L2(3) + 0 + 1 / L2(5)) / (3 + 3 / 1 + 2 / L2(3) + 1 / L2(4) + 0), (3, 0.944)),
    ([3, 2, 3, 0, 1], {},
     (3 + 2 / L2(3) + 3 / L2(4) + 1 / L2(6)) / (3 + 3 / L2(3) + 2 / L2(4) + 1 / L2(5)), (3, 0.972)),
    ([3, 3, 3], {"pool": [3, 3, 3, 3]},
     (3 + 3 / L2(3) + 3 / 2) / (3 + 3 / L2(3) + 3 / 2 + 3 / L2(5)), (4, 0.8319)),
    (EXAMPLE, {"pool": [3, 3, 2, 2, 1, 0, 0]},
     EXAMPLE_DCG / (3 + 3 / L2(3) + 2 / 2 + 2 / L2(5) + 1 / L2(6)), (4, 0.6510)),
    (EXAMPLE, {"k": 3}, (3 + 2 / L2(3)) / (3 + 2 / L2(3) + 1 / 2), (4, 0.8950)),
])
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
        (EXAMPLE_DCG, EXAMPLE_IDCG, EXAMPLE_DCG / EXAMPLE_IDCG), abs=1e-12)


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
