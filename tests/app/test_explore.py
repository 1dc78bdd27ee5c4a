"""The Explore page (AppTest): swap heatmap, all orderings, slide-down; numbers equal the core's."""

from __future__ import annotations

import math
from functools import partial

import pytest

import ndcg_core as nc
from ndcg_core.steps import permutation_distribution, slide_down, swap_matrix
from ui.components import prompts
from ui.framework import i18n
from ui.framework.state import Ranking

PAGE = "app_pages/5_Explore.py"


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _table_with(at, column: str):
    """The first table shown with ``column`` (tables carry no key in AppTest)."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def _unescape(text: str) -> str:
    return text.replace("\\", "")


def test_explore_runs_on_defaults_and_shows_current_ndcg(app):
    at = app(page=PAGE)
    assert not at.exception
    assert _metrics(at)["nDCG@5 now"] == f"{nc.ndcg([3, 2, 0, 0, 1]):.4f}"


def test_explore_runs_in_chinese_with_a_cutoff(app):
    at = app(page=PAGE, rel="3,2,0,0,1", k="3", lang="zh")
    assert not at.exception
    assert at.title[0].value == "探索"
    assert _metrics(at)["当前 nDCG@3"] == f"{nc.ndcg([3, 2, 0, 0, 1], k=3):.4f}"


def test_explore_malformed_link_falls_back_to_the_example(app):
    at = app(page=PAGE, rel="3;;-1", k="zero")
    assert not at.exception
    assert len(at.error) == 2
    assert _metrics(at)["nDCG@5 now"] == f"{nc.ndcg([3, 2, 0, 0, 1]):.4f}"


def test_explore_single_item_says_views_need_two(app):
    at = app(page=PAGE, rel="3")
    assert not at.exception
    assert "at least two items" in at.info[0].value


def test_swap_metric_equals_swap_matrix(app):
    at = app(page=PAGE, rel="1,3,0,2")
    at.selectbox(key="explore.swap_i").set_value(1)
    at.selectbox(key="explore.swap_j").set_value(4).run()
    row = swap_matrix([1, 3, 0, 2]).query("i == 1 and j == 4").iloc[0]
    metric = next(m for m in at.metric if m.label.endswith("after the swap"))
    assert metric.value == f"{row['ndcg']:.4f}"
    assert metric.delta == f"{row['delta']:+.4f}"


def test_apply_swap_changes_the_shared_ranking(app):
    at = app(page=PAGE, rel="1,3,0,2")
    at.selectbox(key="explore.swap_i").set_value(1)
    at.selectbox(key="explore.swap_j").set_value(2).run()
    at.button(key="explore.apply_swap").click().run()
    assert not at.exception
    assert at.query_params["rel"] in ("3,1,0,2", ["3,1,0,2"])
    assert _metrics(at)["nDCG@4 now"] == f"{nc.ndcg([3, 1, 0, 2]):.4f}"


def test_best_swap_table_lists_the_most_helpful_swap_first(app):
    at = app(page=PAGE, rel="0,1,3")
    best = _table_with(at, "Swap (positions)")
    assert best.iloc[0, 0] == "D1 (1) ↔ D3 (3)"
    assert best.iloc[0, 1] == pytest.approx(swap_matrix([0, 1, 3]).query("i == 1 and j == 3")["ndcg"].item())


def test_distribution_hidden_until_a_guess(app):
    at = app(page=PAGE)
    assert at.radio(key="explore.guess").value is None
    assert not any(m.label.startswith("Percentile") for m in at.metric)


def test_distribution_numbers_equal_the_core(app):
    at = app(page=PAGE)
    at.radio(key="explore.guess").set_value("high").run()
    dist = permutation_distribution([3, 2, 0, 0, 1])
    shown = _metrics(at)
    assert shown["Percentile of your ranking"] == f"{dist.percentile:.1f} %"
    assert shown["Mean nDCG@5 of a random ordering"] == f"{dist.mean:.4f}"
    assert at.success[0].value.startswith("Right")  # 96.7 % is "more than 90 %"
    assert any("all 120 orderings" in c.value for c in at.caption)


def test_distribution_wrong_guess_gives_the_answer(app):
    at = app(page=PAGE)
    at.radio(key="explore.guess").set_value("low").run()
    assert at.warning[0].value.startswith("Not quite. 96.7 %")


def test_a_guess_is_asked_again_after_a_swap_with_the_new_numbers_shown(app):
    """The answer was for [3, 2, 0, 0, 1] (96.7 %: "high", right); after "Apply this swap" of
    positions 1 and 5, [1, 2, 0, 0, 3] is at 51.7 % ("mid"), and the old answer was judged "Not
    quite" against it. Now the question is asked again, the new numbers shown meanwhile (as
    after "just show me"), and any answer, the same one too, is judged on them."""
    at = app(page=PAGE)
    at.radio(key="explore.guess").set_value("high").run()
    assert at.success[0].value.startswith("Right. 96.7 %")
    at.selectbox(key="explore.swap_i").set_value(1)
    at.selectbox(key="explore.swap_j").set_value(5).run()
    at.button(key="explore.apply_swap").click().run()
    assert not at.exception and at.query_params["rel"] in ("1,2,0,0,3", ["1,2,0,0,3"])
    new = permutation_distribution([1, 2, 0, 0, 3])
    assert round(new.percentile, 1) == 51.7  # "mid": from 50 to 90 %
    assert at.radio(key="explore.guess").value is None and not at.success and not at.warning
    earlier = i18n.translate("en", "common.predict_earlier")
    assert at.info[0].value.startswith(earlier) and "51.7 %" in at.info[0].value
    assert _metrics(at)["Percentile of your ranking"] == "51.7 %"  # the page keeps its numbers
    at.radio(key="explore.guess").set_value("high").run()
    assert at.warning[0].value.startswith("Not quite. 51.7 %")
    at.radio(key="explore.guess").set_value("mid").run()
    assert at.success[0].value.startswith("Right. 51.7 %")


def test_a_guess_is_kept_when_the_language_changes(app):
    at = app(page=PAGE)
    at.radio(key="explore.guess").set_value("low").run()
    at.sidebar.selectbox(key="lab.lang_widget").set_value("zh").run()
    assert at.radio(key="explore.guess").value == "low"
    assert at.warning[0].value.startswith("不太对。96.7 %")  # no space after Chinese punctuation


def test_a_page_prediction_is_about_its_numbers_in_no_language():
    """What an answer is judged on (``Question.about``, the decision's numbers) is the same in
    both languages and changes with the ranking: a DCG@5 prediction for [3, 2, 0, 0, 1] and for
    [2, 3, 0, 0, 1] (DCG 4.6487 against 4.2796)."""
    first, swapped = Ranking(), Ranking().with_order([1, 0, 2, 3, 4])
    en, zh = (
        prompts.question("lesson.dcg", prompts.data_of(first), partial(i18n.translate, lang))
        for lang in ("en", "zh")
    )
    other = prompts.question("lesson.dcg", prompts.data_of(swapped), partial(i18n.translate, "en"))
    assert en.about == zh.about and en.about != other.about
    assert en.about[2]["dcg"] == pytest.approx(3 + 2 / math.log2(3) + 1 / math.log2(6))
    assert other.about[2]["dcg"] == pytest.approx(2 + 3 / math.log2(3) + 1 / math.log2(6))


def test_distribution_of_a_long_list_is_a_seeded_sample(app):
    rel = [3, 2, 1, 0, 3, 2, 1, 0, 2, 1]
    at = app(page=PAGE, rel=",".join(map(str, rel)), k="5")
    at.button(key="explore.guess.show").click().run()
    assert not at.exception
    dist = permutation_distribution(rel, k=5, samples=20_000, seed=0)
    assert _metrics(at)["Percentile of your ranking"] == f"{dist.percentile:.1f} %"
    assert any("seeded sample of 20,000" in c.value for c in at.caption)


def test_slide_sentence_and_table_equal_the_core(app):
    at = app(page=PAGE, rel="3,2,0,0,1")
    at.selectbox(key="explore.slide_from").set_value(2).run()
    at.slider(key="explore.slide_d.2.5").set_value(3).run()
    data = slide_down([3, 2, 0, 0, 1], position=2)
    sentence = _unescape(next(m.value for m in at.markdown if m.value.startswith("Moving")))
    expected_after = data.query("d == 3")["ndcg"].item()
    change = expected_after - nc.ndcg([3, 2, 0, 0, 1])
    assert change < 0
    # the change is read, not copied: its minus the true minus sign (U+2212), as the charts write it
    assert sentence == (
        f"Moving D2 from position 2 to 5 lowers nDCG@5 from {nc.ndcg([3, 2, 0, 0, 1]):.4f} "
        f"to {expected_after:.4f} (\u2212{abs(change):.4f})."
    )
    table = _table_with(at, "New position")
    assert list(table.iloc[:, 3]) == pytest.approx(list(data["ndcg"]))


def test_harmful_swaps_table_lists_only_swaps_that_lower_ndcg(app):
    at = app(page=PAGE, rel="0,1,3,2")
    harmful = swap_matrix([0, 1, 3, 2]).query("i < j and delta < 0")
    worst = [d.value for d in at.dataframe if "Swap (positions)" in d.value.columns][1]
    assert len(worst) == min(5, len(harmful))
    assert (worst.iloc[:, 2] < 0).all()


def test_ideal_ranking_has_no_helpful_swap(app):
    at = app(page=PAGE, rel="3,2,1")
    assert not at.exception
    assert any(c.value.startswith("No swap raises nDCG") for c in at.caption)


def test_distribution_shows_worst_and_best_order(app):
    """Worst order of [3, 2, 0, 0, 1] is [0, 0, 1, 2, 3]: 0.5296 (brute force: the histogram's minimum)."""
    import numpy as np

    at = app(page=PAGE)
    at.radio(key="explore.guess").set_value("high").run()
    shown = _metrics(at)
    L2 = np.log2
    worst = (1 / L2(4) + 2 / L2(5) + 3 / L2(6)) / (3 + 2 / L2(3) + 1 / L2(4))
    assert shown["Worst order (grades ascending)"] == f"{worst:.4f}"
    assert shown["Best order"] == "1.0000"


def _swap_metric(at):
    return next(m for m in at.metric if m.label.endswith("after the swap"))


def test_explore_chosen_swap_goes_to_the_link(app):
    at = app(page=PAGE, rel="3,2,0,0,1")
    at.selectbox(key="explore.swap_j").set_value(4).run()
    assert at.query_params["swap"] in ("1,4", ["1,4"])


def test_explore_link_with_a_swap_opens_that_swap(app):
    at = app(page=PAGE, rel="3,2,0,0,1", swap="1,4")
    assert not at.exception
    assert at.selectbox(key="explore.swap_i").value == 1
    assert at.selectbox(key="explore.swap_j").value == 4
    # swapping positions 1 and 4 of [3, 2, 0, 0, 1] gives [0, 2, 0, 3, 1]
    assert _swap_metric(at).value == f"{nc.dcg([0, 2, 0, 3, 1]) / nc.dcg([3, 2, 1, 0, 0]):.4f}"


def test_explore_bad_swap_in_the_link_says_so_and_shows_the_default_swap(app):
    at = app(page=PAGE, rel="3,2,0,0,1", swap="1,9", lang="zh")
    assert not at.exception
    assert "交换必须是 1 到 5 之间的两个位置" in at.error[0].value
    assert (at.selectbox(key="explore.swap_i").value, at.selectbox(key="explore.swap_j").value) == (1, 2)
    assert "swap" not in at.query_params
    assert _metrics(at)["当前 nDCG@5"] == f"{nc.ndcg([3, 2, 0, 0, 1]):.4f}"
