"""ndcg_core.ndcg_score against sklearn.metrics.ndcg_score: time, ratio and agreement.

Run by hand (not a test): ``.venv/bin/python bench/bench_sklearn.py`` (``--help`` for options).

One process, seeded data: 10,000 queries x 100 items, grades 0-3, k = 10, scores either
continuous (no ties) or rounded to one decimal (many ties), each with ``ignore_ties`` False
and True. Each timing is the best of several repeats (wall clock, ``time.perf_counter``, or this
process's CPU time with ``--clock cpu``): 21 of scikit-learn and 200 of the core by default,
enough for the best to settle on this virtual machine (with 7 and 30 the core's best moved
between 5.4 and 8.9 ms from run to run on a quiet machine, with 200 between 5.7 and 6.2 ms).
The calls of each function run back to back, so its input stays in the processor's cache (a
call of the core right after one of scikit-learn's takes 2-3x as long: see bench/README.md).
The values must agree to 1e-12 or the script exits with status 1.

Targets (issue 15): at least 60x faster than scikit-learn's default (ties averaged, a Python
loop per query in scikit-learn) and at least 8x faster with ``ignore_ties=True`` (where the
same full ``np.argsort`` as scikit-learn's is required, so its cost bounds the ratio).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sklearn
from sklearn.metrics import ndcg_score as sklearn_ndcg_score

import ndcg_core

TARGETS = {False: 60.0, True: 8.0}
TOLERANCE = 1e-12


def best_of(function: Callable[[], float], repeats: int, clock: Callable[[], float]) -> tuple[float, float]:
    """The best time of ``repeats`` calls (seconds) on ``clock``, and the value returned."""
    best, value = float("inf"), float("nan")
    for _ in range(repeats):
        start = clock()
        value = function()
        best = min(best, clock() - start)
    return best, value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--items", type=int, default=100)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeats", type=int, default=21, help="repeats of scikit-learn")
    parser.add_argument("--core-repeats", type=int, default=200, help="repeats of ndcg_core")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall clock, or this process's CPU time (fairer on a machine busy with other work)",
    )
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter

    rng = np.random.default_rng(args.seed)
    shape = (args.queries, args.items)
    y_true = rng.integers(0, 4, shape)
    continuous = rng.random(shape)
    cases = {"continuous (no ties)": continuous, "rounded to 0.1 (ties)": continuous.round(1)}

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"nDCG@{args.k}, {args.queries:,} queries x {args.items} items, grades 0-3, "
        f"seed {args.seed}; best of {args.repeats} (scikit-learn) / {args.core_repeats} "
        f"(ndcg_core), {args.clock} time"
    )
    print(
        f"numpy {np.__version__}, scikit-learn {sklearn.__version__}, Python "
        f"{platform.python_version()}, {os.cpu_count()} CPUs, load average {load:.1f}"
    )
    header = (
        f"{'scores':24} {'ignore_ties':>11} {'sklearn ms':>11} {'ndcg_core ms':>13} "
        f"{'ratio':>7} {'target':>7} {'|diff|':>9}"
    )
    print(header)
    print("-" * len(header))

    failed = False
    for label, y_score in cases.items():
        for ignore_ties in (False, True):

            def theirs(y_score: Any = y_score, ignore_ties: bool = ignore_ties) -> float:
                return sklearn_ndcg_score(y_true, y_score, k=args.k, ignore_ties=ignore_ties)

            def ours(y_score: Any = y_score, ignore_ties: bool = ignore_ties) -> float:
                return ndcg_core.ndcg_score(y_true, y_score, k=args.k, ignore_ties=ignore_ties)

            ours()  # warm the caches (discount tables, allocator) before timing
            sk_time, sk_value = best_of(theirs, args.repeats, clock)
            core_time, core_value = best_of(ours, args.core_repeats, clock)
            diff = abs(sk_value - core_value)
            ratio = sk_time / core_time
            target = TARGETS[ignore_ties]
            mark = "" if ratio >= target else "  below target"
            if diff > TOLERANCE:
                mark += "  VALUES DIFFER"
                failed = True
            print(
                f"{label:24} {ignore_ties!s:>11} {sk_time * 1e3:11.1f} "
                f"{core_time * 1e3:13.2f} {ratio:6.1f}x {target:6.0f}x {diff:9.1e}{mark}"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
