"""What each tool computes (ndcg_core.tools): oracles are scikit-learn and hand arithmetic."""

import itertools

import numpy as np
import pytest
from sklearn.metrics import ndcg_score

from ndcg_core import NDCGInputError
from ndcg_core.tools import TOOL_COLUMNS, TOOLS, tool_scores

L2 = np.log2
GRADES, SCORES = [7, 4, 1, 0, 0], [0.9, 0.5, 0.6, 0.9, 0.9]


def by_call(table):
    return table.set_index("call")["ndcg"]


def test_tool_scores_has_one_row_per_tool_and_the_documented_columns():
    table = tool_scores([3, 2, 0, 0, 1])
    assert list(table.columns) == list(TOOL_COLUMNS)
    assert len(table) == len(TOOLS)


@pytest.mark.parametrize("seed", range(5))
def test_tool_scores_scikit_learn_rows_match_scikit_learn(seed):
    rng = np.random.default_rng(seed)
    grades = rng.integers(0, 4, size=8)
    scores = rng.integers(0, 3, size=8).astype(float)  # many ties
    t = by_call(tool_scores(grades, scores, k=5))
    assert t["ndcg_score(y_true, y_score)"] == pytest.approx(ndcg_score([grades], [scores], k=5), abs=1e-12)
    assert t["ndcg_score(..., ignore_ties=True)"] == pytest.approx(
        ndcg_score([grades], [scores], k=5, ignore_ties=True), abs=1e-12)


def test_tool_scores_ranx_keeps_tied_items_in_input_order():
    """TEACHING.md §7: ranx 0.8957 on the tie example; input order puts the 7 first."""
    dcg = 7 + 0 / L2(3) + 0 / 2 + 1 / L2(5) + 4 / L2(6)
    ideal = 7 + 4 / L2(3) + 1 / 2
    assert by_call(tool_scores(GRADES, SCORES))['evaluate(qrels, run, "ndcg")'] == pytest.approx(dcg / ideal)


def test_tool_scores_ranx_burges_uses_exponential_gain():
    dcg = 127 + 1 / L2(5) + 15 / L2(6)
    ideal = 127 + 15 / L2(3) + 1 / 2
    value = by_call(tool_scores(GRADES, SCORES))['evaluate(qrels, run, "ndcg_burges")']
    assert value == pytest.approx(dcg / ideal)
    assert round(value, 4) == 0.9728


def test_tool_scores_trec_eval_breaks_ties_by_document_id_descending():
    t_ab = by_call(tool_scores([1, 0], [0.5, 0.5], labels=["a", "b"]))  # "b" (grade 0) first
    t_ba = by_call(tool_scores([1, 0], [0.5, 0.5], labels=["b", "a"]))  # "b" (grade 1) first
    assert t_ab["-m ndcg / ndcg_cut.k"] == pytest.approx(1 / L2(3))
    assert t_ba["-m ndcg / ndcg_cut.k"] == pytest.approx(1.0)


def test_tool_scores_pool_lowers_only_the_tools_that_use_judged_items():
    """TEACHING.md §7: two judged relevant items not retrieved: 0.9762 vs 0.6510."""
    t = by_call(tool_scores([3, 2, 0, 0, 1], pool=[3, 2, 0, 0, 1, 3, 2]))
    dcg = 3 + 2 / L2(3) + 1 / L2(6)
    ideal = 3 + 3 / L2(3) + 2 / 2 + 2 / L2(5) + 1 / L2(6)
    assert t["-m ndcg / ndcg_cut.k"] == pytest.approx(dcg / ideal)
    assert round(t["-m ndcg / ndcg_cut.k"], 4) == 0.6510
    assert t["ndcg_score(y_true, y_score)"] == pytest.approx(ndcg_score([[3, 2, 0, 0, 1]], [[5, 4, 3, 2, 1]]))


def test_tool_scores_spark_python_api_sees_binary_relevance():
    value = by_call(tool_scores([3, 0, 1]))["RankingMetrics(...).ndcgAt(k)"]
    assert value == pytest.approx((1 + 1 / 2) / (1 + 1 / L2(3)))


def test_tool_scores_tensorflow_ranking_is_the_expected_value_over_random_tie_orders():
    rel = np.array(GRADES, dtype=float)
    tied = [0, 3, 4]
    values = []
    for perm in itertools.permutations(tied):
        order = [perm[0], perm[1], perm[2], 2, 1]  # 0.9 ×3, then 0.6, then 0.5
        gains = 2 ** rel[order] - 1
        values.append(float(gains @ (1 / L2(np.arange(2, 7)))))
    ideal = float((2 ** np.sort(rel)[::-1] - 1) @ (1 / L2(np.arange(2, 7))))
    value = by_call(tool_scores(GRADES, SCORES))["tfr.keras.metrics.NDCGMetric(topn=k)"]
    assert value == pytest.approx(np.mean(values) / ideal)


def test_tool_scores_nothing_relevant_scores_one_in_lightgbm_and_xgboost_only():
    table = tool_scores([0, 0, 0])
    ones = set(table.loc[table["ndcg"] == 1.0, "tool"])
    assert ones == {"LightGBM", "XGBoost"}
    assert (table["status"] == "empty").all()


def test_tool_scores_marks_tools_that_reject_fractional_grades():
    table = tool_scores([2.5, 1, 0])
    rejected = set(table.loc[table["status"] == "rejects_fraction", "tool"])
    assert rejected == {"trec_eval", "LightGBM", "XGBoost", "torchmetrics"}
    assert table.loc[table["status"] == "rejects_fraction", "ndcg"].isna().all()


def test_tool_scores_scikit_learn_refuses_a_one_item_list():
    table = tool_scores([3])
    assert set(table.loc[table["status"] == "rejects_single", "tool"]) == {"scikit-learn"}


def test_tool_scores_rejects_scores_of_another_length():
    with pytest.raises(NDCGInputError, match="same length"):
        tool_scores([3, 2, 1], [0.5, 0.4])


def test_tool_scores_exponential_tools_refuse_grades_past_their_label_limit():
    table = tool_scores([31, 1, 0]).set_index("tool")
    assert table.loc["LightGBM", "status"] == "rejects_large"
    assert table.loc["XGBoost", "status"] == "ok"
