"""Files trec_eval reads and nDCG Lab refused or misread (the issue "Read every file trec_eval
reads", items 2-6): fields after the sixth of a run, the format decided from the structure of
the first line, fractional grades, no cutoff, and the cutoff in every column's name.

Expected numbers are written as arithmetic; trec_eval's behaviour is quoted from its source
(usnistgov/trec_eval 10.0: get_trec_results.c, get_qrels.c)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from ndcg_core.options import measure_columns, parse_cutoffs
from ndcg_core.trec import evaluate_trec, read_qrels, read_trec_run
from ndcg_core.validate import NDCGInputError

QRELS = b"q1 0 a 3\nq1 0 b 2\nq1 0 c 0\nq2 0 d 1\nq2 0 e 0\n"
RUN = b"q1 Q0 b 1 0.9 r\nq1 Q0 x 2 0.8 r\nq1 Q0 a 3 0.7 r\nq2 Q0 e 1 0.5 r\nq2 Q0 d 2 0.4 r\n"
#: q1: b (2), x (unjudged), a (3); q2: e (0), d (1).
NDCG_Q1 = (2 + 3 / math.log2(4)) / (3 + 2 / math.log2(3))
NDCG_Q2 = 1 / math.log2(3)


# ----------------------------------------------------------------- item 2: trailing fields


def test_read_trec_run_ignores_fields_after_the_sixth():
    """trec_eval's own results.trunc has text after the run tag: "Any field following run_id
    is ignored" (get_trec_results.c)."""
    run = b"q1 Q0 b 1 0.9 r extra text\nq1 Q0 a 2 0.7 r\tx\n"
    got = read_trec_run(run, name="results.trunc")
    assert got.to_dict("list") == {
        "query": ["q1", "q1"],
        "item": ["b", "a"],
        "score": [0.9, 0.7],
        "tag": ["r", "r"],
    }


def test_evaluate_trec_run_with_trailing_fields_equals_the_plain_run():
    trailing = RUN.replace(b" r\n", b" r 9 more fields\n")
    result = evaluate_trec(QRELS, {"r": trailing}, k=10)
    assert result.per_query["ndcg@10"].tolist() == pytest.approx([NDCG_Q1, NDCG_Q2], abs=1e-12)


def test_read_trec_run_with_five_fields_is_still_refused_naming_at_least_six():
    with pytest.raises(NDCGInputError, match=r"Line 2 of the file 'r.run' has 5 field\(s\).*at least 6"):
        read_trec_run(b"q1 Q0 b 1 0.9 r\nq1 Q0 a 2 0.7\n", name="r.run")


def test_read_qrels_fifth_field_is_refused_saying_trec_eval_refuses_it_too():
    with pytest.raises(NDCGInputError, match=r"Line 2 of the file 'q.txt' has 5 field\(s\).*trec_eval"):
        read_qrels(b"q1 0 a 1\nq1 0 b 1 extra\n", name="q.txt")


# ----------------------------------------------------------------- item 3: the format


@pytest.mark.parametrize(
    "run",
    [
        b"e Q0 <dbpedia:Paris,_Texas> 1 2.0 r\ne Q0 <dbpedia:Paris> 2 1.0 r\n",
        b"e Q0 a 1 2.0 bm25,k1=0.9\ne Q0 b 2 1.0 bm25,k1=0.9\n",
    ],
    ids=["comma_in_id", "comma_in_tag"],
)
def test_read_trec_run_with_a_comma_on_line_1_is_trec(run):
    got = read_trec_run(run, name="r.run")
    assert got["score"].tolist() == [2.0, 1.0]


def test_read_trec_run_of_one_line_with_a_comma_is_one_row():
    got = read_trec_run(b"e Q0 a,b 1 2.0 r\n", name="r.run")
    assert got["item"].tolist() == ["a,b"]


def test_read_qrels_with_a_comma_in_an_id_is_trec():
    got = read_qrels(b"q1 0 a,b 1\nq1 0 c 0\n", name="q.txt")
    assert got["item"].tolist() == ["a,b", "c"]


def test_read_trec_run_decimal_comma_is_refused_naming_line_and_decimal_comma():
    with pytest.raises(NDCGInputError, match=r"Line 1 of the file 'r.run'.*'0,9'.*decimal comma") as caught:
        read_trec_run(b"q1 Q0 a 1 0,9 r\nq1 Q0 b 2 0.8 r\n", name="r.run")
    assert caught.value.params["line"] == 1


def test_read_trec_run_csv_header_with_spaces_after_commas_is_csv():
    """Four fields, each but the last ending with its comma: a CSV header (whose names keep
    their spaces, so the message shows them), not a TREC line."""
    with pytest.raises(NDCGInputError, match=r"'r.csv', read as CSV.*' item'") as caught:
        read_trec_run(b"query, item, score, tag\nq1, a, 0.5, r\n", name="r.csv")
    assert caught.value.key == "file_missing_column"


def test_read_trec_run_input_format_csv_names_the_file_and_its_columns():
    with pytest.raises(NDCGInputError, match=r"'r.run'.*'query'") as caught:
        read_trec_run(b"q1 Q0 a 1 0.9 r\nq1 Q0 b 2 0.8 r\n", name="r.run", input_format="csv")
    assert caught.value.params["name"] == "r.run"


def test_read_trec_run_input_format_trec_reads_a_comma_file_as_trec():
    """A first line of 5 fields with commas is CSV to the guess; forced, it is TREC (refused
    naming the line)."""
    with pytest.raises(NDCGInputError, match=r"Line 1 of the file 'r.run' has 1 field"):
        read_trec_run(b"query,item,score\nq1,a,0.5\n", name="r.run", input_format="trec")


def test_read_trec_run_unknown_input_format_is_refused():
    with pytest.raises(NDCGInputError, match="input_format must be one of auto, trec, csv"):
        read_trec_run(RUN, input_format="tsv")


def test_read_trec_run_csv_without_rows_names_the_file():
    with pytest.raises(NDCGInputError, match=r"'r\.csv'"):
        read_trec_run(b"query,item,score\n", name="r.csv")


# ----------------------------------------------------------------- item 4: fractional grades

FRACTIONAL = b"q 0 a 0.5\nq 0 b 1.7\nq 0 c 1\n"
RANKING = b"q Q0 a 1 3 r\nq Q0 b 2 2 r\nq Q0 c 3 1 r\n"


def test_evaluate_trec_uses_fractional_grades_as_given():
    # DCG = 0.5 + 1.7/log2(3) + 1/log2(4); IDCG = 1.7 + 1/log2(3) + 0.5/log2(4): 0.8030
    expected = (0.5 + 1.7 / math.log2(3) + 1 / 2) / (1.7 + 1 / math.log2(3) + 0.5 / 2)
    result = evaluate_trec(FRACTIONAL, {"r": RANKING}, k=10)
    assert result.per_query["ndcg@10"].iloc[0] == pytest.approx(expected, abs=1e-12)
    assert round(expected, 4) == 0.8030


def test_evaluate_trec_grades_truncate_reproduces_trec_eval():
    # grades 0, 1, 1 (atol): DCG = 0 + 1/log2(3) + 1/log2(4); IDCG = 1 + 1/log2(3): 0.6934
    expected = (1 / math.log2(3) + 1 / 2) / (1 + 1 / math.log2(3))
    result = evaluate_trec(FRACTIONAL, {"r": RANKING}, k=10, grades="truncate")
    assert result.per_query["ndcg@10"].iloc[0] == pytest.approx(expected, abs=1e-12)
    assert round(expected, 4) == 0.6934


def test_evaluate_trec_truncates_negative_grades_toward_zero():
    """atol("-1.5") is -1 (still "not judged"); atol("-0.5") is 0 (judged, not relevant)."""
    qrels = b"q 0 a -0.5\nq 0 b 1\n"
    result = evaluate_trec(qrels, {"r": b"q Q0 a 1 2 r\n"}, k=10, grades="truncate")
    assert result.per_query["judged@10"].iloc[0] == 1.0


def test_evaluate_trec_reports_fractional_grades_and_their_truncation():
    result = evaluate_trec(FRACTIONAL, {"r": RANKING}, k=10)
    assert result.fractional_grades == ((0.5, 0.0), (1.7, 1.0))


def test_evaluate_trec_reports_no_fractional_grades_for_whole_ones():
    assert evaluate_trec(QRELS, {"r": RUN}, k=10).fractional_grades == ()


def test_evaluate_trec_unknown_grades_is_refused():
    with pytest.raises(NDCGInputError, match="grades must be one of any, truncate"):
        evaluate_trec(QRELS, {"r": RUN}, k=10, grades="round")


# ----------------------------------------------------------------- item 5: k none


@pytest.mark.parametrize("text", ["none", "None", " NONE "])
def test_parse_cutoffs_none_text_is_the_whole_list(text):
    assert parse_cutoffs(text) is None


def test_evaluate_trec_k_none_gives_plain_columns():
    result = evaluate_trec(QRELS, {"r": RUN}, k="none")
    assert list(result.per_query.columns[3:7]) == ["ndcg", "dcg", "idcg", "judged"]
    # no cutoff: the whole list, here the same as @10
    assert result.per_query["ndcg"].tolist() == pytest.approx([NDCG_Q1, NDCG_Q2], abs=1e-12)


# ----------------------------------------------------------------- item 6: names


def test_measure_columns_carry_the_one_cutoff():
    assert measure_columns((10,)) == ("ndcg@10",)
    assert measure_columns((10,), "judged") == ("judged@10",)
    assert measure_columns(None, "dcg") == ("dcg",)


def test_evaluate_trec_one_cutoff_columns_carry_it():
    result = evaluate_trec(QRELS, {"r": RUN}, k=10)
    assert list(result.per_query.columns) == [
        "run",
        "query",
        "n_items",
        "ndcg@10",
        "dcg@10",
        "idcg@10",
        "judged@10",
        "missing",
    ]
    assert list(result.means.columns) == ["run", "n_queries", "ndcg@10", "judged@10"]


def test_evaluate_trec_counts_queries_with_nothing_relevant():
    qrels = QRELS + b"q3 0 f 0\n"
    result = evaluate_trec(qrels, {"r": RUN, "s": RUN}, k=10)
    assert result.no_relevant_counts() == {"r": 1, "s": 1}


def test_evaluate_trec_frame_input_is_unchanged_by_input_format():
    qrels = pd.DataFrame({"query": ["q"], "item": ["a"], "relevance": [1]})
    run = pd.DataFrame({"query": ["q"], "item": ["a"], "score": [1.0]})
    result = evaluate_trec(qrels, {"r": run}, k=10, input_format="trec")
    assert result.per_query["ndcg@10"].tolist() == [1.0]
