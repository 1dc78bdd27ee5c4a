"""The adversarial corpus (tests/adversarial/cases.toml) through the Spark engine: every case
whose input Spark reads (a CSV or Parquet file) gives the case's per-query numbers, or the
pandas engine's refusal: the same error key and parameters, the same message, status 2 from
the command line.

Expected numbers are the manifest's hand-written arithmetic (or scikit-learn's ``ndcg_score``),
as in tests/adversarial/test_corpus.py, whose helpers this module uses.
"""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest

import ndcg_core as nc
import ndcg_lab.evaluate as cli
from ndcg_core import spark as nspark
from tests.adversarial.test_corpus import CASES, FILES, ROOT, _api_error, _cli_args, _expected, _options

pytestmark = [
    pytest.mark.spark,
    pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning"),
]

#: Every case is a CSV or Parquet file (one file with its grades): the form Spark reads.
SPARK_CASES = [case for case in CASES if case["file"].endswith((".csv", ".csv.gz", ".parquet"))]
SPARK_ERRORS = [case for case in SPARK_CASES if "error" in case]


def _spark_run(spark: Any, case: dict[str, Any]) -> nc.RunResult:
    return nspark.evaluate_run(nspark.read_run(spark, str(FILES / case["file"])), **_options(case))


@pytest.mark.parametrize("case", SPARK_CASES, ids=[case["name"] for case in SPARK_CASES])
def test_spark_corpus_same_outcome_as_pandas(spark, case):
    """The case's per-query nDCG (in any order), or the pandas engine's error key and params."""
    if "error" in case:
        with pytest.raises(nc.NDCGInputError) as caught:
            _spark_run(spark, case)
        error = caught.value
        assert error.key == case["error"], str(error)
        expected = _api_error(case)
        assert sorted(error.params) == sorted(expected.params), str(error)
        for name, value in expected.params.items():  # NaN: the same value, though not ==
            assert error.params[name] == value or (
                value != value and error.params[name] != error.params[name]
            )
        assert str(error) == str(expected)
        return
    result = _spark_run(spark, case)
    got = dict(zip(result.per_query["query"], result.per_query["ndcg"], strict=True))
    expected = dict(_expected(case))
    assert sorted(got) == sorted(expected)
    for query, value in expected.items():
        assert got[query] == pytest.approx(value, abs=1e-12), query


@pytest.mark.parametrize("case", SPARK_ERRORS, ids=[case["name"] for case in SPARK_ERRORS])
def test_spark_corpus_cli_refuses_as_pandas(spark, case, tmp_path, capsys):
    """``--engine spark`` prints the pandas engine's message and exits with status 2."""
    out = tmp_path / "per_query.csv"
    status = cli.main(_cli_args(case, "--engine", "spark", "--output", str(out)))
    printed = capsys.readouterr()
    assert status == 2, printed.err
    assert printed.err == f"error: {_api_error(case)}\n"
    assert not out.exists()


#: Cases a user ran that printed Java's internals: Latin-1 café and cafè (merged into one query
#: before the pre-read); item 12 of the issue "Read every file trec_eval reads": a Parquet file
#: cut short printed about 40 lines of Java stack trace before the message (pq_truncated: magic
#: bytes and zeros; pq_cut_in_half: a real file cut in half), one damaged inside (its footer
#: intact) ended in "Spark failed: ... collectToPython" with status 1.
CLI_CASES = ("enc_latin1_two_queries", "pq_truncated", "pq_cut_in_half", "pq_damaged_inside")

#: One process runs the command's ``main`` on each case, as ``python -m ndcg_core`` does, with
#: a line to stderr before and after each: one JVM start for the four (each costs ~12 s here),
#: and whatever the JVM writes to the process's stderr is in what the test reads.
_DRIVER = """
import sys
from ndcg_lab.evaluate import main
for name, args in CASES:
    print(f"@@case {name}", file=sys.stderr, flush=True)
    status = main(args)
    print(f"@@status {status}", file=sys.stderr, flush=True)
"""


def test_spark_corpus_cli_subprocess_refuses_with_status_2_and_no_java_trace():
    """As a user runs it (a process of its own, Spark started by the command, ``local[1]``):
    each case ends with the pandas engine's message and status 2, and nothing of Java or
    Python's internals is on stderr, from the JVM's start to its end."""
    cases = [next(case for case in CASES if case["name"] == name) for name in CLI_CASES]
    runs = [(case["name"], _cli_args(case, "--engine", "spark", "--master", "local[1]")) for case in cases]
    result = subprocess.run(
        [sys.executable, "-c", f"CASES = {runs!r}\n{_DRIVER}"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    sections = re.findall(r"^@@case (\S+)\n(.*?)^@@status (\d+)$", result.stderr, re.MULTILINE | re.DOTALL)
    assert [name for name, _, _ in sections] == list(CLI_CASES), result.stderr[-3000:]
    for case, (name, printed, status) in zip(cases, sections, strict=True):
        assert status == "2", (name, printed)
        assert printed.strip().splitlines()[-1] == f"error: {_api_error(case)}", (name, printed)
    for sign in ("Traceback", "Exception", "java.", "at org.", "py4j", "ERROR"):
        assert sign not in result.stderr, result.stderr[-3000:]


@pytest.mark.parametrize(
    ("name", "refused"), [("enc_latin1_two_queries", True), ("ids_quoted_newline", False)]
)
def test_spark_read_run_remote_csv_is_checked_by_spark(spark, name, refused):
    """A path Spark reads itself (a URL: no Python pass first) is read with multiLine, and the
    U+FFFD Spark puts for a byte that is not UTF-8 is refused (without a line)."""
    case = next(case for case in CASES if case["name"] == name)
    url = (FILES / case["file"]).as_uri()
    if refused:
        with pytest.raises(nc.NDCGInputError) as caught:
            nspark.read_run(spark, url)
        assert (caught.value.key, caught.value.params["line"]) == ("not_utf8", "?")
        return
    result = nspark.evaluate_run(nspark.read_run(spark, url), **_options(case))
    assert sorted(result.per_query["query"]) == sorted(query for query, _ in _expected(case))
