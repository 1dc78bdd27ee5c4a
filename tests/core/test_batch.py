"""The batch engine (ndcg_core.batch): long-format runs, one nDCG per query."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import ndcg_score as sk_ndcg_score

import ndcg_core as nc
from ndcg_core import batch
from ndcg_core.batch import evaluate, evaluate_run, mean_ndcg_at_ks, read_run, summarize
from ndcg_teach.samples import sample_run

LOG2_3 = np.log2(3)


@pytest.fixture(scope="module")
def run() -> pd.DataFrame:
    """Ragged lists (1-40 items), half the queries with coarse (tied) scores, some all-zero."""
    return sample_run(150, seed=7, max_items=40, tie_fraction=0.5, no_relevant_fraction=0.1)


def _ranked_grades(group: pd.DataFrame, ties: str) -> np.ndarray:
    """One query's grades in the order the module docstring defines, by a plain stable sort."""
    rel, score = group["relevance"].to_numpy(), group["score"].to_numpy()
    if ties == "input":
        order = np.argsort(-score, kind="stable")
    elif ties == "trec_eval":
        item = group["item"].astype(str).to_numpy()
        order = sorted(range(len(score)), key=lambda i: (-score[i], _Desc(item[i])))
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


class _Desc:
    """A string that sorts in reverse (item id descending inside an ascending sort)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __lt__(self, other: _Desc) -> bool:
        return self.text > other.text


@pytest.mark.parametrize("ties", ["input", "trec_eval", "optimistic", "pessimistic"])
@pytest.mark.parametrize(("k", "gain"), [(None, "linear"), (5, "linear"), (5, "exponential")])
def test_evaluate_orders_ties_as_documented(run, ties, k, gain):
    """input/trec_eval/optimistic/pessimistic equal the core's dcg/ndcg on the list sorted by hand."""
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


def test_evaluate_input_keeps_row_order_of_a_tie():
    """Two tied items: the earlier input row is ranked first (a stable sort)."""
    frame = pd.DataFrame({"query": ["a", "a"], "relevance": [0, 1], "score": [0.5, 0.5]})
    assert evaluate(frame, ties="input")["dcg"].item() == pytest.approx(1 / LOG2_3)
    assert evaluate(frame, ties="average")["dcg"].item() == pytest.approx((1 + 1 / LOG2_3) / 2)


def test_evaluate_trec_eval_breaks_ties_by_item_id_descending_as_text():
    """Tied items "10" and "9": as strings "9" > "10", so "9" (grade 0) comes first."""
    frame = pd.DataFrame({"query": ["a", "a"], "item": ["10", "9"], "relevance": [1, 0], "score": [0.5, 0.5]})
    assert evaluate(frame, ties="trec_eval")["dcg"].item() == pytest.approx(1 / LOG2_3)


def test_evaluate_trec_eval_needs_an_item_column():
    frame = pd.DataFrame({"query": ["a", "a"], "relevance": [1, 0], "score": [0.5, 0.5]})
    with pytest.raises(nc.NDCGInputError, match=r"'trec_eval' .* no item column 'item'") as info:
        evaluate(frame, ties="trec_eval")
    assert info.value.key == "ties_needs_item"


@pytest.mark.parametrize("function", [evaluate, evaluate_run, mean_ndcg_at_ks])
def test_batch_refuses_ties_ignore_naming_the_alternatives(function):
    frame = pd.DataFrame({"query": ["a", "a"], "relevance": [1, 0], "score": [0.5, 0.5]})
    with pytest.raises(nc.NDCGInputError, match=r"'ignore' .*'input' .*'trec_eval'") as info:
        function(frame, ties="ignore")
    assert info.value.key == "ties_ignore_batch"


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
    frame = pd.DataFrame(
        {
            "query": [9, 9, 2, 5, 5, 5],
            "relevance": [1, 0, 1, 0, 1, 2],
            "score": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
        }
    )
    table = evaluate(frame)
    assert table.columns.tolist() == ["query", "n_items", "dcg", "idcg", "ndcg"]
    assert table["query"].tolist() == ["9", "2", "5"]  # ids are text, in order of appearance
    assert table["n_items"].tolist() == [2, 1, 3]


def test_evaluate_custom_column_names():
    frame = pd.DataFrame({"qid": ["a", "a"], "doc": ["x", "y"], "label": [0, 1], "pred": [2.0, 1.0]})
    table = evaluate(frame, query="qid", relevance="label", score="pred", item="doc")
    assert table["ndcg"].item() == pytest.approx(1 / LOG2_3)


def test_evaluate_binary_relevance_as_booleans():
    frame = pd.DataFrame(
        {"query": ["a", "a", "a"], "relevance": [False, True, True], "score": [3.0, 2.0, 1.0]}
    )
    expected = (1 / LOG2_3 + 1 / 2) / (1 + 1 / LOG2_3)
    assert evaluate(frame)["ndcg"].item() == pytest.approx(expected)


def _shuffled_fractional_run(seed: int) -> pd.DataFrame:
    """Interleaved queries (not grouped), fractional grades, scores tied and near-tied."""
    rng = np.random.default_rng(seed)
    n = 400
    base = rng.choice([0.5, 1.0, 1.0 + 1e-12, 1.0 + 2e-12, 2.0, 3.25], size=n)
    return pd.DataFrame(
        {
            "query": rng.integers(0, 25, size=n),
            "relevance": rng.choice([0.0, 0.5, 1.5, 2.75], size=n),
            "score": base,
        }
    )


@pytest.mark.parametrize("ties", ["input", "optimistic", "pessimistic"])
def test_evaluate_exact_order_beyond_float32_and_fractional_grades(ties):
    """Scores 1 and 1 + 1e-12 differ (float32 cannot tell them apart); grades are fractional;
    query rows are interleaved. Each query still equals the core on the hand-sorted list."""
    frame = _shuffled_fractional_run(3)
    table = evaluate(frame, k=6, ties=ties).set_index("query")
    for name, group in frame.groupby("query", sort=False):
        grades = _ranked_grades(group, ties)
        assert table.loc[str(name), "ndcg"] == pytest.approx(nc.ndcg(grades, k=6), abs=1e-12)
        assert table.loc[str(name), "idcg"] == pytest.approx(nc.idcg(grades, k=6), abs=1e-12)


def test_evaluate_average_near_ties_match_sklearn():
    frame = _shuffled_fractional_run(4)
    table = evaluate(frame, k=6).set_index("query")
    for name, group in frame.groupby("query", sort=False):
        expected = sk_ndcg_score([group["relevance"]], [group["score"]], k=6)
        assert table.loc[str(name), "ndcg"] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("later_first", [False, True])
def test_rank_order_packed_key_equals_lexsort(later_first):
    """The packed-key sort and its np.lexsort fallback (budget 0) give the same order."""
    from ndcg_core.ordering import rank_order as _rank_order

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
    return pd.DataFrame(
        {"query": ["a", "a", "b", "b"], "relevance": [1, 0, 0, 0], "score": [0.2, 0.1, 0.2, 0.1]}
    )


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
@pytest.mark.parametrize("ties", ["average", "input", "trec_eval"])
def test_mean_ndcg_at_ks_equals_evaluate_per_k(run, no_relevant, ties):
    ks = [1, 2, 3, 5, 10, 20, 50]
    curve = mean_ndcg_at_ks(run, ks=ks, ties=ties, no_relevant=no_relevant)
    assert curve["k"].tolist() == ks
    for k, value in zip(ks, curve["ndcg"], strict=False):
        expected = evaluate_run(run, k=k, ties=ties, no_relevant=no_relevant).mean
        assert value == pytest.approx(expected, abs=1e-12)


def test_mean_ndcg_at_ks_rejects_bad_cutoff(run):
    with pytest.raises(nc.NDCGInputError, match="k must be a whole number of at least 1"):
        mean_ndcg_at_ks(run, ks=[1, 0])


# ----------------------------------------------------------------- errors


def _frame(**changes) -> pd.DataFrame:
    data = {
        "query": ["a", "a", "b"],
        "item": ["x", "y", "x"],
        "relevance": [1, 0, 2],
        "score": [0.3, 0.2, 0.1],
    }
    data.update(changes)
    return pd.DataFrame(data)


@pytest.mark.parametrize(
    ("frame", "options", "match"),
    [
        (
            _frame().drop(columns="score"),
            {},
            r"The column 'score' is missing\. .*'query', 'item', 'relevance'",
        ),
        (_frame(), {"query": "qid"}, r"The column 'qid' is missing"),
        (_frame(), {"item": "doc"}, r"The column 'doc' is missing"),
        (_frame().iloc[:0], {}, r"The run has no rows"),
        (
            _frame(relevance=[1, "high", 2]),
            {},
            r"Row 2 of the column 'relevance' holds 'high', which is not a number",
        ),
        (_frame(score=[0.3, np.nan, 0.1]), {}, r"Row 2 of the column 'score' .* not a finite number"),
        (_frame(score=[0.3, 0.2, np.inf]), {}, r"Row 3 of the column 'score' holds inf"),
        (_frame(relevance=[1, None, 2]), {}, r"Row 2 of the column 'relevance'"),
        (
            _frame(relevance=[1, -1, 2]),
            {},
            r"Row 2 of the column 'relevance' holds -1\.0, which is not a relevance grade of 0 or more",
        ),
        (_frame(query=["a", None, "b"]), {}, r"Row 2 of the column 'query' .* an id"),
        (
            _frame(item=["x", "x", "x"]),
            {},
            r"The item 'x' appears more than once for the query 'a' \(rows 1, 2\)",
        ),
        (_frame(), {"k": 0}, r"k must be a whole number of at least 1, or none for the whole list\. Got 0"),
        (
            _frame(),
            {"ties": "random"},
            r"ties must be one of average, optimistic, pessimistic, input, trec_eval",
        ),
        (_frame(), {"gain": "cubic"}, r"gain must be one of"),
        (_frame(), {"no_relevant": "skip"}, r"no_relevant must be one of zero, drop"),
    ],
)
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


@pytest.mark.parametrize(
    ("content", "match"),
    [
        (b"", r"The file 'bad\.csv' has no rows"),
        (b"query,relevance,score\n", r"The file 'bad\.csv' has no rows"),
        (
            b"PAR1 this is not parquet",
            r"The file 'bad\.csv' starts like a Parquet file but is not a valid one",
        ),
        (b'query,relevance\n"a,1\n', r"Row 1 has 1 field\(s\), but the header has 2"),
    ],
)
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
    assert info.value.params == {"name": "gbk.csv", "line": 2}


# ----------------------------------------------------------------- issue 12: hostile files


def test_read_run_keeps_numeric_looking_query_ids_apart():
    """Queries 1 and 1.0, 1e3 and 1000 are four queries (pandas' guessing merged them)."""
    data = (
        b"query,item,relevance,score\n"
        b"1,a,1,0.9\n1,b,0,0.8\n1.0,a,0,0.9\n1.0,b,1,0.8\n"
        b"1e3,a,1,0.9\n1000,a,0,0.9\n"
    )
    table = evaluate(read_run(data))
    assert table["query"].tolist() == ["1", "1.0", "1e3", "1000"]
    assert table["ndcg"].tolist() == [1.0, 1 / LOG2_3 / 1.0, 1.0, 0.0]


def test_read_run_items_001_and_1_are_different():
    data = b"query,item,relevance,score\nq,001,1,0.9\nq,1,0,0.8\n"
    table = evaluate(read_run(data))
    assert table["n_items"].tolist() == [2]


@pytest.mark.parametrize("word", ["NA", "null", "None", "nan", "NaN", "N/A", "#N/A"])
def test_read_run_na_words_are_valid_ids(word):
    data = f"query,item,relevance,score\n{word},{word},1,0.9\nq,{word},0,0.8\n".encode()
    frame = read_run(data)
    assert frame["query"].tolist() == [word, "q"] and frame["item"].tolist() == [word, word]
    assert evaluate(frame)["query"].tolist() == [word, "q"]


def test_read_run_only_an_empty_field_is_a_missing_id():
    with pytest.raises(nc.NDCGInputError, match=r"Row 2 of the column 'query' .* an id"):
        evaluate(read_run(b"query,relevance,score\nq,1,0.5\n,1,0.5\n"))


def test_read_run_na_in_a_grade_column_is_not_a_number_naming_the_row():
    with pytest.raises(
        nc.NDCGInputError, match=r"Row 2 of the column 'relevance' holds 'NA', which is not a number"
    ):
        evaluate(read_run(b"query,relevance,score\nq,1,0.5\nq,NA,0.4\n"))


def test_evaluate_numeric_id_columns_become_their_text():
    frame = pd.DataFrame(
        {"query": [1.0, 1.0, 2.5], "item": [1, 2, 1], "relevance": [1, 0, 1], "score": [0.2, 0.1, 0.3]}
    )
    assert evaluate(frame)["query"].tolist() == ["1.0", "2.5"]


def test_evaluate_object_ids_one_and_text_one_are_one_id():
    """In an object column the number 1 and the text "1" have the same text: one query."""
    frame = pd.DataFrame(
        {"query": pd.Series([1, "1"], dtype=object), "relevance": [1, 0], "score": [0.2, 0.1]}
    )
    assert evaluate(frame)["n_items"].tolist() == [2]


def test_read_run_parquet_numeric_ids_become_text(tmp_path):
    path = tmp_path / "run.parquet"
    pd.DataFrame(
        {"query": [1, 1, 2], "item": [7.0, 8.0, 7.0], "relevance": [1, 0, 1], "score": [0.3, 0.2, 0.1]}
    ).to_parquet(path)
    frame = read_run(path)
    assert frame["query"].tolist() == ["1", "1", "2"]
    assert frame["item"].tolist() == ["7.0", "8.0", "7.0"]


def test_read_run_extra_field_is_an_error_not_a_shifted_column():
    """The issue's case: data rows have one field more than the header. pandas made the first
    column the index and scored the run on the wrong columns; it is now an error naming row 1."""
    data = b"query,relevance,score\nq1,d1,3,0.9\nq1,d2,0,0.8\nq1,d3,1,0.7\n"
    with pytest.raises(nc.NDCGInputError, match=r"^Row 1 has 4 field\(s\), but the header has 3") as info:
        evaluate(read_run(data))
    assert info.value.key == "field_count"


def test_read_run_short_row_is_an_error_naming_the_row():
    data = b"query,relevance,score\nq,1,0.5\nq,0\n"
    with pytest.raises(nc.NDCGInputError, match=r"^Row 2 has 2 field\(s\), but the header has 3"):
        read_run(data)


def test_read_run_names_the_line_when_quoted_newlines_shift_it():
    """Row 2 starts on line 4 of the file: row 1's quoted id spans two lines."""
    data = b'query,relevance,score\n"a\nb",1,0.5\nq,1,0.5,7\n'
    with pytest.raises(nc.NDCGInputError, match=r"^Row 2 \(line 4 of the file\) has 4 field") as info:
        read_run(data)
    assert info.value.key == "field_count_line"


def test_read_run_quoted_newline_in_an_id_is_read():
    frame = read_run(b'query,relevance,score\n"a\nb",1,0.5\n')
    assert frame["query"].tolist() == ["a\nb"]


@pytest.mark.parametrize(
    ("data", "line"),
    [
        ("query,relevance,score\nq\u00e9,1,0.5\n".encode("latin-1"), 2),
        ("query,relevance,score\nq,1,0.5\n".encode("utf-16"), 1),
    ],
)
def test_read_run_refuses_text_that_is_not_utf8(data, line):
    with pytest.raises(nc.NDCGInputError, match=rf"is not UTF-8 text \(line {line} "):
        read_run(data, name="run.csv")


def test_read_run_accepts_a_utf8_byte_order_mark():
    frame = read_run(b"\xef\xbb\xbfquery,relevance,score\nq,1,0.5\n")
    assert frame.columns.tolist() == ["query", "relevance", "score"]


@pytest.mark.parametrize(
    ("relevance", "gain", "match", "key"),
    [
        (
            [1e308, 1e308, 0.0],
            "linear",
            r"query 'a' are too large: .* at row 2 \(grade 1e\+308\)",
            "sum_overflow_query",
        ),
        (
            [1.0, 1100.0, 0.0],
            "exponential",
            r"Row 2 of the column 'relevance' holds the grade 1100",
            "gain_overflow_row",
        ),
    ],
)
def test_evaluate_refuses_gains_that_are_not_finite(relevance, gain, match, key):
    """Before: DCG was inf and nDCG nan, with no message."""
    frame = pd.DataFrame({"query": "a", "relevance": relevance, "score": [0.3, 0.2, 0.1]})
    for function in (evaluate, evaluate_run, mean_ndcg_at_ks):
        with pytest.raises(nc.NDCGInputError, match=match) as info:
            function(frame, gain=gain)
        assert info.value.key == key


def test_evaluate_large_finite_grades_are_fine():
    """1e300 and 1e300: the sums stay finite, so nDCG is exact arithmetic."""
    frame = pd.DataFrame({"query": "a", "relevance": [0.0, 1e300], "score": [0.2, 0.1]})
    assert evaluate(frame)["ndcg"].item() == pytest.approx((1e300 / LOG2_3) / 1e300, rel=1e-15)


def test_evaluate_sums_are_per_query():
    """Two queries of 1e308 each: no query's sum overflows, so the run is fine."""
    frame = pd.DataFrame({"query": ["a", "b"], "relevance": [1e308, 1e308], "score": [0.2, 0.1]})
    assert evaluate(frame)["ndcg"].tolist() == [1.0, 1.0]


def test_evaluate_trec_eval_equals_pytrec_eval_ndcg_cut():
    """trec_eval's tie order (score descending, then docno descending), checked against
    pytrec_eval on tied data; scores are float32-exact (pytrec_eval keeps them as floats)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(12)
    rows = []
    for q in range(40):
        n = int(rng.integers(2, 15))
        docs = rng.choice(200, size=n, replace=False)
        for doc in docs:
            rows.append((f"q{q}", f"d{doc}", int(rng.integers(0, 4)), float(rng.integers(0, 4)) / 4))
    frame = pd.DataFrame(rows, columns=["query", "item", "relevance", "score"])
    qrels = {
        q: {d: int(r) for d, r in zip(g["item"], g["relevance"], strict=False)}
        for q, g in frame.groupby("query")
    }
    run = {
        q: {d: float(s) for d, s in zip(g["item"], g["score"], strict=False)}
        for q, g in frame.groupby("query")
    }
    measures = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_5", "ndcg_cut_10"}).evaluate(run)
    for k in (5, 10):
        ours = evaluate(frame, k=k, ties="trec_eval").set_index("query")["ndcg"]
        for q, values in measures.items():
            assert ours[q] == pytest.approx(values[f"ndcg_cut_{k}"], abs=1e-12), (q, k)


def test_read_run_reads_a_text_stream():
    frame = read_run(io.StringIO("query,relevance,score\n001,1,0.5\n"))
    assert frame["query"].tolist() == ["001"] and frame["relevance"].tolist() == [1]


def test_ndcg_bands_counts_queries_per_band_with_one_closed_at_the_top():
    """0.05-wide bands: 0.0 and 0.049 in band 1, 0.05 in band 2, 0.95 and 1.0 in band 20."""
    table = pd.DataFrame({"ndcg": [0.0, 0.049, 0.05, 0.5, 0.95, 1.0, np.nan]})
    bands = nc.ndcg_bands(table)
    assert len(bands) == 20
    assert bands["start"].tolist()[:3] == [0.0, 0.05, 0.1] and bands["end"].iloc[-1] == 1.0
    counts = dict(zip(bands["start"].round(2), bands["count"], strict=False))
    assert (counts[0.0], counts[0.05], counts[0.5], counts[0.95]) == (2, 1, 1, 2)
    assert bands["count"].sum() == 6  # the undefined (NaN) query is not counted


@pytest.mark.parametrize("width", [0, -0.1, 0.3, 2.0])
def test_ndcg_bands_refuses_a_width_that_does_not_divide_one(width):
    with pytest.raises(nc.NDCGInputError, match="band width"):
        nc.ndcg_bands(pd.DataFrame({"ndcg": [0.5]}), width=width)


# ----------------------------------------------------------------- blocks of queries
# The kernel takes the queries one block of BLOCK_ROWS rows at a time (issue 12: the working
# memory of a 1,000,000-row run). A tiny block makes every run of these tests many blocks,
# with queries longer than a block; the numbers must not depend on it.

ALL_TIES = ["average", "input", "trec_eval", "optimistic", "pessimistic"]


@pytest.fixture
def tiny_blocks(monkeypatch):
    monkeypatch.setattr(batch, "BLOCK_ROWS", 16)


@pytest.fixture(scope="module")
def shuffled(run) -> pd.DataFrame:
    """The run with its rows in random order: a query's rows are not next to each other."""
    return run.sample(frac=1.0, random_state=3).reset_index(drop=True)


def test_blocks_cover_every_query_once(shuffled, tiny_blocks):
    prepared = batch._prepare(shuffled, query="query", relevance="relevance", score="score", item="item")
    seen = []
    for first, block in batch._blocks(prepared):
        assert block.codes.min() == 0
        seen.extend(range(first, first + block.queries.size))
        # a block's rows are its queries' rows, in input order inside each query
        for local in range(block.queries.size):
            rows = np.flatnonzero(prepared.codes == first + local)
            np.testing.assert_array_equal(block.score[block.codes == local], prepared.score[rows])
    assert seen == list(range(prepared.queries.size))


@pytest.mark.parametrize("ties", ALL_TIES)
@pytest.mark.parametrize("k", [None, 3])
def test_evaluate_in_blocks_equals_one_block(shuffled, ties, k, monkeypatch):
    whole = evaluate(shuffled, k=k, ties=ties)
    monkeypatch.setattr(batch, "BLOCK_ROWS", 16)
    pd.testing.assert_frame_equal(evaluate(shuffled, k=k, ties=ties), whole, check_exact=True)


@pytest.mark.parametrize("ties", ALL_TIES)
@pytest.mark.parametrize("no_relevant", ["zero", "drop"])
def test_mean_ndcg_at_ks_in_blocks_equals_one_block(shuffled, ties, no_relevant, monkeypatch):
    """The same floats, not only close ones: the means add the queries in the same order."""
    ks = [1, 2, 5, 10, 20, 50]
    whole = mean_ndcg_at_ks(shuffled, ks=ks, ties=ties, no_relevant=no_relevant)
    monkeypatch.setattr(batch, "BLOCK_ROWS", 16)
    pd.testing.assert_frame_equal(
        mean_ndcg_at_ks(shuffled, ks=ks, ties=ties, no_relevant=no_relevant), whole, check_exact=True
    )


def test_evaluate_in_blocks_matches_sklearn(shuffled, tiny_blocks):
    table = evaluate(shuffled, k=5).set_index("query")
    checked = 0
    for name, group in shuffled.groupby("query", sort=False):
        if len(group) < 2:  # scikit-learn refuses one-item lists
            continue
        expected = sk_ndcg_score([group["relevance"]], [group["score"]], k=5)
        assert table.loc[name, "ndcg"] == pytest.approx(expected, abs=1e-12)
        checked += 1
    assert checked > 100


def test_mean_ndcg_at_ks_in_blocks_hand_checked(monkeypatch):
    """Query a: grades 3, 2, 0, 0, 1 by score; b: 0, 1; c: nothing relevant. Rows mixed.

    a: DCG@5 = 3 + 2/log2(3) + 1/log2(6), IDCG@5 = 3 + 2/log2(3) + 1/log2(4); nDCG@1 = 1.
    b: nDCG@1 = 0, nDCG@5 = (1/log2(3)) / 1. c: 0 (counted with "zero", left out with "drop").
    """
    monkeypatch.setattr(batch, "BLOCK_ROWS", 2)
    frame = pd.DataFrame(
        {
            "query": ["a", "b", "a", "c", "a", "b", "a", "a"],
            "relevance": [3, 0, 2, 0, 0, 1, 0, 1],
            "score": [5, 2, 4, 1, 3, 1, 2, 1],
        }
    )
    a5 = (3 + 2 / LOG2_3 + 1 / np.log2(6)) / (3 + 2 / LOG2_3 + 1 / np.log2(4))
    b5 = 1 / LOG2_3
    zero = mean_ndcg_at_ks(frame, ks=[1, 5])["ndcg"].tolist()
    assert zero == pytest.approx([(1 + 0 + 0) / 3, (a5 + b5 + 0) / 3], abs=1e-15)
    drop = mean_ndcg_at_ks(frame, ks=[1, 5], no_relevant="drop")["ndcg"].tolist()
    assert drop == pytest.approx([(1 + 0) / 2, (a5 + b5) / 2], abs=1e-15)


def test_evaluate_in_blocks_names_the_row_of_an_overflowing_gain(tiny_blocks):
    """The first grade whose gain overflows, in the file's rows, across blocks."""
    relevance = [1.0] * 40 + [1100.0] + [1.0] * 9 + [2000.0]
    frame = pd.DataFrame({"query": [f"q{i % 7}" for i in range(51)], "relevance": relevance, "score": 1.0})
    frame["item"] = [f"d{i}" for i in range(51)]
    with pytest.raises(nc.NDCGInputError, match=r"Row 41 of the column 'relevance' holds the grade 1100"):
        evaluate(frame, gain="exponential")


def test_evaluate_names_repeated_pair_among_many_items():
    """Many distinct items (a table of counts would outgrow the pairs: they are sorted)."""
    items = [f"d{i}" for i in range(2000)]
    items[1500] = "d7"  # query q0 (rows 0-49) holds d7 at row 8; row 1501 is in query q30
    items[1501] = "d1500"  # ... and q30 (rows 1500-1549) now holds d1500 twice: rows 1501, 1502
    items[1502] = "d1500"
    frame = pd.DataFrame(
        {"query": [f"q{i // 50}" for i in range(2000)], "item": items, "relevance": 1, "score": 0.5}
    )
    with pytest.raises(
        nc.NDCGInputError, match=r"'d1500' appears more than once for the query 'q30' \(rows 1502, 1503\)"
    ):
        evaluate(frame)


def test_evaluate_names_a_bad_grade_before_a_repeated_pair():
    """The pairs are checked before the grades are made (issue 12), but a bad grade in the
    same file is still the error named, as before."""
    frame = pd.DataFrame(
        {"query": ["a", "a", "b"], "item": ["d1", "d1", "d2"], "relevance": [1, -2, 0], "score": 0.5}
    )
    with pytest.raises(nc.NDCGInputError, match=r"Row 2 of the column 'relevance'"):
        evaluate(frame)


def test_evaluate_names_a_bad_score_before_a_missing_item_id():
    """A missing item id found by the early pair check waits for the grades and scores."""
    frame = pd.DataFrame(
        {"query": ["a", "a", "b"], "item": ["d1", "", "d2"], "relevance": [1, 0, 0], "score": [0.5, "x", 0.1]}
    )
    with pytest.raises(nc.NDCGInputError, match=r"Row 2 of the column 'score'"):
        evaluate(frame)


def test_read_run_parses_bytes_without_copying_them():
    """An upload's bytes are parsed where they are (before: two copies and a third from
    strip(), 3 x the file at the read's peak; issue 12)."""
    import tracemalloc

    data = sample_run(25_000, seed=1, min_items=20, max_items=20, ids="text").to_csv(index=False).encode()
    tracemalloc.start()
    try:
        frame = read_run(data, name="run.csv")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(frame) == 500_000
    assert peak < len(data) / 2


# ----------------------------------------------------------------- ids of Arrow text columns
# read_run gives text ids as Arrow columns of several chunks; their codes are made chunk by
# chunk into one int32 array (issue 12: pd.factorize held ~20 MiB at once for 1 M rows).


def _chunked_text(chunks: list[list[str | None]]) -> pd.Series:
    import pyarrow as pa

    data = pa.chunked_array([pa.array(c, type=pa.large_string()) for c in chunks])
    return data.to_pandas(types_mapper={pa.large_string(): pd.StringDtype("pyarrow", na_value=np.nan)}.get)


def test_arrow_text_codes_equal_pd_factorize_across_chunks():
    series = _chunked_text([["q2", "q1", "q2"], ["q3", None, "q1"], ["", "q4", "q3"]])
    codes, uniques = batch._arrow_text_codes(series)
    expected_codes, expected_uniques = pd.factorize(series, sort=False)
    np.testing.assert_array_equal(codes, expected_codes)
    assert list(uniques) == list(expected_uniques)


def test_arrow_text_codes_are_int32():
    codes, _ = batch._arrow_text_codes(_chunked_text([["a", "b"], ["a"]]))
    assert codes.dtype == np.int32


def test_arrow_text_codes_leave_other_columns_to_pd_factorize():
    assert batch._arrow_text_codes(pd.Series([1, 2, 1])) is None
    assert batch._arrow_text_codes(pd.Series(["a", "b"], dtype=object)) is None


def test_evaluate_chunked_arrow_ids_equal_object_ids():
    """The same per-query numbers whether the ids are Arrow text in chunks or Python strings."""
    queries = [["a", "b", "a"], ["c", "b", "a"]]
    items = [["d1", "d1", "d2"], ["d1", "d2", "d3"]]
    frame = pd.DataFrame(
        {
            "query": _chunked_text(queries),
            "item": _chunked_text(items),
            "relevance": [1, 0, 2, 1, 1, 0],
            "score": [0.3, 0.9, 0.5, 0.1, 0.2, 0.4],
        }
    )
    plain = frame.assign(query=frame["query"].astype(object), item=frame["item"].astype(object))
    pd.testing.assert_frame_equal(
        evaluate(frame, k=2).assign(query=lambda f: f["query"].astype(object)),
        evaluate(plain, k=2).assign(query=lambda f: f["query"].astype(object)),
        check_exact=True,
    )


def test_evaluate_chunked_arrow_ids_name_an_empty_query_id():
    frame = pd.DataFrame(
        {
            "query": _chunked_text([["a", "b"], ["", "a"]]),
            "relevance": [1, 0, 1, 1],
            "score": [0.1, 0.2, 0.3, 0.4],
        }
    )
    with pytest.raises(nc.NDCGInputError, match=r"Row 3 of the column 'query'"):
        evaluate(frame)


# ------------------------------------ issue "Read every file trec_eval reads", items 12 and 13

#: A Latin-1 byte in a row that also has a field too few (the issue's file).
LATIN1_SHORT_ROW = b"query,item,score\nq,a,0.9\nq,caf\xe9\n"


def _long_row(size: int) -> bytes:
    return b"query,item,relevance,score\nq,a,1,0.5\nq," + b"x" * size + b",1,0.5\nq,b,0,0.9\n"


def test_read_run_names_the_line_of_a_row_too_long_to_read():
    """A field of 9 MiB (an unclosed quote swallows the rest of a file the same way) is refused
    naming its line, not with pyarrow's 'straddling object' words."""
    with pytest.raises(nc.NDCGInputError) as info:
        read_run(_long_row(9 << 20), name="long.csv")
    assert info.value.key == "csv_row_too_long"
    assert info.value.params == {
        "name": "long.csv",
        "line": 3,
        "got": len("q,") + (9 << 20) + len(",1,0.5"),
        "limit": batch._BLOCK,
    }


def test_check_csv_fields_names_the_line_of_a_row_too_long_to_read(tmp_path):
    path = tmp_path / "long.csv"
    path.write_bytes(_long_row(9 << 20))
    with pytest.raises(nc.NDCGInputError) as info:
        batch.check_csv_fields(path)
    assert (info.value.key, info.value.params["line"]) == ("csv_row_too_long", 3)


def test_read_run_latin1_row_with_a_field_missing_names_the_row(capfd):
    """The row is named (row 2, as the header is not a row), and nothing of pyarrow's or
    Python's internals ('Exception ignored', UnicodeDecodeError) reaches stderr."""
    with pytest.raises(nc.NDCGInputError) as info:
        read_run(LATIN1_SHORT_ROW, name="latin.csv")
    assert (info.value.key, info.value.params) == ("field_count", {"row": 2, "got": 2, "expected": 3})
    assert capfd.readouterr().err == ""


def test_check_csv_fields_latin1_row_with_a_field_missing_names_the_row(tmp_path, capfd):
    path = tmp_path / "latin.csv"
    path.write_bytes(LATIN1_SHORT_ROW)
    with pytest.raises(nc.NDCGInputError) as info:
        batch.check_csv_fields(path)
    assert (info.value.key, info.value.params) == ("field_count", {"row": 2, "got": 2, "expected": 3})
    assert capfd.readouterr().err == ""


def test_csv_readers_give_pyarrow_no_python_callback(tmp_path, monkeypatch):
    """pyarrow's reader must never call back into Python: a callback still pending in one of
    its threads when the interpreter exits aborts the process ("terminate called without an
    active exception", SIGABRT, item 13)."""
    import pyarrow.csv as pacsv

    handlers = []
    original = pacsv.ParseOptions

    def recording(*args, **kwargs):
        handlers.append(kwargs.get("invalid_row_handler"))
        return original(*args, **kwargs)

    monkeypatch.setattr(pacsv, "ParseOptions", recording)
    path = tmp_path / "short.csv"
    path.write_bytes(b"query,relevance,score\nq,1,0.5\nq,0\n")
    for call in (lambda: read_run(path), lambda: batch.check_csv_fields(path)):
        with pytest.raises(nc.NDCGInputError):
            call()
    assert handlers and handlers == [None] * len(handlers)


def test_read_run_gives_pyarrow_no_python_file_for_an_upload(run, monkeypatch):
    """An uploaded Parquet file reaches pyarrow as a buffer, not as a Python file object that
    pyarrow's reading threads would call back into Python to read (item 13)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    sources = []
    original = pq.ParquetFile

    def recording(source, *args, **kwargs):
        sources.append(source)
        return original(source, *args, **kwargs)

    monkeypatch.setattr(pq, "ParquetFile", recording)
    buffer = io.BytesIO()
    run.to_parquet(buffer, index=False)
    buffer.seek(0)
    assert len(read_run(buffer)) == len(run)
    assert sources and all(isinstance(source, (str, pa.NativeFile)) for source in sources)


@pytest.mark.parametrize(
    ("roles", "column", "first", "second"),
    [
        ({"score": "relevance"}, "relevance", "relevance", "score"),
        ({"query": "item"}, "item", "query", "item"),
        ({"item": "query"}, "query", "query", "item"),
        ({"relevance": "score", "score": "score"}, "score", "relevance", "score"),
    ],
)
def test_evaluate_run_refuses_one_column_for_two_roles(roles, column, first, second):
    """``--score relevance`` ranked the run by its own grades (nDCG 1, exit 0): refused."""
    frame = pd.DataFrame({"query": ["q", "q"], "item": ["a", "b"], "relevance": [1, 0], "score": [0.5, 0.9]})
    with pytest.raises(nc.NDCGInputError) as info:
        evaluate_run(frame, **roles)
    assert info.value.key == "column_roles"
    assert info.value.params == {"column": column, "first": first, "second": second}


def _damaged_parquet() -> bytes:
    """A Parquet file whose pages are overwritten with 0xFF, its footer intact."""
    frame = pd.DataFrame(
        {"query": ["q"] * 100, "item": [f"d{i}" for i in range(100)], "relevance": 1, "score": 0.5}
    )
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False, compression=None)
    data = bytearray(buffer.getvalue())
    data[8:600] = b"\xff" * 592
    return bytes(data)


def test_read_run_parquet_damaged_inside_is_named_without_pyarrow_words():
    """Footer intact, pages damaged: pyarrow's 'Couldn't deserialize thrift' (an OSError) is
    the project's parquet_invalid, as for a file cut short."""
    with pytest.raises(nc.NDCGInputError) as info:
        read_run(_damaged_parquet(), name="damaged.parquet")
    assert (info.value.key, info.value.params) == ("parquet_invalid", {"name": "damaged.parquet"})


def test_read_run_parquet_that_cannot_be_opened_is_unreadable(tmp_path):
    """An error opening the file stays 'unreadable' with the system's reason."""
    with pytest.raises(nc.NDCGInputError) as info:
        read_run(tmp_path)  # a folder
    assert info.value.key == "unreadable"


@pytest.mark.parametrize(
    ("text", "rows", "multiline"),
    [
        (b"query,relevance,score\n", 0, False),  # a header alone
        (b"query,relevance,score\n\n\n", 0, False),  # and blank lines, which no reader counts
        (b"query,relevance,score\nq,1,0.5\n\nq,0,0.2\n", 2, False),
        (b'query,relevance,score\n"q\nr",1,0.5\nq,0,0.2', 2, True),  # a row over two lines
    ],
)
def test_check_csv_fields_counts_the_rows(tmp_path, text, rows, multiline):
    """The number of data rows the Spark engine relies on (it then asks Spark for no job to
    read the header or to see whether the file has a row)."""
    path = tmp_path / "run.csv"
    path.write_bytes(text)
    scan = batch.check_csv_fields(path)
    assert (scan.columns, scan.rows, scan.multiline) == (("query", "relevance", "score"), rows, multiline)
