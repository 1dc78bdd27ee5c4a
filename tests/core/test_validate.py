"""Every error the single-list path can raise (key, parameters, message) and the text parser."""

import re

import numpy as np
import pytest

import ndcg_core as nc
from ndcg_core import validate
from ndcg_core.validate import (
    MESSAGES,
    TERMS,
    NDCGInputError,
    parse_labels,
    parse_relevance,
    register_messages,
    render,
)

EXAMPLE = [3, 2, 0, 0, 1]
LIST = "relevance_list"

# (id, call, key, params that must be set, a piece of the English message)
ERRORS = [
    ("empty text", lambda: parse_relevance(""), "empty", {"what": LIST}, "is empty"),
    ("only separators", lambda: parse_relevance(" , ;\n"), "empty", {"what": LIST}, "is empty"),
    ("empty list", lambda: nc.ndcg([]), "empty", {"what": LIST}, "is empty"),
    (
        "word in text",
        lambda: parse_relevance("3, x, 1"),
        "not_a_number",
        {"what": LIST, "position": 2, "token": "x"},
        "Item 2 of the relevance list is 'x'",
    ),
    (
        "word in list",
        lambda: nc.ndcg([3, "a"]),
        "not_a_number",
        {"position": 2, "token": "a"},
        "which is not a number",
    ),
    (
        "nan text",
        lambda: parse_relevance("3, nan"),
        "not_finite",
        {"position": 2, "token": "nan"},
        "no NaN or infinity",
    ),
    (
        "inf text",
        lambda: parse_relevance("inf 1"),
        "not_finite",
        {"position": 1, "token": "inf"},
        "Item 1 of the relevance list is inf",
    ),
    (
        "nan array",
        lambda: nc.ndcg(np.array([1.0, 2.0, np.nan])),
        "not_finite",
        {"position": 3, "token": "nan"},
        "Only finite numbers",
    ),
    (
        "inf array",
        lambda: nc.dcg([np.inf]),
        "not_finite",
        {"position": 1, "token": "inf"},
        "Only finite numbers",
    ),
    (
        "negative text",
        lambda: parse_relevance("3, -1"),
        "negative",
        {"position": 2, "value": -1.0},
        "is -1. nDCG needs relevance grades of 0 or more",
    ),
    ("negative list", lambda: nc.ndcg([3, 0, -0.5]), "negative", {"position": 3, "value": -0.5}, "is -0.5"),
    (
        "negative pool",
        lambda: nc.ndcg([3], pool=[3, -1]),
        "negative",
        {"what": "judged_pool", "position": 2},
        "judged pool",
    ),
    (
        "too many",
        lambda: parse_relevance("1 2 3", limit=2),
        "too_many",
        {"got": 3, "limit": 2},
        "has 3 items, more than the 2 allowed here",
    ),
    (
        "labels vs grades",
        lambda: nc.step_table([3, 2], labels=["a"]),
        "length_mismatch",
        {"left": 1, "right": 2},
        "Got 1 and 2 items",
    ),
    (
        "typed labels vs grades",
        lambda: parse_labels("a, b", 3),
        "length_mismatch",
        {"left": 2, "right": 3},
        "same length",
    ),
    (
        "k zero",
        lambda: nc.ndcg(EXAMPLE, k=0),
        "k_invalid",
        {"got": "0"},
        "k must be a whole number of at least 1, or none for the whole list. Got 0 instead.",
    ),
    ("k negative", lambda: nc.dcg(EXAMPLE, k=-2), "k_invalid", {"got": "-2"}, "Got -2"),
    ("k float", lambda: nc.ndcg(EXAMPLE, k=2.5), "k_invalid", {"got": "2.5"}, "Got 2.5"),
    ("k bool", lambda: nc.ndcg(EXAMPLE, k=True), "k_invalid", {"got": "True"}, "Got True"),
    ("k text", lambda: nc.step_table(EXAMPLE, k="3"), "k_invalid", {"got": "'3'"}, "Got '3'"),
    (
        "unknown gain",
        lambda: nc.ndcg(EXAMPLE, gain="exp"),
        "unknown_option",
        {"option": "gain", "got": "exp"},
        "gain must be one of linear, exponential. Got 'exp'",
    ),
    (
        "unknown discount",
        lambda: nc.ndcg(EXAMPLE, discount="ln"),
        "unknown_option",
        {"option": "discount", "got": "ln"},
        "discount must be one of log2, jarvelin",
    ),
    (
        "unknown gain in table",
        lambda: nc.step_table(EXAMPLE, gain="burges"),
        "unknown_option",
        {"option": "gain"},
        "Got 'burges'",
    ),
    (
        "empty label",
        lambda: nc.step_table([1, 2], labels=["a", " "]),
        "label_empty",
        {"position": 2},
        "Item 2 has an empty name",
    ),
    (
        "duplicate label",
        lambda: nc.step_table([1, 2], labels=["a", "a"]),
        "label_duplicate",
        {"label": "a"},
        "The name 'a' is used more than once",
    ),
    (
        "long label",
        lambda: nc.step_table([1], labels=["x" * 61]),
        "label_too_long",
        {"position": 1, "got": 61, "limit": 60},
        "has 61 characters, more than the 60 allowed",
    ),
    (
        "pool missing",
        lambda: nc.ndcg([3, 3, 1], pool=[3, 1]),
        "pool_missing",
        {"grade": 3.0, "pool_count": 1, "list_count": 2},
        "It has 1 item(s) of grade 3",
    ),
    (
        "two-dimensional",
        lambda: nc.ndcg([[1, 2], [3, 4]]),
        "shape",
        {"what": LIST, "rule": "rule_one_dimensional"},
        "must be a one-dimensional list",
    ),
    ("not text", lambda: parse_relevance(3), "shape", {"rule": "rule_text"}, "must be text"),
    (
        "slide position",
        lambda: nc.slide_down(EXAMPLE, position=6),
        "position_invalid",
        {"n": 5, "got": "6"},
        "an integer from 1 to 5. Got 6",
    ),
    (
        "slide position zero",
        lambda: nc.slide_down(EXAMPLE, position=0),
        "position_invalid",
        {"got": "0"},
        "Got 0",
    ),
]


@pytest.mark.parametrize(
    ("call", "key", "params", "text"), [case[1:] for case in ERRORS], ids=[case[0] for case in ERRORS]
)
def test_errors_key_params_and_message(call, key, params, text):
    with pytest.raises(NDCGInputError, match=re.escape(text)) as info:
        call()
    assert info.value.key == key
    assert params.items() <= info.value.params.items()
    assert str(info.value) == render(MESSAGES, TERMS, key, info.value.params)
    assert "_" not in str(info.value).split(".")[0].replace("item_", "")  # no term key shown
    assert isinstance(info.value, ValueError)


def test_errors_cover_the_single_list_keys():
    """Every key the single-list path can raise has a case above."""
    single_list = {
        "empty",
        "not_a_number",
        "not_finite",
        "negative",
        "too_many",
        "length_mismatch",
        "k_invalid",
        "unknown_option",
        "label_empty",
        "label_duplicate",
        "label_too_long",
        "pool_missing",
        "shape",
        "position_invalid",
    }
    assert single_list <= MESSAGES.keys()
    assert single_list == {case[2] for case in ERRORS}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3, 2, 0, 0, 1", [3, 2, 0, 0, 1]),
        ("3 2 0 0 1", [3, 2, 0, 0, 1]),
        ("3，2，0", [3, 2, 0]),
        ("3;2\n0", [3, 2, 0]),
        ("0.5, 1.25", [0.5, 1.25]),
        ("３，２，０", [3, 2, 0]),
        ("３ ２ １", [3, 2, 1]),
        ("3、2、1", [3, 2, 1]),
        ("[3, 2, 1]", [3, 2, 1]),
        ("  3\t2  ", [3, 2]),
    ],
)
def test_parse_relevance_accepts_common_typing(text, expected):
    assert parse_relevance(text).tolist() == expected


def test_parse_relevance_limit_allows_exactly_the_limit():
    assert parse_relevance("1 2", limit=2).tolist() == [1, 2]


def test_parse_labels_splits_and_trims():
    assert parse_labels("D1, D2 ,D3", 3) == ["D1", "D2", "D3"]


# --- each layer's messages (register_messages) ---------------------------------------------


@pytest.fixture
def registry():
    """The registry of messages as it was, put back after the test (it is global by design)."""
    saved = {name: dict(getattr(validate, name)) for name in ("_LAYERS", "_ALL_MESSAGES", "_ALL_TERMS")}
    yield
    for name, old in saved.items():
        table = getattr(validate, name)
        table.clear()
        table.update(old)


def test_register_messages_lets_a_layer_raise_its_own_key(registry):
    register_messages("example", {"example_key": "The {what} is {got}."}, {"example_term": "example list"})
    with pytest.raises(NDCGInputError, match=re.escape("The example list is 3.")) as info:
        validate.fail("example_key", what="example_term", got=3)
    assert (info.value.key, info.value.params) == ("example_key", {"what": "example_term", "got": 3})


def test_register_messages_refuses_a_key_of_another_layer(registry):
    with pytest.raises(ValueError, match=re.escape("'empty' (core)")):
        register_messages("example", {"empty": "Nothing."})
    register_messages("first", {"example_key": "One."})
    with pytest.raises(ValueError, match=re.escape("'example_key' (first)")):
        register_messages("second", {"example_key": "Two."})
    with pytest.raises(ValueError, match="term keys of another layer: 'list' \\(core\\)"):
        register_messages("second", {}, {"list": "a list"})
    assert "second" not in validate.message_layers()


def test_register_messages_again_replaces_the_layers_own_keys(registry):
    """A layer's module imported anew (Streamlit after an edit) registers its keys again."""
    register_messages("example", {"example_key": "One.", "example_old": "Old."})
    register_messages("example", {"example_key": "Two."})
    assert validate.all_messages()["example_key"] == "Two."
    assert "example_old" not in validate.all_messages()


def test_register_messages_refuses_the_core_as_a_layer():
    with pytest.raises(ValueError, match="MESSAGES"):
        register_messages("core", {"example_key": "One."})


def test_an_unregistered_message_key_is_a_programming_error():
    with pytest.raises(KeyError, match="not a registered message key"):
        NDCGInputError("no_such_key")


# ----------------------------------------------------------------------------- decimal comma


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0,98", 0.98),  # a decimal comma (German, French, ... keyboards)
        ("0，98", 0.98),  # the full-width comma of a Chinese input method
        ("0。98", 0.98),  # the ideographic full stop of a Chinese input method
        ("０。９８", 0.98),  # full-width digits too
        (" -1,5 ", -1.5),
        ("0.98", 0.98),
    ],
)
def test_parse_answer_reads_one_comma_or_ideographic_stop_as_the_decimal_point(text, expected):
    from ndcg_core.validate import parse_answer

    assert parse_answer(text) == expected


@pytest.mark.parametrize(("text", "got"), [("0,98,1", 3), ("0, 98", 2), ("1.5,3", 2)])
def test_parse_answer_keeps_other_commas_as_separators(text, got):
    from ndcg_core.validate import parse_answer

    with pytest.raises(NDCGInputError) as caught:
        parse_answer(text)
    assert (caught.value.key, caught.value.params["got"]) == ("answer_too_many", got)


def test_parse_numbers_keeps_the_comma_a_separator_in_a_list():
    assert nc.parse_numbers("0,98").tolist() == [0.0, 98.0]
    assert parse_relevance("3,2,0,0,1").tolist() == [3.0, 2.0, 0.0, 0.0, 1.0]


@pytest.mark.parametrize("text", ["1_0", "0.9_8", "1_000"])
def test_parse_answer_refuses_underscores(text):
    from ndcg_core.validate import parse_answer

    with pytest.raises(NDCGInputError, match="not a number") as caught:
        parse_answer(text)
    assert caught.value.key == "answer_not_a_number"


@pytest.mark.parametrize(
    "call", [nc.parse_numbers, parse_relevance, lambda t: nc.validate.as_relevance(t.split())]
)
def test_lists_refuse_underscores(call):
    with pytest.raises(NDCGInputError) as caught:
        call("3 1_0 1")
    assert (caught.value.key, caught.value.params["position"]) == ("not_a_number", 2)
