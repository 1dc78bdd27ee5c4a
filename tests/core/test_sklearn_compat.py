"""ndcg_core.dcg_score / ndcg_score against scikit-learn: same values (1e-12), same messages."""

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk

import ndcg_core as nc
from ndcg_core.validate import MESSAGES, NDCGInputError

TOL = 1e-12
FUNCTIONS = ("dcg_score", "ndcg_score")


def _pair(name):
    return getattr(nc, name), getattr(sk, name)


def _assert_agrees(y_true, y_score, **options):
    for name in FUNCTIONS:
        if name == "ndcg_score":
            options = {key: value for key, value in options.items() if key != "log_base"}
        ours, theirs = _pair(name)
        expected = theirs(y_true, y_score, **options)
        got = ours(y_true, y_score, **options)
        assert got == pytest.approx(expected, rel=TOL, abs=TOL), (name, options)


def _random_case(rng):
    queries, items = int(rng.integers(1, 9)), int(rng.integers(2, 16))
    y_true = rng.integers(0, 4, (queries, items))
    if rng.random() < 0.3:
        y_true = y_true * rng.random((queries, items))  # non-integer grades
    kind = rng.integers(0, 5)
    if kind == 0:
        y_score = rng.normal(size=(queries, items))  # continuous, no ties
    elif kind == 1:
        y_score = rng.random((queries, items)).round(1)  # many ties
    elif kind == 2:
        y_score = rng.integers(-2, 3, (queries, items))  # integer scores, ties, negatives
    elif kind == 3:
        y_score = rng.normal(size=(queries, items)).round(0).astype(np.float32)
    else:
        y_score = np.repeat(rng.random((queries, 1)), items, axis=1)  # everything tied
    k = None if rng.random() < 0.25 else int(rng.integers(1, items + 3))
    weights = None if rng.random() < 0.5 else rng.random(queries) + 0.1
    return y_true, y_score, k, weights


@pytest.mark.parametrize("ignore_ties", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_scores_agree_with_scikit_learn_on_random_matrices(seed, ignore_ties):
    """50 seeded random matrices per seed: ties or not, k from 1 to beyond n, weights."""
    rng = np.random.default_rng(seed)
    for _ in range(50):
        y_true, y_score, k, weights = _random_case(rng)
        log_base = float(rng.choice([2, 10, 1.5, np.e]))
        _assert_agrees(
            y_true, y_score, k=k, sample_weight=weights, ignore_ties=ignore_ties, log_base=log_base
        )


@st.composite
def matrices(draw):
    queries = draw(st.integers(1, 5))
    items = draw(st.integers(2, 9))
    cells = queries * items
    grades = draw(st.lists(st.integers(0, 3), min_size=cells, max_size=cells))
    scores = draw(
        st.lists(
            st.sampled_from([-1.0, -0.0, 0.0, 0.25, 0.5, 0.5000000000000001, 3.0]),
            min_size=cells,
            max_size=cells,
        )
    )
    k = draw(st.one_of(st.none(), st.integers(1, items + 2)))
    weights = draw(st.one_of(st.none(), st.lists(st.floats(0.1, 5), min_size=queries, max_size=queries)))
    shape = (queries, items)
    return np.reshape(grades, shape), np.reshape(scores, shape), k, weights


@settings(max_examples=150, deadline=None)
@given(matrices(), st.booleans())
def test_scores_agree_with_scikit_learn_hypothesis(case, ignore_ties):
    """Heavy ties, -0.0 against 0.0, scores one bit apart, negative scores."""
    y_true, y_score, k, weights = case
    _assert_agrees(y_true, y_score, k=k, sample_weight=weights, ignore_ties=ignore_ties)


@pytest.mark.parametrize("ignore_ties", [False, True])
def test_scores_agree_on_a_large_tied_batch(ignore_ties):
    """Several blocks of queries (the kernel works a block at a time), many ties."""
    rng = np.random.default_rng(7)
    y_true = rng.integers(0, 4, (1500, 100))
    y_score = rng.random((1500, 100)).round(1)
    for k in (1, 10, None):
        _assert_agrees(y_true, y_score, k=k, ignore_ties=ignore_ties)


@pytest.mark.parametrize("items", [3, 130, 300])
def test_scores_one_ulp_apart_are_not_ties(items):
    """Scores that differ only in their last bits: distinct for ties, exact order."""
    rng = np.random.default_rng(items)
    base = np.nextafter(0.5, 1.0) + np.arange(4) * np.finfo(float).eps / 2
    y_score = rng.choice(base, size=(20, items))
    y_true = rng.integers(0, 4, (20, items))
    for k in (1, 2, 5, None):
        _assert_agrees(y_true, y_score, k=k)


def test_scores_agree_with_negative_grades_for_dcg():
    rng = np.random.default_rng(3)
    y_true = rng.integers(-3, 4, (30, 8))
    y_score = rng.integers(0, 3, (30, 8))
    for k in (None, 3):
        assert nc.dcg_score(y_true, y_score, k=k) == pytest.approx(
            sk.dcg_score(y_true, y_score, k=k), abs=TOL
        )


@pytest.mark.parametrize(
    "convert",
    [
        lambda a: a.tolist(),
        lambda a: np.asfortranarray(a),
        lambda a: pd.DataFrame(a),
        lambda a: a.astype(np.float32),
        lambda a: a[:, ::-1],
    ],
)
def test_scores_accept_array_likes(convert):
    rng = np.random.default_rng(5)
    y_true = rng.integers(0, 4, (6, 7))
    y_score = rng.random((6, 7)).round(1)
    _assert_agrees(convert(y_true), convert(y_score), k=3)
    _assert_agrees(convert(y_true), convert(y_score), k=3, ignore_ties=True)


@pytest.mark.parametrize("k", [True, np.int64(3), 10**9])
def test_scores_accept_every_k_scikit_learn_accepts(k):
    y_true, y_score = [[3, 2, 0, 0, 1], [1, 0, 2, 0, 0]], [[5, 4, 3, 3, 1], [1, 1, 1, 0, 0]]
    _assert_agrees(y_true, y_score, k=k)


def test_scores_with_huge_integer_scores():
    y_true = [[3, 2, 0, 1], [0, 1, 2, 3]]
    y_score = np.array([[2**62, 2**62 - 1, -(2**62), 2**62], [5, -5, 5, 0]], dtype=np.int64)
    _assert_agrees(y_true, y_score)


def test_ndcg_score_worked_examples_as_arithmetic():
    ideal = 3 + 2 / np.log2(3) + 1 / np.log2(4)
    assert nc.ndcg_score([[3, 2, 0, 0, 1]], [[5, 4, 3, 2, 1]]) == pytest.approx(
        (3 + 2 / np.log2(3) + 1 / np.log2(6)) / ideal, abs=TOL
    )
    # TEACHING.md §3 through the 2-D interface.
    tie = 7 / 3 * (1 + 1 / np.log2(3) + 1 / np.log2(4)) + 1 / np.log2(5) + 4 / np.log2(6)
    assert nc.ndcg_score([[7, 4, 1, 0, 0]], [[0.9, 0.5, 0.6, 0.9, 0.9]]) == pytest.approx(
        tie / (7 + 4 / np.log2(3) + 1 / np.log2(4)), abs=TOL
    )


def test_ndcg_score_counts_queries_without_relevant_items_as_zero():
    """scikit-learn's rule, so ndcg_score(y, y) can be 0.5."""
    y = [[0, 0, 0], [1, 2, 3]]
    assert nc.ndcg_score(y, y) == 0.5 == sk.ndcg_score(y, y)


def test_ndcg_score_ignore_ties_reproduces_numpys_tie_order():
    """numpy's default argsort orders ties its own way; the same call gives the same order."""
    rng = np.random.default_rng(11)
    y_true = rng.integers(0, 4, (200, 40))
    y_score = rng.integers(0, 3, (200, 40)).astype(float)
    for k in (1, 3, 10):
        assert nc.ndcg_score(y_true, y_score, k=k, ignore_ties=True) == pytest.approx(
            sk.ndcg_score(y_true, y_score, k=k, ignore_ties=True), abs=TOL
        )


def test_scores_bool_scores_are_numbers():
    """scikit-learn cannot negate booleans when it averages ties; 0/1 is what they mean."""
    y_true = [[3, 2, 0, 1], [0, 1, 1, 0]]
    y_score = np.array([[True, False, True, False], [False, False, True, True]])
    assert nc.ndcg_score(y_true, y_score) == pytest.approx(
        sk.ndcg_score(y_true, y_score.astype(float)), abs=TOL
    )


# --- the exact path: integer grades of few bits ride in the sort key next to the score -------


@pytest.fixture
def exact_calls(monkeypatch):
    """How many blocks went through the exact path (``_exact_dcg``), counted as it runs."""
    calls = []
    # the namespace ndcg_score runs in (collecting the module's doctests may import the file
    # a second time, so ``ndcg_core.sklearn_compat`` is not necessarily that module)
    namespace = nc.ndcg_score.__globals__
    original = namespace["_exact_dcg"]

    def counted(*args, **kwargs):
        calls.append(args[0].shape)
        return original(*args, **kwargs)

    monkeypatch.setitem(namespace, "_exact_dcg", counted)
    return calls


@pytest.mark.parametrize(
    ("y_score", "k"),
    [
        ([[0.9, 0.5, 0.5, 0.5, 0.5, 0.1], [0.2, 0.2, 0.2, 0.7, 0.2, 0.2]], 3),  # straddles k
        ([[0.9, 0.5, 0.5, 0.2, 0.2, 0.1], [0.7, 0.7, 0.7, 0.1, 0.3, 0.3]], 3),  # ends at k
        ([[0.9, 0.5, 0.5, 0.2, 0.2, 0.1], [0.8, 0.1, 0.1, 0.1, 0.3, 0.3]], 1),  # starts after k
        ([[0.4] * 6, [0.0] * 6], 2),  # every item tied
        ([[0.4] * 6, [0.0] * 6], None),
        ([[0.9, 0.5, 0.5, 0.5, 0.5, 0.1], [0.4] * 6], 8),  # k beyond the items
    ],
)
def test_scores_tie_groups_at_the_cutoff_on_the_exact_path(exact_calls, y_score, k):
    y_true = [[0, 3, 1, 2, 0, 3], [2, 1, 0, 3, 3, 1]]
    _assert_agrees(y_true, y_score, k=k)
    _assert_agrees(y_true, y_score, k=k, sample_weight=[0.25, 2.0])
    assert exact_calls


@pytest.mark.parametrize(
    "grades",
    [
        np.array([[1, 4, 2, 3, 4, 1], [2, 2, 3, 1, 4, 4]]),  # 1..4: stored as grade - 1
        np.array([[2, 2, 2, 2, 2, 2], [2, 2, 2, 2, 2, 2]]),  # one value: no bits at all
        np.array([[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]),  # nothing relevant
        np.array([[0, 3, 1, 2, 0, 3], [2, 1, 0, 3, 3, 1]], dtype=np.uint8),
        np.array([[0, 3, 1, 2, 0, 3], [2, 1, 0, 3, 3, 1]], dtype=np.int32),
        np.array([[0, 3, 1, 2, 0, 3], [2, 1, 0, 3, 3, 1]], dtype=np.uint64),
        np.array([[0, 1, 1, 0, 0, 1], [1, 1, 0, 0, 0, 1]], dtype=bool),
        np.asfortranarray([[0, 3, 1, 2, 0, 3], [2, 1, 0, 3, 3, 1]]),  # int64 viewed, strided
        np.array([[255, 0, 17, 3, 255, 128], [1, 2, 0, 3, 3, 1]]),  # 8 bits, the most it takes
    ],
)
@pytest.mark.parametrize(
    "y_score",
    [
        [[0.9, 0.5, 0.5, 0.5, 0.5, 0.1], [0.2, 0.2, 0.2, 0.7, 0.2, 0.6]],
        [[0.9, 0.5, 0.6, 0.3, 0.4, 0.1], [0.2, 0.25, 0.1, 0.7, 0.3, 0.6]],
    ],
)
def test_scores_every_integer_grade_kind_on_the_exact_path(exact_calls, grades, y_score):
    for k in (1, 3, None):
        _assert_agrees(grades, y_score, k=k)
    assert exact_calls


def test_scores_negative_grades_for_dcg_on_the_exact_path(exact_calls):
    rng = np.random.default_rng(8)
    y_true = rng.integers(-3, 2, (40, 9))
    for y_score in (rng.random((40, 9)).round(1), rng.random((40, 9))):
        for k in (1, 4, None):
            assert nc.dcg_score(y_true, y_score, k=k) == pytest.approx(
                sk.dcg_score(y_true, y_score, k=k), abs=TOL
            )
    assert exact_calls


@pytest.mark.parametrize(
    ("y_true", "y_score"),
    [
        # scores of both signs: their keys span more than 2**62, no room for 2 bits of grade
        ([[0, 3, 1, 2], [2, 1, 0, 3]], [[-0.5, 0.5, 0.5, -0.5], [1.5, -2.0, 1.5, 1.5]]),
        ([[0, 3, 1, 2], [2, 1, 0, 3]], np.array([[2**62, 0, 0, -(2**62)], [5, 5, -5, 0]])),
        # grades spanning more than 8 bits
        ([[0, 300, 1, 2], [2, 1, 0, 3]], [[0.5, 0.5, 0.5, 0.25], [0.5, 0.25, 0.5, 0.5]]),
        # grades that are not integers
        ([[0, 2.5, 1, 2], [2, 1, 0, 3]], [[0.5, 0.5, 0.5, 0.25], [0.5, 0.25, 0.5, 0.5]]),
    ],
)
def test_scores_outside_the_exact_path_agree_too(exact_calls, y_true, y_score):
    for k in (1, 2, None):
        _assert_agrees(y_true, y_score, k=k)
    assert not exact_calls


def test_scores_agree_on_a_large_tied_batch_on_the_exact_path(exact_calls):
    """The benchmark's shape of data (grades 0-3, scores rounded to 0.1), several blocks."""
    rng = np.random.default_rng(15)
    y_true = rng.integers(0, 4, (2000, 100))
    y_score = rng.random((2000, 100)).round(1)
    for k in (1, 10, 45, None):
        _assert_agrees(y_true, y_score, k=k)
    assert len(exact_calls) >= 2


@pytest.mark.parametrize(
    "y_score",
    [
        # keys on both sides of 2**62 (the key of 2.0): moved down by the lowest, then shifted
        [[1.5, 2.5, 1.5, 2.0, 2.5, 1.5], [2.0, 2.0, 1.5, 2.5, 1.75, 1.75]],
        [[-1.0, -0.5, -1.0, -0.75, -0.5, -1.0], [-0.5, -0.5, -0.75, -1.0, -1.0, -0.5]],  # < 0
        [[-0.0, 0.0, 0.25, -0.0, 0.25, 0.0], [0.0, -0.0, -0.0, 0.5, 0.5, 0.25]],  # -0.0 is 0.0
        np.array([[5, 3, 5, 0, 3, 5], [1, 1, 1, 4, 4, 2]]),  # integer scores
    ],
)
def test_scores_keys_moved_to_zero_on_the_exact_path(exact_calls, y_score):
    y_true = [[0, 3, 1, 2, 0, 3], [2, 1, 0, 3, 3, 1]]
    for k in (1, 2, 4, None):
        _assert_agrees(y_true, y_score, k=k)
    assert exact_calls


@pytest.mark.parametrize("tied_first", [True, False])
def test_scores_agree_when_blocks_switch_between_paths(exact_calls, monkeypatch, tied_first):
    """Blocks with ties take the exact path, blocks without the general one, in any order
    (blocks of 40 queries of 100 items instead of the core's 1,310: the same switches)."""
    monkeypatch.setitem(nc.ndcg_score.__globals__, "_BLOCK_ITEMS", 1 << 12)
    rng = np.random.default_rng(16)
    y_true = rng.integers(0, 4, (160, 100))
    continuous = rng.random((160, 100))
    rounded = continuous.round(1)
    half = np.arange(160)[:, None] < 80
    y_score = np.where(half == tied_first, rounded, continuous)
    _assert_agrees(y_true, y_score, k=10)
    assert exact_calls


# --- the exact path for k <= 12: weights by tie pattern; IDCG counted for few grade levels --


def _counting(monkeypatch, name):
    """Record the first argument's shape of each call of the core's private ``name``."""
    calls = []
    namespace = nc.ndcg_score.__globals__  # see ``exact_calls``
    original = namespace[name]

    def counted(*args, **kwargs):
        calls.append(args[0].shape)
        return original(*args, **kwargs)

    monkeypatch.setitem(namespace, name, counted)
    return calls


@pytest.fixture
def pattern_calls(monkeypatch):
    """How many blocks had their tie-averaged DCG@k weighed by tie pattern."""
    return _counting(monkeypatch, "_pattern_dcg")


@pytest.fixture
def counted_calls(monkeypatch):
    """How many blocks had their IDCG@k counted rather than sorted."""
    return _counting(monkeypatch, "_counted_ideal")


def test_scores_every_k_up_to_12_by_tie_pattern(pattern_calls):
    rng = np.random.default_rng(21)
    y_true = rng.integers(0, 4, (300, 20))
    y_score = rng.random((300, 20)).round(1)
    weights = rng.random(300) + 0.1
    for k in range(1, 13):
        _assert_agrees(y_true, y_score, k=k)
        _assert_agrees(y_true, y_score, k=k, sample_weight=weights, log_base=10)
    assert len(pattern_calls) == 2 * 12 * 2  # (ndcg, dcg) x 12 k x 2 calls each


def test_scores_beyond_k_12_keep_the_group_sums(pattern_calls):
    rng = np.random.default_rng(22)
    y_true = rng.integers(0, 4, (300, 20))
    y_score = rng.random((300, 20)).round(1)
    for k in (13, 19, 20, None):
        _assert_agrees(y_true, y_score, k=k)
    assert not pattern_calls


@pytest.mark.parametrize(("items", "k"), [(12, 12), (12, 15), (12, 5), (30, 1), (30, 12), (2, 1)])
def test_scores_whole_rows_tied_by_tie_pattern(pattern_calls, items, k):
    """Every item of a row tied: the cutoff's group is the whole row (or k >= n, cut to n:
    no row below)."""
    rng = np.random.default_rng(items + k)
    y_true = rng.integers(0, 4, (50, items))
    y_score = np.repeat(rng.random((50, 1)).round(1), items, axis=1)
    _assert_agrees(y_true, y_score, k=k)
    assert pattern_calls


@pytest.mark.parametrize(
    "roundings",
    [(0.5, 0.02, 0.25, 0.05), (0.02, 0.5, 0.02, 0.5), (0.05, 0.05, 1.0, 0.05), (0.1,) * 4],
)
def test_scores_tie_blocks_change_width_between_blocks(pattern_calls, monkeypatch, roundings):
    """Each block of queries tries the previous block's width first: wider, narrower and equal
    blocks in turn (scores rounded to a multiple of 0.5 tie in groups of ~25, to 0.02 in groups
    of ~2; 1.0: ties of ~50 items; 0.1 in every block: the previous width is taken as it is, up
    to 2 columns wider than needed). Blocks of 4,096 cells (40 queries of 100 items) instead of
    the core's 131,072: the same paths through 1/32 of the rows (scikit-learn's loop over the
    tied rows was 0.7 s a case)."""
    monkeypatch.setitem(nc.ndcg_score.__globals__, "_BLOCK_ITEMS", 1 << 12)  # see ``exact_calls``
    rng = np.random.default_rng(23)
    step = (1 << 12) // 100
    rows = step * len(roundings)
    y_true = rng.integers(0, 4, (rows, 100))
    raw = rng.random((rows, 100))
    unit = np.repeat(np.array(roundings), step)[:, None]
    y_score = np.round(raw / unit) * unit
    for k in (3, 10):
        _assert_agrees(y_true, y_score, k=k)
    assert len(pattern_calls) >= 2 * len(roundings)


def test_scores_by_tie_pattern_with_keys_spanning_64_bits(pattern_calls):
    """Integer scores from -(2**63 - 1) to 2**63 - 1 and one grade value: the cutoff's key is
    above 2**64 - 2**32, so the members below k are counted and summed apart."""
    low, high = -(2**63) + 1, 2**63 - 1
    y_true = np.full((3, 6), 2)
    y_score = np.array([[low, high, high, low, 0, 5], [high] * 6, [low, low, 3, 3, low, high]])
    for k in (1, 2, 3, 4, 5):
        assert nc.dcg_score(y_true, y_score, k=k) == pytest.approx(
            sk.dcg_score(y_true, y_score, k=k), rel=TOL, abs=TOL
        )
    assert pattern_calls


@pytest.mark.parametrize(("low", "high"), [(5, 9), (1, 2), (0, 256)])
def test_scores_by_tie_pattern_with_offset_grades(pattern_calls, low, high):
    """Grades stored as grade - lowest in the key (5..8, 1), or 8 bits wide (0..255, with
    scores in [1, 1.5], whose keys span less than 2**56)."""
    rng = np.random.default_rng(low + high)
    y_true = rng.integers(low, high, (200, 15))
    y_score = 1.0 + rng.random((200, 15)).round(1) / 2
    for k in (1, 4, 12):
        _assert_agrees(y_true, y_score, k=k)
    assert pattern_calls


def test_scores_by_tie_pattern_with_negative_grades_for_dcg(pattern_calls):
    rng = np.random.default_rng(24)
    y_true = rng.integers(-3, 1, (200, 15))
    y_score = rng.random((200, 15)).round(1)
    for k in (1, 6, 12):
        assert nc.dcg_score(y_true, y_score, k=k) == pytest.approx(
            sk.dcg_score(y_true, y_score, k=k), rel=TOL, abs=TOL
        )
    assert pattern_calls


@pytest.mark.parametrize(
    ("low", "high", "items", "counted"),
    [
        (0, 4, 100, True),  # 4 levels: counted
        (0, 2, 255, True),  # the most items a byte counts
        (3, 7, 40, True),  # 4 levels above an offset
        (0, 4, 256, False),  # a count could reach 256: sorted
        (0, 5, 40, False),  # 5 levels: sorted
    ],
)
@pytest.mark.parametrize("ignore_ties", [False, True])
def test_ndcg_score_ideal_counted_or_sorted(counted_calls, low, high, items, counted, ignore_ties):
    rng = np.random.default_rng(items + high)
    y_true = rng.integers(low, high, (300, items))
    y_score = rng.random((300, items)).round(1)
    for k in (1, 10, items):
        expected = sk.ndcg_score(y_true, y_score, k=k, ignore_ties=ignore_ties)
        got = nc.ndcg_score(y_true, y_score, k=k, ignore_ties=ignore_ties)
        assert got == pytest.approx(expected, rel=TOL, abs=TOL)
    assert bool(counted_calls) == counted


# --- errors: scikit-learn's messages, word for word ---------------------------------------

Y = [[3, 2, 0], [1, 0, 2]]
S = [[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]]

# (id, arguments, keyword arguments, the key ndcg_core uses, functions that raise it)
SAME_MESSAGE = [
    ("k zero", (Y, S), {"k": 0}, "sk_param", FUNCTIONS),
    ("k float", (Y, S), {"k": 1.5}, "sk_param", FUNCTIONS),
    ("k numpy zero", (Y, S), {"k": np.int64(0)}, "sk_param", FUNCTIONS),
    ("k text", (Y, S), {"k": "3"}, "sk_param", FUNCTIONS),
    ("y_true scalar", (5, S), {}, "sk_param", FUNCTIONS),
    ("y_true None", (None, S), {}, "sk_param", FUNCTIONS),
    ("y_true text", ("abc", S), {}, "sk_param", FUNCTIONS),
    ("y_score scalar", (Y, 5), {}, "sk_param", FUNCTIONS),
    ("weights scalar", (Y, S), {"sample_weight": 5}, "sk_param", FUNCTIONS),
    ("ignore_ties text", (Y, S), {"ignore_ties": "yes"}, "sk_param", FUNCTIONS),
    ("ignore_ties int", (Y, S), {"ignore_ties": 1}, "sk_param", FUNCTIONS),
    ("log_base zero", (Y, S), {"log_base": 0}, "sk_param", ("dcg_score",)),
    ("log_base nan", (Y, S), {"log_base": float("nan")}, "sk_param", ("dcg_score",)),
    ("log_base text", (Y, S), {"log_base": "2"}, "sk_param", ("dcg_score",)),
    ("nan in y_true", ([[1, np.nan], [1, 2]], [[1, 2], [1, 2]]), {}, "sk_nan", FUNCTIONS),
    ("nan in y_score", ([[1, 2], [1, 2]], [[1, np.nan], [1, 2]]), {}, "sk_nan", FUNCTIONS),
    ("nan and inf", ([[1, 2], [1, 2]], [[np.inf, np.nan], [1, 2]]), {}, "sk_nan", FUNCTIONS),
    ("inf in y_score", ([[1, 2], [1, 2]], [[1, np.inf], [1, 2]]), {}, "sk_infinity", FUNCTIONS),
    (
        "-inf float32",
        ([[1, 2], [1, 2]], np.array([[1, -np.inf], [1, 2]], dtype=np.float32)),
        {},
        "sk_infinity",
        FUNCTIONS,
    ),
    ("empty", ([], []), {}, "sk_samples", FUNCTIONS),
    ("no rows", (np.zeros((0, 3)), np.zeros((0, 3))), {}, "sk_samples", FUNCTIONS),
    ("no columns", (np.zeros((3, 0)), np.zeros((3, 0))), {}, "sk_features", FUNCTIONS),
    ("3-D", (np.zeros((2, 2, 2)), np.zeros((2, 2, 2))), {}, "sk_dim", FUNCTIONS),
    ("0-D array", (np.array(5), np.array(5)), {}, "sk_scalar", FUNCTIONS),
    ("strings", ([["a", "b"], ["c", "d"]], S), {}, "sk_strings", FUNCTIONS),
    ("string scores", (Y, [["a", "b", "c"], ["c", "d", "e"]]), {}, "sk_strings", FUNCTIONS),
    ("ragged", ([[1, 2], [1]], S), {}, "sk_conversion", FUNCTIONS),
    (
        "object text",
        (np.array([[1, "x"], [2, 3]], dtype=object), [[1, 2], [1, 2]]),
        {},
        "sk_conversion",
        FUNCTIONS,
    ),
    ("complex", (np.array([[1 + 1j, 2], [1, 2]]), [[1, 2], [1, 2]]), {}, "sk_complex", FUNCTIONS),
    ("rows differ", (Y, [[1, 2, 3]]), {}, "sk_lengths", FUNCTIONS),
    ("weights length", (Y, S), {"sample_weight": [1, 2, 3]}, "sk_lengths", FUNCTIONS),
    ("1-D y_true, 2-D y_score", ([1, 0, 2], S), {}, "sk_lengths", FUNCTIONS),
    ("negative grade", ([[-1, 2], [1, 2]], [[1, 2], [1, 2]]), {}, "sk_negative", ("ndcg_score",)),
    ("one document", ([[1], [2]], [[1], [2]]), {}, "sk_one_document", ("ndcg_score",)),
    ("one column binary", ([[1], [0]], [[1], [2]]), {}, "sk_target_type", ("dcg_score",)),
    ("one column multiclass", ([[1], [2], [3]], [[1], [2], [3]]), {}, "sk_target_type", ("dcg_score",)),
    ("one column continuous", ([[1.5], [2]], [[1], [2]]), {}, "sk_target_type", ("dcg_score",)),
    ("1-D binary", ([1, 0], [1, 2]), {}, "sk_target_type", FUNCTIONS),
    ("1-D multiclass", ([1, 0, 2], [1, 2, 3]), {}, "sk_target_type", FUNCTIONS),
    ("1-D continuous", ([1.5, 0, 2], [1, 2, 3]), {}, "sk_target_type", FUNCTIONS),
    ("weights sum to zero", (Y, S), {"sample_weight": [0, 0]}, "sk_weights_zero", FUNCTIONS),
]


def _cases(table):
    for case_id, args, kwargs, key, names in table:
        for name in names:
            yield pytest.param(name, args, kwargs, key, id=f"{name}: {case_id}")


def _message_of_scikit_learn(name, args, kwargs):
    with pytest.raises(Exception) as info:  # ValueError, TypeError or ZeroDivisionError
        getattr(sk, name)(*args, **kwargs)
    return str(info.value)


@pytest.mark.parametrize(("name", "args", "kwargs", "key"), list(_cases(SAME_MESSAGE)))
def test_errors_repeat_scikit_learns_message(name, args, kwargs, key):
    expected = _message_of_scikit_learn(name, args, kwargs)
    with pytest.raises(NDCGInputError, match=re.escape(expected)) as info:
        getattr(nc, name)(*args, **kwargs)
    assert str(info.value) == expected
    assert info.value.key == key
    assert isinstance(info.value, ValueError)


# Where scikit-learn only fails inside numpy, ndcg_core says what is wrong instead.
OWN_MESSAGE = [
    ("columns differ", (Y, [[1, 2], [1, 2]]), {}, "The y_score must be an array of the shape"),
    (
        "columns differ, ignore_ties",
        (Y, [[1, 2], [1, 2]]),
        {"ignore_ties": True},
        r"Got an array of shape \(2, 2\) instead",
    ),
    ("1-D y_score", (Y, [1, 2]), {}, r"Got an array of shape \(2,\) instead"),
    (
        "2-D weights",
        (Y, S),
        {"sample_weight": [[1], [2]]},
        "The sample_weight must be a one-dimensional array",
    ),
]


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize(("case_id", "args", "kwargs", "piece"), OWN_MESSAGE)
def test_errors_shape_where_scikit_learn_has_no_message(name, case_id, args, kwargs, piece):
    with pytest.raises((ValueError, TypeError, IndexError)):  # whatever numpy raises inside
        getattr(sk, name)(*args, **kwargs)
    with pytest.raises(NDCGInputError, match=piece) as info:
        getattr(nc, name)(*args, **kwargs)
    assert info.value.key == "shape"


def test_errors_every_key_has_a_message():
    keys = {row[3] for row in SAME_MESSAGE} | {"shape"}
    assert keys <= MESSAGES.keys()
    assert {key for key in MESSAGES if key.startswith("sk_")} <= keys


def test_scikit_learn_is_not_imported_by_the_core():
    import subprocess
    import sys

    code = "import sys, ndcg_core; ndcg_core.ndcg_score([[1, 0]], [[0, 1]]); print('sklearn' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
