"""Blind spots of nDCG (TEACHING.md §4): padding, unretrieved items, nothing relevant, list lengths."""

import streamlit as st

from ui.framework.shared import current_frame
from ui.views import blind_spots

frame = current_frame()
st.title(frame.t("nav.blind_spots"))
st.markdown(frame.t("blind_spots.intro"))
blind_spots.variant_caption(frame)

tabs = st.tabs([frame.t(f"blind_spots.{name}.tab") for name, _ in blind_spots.CASES])
for tab, (name, body) in zip(tabs, blind_spots.CASES, strict=False):
    with tab:
        blind_spots.case(frame, name, body)
