"""The Spark TREC path (qrels + runs, ``ndcg_core.spark.evaluate_trec``) against the Spark
engine of one graded table (``ndcg_core.spark.evaluate``) on the same rows.

Run by hand (not a test): ``.venv/bin/python bench/bench_spark_trec.py`` (``--help`` for
options; needs PySpark and Java 17+).

A seeded run (``ndcg_teach.samples.sample_run``: ``--queries`` queries of 1-``--max-items`` items,
grades 0-3, half the queries with tied scores) is split into qrels (query, item, relevance)
and a run (query, item, score), both cached in Spark. Every returned item is judged, so the
judged pool is the returned list and ``evaluate_trec``'s default nDCG@k must equal
``evaluate(..., ties="trec_eval")``'s: the script checks it (largest difference below 1e-9,
exit status 1 otherwise). Each is forced to completion with Spark's ``noop`` writer (nothing
collected), best of ``--repeats`` after a warm-up, with and without the data checks; then the
TREC path with three cutoffs at once (``k=5,10,20``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ndcg_core import spark as nspark
from ndcg_teach.samples import sample_run

TOLERANCE = 1e-9


def force(frame) -> float:
    """Seconds to compute a Spark DataFrame completely without collecting it."""
    start = time.perf_counter()
    frame.write.format("noop").mode("overwrite").save()
    return time.perf_counter() - start


def best(make, repeats: int) -> float:
    force(make())  # warm-up: JIT, code generation
    return min(force(make()) for _ in range(repeats))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=2_000)
    parser.add_argument("--max-items", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--master", default="local[*]")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")

    spark = nspark.session(args.master)
    spark.sparkContext.setLogLevel("ERROR")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    run = sample_run(args.queries, seed=args.seed, max_items=args.max_items, tie_fraction=0.5)
    table = spark.createDataFrame(run).cache()
    qrels = table.select("query", "item", "relevance").cache()
    runs = table.select("query", "item", "score").cache()
    for frame in (table, qrels, runs):
        frame.count()
    print(
        f"Spark {spark.version} {args.master}, {os.cpu_count()} CPUs, load average {load:.1f}; "
        f"{len(run):,} rows, {args.queries:,} queries, nDCG@{args.k}, best of {args.repeats}"
    )
    rows = []
    for validate in (True, False):
        single = best(
            lambda v=validate: nspark.evaluate(table, k=args.k, ties="trec_eval", validate=v), args.repeats
        )
        trec = best(
            lambda v=validate: nspark.evaluate_trec(qrels, {"run": runs}, k=args.k, validate=v), args.repeats
        )
        rows.append((validate, single, trec))
    several = best(
        lambda: nspark.evaluate_trec(qrels, {"run": runs}, k="5,10,20", validate=False), args.repeats
    )
    print("| checks | evaluate (one table) s | evaluate_trec (qrels + run) s | ratio |")
    print("|---|---|---|---|")
    for validate, single, trec in rows:
        print(f"| {'on' if validate else 'off'} | {single:.2f} | {trec:.2f} | {trec / single:.2f}x |")
    print(f"evaluate_trec, k=5,10,20 in one pass, checks off: {several:.2f} s")

    ours = nspark.evaluate_trec(qrels, {"run": runs}, k=args.k).toPandas().set_index("query").sort_index()
    reference = nspark.evaluate(table, k=args.k, ties="trec_eval").toPandas().set_index("query").sort_index()
    same = ours.index.equals(reference.index)
    difference = (
        float(np.max(np.abs(ours[f"ndcg@{args.k}"].to_numpy() - reference["ndcg"].to_numpy())))
        if same
        else np.inf
    )
    print(f"largest |evaluate_trec - evaluate| nDCG@{args.k}: {difference:.1e}")
    spark.stop()
    return 0 if difference < TOLERANCE else 1


if __name__ == "__main__":
    raise SystemExit(main())
