"""Variants and libraries: the choices inside "nDCG", and what well-known tools compute by default."""

import streamlit as st

import ndcg_core as nc
from ndcg_teach.tools import tool_scores
from ui.components import charts, predict, prompts, widgets
from ui.framework.shared import current_frame, get_param, set_param, show_error
from ui.views import variants

frame = current_frame()
t = frame.t
widgets.apply_drag("variants")
ranking = frame.ranking

st.title(t("nav.variants"))
st.markdown(t("variants.intro"))

left, right = st.columns([3, 2])
with left:
    widgets.grades_input(ranking, t, frame.lang, prefix="variants")
with right:
    widgets.cutoff_slider(ranking, t, prefix="variants")


def _on_judged() -> None:
    set_param("judged", st.session_state["variants.judged"].strip() or None)


# every variant and tool needs a grade for every item: a notice, not a guess, for "?"
if not widgets.unjudged_notice(ranking, t, prefix="variants"):
    judged_raw = get_param("judged")
    st.session_state.setdefault("variants.judged", "" if judged_raw is None else str(judged_raw))
    st.text_input(
        t("variants.judged_label"),
        key="variants.judged",
        on_change=_on_judged,
        help=t("variants.judged_help"),
        placeholder=t("variants.judged_placeholder"),
    )
    pool = None
    try:
        pool = variants.pool_of(ranking, variants.judged_extra())
    except nc.NDCGInputError as err:
        show_error(frame.lang, err)

    k = ranking.cutoff
    st.header(t("variants.side_title"))
    side = variants.variants_frame(ranking, pool)
    if predict.ask("variants.predict.guess", variants.gain_question(ranking, t), t, show_me=True):
        st.caption(t("variants.side_caption", k=k))
        variants.show_variants(side, t)
        st.caption(variants.jarvelin_note(t))
        st.markdown(f"**{t('variants.by_k_title')}**")
        by_k = charts.variants_by_k_chart(variants.by_k_frame(ranking, pool, t), t)
        st.altair_chart(by_k, width="stretch")
        charts.chart_downloads(by_k, "variants_ndcg_at_each_k")

    st.header(t("variants.tools_title"))
    scores = None
    try:
        scores = variants.scores_controls(ranking, t, frame.lang)
    except nc.NDCGInputError as err:
        show_error(frame.lang, err)
    try:
        tools = tool_scores(
            list(ranking.relevance), scores, k=ranking.k, pool=pool, labels=list(ranking.labels)
        )
    except nc.NDCGInputError as err:
        show_error(frame.lang, err)
    else:
        st.caption(t("variants.tools_caption", k=k))
        widgets.data_table(variants.tools_table(tools, t), key="variants.tools", wrap=True)
        tools_chart = charts.tools_spec(tools, t)
        st.vega_lite_chart(tools_chart, width="stretch")
        charts.chart_downloads(tools_chart, "variants_tools")
st.markdown(t("variants.tie_example", **variants.tie_example_values()))
st.button(
    t("variants.load_tie_example"),
    key="variants.load_tie_example",
    on_click=variants.load_tie_example,
    icon=":material/restart_alt:",
    type="tertiary",
)
st.markdown(f"**{t('variants.why_title')}**")
st.markdown(t("variants.why", **prompts.nothing_relevant_names(frame.lang)))
with st.expander(t("variants.sources_title")):
    st.markdown(t("variants.sources"))
variants.learner_questions(ranking, t)
