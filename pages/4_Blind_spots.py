"""Placeholder: the blind_spots page (its issue replaces this script)."""

import streamlit as st

import ui

frame = ui.frame("blind_spots")
st.title(frame.t("nav.blind_spots"))
