"""``ndcg-lab evaluate --qrels`` on files trec_eval reads (the issue "Read every file trec_eval
reads", items 2-7): the input format, fractional grades, no cutoff, names in the outputs,
``--format trec_eval``, ``--name``, the count of queries with nothing relevant, messages that
speak of files and options.

trec_eval's output format is quoted from its source (usnistgov/trec_eval 10.0,
meas_print_single.c / meas_print_final.c: ``printf("%-22s\\t%s\\t%6.4f\\n", name, qid, value)``;
queries in ``strcmp`` order of their ids, as get_qrels.c sorts them; then ``all``)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

import ndcg_lab.evaluate as cli

QRELS = "q1 0 a 3\nq1 0 b 2\nq1 0 c 0\nq2 0 d 1\nq2 0 e 0\nq10 0 f 1\nq3 0 g 0\n"
#: q1: b (2), x (unjudged), a (3); q2: e (0), d (1); q10 and q3 not answered.
RUN = "q1 Q0 b 1 0.9 r\nq1 Q0 x 2 0.8 r\nq1 Q0 a 3 0.7 r\nq2 Q0 e 1 0.5 r\nq2 Q0 d 2 0.4 r\n"
NDCG_Q1 = (2 + 3 / math.log2(4)) / (3 + 2 / math.log2(3))
NDCG_Q2 = 1 / math.log2(3)


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    qrels, run = tmp_path / "qrels.txt", tmp_path / "bm25.run"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return qrels, run


def _main(capsys, *args: str) -> tuple[int, str, str]:
    status = cli.main(list(args))
    printed = capsys.readouterr()
    return status, printed.out, printed.err


# ----------------------------------------------------------------- item 2 and 3


def test_main_run_with_trailing_fields_is_evaluated(files, capsys):
    qrels, run = files
    run.write_text(RUN.replace(" r\n", " r trailing text\n"))
    status, out, err = _main(capsys, "--qrels", str(qrels), str(run), "--format", "json")
    assert status == 0, err
    assert json.loads(out)["means"][0]["ndcg@10"] == pytest.approx((NDCG_Q1 + NDCG_Q2) / 4, abs=1e-12)


def test_main_run_with_a_comma_on_line_1_is_read_as_trec(files, capsys):
    qrels, run = files
    run.write_text(RUN.replace("q1 Q0 b 1 0.9 r", "q1 Q0 b 1 0.9 bm25,k1=0.9"))
    status, _, err = _main(capsys, "--qrels", str(qrels), str(run), "--format", "json")
    assert status == 0, err


def test_main_decimal_comma_names_the_file_the_line_and_the_comma(files, capsys):
    qrels, run = files
    run.write_text(RUN.replace("0.8", "0,8"))
    status, _, err = _main(capsys, "--qrels", str(qrels), str(run))
    assert status == 2
    assert "Line 2 of the file 'bm25.run'" in err and "decimal comma" in err


def test_main_input_format_csv_reads_the_run_as_csv_and_names_the_file(files, capsys):
    qrels, run = files
    status, _, err = _main(capsys, "--qrels", str(qrels), str(run), "--input-format", "csv")
    assert status == 2
    assert "The file 'qrels.txt', read as CSV" in err and "column 'query'" in err  # the qrels first


def test_main_input_format_trec_is_accepted(files, capsys):
    qrels, run = files
    status, _, err = _main(capsys, "--qrels", str(qrels), str(run), "--input-format", "trec")
    assert status == 0, err


def test_main_input_format_is_refused_without_qrels(files, capsys):
    qrels, _ = files
    with pytest.raises(SystemExit):
        cli.main([str(qrels), "--input-format", "trec"])
    assert "--input-format needs --qrels" in capsys.readouterr().err


# ----------------------------------------------------------------- item 4


def test_main_fractional_grades_are_used_and_said_once(tmp_path, capsys):
    qrels, run = tmp_path / "q.txt", tmp_path / "r.run"
    qrels.write_text("q 0 a 0.5\nq 0 b 1.7\nq 0 c 1\n")
    run.write_text("q Q0 a 1 3 r\nq Q0 b 2 2 r\nq Q0 c 3 1 r\n")
    status, out, err = _main(capsys, "--qrels", str(qrels), str(run), "--format", "json")
    assert status == 0, err
    # DCG = 0.5 + 1.7/log2(3) + 1/2; IDCG = 1.7 + 1/log2(3) + 0.5/2
    expected = (0.5 + 1.7 / math.log2(3) + 0.5) / (1.7 + 1 / math.log2(3) + 0.25)
    assert json.loads(out)["means"][0]["ndcg@10"] == pytest.approx(expected, abs=1e-12)
    assert err.count("note:") == 1
    assert "'q.txt'" in err and "0.5 and 1.7 are used as given" in err
    assert "trec_eval would truncate them to 0 and 1" in err and "--grades truncate" in err


def test_main_grades_truncate_reproduces_trec_eval(tmp_path, capsys):
    qrels, run = tmp_path / "q.txt", tmp_path / "r.run"
    qrels.write_text("q 0 a 0.5\nq 0 b 1.7\nq 0 c 1\n")
    run.write_text("q Q0 a 1 3 r\nq Q0 b 2 2 r\nq Q0 c 3 1 r\n")
    status, out, err = _main(
        capsys, "--qrels", str(qrels), str(run), "--grades", "truncate", "--format", "json"
    )
    assert status == 0, err
    # grades 0, 1, 1: DCG = 1/log2(3) + 1/2; IDCG = 1 + 1/log2(3)
    expected = (1 / math.log2(3) + 0.5) / (1 + 1 / math.log2(3))
    document = json.loads(out)
    assert document["means"][0]["ndcg@10"] == pytest.approx(expected, abs=1e-12)
    assert document["options"]["grades"] == "truncate"
    assert "truncated to 0 and 1, as trec_eval reads them" in err


# ----------------------------------------------------------------- item 5


def test_main_k_none_evaluates_the_whole_list(files, tmp_path, capsys):
    qrels, run = files
    out = tmp_path / "rows.csv"
    status, text, err = _main(capsys, "--qrels", str(qrels), str(run), "--k", "none", "--output", str(out))
    assert status == 0, err
    rows = pd.read_csv(out, dtype={"query": str})
    assert list(rows.columns) == ["run", "query", "n_items", "ndcg", "dcg", "idcg", "judged", "missing"]
    assert "nDCG " in text


def test_main_k_none_without_qrels_is_accepted(tmp_path, capsys):
    path = tmp_path / "run.csv"
    path.write_text("query,item,relevance,score\nq,a,1,0.2\nq,b,2,0.9\n")
    status, out, err = _main(capsys, str(path), "--k", "none")
    assert status == 0, err
    assert "mean nDCG: 1.0000000000" in out


# ----------------------------------------------------------------- item 6


def test_main_one_cutoff_columns_carry_it_in_the_file_and_json(files, tmp_path, capsys):
    qrels, run = files
    out = tmp_path / "rows.csv"
    status, text, err = _main(
        capsys, "--qrels", str(qrels), str(run), "--output", str(out), "--format", "json"
    )
    assert status == 0, err
    assert list(pd.read_csv(out).columns) == [
        "run",
        "query",
        "n_items",
        "ndcg@10",
        "dcg@10",
        "idcg@10",
        "judged@10",
        "missing",
    ]
    assert set(json.loads(text)["means"][0]) == {"run", "n_queries", "ndcg@10", "judged@10"}


def test_main_single_file_one_cutoff_columns_carry_it(tmp_path, capsys):
    path, out = tmp_path / "run.csv", tmp_path / "rows.csv"
    path.write_text("query,item,relevance,score\nq,a,1,0.2\nq,b,2,0.9\n")
    status, text, err = _main(capsys, str(path), "--k", "10", "--output", str(out), "--format", "json")
    assert status == 0, err
    assert list(pd.read_csv(out).columns) == ["query", "n_items", "dcg@10", "idcg@10", "ndcg@10"]
    assert list(json.loads(text)["means"]) == ["ndcg@10"]


def test_main_format_trec_eval_prints_trec_eval_lines(files, capsys):
    """-c: every judged query, in strcmp order (q1 < q10 < q2 < q3), a missing one 0."""
    qrels, run = files
    status, out, err = _main(capsys, "--qrels", str(qrels), str(run), "--format", "trec_eval")
    assert status == 0, err
    mean = (NDCG_Q1 + NDCG_Q2) / 4
    assert out == (
        f"ndcg_cut_10           \tq1\t{NDCG_Q1:6.4f}\n"
        "ndcg_cut_10           \tq10\t0.0000\n"
        f"ndcg_cut_10           \tq2\t{NDCG_Q2:6.4f}\n"
        "ndcg_cut_10           \tq3\t0.0000\n"
        f"ndcg_cut_10           \tall\t{mean:6.4f}\n"
    )


def test_main_format_trec_eval_missing_drop_is_without_c(files, capsys):
    qrels, run = files
    args = ["--qrels", str(qrels), str(run), "--format", "trec_eval", "--missing", "drop", "--k", "5,3"]
    status, out, err = _main(capsys, *args)
    assert status == 0, err
    lines = out.splitlines()
    # trec_eval sorts the cutoffs; q1 at 3: (2 + 3/log2(4)) / (3 + 2/log2(3) + 0/log2(4))
    at3 = (2 + 3 / math.log2(4)) / (3 + 2 / math.log2(3))
    assert lines[0] == f"ndcg_cut_3            \tq1\t{at3:6.4f}"
    assert [line.split("\t")[:2] for line in lines] == [
        ["ndcg_cut_3            ", "q1"],
        ["ndcg_cut_5            ", "q1"],
        ["ndcg_cut_3            ", "q2"],
        ["ndcg_cut_5            ", "q2"],
        ["ndcg_cut_3            ", "all"],
        ["ndcg_cut_5            ", "all"],
    ]


def test_main_format_trec_eval_k_none_is_ndcg_one_block_per_run(files, tmp_path, capsys):
    qrels, run = files
    other = tmp_path / "dense.run"
    other.write_text(RUN.replace("0.9", "0.1"))
    status, out, err = _main(
        capsys, "--qrels", str(qrels), str(run), str(other), "--format", "trec_eval", "--k", "none"
    )
    assert status == 0, err
    lines = out.splitlines()
    assert len(lines) == 10
    assert all(line.startswith("ndcg                  \t") for line in lines)
    assert [line.split("\t")[1] for line in lines] == ["q1", "q10", "q2", "q3", "all"] * 2


def test_main_name_names_runs_of_the_same_file_name(files, tmp_path, capsys):
    qrels, run = files
    (tmp_path / "y").mkdir()
    second = tmp_path / "y" / "bm25.run"
    second.write_text(RUN.replace("0.9", "0.1"))
    args = ["--qrels", str(qrels), str(run), str(second), "--name", "old", "--name", "new"]
    status, out, err = _main(capsys, *args, "--baseline", "new", "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    assert [row["run"] for row in document["means"]] == ["old", "new"]
    assert document["comparisons"][0]["baseline"] == "new"


def test_main_same_file_names_without_name_point_to_name(files, tmp_path, capsys):
    qrels, run = files
    (tmp_path / "y").mkdir()
    second = tmp_path / "y" / "bm25.run"
    second.write_text(RUN)
    with pytest.raises(SystemExit):
        cli.main(["--qrels", str(qrels), str(run), str(second)])
    assert "--name" in capsys.readouterr().err


def test_main_name_count_must_match_the_runs(files, capsys):
    qrels, run = files
    with pytest.raises(SystemExit):
        cli.main(["--qrels", str(qrels), str(run), "--name", "a", "--name", "b"])
    err = capsys.readouterr().err
    assert "--name is given 2 times for 1 run" in err


# ----------------------------------------------------------------- item 7


def test_main_qrels_text_prints_queries_with_nothing_relevant(files, capsys):
    qrels, run = files
    status, out, err = _main(capsys, "--qrels", str(qrels), str(run))
    assert status == 0, err
    assert "nothing relevant: 1 (counted as 0)" in out  # q3


def test_main_qrels_json_gives_queries_with_nothing_relevant(files, capsys):
    qrels, run = files
    status, out, err = _main(capsys, "--qrels", str(qrels), str(run), "--format", "json")
    assert status == 0, err
    assert json.loads(out)["n_no_relevant"] == {"bm25": 1}


def test_main_latin1_file_message_speaks_of_files_not_uploads(files, capsys):
    qrels, run = files
    qrels.write_bytes("q1 0 caf\xe9 1\n".encode("latin-1"))
    status, _, err = _main(capsys, "--qrels", str(qrels), str(run))
    assert status == 2
    assert "'qrels.txt' is not UTF-8" in err
    assert "upload" not in err
