"""Charts and colours each live in one place: ``ui/components/charts.py`` builds every chart,
``ui/framework/palette.py`` writes every colour.

Read as text (no app module runs; the palette's arithmetic is imported). Outside the charts module no Python file of the app builds an
Altair chart or imports altair, and outside the palette none writes a colour as hex: pages and
ui modules take chart builders from the one and colours (``palette.BLUE``,
``palette.css_text_on_fill``) from the other. The printable handout's style sheet
(``ui/templates``) is print-only and may use greys, nothing else.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from ui.framework import palette

ROOT = Path(__file__).resolve().parents[2]
CHARTS = ROOT / "ui" / "components" / "charts.py"
PALETTE = ROOT / "ui" / "framework" / "palette.py"
APP_FILES = [
    ROOT / "app.py",
    *sorted((ROOT / "app_pages").glob("*.py")),
    *sorted((ROOT / "ui").rglob("*.py")),
]
TEMPLATES = sorted((ROOT / "ui" / "templates").glob("*"))

HEX = re.compile(r"#(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")
ALTAIR = re.compile(r"\balt\.Chart\(|^\s*(?:import altair|from altair\b)", re.MULTILINE)


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _hex_colours(text: str) -> list[str]:
    return HEX.findall(text)


@pytest.mark.parametrize("path", [p for p in APP_FILES if p != CHARTS], ids=_rel)
def test_no_chart_built_outside_charts_module(path):
    found = [m.group(0).strip() for m in ALTAIR.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


@pytest.mark.parametrize("path", [p for p in APP_FILES if p != PALETTE], ids=_rel)
def test_no_hex_colour_outside_the_palette(path):
    assert _hex_colours(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", TEMPLATES, ids=_rel)
def test_print_templates_use_greys_only(path):
    def grey(code: str) -> bool:
        digits = code[1:]
        if len(digits) == 3:
            digits = "".join(c * 2 for c in digits)
        return digits[0:2].lower() == digits[2:4].lower() == digits[4:6].lower()

    assert [c for c in _hex_colours(path.read_text(encoding="utf-8")) if not grey(c)] == []


def test_rules_find_what_they_ban():
    """The patterns can fail: a chart, an altair import and colours in two spellings."""
    sample = 'import altair as alt\nc = alt.Chart(data)\nstyle = "color: #0072B2; fill: #fff"\n'
    assert len(ALTAIR.findall(sample)) == 2
    assert _hex_colours(sample) == ["#0072B2", "#fff"]


def test_palette_module_holds_the_palette_and_charts_module_no_colour():
    assert "OKABE_ITO" in PALETTE.read_text(encoding="utf-8")
    assert _hex_colours(CHARTS.read_text(encoding="utf-8")) == []


def test_chart_text_in_a_fixed_colour_is_readable_on_both_themes():
    """A chart's text mark given a colour of its own (``mark_text(color=...)``, drawn on the
    page's background) contrasts 4.5:1 with both themes' backgrounds; text without one takes the
    theme's text colour. Vermillion labels (3.87:1 on white) were read off this way."""
    low = []
    for node in ast.walk(ast.parse(CHARTS.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "mark_text":
            for keyword in node.keywords:
                if keyword.arg == "color" and isinstance(keyword.value, ast.Name):
                    colour = getattr(palette, keyword.value.id)
                    for theme in palette.THEMES.values():
                        ratio = palette.contrast_ratio(colour, theme["background"])
                        if ratio < palette.TEXT_CONTRAST:
                            low.append((node.lineno, keyword.value.id, theme["background"], round(ratio, 2)))
    assert low == []


#: A Markdown table is drawn by ``widgets.static_table``: in a container that scrolls it on its
#: own, so a table wider than a phone does not carry the whole page sideways (Blind spots' table
#: of tools, drawn with ``st.markdown(md_table(...))``, moved the page 23 px at 390 px).
TABLE_DRAWERS = {ROOT / "ui" / "components" / "widgets.py", ROOT / "ui" / "framework" / "text.py"}


def test_markdown_tables_are_drawn_by_the_static_table_only():
    found = [
        _rel(p) for p in APP_FILES if p not in TABLE_DRAWERS and "md_table(" in p.read_text(encoding="utf-8")
    ]
    assert found == []
