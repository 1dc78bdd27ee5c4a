"""Share the current view with a class: its link, a QR code of it, and the sidebar control.

Contents
--------
share_link(base, params)
    The link of the current view, short (commas kept, defaults left out by the frame).
qr_png(text, *, scale)
    A QR code of a link as PNG bytes (segno), big enough to scan from the back of a room.
share_control(lang, link, share)
    The sidebar's "share this view" popover and the full-size QR dialog (streamlit).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode, urlsplit

from ui.framework import i18n
from ui.framework.palette import BLACK, WHITE
from ui.framework.text import md_escape


def share_link(base: str, params: Mapping[str, str | list[str]]) -> str:
    """The link that reproduces a view: ``base`` plus the parameters, commas left readable.

    >>> share_link("http://host/Lesson", {"rel": "3,2,0", "k": "2", "lang": "zh"})
    'http://host/Lesson?rel=3,2,0&k=2&lang=zh'
    >>> share_link("http://host:8501", {"rel": "1,0"})
    'http://host:8501/?rel=1,0'
    """
    if base and not urlsplit(base).path:
        base += "/"  # the home page: http://host:8501/?rel=...
    query = urlencode(
        [
            (name, value)
            for name, values in params.items()
            for value in (values if isinstance(values, list) else [values])
        ],
        safe=",",
    )
    return f"{base.rstrip('?')}?{query}" if query else base


@lru_cache(maxsize=512)
def qr_png(text: str, *, scale: int = 12, border: int = 4) -> bytes:
    """A QR code of ``text`` as PNG bytes; error correction M, dark modules on white.

    ``scale`` is pixels per module: a link to a 20-item list is a 41-module symbol, so the
    default makes it ~590 px wide, about a metre on a classroom projection.
    """
    import segno

    code = segno.make(text, error="m", micro=False, boost_error=False)
    out = io.BytesIO()
    code.save(out, kind="png", scale=scale, border=border, dark=BLACK, light=WHITE)
    return out.getvalue()


def share_note(lang: str, share: Any) -> str:
    """Which address the link uses, in the page's language (Markdown, hosts escaped).

    ``share`` is a :class:`ui.framework.address.ShareAddress`.
    """
    return i18n.translate(
        lang,
        f"classroom.share_from_{share.source}",
        host=md_escape(share.host),
        browser=md_escape(share.browser_host),
    )


def share_control(lang: str, link: str, share: Any = None) -> None:
    """The "share this view" popover: the link to copy and a QR code of it, and a big QR dialog.

    The popover tracks its state, so its content (and the QR code) is made only while it is
    open: a rerun of a class of 60 does not pay for QR codes nobody is looking at. ``share``
    (a :class:`ui.framework.address.ShareAddress`) says which address the link uses; when no address
    students can open is known, the popover and the dialog say so in a warning.
    """
    import streamlit as st

    popover = st.popover(
        i18n.translate(lang, "classroom.share"),
        icon=":material/qr_code_2:",
        width="stretch",
        key="lab.share",
        on_change="rerun",
    )
    if popover.open:
        with popover:
            st.caption(i18n.translate(lang, "classroom.share_help"))
            st.code(link, language=None, wrap_lines=True)
            if share is not None and share.host:
                _share_note(lang, share)
            st.image(
                qr_png(link, scale=10),
                caption=i18n.translate(lang, _local("classroom.qr_caption", share)),
                width="stretch",
                alt=i18n.translate(lang, "classroom.qr_alt"),
            )
    # outside the popover: a click here closes the popover, so nothing covers the dialog
    if st.button(
        i18n.translate(lang, "classroom.show_qr"),
        key="lab.show_qr",
        icon=":material/fullscreen:",
        width="stretch",
        type="tertiary",
    ):
        _qr_dialog(lang, link, share)


#: Static CSS (no user text): the full-size QR code keeps inside the screen's height, with room
#: for the dialog's title, a warning and margins (checked at 1024×768 by tests/browser/test_share.py).
QR_CSS = """<style>
[class*="st-key-lab-qr-full"] { align-items: center; }
[class*="st-key-lab-qr-full"] img { max-height: calc(100vh - 15rem); width: auto !important;
  max-width: 100%; margin: 0 auto; display: block; }
</style>"""


def _local(key: str, share: Any) -> str:
    """``key``, or its ``_local`` form when no address students can open is known: the QR code
    then holds this computer's own address and says so ("this computer only")."""
    return f"{key}_local" if share is not None and share.source == "unreachable" else key


def _share_note(lang: str, share: Any) -> None:
    import streamlit as st

    if share.source == "unreachable":
        st.warning(share_note(lang, share), icon=":material/wifi_off:")
    else:
        st.caption(share_note(lang, share))


def _qr_dialog(lang: str, link: str, share: Any = None) -> None:
    import streamlit as st

    @st.dialog(i18n.translate(lang, _local("classroom.qr_title", share)), width="large")
    def show() -> None:
        if share is not None and share.source == "unreachable":
            _share_note(lang, share)
        # as large as the screen allows with the dialog's title (QR_CSS): 760 px on a 1080p
        # projector, ~1 m wide on a classroom screen; never cut on 1024×768
        with st.container(key="lab-qr-full"):
            st.html(QR_CSS)
            st.image(qr_png(link, scale=16), width=760, alt=i18n.translate(lang, "classroom.qr_alt"))
        # no caption under it: it repeated the dialog's title and fell off a 768-pixel screen

    show()
