"""From scores to a ranking: tied scores, and nDCG under every way of breaking them."""

import streamlit as st

import ndcg_core as nc
from ndcg_core import ties
from ndcg_teach.tools import tie_calls
from ui.components import charts, slip, widgets
from ui.framework.shared import current_frame, get_param, show_error
from ui.framework.state import parse_decimals, parse_scores
from ui.views import ties as ties_view

frame = current_frame()
t = frame.t
widgets.scrollable_formulas()
ties_view.ensure_scores()
ranking = ties_view.page_ranking()  # the page's own grades, or the shared ranking's

st.title(t("nav.ties"))
st.markdown(t("ties.intro"))
st.button(
    t("ties.load_example"),
    key="ties.load",
    on_click=ties_view.load_practitioner,
    icon=":material/restart_alt:",
    type="tertiary",
)
ties_view.grades_and_scores(ranking, t, frame.lang)
ties_view.use_in_calculator(t)

decimals = None
try:
    decimals = parse_decimals(get_param("dec", ""))
except nc.NDCGInputError as err:
    show_error(frame.lang, err)
ties_view.decimals_control(t, decimals)

view = None
try:
    scores = parse_scores(get_param("scores", ""))
    if decimals is not None:
        scores = ties.round_scores(scores, decimals)
    # ties are broken between graded items: an unjudged one ("?") gets a notice, not a guess;
    # a box with refused input shows its own message, and nothing from the stale link values
    if not ties_view.typed_error() and not widgets.unjudged_notice(ranking, t, prefix="ties"):
        view = ties.tie_view(
            list(ranking.relevance), scores, labels=list(ranking.labels), **ranking.options()
        )
except nc.NDCGInputError as err:
    show_error(frame.lang, err)

if view is not None:
    st.header(t("ties.ranking_title"))
    if view.n_tied_items:
        st.markdown(t("ties.summary", tied=view.n_tied_items, groups=view.n_groups))
    else:
        st.info(t("ties.no_ties"), icon=":material/info:")
    ties_view.show_ranking(view, ranking.labels, t)
    st.caption(t("ties.ranking_caption"))

    k = ranking.cutoff
    st.header(t("ties.band_title" if view.n_tied_items else "ties.band_title_no_ties", k=k))
    calls = tie_calls(
        list(ranking.relevance), scores, k=ranking.k, gain=ranking.gain, discount=ranking.discount
    )
    if ties_view.predict_band(ranking, scores, t):
        ties_view.metrics(view, t, k=k, calls=calls)
        ties_view.settings_note(ranking, calls, t)
        band = charts.tie_band_chart(
            ties_view.treatments_frame(view, t, calls),
            low=view.pessimistic,
            high=view.optimistic,
            t=t,
        )
        st.altair_chart(band, width="stretch")
        st.caption(t("ties.single_caption"))
        charts.chart_downloads(band, "ties_band")

        # after the reveal only: its numbers answer the prediction above
        st.header(t("ties.why_title"))
        st.code(ties_view.why_code(t, k=ranking.k), language="python", wrap_lines=True)
        # scikit-learn's own numbers: its linear gain and 1/log2(i+1), whatever the settings
        sk = ties.tie_view(list(ranking.relevance), scores, labels=list(ranking.labels), k=ranking.k)
        st.markdown(t("ties.why", optimistic=f"{sk.optimistic:.4f}", average=f"{sk.average:.4f}"))
        if (ranking.gain, ranking.discount) != ("linear", "log2"):
            st.caption(t("ties.why_defaults"))

st.divider()
st.header(t("ties.mistake_title"))
slip.slip_panel(t, ns="ties")
