"""Command line: ``python -m ndcg_core FILE`` prints a run's mean nDCG@k and writes per-query rows.

Exit status: 0 on success, 2 on bad input (the message, no traceback) or a missing optional
engine, 1 if the output cannot be written.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .batch import TIES, RunResult, evaluate_run, read_run, summarize
from .discounting import DISCOUNTS
from .export import write_table
from .gains import GAINS
from .validate import NDCGInputError

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: Files from this size on get a progress bar (unless --no-progress).
PROGRESS_BYTES = 8 * 1024 * 1024


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m ndcg_core",
        description=(
            "Mean nDCG@k of a run: a CSV or Parquet file with one row per (query, item) "
            "holding the query id, the item's relevance grade and the system's score. "
            "Prints the mean nDCG@k, the number of queries and of queries with nothing "
            "relevant; writes one row per query (query, n_items, dcg, idcg, ndcg) with --output."
        ),
        epilog=(
            "Ties: 'average' (default) gives every item of a tie the group's mean gain, "
            "as scikit-learn's ndcg_score; 'optimistic' / 'pessimistic' break ties by "
            "relevance, best / worst first; 'input' keeps the file's row order (as LightGBM "
            "and XGBoost); 'trec_eval' puts the larger item id (compared as text) first, as "
            "trec_eval does, and needs the item column. scikit-learn's 'ignore' (an arbitrary "
            "order) is not defined for a run of many queries and is refused. "
            "Ids are text: query and item ids are kept exactly as written (1 and 1.0 are two "
            "queries); only an empty field is missing. "
            "CSV output is safe to open in a spreadsheet: a text cell starting with =, +, -, @, "
            "tab or carriage return (a formula) is written with a leading apostrophe, e.g. "
            "'=cmd; plain numbers such as -1 are unchanged. Parquet and JSON output are exact. "
            "Exit status: 0 ok, 2 bad input (message on stderr), 1 output not writable. "
            "Example: python -m ndcg_core run.csv --k 10 --output per_query.csv"
        ),
    )
    parser.add_argument("file", metavar="FILE", help="the run: a CSV file with a header row, or Parquet")
    parser.add_argument(
        "--k", type=int, default=None, metavar="K", help="cutoff: nDCG@K (default: each query's whole list)"
    )
    parser.add_argument(
        "--gain",
        choices=tuple(GAINS),
        default="linear",
        help="gain of a grade: linear = rel, exponential = 2^rel - 1 (default: linear)",
    )
    parser.add_argument(
        "--discount",
        choices=DISCOUNTS,
        default="log2",
        help="discount of position i: log2 = 1/log2(i+1), jarvelin = none before "
        "position 2, then 1/log2(i) (default: log2)",
    )
    # Not argparse choices: a refused name ('ignore') gets the core's message, which says why.
    parser.add_argument(
        "--ties",
        default="average",
        metavar="{" + ",".join(TIES) + "}",
        help="how tied scores are ranked (default: average)",
    )
    parser.add_argument(
        "--engine",
        choices=("pandas", "spark"),
        default="pandas",
        help="pandas (this machine, default) or spark (needs PySpark and Java 17+)",
    )
    parser.add_argument("--query", default="query", metavar="COL", help="query id column (default: query)")
    parser.add_argument(
        "--relevance",
        default="relevance",
        metavar="COL",
        help="relevance grade column, graded or 0/1 (default: relevance)",
    )
    parser.add_argument(
        "--score", default="score", metavar="COL", help="score column; higher ranks first (default: score)"
    )
    parser.add_argument(
        "--item",
        default="item",
        metavar="COL",
        help="item id column, checked for repeated (query, item) pairs when present (default: item)",
    )
    parser.add_argument(
        "--drop-no-relevant",
        action="store_true",
        help="leave queries with nothing relevant (IDCG = 0) out of the mean "
        "(their nDCG is written as empty); by default they count as 0, "
        "like scikit-learn. Their number is printed either way",
    )
    parser.add_argument(
        "--output",
        metavar="OUT",
        help="write the per-query rows to OUT: .csv (text cells that a spreadsheet "
        "would run as a formula get a leading apostrophe), .parquet or "
        ".json (exact); '-' for CSV on stdout",
    )
    parser.add_argument(
        "--master", default="local[*]", help="Spark master URL for --engine spark (default: local[*])"
    )
    parser.add_argument(
        "--no-progress",
        action="store_true",
        help=f"no progress bar (shown on stderr for files of {PROGRESS_BYTES // 2**20} MB or more)",
    )
    return parser


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "k": args.k,
        "gain": args.gain,
        "discount": args.discount,
        "ties": args.ties,
        "no_relevant": "drop" if args.drop_no_relevant else "zero",
        "query": args.query,
        "relevance": args.relevance,
        "score": args.score,
        "item": args.item,
    }


def _ids(args: argparse.Namespace) -> tuple[str, ...]:
    """The id columns, read as text."""
    return (args.query, args.item)


def _wants_progress(args: argparse.Namespace) -> bool:
    try:
        return not args.no_progress and os.path.getsize(args.file) >= PROGRESS_BYTES
    except OSError:
        return False


def _run_pandas(args: argparse.Namespace, progress: bool) -> RunResult:
    if not progress:
        return evaluate_run(read_run(args.file, ids=_ids(args)), **_options(args))
    from tqdm import tqdm

    with tqdm(
        total=os.path.getsize(args.file), unit="B", unit_scale=True, desc="read", file=sys.stderr
    ) as bar:

        def advance(done: int, total: int) -> None:
            bar.update(done - bar.n)

        frame = read_run(args.file, on_progress=advance, ids=_ids(args))
    with tqdm(total=1, desc=f"rank and sum {len(frame):,} rows", file=sys.stderr) as bar:
        result = evaluate_run(frame, **_options(args))
        bar.update(1)
    return result


def _run_spark(args: argparse.Namespace, progress: bool) -> RunResult:
    import warnings

    from . import spark as engine

    # PySpark warns about pandas 3 on every toPandas(); one per-query table converts fine.
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")

    stages = ("start Spark", "read and check", "rank and sum")
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(stages), desc=stages[0], file=sys.stderr)

    def step(index: int) -> None:
        if bar is not None:
            bar.update(1)
            if index + 1 < len(stages):
                bar.set_description(stages[index + 1])

    try:
        session = engine.session(args.master)
        session.sparkContext.setLogLevel("ERROR")
        step(0)
        frame = engine.read_run(session, args.file)
        options = _options(args)
        per_query = engine.evaluate(frame, **options)
        step(1)
        rows: pd.DataFrame = per_query.toPandas()
        table = rows.sort_values("query", ignore_index=True)
        step(2)
    finally:
        if bar is not None:
            bar.close()
    summary = summarize(table, no_relevant=options["no_relevant"])
    return RunResult(
        per_query=table,
        mean=summary.mean,
        n_queries=summary.n_queries,
        n_no_relevant=summary.n_no_relevant,
        n_in_mean=summary.n_in_mean,
        k=args.k,
        gain=args.gain,
        discount=args.discount,
        ties=args.ties,
        no_relevant=options["no_relevant"],
    )


def _report(result: RunResult, output: str | None) -> list[str]:
    name = "nDCG" if result.k is None else f"nDCG@{result.k}"
    policy = "left out of the mean" if result.no_relevant == "drop" else "counted as 0 in the mean"
    lines = [
        f"mean {name}: {result.mean:.10f}",
        f"queries: {result.n_queries} ({result.n_in_mean} in the mean)",
        f"queries with nothing relevant: {result.n_no_relevant} ({policy})",
    ]
    if output is not None and output != "-":
        lines.append(f"per-query rows: {output}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    progress = _wants_progress(args)
    try:
        result = _run_spark(args, progress) if args.engine == "spark" else _run_pandas(args, progress)
    except NDCGInputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except ImportError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # Spark's own failures (no Java, a lost executor): no traceback
        if args.engine != "spark" or not type(error).__module__.startswith(("pyspark", "py4j")):
            raise
        print(f"error: Spark failed: {str(error).strip().splitlines()[0][:500]}", file=sys.stderr)
        return 1
    if args.output is not None:
        try:
            write_table(result.per_query, args.output)
        except OSError as error:
            print(f"error: could not write {args.output!r}: {error.strerror or error}", file=sys.stderr)
            return 1
    # With --output -, the rows go to stdout and the summary to stderr, so stdout stays a CSV.
    stream = sys.stderr if args.output == "-" else sys.stdout
    print("\n".join(_report(result, args.output)), file=stream)
    return 0


if __name__ == "__main__":
    sys.exit(main())
