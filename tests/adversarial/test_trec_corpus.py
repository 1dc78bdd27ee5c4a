"""The TREC cases of cases.toml (``[[trec]]``: a qrels file and one run each) through the Python
API, the command line and the Evaluate page's IR form (AppTest, English and Chinese): the
per-query nDCG@10 written as arithmetic in the manifest, or the error key with the file, line
and limit its message must name. Comment lines, ``#`` in CSV ids, gzip bombs, over-long ids,
fields after a run's sixth, commas in TREC fields, decimal commas, fractional grades (said
once, with what trec_eval would make of them), Latin-1 (issue "Read every file trec_eval
reads", items 1-4 and 7-9)."""

from __future__ import annotations

import csv
import math
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

import ndcg_core as nc
import ndcg_lab.evaluate as cli
from ndcg_core import trec

HERE = Path(__file__).resolve().parent
FILES = HERE / "files"
ROOT = HERE.parents[1]
APP = str(ROOT / "app.py")
with open(HERE / "cases.toml", "rb") as _handle:
    CASES: list[dict[str, Any]] = tomllib.load(_handle)["trec"]
IDS = [case["name"] for case in CASES]
#: Cases the Evaluate page can be given (it has no --grades or --input-format; the harness sets
#: no option on it).
PAGE_CASES = [case for case in CASES if case.get("page", True)]
PAGE_ERRORS = [case for case in PAGE_CASES if "error" in case]


def _options(case: dict[str, Any]) -> dict[str, Any]:
    """The case's options as the API's keyword arguments (k=10 unless it says otherwise)."""
    return {"k": 10, **case.get("options", {})}


def _flags(case: dict[str, Any]) -> list[str]:
    """The case's options as the command line's flags."""
    return [
        flag
        for name, value in case.get("options", {}).items()
        for flag in (f"--{name.replace('_', '-')}", str(value))
    ]


def _arithmetic(text: str) -> float:
    """A hand-written expected value such as ``(2+3/log2(4))/(3+2/log2(3))``."""
    if not re.fullmatch(r"[0-9.e+\-*/() log2]+", text):
        raise ValueError(text)
    return float(eval(text, {"__builtins__": {}}, {"log2": math.log2}))  # digits, operators, log2 only


def _expected(case: dict[str, Any]) -> list[tuple[str, float]]:
    return [(query, _arithmetic(value)) for query, value in case["per_query"]]


def _api_error(case: dict[str, Any]) -> nc.NDCGInputError:
    """The error the API raises for the case, checked to be the one the manifest names."""
    with pytest.raises(nc.NDCGInputError) as caught:
        trec.evaluate_trec(FILES / case["qrels"], [FILES / case["run"]], **_options(case))
    assert caught.value.key == case["error"], str(caught.value)
    return caught.value


def test_trec_corpus_files_exist_and_names_are_unique():
    assert len({case["name"] for case in CASES}) == len(CASES) >= 20
    for case in CASES:
        assert (FILES / case["qrels"]).is_file() and (FILES / case["run"]).is_file()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_trec_corpus_api(case):
    if "error" in case:
        error = _api_error(case)
        assert error.key == case["error"], str(error)
        for name, value in case.get("params", {}).items():
            assert error.params[name] == value, (name, error.params)
            assert str(value) in str(error)
        return
    result = trec.evaluate_trec(FILES / case["qrels"], [FILES / case["run"]], **_options(case))
    expected = _expected(case)
    assert result.per_query["query"].tolist() == [query for query, _ in expected]
    for got, (query, value) in zip(result.per_query["ndcg@10"], expected, strict=True):
        assert got == pytest.approx(value, abs=1e-12), query
    assert [list(pair) for pair in result.fractional_grades] == case.get("fractional", [])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_trec_corpus_cli(case, tmp_path, capsys):
    out = tmp_path / "per_query.csv"
    args = [
        "--qrels",
        str(FILES / case["qrels"]),
        str(FILES / case["run"]),
        "--output",
        str(out),
        *_flags(case),
    ]
    status = cli.main(args)
    printed = capsys.readouterr()
    if "error" in case:
        assert status == 2
        assert printed.err == f"error: {_api_error(case)}\n"
        assert not out.exists()
        return
    assert status == 0, printed.err
    # the fractional grades named once, on stderr; nothing else is said there
    assert printed.err.count("note:") == (1 if "fractional" in case else 0), printed.err
    assert printed.err.count("\n") == printed.err.count("note:")
    with open(out, newline="", encoding="utf-8") as handle:
        rows = [(row["query"], float(row["ndcg@10"])) for row in csv.DictReader(handle)]
    expected = _expected(case)
    assert [query for query, _ in rows] == [query for query, _ in expected]
    for (_, got), (query, value) in zip(rows, expected, strict=True):
        assert got == pytest.approx(value, abs=1e-12), query


# ----------------------------------------------------------------- Evaluate page (AppTest)


def _page(lang: str, case: dict[str, Any]):
    from streamlit.testing.v1 import AppTest

    from ui.views import evaluate_trec as et

    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.switch_page("app_pages/7_Evaluate_a_run.py")
    at.run()
    at.radio(key="evaluate.trec_source").set_value("upload").run()
    qrels, run = (FILES / case["qrels"]).read_bytes(), (FILES / case["run"]).read_bytes()
    at.file_uploader(key=et.QRELS_KEY).set_value((case["qrels"], qrels, "application/octet-stream"))
    at.file_uploader(key=et.RUNS_KEY).set_value([(case["run"], run, "application/octet-stream")])
    return at.run()


@pytest.mark.parametrize("case", PAGE_CASES, ids=[case["name"] for case in PAGE_CASES])
def test_trec_corpus_page_en(case):
    from ui.framework.i18n import error_text
    from ui.framework.text import md_escape

    at = _page("en", case)
    assert not at.exception
    if "error" in case:
        assert md_escape(error_text("en", _api_error(case))) in [e.value for e in at.error]
        return
    assert not at.error
    shown = next(d.value for d in at.dataframe if "missing" in d.value.columns)
    expected = _expected(case)
    assert shown["query"].tolist() == [query for query, _ in expected]
    for got, (query, value) in zip(shown["ndcg@10"], expected, strict=True):
        assert got == pytest.approx(value, abs=1e-12), query
    said = [c.value for c in at.caption if "0.5" in c.value and "1.7" in c.value]
    assert len(said) == (1 if "fractional" in case else 0), said


FRACTIONAL = [case for case in PAGE_CASES if "fractional" in case]


@pytest.mark.parametrize("case", FRACTIONAL, ids=[case["name"] for case in FRACTIONAL])
def test_trec_corpus_page_zh_names_fractional_grades(case):
    """The note on fractional grades is the Chinese one, with the grades and their truncations."""
    at = _page("zh", case)
    assert not at.exception and not at.error
    grades = "、".join(f"{grade:g}" for grade, _ in case["fractional"])
    said = [c.value for c in at.caption if "截断" in c.value]
    assert len(said) == 1 and grades in said[0] and "截断" in said[0], said


@pytest.mark.parametrize("case", PAGE_ERRORS, ids=[case["name"] for case in PAGE_ERRORS])
def test_trec_corpus_page_zh(case):
    """The message is the Chinese one, naming the same file and figures."""
    from ui.framework.i18n import error_text
    from ui.framework.text import md_escape

    at = _page("zh", case)
    assert not at.exception
    error = _api_error(case)
    text = error_text("zh", error)
    assert md_escape(text) in [e.value for e in at.error]
    stripped = text
    for value in sorted(error.params.values(), key=lambda v: -len(str(v))):
        stripped = stripped.replace(repr(value), "").replace(str(value), "")
    # (numbers such as 1.8e308 are not words, whatever the stripping of the line number left)
    words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]{2,}", re.sub(r"\d[\d.]*e\d*", "", stripped)))
    assert not words - {"gzip", "TREC", "UTF", "CSV", "Parquet", "qrels", "trec_eval", "IDCG"}, text
