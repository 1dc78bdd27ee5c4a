"""The Blind spots page (AppTest): predict first, then numbers equal to the core's."""

from __future__ import annotations

import pytest
from app_helpers import static_table, static_tables

import ndcg_core as nc

PAGE = "app_pages/4_Blind_spots.py"
PREDICTS = (
    "blind.padding.predict",
    "blind.unretrieved.predict",
    "blind.nothing.predict",
    "blind.lengths.predict",
)


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _answer(at, **choices):
    for name, value in choices.items():
        at.radio(key=f"blind.{name}.predict").set_value(value)
    return at.run()


def test_blind_spots_runs_on_defaults_with_nothing_revealed(app):
    at = app(page=PAGE)
    assert not at.exception
    assert at.title[0].value == "Blind spots"
    assert all(at.radio(key=key).value is None for key in PREDICTS)
    assert len(at.metric) == 0


def test_blind_spots_runs_on_the_shared_example_in_chinese(app):
    at = app(page=PAGE, rel="3,2,0,0,1", lang="zh")
    at = _answer(at, padding="same", unretrieved="same", nothing="zero", lengths="B")
    assert not at.exception
    assert at.title[0].value == "盲点"


def test_blind_spots_malformed_link_falls_back_and_still_works(app):
    at = app(page=PAGE, rel="3,x,<b>", gain="cubic")
    assert not at.exception
    assert len(at.error) >= 2  # one translated message per broken parameter
    at = _answer(at, padding="same")
    assert not at.exception


def test_padding_reveal_shows_core_numbers(app):
    at = _answer(app(page=PAGE), padding="same")
    assert at.success[0].value.startswith("Right")
    shown = _metrics(at)
    assert shown["nDCG · List A"] == f"{nc.ndcg([3]):.4f}"
    assert shown["nDCG · List B"] == f"{nc.ndcg([3, 0, 0]):.4f}"


def test_padding_wrong_prediction_says_not_quite(app):
    at = _answer(app(page=PAGE), padding="A")
    assert at.warning[0].value.startswith("Not quite")


def test_padding_zeros_control_changes_list_b(app):
    at = _answer(app(page=PAGE), padding="same")
    at.slider(key="blind.padding.zeros").set_value(5).run()
    table = at.dataframe[0].value
    assert table.iloc[1, 1] == "[3, 0, 0, 0, 0, 0]"
    assert table.iloc[1, -1] == pytest.approx(nc.ndcg([3, 0, 0, 0, 0, 0]))


def test_blind_spots_summary_has_a_static_copy_for_phones(app):
    """A phone gets the summary as a static table with the same cells (the data frame's canvas
    of seven columns scrolled sideways in a phone's column); the screen's width picks one."""
    at = _answer(app(page=PAGE), padding="same")
    wide = at.dataframe[0].value
    narrow = static_table(at, str(wide.columns[0]))
    assert list(narrow.columns) == [str(c) for c in wide.columns]
    assert narrow.iloc[:, 1].tolist() == ["[3]", "[3, 0, 0]"]
    assert narrow.iloc[:, -1].tolist() == ["1.0000", "1.0000"]  # both lists are their own ideal


def test_padding_can_start_from_the_shared_ranking(app):
    at = _answer(app(page=PAGE, rel="2,0,1"), padding="same")
    at.radio(key="blind.padding.base").set_value("mine").run()
    table = at.dataframe[0].value
    assert list(table.iloc[:, 1]) == ["[2, 0, 1]", "[2, 0, 1, 0, 0]"]
    assert _metrics(at)["nDCG · List A"] == f"{nc.ndcg([2, 0, 1]):.4f}"


def test_unretrieved_pool_ideal_lowers_list_a(app):
    at = _answer(app(page=PAGE), unretrieved="same")
    assert _metrics(at)["nDCG · List A"] == "1.0000"
    at.radio(key="blind.unretrieved.ideal").set_value("pool").run()
    assert _metrics(at)["nDCG · List A"] == f"{nc.ndcg([3, 3, 3], pool=[3, 3, 3, 3]):.4f}"
    at.slider(key="blind.unretrieved.judged").set_value(6).run()
    shown = _metrics(at)
    assert shown["nDCG · List A"] == f"{nc.ndcg([3, 3, 3], pool=[3] * 6):.4f}"
    assert shown["nDCG · List B"] == f"{nc.ndcg([3, 3, 3, 3], pool=[3] * 6):.4f}"


def test_nothing_relevant_reports_zero_and_says_why(app):
    at = _answer(app(page=PAGE), nothing="undefined")
    shown = _metrics(at)
    assert shown["nDCG · List A"] == f"{nc.ndcg([0, 0, 0]):.4f}" == "0.0000"
    assert shown["nDCG · List B"] == f"{nc.ndcg([0, 0, 1]):.4f}"
    assert any("IDCG of List A is 0" in c.value for c in at.caption)  # not "of list List A"


def test_nothing_relevant_names_the_list_once_in_chinese(app):
    at = _answer(app(page=PAGE, lang="zh"), nothing="undefined")
    assert any(c.value.startswith("列表 A 的 IDCG 为 0") for c in at.caption)  # not "列表 列表 A"


def test_lengths_shows_dcg_of_both_lists_from_the_core(app):
    at = _answer(app(page=PAGE, gain="exponential"), lengths="B")
    at.slider(key="blind.lengths.n").set_value(12).run()
    long = [1, 0, 2, 1, 3, 1, 2, 1, 1, 2, 1, 1]
    shown = _metrics(at)
    assert shown["DCG · List A"] == f"{nc.dcg([3, 2, 1], gain='exponential'):.4f}"
    assert shown["DCG · List B"] == f"{nc.dcg(long, gain='exponential'):.4f}"


# --- issue 11: lengths, difficulty, the gain, unjudged items, what nDCG ignores --------------


L2 = __import__("numpy").log2
NEW_PREDICTS = (
    "blind.difficulty.predict",
    "blind.gain.predict",
    "blind.unjudged.predict",
    "blind.not_modelled.predict",
)


def test_blind_spots_new_cases_hide_numbers_until_predicted(app):
    at = app(page=PAGE)
    assert all(at.radio(key=key).value is None for key in NEW_PREDICTS)


def test_blind_spots_lengths_why_drops_comparable_claim(app):
    at = _answer(app(page=PAGE), lengths="B")
    why = " ".join(i.value for i in at.info)
    assert "comparable across them" not in why
    assert "with a fixed ideal and k" in why


def test_blind_spots_difficulty_shows_closed_form_numbers(app):
    """[1,1,1,1,0]: mean 0.921, worst 0.761; [1,0,0,0,0]: mean 0.590 (TEACHING.md §1)."""
    at = _answer(app(page=PAGE, rel="3,2,0,0,1"), difficulty="A")
    assert at.success[-1].value.startswith("Right")
    table = static_table(at, "Worst order")
    d = [1 / L2(i + 1) for i in range(1, 6)]
    idcg = sum(d[:4])
    assert table["Mean over all orders"].tolist()[:2] == [f"{0.8 * sum(d) / idcg:.4f}", f"{0.2 * sum(d):.4f}"]
    assert table["Worst order"].tolist()[0] == f"{sum(d[1:]) / idcg:.4f}"
    worked_worst = (1 / L2(4) + 2 / L2(5) + 3 / L2(6)) / (3 + 2 / L2(3) + 1 / L2(4))
    assert table["Worst order"].tolist()[2] == f"{worked_worst:.4f}"
    assert "0.530" in at.info[-1].value or any("0.530" in i.value for i in at.info)


def test_blind_spots_gain_case_reverses_the_winner(app):
    at = _answer(app(page=PAGE), gain="B")
    table = static_table(at, "Higher")
    assert table["Higher"].tolist() == ["A", "B"]
    assert table["nDCG@5 · system A"].tolist() == ["0.9070", "0.8051"]
    assert table["nDCG@5 · system B"].tolist() == ["0.7570", "0.8090"]


def test_blind_spots_unjudged_metrics_equal_core(app):
    at = _answer(app(page=PAGE), unjudged="drop")
    at.text_input(key="blind.unjudged.text").set_value("3, ?, 1, 0").run()
    shown = _metrics(at)
    nan = float("nan")
    # ? as 0: [3, 0, 1, 0] against [3, 1, 0, 0]; dropped: [3, 1, 0] against the same ideal
    assert shown["nDCG@4, unjudged = 0"] == f"{(3 + 1 / L2(4)) / (3 + 1 / L2(3)):.4f}"
    assert shown["nDCG′@4, unjudged removed"] == f"{nc.ndcg([3, nan, 1, 0], unjudged='drop'):.4f}" == "1.0000"
    assert shown["judged@4"] == "75%"


def test_blind_spots_unjudged_bad_text_shows_error_and_page_survives(app):
    at = _answer(app(page=PAGE), unjudged="drop")
    at.text_input(key="blind.unjudged.text").set_value("3, x").run()
    assert not at.exception
    assert any("'x'" in e.value for e in at.error)


def test_blind_spots_not_modelled_duplicates_score_one(app):
    at = _answer(app(page=PAGE), not_modelled="no")
    assert at.success[-1].value.startswith("Right")
    assert any("α-nDCG" in m.value and "ERR" in m.value and "RBP" in m.value for m in at.markdown)


def test_blind_spots_step_table_marks_unreturned_positions_with_a_dash(app):
    """With the judged pool as ideal, the position past List A's three items has no grade: the
    step table shows "—" there (as for its item), never an empty cell, None or nan."""
    at = _answer(app(page=PAGE), unretrieved="same")
    at.radio(key="blind.unretrieved.ideal").set_value("pool").run()
    # List A's step table (the Calculator's static one, whole before its parts for a phone):
    # the first with a row past its items
    steps = next(frame for frame, _ in static_tables(at, "Grade") if nc.NO_ITEM in frame["Item"].tolist())
    assert steps["Grade"].tolist() == ["3", "3", "3", nc.NO_ITEM]
    assert steps["Ideal grade"].tolist() == ["3", "3", "3", "3"]  # the pool: four items of grade 3


def test_blind_spots_lists_in_chinese_use_the_full_width_colon(app):
    at = app(page=PAGE, lang="zh")
    shown = " ".join(m.value for m in at.markdown)
    # the padding case: list A is [3], list B the same with two irrelevant items after it
    assert "列表 A：`[3]` · 列表 B：`[3, 0, 0]`" in shown
    assert "列表 A: " not in shown and "列表 B: " not in shown


# --- issue 23 item 3: the sentences hold under the settings the numbers use ---------------


def _jk(i):
    """Järvelin and Kekäläinen's discount at position i (b = 2): 1 / max(1, log2 i)."""
    return 1 / max(1.0, L2(i))


def _hand_ndcg(grades, pool, k, gain, discount):
    g = (lambda x: x) if gain == "linear" else (lambda x: 2**x - 1)
    dcg = sum(g(x) * discount(i) for i, x in enumerate(grades[:k], start=1))
    return dcg / sum(g(x) * discount(i) for i, x in enumerate(sorted(pool, reverse=True)[:k], start=1))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_blind_spots_gain_case_keeps_its_discount_under_jarvelin(app, lang):
    """With Järvelin–Kekäläinen chosen, the case still uses 1/log2(i+1) (B wins with exponential
    gain) and says what J&K would give: A under both gains (0.931 vs 0.669; 0.851 vs 0.731)."""
    at = _answer(app(page=PAGE, disc="jarvelin", lang=lang), gain="B")
    assert not at.exception
    winner = "更高者" if lang == "zh" else "Higher"
    table = static_table(at, winner)
    assert table[winner].tolist() == ["A", "B"]
    log2 = lambda i: 1 / L2(i + 1)  # noqa: E731
    pool, a, b = [3, 2, 2, 2, 0, 0], [2, 2, 2, 3, 0], [3, 0, 0, 2, 2]
    col_a = "nDCG@5 · 系统 A" if lang == "zh" else "nDCG@5 · system A"
    assert table[col_a].tolist() == [
        f"{_hand_ndcg(a, pool, 5, g, log2):.4f}" for g in ("linear", "exponential")
    ]
    caption = " ".join(c.value for c in at.caption)
    for gain, expected in (("linear", ("0.931", "0.669")), ("exponential", ("0.851", "0.731"))):
        jk_a, jk_b = _hand_ndcg(a, pool, 5, gain, _jk), _hand_ndcg(b, pool, 5, gain, _jk)
        assert (f"{jk_a:.3f}", f"{jk_b:.3f}") == expected
        assert f"{jk_a:.4f}" in caption and f"{jk_b:.4f}" in caption


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_blind_spots_lengths_sentence_follows_the_settings(app, lang):
    """ "A long list collects more DCG": with exponential gain list B never passes A (12 items at
    most); with J&K and linear gain it passes from 9 items, not at the default 8."""
    short, long = [3, 2, 1], [1, 0, 2, 1, 3, 1, 2, 1, 1, 2, 1, 1]
    exp_dcg = lambda xs: sum((2**x - 1) / L2(i + 1) for i, x in enumerate(xs, start=1))  # noqa: E731
    assert all(exp_dcg(long[:n]) < exp_dcg(short) for n in range(3, 13))
    at = _answer(app(page=PAGE, gain="exponential", lang=lang), lengths="A")
    info = " ".join(i.value for i in at.info)
    assert (
        ("超不过" in info and "12 项" in info)
        if lang == "zh"
        else "never passes list A’s, even at 12 items" in info
    )
    jk_dcg = lambda xs: sum(x * _jk(i) for i, x in enumerate(xs, start=1))  # noqa: E731
    assert jk_dcg(long[:8]) < jk_dcg(short) < jk_dcg(long[:9])
    at = _answer(app(page=PAGE, disc="jarvelin", lang=lang), lengths="A")
    info = " ".join(i.value for i in at.info)
    assert ("从 9 项起" in info) if lang == "zh" else "from 9 items on" in info
    assert "DCG only adds up, so a long list collects more of it" not in " ".join(
        m.value for m in at.markdown
    )
