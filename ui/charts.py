"""Altair chart builders: plain functions from the core's DataFrames to chart specs.

Every builder takes a core DataFrame and a translate function ``t`` (axis titles, legends and
tooltips come from ``locales/*/charts.toml``), reshapes columns for plotting only (no metric
arithmetic), and returns an ``altair`` chart. Conventions: the Okabe-Ito palette (colour-blind
safe), a tooltip on every mark, colour never the only carrier of meaning (legends, shapes and
fills repeat it), and a ``description`` in words with the chart's numbers (vega-embed makes it
the chart's aria-label, the text alternative a screen reader reads).

Speed: building and validating an Altair chart costs tens of milliseconds, too much for a page
that redraws after every drag. So each chart is built once per language and shape as a
Vega-Lite *template* over named datasets (:func:`functools.lru_cache`), and the ``*_spec``
functions only attach the current data: pass their result to ``st.vega_lite_chart``. The
``*_chart`` functions return the same chart as an Altair object with its data, for pages and
tests that want Altair.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import altair as alt
import pandas as pd

import ndcg_core as nc

from .classroom import NEUTRAL
from .state import format_grade

Translate = Callable[..., str]

#: Okabe-Ito colours (lines drawn on the page in either theme use ``classroom.NEUTRAL``).
BLUE, ORANGE, GREEN, PINK, SKY, VERMILLION, YELLOW = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
)
#: Okabe-Ito's black: ink on the light cells of a chart (never a line on the page itself).
BLACK = "#000000"

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
    return alt.layer(bar_layer, line_layer).resolve_scale(y="independent").properties(height=height)


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
    chart = _discount_layers(alt.NamedData(name="bars"), alt.NamedData(name="base"), named, discount, height)
    return chart.to_dict()  # validated once, here


def discount_spec(
    table: pd.DataFrame, t: Translate, *, discount: str = "log2", height: int = 280
) -> dict[str, Any]:
    """:func:`discount_chart` as a Vega-Lite dict for ``st.vega_lite_chart`` (cached template)."""
    texts = _texts(t, _DISCOUNT_TEXTS)
    bars, base = _discount_data(table, dict(zip(_DISCOUNT_TEXTS, texts, strict=False)))
    spec = copy.deepcopy(_discount_template(texts, discount, height))
    spec["datasets"] = {"bars": bars, "base": base}
    spec["description"] = discount_description(table, t)
    return spec


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
    return alt.layer(line, points)


def _by_k_layers(data: Any, texts: dict[str, str], last: int, height: int) -> alt.LayerChart:
    chosen, other = texts["chosen_k"], texts["other_k"]
    x = alt.X(
        "k:Q",
        title=texts["k"],
        scale=alt.Scale(domain=[0.5, last + 0.5], nice=False),
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
    return _by_k_layers(
        alt.NamedData(name="by_k"), dict(zip(_BY_K_TEXTS, texts, strict=False)), last, height
    ).to_dict()


def ndcg_by_k_spec(by_k: pd.DataFrame, t: Translate, *, current_k: int, height: int = 280) -> dict[str, Any]:
    """:func:`ndcg_by_k_chart` as a Vega-Lite dict for ``st.vega_lite_chart`` (cached template)."""
    texts = _texts(t, _BY_K_TEXTS)
    spec = copy.deepcopy(_by_k_template(texts, int(by_k["k"].iloc[-1]), height))
    spec["datasets"] = {"by_k": _by_k_data(by_k, dict(zip(_BY_K_TEXTS, texts, strict=False)), current_k)}
    spec["description"] = ndcg_by_k_description(by_k, t, current_k=current_k)
    return spec


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
    return alt.layer(bar, mean, current).properties(
        height=height, description=t("blind_spots.difficulty.chart_description", values=values)
    )
