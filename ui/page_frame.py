"""The page frame: :func:`frame`, which every page calls first (page setup, language, sidebar,
navigation, shared state), and the :class:`Frame` it returns. ``ui.frame`` is the function; this
module is ``ui.page_frame``.

The shared state lives in ``st.session_state`` under ``lab.*`` keys (never bound to a widget,
so it survives page switches) and is mirrored into the URL on every run, so the address bar
always holds a link that reproduces the view. On the first run of a session the state is read
from the URL through the core's parsers; a broken link shows translated messages and falls
back to the example for what was broken.

What every page gets from the frame, without page code (issue 5, the classroom):

- **Language**: ``lang=`` in the link, else the browser's ``st.context.locale``, else English;
  the sidebar's language switch keeps the ranking (it lives in session state, not in widgets).
- **Share this view**: a sidebar popover with the link of the current view
  (:func:`page_params` of the page's own parameters, on top of ``st.context.url``), a QR code of
  it, and a button that shows the QR code full size for a projector.
- **Export**: a sidebar popover with the step table as CSV and a printable one-page handout.
  Pages put :func:`ui.charts.chart_downloads` under a chart for PNG/SVG.
- **Presenter mode** (``present=1`` in the link, or the sidebar toggle): static CSS with large
  numbers, tables and formulas, the sidebar collapsed, and every container whose key starts
  with ``lab-secondary-`` hidden. The convention for pages: wrap controls a teacher does not
  need in front of a class in ``st.container(key="lab-secondary-<name>")`` (or use
  ``with frame.secondary("<name>"):``); pages may also read ``frame.present`` to skip them.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

from ndcg_core import NDCGInputError

from . import address, handout, i18n, share, styles
from .pages import PAGE_BY_ID, PAGES
from .state import SHARED_PARAMS, Ranking, check_link, check_ranking, ranking_from_params, ranking_to_params
from .text import md_escape

_RANKING = "lab.ranking"
_LANG = "lab.lang"
_PRESENT = "lab.present"
_EXTRA = "lab.extra"  # page-specific link parameters: name -> str or list of str
_LINK_ERRORS = "lab.link_errors"
#: Pages that work on the shared ranking with the list's own ideal: when the ranking carries
#: a judged pool (ui.state.Ranking.missed), the frame says that they do not use it.
POOL_BLIND_PAGES: frozenset[str] = frozenset({"lesson", "ties", "variants", "blind_spots", "explore"})
_INIT = "lab.init"
_GOOD = "lab.good_ranking"  # the last shared ranking check_ranking accepted
#: The page icon (64×64: four falling bars, white on the theme's blue), served by Streamlit.
_ICON = str(Path(__file__).resolve().parent / "assets" / "favicon.png")


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


def _query_dict() -> dict[str, str | list[str]]:
    out: dict[str, str | list[str]] = {}
    for name in st.query_params:
        values = st.query_params.get_all(name)
        out[name] = values if len(values) > 1 or name == "item" else values[0]
    return out


def _init_session() -> None:
    """Read the link once per session."""
    if st.session_state.get(_INIT):
        return
    params, refused = check_link(_query_dict())
    ranking, errors = ranking_from_params(params)
    errors = refused + errors
    st.session_state[_RANKING] = ranking
    st.session_state[_LINK_ERRORS] = errors
    st.session_state[_EXTRA] = {k: v for k, v in params.items() if k not in SHARED_PARAMS}
    lang = i18n.normalize_language(params.get("lang") if isinstance(params.get("lang"), str) else None)
    if lang is None:
        try:
            lang = i18n.normalize_language(st.context.locale)
        except Exception:
            lang = None
    st.session_state[_LANG] = lang or i18n.DEFAULT_LANGUAGE
    st.session_state[_PRESENT] = params.get("present") in ("1", "true", "yes")
    st.session_state[_INIT] = True


def _keep_computable() -> NDCGInputError | None:
    """Put the last good ranking (or the example) back when a change made the shared ranking
    one the core cannot compute (:func:`ui.state.check_ranking`), and return the refusal: one
    check for every page, whatever changed the ranking (a link, a widget's callback)."""
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
    """Replace the shared ranking; callers are widget callbacks or run before rendering."""
    st.session_state[_RANKING] = ranking
    _write_url(st.session_state.get("lab.page_params", ()))


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
    _write_url(st.session_state.get("lab.page_params", ()))


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
    params["lang"] = lang or st.session_state.get(_LANG, i18n.DEFAULT_LANGUAGE)
    if st.session_state.get(_PRESENT):
        params["present"] = "1"
    return params


def page_params(names: Iterable[str]) -> dict[str, str | list[str]]:
    """The shared parameters plus this page's own ones: the link of the current view."""
    params = shared_params()
    extra = st.session_state.get(_EXTRA, {})
    params.update({name: extra[name] for name in names if name in extra})
    return params


def _write_url(names: Iterable[str]) -> None:
    wanted = page_params(names)
    if _query_dict() != wanted:
        st.query_params.from_dict(wanted)


def _on_language() -> None:
    st.session_state[_LANG] = st.session_state["lab.lang_widget"]


def _on_present() -> None:
    st.session_state[_PRESENT] = st.session_state["lab.present_widget"]


def show_error(lang: str, err: NDCGInputError, *, where: Any = st) -> None:
    """An input error in the page's language; the user's text inside it stays plain text."""
    where.error(md_escape(i18n.error_text(lang, err)), icon=":material/error:")


def presenting() -> bool:
    """Whether the page is in presenter mode (``present=1`` in the link, or the sidebar toggle)."""
    return bool(st.session_state.get(_PRESENT))


def _base_url() -> str | None:
    try:
        return st.context.url
    except Exception:
        return None


def _live_control(current: str, lang: str) -> None:
    """Start a live class from this page (or go to this session's running one), the page's
    predict-first questions offered first. The class and its teacher key go into this
    session's private link parameters (``live.PRIVATE``), never into a share link or QR code."""
    mine = bool(st.session_state.get("live.mine"))
    if st.button(
        i18n.translate(lang, "common.live_goto" if mine else "common.live_start"),
        key="lab.live",
        icon=":material/co_present:",
        help=i18n.translate(lang, "common.live_help"),
        width="stretch",
    ):
        from . import live  # the live class and its database, only when asked for

        live.start_from(current)
        st.switch_page(PAGE_BY_ID["live"].path)


def _sidebar(current: str, lang: str, names: tuple[str, ...]) -> None:
    with st.sidebar:
        st.markdown(f"### {i18n.translate(lang, 'common.app_name')}")
        # share and download first: their popovers open downwards and need the room
        reach = address.share_address(
            _base_url(),
            public_url=os.environ.get(address.PUBLIC_URL_ENV),
            server_address=st.get_option("server.address"),
        )
        link = share.share_link(reach.url, page_params(names))
        share.share_control(lang, link, reach)
        handout.export_control(lang, get_ranking(), link)
        if current != "live":
            _live_control(current, lang)
        links = shared_params(lang=lang)
        for page in PAGES:
            st.page_link(
                page.path,
                label=i18n.translate(lang, f"nav.{page.id}"),
                icon=page.icon,
                query_params=links,
                disabled=page.id == current,
            )
        st.divider()
        st.session_state["lab.lang_widget"] = lang
        st.selectbox(
            i18n.translate(lang, "common.language"),
            options=i18n.LANGUAGES,
            format_func=lambda code: i18n.translate(code, "common.language_name"),
            key="lab.lang_widget",
            # filter_mode=None: no typing in a short list, so Streamlit's English-only "No results"
            # (no parameter in 1.67) cannot appear; the same in the other short select boxes.
            placeholder=i18n.translate(lang, "common.choose"),
            filter_mode=None,
            on_change=_on_language,
        )
        st.session_state["lab.present_widget"] = bool(st.session_state.get(_PRESENT))
        st.toggle(
            i18n.translate(lang, "common.presenter_mode"),
            key="lab.present_widget",
            on_change=_on_present,
            help=i18n.translate(lang, "common.presenter_help"),
        )
        st.html(styles.PAGE_SCRIPT, unsafe_allow_javascript=True)
        skip = i18n.translate(lang, "common.skip_to_content")
        st.html(styles.page_language_script(i18n.HTML_LANG[lang], skip), unsafe_allow_javascript=True)


_FROZEN_MODULES = 0
_FREEZE_LOCK = threading.Lock()


def _freeze_imported_objects() -> None:
    """Move everything imported so far out of the cyclic garbage collector's sight.

    A full collection (Python's own, or Streamlit's ``gc.collect(2)`` after every script run
    when ``runner.postScriptGC`` is on; ``.streamlit/config.toml`` turns it off) walks, with
    pandas, Altair and their schemas loaded, ~130,000 long-lived objects: ~100 ms of CPU, the
    largest single cost when a class of 60 works at once. ``gc.freeze()`` (CPython 3.7+, made
    for servers) parks the objects alive now in a permanent generation, so a collection only
    walks what scripts and sessions create. It runs
    again only when new modules were imported (a page with a new dependency); objects are
    still freed by reference counting, only cyclic garbage alive at a freeze is kept.
    """
    global _FROZEN_MODULES
    if len(sys.modules) == _FROZEN_MODULES:
        return
    with _FREEZE_LOCK:
        if len(sys.modules) != _FROZEN_MODULES:
            gc.collect()
            gc.freeze()
            _FROZEN_MODULES = len(sys.modules)


def frame(page: str, *, params: Iterable[str] = (), private: Iterable[str] = ()) -> Frame:
    """Set up a page: call first in every page script.

    Parameters
    ----------
    page : str
        The page id (see ``ui.pages.PAGES``), for the title and the navigation.
    params : iterable of str
        The page's own link parameters, kept in the URL next to the shared ones.
    private : iterable of str
        Link parameters kept in this browser's URL (a reload keeps them) but never put in the
        "share this view" link or its QR code: a live class's teacher key and student token.
    """
    if page not in PAGE_BY_ID:
        raise KeyError(page)
    _freeze_imported_objects()
    _init_session()
    refused = _keep_computable()
    lang = st.session_state[_LANG]
    present = bool(st.session_state.get(_PRESENT))
    st.set_page_config(
        page_title=f"{i18n.translate(lang, f'nav.{page}')} · {i18n.translate(lang, 'common.app_name')}",
        page_icon=_ICON,  # a local file: a :material/ icon made the browser ask fonts.gstatic.com
        layout="wide",
        initial_sidebar_state="collapsed" if present else "auto",
    )
    public = tuple(params)
    names = public + tuple(private)
    st.session_state["lab.page_params"] = names
    st.html(
        styles.PAGE_CSS
        + (styles.UPRIGHT_CSS if lang in styles.UPRIGHT_LANGUAGES else "")
        + styles.widget_text_css(i18n.translate(lang, "common.upload"))
        + (styles.PRESENTER_CSS if present else "")
    )
    _sidebar(page, lang, public)
    _write_url(names)
    errors = st.session_state.get(_LINK_ERRORS) or []
    if errors:
        with st.container(key="link_errors"):
            st.warning(i18n.translate(lang, "common.bad_link"), icon=":material/link_off:")
            for err in errors:
                show_error(lang, err)
        if st.button(i18n.translate(lang, "common.dismiss"), key="lab.dismiss_link_errors"):
            st.session_state[_LINK_ERRORS] = []
            st.rerun()
    if refused is not None:
        show_error(lang, refused)
    missed = get_ranking().missed
    if missed and page in POOL_BLIND_PAGES:
        st.caption(i18n.translate(lang, "common.pool_not_used", m=len(missed)))
    return Frame(page=page, lang=lang, present=present)
