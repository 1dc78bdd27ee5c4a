"""The Blind spots page: the cases of TEACHING.md §1 and §4, most of them two lists side by side.

Every case follows one pattern (:func:`case`): a story, a predict-first question (a radio with
no default), and once answered the reveal: the control that changes the lists, the numbers
(nDCG of both lists as big metrics, and a table of CG, DCG, IDCG, nDCG from
:func:`ndcg_core.metrics`), a chart of nDCG@k (or DCG@k) for every k from
:func:`ndcg_core.steps.ndcg_at_each_k`, and the step tables. The lists are built here (appending
zeros, a pool of judged items); every number comes from the core.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

import ndcg_core as nc
from ndcg_core.ranked import prepared
from ndcg_core.steps import ndcg_at_each_k, step_table
from ndcg_teach import predictions, questions
from ui.components import prompts, widgets
from ui.components.charts import chart_downloads, difficulty_chart, length_drift_chart, lists_by_k_chart
from ui.components.predict import Question, ask
from ui.components.prompts import grades_text
from ui.components.widgets import data_table, parsed_input, static_table, unjudged_notice
from ui.framework.shared import Frame
from ui.framework.state import Variant, format_grade
from ui.framework.text import md_escape

#: The lists of the cases (TEACHING.md §4), defined with the predictions that ask about them
#: (:mod:`ndcg_teach.predictions`).
PADDING_BASE = predictions.PADDING_BASE
RETURNED_A, RETURNED_B = predictions.RETURNED_A, predictions.RETURNED_B
NOTHING_A = predictions.NOTHING_A
SHORT_PERFECT, LONG_MIXED = predictions.SHORT_PERFECT, predictions.LONG_MIXED
#: Same nDCG, different difficulty (TEACHING.md §1): both perfect, very different floors.
EASY, HARD, WORKED = predictions.DIFFICULTY_EASY, predictions.DIFFICULTY_HARD, predictions.WORKED
#: The gain can reorder systems (TEACHING.md §4): one judged pool, k = 5.
GAIN_POOL, GAIN_A, GAIN_B, GAIN_K = (
    predictions.GAIN_POOL,
    predictions.GAIN_A,
    predictions.GAIN_B,
    predictions.GAIN_K,
)
#: Unjudged items: the example typed with "?" for the items nobody judged.
UNJUDGED_EXAMPLE = predictions.UNJUDGED_EXAMPLE
UNJUDGED_LIMIT = 100
#: What nDCG does not model: one relevant page returned three times.
DUPLICATES = predictions.DUPLICATES


@dataclass(frozen=True, slots=True)
class Side:
    """One list of a case: its name, grades and (optionally) the judged pool of its query."""

    name: str
    relevance: tuple[float, ...]
    pool: tuple[float, ...] | None = None


def padded(base: Sequence[float], zeros: int) -> tuple[float, ...]:
    """``base`` followed by ``zeros`` irrelevant items.

    >>> padded([3], 2)
    (3.0, 0.0, 0.0)
    """
    return tuple(float(x) for x in base) + (0.0,) * zeros


def judged_pool(grade: float, count: int) -> tuple[float, ...]:
    """The judged items of a query: ``count`` items of ``grade``."""
    return (float(grade),) * count


def _options(frame: Frame) -> Variant:
    return {"gain": frame.ranking.gain, "discount": frame.ranking.discount}


def variant_caption(frame: Frame) -> None:
    """Which gain and discount the cases use (the Calculator's)."""
    t = frame.t
    st.caption(
        t(
            "blind_spots.variant",
            gain=t(f"blind_spots.variant_names.{frame.ranking.gain}"),
            discount=t(f"blind_spots.variant_names.{frame.ranking.discount}"),
        )
    )


#: "A", "B" or "same": which of two values (from the core) is higher (the core's one rule).
which_higher = predictions.which_higher


def _question(name: str, frame: Frame) -> Question:
    """The case's prediction (prompt ``blind.<name>``): decided by the core on the Calculator's
    gain and discount, worded by :mod:`ui.components.prompts` as in a live class."""
    return prompts.question(f"blind.{name}", _options(frame), frame.t, frame.lang)


def metrics_of(side: Side, frame: Frame) -> nc.Metrics:
    """The core's CG, DCG, IDCG, nDCG of one side (whole list, the Calculator's variant)."""
    return nc.metrics(
        list(side.relevance), pool=None if side.pool is None else list(side.pool), **_options(frame)
    )


def summary_frame(sides: Sequence[Side], frame: Frame) -> pd.DataFrame:
    """One row per list: its grades, CG, DCG, IDCG and nDCG (numbers from the core)."""
    t = frame.t
    rows = []
    for side in sides:
        m = metrics_of(side, frame)
        rows.append(
            {
                t("blind_spots.col_list"): side.name,
                t("blind_spots.col_grades"): grades_text(side.relevance),
                t("blind_spots.col_ideal"): t("blind_spots.ideal_list")
                if side.pool is None
                else f"{t('blind_spots.ideal_pool')} {grades_text(side.pool)}",
                t("blind_spots.col_cg"): m.cg,
                t("blind_spots.col_dcg"): m.dcg,
                t("blind_spots.col_idcg"): m.idcg,
                t("blind_spots.col_ndcg"): m.ndcg,
            }
        )
    return pd.DataFrame(rows)


def numbers(sides: Sequence[Side], frame: Frame, *, key: str, headline: str = "ndcg") -> None:
    """The reveal's numbers: big metrics of both lists and the comparison table."""
    t = frame.t
    cols = st.columns(len(sides))
    for col, side in zip(cols, sides, strict=False):
        m = metrics_of(side, frame)
        label = f"{t('blind_spots.col_' + headline)} · {side.name}"
        col.metric(label, f"{getattr(m, headline):.4f}", border=True)
        if m.idcg == 0:
            col.caption(t("blind_spots.nothing.idcg_zero", name=side.name))
    summary = summary_frame(sides, frame)
    fmt: dict[str, str | Callable[[float], str]] = {c: "{:.4f}" for c in summary.columns[-3:]}
    fmt[summary.columns[3]] = lambda x: format_grade(float(x))
    data_table(summary.style.format(fmt), key=f"{key}-table", narrow=True)


def curves(sides: Sequence[Side], frame: Frame) -> pd.DataFrame:
    """nDCG@k, DCG@k and IDCG@k for every k of every list, in long form (one row per list and k)."""
    parts = []
    for side in sides:
        by_k = ndcg_at_each_k(
            list(side.relevance), pool=None if side.pool is None else list(side.pool), **_options(frame)
        )
        parts.append(by_k.assign(list=side.name))
    return pd.concat(parts, ignore_index=True)


def charts(sides: Sequence[Side], frame: Frame, *, key: str, ys: Sequence[str] = ("ndcg",)) -> None:
    """One chart per y (side by side on a wide screen), each with its PNG/SVG downloads."""
    data = curves(sides, frame)
    cols = st.columns(len(ys))
    for col, y in zip(cols, ys, strict=False):
        chart = lists_by_k_chart(data, frame.t, y=y, names=[s.name for s in sides])
        with col:
            st.altair_chart(chart, width="stretch", height=340)
            chart_downloads(chart, f"{key}_{y}", lang=frame.lang)


#: The step table's columns shown for each list: the core's, less gains and cumulative sums.
_STEP_COLUMNS = tuple(
    c
    for c in nc.STEP_COLUMNS
    if c
    in {
        "position",
        "item",
        "relevance",
        "discount",
        "discounted_gain",
        "dcg",
        "ideal_relevance",
        "idcg",
        "ndcg",
    }
)


def step_tables(sides: Sequence[Side], frame: Frame, *, key: str) -> None:
    """The core's step table of each list (in an expander, to keep the case short), drawn as the
    Calculator draws its own: static, in parts on a phone."""
    options = _options(frame)
    with st.expander(frame.t("blind_spots.steps_title")):
        for n, side in enumerate(sides):
            table = step_table(
                list(side.relevance), pool=None if side.pool is None else list(side.pool), **options
            )
            st.markdown(f"**{side.name}** `{grades_text(side.relevance)}`")
            widgets.step_table(
                table,
                frame.t,
                discount=options["discount"],
                columns=_STEP_COLUMNS,
                mark_cutoff=None,
                present=frame.present,
                key=f"{key}-steps-{n}",
            )


def case(frame: Frame, name: str, body: Callable[[Frame], None]) -> None:
    """A case's frame: title and story, then its own body."""
    t = frame.t
    number = [case_name for case_name, _ in CASES].index(name) + 1  # the cases are numbered in page order
    st.header(t("blind_spots.numbered", number=number, title=t(f"blind_spots.{name}.title")))
    st.markdown(t(f"blind_spots.{name}.story"))
    body(frame)


def padding(frame: Frame) -> None:
    """[3] vs [3, 0, 0]: irrelevant padding is not punished."""
    t = frame.t
    a, b = t("blind_spots.list_a"), t("blind_spots.list_b")
    st.markdown(
        prompts.labelled(t, a, grades_text(PADDING_BASE))
        + " · "
        + prompts.labelled(t, b, grades_text(padded(PADDING_BASE, 2)))
    )
    if not ask("blind.padding.predict", _question("padding", frame), t):
        return
    c1, c2 = st.columns(2)
    base_choice = c1.radio(
        t("blind_spots.padding.base"),
        ["example", "mine"],
        horizontal=True,
        format_func=lambda x: t(
            f"blind_spots.padding.base_{x}" if x == "example" else "blind_spots.padding.base_mine"
        ),
        key="blind.padding.base",
    )
    zeros = c2.slider(t("blind_spots.padding.zeros"), 0, 10, 2, key="blind.padding.zeros")
    if base_choice != "example" and unjudged_notice(frame.ranking, t, prefix="blind.padding"):
        return
    base = PADDING_BASE if base_choice == "example" else frame.ranking.relevance
    sides = [Side(a, tuple(base)), Side(b, padded(base, zeros))]
    numbers(sides, frame, key="blind_padding")
    charts(sides, frame, key="blind_padding")
    st.info(t("blind_spots.padding.why"), icon=":material/lightbulb:")
    step_tables(sides, frame, key="blind_padding")


def unretrieved(frame: Frame) -> None:
    """[3, 3, 3] vs [3, 3, 3, 3]: unretrieved relevant items, and the pooled ideal."""
    t = frame.t
    a, b = t("blind_spots.list_a"), t("blind_spots.list_b")
    st.markdown(
        prompts.labelled(t, a, grades_text(RETURNED_A))
        + " · "
        + prompts.labelled(t, b, grades_text(RETURNED_B))
    )
    if not ask("blind.unretrieved.predict", _question("unretrieved", frame), t):
        return
    c1, c2 = st.columns(2)
    source = c1.radio(
        t("blind_spots.unretrieved.ideal"),
        ["list", "pool"],
        horizontal=True,
        format_func=lambda x: t(f"blind_spots.ideal_{x}"),
        key="blind.unretrieved.ideal",
    )
    judged = c2.slider(
        t("blind_spots.unretrieved.judged"),
        len(RETURNED_B),
        8,
        len(RETURNED_B),
        key="blind.unretrieved.judged",
    )
    pool = judged_pool(3.0, judged) if source == "pool" else None
    sides = [Side(a, RETURNED_A, pool), Side(b, RETURNED_B, pool)]
    numbers(sides, frame, key="blind_unretrieved")
    charts(sides, frame, key="blind_unretrieved")
    st.info(t("blind_spots.unretrieved.why"), icon=":material/lightbulb:")
    step_tables(sides, frame, key="blind_unretrieved")


def nothing_relevant(frame: Frame) -> None:
    """[0, 0, 0]: IDCG = 0, nDCG reported as 0."""
    t = frame.t
    a, b = t("blind_spots.list_a"), t("blind_spots.list_b")
    st.markdown(prompts.labelled(t, a, grades_text(NOTHING_A)))
    names = prompts.nothing_relevant_names(frame.lang)  # what tools report for IDCG = 0: the core
    if not ask("blind.nothing.predict", _question("nothing", frame), t):
        return
    grade = st.slider(t("blind_spots.nothing.grade"), 0, 3, 1, key="blind.nothing.grade")
    sides = [Side(a, NOTHING_A), Side(b, (*NOTHING_A[:-1], float(grade)))]
    numbers(sides, frame, key="blind_nothing")
    charts(sides, frame, key="blind_nothing")
    st.info(t("blind_spots.nothing.why", **names), icon=":material/lightbulb:")
    step_tables(sides, frame, key="blind_nothing")
    nothing_in_a_batch(frame)


def nothing_in_a_batch(frame: Frame) -> None:
    """Why ``ndcg_score(y, y)`` is below 1: a batch with one query that has nothing relevant,
    and the mean each tool reports for it (:func:`ndcg_teach.questions.empty_query_means`)."""
    t = frame.t
    st.subheader(t("blind_spots.batch.title"))
    rows = ",\n     ".join("[" + ", ".join(format_grade(g) for g in r) + "]" for r in questions.EMPTY_BATCH)
    st.code(f"y = [{rows}]\nndcg_score(y, y)", language="python")
    means = questions.empty_query_means()
    by_tool = means.set_index("tool")["mean"]
    st.metric("ndcg_score(y, y)", _f(float(by_tool["scikit-learn"])), border=True)
    st.markdown(t("blind_spots.batch.why", value=_f(float(by_tool["scikit-learn"]))))
    col_tool, col_empty = t("blind_spots.batch.col_tool"), t("blind_spots.batch.col_empty")
    col_queries, col_mean = t("blind_spots.batch.col_queries"), t("blind_spots.batch.col_mean")
    static_table(
        {
            col_tool: [str(x) for x in means["tool"]],  # the tools' own names, not user text
            col_empty: [t(f"blind_spots.batch.empty_{x}") for x in means["empty"]],
            col_queries: [str(int(x)) for x in means["queries"]],
            col_mean: [_f(float(x)) for x in means["mean"]],
        },
        right={col_queries, col_mean},
        key="blind-batch",
        scroll=False,
    )
    st.caption(t("blind_spots.batch.fix"))


def lengths(frame: Frame) -> None:
    """A short perfect list vs a long mixed one: DCG grows with length, nDCG does not."""
    t = frame.t
    a, b = t("blind_spots.list_a"), t("blind_spots.list_b")
    default_n = len(predictions.LENGTHS_B)
    st.markdown(
        prompts.labelled(t, a, grades_text(SHORT_PERFECT))
        + " · "
        + prompts.labelled(t, b, grades_text(LONG_MIXED[:default_n]))
    )
    if not ask("blind.lengths.predict", _question("lengths", frame), t):
        return
    n = st.slider(
        t("blind_spots.lengths.length"), len(SHORT_PERFECT), len(LONG_MIXED), default_n, key="blind.lengths.n"
    )
    sides = [Side(a, SHORT_PERFECT), Side(b, LONG_MIXED[:n])]
    numbers(sides, frame, key="blind_lengths", headline="dcg")
    charts(sides, frame, key="blind_lengths", ys=("dcg", "ndcg"))
    st.info(t("blind_spots.lengths.why") + "\n\n" + lengths_fact(frame), icon=":material/lightbulb:")
    step_tables(sides, frame, key="blind_lengths")
    length_drift(frame)


#: The cutoff the drift compares against, and the lengths the list B pattern grows to.
DRIFT_K = 10


def length_drift(frame: Frame) -> None:
    """Why @k: list B grown far beyond the slider, in its order and shuffled; without a cutoff
    both drift toward 1 (:func:`ndcg_teach.questions.length_drift`, Wang et al. 2013)."""
    t = frame.t
    st.subheader(t("blind_spots.drift.title"))
    st.markdown(t("blind_spots.drift.story", k=DRIFT_K))
    lengths = questions.DRIFT_LENGTHS
    longest = st.select_slider(
        t("blind_spots.drift.length"),
        options=list(lengths),
        value=lengths[-1],
        format_func=lambda n: f"{n:,}",
        key="blind.lengths.drift",
    )
    shown = tuple(n for n in lengths if n <= longest)
    data = questions.length_drift(LONG_MIXED, shown, k=DRIFT_K, **_options(frame))
    last = data[data["length"] == longest].set_index("order")
    c1, c2 = st.columns(2)
    for col, order in ((c1, "pattern"), (c2, "shuffled")):
        col.metric(
            t(f"blind_spots.drift.metric_{order}", n=f"{longest:,}"),
            _f(float(last.loc[order, "ndcg"])),
            delta=f"nDCG@{DRIFT_K} {_f(float(last.loc[order, 'ndcg_k']))}",
            delta_color="off",
            delta_arrow="off",
            border=True,
        )
    chart = length_drift_chart(data, t, k=DRIFT_K)
    st.altair_chart(chart, width="stretch", height=380)
    chart_downloads(chart, "blind_length_drift", lang=frame.lang)
    st.info(
        t(
            "blind_spots.drift.why",
            k=DRIFT_K,
            n=f"{longest:,}",
            pattern=_f(float(last.loc["pattern", "ndcg"])),
            shuffled=_f(float(last.loc["shuffled", "ndcg"])),
            pattern_k=_f(float(last.loc["pattern", "ndcg_k"])),
            shuffled_k=_f(float(last.loc["shuffled", "ndcg_k"])),
        ),
        icon=":material/lightbulb:",
    )


def lengths_fact(frame: Frame) -> str:
    """Whether, under the page's gain and discount, list B's DCG ever passes list A's (the core)."""
    gain, discount = frame.ranking.gain, frame.ranking.discount
    n = predictions.lengths_overtake(gain, discount)
    names = {
        "gain": frame.t(f"blind_spots.variant_names.{gain}"),
        "discount": frame.t(f"blind_spots.variant_names.{discount}"),
    }
    if n is None:
        return frame.t("blind_spots.lengths.never", longest=len(LONG_MIXED), **names)
    return frame.t("blind_spots.lengths.overtakes", n=n, **names)


def _f(value: float) -> str:
    return f"{value:.4f}"


def difficulty(frame: Frame) -> None:
    """[1, 1, 1, 1, 0] vs [1, 0, 0, 0, 0] (and the learner's grades): worst, mean and best order."""
    t = frame.t
    a, b = t("blind_spots.list_a"), t("blind_spots.list_b")
    opts = _options(frame)
    easy, hard = nc.order_bounds(list(EASY), **opts), nc.order_bounds(list(HARD), **opts)
    st.markdown(prompts.labelled(t, a, grades_text(EASY)) + " · " + prompts.labelled(t, b, grades_text(HARD)))
    if not ask("blind.difficulty.predict", _question("difficulty", frame), t):
        return
    ranking = frame.ranking
    if unjudged_notice(ranking, t, prefix="blind.difficulty"):  # every order of graded items
        return
    yours = nc.order_bounds(list(ranking.relevance), **opts)
    names = [a, b, t("blind_spots.difficulty.yours")]
    rows = pd.DataFrame(
        {
            "list": names,
            "grades": [grades_text(EASY), grades_text(HARD), grades_text(ranking.relevance)],
            "worst": [easy.worst, hard.worst, yours.worst],
            "mean": [easy.mean, hard.mean, yours.mean],
            "best": [easy.best, hard.best, yours.best],
            "current": [easy.current, hard.current, yours.current],
        }
    )
    cols = {key: t(f"blind_spots.difficulty.col_{key}") for key in ("worst", "mean", "best", "current")}
    # no grades column: four numbers per row already fill a phone's width
    static_table(
        {
            t("blind_spots.col_list"): names,
            **{cols[key]: [_f(x) for x in rows[key]] for key in ("worst", "mean", "best", "current")},
        },
        right=set(cols.values()),
        key="blind-difficulty",
        scroll=False,
    )
    st.caption(t("blind_spots.difficulty.yours_grades", grades=md_escape(grades_text(ranking.relevance))))
    st.caption(t("blind_spots.difficulty.closed_forms"))
    st.markdown(f"**{t('blind_spots.difficulty.chart_title')}**")
    chart = difficulty_chart(rows, t, height=360 if frame.present else 220)
    if frame.present:
        # under the presenter zoom (styles.PRESENTER_CSS) a fixed element height of 300 px let
        # the legend, one entry a line, run into the caption below: the chart's own height
        # (plot, axis and legend together) keeps it inside
        st.altair_chart(chart, width="stretch")
    else:
        st.altair_chart(chart, width="stretch", height=300)
    chart_downloads(chart, "blind_difficulty", lang=frame.lang)
    dist = nc.permutation_distribution(list(ranking.relevance), **opts)
    key = "blind_spots.difficulty.percentile" if dist.exact else "blind_spots.difficulty.percentile_sampled"
    st.caption(
        t(key, current=_f(dist.current), percentile=f"{dist.percentile:.1f}", count=f"{dist.values.size:,}")
    )
    worked = nc.order_bounds(list(WORKED), **opts)
    st.info(
        t(
            "blind_spots.difficulty.why",
            a_mean=f"{easy.mean:.3f}",
            a_worst=f"{easy.worst:.3f}",
            b_mean=f"{hard.mean:.3f}",
            example_worst=f"{worked.worst:.3f}",
        ),
        icon=":material/lightbulb:",
    )


def gain_reorders(frame: Frame) -> None:
    """Pool {3, 2, 2, 2, 0, 0}, k = 5: A wins with linear gain, B with exponential gain."""
    t = frame.t
    # the case holds with 1/log2(i+1) only: it always uses it, and says so (with the numbers
    # Järvelin and Kekäläinen's discount would give)
    scores = predictions.gain_case_scores()
    jk = predictions.gain_case_scores("jarvelin")
    st.caption(
        t(
            "blind_spots.gain.discount_fixed",
            discount=t(f"blind_spots.variant_names.{predictions.GAIN_DISCOUNT}"),
            jk_linear_a=_f(jk["linear"][0]),
            jk_linear_b=_f(jk["linear"][1]),
            jk_exp_a=_f(jk["exponential"][0]),
            jk_exp_b=_f(jk["exponential"][1]),
        )
    )
    if not ask("blind.gain.predict", _question("gain", frame), t):
        return
    winner = {"A": "winner_a", "B": "winner_b", "same": "winner_same"}
    col_a, col_b = t("blind_spots.gain.col_a"), t("blind_spots.gain.col_b")
    static_table(
        {
            t("blind_spots.gain.col_gain"): [t(f"blind_spots.variant_names.{g}") for g in scores],
            col_a: [_f(a) for a, _ in scores.values()],
            col_b: [_f(b) for _, b in scores.values()],
            t("blind_spots.gain.col_winner"): [
                t(f"blind_spots.gain.{winner[which_higher(a, b)]}") for a, b in scores.values()
            ],
        },
        right={col_a, col_b},
        key="blind-gain",
        scroll=False,
    )
    st.info(t("blind_spots.gain.why"), icon=":material/lightbulb:")


def unjudged(frame: Frame) -> None:
    """Grades typed with "?" for unjudged items: nDCG (unjudged = 0), nDCG′ (condensed), judged@k."""
    t = frame.t
    opts = _options(frame)
    if not ask("blind.unjudged.predict", _question("unjudged", frame), t):
        return
    grades = parsed_input(
        frame.lang,
        t("blind_spots.unjudged.input"),
        lambda text: nc.parse_relevance(text, allow_unjudged=True, limit=UNJUDGED_LIMIT),
        key="blind.unjudged.text",
        refused=None,
        value=UNJUDGED_EXAMPLE,
        help=t("blind_spots.unjudged.input_help"),
    )
    if grades is None:
        return
    n = int(grades.size)
    k = st.slider(t("blind_spots.unjudged.k"), 1, n, n, key="blind.unjudged.k") if n > 1 else 1
    m_zero = nc.metrics(grades, k=k, unjudged="zero", **opts)
    m_drop = nc.metrics(grades, k=k, unjudged="drop", **opts)
    judged = nc.judged_at_k(grades, k=k)
    c1, c2, c3 = st.columns(3)
    c1.metric(
        t("blind_spots.unjudged.metric_zero", k=k),
        _f(m_zero.ndcg),
        help=t("blind_spots.unjudged.help_zero"),
        border=True,
    )
    c2.metric(
        t("blind_spots.unjudged.metric_drop", k=k),
        _f(m_drop.ndcg),
        help=t("blind_spots.unjudged.help_drop"),
        border=True,
    )
    c3.metric(
        t("blind_spots.unjudged.metric_judged", k=k),
        f"{judged:.0%}",
        help=t("blind_spots.unjudged.help_judged"),
        border=True,
    )
    kept = [format_grade(float(g)) for g in prepared(grades, "drop")]  # the condensed list
    if kept:
        st.caption(t("blind_spots.unjudged.condensed", items=md_escape("[" + ", ".join(kept) + "]")))
    else:
        st.caption(t("blind_spots.unjudged.nothing_judged"))
    st.info(t("blind_spots.unjudged.why"), icon=":material/lightbulb:")


def sampled(frame: Frame) -> None:
    """nDCG@10 over 1 held-out item + sampled items vs the whole catalogue: two generated models
    (:func:`ndcg_teach.questions.sampled_evaluation`, Krichene & Rendle 2020)."""
    t = frame.t
    q = _question("sampled", frame)
    if not ask("blind.sampled.predict", q, t):
        return
    negatives = st.select_slider(
        t("blind_spots.sampled.negatives"),
        options=list(SAMPLED_NEGATIVES),
        value=predictions.SAMPLED_ASKED,
        format_func=lambda n: f"{n:,}",
        key="blind.sampled.negatives",
    )
    table = _sampled_evaluation(negatives)
    by_model = table.set_index("model")
    cols = st.columns(2)
    for col, model in zip(cols, ("A", "B"), strict=True):
        col.metric(
            t("blind_spots.sampled.metric", model=model, negatives=f"{negatives:,}"),
            _f(float(by_model.loc[model, "sampled"])),
            delta=t("blind_spots.sampled.full_delta", value=_f(float(by_model.loc[model, "full"]))),
            delta_color="off",
            delta_arrow="off",
            border=True,
        )
    col_model, col_full = t("blind_spots.sampled.col_model"), t("blind_spots.sampled.col_full")
    col_sampled = t("blind_spots.sampled.col_sampled", negatives=f"{negatives:,}")
    static_table(
        {
            col_model: [t(f"blind_spots.sampled.model_{m}") for m in table["model"]],
            col_full: [_f(float(x)) for x in table["full"]],
            col_sampled: [_f(float(x)) for x in table["sampled"]],
        },
        right={col_full, col_sampled},
        key="blind-sampled",
        scroll=False,
    )
    st.caption(
        t(
            "blind_spots.sampled.setup",
            users=f"{predictions.SAMPLED_USERS:,}",
            items=f"{predictions.SAMPLED_ITEMS:,}",
        )
    )
    st.info(t("blind_spots.sampled.why"), icon=":material/lightbulb:")


#: The sample sizes the sampled-negatives case offers (its slider starts at the question's,
#: ``predictions.SAMPLED_ASKED``).
SAMPLED_NEGATIVES = (50, 100, 500, 1000, 5000)


@st.cache_data(show_spinner=False, max_entries=len(SAMPLED_NEGATIVES))
def _sampled_evaluation(negatives: int) -> pd.DataFrame:
    """:func:`ndcg_teach.questions.sampled_evaluation` of the case (seeded: the same table for
    every visitor), cached on the sample size: 1,000 draws of ``negatives`` items from 10,000
    cost 20-30 ms, and every run of the page draws the tab."""
    return questions.sampled_evaluation(
        negatives=negatives, n_users=predictions.SAMPLED_USERS, n_items=predictions.SAMPLED_ITEMS
    )


def not_modelled(frame: Frame) -> None:
    """[3, 3, 3]: nDCG does not see redundancy; ERR, RBP and α-nDCG in words, with references."""
    t = frame.t
    if not ask("blind.not_modelled.predict", _question("not_modelled", frame), t):
        return
    st.markdown(t("blind_spots.not_modelled.why"))
    st.caption(t("blind_spots.not_modelled.references"))


CASES: tuple[tuple[str, Callable[[Frame], None]], ...] = (
    ("padding", padding),
    ("unretrieved", unretrieved),
    ("nothing", nothing_relevant),
    ("lengths", lengths),
    ("difficulty", difficulty),
    ("gain", gain_reorders),
    ("unjudged", unjudged),
    ("not_modelled", not_modelled),
    ("sampled", sampled),
)
