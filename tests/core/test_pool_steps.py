"""The judged pool through the step table, the formulas, nDCG@k for every k and the change
note: a list [3, ?, 2, 0, 1] whose query also has two judged items the system did not return
(grades 3 and 2). Expected values are written as arithmetic and checked with pytrec_eval, whose
ideal is every judged item of the query (trec_eval's)."""

from __future__ import annotations

import math

import pytest

import ndcg_core as nc

pytrec_eval = pytest.importorskip("pytrec_eval")

NAN = float("nan")
GRADES = [3, NAN, 2, 0, 1]  # D2 was never judged
MISSED = [3, 2]  # judged, not returned
POOL = [3, 2, 0, 1, *MISSED]  # the list's judged grades and the missed ones
L2 = math.log2

DCG = 3 / L2(2) + 0 / L2(3) + 2 / L2(4) + 0 / L2(5) + 1 / L2(6)
# the pool sorted: 3, 3, 2, 2, 1, 0
IDCG_ALL = 3 / L2(2) + 3 / L2(3) + 2 / L2(4) + 2 / L2(5) + 1 / L2(6) + 0 / L2(7)
IDCG_3 = 3 / L2(2) + 3 / L2(3) + 2 / L2(4)
DCG_3 = 3 / L2(2) + 0 / L2(3) + 2 / L2(4)


def pytrec(k: int | None) -> float:
    qrels = {"q": {"D1": 3, "D3": 2, "D4": 0, "D5": 1, "M1": 3, "M2": 2}}
    run = {"q": {f"D{i}": float(6 - i) for i in range(1, 6)}}
    measure = "ndcg" if k is None else f"ndcg_cut.{k}"
    result = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)["q"]
    return result["ndcg" if k is None else f"ndcg_cut_{k}"]


def test_ndcg_pool_with_unjudged_matches_hand_arithmetic_and_pytrec_eval():
    value = nc.ndcg(GRADES, pool=POOL, unjudged="zero")
    assert value == pytest.approx(DCG / IDCG_ALL, abs=1e-12)
    assert value == pytest.approx(pytrec(None), abs=1e-12)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 10])
def test_ndcg_pool_at_k_matches_pytrec_eval(k):
    assert nc.ndcg(GRADES, k=k, pool=POOL, unjudged="zero") == pytest.approx(pytrec(k), abs=1e-12)


def test_step_table_pool_with_unjudged_ends_on_pytrec_eval():
    t = nc.step_table(GRADES, pool=POOL, unjudged="zero")
    assert len(t) == len(POOL)  # one row per ideal position: the pool outgrows the list by one
    assert t["ndcg"].iloc[-1] == pytest.approx(pytrec(None), abs=1e-12)
    assert t["idcg"].iloc[-1] == pytest.approx(IDCG_ALL, abs=1e-12)


def test_step_table_pool_marks_missed_items_in_the_ideal():
    t = nc.step_table(GRADES, pool=POOL, unjudged="zero")
    # the ideal 3, 3, 2, 2, 1, 0: D1 takes the first 3, D3 the first 2, D5 the 1, D4 the 0
    assert t["ideal_item"].tolist() == ["D1", nc.steps.NO_ITEM, "D3", nc.steps.NO_ITEM, "D5", "D4"]


def test_step_table_pool_at_k_stops_at_k():
    t = nc.step_table(GRADES, k=3, pool=POOL, unjudged="zero")
    row = t.loc[t["position"] == 3].iloc[0]
    assert row["ndcg"] == pytest.approx(DCG_3 / IDCG_3, abs=1e-12)


def test_formulas_pool_idcg_sums_the_pool():
    f = {x.step: x for x in nc.formulas(GRADES, pool=POOL, unjudged="zero")}
    assert f["idcg"].value == pytest.approx(IDCG_ALL, abs=1e-12)
    assert f["ndcg"].value == pytest.approx(pytrec(None), abs=1e-12)
    assert f["idcg"].terms[1] == pytest.approx(3 / L2(3), abs=1e-12)  # the missed 3 at position 2


def test_ndcg_at_each_k_pool_matches_pytrec_eval_for_every_k():
    frame = nc.ndcg_at_each_k(GRADES, pool=POOL, unjudged="zero")
    assert frame["k"].tolist() == [1, 2, 3, 4, 5, 6]
    for k, value in zip(frame["k"], frame["ndcg"], strict=True):
        assert value == pytest.approx(pytrec(int(k)), abs=1e-12)


def test_describe_change_pool_before_takes_the_old_pool():
    """Regrading D5 from 1 to 3 changes the pool too: nDCG before uses the old one."""
    after = [3, NAN, 2, 0, 3]
    c = nc.describe_change(GRADES, after, pool=[3, 2, 0, 3, *MISSED], pool_before=POOL, unjudged="zero")
    assert c.kind == "regraded"
    assert c.ndcg_before == pytest.approx(pytrec(None), abs=1e-12)
    idcg_after = 3 / L2(2) + 3 / L2(3) + 3 / L2(4) + 2 / L2(5) + 2 / L2(6) + 0 / L2(7)
    dcg_after = 3 / L2(2) + 2 / L2(4) + 3 / L2(6)
    assert c.ndcg_after == pytest.approx(dcg_after / idcg_after, abs=1e-12)


def test_describe_change_pool_before_defaults_to_pool():
    c = nc.describe_change(GRADES, [NAN, 3, 2, 0, 1], pool=POOL, unjudged="zero")
    assert c.ndcg_before == pytest.approx(pytrec(None), abs=1e-12)
