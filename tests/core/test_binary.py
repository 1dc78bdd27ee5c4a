"""Precision@k, AP@k and reciprocal rank (ndcg_core.binary) against pytrec_eval's P, map_cut and
recip_rank, and worked examples written as arithmetic."""

from __future__ import annotations

import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_core as nc

CUTOFFS = (1, 2, 3, 5, 10)
MEASURES = {
    "P." + ",".join(map(str, CUTOFFS)),
    "map_cut." + ",".join(map(str, CUTOFFS)),
    "map",
    "recip_rank",
}


def trec(grades, scores, *, unretrieved=()):
    """pytrec_eval's measures of one query: items D1.. with these grades and scores, plus
    judged items the run did not return (U1..)."""
    qrels = {"q": {f"D{i + 1}": int(g) for i, g in enumerate(grades)}}
    qrels["q"].update({f"U{i + 1}": int(g) for i, g in enumerate(unretrieved)})
    run = {"q": {f"D{i + 1}": float(s) for i, s in enumerate(scores)}}
    return pytrec_eval.RelevanceEvaluator(qrels, MEASURES).evaluate(run)["q"]


def test_worked_example_as_arithmetic():
    rel = [3, 2, 0, 0, 1]
    assert nc.precision_at_k(rel, k=3) == 2 / 3
    assert nc.average_precision(rel) == pytest.approx((1 / 1 + 2 / 2 + 3 / 5) / 3, abs=1e-15)
    assert nc.average_precision(rel, k=3) == pytest.approx((1 + 1) / 3, abs=1e-15)
    assert nc.reciprocal_rank([0, 0, 1, 3]) == 1 / 3


def test_precision_divides_by_k_beyond_the_list():
    assert nc.precision_at_k([1, 0, 2], k=10) == 2 / 10


def test_grade_below_one_is_not_relevant():
    assert nc.precision_at_k([0.5, 1, 0], k=2) == 1 / 2
    assert nc.reciprocal_rank([0.5, 1]) == 1 / 2


def test_nothing_relevant_scores_zero():
    assert (nc.precision_at_k([0, 0]), nc.average_precision([0, 0]), nc.reciprocal_rank([0, 0])) == (0, 0, 0)


def test_ap_divides_by_relevant_judged_items_not_retrieved():
    # pool {2, 2, 1, 0}: three relevant judged, the list returned one of them at position 2
    assert nc.average_precision([0, 2], pool=[0, 2, 2, 1]) == (1 / 2) / 3


def test_ties_in_trec_eval_order_equal_pytrec_eval():
    # D1..D5 all tied: trec_eval ranks by id descending as text: D5, D4, D3, D2, D1
    grades, scores = [1, 0, 0, 0, 2], [1, 1, 1, 1, 1]
    got = trec(grades, scores)
    assert nc.reciprocal_rank(grades, scores=scores) == got["recip_rank"] == 1.0
    assert nc.average_precision(grades, scores=scores) == pytest.approx(got["map"], abs=1e-12)
    assert nc.precision_at_k(grades, k=2, scores=scores) == got["P_2"]


def test_ties_d10_before_d2_as_text():
    # ten items, D2 and D10 tied at the top: as text "D2" > "D10", so D2 is ranked first
    grades = [0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
    scores = [1, 9, 1, 1, 1, 1, 1, 1, 1, 9]
    got = trec(grades, scores)
    assert nc.reciprocal_rank(grades, scores=scores) == got["recip_rank"] == 1.0


grades_lists = st.lists(st.integers(0, 3), min_size=1, max_size=20)


@st.composite
def runs(draw):
    """Grades, integer scores (many ties; float32-exact, as trec_eval keeps them) and the grades
    of judged items the run missed."""
    grades = draw(grades_lists)
    scores = draw(st.lists(st.integers(0, 4), min_size=len(grades), max_size=len(grades)))
    missed = draw(st.lists(st.integers(0, 3), max_size=6))
    return grades, scores, missed


@settings(max_examples=150, deadline=None)
@given(runs())
def test_equal_to_pytrec_eval_with_ties_and_unretrieved_items(case):
    grades, scores, missed = case
    got = trec(grades, scores, unretrieved=missed)
    pool = [*grades, *missed]
    labels = [f"D{i + 1}" for i in range(len(grades))]
    assert nc.reciprocal_rank(grades, scores=scores, labels=labels) == pytest.approx(
        got["recip_rank"], abs=1e-12
    )
    assert nc.average_precision(grades, pool=pool, scores=scores) == pytest.approx(got["map"], abs=1e-12)
    for k in CUTOFFS:
        assert nc.precision_at_k(grades, k=k, scores=scores) == pytest.approx(got[f"P_{k}"], abs=1e-12)
        assert nc.average_precision(grades, k=k, pool=pool, scores=scores) == pytest.approx(
            got[f"map_cut_{k}"], abs=1e-12
        )


@settings(max_examples=60, deadline=None)
@given(grades_lists, st.one_of(st.none(), st.integers(1, 25)))
def test_ranked_list_bounds_and_order(rel, k):
    for value in (nc.precision_at_k(rel, k=k), nc.average_precision(rel, k=k), nc.reciprocal_rank(rel, k=k)):
        assert 0.0 <= value <= 1.0
    ideal = sorted(rel, reverse=True)
    assert nc.average_precision(ideal, k=k) >= nc.average_precision(rel, k=k)
