"""TREC qrels and runs end to end: ``ndcg_core.evaluate_trec`` against pytrec_eval and ranx.

Run by hand (not a test): ``.venv/bin/python bench/bench_trec.py`` (``--help`` for options).

Seeded files in a temporary folder: a TREC run of ``--queries`` x ``--depth`` lines (default
10,000 x 1,000 = 10,000,000) and its qrels (100 judged documents per query, 60 of them
retrieved, grades 0-3). Scores are float32 values written exactly, so trec_eval's float32
scores order the documents as ``ndcg_core`` does, and every tool's nDCG@10 must agree.

Each tool goes *end to end*, from the files to a per-query CSV, in this one process:

- ``ndcg_core``: ``evaluate_trec(qrels_path, [run_path], k=10)``, ``write_table(per_query)``.
- pytrec_eval: ``parse_qrel`` / ``parse_run`` on the same files, ``RelevanceEvaluator(...,
  {"ndcg_cut_10"}).evaluate``, the per-query values written with ``csv``.
- ranx: ``Qrels.from_file`` / ``Run.from_file`` (``kind="trec"``), ``evaluate(..., "ndcg@10",
  make_comparable=True)``, the per-query values written with ``csv``. Numba's compilation is
  done before timing, on a small collection.

Then ``python -m ndcg_core --qrels QRELS RUN --k 10 --output OUT`` as a subprocess on a run of
``--cli-lines`` lines (default 1,000,000): wall time, process start included.

Time is wall clock and CPU time of this process (``time.process_time``: all threads, so
pyarrow's parallel reader costs its CPU there). Every tool first runs once on a small
collection, so imports (pandas and pyarrow for ``ndcg_core``) and ranx's Numba compilation
are not timed; the subprocess line is where start-up counts. With ``--repeat N`` the tools
take turns N times and each one's least CPU time is kept (on a shared machine the least is
the one least disturbed). Prints the ratios and the largest difference of the means (must be
below 1e-12; with ties broken differently ranx could differ).
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def write_collection(folder: Path, n_queries: int, depth: int, seed: int) -> tuple[Path, Path]:
    """A TREC run (``query Q0 doc rank score tag``) and its qrels, written with pyarrow."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv

    rng = np.random.default_rng(seed)
    n = n_queries * depth
    query = np.repeat(np.arange(1, n_queries + 1), depth)
    position = np.tile(np.arange(depth), n_queries)
    doc = (rng.integers(0, 2_000_000, size=n) // depth) * depth + position  # unique per query
    score = rng.random(n, dtype=np.float32).astype(np.float64)  # float32 values, written exactly
    # a run file lists each query's documents by rank
    order = np.lexsort((-score, query))
    query, doc, score = query[order], doc[order], score[order]
    rank = np.tile(np.arange(1, depth + 1), n_queries)

    def text(prefix: str, values: np.ndarray) -> Any:
        return pc.binary_join_element_wise(prefix, pc.cast(pa.array(values), pa.string()), "")

    query_text = pc.cast(pa.array(query), pa.string())
    run = pa.table(
        {
            "q": query_text,
            "z": pa.array(np.full(n, "Q0", dtype=object)),
            "d": text("D", doc),
            "r": pa.array(rank),
            "s": pa.array(score),
            "t": pa.array(np.full(n, "bench", dtype=object)),
        }
    )
    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    run_path = folder / "run.txt"
    pacsv.write_csv(run, str(run_path), options)
    # qrels: 60 retrieved documents and 40 others per query
    judged = np.zeros(n, dtype=bool)
    for_query = rng.random((n_queries, depth)).argsort(axis=1)[:, : min(60, depth)]
    judged[(np.arange(n_queries)[:, None] * depth + for_query).ravel()] = True
    extra_query = np.repeat(np.arange(1, n_queries + 1), 40)
    grades_run = rng.choice(4, size=int(judged.sum()), p=(0.5, 0.25, 0.15, 0.1))
    grades_extra = rng.choice(4, size=extra_query.size, p=(0.5, 0.25, 0.15, 0.1))
    qrels = pa.table(
        {
            "q": pa.concat_arrays(
                [query_text.filter(pa.array(judged)), pc.cast(pa.array(extra_query), pa.string())]
            ),
            "i": pa.array(np.zeros(int(judged.sum()) + extra_query.size, dtype=np.int64)),
            "d": pa.concat_arrays(
                [
                    run.column("d").combine_chunks().filter(pa.array(judged)),
                    text("E", np.arange(extra_query.size)),
                ]
            ),
            "g": pa.array(np.concatenate([grades_run, grades_extra])),
        }
    )
    qrels_path = folder / "qrels.txt"
    pacsv.write_csv(qrels, str(qrels_path), options)
    return qrels_path, run_path


def timed(function: Callable[[], float]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, the function's value)."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = function()
    return time.perf_counter() - wall, time.process_time() - cpu, value


def ours(qrels: Path, run: Path, out: Path) -> float:
    from ndcg_core.export import write_table
    from ndcg_core.trec import evaluate_trec

    result = evaluate_trec(qrels, [run], k=10)
    write_table(result.per_query, out)
    return float(result.means.loc[0, "ndcg"])


def write_rows(values: dict[str, float], out: Path) -> None:
    with open(out, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["query", "ndcg"])
        writer.writerows(values.items())


def pytrec(qrels: Path, run: Path, out: Path) -> float:
    import pytrec_eval

    with open(qrels) as handle:
        judgments = pytrec_eval.parse_qrel(handle)
    with open(run) as handle:
        scores = pytrec_eval.parse_run(handle)
    result = pytrec_eval.RelevanceEvaluator(judgments, {"ndcg_cut_10"}).evaluate(scores)
    values = {query: measures["ndcg_cut_10"] for query, measures in result.items()}
    write_rows(values, out)
    return float(np.mean(list(values.values())))


def ranx_end_to_end(qrels: Path, run: Path, out: Path) -> float:
    import ranx

    judgments = ranx.Qrels.from_file(str(qrels), kind="trec")
    scores = ranx.Run.from_file(str(run), kind="trec")
    mean = ranx.evaluate(judgments, scores, "ndcg@10", make_comparable=True)
    write_rows(dict(scores.scores["ndcg@10"]), out)
    return float(mean)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=1_000)
    parser.add_argument("--cli-lines", type=int, default=1_000_000, help="lines of the run of the subprocess")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-peers", action="store_true", help="only ndcg_core and the subprocess")
    parser.add_argument("--repeat", type=int, default=1, help="turns per tool; the least CPU time is kept")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()}; cores: {os.cpu_count()}")
    with tempfile.TemporaryDirectory(prefix="bench_trec_") as name:
        folder = Path(name)
        qrels, run = write_collection(folder, args.queries, args.depth, args.seed)
        n_lines = args.queries * args.depth
        print(
            f"run: {n_lines:,} lines ({run.stat().st_size / 1e6:.0f} MB); qrels: {qrels.stat().st_size / 1e6:.1f} MB"
        )
        tools: dict[str, Callable[[Path, Path, Path], float]] = {"ndcg_core": ours}
        if not args.no_peers:
            tools.update({"pytrec_eval": pytrec, "ranx": ranx_end_to_end})
        warm = folder / "warm"
        warm.mkdir()
        small = write_collection(warm, 5, 20, 1)
        for name, tool in tools.items():  # imports, and Numba's compilation for ranx
            tool(*small, warm / f"{name}.csv")
        runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in tools}
        for _ in range(max(args.repeat, 1)):
            for name, tool in tools.items():
                runs[name].append(
                    timed(lambda tool=tool, name=name: tool(qrels, run, folder / f"{name}.csv"))
                )
        results = {name: min(values, key=lambda value: value[1]) for name, values in runs.items()}
        wall, cpu, mean = results["ndcg_core"]
        print(f"ndcg_core     wall {wall:7.2f} s  cpu {cpu:7.2f} s  mean {mean:.12f}")
        base = results["ndcg_core"]
        for peer in tools:
            if peer == "ndcg_core":
                continue
            wall, cpu, mean = results[peer]
            print(
                f"{peer:<12}  wall {wall:7.2f} s  cpu {cpu:7.2f} s  mean {mean:.12f}  "
                f"ndcg_core faster: {wall / base[0]:5.1f}x wall, {cpu / base[1]:5.1f}x cpu  "
                f"|mean difference| {abs(mean - base[2]):.1e}"
            )
        # the command line as a user runs it, on a smaller run
        cli_queries = max(args.cli_lines // args.depth, 1)
        cli_folder = folder / "cli"
        cli_folder.mkdir()
        cli_qrels, cli_run = write_collection(cli_folder, cli_queries, args.depth, args.seed + 1)
        command = [
            sys.executable,
            "-m",
            "ndcg_core",
            "--qrels",
            str(cli_qrels),
            str(cli_run),
            "--k",
            "10",
            "--output",
            str(cli_folder / "out.csv"),
        ]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
        wall = time.perf_counter() - start
        print(
            f"python -m ndcg_core on {cli_queries * args.depth:,} lines: {wall:.2f} s wall (process start included); "
            f"exit {done.returncode}: {done.stdout.strip() or done.stderr.strip()}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
