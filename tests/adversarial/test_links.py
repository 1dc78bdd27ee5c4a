"""Hostile links against every page (issue 12): no exception, and the outcome each case states.

Each case is ``(page, link parameters, outcome)``; every case runs in English and in Chinese.
Outcomes:

- ``Err(key, params)``: the page shows exactly that error, in the page's language (rendered by
  ``ui.framework.i18n.error_text``), and the Chinese text has no Latin word outside quoted parameter
  names, values and code;
- ``Warn()``: the page shows a warning (pages that explain a bad value in their own words);
- ``DEFAULT``: no error and no warning, the shared ranking is the example;
- ``QUIET``: no error and no warning (the value is harmless and used or ignored);
- ``NO_EXCEPTION``: only that nothing is raised (control characters in names: the core
  refuses them, ``ndcg_core.validate.check_labels``, after the other half of issue 12).

The limits come from ``ui.framework.state`` (checked once per session by the frame, for every page).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core import NDCGInputError
from ui.framework.i18n import error_text
from ui.framework.navigation import PAGE_BY_ID
from ui.framework.state import (
    EXAMPLE_RELEVANCE,
    MAX_ITEMS,
    MAX_LABEL_CHARS,
    MAX_LINK_PARAMS,
    MAX_NAME_CHARS,
    MAX_NUMBER_CHARS,
    MAX_VALUE_CHARS,
)

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@dataclass(frozen=True)
class Err:
    key: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    name: str


class Warn(Outcome):
    def __init__(self) -> None:
        super().__init__("warning")


DEFAULT = Outcome("default view")
QUIET = Outcome("no message")
NO_EXCEPTION = Outcome("no exception")


def _too_long(param: str, got: int, limit: int = MAX_NUMBER_CHARS) -> Err:
    return Err("link_value_too_long", {"param": param, "got": got, "limit": limit})


def _k(got: str) -> Err:
    return Err("k_invalid", {"got": got})


def _swap(got: str, n: int = len(EXAMPLE_RELEVANCE)) -> Err:
    return Err("swap_invalid", {"n": n, "got": got})


def _option(option: str, allowed: str, got: str) -> Err:
    return Err("unknown_option", {"option": option, "allowed": allowed, "got": got})


def _overflow(value: float) -> Err:
    return Err("sum_overflow", {"value": value, "position": 2})


GAINS, DISCOUNTS = "linear, exponential", "log2, jarvelin"
EVAL_TIES, EVAL_NOREL = "average, optimistic, pessimistic, input, trec_eval", "zero, drop"
DIGITS = "9" * 5000

CASES: list[tuple[str, str, dict[str, Any], Any]] = [
    # --- the frame's limits, on every page
    ("rel_5000_digits", "calculator", {"rel": DIGITS}, _too_long("rel", 5000, MAX_VALUE_CHARS)),
    ("k_5000_digits", "calculator", {"k": DIGITS}, _too_long("k", 5000)),
    ("seed_5000_digits", "practice", {"seed": DIGITS}, _too_long("seed", 5000)),
    ("seed_25_digits", "practice", {"seed": "1" * 25}, _too_long("seed", 25)),
    ("ex_5000_digits", "practice", {"ex": DIGITS}, _too_long("ex", 5000)),
    ("step_5000_digits", "lesson", {"step": DIGITS}, _too_long("step", 5000)),
    ("dec_30_digits", "ties", {"dec": "9" * 30}, _too_long("dec", 30)),
    ("scores_overlong", "ties", {"scores": "1," * 1500}, _too_long("scores", 3000, MAX_VALUE_CHARS)),
    ("judged_overlong", "variants", {"judged": "1" * 3000}, _too_long("judged", 3000, MAX_VALUE_CHARS)),
    ("eval_k_100_digits", "evaluate", {"eval_form": "table", "eval_k": "9" * 100}, _too_long("eval_k", 100)),
    ("lang_overlong", "blind_spots", {"lang": "z" * 50}, _too_long("lang", 50)),
    ("item_overlong", "calculator", {"item": ["x" * 300]}, _too_long("item", 300, MAX_LABEL_CHARS)),
    (
        "too_many_params",
        "explore",
        {f"p{i}": "1" for i in range(MAX_LINK_PARAMS + 5)},
        Err("link_too_many", {"got": MAX_LINK_PARAMS + 5 + 1, "limit": MAX_LINK_PARAMS}),
    ),
    (
        "long_param_name",
        "lesson",
        {"n" * 100: "1"},
        Err("link_name_too_long", {"got": 100, "limit": MAX_NAME_CHARS}),
    ),
    (
        "repeated_k",
        "calculator",
        {"k": ["1", "2"]},
        Err("link_repeated", {"param": "k", "got": 2, "limit": 1}),
    ),
    (
        "repeated_seed",
        "practice",
        {"seed": ["1", "2", "3"]},
        Err("link_repeated", {"param": "seed", "got": 3, "limit": 1}),
    ),
    (
        "item_101_times",
        "calculator",
        {"item": [f"I{i}" for i in range(MAX_ITEMS + 1)]},
        Err("link_repeated", {"param": "item", "got": MAX_ITEMS + 1, "limit": MAX_ITEMS}),
    ),
    # --- the live class: a code that names no class, whatever the view; markup in a code
    ("live_unknown_class", "live", {"class": "ZZZZZZ"}, Err("live_no_class", {"code": "ZZZZZZ"})),
    (
        "live_unknown_class_key",
        "live",
        {"class": "ZZZZZZ", "key": "x"},
        Err("live_no_class", {"code": "ZZZZZZ"}),
    ),
    ("live_unknown_room", "live", {"class": "QQ", "view": "room"}, Err("live_no_class", {"code": "QQ"})),
    ("live_markup_code", "live", {"class": "<b>x</b>"}, Err("live_no_class", {"code": "<B>X</B>"})),
    ("live_code_5000", "live", {"class": "A" * 5000}, _too_long("class", 5000, MAX_VALUE_CHARS)),
    # --- numbers a page converts: refused with the page's message
    ("k_1e400", "calculator", {"k": "1e400"}, _k("'1e400'")),
    ("k_nan", "calculator", {"k": "nan"}, _k("'nan'")),
    ("k_inf", "explore", {"k": "inf"}, _k("'inf'")),
    ("k_negative", "calculator", {"k": "-3"}, _k("-3")),
    ("k_zero", "blind_spots", {"k": "0"}, _k("0")),
    ("k_fraction", "calculator", {"k": "2.5"}, _k("'2.5'")),
    ("k_huge_fits_limit", "calculator", {"k": "9" * 20}, QUIET),  # k beyond n: whole list
    ("k_empty", "calculator", {"k": ""}, DEFAULT),
    ("eval_k_negative", "evaluate", {"eval_form": "table", "eval_k": "-1"}, _k("-1")),
    ("eval_k_nan", "evaluate", {"eval_form": "table", "eval_k": "nan"}, _k("'nan'")),
    (
        "rel_nan",
        "calculator",
        {"rel": "3,nan"},
        Err("not_finite", {"what": "relevance_list", "position": 2, "token": "nan"}),
    ),
    (
        "rel_1e400",
        "lesson",
        {"rel": "1e400"},
        Err("not_finite", {"what": "relevance_list", "position": 1, "token": "1e400"}),
    ),
    (
        "rel_negative",
        "calculator",
        {"rel": "2,-1"},
        Err("negative", {"what": "relevance_list", "position": 2, "value": -1.0}),
    ),
    ("rel_empty", "calculator", {"rel": ""}, Err("empty", {"what": "relevance_list"})),
    (
        "rel_101_items",
        "explore",
        {"rel": ",".join(["1"] * 101)},
        Err("too_many", {"what": "relevance_list", "got": 101, "limit": MAX_ITEMS}),
    ),
    ("seed_negative", "practice", {"seed": "-1"}, Warn()),
    ("seed_text", "practice", {"seed": "abc"}, Warn()),
    ("ex_zero", "practice", {"ex": "0"}, Warn()),
    ("step_zero", "lesson", {"step": "0"}, Err("step_invalid", {"n": 6, "got": "'0'"})),
    (
        "dec_99",
        "ties",
        {"dec": "99", "scores": "5,4,3,2,1"},
        Err("decimals_invalid", {"got": "'99'", "limit": 15}),
    ),
    # --- unknown options
    ("gain_unknown", "calculator", {"gain": "cubic"}, _option("gain", GAINS, "cubic")),
    ("gain_empty", "variants", {"gain": ""}, _option("gain", GAINS, "")),
    ("disc_unknown", "calculator", {"disc": "ln"}, _option("disc", DISCOUNTS, "ln")),
    (
        "eval_ties_unknown",
        "evaluate",
        {"eval_form": "table", "eval_ties": "random"},
        _option("eval_ties", EVAL_TIES, "random"),
    ),
    ("trec_k_word", "evaluate", {"trec_k": "five"}, _k("'five'")),
    (
        "trec_ideal_unknown",
        "evaluate",
        {"trec_ideal": "judged"},
        _option("trec_ideal", "pool, list", "judged"),
    ),
    ("trec_missing_unknown", "evaluate", {"trec_miss": "x"}, _option("trec_miss", "zero, drop", "x")),
    (
        "eval_norel_unknown",
        "evaluate",
        {"eval_form": "table", "eval_norel": "x"},
        _option("eval_norel", EVAL_NOREL, "x"),
    ),
    ("eval_form_unknown", "evaluate", {"eval_form": "tabel"}, _option("eval_form", "trec, table", "tabel")),
    ("lang_unknown", "calculator", {"lang": "xx"}, DEFAULT),
    ("present_junk", "calculator", {"present": "maybe"}, DEFAULT),
    ("unknown_param", "ties", {"zzz": "1"}, QUIET),
    # --- names and unicode oddities
    ("item_newline", "calculator", {"rel": "1,2", "item": ["a\nb", "c"]}, NO_EXCEPTION),
    ("item_nul", "calculator", {"rel": "1,2", "item": ["a\x00b", "c"]}, NO_EXCEPTION),
    ("item_rtl_override", "blind_spots", {"rel": "1,2", "item": ["\u202eab", "c"]}, NO_EXCEPTION),
    ("rel_fullwidth_digits", "calculator", {"rel": "３,２"}, NO_EXCEPTION),
    ("rel_zero_width_space", "calculator", {"rel": "1,\u200b2"}, NO_EXCEPTION),
    ("param_name_unicode", "explore", {"ķ": "1", "\u202e": "2"}, QUIET),
    ("item_empty_name", "calculator", {"rel": "1,2", "item": ["A", ""]}, Err("label_empty", {"position": 2})),
    # --- the judged pool: grades of judged items the list lacks (missed)
    (
        "missed_negative",
        "calculator",
        {"rel": "3,2", "missed": "2,-1"},
        Err("negative", {"what": "missed_grades", "position": 2, "value": -1.0}),
    ),
    (
        "missed_word",
        "lesson",
        {"missed": "three"},
        Err("not_a_number", {"what": "missed_grades", "position": 1, "token": "three"}),
    ),
    (
        "missed_inf",
        "calculator",
        {"missed": "inf"},
        Err("not_finite", {"what": "missed_grades", "position": 1, "token": "inf"}),
    ),
    (
        "missed_101_items",
        "calculator",
        {"missed": ",".join(["1"] * 101)},
        Err("too_many", {"what": "missed_grades", "got": 101, "limit": MAX_ITEMS}),
    ),
    ("missed_overlong", "ties", {"missed": "1," * 1500}, _too_long("missed", 3000, MAX_VALUE_CHARS)),
    ("missed_empty", "calculator", {"missed": ""}, Err("empty", {"what": "missed_grades"})),
    ("missed_zeros_only", "calculator", {"missed": "0,0"}, DEFAULT),
    ("missed_on_explore", "explore", {"rel": "3,?,1", "missed": "3,2"}, QUIET),
    # --- Explore's chosen swap (swap=i,j): two positions of the ranking, or a message
    ("swap_ok", "explore", {"rel": "3,2,0,0,1", "swap": "1,4"}, QUIET),
    ("swap_past_the_end", "explore", {"rel": "3,2,0,0,1", "swap": "1,6"}, _swap("'1,6'")),
    ("swap_zero", "explore", {"swap": "0,2"}, _swap("'0,2'")),
    ("swap_one_position", "explore", {"swap": "3"}, _swap("'3'")),
    ("swap_three_positions", "explore", {"swap": "1,2,3"}, _swap("'1,2,3'")),
    ("swap_markup", "explore", {"swap": "<b>1</b>,2"}, _swap("'<b>1</b>,2'")),
    ("swap_negative", "explore", {"swap": "-1,2"}, _swap("'-1,2'")),
    ("swap_5000_digits", "explore", {"swap": DIGITS}, _too_long("swap", 5000)),
    ("missed_on_blind_spots", "blind_spots", {"rel": "3,3,3", "missed": "3"}, QUIET),
    # --- grades whose gains add up past the largest float: the core's message, the example kept
    *[
        (f"rel_1e308_twice_{page}", page, {"rel": "1e308,1e308"}, _overflow(1e308))
        for page in ("calculator", "lesson", "variants", "explore")
    ],
    ("rel_1023_exponential", "calculator", {"rel": "1023,1023", "gain": "exponential"}, _overflow(1023)),
    ("rel_9e307_jarvelin", "calculator", {"rel": "9e307,9e307", "disc": "jarvelin"}, _overflow(9e307)),
    ("missed_1e308_twice", "calculator", {"missed": "1e308,1e308"}, _overflow(1e308)),
    (
        "trec_k_20_digits",
        "evaluate",
        {"trec_k": "9" * 20},
        Err("k_too_large", {"got": int("9" * 20), "limit": 2**63 - 1}),
    ),
]


def _page_run(page: str, lang: str, params: dict[str, Any]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in {**params, "lang": params.get("lang", lang)}.items():
        at.query_params[name] = value
    path = PAGE_BY_ID[page].path
    if path != "app.py":
        at.switch_page(path)
    return at.run()


def _plain(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


#: Code a Chinese message may name as it is: option and parameter names and their values,
#: the metric's name, and the special values of floating point.
CODE_WORDS = frozenset(
    {
        "nDCG",
        "DCG",
        "IDCG",
        "NaN",
        "nan",
        "inf",
        "gain",
        "discount",
        "ties",
        "no_relevant",
        *GAINS.split(", "),
        *DISCOUNTS.split(", "),
        *EVAL_TIES.split(", "),
        *EVAL_NOREL.split(", "),
    }
)


def _latin_outside_quotes(text: str) -> list[str]:
    """Latin words of a Chinese message other than quoted values, code and parameter names.

    A token with a digit (1e400, D2, log2) is a value, not a word.
    """
    unquoted = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "", text)
    return [
        w
        for w in re.findall(r"(?<![A-Za-z0-9_])[A-Za-z_]{2,}(?![A-Za-z0-9_])", unquoted)
        if w not in CODE_WORDS
    ]


# A link that sets the language itself runs once (in English as the default); every other
# link runs in both languages.
RUNS = [(*case, lang) for case in CASES for lang in ("en", "zh") if lang == "en" or "lang" not in case[2]]


@pytest.mark.parametrize(
    ("case", "page", "params", "outcome", "lang"), RUNS, ids=[f"{run[0]}-{run[4]}" for run in RUNS]
)
def test_hostile_link_gives_its_stated_outcome(case, page, params, outcome, lang):
    at = _page_run(page, lang, params)
    assert not at.exception, [e.message for e in at.exception]
    errors = [_plain(e.value) for e in at.error]
    warnings = [_plain(w.value) for w in at.warning]
    if isinstance(outcome, Err):
        page_lang = at.session_state["lab.lang"]
        expected = error_text(page_lang, NDCGInputError(outcome.key, **outcome.params))
        assert expected in errors, errors
        if page_lang == "zh":
            assert _latin_outside_quotes(expected) == []
    elif isinstance(outcome, Warn):
        assert warnings, "a warning explains the bad value"
        if lang == "zh":
            assert all(_latin_outside_quotes(w) == [] for w in warnings), warnings
    elif outcome in (DEFAULT, QUIET):
        assert not errors and not [w for w in warnings if "link" in w.lower()], (errors, warnings)
        if outcome is DEFAULT:
            assert at.session_state["lab.ranking"].relevance == EXAMPLE_RELEVANCE
    at.run()  # the session stays usable
    assert not at.exception


def test_corpus_has_at_least_40_links_over_every_page():
    assert len(CASES) >= 40
    assert {page for _, page, _, _ in CASES} == set(PAGE_BY_ID)
