"""Explore: what-if views of the shared ranking (swaps, all orderings, sliding an item down)."""

import streamlit as st

from ui.components import widgets
from ui.framework.shared import current_frame
from ui.views import explore

frame = current_frame()
st.title(frame.t("nav.explore"))
st.markdown(frame.t("explore.intro"))
if widgets.unjudged_notice(frame.ranking, frame.t, prefix="explore"):  # every view reorders graded items
    st.stop()

if frame.ranking.n < 2:
    st.info(frame.t("explore.too_short"), icon=":material/info:")
    st.stop()

views = explore.compute(frame)
explore.header(frame, views)
st.divider()
explore.swap_section(frame, views)
st.divider()
explore.distribution_section(frame, views)
st.divider()
explore.slide_section(frame)
