"""nDCG Lab home page: the Calculator.

Read the shared ranking, let the learner change it (typed grades, a table, drag cards,
buttons), call the core, render: metrics, what changed, the step table, the formulas with the
learner's numbers, and two charts. No arithmetic here: numbers come from ndcg_core.
"""

import streamlit as st

import ndcg_core as nc
from ui.components import charts, widgets
from ui.framework.shared import current_frame, get_ranking
from ui.framework.state import DISCOUNT_CHOICES, GAIN_CHOICES, UNJUDGED_CHOICES
from ui.views import calculator as calc

frame = current_frame()
t, lang = frame.t, frame.lang
widgets.apply_drag(calc.PREFIX)  # a drag or a table edit arrives on the next run:
scale, scale_problem = calc.current_scale(get_ranking())
widgets.apply_table(calc.PREFIX, scale=scale, allow_unjudged=True)  # take them over before drawing any input
ranking = get_ranking()

widgets.skip_link(t("calculator.skip_to_ranking"), "lab-ranking")
st.title(t("calculator.title"))
st.caption(t("calculator.intro"))
calc.origin_note(t, ranking)

# an unjudged item ("?") counts as 0 or is removed (ranking.unjudged), in every number below
options = ranking.judged_options()
m = nc.metrics(ranking.relevance, **options)
table = nc.step_table(ranking.relevance, labels=ranking.labels, **options)
note = calc.change_note(t, ranking)
condensed = ranking.has_unjudged and ranking.unjudged == "drop"
widgets.metric_row(
    m, t, delta=note[1] if note else None, key="calc_metrics", condensed=condensed, k=calc.label_k(ranking, m)
)
calc.pool_panel(ranking, t)
calc.unjudged_panel(ranking, t)
with st.container(key="calc_note"):  # always drawn, so the widgets below never shift
    if note:
        st.info(note[0], icon=":material/swap_vert:")
    if m.idcg == 0:
        st.warning(t("calculator.idcg_zero"), icon=":material/info:")

edit, settings = st.columns([3, 2], gap="large")
with edit:
    widgets.anchor("lab-ranking")
    widgets.grades_input(ranking, t, lang, prefix=calc.PREFIX, scale=scale, allow_unjudged=True)
    st.markdown(f"**{t('calculator.drag_label')}**")
    widgets.drag_cards(ranking, t, prefix=calc.PREFIX, large=frame.present)
    widgets.order_buttons(t, prefix=calc.PREFIX)
    widgets.move_buttons(ranking, t, prefix=calc.PREFIX)
    with (
        frame.secondary("items_table"),
        st.expander(t("calculator.table_label"), icon=":material/table_edit:"),
    ):
        widgets.items_table(ranking, t, lang, prefix=calc.PREFIX, scale=scale, allow_unjudged=True)
with settings, st.container(key="calc_settings", border=True):
    calc.preset_picker(t)
    calc.scale_choice(scale, t, lang, problem=scale_problem)
    widgets.variant_choice(ranking, t, "gain", GAIN_CHOICES, prefix=calc.PREFIX)
    widgets.variant_choice(ranking, t, "discount", DISCOUNT_CHOICES, prefix=calc.PREFIX)
    if ranking.has_unjudged:
        widgets.variant_choice(ranking, t, "unjudged", UNJUDGED_CHOICES, prefix=calc.PREFIX)
    widgets.cutoff_slider(ranking, t, prefix=calc.PREFIX)

st.header(t("calculator.pair_title"))
pair, bars = st.columns([2, 3], gap="large")
with pair:
    widgets.ranking_pair(table, t, present=frame.present, key="calc_pair")
with bars:
    st.caption(t("charts.discount_title"))
    discount_spec = charts.discount_spec(table, t, discount=ranking.discount)
    st.vega_lite_chart(discount_spec, width="stretch")
    charts.chart_downloads(discount_spec, "ndcg_discounted_gain")

st.header(t("calculator.steps_title"))
st.caption(t("calculator.steps_caption"))
widgets.step_table(table, t, discount=ranking.discount, present=frame.present, key="calc_steps")

st.header(t("calculator.formulas_title"))
calc.formula_block(nc.formulas(ranking.relevance, **options), t)

st.header(t("calculator.by_k_title"))
st.caption(t("charts.ndcg_title"))
by_k = nc.ndcg_at_each_k(
    ranking.relevance,
    gain=ranking.gain,
    discount=ranking.discount,
    unjudged=ranking.unjudged,
    pool=ranking.pool,
)
by_k_spec = charts.ndcg_by_k_spec(by_k, t, current_k=m.k)
st.vega_lite_chart(by_k_spec, width="stretch")
charts.chart_downloads(by_k_spec, "ndcg_at_each_k")
