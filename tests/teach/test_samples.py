"""The teaching samples (ndcg_teach.samples): the sample TREC collection the Evaluate page opens with."""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_core.trec import evaluate_trec
from ndcg_teach import samples
from ndcg_teach.samples import sample_trec


def test_sample_trec_is_the_same_for_the_same_seed() -> None:
    qrels, runs = sample_trec(seed=5)
    again_qrels, again_runs = sample_trec(seed=5)
    pd.testing.assert_frame_equal(qrels, again_qrels)
    for name, run in runs.items():
        pd.testing.assert_frame_equal(run, again_runs[name])


def test_sample_trec_has_ties_unjudged_items_and_a_missing_query() -> None:
    qrels, runs = sample_trec()
    result = evaluate_trec(qrels, runs)
    assert runs["fair"].duplicated(["query", "score"]).any()  # tied scores
    assert (result.means["judged@10"] < 1).all()  # every run retrieves unjudged documents
    assert len(result.missing_queries["poor"]) == 2
    assert result.missing_queries["good"] == () == result.missing_queries["fair"]
    means = result.means.set_index("run")["ndcg@10"]
    assert means["good"] > means["fair"] > means["poor"]


def test_sample_trec_tweaked_run_differs_from_good_by_chance() -> None:
    """The tweaked run, second in order, differs from good (the default baseline) by about
    0.01 in mean nDCG@10, and SciPy's paired t-test on the 40 queries finds nothing."""
    from scipy import stats

    qrels, runs = sample_trec()
    assert list(runs)[:2] == ["good", "tweaked"]
    wide = evaluate_trec(qrels, runs, k=10).per_query.pivot(index="query", columns="run", values="ndcg@10")
    difference = (wide["tweaked"] - wide["good"]).mean()
    assert 0.005 <= abs(difference) <= 0.02
    assert stats.ttest_rel(wide["tweaked"], wide["good"]).pvalue > 0.2


@pytest.mark.parametrize("extra", [0.0, 2.0])
def test_sample_trec_tweaked_run_leaves_the_other_runs_as_they_are(monkeypatch, extra) -> None:
    """The tweak draws its noise from a generator of its own: whatever its noise, the qrels and
    the other three runs are the same; with no extra noise it is good itself."""

    qrels, runs = sample_trec(seed=2, n_queries=12)
    monkeypatch.setattr(samples, "TREC_TWEAK", ("tweaked", "good", extra))
    other_qrels, other_runs = sample_trec(seed=2, n_queries=12)
    assert other_qrels.equals(qrels)
    assert all(other_runs[name].equals(runs[name]) for name in ("good", "fair", "poor"))
    assert other_runs["tweaked"].equals(runs["good"]) is (extra == 0.0)
