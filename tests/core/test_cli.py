"""The command line, ``python -m ndcg_core FILE``: in-process through ``main(argv)``, the function
the console script and ``python -m`` call, with its exit status, standard output and error;
three tests run it as a user runs it, in a subprocess (a start costs ~0.4 s of CPU)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import ndcg_core as nc
import ndcg_lab.evaluate as cli
from ndcg_core.batch import evaluate_run
from ndcg_teach.samples import sample_run

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``main(args)`` in this process: its status (argparse's own exits included), what it
    printed; an exception it does not turn into a message fails the test, as a traceback would."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(list(args))
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 1
    return subprocess.CompletedProcess(list(args), status, out.getvalue(), err.getvalue())


def _subprocess_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m ndcg_core ...`` as a user runs it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "ndcg_core", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )


def _printed_mean(stdout: str) -> float:
    match = re.search(r"^mean nDCG(@\d+)?: ([0-9.]+)$", stdout, flags=re.MULTILINE)
    assert match, stdout
    return float(match.group(2))


@pytest.fixture(scope="module")
def run_csv(tmp_path_factory) -> tuple[Path, pd.DataFrame]:
    run = sample_run(80, seed=4, max_items=25, no_relevant_fraction=0.1)
    path = tmp_path_factory.mktemp("cli") / "run.csv"
    run.to_csv(path, index=False)
    return path, run


def test_cli_prints_mean_and_writes_per_query_rows(run_csv, tmp_path):
    path, run = run_csv
    out = tmp_path / "per_query.csv"
    done = _cli(str(path), "--k", "5", "--ties", "average", "--output", str(out))
    assert done.returncode == 0, done.stderr
    expected = evaluate_run(run, k=5)
    assert _printed_mean(done.stdout) == pytest.approx(expected.mean, abs=1e-9)
    assert f"queries: {expected.n_queries} " in done.stdout
    assert f"queries with nothing relevant: {expected.n_no_relevant} " in done.stdout
    written = pd.read_csv(out)
    # the columns carry their cutoff (dcg@5), so files of two cutoffs cannot be mistaken
    named = expected.per_query.rename(columns={m: f"{m}@5" for m in ("dcg", "idcg", "ndcg")})
    pd.testing.assert_frame_equal(written, named, check_dtype=False, atol=1e-12)


def test_cli_drop_no_relevant_and_parquet_output(run_csv, tmp_path):
    path, run = run_csv
    out = tmp_path / "per_query.parquet"
    done = _cli(str(path), "--gain", "exponential", "--drop-no-relevant", "--output", str(out))
    assert done.returncode == 0, done.stderr
    expected = evaluate_run(run, gain="exponential", no_relevant="drop")
    assert expected.n_no_relevant > 0
    assert _printed_mean(done.stdout) == pytest.approx(expected.mean, abs=1e-9)
    assert "left out of the mean" in done.stdout
    pd.testing.assert_frame_equal(pd.read_parquet(out), expected.per_query, check_dtype=False)


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        (
            "query,relevance,score\na,1,0.5\na,high,0.4\n",
            [],
            "Row 2 of the column 'relevance' holds 'high', which is not a number",
        ),
        ("query,grade,score\na,1,0.5\n", [], "The column 'relevance' is missing"),
        ("", [], "has no rows"),
        ("query,relevance,score\na,1,0.5\n", ["--k", "0"], "k must be a whole number of at least 1"),
    ],
)
def test_cli_bad_input_exits_2_with_message(tmp_path, content, args, message):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    done = (_subprocess_cli if not content else _cli)(str(path), *args)  # one case as a user runs it
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_cli_help_documents_every_option():
    done = _cli("--help")
    assert done.returncode == 0
    for option in (
        "--k",
        "--gain",
        "--discount",
        "--ties",
        "--engine",
        "--query",
        "--relevance",
        "--score",
        "--item",
        "--drop-no-relevant",
        "--output",
        "--master",
        "--no-progress",
        "FILE",
    ):
        assert option in done.stdout


def test_main_shows_progress_bar_on_large_input(run_csv, monkeypatch, capsys):
    """In-process, with the size threshold lowered so the small test file counts as large."""
    path, run = run_csv
    monkeypatch.setattr(cli, "PROGRESS_BYTES", 1)
    assert cli.main([str(path), "--k", "3"]) == 0
    captured = capsys.readouterr()
    assert "read" in captured.err and "100%" in captured.err
    assert _printed_mean(captured.out) == pytest.approx(evaluate_run(run, k=3).mean, abs=1e-9)


def test_main_progress_bar_leaves_no_thread_running(tmp_path, monkeypatch, capsys):
    """tqdm's monitor thread (it lives until the interpreter exits) is never started: a bad
    row ends the run with the bar on, and no thread is left behind to abort the exit (issue
    "Read every file trec_eval reads", item 13)."""
    import threading

    from tqdm import _monitor

    path = tmp_path / "bad.csv"
    path.write_bytes(b"query,relevance,score\nq,1,0.5\nq,0\n")
    monkeypatch.setattr(cli, "PROGRESS_BYTES", 1)
    assert cli.main([str(path)]) == 2
    assert "Row 2 has 2 field(s)" in capsys.readouterr().err
    assert not [thread for thread in threading.enumerate() if isinstance(thread, _monitor.TMonitor)]


# ----------------------------------------------------------------- issue 12


def test_cli_output_csv_escapes_formula_ids(tmp_path):
    """Ids starting with = + - @ reach the CSV with a leading apostrophe; -1 stays a number."""
    path = tmp_path / "run.csv"
    path.write_text(
        "query,item,relevance,score\n=cmd|' /C calc'!A0,a,1,0.5\n@SUM(1),a,1,0.5\n-1,a,1,0.5\n+q,a,1,0.5\n"
    )
    out = tmp_path / "out.csv"
    assert cli.main([str(path), "--output", str(out)]) == 0
    queries = pd.read_csv(out, dtype=str, keep_default_na=False)["query"].tolist()
    assert queries == ["'=cmd|' /C calc'!A0", "'@SUM(1)", "-1", "'+q"]


def test_cli_output_parquet_and_json_keep_ids_exact(tmp_path):
    path = tmp_path / "run.csv"
    path.write_text("query,item,relevance,score\n=cmd,a,1,0.5\n1.0,a,1,0.5\n1,a,0,0.5\n")
    parquet, json_out = tmp_path / "out.parquet", tmp_path / "out.json"
    assert cli.main([str(path), "--output", str(parquet)]) == 0
    assert cli.main([str(path), "--output", str(json_out)]) == 0
    assert pd.read_parquet(parquet)["query"].tolist() == ["=cmd", "1.0", "1"]
    import json

    assert [row["query"] for row in json.loads(json_out.read_text())] == ["=cmd", "1.0", "1"]


def test_cli_keeps_numeric_looking_queries_apart(tmp_path, capsys):
    """1 and 1.0 are two queries: mean of 1 and 1/log2(3), not one merged query."""
    path = tmp_path / "run.csv"
    path.write_text("query,item,relevance,score\n1,a,1,0.9\n1,b,0,0.8\n1.0,a,0,0.9\n1.0,b,1,0.8\n")
    assert cli.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "queries: 2 (2 in the mean)" in out
    assert _printed_mean(out) == pytest.approx((1 + 1 / 1.584962500721156) / 2, abs=1e-10)


def test_cli_extra_field_exits_2_naming_the_row(tmp_path):
    path = tmp_path / "run.csv"
    path.write_text("query,relevance,score\nq1,d1,3,0.9\nq1,d2,0,0.8\n")
    result = _cli(str(path))
    assert result.returncode == 2
    assert "error: Row 1 has 4 field(s), but the header has 3" in result.stderr
    assert "Traceback" not in result.stderr


def test_cli_ties_ignore_names_the_alternatives(run_csv):
    path, _ = run_csv
    result = _cli(str(path), "--ties", "ignore")
    assert result.returncode == 2
    assert "'input'" in result.stderr and "'trec_eval'" in result.stderr


def test_cli_overflow_exits_2_naming_the_grade(tmp_path):
    path = tmp_path / "run.csv"
    path.write_text("query,relevance,score\nq,1100,0.9\nq,0,0.8\n")
    result = _cli(str(path), "--gain", "exponential")
    assert result.returncode == 2
    assert "Row 1 of the column 'relevance' holds the grade 1100" in result.stderr


def test_cli_help_says_csv_output_is_escaped():
    text = " ".join(cli._parser().format_help().split())  # argparse wraps lines anywhere
    assert "leading apostrophe" in text and "Parquet and JSON output are exact" in text


# --------------------------------------------------------------------------- --qrels QRELS RUN [RUN ...]


@pytest.fixture(scope="module")
def trec_files(tmp_path_factory) -> tuple[Path, list[Path], pd.DataFrame, dict[str, pd.DataFrame]]:
    from ndcg_teach.samples import sample_trec

    qrels, runs = sample_trec(seed=3)
    folder = tmp_path_factory.mktemp("trec")
    qrels_path = folder / "qrels.txt"
    qrels_path.write_text(
        "".join(
            f"{q} 0 {d} {g:g}\n" for q, d, g in qrels[["query", "item", "relevance"]].itertuples(index=False)
        )
    )
    paths = []
    for name, run in runs.items():
        path = folder / f"{name}.run"
        path.write_text(
            "".join(
                f"{q}\tQ0\t{d}\t{rank}\t{s!r}\t{name}\n"
                for rank, (q, d, s) in enumerate(run[["query", "item", "score"]].itertuples(index=False), 1)
            )
        )
        paths.append(path)
    return qrels_path, paths, qrels, runs


def test_main_qrels_prints_one_line_per_run_with_the_mean(trec_files, capsys):
    qrels_path, paths, qrels, runs = trec_files
    assert cli.main(["--qrels", str(qrels_path), *map(str, paths), "--k", "10"]) == 0
    lines = capsys.readouterr().out.splitlines()[: len(runs)]
    expected = nc.evaluate_trec(qrels, runs, k=10).means
    for line, row in zip(lines, expected.to_dict("records"), strict=True):
        assert line.startswith(row["run"])
        assert f"nDCG@10 {row['ndcg@10']:.4f}" in line


def test_main_qrels_output_has_one_row_per_run_and_query(trec_files, tmp_path):
    qrels_path, paths, qrels, runs = trec_files
    out = tmp_path / "rows.parquet"
    args = [
        "--qrels",
        str(qrels_path),
        *map(str, paths),
        "--k",
        "5,10",
        "--unjudged",
        "drop",
        "--output",
        str(out),
    ]
    assert cli.main(args) == 0
    expected = nc.evaluate_trec(qrels, runs, k="5,10", unjudged="drop").per_query
    pd.testing.assert_frame_equal(pd.read_parquet(out), expected, check_dtype=False)


def test_main_qrels_format_json_gives_the_means_and_options(trec_files, capsys):
    import json

    qrels_path, paths, qrels, runs = trec_files
    assert cli.main(["--qrels", str(qrels_path), str(paths[0]), "--missing", "drop", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    expected = nc.evaluate_trec(qrels, {paths[0].stem: runs[paths[0].stem]}, missing="drop").means
    assert document["means"][0]["ndcg@10"] == pytest.approx(expected.loc[0, "ndcg@10"], abs=1e-15)
    assert document["options"]["missing"] == "drop"
    assert document["options"]["ties"] == "trec_eval"


def test_main_drop_no_relevant_is_no_relevant_drop(run_csv, capsys):
    path, _ = run_csv
    assert cli.main([str(path), "--drop-no-relevant"]) == 0
    old = capsys.readouterr().out
    assert cli.main([str(path), "--no-relevant", "drop"]) == 0
    assert capsys.readouterr().out == old


def test_main_single_file_with_several_cutoffs_prints_each_mean(run_csv, capsys):
    path, run = run_csv
    assert cli.main([str(path), "--k", "3,5"]) == 0
    out = capsys.readouterr().out
    for k in (3, 5):
        assert f"mean nDCG@{k}: {evaluate_run(run, k=k).mean:.10f}" in out


def test_main_refuses_qrels_options_without_qrels(run_csv, capsys):
    path, _ = run_csv
    with pytest.raises(SystemExit) as stop:
        cli.main([str(path), "--ideal", "pool"])
    assert stop.value.code == 2
    assert "--ideal needs --qrels" in capsys.readouterr().err


def test_main_qrels_bad_run_line_exits_2_naming_file_and_line(trec_files, tmp_path, capsys):
    qrels_path, _, _, _ = trec_files
    bad = tmp_path / "bad.run"
    bad.write_text("1 Q0 d1 1 0.5 t\n1 Q0 d2 2 high t\n")
    assert cli.main(["--qrels", str(qrels_path), str(bad)]) == 2
    err = capsys.readouterr().err
    assert "Line 2 of the file 'bad.run'" in err
    assert "'high'" in err


def test_cli_qrels_subprocess_equals_the_api(trec_files):
    qrels_path, paths, qrels, runs = trec_files
    done = _subprocess_cli("--qrels", str(qrels_path), *map(str, paths), "--k", "5,10", "--format", "json")
    assert done.returncode == 0, done.stderr
    import json

    document = json.loads(done.stdout)
    expected = nc.evaluate_trec(qrels, runs, k="5,10").means
    assert [row["run"] for row in document["means"]] == expected["run"].tolist()
    for row, (_, want) in zip(document["means"], expected.iterrows(), strict=True):
        assert row["ndcg@5"] == pytest.approx(want["ndcg@5"], abs=1e-15)
        assert row["ndcg@10"] == pytest.approx(want["ndcg@10"], abs=1e-15)


def _paired(per_query: pd.DataFrame, run: str, baseline: str) -> tuple[list[float], list[float]]:
    table = per_query.pivot(index="query", columns="run", values="ndcg@10").dropna()
    return table[run].tolist(), table[baseline].tolist()


def test_main_qrels_compares_every_run_with_the_first_by_scipy_t_test(trec_files, capsys):
    from scipy.stats import ttest_rel

    qrels_path, paths, qrels, runs = trec_files
    assert cli.main(["--qrels", str(qrels_path), *map(str, paths), "--k", "10", "--format", "json"]) == 0
    (comparison,) = json.loads(capsys.readouterr().out)["comparisons"]
    per_query = nc.evaluate_trec(qrels, runs, k=10).per_query
    baseline = paths[0].stem
    assert comparison["baseline"] == baseline
    for row in comparison["tests"]:
        run_values, base_values = _paired(per_query, row["run"], baseline)
        assert row["p_t_test"] == pytest.approx(ttest_rel(run_values, base_values).pvalue, rel=1e-12)
        diffs = [a - b for a, b in zip(run_values, base_values, strict=True)]
        assert row["mean_difference"] == pytest.approx(sum(diffs) / len(diffs), abs=1e-15)


def test_main_qrels_comparison_leaves_out_queries_a_run_drops(trec_files, capsys):
    qrels_path, paths, qrels, runs = trec_files
    args = ["--qrels", str(qrels_path), *map(str, paths), "--missing", "drop", "--format", "json"]
    assert cli.main(args) == 0
    (comparison,) = json.loads(capsys.readouterr().out)["comparisons"]
    per_query = nc.evaluate_trec(qrels, runs, missing="drop").per_query
    answered_by_all = per_query.dropna(subset=["ndcg@10"]).groupby("query")["run"].count() == len(runs)
    assert comparison["n_queries"] == int(answered_by_all.sum()) < per_query["query"].nunique()


def test_main_qrels_comparison_repeats_with_the_same_seed_and_names_it(trec_files, capsys):
    qrels_path, paths, _, _ = trec_files
    args = ["--qrels", str(qrels_path), *map(str, paths), "--seed", "7", "--resamples", "2000"]
    assert cli.main(args) == 0
    first = capsys.readouterr().out
    assert cli.main(args) == 0
    assert capsys.readouterr().out == first
    assert "seed 7" in first and "2000 resamples" in first


def test_main_qrels_unknown_baseline_exits_2_naming_it(trec_files, capsys):
    qrels_path, paths, _, _ = trec_files
    assert cli.main(["--qrels", str(qrels_path), *map(str, paths), "--baseline", "bm99"]) == 2
    assert "'bm99'" in capsys.readouterr().err


def test_cli_k_past_64_bits_exits_2_naming_k(tmp_path):
    """--k 9223372036854775808 (2^63) with --qrels: a message naming --k, no traceback."""
    qrels, run = tmp_path / "qrels.txt", tmp_path / "r.run"
    qrels.write_text("q1 0 d1 1\n")
    run.write_text("q1 Q0 d1 1 0.9 r\n")
    done = _cli("--qrels", str(qrels), str(run), "--k", "9223372036854775808")
    assert done.returncode == 2
    assert "argument --k: k must be at most 9223372036854775807" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


# ---------------------------------------------------------------- hostile TREC input (items 1, 8, 9)


def test_main_qrels_skips_comment_lines(trec_files, tmp_path, capsys):
    """``# judged in 2024`` on top of the qrels: the same means as without it."""
    qrels_path, paths, _, _ = trec_files
    commented = tmp_path / "cq.txt"
    commented.write_bytes(b"# judged in 2024\n" + qrels_path.read_bytes() + b"  # the end 1 2\n")
    assert cli.main(["--qrels", str(qrels_path), str(paths[0]), "--format", "json"]) == 0
    plain = json.loads(capsys.readouterr().out)["means"]
    assert cli.main(["--qrels", str(commented), str(paths[0]), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["means"] == plain


def test_main_qrels_gzip_bomb_exits_2_naming_the_file_and_the_ratio(trec_files, tmp_path, capsys):
    import gzip

    _, paths, _, _ = trec_files
    bomb = tmp_path / "bomb.gz"
    bomb.write_bytes(gzip.compress(b"\n" * (8 << 20), compresslevel=9))
    assert cli.main(["--qrels", str(bomb), str(paths[0])]) == 2
    err = capsys.readouterr().err
    assert "'bomb.gz'" in err and "20 times" in err


def test_main_max_decompressed_size_is_settable_and_named(trec_files, tmp_path, capsys):
    import gzip

    qrels_path, paths, _, _ = trec_files
    packed = tmp_path / "qrels.gz"
    packed.write_bytes(gzip.compress(qrels_path.read_bytes()))
    assert cli.main(["--qrels", str(packed), str(paths[0]), "--max-decompressed-size", "100"]) == 2
    err = capsys.readouterr().err
    assert "'qrels.gz'" in err and "100 bytes" in err and "--max-decompressed-size" not in err
    assert cli.main(["--qrels", str(packed), str(paths[0])]) == 0


def test_cli_help_states_the_default_decompressed_limit():
    from ndcg_core.trec import MAX_TEXT_SIZE

    text = " ".join(cli._parser().format_help().split())
    assert "--max-decompressed-size" in text
    assert f"default: {MAX_TEXT_SIZE}" in text


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_cli_dev_zero_as_qrels_exits_2_without_a_traceback(trec_files):
    _, paths, _, _ = trec_files
    done = _subprocess_cli("--qrels", "/dev/zero", str(paths[0]), "--max-decompressed-size", "1048576")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "'zero'" in done.stderr and "1048576" in done.stderr


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_main_dev_zero_as_a_run_exits_2(trec_files, capsys):
    qrels_path, _, _, _ = trec_files
    assert cli.main(["--qrels", str(qrels_path), "/dev/zero", "--max-decompressed-size", "65536"]) == 2
    assert "'zero'" in capsys.readouterr().err


def test_main_long_document_id_exits_2_naming_the_line(trec_files, tmp_path, capsys):
    qrels_path, _, _, _ = trec_files
    run = tmp_path / "long.run"
    run.write_bytes(b"1 Q0 d1 1 0.5 t\n1 Q0 " + b"x" * 5000 + b" 2 0.4 t\n")
    assert cli.main(["--qrels", str(qrels_path), str(run)]) == 2
    err = capsys.readouterr().err
    assert "Line 2 of the file 'long.run'" in err and "1000" in err


def test_main_resamples_too_many_exits_2_naming_the_limit(trec_files, capsys):
    qrels_path, paths, _, _ = trec_files
    assert cli.main(["--qrels", str(qrels_path), *map(str, paths[:2]), "--resamples", "1000000000"]) == 2
    err = capsys.readouterr().err
    assert "1000000000" in err and "1000000" in err


# ------------------------------------------ issue "Read every file trec_eval reads", item 16


@pytest.mark.parametrize("which", ["qrels", "run", "run_relative"])
def test_main_refuses_an_output_that_is_an_input(trec_files, capsys, which, monkeypatch):
    """--output naming the qrels or a run file overwrote it and exited 0: refused with status
    2, the file untouched."""
    qrels, runs, _, _ = trec_files
    target = qrels if which == "qrels" else runs[0]
    before = target.read_bytes()
    output = str(target)
    if which == "run_relative":
        monkeypatch.chdir(target.parent)
        output = f"./{target.name}"
    status = cli.main(["--qrels", str(qrels), *map(str, runs), "--output", output])
    assert status == 2
    assert capsys.readouterr().err == f"error: {nc.NDCGInputError('output_is_input', name=output)}\n"
    assert target.read_bytes() == before


def test_main_refuses_an_output_that_is_the_run_file(run_csv, capsys):
    path, _ = run_csv
    before = path.read_bytes()
    assert cli.main([str(path), "--output", str(path)]) == 2
    assert capsys.readouterr().err == f"error: {nc.NDCGInputError('output_is_input', name=str(path))}\n"
    assert path.read_bytes() == before


def test_main_output_still_replaces_a_file_that_is_not_an_input(run_csv, tmp_path):
    path, _ = run_csv
    out = tmp_path / "old.csv"
    out.write_text("old\n")
    assert cli.main([str(path), "--output", str(out)]) == 0
    assert out.read_text().startswith("query,")
