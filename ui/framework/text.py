"""Showing text people typed: never as HTML, never as Markdown syntax."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=^&])")


def md_escape(text: object) -> str:
    """Text safe to put inside a Markdown string: every Markdown, HTML and LaTeX sign escaped.

    >>> md_escape("<img src=x onerror=alert(1)> *b* $x$")
    '\\\\<img src\\\\=x onerror\\\\=alert\\\\(1\\\\)\\\\> \\\\*b\\\\* \\\\$x\\\\$'
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))


def md_table(
    columns: Mapping[str, Sequence[object]],
    *,
    right: Collection[str] = (),
    muted: Sequence[bool] = (),
    shaded: Sequence[bool] = (),
) -> str:
    """A Markdown table of ready-made cells, every header and cell escaped with :func:`md_escape`.

    ``right`` names the columns aligned right (numbers). Rows whose ``muted`` flag is true are
    set in grey (Streamlit's ``:gray[…]``, 4.5:1 or more in both themes); rows whose ``shaded``
    flag is true get an orange background (``:orange-background[…]``); empty cells stay empty.
    A static table is a real HTML table: screen readers read it, presenter mode enlarges it,
    and it costs a fraction of an interactive ``st.dataframe`` to send.

    >>> print(md_table({"Item": ["a|b", "c"], "Gain": ["3", ""]}, right={"Gain"}, muted=[False, True]))
    | Item | Gain |
    | :--- | ---: |
    | a\\|b | 3 |
    | :gray[c] |  |
    """
    headers = list(columns)
    lines = [
        "| " + " | ".join(md_escape(h) for h in headers) + " |",
        "| " + " | ".join("---:" if h in right else ":---" for h in headers) + " |",
    ]
    rows = zip(*(columns[h] for h in headers), strict=False) if headers else ()
    for i, row in enumerate(rows):
        grey = i < len(muted) and bool(muted[i])
        shade = i < len(shaded) and bool(shaded[i])
        cells = (md_escape(c) for c in row)
        cells = (f":gray[{c}]" if grey and c else c for c in cells)
        lines.append(
            "| " + " | ".join(f":orange-background[{c}]" if shade and c else c for c in cells) + " |"
        )
    return "\n".join(lines)


def breakable_math(tex: str) -> str:
    """Display-style LaTeX as Markdown inline math, which KaTeX breaks after ``=`` and ``+``.

    KaTeX never breaks display math (``st.latex``), so a sum of ten fractions was cut on a
    phone or a projector at large type. Inline math breaks at the top-level relations and
    operators when the line is full; ``\\dfrac`` and ``\\limits`` keep the display look (a
    ``\\displaystyle`` would group the whole formula and forbid the breaks).

    An exponential gain ``2^{3}-1`` is one group (``{2^{3}-1}``), so a line never breaks inside
    it, between "2³ −" and "1".

    >>> print(breakable_math(r"\\mathrm{DCG@k} = \\sum_{i=1}^{k} \\frac{rel_i}{\\log_2(i+1)}"))
    $\\mathrm{DCG@k} = \\sum\\limits_{i=1}^{k} \\dfrac{rel_i}{\\log_2(i+1)}$
    >>> print(breakable_math(r"G = (2^{3}-1, 2^{rel_i} - 1)"))
    $G = ({2^{3}-1}, {2^{rel_i} - 1})$
    """
    tex = _EXPONENTIAL_GAIN.sub(r"{\g<0>}", tex)
    return "$" + tex.replace("\\frac{", "\\dfrac{").replace("\\sum_", "\\sum\\limits_") + "$"


#: ``2^{x}-1`` (or ``2^{x} - 1``) in the core's LaTeX: an exponential gain.
_EXPONENTIAL_GAIN = re.compile(r"2\^\{[^{}]*\}\s*-\s*1")


def join_names(names: Sequence[str], lang: str) -> str:
    """ "a, b and c" in English, "a、b、c" in Chinese.

    >>> join_names(["LightGBM", "XGBoost"], "en"), join_names(["LightGBM", "XGBoost"], "zh")
    ('LightGBM and XGBoost', 'LightGBM、XGBoost')
    """
    names = list(names)
    if lang == "zh":
        return "、".join(names)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def fmt(value: float | None) -> str:
    """A metric value with 4 decimals, or a dash when it is undefined (NaN)."""
    if value is None or value != value:  # None or NaN
        return "—"
    return f"{value:.4f}"


def signed(value: float, digits: int = 4) -> str:
    """A difference with its sign, for reading: the minus a true minus sign (U+2212), as the
    charts' own numbers (Vega's format) write it. Numbers a person may copy into a sheet or a
    program (data tables, downloads) and ``st.metric``'s deltas (Streamlit reads their sign
    from a hyphen) keep the hyphen-minus.

    >>> signed(-0.07752), signed(0.36), signed(0.0)
    ('−0.0775', '+0.3600', '+0.0000')
    """
    return f"{value:+.{digits}f}".replace("-", "\u2212")


#: Chinese sentence and clause ends: the next sentence follows them without a space.
_CJK_ENDS = ("。", "？", "！", "：", "；", "）")


def sentences(first: str, then: str) -> str:
    """Two sentences one after the other: a space after an English one, none after Chinese
    punctuation ("不太对。96.7 %", not "不太对。 96.7 %"); an empty one adds nothing.

    >>> sentences("Right: 0.", "IDCG = 0."), sentences("正确：0。", "IDCG = 0。"), sentences("Right.", "")
    ('Right: 0. IDCG = 0.', '正确：0。IDCG = 0。', 'Right.')
    """
    if not first or not then:
        return (first or then).strip()
    sep = "" if first.endswith(_CJK_ENDS) else " "
    return f"{first}{sep}{then}".strip()


def lead(label: str, text: str) -> str:
    """Markdown: ``text`` after a bold lead-in. A Chinese lead-in's colon stays outside the bold:
    CommonMark does not close ``**`` after punctuation when a character follows
    ("**先预测：**在…" showed its asterisks), and no space follows Chinese punctuation.

    >>> lead("Predict first:", "Which is higher?"), lead("先预测：", "哪个更高？")
    ('**Predict first:** Which is higher?', '**先预测**：哪个更高？')
    """
    if label.endswith(_CJK_ENDS):
        return f"**{label[:-1]}**{label[-1]}{text}"
    return f"**{label}** {text}"
