"""Shared widgets: the ranking editor, the metric row and the step table.

The ranking editor offers four ways to change the shared ranking that stay in sync, because
each one writes the shared ranking (``ui.set_ranking``) and each one is drawn from it:

- :func:`grades_input`: the grades typed as a list ("3, 2, 0, 0, 1", "3 2 0 0 1", "3，2，0");
- :func:`items_table`: a table of item names and grades (rows can be added and deleted);
- :func:`drag_cards`: cards "D1 · 3" to drag into a new order (streamlit-sortables);
- :func:`order_buttons` and :func:`move_buttons`: ideal order, reverse, shuffle, and one item
  up or down (for keyboard and touch users).

A page calls :func:`apply_drag` and :func:`apply_table` before drawing any of them (a drag or
a table edit arrives as the widget's value on the next run, and every input must show the new
ranking in that same run), then draws the ones it wants. Inputs that fail validation keep what
the person typed and show the translated message right below; the rest of the page keeps
working on the last valid ranking.
Every change made here is recorded (:func:`last_change`) so a page can say what changed.

Also here: :func:`cutoff_slider` and :func:`variant_choice` (k, gain, discount),
:func:`metric_row` (CG@k, DCG@k, IDCG@k, nDCG@k), :func:`step_table` (the core's step table,
rows past k greyed and unticked) and :func:`ranking_pair` (actual and ideal side by side).
Widget keys start with the page's ``prefix`` (the Calculator uses ``"calc"``).
"""

from __future__ import annotations

import copy
import hashlib
import html
import math
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import Any, Literal, TypedDict, TypeVar

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler
from streamlit_sortables import sort_items

import ndcg_core as nc
from ndcg_core import NDCGInputError
from ndcg_core.scales import Scale, check_scale, grade_cells
from ui.framework import messages, styles
from ui.framework.i18n import Translate
from ui.framework.palette import BLUE, css_text_on_fill
from ui.framework.shared import CHANGE, get_ranking, presenting, set_ranking, show_error
from ui.framework.state import (
    MAX_ITEMS,
    UNJUDGED_GRADE,
    Ranking,
    check_ranking,
    default_labels,
    format_grade,
    is_unjudged,
)
from ui.framework.styles import TABLE_PREFIX, column_ems, step_parts, step_table_key, table_parts
from ui.framework.text import md_escape, md_table

_CHANGE = CHANGE  # (before, after, cause) of the last change made through these widgets
_CARD_SEP = " · "


# --- recording changes ------------------------------------------------------------------


def change_ranking(new: Ranking, *, cause: str = "edit") -> None:
    """Replace the shared ranking and remember the change (for "what changed" notes).

    ``cause`` names what changed it: ``"edit"`` (grades, names, order), ``"k"``, ``"gain"``,
    ``"discount"`` or ``"preset:<id>"``.
    """
    old = get_ranking()
    st.session_state[_CHANGE] = (old, new, cause)
    if new != old:
        set_ranking(new)


def last_change(current: Ranking) -> tuple[Ranking, Ranking, str] | None:
    """The last recorded change, if it led to the ranking shown now."""
    change: tuple[Ranking, Ranking, str] | None = st.session_state.get(_CHANGE)
    if change is None or change[1] != current:
        return None
    return change


def _set_error(prefix: str, name: str, err: NDCGInputError | None) -> None:
    key = f"{prefix}.error.{name}"
    if err is None:
        st.session_state.pop(key, None)
    else:
        st.session_state[key] = (get_ranking(), err)


def _show_error(prefix: str, name: str, lang: str, ranking: Ranking) -> bool:
    """Show the input's error while the ranking it was made against is still the current one."""
    stored: tuple[Ranking, NDCGInputError] | None = st.session_state.get(f"{prefix}.error.{name}")
    error = stored[1] if stored is not None and stored[0] == ranking else None
    shown = error is not None
    # the slot is always drawn, so a message coming or going does not shift (and remount) the
    # widgets below it: a keyboard user keeps the focus on the button they pressed
    with st.container(key=f"{prefix}_error_{name}"):
        if error is not None:
            show_error(lang, error)
    return shown


_Parsed = TypeVar("_Parsed")
_Refused = TypeVar("_Refused")


def parsed_input(
    lang: str, label: str, parse: Callable[[str], _Parsed], *, key: str, refused: _Refused, **options: Any
) -> _Parsed | _Refused:
    """A text box and what its text means: ``parse(text)``, or ``refused`` with the core's
    message (:class:`NDCGInputError`, in the page's language) right under the box.

    The message's slot is always drawn, so a message coming or going does not move the widgets
    below it. ``options`` go to ``st.text_input`` (value, help, placeholder, on_change, ...).
    """
    text = st.text_input(label, key=key, **options)
    with st.container(key=f"lab-error-{key.replace('.', '-')}"):
        try:
            return parse(text)
        except NDCGInputError as err:
            show_error(lang, err)
            return refused


# --- helpers on rankings (orders, labels) ------------------------------------------------


def grades_text(ranking: Ranking) -> str:
    """The grades as the text box shows them: "3, 2, 0, 0, 1"."""
    return ", ".join(format_grade(x) for x in ranking.relevance)


def labels_for(ranking: Ranking, n: int) -> tuple[str, ...]:
    """Item names for a list of ``n`` grades typed over ``ranking``: the names kept, new ones added.

    Default names stay default (D1…Dn); custom names are kept for the first positions and the
    new positions get the first free "D<i>" names.
    """
    if ranking.labels == default_labels(ranking.n):
        return default_labels(n)
    kept = list(ranking.labels[:n])
    taken = set(kept)
    i = 1
    while len(kept) < n:
        name = f"D{i}"
        if name not in taken:
            kept.append(name)
            taken.add(name)
        i += 1
    return tuple(kept)


def ideal_order(ranking: Ranking) -> list[int]:
    """Old positions (0-based) in the ideal order: grades descending, ties kept in list order,
    unjudged items last (NaN has no place in a sort by grade)."""
    rel = ranking.relevance
    return sorted(
        range(ranking.n), key=lambda i: (is_unjudged(rel[i]), 0.0 if is_unjudged(rel[i]) else -rel[i])
    )


def moved(ranking: Ranking, index: int, step: int) -> Ranking:
    """The ranking with the item at ``index`` (0-based) moved by ``step`` places (-1 up, +1 down)."""
    target = min(max(index + step, 0), ranking.n - 1)
    order = list(range(ranking.n))
    order.insert(target, order.pop(index))
    return ranking.with_order(order)


def _digest(parts: Sequence[Any]) -> str:
    return hashlib.sha1("\x1f".join(map(str, parts)).encode()).hexdigest()[:12]


# --- typed grades ------------------------------------------------------------------------


def _on_text(prefix: str, scale: Scale, allow_unjudged: bool = False) -> None:
    key = f"{prefix}.text"
    ranking = get_ranking()
    try:
        rel = nc.parse_relevance(st.session_state[key], limit=MAX_ITEMS, allow_unjudged=allow_unjudged)
        check_scale(rel, scale, allow_unjudged=allow_unjudged)
        new = ranking.with_items(rel.tolist(), labels_for(ranking, rel.size))
        check_ranking(new)
    except NDCGInputError as err:
        _set_error(prefix, "text", err)
        return
    _set_error(prefix, "text", None)
    change_ranking(new)
    st.session_state[key] = grades_text(new)
    st.session_state[f"{prefix}.text_for"] = new.relevance


def grades_input(
    ranking: Ranking,
    t: Translate,
    lang: str,
    *,
    prefix: str,
    scale: Scale = "free",
    allow_unjudged: bool = False,
) -> None:
    """A text box with the grades in rank order; its message (if any) right below it.

    ``allow_unjudged`` accepts "?" for an item nobody judged (the Calculator).
    """
    key = f"{prefix}.text"
    has_error = (st.session_state.get(f"{prefix}.error.text") or (None,))[0] == ranking
    # the box's own state is dropped while another page runs: fill it again on the way back
    if key not in st.session_state or (
        not has_error and st.session_state.get(f"{prefix}.text_for") != ranking.relevance
    ):
        st.session_state[key] = grades_text(ranking)
        st.session_state[f"{prefix}.text_for"] = ranking.relevance
    st.text_input(
        t("calculator.grades_label"),
        key=key,
        on_change=_on_text,
        args=(prefix, scale, allow_unjudged),
        help=t(f"calculator.grades_help_{scale}")
        + (" " + t("calculator.grades_help_unjudged") if allow_unjudged else ""),
        placeholder="3, 2, 0, 0, 1",
    )
    _show_error(prefix, "text", lang, ranking)


# --- the table of names and grades ---------------------------------------------------------


def _table_rows(ranking: Ranking, *, as_text: bool = False) -> list[dict[str, Any]]:
    return [
        {"item": label, "grade": format_grade(grade) if as_text else grade}
        for label, grade in zip(ranking.labels, ranking.relevance, strict=False)
    ]


#: What a grade cell holds for an unjudged item ("?", or the full-width "？" of a Chinese keyboard).
UNJUDGED_CELLS: frozenset[str] = frozenset({"?", "？"})


def _unjudged_cell(value: Any) -> bool:
    """A grade cell that marks an unjudged item: "?" typed or chosen, or a row left as it was.

    A row the person did not edit holds the ranking's own NaN object; any other NaN (an edit
    that empties a cell) is a missing grade and gets the core's message.
    """
    if isinstance(value, str):
        return value.strip() in UNJUDGED_CELLS
    return value is UNJUDGED_GRADE


def table_key(ranking: Ranking, prefix: str) -> str:
    """The data editor's key: a new key (a fresh table) whenever the ranking changes."""
    return f"{prefix}.table.{_digest([*ranking.labels, *ranking.relevance])}"


#: Characters of a number in a grade cell (a grade needs a handful; 1e400 or 400 digits do not).
MAX_CELL_CHARS = 40
#: Characters of a name cell before the core's own check (60) sees it.
MAX_NAME_CELL_CHARS = 1000


def _invalid_edit() -> None:
    messages.fail("table_edit_invalid")


def _row_index(value: Any, n: int) -> int:
    """A row number of the editor's state (an int, or its text in JSON keys) within 0..n-1."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        _invalid_edit()
    if isinstance(value, str):
        if not (0 < len(value) <= 6 and value.isascii() and value.isdigit()):
            _invalid_edit()
        value = int(value)
    if not 0 <= value < n:
        _invalid_edit()
    return int(value)


def _digits(value: int) -> int:
    """Decimal digits of an int without ``str()`` (refused past 4,300 digits)."""
    return int(abs(value).bit_length() * 0.30103) + 1


def _grade_cell(value: Any, position: int) -> Any:
    """A grade cell bounded before any conversion: long text or a huge int gets a message.

    Whatever passes goes to the core's :func:`~ndcg_core.scales.grade_cells`, which names
    text, NaN, infinity and negative grades itself.
    """
    if isinstance(value, str) and len(value.strip()) > MAX_CELL_CHARS:
        messages.fail(
            "number_too_long",
            what="relevance_list",
            position=position,
            got=len(value.strip()),
            limit=MAX_CELL_CHARS,
        )
    if isinstance(value, int) and not isinstance(value, bool) and _digits(value) > MAX_CELL_CHARS:
        messages.fail(
            "number_too_long",
            what="relevance_list",
            position=position,
            got=_digits(value),
            limit=MAX_CELL_CHARS,
        )
    if not isinstance(value, (str, int, float)) and value is not None:
        return str(type(value).__name__)  # a list or a mapping: "not a number", by the core
    return value


def _name_cell(value: Any, position: int) -> Any:
    """A name cell as text, bounded before ``str()`` (a huge int has no text form)."""
    if value is None or isinstance(value, str):
        text = value
    elif isinstance(value, int) and not isinstance(value, bool):
        if _digits(value) > MAX_NAME_CELL_CHARS:
            nc.validate.fail("label_too_long", position=position, got=_digits(value), limit=60)
        text = str(value)
    elif isinstance(value, float):
        text = repr(value)
    else:
        _invalid_edit()
    if text is not None and len(text) > MAX_NAME_CELL_CHARS:
        nc.validate.fail("label_too_long", position=position, got=len(text), limit=60)
    return text


def apply_table_edits(ranking: Ranking, edits: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    """Names and grades after a data editor's edits (edited, deleted and added rows).

    Added rows without a name get the first free "D<i>", without a grade 0, so a new row is
    usable at once; cells a person emptied stay empty and fail validation. The edits come
    from the browser as JSON, so their shape is checked too: a row number out of range, a
    row that is not a mapping or more rows than a table may hold raise
    ``NDCGInputError("table_edit_invalid")``, a huge number ``number_too_long``; nothing here
    raises anything else.
    """
    rows = _table_rows(ranking)
    edited = edits.get("edited_rows") or {}
    deleted_rows = edits.get("deleted_rows") or []
    added_rows = edits.get("added_rows") or []
    if not isinstance(edited, dict) or not isinstance(deleted_rows, list) or not isinstance(added_rows, list):
        _invalid_edit()
    if len(edited) > len(rows) or len(deleted_rows) > len(rows):
        _invalid_edit()
    if len(added_rows) > 10 * MAX_ITEMS:
        nc.validate.fail("too_many", what="relevance_list", got=len(rows) + len(added_rows), limit=MAX_ITEMS)
    for index, change in edited.items():
        if not isinstance(change, dict) or not set(change) <= {"item", "grade"}:
            _invalid_edit()
        rows[_row_index(index, len(rows))].update(change)
    deleted = {_row_index(i, len(rows)) for i in deleted_rows}
    rows = [row for i, row in enumerate(rows) if i not in deleted]
    for added in added_rows:
        if not isinstance(added, dict):
            _invalid_edit()
    taken = {row["item"] for row in rows if isinstance(row["item"], str)}
    free = (f"D{i}" for i in range(1, 10 * MAX_ITEMS + 2) if f"D{i}" not in taken)
    for added in added_rows:
        name = added.get("item")
        grade = added.get("grade")
        rows.append(
            {
                "item": name if name not in (None, "") else next(free),
                "grade": 0.0 if grade is None else grade,
            }
        )
    names = [_name_cell(row["item"], i) for i, row in enumerate(rows, 1)]
    grades = [_grade_cell(row["grade"], i) for i, row in enumerate(rows, 1)]
    return names, grades


def table_ranking(
    ranking: Ranking, edits: dict[str, Any], *, scale: Scale = "free", allow_unjudged: bool = False
) -> Ranking:
    """The ranking after a data editor's edits, validated (raises :class:`NDCGInputError`).

    With ``allow_unjudged`` a cell "?" marks an unjudged item (NaN in the ranking).
    """
    labels, grades = apply_table_edits(ranking, edits)
    if not grades:
        nc.validate.fail("empty", what="relevance_list")
    unjudged = [allow_unjudged and _unjudged_cell(g) for g in grades]
    # the judged cells go through the core's checks, so a message names its own row
    rel = grade_cells([0 if gone else g for g, gone in zip(grades, unjudged, strict=True)])
    if rel.size > MAX_ITEMS:
        nc.validate.fail("too_many", what="relevance_list", got=int(rel.size), limit=MAX_ITEMS)
    check_scale(rel, scale)
    values = [UNJUDGED_GRADE if gone else x for x, gone in zip(rel.tolist(), unjudged, strict=True)]
    new = ranking.with_items(values, labels)
    check_ranking(new)  # grades whose gains overflow: the message at the table
    return new


def apply_table(prefix: str, *, scale: Scale = "free", allow_unjudged: bool = False) -> None:
    """Take over the table's edits since the last run; call before drawing any editor input.

    Valid edits become the shared ranking (and a fresh table); invalid ones stay in the table
    with their message until they are fixed or the ranking changes another way.
    """
    ranking = get_ranking()
    key = table_key(ranking, prefix)
    edits = st.session_state.get(key)
    if not isinstance(edits, dict) or not any(
        edits.get(part) for part in ("edited_rows", "added_rows", "deleted_rows")
    ):
        _set_error(prefix, "table", None)
        return
    try:
        new = table_ranking(ranking, edits, scale=scale, allow_unjudged=allow_unjudged)
    except NDCGInputError as err:
        _set_error(prefix, "table", err)
        if err.key == "table_edit_invalid":
            del st.session_state[key]  # not a table a person made: start again from the ranking
        return
    _set_error(prefix, "table", None)
    del st.session_state[key]
    change_ranking(new)


def items_table(
    ranking: Ranking,
    t: Translate,
    lang: str,
    *,
    prefix: str,
    scale: Scale = "free",
    allow_unjudged: bool = False,
) -> None:
    """A table of item names and grades, rows can be added and deleted; its message below.

    With ``allow_unjudged`` the grade is typed text on every scale, so an item can be marked
    as not judged ("?"): a drop-down of the scale's grades dropped a typed "two", "-1" or "7"
    without a word, where a text cell brings the grades box's message (:func:`apply_table`).
    Edits are taken over by :func:`apply_table` at the start of the next run.
    """
    key = table_key(ranking, prefix)
    help_text = t(f"calculator.grades_help_{scale}")
    grade_column: Any
    if not allow_unjudged:
        grade_column = st.column_config.NumberColumn(t("table.relevance"), format="%g", help=help_text)
    else:
        grade_column = st.column_config.TextColumn(
            t("table.relevance"),
            max_chars=MAX_CELL_CHARS,
            help=help_text + " " + t("calculator.grades_help_unjudged"),
        )
    st.data_editor(
        pd.DataFrame(_table_rows(ranking, as_text=allow_unjudged)),
        key=key,
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        column_config={
            "item": st.column_config.TextColumn(t("table.item"), max_chars=60),
            "grade": grade_column,
        },
    )
    _show_error(prefix, "table", lang, ranking)


# --- drag to reorder ---------------------------------------------------------------------


def cards(ranking: Ranking) -> list[str]:
    """The drag cards' texts, "D1 · 3" (unique because item names are unique)."""
    return [
        f"{label}{_CARD_SEP}{format_grade(grade)}"
        for label, grade in zip(ranking.labels, ranking.relevance, strict=False)
    ]


def sortable_key(ranking: Ranking, prefix: str) -> str:
    """The key of a freshly drawn sortable: a hash of its cards, so it never keeps a stale order."""
    return f"{prefix}.drag.{_digest(cards(ranking))}"


def _live_key(ranking: Ranking, prefix: str) -> str:
    """The key to draw the sortable with now.

    After the person's own drag the sortable already shows the new order, so it keeps its key
    (no new iframe: the drop costs one rerun, not a component reload). Any other change of
    order gets a fresh key, :func:`sortable_key`, so the sortable never shows a stale order.
    """
    shown: tuple[str, tuple[str, ...]] | None = st.session_state.get(f"{prefix}.drag_shown")
    if shown is not None and shown[1] == tuple(cards(ranking)):
        return shown[0]
    return sortable_key(ranking, prefix)


def _dragged(value: Any) -> list[str] | None:
    """The card order in the sortable's value ([{"header": ..., "items": [...]}] or a list)."""
    if isinstance(value, list) and value and isinstance(value[0], dict):
        value = value[0].get("items")
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    return None


def apply_drag(prefix: str) -> None:
    """Take over a drag made since the last run; call before drawing any editor input."""
    ranking = get_ranking()
    key = _live_key(ranking, prefix)
    value = st.session_state.get(key)
    order = _dragged(value)
    current = cards(ranking)
    if order is None or order == current or sorted(order) != sorted(current):
        return
    index = {card: i for i, card in enumerate(current)}
    # value is a list (_dragged found an order in it). The component's own value (a list of
    # dicts) shows this order now; anything else (a test's plain list): draw a fresh one.
    if isinstance(value, list) and isinstance(value[0], dict):
        st.session_state[f"{prefix}.drag_shown"] = (key, tuple(order))
    else:
        del st.session_state[key]
    change_ranking(ranking.with_order([index[card] for card in order]))


_CARD_STYLE = (
    """
.sortable-component { border: 0; padding: 0; }
.sortable-container-body { background-color: rgba(128, 128, 128, 0.14); border-radius: 8px; padding: 4px; }
.sortable-item, .sortable-item:hover {
    """
    + css_text_on_fill("card")
    + """ font-weight: 600; border-radius: 6px;
    padding: 4px 10px; margin: 4px; font-size: 1rem;
    white-space: nowrap; /* the card being moved keeps its whole label ("D2 · 2", not "D2 ·") */
}
.sortable-item.active { opacity: 0.4; }
.sortable-item:focus-visible { outline: 3px solid FOCUS; outline-offset: 2px; }
""".replace("FOCUS", styles.FOCUS_RING)
)


_COMPACT_STYLE = (
    _CARD_STYLE
    + """
.sortable-item, .sortable-item:hover { padding: 1px 6px; margin: 2px; font-size: 0.8rem; font-weight: 500; }
"""
)


_BEYOND_K_STYLE = (
    """
.sortable-container-body .sortable-item:nth-child(n+{first}) {{
    """
    + css_text_on_fill("card_beyond_k")
    + """ font-weight: 500;
}}
"""
)


_UNJUDGED_STYLE = (
    """
.sortable-container-body .sortable-item:nth-child({position}) {{
    """
    + css_text_on_fill("card_unjudged")
    + f" outline: 2px dashed {BLUE}; outline-offset: -2px;"
    + """
}}
"""
)


_LARGE_STYLE = (
    _CARD_STYLE
    + """
.sortable-item, .sortable-item:hover { padding: 8px 18px; margin: 6px; font-size: 1.7rem; }
"""
)


def drag_keys(t: Translate, *, key: str) -> None:
    """How to move a card without a mouse, under every set of drag cards (the keys of the
    sortable's keyboard sensor, dnd-kit's: Space or Enter picks up and drops, Esc cancels);
    not on a touch screen without a mouse (``styles.PAGE_CSS``), where it named keys a phone
    does not have."""
    # no inline :material/…: icon: its ligature is English text ("keyboard") that a screen
    # reader reads out, also on a Chinese page
    with st.container(key=f"{styles.DRAG_KEYS_PREFIX}{key}"):
        st.caption(t("common.drag_keys"))


def cards_room(texts: list[str], prefix: str, *, large: bool = False) -> Any:
    """The container of a set of drag cards, which keeps the room the cards will take while
    their frame loads (styles.card_rows_css), so what is below does not move when they appear."""
    key = f"{styles.DRAG_CARDS_PREFIX}{prefix}"
    st.html(f'<div class="{styles.NO_ROOM_CLASS}"></div>' + styles.card_rows_css(key, texts, large=large))
    return st.container(key=key)


def drag_cards(ranking: Ranking, t: Translate, *, prefix: str, large: bool = False) -> None:
    """Cards in rank order, to drag into a new order (left to right, wrapping; smaller when many),
    and the keys that move them without a mouse.

    Cards past the cutoff k are light (the same change of style as the step table's rows);
    ``large`` (presenter mode) makes them readable from the back of a room (the cards live in
    an iframe, so the page's presenter style sheet cannot reach them).
    """
    style = _LARGE_STYLE if large and ranking.n <= 20 else _CARD_STYLE if ranking.n <= 20 else _COMPACT_STYLE
    if ranking.cutoff < ranking.n:
        style += _BEYOND_K_STYLE.format(first=ranking.cutoff + 1)
    # an unjudged card ("D2 · ?") is white with a dashed edge: an item with no grade yet
    style += "".join(
        _UNJUDGED_STYLE.format(position=i) for i, x in enumerate(ranking.relevance, 1) if is_unjudged(x)
    )
    texts = cards(ranking)
    with cards_room(texts, prefix, large=large and ranking.n <= 20):
        sort_items(texts, direction="horizontal", custom_style=style, key=_live_key(ranking, prefix))
    drag_keys(t, key=prefix)


def skip_link(text: str, target: str) -> None:
    """A link to the anchor ``target`` (:func:`anchor`), first in the page's tab order after
    Streamlit's own "Skip to main content": hidden until focused, then shown where it stands."""
    st.html(f'<a class="{styles.SKIP_LINK_CLASS}" href="#{target}">{html.escape(text)}</a>')


def anchor(target: str) -> None:
    """An empty place a :func:`skip_link` jumps to; focusable by the link only (tabindex -1), so
    the next Tab goes to the control after it."""
    st.html(f'<div class="{styles.NO_ROOM_CLASS}" id="{target}" tabindex="-1"></div>')


# --- pages that need a grade for every item -------------------------------------------------


def _on_unjudged_as_zero() -> None:
    ranking = get_ranking()
    grades = [0.0 if is_unjudged(x) else x for x in ranking.relevance]
    change_ranking(ranking.with_items(grades, ranking.labels))


def unjudged_notice(ranking: Ranking, t: Translate, *, prefix: str) -> bool:
    """On a page that needs a grade for every item: say so when the ranking has unjudged items.

    Shows which items are unjudged and a button that grades them 0 (what trec_eval assumes),
    so nothing is guessed silently. Returns True when the notice was shown (the page then
    skips what needs the grades).
    """
    if not ranking.has_unjudged:
        return False
    items = ", ".join(
        label for label, x in zip(ranking.labels, ranking.relevance, strict=True) if is_unjudged(x)
    )
    with st.container(key=f"{prefix}_unjudged_notice"):
        st.info(
            t("common.needs_judged", items=md_escape(items)),
            icon=":material/help:",
        )
        st.button(
            t("common.unjudged_as_zero"),
            key=f"{prefix}.unjudged_as_zero",
            on_click=_on_unjudged_as_zero,
            icon=":material/exposure_zero:",
        )
    return True


# --- buttons ------------------------------------------------------------------------------


def _on_order(how: str) -> None:
    ranking = get_ranking()
    if how == "ideal":
        order = ideal_order(ranking)
    elif how == "reverse":
        order = list(range(ranking.n))[::-1]
    else:
        order = list(range(ranking.n))
        shuffled = order[:]
        rng = random.Random()
        for _ in range(10):  # a shuffle that changes nothing would look like a broken button
            rng.shuffle(shuffled)
            if ranking.with_order(shuffled) != ranking:
                break
        order = shuffled
    change_ranking(ranking.with_order(order))


def order_buttons(t: Translate, *, prefix: str) -> None:
    """Ideal order, reverse, shuffle."""
    with st.container(horizontal=True, wrap=True, gap="small"):
        for how, icon in zip(
            ("ideal", "reverse", "shuffle"),
            (":material/sort:", ":material/swap_vert:", ":material/shuffle:"),
            strict=False,
        ):
            st.button(
                t(f"calculator.{how}"),
                key=f"{prefix}.{how}",
                icon=icon,
                on_click=_on_order,
                args=(how,),
                help=t(f"calculator.{how}_help"),
            )


def _on_move(prefix: str, step: int) -> None:
    ranking = get_ranking()
    label = st.session_state.get(f"{prefix}.move_pick")
    if label not in ranking.labels:
        return
    change_ranking(moved(ranking, ranking.labels.index(label), step), cause=f"move:{label}")


def _on_pick(prefix: str) -> None:
    st.session_state[f"{prefix}.move_pick"] = st.session_state[f"{prefix}.move_item"]


def move_buttons(ranking: Ranking, t: Translate, *, prefix: str) -> None:
    """Choose an item, move it one place up or down (works with the keyboard and touch).

    The choices are the item names in name order, so they stay the same while items move (a
    select box whose options change would forget its choice); the choice is also kept in
    ``<prefix>.move_pick`` and written back before drawing.
    """
    key, pick = f"{prefix}.move_item", f"{prefix}.move_pick"
    if st.session_state.get(pick) not in ranking.labels:
        st.session_state[pick] = ranking.labels[0]
    st.session_state[key] = st.session_state[pick]
    index = ranking.labels.index(st.session_state[pick])
    with st.container(horizontal=True, wrap=True, gap="small", vertical_alignment="bottom"):
        st.selectbox(
            t("calculator.move_item"),
            options=sorted(ranking.labels),
            key=key,
            width=170,
            placeholder=t("common.choose"),
            on_change=_on_pick,
            args=(prefix,),
        )
        st.button(
            t("calculator.up"),
            key=f"{prefix}.up",
            icon=":material/arrow_upward:",
            on_click=_on_move,
            args=(prefix, -1),
            disabled=index == 0,
        )
        st.button(
            t("calculator.down"),
            key=f"{prefix}.down",
            icon=":material/arrow_downward:",
            on_click=_on_move,
            args=(prefix, 1),
            disabled=index == ranking.n - 1,
        )


# --- variant choices ----------------------------------------------------------------------


def _on_option(prefix: str, field: str) -> None:
    value = st.session_state[f"{prefix}.{field}"]
    ranking = get_ranking()
    if field == "k":
        value = None if value is None or value >= ranking.n else int(value)
    elif value is None:
        return
    change_ranking(replace(ranking, **{field: value}), cause=field)


def cutoff_slider(ranking: Ranking, t: Translate, *, prefix: str) -> None:
    """k from 1 to n (n means the whole list)."""
    key = f"{prefix}.k"
    if ranking.n < 2:
        st.caption(t("calculator.k_single"))
        return
    st.session_state[key] = ranking.cutoff
    st.slider(
        t("calculator.k_label"),
        min_value=1,
        max_value=ranking.n,
        step=1,
        key=key,
        on_change=_on_option,
        args=(prefix, "k"),
        help=t("calculator.k_help"),
    )
    if ranking.k is not None and ranking.k > ranking.n and ranking.pool is None:
        # only a link can ask for it (the slider stops at n): say why the metrics read @n
        st.caption(t("calculator.k_past_list", k=ranking.k, n=ranking.n))


def variant_choice(
    ranking: Ranking, t: Translate, field: str, choices: Sequence[str], *, prefix: str
) -> None:
    """Gain or discount, as a segmented control that cannot be emptied."""
    key = f"{prefix}.{field}"
    st.session_state[key] = getattr(ranking, field)
    st.segmented_control(
        t(f"calculator.{field}_label"),
        options=list(choices),
        key=key,
        required=True,
        format_func=lambda choice: t(f"calculator.{field}_{choice}"),
        on_change=_on_option,
        args=(prefix, field),
        help=t(f"calculator.{field}_help"),
    )


# --- results ------------------------------------------------------------------------------


#: An answer as the core and the live class type it: a number, an order (item names) or a choice.
AnswerValue = float | tuple[str, ...] | list[str] | str


def answer_number(value: AnswerValue) -> float:
    """The answer of a numeric question as a float (a number, or the text of one).

    >>> answer_number(0.5), answer_number("0.5")
    (0.5, 0.5)
    """
    if isinstance(value, (tuple, list)):
        raise TypeError(f"an order, not the answer of a numeric question: {value!r}")
    return float(value)


def answer_order(value: AnswerValue) -> list[str]:
    """The answer of an ordering question: the item names in order.

    >>> answer_order(("D2", "D1"))
    ['D2', 'D1']
    """
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"not the answer of an ordering question: {value!r}")
    return list(value)


def number(value: float) -> str:
    """A metric value as shown everywhere on the page: four decimals (4 significant digits and
    an exponent from 1e9 on: a free scale allows 1e300, which has 301 digits)."""
    return f"{value:.4f}" if abs(value) < 1e9 else f"{value:.3e}"


class MetricBox(TypedDict):
    """How every metric box of a page is drawn (``st.metric``'s keyword arguments)."""

    border: bool
    width: Literal["stretch", "content"] | int


#: Every metric box: framed, the boxes of a row sharing its width.
METRIC_BOX: MetricBox = {"border": True, "width": "stretch"}


def metric_row(
    m: nc.Metrics,
    t: Translate,
    *,
    delta: float | None = None,
    key: str = "metrics",
    condensed: bool = False,
    k: int | None = None,
) -> None:
    """CG@k, DCG@k, IDCG@k and nDCG@k side by side; ``delta`` (from the core) on nDCG.

    ``condensed``: the numbers are those of the condensed list (unjudged items removed), named
    with a prime as Sakai (2007) names nDCG′. ``k``: the cutoff named (default ``m.k``; against
    a judged pool the ideal can run past the list).
    """
    p = "′" if condensed else ""
    kk = m.k if k is None else k
    with st.container(key=key, horizontal=True, wrap=True, gap="small"):
        st.metric(f"CG{p}@{kk}", format_grade(m.cg), help=t("calculator.cg_help"), **METRIC_BOX)
        st.metric(f"DCG{p}@{kk}", number(m.dcg), help=t("calculator.dcg_help"), **METRIC_BOX)
        st.metric(f"IDCG{p}@{kk}", number(m.idcg), help=t("calculator.idcg_help"), **METRIC_BOX)
        st.metric(
            f"nDCG{p}@{kk}",
            number(m.ndcg),
            help=t("calculator.ndcg_help"),
            **METRIC_BOX,
            delta=None if delta is None or abs(delta) < 5e-5 else f"{delta:+.4f}",
        )


#: How the step table's columns are shown: "grade" as typed, "4" with four decimals, None as is.
COLUMN_FORMATS: dict[str, str | None] = {
    "position": None,
    "item": None,
    "relevance": "grade",
    "gain": "grade",
    "cg": "grade",
    "log_term": "4",
    "discount": "4",
    "discounted_gain": "4",
    "dcg": "4",
    "ideal_item": None,
    "ideal_relevance": "grade",
    "ideal_gain": "grade",
    "ideal_discounted_gain": "4",
    "idcg": "4",
    "ndcg": "4",
}
#: The Calculator's columns of the step table: the core's, less the ideal list's items and
#: gains and the in-cutoff flag (a column of its own look, ``in_top_k``).
CALCULATOR_COLUMNS: tuple[str, ...] = tuple(
    c for c in nc.STEP_COLUMNS if c not in {"ideal_item", "ideal_gain", "ideal_discounted_gain", "in_cutoff"}
)
_SCROLL_ROWS = 12  # longer tables scroll inside a box of _SCROLL_HEIGHT pixels
_SCROLL_HEIGHT = 420


def _cell(value: Any, kind: str | None) -> str:
    if kind is not None and (value is None or pd.isna(value)):
        return nc.NO_ITEM  # a position past the returned list: "—", as its item
    if kind == "grade":
        return format_grade(float(value))
    if kind == "4":
        return number(float(value))
    return str(value)


def step_cells(
    table: pd.DataFrame, columns: Sequence[str], t: Translate, *, discount: str
) -> dict[str, list[str]]:
    """Columns of the core's step table as shown: translated headers, every cell as text."""
    out: dict[str, list[str]] = {}
    for column in columns:
        header = t(f"table.log_term_{discount}") if column == "log_term" else t(f"table.{column}")
        kind = COLUMN_FORMATS[column]
        out[header] = [_cell(x, kind) for x in table[column].tolist()]
        if column == "relevance" and "item" in table:
            # a returned item without a grade is unjudged ("?"); past the list there is no item
            out[header] = [
                "?" if item != nc.NO_ITEM and pd.isna(x) else cell
                for item, x, cell in zip(table["item"], table[column], out[header], strict=True)
            ]
    return out


def static_table(
    columns: dict[str, list[str]],
    *,
    right: Collection[str] = (),
    muted: Sequence[bool] = (),
    shaded: Sequence[bool] = (),
    key: str,
    scroll: bool = True,
) -> None:
    """A static Markdown table (cells escaped); long ones scroll in a box unless ``scroll`` is off."""
    n = len(next(iter(columns.values()), []))
    height: int | Literal["content"] = _SCROLL_HEIGHT if scroll and n > _SCROLL_ROWS else "content"
    with st.container(key=f"{TABLE_PREFIX}{key}", height=height, border=False):
        st.markdown(md_table(columns, right=right, muted=muted, shaded=shaded))


def _shown_cells(data: pd.DataFrame | Styler) -> dict[str, list[str]] | None:
    """A frame's cells as shown (a Styler's formats applied), by header; None for a Styler that
    colours its cells (``st.table`` draws those colours) or whose text does not split cleanly."""
    if isinstance(data, pd.DataFrame):
        return {str(c): ["" if pd.isna(x) else str(x) for x in data[c].tolist()] for c in data.columns}
    if getattr(data, "_todo", None):  # .apply / .map styles queued: keep st.table's colours
        return None
    sep = "\x1f"  # the ASCII unit separator: in no header or cell of the app's tables
    text = copy.deepcopy(data).hide(axis="index").to_string(delimiter=sep)
    rows = [line.split(sep) for line in text.splitlines()]
    frame = data.data
    if len(rows) != len(frame) + 1 or any(len(row) != len(frame.columns) for row in rows):
        return None
    return {header: [row[n] for row in rows[1:]] for n, header in enumerate(rows[0])}


def data_table(
    data: pd.DataFrame | Styler,
    *,
    key: str,
    height: int | Literal["auto"] = "auto",
    wrap: bool = False,
    narrow: bool = False,
) -> None:
    """A table of a page: interactive (``st.dataframe``: sort, scroll, full screen) for a learner,
    static and large in presenter mode (a data frame draws on a canvas at a fixed size). There a
    table too wide for a projector is also shown in parts (``styles.table_parts``), each
    repeating its first column; the style sheet shows the whole table where it fits, else the
    parts, as for the step table. A Styler that colours cells is shown whole by ``st.table``,
    which the presenter style sheet enlarges. ``wrap``: a table of long texts is static for a
    learner too, its cells wrapped (a data frame's canvas cut a column of sentences at 1280 px).
    ``narrow``: on a phone the same static table, its headers wrapped (a data frame's canvas of
    seven columns scrolled sideways there); ``styles.PAGE_CSS`` shows one of the two."""
    cells = _shown_cells(data) if presenting() else None
    if cells is not None:
        frame = data if isinstance(data, pd.DataFrame) else data.data
        right = [str(c) for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c])]
        parts = table_parts(cells)
        # the room the whole table needs, in the step table's column widths
        need = sum(column_ems([h, *col]) for h, col in cells.items())
        width = math.ceil(need / styles.STEP_COLUMN_EMS) if len(parts) > 1 else 0
        with st.container(key=step_table_key(key, width)):
            static_table(cells, right=right, key=f"{key}-whole", scroll=False)
            for n, part in enumerate(parts if len(parts) > 1 else ()):
                static_table(part, right=right, key=f"{key}-part{n}", scroll=False)
        return
    if presenting():
        st.table(data.hide(axis="index") if isinstance(data, Styler) else data.style.hide(axis="index"))
        return
    cells = _shown_cells(data) if wrap or narrow else None
    if cells is None:
        st.dataframe(data, key=key, hide_index=True, width="stretch", height=height)
        return
    frame = data if isinstance(data, pd.DataFrame) else data.data
    right = [str(c) for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c])]
    if wrap:
        static_table(cells, right=right, key=f"{key}-wrapped", scroll=False)
        return
    with st.container(key=f"{styles.WIDE_PREFIX}{key}"):
        st.dataframe(data, key=key, hide_index=True, width="stretch", height=height)
    with st.container(key=f"{styles.NARROW_PREFIX}{key}"):
        static_table(cells, right=right, key=f"{key}-narrow", scroll=False)


def configured_table(data: pd.DataFrame, *, key: str, column_config: dict[str, Any]) -> None:
    """A results table with Streamlit column settings (headers, number formats): an interactive
    ``st.dataframe`` for a learner; in presenter mode :func:`data_table`'s static, enlarged
    table with the same headers and formats (a data frame's canvas kept its small type on a
    projector, the smallest text of the Evaluate page)."""
    if not presenting():
        st.dataframe(data, hide_index=True, column_config=column_config, key=key)
        return
    labels = {c: column_config[c]["label"] if c in column_config else c for c in data.columns}
    formats: dict[str, Any] = {}
    for column, config in column_config.items():
        kind = config["type_config"] if column in data.columns else {}
        if kind.get("format"):
            formats[labels[column]] = lambda x, f=kind["format"]: "" if pd.isna(x) else f % x
        elif kind.get("type") == "checkbox":
            formats[labels[column]] = lambda x: "✓" if x else ""
    data_table(data.rename(columns=labels).style.format(formats), key=key)


def step_table(
    table: pd.DataFrame,
    t: Translate,
    *,
    discount: str,
    columns: Sequence[str] = CALCULATOR_COLUMNS,
    mark_cutoff: bool | None = True,
    present: bool = False,
    key: str = "step_table",
) -> None:
    """The core's step table; positions beyond k greyed and marked "—" in the "In top k" column.

    ``mark_cutoff=None`` adds that column only when some position is past k. In presenter mode
    the table does not scroll in a box: the page does, with the larger type.
    """
    within = table["in_cutoff"].tolist()
    cells: dict[str, list[str]] = {}
    if mark_cutoff or (mark_cutoff is None and not all(within)):
        cells[t("table.in_cutoff")] = [
            t("table.in_cutoff_yes") if x else t("table.in_cutoff_no") for x in within
        ]
    body = step_cells(table, columns, t, discount=discount)
    right = [
        h for h, c in zip(body, columns, strict=False) if c == "position" or COLUMN_FORMATS[c] is not None
    ]
    muted = [not x for x in within]
    # the whole table where it fits, else its parts (gains, discounts, ideal) one under the other:
    # the style sheet shows one of the two by the container's width (styles.PAGE_CSS)
    parts = step_parts(cells | body, columns, len(cells))
    # the room the whole table needs: a column per column, more for wide cells (1.000e+300)
    width = sum(max(1, math.ceil(max(map(len, col), default=0) / 7)) for col in (cells | body).values())
    with st.container(key=step_table_key(key, width if len(parts) > 1 else 0)):
        static_table(cells | body, right=right, muted=muted, key=f"{key}-whole", scroll=not present)
        for n, part in enumerate(parts if len(parts) > 1 else ()):
            static_table(part, right=right, muted=muted, key=f"{key}-part{n}", scroll=not present)


def ranking_pair(
    table: pd.DataFrame, t: Translate, *, present: bool = False, key: str = "ranking_pair"
) -> None:
    """The actual ranking and the ideal one side by side (item · grade per position)."""

    def card(item: Any, grade: Any) -> str:
        if item == nc.NO_ITEM:
            # an ideal position held by a judged item the system did not return shows its grade
            return (
                nc.NO_ITEM
                if pd.isna(grade)
                else f"{t('calculator.not_returned')}{_CARD_SEP}{format_grade(grade)}"
            )
        # a returned item with no grade is unjudged: format_grade writes it "?"
        return f"{item}{_CARD_SEP}{format_grade(float(grade))}"

    position = t("table.position")
    columns = {
        position: [str(p) for p in table["position"].tolist()],
        t("calculator.actual"): [
            card(i, g) for i, g in zip(table["item"].tolist(), table["relevance"].tolist(), strict=False)
        ],
        t("calculator.ideal_ranking"): [
            card(i, g)
            for i, g in zip(table["ideal_item"].tolist(), table["ideal_relevance"].tolist(), strict=False)
        ],
    }
    static_table(columns, right=[position], key=key, scroll=not present)


def scrollable_formulas() -> None:
    """Let wide LaTeX scroll (a DCG sum of five terms is wider than a phone)."""
    st.html(styles.FORMULA_CSS)
