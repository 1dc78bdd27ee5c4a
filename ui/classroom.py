"""What a classroom needs on every page: a share link with its QR code, presenter mode, exports,
and colours that stay readable for everyone.

Contents
--------
share_link(base, params)
    The link of the current view, short (commas kept, defaults left out by the frame).
qr_png(text, *, scale)
    A QR code of a link as PNG bytes (segno), big enough to scan from the back of a room.
PAGE_CSS, UPRIGHT_CSS, PRESENTER_CSS, SECONDARY_PREFIX, TABLE_PREFIX
    The static style sheets of every page, of upright (Chinese) text and of presenter mode,
    and their key prefixes.
step_table_csv(ranking), handout_html(ranking, lang)
    Exports of the current example, built from the core (user text escaped, never rendered).
chart_image(chart, fmt), chart_downloads(chart, name)
    A chart as PNG or SVG, offline (vl-convert), and the download buttons pages put under charts.
chart_spec(key, build)
    An Altair chart's Vega-Lite spec, built once per key and shared by every session.
OKABE_ITO, relative_luminance, contrast_ratio, mark_colours
    The colour-blind-safe palette and the WCAG 2.x contrast arithmetic that checks it.

Only :func:`chart_downloads`, :func:`share_control` and :func:`export_control` touch
streamlit; everything else is pure and tested in ``tests/app/test_classroom.py``.
"""

from __future__ import annotations

import io
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode, urlsplit

import ndcg_core as nc

from . import i18n
from .state import Ranking, format_grade

# ----------------------------------------------------------------------------- colours

#: Okabe & Ito's colour-blind-safe palette (the theme's primary colour is its blue).
OKABE_ITO: dict[str, str] = {
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "green": "#009E73",
    "pink": "#CC79A7",
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "yellow": "#F0E442",
    "black": "#000000",
}

#: The two themes the app offers (Streamlit's light and dark, with the primary colours set in
#: ``.streamlit/config.toml``): page background, body text, primary colour.
#: ``tests/browser/test_contrast.py`` checks in Chromium that these are the rendered backgrounds.
THEMES: dict[str, dict[str, str]] = {
    "light": {"background": "#FFFFFF", "text": "#2F2D2B", "primary": OKABE_ITO["blue"]},
    "dark": {"background": "#171614", "text": "#EDEBE8", "primary": OKABE_ITO["sky"]},
}

#: A neutral grey for chart lines and outlines drawn on the page background in either theme
#: (3.4:1 on white, 5.4:1 on the dark background): black would vanish on the dark theme.
NEUTRAL = "#8C8C8C"

#: WCAG 2.x thresholds: body text 4.5:1, large text and graphical objects (marks, borders) 3:1.
TEXT_CONTRAST = 4.5
MARK_CONTRAST = 3.0


def relative_luminance(colour: str) -> float:
    """WCAG relative luminance of a ``#RRGGBB`` colour (0 for black, 1 for white).

    >>> relative_luminance("#FFFFFF"), relative_luminance("#000000")
    (1.0, 0.0)
    """
    code = colour.lstrip("#")
    if len(code) != 6:
        raise ValueError(f"expected #RRGGBB, got {colour!r}")
    channels = [int(code[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(first: str, second: str) -> float:
    """WCAG contrast ratio of two colours, from 1 (same) to 21 (black on white).

    >>> round(contrast_ratio("#000000", "#FFFFFF"), 1)
    21.0
    """
    high, low = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def mark_colours(theme: str) -> tuple[str, ...]:
    """The palette colours that stand out 3:1 from the theme's background, in palette order.

    Charts draw tie groups, positions past k and actual-versus-ideal with these colours *and*
    a second carrier (shape, dash, opacity or a text label), never with colour alone.
    """
    background = THEMES[theme]["background"]
    return tuple(c for c in OKABE_ITO.values() if contrast_ratio(c, background) >= MARK_CONTRAST)


#: Series colours that pass 3:1 on both themes (blue, vermillion, green, pink).
SERIES_COLOURS: tuple[str, ...] = tuple(c for c in mark_colours("light") if c in mark_colours("dark"))

# ----------------------------------------------------------------------------- share


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
    code.save(out, kind="png", scale=scale, border=border, dark="#000000", light="#FFFFFF")
    return out.getvalue()


# ----------------------------------------------------------------------------- presenter mode

#: Containers whose key starts with this are hidden in presenter mode: a page wraps controls a
#: teacher does not need in front of a class in ``st.container(key="lab-secondary-<name>")``.
SECONDARY_PREFIX = "lab-secondary-"

#: Containers whose key starts with this hold a static table (``ui.widgets.static_table``).
TABLE_PREFIX = "lab-table-"

#: Containers whose key starts with this hold a step table twice: whole (``-whole``) and in
#: parts (``-part0``...); the style sheet shows the whole table only where it fits.
STEP_TABLE_PREFIX = "lab-steps-"
#: Containers shown only on a wide screen / only on a phone (the screen's width, 640 px:
#: where Streamlit stacks columns), for a view that needs another form on a phone.
WIDE_PREFIX = "lab-wide-"
NARROW_PREFIX = "lab-narrow-"

#: The step table's parts on a narrow screen, by the core's column names: what is summed
#: (gains, CG), how it is discounted (DCG), and the ideal ranking with nDCG. Columns not named
#: here go with the first part.
STEP_PARTS: tuple[frozenset[str], ...] = (
    frozenset({"log_term", "discount", "discounted_gain", "dcg"}),
    frozenset({"ideal_item", "ideal_relevance", "ideal_gain", "ideal_discounted_gain", "idcg", "ndcg"}),
)


def step_parts(cells: Mapping[str, Any], columns: Sequence[str], lead: int = 0) -> list[dict[str, Any]]:
    """The step table's columns split into parts that fit a phone or a projector at large type.

    ``cells`` maps shown headers to cells: ``lead`` leading columns (the "In top k" mark), then
    one per core column of ``columns``, in order. Every part repeats the position column (and the
    lead columns go with the first part), so each part reads on its own. Parts left empty are
    dropped; a table of a single part gives one part.

    >>> parts = step_parts({"i": [1], "Gain": [3], "DCG": [3.0], "nDCG": [1.0]},
    ...                    ["position", "gain", "dcg", "ndcg"])
    >>> [list(p) for p in parts]
    [['i', 'Gain'], ['i', 'DCG'], ['i', 'nDCG']]
    """
    headers = list(cells)
    named = dict(zip(columns, headers[lead:], strict=False))
    groups: list[list[str]] = [[], [], []]
    for column, header in named.items():
        if column != "position":
            groups[next((n + 1 for n, part in enumerate(STEP_PARTS) if column in part), 0)].append(header)
    position = [named["position"]] if "position" in named else []
    groups = [group for group in groups if group]
    return [
        {h: cells[h] for h in [*(headers[:lead] if n == 0 else []), *position, *group]}
        for n, group in enumerate(groups)
    ]


#: The width, in ems of the step table's type, that one column of the whole step table needs
#: with its header wrapped (a number like 0.6309 and its padding; checked in Chromium by
#: tests/browser/test_projector.py). The whole table is shown from columns × this width on.
STEP_COLUMN_EMS = 4.0


def step_table_key(key: str, columns: int) -> str:
    """The key of a step table's container: the prefix, its number of columns, the page's key.

    A table shown whole at every width (one part) has 0 columns here: no query hides it.

    >>> step_table_key("calc_steps", 13)
    'lab-steps-c13-calc_steps'
    """
    return f"{STEP_TABLE_PREFIX}c{columns}-{key}"


def _step_table_queries(most: int = 40) -> str:
    """Container queries that show a step table of n columns whole where it fits, else in parts."""
    rules = []
    for n in range(2, most + 1):
        box, width = f'[class*="st-key-{STEP_TABLE_PREFIX}c{n}-"]', round(n * STEP_COLUMN_EMS, 2)
        rules.append(f'@container (min-width: {width}em) {{ {box} [class*="-part"] {{ display: none; }} }}')
        rules.append(
            f'@container (max-width: {width - 0.01}em) {{ {box} [class*="-whole"] {{ display: none; }} }}'
        )
    return "\n".join(rules)


#: Static CSS of every page (no user text): a shaded row of a static table (``md_table``'s
#: ``shaded``, e.g. tied rows) fills its cells with the Ties page's shade, dark text in either
#: theme; a view with a ``lab-wide-`` and a ``lab-narrow-`` form shows one by the screen's width;
#: a static table wider than the page scrolls sideways
#: (the projector test fails on it), its headers wrap, its cells come closer in a narrow column
#: and its digits line up; the step table is shown whole or in parts by the room it has; captions are faded less than Streamlit's 0.6
#: opacity, which left them at 3.9:1 on the light theme (WCAG AA asks 4.5:1; now ~6:1 light,
#: ~9:1 dark), and code is set in the code colour without the syntax colours, whose comments,
#: brackets and keywords fell to 2.3-4.3:1 (both measured by tests/browser/test_contrast.py).
PAGE_CSS = f"""<style>
[class*="st-key-{TABLE_PREFIX}"] [data-testid="stMarkdownContainer"] {{ overflow-x: auto; }}
[class*="st-key-{TABLE_PREFIX}"] table {{ margin: 0 0 1rem; font-variant-numeric: tabular-nums; }}
[class*="st-key-{TABLE_PREFIX}"] {{ container-type: inline-size; }}
[class*="st-key-{TABLE_PREFIX}"] th, [class*="st-key-{TABLE_PREFIX}"] td {{
  padding: 0.25rem 0.45rem; font-size: 0.9rem; }}
@container (max-width: 25em) {{ [class*="st-key-{TABLE_PREFIX}"] th, [class*="st-key-{TABLE_PREFIX}"] td {{
  padding: 0.2rem 0.25rem; }} }}
[class*="st-key-{STEP_TABLE_PREFIX}"] {{ container-type: inline-size; font-size: 0.9rem; }}
[class*="st-key-{STEP_TABLE_PREFIX}"] [data-testid="stMarkdownContainer"] {{ font-size: inherit; }}
[class*="st-key-{STEP_TABLE_PREFIX}"] th, [class*="st-key-{STEP_TABLE_PREFIX}"] td {{ font-size: 1em !important; }}
{_step_table_queries()}
[class*="st-key-{TABLE_PREFIX}"] td:has(> .stMarkdownColoredBackground) {{
  background-color: #FCEBD0; color: #2F2D2B; }}
[class*="st-key-{TABLE_PREFIX}"] td > .stMarkdownColoredBackground {{ background-color: transparent !important; }}
@media (min-width: 641px) {{ [class*="st-key-{NARROW_PREFIX}"] {{ display: none !important; }} }}
@media (max-width: 640px) {{ [class*="st-key-{WIDE_PREFIX}"] {{ display: none !important; }} }}
[data-testid="stCaptionContainer"] {{ opacity: 0.75 !important; }}
[class*="st-key-lab-formula-"] .katex {{ font-size: 1.21em; }}
[class*="st-key-lab-formula-"] p:has(.katex) {{ line-height: 2.4; }}
[data-testid="stCode"] code span {{ color: inherit !important; }}
[data-testid="stCode"] code .token.comment {{ font-style: italic; }}
</style>"""


def widget_text_css(upload_label: str) -> str:
    """CSS that puts the page's language on Streamlit's file uploader, whose texts Streamlit
    1.67 does not let a script set (``st.file_uploader`` has no parameter for them).

    The button's own text ("Upload") is hidden, which also takes it out of the accessibility
    tree, and ``upload_label`` is drawn in its place (CSS generated content is read by screen
    readers). The "200MB per file" line is left out: the page states the limit in its own
    caption (``evaluate.size_limit``). ``upload_label`` is a catalog text, never user input.
    """
    label = json.dumps(upload_label, ensure_ascii=False)
    return (
        "<style>"
        '[data-testid="stFileUploaderDropzoneInstructions"] { display: none; }'
        '[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p '
        "{ visibility: hidden; position: relative; }"
        '[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p::after '
        f"{{ content: {label}; visibility: visible; position: absolute; left: 0; right: 0; "
        "text-align: center; white-space: nowrap; }"
        "</style>"
    )


#: Languages set upright: Chinese has no italics (TEACHING.md §6), so code comments and
#: Markdown emphasis, italic in English, stay upright in them (``UPRIGHT_CSS``).
UPRIGHT_LANGUAGES: tuple[str, ...] = ("zh",)
UPRIGHT_CSS = """<style>
[data-testid="stCode"] code .token.comment, [data-testid="stMarkdownContainer"] em { font-style: normal; }
</style>"""

#: Static CSS (no user text). Sizes were checked on 1920×1080 screenshots for reading at 8 m:
#: key numbers ~67 px, body text and widget labels ~24-26 px, formulas twice their size. Glide
#: data frames (``st.dataframe``) draw on a canvas at their content width and overflow when
#: zoomed, so they keep their size: a page shows a table large with ``st.table`` when
#: ``frame.present`` is true (this CSS enlarges ``st.table``).
PRESENTER_CSS = f"""<style>
/* nDCG Lab presenter mode */
[class*="st-key-{SECONDARY_PREFIX}"] {{ display: none !important; }}
[data-testid="stMainBlockContainer"] {{ max-width: 100% !important; padding: 2.5rem 3rem 3rem !important; }}
[data-testid="stMain"] h1 {{ font-size: 3.4rem !important; }}
[data-testid="stMain"] h2 {{ font-size: 2.6rem !important; }}
[data-testid="stMain"] h3 {{ font-size: 2.1rem !important; }}
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] li {{ font-size: 1.6rem !important; line-height: 1.45; }}
[data-testid="stMain"] [data-testid="stWidgetLabel"] p {{ font-size: 1.5rem !important; }}
[data-testid="stMain"] [data-testid="stCaptionContainer"],
[data-testid="stMain"] [data-testid="stCaptionContainer"] p {{ font-size: 1.35rem !important; }}
[data-testid="stMain"] [data-testid="stMetricValue"],
[data-testid="stMain"] [data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p {{
  font-size: 4.2rem !important; line-height: 1.15 !important; font-weight: 600 !important; }}
[data-testid="stMain"] [data-testid="stMetricLabel"] [data-testid="stMarkdownContainer"] p {{ font-size: 1.7rem !important; }}
[data-testid="stMain"] [data-testid="stMetricDelta"],
[data-testid="stMain"] [data-testid="stMetricDelta"] * {{ font-size: 1.5rem !important; }}
[data-testid="stMain"] .katex {{ font-size: 2em !important; }}
[data-testid="stMain"] .katex-display {{ overflow-x: auto; overflow-y: hidden; padding: 0.4em 0; }}
[data-testid="stTable"] table, [data-testid="stTable"] th, [data-testid="stTable"] td {{ font-size: 1.6rem !important; }}
[data-testid="stMain"] [data-testid="stMarkdownContainer"] th,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] td {{ font-size: 1.6rem !important; }}
[data-testid="stMain"] [class*="st-key-{STEP_TABLE_PREFIX}"] {{ font-size: 1.6rem; }}
[data-testid="stMain"] [data-testid="stVegaLiteChart"] {{ zoom: 1.3; width: calc(100% / 1.3) !important; }}
[data-testid="stMain"] button p, [data-testid="stMain"] input,
[data-testid="stMain"] [data-baseweb="select"] * {{ font-size: 1.35rem !important; }}
[data-testid="stMain"] [data-testid="stSliderThumbValue"],
[data-testid="stMain"] [data-testid="stSliderTickBar"] * {{ font-size: 1.35rem !important; }}
</style>"""


# ----------------------------------------------------------------------------- exports


def step_table(ranking: Ranking) -> Any:
    """The core's step table of the shared ranking (item names included; unjudged items as the
    ranking says: gain 0, or removed)."""
    return nc.step_table(list(ranking.relevance), labels=list(ranking.labels), **ranking.judged_options())


def step_table_csv(ranking: Ranking) -> bytes:
    """The step table as UTF-8 CSV (with a byte-order mark, so spreadsheets read Chinese names).

    Columns keep the core's names (``position, item, relevance, gain, cg, ...``), the same as
    the command line's output, so a file reads the same in both languages. Item names that a
    spreadsheet would run as a formula are escaped by :func:`ndcg_core.to_csv_bytes`.
    """
    return nc.to_csv_bytes(step_table(ranking), encoding="utf-8-sig")


def _column_title(lang: str, column: str) -> str:
    key = f"classroom.columns.{column}"
    return i18n.translate(lang, key) if key in i18n.catalog(lang) else column


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "✓" if value else "—"
    if isinstance(value, float):
        return "" if value != value else f"{value:.4f}".rstrip("0").rstrip(".") if value % 1 else f"{value:g}"
    return str(value)


HANDOUT_COLUMNS: tuple[str, ...] = (
    "position",
    "item",
    "relevance",
    "gain",
    "cg",
    "discount",
    "discounted_gain",
    "dcg",
    "ideal_item",
    "ideal_relevance",
    "idcg",
    "ndcg",
    "in_cutoff",
)

TEXT_COLUMNS = frozenset({"item", "ideal_item"})


@lru_cache(maxsize=1)
def _templates() -> Any:
    """The Jinja2 environment of ``ui/templates`` (autoescaping on: every value is escaped)."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("ui", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
    )


def handout_html(ranking: Ranking, lang: str, *, link: str | None = None) -> str:
    """A printable one-page summary of the example: ranking, metrics, formulas, step table.

    Everything numeric comes from the core (metrics, step table, formulas as MathML); the
    template ``ui/templates/handout.html.j2`` escapes every value (item names, the link,
    translations), except the MathML that ``latex2mathml`` builds from the core's formulas.
    The file is downloaded, never rendered in the app.
    """
    from latex2mathml.converter import convert
    from markupsafe import Markup

    from ndcg_core.formulas import formulas

    def t(key: str, **params: Any) -> str:
        return i18n.translate(lang, f"classroom.{key}", **params)

    m = nc.metrics(list(ranking.relevance), **ranking.judged_options())
    table = step_table(ranking)[list(HANDOUT_COLUMNS)]

    def shown(column: str, value: Any, item: Any) -> str:
        # a returned item without a grade is unjudged: "?" (kept with gain 0 by unjudged="zero")
        if column == "relevance" and item != nc.NO_ITEM and value != value:
            return "?"
        return _cell(value)

    rows = [
        {
            "past_k": not values["in_cutoff"],
            "cells": [
                {"text": column in TEXT_COLUMNS, "value": shown(column, value, values["item"])}
                for column, value in values.items()
            ],
        }
        for values in table.to_dict("records")
    ]
    variant = t("handout.variant", gain=t(f"gain.{ranking.gain}"), discount=t(f"discount.{ranking.discount}"))
    if ranking.has_unjudged:
        variant += " " + t(f"handout.unjudged_{ranking.unjudged}")
    prime = "′" if ranking.has_unjudged and ranking.unjudged == "drop" else ""
    return (
        _templates()
        .get_template("handout.html.j2")
        .render(
            html_lang="zh-Hans" if lang == "zh" else "en",
            title=t("handout.title"),
            variant=variant,
            ranking_title=t("handout.ranking"),
            items=[
                {"label": label, "grade": format_grade(grade)}
                for label, grade in zip(ranking.labels, ranking.relevance, strict=True)
            ],
            metrics=[
                {"name": f"{name}{prime}@{m.k}", "value": f"{value:.4f}"}
                for name, value in (("DCG", m.dcg), ("IDCG", m.idcg), ("nDCG", m.ndcg))
            ],
            formulas_title=t("handout.formulas"),
            # MathML made by latex2mathml from the core's own LaTeX (no user text in it)
            formulas=[
                Markup(convert(f.substituted, display="block"))
                for f in formulas(list(ranking.relevance), **ranking.judged_options())
            ],
            steps_title=t("handout.steps"),
            columns=[
                {"title": _column_title(lang, column), "text": column in TEXT_COLUMNS}
                for column in HANDOUT_COLUMNS
            ],
            rows=rows,
            past_k_note=t("handout.past_k_note"),
            link=link,
            link_label=t("handout.link"),
        )
    )


_SPEC_CACHE: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()
_SPEC_LOCK = threading.Lock()
_SPEC_LIMIT = 512


def chart_spec(key: Hashable, build: Callable[[], Any]) -> dict[str, Any]:
    """The Vega-Lite spec of the Altair chart ``build()`` makes, built once per ``key``.

    Building an Altair chart and validating it against the Vega-Lite schema costs ~40 ms of
    CPU per chart on every rerun; a class of 60 looking at the same few examples asks for the
    same charts again and again. ``key`` must determine the chart completely (the ranking,
    the language, the chart's options); the spec is kept in a small LRU cache shared by all
    sessions and drawn with ``st.vega_lite_chart(spec)``: the same dictionary Altair makes
    and ``st.altair_chart`` would send.
    """
    with _SPEC_LOCK:
        if key in _SPEC_CACHE:
            _SPEC_CACHE.move_to_end(key)
            return _SPEC_CACHE[key]
    spec = build().to_dict()  # validated, once per key
    with _SPEC_LOCK:
        _SPEC_CACHE[key] = spec
        while len(_SPEC_CACHE) > _SPEC_LIMIT:
            _SPEC_CACHE.popitem(last=False)
    return spec


def _plain(value: Any) -> Any:
    """A spec with its DataFrames (inline datasets) as JSON records, missing values as null."""
    import pandas as pd

    if isinstance(value, pd.DataFrame):
        return value.astype(object).where(value.notna(), None).to_dict(orient="records")
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def chart_image(chart: Any, fmt: str, *, scale: float = 2.0) -> bytes:
    """An Altair chart (or a Vega-Lite spec dict) as ``"png"`` or ``"svg"`` bytes, offline (vl-convert)."""
    import vl_convert as vlc

    spec = _plain(chart.to_dict() if hasattr(chart, "to_dict") else chart)
    if fmt == "png":
        return vlc.vegalite_to_png(spec, scale=scale)
    if fmt == "svg":
        return vlc.vegalite_to_svg(spec).encode("utf-8")
    raise ValueError(f"fmt must be 'png' or 'svg', got {fmt!r}")


# ----------------------------------------------------------------------------- streamlit parts


def _lang() -> str:
    import streamlit as st

    return st.session_state.get("lab.lang", i18n.DEFAULT_LANGUAGE)


def chart_downloads(chart: Any, name: str, *, lang: str | None = None) -> None:
    """PNG and SVG download buttons for ``chart``; call right under ``st.altair_chart``.

    The images are made only when a button is clicked (deferred), so a rerun costs nothing.
    ``name`` is the file name stem and the widget key suffix, so it must be unique on the page.
    """
    import streamlit as st

    lang = lang or _lang()
    with st.container(key=f"lab-secondary-chart-{name}", horizontal=True):
        for fmt, mime in (("png", "image/png"), ("svg", "image/svg+xml")):
            st.download_button(
                i18n.translate(lang, f"classroom.chart_{fmt}"),
                data=lambda fmt=fmt: chart_image(chart, fmt),
                file_name=f"{name}.{fmt}",
                mime=mime,
                key=f"lab.chart_{fmt}.{name}",
                on_click="ignore",
                icon=":material/download:",
                type="tertiary",
            )


def share_note(lang: str, share: Any) -> str:
    """Which address the link uses, in the page's language (Markdown, hosts escaped).

    ``share`` is a :class:`ui.address.ShareAddress`.
    """
    from .text import md_escape

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
    (a :class:`ui.address.ShareAddress`) says which address the link uses; when no address
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
                caption=i18n.translate(lang, "classroom.qr_caption"),
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


def _share_note(lang: str, share: Any) -> None:
    import streamlit as st

    if share.source == "unreachable":
        st.warning(share_note(lang, share), icon=":material/wifi_off:")
    else:
        st.caption(share_note(lang, share))


def _qr_dialog(lang: str, link: str, share: Any = None) -> None:
    import streamlit as st

    @st.dialog(i18n.translate(lang, "classroom.qr_title"), width="large")
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


def export_control(lang: str, ranking: Ranking, link: str) -> None:
    """Downloads of the current example: the step table as CSV and a printable handout."""
    import streamlit as st

    with st.popover(
        i18n.translate(lang, "classroom.export"),
        icon=":material/download:",
        width="stretch",
        key="lab.export",
    ):
        st.download_button(
            i18n.translate(lang, "classroom.step_csv"),
            data=lambda: step_table_csv(ranking),
            file_name="ndcg_steps.csv",
            mime="text/csv",
            key="lab.download_csv",
            on_click="ignore",
            icon=":material/table_view:",
            width="stretch",
        )
        st.download_button(
            i18n.translate(lang, "classroom.handout_download"),
            data=lambda: handout_html(ranking, lang, link=link),
            file_name="ndcg_handout.html",
            mime="text/html",
            key="lab.download_handout",
            on_click="ignore",
            icon=":material/print:",
            width="stretch",
            help=i18n.translate(lang, "classroom.handout_help"),
        )
