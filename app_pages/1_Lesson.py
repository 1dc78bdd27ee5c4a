"""Lesson: G → CG → DCG → IDCG → nDCG on the learner's ranking, one step at a time."""

import streamlit as st

import ndcg_core as nc
from ui.components import charts, predict, slip, widgets
from ui.framework import state
from ui.framework.shared import current_frame, show_error
from ui.framework.text import breakable_math, md_escape
from ui.views import lesson

frame = current_frame()
t = frame.t
widgets.scrollable_formulas()
widgets.apply_drag("lesson")
ranking = frame.ranking
options = ranking.options()

st.title(t("nav.lesson"))
st.caption(t("lesson.intro"))
if widgets.unjudged_notice(ranking, t, prefix="lesson"):  # every step needs every grade
    st.stop()
step = lesson.current_step(frame.lang, show_error)
name = lesson.STEPS[step - 1]

st.progress(
    step / len(lesson.STEPS),
    text=t("lesson.step_of", step=step, total=len(lesson.STEPS), name=t(f"lesson.names.{name}")),
)
lesson.nav_buttons(step, t)

table = nc.step_table(list(ranking.relevance), labels=list(ranking.labels), **options)
m = nc.metrics(list(ranking.relevance), **options)

st.header(t(f"lesson.names.{name}"))
st.markdown(lesson.explain(name, ranking, t))

if name == "play":
    widgets.drag_cards(ranking, t, prefix="lesson", large=frame.present)
    widgets.order_buttons(t, prefix="lesson")
    widgets.metric_row(m, t, key="lesson_metrics")
    columns = lesson.shown_columns(len(lesson.STEPS), revealed=True)
    lesson.show_table(table, columns, t, discount=ranking.discount, key="lesson_table", present=frame.present)
    for step_name in nc.STEPS:
        f = nc.formula(step_name, list(ranking.relevance), **options)
        with st.container(key=f"lab-formula-play-{step_name}"):
            st.markdown(breakable_math(f.substituted))
    summary_chart = charts.discount_spec(table, t, discount=ranking.discount)
    st.vega_lite_chart(summary_chart, width="stretch")
    charts.chart_downloads(summary_chart, "lesson_discounted_gain")
    st.divider()
    slip.slip_panel(t, ns="lesson")
else:
    st.caption(
        t(
            "lesson.ranking_caption",
            items=md_escape(
                ", ".join(
                    f"{label} · {state.format_grade(g)}"
                    for label, g in zip(ranking.labels, ranking.relevance, strict=False)
                )
            ),
        )
    )
    f = nc.formula(name, list(ranking.relevance), **options)
    left, right = st.columns([1, 1])
    with left:
        st.markdown(f"**{t('lesson.formula_general')}**")
        with st.container(key="lab-formula-general"):
            st.markdown(breakable_math(f.general))
        q = lesson.question(name, ranking, m, t)
        revealed = q is not None and predict.ask(f"lesson.predict.{name}", q, t, show_me=True)  # None: "play"
    with right:
        if revealed:
            if name in ("gain", "cg", "dcg"):
                chart = charts.gain_chart(table, t, with_cg=name == "cg", with_dcg=name == "dcg")
                st.altair_chart(chart, width="stretch")
            else:
                st.altair_chart(charts.discount_chart(table, t, discount=ranking.discount), width="stretch")
    if revealed:
        st.markdown(f"**{t('lesson.formula_yours')}**")
        with st.container(key="lab-formula-substituted"):
            st.markdown(breakable_math(f.substituted))
    st.caption(t("lesson.table_caption"))
    lesson.show_table(
        table,
        lesson.shown_columns(step, revealed=revealed),
        t,
        discount=ranking.discount,
        key="lesson_table",
        present=frame.present,
    )
    if ranking.k is not None and ranking.k < ranking.n:
        st.caption(t("lesson.k_note", k=ranking.k))
    if name == "dcg":
        st.divider()
        lesson.bases_section(ranking, t)
    elif name == "idcg":
        st.divider()
        lesson.which_ideal_section(ranking, t)
        st.divider()
        lesson.same_k_section(t)
