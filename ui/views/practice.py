"""The Practice page: a seeded set of exercises from :mod:`ndcg_teach.exercises`.

The seed and the exercise number live in the link (``?seed=42&ex=3``), so a teacher's link
gives a whole class the same set; junk in the link gives a translated message and a fallback.
Answers are checked by :func:`ndcg_teach.exercises.check_answer` with the stated tolerance,
hints come one step at a time from :func:`ndcg_teach.exercises.hints`, and "show solution"
shows the core's step table. The running score is page-local session state.
"""

from __future__ import annotations

import hashlib
import math
import numbers
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

import pandas as pd
import streamlit as st
from streamlit_sortables import sort_items

import ndcg_core as nc
from ndcg_core import NDCGInputError
from ndcg_core.discounting import Discount
from ndcg_core.gains import Gain
from ndcg_teach.exercises import (
    DEFAULT_TOLERANCE,
    MAX_SEED,
    NUMERIC_KINDS,
    Exercise,
    Hint,
    Verdict,
    check_answer,
    hints,
    make_exercises,
    parse_index,
    parse_seed,
    solution_tables,
)
from ui.components.widgets import answer_number, answer_order, step_table
from ui.framework.shared import Frame, get_param, set_param, show_error
from ui.framework.state import format_grade
from ui.framework.text import md_escape

#: Exercises per set.
SET_SIZE = 10
TOLERANCE = DEFAULT_TOLERANCE
_RESULTS = "practice.results"  # (seed, number) -> "right" | "wrong" | "shown"
_VERDICTS = "practice.verdicts"  # (seed, number) -> last Verdict
_HINTS = "practice.hints"  # (seed, number) -> hints revealed
_SEP = " · "


@st.cache_data(show_spinner=False, max_entries=32)
def exercise_set(seed: int, gain: Gain, discount: Discount) -> list[Exercise]:
    """The set of ``seed`` (cached: a class opening the same link shares the work)."""
    return make_exercises(seed, n=SET_SIZE, gain=gain, discount=discount)


@dataclass(frozen=True, slots=True)
class Place:
    """Where the learner is: the seed, the exercise number (1-based), the set."""

    seed: int
    number: int
    exercises: list[Exercise]

    @property
    def exercise(self) -> Exercise:
        return self.exercises[self.number - 1]

    @property
    def id(self) -> tuple[int, int]:
        return (self.seed, self.number)


def _one(value: Any) -> str:
    return str(value[-1] if isinstance(value, list) and value else value)


def _fresh_seed() -> int:
    return secrets.randbelow(MAX_SEED + 1)


def _page_state() -> None:
    for key in (_RESULTS, _VERDICTS, _HINTS):
        st.session_state.setdefault(key, {})


def read_link(frame: Frame) -> Place:
    """The seed and exercise number of the link, checked; a message and a fallback for junk."""
    _page_state()
    t = frame.t
    raw = get_param("seed")
    if raw is None:
        seed = _fresh_seed()
        set_param("seed", str(seed))
    else:
        try:
            seed = parse_seed(_one(raw))
        except NDCGInputError:
            seed = _fresh_seed()
            st.warning(
                t("practice.bad_seed", got=md_escape(repr(_one(raw)[:20])), max=MAX_SEED, seed=seed),
                icon=":material/link_off:",
            )
            set_param("seed", str(seed))
    raw_ex = get_param("ex")
    number = 1
    if raw_ex is not None:
        try:
            number = parse_index(_one(raw_ex), SET_SIZE)
        except NDCGInputError:
            st.warning(
                t("practice.bad_index", got=md_escape(repr(_one(raw_ex)[:20])), n=SET_SIZE),
                icon=":material/link_off:",
            )
    if raw_ex is None or _one(raw_ex) != str(number):
        set_param("ex", str(number))
    return Place(seed, number, exercise_set(seed, frame.ranking.gain, frame.ranking.discount))


# --- the set: seed, navigation, score ----------------------------------------------------------


def _go(number: int) -> None:
    set_param("ex", str(min(max(number, 1), SET_SIZE)))


def _on_seed() -> None:
    value = st.session_state.get("practice.seed_box")
    # the box bounds what a person types; anything else (inf, 1e400, text) keeps the seed
    if valid_seed(value):
        set_param("seed", str(math.trunc(value)))  # a whole number: trunc is int() (typed on Real)
        set_param("ex", "1")


def valid_seed(value: object) -> TypeGuard[numbers.Real]:
    """Whether a widget's value is a usable seed: a whole number from 0 to MAX_SEED.

    >>> valid_seed(42), valid_seed(42.0), valid_seed(float("inf")), valid_seed("42"), valid_seed(-1)
    (True, True, False, False, False)
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    if isinstance(value, numbers.Integral):  # before float(): 10**400 has no float
        return 0 <= int(value) <= MAX_SEED
    # not value < 0: the ABC numbers.Real declares < and <=, not >= (int <= Real has no type)
    return math.isfinite(value) and float(value).is_integer() and not value < 0 and value <= MAX_SEED


def _new_set() -> None:
    seed = _fresh_seed()
    st.session_state["practice.seed_box"] = seed
    set_param("seed", str(seed))
    set_param("ex", "1")


def score(place: Place) -> tuple[int, int]:
    """(right, tried) in this set: a count of recorded results."""
    results = st.session_state.get(_RESULTS, {})
    mine = [v for (seed, _), v in results.items() if seed == place.seed]
    return sum(v == "right" for v in mine), len(mine)


def status(place: Place, number: int) -> str:
    results: dict[tuple[int, int], str] = st.session_state.get(_RESULTS, {})
    return results.get((place.seed, number), "open")


def _record(place: Place, outcome: str) -> None:
    results = st.session_state[_RESULTS]
    if results.get(place.id) != "right":
        results[place.id] = outcome


def toolbar(frame: Frame, place: Place) -> None:
    """Seed, new set, running score, and the way through the set."""
    t = frame.t
    if st.session_state.get("practice.seed_box") != place.seed:
        st.session_state["practice.seed_box"] = place.seed
    c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")
    c1.number_input(
        t("practice.seed"),
        min_value=0,
        max_value=MAX_SEED,
        step=1,
        key="practice.seed_box",
        on_change=_on_seed,
        help=t("practice.seed_help", max=MAX_SEED),
    )
    c2.button(
        t("practice.new_set"),
        key="practice.new_set",
        on_click=_new_set,
        icon=":material/casino:",
        width="stretch",
    )
    right, tried = score(place)
    c3.metric(
        t("practice.score"),
        t("practice.score_value", right=right, tried=tried),
        help=t("practice.score_help"),
        border=True,
    )
    st.caption(t("practice.share"))
    marks = {"right": "✓", "wrong": "✗", "shown": "◐", "open": "○"}
    line = "\u2003".join(f"{n}\u00a0{marks[status(place, n)]}" for n in range(1, SET_SIZE + 1))
    c1, c2, c3 = st.columns([1, 3, 1], vertical_alignment="center")
    c1.button(
        t("practice.prev"),
        key="practice.prev",
        on_click=_go,
        args=(place.number - 1,),
        disabled=place.number <= 1,
        icon=":material/arrow_back:",
        width="stretch",
    )
    c2.markdown(
        f"**{t('practice.progress', number=place.number, n=SET_SIZE)}**  \n{line}", help=t("practice.legend")
    )
    c3.button(
        t("practice.next"),
        key="practice.next",
        on_click=_go,
        args=(place.number + 1,),
        disabled=place.number >= SET_SIZE,
        icon=":material/arrow_forward:",
        width="stretch",
    )


# --- one exercise --------------------------------------------------------------------------------


def list_table(relevance: Sequence[float], labels: Sequence[str], frame: Frame) -> pd.DataFrame:
    """A list shown across: one column per position, rows item and grade."""
    t = frame.t
    return pd.DataFrame(
        [list(labels), [format_grade(x) for x in relevance]],
        index=[t("practice.row_item"), t("practice.row_grade")],
        # the corner cell names the columns (positions): an empty header is unnamed for a screen
        # reader (axe-core: empty-table-header)
        columns=pd.Index([str(i) for i in range(1, len(labels) + 1)], name=t("table.position")),
    )


def _show_list(title: str | None, relevance: Sequence[float], labels: Sequence[str], frame: Frame) -> None:
    if title:
        st.markdown(f"**{title}**")
    st.table(list_table(relevance, labels, frame))


def _key(name: str, place: Place) -> str:
    return f"practice.{name}.{place.seed}.{place.number}"


def _digest(parts: Sequence[str]) -> str:
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:10]


def sort_key(place: Place) -> str:
    """The drag widget's key: by exercise and a hash of its cards (else it keeps stale cards)."""
    e = place.exercise
    return f"{_key('sort', place)}.{_digest(cards(e))}"


def cards(e: Exercise) -> list[str]:
    return [f"{x}{_SEP}{format_grade(g)}" for x, g in zip(e.labels, e.relevance, strict=False)]


def prompt(frame: Frame, place: Place) -> None:
    """Title, task and the list(s) shown."""
    t = frame.t
    e = place.exercise
    st.header(f"{place.number} · {t(f'practice.kind.{e.kind}')}")
    text = t(f"practice.prompt.{e.kind}", k=e.cutoff)
    if e.kind in NUMERIC_KINDS and e.k is None:
        sep = "" if text.endswith(("。", "？", "！")) else " "  # Chinese sentences need no space
        text = f"{text}{sep}{t('practice.prompt.whole', k=e.cutoff)}"
    st.markdown(text)
    if e.kind == "compare":
        _show_list(t("practice.list_a"), e.relevance, e.labels, frame)
        _show_list(t("practice.list_b"), e.other or (), e.other_labels or (), frame)
    elif e.kind != "ideal_order":
        _show_list(None, e.relevance, e.labels, frame)


def _order_of(e: Exercise, value: Any) -> list[str]:
    """Item names in the order the drag widget holds (its value, or the cards as shown)."""
    order = cards(e)
    if isinstance(value, list) and value and isinstance(value[0], dict):
        order = list(value[0].get("items", order))
    elif isinstance(value, list) and all(isinstance(x, str) for x in value):
        order = value
    label_of = dict(zip(cards(e), e.labels, strict=False))
    return [label_of[c] for c in order if c in label_of]


def _given(place: Place) -> Any:
    """What the learner answered, read from the widgets' state (None: nothing chosen)."""
    e = place.exercise
    if e.kind in NUMERIC_KINDS:
        return st.session_state.get(_key("answer", place), "")
    if e.kind == "compare":
        return st.session_state.get(_key("choice", place))
    return _order_of(e, st.session_state.get(sort_key(place)))


def _check(place: Place) -> None:
    given = _given(place)
    if given is None:
        st.session_state[_VERDICTS][place.id] = "choose_first"
        return
    try:
        verdict = check_answer(place.exercise, given, TOLERANCE)
    except NDCGInputError as err:
        st.session_state[_VERDICTS][place.id] = err
        return
    st.session_state[_VERDICTS][place.id] = verdict
    _record(place, "right" if verdict.correct else "wrong")


def _answer_widget(frame: Frame, place: Place) -> None:
    """The input of the exercise's kind."""
    t = frame.t
    e = place.exercise
    if e.kind in NUMERIC_KINDS:
        st.text_input(
            t("practice.answer"), key=_key("answer", place), placeholder=t("practice.answer_placeholder")
        )
    elif e.kind == "compare":
        st.radio(
            t("practice.choice"),
            ["A", "B", "same"],
            index=None,
            key=_key("choice", place),
            format_func=lambda c: t(f"practice.choice_{c}"),
        )
    else:
        st.markdown(t("practice.drag"))
        order = sort_items(cards(e), direction="horizontal", key=sort_key(place))
        st.caption(t("practice.your_order", order=md_escape("  ›  ".join(order))))


def answer(frame: Frame, place: Place) -> None:
    """Answer input and the check; the verdict (or the input's error) stays until the next check."""
    t = frame.t
    _answer_widget(frame, place)
    # not type="primary": white on the dark theme's sky-blue primary is 2.3:1 (test_contrast.py)
    st.button(
        t("practice.check"), key=_key("check", place), icon=":material/done:", on_click=_check, args=(place,)
    )
    outcome = st.session_state[_VERDICTS].get(place.id)
    if outcome == "choose_first":
        st.info(t("practice.choose_first"))
    elif isinstance(outcome, NDCGInputError):
        show_error(frame.lang, outcome)
    elif isinstance(outcome, Verdict):
        show_verdict(frame, place.exercise, outcome)


def _number(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".") if float(value).is_integer() else f"{value:.4f}"


def show_verdict(frame: Frame, e: Exercise, verdict: Verdict) -> None:
    t = frame.t
    tol = format_grade(verdict.tolerance)
    if e.kind in NUMERIC_KINDS:
        given = md_escape(format_grade(answer_number(verdict.given)))
        if verdict.correct:
            st.success(
                t(
                    "practice.right_number",
                    given=given,
                    tol=tol,
                    expected=md_escape(_number(answer_number(verdict.expected))),
                ),
                icon=":material/check_circle:",
            )
        else:
            st.error(t("practice.wrong_number", given=given, tol=tol), icon=":material/close:")
    elif e.kind == "ideal_order":
        if verdict.correct:
            st.success(t("practice.right_order"), icon=":material/check_circle:")
        else:
            st.error(t("practice.wrong_order"), icon=":material/close:")
    elif verdict.correct:
        st.success(
            t("practice.right_choice", choice=t(f"practice.choice_{verdict.expected}")),
            icon=":material/check_circle:",
        )
    else:
        st.error(t("practice.wrong_choice"), icon=":material/close:")


def _format_hint(frame: Frame, hint: Hint, e: Exercise) -> str:
    key = hint.key
    if key == "dcg_rule" and e.discount == "jarvelin":
        key = "dcg_rule_jarvelin"
    params: dict[str, Any] = {}
    for name, value in hint.params.items():
        if name == "values":
            grades = hint.key in ("grades", "ideal_grades", "gains")
            params[name] = ", ".join(format_grade(v) if grades else f"{v:.4f}" for v in value)
        elif name == "value":
            params[name] = f"{value:.4f}"
        else:
            params[name] = value
    return md_escape(frame.t(f"practice.hint_text.{key}", **params))


def _more_hint(place_id: tuple[int, int], total: int) -> None:
    shown = st.session_state[_HINTS]
    shown[place_id] = min(shown.get(place_id, 0) + 1, total)


def _on_reveal(place: Place, key: str) -> None:
    if st.session_state.get(key):
        _record(place, "shown")


def help_and_solution(frame: Frame, place: Place) -> None:
    """Hints one step at a time; the solution from the step table."""
    t = frame.t
    e = place.exercise
    steps = hints(e)
    shown = st.session_state[_HINTS].get(place.id, 0)
    c1, c2 = st.columns(2, vertical_alignment="center")
    c1.button(
        t("practice.hint", shown=shown, total=len(steps)),
        key=_key("hint", place),
        on_click=_more_hint,
        args=(place.id, len(steps)),
        disabled=shown >= len(steps),
        icon=":material/lightbulb:",
    )
    reveal = c2.toggle(
        t("practice.solution"),
        key=_key("solution", place),
        on_change=_on_reveal,
        args=(place, _key("solution", place)),
    )
    if shown:
        with st.container(border=True, key=f"practice_hints_{place.seed}_{place.number}"):
            st.markdown(f"**{t('practice.hints_title')}**")
            st.markdown(
                "\n".join(f"{i}. {_format_hint(frame, h, e)}" for i, h in enumerate(steps[:shown], 1))
            )
    if reveal:
        solution(frame, e)


#: The solution's step table: the Calculator's columns and headers (``table.*``), with the
#: ideal list's gain × discount, which the hints add up (no log term: the discount is given).
SOLUTION_COLUMNS: tuple[str, ...] = tuple(
    c for c in nc.STEP_COLUMNS if c not in {"log_term", "ideal_item", "ideal_gain", "in_cutoff"}
)


def solution(frame: Frame, e: Exercise) -> None:
    t = frame.t
    tables = solution_tables(e)
    if e.kind in NUMERIC_KINDS:
        name = {"cg": "CG", "dcg": "DCG", "idcg": "IDCG", "ndcg": "nDCG"}[e.kind]
        st.info(
            t(
                "practice.solution_value",
                name=f"{name}@{e.cutoff}",
                value=md_escape(_number(answer_number(e.answer))),
            ),
            icon=":material/key:",
        )
    elif e.kind == "ideal_order":
        grade = dict(zip(e.labels, e.relevance, strict=False))
        order = "  ›  ".join(f"{x}{_SEP}{format_grade(grade[x])}" for x in answer_order(e.answer))
        st.info(t("practice.solution_order", order=md_escape(order)), icon=":material/key:")
    else:
        a, b = tables["A"]["ndcg"].iloc[-1], tables["B"]["ndcg"].iloc[-1]
        st.info(
            t(
                "practice.solution_compare",
                a=md_escape(f"{a:.4f}"),
                b=md_escape(f"{b:.4f}"),
                choice=t(f"practice.choice_{e.answer}"),
            ),
            icon=":material/key:",
        )
    st.caption(t("practice.solution_steps_ideal" if e.kind == "ideal_order" else "practice.solution_steps"))
    for name, table in tables.items():
        if len(tables) > 1:
            st.markdown(f"**{t('practice.list_' + name.lower())}**")
        # the step table of the Calculator and the Lesson: whole where it fits, else in parts
        # (a phone, a projector), never a canvas scrolling sideways
        step_table(
            table,
            t,
            discount=e.discount,
            columns=SOLUTION_COLUMNS,
            mark_cutoff=False,
            present=frame.present,
            key=f"practice-solution-{name.lower()}",
        )
