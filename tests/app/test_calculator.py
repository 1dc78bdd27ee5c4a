"""The Calculator (app.py) in AppTest: shown numbers equal the core's after every kind of input."""

from __future__ import annotations

import functools
import json
import operator
import re

import pytest
from app_helpers import box_height, static_table, static_tables
from sklearn.metrics import ndcg_score

import ndcg_core as nc
from ndcg_core import NDCGInputError
from ui.components import widgets as w
from ui.framework import i18n
from ui.framework.state import Ranking
from ui.views.calculator import PRESETS

EXAMPLE = [3, 2, 0, 0, 1]


def _unescape(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def shown(at, name: str = "nDCG") -> tuple[int, str]:
    """(k, value) of the metric named ``name`` ("CG", "DCG", "IDCG", "nDCG")."""
    for metric in at.metric:
        found = re.fullmatch(rf"{name}@(\d+)", metric.label)
        if found:
            return int(found.group(1)), metric.value
    raise AssertionError(f"no {name}@k metric on the page")


def expected(relevance, **options) -> str:
    return f"{nc.ndcg(relevance, **options):.4f}"


def ranking(at) -> Ranking:
    return at.session_state["lab.ranking"]


def errors(at) -> list[str]:
    return [_unescape(e.value) for e in at.error]


def message(err_key: str, **params) -> str:
    return i18n.error_text("en", NDCGInputError(err_key, **params))


def test_page_shows_the_example_with_the_core_numbers(app):
    at = app()
    assert not at.exception
    m = nc.metrics(EXAMPLE)
    assert shown(at, "CG") == (5, "6")
    assert shown(at, "DCG") == (5, f"{m.dcg:.4f}")
    assert shown(at, "IDCG") == (5, f"{m.idcg:.4f}")
    assert shown(at) == (5, f"{m.ndcg:.4f}") == (5, "0.9762")
    assert at.text_input(key="calc.text").value == "3, 2, 0, 0, 1"


@pytest.mark.parametrize(
    ("text", "grades"),
    [
        ("1, 0, 0, 2, 3", [1, 0, 0, 2, 3]),
        ("3 2 0 0 1 2", [3, 2, 0, 0, 1, 2]),
        ("3，2，0", [3, 2, 0]),
    ],
)
def test_typed_grades_update_the_numbers(app, text, grades):
    at = app()
    at.text_input(key="calc.text").set_value(text).run()
    assert not at.exception
    assert shown(at) == (len(grades), expected(grades))
    assert ranking(at).relevance == tuple(float(g) for g in grades)
    assert at.text_input(key="calc.text").value == ", ".join(str(g) for g in grades)


@pytest.mark.parametrize(
    ("text", "err_key", "params"),
    [
        ("", "empty", {"what": "relevance_list"}),
        ("3, two, 1", "not_a_number", {"what": "relevance_list", "position": 2, "token": "two"}),
        ("3, nan", "not_finite", {"what": "relevance_list", "position": 2, "token": "nan"}),
        ("inf 1", "not_finite", {"what": "relevance_list", "position": 1, "token": "inf"}),
        ("3, -1", "negative", {"what": "relevance_list", "position": 2, "value": -1.0}),
        (", ".join(["1"] * 101), "too_many", {"what": "relevance_list", "got": 101, "limit": 100}),
        ("3, 5", "not_graded", {"what": "relevance_list", "position": 2, "value": 5.0}),
    ],
)
def test_malformed_text_shows_the_message_and_keeps_the_page(app, text, err_key, params):
    at = app()
    at.text_input(key="calc.text").set_value(text).run()
    assert not at.exception
    assert errors(at) == [message(err_key, **params)]
    assert shown(at) == (5, expected(EXAMPLE))  # the last valid ranking still shows
    assert at.text_input(key="calc.text").value == text  # what was typed stays, to be fixed


def test_fixing_the_text_removes_the_message(app):
    at = app()
    at.text_input(key="calc.text").set_value("3, x").run()
    at.text_input(key="calc.text").set_value("3, 1").run()
    assert errors(at) == []
    assert shown(at) == (2, expected([3, 1]))


def test_binary_scale_rejects_a_grade_of_two(app):
    at = app(rel="1,0,1", scale="binary")
    at.text_input(key="calc.text").set_value("1, 2").run()
    assert errors(at) == [message("not_binary", what="relevance_list", position=2, value=2.0)]
    assert ranking(at).relevance == (1.0, 0.0, 1.0)


def test_switching_to_binary_with_graded_grades_keeps_the_scale(app):
    at = app()
    at.segmented_control(key="calc.scale").set_value("binary").run()
    assert not at.exception
    assert errors(at) == [message("not_binary", what="relevance_list", position=1, value=3.0)]
    assert at.segmented_control(key="calc.scale").value == "graded"
    assert at.query_params["scale"] == "graded"


def test_free_scale_accepts_decimal_grades(app):
    at = app()
    at.segmented_control(key="calc.scale").set_value("free").run()
    at.text_input(key="calc.text").set_value("2.5, 0, 7").run()
    assert errors(at) == []
    assert shown(at) == (3, expected([2.5, 0, 7]))


def test_drag_reorders_and_says_what_changed(app):
    """The sortable's value (what streamlit-sortables sends after a drop) becomes the ranking."""
    at = app()
    start = Ranking()
    cards = w.cards(start)
    dropped = [cards[0], cards[1], cards[4], cards[2], cards[3]]  # D5 dragged to position 3
    at.session_state[w.sortable_key(start, "calc")] = [{"header": None, "items": dropped}]
    at.run()
    assert not at.exception
    assert ranking(at).labels == ("D1", "D2", "D5", "D3", "D4")
    assert shown(at) == (5, expected([3, 2, 1, 0, 0])) == (5, "1.0000")
    note = _unescape(at.info[0].value)
    assert note == f"Moving D5 from position 5 to 3 raised nDCG@5 from {expected(EXAMPLE)} to 1.0000."
    assert at.text_input(key="calc.text").value == "3, 2, 1, 0, 0"  # the other inputs follow


def test_drag_that_lowers_nDCG_says_so(app):
    """D5 (grade 1) dragged above D2 (grade 2): nDCG@5 goes down, and the note says lowered."""
    at = app()
    cards = w.cards(Ranking())
    dropped = [cards[0], cards[4], cards[1], cards[2], cards[3]]
    at.session_state[w.sortable_key(Ranking(), "calc")] = [{"header": None, "items": dropped}]
    at.run()
    assert nc.ndcg([3, 1, 2, 0, 0]) < nc.ndcg(EXAMPLE)
    assert _unescape(at.info[0].value) == (
        f"Moving D5 from position 5 to 2 lowered nDCG@5 from {expected(EXAMPLE)} "
        f"to {expected([3, 1, 2, 0, 0])}."
    )


@pytest.mark.parametrize(
    ("lang", "note"),
    [
        ("en", "Swapping D3 and D4 (positions 3 and 4) left nDCG@5 unchanged at {v}."),
        ("zh", "交换 D3 和 D4（第 3 位和第 4 位）"),
    ],
)
def test_drag_of_one_place_names_both_neighbours(app, lang, note):
    """D3 dragged down one and D4 dragged up one send the same new order: both are named."""
    at = app(lang=lang)
    cards = w.cards(Ranking())
    at.session_state[w.sortable_key(Ranking(), "calc")] = [
        {"header": None, "items": [cards[0], cards[1], cards[3], cards[2], cards[4]]}
    ]
    at.run()
    assert ranking(at).labels == ("D1", "D2", "D4", "D3", "D5")
    text = _unescape(at.info[0].value)
    assert text.startswith(note.format(v=expected(EXAMPLE)).split(" left")[0])
    assert "Moving" not in text and "移到" not in text


@pytest.mark.parametrize(
    ("button", "moved"), [("calc.down", "D3 from position 3 to 4"), ("calc.up", "D3 from position 3 to 2")]
)
def test_move_button_names_the_item_it_moved(app, button, moved):
    """The button knows which item it moved, also for a move of one place."""
    at = app()
    at.selectbox(key="calc.move_item").set_value("D3").run()
    at.button(key=button).click().run()
    assert _unescape(at.info[0].value).startswith(f"Moving {moved} ")


def test_up_and_down_buttons_move_the_chosen_item(app):
    at = app()
    at.selectbox(key="calc.move_item").set_value("D5").run()
    at.button(key="calc.up").click().run()
    assert ranking(at).labels == ("D1", "D2", "D3", "D5", "D4")
    at.button(key="calc.up").click().run()
    at.button(key="calc.down").click().run()
    at.button(key="calc.up").click().run()
    assert ranking(at).labels == ("D1", "D2", "D5", "D3", "D4")
    assert shown(at) == (5, expected([3, 2, 1, 0, 0])) == (5, "1.0000")


@pytest.mark.parametrize(
    ("button", "order"),
    [
        ("calc.ideal", [0, 1, 4, 2, 3]),
        ("calc.reverse", [4, 3, 2, 1, 0]),
    ],
)
def test_order_buttons(app, button, order):
    at = app()
    at.button(key=button).click().run()
    grades = [EXAMPLE[i] for i in order]
    assert ranking(at).labels == tuple(f"D{i + 1}" for i in order)
    assert shown(at) == (5, expected(grades))


def test_shuffle_keeps_the_items_and_shows_their_numbers(app):
    at = app()
    at.button(key="calc.shuffle").click().run()
    r = ranking(at)
    assert sorted(r.labels) == ["D1", "D2", "D3", "D4", "D5"]
    assert r != Ranking()
    assert shown(at) == (5, expected(list(r.relevance)))


@pytest.mark.parametrize(
    ("key", "value", "options"),
    [
        ("calc.k", 3, {"k": 3}),
        ("calc.gain", "exponential", {"gain": "exponential"}),
        ("calc.discount", "jarvelin", {"discount": "jarvelin"}),
    ],
)
def test_variant_controls_change_the_numbers(app, key, value, options):
    at = app(rel="3,2,3,0,1")
    widget = at.slider(key=key) if key == "calc.k" else at.segmented_control(key=key)
    widget.set_value(value).run()
    assert not at.exception
    k = options.get("k", 5)
    assert shown(at) == (k, expected([3, 2, 3, 0, 1], **options))


def test_variants_combine_and_reach_the_link(app):
    at = app()
    at.slider(key="calc.k").set_value(3).run()
    at.segmented_control(key="calc.gain").set_value("exponential").run()
    at.segmented_control(key="calc.discount").set_value("jarvelin").run()
    assert shown(at) == (3, expected(EXAMPLE, k=3, gain="exponential", discount="jarvelin"))
    params = {name: at.query_params[name] for name in ("rel", "k", "gain", "disc")}
    assert params == {"rel": "3,2,0,0,1", "k": "3", "gain": "exponential", "disc": "jarvelin"}


def test_exponential_gain_matches_the_teaching_number(app):
    at = app(gain="exponential")
    assert shown(at) == (5, "0.9880")  # TEACHING.md: 0.98795


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.id)
def test_every_preset_shows_the_core_numbers(app, preset):
    at = app(rel="1,1")
    at.selectbox(key="calc.preset").set_value(preset.id).run()
    assert not at.exception
    k = len(preset.relevance) if preset.k is None else preset.k
    # an unjudged item ("?", the "unjudged" preset) counts as 0 by default, as in trec_eval
    assert shown(at) == (k, expected(list(preset.relevance), k=preset.k, unjudged="zero"))
    assert at.query_params["scale"] == preset.scale
    assert at.selectbox(key="calc.preset").value is None  # ready to load a preset again


def test_table_edit_changes_a_grade(app):
    at = app()
    at.session_state[w.table_key(Ranking(), "calc")] = {
        "edited_rows": {4: {"grade": 3}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert shown(at) == (5, expected([3, 2, 0, 0, 3]))
    # a better grade at the bottom raises IDCG more than DCG: nDCG goes down
    assert nc.ndcg([3, 2, 0, 0, 3]) < nc.ndcg(EXAMPLE)
    assert _unescape(at.info[0].value) == (
        f"Changing the grade of D5 from 1 to 3 lowered nDCG@5 from {expected(EXAMPLE)} "
        f"to {expected([3, 2, 0, 0, 3])}."
    )


def test_table_adds_and_deletes_rows(app):
    at = app()
    at.session_state[w.table_key(Ranking(), "calc")] = {
        "edited_rows": {},
        "added_rows": [{"item": "New", "grade": 2}],
        "deleted_rows": [0],
    }
    at.run()
    assert ranking(at).labels == ("D2", "D3", "D4", "D5", "New")
    assert shown(at) == (5, expected([2, 0, 0, 1, 2]))


@pytest.mark.parametrize(
    ("edits", "err_key", "params"),
    [
        ({"edited_rows": {1: {"item": ""}}}, "label_empty", {"position": 2}),
        ({"edited_rows": {1: {"item": "D1"}}}, "label_duplicate", {"label": "D1"}),
        ({"edited_rows": {1: {"grade": None}}}, "grade_missing", {"position": 2}),
        (
            {"edited_rows": {1: {"grade": -2}}},
            "negative",
            {"what": "relevance_list", "position": 2, "value": -2.0},
        ),
        ({"deleted_rows": [0, 1, 2, 3, 4]}, "empty", {"what": "relevance_list"}),
        (
            {"added_rows": [{"item": f"X{i}", "grade": 1} for i in range(96)]},
            "too_many",
            {"what": "relevance_list", "got": 101, "limit": 100},
        ),
    ],
)
def test_malformed_table_shows_the_message(app, edits, err_key, params):
    at = app()
    at.session_state[w.table_key(Ranking(), "calc")] = {
        "edited_rows": {},
        "added_rows": [],
        "deleted_rows": [],
        **edits,
    }
    at.run()
    assert not at.exception
    assert errors(at) == [message(err_key, **params)]
    assert shown(at) == (5, expected(EXAMPLE))


def test_html_label_is_shown_as_text(app):
    label = "<img src=x onerror=alert(1)>"
    at = app()
    at.session_state[w.table_key(Ranking(), "calc")] = {
        "edited_rows": {0: {"item": label}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    assert ranking(at).labels[0] == label
    assert static_table(at, "Discounted gain")["Item"].tolist()[0] == label
    assert static_table(at, "Actual ranking")["Actual ranking"].tolist()[0] == f"{label} · 3"
    assert all(label not in e.value for e in [*at.markdown, *at.info])  # never raw in Markdown


@pytest.mark.parametrize(
    "params",
    [
        {"rel": "abc"},
        {"rel": "3,nan"},
        {"rel": "3,-1"},
        {"rel": ",".join(["1"] * 101)},
        {"rel": ""},
        {"k": "0"},
        {"k": "two"},
        {"gain": "cubic"},
        {"disc": "ln"},
        {"item": ["A", "A", "B", "C", "D"]},
        {"item": ["A", ""]},
        {"scale": "ordinal"},
        {"rel": "3,2", "scale": "binary"},
    ],
)
def test_malformed_link_shows_a_message_and_falls_back(app, params):
    at = app(**params)
    assert not at.exception
    assert at.error or at.warning
    r = ranking(at)
    assert shown(at) == (r.cutoff, expected(list(r.relevance), **r.options()))


def test_link_reproduces_the_view(app):
    at = app(rel="3,1,2", item=["a", "b", "c"], k="2", gain="exponential", disc="jarvelin")
    assert not at.exception and not at.error
    assert ranking(at).labels == ("a", "b", "c")
    assert shown(at) == (2, expected([3, 1, 2], k=2, gain="exponential", discount="jarvelin"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_link_k_past_the_list_says_the_page_shows_the_whole_list(app, lang):
    """k = 99 on 5 items: nDCG@5, scikit-learn's ndcg_score(k=99) (0.97624), and a note."""
    at = app(rel="3,2,0,0,1", k="99", lang=lang)
    assert not at.exception and not at.error
    assert shown(at) == (5, f"{ndcg_score([EXAMPLE], [[5, 4, 3, 2, 1]], k=99):.4f}") == (5, "0.9762")
    note = i18n.translate(lang, "calculator.k_past_list", k=99, n=5)
    assert note in [c.value for c in at.caption]


def test_link_k_within_the_list_has_no_such_note(app):
    at = app(rel="3,2,0,0,1", k="5")
    assert i18n.translate("en", "calculator.k_past_list", k=5, n=5) not in [c.value for c in at.caption]


def test_nothing_relevant_explains_the_zero(app):
    at = app(rel="0,0,0")
    assert shown(at) == (3, "0.0000")
    assert any("IDCG = 0" in warning.value for warning in at.warning)


def test_chinese_page_runs(app):
    at = app(lang="zh")
    assert not at.exception
    assert at.title[0].value == "nDCG 计算器"
    assert shown(at) == (5, expected(EXAMPLE))


def test_one_item_list_has_no_slider(app):
    at = app(rel="2")
    assert not at.exception
    assert shown(at) == (1, "1.0000")
    assert not [s for s in at.slider if s.key == "calc.k"]


def test_both_charts_have_a_tooltip_on_every_mark_and_the_core_data():
    from ui.components import charts

    def t(key, **params):
        return i18n.translate("en", key, **params)

    table = nc.step_table(EXAMPLE, k=3)
    by_k = nc.ndcg_at_each_k(EXAMPLE)
    for spec, name in (
        (charts.discount_spec(table, t), "bars"),
        (charts.ndcg_by_k_spec(by_k, t, current_k=3), "by_k"),
    ):
        assert spec["layer"] and all("tooltip" in layer["encoding"] for layer in spec["layer"])
        assert name in spec["datasets"]
    bars = charts.discount_spec(table, t)["datasets"]["bars"]
    assert bars["value"].tolist() == [*table["discounted_gain"], *table["ideal_discounted_gain"]]
    assert charts.ndcg_by_k_chart(by_k, t, current_k=3).to_dict()["layer"]  # the Altair form validates


def sortable_id(at) -> str:
    """The widget id of the drag cards (it ends with the widget's key)."""
    return next(
        e.proto.id
        for e in at.get("component_instance")
        if e.proto.component_name == "streamlit_sortables.sortable_items"
    )


def test_sortable_keeps_its_key_after_its_own_drag_and_renews_it_otherwise(app):
    """After a drop the sortable already shows the new order (no reload); other changes redraw it."""
    at = app()
    start = Ranking()
    key = w.sortable_key(start, "calc")
    assert sortable_id(at).endswith(key)
    cards = w.cards(start)
    at.session_state[key] = [{"header": None, "items": [cards[1], cards[0], *cards[2:]]}]
    at.run()
    assert ranking(at).labels == ("D2", "D1", "D3", "D4", "D5")
    assert sortable_id(at).endswith(key)  # the same sortable, not a new one
    after = w.cards(ranking(at))  # a second drag on it goes on from there
    at.session_state[key] = [{"header": None, "items": [after[0], after[2], after[1], *after[3:]]}]
    at.run()
    assert ranking(at).labels == ("D2", "D3", "D1", "D4", "D5")
    assert shown(at) == (5, expected([2, 0, 3, 0, 1]))
    at.button(key="calc.reverse").click().run()  # another way: a fresh sortable
    assert sortable_id(at).endswith(w.sortable_key(ranking(at), "calc"))
    assert not sortable_id(at).endswith(key)


def test_step_table_is_the_core_table_with_rows_past_k_greyed_and_marked(app):
    rel = [1, 3, 0, 2, 2, 0]
    at = app(rel=",".join(map(str, rel)), k="3", gain="exponential")
    assert not at.exception
    (shown, grey), *_ = static_tables(at, "Discounted gain")  # the whole table, then its parts
    core = nc.step_table(rel, k=3, gain="exponential")
    assert shown["In top k"].tolist() == ["✓ yes"] * 3 + ["— no"] * 3
    assert grey == [False] * 3 + [True] * 3
    assert shown["Position i"].tolist() == [str(p) for p in core["position"]]
    assert shown["Gain"].tolist() == [f"{g:g}" for g in core["gain"]]
    for header, column in [("DCG", "dcg"), ("IDCG", "idcg"), ("nDCG", "ndcg"), ("Discount", "discount")]:
        assert shown[header].tolist() == [f"{x:.4f}" for x in core[column]]
    pair = static_table(at, "Ideal ranking")
    assert pair["Ideal ranking"].tolist() == [
        f"{i} · {g:g}" for i, g in zip(core["ideal_item"], core["ideal_relevance"], strict=False)
    ]


def test_long_tables_scroll_in_a_box_except_in_presenter_mode(app):
    rel = ",".join(["1", "0"] * 8)
    assert box_height(app(rel=rel), "calc_steps-whole") == "420"
    assert box_height(app(rel="3,2,0,0,1"), "calc_steps-whole") == "content"
    at = app(rel=rel, present="1")
    assert box_height(at, "calc_steps-whole") == "content"
    assert len(static_table(at, "Discounted gain")) == 16


def test_step_table_parts_hold_every_column_with_the_positions(app):
    """On a narrow screen the step table is shown in parts (the style sheet picks whole or parts)."""
    at = app(rel="3,2,0,0,1", k="3")
    whole, *parts = [
        m.value
        for m in at.markdown
        if m.value.startswith("| ") and "Position i" in m.value and "Actual ranking" not in m.value
    ]
    headers = [line.split("\n")[0].strip("| ").split(" | ") for line in (whole, *parts)]
    assert len(parts) == 3
    assert all(h[0] == "Position i" or h[:2] == ["In top k", "Position i"] for h in headers[1:])
    assert sorted(functools.reduce(operator.iadd, (h for h in headers[1:]), [])) == sorted(
        headers[0] + ["Position i"] * 2
    )
    assert headers[3][-3:] == ["Ideal grade", "IDCG", "nDCG"]


def test_cg_metric_sums_exponential_gains(app):
    """CG sums gains (Järvelin & Kekäläinen 2002): 7 + 3 + 0 + 0 + 1 = 11 with 2^rel − 1, not 6."""
    at = app(gain="exponential")
    assert shown(at, "CG") == (5, str((2**3 - 1) + (2**2 - 1) + 0 + 0 + (2**1 - 1)))


# --- crafted table edits (issue 12): a message, never an exception --------------------------


@pytest.mark.parametrize(
    ("edits", "err_key", "params"),
    [
        (
            {"edited_rows": {1: {"grade": "9" * 400}}},
            "number_too_long",
            {"what": "relevance_list", "position": 2, "got": 400, "limit": w.MAX_CELL_CHARS},
        ),
        (
            {"edited_rows": {1: {"grade": 10**400}}},
            "number_too_long",
            {"what": "relevance_list", "position": 2, "got": 401, "limit": w.MAX_CELL_CHARS},
        ),
        (
            {"edited_rows": {1: {"grade": "abc"}}},
            "not_a_number",
            {"what": "relevance_list", "position": 2, "token": "abc"},
        ),
        ({"edited_rows": {1: {"grade": float("nan")}}}, "grade_missing", {"position": 2}),
        (
            {"edited_rows": {1: {"grade": float("inf")}}},
            "not_finite",
            {"what": "relevance_list", "position": 2, "token": "inf"},
        ),
        (
            {"edited_rows": {1: {"grade": "1e400"}}},
            "not_finite",
            {"what": "relevance_list", "position": 2, "token": "1e400"},  # as typed (issue 24)
        ),
        (
            {"edited_rows": {1: {"item": "x" * 100_000}}},
            "label_too_long",
            {"position": 2, "got": 100_000, "limit": 60},
        ),
        ({"edited_rows": {1: {"item": 10**400}}}, "label_too_long", {"position": 2, "got": 401, "limit": 60}),
        ({"edited_rows": {99: {"grade": 1}}}, "table_edit_invalid", {}),
        ({"edited_rows": {"x": {"grade": 1}}}, "table_edit_invalid", {}),
        ({"edited_rows": {1: "zz"}}, "table_edit_invalid", {}),
        ({"edited_rows": {1: {"other": 1}}}, "table_edit_invalid", {}),
        ({"deleted_rows": ["a"]}, "table_edit_invalid", {}),
        ({"deleted_rows": [7]}, "table_edit_invalid", {}),
        ({"added_rows": ["zz"]}, "table_edit_invalid", {}),
        ({"added_rows": "zz"}, "table_edit_invalid", {}),
        (
            {"added_rows": [{"item": f"X{i}", "grade": 1} for i in range(96)]},
            "too_many",
            {"what": "relevance_list", "got": 101, "limit": 100},
        ),
    ],
)
def test_crafted_table_edit_shows_a_message_and_keeps_the_page(app, edits, err_key, params):
    at = app()
    at.session_state[w.table_key(Ranking(), "calc")] = {
        "edited_rows": {},
        "added_rows": [],
        "deleted_rows": [],
        **edits,
    }
    at.run()
    assert not at.exception
    assert errors(at) == [message(err_key, **params)]
    assert shown(at) == (5, expected(EXAMPLE))
    at.run()  # the next run works too
    assert not at.exception


def test_thousands_of_crafted_rows_are_refused_before_any_row_is_read():
    """More added rows than ten tables could hold: refused at once by the pure edit logic (the
    page path is the 101-row case above; 5,000 rows through AppTest's session state took 28 s)."""
    edits = {"added_rows": [{"item": f"X{i}", "grade": 1} for i in range(5000)]}
    with pytest.raises(nc.NDCGInputError) as caught:
        w.table_ranking(Ranking(), edits)
    assert (caught.value.key, caught.value.params) == (
        "too_many",
        {"what": "relevance_list", "got": 5005, "limit": 100},
    )


def test_crafted_table_edit_message_is_chinese_on_the_chinese_page(app):
    at = app(lang="zh")
    at.session_state[w.table_key(Ranking(), "calc")] = {
        "edited_rows": {1: {"grade": "9" * 400}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    err = NDCGInputError(
        "number_too_long", what="relevance_list", position=2, got=400, limit=w.MAX_CELL_CHARS
    )
    assert errors(at) == [i18n.error_text("zh", err)]
    assert not re.search(r"[A-Za-z]", errors(at)[0])


def test_label_with_a_newline_in_the_table_raises_nothing(app):
    # the core refuses control characters in names (issue 12, defect 7, ndcg_core side);
    # here only: no exception, the page keeps working
    at = app()
    at.session_state[w.table_key(Ranking(), "calc")] = {
        "edited_rows": {1: {"item": "a\nb"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    assert shown(at)[0] == 5


@pytest.mark.parametrize("text", ["1_0", "3_"])
def test_parse_k_refuses_underscores(text):
    """int() reads "1_0" as 10; a cutoff typed or linked as "1_0" is refused, not k = 10."""
    from ui.framework.state import parse_k

    with pytest.raises(nc.NDCGInputError) as caught:
        parse_k(text)
    assert caught.value.key == "k_invalid"


# --------------------------------------------------------------------------- issue 24, item 3


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    ("preset", "typed"),
    [("example", "two"), ("example", "-1"), ("example", "1e999"), ("example", "7"), ("binary", "2")],
)
def test_a_typed_grade_cell_is_kept_and_refused_with_the_grades_box_message(app, lang, preset, typed):
    """On the 0–3 and 0/1 scales the grade cell takes typing (a text cell, not a drop-down that
    drops "two" without a word) and a refused value gets the message the grades box gives."""
    at = app(lang=lang)
    if preset == "binary":
        at.selectbox(key="calc.preset").set_value("binary").run()
    before = ranking(at)
    table = next(e for e in at.dataframe if e.proto.editing_mode)
    grade = json.loads(table.proto.columns)["grade"]["type_config"]
    assert grade["type"] == "text"  # a drop-down ("selectbox") cannot be typed into
    at.session_state[w.table_key(before, "calc")] = {
        "edited_rows": {1: {"grade": typed}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    assert ranking(at) == before
    from_table = errors(at)
    # the same grades typed into the box: the box's own message
    grades = [w.grades_text(before).split(", ")[0], typed, *w.grades_text(before).split(", ")[2:]]
    at.text_input(key="calc.text").set_value(", ".join(grades)).run()
    assert len(from_table) == 1
    assert errors(at) == from_table * 2  # the table's message, still shown, and the box's: the same
