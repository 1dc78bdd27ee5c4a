"""The charts drawn from cached templates (``ui.components.charts.*_spec``) are the pictures of
their Altair charts: for each call, in the order a page makes them, the template filled with the
call's data renders (vl-convert, offline) to the same SVG as the Altair chart drawn as Streamlit
draws it (``st.altair_chart``: no theme). A template cached under a key that misses a shape
parameter (the side of the histogram's mean label, whether k is marked, the runs' order, more
than 40 bars) draws the previous call's shape and fails here."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import altair as alt
import numpy as np
import pandas as pd
import pytest
import vl_convert as vlc

import ndcg_core as nc
from ndcg_core.steps import slide_down, swap_matrix
from ndcg_teach import questions
from ndcg_teach.tools import tool_scores
from ui.components import charts
from ui.framework import i18n, palette
from ui.framework.state import Ranking
from ui.views import blind_spots, variants


def _drawn(spec: dict[str, Any]) -> str:
    """The SVG of a spec, its gradients' ids (vl-convert numbers them in render order) unnumbered."""
    return re.sub(r"gradient_\d+", "gradient", str(vlc.vegalite_to_svg(charts._plain(spec))))


def _as_streamlit_draws(chart: Any) -> str:
    with alt.theme.enable("none"):
        return _drawn(chart.to_dict())


def _t(lang: str) -> Callable[..., str]:
    return functools.partial(i18n.translate, lang)


def _per_query(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"query": [f"q{i}" for i in range(n)], "ndcg": rng.random(n)})


def _same(chart: Any, spec: dict[str, Any]) -> None:
    assert spec["description"] == chart.to_dict()["description"]
    assert _drawn(spec) == _as_streamlit_draws(chart)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_histogram_template_draws_the_chart(lang):
    t = _t(lang)
    # the mean on the right half (label to its left), on the left half, then undefined (no line)
    for n, mean in ((12, 0.8), (12, 0.2), (3, float("nan"))):
        per_query = _per_query(n, seed=n)
        _same(
            charts.run_histogram(per_query, mean, k="10", t=t),
            charts.run_histogram_spec(per_query, mean, k="10", t=t),
        )


def test_mean_by_k_template_draws_the_chart():
    t = _t("en")
    ks = range(1, 21)
    curve = pd.DataFrame({"k": list(ks), "ndcg": np.linspace(0.3, 0.9, 20)})
    for k in (5, None, 30):  # marked, no k, a k past the curve's
        _same(charts.mean_by_k_chart(curve, k, ks=ks, t=t), charts.mean_by_k_spec(curve, k, ks=ks, t=t))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_distribution_template_draws_the_chart(lang):
    t = _t(lang)
    for runs in (["base", "run <b>"], ["run <b>", "base", "third"]):  # another order, another run
        per_query = pd.concat(
            [
                _per_query(8, seed=i).rename(columns={"ndcg": "ndcg@10"}).assign(run=run)
                for i, run in enumerate(runs)
            ]
        )
        means = per_query.groupby("run", sort=False)["ndcg@10"].mean().reset_index()
        _same(
            charts.distribution_chart(per_query, means, t, measure="nDCG@10", column="ndcg@10"),
            charts.distribution_spec(per_query, means, t, measure="nDCG@10", column="ndcg@10"),
        )


def test_difference_template_draws_the_chart_in_the_cores_order():
    t = _t("en")
    for n in (6, 45):  # query names under the bars, then too many for them
        rng = np.random.default_rng(n)
        differences = pd.DataFrame(
            {"query": [f"q{i}" for i in range(n)], "difference": rng.normal(0, 0.2, n)}
        )
        differences.loc[1, "difference"] = 0.0
        differences = differences.sort_values("difference", ascending=False, kind="stable")
        options: dict[str, Any] = {
            "run": "run <b>",
            "baseline": "base",
            "measure": "nDCG@10",
            "counts": (3, 1, 2),
            "mean": 0.0123,
        }
        spec = charts.difference_spec(differences, t, **options)
        _same(charts.difference_chart(differences, t, **options), spec)
        if n < 40:  # the bars left to right in the core's order: the axis labels as drawn
            drawn = _drawn(spec)
            labels = sorted(differences["query"], key=lambda query: drawn.index(f">{query}<"))
            assert labels == differences["query"].tolist()


def test_swap_heatmap_template_draws_the_chart():
    t = _t("zh")
    # values written large, then small, then not at all (another colour reach each time); a
    # swap chosen or not
    cases = (([3, 2, 0, 0, 1], None), ([3, 2, 0, 0, 1], (1, 2)), ([1, 2, 0, 3, 0, 2, 1, 0], (2, 8)))
    for relevance, chosen in (*cases, ([3, 2, 3, 0, 1, 2, 3, 0, 0, 1, 2, 1], None)):
        n = len(relevance)
        data = swap_matrix(relevance, k=3, labels=[f"D{i + 1}" for i in range(n)])
        _same(
            charts.swap_heatmap(data, t, k=3, chosen=chosen, n=n),
            charts.swap_heatmap_spec(data, t, k=3, chosen=chosen, n=n),
        )


def test_slide_template_draws_the_chart():
    t = _t("en")
    for position, chosen in ((1, 0), (1, 4), (2, 1)):  # another item, another d chosen
        data = slide_down([3, 2, 0, 0, 1], position=position, k=3)
        item = f"D{position}"
        _same(
            charts.slide_chart(data, t, item=item, k=3, chosen=chosen),
            charts.slide_spec(data, t, item=item, k=3, chosen=chosen),
        )


def test_calculator_and_lesson_templates_draw_the_charts():
    t = _t("en")
    for relevance, k, discount in (([3, 2, 0, 0, 1], 3, "log2"), ([1, 0, 2], 2, "jarvelin")):
        table = nc.step_table(relevance, k=k)
        _same(
            charts.discount_chart(table, t, discount=discount),
            charts.discount_spec(table, t, discount=discount),
        )
        by_k = nc.ndcg_at_each_k(relevance)
        _same(charts.ndcg_by_k_chart(by_k, t, current_k=k), charts.ndcg_by_k_spec(by_k, t, current_k=k))


def test_tools_template_draws_the_chart():
    t = _t("zh")
    for scores, k in ((None, 5), ([0.9, 0.7, 0.7, 0.4, 0.1], 3)):  # another k, ties in the scores
        tools = tool_scores([3, 2, 0, 0, 1], scores, k=k, labels=["D1", "D2", "D3", "D4", "D5"])
        _same(charts.tools_chart(tools, t), charts.tools_spec(tools, t))


def test_a_template_image_is_the_charts_image():
    """The download buttons get the template: its image is the Altair chart's (Altair's default
    view size included), so a download is the same whichever form the page holds."""
    t = _t("en")
    per_query = _per_query(12, seed=1)
    chart = charts.run_histogram(per_query, 0.4, k="5", t=t)
    spec = charts.run_histogram_spec(per_query, 0.4, k="5", t=t)
    assert charts.chart_image(spec, "svg") == charts.chart_image(chart, "svg")


def _rgb_hex(fill: str) -> str:
    """``#RRGGBB`` of an SVG fill written ``#rrggbb`` or ``rgb(r, g, b)``."""
    if fill.startswith("#"):
        return fill.upper()
    return "#" + "".join(f"{int(c):02X}" for c in re.findall(r"\d+", fill)[:3])


@pytest.mark.parametrize("relevance", [[3, 2, 0, 0, 1], [0, 0, 1, 2, 3], [1, 2, 0, 3, 0, 2, 1, 0]])
def test_swap_heatmap_values_are_readable_on_their_cells(relevance):
    """Each value written in a cell contrasts 4.5:1 with the cell's colour (WCAG AA), as Vega
    draws them (vl-convert's SVG: each cell's and each value's fill, matched by position). White
    was written from 55 % of the blue scale on, 2.3:1 on those cells."""
    n = len(relevance)
    data = swap_matrix(relevance, k=3, labels=[f"D{i + 1}" for i in range(n)])
    svg = str(
        vlc.vegalite_to_svg(charts._plain(charts.swap_heatmap_spec(data, _t("en"), k=3, chosen=None, n=n)))
    )
    where = r'aria-label="Position j \(column\): (\d+); Position i \(row\): (\d+);[^"]*"'
    cells = dict(
        ((j, i), fill)
        for j, i, fill in re.findall(where + r'[^>]*aria-roledescription="rect mark"[^>]*fill="([^"]+)"', svg)
    )
    values = re.findall(where + r'[^>]*aria-roledescription="text mark"[^>]*fill="([^"]+)"', svg)
    assert len(values) == len(cells) == n * n
    low = [
        (i, j, ink, cells[j, i], round(palette.contrast_ratio(_rgb_hex(ink), _rgb_hex(cells[j, i])), 2))
        for j, i, ink in values
        if palette.contrast_ratio(_rgb_hex(ink), _rgb_hex(cells[j, i])) < palette.TEXT_CONTRAST
    ]
    assert low == []
    assert {_rgb_hex(ink) for _, _, ink in values} <= {palette.BLACK, palette.WHITE}


def test_variants_by_k_discount_legend_reads_on_both_themes():
    """The discount's legend (the points' circle and square) was filled black: 1.1:1 on the dark
    theme's background. Each symbol as Vega draws it reads 3:1 (a graphic) on both themes."""
    t = _t("en")
    chart = charts.variants_by_k_chart(variants.by_k_frame(Ranking(), None, t), t)
    svg = str(vlc.vegalite_to_svg(charts._plain(chart.to_dict())))
    legends = svg.split('class="mark-group role-legend"')[1:]  # each legend, to the next one
    discount = next(g for g in legends if f"titled '{t('variants.chart_discount')}'" in g)
    fills = re.findall(r'role-legend-symbol"[^>]*><path[^>]*fill="([^"]+)"', discount)
    assert len(fills) == 2
    for fill in fills:
        for theme in palette.THEMES.values():
            assert palette.contrast_ratio(fill, theme["background"]) >= palette.MARK_CONTRAST, fill


def test_length_drift_measure_legend_draws_its_line_samples():
    """Blind spots' "Why @k at all?": the measure's legend (solid: the whole list, dashed: @k)
    shows a stroked line sample each, as Vega draws it; with the dash shared by the filled
    points its samples had no stroke (an empty legend, seen in Chromium)."""

    data = questions.length_drift(blind_spots.LONG_MIXED, (5, 10, 20), k=blind_spots.DRIFT_K)
    chart = charts.length_drift_chart(data, _t("en"), k=blind_spots.DRIFT_K)
    svg = str(vlc.vegalite_to_svg(charts._plain(chart.to_dict())))
    symbols = re.findall(r'<g class="mark-symbol role-legend-symbol[^"]*"[^>]*>(.*?)</g>', svg)
    dashed = [s for s in symbols if "stroke-dasharray" in s]
    assert len(dashed) == 2
    assert all(f'stroke="{palette.NEUTRAL}"' in s and 'stroke-width="3"' in s for s in dashed)


def _lists_by_k() -> Any:
    data = pd.concat(
        [nc.ndcg_at_each_k([3]).assign(list="List A"), nc.ndcg_at_each_k([3, 0, 0]).assign(list="List B")],
        ignore_index=True,
    )
    return charts.lists_by_k_chart(data, _t("en"), names=["List A", "List B"])


def _mean_by_k() -> Any:
    curve = pd.DataFrame({"k": list(range(1, 21)), "ndcg": np.linspace(0.3, 0.9, 20)})
    return charts.mean_by_k_chart(curve, 5, ks=range(1, 21), t=_t("en"))


def _variants_by_k() -> Any:
    t = _t("en")
    return charts.variants_by_k_chart(variants.by_k_frame(Ranking(), None, t), t)


#: Each chart of nDCG against k drawn with points: (builder, the number of points).
_K_CHARTS = {
    "blind_spots": (_lists_by_k, 4),
    "evaluate": (_mean_by_k, 20),
    "variants": (_variants_by_k, None),
}


@pytest.mark.parametrize("width", [300, 700])
@pytest.mark.parametrize("chart_id", list(_K_CHARTS))
def test_per_k_chart_points_stay_whole_inside_the_plot(chart_id, width):
    """Every chart of nDCG against k (Blind spots' tab 1: [3] against [3, 0, 0]; Evaluate's
    mean per k; Variants' lines), drawn by Vega at a phone's and a desktop's width: every point,
    its symbol's whole width, lies inside the plot. The x scales ended at the first and last k,
    so the end points were cut in half at the plot's edges (seen on a phone in Blind spots)."""
    build, count = _K_CHARTS[chart_id]
    svg = str(
        vlc.vegalite_to_svg(charts._plain(build().to_dict()) | {"width": width, "autosize": {"type": "fit"}})
    )
    plot = float(re.findall(r'role-axis-domain"[^>]*><line[^>]*x2="([\d.]+)" y2="0"', svg)[0])
    marks = re.findall(r'<g class="mark-symbol role-mark[^"]*"[^>]*>(.*?)</g>', svg)
    points = re.findall(r'transform="translate\(([\d.]+),[\d.]+\)" d="M(-?[\d.]+)', "".join(marks))
    assert points and (count is None or len(points) == count)
    for x, half in points:  # a circle's path starts at its radius, a square's at minus half its side
        assert abs(float(half)) <= float(x) <= plot - abs(float(half)), (x, half, plot)
