"""``ndcg-lab evaluate`` (also ``python -m ndcg_core``): ``ndcg-lab evaluate FILE`` prints a run's mean nDCG@k and writes per-query rows;
``ndcg-lab evaluate --qrels QRELS RUN [RUN ...]`` evaluates TREC runs against relevance
judgments (trec_eval's conventions by default) and prints one line per run.

Exit status: 0 on success, 2 on bad input (the message, no traceback) or a missing optional
engine, 1 if the output cannot be written.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ndcg_core.options import (
    CHOICES,
    DESCRIPTIONS,
    MAX_RESAMPLES,
    QRELS_ONLY,
    TREC_DEFAULTS,
    Options,
    measure_columns,
    parse_cutoffs,
)
from ndcg_core.trec import GZIP_RATIO, INPUT_FORMATS, MAX_TEXT_SIZE, run_name
from ndcg_core.validate import NDCGInputError, fail

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ndcg_core.batch import RunResult
    from ndcg_core.significance import Comparison
    from ndcg_core.trec import TrecResult

# The one-file engine (ndcg_core.batch), the comparison and the table writer are built on
# pandas: they are imported where they are used, so that a TREC text report (qrels and one
# run, no --output) never loads pandas (see bench/README.md, "start-up").

#: Files from this size on get a progress bar (unless --no-progress).
PROGRESS_BYTES = 8 * 1024 * 1024


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m ndcg_core",
        description=(
            "Mean nDCG@k of a run: a CSV or Parquet file with one row per (query, item) "
            "holding the query id, the item's relevance grade and the system's score. "
            "Prints the mean nDCG@k, the number of queries and of queries with nothing "
            "relevant; writes one row per query (query, n_items, dcg@K, idcg@K, ndcg@K; dcg, idcg, "
            "ndcg with --k none) with --output. "
            "With --qrels QRELS, each FILE is a run without grades (TREC 'query Q0 doc rank score "
            "tag', or CSV / Parquet with query, item, score; gzip or not) evaluated against the "
            "judgments in QRELS (TREC 'query iter doc grade', or CSV / Parquet with query, item, "
            "relevance): one line per run, and with --output one row per (run, query) with the "
            "columns run, query, n_items, ndcg@K, dcg@K, idcg@K, judged@K (for each cutoff K; without "
            "@K for --k none), missing."
        ),
        epilog=(
            "Ties: 'average' (default without --qrels) gives every item of a tie the group's mean gain, "
            "as scikit-learn's ndcg_score; 'optimistic' / 'pessimistic' break ties by "
            "relevance, best / worst first; 'input' keeps the file's row order (as LightGBM "
            "and XGBoost); 'trec_eval' (default with --qrels) puts the larger item id (compared as "
            "text) first, as trec_eval does, and needs the item column. scikit-learn's 'ignore' (an "
            "arbitrary order) is not defined for a run of many queries and is refused. "
            "With --qrels the defaults are trec_eval's: the mean equals trec_eval -c -m ndcg_cut.K "
            "(ideal from the judged pool, unjudged items gain 0, a judged query the run does not "
            "answer counts as 0); --missing drop equals pytrec_eval; the rank column of a TREC run is "
            "ignored (the order is the score's, as in trec_eval). "
            "Ids are text: query and item ids are kept exactly as written (1 and 1.0 are two "
            "queries); only an empty field is missing. "
            "CSV output is safe to open in a spreadsheet: a text cell starting with =, +, -, @, "
            "tab or carriage return (a formula) is written with a leading apostrophe, e.g. "
            "'=cmd; plain numbers such as -1 are unchanged. Parquet and JSON output are exact. "
            "Exit status: 0 ok, 2 bad input (message on stderr), 1 output not writable. "
            "Examples: python -m ndcg_core run.csv --k 10 --output per_query.csv; "
            "python -m ndcg_core --engine spark --table db.pred --k 10 --output-table db.result; "
            "python -m ndcg_core --qrels qrels.txt bm25.run dense.run --k 5,10,20; "
            "python -m ndcg_core --qrels qrels.txt x/bm25.run y/bm25.run --name x --name y "
            "--format trec_eval"
        ),
    )
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="the run: a CSV file with a header row, or Parquet; with --qrels, one or more runs "
        "(TREC, CSV or Parquet), each named after its file",
    )
    parser.add_argument(
        "--qrels",
        metavar="QRELS",
        help="relevance judgments (TREC qrels, CSV or Parquet; gzip or not): evaluate the runs "
        "the IR way, the ideal from every judged item of a query",
    )
    parser.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        default=None,
        help="with --qrels: how the qrels and every run file are read. auto (default): from the "
        "first line that is not a comment, 4 (qrels) or 6 and more (run) fields separated by spaces "
        "or tabs is TREC, commas or not, another line with a comma is a CSV header; trec or csv "
        "force it. Parquet is recognised by its magic bytes",
    )
    parser.add_argument(
        "--name",
        action="append",
        default=None,
        metavar="NAME",
        help="with --qrels: the name of a run, given once per run in their order (default: each "
        "file's name without its suffixes, bm25.run.gz is bm25); --baseline takes these names",
    )
    parser.add_argument(
        "--k",
        default=None,
        metavar="K",
        help=DESCRIPTIONS["k"] + f" (default: {_trec_cutoffs()} with --qrels)",
    )
    for name, choices in CHOICES.items():
        # ties: no argparse choices, so that a refused name ('ignore') gets the core's message
        listed = {"metavar": "{" + ",".join(choices) + "}"} if name == "ties" else {"choices": choices}
        parser.add_argument("--" + name.replace("_", "-"), default=None, help=_option_help(name), **listed)
    parser.add_argument(
        "--drop-no-relevant",
        action="store_true",
        help="the same as --no-relevant drop, kept for existing scripts: leave queries with nothing "
        "relevant (IDCG = 0) out of the mean (their nDCG is written as empty)",
    )
    parser.add_argument(
        "--baseline",
        metavar="RUN",
        help="with --qrels and two or more runs: the run the others are compared with "
        "(default: the first run given)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the bootstrap interval and the randomization test of a comparison (default: 0); "
        "the same seed gives the same figures",
    )
    parser.add_argument(
        "--resamples",
        type=int,
        default=10_000,
        metavar="N",
        help="bootstrap resamples and randomization-test sign flips of a comparison (default: 10000, "
        f"at most {MAX_RESAMPLES}; the randomization test is exact when 2**queries <= N)",
    )
    parser.add_argument(
        "--max-decompressed-size",
        type=_byte_count,
        default=MAX_TEXT_SIZE,
        metavar="BYTES",
        help="with --qrels: the most bytes of text read from one file that is gzip-compressed (once "
        "decompressed) or is a pipe or a device (a plain file is read at its own size); "
        f"default: {MAX_TEXT_SIZE} (2 GiB: about 45 million lines of a TREC run, several times "
        "the largest runs of TREC's tracks, and memory a laptop still has). A gzip file is also "
        f"refused once its text passes {GZIP_RATIO} times its own size (real TREC files "
        "compress 4-6 times; a 'gzip bomb' about 1000 times)",
    )
    parser.add_argument(
        "--engine",
        choices=("pandas", "spark"),
        default="pandas",
        help="pandas (this machine, default) or spark (needs PySpark and Java 17+; one run file "
        "without --qrels, or metastore tables)",
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
        "--output",
        metavar="OUT",
        help="write the per-query rows to OUT: .csv (text cells that a spreadsheet "
        "would run as a formula get a leading apostrophe), .parquet or "
        ".json (exact); '-' for CSV on stdout",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "trec_eval"),
        default="text",
        help="text (default); json: the means and the options as one JSON object on stdout; "
        "trec_eval (with --qrels): what trec_eval -q -c -m ndcg_cut.K prints (without -c under "
        "--missing drop; -m ndcg for --k none), one block per run in the order given",
    )
    parser.add_argument(
        "--table",
        action="append",
        default=[],
        metavar="DB.RUN",
        help="with --engine spark: a run as a metastore table, read through spark.table. With "
        "--qrels-table, a run (query, item, score; or several runs with a run column), may be given "
        "more than once; without it, one table of predictions with their labels (query, [item,] "
        "relevance, score: --query, --item, --relevance, --score name them), evaluated as a run "
        "FILE is",
    )
    parser.add_argument(
        "--qrels-table",
        metavar="DB.QRELS",
        help="with --engine spark: the judgments as a metastore table (query, item, relevance)",
    )
    parser.add_argument(
        "--output-table",
        metavar="DB.RESULT",
        help="with --engine spark: write the per-query rows as a new table, so nothing leaves the "
        "cluster (backticks quote a name: db.`per.query`); never a view or an input table",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="with --output-table: replace the table if it exists (--output replaces a file that "
        "is not an input either way)",
    )
    parser.add_argument(
        "--warehouse",
        metavar="DIR",
        help="with --engine spark: spark.sql.warehouse.dir, for a local metastore (a cluster's "
        "hive-site.xml sets its own)",
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


#: What the help adds to an option's description (:data:`ndcg_core.options.DESCRIPTIONS`).
_NOTES = {
    "no_relevant": "Their number is printed either way",
    "grades": "Grades that are not whole numbers are named on stderr either way",
}


def _trec_cutoffs() -> str:
    return ",".join(map(str, TREC_DEFAULTS.k or ()))


def _option_help(name: str) -> str:
    """An option's help: its description and its default in each form (a run file with its
    grades; --qrels, trec_eval's defaults)."""
    alone, trec = getattr(Options(), name), getattr(TREC_DEFAULTS, name)
    if name in QRELS_ONLY:
        default = f"with --qrels; default: {trec}"
    elif alone == trec:
        default = f"default: {alone}"
    else:
        default = f"default: {alone}; {trec} with --qrels"
    note = f". {_NOTES[name]}" if name in _NOTES else ""
    return f"{DESCRIPTIONS[name]} ({default}){note}"


def _chosen(args: argparse.Namespace, defaults: Options, k: Any) -> Options:
    """The options given on the command line, the form's ``defaults`` for the others."""
    given = {name: getattr(args, name) for name in CHOICES if getattr(args, name) is not None}
    return replace(defaults, k=k, **given)


def _byte_count(text: str) -> int:
    """A positive whole number of bytes (argparse type)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a positive whole number of bytes, got {text!r}")
    return value


def _no_relevant(args: argparse.Namespace, parser: argparse.ArgumentParser) -> str:
    """--no-relevant, with the older --drop-no-relevant as its alias."""
    if args.drop_no_relevant:
        if args.no_relevant == "zero":
            parser.error("--drop-no-relevant contradicts --no-relevant zero")
        return "drop"
    return str(args.no_relevant or "zero")


def _check_form(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Options that only one of the forms (one run file; qrels and runs; metastore tables)
    understands."""
    tables = bool(args.table) or any(
        value is not None for value in (args.qrels_table, args.output_table, args.warehouse)
    )
    if args.overwrite and args.output_table is None:
        parser.error("--overwrite needs --output-table (--output replaces a file that is not an input)")
    if tables:
        if args.engine != "spark":
            parser.error("--table, --qrels-table, --output-table and --warehouse need --engine spark")
        if args.files or args.qrels is not None:
            parser.error("metastore tables and files do not mix: give --qrels-table and --table only")
        if not args.table:
            parser.error("evaluating tables needs --table DB.RUN (with --qrels-table DB.QRELS) or DB.PRED")
        if args.qrels_table is None:
            _check_predictions(args, parser)
        return
    if not args.files:
        parser.error("give a run FILE (or, with --engine spark, --qrels-table and --table)")
    if args.qrels is None:
        if len(args.files) > 1:
            parser.error("several files need --qrels QRELS (the judgments they are evaluated against)")
        _refuse_judgment_options(args, parser, "--qrels QRELS", "a run file carries its own grades")
    elif args.engine == "spark":
        parser.error(
            "--engine spark evaluates one run file with its grades, or metastore tables (--qrels-table, "
            "--table); use --engine pandas with --qrels files"
        )
    else:
        _check_names(args, parser)


def _check_predictions(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """One table of predictions with their labels (no --qrels-table): the one-file form's
    options only."""
    if len(args.table) > 1:
        parser.error(
            "without --qrels-table, give one --table DB.PRED (query, [item,] relevance, score); "
            "several run tables need --qrels-table DB.QRELS"
        )
    _refuse_judgment_options(
        args, parser, "--qrels-table DB.QRELS", "a table of predictions carries its own labels"
    )


def _refuse_judgment_options(
    args: argparse.Namespace, parser: argparse.ArgumentParser, needs: str, why: str
) -> None:
    """Options about judgments apart from the run, given to a run that carries its own grades."""
    for option in (*QRELS_ONLY, "input_format", "name"):
        if getattr(args, option) is not None:
            flag = "--" + option.replace("_", "-")
            parser.error(f"{flag} needs {needs} ({why})")
    if args.format == "trec_eval":
        parser.error(f"--format trec_eval needs {needs} (trec_eval reads qrels and runs)")


def _check_names(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """--name once per run, or file names that differ."""
    if args.name is not None:
        if len(args.name) != len(args.files):
            runs = f"{len(args.files)} run" + ("s" if len(args.files) != 1 else "")
            parser.error(
                f"--name is given {len(args.name)} times for {runs}: give it once per run, in their order"
            )
        names = list(args.name)
    else:
        names = [run_name(path) for path in args.files]
    for index, name in enumerate(names):
        if not name.strip():
            parser.error(f"--name: run {index + 1} has an empty name")
        if name in names[:index]:
            how = "--name" if args.name is not None else "their file names"
            parser.error(
                f"two runs are named {name!r} (from {how}): give each run its own name with --name, "
                "once per run in their order"
            )


def _columns(args: argparse.Namespace) -> dict[str, Any]:
    """The column names of a run file (--query, --relevance, --score, --item)."""
    return {"query": args.query, "relevance": args.relevance, "score": args.score, "item": args.item}


def _ids(args: argparse.Namespace) -> tuple[str, ...]:
    """The id columns, read as text."""
    return (args.query, args.item)


def _wants_progress(args: argparse.Namespace) -> bool:
    if not args.files:  # a table: Spark shows its own stages
        return False
    try:
        return not args.no_progress and os.path.getsize(args.files[0]) >= PROGRESS_BYTES
    except OSError:
        return False


def _bar(**options: Any) -> Any:
    """A progress bar on stderr. tqdm's monitor thread is not started (``monitor_interval``
    0): it would live until the interpreter exits, on every path, the errors' too."""
    from tqdm import tqdm

    tqdm.monitor_interval = 0
    return tqdm(file=sys.stderr, **options)


def _read(args: argparse.Namespace, progress: bool) -> pd.DataFrame:
    from ndcg_core.batch import read_run

    path = args.files[0]
    if not progress:
        return read_run(path, ids=_ids(args))
    with _bar(total=os.path.getsize(path), unit="B", unit_scale=True, desc="read") as bar:

        def advance(done: int, total: int) -> None:
            bar.update(done - bar.n)

        return read_run(path, on_progress=advance, ids=_ids(args))


def _run_pandas(args: argparse.Namespace, progress: bool, k: int | None) -> RunResult:
    from ndcg_core.batch import evaluate_run

    frame = _read(args, progress)
    options = _chosen(args, Options(), k)
    if not progress:
        return evaluate_run(frame, options=options, **_columns(args))
    with _bar(total=1, desc=f"rank and sum {len(frame):,} rows") as bar:
        result = evaluate_run(frame, options=options, **_columns(args))
        bar.update(1)
    return result


def _run_spark(args: argparse.Namespace, progress: bool, k: int | None) -> RunResult:
    import warnings

    from ndcg_core import spark as engine

    # PySpark warns about pandas 3 on every toPandas(); one per-query table converts fine.
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    bar = None
    if progress:
        bar = _bar(total=2, desc="start Spark")
    try:
        session = _spark_session(args)
        if bar is not None:
            bar.update(1)
            bar.set_description("read, check, rank and sum")
        # a table of predictions with their labels, or a run file
        read = engine.read_table if args.table else engine.read_run
        frame = read(session, (args.table or args.files)[0])
        result = engine.evaluate_run(frame, options=_chosen(args, Options(), k), **_columns(args))
        if bar is not None:
            bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return result


def _spark_session(args: argparse.Namespace) -> Any:
    """The Spark session of --master; with Hive's metastore when tables are read."""
    from ndcg_core import spark as engine

    session = engine.session(args.master, hive=bool(args.table), warehouse=args.warehouse)
    # FATAL: a failed task is logged at ERROR with its Java stack trace, before the error this
    # command prints itself
    session.sparkContext.setLogLevel("FATAL")
    return session


def _check_output_table(args: argparse.Namespace) -> None:
    """--output-table refused before any work: a bad name, an input, a view, a table that
    exists without --overwrite."""
    from ndcg_core import spark as engine

    inputs = [*([] if args.qrels_table is None else [args.qrels_table]), *args.table]
    for name in inputs:
        engine.table_name_parts(name)  # a bad name is refused before anything is read
    if args.output_table is not None:
        engine.check_output_table(
            _spark_session(args), args.output_table, inputs=inputs, overwrite=args.overwrite
        )


def _write_output_table(args: argparse.Namespace, table: pd.DataFrame) -> None:
    """The per-query rows of a table of predictions as the table --output-table."""
    from ndcg_core import spark as engine

    rows = _spark_session(args).createDataFrame(table)
    engine.write_table(rows, args.output_table, overwrite=args.overwrite, inputs=args.table)


def _single(args: argparse.Namespace, cutoffs: tuple[int, ...] | None) -> list[RunResult]:
    """One run file (or table of predictions) with its grades: one result per cutoff."""
    if args.table:
        _check_output_table(args)
    progress = _wants_progress(args)
    run = _run_spark if args.engine == "spark" else _run_pandas
    return [run(args, progress, k) for k in (cutoffs or (None,))]


def _merged(results: list[RunResult], cutoffs: tuple[int, ...] | None) -> pd.DataFrame:
    """One per-query table: ``dcg@k, idcg@k, ndcg@k`` for each cutoff (``dcg, idcg, ndcg``
    without one), so that files made with different cutoffs cannot be mistaken for each other."""
    if cutoffs is None:
        return results[0].per_query
    table = results[0].per_query[["query", "n_items"]].copy()
    for measure in ("dcg", "idcg", "ndcg"):
        for column, result in zip(measure_columns(cutoffs, measure), results, strict=True):
            table[column] = result.per_query[measure].to_numpy()
    return table


def _report(results: list[RunResult], output: str | None, output_table: str | None = None) -> list[str]:
    first = results[0]
    policy = "left out of the mean" if first.no_relevant == "drop" else "counted as 0 in the mean"
    lines = [f"mean {'nDCG' if r.k is None else f'nDCG@{r.k}'}: {r.mean:.10f}" for r in results]
    lines += [
        f"queries: {first.n_queries} ({first.n_in_mean} in the mean)",
        f"queries with nothing relevant: {first.n_no_relevant} ({policy})",
    ]
    if output is not None and output != "-":
        lines.append(f"per-query rows: {output}")
    if output_table is not None:
        lines.append(f"per-query table: {output_table}")
    return lines


def _finite(value: Any) -> Any:
    """A number for JSON: NaN (undefined, e.g. a mean over no query) becomes null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _single_json(
    results: list[RunResult], args: argparse.Namespace, cutoffs: tuple[int, ...] | None
) -> dict[str, Any]:
    first = results[0]
    return {
        **({"table": args.table[0]} if args.table else {"file": args.files[0]}),
        "options": {
            "k": None if cutoffs is None else list(cutoffs),
            "gain": first.gain,
            "discount": first.discount,
            "ties": first.ties,
            "no_relevant": first.no_relevant,
        },
        "means": {
            column: _finite(result.mean)
            for column, result in zip(measure_columns(cutoffs), results, strict=True)
        },
        "n_queries": first.n_queries,
        "n_in_mean": first.n_in_mean,
        "n_no_relevant": first.n_no_relevant,
    }


def _evaluate_tables(args: argparse.Namespace) -> TrecResult:
    """Runs and qrels as metastore tables, evaluated on Spark; the per-query rows written back
    as a table with --output-table. Only the per-query values (runs × queries rows) come to the
    driver, for the means and the comparison."""
    import pandas as pd

    from ndcg_core import spark as nspark
    from ndcg_core.trec import TrecResult

    options = _chosen(args, TREC_DEFAULTS, TREC_DEFAULTS.k if args.k is None else args.k)
    _check_output_table(args)
    session = _spark_session(args)
    inputs = [args.qrels_table, *args.table]
    qrels = nspark.read_table(session, args.qrels_table)
    tables = {name: nspark.read_table(session, name) for name in args.table}
    only = next(iter(tables.values()))
    runs: Any = only if len(tables) == 1 and "run" in only.columns else tables
    per_query = nspark.evaluate_trec(qrels, runs, options=options).cache()
    if args.output_table is not None:
        nspark.write_table(per_query, args.output_table, overwrite=args.overwrite, inputs=inputs)
    rows = pd.DataFrame(per_query.toPandas())
    means = pd.DataFrame(nspark.summarize_trec(per_query).toPandas())
    skipped = pd.DataFrame(nspark.queries_without_judgments(qrels, runs).toPandas())
    per_query.unpersist()
    # Spark returns rows in no set order: runs as given (tables, or the run column's order of
    # names), queries as text
    names = list(tables) if runs is tables else sorted(rows["run"].astype(str).unique())
    rows["run"] = rows["run"].astype(str)
    rows = rows.sort_values(["run", "query"], key=lambda c: c.map(names.index) if c.name == "run" else c)
    rows = rows.reset_index(drop=True)
    means["run"] = means["run"].astype(str)
    means = means.set_index("run").loc[names].reset_index()

    def queries(table: pd.DataFrame, run: str) -> tuple[str, ...]:
        return tuple(sorted(table.loc[table["run"] == run, "query"].astype(str)))

    return TrecResult.from_frames(
        rows,
        means,
        options,
        unjudged_queries={run: queries(skipped, run) for run in names},
        missing_queries={run: queries(rows[rows["missing"]], run) for run in names},
    )


def _evaluate_trec(args: argparse.Namespace) -> TrecResult:
    from ndcg_core.trec import evaluate_trec

    if args.table:
        return _evaluate_tables(args)
    runs = dict(zip(args.name, args.files, strict=True)) if args.name is not None else args.files
    options = _chosen(args, TREC_DEFAULTS, TREC_DEFAULTS.k if args.k is None else args.k)
    return evaluate_trec(
        args.qrels,
        runs,
        options=options,
        max_size=args.max_decompressed_size,
        input_format=args.input_format or "auto",
    )


def _shown(column: str, k: tuple[int, ...] | None) -> str:
    """A column's name for people: ``nDCG@10`` (also for the one-cutoff column ``ndcg``)."""
    name = column.replace("ndcg", "nDCG", 1)
    if "@" not in name and k is not None:
        name += f"@{k[0]}"
    return name


def _trec_report(result: TrecResult, comparisons: list[Comparison], output: str | None) -> list[str]:
    """One line per run: its mean(s), its judged share(s) and what was left out."""
    options = result.options
    columns = measure_columns(options.k, "ndcg") + measure_columns(options.k, "judged")
    width = max(len(name) for name in result.runs)
    no_relevant = result.no_relevant_counts()
    lines = []
    for row in result.mean_rows:
        run = str(row["run"])
        values = "  ".join(f"{_shown(column, options.k)} {row[column]:.4f}" for column in columns)
        notes = f"queries in the mean: {row['n_queries']}"
        if result.missing_queries[run]:
            left = "counted as 0" if options.missing == "zero" else "left out"
            notes += f", not answered: {len(result.missing_queries[run])} ({left})"
        if result.unjudged_queries[run]:
            notes += f", without judgments: {len(result.unjudged_queries[run])} (left out)"
        if no_relevant.get(run):
            left = "counted as 0" if options.no_relevant == "zero" else "left out"
            notes += f", nothing relevant: {no_relevant[run]} ({left})"
        lines.append(f"{run:<{width}}  {values}  ({notes})")
    for comparison in comparisons:
        lines += _comparison_lines(comparison, options.k)
    if output is not None and output != "-":
        lines.append(f"per-query rows: {output}")
    return lines


def _listed(values: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]


def _fractional_note(result: TrecResult, qrels: str) -> str:
    """Once per qrels file: its grades that are not whole numbers, and what was done with them."""
    from ndcg_core.trec import FRACTIONAL_SHOWN

    pairs = result.fractional_grades
    grades = _listed([f"{grade:g}" for grade, _ in pairs])
    whole = _listed([f"{truncated:g}" for _, truncated in pairs])
    more = f" (the first {FRACTIONAL_SHOWN} shown)" if len(pairs) == FRACTIONAL_SHOWN else ""
    name = os.path.basename(qrels)
    if result.options.grades == "truncate":
        return f"note: the qrels file {name!r} has grades {grades}{more}, truncated to {whole}, as trec_eval reads them"
    return (
        f"note: the qrels file {name!r} has grades that are not whole numbers: {grades}{more} are used as "
        f"given; trec_eval would truncate them to {whole} (--grades truncate does the same)"
    )


def _trec_eval_lines(result: TrecResult) -> list[str]:
    """What ``trec_eval -q -c -m ndcg_cut.K`` prints (``-m ndcg`` without a cutoff): per query
    ``printf("%-22s\t%s\t%6.4f\n", measure, qid, value)`` (meas_print_single.c), queries in
    ``strcmp`` order of their ids (get_qrels.c sorts them so), cutoffs ascending (meas_init.c
    sorts them), then ``all`` with the means; one block per run. A query left out of the mean
    (a missing query under --missing drop, as trec_eval without -c) has no line."""
    options = result.options
    cutoffs = sorted(options.k) if options.k is not None else [None]
    columns = [(f"ndcg_cut_{k}", f"ndcg@{k}") if k is not None else ("ndcg", "ndcg") for k in cutoffs]
    lines: list[str] = []
    for row in result.mean_rows:
        rows = result.per_query[result.per_query["run"] == row["run"]]
        # strcmp compares bytes: the order of UTF-8 text is the order of its code points
        for query, values in sorted(zip(rows["query"].astype(str), rows.to_dict("records"), strict=True)):
            for measure, column in columns:
                if math.isfinite(values[column]):
                    lines.append(f"{measure:<22}\t{query}\t{values[column]:6.4f}")
        for measure, column in columns:
            lines.append(f"{measure:<22}\tall\t{row[column]:6.4f}")
    return lines


def _comparisons(result: TrecResult, args: argparse.Namespace) -> list[Comparison]:
    """With two or more runs: each nDCG column compared against the baseline."""
    if len(result.runs) < 2:
        return []
    return [
        result.compare(measure=column, baseline=args.baseline, n_resamples=args.resamples, seed=args.seed)
        for column in measure_columns(result.options.k, "ndcg")
    ]


def _comparison_lines(comparison: Comparison, k: tuple[int, ...] | None) -> list[str]:
    """A comparison as a table for people: one line per run compared with the baseline."""
    test = "exact" if comparison.permutation == "exact" else f"{comparison.n_permutations} random sign flips"
    lines = [
        "",
        f"{_shown(comparison.measure, k)} against {comparison.baseline!r}, paired over "
        f"{comparison.n_queries} queries ({comparison.confidence:.0%} bootstrap interval, "
        f"{comparison.n_resamples} resamples, seed {comparison.seed}; randomization test {test}):",
    ]
    tests = comparison.tests
    width = max(len("run"), *(len(str(name)) for name in tests["run"]))
    holm = len(tests) > 1
    header = (
        f"  {'run':<{width}}  {'mean':>7}  {'diff':>8}  {'interval':>18}  {'t-test p':>9}  {'rand. p':>9}"
    )
    header += f"  {'Holm t':>9}  {'Holm r':>9}" if holm else ""
    lines.append(header + "  wins/ties/losses")
    for row in tests.to_dict("records"):
        line = (
            f"  {row['run']!s:<{width}}  {row['mean']:7.4f}  {row['mean_difference']:+8.4f}  "
            f"[{row['ci_low']:+.4f}, {row['ci_high']:+.4f}]  {row['p_t_test']:9.4g}  {row['p_randomization']:9.4g}"
        )
        if holm:
            line += f"  {row['p_t_test_holm']:9.4g}  {row['p_randomization_holm']:9.4g}"
        lines.append(line + f"  {row['wins']}/{row['ties']}/{row['losses']}")
    return lines


def _trec_json(result: TrecResult, comparisons: list[Comparison], args: argparse.Namespace) -> dict[str, Any]:
    options = result.options
    return {
        "qrels": args.qrels if args.qrels is not None else args.qrels_table,
        "runs": list(args.files) or list(args.table),
        "options": {
            "k": None if options.k is None else list(options.k),
            **{name: getattr(options, name) for name in CHOICES},
        },
        "means": [{key: _finite(value) for key, value in row.items()} for row in result.mean_rows],
        "n_no_relevant": result.no_relevant_counts(),
        "fractional_grades": [list(pair) for pair in result.fractional_grades],
        "missing_queries": {run: list(queries) for run, queries in result.missing_queries.items()},
        "unjudged_queries": {run: list(queries) for run, queries in result.unjudged_queries.items()},
        "comparisons": [
            {
                "measure": comparison.measure,
                "baseline": comparison.baseline,
                "n_queries": comparison.n_queries,
                "confidence": comparison.confidence,
                "n_resamples": comparison.n_resamples,
                "seed": comparison.seed,
                "permutation": comparison.permutation,
                "tests": [
                    {key: _finite(value) for key, value in row.items()}
                    for row in comparison.tests.to_dict("records")
                ],
            }
            for comparison in comparisons
        ],
    }


def _check_output(args: argparse.Namespace) -> None:
    """Refuse an --output that is one of the input files (the same file by any path): it
    would be overwritten with the results."""
    if args.output is None or args.output == "-":
        return
    for source in [*args.files, *([] if args.qrels is None else [args.qrels])]:
        try:
            same = os.path.samefile(args.output, source)
        except OSError:  # either does not exist (yet): not the same file
            same = False
        if same:
            fail("output_is_input", name=args.output)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    _check_form(args, parser)
    args.no_relevant = _no_relevant(args, parser)
    try:
        parse_cutoffs(args.k)  # refused here, the message names the option
    except NDCGInputError as error:
        parser.error(f"argument --k: {error}")
    trec = args.qrels is not None or args.qrels_table is not None
    if args.ties is None:
        args.ties = "trec_eval" if trec else "average"
    try:
        _check_output(args)
        if trec:
            outcome: Any = _evaluate_trec(args)
            comparisons = _comparisons(outcome, args)
            table = outcome.per_query if args.output is not None else None
        else:
            cutoffs = parse_cutoffs(args.k)
            outcome = _single(args, cutoffs)
            table = _merged(outcome, cutoffs)
            if args.output_table is not None:
                _write_output_table(args, table)
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
        from ndcg_core.export import write_table

        try:
            write_table(table, args.output)
        except OSError as error:
            print(f"error: could not write {args.output!r}: {error.strerror or error}", file=sys.stderr)
            return 1
    # With --output -, the rows go to stdout and the summary to stderr, so stdout stays a CSV.
    stream = sys.stderr if args.output == "-" else sys.stdout
    if trec and outcome.fractional_grades:
        print(_fractional_note(outcome, args.qrels or args.qrels_table), file=sys.stderr)
    if args.format == "json":
        document = _trec_json(outcome, comparisons, args) if trec else _single_json(outcome, args, cutoffs)
        print(json.dumps(document, ensure_ascii=False, allow_nan=False, indent=2), file=stream)
    elif args.format == "trec_eval":
        print("\n".join(_trec_eval_lines(outcome)), file=stream)
    elif trec:
        print("\n".join(_trec_report(outcome, comparisons, args.output)), file=stream)
    else:
        print("\n".join(_report(outcome, args.output, args.output_table)), file=stream)
    return 0


if __name__ == "__main__":
    sys.exit(main())
