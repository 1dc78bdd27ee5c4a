"""Live class: the teacher asks, every student answers on a phone, the room sees the answers, then the truth."""

import streamlit as st

import ui
from ui import live

frame = ui.frame("live", params=live.PARAMS, private=live.PRIVATE)
st.title(frame.t("nav.live"))
if live.view_of(live.link_params()) == "landing":
    st.markdown(frame.t("live.intro"))
live.page(frame)
