"""Reading TREC files that trec_eval reads and surviving files an attacker sends: comment lines,
gzip bombs, pipes and devices, over-long ids (the issue "Read every file trec_eval reads",
items 1, 8 and 9).

Expected numbers are those of the same file without its comment lines, from pytrec_eval or
written as arithmetic; limits are checked by the refusal and by how much was read, never by
time or memory measured in the test."""

from __future__ import annotations

import gzip
import os
import threading
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from ndcg_core import trec
from ndcg_core.trec import evaluate_trec, read_qrels, read_trec_run
from ndcg_core.validate import NDCGInputError

pytrec_eval = pytest.importorskip("pytrec_eval")

QRELS = b"q1 0 a 3\nq1 0 b 2\nq1 0 c 0\nq2 0 d 1\nq2 0 e 0\n"
RUN = b"q1 Q0 b 1 0.9 r\nq1 Q0 x 2 0.8 r\nq1 Q0 a 3 0.7 r\nq2 Q0 e 1 0.5 r\nq2 Q0 d 2 0.4 r\n"


def _with_comments(text: bytes, comments: dict[int, bytes]) -> bytes:
    """``text`` with comment lines inserted before the given (0-based) lines; key -1 = at the end."""
    lines = text.splitlines(keepends=True)
    out: list[bytes] = []
    for index, line in enumerate(lines):
        out.append(comments.get(index, b""))
        out.append(line)
    out.append(comments.get(-1, b""))
    return b"".join(out)


def _pytrec(qrels: bytes, run: bytes, k: int) -> dict[str, float]:
    """pytrec_eval's ndcg_cut_k per query of files without comments (split by Python)."""
    judged: dict[str, dict[str, int]] = {}
    for line in qrels.decode().splitlines():
        query, _, item, grade = line.split()
        judged.setdefault(query, {})[item] = int(grade)
    ranked: dict[str, dict[str, float]] = {}
    for line in run.decode().splitlines():
        query, _, item, _, score, _ = line.split()
        ranked.setdefault(query, {})[item] = float(score)
    measure = f"ndcg_cut_{k}"
    result = pytrec_eval.RelevanceEvaluator(judged, {measure}).evaluate(ranked)
    return {query: values[measure] for query, values in result.items()}


# --------------------------------------------------------------------------- 1. comment lines

COMMENTED = {
    "top": {0: b"# judged in 2024\n"},
    "middle": {2: b"# 4 tokens 2024 9\n"},
    "end": {-1: b"# end of file\n"},
    "several": {0: b"#\n# two\n", 3: b"# x 1 2 3 4 5 6\n", -1: b"#last"},
    "indented": {1: b"  # x\n", 3: b"\t# tab 1 2\n"},
    "crlf": {1: b"# windows\r\n"},
}


@pytest.mark.parametrize("where", sorted(COMMENTED))
def test_read_qrels_skips_comment_lines(where: str) -> None:
    commented = _with_comments(QRELS, COMMENTED[where])
    assert read_qrels(commented).to_dict("list") == read_qrels(QRELS).to_dict("list")


@pytest.mark.parametrize("where", sorted(COMMENTED))
def test_read_trec_run_skips_comment_lines(where: str) -> None:
    commented = _with_comments(RUN, COMMENTED[where])
    assert read_trec_run(commented).to_dict("list") == read_trec_run(RUN).to_dict("list")


def test_evaluate_trec_a_four_token_comment_is_not_a_judged_query() -> None:
    """``# judged in 2024`` has a qrels line's four fields: read as data it was a judged query
    '#' counted as 0 in the mean. The mean is that of the file without it, from pytrec_eval."""
    commented = b"# judged in 2024\n" + QRELS
    expected = _pytrec(QRELS, RUN, 10)
    result = evaluate_trec(commented, [RUN], k=10)
    assert result.per_query["query"].tolist() == ["q1", "q2"]
    assert result.means["ndcg@10"].iloc[0] == pytest.approx(np.mean(list(expected.values())), abs=1e-12)


def test_evaluate_trec_with_comments_everywhere_equals_pytrec_eval_without_them() -> None:
    rng = np.random.default_rng(3)
    qrels = b"".join(f"{q} 0 d{d} {rng.integers(0, 4)}\n".encode() for q in range(1, 8) for d in range(20))
    run = b"".join(
        f"{q} Q0 d{d} {d + 1} {rng.normal():.6f} t\n".encode()
        for q in range(1, 8)
        for d in rng.permutation(25)
    )
    comment = {i: b"  # comment " + str(i).encode() + b" 1 2\n" for i in range(0, 200, 7)}
    expected = _pytrec(qrels, run, 5)
    result = evaluate_trec(_with_comments(qrels, comment), [_with_comments(run, comment)], k=5)
    got = dict(zip(result.per_query["query"], result.per_query["ndcg@5"], strict=True))
    assert got == pytest.approx(expected, abs=1e-12)


def test_read_qrels_names_the_line_of_an_error_after_comment_lines() -> None:
    with pytest.raises(NDCGInputError) as error:
        read_qrels(b"# one\n  # two\nq1 0 a 1\nq1 0 b\n", name="q.txt")
    assert error.value.key == "trec_field_count"
    assert error.value.params["line"] == 4


def test_read_qrels_keeps_a_hash_inside_a_line_as_data() -> None:
    """Only a line whose first non-blank character is # is a comment: ``CR93E-3103#37`` is an id."""
    frame = read_qrels(b"301 0 CR93E-3103#37 1\n#301 0 skipped 1\n301 0 #d 2\n")
    assert frame["item"].tolist() == ["CR93E-3103#37", "#d"]


def test_read_qrels_of_comment_lines_only_is_empty() -> None:
    with pytest.raises(NDCGInputError) as error:
        read_qrels(b"# nothing\n  # here\n", name="q.txt")
    assert error.value.key == "empty_table"


def test_read_trec_run_first_comment_line_with_commas_is_not_a_csv_header() -> None:
    assert read_trec_run(b"# made by bm25, k1=0.9, b=0.4\n" + RUN)["item"].tolist()[:2] == ["b", "x"]


def test_read_qrels_csv_id_starting_with_hash_is_data() -> None:
    frame = read_qrels(b"query,item,relevance\n#1,#a,1\n q,b,0\n")
    assert frame["query"].tolist() == ["#1", " q"]
    assert frame["item"].tolist() == ["#a", "b"]


def test_read_trec_run_parquet_id_starting_with_hash_is_data() -> None:
    import io

    buffer = io.BytesIO()
    pd.DataFrame({"query": ["#1"], "item": ["#a"], "score": [1.0]}).to_parquet(buffer, index=False)
    assert read_trec_run(buffer.getvalue())[["query", "item"]].values.tolist() == [["#1", "#a"]]


# --------------------------------------------------------------------------- 8. gzip bombs


def _bomb(size: int) -> bytes:
    """gzip of ``size`` newlines (compresses about 1000 times)."""
    return gzip.compress(b"\n" * size, compresslevel=9)


def test_read_qrels_refuses_a_gzip_file_expanding_past_20_times_its_size() -> None:
    data = _bomb(4 << 20)
    with pytest.raises(NDCGInputError) as error:
        read_qrels(data, name="bomb.gz")
    assert error.value.key == "gzip_ratio"
    assert error.value.params["name"] == "bomb.gz"
    assert error.value.params["size"] == len(data)
    assert error.value.params["limit"] == 20 * len(data)
    assert "bomb.gz" in str(error.value) and "20" in str(error.value)


def test_read_qrels_stops_decompressing_a_bomb_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """At most limit + 1 bytes are decompressed (not the 64 MiB inside)."""
    produced = []
    real = zlib.decompressobj

    class Counting:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.inner = real(*args, **kwargs)

        def __getattr__(self, name: str) -> object:
            return getattr(self.inner, name)

        def decompress(self, data: bytes, max_length: int = 0) -> bytes:
            out = self.inner.decompress(data, max_length)
            produced.append(len(out))
            return out

    monkeypatch.setattr(trec.zlib, "decompressobj", Counting)
    data = _bomb(64 << 20)
    with pytest.raises(NDCGInputError, match="20"):
        read_qrels(data, name="bomb.gz")
    assert 0 < sum(produced) <= 20 * len(data) + 1


def test_read_qrels_refuses_a_gzip_file_over_the_absolute_limit() -> None:
    """A well-compressed real file (ratio under 20) over ``max_size`` names that limit."""
    text = b"".join(f"{q} 0 doc-{q}-{d} {d % 3}\n".encode() for q in range(50) for d in range(40))
    data = gzip.compress(text)
    assert len(text) < 20 * len(data)
    with pytest.raises(NDCGInputError) as error:
        read_qrels(data, name="big.gz", max_size=1000)
    assert error.value.key == "gzip_too_large"
    assert error.value.params["limit"] == 1000
    assert read_qrels(data, max_size=len(text))["item"].size == 2000


def test_read_qrels_reads_concatenated_gzip_members() -> None:
    data = gzip.compress(b"q1 0 a 1\n") + gzip.compress(b"q1 0 b 0\n")
    assert read_qrels(data)["item"].tolist() == ["a", "b"]


@pytest.mark.parametrize("cut", [10, 30])
def test_read_qrels_names_a_truncated_gzip_file(cut: int) -> None:
    data = gzip.compress(QRELS * 4)
    with pytest.raises(NDCGInputError) as error:
        read_qrels(data[:cut], name="cut.gz")
    assert error.value.key == "unreadable"
    assert error.value.params["name"] == "cut.gz"


def test_read_qrels_refuses_a_gzip_bomb_given_by_path(tmp_path: Path) -> None:
    path = tmp_path / "qrels.txt"
    path.write_bytes(_bomb(4 << 20))
    with pytest.raises(NDCGInputError) as error:
        read_qrels(path)
    assert (error.value.key, error.value.params["name"]) == ("gzip_ratio", "qrels.txt")


# --------------------------------------------------------------------------- 9. pipes, devices, long ids


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_read_qrels_refuses_dev_zero_at_the_limit() -> None:
    with pytest.raises(NDCGInputError) as error:
        read_qrels("/dev/zero", max_size=1 << 20)
    assert error.value.key == "stream_too_large"
    assert error.value.params == {"name": "zero", "limit": 1 << 20}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_read_qrels_reads_a_named_pipe(tmp_path: Path) -> None:
    fifo = tmp_path / "qrels.fifo"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as handle:
            handle.write(QRELS)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        frame = read_qrels(fifo)
    finally:
        writer.join(timeout=10)
    assert frame.to_dict("list") == read_qrels(QRELS).to_dict("list")


def test_read_qrels_refuses_an_upload_stream_over_the_limit() -> None:
    import io

    with pytest.raises(NDCGInputError) as error:
        read_qrels(io.BytesIO(b"q 0 d 1\n" * 1000), name="up.txt", max_size=100)
    assert (error.value.key, error.value.params["limit"]) == ("stream_too_large", 100)


LONG = {
    "ascii": "d" * 1001,
    "utf8": "中" * 334,  # 334 characters, 1002 bytes of UTF-8
}


@pytest.mark.parametrize("kind", sorted(LONG))
def test_read_trec_run_refuses_an_item_id_over_1000_bytes(kind: str) -> None:
    run = b"q1 Q0 a 1 2.0 r\n\nq1 Q0 " + LONG[kind].encode() + b" 2 1.0 r\n"
    with pytest.raises(NDCGInputError) as error:
        read_trec_run(run, name="long.run")
    assert error.value.key == "trec_id_too_long"
    assert error.value.params == {
        "name": "long.run",
        "line": 3,
        "what": "field_id",
        "got": len(LONG[kind].encode()),
        "limit": 1000,
    }


def test_read_trec_run_keeps_an_id_of_1000_bytes() -> None:
    assert read_trec_run(b"q1 Q0 " + b"d" * 1000 + b" 1 1.0 r\n")["item"].str.len().tolist() == [1000]


def test_read_qrels_refuses_a_query_id_over_1000_bytes() -> None:
    with pytest.raises(NDCGInputError) as error:
        read_qrels(b"q1 0 a 1\n" + b"q" * 5000 + b" 0 b 1\n", name="q.txt")
    assert (error.value.key, error.value.params["line"]) == ("trec_id_too_long", 2)


def test_read_qrels_csv_refuses_an_id_over_1000_bytes_naming_the_line() -> None:
    with pytest.raises(NDCGInputError) as error:
        read_qrels(b"query,item,relevance\nq,a,1\nq," + b"x" * 2000 + b",0\n", name="q.csv")
    assert (error.value.key, error.value.params["line"]) == ("trec_id_too_long", 3)


def test_read_trec_run_refuses_a_12_mib_id_without_hashing_it() -> None:
    with pytest.raises(NDCGInputError, match=r"^Line 1 of the file 'huge\.run': an id of 12582912 bytes"):
        read_trec_run(b"q1 Q0 " + b"x" * (12 << 20) + b" 1 1.0 r\n", name="huge.run")


# ------------------------------------------------------ items 11 and 12: wrong types, messages


@pytest.mark.parametrize("value", ["1_0", "1__0", "_1"])
def test_read_trec_run_names_the_line_of_a_score_with_an_underscore(value: str) -> None:
    """Python's float() reads ``1_0`` (as 10); pyarrow does not: the line is named, not
    pyarrow's 'CSV conversion error to double'."""
    data = f"q Q0 a 1 0.5 r\nq Q0 b 2 {value} r\n".encode()
    with pytest.raises(NDCGInputError) as info:
        read_trec_run(data, name="run.txt")
    assert info.value.key == "trec_value"
    assert info.value.params == {
        "name": "run.txt",
        "line": 2,
        "what": "field_score",
        "value": value,
        "rule": "rule_number",
    }


def test_read_qrels_names_the_line_of_a_grade_with_an_underscore() -> None:
    with pytest.raises(NDCGInputError) as info:
        read_qrels(b"q 0 a 1_0\n", name="qrels.txt")
    assert (info.value.key, info.value.params["line"], info.value.params["value"]) == ("trec_value", 1, "1_0")


@pytest.mark.parametrize(
    ("type_", "values", "shown"),
    [
        ("timestamp[ns]", [1, 0], "1970-01-01 00:00:00.000000001"),
        ("duration[s]", [1, 0], "0 days 00:00:01"),
        ("date32[day]", [1, 0], "1970-01-02"),
    ],
)
def test_read_qrels_parquet_refuses_a_grade_column_of_dates_or_durations(
    type_: str, values: list[int], shown: str
) -> None:
    """A timestamp grade was read as its nanoseconds (nDCG 0.7039, exit 0): a date or a
    duration is no grade, refused as the one-file form refuses it (the first value shown)."""
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({"query": ["q", "q"], "item": ["a", "b"], "relevance": pa.array(values, type_)})
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    with pytest.raises(NDCGInputError) as info:
        read_qrels(buffer.getvalue(), name="qrels.parquet")
    assert info.value.key == "trec_value"
    assert {name: info.value.params[name] for name in ("name", "line", "value", "rule")} == {
        "name": "qrels.parquet",
        "line": 1,  # the first row (it was "Line 0")
        "value": shown,
        "rule": "rule_number",
    }


def test_read_trec_run_dataframe_refuses_a_timestamp_score() -> None:
    frame = pd.DataFrame({"query": ["q"], "item": ["a"], "score": pd.to_datetime(["2024-01-01"])})
    with pytest.raises(NDCGInputError) as info:
        read_trec_run(frame)
    assert info.value.key == "bad_column"
    assert info.value.params == {
        "row": 1,
        "column": "score",
        "value": "2024-01-01 00:00:00",
        "rule": "rule_number",
    }


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"q 0 a 1\nq 0 b\x00x 0\n", 2),  # TREC text: the document id
        (b"q\x00 0 a 1\n", 1),  # TREC text: the query id
        (b"query,item,relevance\nq,a,1\nq,b\x00x,0\n", 3),  # CSV: line 3 (the header is line 1)
    ],
)
def test_read_qrels_refuses_an_id_holding_nul(data: bytes, line: int) -> None:
    """A NUL inside an id ends it for C programs (trec_eval reads ``b\\0x`` as ``b``): refused,
    naming the line, rather than matched by one tool and not by another."""
    with pytest.raises(NDCGInputError) as info:
        read_qrels(data, name="qrels.txt")
    assert info.value.key == "trec_value"
    assert (info.value.params["line"], info.value.params["rule"]) == (line, "rule_id_no_nul")


def test_read_trec_run_parquet_names_rows_from_1() -> None:
    """A Parquet file's rows are its lines: the second row's missing score is line 2."""
    import io

    frame = pd.DataFrame({"query": ["q", "q"], "item": ["a", "b"], "score": [0.5, None]})
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    with pytest.raises(NDCGInputError) as info:
        read_trec_run(buffer.getvalue(), name="run.parquet")
    assert (info.value.key, info.value.params["line"]) == ("trec_value", 2)
