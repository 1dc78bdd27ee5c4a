"""Altair chart builders: plain functions from the core's DataFrames to chart specs.

Every builder takes a core DataFrame and a translate function ``t`` (axis titles, legends and
tooltips come from ``locales/*/charts.toml``), reshapes columns for plotting only (no metric
arithmetic), and returns an ``altair`` chart. Conventions: the Okabe-Ito palette (colour-blind
safe), a tooltip on every mark, and colour never the only carrier of meaning (legends, shapes
and fills repeat it).
"""

from __future__ import annotations

from collections.abc import Callable

import altair as alt
import pandas as pd

Translate = Callable[..., str]

#: Okabe-Ito colours.
BLUE, ORANGE, GREEN, PINK, SKY, VERMILLION, YELLOW, BLACK = (
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000",
)


def discount_chart(table: pd.DataFrame, t: Translate, *, discount: str = "log2", height: int = 280) -> alt.LayerChart:
    """Per position: the discount 1/log2(i+1) (line) and the discounted gain, actual vs ideal (bars).

    ``table`` is :func:`ndcg_core.step_table`'s output. Actual bars are solid blue, ideal bars
    are light orange with an orange outline; positions beyond k are faded (and say so in the
    tooltip).
    """
    actual, ideal = t("charts.actual"), t("charts.ideal")
    within, beyond = t("charts.within_k"), t("charts.beyond_k")
    base = pd.DataFrame({
        "position": table["position"].to_numpy(),
        "discount": table["discount"].to_numpy(),
        "cutoff": [within if x else beyond for x in table["in_cutoff"]],
    })
    bars = pd.concat([
        base.assign(series=actual, item=table["item"].to_numpy(), grade=table["relevance"].to_numpy(),
                    gain=table["gain"].to_numpy(), value=table["discounted_gain"].to_numpy()),
        base.assign(series=ideal, item=table["ideal_item"].to_numpy(), grade=table["ideal_relevance"].to_numpy(),
                    gain=table["ideal_gain"].to_numpy(), value=table["ideal_discounted_gain"].to_numpy()),
    ], ignore_index=True)
    x = alt.X("position:O", title=t("charts.position"), axis=alt.Axis(labelAngle=0))
    series_scale = alt.Scale(domain=[actual, ideal], range=[BLUE, ORANGE])
    tooltip = [
        alt.Tooltip("position:O", title=t("charts.position")),
        alt.Tooltip("series:N", title=t("charts.ranking")),
        alt.Tooltip("item:N", title=t("charts.item")),
        alt.Tooltip("grade:Q", title=t("charts.grade"), format="~g"),
        alt.Tooltip("gain:Q", title=t("charts.gain"), format="~g"),
        alt.Tooltip("discount:Q", title=t("charts.discount"), format=".4f"),
        alt.Tooltip("value:Q", title=t("charts.discounted_gain"), format=".4f"),
        alt.Tooltip("cutoff:N", title=t("charts.cutoff")),
    ]
    bar_layer = alt.Chart(bars).mark_bar(strokeWidth=1.5).encode(
        x=x,
        xOffset=alt.XOffset("series:N", sort=[actual, ideal]),
        y=alt.Y("value:Q", title=t("charts.discounted_gain")),
        color=alt.Color("series:N", scale=series_scale, title=t("charts.ranking"),
                        legend=alt.Legend(orient="top")),
        stroke=alt.Stroke("series:N", scale=series_scale, legend=None),
        fillOpacity=alt.FillOpacity("series:N", scale=alt.Scale(domain=[actual, ideal], range=[0.9, 0.35]),
                                    legend=None),
        opacity=alt.condition(alt.datum.cutoff == within, alt.value(1.0), alt.value(0.35)),
        tooltip=tooltip,
    )
    line_title = t(f"charts.discount_{discount}")
    line_layer = alt.Chart(base).mark_line(color=BLACK, strokeDash=[4, 3], point=alt.OverlayMarkDef(
        color=BLACK, shape="diamond", size=60)).encode(
        x=x,
        y=alt.Y("discount:Q", title=t("charts.discount"), scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(orient="right")),
        tooltip=[
            alt.Tooltip("position:O", title=t("charts.position")),
            alt.Tooltip("discount:Q", title=line_title, format=".4f"),
            alt.Tooltip("cutoff:N", title=t("charts.cutoff")),
        ],
    )
    return alt.layer(bar_layer, line_layer).resolve_scale(y="independent").properties(height=height)


def ndcg_by_k_chart(by_k: pd.DataFrame, t: Translate, *, current_k: int, height: int = 280) -> alt.LayerChart:
    """nDCG@k for every k (line and points), the chosen k marked by a larger vermillion point.

    ``by_k`` is :func:`ndcg_core.steps.ndcg_at_each_k`'s output (columns k, dcg, idcg, ndcg).
    """
    chosen, other = t("charts.chosen_k"), t("charts.other_k")
    data = by_k.assign(mark=[chosen if k == current_k else other for k in by_k["k"]])
    last = int(by_k["k"].iloc[-1])
    x = alt.X("k:Q", title=t("charts.k"), scale=alt.Scale(domain=[0.5, last + 0.5], nice=False),
              axis=alt.Axis(tickMinStep=1, format="d"))
    y = alt.Y("ndcg:Q", title=t("charts.ndcg"), scale=alt.Scale(domain=[0, 1]))
    tooltip = [
        alt.Tooltip("k:Q", title=t("charts.k")),
        alt.Tooltip("dcg:Q", title=t("charts.dcg"), format=".4f"),
        alt.Tooltip("idcg:Q", title=t("charts.idcg"), format=".4f"),
        alt.Tooltip("ndcg:Q", title=t("charts.ndcg"), format=".4f"),
    ]
    line = alt.Chart(data).mark_line(color=BLUE).encode(x=x, y=y, tooltip=tooltip)
    points = alt.Chart(data).mark_point(filled=True).encode(
        x=x, y=y, tooltip=tooltip,
        color=alt.Color("mark:N", scale=alt.Scale(domain=[chosen, other], range=[VERMILLION, BLUE]),
                        title=None, legend=alt.Legend(orient="top")),
        shape=alt.Shape("mark:N", scale=alt.Scale(domain=[chosen, other], range=["diamond", "circle"]),
                        legend=None),
        size=alt.Size("mark:N", scale=alt.Scale(domain=[chosen, other], range=[180, 50]), legend=None),
    )
    return alt.layer(line, points).properties(height=height)
