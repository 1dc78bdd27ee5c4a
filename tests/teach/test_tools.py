"""What each tool computes (ndcg_teach.tools): oracles are scikit-learn and hand arithmetic."""

import itertools

import numpy as np
import pytest
from sklearn.metrics import ndcg_score

from ndcg_core import NDCGInputError
from ndcg_teach.tools import (
    EMPTY_SKIP,
    NOTHING_RETURNED,
    TOOL_COLUMNS,
    TOOLS,
    nothing_relevant_reports,
    tool_call,
    tool_scores,
)

L2 = np.log2
GRADES, SCORES = [7, 4, 1, 0, 0], [0.9, 0.5, 0.6, 0.9, 0.9]


def by_call(table):
    """nDCG by the row's short label (unique per row)."""
    return table.set_index("label")["ndcg"]


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
    assert t["scikit-learn"] == pytest.approx(ndcg_score([grades], [scores], k=5), abs=1e-12)
    assert t["scikit-learn ignore_ties"] == pytest.approx(
        ndcg_score([grades], [scores], k=5, ignore_ties=True), abs=1e-12
    )


def test_tool_scores_ranx_keeps_tied_items_in_input_order():
    """TEACHING.md §7: ranx 0.8957 on the tie example; input order puts the 7 first."""
    dcg = 7 + 0 / L2(3) + 0 / 2 + 1 / L2(5) + 4 / L2(6)
    ideal = 7 + 4 / L2(3) + 1 / 2
    assert by_call(tool_scores(GRADES, SCORES))["ranx ndcg"] == pytest.approx(dcg / ideal)


def test_tool_scores_ranx_burges_uses_exponential_gain():
    dcg = 127 + 1 / L2(5) + 15 / L2(6)
    ideal = 127 + 15 / L2(3) + 1 / 2
    value = by_call(tool_scores(GRADES, SCORES))["ranx ndcg_burges"]
    assert value == pytest.approx(dcg / ideal)
    assert round(value, 4) == 0.9728


def test_tool_scores_trec_eval_breaks_ties_by_document_id_descending():
    t_ab = by_call(tool_scores([1, 0], [0.5, 0.5], labels=["a", "b"]))  # "b" (grade 0) first
    t_ba = by_call(tool_scores([1, 0], [0.5, 0.5], labels=["b", "a"]))  # "b" (grade 1) first
    assert t_ab["trec_eval"] == pytest.approx(1 / L2(3))
    assert t_ba["trec_eval"] == pytest.approx(1.0)


def test_tool_scores_pool_lowers_only_the_tools_that_use_judged_items():
    """TEACHING.md §7: two judged relevant items not retrieved: 0.9762 vs 0.6510."""
    t = by_call(tool_scores([3, 2, 0, 0, 1], pool=[3, 2, 0, 0, 1, 3, 2]))
    dcg = 3 + 2 / L2(3) + 1 / L2(6)
    ideal = 3 + 3 / L2(3) + 2 / 2 + 2 / L2(5) + 1 / L2(6)
    assert t["trec_eval"] == pytest.approx(dcg / ideal)
    assert round(t["trec_eval"], 4) == 0.6510
    assert t["scikit-learn"] == pytest.approx(ndcg_score([[3, 2, 0, 0, 1]], [[5, 4, 3, 2, 1]]))


def test_tool_scores_spark_python_api_sees_binary_relevance():
    value = by_call(tool_scores([3, 0, 1]))["Spark MLlib"]
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
    value = by_call(tool_scores(GRADES, SCORES))["TF Ranking"]
    assert value == pytest.approx(np.mean(values) / ideal)


def test_tool_scores_nothing_relevant_scores_one_in_lightgbm_and_xgboost_only():
    table = tool_scores([0, 0, 0])
    ones = set(table.loc[table["ndcg"] == 1.0, "tool"])
    assert ones == {"LightGBM", "XGBoost"}
    # gdeval leaves such a topic out of its mean (gdeval.pl, topicDone: only topics with a
    # relevant judged item are scored): no value
    left_out = table["status"] == "empty_left_out"
    assert set(table.loc[left_out, "tool"]) == {"gdeval"}
    assert table.loc[left_out, "ndcg"].isna().all()
    assert (table.loc[~left_out, "status"] == "empty").all()


def test_tool_scores_marks_tools_that_reject_fractional_grades():
    """TEACHING.md §7: LightGBM and XGBoost refuse non-integer grades; so does gdeval (its qrels
    format check, /^-?[0-9]+$/)."""
    table = tool_scores([2.5, 1, 0])
    rejected = set(table.loc[table["status"] == "rejects_fraction", "tool"])
    assert rejected == {"LightGBM", "XGBoost", "gdeval"}
    assert table.loc[table["status"] == "rejects_fraction", "ndcg"].isna().all()


def test_tool_scores_trec_eval_and_ranx_truncate_fractional_grades():
    """trec_eval reads grades with atol: [2.5, 1, 0] is scored as [2, 1, 0], a perfect order."""
    table = tool_scores([1.5, 2.7, 0], [0.9, 0.8, 0.7]).set_index("label")
    truncated = (1 + 2 / L2(3)) / (2 + 1 / L2(3))  # [1, 2, 0] against the ideal [2, 1, 0]
    for label in ("trec_eval", "ranx ndcg"):
        assert table.loc[label, "ndcg"] == pytest.approx(truncated, abs=1e-12)
        assert table.loc[label, "status"] == "truncated"


def test_tool_scores_torchmetrics_uses_fractional_grades_as_given():
    table = tool_scores([1.5, 2.7, 0], [0.9, 0.8, 0.7]).set_index("label")
    as_given = (1.5 + 2.7 / L2(3)) / (2.7 + 1.5 / L2(3))
    assert table.loc["torchmetrics", "ndcg"] == pytest.approx(as_given, abs=1e-12)
    assert table.loc["torchmetrics", "status"] == "fraction_as_given"
    assert table.loc["scikit-learn", "ndcg"] == pytest.approx(
        ndcg_score([[1.5, 2.7, 0]], [[0.9, 0.8, 0.7]]), abs=1e-12
    )


def _ranx_ndcg(grades, scores, k, metric="ndcg"):
    """ranx itself on one query (every item judged, ids D001, D002, ...)."""
    import ranx  # imported here: its Numba functions compile on import (seconds)

    # ids of four characters, as in every ranx test (CONTRIBUTING)
    ids = [f"D{i:03d}" for i in range(1, len(grades) + 1)]
    qrels = ranx.Qrels({"q": {d: int(g) for d, g in zip(ids, grades, strict=True) if g > 0}})
    run = ranx.Run({"q": {d: float(s) for d, s in zip(ids, scores, strict=True)}})
    return ranx.evaluate(qrels, run, f"{metric}@{k}")


@pytest.mark.ranx
def test_tool_scores_ranx_rows_follow_ranx_on_sixteen_items_with_a_tie_of_two():
    """The issue's list: 16 items, D11 (grade 2) tied with D14 at the top; ranx ranks D14 first."""
    grades = [0] * 16
    grades[10] = 2
    scores = [16.0 - i for i in range(16)]
    scores[10] = scores[13] = 100.0
    row = tool_scores(grades, scores, k=1).set_index("label").loc["ranx ndcg"]
    assert _ranx_ndcg(grades, scores, 1) == 0.0
    assert row["ndcg"] == 0.0
    assert row["status"] == "ties_reordered"
    fifteen = tool_scores(grades[:15], scores[:15], k=1).set_index("label").loc["ranx ndcg"]
    assert _ranx_ndcg(grades[:15], scores[:15], 1) == 1.0  # input order: D11 first
    assert (fifteen["ndcg"], fifteen["status"]) == (1.0, "ok")


@pytest.mark.ranx
def test_tool_scores_ranx_rows_equal_ranx_on_random_tied_lists():
    """ranx's order of ties (Numba's quicksort) on lists of 2 to 60 items with many ties."""
    rng = np.random.default_rng(23)
    for _ in range(150):
        n = int(rng.integers(2, 61))
        grades = rng.integers(0, 4, n).tolist()
        if not any(grades):
            grades[0] = 1
        scores = rng.integers(0, int(rng.integers(1, n + 1)), n).astype(float).tolist()
        k = int(rng.integers(1, n + 1))
        table = by_call(tool_scores(grades, scores, k=k))
        for label, metric in (("ranx ndcg", "ndcg"), ("ranx ndcg_burges", "ndcg_burges")):
            assert table[label] == pytest.approx(_ranx_ndcg(grades, scores, k, metric), abs=1e-12), (
                grades,
                scores,
                k,
                label,
            )


def test_tool_scores_scikit_learn_ignore_ties_row_is_scikit_learns_number():
    """The issue's list: scikit-learn's order of ties is its own, not "later input first"."""
    grades = [2, 3, 3, 0, 0, 3, 3, 0, 1, 3, 1, 1, 3, 1, 1]
    scores = [2, 2, 0, 0, 3, 3, 3, 2, 3, 1, 1, 3, 0, 1, 0]
    t = by_call(tool_scores(grades, scores))
    assert t["scikit-learn ignore_ties"] == pytest.approx(
        ndcg_score([grades], [scores], ignore_ties=True), abs=1e-12
    )


# --- what a tool reports for nothing relevant, in one place -------------------------------


def test_nothing_relevant_reports_lists_lightgbm_and_xgboost_as_one():
    reports = nothing_relevant_reports()
    assert reports[1.0] == ("LightGBM", "XGBoost")
    assert reports[0.0] == (
        "scikit-learn",
        "ranx",
        "trec_eval",
        "Spark MLlib (Python)",
        "TensorFlow Ranking",
        "torchmetrics",
    )
    assert set(reports) == {0.0, 1.0}


def test_nothing_relevant_reports_agree_with_tool_scores():
    table = tool_scores([0, 0, 0])
    for value, names in nothing_relevant_reports().items():
        assert set(table.loc[table["ndcg"] == value, "tool"]) == set(names)


def test_nothing_relevant_skip_option_is_torchmetrics():
    """The option is the class RetrievalNormalizedDCG's, not the functional's (issue 23)."""
    assert EMPTY_SKIP == {"torchmetrics": 'RetrievalNormalizedDCG(empty_target_action="skip")'}


def test_nothing_returned_is_kept_apart_from_nothing_relevant():
    """TEACHING.md §1: an unanswered query is left out (pytrec_eval, trec_eval 9) or refused."""
    assert dict((name, (what, option)) for name, what, option in NOTHING_RETURNED) == {
        "pytrec_eval": ("left_out", ""),
        "trec_eval 9": ("left_out", ""),
        "trec_eval 10": ("refused_unless", "-c"),
        "ranx": ("refused_unless", "make_comparable=True"),
    }


# --- the whole call, with the current k ------------------------------------------------


@pytest.mark.parametrize(
    ("label", "k", "call"),
    [
        ("scikit-learn", 5, "ndcg_score(y_true, y_score, k=5)"),
        ("scikit-learn", None, "ndcg_score(y_true, y_score)"),
        ("scikit-learn ignore_ties", 3, "ndcg_score(y_true, y_score, k=3, ignore_ties=True)"),
        ("trec_eval", 5, "trec_eval -m ndcg_cut.5 qrels run"),
        ("trec_eval", None, "trec_eval -m ndcg qrels run"),
        ("ranx ndcg", 5, 'ranx.evaluate(qrels, run, "ndcg@5")'),
        ("ranx ndcg_burges", None, 'ranx.evaluate(qrels, run, "ndcg_burges")'),
        ("Spark MLlib", None, "RankingMetrics(predictionAndLabels).ndcgAt(8)"),
        ("LightGBM", 5, '{"metric": "ndcg", "eval_at": [5]}'),
        ("LightGBM", None, '{"metric": "ndcg", "eval_at": [8]}'),
        ("XGBoost", 5, 'eval_metric="ndcg@5"'),
        ("TF Ranking", 5, "tfr.keras.metrics.NDCGMetric(topn=5)"),
        ("torchmetrics", None, "retrieval_normalized_dcg(preds, target)"),
    ],
)
def test_tool_call_writes_the_whole_call_with_the_cutoff(label, k, call):
    tool = next(tool for tool in TOOLS if tool.label == label)
    assert tool_call(tool, k, 8) == call


def test_tool_scores_call_column_uses_the_cutoff():
    table = tool_scores([3, 2, 0, 0, 1], k=3).set_index("label")
    assert table.loc["trec_eval", "call"] == "trec_eval -m ndcg_cut.3 qrels run"


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
