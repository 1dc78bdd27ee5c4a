"""The session's shared state: the ranking, the language, presenter mode and each page's link
parameters, kept in ``st.session_state`` under ``lab.*`` keys (never bound to a widget, so they
survive page switches) and mirrored into the URL on every run, so the address bar always holds
a link that reproduces the view. On the first run of a session the state is read from the URL
through the core's parsers; a broken link's messages are kept for the frame to show, and the
example stands in for what was broken.

Components and views read and change the shared state here; only the router runs the frame
(:mod:`ui.framework.frame`), and a page gets it with :func:`current_frame`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from ndcg_core import NDCGInputError
from ui.framework import i18n, styles
from ui.framework.state import (
    SHARED_PARAMS,
    Ranking,
    check_link,
    check_ranking,
    ranking_from_params,
    ranking_to_params,
)
from ui.framework.text import md_escape

_RANKING = "lab.ranking"
LANG = "lab.lang"
PRESENT = "lab.present"
_EXTRA = "lab.extra"  # page-specific link parameters: name -> str or list of str
LINK_ERRORS = "lab.link_errors"
PAGE_PARAMS = "lab.page_params"
_FRAME = "lab.frame"
#: The page a "start a live class" click came from, for the live page to take up.
LIVE_START = "lab.live_start_from"
_INIT = "lab.init"
_GOOD = "lab.good_ranking"  # the last shared ranking check_ranking accepted
#: (before, after, cause) of the last change a person made to the shared ranking on a page
#: (ui.components.widgets.change_ranking); forgotten when the person goes to another page, so
#: a note reports only a change just made.
CHANGE = "lab.change"
_CHOSEN = "lab.ranking_chosen"  # the ranking came from the link or a person's action
_LAST_PAGE = "lab.last_page"


@dataclass(frozen=True, slots=True)
class Frame:
    """What a page gets from :func:`frame`: its id, language and presenter mode, and the ranking.

    ``ranking`` is read from the shared state at every access, not captured when the frame was
    made: a drag or a table edit that a page applies after :func:`frame` is seen by everything
    that reads ``frame.ranking`` later in the run (a stale copy once made pages read it again).
    """

    page: str
    lang: str
    present: bool

    @property
    def ranking(self) -> Ranking:
        """The shared ranking as it is now."""
        return get_ranking()

    def t(self, key: str, **params: Any) -> str:
        """The text of ``key`` in the page's language."""
        return i18n.translate(self.lang, key, **params)

    def secondary(self, name: str) -> Any:
        """A container hidden in presenter mode (key ``lab-secondary-<name>``), for ``with``."""
        return st.container(key=f"{styles.SECONDARY_PREFIX}{name}")


def current_frame() -> Frame:
    """The frame the router made for this run (:func:`ui.framework.frame.frame`)."""
    made: Frame | None = st.session_state.get(_FRAME)
    if made is None:
        raise RuntimeError("no frame: the page runs through the router, app.py")
    return made


def keep_frame(made: Frame) -> None:
    """Keep this run's frame for :func:`current_frame` (the router calls it)."""
    st.session_state[_FRAME] = made


def _query_dict() -> dict[str, str | list[str]]:
    out: dict[str, str | list[str]] = {}
    for name in st.query_params:
        values = st.query_params.get_all(name)
        out[name] = values if len(values) > 1 or name == "item" else values[0]
    return out


def init_session() -> None:
    """Read the link once per session."""
    if st.session_state.get(_INIT):
        return
    params, refused = check_link(_query_dict())
    ranking, errors = ranking_from_params(params)
    errors = refused + errors
    st.session_state[_RANKING] = ranking
    st.session_state[_CHOSEN] = any(name in params for name in ("rel", "item", "missed"))
    st.session_state[LINK_ERRORS] = errors
    st.session_state[_EXTRA] = {k: v for k, v in params.items() if k not in SHARED_PARAMS}
    lang = i18n.normalize_language(params.get("lang") if isinstance(params.get("lang"), str) else None)
    if lang is None:
        try:
            lang = i18n.normalize_language(st.context.locale)
        except Exception:
            lang = None
    st.session_state[LANG] = lang or i18n.DEFAULT_LANGUAGE
    st.session_state[PRESENT] = params.get("present") in ("1", "true", "yes")
    st.session_state[_INIT] = True


def keep_computable() -> NDCGInputError | None:
    """Put the last good ranking (or the example) back when a change made the shared ranking
    one the core cannot compute (:func:`ui.framework.state.check_ranking`), and return the
    refusal: one check for every page, whatever changed the ranking (a link, a widget's
    callback)."""
    ranking = get_ranking()
    if st.session_state.get(_GOOD) == ranking:
        return None
    try:
        check_ranking(ranking)
    except NDCGInputError as err:
        st.session_state[_RANKING] = st.session_state.get(_GOOD) or Ranking()
        return err
    st.session_state[_GOOD] = ranking
    return None


def get_ranking() -> Ranking:
    """The shared ranking (the example on a fresh session)."""
    ranking: Ranking = st.session_state.get(_RANKING, Ranking())
    return ranking


def set_ranking(ranking: Ranking) -> None:
    """Replace the shared ranking; callers are widget callbacks of a person's action (never a
    page visit: see CONTRIBUTING, "The shared ranking")."""
    st.session_state[_RANKING] = ranking
    st.session_state[_CHOSEN] = True
    write_url(st.session_state.get(PAGE_PARAMS, ()))


def ranking_chosen() -> bool:
    """Whether the shared ranking is one somebody chose (a link's ``rel``/``item``/``missed``,
    or an action that set it), not the example a fresh session starts with."""
    return bool(st.session_state.get(_CHOSEN))


def arrive(page: str) -> None:
    """Note the page of this run; going to another page forgets the last change's note."""
    if st.session_state.get(_LAST_PAGE) != page:
        st.session_state.pop(CHANGE, None)
        st.session_state[_LAST_PAGE] = page


def get_param(name: str, default: Any = None) -> Any:
    """A page-specific link parameter (a string, or a list for repeated ones)."""
    return st.session_state.get(_EXTRA, {}).get(name, default)


def set_param(name: str, value: str | list[str] | None) -> None:
    """Set (or with ``None`` remove) a page-specific link parameter, in state and URL."""
    extra = dict(st.session_state.get(_EXTRA, {}))
    if value is None:
        extra.pop(name, None)
    else:
        extra[name] = value
    st.session_state[_EXTRA] = extra
    write_url(st.session_state.get(PAGE_PARAMS, ()))


def seed_from_link(key: str, param: str, default: Any, parse: Callable[[str], Any]) -> NDCGInputError | None:
    """Seed the widget state ``key`` from the link parameter ``param`` once (the last value of
    a repeated one), through ``parse``; a value ``parse`` refuses leaves ``default``, is dropped
    from the link, and its error is returned for the page to show in its place."""
    if key in st.session_state:
        return None
    value, error = default, None
    raw = get_param(param)
    if isinstance(raw, list):
        raw = raw[-1] if raw else None
    if raw is not None:
        try:
            value = parse(str(raw))
        except NDCGInputError as err:
            error = err
            set_param(param, None)
    st.session_state[key] = value
    return error


def shared_params(*, lang: str | None = None) -> dict[str, str | list[str]]:
    """The link parameters every page carries: the ranking, the language, presenter mode."""
    params = ranking_to_params(get_ranking())
    params["lang"] = lang or st.session_state.get(LANG, i18n.DEFAULT_LANGUAGE)
    if st.session_state.get(PRESENT):
        params["present"] = "1"
    return params


def page_params(names: Iterable[str]) -> dict[str, str | list[str]]:
    """The shared parameters plus this page's own ones: the link of the current view."""
    params = shared_params()
    extra = st.session_state.get(_EXTRA, {})
    params.update({name: extra[name] for name in names if name in extra})
    return params


def write_url(names: Iterable[str]) -> None:
    wanted = page_params(names)
    if _query_dict() != wanted:
        st.query_params.from_dict(wanted)


def show_error(lang: str, err: NDCGInputError, *, where: Any = st) -> None:
    """An input error in the page's language; the user's text inside it stays plain text."""
    where.error(md_escape(i18n.error_text(lang, err)), icon=":material/error:")


def presenting() -> bool:
    """Whether the page is in presenter mode (``present=1`` in the link, or the sidebar toggle)."""
    return bool(st.session_state.get(PRESENT))
