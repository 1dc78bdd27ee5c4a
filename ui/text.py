"""Showing text people typed: never as HTML, never as Markdown syntax."""

from __future__ import annotations

import re

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=^&])")


def md_escape(text: object) -> str:
    """Text safe to put inside a Markdown string: every Markdown, HTML and LaTeX sign escaped.

    >>> md_escape("<img src=x onerror=alert(1)> *b* $x$")
    '\\\\<img src\\\\=x onerror\\\\=alert\\\\(1\\\\)\\\\> \\\\*b\\\\* \\\\$x\\\\$'
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))
