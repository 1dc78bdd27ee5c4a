"""The lesson page (AppTest): steps advance and go back, predict first, numbers equal the core's."""

from __future__ import annotations

import math

import pytest
from app_helpers import box_height, static_table, static_tables

import ndcg_core as nc
from ndcg_core.sklearn_compat import dcg_score, ndcg_score
from ui.framework import i18n

PAGE = "app_pages/1_Lesson.py"


def _progress(at) -> str:
    return at.get("progress")[0].proto.text


def _table(at):
    """The lesson's step table: the first static table with an "Item" column."""
    return static_table(at, "Item")


def test_lesson_runs_on_defaults_at_step_one(app):
    at = app(page=PAGE)
    assert not at.exception
    assert at.title[0].value == "Lesson: G → nDCG"
    assert _progress(at).startswith("Step 1 of 6")
    assert at.radio(key="lesson.predict.gain").value is None


def test_lesson_next_and_back_move_between_steps(app):
    at = app(page=PAGE)
    at.button(key="lesson.next").click().run()
    assert _progress(at).startswith("Step 2 of 6")
    assert at.query_params["step"] in ("2", ["2"])
    at.button(key="lesson.next").click().run()
    assert _progress(at).startswith("Step 3 of 6")
    at.button(key="lesson.back").click().run()
    assert _progress(at).startswith("Step 2 of 6")
    assert not at.exception


def test_lesson_back_is_disabled_at_the_first_step_and_next_at_the_last(app):
    assert app(page=PAGE).button(key="lesson.back").disabled
    assert app(page=PAGE, step="6").button(key="lesson.next").disabled


def test_lesson_step_adds_its_column_only_after_the_prediction(app):
    at = app(page=PAGE, step="2")
    assert "CG" not in _table(at).columns
    at.radio(key="lesson.predict.cg").set_value("no").run()
    assert "CG" in _table(at).columns
    assert at.success[0].value.startswith("Right")


def test_lesson_dcg_reveal_shows_the_core_numbers(app):
    at = app(page=PAGE, step="3", rel="3,2,0,0,1")
    at.radio(key="lesson.predict.dcg").set_value("dcg").run()
    m = nc.metrics([3, 2, 0, 0, 1])
    verdict = at.warning[0].value
    assert verdict.startswith("Not quite")
    assert f"DCG@5 = {m.dcg:.4f}" in verdict
    assert _table(at)["DCG"].tolist()[-1] == f"{m.dcg:.4f}"


def test_lesson_show_me_reveals_without_an_answer(app):
    at = app(page=PAGE, step="5", rel="2,0,1")
    at.button(key="lesson.predict.ndcg.show").click().run()
    assert f"nDCG@3 = {nc.ndcg([2, 0, 1]):.4f}" in at.info[0].value
    assert _table(at)["nDCG"].tolist()[-1] == f"{nc.ndcg([2, 0, 1]):.4f}"


def test_lesson_play_step_shows_all_metrics_of_the_core(app):
    at = app(page=PAGE, step="6", rel="1,3,0,2", k="3", gain="exponential")
    assert not at.exception
    m = nc.metrics([1, 3, 0, 2], k=3, gain="exponential")
    shown = {metric.label: metric.value for metric in at.metric}
    assert shown["nDCG@3"] == f"{m.ndcg:.4f}"
    assert shown["IDCG@3"] == f"{m.idcg:.4f}"


def test_lesson_drag_at_the_last_step_reorders_the_shared_ranking(app):
    at = app(page=PAGE, step="6", rel="3,2,0,0,1")
    from ui.components import widgets
    from ui.framework.state import Ranking

    key = widgets.sortable_key(Ranking(), "lesson")
    at.session_state[key] = ["D5 · 1", "D1 · 3", "D2 · 2", "D3 · 0", "D4 · 0"]
    at.run()
    assert at.query_params["rel"] in ("1,3,2,0,0", ["1,3,2,0,0"])
    shown = {metric.label: metric.value for metric in at.metric}
    assert shown["nDCG@5"] == f"{nc.ndcg([1, 3, 2, 0, 0]):.4f}"


def test_lesson_slip_numbers_come_from_the_core(app):
    at = app(page=PAGE, step="6")
    at.radio(key="lesson.predict.slip").set_value("no").run()
    shown = {metric.label: metric.value for metric in at.metric}
    assert shown["dcg_score"] == f"{dcg_score([[3, 2, 1, 0, 0]], [[3, 2, 0, 0, 1]]):.4f}"
    assert shown["dcg_score"] == "4.6706"
    assert f"{nc.dcg([3, 2, 0, 0, 1]):.4f}" == "4.6487"
    assert "4.6487" in at.success[0].value
    right = ndcg_score([[3, 2, 0, 0, 1]], [[5, 4, 3, 2, 1]])
    assert f"nDCG = {right:.4f}" in " ".join(md.value for md in at.markdown)


def test_lesson_malformed_step_shows_a_message_and_opens_step_one(app):
    at = app(page=PAGE, step="<b>7</b>")
    assert not at.exception
    assert "step" in at.error[0].value
    assert _progress(at).startswith("Step 1 of 6")


def test_lesson_malformed_ranking_link_still_runs_every_step(app):
    for step in ("1", "3", "6"):
        at = app(page=PAGE, step=step, rel="3,x", k="0")
        assert not at.exception


def test_lesson_in_chinese_uses_chinese_step_names(app):
    at = app(page=PAGE, step="4", lang="zh")
    assert "理想折损累计增益" in _progress(at)


def test_lesson_item_names_in_a_question_stay_plain_text(app):
    at = app(page=PAGE, step="2", rel="3,1", item=["**bold**", "<i>x</i>"])
    assert not at.exception
    label = at.radio(key="lesson.predict.cg").label
    assert "\\*\\*bold\\*\\*" in label
    assert "\\<i\\>" in label


def test_lesson_in_presenter_mode_shows_the_whole_table_unboxed(app):
    rel = ",".join(["1"] * 15)
    at = app(page=PAGE, step="3", present="1", rel=rel)
    at.button(key="lesson.predict.dcg.show").click().run()
    assert not at.exception
    (table, _), *_ = static_tables(at, "DCG")  # the whole table, then its parts
    assert len(table) == 15
    assert box_height(at, "lesson_table-whole") == "content"
    # off presenter mode a table this long scrolls inside a box of fixed height
    at = app(page=PAGE, step="3", rel=rel)
    at.button(key="lesson.predict.dcg.show").click().run()
    assert box_height(at, "lesson_table-whole") == "420"


def test_lesson_marks_rows_past_k_only_when_there_are_some(app):
    at = app(page=PAGE, step="2", rel="3,2,0,0,1", k="3")
    at.radio(key="lesson.predict.cg").set_value("no").run()
    ((table, grey),) = static_tables(at, "CG")
    assert table["In top k"].tolist() == ["✓ yes"] * 3 + ["— no"] * 2
    assert grey == [False] * 3 + [True] * 2
    at = app(page=PAGE, step="2", rel="3,2,0,0,1")
    at.radio(key="lesson.predict.cg").set_value("no").run()
    ((table, grey),) = static_tables(at, "CG")
    assert "In top k" not in table.columns and not any(grey)


# --- issue 11: CG sums gains; why log2(i + 1); which ideal; the same k ----------------------


def test_lesson_cg_reveal_with_exponential_gain_sums_gains(app):
    """[3, 2, 0, 0, 1] with 2^rel − 1: CG@5 = 7 + 3 + 0 + 0 + 1 = 11 in the verdict and the table."""
    at = app(page=PAGE, step="2", rel="3,2,0,0,1", gain="exponential")
    at.radio(key="lesson.predict.cg").set_value("no").run()
    assert "CG@5 is 11 now" in at.success[0].value
    assert _table(at)["CG"].tolist()[-1] == str(7 + 3 + 0 + 0 + 1)


def test_lesson_ndcg_explain_drops_the_comparable_across_queries_claim(app):
    at = app(page=PAGE, step="5")
    text = " ".join(m.value for m in at.markdown)
    assert "comparable across" not in text
    assert "averaged" in text and "for one query, with a fixed ideal and k" in text.lower()


def test_lesson_bases_section_shows_dcg_per_base_from_scikit_learn(app):
    at = app(page=PAGE, step="3", rel="3,2,0,0,1")
    at.radio(key="lesson.predict.bases").set_value("same").run()
    assert at.success[-1].value.startswith("Right")
    table = static_table(at, "Base b")
    expected = [
        dcg_score([[3, 2, 0, 0, 1]], [[5, 4, 3, 2, 1]], log_base=b) for b in (2, 2.718281828459045, 10)
    ]
    assert table["DCG@5"].tolist() == [f"{x:.4f}" for x in expected]
    assert set(table["nDCG@5"]) == {f"{ndcg_score([[3, 2, 0, 0, 1]], [[5, 4, 3, 2, 1]]):.4f}"}


def test_lesson_which_ideal_compares_list_and_pool(app):
    """[3, 2, 0, 0, 1] with two unretrieved judged items (3 and 2): 0.9762 against 0.6510."""
    at = app(page=PAGE, step="4", rel="3,2,0,0,1")
    at.radio(key="lesson.predict.which_ideal").set_value("lower").run()
    table = static_table(at, "Ideal from")
    own = nc.ndcg([3, 2, 0, 0, 1])
    pooled = nc.ndcg([3, 2, 0, 0, 1], pool=[3, 2, 0, 0, 1, 3, 2])
    assert table["nDCG@5"].tolist() == [f"{own:.4f}", f"{pooled:.4f}"]
    assert (f"{own:.4f}", f"{pooled:.4f}") == ("0.9762", "0.6510")


def test_lesson_same_k_trap_reveals_0_7487(app):
    at = app(page=PAGE, step="4")
    at.radio(key="lesson.predict.same_k").set_value("less").run()
    assert "= 0.7487" in at.success[-1].value


def _dcg_explanation(at) -> str:
    """The DCG step's explanation: the markdown right under the step's header."""
    return next(md.value for md in at.markdown if "DCG" in md.value and "log₂" in md.value)


def test_lesson_dcg_explanation_with_the_jarvelin_discount_names_it_and_its_factors(app):
    at = app(page=PAGE, step="3", rel="3,2,0,0,1", disc="jarvelin")
    text = _dcg_explanation(at)
    assert "log₂(i + 1)" not in text
    assert "max(1, log₂ i)" in text
    # 1/max(1, log2 i) at i = 1..5: 1, 1, 1/log2 3, 1/2, 1/log2 5
    factors = ["1", "1", f"{1 / math.log2(3):.3f}", "0.5", f"{1 / math.log2(5):.3f}"]
    assert f"({', '.join(factors)}, …)" in text


def test_lesson_dcg_explanation_with_the_jarvelin_discount_in_chinese(app):
    at = app(page=PAGE, step="3", rel="3,2,0,0,1", disc="jarvelin", lang="zh")
    text = _dcg_explanation(at)
    assert "log₂(i + 1)" not in text
    assert "Järvelin" in text
    factors = ["1", "1", f"{1 / math.log2(3):.3f}", "0.5", f"{1 / math.log2(5):.3f}"]
    assert f"（{'、'.join(factors)}……）" in text


def test_lesson_dcg_explanation_with_the_log2_discount_lists_its_factors(app):
    for lang, opening, sep, close in (("en", "(", ", ", ", …)"), ("zh", "（", "、", "……）")):
        at = app(page=PAGE, step="3", rel="3,2,0,0,1", lang=lang)
        text = _dcg_explanation(at)
        assert "log₂(i + 1)" in text
        # 1/log2(i + 1) at i = 1..5: 1, 1/log2 3, 1/2, 1/log2 5, 1/log2 6
        factors = [
            "1",
            f"{1 / math.log2(3):.3f}",
            "0.5",
            f"{1 / math.log2(5):.3f}",
            f"{1 / math.log2(6):.3f}",
        ]
        assert opening + sep.join(factors) + close in text


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", [None, PAGE])
def test_drag_cards_say_which_keys_move_them(app, lang, page):
    """Under the Calculator's and the Lesson's drag cards: how to move one without a mouse (a
    keyboard user otherwise has no way to know Space picks a card up), in the page's language."""
    at = app(lang=lang, rel="3,2,0,0,1", **({"page": page, "step": "6"} if page else {}))
    assert not at.exception
    keys = i18n.catalog(lang)["common.drag_keys"]
    assert [c.value for c in at.caption if c.value == keys] == [keys]
