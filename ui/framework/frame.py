"""The page frame, run once per script run by the router (``app.py``) before the page:
page set-up, language, the sidebar, the address bar and a broken link's messages. A page gets
the :class:`~ui.framework.shared.Frame` it made with ``current_frame()``.

What every page gets from the frame, without page code:

- **Navigation**: ``st.navigation`` (the router) draws the translated page list at the top of
  the sidebar; the shared ranking, language and presenter mode live in session state, and the
  frame writes them (and the page's own parameters) back into the address bar on every run.
- **Language**: ``lang=`` in the link, else the browser's ``st.context.locale``, else English;
  the sidebar's language switch keeps the ranking (it lives in session state, not in widgets).
- **Share this view**: a sidebar popover with the link of the current view
  (``page_params`` of the page's own parameters, on top of ``st.context.url``), a QR code of
  it, and a button that shows the QR code full size for a projector.
- **Sidebar controls of the app** (the export popover): drawn by callables the router passes
  in, so this floor imports no component. The live class's button asks the live page to start
  a class (``LIVE_START``), so it imports no view.
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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import streamlit as st

from ui.framework import address, i18n, share, styles
from ui.framework.navigation import PAGE_BY_ID, Page
from ui.framework.shared import (
    LANG,
    LINK_ERRORS,
    LIVE_START,
    PAGE_PARAMS,
    PRESENT,
    Frame,
    arrive,
    get_ranking,
    init_session,
    keep_computable,
    keep_frame,
    page_params,
    show_error,
    write_url,
)

#: Pages that work on the shared ranking with the list's own ideal: when the ranking carries
#: a judged pool (ui.framework.state.Ranking.missed), the frame says that they do not use it.
POOL_BLIND_PAGES: frozenset[str] = frozenset({"lesson", "ties", "variants", "blind_spots", "explore"})
#: The page icon (64×64: four falling bars, white on the theme's blue), served by Streamlit.
_ICON = str(Path(__file__).resolve().parents[1] / "assets" / "favicon.png")
#: A sidebar control of the app (the export popover, the live class's button): called with the
#: current page's id, its language and the link of the current view, inside the sidebar.
SidebarControl = Callable[[str, str, str], None]


def session_language() -> str:
    """The session's language, reading the link on the session's first run (the router needs it
    for the translated page titles before it knows the page)."""
    init_session()
    lang: str = st.session_state[LANG]
    return lang


def _on_language() -> None:
    st.session_state[LANG] = st.session_state["lab.lang_widget"]


def _on_present() -> None:
    st.session_state[PRESENT] = st.session_state["lab.present_widget"]


def _base_url() -> str | None:
    try:
        return st.context.url
    except Exception:
        return None


def _live_control(current: str, lang: str) -> None:
    """Start a live class from this page (or go to this session's running one), the page's
    predict-first questions offered first. The request goes to the live page, which starts the
    class (this floor imports no view, and the live class's database loads only when asked
    for); the class and its teacher key go into that session's private link parameters, never
    into a share link or QR code."""
    mine = bool(st.session_state.get("live.mine"))
    if st.button(
        i18n.translate(lang, "common.live_goto" if mine else "common.live_start"),
        key="lab.live",
        icon=":material/co_present:",
        help=i18n.translate(lang, "common.live_help"),
        width="stretch",
    ):
        st.session_state[LIVE_START] = current
        st.switch_page(PAGE_BY_ID["live"].path)


def _sidebar(page: Page, lang: str, controls: Sequence[SidebarControl]) -> None:
    with st.sidebar:
        st.markdown(f"### {i18n.translate(lang, 'common.app_name')}")
        # share and download first: their popovers open downwards and need the room
        reach = address.share_address(
            _base_url(),
            public_url=os.environ.get(address.PUBLIC_URL_ENV),
            server_address=st.get_option("server.address"),
        )
        link = share.share_link(reach.url, page_params(page.params))
        share.share_control(lang, link, reach)
        for control in controls:
            control(page.id, lang, link)
        if page.id != "live":
            _live_control(page.id, lang)
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
        st.session_state["lab.present_widget"] = bool(st.session_state.get(PRESENT))
        st.toggle(
            i18n.translate(lang, "common.presenter_mode"),
            key="lab.present_widget",
            on_change=_on_present,
            help=i18n.translate(lang, "common.presenter_help"),
        )
        st.html(
            styles.PAGE_SCRIPT + styles.DRAG_CARDS_SCRIPT + styles.ARIA_SCRIPT, unsafe_allow_javascript=True
        )
        skip = i18n.translate(lang, "common.skip_to_content")
        st.html(
            styles.page_language_script(i18n.HTML_LANG[lang], skip, _drag_words(lang), aria_words(lang)),
            unsafe_allow_javascript=True,
        )


#: The drag cards' words for a screen reader (styles.DRAG_CARDS_SCRIPT), by catalog key.
_DRAG_WORDS = (
    "title",
    "role",
    "instructions",
    "picked",
    "over",
    "not_over",
    "dropped_over",
    "dropped",
    "cancelled",
)


def _drag_words(lang: str) -> dict[str, str]:
    """The drag cards' words in ``lang``, with ``{card}`` and ``{place}`` left for the script."""
    words = {
        name: i18n.translate(lang, f"common.drag_{name}", card="{card}", place="{place}")
        for name in _DRAG_WORDS
    }
    words["keys"] = words.pop("instructions")
    return words


#: Streamlit's own controls' names (``styles.ARIA_SCRIPT``), by catalog key: ``common.aria.*``.
ARIA_NAMES = (
    "open",
    "collapse_sidebar",
    "expand_sidebar",
    "sidebar",
    "app_pages",
    "copy",
    "decrement",
    "increment",
    "help",
    "help_for",
    "fullscreen",
    "fullscreen_of",
    "download_csv",
    "download_png",
    "copy_spec",
    "show_data",
    "search",
    "columns",
    "add_row",
    "heading_link",
    "progress",
)


def aria_words(lang: str) -> dict[str, Any]:
    """Streamlit's English names of its controls and their words in ``lang``: ``exact`` names,
    and ``prefix`` pairs for a name followed by a label ("Help for " -> "“{label}”的说明");
    nothing to change in English (the script then restores any name it translated).

    >>> aria_words("zh")["exact"]["Copy to clipboard"], aria_words("en")
    ('复制到剪贴板', {'exact': {}, 'prefix': []})
    """
    exact: dict[str, str] = {}
    prefix: list[tuple[str, str]] = []
    for name in ARIA_NAMES:
        english = i18n.translate("en", f"common.aria.{name}", label="{label}")
        local = i18n.translate(lang, f"common.aria.{name}", label="{label}")
        if local == english:
            continue
        if "{label}" in english:
            prefix.append((english.split("{label}")[0], local))
        else:
            exact[english] = local
    return {"exact": exact, "prefix": prefix}


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


def frame(page_id: str, *, controls: Sequence[SidebarControl] = ()) -> Frame:
    """Set up the page ``page_id`` before it runs; the router calls it once per run.

    Parameters
    ----------
    page_id : str
        The page's id (``ui.framework.navigation.PAGES``): its title, link parameters and the
        private ones (kept in this browser's address bar, never in a share link or QR code).
    controls : sequence of SidebarControl
        The app's own sidebar controls, drawn under "share this view".
    """
    page = PAGE_BY_ID[page_id]
    _freeze_imported_objects()
    lang = session_language()
    refused = keep_computable()
    arrive(page.id)
    present = bool(st.session_state.get(PRESENT))
    st.set_page_config(
        page_title=f"{i18n.translate(lang, f'nav.{page.id}')} · {i18n.translate(lang, 'common.app_name')}",
        page_icon=_ICON,  # a local file: a :material/ icon made the browser ask fonts.gstatic.com
        layout="wide",
        initial_sidebar_state="collapsed" if present else "auto",
    )
    names = page.params + page.private
    st.session_state[PAGE_PARAMS] = names
    st.html(
        styles.PAGE_CSS
        + (styles.UPRIGHT_CSS if lang in styles.UPRIGHT_LANGUAGES else "")
        + styles.widget_text_css(
            i18n.translate(lang, "common.upload"),
            i18n.translate(lang, "common.enter_apply"),
            i18n.translate(lang, "common.enter_submit"),
        )
        + (styles.PRESENTER_CSS if present else "")
    )
    _sidebar(page, lang, controls)
    write_url(names)
    errors = st.session_state.get(LINK_ERRORS) or []
    if errors:
        with st.container(key="link_errors"):
            st.warning(i18n.translate(lang, "common.bad_link"), icon=":material/link_off:")
            for err in errors:
                show_error(lang, err)
        if st.button(i18n.translate(lang, "common.dismiss"), key="lab.dismiss_link_errors"):
            st.session_state[LINK_ERRORS] = []
            st.rerun()
    if refused is not None:
        show_error(lang, refused)
    missed = get_ranking().missed
    if missed and page.id in POOL_BLIND_PAGES:
        st.caption(i18n.translate(lang, "common.pool_not_used", n=len(missed)))
    made = Frame(page=page.id, lang=lang, present=present)
    keep_frame(made)
    return made
