"""The batch engine (ndcg_core.batch): long-format runs, one nDCG per query."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import ndcg_score as sk_ndcg_score

import ndcg_core as nc
from ndcg_core.batch import evaluate, evaluate_run, mean_ndcg_at_ks, read_run, summarize
from ndcg_core.samples import sample_run

LOG2_3 = np.log2(3)


@pytest.fixture(scope="module")
def run() -> pd.DataFrame:
    """Ragged lists (1-40 items), half the queries with coarse (tied) scores, some all-zero."""
    return sample_run(150, seed=7, max_items=40, tie_fraction=0.5, no_relevant_fraction=0.1)


def _ranked_grades(group: pd.DataFrame, ties: str) -> np.ndarray:
    """One query's grades in the order the module docstring defines, by a plain stable sort."""
    rel, score = group["relevance"].to_numpy(), group["score"].to_numpy()
    if ties == "ignore":
        order = np.argsort(-score[::-1], kind="stable")
        order = len(score) - 1 - order
    elif ties == "optimistic":
        order = np.lexsort((-rel, -score))
    else:  # pessimistic
        order = np.lexsort((rel, -score))
    return rel[order]


@pytest.mark.parametrize("k", [None, 1, 3, 10])
def test_evaluate_matches_sklearn_per_query(run, k):
    """Average ties: each query equals scikit-learn's ndcg_score on that query's own list."""
    table = evaluate(run, k=k).set_index("query")
    checked = 0
    for name, group in run.groupby("query", sort=False):
        if len(group) < 2:  # scikit-learn refuses one-item lists
            continue
        expected = sk_ndcg_score([group["relevance"]], [group["score"]], k=k)
        assert table.loc[name, "ndcg"] == pytest.approx(expected, abs=1e-12)
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("ties", ["ignore", "optimistic", "pessimistic"])
@pytest.mark.parametrize(("k", "gain"), [(None, "linear"), (5, "linear"), (5, "exponential")])
def test_evaluate_orders_ties_as_documented(run, ties, k, gain):
    """ignore/optimistic/pessimistic equal the core's dcg/ndcg on the list sorted by hand."""
    table = evaluate(run, k=k, gain=gain, ties=ties).set_index("query")
    for name, group in run.groupby("query", sort=False):
        grades = _ranked_grades(group, ties)
        assert table.loc[name, "dcg"] == pytest.approx(nc.dcg(grades, k=k, gain=gain), abs=1e-12)
        assert table.loc[name, "idcg"] == pytest.approx(nc.idcg(grades, k=k, gain=gain), abs=1e-12)
        assert table.loc[name, "ndcg"] == pytest.approx(nc.ndcg(grades, k=k, gain=gain), abs=1e-12)


def test_evaluate_average_lies_between_pessimistic_and_optimistic(run):
    low, mid, high = (evaluate(run, k=5, ties=t)["ndcg"] for t in ("pessimistic", "average", "optimistic"))
    assert (low <= mid + 1e-12).all() and (mid <= high + 1e-12).all()
    assert (low < high).any()


def test_evaluate_ignore_puts_later_row_first():
    """Two tied items: the later input row is ranked first."""
    frame = pd.DataFrame({"query": ["a", "a"], "relevance": [1, 0], "score": [0.5, 0.5]})
    assert evaluate(frame, ties="ignore")["dcg"].item() == pytest.approx(1 / LOG2_3)
    assert evaluate(frame, ties="average")["dcg"].item() == pytest.approx((1 + 1 / LOG2_3) / 2)


def test_evaluate_worked_example_as_arithmetic():
    frame = pd.DataFrame({"query": "q", "relevance": [3, 2, 0, 0, 1], "score": [5, 4, 3, 2, 1]})
    row = evaluate(frame).iloc[0]
    dcg = 3 + 2 / LOG2_3 + 1 / np.log2(6)
    idcg = 3 + 2 / LOG2_3 + 1 / 2
    assert row["n_items"] == 5
    assert row["dcg"] == pytest.approx(dcg, abs=1e-12)
    assert row["idcg"] == pytest.approx(idcg, abs=1e-12)
    assert row["ndcg"] == pytest.approx(dcg / idcg, abs=1e-12)


def test_evaluate_exponential_gain_and_jarvelin_match_core(run):
    table = evaluate(run, k=7, gain="exponential", discount="jarvelin", ties="optimistic")
    table = table.set_index("query")
    for name, group in run.groupby("query", sort=False):
        grades = _ranked_grades(group, "optimistic")
        expected = nc.ndcg(grades, k=7, gain="exponential", discount="jarvelin")
        assert table.loc[name, "ndcg"] == pytest.approx(expected, abs=1e-12)


def test_evaluate_tie_cut_by_k_averages_over_the_group():
    """Three items tie across the cutoff k=2: each position gets the group's mean gain 1."""
    frame = pd.DataFrame({"query": "q", "relevance": [3, 0, 0], "score": [1.0, 1.0, 1.0]})
    row = evaluate(frame, k=2).iloc[0]
    assert row["dcg"] == pytest.approx(1 + 1 / LOG2_3)
    assert row["idcg"] == pytest.approx(3)


def test_evaluate_keeps_query_order_and_counts_items():
    frame = pd.DataFrame({"query": [9, 9, 2, 5, 5, 5], "relevance": [1, 0, 1, 0, 1, 2],
                          "score": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]})
    table = evaluate(frame)
    assert table.columns.tolist() == ["query", "n_items", "dcg", "idcg", "ndcg"]
    assert table["query"].tolist() == [9, 2, 5]
    assert table["n_items"].tolist() == [2, 1, 3]


def test_evaluate_custom_column_names():
    frame = pd.DataFrame({"qid": ["a", "a"], "doc": ["x", "y"], "label": [0, 1], "pred": [2.0, 1.0]})
    table = evaluate(frame, query="qid", relevance="label", score="pred", item="doc")
    assert table["ndcg"].item() == pytest.approx(1 / LOG2_3)


def test_evaluate_binary_relevance_as_booleans():
    frame = pd.DataFrame({"query": ["a", "a", "a"], "relevance": [False, True, True],
                          "score": [3.0, 2.0, 1.0]})
    expected = (1 / LOG2_3 + 1 / 2) / (1 + 1 / LOG2_3)
    assert evaluate(frame)["ndcg"].item() == pytest.approx(expected)


def _shuffled_fractional_run(seed: int) -> pd.DataFrame:
    """Interleaved queries (not grouped), fractional grades, scores tied and near-tied."""
    rng = np.random.default_rng(seed)
    n = 400
    base = rng.choice([0.5, 1.0, 1.0 + 1e-12, 1.0 + 2e-12, 2.0, 3.25], size=n)
    return pd.DataFrame({
        "query": rng.integers(0, 25, size=n),
        "relevance": rng.choice([0.0, 0.5, 1.5, 2.75], size=n),
        "score": base,
    })


@pytest.mark.parametrize("ties", ["ignore", "optimistic", "pessimistic"])
def test_evaluate_exact_order_beyond_float32_and_fractional_grades(ties):
    """Scores 1 and 1 + 1e-12 differ (float32 cannot tell them apart); grades are fractional;
    query rows are interleaved. Each query still equals the core on the hand-sorted list."""
    frame = _shuffled_fractional_run(3)
    table = evaluate(frame, k=6, ties=ties).set_index("query")
    for name, group in frame.groupby("query", sort=False):
        grades = _ranked_grades(group, ties)
        assert table.loc[name, "ndcg"] == pytest.approx(nc.ndcg(grades, k=6), abs=1e-12)
        assert table.loc[name, "idcg"] == pytest.approx(nc.idcg(grades, k=6), abs=1e-12)


def test_evaluate_average_near_ties_match_sklearn():
    frame = _shuffled_fractional_run(4)
    table = evaluate(frame, k=6).set_index("query")
    for name, group in frame.groupby("query", sort=False):
        expected = sk_ndcg_score([group["relevance"]], [group["score"]], k=6)
        assert table.loc[name, "ndcg"] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("later_first", [False, True])
def test_rank_order_packed_key_equals_lexsort(later_first):
    """The packed-key sort and its np.lexsort fallback (budget 0) give the same order."""
    from ndcg_core.batch import _rank_order

    rng = np.random.default_rng(5)
    codes = rng.integers(0, 30, size=500)
    counts = np.bincount(codes)
    starts = np.cumsum(counts) - counts
    values = rng.choice([0.1, 0.2, 0.3, -1.0, 0.0], size=500)
    tie = rng.integers(0, 4, size=500)
    fast = _rank_order(codes, counts, starts, values, tie=tie, later_first=later_first)
    slow = _rank_order(codes, counts, starts, values, tie=tie, later_first=later_first, budget=0)
    np.testing.assert_array_equal(fast, slow)


# ----------------------------------------------------------------- nothing relevant


@pytest.fixture
def with_empty_query() -> pd.DataFrame:
    return pd.DataFrame({"query": ["a", "a", "b", "b"], "relevance": [1, 0, 0, 0],
                         "score": [0.2, 0.1, 0.2, 0.1]})


def test_no_relevant_zero_counts_query_as_zero(with_empty_query):
    result = evaluate_run(with_empty_query)
    assert result.per_query["ndcg"].tolist() == [1.0, 0.0]
    assert (result.mean, result.n_queries, result.n_no_relevant, result.n_in_mean) == (0.5, 2, 1, 2)


def test_no_relevant_drop_leaves_query_out_of_mean(with_empty_query):
    result = evaluate_run(with_empty_query, no_relevant="drop")
    assert len(result.per_query) == 2  # the query is still reported
    assert np.isnan(result.per_query["ndcg"].iloc[1])
    assert (result.mean, result.n_queries, result.n_no_relevant, result.n_in_mean) == (1.0, 2, 1, 1)
    assert result.per_query["ndcg"].mean() == result.mean


def test_summarize_all_dropped_gives_nan():
    frame = pd.DataFrame({"query": ["a"], "relevance": [0], "score": [1.0]})
    summary = summarize(evaluate(frame), no_relevant="drop")
    assert np.isnan(summary.mean) and summary.n_in_mean == 0 and summary.n_no_relevant == 1


# ----------------------------------------------------------------- curve


@pytest.mark.parametrize("no_relevant", ["zero", "drop"])
@pytest.mark.parametrize("ties", ["average", "ignore"])
def test_mean_ndcg_at_ks_equals_evaluate_per_k(run, no_relevant, ties):
    ks = [1, 2, 3, 5, 10, 20, 50]
    curve = mean_ndcg_at_ks(run, ks=ks, ties=ties, no_relevant=no_relevant)
    assert curve["k"].tolist() == ks
    for k, value in zip(ks, curve["ndcg"]):
        expected = evaluate_run(run, k=k, ties=ties, no_relevant=no_relevant).mean
        assert value == pytest.approx(expected, abs=1e-12)


def test_mean_ndcg_at_ks_rejects_bad_cutoff(run):
    with pytest.raises(nc.NDCGInputError, match="k must be a whole number of at least 1"):
        mean_ndcg_at_ks(run, ks=[1, 0])


# ----------------------------------------------------------------- errors


def _frame(**changes) -> pd.DataFrame:
    data = {"query": ["a", "a", "b"], "item": ["x", "y", "x"], "relevance": [1, 0, 2],
            "score": [0.3, 0.2, 0.1]}
    data.update(changes)
    return pd.DataFrame(data)


@pytest.mark.parametrize(("frame", "options", "match"), [
    (_frame().drop(columns="score"), {}, r"The column 'score' is missing\. .*'query', 'item', 'relevance'"),
    (_frame(), {"query": "qid"}, r"The column 'qid' is missing"),
    (_frame(), {"item": "doc"}, r"The column 'doc' is missing"),
    (_frame().iloc[:0], {}, r"The run has no rows"),
    (_frame(relevance=[1, "high", 2]), {}, r"Row 2 of the column 'relevance' holds 'high', which is not a number"),
    (_frame(score=[0.3, np.nan, 0.1]), {}, r"Row 2 of the column 'score' .* not a finite number"),
    (_frame(score=[0.3, 0.2, np.inf]), {}, r"Row 3 of the column 'score' holds inf"),
    (_frame(relevance=[1, None, 2]), {}, r"Row 2 of the column 'relevance'"),
    (_frame(relevance=[1, -1, 2]), {}, r"Row 2 of the column 'relevance' holds -1\.0, which is not a relevance grade of 0 or more"),
    (_frame(query=["a", None, "b"]), {}, r"Row 2 of the column 'query' .* an id"),
    (_frame(item=["x", "x", "x"]), {}, r"The item 'x' appears more than once for the query 'a' \(rows 1, 2\)"),
    (_frame(), {"k": 0}, r"k must be a whole number of at least 1, or none for the whole list\. Got 0"),
    (_frame(), {"ties": "random"}, r"ties must be one of average, optimistic, pessimistic, ignore"),
    (_frame(), {"gain": "cubic"}, r"gain must be one of"),
    (_frame(), {"no_relevant": "skip"}, r"no_relevant must be one of zero, drop"),
])
def test_evaluate_rejects_bad_input(frame, options, match):
    with pytest.raises(nc.NDCGInputError, match=match):
        evaluate(frame, **options)


def test_evaluate_without_item_column_allows_repeated_rows():
    """Without an item column there is nothing to call a duplicate; every row counts."""
    frame = _frame(item=["x", "x", "x"]).drop(columns="item")
    assert evaluate(frame)["n_items"].tolist() == [2, 1]
    assert evaluate(_frame(item=["x", "x", "x"]), item=None)["n_items"].tolist() == [2, 1]


# ----------------------------------------------------------------- files


def test_read_run_csv_round_trip(tmp_path, run):
    path = tmp_path / "run.csv"
    run.to_csv(path, index=False)
    pd.testing.assert_frame_equal(evaluate(path), evaluate(run))


def test_read_run_parquet_round_trip(tmp_path, run):
    path = tmp_path / "run.parquet"
    run.to_parquet(path, index=False)
    pd.testing.assert_frame_equal(evaluate(path), evaluate(run))


def test_read_run_file_like_upload(run):
    buffer = io.BytesIO()
    run.to_parquet(buffer, index=False)
    buffer.seek(0)
    pd.testing.assert_frame_equal(read_run(buffer, name="up.parquet"), run, check_dtype=False)
    text = io.BytesIO(run.to_csv(index=False).encode())
    assert read_run(text).shape == run.shape


def test_read_run_reports_progress_in_chunks(tmp_path, run):
    path = tmp_path / "run.csv"
    run.to_csv(path, index=False)
    calls = []
    frame = read_run(path, on_progress=lambda done, total: calls.append((done, total)))
    assert frame.shape == run.shape
    assert calls[-1][0] == calls[-1][1] == path.stat().st_size


@pytest.mark.parametrize(("content", "match"), [
    (b"", r"The file 'bad\.csv' has no rows"),
    (b"query,relevance,score\n", r"The file 'bad\.csv' has no rows"),
    (b"PAR1 this is not parquet", r"The file 'bad\.csv' could not be read as Parquet"),
    (b"query,relevance\n\"a,1\n", r"The file 'bad\.csv' could not be read as CSV"),
])
def test_read_run_rejects_bad_files(tmp_path, content, match):
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    with pytest.raises(nc.NDCGInputError, match=match):
        read_run(path)


def test_read_run_missing_file(tmp_path):
    with pytest.raises(nc.NDCGInputError, match=r"^The file 'nope\.csv' does not exist\.$"):
        read_run(tmp_path / "nope.csv")


def test_read_run_names_a_file_that_is_not_utf8_text(tmp_path):
    """A GBK-encoded CSV (as Excel saves it on a Chinese system) gets a message key, not the
    English text of Python's UnicodeDecodeError."""
    path = tmp_path / "gbk.csv"
    path.write_bytes("query,relevance,score\n查询,3,0.9\n".encode("gbk"))
    with pytest.raises(nc.NDCGInputError) as info:
        read_run(path)
    assert info.value.key == "not_utf8"
    assert info.value.params == {"name": "gbk.csv"}
