"""Writes tests/adversarial/files/ and cases.toml: the hostile inputs and what each must give.

Run by hand after changing a case (``.venv/bin/python tests/adversarial/build_files.py``); the
files and the manifest are committed, so the tests never depend on this script. Expected nDCG
values are arithmetic written by hand (``1/log2(3)``) or ``"sklearn"`` (scikit-learn's
``ndcg_score`` on each query's rows, read with Python's csv module); errors name their key and
the parameters the message must carry (the row, the column, the line).
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FILES = HERE / "files"
HEADER = "query,item,relevance,score\n"

# Two-item patterns: (item, grade, score) rows and their nDCG.
GOOD = [("a", "1", "0.9"), ("b", "0", "0.8")]  # nDCG 1
SWAPPED = [("a", "0", "0.9"), ("b", "1", "0.8")]  # nDCG 1/log2(3)
SWAPPED_CD = [("c", "0", "0.9"), ("d", "1", "0.8")]  # the same, items c and d
WORKED = [("a", "3", "0.9"), ("b", "2", "0.8"), ("c", "0", "0.7"), ("d", "0", "0.6"), ("e", "1", "0.5")]
WORKED_NDCG = "(3+2/log2(3)+1/log2(6))/(3+2/log2(3)+1/log2(4))"

CASES: list[dict[str, Any]] = []


def rows(query: str, pattern: list[tuple[str, str, str]]) -> str:
    return "".join(f"{query},{item},{grade},{score}\n" for item, grade, score in pattern)


def case(name: str, content: bytes | str, about: str, *, suffix: str = ".csv", **expect: Any) -> None:
    data = content.encode("utf-8") if isinstance(content, str) else content
    if expect.get("error") == "missing_column" and "page" not in expect:
        # the page guesses the columns and asks for the missing ones instead of failing
        expect["page"] = "columns"
    path = FILES / f"{name}{suffix}"
    path.write_bytes(data)
    CASES.append({"name": name, "file": path.name, "about": about, **expect})


def parquet(name: str, frame: Any, about: str, **expect: Any) -> None:
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    case(name, buffer.getvalue(), about, suffix=".parquet", **expect)


def build() -> None:
    import numpy as np
    import pandas as pd

    for old in FILES.glob("*"):
        old.unlink()

    # ---- ids are text (issue 12, defect 1)
    case(
        "ids_1_and_1.0",
        HEADER + rows("1", GOOD) + rows("1.0", SWAPPED),
        "queries 1 and 1.0 are two queries",
        per_query=[["1", "1"], ["1.0", "1/log2(3)"]],
    )
    case(
        "ids_1e3_and_1000",
        HEADER + rows("1e3", GOOD) + rows("1000", SWAPPED),
        "queries 1e3 and 1000 are two queries",
        per_query=[["1e3", "1"], ["1000", "1/log2(3)"]],
    )
    case(
        "ids_007_and_7",
        HEADER + rows("007", GOOD) + rows("7", SWAPPED),
        "leading zeros are kept",
        per_query=[["007", "1"], ["7", "1/log2(3)"]],
    )
    case(
        "items_001_and_1",
        HEADER + "q,001,0,0.9\nq,1,1,0.8\n",
        "items 001 and 1 are two items, not a duplicate",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "items_1_and_1.0",
        HEADER + "q,1,0,0.9\nq,1.0,1,0.8\n",
        "items 1 and 1.0 are two items",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "items_case",
        HEADER + "q,A,0,0.9\nq,a,1,0.8\n",
        "items A and a are two items",
        per_query=[["q", "1/log2(3)"]],
    )
    for index, word in enumerate(
        [
            "NA",
            "null",
            "None",
            "nan",
            "NaN",
            "N/A",
            "n/a",
            "#N/A",
            "#N/A N/A",
            "#NA",
            "-1.#IND",
            "-1.#QNAN",
            "-NaN",
            "-nan",
            "1.#IND",
            "1.#QNAN",
            "<NA>",
            "NULL",
            "NONE",
        ]
    ):
        case(
            f"ids_word_{index:02d}",
            HEADER + rows(word, SWAPPED) + rows("q", GOOD),
            f"{word!r} is a query id, not a missing value",
            per_query=[[word, "1/log2(3)"], ["q", "1"]],
        )
    case(
        "ids_true_variants",
        HEADER + rows("TRUE", GOOD) + rows("True", SWAPPED) + rows("true", GOOD),
        "TRUE, True and true are three queries",
        per_query=[["TRUE", "1"], ["True", "1/log2(3)"], ["true", "1"]],
    )
    case(
        "ids_spaces_kept",
        HEADER + rows(" q", GOOD) + rows("q", SWAPPED),
        "a leading space is part of the id",
        per_query=[[" q", "1"], ["q", "1/log2(3)"]],
    )
    case(
        "ids_hex_and_decimal",
        HEADER + rows("0x1A", GOOD) + rows("26", SWAPPED),
        "0x1A and 26 are two queries",
        per_query=[["0x1A", "1"], ["26", "1/log2(3)"]],
    )
    case(
        "ids_underscore_number",
        HEADER + rows("1_000", GOOD) + rows("1000", SWAPPED),
        "1_000 and 1000 are two queries",
        per_query=[["1_000", "1"], ["1000", "1/log2(3)"]],
    )
    case(
        "ids_unicode",
        HEADER + rows("查询一", GOOD) + rows("Ω😀", SWAPPED),
        "non-ASCII ids",
        per_query=[["查询一", "1"], ["Ω😀", "1/log2(3)"]],
    )
    case(
        "ids_formula",
        HEADER
        + rows("=cmd|' /C calc'!A0", GOOD)
        + rows("@SUM(1+1)", SWAPPED)
        + rows("+1+1", GOOD)
        + rows('"\tq"', GOOD).replace('"\tq"', '"\tq"'),
        "formula-like ids: kept exactly, escaped with an apostrophe in CSV output",
        per_query=[["=cmd|' /C calc'!A0", "1"], ["@SUM(1+1)", "1/log2(3)"], ["+1+1", "1"], ["\tq", "1"]],
        csv_queries=["'=cmd|' /C calc'!A0", "'@SUM(1+1)", "'+1+1", "'\tq"],
    )
    case(
        "ids_negative_numbers",
        HEADER + rows("-1", GOOD) + rows("-0.5", SWAPPED) + rows("-q", GOOD),
        "-1 and -0.5 are plain numbers (not escaped); -q is escaped",
        per_query=[["-1", "1"], ["-0.5", "1/log2(3)"], ["-q", "1"]],
        csv_queries=["-1", "-0.5", "'-q"],
    )
    case("ids_long", HEADER + rows("q" * 5000, GOOD), "a 5,000-character id", per_query=[["q" * 5000, "1"]])
    case(
        "ids_comma_quoted",
        HEADER + rows('"a,b"', GOOD) + rows("a", SWAPPED),
        "a quoted comma is part of the id",
        per_query=[["a,b", "1"], ["a", "1/log2(3)"]],
    )
    case(
        "ids_doubled_quote",
        HEADER + rows('"a""b"', GOOD),
        "a doubled quote inside quotes",
        per_query=[['a"b', "1"]],
    )
    case(
        "ids_quoted_newline",
        HEADER + rows('"a\nb"', GOOD) + rows("a", SWAPPED),
        "a quoted new line is part of the id",
        per_query=[["a\nb", "1"], ["a", "1/log2(3)"]],
    )
    case(
        "ids_empty_query",
        HEADER + rows("q", GOOD) + ",c,1,0.7\n",
        "only an empty field is a missing id",
        error="bad_column",
        params={"row": 3, "column": "query"},
    )
    case(
        "ids_empty_quoted_query",
        HEADER + rows("q", GOOD) + '"",c,1,0.7\n',
        "an empty quoted field is missing too",
        error="bad_column",
        params={"row": 3, "column": "query"},
    )
    case(
        "ids_empty_item",
        HEADER + "q,a,1,0.9\nq,,0,0.8\n",
        "an empty item id is missing",
        error="bad_column",
        params={"row": 2, "column": "item"},
    )

    # ---- field counts (defect 2)
    case(
        "fields_extra_every_row",
        "query,relevance,score\n" + "q1,d1,3,0.9\nq1,d2,0,0.8\nq1,d3,1,0.7\n",
        "the issue's case: one field more than the header on every row (pandas shifted the columns)",
        error="field_count",
        params={"row": 1, "got": 4, "expected": 3},
    )
    case(
        "fields_extra_one_row",
        HEADER + "q,a,1,0.9\nq,b,0,0.8\nq,c,1,0.7,x\n",
        "one row with an extra field",
        error="field_count",
        params={"row": 3},
    )
    case(
        "fields_short_row",
        HEADER + "q,a,1,0.9\nq,b,0\n",
        "one row with a missing field",
        error="field_count",
        params={"row": 2, "got": 3, "expected": 4},
    )
    case(
        "fields_header_trailing_comma",
        "query,item,relevance,score,\n" + rows("q", GOOD),
        "a trailing comma on the header only",
        error="field_count",
        params={"row": 1},
    )
    case(
        "fields_trailing_comma_everywhere",
        "query,item,relevance,score,\n" + "".join(line + ",\n" for line in rows("q", SWAPPED).splitlines()),
        "a trailing comma on every line: an empty fifth column",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "fields_after_quoted_newline",
        HEADER + '"a\nb",x,1,0.9\nq,y,1,0.5,7\n',
        "row 2 is on line 4 of the file",
        error="field_count_line",
        params={"row": 2, "line": 4},
    )
    case(
        "fields_unclosed_quote",
        HEADER + '"q,a,1,0.9\nq,b,0,0.8\n',
        "a quote that is never closed: row 1 runs from line 2 to the end",
        error="field_count_line",
        params={"row": 1, "line": 2},
    )
    case(
        "fields_semicolon_rows",
        HEADER + "q;a;1;0.9\nq;b;0;0.8\n",
        "mixed separators: comma header, semicolon rows",
        error="field_count",
        params={"row": 1},
    )
    case(
        "fields_semicolon_file",
        "query;item;relevance;score\nq;a;1;0.9\n",
        "a semicolon-separated file has one column",
        error="missing_column",
        params={"column": "query"},
    )
    case(
        "fields_tab_file",
        "query\titem\trelevance\tscore\nq\ta\t1\t0.9\n",
        "a tab-separated file has one column",
        error="missing_column",
        params={"column": "query"},
    )
    case(
        "fields_blank_lines",
        HEADER + "\n" + rows("q", GOOD) + "\n\n" + rows("r", SWAPPED) + "\n",
        "blank lines are skipped",
        per_query=[["q", "1"], ["r", "1/log2(3)"]],
    )
    case(
        "fields_crlf",
        (HEADER + rows("q", GOOD) + rows("r", SWAPPED)).replace("\n", "\r\n"),
        "Windows line ends",
        per_query=[["q", "1"], ["r", "1/log2(3)"]],
    )
    case(
        "fields_cr_only",
        (HEADER + rows("q", GOOD) + rows("r", SWAPPED)).replace("\n", "\r"),
        "old Mac line ends (CR only)",
        per_query=[["q", "1"], ["r", "1/log2(3)"]],
    )
    case(
        "fields_no_final_newline",
        (HEADER + rows("q", SWAPPED)).rstrip("\n"),
        "no new line at the end",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "fields_pandas_index_column",
        ",query,item,relevance,score\n0,q,a,0,0.9\n1,q,b,1,0.8\n",
        "pandas' index written as an unnamed first column",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "fields_column_order",
        "score,relevance,item,query\n0.9,0,a,q\n0.8,1,b,q\n",
        "columns in another order",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "fields_many_columns",
        ",".join(["query", "item", "relevance", "score"] + [f"x{i}" for i in range(300)])
        + "\n"
        + "\n".join(f"q,{i},{g},{s}," + ",".join("7" for _ in range(300)) for i, g, s in SWAPPED)
        + "\n",
        "300 extra columns",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "fields_duplicate_header",
        "query,item,relevance,score,score\nq,a,0,0.9,0.1\nq,b,1,0.8,0.9\n",
        "a repeated column name: the first is 'score', the second 'score.1'",
        per_query=[["q", "1/log2(3)"]],
    )

    # ---- empty and header-only
    case("empty_file", b"", "an empty file", error="empty_table")
    case("only_header", HEADER, "only the header", error="empty_table")
    case("only_header_no_newline", HEADER.rstrip("\n"), "only the header, no new line", error="empty_table")
    case("only_blank_lines", "\n\n\n", "only blank lines", error="empty_table")
    case("only_header_and_blank_lines", HEADER + "\n\n", "the header and blank lines", error="empty_table")
    case(
        "missing_relevance_column",
        "query,item,score\nq,a,0.9\n",
        "no relevance column",
        error="missing_column",
        params={"column": "relevance"},
    )
    case(
        "header_with_spaces",
        " query,item,relevance,score\n" + rows("q", GOOD),
        "' query' is not 'query' (the page, which matches names after stripping spaces, evaluates it)",
        error="missing_column",
        params={"column": "query"},
        page=False,
    )

    # ---- encodings
    case(
        "enc_utf8_bom",
        b"\xef\xbb\xbf" + (HEADER + rows("q", SWAPPED)).encode(),
        "a UTF-8 byte-order mark",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "enc_latin1",
        (HEADER + rows("café", GOOD)).encode("latin-1"),
        "latin-1 text",
        error="not_utf8",
        params={"line": 2},
    )
    case(
        "enc_latin1_two_queries",
        (HEADER + rows("café", GOOD) + rows("cafè", SWAPPED_CD)).encode("latin-1"),
        "latin-1 é and è: replaced by U+FFFD they would merge into one query (issue 15, item 15)",
        error="not_utf8",
        params={"line": 2},
    )
    case(
        "enc_utf8_accents",
        HEADER + rows("café", GOOD) + rows("cafè", SWAPPED_CD),
        "the same rows in UTF-8: café and cafè are two queries",
        per_query=[["café", "1"], ["cafè", "1/log2(3)"]],
    )
    case(
        "enc_cp1252_quotes",
        (HEADER + rows("q", GOOD) + rows("“q”", GOOD)).encode("cp1252"),
        "Windows-1252 curly quotes on line 4",
        error="not_utf8",
        params={"line": 4},
    )
    case(
        "enc_utf16_le",
        (HEADER + rows("q", GOOD)).encode("utf-16"),
        "UTF-16 with a byte-order mark",
        error="not_utf8",
        params={"line": 1},
    )
    case(
        "enc_utf16_be",
        b"\xfe\xff" + (HEADER + rows("q", GOOD)).encode("utf-16-be"),
        "UTF-16 big-endian",
        error="not_utf8",
        params={"line": 1},
    )
    case(
        "enc_bad_byte_in_score",
        (HEADER + rows("q", GOOD)).encode() + b"q,c,1,0.\xff\n",
        "a byte that is not UTF-8 in a number column",
        error="not_utf8",
        params={"line": 4},
    )
    case(
        "enc_gzip",
        gzip.compress((HEADER + rows("q", SWAPPED)).encode(), mtime=0),
        "a gzip file named .csv.gz: decompressed from a path (CLI, API); an upload of it is not text",
        suffix=".csv.gz",
        per_query=[["q", "1/log2(3)"]],
        page=False,
    )

    # ---- numbers (defect 3 and friends)
    case(
        "num_sum_overflow",
        HEADER + "q,a,1e308,0.9\nq,b,1e308,0.8\n",
        "two grades of 1e308: DCG would be inf",
        error="sum_overflow_query",
        params={"query": "q", "row": 2},
    )
    case(
        "num_exp_gain_overflow",
        HEADER + "q,a,1100,0.9\nq,b,0,0.8\n",
        "grade 1100 with exponential gain: 2^1100 is inf",
        options={"gain": "exponential"},
        error="gain_overflow_row",
        params={"row": 1, "column": "relevance"},
    )
    case(
        "num_exp_gain_1023",
        HEADER + "q,a,1023,0.9\nq,b,0,0.8\n",
        "grade 1023 with exponential gain: 2^1023 - 1 is finite",
        options={"gain": "exponential"},
        per_query=[["q", "1"]],
    )
    case(
        "num_exp_sum_1023_twice",
        HEADER + "q,a,1023,0.9\nq,b,1023,0.8\n",
        "two grades of 1023, exponential: the sum 2^1024 - 2 is inf",
        options={"gain": "exponential"},
        error="sum_overflow_query",
        params={"row": 2},
    )
    case(
        "num_grade_1e309",
        HEADER + "q,a,1e309,0.9\n",
        "1e309 reads as infinity",
        error="bad_column",
        params={"row": 1, "column": "relevance"},
    )
    case(
        "num_score_1e309",
        HEADER + "q,a,1,0.9\nq,b,0,-1e309\n",
        "a score of -infinity",
        error="bad_column",
        params={"row": 2, "column": "score"},
    )
    case(
        "num_score_inf_word",
        HEADER + "q,a,1,inf\n",
        "the word inf as a score",
        error="bad_column",
        params={"row": 1, "column": "score"},
    )
    case(
        "num_score_nan_word",
        HEADER + "q,a,1,0.5\nq,b,0,nan\n",
        "the word nan as a score",
        error="bad_column",
        params={"row": 2, "column": "score"},
    )
    case(
        "num_grade_NA",
        HEADER + "q,a,1,0.5\nq,b,NA,0.4\n",
        "NA in a grade column is not a number",
        error="bad_column",
        params={"row": 2, "column": "relevance"},
    )
    case(
        "num_grade_empty",
        HEADER + "q,a,1,0.5\nq,b,,0.4\n",
        "an empty grade is missing",
        error="bad_column",
        params={"row": 2, "column": "relevance"},
    )
    case(
        "num_score_empty",
        HEADER + "q,a,1,\n",
        "an empty score is missing",
        error="bad_column",
        params={"row": 1, "column": "score"},
    )
    case(
        "num_grade_word",
        HEADER + "q,a,1,0.5\nq,b,three,0.4\n",
        "a word as a grade",
        error="bad_column",
        params={"row": 2, "column": "relevance"},
    )
    case(
        "num_grade_decimal_comma",
        HEADER + 'q,a,"1,5",0.5\n',
        "a decimal comma is not a number here",
        error="bad_column",
        params={"row": 1, "column": "relevance"},
    )
    case(
        "num_grade_true",
        HEADER + "q,a,true,0.5\n",
        "true is not a grade",
        error="bad_column",
        params={"row": 1, "column": "relevance"},
    )
    case(
        "num_grade_hex",
        HEADER + "q,a,0x10,0.5\n",
        "0x10 is not a grade",
        error="bad_column",
        params={"row": 1, "column": "relevance"},
    )
    case(
        "num_grade_negative",
        HEADER + "q,a,1,0.5\nq,b,-1,0.4\n",
        "a negative grade",
        error="bad_column",
        params={"row": 2, "column": "relevance"},
    )
    case(
        "num_grade_negative_zero",
        HEADER + "q,a,-0,0.9\nq,b,1,0.8\n",
        "-0 is the grade 0",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "num_grade_fractional",
        HEADER + "q,a,0.5,0.9\nq,b,2.75,0.8\n",
        "fractional grades",
        per_query=[["q", "(0.5+2.75/log2(3))/(2.75+0.5/log2(3))"]],
    )
    case(
        "num_grade_exponent",
        HEADER + "q,a,0,0.9\nq,b,1e2,0.8\n",
        "1e2 is the grade 100",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "num_grade_plus_sign",
        HEADER + "q,a,+0,0.9\nq,b,+3,0.8\n",
        "+3 is the grade 3",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "num_grade_tiny",
        HEADER + "q,a,0,0.9\nq,b,1e-300,0.8\n",
        "tiny grades: the ratio still holds",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "num_grade_large_finite",
        HEADER + "q,a,0,0.9\nq,b,1e300,0.8\n",
        "large finite grades",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "num_score_tiny_distinct",
        HEADER + "q,a,0,2e-320\nq,b,1,1e-320\n",
        "subnormal scores 2e-320 > 1e-320 still order the items",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "num_score_near_ties",
        HEADER + "q,a,0,1.000000000001\nq,b,1,1\n",
        "scores 1e-12 apart (float32 cannot tell them apart) are not tied",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "num_score_huge",
        HEADER + "q,a,0,1e308\nq,b,1,-1e308\n",
        "scores of +-1e308",
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "num_score_negative_zero_tie",
        HEADER + "q,a,0,-0\nq,b,1,0\n",
        "-0 and 0 are tied scores",
        per_query=[["q", "(1+1/log2(3))/2"]],
    )
    case(
        "num_integer_scores",
        HEADER + "q,a,0,2\nq,b,1,1\n",
        "whole-number scores",
        per_query=[["q", "1/log2(3)"]],
    )

    # ---- duplicates
    case(
        "dup_rows",
        HEADER + "q,a,1,0.9\nq,a,1,0.9\n",
        "the same row twice",
        error="duplicate_pair",
        params={"rows": "1, 2"},
    )
    case(
        "dup_item_other_query",
        HEADER + "q,a,1,0.9\nr,a,0,0.9\n",
        "one item in two queries is fine",
        per_query=[["q", "1"], ["r", "0"]],
    )
    case(
        "dup_rows_no_item_column",
        "query,relevance,score\nq,0,0.9\nq,0,0.9\nq,1,0.8\n",
        "without an item column, repeated rows are rows",
        per_query=[["q", "1/log2(4)"]],
    )

    # ---- ties
    case(
        "ties_all_tied_average",
        HEADER + "q,a,1,0.5\nq,b,0,0.5\nq,c,0,0.5\n",
        "three tied items: the mean over all orders",
        per_query=[["q", "(1+1/log2(3)+1/log2(4))/3"]],
    )
    case(
        "ties_input",
        HEADER + "q,a,0,0.5\nq,b,1,0.5\n",
        "input: the file's order in a tie",
        options={"ties": "input"},
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "ties_trec_eval",
        HEADER + "q,10,1,0.5\nq,9,0,0.5\n",
        "trec_eval: item id descending as text ('9' > '10')",
        options={"ties": "trec_eval"},
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "ties_optimistic",
        HEADER + "q,a,0,0.5\nq,b,1,0.5\n",
        "optimistic: best first",
        options={"ties": "optimistic"},
        per_query=[["q", "1"]],
    )
    case(
        "ties_pessimistic",
        HEADER + "q,a,1,0.5\nq,b,0,0.5\n",
        "pessimistic: worst first",
        options={"ties": "pessimistic"},
        per_query=[["q", "1/log2(3)"]],
    )
    case(
        "ties_ignore_refused",
        HEADER + rows("q", GOOD),
        "ignore is defined for single lists only",
        options={"ties": "ignore"},
        error="ties_ignore_batch",
        page=False,
    )
    case(
        "ties_trec_eval_no_item",
        "query,relevance,score\nq,1,0.5\n",
        "trec_eval needs item ids",
        options={"ties": "trec_eval"},
        error="ties_needs_item",
        params={"column": "item"},
    )

    # ---- structure
    case("one_row", HEADER + "q,a,2,0.1\n", "one query of one row", per_query=[["q", "1"]])
    case(
        "one_row_zero",
        HEADER + "q,a,0,0.1\n",
        "nothing relevant: nDCG 0 (scikit-learn)",
        per_query=[["q", "0"]],
    )
    case(
        "k_cuts",
        HEADER + rows("q", WORKED),
        "the worked example at k = 2",
        options={"k": 2},
        per_query=[["q", "(3+2/log2(3))/(3+2/log2(3))"]],
    )
    case(
        "worked_example",
        HEADER + rows("q", WORKED),
        "the worked example, whole list",
        options={"k": None},
        per_query=[["q", WORKED_NDCG]],
    )
    case(
        "interleaved_queries",
        HEADER + "q,a,0,0.9\nr,a,1,0.9\nq,b,1,0.8\nr,b,0,0.8\n",
        "rows of two queries interleaved",
        per_query=[["q", "1/log2(3)"], ["r", "1"]],
    )
    rng = np.random.default_rng(12)
    lines = [HEADER]
    for q in range(30):
        for d in range(int(rng.integers(2, 12))):
            lines.append(f"q{q},d{d},{int(rng.integers(0, 4))},{rng.integers(0, 8) / 8}\n")
    case(
        "random_ties_sklearn",
        "".join(lines),
        "30 random queries with ties: scikit-learn's numbers",
        options={"k": 5},
        per_query="sklearn",
    )

    # ---- Parquet with wrong or surprising types
    base = {"query": ["q", "q"], "item": ["a", "b"], "relevance": [0, 1], "score": [0.9, 0.8]}
    parquet(
        "pq_int_query_ids",
        pd.DataFrame({**base, "query": [7, 7]}),
        "integer query ids become '7'",
        per_query=[["7", "1/log2(3)"]],
    )
    parquet(
        "pq_float_query_ids",
        pd.DataFrame({**base, "query": [1.0, 1.5]}),
        "float query ids become '1.0' and '1.5'",
        per_query=[["1.0", "0"], ["1.5", "1"]],
    )
    parquet(
        "pq_text_grades",
        pd.DataFrame({**base, "relevance": ["0", "1"]}),
        "grades stored as text",
        per_query=[["q", "1/log2(3)"]],
    )
    parquet(
        "pq_word_grade",
        pd.DataFrame({**base, "relevance": ["0", "high"]}),
        "a word in a text grade column",
        error="bad_column",
        params={"row": 2, "column": "relevance"},
    )
    parquet(
        "pq_bool_grades",
        pd.DataFrame({**base, "relevance": [False, True]}),
        "boolean grades are 0 and 1",
        per_query=[["q", "1/log2(3)"]],
    )
    parquet(
        "pq_null_query",
        pd.DataFrame({**base, "query": ["q", None]}),
        "a null query id",
        error="bad_column",
        params={"row": 2, "column": "query"},
    )
    parquet(
        "pq_null_score",
        pd.DataFrame({**base, "score": [0.9, None]}),
        "a null score",
        error="bad_column",
        params={"row": 2, "column": "score"},
    )
    parquet(
        "pq_timestamp_score",
        pd.DataFrame({**base, "score": pd.to_datetime(["2024-01-01", "2024-01-02"])}),
        "a timestamp is not a score",
        error="bad_column",
        params={"row": 1, "column": "score"},
    )
    parquet(
        "pq_category_ids",
        pd.DataFrame({**base, "query": pd.Categorical(["q", "q"])}),
        "dictionary-encoded query ids",
        per_query=[["q", "1/log2(3)"]],
    )
    parquet(
        "pq_missing_column",
        pd.DataFrame({k: v for k, v in base.items() if k != "score"}),
        "no score column",
        error="missing_column",
        params={"column": "score"},
    )
    parquet(
        "pq_no_rows",
        pd.DataFrame({k: pd.Series([], dtype="float64") for k in base}),
        "a Parquet file with no rows",
        error="empty_table",
    )
    parquet(
        "pq_inf_grade",
        pd.DataFrame({**base, "relevance": [0.0, np.inf]}),
        "an infinite grade",
        error="bad_column",
        params={"row": 2, "column": "relevance"},
    )
    parquet(
        "pq_formula_ids",
        pd.DataFrame({**base, "query": ["=1+1", "=1+1"]}),
        "a formula-like id from Parquet: escaped in CSV output",
        per_query=[["=1+1", "1/log2(3)"]],
        csv_queries=["'=1+1"],
    )
    case(
        "pq_truncated",
        b"PAR1" + b"\x00" * 40,
        "Parquet magic bytes and nothing else",
        suffix=".parquet",
        error="parquet_invalid",
    )

    # ---- issue "Read every file trec_eval reads", items 11 and 12
    damaged = io.BytesIO()
    pd.DataFrame(
        {"query": ["q"] * 100, "item": [f"d{i}" for i in range(100)], "relevance": 1, "score": 0.5}
    ).to_parquet(damaged, index=False, compression=None)
    pages = bytearray(damaged.getvalue())
    pages[8:600] = b"\xff" * 592
    case(
        "pq_damaged_inside",
        bytes(pages),
        "Parquet pages overwritten, the footer intact (Spark failed in collectToPython, exit 1)",
        suffix=".parquet",
        error="parquet_invalid",
        params={"name": "pq_damaged_inside.parquet"},
    )
    case(
        "cols_score_is_relevance",
        HEADER + rows("q", GOOD),
        "the grade column chosen as the score too (--score relevance): refused, not nDCG 1",
        options={"score": "relevance"},
        error="column_roles",
        params={"column": "relevance", "first": "relevance", "second": "score"},
    )
    case(
        "enc_latin1_short_row",
        b"query,item,relevance,score\nq,a,1,0.9\nq,caf\xe9,1\n",
        "a Latin-1 byte in a row with a field missing: the row is named, no pyarrow words",
        error="field_count",
        params={"row": 2, "got": 3, "expected": 4},
    )
    case(
        "row_too_long",
        gzip.compress(HEADER.encode() + b"q,a,1,0.9\nq," + b"x" * (9 << 20) + b",0,0.8\n", mtime=0),
        "a field of 9 MiB (gzip, from a path): its line named, not pyarrow's 'straddling object'",
        suffix=".csv.gz",
        page=False,  # an upload is not decompressed; the page's test uploads the text itself
        error="csv_row_too_long",
        params={"line": 3, "got": len("q,") + (9 << 20) + len(",0,0.8"), "limit": 1 << 22},
    )


def build_more() -> None:
    """One file with its grades: more of the issue "Read every file trec_eval reads" (items 1,
    3, 10, 11, 12): comment lines and # in CSV (data there), NUL inside ids, decimal commas,
    overflow per query, gzip variants, damaged and oddly typed Parquet."""
    import decimal

    import pandas as pd

    case(
        "nul_in_query_csv",
        HEADER + "q\x00a,a,1,0.9\nq\x00a,b,0,0.8\n",
        "a query id holding NUL: refused naming the row (C tools end the id at NUL)",
        error="bad_column",
        params={"row": 1, "column": "query"},
    )
    case(
        "nul_in_item_csv",
        HEADER + "q,a,1,0.9\nq,b\x00,0,0.8\n",
        "an item id ending in NUL (b and b\\0 would be one item to trec_eval): refused, row 2",
        error="bad_column",
        params={"row": 2, "column": "item"},
    )
    base = {"query": ["q", "q"], "item": ["a", "b"], "relevance": [0, 1], "score": [0.9, 0.8]}
    parquet(
        "pq_nul_in_query",
        pd.DataFrame({**base, "query": ["q", "q\x00"]}),
        "Parquet: a query id holding NUL, row 2",
        error="bad_column",
        params={"row": 2, "column": "query"},
    )
    parquet(
        "pq_nul_in_item",
        pd.DataFrame({**base, "item": ["a\x00b", "b"]}),
        "Parquet: an item id holding NUL, row 1",
        error="bad_column",
        params={"row": 1, "column": "item"},
    )
    case(
        "csv_comment_line",
        HEADER + "# judged in 2024\n" + rows("q", GOOD),
        "a # line in a CSV file is a row (CSV is not TREC): one field, refused naming the row",
        error="field_count",
        params={"row": 1, "got": 1, "expected": 4},
    )
    case(
        "csv_hash_query",
        HEADER + rows("#1", SWAPPED),
        "a CSV query id #1 is data, not a comment",
        per_query=[["#1", "1/log2(3)"]],
    )
    case(
        "csv_comment_of_four_fields",
        HEADER + "# judged,in,2024,1\n" + rows("q", GOOD),
        "a comment-looking row of four fields is the query '# judged' with one item graded 2024",
        per_query=[["# judged", "1"], ["q", "1"]],
    )
    case(
        "num_score_decimal_comma_quoted",
        HEADER + 'q,a,1,"0,9"\nq,b,0,0.8\n',
        "a quoted score 0,9 (a decimal comma): not a number, row 1",
        error="bad_column",
        params={"row": 1, "column": "score", "value": "0,9"},
    )
    case(
        "num_sum_overflow_per_query",
        HEADER + "q,a,1e308,0.9\nq,b,0,0.8\nr,a,0,0.9\nr,b,1e308,0.8\n",
        "1e308 in each of two queries: the file's sum overflows, no query's does",
        per_query=[["q", "1"], ["r", "1/log2(3)"]],
    )
    case(
        "num_exp_1023_in_two_queries",
        HEADER + "q,a,1023,0.9\nq,b,0,0.8\nr,a,0,0.9\nr,b,1023,0.8\n",
        "exponential gain 2^1023-1 once in each of two queries: no query overflows",
        options={"gain": "exponential"},
        per_query=[["q", "1"], ["r", "1/log2(3)"]],
    )
    case(
        "gzip_two_members",
        gzip.compress((HEADER + rows("q", GOOD)).encode(), mtime=0)
        + gzip.compress(rows("r", SWAPPED).encode(), mtime=0),
        "two gzip members one after the other (cat a.gz b.gz): both read",
        suffix=".csv.gz",
        per_query=[["q", "1"], ["r", "1/log2(3)"]],
        page=False,
    )
    whole = gzip.compress((HEADER + rows("q", GOOD) * 200).encode(), mtime=0)
    case(
        "gzip_cut_short",
        whole[: len(whole) // 2],
        "a gzip file cut in half: refused by name, not a partial read",
        suffix=".csv.gz",
        error="unreadable",
        params={"name": "gzip_cut_short.csv.gz"},
        page=False,
    )
    cut = io.BytesIO()
    pd.DataFrame(base).to_parquet(cut, index=False)
    case(
        "pq_cut_in_half",
        cut.getvalue()[: len(cut.getvalue()) // 2],
        "a Parquet file cut in half (an interrupted copy): the footer is gone",
        suffix=".parquet",
        error="parquet_invalid",
        params={"name": "pq_cut_in_half.parquet"},
    )
    parquet(
        "pq_decimal_grades",
        pd.DataFrame({**base, "relevance": [decimal.Decimal("0.0"), decimal.Decimal("1.5")]}),
        "Parquet decimal(2,1) grades are numbers: 0.0 and 1.5",
        per_query=[["q", "1/log2(3)"]],
    )
    parquet(
        "pq_text_score_decimal_comma",
        pd.DataFrame({**base, "score": ["0,9", "0,8"]}),
        "Parquet scores stored as text with a decimal comma: not numbers, row 1",
        error="bad_column",
        params={"row": 1, "column": "score", "value": "0,9"},
    )


# ---- TREC qrels and runs (issue "Read every file trec_eval reads", items 1-4, 7, 8, 9)

TREC_CASES: list[dict[str, Any]] = []
QRELS = "q1 0 a 3\nq1 0 b 2\nq1 0 c 0\nq2 0 d 1\nq2 0 e 0\n"
#: q1: b (2), x (unjudged), a (3); q2: e (0), d (1).
RUN = "q1 Q0 b 1 0.9 r\nq1 Q0 x 2 0.8 r\nq1 Q0 a 3 0.7 r\nq2 Q0 e 1 0.5 r\nq2 Q0 d 2 0.4 r\n"
RUN_NDCG = [["q1", "(2+3/log2(4))/(3+2/log2(3))"], ["q2", "1/log2(3)"]]


def trec_case(
    name: str,
    about: str,
    *,
    qrels: bytes | str = QRELS,
    run: bytes | str = RUN,
    suffix: str = "",
    **expect: Any,
) -> None:
    """A qrels file and one run (``trec_<name>.qrels`` / ``.run``) and what they must give."""
    paths = {}
    for kind, content in (("qrels", qrels), ("run", run)):
        data = content.encode("utf-8") if isinstance(content, str) else content
        path = FILES / f"trec_{name}.{kind}{suffix}"
        path.write_bytes(data)
        paths[kind] = path.name
    TREC_CASES.append({"name": name, "qrels": paths["qrels"], "run": paths["run"], "about": about, **expect})


def commented(text: str, comments: dict[int, str]) -> str:
    """``text`` with comment lines before the given lines (0-based; -1: after the last)."""
    lines = text.splitlines(keepends=True)
    return "".join(comments.get(i, "") + line for i, line in enumerate(lines)) + comments.get(-1, "")


def build_trec() -> None:
    places = {
        "top": {0: "# judged in 2024\n"},
        "middle": {2: "# 4 tokens 2024 9\n"},
        "end": {-1: "# the end, no new line"},
        "several": {0: "#\n# two\n", 3: "# x 1 2 3 4 5 6\n", -1: "#last\n"},
        "indented": {1: "  # x\n", 3: "\t# tab 1 2\n"},
    }
    for where, comments in places.items():
        trec_case(
            f"comment_qrels_{where}",
            f"comment lines in the qrels ({where}) are skipped",
            qrels=commented(QRELS, comments),
            per_query=RUN_NDCG,
        )
        trec_case(
            f"comment_run_{where}",
            f"comment lines in the run ({where}) are skipped",
            run=commented(RUN, comments),
            per_query=RUN_NDCG,
        )
    trec_case(
        "comment_crlf_both",
        "comment lines with Windows line ends in both files",
        qrels=commented(QRELS, {1: "# a\r\n"}).replace("\n", "\r\n").replace("\r\r", "\r"),
        run=commented(RUN, {0: "  # b, c\r\n"}).replace("\n", "\r\n").replace("\r\r", "\r"),
        per_query=RUN_NDCG,
    )
    trec_case(
        "hash_inside_ids",
        "a # inside a line is data: the ids a#1 and #d",
        qrels=QRELS.replace(" a ", " a#1 ").replace(" d ", " #d "),
        run=RUN.replace(" a ", " a#1 ").replace(" d ", " #d "),
        per_query=RUN_NDCG,
    )
    trec_case(
        "csv_hash_id",
        "CSV: the query #1 is data, not a comment",
        qrels="query,item,relevance\n#1,a,1\n#1,b,0\n",
        run="query,item,score\n#1,b,0.9\n#1,a,0.8\n",
        suffix=".csv",
        per_query=[["#1", "1/log2(3)"]],
    )
    trec_case(
        "comments_only_qrels",
        "qrels of comment lines only: no rows",
        qrels="# nothing\n  # judged\n",
        error="empty_table",
        params={"name": "trec_comments_only_qrels.qrels"},
    )
    trec_case(
        "gzip_ok",
        "gzip qrels and run (recognised from the content)",
        qrels=gzip.compress(QRELS.encode(), mtime=0),
        run=gzip.compress(RUN.encode(), mtime=0),
        suffix=".gz",
        per_query=RUN_NDCG,
    )
    bomb = gzip.compress(b"\n" * (1 << 20), compresslevel=9, mtime=0)  # about 1000 times
    trec_case(
        "gzip_bomb_qrels",
        "gzip qrels expanding past 20 times its size: refused, not decompressed further",
        qrels=bomb,
        suffix=".gz",
        error="gzip_ratio",
        params={"name": "trec_gzip_bomb_qrels.qrels.gz", "size": len(bomb), "limit": 20 * len(bomb)},
    )
    trec_case(
        "gzip_bomb_run",
        "gzip run expanding past 20 times its size: refused",
        run=bomb,
        suffix=".gz",
        error="gzip_ratio",
        params={"name": "trec_gzip_bomb_run.run.gz", "ratio": 20},
    )
    trec_case(
        "long_id_run",
        "a document id of 1001 bytes in the run",
        run=RUN.replace("q2 Q0 e", "q2 Q0 " + "e" * 1001),
        error="trec_id_too_long",
        params={"name": "trec_long_id_run.run", "line": 4, "got": 1001, "limit": 1000},
    )
    trec_case(
        "long_id_utf8_qrels",
        "a query id of 334 characters, 1002 bytes of UTF-8, in the qrels",
        qrels=QRELS.replace("q2 0 d", "中" * 334 + " 0 d"),
        error="trec_id_too_long",
        params={"name": "trec_long_id_utf8_qrels.qrels", "line": 4, "got": 1002},
    )
    trec_case(
        "id_of_1000_bytes",
        "an id of exactly 1000 bytes is read",
        qrels=QRELS.replace(" d ", " " + "d" * 1000 + " "),
        run=RUN.replace(" d ", " " + "d" * 1000 + " "),
        per_query=RUN_NDCG,
    )


def build_trec_formats() -> None:
    """Files trec_eval reads that nDCG Lab refused or misread (issue items 2, 3, 4 and 7)."""
    trec_case(
        "run_trailing_fields",
        "text after the sixth field of a run (trec_eval's results.trunc): ignored, as trec_eval does",
        run=RUN.replace(" r\n", " r extra text 9\n", 3),
        per_query=RUN_NDCG,
    )
    trec_case(
        "qrels_fifth_field",
        "a fifth field in the qrels: refused, as trec_eval refuses it (Malformed line)",
        qrels=QRELS.replace("q1 0 b 2\n", "q1 0 b 2 x\n"),
        error="trec_field_count",
        params={"name": "trec_qrels_fifth_field.qrels", "line": 2, "got": 5},
    )
    trec_case(
        "comma_in_id_line_1",
        "a comma in a document id on line 1 (<dbpedia:Paris,_Texas>): TREC, not CSV",
        qrels=QRELS.replace(" b ", " <dbpedia:Paris,_Texas> "),
        run=RUN.replace(" b ", " <dbpedia:Paris,_Texas> "),
        per_query=RUN_NDCG,
    )
    trec_case(
        "comma_in_tag",
        "a comma in the run tag (bm25,k1=0.9): TREC, not CSV",
        run=RUN.replace(" r\n", " bm25,k1=0.9\n"),
        per_query=RUN_NDCG,
    )
    trec_case(
        "one_line_run_with_comma",
        "a run of one line with a comma: one row, not a CSV header without rows",
        run="q2 Q0 d,1 1 0.5 r\n",
        qrels=QRELS.replace(" d ", " d,1 "),
        per_query=[["q1", "0"], ["q2", "1"]],
    )
    trec_case(
        "decimal_comma_score",
        "a score with a decimal comma (0,8): not a number, the line and the decimal comma named",
        run=RUN.replace("0.8", "0,8"),
        error="trec_value",
        params={"name": "trec_decimal_comma_score.run", "line": 2, "value": "0,8"},
    )
    trec_case(
        "fractional_grades",
        "grades 0.5 and 1.7: used as given (trec_eval would truncate them to 0 and 1), and said so",
        qrels="q 0 a 0.5\nq 0 b 1.7\nq 0 c 1\n",
        run="q Q0 a 1 3 r\nq Q0 b 2 2 r\nq Q0 c 3 1 r\n",
        per_query=[["q", "(0.5+1.7/log2(3)+1/log2(4))/(1.7+1/log2(3)+0.5/log2(4))"]],
        fractional=[[0.5, 0.0], [1.7, 1.0]],
    )
    trec_case(
        "latin1_qrels",
        "a Latin-1 qrels file (caf\xe9): not UTF-8, the file and the line named",
        qrels=QRELS.encode() + "q2 0 caf\xe9 1\n".encode("latin-1"),
        error="not_utf8",
        params={"name": "trec_latin1_qrels.qrels", "line": 6},
    )


def parquet_bytes(frame: Any) -> bytes:
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


def build_trec_types() -> None:
    """Items 11 and 12 of the issue: wrong types and library messages, in TREC form."""
    import pandas as pd

    trec_case(
        "score_underscore",
        "a score 1_0 (Python's float reads 10, pyarrow refuses it): the line is named",
        run=RUN.replace("0.8", "1_0"),
        error="trec_value",
        params={"name": "trec_score_underscore.run", "line": 2, "value": "1_0"},
    )
    trec_case(
        "nul_in_ids",
        "the same id with a NUL inside in both files: refused (C tools end the id at NUL)",
        qrels=QRELS.replace(" a ", " a\x00x "),
        run=RUN.replace(" a ", " a\x00x "),
        error="trec_value",
        params={"name": "trec_nul_in_ids.qrels", "line": 1},  # (the id is shown as 'a\\x00x')
    )
    trec_case(
        "csv_latin1_short_row",
        "CSV run: a Latin-1 byte in a row with a field missing; the row is named (not 'Row #3')",
        qrels="query,item,relevance\nq,a,1\n",
        run=b"query,item,score\nq,a,0.9\nq,caf\xe9\n",
        suffix=".csv",
        error="field_count",
        params={"row": 2, "got": 2, "expected": 3},
    )

    trec_case(
        "qrels_timestamp_grade",
        "Parquet qrels whose grade column is a timestamp: refused, not read as nanoseconds",
        qrels=parquet_bytes(
            pd.DataFrame(
                {"query": ["q", "q"], "item": ["a", "b"], "relevance": pd.to_datetime([1, 0], unit="ns")}
            )
        ),
        run=parquet_bytes(pd.DataFrame({"query": ["q", "q"], "item": ["b", "a"], "score": [0.9, 0.8]})),
        suffix=".parquet",
        error="trec_value",
        params={"name": "trec_qrels_timestamp_grade.qrels.parquet", "value": "1970-01-01 00:00:00.000000001"},
    )


def build_trec_more() -> None:
    """More TREC cases (items 1-4, 8-12): forced formats, truncated grades, Latin-1 runs, gzip
    variants, comment-only runs, NUL in a run, overflow per query, Parquet types and damage.
    ``options`` are the API's keyword arguments (the CLI's flags); the page, which has no
    --grades or --input-format, is left out of those cases (``page = false``)."""
    import pandas as pd

    trec_case(
        "fractional_grades_truncate",
        "--grades truncate: 0.5, 1.7 read as 0, 1 as trec_eval reads them (its 0.6934), and said so",
        qrels="q 0 a 0.5\nq 0 b 1.7\nq 0 c 1\n",
        run="q Q0 a 1 3 r\nq Q0 b 2 2 r\nq Q0 c 3 1 r\n",
        options={"grades": "truncate"},
        page=False,
        per_query=[["q", "(1/log2(3)+1/log2(4))/(1+1/log2(3))"]],
        fractional=[[0.5, 0.0], [1.7, 1.0]],
    )
    trec_case(
        "fractional_grade_truncate_not_round",
        "--grades truncate: 2.9 is 2 (toward zero, C's atol), not 3",
        qrels="q 0 a 2.9\nq 0 b 1\n",
        run="q Q0 b 1 0.9 r\nq Q0 a 2 0.8 r\n",
        options={"grades": "truncate"},
        page=False,
        per_query=[["q", "(1+2/log2(3))/(2+1/log2(3))"]],
        fractional=[[2.9, 2.0]],
    )
    trec_case(
        "force_trec_on_csv_header",
        "--input-format trec on a CSV qrels: its header line is a TREC line of 1 field, refused",
        qrels="query,item,relevance\nq1,a,3\n",
        options={"input_format": "trec"},
        page=False,
        error="trec_field_count",
        params={"name": "trec_force_trec_on_csv_header.qrels", "line": 1, "got": 1},
    )
    trec_case(
        "force_csv_reads_comma_ids",
        "--input-format csv: a CSV qrels and run whose first row looks like nothing in particular",
        qrels="query,item,relevance\nq1,a,3\nq1,b,2\nq1,c,0\nq2,d,1\nq2,e,0\n",
        run="query,item,score\nq1,b,0.9\nq1,x,0.8\nq1,a,0.7\nq2,e,0.5\nq2,d,0.4\n",
        options={"input_format": "csv"},
        page=False,
        per_query=RUN_NDCG,
    )
    trec_case(
        "latin1_run",
        "a Latin-1 run (caf\xe9 on line 6): not UTF-8, the run file and the line named",
        run=RUN.encode() + "q2 Q0 caf\xe9 3 0.1 r\n".encode("latin-1"),
        error="not_utf8",
        params={"name": "trec_latin1_run.run", "line": 6},
    )
    trec_case(
        "gzip_two_members",
        "qrels and run as two gzip members each (cat a.gz b.gz): every line read",
        qrels=gzip.compress(QRELS[:18].encode(), mtime=0) + gzip.compress(QRELS[18:].encode(), mtime=0),
        run=gzip.compress(RUN[:32].encode(), mtime=0) + gzip.compress(RUN[32:].encode(), mtime=0),
        suffix=".gz",
        per_query=RUN_NDCG,
    )
    packed = gzip.compress((RUN * 40).encode(), mtime=0)
    trec_case(
        "gzip_cut_short_run",
        "a gzip run cut before its end: refused by name, not read in part",
        run=packed[: len(packed) // 2],
        suffix=".gz",
        error="unreadable",
        params={"name": "trec_gzip_cut_short_run.run.gz"},
    )
    trec_case(
        "plain_text_named_gz",
        "files named .gz that are plain text: read as text (recognised from the content)",
        suffix=".gz",
        per_query=RUN_NDCG,
    )
    trec_case(
        "comment_after_bom",
        "a byte-order mark, then a comment line: the comment is skipped",
        qrels="\ufeff# judged in 2024\n" + QRELS,
        per_query=RUN_NDCG,
    )
    trec_case(
        "comments_only_run",
        "a run of comment lines only: no rows",
        run="# bm25\n# no results\n",
        error="empty_table",
        params={"name": "trec_comments_only_run.run"},
    )
    trec_case(
        "run_five_fields",
        "a run line of five fields (the tag missing): refused naming the line",
        run=RUN.replace("q1 Q0 a 3 0.7 r\n", "q1 Q0 a 3 0.7\n"),
        error="trec_field_count",
        params={"name": "trec_run_five_fields.run", "line": 3, "got": 5},
    )
    trec_case(
        "tabs_and_spaces",
        "fields separated by tabs and runs of spaces, as trec_eval reads them",
        qrels=QRELS.replace(" 0 ", "\t0\t"),
        run=RUN.replace(" Q0 ", "  Q0\t \t"),
        per_query=RUN_NDCG,
    )
    trec_case(
        "decimal_comma_grade",
        "a grade with a decimal comma (2,0) in the qrels: the line and the decimal comma named",
        qrels=QRELS.replace("q1 0 b 2\n", "q1 0 b 2,0\n"),
        error="trec_value",
        params={"name": "trec_decimal_comma_grade.qrels", "line": 2, "value": "2,0"},
    )
    trec_case(
        "nul_in_run_only",
        "a NUL inside a run's document id (x\\0y): refused naming the run's line",
        run=RUN.replace(" x ", " x\x00y "),
        error="trec_value",
        params={"name": "trec_nul_in_run_only.run", "line": 2},
    )
    trec_case(
        "sum_overflow_per_query_ok",
        "1e308 in each of two queries: the file's sum overflows, no query's does",
        qrels="q1 0 a 1e308\nq1 0 c 0\nq2 0 d 1e308\nq2 0 e 0\n",
        per_query=[["q1", "1/log2(4)"], ["q2", "1/log2(3)"]],
    )
    trec_case(
        "sum_overflow_one_query",
        "1e308 twice in query q2: its sum overflows; the query and line named",
        qrels="q1 0 a 1\nq2 0 d 1e308\nq2 0 e 1e308\n",
        error="qrels_sum_overflow",
        params={"name": "trec_sum_overflow_one_query.qrels", "query": "q2", "line": 3},
    )
    trec_case(
        "exp_1023_in_two_queries",
        "exponential gain 2^1023-1 once in each of two queries: nothing overflows",
        qrels="q1 0 a 1023\nq2 0 d 1023\n",
        options={"gain": "exponential"},
        page=False,
        per_query=[["q1", "1/log2(4)"], ["q2", "1/log2(3)"]],
    )

    trec_case(
        "parquet_int_and_text_query_ids",
        "Parquet qrels with integer query ids, a run with the text '7': one query (ids are text)",
        qrels=parquet_bytes(pd.DataFrame({"query": [7, 7], "item": ["a", "b"], "relevance": [1, 0]})),
        run=parquet_bytes(pd.DataFrame({"query": ["7", "7"], "item": ["b", "a"], "score": [0.9, 0.8]})),
        suffix=".parquet",
        per_query=[["7", "1/log2(3)"]],
    )
    trec_case(
        "parquet_word_score",
        "a Parquet run whose text score column holds a word: refused naming the run and the value",
        qrels=parquet_bytes(pd.DataFrame({"query": ["q", "q"], "item": ["a", "b"], "relevance": [1, 0]})),
        run=parquet_bytes(pd.DataFrame({"query": ["q", "q"], "item": ["b", "a"], "score": ["0.9", "high"]})),
        suffix=".parquet",
        error="trec_value",
        params={"name": "trec_parquet_word_score.run.parquet", "value": "high"},
    )
    trec_case(
        "parquet_damaged_qrels",
        "qrels that start with Parquet's magic bytes and hold nothing readable",
        qrels=b"PAR1" + b"\x00" * 60 + b"PAR1",
        run=parquet_bytes(pd.DataFrame({"query": ["q"], "item": ["a"], "score": [0.9]})),
        suffix=".parquet",
        error="parquet_invalid",
        params={"name": "trec_parquet_damaged_qrels.qrels.parquet"},
    )


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return (
            "{ "
            + ", ".join(f"{key} = {_toml_value(item)}" for key, item in value.items() if item is not None)
            + " }"
        )
    raise TypeError(value)


def write_manifest() -> None:
    lines = [
        "# Hostile inputs (tests/adversarial/files) and the outcome each must give.",
        "# Written by build_files.py; see test_corpus.py for how each field is checked.",
        "",
    ]
    for entry in CASES:
        lines.append("[[case]]")
        for key, value in entry.items():
            if key == "options":
                value = {
                    name: ("all" if item is None and name == "k" else item) for name, item in value.items()
                }
            lines.append(f"{key} = {_toml_value(value)}")
        lines.append("")
    for entry in TREC_CASES:
        lines.append("[[trec]]")
        lines += [f"{key} = {_toml_value(value)}" for key, value in entry.items()]
        lines.append("")
    (HERE / "cases.toml").write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    FILES.mkdir(exist_ok=True)
    build()
    build_more()
    build_trec()
    build_trec_formats()
    build_trec_types()
    build_trec_more()
    write_manifest()
    print(f"{len(CASES)} cases, {len(TREC_CASES)} TREC cases")
