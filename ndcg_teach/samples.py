"""Seeded synthetic runs: realistic-looking test data for the Evaluate page and benchmarks.

A sample run is a long-format table (one row per (query, item)) whose scores follow the
grades with noise, like a decent but imperfect ranking system. It has what real runs have:
lists of different lengths, tied scores in some queries, and a few queries with nothing
relevant. The same arguments always give the same table.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ndcg_core.validate import check_choice, fail

__all__ = ["sample_run", "sample_trec"]

#: Chance of each grade 0, 1, 2, 3: most retrieved items are not relevant.
GRADE_WEIGHTS = (0.55, 0.25, 0.13, 0.07)


def sample_run(
    n_queries: int = 200,
    *,
    seed: int = 0,
    min_items: int = 1,
    max_items: int = 50,
    relevance: str = "graded",
    tie_fraction: float = 0.2,
    no_relevant_fraction: float = 0.05,
    noise: float = 1.0,
    decimals: int | None = 3,
    ids: str = "text",
) -> pd.DataFrame:
    """A synthetic run with columns ``query, item, relevance, score``.

    Every query gets between ``min_items`` and ``max_items`` items (uniformly); grades are
    0-3 (``relevance="graded"``) or 0/1 (``"binary"``); a score is grade + normal noise of
    standard deviation ``noise``, rounded to ``decimals`` (``None``: unrounded, so ties are
    practically absent), and to steps of 0.5 in a
    ``tie_fraction`` share of the queries (so those have ties); a ``no_relevant_fraction``
    share of the queries has every grade 0. Rows are grouped by query, items in id order
    (not in score order).

    Parameters
    ----------
    n_queries : int
        Number of queries.
    seed : int
        Seed of the random generator.
    min_items, max_items : int
        Shortest and longest list.
    relevance : {"graded", "binary"}
        Grades 0-3 or 0/1.
    tie_fraction, no_relevant_fraction : float
        Shares of the queries with coarse scores and with nothing relevant.
    noise : float
        Standard deviation of the score noise; 0 gives an ideal system.
    decimals : int or None
        Decimals the scores are rounded to.
    ids : {"text", "int"}
        Query and item ids as text (``"q0001"``, ``"d01"``) or as integers.

    Returns
    -------
    pandas.DataFrame

    >>> run = sample_run(3, seed=1, max_items=5)
    >>> list(run.columns), run["query"].nunique()
    (['query', 'item', 'relevance', 'score'], 3)
    >>> sample_run(3, seed=1, max_items=5).equals(run)
    True
    """
    check_choice(relevance, ("graded", "binary"), option="relevance")
    check_choice(ids, ("text", "int"), option="ids")
    for name, value in (("n_queries", n_queries), ("min_items", min_items), ("max_items", max_items)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            fail("shape", what=name, rule="rule_positive_integer", got=repr(value))
    if max_items < min_items:
        fail("shape", what="max_items", rule="rule_at_least_min_items", min_items=min_items, got=max_items)
    for name, share in (("tie_fraction", tie_fraction), ("no_relevant_fraction", no_relevant_fraction)):
        if not 0.0 <= share <= 1.0:
            fail("shape", what=name, rule="rule_share", got=share)

    rng = np.random.default_rng(seed)
    lengths = rng.integers(min_items, max_items + 1, size=n_queries)
    codes = np.repeat(np.arange(n_queries), lengths)
    n_rows = int(lengths.sum())
    starts = np.cumsum(lengths) - lengths
    position = np.arange(n_rows) - starts[codes]

    if relevance == "graded":
        grades = rng.choice(len(GRADE_WEIGHTS), size=n_rows, p=GRADE_WEIGHTS)
    else:
        grades = (rng.random(n_rows) < 0.3).astype(np.int64)
    nothing = rng.random(n_queries) < no_relevant_fraction
    grades[nothing[codes]] = 0

    scores = grades + rng.normal(0.0, noise, size=n_rows)
    coarse = (rng.random(n_queries) < tie_fraction)[codes]
    fine = scores if decimals is None else np.round(scores, decimals)
    scores = np.where(coarse, np.round(scores * 2.0) / 2.0, fine)

    if ids == "text":
        width = len(str(n_queries))
        query_names = np.array([f"q{i:0{width}d}" for i in range(1, n_queries + 1)], dtype=object)
        item_width = len(str(max_items))
        item_names = np.array([f"d{i:0{item_width}d}" for i in range(1, max_items + 1)], dtype=object)
        query_ids, item_ids = query_names[codes], item_names[position]
    else:
        query_ids, item_ids = codes + 1, position + 1
    return pd.DataFrame(
        {
            "query": query_ids,
            "item": item_ids,
            "relevance": grades.astype(np.int64),
            "score": scores + 0.0,  # + 0.0 turns a rounded -0.0 into 0.0
        }
    )


#: The sample TREC collection's runs, best first, with how strongly their scores follow the
#: grades (the noise has standard deviation 1) and the decimals their scores keep.
TREC_RUNS: tuple[tuple[str, float, int], ...] = (("good", 1.6, 2), ("fair", 0.8, 1), ("poor", 0.25, 2))

#: The sample's fourth run: its name, the run it tweaks, and the standard deviation of the
#: extra noise it adds to that run's scores. Its strength is scaled by sqrt(1 + 0.75**2) =
#: 1.25 (1.6 becomes 2.0), so its scores follow the grades exactly as closely as the tweaked
#: run's do: any difference between the two is chance.
TREC_TWEAK: tuple[str, str, float] = ("tweaked", "good", 0.75)


#: Documents each run of the sample TREC collection retrieves per query.
TREC_DEPTH = 20


def sample_trec(seed: int = 0, *, n_queries: int = 40) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """A small TREC collection for teaching: qrels, three runs of clearly different quality
    and a small change of the best one.

    Each query (``"301"``, ``"302"``, ...) has a judged pool of 15 to 40 documents, graded
    0-3 (most 0). Each run retrieves 20 documents per query from the pool and from
    documents nobody judged, scored by a hidden relevance plus noise: ``"good"`` follows the
    grades closely, ``"fair"`` less (its scores keep one decimal, so it has ties), ``"poor"``
    hardly (and it does not answer two queries). The same seed gives the same collection.

    ``"tweaked"`` (second in the run order; the first, ``"good"``, stays the baseline) is
    ``"good"`` with a little noise of its own: good's hidden relevance and good's noise,
    plus normal noise of standard deviation 0.75 (:data:`TREC_TWEAK`), its strength scaled so
    that its scores follow the grades as closely as good's. It is there to show a difference
    that is only chance: with the default seed its mean nDCG@10 is a little above good's
    (by less than 0.01), and the paired t-test and randomization test find nothing (p above
    0.4). Its extra noise comes from a generator of its own (``default_rng([seed, 1])``), so
    the other three runs are the same as without it.

    Returns
    -------
    (pandas.DataFrame, dict of str to pandas.DataFrame)
        The qrels (``query, item, relevance``) and the runs by name (``query, item, score``),
        as :func:`ndcg_core.trec.evaluate_trec` takes them.

    >>> qrels, runs = sample_trec()
    >>> list(runs), qrels["query"].nunique(), len(runs["good"]) == 40 * 20
    (['good', 'tweaked', 'fair', 'poor'], 40, True)
    >>> from ndcg_core.trec import evaluate_trec
    >>> means = evaluate_trec(qrels, runs).means.set_index("run")["ndcg@10"]
    >>> bool(means["good"] > means["fair"] > means["poor"])
    True
    >>> bool(0 < means["tweaked"] - means["good"] < 0.01)
    True
    """
    if isinstance(n_queries, bool) or not isinstance(n_queries, (int, np.integer)) or n_queries < 1:
        fail("shape", what="n_queries", rule="rule_positive_integer", got=repr(n_queries))
    depth = TREC_DEPTH
    rng = np.random.default_rng(seed)
    # the tweaked run's own noise: a separate generator, so the other runs' draws are unchanged
    tweak_rng = np.random.default_rng([seed, 1])
    tweaked, tweak_of, extra = TREC_TWEAK
    qrels_rows: list[tuple[str, str, int]] = []
    runs: dict[str, list[tuple[str, str, float]]] = {}
    for name, _, _ in TREC_RUNS:
        runs[name] = []
        if name == tweak_of:
            runs[tweaked] = []
    missed = set(rng.choice(n_queries, size=min(2, n_queries), replace=False).tolist())
    for index in range(n_queries):
        query = str(301 + index)
        pool_size = int(rng.integers(15, 41))
        documents = rng.choice(100_000, size=pool_size + 3 * depth, replace=False)
        names = np.array([f"D{number:05d}" for number in documents], dtype=object)
        grades = rng.choice(len(GRADE_WEIGHTS), size=pool_size, p=GRADE_WEIGHTS)
        qrels_rows += [
            (query, str(name), int(grade)) for name, grade in zip(names[:pool_size], grades, strict=True)
        ]
        # the hidden relevance of every candidate: the grade for judged ones, mostly 0 for the others
        hidden = np.concatenate([grades, rng.choice(2, size=names.size - pool_size, p=(0.9, 0.1))]).astype(
            float
        )
        for name, strength, decimals in TREC_RUNS:
            if name == "poor" and index in missed:
                continue
            noise = rng.normal(size=names.size)
            scores = {name: np.round(strength * hidden + noise, decimals) + 0.0}
            if name == tweak_of:
                # the same hidden relevance and noise, plus its own; the strength grows with the
                # noise's standard deviation, so the tweak follows the grades as closely
                tweak_strength = strength * np.hypot(1.0, extra)
                tweak_noise = noise + extra * tweak_rng.normal(size=names.size)
                scores[tweaked] = np.round(tweak_strength * hidden + tweak_noise, decimals) + 0.0
            for run, score in scores.items():
                top = np.argsort(-score, kind="stable")[:depth]
                runs[run] += [(query, str(names[i]), float(score[i])) for i in top]
    qrels = pd.DataFrame(qrels_rows, columns=["query", "item", "relevance"])
    frames = {name: pd.DataFrame(rows, columns=["query", "item", "score"]) for name, rows in runs.items()}
    return qrels, frames
