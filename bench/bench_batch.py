"""The batch engine against scikit-learn, ranx, pytrec_eval and a naive loop: time, memory, values.

Run by hand (not a test): ``.venv/bin/python bench/bench_batch.py`` (``--help`` for options;
``pip install -e ".[bench]"`` for ranx and pytrec_eval, which are skipped with a
note when missing).

One process, seeded data, nDCG@10, grades 0-3:

1. Dense, 100,000 queries x 50 items (``--dense``): ``ndcg_core.ndcg_score`` against
   ``sklearn.metrics.ndcg_score``, continuous scores (no ties) and scores rounded to 0.1
   (ties averaged). (10,000 x 100 is ``bench/bench_sklearn.py``.)
2. Ragged, ~1 M rows, 10,000 queries of 1-200 items (``ndcg_teach.samples.sample_run``), without ties
   (unrounded scores) and with ties (half the queries with scores in steps of 0.5):
   ``ndcg_core.evaluate`` against scikit-learn on the lists padded to 200 (pad grade 0, score
   below every real one: the same numbers), ranx (``Qrels``/``Run`` from the DataFrame),
   pytrec_eval (``ndcg_cut_10`` from dicts) and a per-query Python loop. Every competitor's
   time *includes building its input* from the long table.

Time: wall clock (or CPU time with ``--clock cpu``), best of ``--repeats`` for the fast
ones, one run for the slow ones.
Memory: peak of ``tracemalloc`` during one separate run (numpy and Python allocations; the C++
of pytrec_eval and numba's internals are not traced), next to the input table's own size
(``DataFrame.memory_usage(deep=True)``). Values: the largest per-query difference from
``ndcg_core`` (with ties, ranx, pytrec_eval and the loop break ties their own way, so they
differ there by design; scikit-learn must still agree, and ``ties="trec_eval"`` must agree with
pytrec_eval).

Targets: ragged 1 M rows under 1 s and under 4x the input's memory; at least 10x faster than
ranx and pytrec_eval with identical values (no ties).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
import time
import tracemalloc
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sklearn
from sklearn.metrics import ndcg_score as sklearn_ndcg_score

import ndcg_core as nc
from ndcg_teach.samples import sample_run

K = 10
MB = 1e6
CLOCK = {"cpu": False}


def timed(function: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Best time of ``repeats`` calls, and the last value.

    The time is CPU time of this process (``time.process_time``) with ``--clock cpu``, which
    stays fair on a busy machine (every method here runs on one core); wall clock otherwise.
    """
    clock = time.process_time if CLOCK["cpu"] else time.perf_counter
    best, value = float("inf"), None
    for _ in range(repeats):
        gc.collect()
        start = clock()
        value = function()
        best = min(best, clock() - start)
    return best, value


def peak(function: Callable[[], Any]) -> float:
    """Peak traced memory (bytes) of one call, above what was allocated before it."""
    gc.collect()
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    function()
    top = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return top - base


# --------------------------------------------------------------------------- competitors


def padded(run: pd.DataFrame, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The ragged run as dense (n_queries, width) arrays: pads have grade 0 and a score below
    every real score, so they rank last and add nothing (ties among pads average to 0)."""
    codes, _ = pd.factorize(run["query"], sort=False)
    counts = np.bincount(codes)
    starts = np.cumsum(counts) - counts
    column = np.arange(len(run)) - starts[codes]  # rows are grouped by query in sample_run
    scores = run["score"].to_numpy()
    y_true = np.zeros((counts.size, width))
    y_score = np.full((counts.size, width), scores.min() - 1.0)
    y_true[codes, column] = run["relevance"].to_numpy()
    y_score[codes, column] = scores
    return y_true, y_score


def per_query_sklearn(run: pd.DataFrame, width: int) -> np.ndarray:
    y_true, y_score = padded(run, width)
    # scikit-learn returns only the mean; its per-row values come from the private helper.
    from sklearn.metrics._ranking import _ndcg_sample_scores

    return _ndcg_sample_scores(y_true, y_score, k=K, ignore_ties=False)


def ranx_per_query(run: pd.DataFrame) -> dict[str, float]:
    from ranx import Qrels, Run, evaluate

    frame = run.astype({"query": object, "item": object})
    qrels = Qrels.from_df(frame, q_id_col="query", doc_id_col="item", score_col="relevance")
    ranking = Run.from_df(frame, q_id_col="query", doc_id_col="item", score_col="score")
    values = evaluate(qrels, ranking, f"ndcg@{K}", return_mean=False)
    return dict(zip(ranking.keys(), np.asarray(values, dtype=float), strict=False))


def pytrec_per_query(run: pd.DataFrame) -> dict[str, float]:
    import pytrec_eval

    qrels: dict[str, dict[str, int]] = {}
    scores: dict[str, dict[str, float]] = {}
    for query, item, grade, score in zip(
        run["query"].tolist(),
        run["item"].tolist(),
        run["relevance"].tolist(),
        run["score"].tolist(),
        strict=False,
    ):
        qrels.setdefault(query, {})[item] = grade
        scores.setdefault(query, {})[item] = score
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut_{K}"})
    return {query: values[f"ndcg_cut_{K}"] for query, values in evaluator.evaluate(scores).items()}


def naive_per_query(run: pd.DataFrame) -> dict[str, float]:
    """What one writes first: a Python loop over the queries, sort, top k, weight, sum."""
    discount = 1.0 / np.log2(np.arange(2, K + 2))
    out = {}
    for query, group in run.groupby("query", sort=False):
        rel = group["relevance"].to_numpy(dtype=float)
        top = rel[np.argsort(-group["score"].to_numpy())][:K]
        ideal = np.sort(rel)[::-1][:K]
        best = float(ideal @ discount[: ideal.size])
        out[query] = float(top @ discount[: top.size]) / best if best > 0 else 0.0
    return out


def difference(ours: pd.DataFrame, theirs: dict[str, float] | np.ndarray) -> float:
    if isinstance(theirs, dict):
        theirs = np.array([theirs[q] for q in ours["query"]])
    return float(np.max(np.abs(ours["ndcg"].to_numpy() - theirs)))


# --------------------------------------------------------------------------- cases


def dense(n_queries: int, n_items: int, seed: int, repeats: int) -> None:
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 4, (n_queries, n_items))
    continuous = rng.random((n_queries, n_items))
    size = (y_true.nbytes + continuous.nbytes) / MB
    print(
        f"\n## Dense {n_queries:,} x {n_items}, nDCG@{K}, input {size:.0f} MB (grades int64 + scores float64)"
    )
    print(f"{'scores':22} {'method':24} {'seconds':>8} {'peak MB':>8} {'vs ours':>8} {'|diff|':>9}")
    for label, y_score in (("continuous (no ties)", continuous), ("rounded 0.1 (ties)", continuous.round(1))):
        t_ours, v_ours = timed(lambda y_score=y_score: nc.ndcg_score(y_true, y_score, k=K), repeats)
        m_ours = peak(lambda y_score=y_score: nc.ndcg_score(y_true, y_score, k=K))
        t_sk, v_sk = timed(lambda y_score=y_score: sklearn_ndcg_score(y_true, y_score, k=K), 1)
        m_sk = peak(lambda y_score=y_score: sklearn_ndcg_score(y_true, y_score, k=K))
        print(f"{label:22} {'ndcg_core.ndcg_score':24} {t_ours:8.3f} {m_ours / MB:8.0f} {'':>8} {'':>9}")
        print(
            f"{'':22} {'sklearn ndcg_score':24} {t_sk:8.3f} {m_sk / MB:8.0f} "
            f"{t_sk / t_ours:7.1f}x {abs(v_sk - v_ours):9.1e}"
        )


def ragged(n_queries: int, max_items: int, seed: int, repeats: int, slow: bool) -> None:
    for label, ties in (("no ties", False), ("ties", True)):
        run = sample_run(
            n_queries,
            seed=seed,
            max_items=max_items,
            tie_fraction=0.5 if ties else 0.0,
            decimals=None if not ties else 3,
        )
        input_mb = run.memory_usage(deep=True).sum() / MB
        ours_t, ours = timed(lambda run=run: nc.evaluate(run, k=K), repeats)
        ours_m = peak(lambda run=run: nc.evaluate(run, k=K))
        tied = int(run.duplicated(["query", "score"]).sum())
        print(
            f"\n## Ragged, {label}: {len(run):,} rows, {n_queries:,} queries of 1-{max_items} "
            f"items, {tied:,} rows tied with an earlier one; input {input_mb:.0f} MB "
            f"(deep), nDCG@{K}"
        )
        print(
            f"{'method':34} {'seconds':>8} {'peak MB':>8} {'x input':>8} {'ours faster':>11} "
            f"{'max |diff|':>10}"
        )
        print(
            f"{'ndcg_core.evaluate':34} {ours_t:8.3f} {ours_m / MB:8.0f} "
            f"{ours_m / MB / input_mb:8.2f} {'':>11} {'':>10}"
        )
        ours_no_item_t, _ = timed(lambda run=run: nc.evaluate(run, k=K, item=None), repeats)
        print(f"{'  (without the item-pair check)':34} {ours_no_item_t:8.3f}")

        competitors: list[tuple[str, Callable[[], Any]]] = [
            ("sklearn ndcg_score (padded)", lambda run=run: per_query_sklearn(run, max_items)),
        ]
        try:
            import ranx  # noqa: F401

            # numba compiles on the first call; compile it outside the timing.
            ranx_per_query(run.head(50))
            competitors.append(("ranx ndcg@10 (incl. from_df)", lambda run=run: ranx_per_query(run)))
        except ImportError:
            print("(ranx is not installed: skipped)")
        try:
            import pytrec_eval  # noqa: F401

            competitors.append(("pytrec_eval ndcg_cut_10 (+dicts)", lambda run=run: pytrec_per_query(run)))
        except ImportError:
            print("(pytrec_eval is not installed: skipped)")
        if slow:
            competitors.append(("naive per-query Python loop", lambda run=run: naive_per_query(run)))
        for name, function in competitors:
            seconds, values = timed(function, 1)
            memory = peak(function)
            print(
                f"{name:34} {seconds:8.3f} {memory / MB:8.0f} {memory / MB / input_mb:8.2f} "
                f"{seconds / ours_t:10.1f}x {difference(ours, values):10.1e}"
            )
            if name.startswith("pytrec_eval"):
                # trec_eval's own tie order (score, then docno descending): the same numbers
                trec_t, trec = timed(lambda run=run: nc.evaluate(run, k=K, ties="trec_eval"), repeats)
                print(
                    f"{'ndcg_core.evaluate ties=trec_eval':34} {trec_t:8.3f} {'':>8} {'':>8} "
                    f"{seconds / trec_t:10.1f}x {difference(trec, values):10.1e}"
                )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeats", type=int, default=5, help="repeats of the fast methods")
    parser.add_argument("--dense", default="100000x50", help="dense case QUERIESxITEMS, or 'none'")
    parser.add_argument("--queries", type=int, default=10_000, help="ragged case: queries")
    parser.add_argument("--max-items", type=int, default=200, help="ragged case: longest list")
    parser.add_argument("--no-slow", action="store_true", help="skip the naive loop")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall clock, or this process's CPU time (fair on a busy machine)",
    )
    args = parser.parse_args()
    CLOCK["cpu"] = args.clock == "cpu"
    warnings.filterwarnings("ignore", category=Warning, module="ranx|numba")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"numpy {np.__version__}, pandas {pd.__version__}, scikit-learn {sklearn.__version__}, "
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load average {load:.1f}; "
        f"times are {args.clock} seconds"
    )
    if args.dense != "none":
        queries, items = (int(part) for part in args.dense.lower().split("x"))
        dense(queries, items, args.seed, args.repeats)
    ragged(args.queries, args.max_items, args.seed, args.repeats, slow=not args.no_slow)
    return 0


if __name__ == "__main__":
    sys.exit(main())
