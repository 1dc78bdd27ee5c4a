"""What a page keeps for the session when the user goes to another page and comes back.

Streamlit forgets the state of every widget that a run does not draw: after a visit to the
Calculator, the Evaluate page's radio buttons were back on their defaults and its file
uploader empty, so it silently showed the sample instead of the user's file (issue 14). Two
remedies, both plain ``st.session_state`` entries that no widget owns (so they survive):

- :func:`keep_widget` mirrors a widget's value into a ``keep.<key>`` entry and puts it back
  before the widget is drawn again.
- :func:`kept_files` keeps the files of an uploader (name, bytes, digest) until the user
  removes them in the uploader or uploads others; the page names them, so what it shows is
  never a surprise.

And :func:`set_origin` / :func:`origin`: where a ranking shown in the Calculator came from
(the query and run of the Evaluate page), so the Calculator can name them and link back.
This module imports no chart or table library: the Calculator reads it on its first load.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from ui.framework.state import Ranking

_KEEP = "keep."
_FILES = "keep.files."
_ORIGIN = "lab.origin"


def keep_widget(key: str, default: Any) -> None:
    """Before drawing the widget ``key``: restore its kept value (or ``default``) if Streamlit
    dropped it; call :func:`remember` (as the widget's ``on_change``, or after drawing) to keep
    a new value."""
    if key not in st.session_state:
        st.session_state[key] = st.session_state.get(_KEEP + key, default)
    st.session_state[_KEEP + key] = st.session_state[key]


def remember(key: str) -> None:
    """Keep the current value of the widget ``key`` for when the page is drawn again."""
    if key in st.session_state:
        st.session_state[_KEEP + key] = st.session_state[key]


def relabel(key: str, labels: tuple[str, ...]) -> None:
    """Before drawing the select box ``key``: when the texts its ``format_func`` gives its
    options have changed since the last run (the same values, other labels: positions of a
    reordered ranking), set its value again so that the browser shows the new text; Streamlit
    1.67 keeps showing the old one (streamlit/streamlit#13788, open)."""
    shown = _KEEP + key + ".labels"
    if st.session_state.get(shown, labels) != labels and key in st.session_state:
        st.session_state[key] = st.session_state[key]
    st.session_state[shown] = labels


@dataclass(frozen=True, slots=True)
class KeptFile:
    """An uploaded file as the session keeps it: its name, bytes and SHA-256 digest."""

    name: str
    data: bytes
    digest: str
    #: Streamlit's id of the upload it came from (a new upload of the same file gets a new id)
    file_id: str = ""

    @property
    def size(self) -> int:
        return len(self.data)


def kept_file(name: str, data: bytes, file_id: str = "") -> KeptFile:
    """A file to keep (the digest is the cache key of its parsed table).

    >>> kept_file("a.txt", b"x").digest[:8]
    '2d711642'
    """
    return KeptFile(name=name, data=data, digest=hashlib.sha256(data).hexdigest(), file_id=file_id)


def _keep(upload: Any) -> KeptFile:
    # getvalue() of an upload returns the bytes object it holds: nothing is copied
    return kept_file(upload.name, upload.getvalue(), str(getattr(upload, "file_id", "")))


def _on_upload(key: str) -> None:
    # the user added or removed files: the uploader's content is now what is kept
    value = st.session_state.get(key)
    uploads = [] if value is None else (list(value) if isinstance(value, list) else [value])
    if uploads:
        st.session_state[_FILES + key] = tuple(_keep(u) for u in uploads)
    else:
        st.session_state.pop(_FILES + key, None)


def upload_callback(key: str) -> tuple[Any, tuple[str]]:
    """``on_change`` and ``args`` for ``st.file_uploader(key=key, ...)``: keep what it holds."""
    return _on_upload, (key,)


def kept_files(key: str, uploads: Any) -> tuple[KeptFile, ...]:
    """The files of the uploader ``key``: those it holds now, else those kept from an earlier
    visit to the page (the uploader comes back empty after a page switch).

    ``uploads`` is what ``st.file_uploader`` returned (a file, a list, or ``None``).
    """
    current: Sequence[Any] = [] if uploads is None else (uploads if isinstance(uploads, list) else [uploads])
    if current:
        kept = st.session_state.get(_FILES + key, ())
        ids = tuple(str(getattr(u, "file_id", "")) for u in current)
        if tuple(f.file_id for f in kept) != ids or not all(ids):
            kept = tuple(_keep(u) for u in current)
            st.session_state[_FILES + key] = kept
        return tuple(kept)
    return tuple(st.session_state.get(_FILES + key, ()))


def forget_files(key: str) -> None:
    """Drop the kept files of the uploader ``key`` (a button's callback)."""
    st.session_state.pop(_FILES + key, None)


# --------------------------------------------------------------------------- origin


@dataclass(frozen=True, slots=True)
class Origin:
    """A ranking sent to the Calculator from the Evaluate page: which query of which run, from
    which data (a file name or the sample), and the ranking as it was sent."""

    query: str
    run: str
    source: str
    ranking: Ranking


def set_origin(origin: Origin | None) -> None:
    """Record (or with ``None`` forget) where the Calculator's ranking came from."""
    if origin is None:
        st.session_state.pop(_ORIGIN, None)
    else:
        st.session_state[_ORIGIN] = origin


def origin() -> Origin | None:
    """Where the Calculator's ranking came from, if it was sent from the Evaluate page."""
    found = st.session_state.get(_ORIGIN)
    return found if isinstance(found, Origin) else None


__all__ = [
    "KeptFile",
    "Origin",
    "forget_files",
    "keep_widget",
    "kept_file",
    "kept_files",
    "origin",
    "remember",
    "set_origin",
    "upload_callback",
]
