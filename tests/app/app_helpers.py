"""Reading what AppTest cannot read for us: the static Markdown tables of ``ui.framework.text.md_table``."""

from __future__ import annotations

import re

import pandas as pd
from streamlit.testing.v1 import AppTest

_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_ESCAPED = re.compile(r"\\(.)")
_GREY = re.compile(r"^:gray\[(.*)\]$")


def parse_md_table(text: str) -> tuple[pd.DataFrame, list[bool]]:
    """A table drawn by ``md_table`` read back: its cells as text, and which rows are grey."""
    lines = text.strip().splitlines()
    rows, grey = [], []
    for line in [lines[0], *lines[2:]]:
        cells = [c.strip() for c in _CELL_SPLIT.split(line.strip())[1:-1]]
        marks = [bool(_GREY.match(c)) for c in cells if c]
        rows.append([_ESCAPED.sub(r"\1", _GREY.sub(r"\1", c)) for c in cells])
        grey.append(bool(marks) and all(marks))
    return pd.DataFrame(rows[1:], columns=rows[0]), grey[1:]


def static_tables(at: AppTest, column: str) -> list[tuple[pd.DataFrame, list[bool]]]:
    """The page's static tables whose header row holds ``column``, in page order."""
    found = [parse_md_table(m.value) for m in at.markdown if m.value.startswith("| ")]
    return [(frame, grey) for frame, grey in found if column in frame.columns]


def static_table(at: AppTest, column: str) -> pd.DataFrame:
    """The first static table with ``column`` (its cells as text)."""
    return static_tables(at, column)[0][0]


def box_height(at: AppTest, key: str) -> str:
    """How the container with ``key`` is sized: ``"content"`` or its fixed height in pixels."""

    def walk(node):
        children = getattr(node, "children", None)
        for child in children.values() if isinstance(children, dict) else ():
            proto = getattr(child, "proto", None)
            if proto is not None and getattr(proto, "id", "").endswith(f"-{key}"):
                height = proto.height_config
                return str(height.pixel_height) if height.HasField("pixel_height") else "content"
            found = walk(child)
            if found is not None:
                return found
        return None

    found = walk(at.main)
    if found is None:
        found = walk(at.sidebar)
    if found is None:
        raise LookupError(key)
    return found
