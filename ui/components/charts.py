"""Every chart of the app: plain functions from the core's DataFrames to charts.

The only module that builds an Altair chart (``tests/architecture/test_charts.py`` keeps it
so); its colours come from :mod:`ui.framework.palette`, the one module that writes a colour. Charts,
by page: Calculator and lesson (discounts, nDCG@k, the early steps' gains), blind spots (one line
per list, difficulty), Evaluate (histogram, mean nDCG@k), variants and libraries, ties (the
band), Explore (swap heatmap, orderings histogram, slide-down).

Every builder takes a core DataFrame and a translate function ``t`` (axis titles, legends and
tooltips come from ``locales/*/charts.toml`` or the page's own texts), reshapes columns for plotting only (no metric
arithmetic), and returns an ``altair`` chart. Conventions: the Okabe-Ito palette (colour-blind
safe), a tooltip on every mark, colour never the only carrier of meaning (legends, shapes and
fills repeat it), and a ``description`` in words with the chart's numbers (vega-embed makes it
the chart's aria-label, the text alternative a screen reader reads).

Speed: building and validating an Altair chart costs 10–30 ms, too much for a page that
redraws after every drag or choice. So the charts a page draws on every run (the
Calculator's and the Lesson's summary, Evaluate's, Explore's swaps and slide, the tools on
Variants) are built once per language and shape as a Vega-Lite *template* over named
datasets (:func:`_template`, cached with :func:`functools.lru_cache`), and their ``*_spec``
functions only attach the current data and description (:func:`_filled`): pass the result to
``st.vega_lite_chart``. The ``*_chart`` functions return the same chart as an Altair object
with its data, for tests and for the charts shown only after a prediction or on a choice
(drawn as ``st.altair_chart``); ``tests/app/test_chart_templates.py`` checks that each
template draws its Altair chart's picture.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache, partial
from typing import Any

import altair as alt
import pandas as pd

import ndcg_core as nc
from ui.framework import i18n
from ui.framework.i18n import Translate
from ui.framework.palette import (
    BLACK,
    BLUE,
    CELL_OUTLINE,
    GREEN,
    NEUTRAL,
    ORANGE,
    PINK,
    SKY,
    VERMILLION,
    WHITE,
    white_text_from,
)
from ui.framework.state import format_grade
from ui.framework.styles import CHART_INK
from ui.framework.text import signed


def _ink(text: alt.Chart, name: str) -> alt.Chart:
    """A text layer drawn on the page's background, named so that the page style sheet gives it
    the theme's text colour (``styles.CHART_INK``): Vega draws unstyled text black, unreadable
    on the dark theme, and the vermillion of the rules beside these labels is 3.87:1 on white."""
    return text.properties(name=f"{CHART_INK}_{name}")


def _layer(*charts: alt.Chart | alt.LayerChart) -> alt.LayerChart:
    """``alt.layer(*charts)`` typed as what it is here: a LayerChart (``alt.layer`` returns a
    FacetChart instead when every layer has the same row, column or facet encoding, which no
    chart of the app has; its return type says both)."""
    return alt.LayerChart(layer=charts)


def _template(chart: alt.TopLevelMixin) -> dict[str, Any]:
    """A chart over named datasets as the Vega-Lite dict ``st.altair_chart`` would send (no
    theme: Streamlit draws Altair charts without Altair's default view size), validated once:
    the template that the ``*_spec`` functions fill."""
    spec = chart.to_dict(context={"top_level": False})
    spec["$schema"] = alt.SCHEMA_URL
    return spec


def _filled(template: dict[str, Any], datasets: dict[str, pd.DataFrame], description: str) -> dict[str, Any]:
    """A copy of ``template`` with its datasets and its description (the chart in words)."""
    spec = copy.deepcopy(template)
    spec["datasets"] = datasets
    spec["description"] = description
    return spec


_DISCOUNT_TEXTS = (
    "actual",
    "ideal",
    "within_k",
    "beyond_k",
    "position",
    "ranking",
    "item",
    "grade",
    "gain",
    "discount",
    "discounted_gain",
    "cutoff",
    "discount_log2",
    "discount_jarvelin",
)
_BY_K_TEXTS = ("chosen_k", "other_k", "k", "dcg", "idcg", "ndcg")


def _texts(t: Translate, names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(t(f"charts.{name}") for name in names)


def _numbers(values: Any) -> str:
    return ", ".join(f"{float(x):.4f}" for x in values)


# --- discounts and discounted gains ---------------------------------------------------------


def discount_description(table: pd.DataFrame, t: Translate) -> str:
    """The discount chart in words (its text alternative: vega-embed makes it the aria-label)."""
    within = table[table["in_cutoff"]]
    return t(
        "charts.discount_description",
        n=len(table),
        k=len(within),
        actual=_numbers(within["discounted_gain"]),
        ideal=_numbers(within["ideal_discounted_gain"]),
        discounts=_numbers(table["discount"]),
    )


def _grade_text(item: Any, grade: float) -> str:
    """A grade in a tooltip: as typed, "?" for a returned item that nobody judged, "" for none."""
    if grade == grade:
        return format_grade(grade)
    return "" if item == nc.NO_ITEM else "?"


def _discount_data(table: pd.DataFrame, texts: dict[str, str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(bars: one row per position and ranking; line: one row per position)."""
    within, beyond = texts["within_k"], texts["beyond_k"]
    position = table["position"].tolist()
    discount = table["discount"].tolist()
    cutoff = [within if x else beyond for x in table["in_cutoff"].tolist()]
    n = len(position)
    base = pd.DataFrame({"position": position, "discount": discount, "cutoff": cutoff})
    bars = pd.DataFrame(
        {
            "position": position * 2,
            "discount": discount * 2,
            "cutoff": cutoff * 2,
            "series": [texts["actual"]] * n + [texts["ideal"]] * n,
            "item": table["item"].tolist() + table["ideal_item"].tolist(),
            # text, not a number: an unjudged item's grade is "?" (a NaN would read "NaN")
            "grade": [
                _grade_text(item, grade)
                for item, grade in zip(
                    table["item"].tolist() + table["ideal_item"].tolist(),
                    table["relevance"].tolist() + table["ideal_relevance"].tolist(),
                    strict=True,
                )
            ],
            "gain": table["gain"].tolist() + table["ideal_gain"].tolist(),
            "value": table["discounted_gain"].tolist() + table["ideal_discounted_gain"].tolist(),
        }
    )
    return bars, base


def _discount_layers(
    bars: Any, base: Any, texts: dict[str, str], discount: str, height: int
) -> alt.LayerChart:
    actual, ideal, within = texts["actual"], texts["ideal"], texts["within_k"]
    x = alt.X("position:O", title=texts["position"], axis=alt.Axis(labelAngle=0))
    series_scale = alt.Scale(domain=[actual, ideal], range=[BLUE, ORANGE])
    line_title = texts[f"discount_{discount}"]
    tooltip = [
        alt.Tooltip("position:O", title=texts["position"]),
        alt.Tooltip("series:N", title=texts["ranking"]),
        alt.Tooltip("item:N", title=texts["item"]),
        alt.Tooltip("grade:N", title=texts["grade"]),
        alt.Tooltip("gain:Q", title=texts["gain"], format="~g"),
        alt.Tooltip("discount:Q", title=line_title, format=".4f"),
        alt.Tooltip("value:Q", title=texts["discounted_gain"], format=".4f"),
        alt.Tooltip("cutoff:N", title=texts["cutoff"]),
    ]
    bar_layer = (
        alt.Chart(bars)
        .mark_bar(strokeWidth=1.5)
        .encode(
            x=x,
            xOffset=alt.XOffset("series:N", sort=[actual, ideal]),
            y=alt.Y("value:Q", title=texts["discounted_gain"]),
            color=alt.Color(
                "series:N", scale=series_scale, title=texts["ranking"], legend=alt.Legend(orient="top")
            ),
            stroke=alt.Stroke("series:N", scale=series_scale, legend=None),
            fillOpacity=alt.FillOpacity(
                "series:N", scale=alt.Scale(domain=[actual, ideal], range=[0.9, 0.35]), legend=None
            ),
            opacity=alt.condition(alt.datum.cutoff == within, alt.value(1.0), alt.value(0.35)),
            tooltip=tooltip,
        )
    )
    line_layer = (
        alt.Chart(base)
        .mark_line(
            color=NEUTRAL,
            strokeDash=[4, 3],
            point=alt.OverlayMarkDef(color=NEUTRAL, shape="diamond", size=60),
        )
        .encode(
            x=x,
            y=alt.Y(
                "discount:Q",
                title=texts["discount"],
                scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(orient="right"),
            ),
            tooltip=[
                alt.Tooltip("position:O", title=texts["position"]),
                alt.Tooltip("discount:Q", title=line_title, format=".4f"),
                alt.Tooltip("cutoff:N", title=texts["cutoff"]),
            ],
        )
    )
    # resolve_scale is typed Any in altair (a decorated method): the chart is the LayerChart it was
    chart: alt.LayerChart = _layer(bar_layer, line_layer).resolve_scale(y="independent")
    return chart.properties(height=height)


def discount_chart(
    table: pd.DataFrame, t: Translate, *, discount: str = "log2", height: int = 280
) -> alt.LayerChart:
    """Per position: the discount (dashed line) and the discounted gain, actual vs ideal (bars).

    ``table`` is :func:`ndcg_core.step_table`'s output. Actual bars are solid blue, ideal bars
    light orange with an orange outline; positions beyond k are faded (and say so in the tooltip).
    """
    texts = dict(zip(_DISCOUNT_TEXTS, _texts(t, _DISCOUNT_TEXTS), strict=False))
    bars, base = _discount_data(table, texts)
    return _discount_layers(bars, base, texts, discount, height).properties(
        description=discount_description(table, t)
    )


@lru_cache(maxsize=64)
def _discount_template(texts: tuple[str, ...], discount: str, height: int) -> dict[str, Any]:
    named = dict(zip(_DISCOUNT_TEXTS, texts, strict=False))
    return _template(
        _discount_layers(alt.NamedData(name="bars"), alt.NamedData(name="base"), named, discount, height)
    )


def discount_spec(
    table: pd.DataFrame, t: Translate, *, discount: str = "log2", height: int = 280
) -> dict[str, Any]:
    """:func:`discount_chart` as a Vega-Lite dict for ``st.vega_lite_chart`` (cached template)."""
    texts = _texts(t, _DISCOUNT_TEXTS)
    bars, base = _discount_data(table, dict(zip(_DISCOUNT_TEXTS, texts, strict=False)))
    datasets = {"bars": bars, "base": base}
    return _filled(_discount_template(texts, discount, height), datasets, discount_description(table, t))


# --- nDCG@k for every k -------------------------------------------------------------------


def ndcg_by_k_description(by_k: pd.DataFrame, t: Translate, *, current_k: int) -> str:
    """The nDCG@k chart in words (its text alternative)."""
    return t("charts.ndcg_description", n=len(by_k), values=_numbers(by_k["ndcg"]), k=current_k)


def _by_k_data(by_k: pd.DataFrame, texts: dict[str, str], current_k: int) -> pd.DataFrame:
    return by_k.assign(mark=[texts["chosen_k"] if k == current_k else texts["other_k"] for k in by_k["k"]])


def marked_line(
    data: Any,
    x: alt.X,
    y: alt.Y,
    tooltip: list[alt.Tooltip],
    *,
    chosen: str,
    other: str,
    sizes: tuple[int, int] = (180, 50),
) -> alt.LayerChart:
    """A line through points, the point whose ``mark`` column is ``chosen`` a large vermillion
    diamond (colour and shape, so it reads without colour), the others small blue circles."""
    line = alt.Chart(data).mark_line(color=BLUE).encode(x=x, y=y, tooltip=tooltip)
    domain = [chosen, other]
    points = (
        alt.Chart(data)
        .mark_point(filled=True)
        .encode(
            x=x,
            y=y,
            tooltip=tooltip,
            color=alt.Color(
                "mark:N",
                scale=alt.Scale(domain=domain, range=[VERMILLION, BLUE]),
                title=None,
                legend=alt.Legend(orient="top"),
            ),
            shape=alt.Shape(
                "mark:N", scale=alt.Scale(domain=domain, range=["diamond", "circle"]), legend=None
            ),
            size=alt.Size("mark:N", scale=alt.Scale(domain=domain, range=list(sizes)), legend=None),
        )
    )
    return _layer(line, points)


def _k_scale(last: int) -> alt.Scale:
    """The cutoff axis of a per-k chart: k = 1 to ``last`` with half a step of room at each end,
    so a point at either end is drawn whole, not cut in half at the plot's edge."""
    return alt.Scale(domain=[0.5, last + 0.5], nice=False)


def _by_k_layers(data: Any, texts: dict[str, str], last: int, height: int) -> alt.LayerChart:
    chosen, other = texts["chosen_k"], texts["other_k"]
    x = alt.X(
        "k:Q",
        title=texts["k"],
        scale=_k_scale(last),
        axis=alt.Axis(tickMinStep=1, format="d"),
    )
    y = alt.Y("ndcg:Q", title=texts["ndcg"], scale=alt.Scale(domain=[0, 1]))
    tooltip = [
        alt.Tooltip("k:Q", title=texts["k"]),
        alt.Tooltip("dcg:Q", title=texts["dcg"], format=".4f"),
        alt.Tooltip("idcg:Q", title=texts["idcg"], format=".4f"),
        alt.Tooltip("ndcg:Q", title=texts["ndcg"], format=".4f"),
    ]
    return marked_line(data, x, y, tooltip, chosen=chosen, other=other, sizes=(180, 50)).properties(
        height=height
    )


def ndcg_by_k_chart(by_k: pd.DataFrame, t: Translate, *, current_k: int, height: int = 280) -> alt.LayerChart:
    """nDCG@k for every k (line and points), the chosen k marked by a larger vermillion diamond.

    ``by_k`` is :func:`ndcg_core.ndcg_at_each_k`'s output (columns k, dcg, idcg, ndcg).
    """
    texts = dict(zip(_BY_K_TEXTS, _texts(t, _BY_K_TEXTS), strict=False))
    return _by_k_layers(
        _by_k_data(by_k, texts, current_k), texts, int(by_k["k"].iloc[-1]), height
    ).properties(description=ndcg_by_k_description(by_k, t, current_k=current_k))


@lru_cache(maxsize=256)
def _by_k_template(texts: tuple[str, ...], last: int, height: int) -> dict[str, Any]:
    return _template(
        _by_k_layers(alt.NamedData(name="by_k"), dict(zip(_BY_K_TEXTS, texts, strict=False)), last, height)
    )


def ndcg_by_k_spec(by_k: pd.DataFrame, t: Translate, *, current_k: int, height: int = 280) -> dict[str, Any]:
    """:func:`ndcg_by_k_chart` as a Vega-Lite dict for ``st.vega_lite_chart`` (cached template)."""
    texts = _texts(t, _BY_K_TEXTS)
    data = _by_k_data(by_k, dict(zip(_BY_K_TEXTS, texts, strict=False)), current_k)
    return _filled(
        _by_k_template(texts, int(by_k["k"].iloc[-1]), height),
        {"by_k": data},
        ndcg_by_k_description(by_k, t, current_k=current_k),
    )


# --- worst, mean and best order (Blind spots: same nDCG, different difficulty) -------------


def difficulty_chart(rows: pd.DataFrame, t: Translate, *, height: int = 220) -> alt.LayerChart:
    """One row per list: a bar from its worst to its best order, the mean as a tick, the
    ranking as given as a vermillion diamond (nDCG on a fixed 0–1 axis).

    ``rows`` has the columns ``list``, ``worst``, ``mean``, ``best``, ``current`` (from
    :func:`ndcg_core.steps.order_bounds`); texts come from ``blind_spots.difficulty.chart_*``.
    """
    names = list(rows["list"])
    texts = {
        key: t(f"blind_spots.difficulty.{key}")
        for key in (
            "chart_range",
            "chart_mean",
            "chart_current",
            "chart_axis",
            "chart_list",
            "col_worst",
            "col_mean",
            "col_best",
            "col_current",
        )
    }
    y = alt.Y("list:N", sort=names, title=None, axis=alt.Axis(labelLimit=220))
    scale = alt.Scale(domain=[0, 1])
    tip = [
        alt.Tooltip("list:N", title=texts["chart_list"]),
        alt.Tooltip("worst:Q", title=texts["col_worst"], format=".4f"),
        alt.Tooltip("mean:Q", title=texts["col_mean"], format=".4f"),
        alt.Tooltip("best:Q", title=texts["col_best"], format=".4f"),
        alt.Tooltip("current:Q", title=texts["col_current"], format=".4f"),
    ]
    legend_domain = [texts["chart_range"], texts["chart_mean"], texts["chart_current"]]
    colour = alt.Scale(domain=legend_domain, range=[SKY, BLUE, VERMILLION])
    # the legend's label is a column (not a Vega expression), so any translated text is safe
    bar = (
        alt.Chart(rows.assign(kind=texts["chart_range"]))
        .mark_bar(height=18, opacity=0.7)
        .encode(
            x=alt.X("worst:Q", title=texts["chart_axis"], scale=scale),
            x2="best:Q",
            y=y,
            tooltip=tip,
            # one legend entry per line: three entries side by side do not fit a phone
            color=alt.Color(
                "kind:N", scale=colour, title=None, legend=alt.Legend(orient="bottom", direction="vertical")
            ),
        )
    )
    mean = (
        alt.Chart(rows.assign(kind=texts["chart_mean"]))
        .mark_tick(thickness=3, size=26)
        .encode(
            x=alt.X("mean:Q", scale=scale),
            y=y,
            tooltip=tip,
            color=alt.Color("kind:N", scale=colour, title=None),
        )
    )
    current = (
        alt.Chart(rows.assign(kind=texts["chart_current"]))
        .mark_point(filled=True, size=160, shape="diamond")
        .encode(
            x=alt.X("current:Q", scale=scale),
            y=y,
            tooltip=tip,
            color=alt.Color("kind:N", scale=colour, title=None),
        )
    )
    values = "; ".join(
        f"{row.list}: {row.worst:.4f}, {row.mean:.4f}, {row.best:.4f}, {row.current:.4f}"
        for row in rows.itertuples()
    )
    # the title is drawn by the page above the chart (a Vega title is cut short on a phone)
    return _layer(bar, mean, current).properties(
        height=height, description=t("blind_spots.difficulty.chart_description", values=values)
    )


# --- the live class: the room's answers -------------------------------------------------------


#: Type sizes of the room's charts (px, before the presenter mode's zoom of 1.3): axis labels
#: and titles, legend, the counts over the bars, the exact value's label. In presenter mode
#: they are read from the back of a room (>= 20 px on the projector).
_LIVE_TYPE = {False: (13, 14, 16, 15), True: (18, 19, 21, 21)}
#: Heights of the room's charts (px, before the zoom): on a 1024×768 projector the question,
#: the chart, the verdict and the right answer fit one screen beside each other.
_LIVE_HEIGHT = {False: 280, True: 250}
#: The least width of the room's right-answers bar (px, before the zoom).
_RIGHT_BAR_PX = {False: 10, True: 12}


def _live_type(chart: alt.LayerChart, present: bool) -> alt.LayerChart:
    axis, title, _, _ = _LIVE_TYPE[present]
    # altair types configure_* as returning Any; it returns the same LayerChart
    configured: alt.LayerChart = chart.configure_axis(
        labelFontSize=axis, titleFontSize=title
    ).configure_legend(labelFontSize=axis, titleFontSize=title, symbolSize=axis * 12)
    return configured


#: The longest line of an option's name beside the room's bars, in columns (a Chinese character
#: takes two): at most ~190 px before the presenter zoom, so a name of 35 characters ("Model A, as
#: on the whole catalogue") leaves the bars, their counts and the legend room in a 1024 px room's
#: half (it took the whole width there, the bars and the legend cut off), and the names of a
#: comparison ("List A scores higher") keep one line each.
_LIVE_LABEL_COLUMNS = {False: 26, True: 21}
#: A word, a wide (CJK) character, or a run of spaces: the places a name may break.
_BREAKS = re.compile(
    r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]|[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]+|\s+"
)
#: Chinese punctuation that does not begin a line.
_NO_LINE_START = frozenset("，。、；：！？）》」』”")


def _columns(text: str, wide: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in wide else 1 for ch in text)


def label_lines(text: str, columns: int) -> list[str]:
    """``text`` in lines of at most ``columns`` columns (a wide character counts two), broken
    between words and between Chinese characters; a word longer than a line keeps a line of
    its own (the axis' ``labelLimit`` cuts it with an ellipsis).

    >>> label_lines("Model A, as on the whole catalogue", 19)
    ['Model A, as on the', 'whole catalogue']
    >>> label_lines("模型 A，和整个物品库上一样", 19)
    ['模型 A，和整个物品', '库上一样']
    """
    # in Chinese text a dash or a middle dot ("ambiguous" width) is drawn as wide as a character
    wide = "WFA" if _columns(text, "WF") > len(text) else "WF"
    lines: list[str] = []
    line = ""
    for piece in _BREAKS.findall(text):
        if piece.isspace():
            line += " " if line else ""
        elif line and _columns(line + piece, wide) > columns and piece not in _NO_LINE_START:
            lines.append(line.rstrip())
            line = piece
        else:
            line += piece
    if line.strip():
        lines.append(line.rstrip())
    return lines


def live_choice_chart(
    counts: dict[str, int], names: dict[str, str], t: Translate, *, truth: str | None, present: bool = False
) -> alt.LayerChart:
    """Bars of how many students chose each option (options in their order, empty ones kept).

    ``counts`` maps an option to its count (:func:`ndcg_live.questions.tally`), ``names`` an
    option to its shown text. After the reveal (``truth`` set) the right option's bar is green
    and labelled, the others grey: colour and a text label carry it together.
    """
    right, other = t("charts.live_right"), t("charts.live_other")
    data = pd.DataFrame(
        {
            "option": [names[o] for o in counts],
            # the axis draws each "\n" as a new line (labelExpr); the tooltip keeps the name whole
            "label": ["\n".join(label_lines(names[o], _LIVE_LABEL_COLUMNS[present])) for o in counts],
            "count": list(counts.values()),
            "mark": [right if truth is not None and o == truth else other for o in counts],
        }
    )
    title_count, title_answer = t("charts.live_count"), t("charts.live_answer")
    colour = alt.Scale(domain=[right, other], range=[GREEN, BLUE if truth is None else NEUTRAL])
    # bars across, the options' names on the left: long names stay whole in a narrow column
    base = alt.Chart(data).encode(
        y=alt.Y(
            "label:N",
            sort=list(data["label"]),
            title=None,
            axis=alt.Axis(labelLimit=320, labelExpr="split(datum.label, '\\n')", labelOverlap=False),
        ),
        x=alt.X(
            "count:Q",
            title=title_count,
            axis=alt.Axis(tickMinStep=1, format="d"),
            scale=alt.Scale(domain=[0, max(data["count"], default=0) + 1]),
        ),
        tooltip=[alt.Tooltip("option:N", title=title_answer), alt.Tooltip("count:Q", title=title_count)],
    )
    bars = base.mark_bar().encode(
        color=alt.Color(
            "mark:N",
            scale=colour,
            title=None,
            legend=None
            if truth is None
            else alt.Legend(orient="bottom", direction="vertical", labelLimit=600),
        )
    )
    labels = _ink(
        base.mark_text(dx=6, align="left", fontSize=_LIVE_TYPE[present][2]).encode(text="count:Q"), "count"
    )
    values = ", ".join(f"{names[o]}: {n}" for o, n in counts.items())
    # a name in two or more lines gets a row as tall as its lines (else the rows share the height)
    lines = max((label.count("\n") + 1 for label in data["label"]), default=1)
    line_px = _LIVE_TYPE[present][0] * 1.2
    chart = _layer(bars, labels).properties(
        height=_LIVE_HEIGHT[present] if lines == 1 else alt.Step(lines * line_px + 8),
        description=t("charts.live_choice_description", n=sum(counts.values()), values=values),
    )
    return _live_type(chart, present)


def _number(value: float) -> str:
    return f"{value:.6g}"


def live_number_chart(
    bins: nc.AnswerBins, t: Translate, *, truth: float | None, ndcg: bool = False, present: bool = False
) -> alt.LayerChart:
    """The room's histogram: the bars of :func:`ndcg_core.answer_bins` drawn as they are
    (``bin="binned"``: no binning here, so the bars add up to the answers). No count is
    written over a bar: bars a hair apart on a 0-1 axis would write them over each other.

    Before the reveal the bars are blue. After it the right answers' bar is green and the
    wrong ones grey, named in a legend (colour never alone); the exact value is a dashed
    vermillion rule drawn behind the bars (seen in the free space above them) with its value
    written above the plot, never over a bar. ``ndcg``: the nDCG of the orders given.
    """
    axis = t("charts.live_ndcg") if ndcg else t("charts.live_answer")
    title_count = t("charts.live_count")
    marks = {
        "unknown": t("charts.live_answers"),
        "right": t("charts.live_right_answers"),
        "wrong": t("charts.live_wrong_answers"),
    }
    truth_size = _LIVE_TYPE[present][3]
    data = pd.DataFrame(
        {
            "lo": [b.lo for b in bins.bars],
            "hi": [b.hi for b in bins.bars],
            "count": [b.count for b in bins.bars],
            "mark": [marks[b.verdict] for b in bins.bars],
            "range": [f"{_number(b.lo)} – {_number(b.hi)}" for b in bins.bars],
        }
    )
    scale = alt.Scale(domain=list(bins.domain), nice=False, zero=False)
    shown = ["unknown"] if truth is None else ["right", "wrong"]
    colour = alt.Scale(
        domain=[marks[v] for v in shown],
        range=[{"unknown": BLUE, "right": GREEN, "wrong": NEUTRAL}[v] for v in shown],
    )
    legend = (
        None
        if truth is None
        else alt.Legend(orient="bottom", direction="vertical", title=None, labelLimit=600)
    )
    # one above the tallest bar: the exact value's rule is seen above the bars
    count_scale = alt.Scale(domain=[0, max(data["count"], default=0) + 1])
    tooltip = [
        alt.Tooltip("range:N", title=axis),
        alt.Tooltip("count:Q", title=title_count),
        alt.Tooltip("mark:N", title=" "),
    ]
    base = alt.Chart(data).encode(
        x=alt.X("lo:Q", bin="binned", title=axis, scale=scale),
        x2="hi:Q",
        y=alt.Y(
            "count:Q",
            title=title_count,
            scale=count_scale,
            axis=alt.Axis(tickMinStep=1, format="d", labelFlush=False),
        ),
        tooltip=tooltip,
    )
    bars = base.mark_bar().encode(color=alt.Color("mark:N", scale=colour, legend=legend))
    layers: list[Any] = [bars]
    description = t("charts.live_number_description", n=int(data["count"].sum()))
    description += " " + t(
        "charts.live_number_bars",
        bars="; ".join(f"{r.range}: {r.count} ({r.mark})" for r in data.itertuples()),
    )
    if truth is not None:
        # the right answers' bar spans the tolerance, ±0.01: on a 0-1 axis a few pixels, which
        # the exact value's rule hid on a projector. Under the bars (the wrong ones stay whole),
        # a bar of its count at least _RIGHT_BAR_PX wide, centred on it (not read out: aria off)
        right = data[data["mark"] == marks["right"]].assign(mid=lambda d: (d["lo"] + d["hi"]) / 2)
        if len(right):
            wide = (
                alt.Chart(right)
                .mark_bar(width=_RIGHT_BAR_PX[present], aria=False)
                .encode(
                    x=alt.X("mid:Q", scale=scale),
                    y=alt.Y("count:Q", scale=count_scale),
                    color=alt.Color("mark:N", scale=colour, legend=legend),
                    tooltip=tooltip,
                )
            )
            layers = [wide, *layers]
        label = t("charts.live_truth", value=f"{truth:.4f}")
        mark = pd.DataFrame({"truth": [truth], "label": [label]})
        # behind the bars: seen above them, never across a bar's fill
        rule = (
            alt.Chart(mark)
            .mark_rule(color=VERMILLION, size=3, strokeDash=[6, 3])
            .encode(x=alt.X("truth:Q", scale=scale))
        )
        right_half = truth > (bins.domain[0] + bins.domain[1]) / 2
        # above the plot area, on the side of the rule with room, in the theme's text colour
        text = (
            alt.Chart(mark)
            .mark_text(
                align="right" if right_half else "left",
                baseline="bottom",
                dx=4 if right_half else -4,
                dy=-6,
                fontSize=truth_size,
                fontWeight="bold",
            )
            .encode(x=alt.X("truth:Q", scale=scale), y=alt.value(0), text="label:N")
        )
        layers = [rule, *layers, _ink(text, "truth")]
        description += " " + label
    return _live_type(
        _layer(*layers).properties(height=_LIVE_HEIGHT[present], description=description), present
    )


# --- the lesson's early steps ---------------------------------------------------------


def gain_chart(
    table: pd.DataFrame, t: Translate, *, with_cg: bool = False, with_dcg: bool = False, height: int = 260
) -> alt.LayerChart:
    """The early steps' chart: gain per position (bars); at the CG step the running CG (line);
    at the DCG step the discounted gain next to each gain (bars) and the running DCG (line)."""
    base = pd.DataFrame(
        {
            "position": table["position"].to_numpy(),
            "item": table["item"].to_numpy(),
            "gain": table["gain"].to_numpy(),
            "cg": table["cg"].to_numpy(),
            "discount": table["discount"].to_numpy(),
            "discounted_gain": table["discounted_gain"].to_numpy(),
            "dcg": table["dcg"].to_numpy(),
        }
    )
    x = alt.X("position:O", title=t("table.position"), axis=alt.Axis(labelAngle=0))
    tooltip = [
        alt.Tooltip("position:O", title=t("table.position")),
        alt.Tooltip("item:N", title=t("table.item")),
        alt.Tooltip("gain:Q", title=t("table.gain"), format=".4~f"),
    ]
    running = "dcg" if with_dcg else "cg"
    if with_cg or with_dcg:
        tooltip.append(alt.Tooltip(f"{running}:Q", title=t(f"table.{running}"), format=".4~f"))
    if with_dcg:
        tooltip[3:3] = [
            alt.Tooltip("discount:Q", title=t("table.discount"), format=".4f"),
            alt.Tooltip("discounted_gain:Q", title=t("table.discounted_gain"), format=".4f"),
        ]
        names = [t("table.gain"), t("table.discounted_gain")]
        long = pd.concat(
            [
                base.assign(series=names[0], value=base["gain"]),
                base.assign(series=names[1], value=base["discounted_gain"]),
            ],
            ignore_index=True,
        )
        bars = (
            alt.Chart(long)
            .mark_bar(stroke=BLUE, strokeWidth=1.5)
            .encode(
                x=x,
                xOffset=alt.XOffset("series:N", sort=names),
                y=alt.Y("value:Q", title=f"{names[0]} / {names[1]}"),
                color=alt.Color(
                    "series:N",
                    sort=names,
                    title=None,
                    legend=alt.Legend(orient="top"),
                    scale=alt.Scale(domain=names, range=[SKY, BLUE]),
                ),
                tooltip=tooltip,
            )
        )
    else:
        bars = (
            alt.Chart(base)
            .mark_bar(color=BLUE, opacity=0.85)
            .encode(
                x=x,
                y=alt.Y("gain:Q", title=t("table.gain")),
                tooltip=tooltip,
            )
        )
    layers = [bars]
    if with_cg or with_dcg:
        line = (
            alt.Chart(base)
            .mark_line(
                color=ORANGE,
                strokeDash=[6, 3],
                point=alt.OverlayMarkDef(shape="diamond", size=70, color=ORANGE),
            )
            .encode(
                x=x,
                y=alt.Y(f"{running}:Q", title=t(f"table.{running}")),
                tooltip=tooltip,
            )
        )
        layers.append(line)
    chart: alt.LayerChart = _layer(*layers).resolve_scale(y="shared")  # Any in altair: see above
    return chart.properties(height=height)


# --- blind spots: one line per list ---------------------------------------------------


def lists_by_k_chart(
    data: pd.DataFrame, t: Translate, *, y: str = "ndcg", names: Sequence[str] = (), height: int = 260
) -> alt.LayerChart:
    """Lines with points, one per list (blue circles / orange squares, dashed for the second)."""
    names = list(names) or list(dict.fromkeys(data["list"]))
    palette = [BLUE, ORANGE][: len(names)]
    y_title = t(f"blind_spots.chart_{y}")
    scale = alt.Scale(domain=[0, 1.05]) if y == "ndcg" else alt.Scale(zero=True)
    x = alt.X(
        "k:Q",
        title=t("blind_spots.chart_k"),
        axis=alt.Axis(tickMinStep=1, format="d"),
        scale=_k_scale(int(data["k"].max()) if len(data) else 1),
    )
    enc = dict(
        x=x,
        y=alt.Y(f"{y}:Q", title=y_title, scale=scale),
        color=alt.Color(
            "list:N",
            scale=alt.Scale(domain=names, range=palette),
            title=t("blind_spots.chart_list"),
            legend=alt.Legend(orient="top"),
        ),
        tooltip=[
            alt.Tooltip("list:N", title=t("blind_spots.chart_list")),
            alt.Tooltip("k:Q", title=t("blind_spots.chart_k")),
            alt.Tooltip("dcg:Q", title=t("blind_spots.chart_dcg"), format=".4f"),
            alt.Tooltip("idcg:Q", title=t("blind_spots.chart_idcg"), format=".4f"),
            alt.Tooltip("ndcg:Q", title=t("blind_spots.chart_ndcg"), format=".4f"),
        ],
    )
    line = (
        alt.Chart(data)
        .mark_line()
        .encode(
            strokeWidth=alt.StrokeWidth(
                "list:N", scale=alt.Scale(domain=names, range=[5, 2.5][: len(names)]), legend=None
            ),
            strokeDash=alt.StrokeDash(
                "list:N", scale=alt.Scale(domain=names, range=[[1, 0], [6, 4]][: len(names)]), legend=None
            ),
            **enc,
        )
    )
    points = (
        alt.Chart(data)
        .mark_point(filled=True)
        .encode(
            size=alt.Size(
                "list:N", scale=alt.Scale(domain=names, range=[150, 60][: len(names)]), legend=None
            ),
            shape=alt.Shape(
                "list:N", scale=alt.Scale(domain=names, range=["circle", "square"][: len(names)]), legend=None
            ),
            **enc,
        )
    )
    title = t(f"blind_spots.chart_{y}_title")
    return _layer(line, points).properties(height=height, title=title)


# --- Evaluate a run -------------------------------------------------------------------


def _histogram_layers(
    bands: Any, marker: Any, texts: tuple[str, str, str], right_half: bool | None
) -> alt.LayerChart:
    """The histogram's layers over ``bands`` (start, end, count) and ``marker`` (mean, label);
    ``texts`` are the x title, the y title and the mean's tooltip title; no mean line when
    ``right_half`` is None (its label sits on the side of the line with more room)."""
    x_title, y_title, mean_title = texts
    bars = (
        alt.Chart(bands)
        .mark_bar(color=BLUE, stroke="white", strokeWidth=0.5)
        .encode(
            x=alt.X(
                "start:Q",
                title=x_title,
                scale=alt.Scale(domain=[0, 1]),
                bin=alt.Bin(binned=True, step=0.05),
            ),
            x2="end:Q",
            y=alt.Y("count:Q", title=y_title, axis=alt.Axis(tickMinStep=1, format=",d")),
            tooltip=[
                alt.Tooltip("start:Q", title=x_title, format=".2f"),
                alt.Tooltip("count:Q", title=y_title, format=",d"),
            ],
        )
    )
    if right_half is None:
        return _layer(bars)
    rule = (
        alt.Chart(marker)
        .mark_rule(color=VERMILLION, strokeDash=[6, 4], size=2)
        .encode(x="mean:Q", tooltip=[alt.Tooltip("label:N", title=mean_title)])
    )
    text = (
        alt.Chart(marker)
        .mark_text(  # the theme's text colour (_ink): vermillion is 3.87:1 on white
            align="right" if right_half else "left",
            dx=-5 if right_half else 5,
            dy=-4,
            baseline="bottom",
            fontWeight="bold",
        )
        .encode(
            x="mean:Q",
            y=alt.value(0),
            text="label:N",
            tooltip=[alt.Tooltip("label:N", title=mean_title)],
        )
    )
    return _layer(bars, rule, _ink(text, "mean"))


def _histogram_parts(
    per_query: pd.DataFrame, mean: float, k: str, t: Translate
) -> tuple[pd.DataFrame, pd.DataFrame, tuple[str, str, str], bool | None]:
    """The histogram's data (the core counts the bands: 20 rows, not one per query), texts and
    the side of its mean's label (None: no mean)."""
    bands = nc.ndcg_bands(per_query, width=0.05)
    texts = (t("evaluate.hist_x", k=k), t("evaluate.hist_y"), t("evaluate.mean", k=k))
    if pd.isna(mean):
        return bands, pd.DataFrame({"mean": [], "label": []}), texts, None
    marker = pd.DataFrame({"mean": [mean], "label": [t("evaluate.hist_mean", value=f"{mean:.4f}")]})
    return bands, marker, texts, bool(mean > 0.5)


def run_histogram(per_query: pd.DataFrame, mean: float, *, k: str, t: Translate) -> alt.LayerChart:
    """Bars of how many queries fall in each 0.05-wide nDCG band, and a dashed mean line."""
    bands, marker, texts, right_half = _histogram_parts(per_query, mean, k, t)
    return _histogram_layers(bands, marker, texts, right_half).properties(
        description=t("evaluate.hist_caption", k=k)
    )


@lru_cache(maxsize=64)
def _histogram_template(texts: tuple[str, str, str], right_half: bool | None) -> dict[str, Any]:
    return _template(
        _histogram_layers(alt.NamedData(name="bands"), alt.NamedData(name="mean"), texts, right_half)
    )


def run_histogram_spec(per_query: pd.DataFrame, mean: float, *, k: str, t: Translate) -> dict[str, Any]:
    """:func:`run_histogram` as a Vega-Lite dict for ``st.vega_lite_chart`` (cached template)."""
    bands, marker, texts, right_half = _histogram_parts(per_query, mean, k, t)
    datasets = {"bands": bands} if right_half is None else {"bands": bands, "mean": marker}
    return _filled(_histogram_template(texts, right_half), datasets, t("evaluate.hist_caption", k=k))


# --- comparing runs (the Evaluate page) ----------------------------------------------------


def _difference_layers(data: Any, texts: tuple[str, ...], many: bool, height: int) -> alt.Chart:
    """The topic-by-topic bars over ``data`` (query, difference, side, position: the order to
    draw); ``texts``: better, equal, worse, the x and y titles, the tooltips' query, value and
    side; ``many``: past ~40 bars the query names no longer fit under them."""
    better, equal, worse, x_title, y_title, query, value, side = texts
    chart: alt.Chart = (  # typed here: altair's encode returns Any
        alt.Chart(data)
        .mark_bar()
        .encode(
            x=alt.X(
                "query:N",
                sort=alt.EncodingSortField(field="position", op="min"),
                title=x_title,
                axis=alt.Axis(labels=not many, ticks=not many, labelAngle=-90, labelLimit=80),
            ),
            y=alt.Y("difference:Q", title=y_title),
            color=alt.Color(
                "side:N",
                scale=alt.Scale(domain=[better, equal, worse], range=[GREEN, NEUTRAL, VERMILLION]),
                title=None,
                legend=alt.Legend(orient="top", direction="vertical"),
            ),
            tooltip=[
                alt.Tooltip("query:N", title=query),
                alt.Tooltip("difference:Q", title=value, format="+.4f"),
                alt.Tooltip("side:N", title=side),
            ],
        )
    )
    return chart.properties(height=height)


def _difference_parts(
    differences: pd.DataFrame,
    t: Translate,
    *,
    run: str,
    baseline: str,
    measure: str,
    counts: tuple[int, int, int],
    mean: float,
) -> tuple[pd.DataFrame, tuple[str, ...], str]:
    """The topic-by-topic chart's data, texts and description."""
    better, equal, worse = (
        t(f"charts.diff_{name}", baseline=baseline) for name in ("better", "equal", "worse")
    )
    values = differences["difference"].tolist()
    data = pd.DataFrame(
        {
            "query": differences["query"].astype(str).tolist(),
            "difference": values,
            "side": [better if d > 0 else worse if d < 0 else equal for d in values],
            "position": range(len(values)),
        }
    )
    texts = (
        better,
        equal,
        worse,
        t("charts.diff_x"),
        t("charts.diff_y", run=run, baseline=baseline, measure=measure),
        t("charts.diff_query"),
        t("charts.diff_value"),
        t("charts.diff_side"),
    )
    description = t(
        "charts.diff_description",
        run=run,
        baseline=baseline,
        measure=measure,
        n=len(data),
        better=counts[0],
        equal=counts[1],
        worse=counts[2],
        mean=signed(mean),
    )
    return data, texts, description


def difference_chart(
    differences: pd.DataFrame,
    t: Translate,
    *,
    run: str,
    baseline: str,
    measure: str,
    counts: tuple[int, int, int],
    mean: float,
    height: int = 260,
) -> alt.Chart:
    """The classic topic-by-topic chart: one bar per query, the run's nDCG minus the baseline's,
    queries sorted by that difference (the order the core gives), bars above zero green and
    below vermillion (the legend and the bar's side say the same without colour).

    ``differences`` has the columns ``query`` and ``difference`` in the order to draw;
    ``counts`` is (better, equal, worse) and ``mean`` the mean difference, both from the core
    (they go into the chart's description, its text alternative).
    """
    data, texts, description = _difference_parts(
        differences, t, run=run, baseline=baseline, measure=measure, counts=counts, mean=mean
    )
    return _difference_layers(data, texts, len(data) > 40, height).properties(description=description)


@lru_cache(maxsize=64)
def _difference_template(texts: tuple[str, ...], many: bool, height: int) -> dict[str, Any]:
    return _template(_difference_layers(alt.NamedData(name="differences"), texts, many, height))


def difference_spec(
    differences: pd.DataFrame,
    t: Translate,
    *,
    run: str,
    baseline: str,
    measure: str,
    counts: tuple[int, int, int],
    mean: float,
    height: int = 260,
) -> dict[str, Any]:
    """:func:`difference_chart` as a Vega-Lite dict for ``st.vega_lite_chart`` (cached template)."""
    data, texts, description = _difference_parts(
        differences, t, run=run, baseline=baseline, measure=measure, counts=counts, mean=mean
    )
    return _filled(_difference_template(texts, len(data) > 40, height), {"differences": data}, description)


def _distribution_layers(
    ticks_data: Any, marks: Any, runs: tuple[str, ...], texts: tuple[str, ...], step: int
) -> alt.LayerChart:
    """One tick per query and run over ``ticks_data`` (run, query, value), each run's mean a
    diamond over ``marks`` (run, value, kind); ``runs`` in the order of the rows; ``texts``: the
    x title, the run, the query, the measure and the mean's label."""
    x_title, run_title, query_title, measure, mean_label = texts
    y = alt.Y(
        "run:N",
        sort=list(runs),
        title=None,
        axis=alt.Axis(labelLimit=180),
        scale=alt.Scale(paddingInner=0.25),
    )
    x = alt.X("value:Q", title=x_title, scale=alt.Scale(domain=[0, 1]))
    ticks = (
        alt.Chart(ticks_data)
        .mark_tick(color=BLUE, opacity=0.55, thickness=2, size=32)
        .encode(
            x=x,
            y=y,
            tooltip=[
                alt.Tooltip("run:N", title=run_title),
                alt.Tooltip("query:N", title=query_title),
                alt.Tooltip("value:Q", title=measure, format=".4f"),
            ],
        )
    )
    mean = (
        alt.Chart(marks)
        .mark_point(filled=True, shape="diamond", size=170, color=VERMILLION, stroke=BLACK, strokeWidth=0.5)
        .encode(
            x=x,
            y=y,
            color=alt.Color(
                "kind:N",
                scale=alt.Scale(domain=[mean_label], range=[VERMILLION]),
                title=None,
                # the legend's symbol drawn as the mark is (its defaults: a thicker stroke on a
                # smaller symbol, which read as a black diamond with a vermillion dot)
                legend=alt.Legend(
                    orient="top",
                    symbolType="diamond",
                    symbolSize=170,
                    symbolStrokeWidth=0.5,
                    symbolStrokeColor=BLACK,
                ),
            ),
            tooltip=[
                alt.Tooltip("run:N", title=run_title),
                alt.Tooltip("value:Q", title=mean_label, format=".4f"),
            ],
        )
    )
    return _layer(ticks, mean).properties(height=alt.Step(step))


def _distribution_parts(
    per_query: pd.DataFrame, means: pd.DataFrame, t: Translate, measure: str, column: str
) -> tuple[pd.DataFrame, pd.DataFrame, tuple[str, ...], tuple[str, ...], str]:
    """The distribution's data, runs, texts and description."""
    runs = tuple(means["run"].astype(str).tolist())
    ticks_data = pd.DataFrame(
        {
            "run": per_query["run"].astype(str).tolist(),
            "query": per_query["query"].astype(str).tolist(),
            "value": per_query[column].tolist(),
        }
    )
    mean_label = t("charts.dist_mean")
    marks = pd.DataFrame({"run": runs, "value": means[column].tolist(), "kind": [mean_label] * len(runs)})
    texts = (
        t("charts.dist_x", measure=measure),
        t("charts.dist_run"),
        t("charts.diff_query"),
        measure,
        mean_label,
    )
    values = "; ".join(
        f"{name}: {value:.4f}" for name, value in zip(runs, means[column].tolist(), strict=True)
    )
    description = t("charts.dist_description", measure=measure, n=len(runs), means=values)
    return ticks_data, marks, runs, texts, description


def distribution_chart(
    per_query: pd.DataFrame,
    means: pd.DataFrame,
    t: Translate,
    *,
    measure: str,
    column: str,
    step: int = 44,
) -> alt.LayerChart:
    """The distribution of per-query nDCG of each run: one thin tick per query on a 0–1 axis, a
    row per run, and the run's mean as a vermillion diamond (shape and colour).

    ``per_query`` has the columns ``run``, ``query`` and ``column`` (one row per run and
    query); ``means`` has ``run`` and ``column`` (the core's mean of each run).
    """
    ticks_data, marks, runs, texts, description = _distribution_parts(per_query, means, t, measure, column)
    return _distribution_layers(ticks_data, marks, runs, texts, step).properties(description=description)


@lru_cache(maxsize=64)
def _distribution_template(runs: tuple[str, ...], texts: tuple[str, ...], step: int) -> dict[str, Any]:
    return _template(
        _distribution_layers(alt.NamedData(name="ticks"), alt.NamedData(name="means"), runs, texts, step)
    )


def distribution_spec(
    per_query: pd.DataFrame,
    means: pd.DataFrame,
    t: Translate,
    *,
    measure: str,
    column: str,
    step: int = 44,
) -> dict[str, Any]:
    """:func:`distribution_chart` as a Vega-Lite dict for ``st.vega_lite_chart`` (cached template)."""
    ticks_data, marks, runs, texts, description = _distribution_parts(per_query, means, t, measure, column)
    return _filled(
        _distribution_template(runs, texts, step), {"ticks": ticks_data, "means": marks}, description
    )


def _mean_by_k_layers(
    table: Any, marker: Any, texts: tuple[str, str, str], last: int, marked: bool
) -> alt.LayerChart:
    """Mean nDCG@k against k over ``table`` (k, ndcg) for k = 1..``last``; when ``marked``, a
    dashed line at the chosen k over ``marker`` (k, label); ``texts``: the x and y titles and
    the marker's tooltip title."""
    x_title, y_title, k_title = texts
    line = (
        alt.Chart(table)
        .mark_line(color=BLUE, point=alt.OverlayMarkDef(color=BLUE, size=40))
        .encode(
            x=alt.X(
                "k:Q",
                title=x_title,
                scale=_k_scale(last),
                axis=alt.Axis(tickMinStep=1, format=",d"),
            ),
            y=alt.Y("ndcg:Q", title=y_title, scale=alt.Scale(domain=[0, 1])),
            tooltip=[
                alt.Tooltip("k:Q", title=x_title),
                alt.Tooltip("ndcg:Q", title=y_title, format=".4f"),
            ],
        )
    )
    if not marked:
        return _layer(line)
    # vermillion, like the histogram's mean: it stands out from both themes' backgrounds
    rule = (
        alt.Chart(marker)
        .mark_rule(color=VERMILLION, strokeDash=[6, 4], size=2)
        .encode(x="k:Q", tooltip=[alt.Tooltip("label:N", title=k_title)])
    )
    text = (
        alt.Chart(marker)
        # in the theme's text colour (vermillion is 3.87:1 on white), beside the vermillion rule
        .mark_text(align="left", dx=4, baseline="bottom", dy=-4, fontWeight="bold")
        .encode(x="k:Q", y=alt.value(0), text="label:N", tooltip=[alt.Tooltip("label:N", title=k_title)])
    )
    return _layer(line, rule, _ink(text, "k"))


def _mean_by_k_parts(
    k: int | None, ks: Sequence[int], t: Translate
) -> tuple[pd.DataFrame | None, tuple[str, str, str]]:
    """The chosen k's marker (None when k is not one of ``ks``) and the chart's texts."""
    texts = (t("evaluate.curve_x"), t("evaluate.curve_y"), t("evaluate.k"))
    if k is None or k not in ks:
        return None, texts
    return pd.DataFrame({"k": [k], "label": [t("evaluate.curve_chosen", k=k)]}), texts


def mean_by_k_chart(table: pd.DataFrame, k: int | None, *, ks: Sequence[int], t: Translate) -> alt.LayerChart:
    """Mean nDCG@k against k (line and points), with a dashed line at the chosen k."""
    marker, texts = _mean_by_k_parts(k, ks, t)
    return _mean_by_k_layers(table, marker, texts, max(ks), marker is not None).properties(
        description=t("evaluate.curve_caption")
    )


@lru_cache(maxsize=64)
def _mean_by_k_template(texts: tuple[str, str, str], last: int, marked: bool) -> dict[str, Any]:
    return _template(
        _mean_by_k_layers(alt.NamedData(name="curve"), alt.NamedData(name="chosen"), texts, last, marked)
    )


def mean_by_k_spec(table: pd.DataFrame, k: int | None, *, ks: Sequence[int], t: Translate) -> dict[str, Any]:
    """:func:`mean_by_k_chart` as a Vega-Lite dict for ``st.vega_lite_chart`` (cached template)."""
    marker, texts = _mean_by_k_parts(k, ks, t)
    datasets = {"curve": table} if marker is None else {"curve": table, "chosen": marker}
    return _filled(
        _mean_by_k_template(texts, max(ks), marker is not None), datasets, t("evaluate.curve_caption")
    )


# --- variants and libraries -----------------------------------------------------------

_GAIN_COLOURS = {"linear": BLUE, "exponential": VERMILLION}

_DISCOUNT_DASH = {"log2": [1, 0], "jarvelin": [6, 4]}


def short_discount(discount: str, t: Translate) -> str:
    """The discount's name in the chart legend (short enough for a phone)."""
    return (
        t("variants.discount_jarvelin_short")
        if discount == "jarvelin"
        else t(f"variants.discount_{discount}")
    )


def variants_by_k_chart(data: pd.DataFrame, t: Translate, *, height: int = 300) -> alt.Chart:
    """Lines of nDCG@k: colour = gain, dash = discount (so colour is never alone), points."""
    gains = [t(f"variants.gain_{g}") for g in _GAIN_COLOURS]
    discounts = [short_discount(d, t) for d in _DISCOUNT_DASH]
    chart: alt.Chart = (  # typed here: altair's encode returns Any
        alt.Chart(data)
        .mark_line(point=True)
        .encode(
            x=alt.X(
                "k:Q",
                title=t("variants.chart_k"),
                axis=alt.Axis(tickMinStep=1, format="d"),
                scale=_k_scale(int(data["k"].max()) if len(data) else 1),
            ),
            y=alt.Y("ndcg:Q", title=t("variants.chart_ndcg"), scale=alt.Scale(domain=[0, 1])),
            color=alt.Color(
                "gain:N",
                title=t("variants.chart_gain"),
                scale=alt.Scale(domain=gains, range=list(_GAIN_COLOURS.values())),
                legend=alt.Legend(orient="bottom", direction="vertical"),
            ),
            strokeDash=alt.StrokeDash(
                "discount:N",
                title=t("variants.chart_discount"),
                scale=alt.Scale(domain=discounts, range=list(_DISCOUNT_DASH.values())),
                # the points' circle and square, filled grey (Vega filled them black, lost on the
                # dark theme) without an outline (the dash drew the square's in pieces)
                legend=alt.Legend(
                    orient="bottom",
                    direction="vertical",
                    labelLimit=300,
                    symbolFillColor=NEUTRAL,
                    symbolStrokeWidth=0,
                ),
            ),
            shape=alt.Shape(
                "discount:N", scale=alt.Scale(domain=discounts, range=["circle", "square"]), legend=None
            ),
            detail="variant:N",
            tooltip=[
                alt.Tooltip("variant:N", title=t("variants.chart_variant")),
                alt.Tooltip("k:Q", title=t("variants.chart_k")),
                alt.Tooltip("ndcg:Q", title=t("variants.chart_ndcg"), format=".4f"),
            ],
        )
        .properties(height=height, description=_variants_by_k_description(data, t))
    )
    return chart


def _variants_by_k_description(data: pd.DataFrame, t: Translate) -> str:
    """The chart in words (its text alternative): each variant's nDCG at the last k."""
    last = data[data["k"] == data["k"].max()]
    values = "; ".join(f"{row.variant} {row.ndcg:.4f}" for row in last.itertuples())
    return t("variants.by_k_description", n=int(data["k"].max()), values=values)


_TOOLS_TEXTS = (
    "chart_tool",
    "chart_call",
    "chart_ndcg",
    "chart_gain",
    "gain_linear",
    "gain_exponential",
    "gain_binary",
)


def _tools_layers(data: Any, texts: tuple[str, ...], row_height: int) -> alt.Chart:
    """The tools' points over ``data`` (row, tool, call, ndcg, gain_name)."""
    named = dict(zip(_TOOLS_TEXTS, texts, strict=True))
    gains = [named["gain_linear"], named["gain_exponential"], named["gain_binary"]]
    y = alt.Y(
        "row:N",
        title=None,
        sort=None,
        scale=alt.Scale(paddingOuter=0.8, paddingInner=0),
        axis=alt.Axis(
            labelExpr="split(datum.label, '\\n')",
            labelAlign="left",
            labelBaseline="bottom",
            labelOffset=-17,
            labelPadding=0,
            ticks=False,
            domain=False,
            labelLimit=600,
            labelFontSize=11,
            labelLineHeight=13,
        ),
    )
    tooltip = [
        alt.Tooltip("tool:N", title=named["chart_tool"]),
        alt.Tooltip("call:N", title=named["chart_call"]),
        alt.Tooltip("ndcg:Q", title=named["chart_ndcg"], format=".4f"),
    ]
    points: alt.Chart = (  # typed here: altair's encode returns Any
        alt.Chart(data)
        .mark_point(filled=True, size=140, opacity=1)
        .encode(
            x=alt.X(
                "ndcg:Q",
                title=named["chart_ndcg"],
                scale=alt.Scale(domain=[0, 1.05], nice=False),
                axis=alt.Axis(values=[0, 0.2, 0.4, 0.6, 0.8, 1.0]),
            ),
            y=y,
            color=alt.Color(
                "gain_name:N",
                title=named["chart_gain"],
                scale=alt.Scale(domain=gains, range=[BLUE, VERMILLION, GREEN]),
                legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=300),
            ),
            shape=alt.Shape(
                "gain_name:N",
                scale=alt.Scale(domain=gains, range=["circle", "square", "triangle-up"]),
                legend=None,
            ),
            tooltip=tooltip,
        )
    )
    return points.properties(height=alt.Step(row_height))


def _tools_parts(table: pd.DataFrame, t: Translate) -> tuple[pd.DataFrame, tuple[str, ...], str]:
    """The tools chart's data (refused rows left out), texts and description."""
    data = table.loc[table["ndcg"].notna(), ["label", "tool", "call", "ndcg", "gain"]].assign(
        gain_name=lambda d: [t(f"variants.gain_{g}") for g in d["gain"]],
        row=lambda d: [f"{label}\n{call}" for label, call in zip(d["label"], d["call"], strict=False)],
    )
    texts = tuple(t(f"variants.{name}") for name in _TOOLS_TEXTS)
    values = "; ".join(f"{row.label} {row.ndcg:.4f}" for row in data.itertuples())
    return data, texts, t("variants.tools_description", values=values)


def tools_chart(table: pd.DataFrame, t: Translate, *, row_height: int = 60) -> alt.Chart:
    """One point per tool row (refused rows left out), on a shared 0..1 axis.

    Above each row's point, two lines name the tool and its whole call with the current k, from
    the left edge of the plot: the chart says which call gives which number without a tooltip,
    and on a phone the labels take no width from the plot. They are the y axis's own labels,
    moved inside the plot, so they take the theme's text colour (light and dark).
    """
    data, texts, description = _tools_parts(table, t)
    return _tools_layers(data, texts, row_height).properties(description=description)


@lru_cache(maxsize=64)
def _tools_template(texts: tuple[str, ...], row_height: int) -> dict[str, Any]:
    return _template(_tools_layers(alt.NamedData(name="tools"), texts, row_height))


def tools_spec(table: pd.DataFrame, t: Translate, *, row_height: int = 60) -> dict[str, Any]:
    """:func:`tools_chart` as a Vega-Lite dict for ``st.vega_lite_chart`` (cached template)."""
    data, texts, description = _tools_parts(table, t)
    return _filled(_tools_template(texts, row_height), {"tools": data}, description)


# --- scores and ties ------------------------------------------------------------------

TIE_SHAPES: dict[str, str] = {
    "pessimistic": "triangle-down",
    "average": "circle",
    "optimistic": "triangle-up",
    "input": "diamond",
    "trec_eval": "cross",
    "ignore": "square",
}

# Okabe-Ito colours; the band's own light blue is kept for the band.
TIE_COLOURS: dict[str, str] = {
    "pessimistic": VERMILLION,
    "average": BLUE,
    "optimistic": GREEN,
    "input": ORANGE,
    "trec_eval": NEUTRAL,
    "ignore": PINK,
}

_TIE_AXIS_SCALE = alt.Scale(domain=[0, 1.03], nice=False)

_TIE_AXIS = alt.Axis(values=[x / 10 for x in range(11)], format=".1f")


def tie_band_chart(
    points: pd.DataFrame, *, low: float, high: float, t: Translate, height: int = 340
) -> alt.LayerChart:
    """The band pessimistic..optimistic on a 0..1 axis; each treatment a marked point on its own row.

    Row labels wrap at " · " (Vega's ``labelExpr`` split), so long names stay whole on a phone.
    """
    band = pd.DataFrame({"low": [low], "high": [high], "label": [t("ties.chart_band")]})
    x_title = t("ties.chart_value")
    names = points["name"].tolist()
    rule = (
        alt.Chart(band)
        .mark_rect(color=SKY, opacity=0.35)
        .encode(
            x=alt.X("low:Q", title=x_title, scale=_TIE_AXIS_SCALE, axis=_TIE_AXIS),
            x2="high:Q",
            tooltip=[
                alt.Tooltip("label:N", title=t("ties.chart_treatment")),
                alt.Tooltip("low:Q", title=t("ties.chart_low"), format=".4f"),
                alt.Tooltip("high:Q", title=t("ties.chart_high"), format=".4f"),
            ],
        )
    )
    marks = (
        alt.Chart(points)
        .mark_point(filled=True, size=200, opacity=1)
        .encode(
            x=alt.X("ndcg:Q", title=x_title, scale=_TIE_AXIS_SCALE, axis=_TIE_AXIS),
            y=alt.Y(
                "name:N",
                title=None,
                sort=names,
                axis=alt.Axis(labelLimit=170, labelExpr="split(datum.label, ' · ')"),
            ),
            color=alt.Color(
                "name:N",
                sort=names,
                legend=None,
                scale=alt.Scale(domain=names, range=[TIE_COLOURS[x] for x in points["treatment"]]),
            ),
            shape=alt.Shape(
                "name:N",
                sort=names,
                legend=None,
                scale=alt.Scale(domain=names, range=[TIE_SHAPES[x] for x in points["treatment"]]),
            ),
            tooltip=[
                alt.Tooltip("name:N", title=t("ties.chart_treatment")),
                alt.Tooltip("ndcg:Q", title=x_title, format=".4f"),
            ],
        )
    )
    return _layer(rule, marks).properties(height=height)


#: Cell values are written in the swap heatmap up to this many items.
HEATMAP_TEXT_LIMIT = 10


# --- Explore --------------------------------------------------------------------------


_HEATMAP_TEXTS = (
    "axis_j",
    "axis_i",
    "row_i",
    "row_item_i",
    "row_j",
    "row_item_j",
    "row_ndcg",
    "row_delta",
    "legend",
)


def _white_cells(reach: float) -> str:
    """The Vega test of the swap heatmap's cells whose colour takes white text: its scale runs
    from vermillion (−``reach``) through white to blue (+``reach``)."""
    tests = []
    if (blue := white_text_from(BLUE)) is not None:
        tests.append(f"datum.delta >= {blue * reach!r}")
    if (vermillion := white_text_from(VERMILLION)) is not None:
        tests.append(f"datum.delta <= {-vermillion * reach!r}")
    return " || ".join(tests) or "false"


def _heatmap_layers(
    cells: Any, picked: Any, texts: tuple[str, ...], reach: float, font_size: int | None, with_pick: bool
) -> alt.LayerChart:
    """The swap heatmap's layers over ``cells`` (i, j, item_i, item_j, ndcg, delta) and
    ``picked`` (the chosen swap's two cells, outlined when ``with_pick``); the colour scale
    reaches ±``reach``; values written in the cells at ``font_size`` (None: not written)."""
    named = dict(zip(_HEATMAP_TEXTS, texts, strict=True))
    x = alt.X("j:O", title=named["axis_j"], axis=alt.Axis(labelAngle=0, orient="top"))
    y = alt.Y("i:O", title=named["axis_i"])
    tooltip = [
        alt.Tooltip("i:O", title=named["row_i"]),
        alt.Tooltip("item_i:N", title=named["row_item_i"]),
        alt.Tooltip("j:O", title=named["row_j"]),
        alt.Tooltip("item_j:N", title=named["row_item_j"]),
        alt.Tooltip("ndcg:Q", title=named["row_ndcg"], format=".4f"),
        alt.Tooltip("delta:Q", title=named["row_delta"], format="+.4f"),
    ]
    layers: list[alt.Chart] = [
        alt.Chart(cells)
        .mark_rect(stroke=CELL_OUTLINE, strokeWidth=0.5)
        .encode(
            x=x,
            y=y,
            tooltip=tooltip,
            color=alt.Color(
                "delta:Q",
                title=named["legend"],
                scale=alt.Scale(
                    domain=[-reach, 0, reach], range=[VERMILLION, WHITE, BLUE], interpolate="rgb"
                ),
                # three labels (the scale's ends and 0): seven ran into one another at its length
                legend=alt.Legend(orient="bottom", format="+.2f", values=[-reach, 0, reach]),
            ),
        )
    ]
    if font_size is not None:
        # on each cell the ink of the two that contrasts more with its colour (4.58:1 at the
        # least): white only on the darkest blue cells, black elsewhere
        layers.append(
            alt.Chart(cells)
            .mark_text(fontSize=font_size)
            .encode(
                x=x,
                y=y,
                color=alt.condition(_white_cells(reach), alt.value(WHITE), alt.value(BLACK)),
                text=alt.Text("ndcg:Q", format=".2f"),
                tooltip=tooltip,
            )
        )
    if with_pick:
        layers.append(
            alt.Chart(picked)
            .mark_rect(fillOpacity=0, stroke=BLACK, strokeWidth=3)
            .encode(x=x, y=y, tooltip=tooltip)
        )
    return _layer(*layers)


def _heatmap_parts(
    data: pd.DataFrame, t: Translate, k: int, chosen: tuple[int, int] | None, n: int
) -> tuple[pd.DataFrame, tuple[str, ...], float, int | None, str]:
    """The chosen swap's cells, the heatmap's texts, colour reach (one symmetric scale, so a
    small loss does not look as strong as a large gain), cell text size and description."""
    reach = max(float(data["delta"].abs().max()), 1e-6)
    font_size = (11 if n > 6 else 13) if n <= HEATMAP_TEXT_LIMIT else None
    texts = tuple(t(f"explore.swap.{name}") for name in _HEATMAP_TEXTS)
    if chosen is None:
        picked = data.iloc[:0]
    else:
        i, j = chosen
        picked = data[((data["i"] == i) & (data["j"] == j)) | ((data["i"] == j) & (data["j"] == i))]
    off_diagonal = data[data["i"] != data["j"]]
    best = off_diagonal.loc[off_diagonal["ndcg"].idxmax()] if len(off_diagonal) else None
    worst = off_diagonal.loc[off_diagonal["ndcg"].idxmin()] if len(off_diagonal) else None
    now = data.loc[data["i"] == data["j"], "ndcg"]
    description = t(
        "explore.swap.description",
        k=k,
        count=len(off_diagonal) // 2,
        best_i=int(best["i"]) if best is not None else "–",
        best_j=int(best["j"]) if best is not None else "–",
        best=f"{best['ndcg']:.4f}" if best is not None else "–",
        worst_i=int(worst["i"]) if worst is not None else "–",
        worst_j=int(worst["j"]) if worst is not None else "–",
        worst=f"{worst['ndcg']:.4f}" if worst is not None else "–",
        now=f"{now.iloc[0]:.4f}" if len(now) else "–",
    )
    return picked, texts, reach, font_size, description


def swap_heatmap(
    data: pd.DataFrame, t: Translate, *, k: int, chosen: tuple[int, int] | None, n: int
) -> alt.LayerChart:
    """nDCG@k after each swap: cells coloured by the change (diverging, white = none), values
    written in the cells for small lists, the chosen swap outlined."""
    picked, texts, reach, font_size, description = _heatmap_parts(data, t, k, chosen, n)
    return _heatmap_layers(data, picked, texts, reach, font_size, chosen is not None).properties(
        description=description
    )


@lru_cache(maxsize=64)
def _heatmap_template(
    texts: tuple[str, ...], reach: float, font_size: int | None, with_pick: bool
) -> dict[str, Any]:
    cells, picked = alt.NamedData(name="cells"), alt.NamedData(name="picked")
    return _template(_heatmap_layers(cells, picked, texts, reach, font_size, with_pick))


def swap_heatmap_spec(
    data: pd.DataFrame, t: Translate, *, k: int, chosen: tuple[int, int] | None, n: int
) -> dict[str, Any]:
    """:func:`swap_heatmap` as a Vega-Lite dict for ``st.vega_lite_chart`` (a template cached
    on its texts and shape: a rerun on the same ranking, another swap chosen, reuses it)."""
    picked, texts, reach, font_size, description = _heatmap_parts(data, t, k, chosen, n)
    datasets = {"cells": data} if chosen is None else {"cells": data, "picked": picked}
    return _filled(_heatmap_template(texts, reach, font_size, chosen is not None), datasets, description)


def orderings_histogram(dist: nc.PermutationDistribution, t: Translate) -> alt.LayerChart:
    """Histogram of nDCG@k over orderings, the current ranking as a labelled vermillion rule."""
    k = dist.k
    data = pd.DataFrame({"ndcg": dist.values})
    x_title = t("explore.dist.axis_ndcg", k=k)
    bars = (
        alt.Chart(data)
        .transform_bin(["lo", "hi"], field="ndcg", bin=alt.Bin(maxbins=40))
        .transform_aggregate(count="count()", groupby=["lo", "hi"])
        .mark_bar(color=SKY, stroke=BLUE, strokeWidth=0.5)
        .encode(
            x=alt.X("lo:Q", bin="binned", title=x_title, scale=alt.Scale(domain=[0, 1])),
            x2="hi:Q",
            y=alt.Y("count:Q", title=t("explore.dist.axis_count")),
            tooltip=[
                alt.Tooltip("lo:Q", title="≥", format=".4f"),
                alt.Tooltip("hi:Q", title="<", format=".4f"),
                alt.Tooltip("count:Q", title=t("explore.dist.axis_count")),
            ],
        )
    )
    mark = pd.DataFrame(
        {"ndcg": [dist.current], "label": [t("explore.dist.marker")], "percentile": [dist.percentile]}
    )
    tip = [
        alt.Tooltip("label:N", title=" "),
        alt.Tooltip("ndcg:Q", title=x_title, format=".4f"),
        alt.Tooltip("percentile:Q", title=t("explore.dist.percentile"), format=".1f"),
    ]
    rule = (
        alt.Chart(mark)
        .mark_rule(color=VERMILLION, strokeWidth=3, strokeDash=[6, 3])
        .encode(x="ndcg:Q", tooltip=tip)
    )
    text = (
        alt.Chart(mark)
        # in the theme's text colour (vermillion is 3.87:1 on white), beside the vermillion rule
        .mark_text(align="right", dx=-6, dy=-6, baseline="top", fontWeight="bold", y=0)
        .encode(x="ndcg:Q", text="label:N", tooltip=tip)
    )
    description = t(
        "explore.dist.description",
        k=k,
        count=len(dist.values),
        current=f"{dist.current:.4f}",
        percentile=f"{dist.percentile:.1f}",
    )
    return _layer(bars, rule, _ink(text, "yours")).properties(
        height=280, title=t("explore.dist.chart_title", k=k), description=description
    )


_SLIDE_TEXTS = (
    "chosen",
    "other",
    "axis_d",
    "axis_ndcg",
    "row_d",
    "axis_to",
    "row_dcg",
    "row_ndcg",
    "chart_title",
)


def _slide_layers(data: Any, texts: tuple[str, ...]) -> alt.LayerChart:
    """nDCG@k against d over ``data`` (d, to_position, dcg, ndcg, mark)."""
    named = dict(zip(_SLIDE_TEXTS, texts, strict=True))
    x = alt.X("d:Q", title=named["axis_d"], axis=alt.Axis(tickMinStep=1, format="d"))
    y = alt.Y("ndcg:Q", title=named["axis_ndcg"], scale=alt.Scale(domain=[0, 1.05]))
    tip = [
        alt.Tooltip("d:Q", title=named["row_d"]),
        alt.Tooltip("to_position:Q", title=named["axis_to"]),
        alt.Tooltip("dcg:Q", title=named["row_dcg"], format=".4f"),
        alt.Tooltip("ndcg:Q", title=named["row_ndcg"], format=".4f"),
    ]
    return marked_line(
        data, x, y, tip, chosen=named["chosen"], other=named["other"], sizes=(220, 60)
    ).properties(height=260, title=named["chart_title"])


def _slide_parts(
    data: pd.DataFrame, t: Translate, item: str, k: int, chosen: int
) -> tuple[pd.DataFrame, tuple[str, ...], str]:
    """The slide chart's data (the chosen d marked), texts and description."""
    texts = tuple(t(f"explore.slide.{name}", item=item, k=k) for name in _SLIDE_TEXTS)
    c, o = texts[0], texts[1]
    marked = data.assign(mark=[c if d == chosen else o for d in data["d"]])
    values = "; ".join(f"d = {row.d}: {row.ndcg:.4f}" for row in marked.itertuples())
    return marked, texts, t("explore.slide.description", item=item, k=k, values=values)


def slide_chart(data: pd.DataFrame, t: Translate, *, item: str, k: int, chosen: int) -> alt.LayerChart:
    """nDCG@k against d, the chosen d as a large vermillion diamond."""
    marked, texts, description = _slide_parts(data, t, item, k, chosen)
    return _slide_layers(marked, texts).properties(description=description)


@lru_cache(maxsize=64)
def _slide_template(texts: tuple[str, ...]) -> dict[str, Any]:
    return _template(_slide_layers(alt.NamedData(name="slide"), texts))


def slide_spec(data: pd.DataFrame, t: Translate, *, item: str, k: int, chosen: int) -> dict[str, Any]:
    """:func:`slide_chart` as a Vega-Lite dict for ``st.vega_lite_chart`` (cached template)."""
    marked, texts, description = _slide_parts(data, t, item, k, chosen)
    return _filled(_slide_template(texts), {"slide": marked}, description)


# --- files: a chart as PNG or SVG, and the download buttons under charts ----------------


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
    # the view size Altair's default theme gives ``to_dict()``, which a template (drawn as
    # Streamlit draws Altair charts, without a theme) has not: an image is the same whether a
    # page passes the chart or its template
    spec.setdefault("config", {"view": {"continuousWidth": 300, "continuousHeight": 300}})
    if fmt == "png":
        return vlc.vegalite_to_png(spec, scale=scale)
    if fmt == "svg":
        return vlc.vegalite_to_svg(spec).encode("utf-8")
    raise ValueError(f"fmt must be 'png' or 'svg', got {fmt!r}")


def _lang() -> str:
    import streamlit as st

    lang: str = st.session_state.get("lab.lang", i18n.DEFAULT_LANGUAGE)
    return lang


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
                data=partial(chart_image, chart, fmt),
                file_name=f"{name}.{fmt}",
                mime=mime,
                key=f"lab.chart_{fmt}.{name}",
                on_click="ignore",
                icon=":material/download:",
                type="tertiary",
            )


# --- why @k: nDCG of growing lists (ndcg_teach.questions.length_drift) ----------------------


def length_drift_chart(data: pd.DataFrame, t: Translate, *, k: int, height: int = 300) -> alt.LayerChart:
    """nDCG without a cutoff and nDCG@k against the list's length (log scale), for the list in
    its order (blue) and shuffled (orange); solid without a cutoff, dashed at k.

    ``data``: the columns of :func:`ndcg_teach.questions.length_drift`.
    """
    orders = [t("blind_spots.drift.order_pattern"), t("blind_spots.drift.order_shuffled")]
    measures = [t("blind_spots.drift.measure_all"), t("blind_spots.drift.measure_k", k=k)]
    long = pd.concat(
        [
            pd.DataFrame(
                {
                    "length": data["length"],
                    "order": data["order"].map({"pattern": orders[0], "shuffled": orders[1]}),
                    "measure": measures[i],
                    "value": data[column],
                }
            )
            for i, column in enumerate(("ndcg", "ndcg_k"))
        ],
        ignore_index=True,
    )
    enc = dict(
        x=alt.X("length:Q", title=t("blind_spots.drift.chart_length"), scale=alt.Scale(type="log")),
        y=alt.Y("value:Q", title="nDCG", scale=alt.Scale(domain=[0, 1.05])),
        color=alt.Color(
            "order:N",
            scale=alt.Scale(domain=orders, range=[BLUE, ORANGE]),
            title=t("blind_spots.drift.chart_order"),
            legend=alt.Legend(orient="top"),
        ),
        strokeDash=alt.StrokeDash(
            "measure:N",
            scale=alt.Scale(domain=measures, range=[[1, 0], [6, 4]]),
            title=t("blind_spots.drift.chart_measure"),
            legend=alt.Legend(
                orient="top",
                symbolType="stroke",
                symbolStrokeWidth=3,
                symbolStrokeColor=NEUTRAL,
                symbolSize=400,  # a 20 px sample: two dashes of the dashed line
            ),
        ),
        detail="measure:N",
        tooltip=[
            alt.Tooltip("order:N", title=t("blind_spots.drift.chart_order")),
            alt.Tooltip("measure:N", title=t("blind_spots.drift.chart_measure")),
            alt.Tooltip("length:Q", title=t("blind_spots.drift.chart_length")),
            alt.Tooltip("value:Q", title="nDCG", format=".4f"),
        ],
    )
    line = alt.Chart(long).mark_line(strokeWidth=3).encode(**enc)
    # the measure's dash is the lines' alone: shared with the filled points, the legend drew its
    # line samples without a stroke (an empty "Measure" legend)
    points = (
        alt.Chart(long)
        .mark_point(filled=True, size=60)
        .encode(**{k: v for k, v in enc.items() if k != "strokeDash"})
    )
    longest = data[data["length"] == data["length"].max()].set_index("order")
    description = t(
        "blind_spots.drift.chart_description",
        k=k,
        shortest=int(data["length"].min()),
        longest=int(data["length"].max()),
        pattern_all=f"{float(longest.loc['pattern', 'ndcg']):.4f}",
        shuffled_all=f"{float(longest.loc['shuffled', 'ndcg']):.4f}",
        pattern_k=f"{float(longest.loc['pattern', 'ndcg_k']):.4f}",
        shuffled_k=f"{float(longest.loc['shuffled', 'ndcg_k']):.4f}",
    )
    return _layer(line, points).properties(
        height=height, title=t("blind_spots.drift.chart_title"), description=description
    )
