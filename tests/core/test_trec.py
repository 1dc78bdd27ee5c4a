"""Qrels and TREC runs (ndcg_core.trec): readers, and evaluate_trec against pytrec_eval and ranx."""

from __future__ import annotations

import gzip
import io
import math

import numpy as np
import pandas as pd
import pytest

import ndcg_core as nc
from ndcg_core.trec import evaluate_trec, read_qrels, read_trec_run, run_name
from ndcg_core.validate import NDCGInputError

pytrec_eval = pytest.importorskip("pytrec_eval")

# --------------------------------------------------------------------------- generated collections


def collection(
    seed: int, *, ties: bool = True, negative: bool = True, n_queries: int = 25
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Qrels and one run with what real collections have: tied scores (exact in float32, so
    pytrec_eval's float32 scores order them as we do), unjudged retrieved items, judged queries
    the run misses, run queries without judgments, negative grades, queries with nothing
    relevant, and ids whose string order differs from their number order."""
    rng = np.random.default_rng(seed)
    grades = [-2, -1, 0, 0, 1, 2, 3] if negative else [0, 0, 0, 1, 2, 3]
    qrels_rows, run_rows = [], []
    for index in range(n_queries):
        query = f"{index + 1:03d}" if index % 3 else str(index + 1)
        pool = [f"d{int(number)}" for number in rng.choice(200, size=rng.integers(1, 25), replace=False)]
        nothing_relevant = rng.random() < 0.1
        pool_grades = [0 if nothing_relevant else int(rng.choice(grades)) for _ in pool]
        if max(pool_grades) < 0:
            # trec_eval reads memory it never set for a query whose every grade is negative
            # (pytrec_eval crashes); such a query is left out of the comparisons
            pool_grades[0] = 0
        qrels_rows += [(query, item, grade) for item, grade in zip(pool, pool_grades, strict=True)]
        if rng.random() < 0.15:
            continue  # a judged query the run does not answer
        retrieved = set(rng.choice(pool, size=rng.integers(1, len(pool) + 1), replace=False).tolist())
        retrieved |= {f"u{int(n)}" for n in rng.choice(50, size=rng.integers(0, 8), replace=False)}
        for item in sorted(retrieved):
            score = float(rng.integers(0, 6)) / 2 if ties else float(rng.normal())
            run_rows.append((query, item, score))
    for index in range(3):  # queries of the run without any judgment
        run_rows.append((f"x{index}", "d1", 1.0))
    qrels = pd.DataFrame(qrels_rows, columns=["query", "item", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query", "item", "score"])
    return qrels, run


def pytrec(
    qrels: pd.DataFrame, run: pd.DataFrame, measures: set[str], *, judged_only: bool = False
) -> dict[str, dict[str, float]]:
    judgments: dict[str, dict[str, int]] = {}
    for query, item, grade in qrels.itertuples(index=False):
        judgments.setdefault(query, {})[item] = int(grade)
    scores: dict[str, dict[str, float]] = {}
    for query, item, score in run.itertuples(index=False):
        scores.setdefault(query, {})[item] = float(score)
    evaluator = pytrec_eval.RelevanceEvaluator(judgments, measures, judged_docs_only_flag=judged_only)
    result: dict[str, dict[str, float]] = evaluator.evaluate(scores)
    return result


SEEDS = range(8)


@pytest.mark.parametrize("seed", SEEDS)
def test_evaluate_trec_missing_drop_equals_pytrec_eval(seed: int) -> None:
    qrels, run = collection(seed)
    expected = pytrec(qrels, run, {"ndcg_cut_5", "ndcg_cut_10"})
    result = evaluate_trec(qrels, {"r": run}, k="5,10", missing="drop")
    answered = result.per_query[~result.per_query["missing"]].set_index("query")
    assert sorted(answered.index) == sorted(expected)
    for query, values in expected.items():
        assert answered.loc[query, "ndcg@5"] == pytest.approx(values["ndcg_cut_5"], abs=1e-12)
        assert answered.loc[query, "ndcg@10"] == pytest.approx(values["ndcg_cut_10"], abs=1e-12)
    mean = np.mean([values["ndcg_cut_10"] for values in expected.values()])
    assert result.means.loc[0, "ndcg@10"] == pytest.approx(mean, abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_evaluate_trec_default_equals_pytrec_eval_with_zero_per_missing_query(seed: int) -> None:
    qrels, run = collection(seed)
    expected = pytrec(qrels, run, {"ndcg_cut_10"})
    n_judged = qrels["query"].nunique()
    result = evaluate_trec(qrels, [run])
    # trec_eval -c: the sum over the answered queries, divided by every judged query
    assert result.means.loc[0, "ndcg@10"] == pytest.approx(
        sum(values["ndcg_cut_10"] for values in expected.values()) / n_judged, abs=1e-12
    )
    assert result.means.loc[0, "n_queries"] == n_judged


@pytest.mark.parametrize("seed", SEEDS)
def test_evaluate_trec_unjudged_drop_equals_pytrec_eval_judged_only(seed: int) -> None:
    qrels, run = collection(seed)
    expected = pytrec(qrels, run, {"ndcg_cut_5"}, judged_only=True)
    result = evaluate_trec(qrels, {"r": run}, k=5, unjudged="drop", missing="drop")
    answered = result.per_query[~result.per_query["missing"]].set_index("query")
    for query, values in expected.items():
        assert answered.loc[query, "ndcg@5"] == pytest.approx(values["ndcg_cut_5"], abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_evaluate_trec_whole_list_equals_pytrec_eval_ndcg(seed: int) -> None:
    qrels, run = collection(seed)
    expected = pytrec(qrels, run, {"ndcg"})
    result = evaluate_trec(qrels, {"r": run}, k=None, missing="drop")
    answered = result.per_query[~result.per_query["missing"]].set_index("query")
    for query, values in expected.items():
        assert answered.loc[query, "ndcg"] == pytest.approx(values["ndcg"], abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_evaluate_trec_run_listed_by_rank_equals_pytrec_eval(seed: int) -> None:
    # a run written as TREC files are (each query's rows by descending score, ties in no
    # particular order) is taken in file order without a sort; the numbers must not move
    qrels, run = collection(seed)
    shuffled = run.sample(frac=1.0, random_state=seed)
    ranked = shuffled.sort_values(["query", "score"], ascending=[True, False], kind="stable")
    expected = pytrec(qrels, ranked, {"ndcg_cut_5", "ndcg_cut_10"})
    result = evaluate_trec(qrels, {"r": ranked}, k="5,10", missing="drop")
    answered = result.per_query[~result.per_query["missing"]].set_index("query")
    for query, values in expected.items():
        assert answered.loc[query, "ndcg@5"] == pytest.approx(values["ndcg_cut_5"], abs=1e-12)
        assert answered.loc[query, "ndcg@10"] == pytest.approx(values["ndcg_cut_10"], abs=1e-12)


def test_evaluate_trec_input_ties_keep_file_order_in_a_run_listed_by_rank() -> None:
    qrels = pd.DataFrame({"query": ["q"] * 3, "item": ["a", "b", "c"], "relevance": [0, 3, 1]})
    run = pd.DataFrame({"query": ["q"] * 3, "item": ["a", "b", "c"], "score": [2.0, 2.0, 1.0]})
    row = evaluate_trec(qrels, {"r": run}, k=3, ties="input").per_query.loc[0]
    assert row["dcg@3"] == pytest.approx(0 + 3 / math.log2(3) + 1 / math.log2(4), abs=1e-12)


def test_evaluate_trec_float32_ties_follow_trec_eval_when_scores_are_float32() -> None:
    # 0.5 and 0.25 are exact in float32: a tie, broken by item id descending as a string
    qrels = pd.DataFrame({"query": ["q"] * 3, "item": ["d9", "d10", "d2"], "relevance": [1, 3, 0]})
    run = pd.DataFrame({"query": ["q"] * 3, "item": ["d9", "d10", "d2"], "score": [0.5, 0.5, 0.25]})
    ours = evaluate_trec(qrels, {"r": run}, k=3).per_query.loc[0, "ndcg@3"]
    # "d9" > "d10" as strings, so d9 (grade 1) ranks first, then d10 (3), then d2 (0)
    expected = (1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3))
    assert ours == pytest.approx(expected, abs=1e-12)
    assert pytrec(qrels, run, {"ndcg_cut_3"})["q"]["ndcg_cut_3"] == pytest.approx(expected, abs=1e-12)


def test_evaluate_trec_negative_grade_is_gain_zero_and_not_judged() -> None:
    qrels = pd.DataFrame({"query": ["q"] * 3, "item": ["a", "b", "c"], "relevance": [-1, 2, 1]})
    run = pd.DataFrame({"query": ["q"] * 3, "item": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    row = evaluate_trec(qrels, {"r": run}, k=3).per_query.loc[0]
    assert row["dcg@3"] == pytest.approx(2 / math.log2(3) + 1 / math.log2(4))
    assert row["idcg@3"] == pytest.approx(2 + 1 / math.log2(3))
    assert row["judged@3"] == pytest.approx(2 / 3)


def test_evaluate_trec_ideal_list_equals_scikit_learn_on_the_returned_list() -> None:
    from sklearn.metrics import ndcg_score

    qrels = pd.DataFrame({"query": ["q"] * 4, "item": ["a", "b", "c", "z"], "relevance": [1, 3, 0, 3]})
    run = pd.DataFrame({"query": ["q"] * 4, "item": ["a", "b", "c", "u"], "score": [4.0, 3.0, 2.0, 1.0]})
    ours = evaluate_trec(qrels, {"r": run}, k=3, ideal="list").per_query.loc[0, "ndcg@3"]
    assert ours == pytest.approx(ndcg_score([[1, 3, 0, 0]], [[4, 3, 2, 1]], k=3), abs=1e-12)


def test_evaluate_trec_reports_unjudged_and_missing_queries() -> None:
    qrels, run = collection(3)
    result = evaluate_trec(qrels, {"r": run})
    assert result.unjudged_queries["r"] == ("x0", "x1", "x2")
    expected_missing = tuple(q for q in qrels["query"].unique() if q not in set(run["query"]))
    assert result.missing_queries["r"] == expected_missing
    assert result.per_query["missing"].sum() == len(expected_missing)


def test_evaluate_trec_no_relevant_drop_leaves_queries_with_idcg_zero_out() -> None:
    qrels = pd.DataFrame({"query": ["a", "b"], "item": ["x", "y"], "relevance": [1, 0]})
    run = pd.DataFrame({"query": ["a", "b"], "item": ["x", "y"], "score": [1.0, 1.0]})
    assert evaluate_trec(qrels, {"r": run}).means.loc[0, "ndcg@10"] == pytest.approx(0.5)
    dropped = evaluate_trec(qrels, {"r": run}, no_relevant="drop").means.loc[0]
    assert dropped["ndcg@10"] == pytest.approx(1.0)
    assert dropped["n_queries"] == 1


def test_evaluate_trec_columns_follow_measure_columns() -> None:
    qrels, run = collection(1)
    result = evaluate_trec(qrels, {"a": run, "b": run}, k=[10, 5])
    expected = ["run", "query", "n_items"]
    for measure in ("ndcg", "dcg", "idcg", "judged"):
        expected += list(nc.measure_columns((10, 5), measure))
    assert list(result.per_query.columns) == [*expected, "missing"]
    assert list(result.means.columns) == ["run", "n_queries", "ndcg@10", "ndcg@5", "judged@10", "judged@5"]
    assert result.means["run"].tolist() == ["a", "b"]


def test_evaluate_trec_several_cutoffs_equal_one_cutoff_each() -> None:
    qrels, run = collection(2)
    together = evaluate_trec(qrels, {"r": run}, k="3,10,20").per_query
    for k in (3, 10, 20):
        alone = evaluate_trec(qrels, {"r": run}, k=k).per_query
        np.testing.assert_allclose(together[f"ndcg@{k}"], alone[f"ndcg@{k}"], atol=1e-15)
        np.testing.assert_allclose(together[f"judged@{k}"], alone[f"judged@{k}"], atol=1e-15)


def test_evaluate_trec_refuses_two_runs_of_one_name() -> None:
    qrels, _run = collection(0)
    with pytest.raises(NDCGInputError) as error:
        evaluate_trec(qrels, ["a/bm25.run", "b/bm25.txt"])
    assert error.value.key == "run_name_duplicate"


def test_evaluate_trec_refuses_an_unknown_option() -> None:
    qrels, run = collection(0)
    with pytest.raises(NDCGInputError) as error:
        evaluate_trec(qrels, {"r": run}, ideal="judged")
    assert error.value.key == "unknown_option"


# --------------------------------------------------------------------------- ranx


@pytest.mark.ranx
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("comparable", [False, True])
def test_evaluate_trec_equals_ranx_without_ties(seed: int, comparable: bool) -> None:
    import ranx  # imported here: its Numba functions compile on import (seconds)

    qrels, run = collection(seed, ties=False, negative=False)
    judged = qrels.groupby("query")["relevance"].max()
    relevant = set(judged[judged > 0].index)
    # ranx needs a relevant item in every query of its qrels (it refuses others)
    qrels = qrels[qrels["query"].isin(relevant)]
    if not comparable:  # without make_comparable, ranx wants the same queries on both sides
        run = run[run["query"].isin(relevant)]
        qrels = qrels[qrels["query"].isin(set(run["query"]))]
    judgments: dict[str, dict[str, int]] = {}
    for query, item, grade in qrels.itertuples(index=False):
        judgments.setdefault(query, {})[item] = int(grade)
    scores: dict[str, dict[str, float]] = {}
    for query, item, score in run.itertuples(index=False):
        scores.setdefault(query, {})[item] = float(score)
    ranx_qrels, ranx_run = ranx.Qrels(judgments), ranx.Run(scores)
    if comparable:
        ranx_run.make_comparable(ranx_qrels)
    ours = evaluate_trec(qrels, {"r": run}, k=10).means.loc[0, "ndcg@10"]
    assert ours == pytest.approx(ranx.evaluate(ranx_qrels, ranx_run, "ndcg@10"), abs=1e-12)


# --------------------------------------------------------------------------- readers


def test_read_qrels_reads_tabs_multiple_spaces_crlf_and_blank_lines() -> None:
    text = b"  1 0\tdoc-1   2\r\n\r\n1 0 doc-2 0 \n\t\n2\t0\t007\t-1\n"
    frame = read_qrels(text)
    assert frame.to_dict("list") == {
        "query": ["1", "1", "2"],
        "item": ["doc-1", "doc-2", "007"],
        "relevance": [2.0, 0.0, -1.0],
    }
    assert frame["relevance"].dtype == np.float64


def test_read_qrels_recognises_gzip_from_the_content(tmp_path: object) -> None:
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "qrels.txt"  # no .gz in the name
    path.write_bytes(gzip.compress(b"1 0 a 1\n1 0 b 0\n"))
    assert read_qrels(path)["item"].tolist() == ["a", "b"]


def test_read_qrels_keeps_a_repeated_pair_with_the_same_grade_once() -> None:
    assert read_qrels(b"1 0 a 1\n1 0 a 1\n1 0 b 0\n")["item"].tolist() == ["a", "b"]


def test_read_qrels_names_the_lines_of_a_pair_graded_twice() -> None:
    with pytest.raises(NDCGInputError) as error:
        read_qrels(b"1 0 a 1\n\n1 0 b 1\n1 0 a 2\n", name="q.txt")
    assert error.value.key == "qrels_conflict"
    assert error.value.params["line_first"] == 1
    assert error.value.params["line"] == 4
    assert error.value.params["name"] == "q.txt"


def test_read_qrels_names_the_line_with_a_wrong_field_count() -> None:
    with pytest.raises(NDCGInputError) as error:
        read_qrels(b"1 0 a 1\n\n1 0 b\n", name="q.txt")
    assert error.value.key == "trec_field_count"
    assert (error.value.params["line"], error.value.params["got"]) == (3, 3)
    assert "q.txt" in str(error.value)


def test_read_qrels_names_the_line_with_a_grade_that_is_not_a_number() -> None:
    with pytest.raises(NDCGInputError) as error:
        read_qrels(b"1 0 a 1\n1 0 b high\n", name="q.txt")
    assert error.value.key == "trec_value"
    assert error.value.params["line"] == 2
    assert error.value.params["value"] == "high"


def test_read_qrels_reads_csv_with_ids_as_text() -> None:
    frame = read_qrels(b"query,item,relevance\n007,1.0,2\n")
    assert frame.to_dict("list") == {"query": ["007"], "item": ["1.0"], "relevance": [2.0]}


def test_read_trec_run_keeps_ids_as_written_and_ignores_ranks() -> None:
    frame = read_trec_run(b"007 Q0 1.0 99 0.5 t\n7 Q0 1 1 0.75 t\n")
    assert frame["query"].tolist() == ["007", "7"]
    assert frame["item"].tolist() == ["1.0", "1"]
    assert frame["score"].tolist() == [0.5, 0.75]
    assert frame["tag"].tolist() == ["t", "t"]


@pytest.mark.parametrize("score", [b"nan", b"inf", b"-inf", b"high"])
def test_read_trec_run_names_the_line_of_a_score_that_is_not_finite(score: bytes) -> None:
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(b"1 Q0 a 1 0.5 t\n\n1 Q0 b 2 " + score + b" t\n", name="run.txt")
    assert error.value.key == "trec_value"
    assert error.value.params["line"] == 3
    assert error.value.params["name"] == "run.txt"


def test_read_trec_run_names_the_line_with_a_wrong_field_count() -> None:
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(b"1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4\n", name="run.txt")
    assert error.value.key == "trec_field_count"
    assert (error.value.params["line"], error.value.params["got"]) == (2, 5)


def test_read_trec_run_names_both_lines_of_a_repeated_pair() -> None:
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(b"1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 t\n\n1 Q0 a 3 0.3 t\n", name="run.txt")
    assert error.value.key == "run_duplicate"
    assert (error.value.params["line_first"], error.value.params["line"]) == (1, 4)


def test_text_hash_is_equal_exactly_for_equal_ids_wherever_they_sit() -> None:
    import pyarrow as pa

    from ndcg_core.trec import _text_hash

    ids = ["", "a", "ab", "abcdefgh", "abcdefghi", "x" * 17, "\u6587", "a", "ab", "", "abcdefghi", "x" * 17]
    hashed = _text_hash(pa.array(ids))
    for i, j in np.ndindex(len(ids), len(ids)):
        assert (hashed[i] == hashed[j]) == (ids[i] == ids[j])
    for stop in range(1, len(ids) + 1):  # an id at the very end of the text buffer, a sliced array
        assert (_text_hash(pa.array(["zzzz", *ids]).slice(1, stop)) == hashed[:stop]).all()


def _length_hash(strings: object) -> np.ndarray:
    """A deliberately weak hash for the tests: the id's length only, so ids of one length
    collide and every exact check behind the hashed keys is exercised."""
    import pyarrow.compute as pc

    from ndcg_core import trec

    lengths = pc.binary_length(strings).to_numpy(zero_copy_only=False).astype(np.uint64)
    return trec._mix(lengths * np.uint64(0x9E3779B97F4A7C15))


@pytest.fixture
def weak_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    from ndcg_core import trec

    monkeypatch.setattr(trec, "_text_hash", _length_hash)


@pytest.mark.usefixtures("weak_hash")
def test_read_trec_run_keeps_different_ids_whose_hashes_collide() -> None:
    run = read_trec_run(b"1 Q0 ab 1 0.5 t\n1 Q0 cd 2 0.4 t\n1 Q0 ef 3 0.3 t\n")
    assert run["item"].tolist() == ["ab", "cd", "ef"]


@pytest.mark.usefixtures("weak_hash")
def test_read_trec_run_finds_a_repeated_pair_among_ids_whose_hashes_collide() -> None:
    data = b"1 Q0 ab 1 0.5 t\n1 Q0 cd 2 0.4 t\n1 Q0 x 3 0.3 t\n1 Q0 cd 4 0.2 t\n"
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(data, name="run.txt")
    assert (error.value.params["line_first"], error.value.params["line"]) == (2, 4)
    assert error.value.params["item"] == "cd"


@pytest.mark.usefixtures("weak_hash")
def test_evaluate_trec_ignores_a_run_id_whose_hash_matches_a_judged_id() -> None:
    # judged ids of distinct lengths (no collision inside the qrels); the run's "x" and "yyy"
    # collide with the judged "a" and "ccc" but are not judged
    qrels = pd.DataFrame({"query": ["q"] * 3, "item": ["a", "bb", "ccc"], "relevance": [3, 2, 1]})
    run = pd.DataFrame({"query": ["q"] * 4, "item": ["x", "bb", "yyy", "a"], "score": [4.0, 3.0, 2.0, 1.0]})
    row = evaluate_trec(qrels, {"r": run}, k=4).per_query.loc[0]
    assert row["dcg@4"] == pytest.approx(2 / math.log2(3) + 3 / math.log2(5), abs=1e-12)
    assert row["idcg@4"] == pytest.approx(3 + 2 / math.log2(3) + 1 / math.log2(4), abs=1e-12)
    assert row["judged@4"] == pytest.approx(2 / 4)


@pytest.mark.usefixtures("weak_hash")
def test_evaluate_trec_looks_ids_up_by_text_when_judged_ids_collide() -> None:
    # "a" and "b" collide inside the qrels: the lookup falls back to the ids' text
    qrels = pd.DataFrame({"query": ["q"] * 3, "item": ["a", "b", "cc"], "relevance": [3, 2, 1]})
    run = pd.DataFrame({"query": ["q"] * 3, "item": ["b", "x", "cc"], "score": [3.0, 2.0, 1.0]})
    row = evaluate_trec(qrels, {"r": run}, k=3).per_query.loc[0]
    assert row["dcg@3"] == pytest.approx(2 + 1 / math.log2(4), abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_evaluate_trec_numbers_do_not_depend_on_the_hash(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    qrels, run = collection(seed)
    expected = evaluate_trec(qrels, {"r": run}, k="5,10").per_query
    from ndcg_core import trec

    monkeypatch.setattr(trec, "_text_hash", _length_hash)
    pd.testing.assert_frame_equal(evaluate_trec(qrels, {"r": run}, k="5,10").per_query, expected)


def test_read_trec_run_tells_long_ids_apart_by_every_byte() -> None:
    items = [("x" * 20) + c + ("y" * 20) for c in "abc"] + ["z" * 41]
    data = "".join(f"1 Q0 {item} {rank + 1} 0.5 t\n" for rank, item in enumerate(items)).encode()
    assert read_trec_run(data)["item"].tolist() == items
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(data + f"1 Q0 {items[1]} 9 0.1 t\n".encode())
    assert (error.value.params["line_first"], error.value.params["line"]) == (2, 5)


@pytest.mark.parametrize(
    ("pairs", "lines"),
    [
        (["1 a", "1 a", "2 c", "2 d"], (1, 2)),  # grouped by query, lists of one length
        (["1 a", "1 b", "1 a", "2 c"], (1, 3)),  # grouped, lists of different lengths
        (["1 a", "2 a", "1 b", "1 a"], (1, 4)),  # queries interleaved
    ],
)
def test_read_trec_run_finds_a_repeated_pair_however_queries_are_laid_out(
    pairs: list[str], lines: tuple[int, int]
) -> None:
    query_item = [pair.split() for pair in pairs]
    data = "".join(f"{q} Q0 {i} {rank + 1} 0.5 t\n" for rank, (q, i) in enumerate(query_item)).encode()
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(data)
    assert (error.value.params["line_first"], error.value.params["line"]) == lines


@pytest.mark.parametrize(
    "items",
    [
        ["d1", "d10", "d1\u00e9", "d", "D1"],  # short ids: the key holds every byte
        ["abcdefgh", "abcdefghi", "xbcdefgh", "abcdefghijklmnop", "abcdefghijklmnoq"],  # 8..16 bytes
        ["\u6587\u6863\u4e00", "\u6587\u6863\u4e8c", "\u6587\u6863"],  # UTF-8, several bytes a character
    ],
)
def test_read_trec_run_keeps_ids_that_differ_in_any_byte(items: list[str]) -> None:
    data = "".join(f"1 Q0 {item} {rank + 1} 0.5 t\n" for rank, item in enumerate(items)).encode()
    assert read_trec_run(data)["item"].tolist() == items


def test_read_trec_run_keeps_one_id_retrieved_for_two_queries() -> None:
    run = read_trec_run(b"1 Q0 a 1 0.5 t\n2 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 t\n")
    assert run["query"].tolist() == ["1", "2", "1"]


def test_read_trec_run_reads_csv_and_parquet() -> None:
    frame = pd.DataFrame({"query": ["1"], "item": ["a"], "score": [0.5]})
    parquet = io.BytesIO()
    frame.to_parquet(parquet)
    assert read_trec_run(parquet.getvalue()).to_dict("list") == frame.to_dict("list")
    assert read_trec_run(b"query,item,score\n1,a,0.5\n").to_dict("list") == frame.to_dict("list")


def test_read_trec_run_names_the_csv_line_of_a_bad_score() -> None:
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(b"query,item,score\n1,a,0.5\n1,b,x\n", name="run.csv")
    assert error.value.params["line"] == 3


def test_read_trec_run_refuses_an_empty_file() -> None:
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(b"\n\n", name="run.txt")
    assert error.value.key == "empty_table"


def test_run_name_takes_off_the_usual_suffixes() -> None:
    assert run_name("x/bm25.run.gz") == "bm25"


def test_evaluate_trec_run_without_any_judged_query_gives_float_zeros() -> None:
    qrels = pd.DataFrame({"query": ["a"], "item": ["x"], "relevance": [1]})
    run = pd.DataFrame({"query": ["zz"], "item": ["x"], "score": [1.0], "name": ["not a run name"]})
    result = evaluate_trec(qrels, [run], k="1,3")
    row = result.per_query.loc[0]
    assert (row["run"], row["dcg@3"], row["ndcg@3"], bool(row["missing"])) == ("run1", 0.0, 0.0, True)
    assert result.per_query["dcg@3"].dtype == np.float64
    assert result.unjudged_queries == {"run1": ("zz",)}


@pytest.mark.parametrize(
    ("ties", "dcg"),
    [("optimistic", 2.0), ("pessimistic", 2.0 / math.log2(3))],
)
def test_evaluate_trec_breaks_a_tie_with_an_unjudged_item_as_gain_zero(ties, dcg):
    # d1 (grade 2) ties with d2, which has no judgment (gain 0): the optimistic order puts d1
    # first, the pessimistic one second (found by the Spark engine's cross-check)
    qrels = pd.DataFrame({"query": ["q"], "item": ["d1"], "relevance": [2.0]})
    run = pd.DataFrame({"query": ["q", "q"], "item": ["d1", "d2"], "score": [1.0, 1.0]})
    row = nc.evaluate_trec(qrels, {"r": run}, k=2, ties=ties).per_query.iloc[0]
    assert row["dcg@2"] == pytest.approx(dcg, rel=1e-15)
    assert row["ndcg@2"] == pytest.approx(dcg / 2.0, rel=1e-15)


# --------------------------------------------------------------------------- the quick paths


def interleaved(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The collection of :func:`collection` with the run's rows in random order: not grouped
    by query, not listed by rank, queries without judgments first and between the others."""
    qrels, run = collection(seed)
    return qrels, run.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def to_trec(qrels: pd.DataFrame, run: pd.DataFrame) -> tuple[bytes, bytes]:
    """The two tables as TREC text (scores written with repr: read back exactly)."""
    qrels_text = "".join(f"{q} 0 {i} {int(g)}\n" for q, i, g in qrels.itertuples(index=False))
    run_text = "".join(
        f"{q} Q0 {i} {rank + 1} {s!r} t\n" for rank, (q, i, s) in enumerate(run.itertuples(index=False))
    )
    return qrels_text.encode(), run_text.encode()


@pytest.mark.parametrize("seed", SEEDS)
def test_evaluate_trec_run_not_grouped_by_query_equals_pytrec_eval(seed: int) -> None:
    # the first k rows of each query are looked up in the qrels, through the rows kept
    # after the queries without judgments are left out
    qrels, run = interleaved(seed)
    stretches = int((run["query"] != run["query"].shift()).sum())
    assert stretches > run["query"].nunique()  # some query's rows are apart
    expected = pytrec(qrels, run, {"ndcg_cut_3", "ndcg_cut_10"})
    result = evaluate_trec(qrels, {"r": run}, k="10,3", missing="drop")
    answered = result.per_query[~result.per_query["missing"]].set_index("query")
    assert sorted(answered.index) == sorted(expected)
    for query, values in expected.items():
        assert answered.loc[query, "ndcg@3"] == pytest.approx(values["ndcg_cut_3"], abs=1e-12)
        assert answered.loc[query, "ndcg@10"] == pytest.approx(values["ndcg_cut_10"], abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_evaluate_trec_first_k_rows_give_the_judged_share_of_the_whole_ranking(seed: int) -> None:
    # judged@k from the first k rows only (default options) against the definition: the
    # share of the first min(k, n) rows of trec_eval's order that have a grade >= 0
    qrels, run = interleaved(seed)
    result = evaluate_trec(qrels, {"r": run}, k=4).per_query.set_index("query")
    graded = {(q, i) for q, i, g in qrels.itertuples(index=False) if g >= 0}
    for query, rows in run.groupby("query"):
        if query not in result.index:
            continue  # a query without judgments
        # trec_eval: score descending, then id descending (byte order)
        ranked = sorted(rows.itertuples(index=False), key=lambda r: (r.score, r.item.encode()), reverse=True)
        first = ranked[: min(4, len(ranked))]
        share = sum((query, r.item) in graded for r in first) / len(first)
        assert result.loc[query, "judged@4"] == pytest.approx(share, abs=1e-15)


@pytest.mark.parametrize("seed", range(3))
def test_evaluate_trec_numbers_do_not_depend_on_the_hash_in_a_run_not_grouped(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ndcg_core import trec

    qrels, run = interleaved(seed)
    expected = evaluate_trec(qrels, {"r": run}, k="5,10").per_query
    monkeypatch.setattr(trec, "_text_hash", _length_hash)
    pd.testing.assert_frame_equal(evaluate_trec(qrels, {"r": run}, k="5,10").per_query, expected)


def test_evaluate_trec_negative_grade_in_the_first_k_rows_is_not_judged() -> None:
    # grades -1 and -2 (trec_eval: in the pool, not judged): gain 0, not counted in judged@3
    qrels = pd.DataFrame({"query": ["q"] * 4, "item": ["a", "b", "c", "d"], "relevance": [-1, 2, -2, 1]})
    run = pd.DataFrame({"query": ["q"] * 4, "item": ["a", "b", "c", "d"], "score": [4.0, 3.0, 2.0, 1.0]})
    row = evaluate_trec(qrels, {"r": run}, k=3).per_query.loc[0]
    assert row["dcg@3"] == pytest.approx(0 + 2 / math.log2(3) + 0, abs=1e-15)
    assert row["idcg@3"] == pytest.approx(2 + 1 / math.log2(3), abs=1e-15)
    assert row["judged@3"] == pytest.approx(1 / 3, abs=1e-15)


@pytest.mark.parametrize("seed", range(3))
def test_evaluate_trec_files_parsed_in_many_blocks_equal_the_tables(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pyarrow's parser hands over each block's query dictionary; unified over the blocks the
    # codes must still follow first appearance (the qrels' query order is the table's order)
    from ndcg_core import trec

    qrels, run = interleaved(seed)
    qrels = qrels.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    qrels_text, run_text = to_trec(qrels, run)
    expected = evaluate_trec(qrels, {"r": run}, k="5,10")
    monkeypatch.setattr(trec, "_BLOCK_SIZE", 64)
    result = evaluate_trec(qrels_text, {"r": run_text}, k="5,10")
    assert result.per_query["query"].tolist() == list(dict.fromkeys(qrels["query"]))
    pd.testing.assert_frame_equal(result.per_query, expected.per_query)
    assert result.unjudged_queries == expected.unjudged_queries


# --------------------------------------------------------------------------- files mapped into memory


def test_read_qrels_reads_a_file_path_with_tabs_and_padding(tmp_path: object) -> None:
    # a file named by its path is mapped, not read; every slow path still sees its text
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "qrels.txt"
    path.write_bytes(b"  1 0\tdoc-1   2\r\n\r\n1 0 doc-2 0 \n\t\n2\t0\t007\t-1\n")
    assert read_qrels(path).to_dict("list") == {
        "query": ["1", "1", "2"],
        "item": ["doc-1", "doc-2", "007"],
        "relevance": [2.0, 0.0, -1.0],
    }


def test_read_qrels_reads_a_file_path_that_starts_with_a_byte_order_mark(tmp_path: object) -> None:
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "qrels.txt"
    path.write_bytes(b"\xef\xbb\xbf1 0 a 1\n")
    assert read_qrels(path).to_dict("list") == {"query": ["1"], "item": ["a"], "relevance": [1.0]}


def test_read_trec_run_names_the_line_of_a_bad_score_in_a_file_path(tmp_path: object) -> None:
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "run.txt"
    path.write_bytes(b"1 Q0 a 1 0.5 t\n1 Q0 b 2 high t\n")
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(path)
    assert (error.value.key, error.value.params["line"], error.value.params["name"]) == (
        "trec_value",
        2,
        "run.txt",
    )


def test_read_trec_run_names_both_lines_of_a_repeated_pair_in_a_file_path(tmp_path: object) -> None:
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "run.txt"
    path.write_bytes(b"1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 t\n1 Q0 a 3 0.3 t\n")
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(path)
    assert (error.value.params["line_first"], error.value.params["line"]) == (1, 3)


@pytest.mark.parametrize("content", [b"", b" \n\t\n"])
def test_read_trec_run_refuses_an_empty_file_path(tmp_path: object, content: bytes) -> None:
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "run.txt"
    path.write_bytes(content)
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(path)
    assert error.value.key == "empty_table"


def test_read_trec_run_reads_a_csv_file_path(tmp_path: object) -> None:
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "run.csv"
    path.write_bytes(b"query,item,score\n1,007,0.5\n1,7,0.25\n")
    assert read_trec_run(path).to_dict("list") == {
        "query": ["1", "1"],
        "item": ["007", "7"],
        "score": [0.5, 0.25],
    }


# --------------------------------------------------------------------------- runs scanned a stretch at a time


def listed_by_rank(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The collection of :func:`collection` written as run files are: each query's rows by
    descending score, tied rows in random order (ties often straddle a small cutoff)."""
    qrels, run = collection(seed)
    shuffled = run.sample(frac=1.0, random_state=seed)
    return qrels, shuffled.sort_values(["query", "score"], ascending=[True, False], kind="stable")


@pytest.mark.parametrize("seed", SEEDS)
def test_evaluate_trec_tie_at_the_kth_row_of_a_run_listed_by_rank_equals_pytrec_eval(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # only each query's first k rows (and the rest of a tie at the k-th) are ranked: trec_eval's
    # order breaks that tie by id, which can pull a later row into the first k
    from ndcg_core import trec

    qrels, run = listed_by_rank(seed)
    expected = pytrec(qrels, run, {"ndcg_cut_1", "ndcg_cut_2", "ndcg_cut_3"})
    monkeypatch.setattr(trec, "_BLOCK_SIZE", 64)  # the run's ids in many chunks
    monkeypatch.setattr(trec, "_SEGMENT", 7)  # checks over many stretches of whole queries
    result = evaluate_trec(*to_trec(qrels, run), k="1,2,3", missing="drop")
    answered = result.per_query[~result.per_query["missing"]].set_index("query")
    for query, values in expected.items():
        for k in (1, 2, 3):
            assert answered.loc[query, f"ndcg@{k}"] == pytest.approx(values[f"ndcg_cut_{k}"], abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_evaluate_trec_input_ties_take_the_first_k_lines_of_a_run_listed_by_rank(seed: int) -> None:
    qrels, run = listed_by_rank(seed)
    grade = {(q, i): max(float(g), 0.0) for q, i, g in qrels.itertuples(index=False)}
    result = evaluate_trec(*to_trec(qrels, run), k=2, ties="input").per_query.set_index("query")
    for query, rows in run.groupby("query", sort=False):
        if query not in result.index:
            continue  # a query without judgments
        first = rows["item"].tolist()[:2]
        dcg = sum(grade.get((query, item), 0.0) / math.log2(rank + 2) for rank, item in enumerate(first))
        assert result.loc[query, "dcg@2"] == pytest.approx(dcg, abs=1e-12)


@pytest.mark.parametrize("segment", [1, 3, 7, 1 << 18])
def test_read_trec_run_finds_a_repeated_pair_in_any_stretch(
    segment: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ndcg_core import trec

    monkeypatch.setattr(trec, "_SEGMENT", segment)
    lines = [(q, f"d{i}") for q in range(1, 6) for i in range(q + 1)]  # lists of 2..6 rows
    lines.insert(17, (4, "d2"))  # query 4 names d2 twice (lines 12 and 18)
    data = "".join(f"{q} Q0 {i} {n + 1} 0.5 t\n" for n, (q, i) in enumerate(lines)).encode()
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(data)
    assert (error.value.params["line_first"], error.value.params["line"]) == (12, 18)


def test_read_trec_run_finds_a_repeated_pair_among_lists_of_very_unequal_length() -> None:
    # 100 queries of one row and one of 100 rows: too sparse for a grid, the keys are sorted
    lines = [(f"q{n}", "d0") for n in range(100)] + [("long", f"d{n}") for n in range(100)]
    data = "".join(f"{q} Q0 {i} 1 0.5 t\n" for q, i in lines).encode()
    assert len(read_trec_run(data)) == 200
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(data + b"long Q0 d42 2 0.4 t\n")
    assert (error.value.params["line_first"], error.value.params["line"]) == (143, 201)


@pytest.mark.parametrize("seed", range(3))
def test_evaluate_trec_qrels_with_pairs_graded_twice_equal_pytrec_eval(seed: int) -> None:
    qrels, run = collection(seed)
    twice = pd.concat([qrels, qrels.iloc[::3]]).sample(frac=1.0, random_state=seed)
    expected = pytrec(qrels, run, {"ndcg_cut_5"})
    result = evaluate_trec(*to_trec(twice, run), k=5, missing="drop")
    answered = result.per_query[~result.per_query["missing"]].set_index("query")
    for query, values in expected.items():
        assert answered.loc[query, "ndcg@5"] == pytest.approx(values["ndcg_cut_5"], abs=1e-12)


@pytest.mark.usefixtures("weak_hash")
def test_evaluate_trec_qrels_with_a_pair_graded_twice_and_colliding_ids() -> None:
    # "a" graded twice (kept once); "a" and "b" collide under the weak hash: ids looked up by text
    qrels = b"q 0 a 3\nq 0 b 2\nq 0 a 3\nq 0 cc 1\n"
    run = b"q Q0 b 1 3.0 t\nq Q0 x 2 2.0 t\nq Q0 a 3 1.0 t\n"
    row = evaluate_trec(qrels, {"r": run}, k=3).per_query.loc[0]
    assert row["dcg@3"] == pytest.approx(2 + 3 / math.log2(4), abs=1e-12)
    assert row["idcg@3"] == pytest.approx(3 + 2 / math.log2(3) + 1 / math.log2(4), abs=1e-12)


# --------------------------------------------------------------------------- the ideal from the k best gains


def ideal_dcg(grades: list[float], k: int | None, *, exponential: bool = False) -> float:
    """IDCG@k by its definition: the gains (a negative grade counts 0) sorted, largest first."""
    gains = sorted(((2.0**g - 1) if exponential else g) if g > 0 else 0.0 for g in grades)[::-1]
    return sum(gain / math.log2(rank + 2) for rank, gain in enumerate(gains[:k]))


@pytest.mark.parametrize("k", [1, 2, 3, 5, None])
@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_evaluate_trec_pool_idcg_takes_the_k_best_gains_with_ties_and_negative_grades(
    k: int | None, gain: str
) -> None:
    # queries interleaved in the qrels; q1 has tied best grades and negative grades, q2 fewer
    # judged items than the largest k, q3 only negative grades and zeros (IDCG 0)
    rows = [
        ("q1", "a", 1),
        ("q2", "a", 2),
        ("q1", "b", 3),
        ("q3", "a", -1),
        ("q1", "c", -1),
        ("q1", "d", 3),
        ("q2", "b", -2),
        ("q1", "e", 2),
        ("q1", "f", 0),
        ("q3", "b", 0),
        ("q1", "g", -2),
        ("q1", "h", 2),
    ]
    qrels = pd.DataFrame(rows, columns=["query", "item", "relevance"])
    run = pd.DataFrame({"query": ["q1", "q2", "q3"], "item": ["a", "a", "a"], "score": [1.0, 1.0, 1.0]})
    result = evaluate_trec(qrels, {"r": run}, k=k, gain=gain).per_query.set_index("query")
    for query, group in qrels.groupby("query"):
        expected = ideal_dcg(group["relevance"].tolist(), k, exponential=gain == "exponential")
        assert result.loc[query, nc.measure_columns(None if k is None else (k,), "idcg")[0]] == pytest.approx(
            expected, abs=1e-12
        )


@pytest.mark.parametrize("seed", range(4))
def test_best_gains_are_each_querys_largest_gains_in_descending_order(seed: int) -> None:
    from ndcg_core import trec

    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 6, size=80)
    gains = rng.choice([0.0, 0.0, 1.0, 3.0, 7.0], size=80)
    best = trec._best_gains(codes, 6, gains, 4)
    assert best is not None
    expected_codes, expected_position, expected_gains = [], [], []
    for query in range(6):
        top = sorted(gains[codes == query].tolist(), reverse=True)[:4]
        expected_codes += [query] * len(top)
        expected_position += list(range(len(top)))
        expected_gains += top
    assert [part.tolist() for part in best] == [expected_codes, expected_position, expected_gains]


def test_evaluate_trec_pool_idcg_with_many_distinct_grades_takes_the_sorting_path() -> None:
    # 3,000 distinct grades over 60 queries: too many (query, grade) cells to count, so the
    # judged rows are ranked whole; the ideal must be the same definition
    from ndcg_core import trec

    rng = np.random.default_rng(7)
    query = np.repeat([f"q{n}" for n in range(60)], 50)
    grades = rng.permutation(3000) / 7.0
    qrels = pd.DataFrame({"query": query, "item": [f"d{n}" for n in range(3000)], "relevance": grades})
    assert trec._best_gains(np.repeat(np.arange(60), 50), 60, grades, 10) is None
    run = pd.DataFrame({"query": ["q0"], "item": ["d0"], "score": [1.0]})
    result = evaluate_trec(qrels, {"r": run}, k=10).per_query.set_index("query")
    for name, group in qrels.groupby("query"):
        assert result.loc[name, "idcg@10"] == pytest.approx(
            ideal_dcg(group["relevance"].tolist(), 10), abs=1e-9
        )


# --------------------------------------------------------------------------- keys of ids of up to 8 bytes


def run_text(pairs: list[tuple[str, str]]) -> bytes:
    return "".join(f"{q} Q0 {i} {n + 1} 0.5 t\n" for n, (q, i) in enumerate(pairs)).encode()


@pytest.mark.parametrize(
    ("items", "lines"),
    [
        (["a", "ab", "a", "ac"], (1, 3)),  # the bytes after an id differ: only its own count
        (["abcdefgh", "abcdefgi", "abcdefgh"], (1, 3)),  # exactly 8 bytes
        (["abcdefghi", "abcdefgh", "abcdefghj", "abcdefghi"], (1, 4)),  # 9 bytes, shared 8-byte prefix
        (["x", "yy", "zzz", "yy"], (2, 4)),  # the last id at the very end of the text
    ],
)
def test_read_trec_run_finds_a_repeated_id_of_up_to_9_bytes(items: list[str], lines: tuple[int, int]) -> None:
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(run_text([("1", item) for item in items]))
    assert (error.value.params["line_first"], error.value.params["line"]) == lines


@pytest.mark.parametrize(
    "items",
    [
        ["abcdefgh", "abcdefgi", "bbcdefgh", "abcdefg", "abcdefgha"],  # 8 bytes, and 7 and 9 around them
        ["abcdefghi", "abcdefghj", "abcdefgh"],  # a shared 8-byte prefix
        ["\u6587\u6863", "\u6587\u6864", "\u6587"],  # UTF-8: 6 and 3 bytes
    ],
)
def test_read_trec_run_keeps_ids_of_up_to_9_bytes_that_differ(items: list[str]) -> None:
    assert read_trec_run(run_text([("1", item) for item in items]))["item"].tolist() == items


def _length_keys(strings: object) -> np.ndarray | None:
    """A deliberately weak key of short ids for the tests: the length only."""
    import pyarrow.compute as pc

    lengths = pc.binary_length(strings).to_numpy(zero_copy_only=False)
    return None if lengths.max() > 8 else lengths.astype(np.uint32)


@pytest.mark.parametrize("segment", [2, 1 << 18])
def test_read_trec_run_short_ids_whose_keys_collide(segment: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # every id of one length shares a key: the repeated pair is found by text, and different
    # ids whose keys collide are kept (queries 1 and 3 collide, query 2 repeats "cd")
    from ndcg_core import trec

    monkeypatch.setattr(trec, "_short_keys", _length_keys)
    monkeypatch.setattr(trec, "_SEGMENT", segment)
    pairs = [
        ("1", "ab"),
        ("1", "cd"),
        ("2", "ab"),
        ("2", "cd"),
        ("2", "x"),
        ("2", "cd"),
        ("3", "ef"),
        ("3", "gh"),
    ]
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(run_text(pairs))
    assert (error.value.params["line_first"], error.value.params["line"]) == (4, 6)
    assert len(read_trec_run(run_text(pairs[:5] + pairs[6:]))) == 7


# --------------------------------------------------------------------------- crashes on ordinary data


@pytest.mark.parametrize("ties", nc.options.BATCH_TIES)
def test_evaluate_trec_nothing_judged_retrieved_dropped_is_zero_for_every_tie_rule(ties):
    """The run's only item is unjudged: dropped, the condensed list is empty, DCG = 0, the
    ideal is the pool's (grade 1 at position 1: IDCG = 1 / log2(2) = 1), nDCG = 0 / 1 = 0.0."""
    qrels = io.BytesIO(b"q1 0 d1 1\n")
    run = io.BytesIO(b"q1 Q0 dx 1 0.9 r\n")
    result = evaluate_trec(qrels, {"r": run}, ties=ties, unjudged="drop")
    row = result.per_query.iloc[0]
    assert (row["dcg@10"], row["idcg@10"], row["ndcg@10"]) == (0.0, 1.0, 0.0)


def test_evaluate_trec_exponential_1023_in_two_queries_is_finite():
    """Each query holds one grade 1023: its gain 2^1023 - 1 is finite (about 9.0e308 / 10), and
    each list is its own ideal, so each nDCG is 1.0; only a sum within one query could overflow."""
    qrels = io.BytesIO(b"q1 0 d1 1023\nq2 0 d2 1023\n")
    run = io.BytesIO(b"q1 Q0 d1 1 1 r\nq2 Q0 d2 1 1 r\n")
    result = evaluate_trec(qrels, {"r": run}, gain="exponential")
    assert result.per_query["ndcg@10"].tolist() == [1.0, 1.0]


def test_evaluate_trec_gain_sum_overflow_names_the_query_and_its_line():
    """q2's two grades 1023: 2^1023 + 2^1023 (in floats) = 2^1024, past the largest float, at
    the file's line 3 (the second of q2's lines)."""
    qrels = io.BytesIO(b"q1 0 a 1\nq2 0 d1 1023\nq2 0 d2 1023\n")
    run = io.BytesIO(b"q1 Q0 a 1 1 r\n")
    with pytest.raises(NDCGInputError, match=r"query 'q2'.*line 3") as caught:
        evaluate_trec(qrels, {"r": run}, gain="exponential")
    assert caught.value.key == "qrels_sum_overflow"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (b"# judged in 2024\nq1 0 a 1\n\nq2 0 d1 1023\nq2 0 d1 1023\nq2 0 d2 1023\n", 6),
        (b"query,item,relevance\nq1,a,1\nq2,d1,1023\nq2,d2,1023\n", 4),
    ],
    ids=["trec_with_comment_blank_and_repeated_lines", "csv"],
)
def test_qrels_read_first_then_evaluated_name_their_file_and_line(text, line):
    """The Evaluate page reads the qrels once (read_qrels) and evaluates the DataFrame under each
    choice of options: an overflow found then named the file 'table' and the row's number (a
    comment line, a blank line, a repeated pair or a CSV header moved it off the file's line)."""
    qrels = read_qrels(text, name="judged.qrels")
    with pytest.raises(NDCGInputError) as caught:
        evaluate_trec(qrels, {"r": io.BytesIO(b"q1 Q0 a 1 1 r\n")}, gain="exponential")
    error = caught.value
    assert error.key == "qrels_sum_overflow"
    assert (error.params["name"], error.params["query"], error.params["line"]) == ("judged.qrels", "q2", line)
    # a frame with rows taken out is no longer the file's: its rows are named, not lines
    with pytest.raises(NDCGInputError) as caught:
        evaluate_trec(
            qrels.iloc[1:].reset_index(drop=True), {"r": io.BytesIO(b"q2 Q0 d1 1 1 r\n")}, gain="exponential"
        )
    assert (caught.value.params["name"], caught.value.params["line"]) == ("table", 2)


def test_evaluate_trec_gain_overflow_names_the_query_and_its_line():
    qrels = io.BytesIO(b"q1 0 a 1\nq1 0 b 2\nq7 0 c 1100\n")
    with pytest.raises(NDCGInputError, match=r"Line 3.*query 'q7'") as caught:
        evaluate_trec(qrels, {"r": io.BytesIO(b"q1 Q0 a 1 1 r\n")}, gain="exponential")
    assert caught.value.key == "qrels_gain_overflow"


def test_evaluate_trec_sum_overflow_line_counts_after_a_repeated_pair():
    """A pair graded twice alike is kept once; the line named is still the file's (4), not
    the row's place among the rows kept."""
    qrels = io.BytesIO(b"q1 0 a 1\nq1 0 a 1\nq2 0 d1 1023\nq2 0 d2 1023\n")
    with pytest.raises(NDCGInputError, match=r"query 'q2'.*line 4"):
        evaluate_trec(qrels, {"r": io.BytesIO(b"q1 Q0 a 1 1 r\n")}, gain="exponential")


@pytest.mark.parametrize("k", [2**63, "9223372036854775808", "5,99999999999999999999"])
def test_parse_cutoffs_refuses_k_past_the_largest_64_bit_integer(k):
    with pytest.raises(NDCGInputError, match=r"k must be at most 9223372036854775807") as caught:
        nc.options.parse_cutoffs(k)
    assert caught.value.key == "k_too_large"


def test_evaluate_trec_largest_64_bit_k_is_the_whole_list():
    """k = 2^63 - 1 is past every list: nDCG@k is nDCG of the whole list (here 1.0)."""
    result = evaluate_trec(io.BytesIO(b"q1 0 a 1\n"), {"r": io.BytesIO(b"q1 Q0 a 1 1 r\n")}, k=2**63 - 1)
    assert result.per_query[f"ndcg@{2**63 - 1}"].tolist() == [1.0]


def test_judged_at_k_divides_by_min_k_n_as_ir_measures_does() -> None:
    """ir_measures' Judged@k (judged_provider.py, since 0.3.1): a run shorter than the cutoff
    divides by its length. Three returned items, two judged, k = 10: 2/3, not 2/10."""
    import ndcg_core.spark
    import ndcg_core.trec

    qrels = pd.DataFrame({"query": ["q", "q"], "item": ["D1", "D3"], "relevance": [1, 0]})
    run = pd.DataFrame({"query": ["q"] * 3, "item": ["D1", "D2", "D3"], "score": [3.0, 2.0, 1.0]})
    result = evaluate_trec(qrels, run, k=10)
    assert result.per_query["judged@10"].tolist() == [pytest.approx(2 / 3, abs=1e-12)]
    for module in (ndcg_core.trec, ndcg_core.spark):  # the docs say the same (issue 23 item 4)
        text = " ".join((module.__doc__ or "").split()) + " ".join(
            " ".join((getattr(module, name).__doc__ or "").split()) for name in dir(module)
        )
        assert "divides by k instead" not in text


def test_float32_scores_are_pytrec_evals_and_trec_eval_9s_not_trec_eval_10s() -> None:
    """pytrec_eval (trec_eval 9's code) ties 1 and 1 + 1e-9 (float32): D2 before D1 by id
    descending, so the relevant D1 lands second. The docs name the versions (issue 23)."""
    import pytrec_eval

    import ndcg_core.trec

    qrels = {"q": {"D1": 1, "D2": 0}}
    run = {"q": {"D1": 1.0 + 1e-9, "D2": 1.0}}
    value = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg"}).evaluate(run)["q"]["ndcg"]
    assert value == pytest.approx(1 / math.log2(3), abs=1e-12)
    doc = " ".join((ndcg_core.trec.__doc__ or "").split())
    assert "trec_eval 9 and earlier (and pytrec_eval, built on it) keep scores as 32-bit floats" in doc
    assert "trec_eval 10 reads them as doubles" in doc
