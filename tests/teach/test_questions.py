"""The learners' questions (ndcg_teach.questions) against scikit-learn, pytrec_eval, ranx and
arithmetic written out."""

from __future__ import annotations

import math

import numpy as np
import pytest
import pytrec_eval
from sklearn.metrics import ndcg_score

from ndcg_teach import questions
from ndcg_teach.tools import tool_scores


def test_shape_mistake_is_scikit_learns_own_error_and_fix():
    with pytest.raises(ValueError) as err:
        ndcg_score(list(questions.SHAPE_GRADES), list(questions.SHAPE_SCORES))
    m = questions.shape_mistake()
    assert m.error == str(err.value)
    assert m.fixed == pytest.approx(
        ndcg_score([list(questions.SHAPE_GRADES)], [list(questions.SHAPE_SCORES)]), abs=1e-12
    )


def _batch_qrels_and_run():
    """The batch as qrels and a run (ids of four characters, as in every ranx test: CONTRIBUTING)."""
    qrels = {
        f"q{i}": {f"d{j:03d}": int(g) for j, g in enumerate(row)}
        for i, row in enumerate(questions.EMPTY_BATCH)
    }
    run = {
        f"q{i}": {f"d{j:03d}": float(g) for j, g in enumerate(row)}
        for i, row in enumerate(questions.EMPTY_BATCH)
    }
    return qrels, run


@pytest.mark.ranx
def test_empty_query_means_equal_scikit_learn_pytrec_eval_and_ranx():
    import ranx  # imported here: its Numba functions compile on import (seconds)

    y = [list(r) for r in questions.EMPTY_BATCH]
    means = questions.empty_query_means().set_index("tool")["mean"]
    assert means["scikit-learn"] == pytest.approx(ndcg_score(y, y), abs=1e-12)
    # the installed scikit-learn counts the query with nothing relevant as 0: 2 / 3
    assert ndcg_score(y, y) == pytest.approx(2 / 3, abs=1e-12)
    qrels, run = _batch_qrels_and_run()
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg"}).evaluate(run)
    assert len(per_query) == 3  # pytrec_eval keeps the empty query, scored 0
    assert means["trec_eval"] == pytest.approx(np.mean([v["ndcg"] for v in per_query.values()]), abs=1e-12)
    assert means["ranx"] == pytest.approx(ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), "ndcg"), abs=1e-12)


def test_empty_query_means_by_hand_for_tools_not_installed():
    t = questions.empty_query_means().set_index("tool")
    # LightGBM, XGBoost: an empty query scores 1 -> (1 + 1 + 1) / 3; gdeval leaves it out -> 2 / 2
    assert t.loc["LightGBM", "mean"] == t.loc["XGBoost", "mean"] == 1.0
    assert (t.loc["gdeval", "queries"], t.loc["gdeval", "mean"]) == (2, 1.0)


def test_length_drift_equals_scikit_learn_and_creeps_toward_one():
    pattern = [1, 0, 2, 1, 3]
    d = questions.length_drift(pattern, [5, 50, 5000], k=10)
    mine = d[d.order == "pattern"].set_index("length")
    for n in (5, 50, 5000):
        rel = [np.resize(pattern, n).tolist()]
        scores = [list(range(n, 0, -1))]
        assert mine.loc[n, "ndcg"] == pytest.approx(ndcg_score(rel, scores), abs=1e-12)
        assert mine.loc[n, "ndcg_k"] == pytest.approx(ndcg_score(rel, scores, k=10), abs=1e-12)
    assert mine.loc[5, "ndcg"] < mine.loc[50, "ndcg"] < mine.loc[5000, "ndcg"]


def _pytrec(grades, pool_extra, k):
    qrels = {"q": {f"D{i + 1}": int(g) for i, g in enumerate(grades)}}
    qrels["q"].update({f"U{i + 1}": int(g) for i, g in enumerate(pool_extra)})
    run = {"q": {f"D{i + 1}": float(len(grades) - i) for i in range(len(grades))}}
    measures = {f"ndcg_cut.{k}", f"map_cut.{k}", "recip_rank", f"P.{k}"}
    got = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)["q"]
    return {
        "ndcg": got[f"ndcg_cut_{k}"],
        "ap": got[f"map_cut_{k}"],
        "rr": got["recip_rank"],
        "precision": got[f"P_{k}"],
    }


def test_metric_table_disagreement_example_equals_pytrec_eval():
    k, pool = questions.DISAGREE_K, list(questions.DISAGREE_POOL)
    for ranked, missed in ((questions.DISAGREE_A, [1]), (questions.DISAGREE_B, [3, 3])):
        mine = questions.metric_table(list(ranked), k=k, pool=pool)
        expected = _pytrec(ranked, missed, k)
        assert mine == pytest.approx(expected, abs=1e-12)
    a = questions.metric_table(list(questions.DISAGREE_A), k=k, pool=pool)
    b = questions.metric_table(list(questions.DISAGREE_B), k=k, pool=pool)
    assert (a["ndcg"] > b["ndcg"], a["precision"] > b["precision"]) == (True, True)
    assert (a["ap"] < b["ap"], a["rr"] < b["rr"]) == (True, True)


def test_one_relevant_ndcg_equals_scikit_learn():
    for position in (1, 2, 7, 10, 11, 60):
        row = [0] * max(position, 12)
        row[position - 1] = 1
        scores = list(range(len(row), 0, -1))
        assert questions.one_relevant_ndcg(position, 10) == pytest.approx(
            ndcg_score([row], [scores], k=10), abs=1e-12
        )


def test_sampled_positions_follow_the_sampling():
    pos = questions.sampled_positions(n_users=300, n_items=2000, negatives=100)
    assert (
        (pos["sampled"] <= pos["full"]).all()
        and (pos["sampled"] <= 101).all()
        and (pos["sampled"] >= 1).all()
    )
    # the expected sampled position is 1 + 100 (r - 1) / 1999: the mean over users within 5 %
    expected = 1 + 100 * (pos["full"] - 1) / 1999
    assert pos["sampled"].mean() == pytest.approx(expected.mean(), rel=0.05)


def test_sampled_evaluation_overstates_and_reorders():
    t = questions.sampled_evaluation().set_index("model")
    assert t.loc["A", "full"] > t.loc["B", "full"]
    assert t.loc["A", "sampled"] < t.loc["B", "sampled"]
    assert (t["sampled"] > t["full"]).all()


def test_label_gain_mapping_by_hand():
    m = questions.label_gain_mapping([72, 0, 12.5, 72], gain="exponential")
    assert m.labels == (2, 0, 1, 2)
    assert m.label_gain == (0.0, 2**12.5 - 1, 2.0**72 - 1)
    assert m.ndcg_grades == pytest.approx(m.ndcg_labels, abs=1e-12)
    linear = questions.label_gain_mapping([72, 0, 12.5, 72], gain="linear")
    assert linear.ndcg_labels == pytest.approx(ndcg_score([[72, 0, 12.5, 72]], [[4, 3, 2, 1]]), abs=1e-12)


def test_gdeval_row_by_hand_ties_by_id_descending():
    # D1..D3 tied: gdeval sorts by docno descending (runOrder): D3 (2), D2 (0), D1 (1)
    # DCG = 3 / log(2) + 0 + 1 / log(4), IDCG = 3 / log(2) + 1 / log(3) (natural logs; they cancel)
    value = tool_scores([1, 0, 2], [5, 5, 5]).set_index("label").loc["gdeval", "ndcg"]
    expected = (3 / math.log(2) + 1 / math.log(4)) / (3 / math.log(2) + 1 / math.log(3))
    assert value == pytest.approx(expected, abs=1e-12)


@pytest.mark.ranx
def test_gdeval_row_equals_ranx_ndcg_burges_without_ties():
    import ranx  # imported here: its Numba functions compile on import (seconds)

    # same gain (2^rel - 1) and pooled ideal: without ties the two agree
    grades, pool_extra = [3, 2, 0, 0, 1], [3, 2]
    value = tool_scores(grades, pool=[*grades, *pool_extra]).set_index("label").loc["gdeval", "ndcg"]
    # ids of four characters, as in every ranx test (CONTRIBUTING)
    qrels = {
        "q": {f"D{i:03d}": g for i, g in enumerate(grades)}
        | {f"U{i:03d}": g for i, g in enumerate(pool_extra)}
    }
    run = {"q": {f"D{i:03d}": float(10 - i) for i in range(len(grades))}}
    assert value == pytest.approx(ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), "ndcg_burges"), abs=1e-12)


def test_gdeval_row_cuts_the_ideal_at_the_list_length_without_a_cutoff():
    # gdeval always cuts at k (here the list's length, 2): ideal [3, 3] of the pool [3, 3, 3]
    value = tool_scores([3, 0], pool=[3, 0, 3, 3]).set_index("label").loc["gdeval", "ndcg"]
    assert value == pytest.approx(7 / (7 + 7 / math.log2(3)), abs=1e-12)


def test_sampled_full_positions_do_not_depend_on_the_sample_size():
    small = questions.sampled_positions(n_users=50, n_items=1000, negatives=10)
    large = questions.sampled_positions(n_users=50, n_items=1000, negatives=500)
    assert small["full"].tolist() == large["full"].tolist()
