"""The Explore page: what-if views of the shared ranking, computed by the core and cached.

- :func:`swap_section`: a heatmap of nDCG@k after swapping positions i and j
  (:func:`ndcg_core.steps.swap_matrix`), a chosen swap with its number, and "apply it";
- :func:`distribution_section`: nDCG@k over every ordering of the items (exact up to
  ``EXACT_LIMIT`` items, a seeded sample above; :func:`ndcg_core.steps.permutation_distribution`)
  with the current ranking marked and its percentile, after a predict-first guess;
- :func:`slide_section`: nDCG@k as one item slides down by d places
  (:func:`ndcg_core.steps.slide_down`), and the sentence of :func:`ndcg_core.steps.describe_change`.

The expensive calls are cached with ``st.cache_data`` on pure inputs (the ranking as tuples), and
a progress bar shows while a large list is computed. No metric arithmetic here: filtering,
sorting and formatting the core's frames only.
"""

from __future__ import annotations

from dataclasses import dataclass

import altair as alt
import pandas as pd
import streamlit as st

import ndcg_core as nc
from ndcg_core.steps import (
    PermutationDistribution,
    describe_change,
    permutation_distribution,
    slide_down,
    swap_matrix,
)

from .charts import BLACK, BLUE, SKY, VERMILLION, marked_line
from .classroom import chart_downloads
from .frame import Frame, get_ranking, set_ranking
from .predict import Question, ask
from .state import Ranking, format_grade
from .text import md_escape
from .widgets import data_table

#: Every ordering is enumerated up to this many items; above, a seeded sample is drawn.
EXACT_LIMIT = 8
SAMPLES = 20_000
SAMPLE_SEED = 0
#: Cell values are written in the heatmap up to this many items.
TEXT_LIMIT = 10


@st.cache_data(show_spinner=False, max_entries=64)
def swaps(
    relevance: tuple[float, ...], labels: tuple[str, ...], k: int | None, gain: str, discount: str
) -> pd.DataFrame:
    """:func:`ndcg_core.steps.swap_matrix`, cached on the ranking."""
    return swap_matrix(list(relevance), k=k, gain=gain, discount=discount, labels=list(labels))


@st.cache_data(show_spinner=False, max_entries=32)
def distribution(
    relevance: tuple[float, ...], k: int | None, gain: str, discount: str
) -> PermutationDistribution:
    """:func:`ndcg_core.steps.permutation_distribution`, cached on the ranking."""
    return permutation_distribution(
        list(relevance),
        k=k,
        gain=gain,
        discount=discount,
        max_exact=EXACT_LIMIT,
        samples=SAMPLES,
        seed=SAMPLE_SEED,
    )


@st.cache_data(show_spinner=False, max_entries=64)
def slides(
    relevance: tuple[float, ...], position: int, k: int | None, gain: str, discount: str
) -> pd.DataFrame:
    """:func:`ndcg_core.steps.slide_down`, cached on the ranking and the position."""
    return slide_down(list(relevance), position=position, k=k, gain=gain, discount=discount)


@dataclass(frozen=True, slots=True)
class Views:
    """The core's what-if frames of one ranking."""

    metrics: nc.Metrics
    swaps: pd.DataFrame
    distribution: PermutationDistribution


def compute(frame: Frame) -> Views:
    """Every view of the ranking, with a progress bar when the list is long (sampled)."""
    r = frame.ranking
    opts = (r.k, r.gain, r.discount)
    bar = st.progress(0, text=frame.t("explore.computing", n=r.n)) if r.n > EXACT_LIMIT else None
    m = nc.metrics(list(r.relevance), **r.options())
    sw = swaps(r.relevance, r.labels, *opts)
    if bar is not None:
        bar.progress(40, text=frame.t("explore.computing", n=r.n))
    dist = distribution(r.relevance, *opts)
    if bar is not None:
        bar.progress(100, text=frame.t("explore.computing", n=r.n))
        bar.empty()
    return Views(m, sw, dist)


def card(label: str, grade: float) -> str:
    """ "D1 · 3"."""
    return f"{label} · {format_grade(grade)}"


def ranking_line(ranking: Ranking) -> str:
    """The ranking as one line of cards (user text: escape before Markdown)."""
    return "  ›  ".join(card(x, g) for x, g in zip(ranking.labels, ranking.relevance, strict=False))


def header(frame: Frame, views: Views) -> None:
    """The current ranking and its nDCG@k."""
    t = frame.t
    c1, c2 = st.columns([3, 1])
    c1.markdown(t("explore.current", ranking=md_escape(ranking_line(frame.ranking))))
    c2.metric(t("explore.current_metric", k=views.metrics.k), f"{views.metrics.ndcg:.4f}", border=True)


# --- swaps --------------------------------------------------------------------------------


def heatmap(
    data: pd.DataFrame, frame: Frame, *, k: int, chosen: tuple[int, int] | None, n: int
) -> alt.LayerChart:
    """nDCG@k after each swap: cells coloured by the change (diverging, white = none), values
    written in the cells for small lists, the chosen swap outlined."""
    t = frame.t
    # one symmetric colour scale, so a small loss does not look as strong as a large gain
    reach = max(float(data["delta"].abs().max()), 1e-6)
    x = alt.X("j:O", title=t("explore.swap.axis_j"), axis=alt.Axis(labelAngle=0, orient="top"))
    y = alt.Y("i:O", title=t("explore.swap.axis_i"))
    tooltip = [
        alt.Tooltip("i:O", title=t("explore.swap.row_i")),
        alt.Tooltip("item_i:N", title=t("explore.swap.row_item_i")),
        alt.Tooltip("j:O", title=t("explore.swap.row_j")),
        alt.Tooltip("item_j:N", title=t("explore.swap.row_item_j")),
        alt.Tooltip("ndcg:Q", title=t("explore.swap.row_ndcg"), format=".4f"),
        alt.Tooltip("delta:Q", title=t("explore.swap.row_delta"), format="+.4f"),
    ]
    cells = (
        alt.Chart(data)
        .mark_rect(stroke="#BBBBBB", strokeWidth=0.5)
        .encode(
            x=x,
            y=y,
            tooltip=tooltip,
            color=alt.Color(
                "delta:Q",
                title=t("explore.swap.legend"),
                scale=alt.Scale(
                    domain=[-reach, 0, reach], range=[VERMILLION, "#FFFFFF", BLUE], interpolate="rgb"
                ),
                legend=alt.Legend(orient="bottom", format="+.2f"),
            ),
        )
    )
    layers: list[alt.Chart] = [cells]
    if n <= TEXT_LIMIT:
        # white text only on the darker blue cells (black on blue falls below 4.5:1 there)
        layers.append(
            alt.Chart(data)
            .mark_text(fontSize=11 if n > 6 else 13)
            .encode(
                x=x,
                y=y,
                color=alt.condition(
                    f"datum.delta > {0.55 * reach!r}", alt.value("#FFFFFF"), alt.value(BLACK)
                ),
                text=alt.Text("ndcg:Q", format=".2f"),
                tooltip=tooltip,
            )
        )
    if chosen is not None:
        i, j = chosen
        picked = data[((data["i"] == i) & (data["j"] == j)) | ((data["i"] == j) & (data["j"] == i))]
        layers.append(
            alt.Chart(picked)
            .mark_rect(fillOpacity=0, stroke=BLACK, strokeWidth=3)
            .encode(x=x, y=y, tooltip=tooltip)
        )
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
    return alt.layer(*layers).properties(description=description)


def _swap_order(n: int, i: int, j: int) -> list[int]:
    order = list(range(n))
    order[i - 1], order[j - 1] = order[j - 1], order[i - 1]
    return order


def _apply_swap(i: int, j: int) -> None:
    ranking = get_ranking()
    if 1 <= i <= ranking.n and 1 <= j <= ranking.n:
        set_ranking(ranking.with_order(_swap_order(ranking.n, i, j)))


def _swap_table(rows: pd.DataFrame, frame: Frame) -> pd.DataFrame:
    t = frame.t
    return pd.DataFrame(
        {
            t("explore.swap.row_swap"): [
                f"{a} ({i}) ↔ {b} ({j})"
                for a, i, b, j in zip(rows["item_i"], rows["i"], rows["item_j"], rows["j"], strict=False)
            ],
            t("explore.swap.row_ndcg"): rows["ndcg"].to_numpy(),
            t("explore.swap.row_delta"): rows["delta"].to_numpy(),
        }
    )


def _style(table: pd.DataFrame) -> object:
    cols = list(table.columns)
    return table.style.format({cols[1]: "{:.4f}", cols[2]: "{:+.4f}"})


def swap_section(frame: Frame, views: Views) -> None:
    """The swap heatmap, one chosen swap (number + outline + apply), best and worst swaps."""
    t = frame.t
    r = frame.ranking
    k = views.metrics.k
    st.subheader(t("explore.swap.title"))
    st.markdown(t("explore.swap.how", k=k))
    positions = list(range(1, r.n + 1))
    fmt = {p: f"{p} · {card(r.labels[p - 1], r.relevance[p - 1])}" for p in positions}
    for key, default in (("explore.swap_i", 1), ("explore.swap_j", min(2, r.n))):
        if st.session_state.get(key) not in positions:
            st.session_state[key] = default
    c1, c2, c3 = st.columns([1, 1, 1])
    i = c1.selectbox(
        t("explore.swap.first"),
        positions,
        format_func=fmt.__getitem__,
        key="explore.swap_i",
        placeholder=t("common.choose"),
        filter_mode=None,
    )
    j = c2.selectbox(
        t("explore.swap.second"),
        positions,
        format_func=fmt.__getitem__,
        key="explore.swap_j",
        placeholder=t("common.choose"),
        filter_mode=None,
    )
    data = views.swaps
    if i == j:
        c3.info(t("explore.swap.same"))
    else:
        row = data[(data["i"] == i) & (data["j"] == j)].iloc[0]
        c3.metric(
            t("explore.swap.after", k=k),
            f"{row['ndcg']:.4f}",
            delta=f"{row['delta']:+.4f}",
            delta_color="normal" if abs(row["delta"]) >= 5e-5 else "off",
            border=True,
        )
        c3.button(
            t("explore.swap.apply"),
            key="explore.apply_swap",
            on_click=_apply_swap,
            args=(i, j),
            icon=":material/swap_vert:",
        )
    c1, c2 = st.columns([3, 2])
    chart = heatmap(data, frame, k=k, chosen=None if i == j else (i, j), n=r.n)
    c1.altair_chart(chart, width="stretch", height=min(640, 40 * r.n + 150))
    with c1:
        chart_downloads(chart, "explore_swaps", lang=frame.lang)
    if r.n > TEXT_LIMIT:
        c1.caption(t("explore.swap.values_hidden", limit=TEXT_LIMIT))
    pairs = data[data["i"] < data["j"]]
    effect = pairs["delta"].map(lambda delta: nc.compare_values(delta, 0.0))
    helpful = pairs[effect == "higher"]
    harmful = pairs[effect == "lower"]
    with c2:
        st.markdown(f"**{t('explore.swap.best')}**")
        if helpful.empty:
            st.caption(t("explore.swap.none_helpful"))
        else:
            best = helpful.sort_values(
                ["delta", "i", "j"], ascending=[False, True, True], kind="stable"
            ).head(5)
            data_table(_style(_swap_table(best, frame)), key="explore.best_table")
        st.markdown(f"**{t('explore.swap.worst')}**")
        if harmful.empty:
            st.caption(t("explore.swap.none_harmful"))
        else:
            worst = harmful.sort_values(
                ["delta", "i", "j"], ascending=[True, True, True], kind="stable"
            ).head(5)
            data_table(_style(_swap_table(worst, frame)), key="explore.worst_table")


# --- distribution ---------------------------------------------------------------------------

GUESSES: tuple[str, ...] = ("low", "mid", "high")


def guess_bucket(percentile: float) -> str:
    """Which guess a percentile (from the core) falls in: "low" < 50 <= "mid" <= 90 < "high"."""
    if percentile < 50:
        return "low"
    return "mid" if percentile <= 90 else "high"


def histogram(dist: PermutationDistribution, frame: Frame) -> alt.LayerChart:
    """Histogram of nDCG@k over orderings, the current ranking as a labelled vermillion rule."""
    t = frame.t
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
        .mark_text(align="right", dx=-6, dy=-6, baseline="top", color=VERMILLION, fontWeight="bold", y=0)
        .encode(x="ndcg:Q", text="label:N", tooltip=tip)
    )
    description = t(
        "explore.dist.description",
        k=k,
        count=len(dist.values),
        current=f"{dist.current:.4f}",
        percentile=f"{dist.percentile:.1f}",
    )
    return alt.layer(bars, rule, text).properties(
        height=280, title=t("explore.dist.chart_title", k=k), description=description
    )


def distribution_section(frame: Frame, views: Views) -> None:
    """Predict the percentile, then see the distribution, the percentile and the mean."""
    t = frame.t
    dist = views.distribution
    st.subheader(t("explore.dist.title"))
    value = f"{dist.percentile:.1f}"
    q = Question(
        t("explore.dist.question"),
        {g: t(f"explore.dist.guess_{g}") for g in GUESSES},
        guess_bucket(dist.percentile),
        t("explore.dist.reveal", value=value),
    )
    if not ask("explore.guess", q, t, show_me=True, horizontal=True):
        return
    if dist.exact:
        st.caption(t("explore.dist.exact", count=f"{dist.values.size:,}", n=frame.ranking.n))
    else:
        st.caption(
            t("explore.dist.sampled", count=f"{dist.values.size:,}", seed=SAMPLE_SEED, n=frame.ranking.n)
        )
    c1, c2 = st.columns(2)
    c1.metric(t("explore.dist.percentile"), f"{value} %", help=t("explore.dist.percentile_help"), border=True)
    c2.metric(
        t("explore.dist.mean", k=dist.k), f"{dist.mean:.4f}", help=t("explore.dist.mean_help"), border=True
    )
    c3, c4 = st.columns(2)
    c3.metric(t("explore.dist.worst"), f"{dist.worst:.4f}", border=True)
    c4.metric(t("explore.dist.best"), f"{dist.best:.4f}", border=True)
    chart = histogram(dist, frame)
    st.altair_chart(chart, width="stretch", height=340)
    chart_downloads(chart, "explore_all_orderings", lang=frame.lang)


# --- slide down -----------------------------------------------------------------------------


def _slide_order(n: int, position: int, d: int) -> list[int]:
    order = list(range(n))
    order.insert(position - 1 + d, order.pop(position - 1))
    return order


def slide_chart(data: pd.DataFrame, frame: Frame, *, item: str, k: int, chosen: int) -> alt.LayerChart:
    """nDCG@k against d, the chosen d as a large vermillion diamond."""
    t = frame.t
    c, o = t("explore.slide.chosen"), t("explore.slide.other")
    data = data.assign(mark=[c if d == chosen else o for d in data["d"]])
    x = alt.X("d:Q", title=t("explore.slide.axis_d"), axis=alt.Axis(tickMinStep=1, format="d"))
    y = alt.Y("ndcg:Q", title=t("explore.slide.axis_ndcg", k=k), scale=alt.Scale(domain=[0, 1.05]))
    tip = [
        alt.Tooltip("d:Q", title=t("explore.slide.row_d")),
        alt.Tooltip("to_position:Q", title=t("explore.slide.axis_to")),
        alt.Tooltip("dcg:Q", title=t("explore.slide.row_dcg"), format=".4f"),
        alt.Tooltip("ndcg:Q", title=t("explore.slide.row_ndcg"), format=".4f"),
    ]
    values = "; ".join(f"d = {row.d}: {row.ndcg:.4f}" for row in data.itertuples())
    return marked_line(data, x, y, tip, chosen=c, other=o, sizes=(220, 60)).properties(
        height=260,
        title=t("explore.slide.chart_title", item=item, k=k),
        description=t("explore.slide.description", item=item, k=k, values=values),
    )


def slide_section(frame: Frame) -> None:
    """Choose an item and a distance; the chart, the table and the sentence follow."""
    t = frame.t
    r = frame.ranking
    st.subheader(t("explore.slide.title"))
    st.markdown(t("explore.slide.how"))
    positions = list(range(1, r.n))
    if st.session_state.get("explore.slide_from") not in positions:
        st.session_state["explore.slide_from"] = 1
    c1, c2 = st.columns(2)
    p = c1.selectbox(
        t("explore.slide.from"),
        positions,
        key="explore.slide_from",
        placeholder=t("common.choose"),
        filter_mode=None,
        format_func=lambda q: f"{q} · {card(r.labels[q - 1], r.relevance[q - 1])}",
    )
    most = r.n - p
    d_key = f"explore.slide_d.{p}.{r.n}"
    d = c2.slider(t("explore.slide.distance"), 0, most, min(2, most), key=d_key)
    data = slides(r.relevance, p, r.k, r.gain, r.discount)
    moved = r.with_order(_slide_order(r.n, p, d))
    change = describe_change(
        list(r.relevance), list(moved.relevance), list(r.labels), list(moved.labels), **r.options()
    )
    before, after = f"{change.ndcg_before:.4f}", f"{change.ndcg_after:.4f}"
    if d == 0:
        st.markdown(t("explore.slide.stay", k=change.k, before=before))
    else:
        st.markdown(
            t(
                f"explore.slide.effect_{change.effect}",
                item=md_escape(r.labels[p - 1]),
                from_position=change.from_position or p,
                to_position=change.to_position or p + d,
                k=change.k,
                before=md_escape(before),
                after=md_escape(after),
                delta=md_escape(f"{change.delta:+.4f}"),
            )
        )
    c1, c2 = st.columns([3, 2])
    chart = slide_chart(data, frame, item=r.labels[p - 1], k=change.k, chosen=d)
    c1.altair_chart(chart, width="stretch", height=320)
    with c1:
        chart_downloads(chart, "explore_slide_down", lang=frame.lang)
    table = pd.DataFrame(
        {
            t("explore.slide.row_d"): data["d"].to_numpy(),
            t("explore.slide.row_to"): data["to_position"].to_numpy(),
            t("explore.slide.row_dcg"): data["dcg"].to_numpy(),
            t("explore.slide.row_ndcg"): data["ndcg"].to_numpy(),
        }
    )
    cols = list(table.columns)
    c2.dataframe(
        table.style.format({cols[2]: "{:.4f}", cols[3]: "{:.4f}"}),
        hide_index=True,
        width="stretch",
        key="explore.slide_table",
    )
