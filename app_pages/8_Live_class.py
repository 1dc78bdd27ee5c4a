"""Live class: the teacher asks, every student answers on a phone, the room sees the answers, then the truth."""

import streamlit as st

from ui.framework.shared import current_frame
from ui.views import live

live.take_start_request()
frame = current_frame()
view = live.view_of(live.link_params())
if view != "room":  # the projector's one screen is the question and its answers
    st.title(frame.t("nav.live"))
if view == "landing":
    st.markdown(frame.t("live.intro"))
live.page(frame)
