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

import re
from dataclasses import dataclass

import pandas as pd
import streamlit as st

import ndcg_core as nc
from ndcg_core.discounting import Discount
from ndcg_core.gains import Gain
from ndcg_core.steps import (
    PermutationDistribution,
    describe_change,
    permutation_distribution,
    slide_down,
    swap_matrix,
)
from ui.components.charts import (
    HEATMAP_TEXT_LIMIT,
    chart_downloads,
    orderings_histogram,
    slide_spec,
    swap_heatmap_spec,
)
from ui.components.predict import Question, ask
from ui.components.widgets import data_table
from ui.framework import messages, session
from ui.framework.shared import Frame, get_param, get_ranking, set_param, set_ranking, show_error
from ui.framework.state import Ranking, format_grade
from ui.framework.text import md_escape, signed

#: Every ordering is enumerated up to this many items; above, a seeded sample is drawn.
EXACT_LIMIT = 8
SAMPLES = 20_000
SAMPLE_SEED = 0
#: Cell values are written in the heatmap up to this many items.
TEXT_LIMIT = HEATMAP_TEXT_LIMIT


@st.cache_data(show_spinner=False, max_entries=64)
def swaps(
    relevance: tuple[float, ...], labels: tuple[str, ...], k: int | None, gain: Gain, discount: Discount
) -> pd.DataFrame:
    """:func:`ndcg_core.steps.swap_matrix`, cached on the ranking."""
    return swap_matrix(list(relevance), k=k, gain=gain, discount=discount, labels=list(labels))


@st.cache_data(show_spinner=False, max_entries=32)
def distribution(
    relevance: tuple[float, ...], k: int | None, gain: Gain, discount: Discount
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
    relevance: tuple[float, ...], position: int, k: int | None, gain: Gain, discount: Discount
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


#: The link parameter of the chosen swap ("1,4": positions 1 and 4), and its widgets' keys.
SWAP_PARAM = "swap"
SWAP_KEYS = ("explore.swap_i", "explore.swap_j")
_SWAP_READ = "explore.swap_from_link"
_SWAP_TEXT = re.compile(r"\s*(\d{1,9})\s*,\s*(\d{1,9})\s*", re.ASCII)


def parse_swap(text: str, n: int) -> tuple[int, int]:
    """The swap of a link: two positions from 1 to ``n`` ("1,4"; the same twice shows no swap).

    Raises ``NDCGInputError("swap_invalid")`` on anything else.

    >>> parse_swap("1,4", 5), parse_swap(" 2 , 2 ", 3)
    ((1, 4), (2, 2))
    """
    raw = str(text)
    match = _SWAP_TEXT.fullmatch(raw)
    if match is None:
        messages.fail("swap_invalid", n=n, got=repr(raw[:20]))
    i, j = int(match[1]), int(match[2])
    if not (1 <= i <= n and 1 <= j <= n):
        messages.fail("swap_invalid", n=n, got=repr(raw[:20]))
    return i, j


def _default_swap(n: int) -> tuple[int, int]:
    return 1, min(2, n)


def _seed_swap(n: int) -> nc.NDCGInputError | None:
    """Once a session: the chosen swap from the link; a refused value is dropped from the link
    and its error returned (the default swap is shown)."""
    if st.session_state.get(_SWAP_READ):
        return None
    st.session_state[_SWAP_READ] = True
    raw = get_param(SWAP_PARAM)
    if isinstance(raw, list):
        raw = raw[-1] if raw else None
    if raw is None:
        return None
    try:
        chosen = parse_swap(str(raw), n)
    except nc.NDCGInputError as err:
        set_param(SWAP_PARAM, None)
        return err
    for key, value in zip(SWAP_KEYS, chosen, strict=True):
        st.session_state[key] = value
        session.remember(key)
    return None


def _store_swap() -> None:
    """The chosen swap into the link (and kept for the session)."""
    for key in SWAP_KEYS:
        session.remember(key)
    i, j = (st.session_state.get(key) for key in SWAP_KEYS)
    set_param(SWAP_PARAM, f"{i},{j}")


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
    st.header(t("explore.swap.title"))
    st.markdown(t("explore.swap.how", k=k))
    positions = list(range(1, r.n + 1))
    fmt = {p: f"{p} · {card(r.labels[p - 1], r.relevance[p - 1])}" for p in positions}
    error = _seed_swap(r.n)
    if error is not None:
        show_error(frame.lang, error)
    for key, default in zip(SWAP_KEYS, _default_swap(r.n), strict=True):
        session.keep_widget(key, default)
        if st.session_state.get(key) not in positions:  # the ranking got shorter
            st.session_state[key] = default
            session.remember(key)
            set_param(SWAP_PARAM, None)
    for key in SWAP_KEYS:
        session.relabel(key, tuple(fmt.values()))
    c1, c2, c3 = st.columns([1, 1, 1])
    i = c1.selectbox(
        t("explore.swap.first"),
        positions,
        format_func=fmt.__getitem__,
        key="explore.swap_i",
        placeholder=t("common.choose"),
        filter_mode=None,
        on_change=_store_swap,
    )
    j = c2.selectbox(
        t("explore.swap.second"),
        positions,
        format_func=fmt.__getitem__,
        key="explore.swap_j",
        placeholder=t("common.choose"),
        filter_mode=None,
        on_change=_store_swap,
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
    chart = swap_heatmap_spec(data, frame.t, k=k, chosen=None if i == j else (i, j), n=r.n)
    c1.vega_lite_chart(chart, width="stretch", height=min(640, 40 * r.n + 150))
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


def distribution_section(frame: Frame, views: Views) -> None:
    """Predict the percentile, then see the distribution, the percentile and the mean."""
    t = frame.t
    dist = views.distribution
    st.header(t("explore.dist.title"))
    value = f"{dist.percentile:.1f}"
    q = Question(
        t("explore.dist.question"),
        {g: t(f"explore.dist.guess_{g}") for g in GUESSES},
        guess_bucket(dist.percentile),
        t("explore.dist.reveal", value=value),
        about=value,  # the percentile shown: a new ranking's is asked again
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
    chart = orderings_histogram(dist, frame.t)
    st.altair_chart(chart, width="stretch", height=340)
    chart_downloads(chart, "explore_all_orderings", lang=frame.lang)


# --- slide down -----------------------------------------------------------------------------


def _slide_order(n: int, position: int, d: int) -> list[int]:
    order = list(range(n))
    order.insert(position - 1 + d, order.pop(position - 1))
    return order


def slide_section(frame: Frame) -> None:
    """Choose an item and a distance; the chart, the table and the sentence follow."""
    t = frame.t
    r = frame.ranking
    st.header(t("explore.slide.title"))
    st.markdown(t("explore.slide.how"))
    positions = list(range(1, r.n))
    if st.session_state.get("explore.slide_from") not in positions:
        st.session_state["explore.slide_from"] = 1
    session.relabel("explore.slide_from", tuple(card(r.labels[q - 1], r.relevance[q - 1]) for q in positions))
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
                delta=md_escape(signed(change.delta)),
            )
        )
    c1, c2 = st.columns([3, 2])
    chart = slide_spec(data, frame.t, item=r.labels[p - 1], k=change.k, chosen=d)
    c1.vega_lite_chart(chart, width="stretch", height=320)
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
    with c2:
        data_table(table.style.format({cols[2]: "{:.4f}", cols[3]: "{:.4f}"}), key="explore.slide_table")
