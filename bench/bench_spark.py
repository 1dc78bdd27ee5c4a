"""The Spark engine in local mode: rows per second, and its agreement with the pandas engine.

Run by hand (not a test): ``.venv/bin/python bench/bench_spark.py`` (``--help`` for options;
needs PySpark and Java 17+).

A seeded ~1 M-row run (10,000 queries of 1-200 items, grades 0-3, half the queries with tied
scores) is written to Parquet; Spark reads it and computes nDCG@10 per query with
``ndcg_core.spark.evaluate``, once with the data checks (``validate=True``: one more pass
and a ``groupBy`` on (query, item)) and once without. A run is forced to completion with
Spark's ``noop`` writer (nothing is collected) and timed with the call of ``evaluate``, which
runs the checks; the first run of each kind warms the JVM up and is not reported. Then the
per-query rows are collected (one row per query) and compared with ``ndcg_core.evaluate`` on
the same table: the largest absolute difference must be below 1e-9 (exit status 1 otherwise).
Also a 0/1-relevance run and the other tie policies.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ndcg_core as nc
from ndcg_core import spark as nspark
from ndcg_teach.samples import sample_run

TOLERANCE = 1e-9


def force(frame) -> float:
    """Seconds to compute a Spark DataFrame completely without collecting it."""
    start = time.perf_counter()
    frame.write.format("noop").mode("overwrite").save()
    return time.perf_counter() - start


def checked_and_forced(frame, k: int, validate: bool) -> float:
    """Seconds of ``evaluate`` (whose checks run when it is called, before the result is
    computed) and of computing its result."""
    start = time.perf_counter()
    force(nspark.evaluate(frame, k=k, validate=validate))
    return time.perf_counter() - start


def max_difference(spark_table, pandas_table) -> float:
    left = spark_table.set_index("query").sort_index()
    right = pandas_table.set_index("query").sort_index()
    if not left.index.equals(right.index) or not (left["n_items"] == right["n_items"]).all():
        return float("inf")
    diffs = [np.nanmax(np.abs(left[c].to_numpy() - right[c].to_numpy())) for c in ("dcg", "idcg", "ndcg")]
    return float(max(diffs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--max-items", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--master", default="local[*]")
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")

    spark = nspark.session(args.master)
    spark.sparkContext.setLogLevel("ERROR")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Spark {spark.version} {args.master}, {os.cpu_count()} CPUs, load average {load:.1f}, "
        f"shuffle partitions {spark.conf.get('spark.sql.shuffle.partitions')}"
    )
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        for relevance in ("graded", "binary"):
            run = sample_run(
                args.queries, seed=args.seed, max_items=args.max_items, relevance=relevance, tie_fraction=0.5
            )
            path = os.path.join(folder, f"{relevance}.parquet")
            run.to_parquet(path, index=False)
            frame = spark.read.parquet(path).cache()
            frame.count()  # read once, so the timings below are the engine's
            print(f"\n## {relevance} relevance: {len(run):,} rows, {args.queries:,} queries, nDCG@{args.k}")
            if relevance == "graded":
                for validate in (True, False):
                    checked_and_forced(frame, args.k, validate)  # warm-up
                    seconds = min(checked_and_forced(frame, args.k, validate) for _ in range(3))
                    start = time.perf_counter()
                    nc.evaluate(run, k=args.k)
                    pandas_seconds = time.perf_counter() - start
                    print(
                        f"validate={validate!s:5}: {seconds:6.2f} s, "
                        f"{len(run) / seconds:12,.0f} rows/s (pandas engine {pandas_seconds:.2f} s, "
                        f"{len(run) / pandas_seconds:12,.0f} rows/s)"
                    )
            options_list = [{"k": args.k}, {"k": args.k, "gain": "exponential"}]
            if relevance == "graded":
                options_list += [
                    {"k": args.k, "ties": t} for t in ("input", "trec_eval", "optimistic", "pessimistic")
                ]
                options_list += [{"discount": "jarvelin", "no_relevant": "drop"}]
            for options in options_list:
                ours = nspark.evaluate(frame, validate=False, **options).toPandas()
                diff = max_difference(ours, nc.evaluate(run, **options))
                failed |= not diff < TOLERANCE
                print(f"max |Spark - pandas| {options}: {diff:.1e}")
            frame.unpersist()
    spark.stop()
    if failed:
        print(f"FAILED: a difference of {TOLERANCE:g} or more")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
