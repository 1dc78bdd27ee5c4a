"""Placeholder: the evaluate page (its issue replaces this script)."""

import streamlit as st

import ui

frame = ui.frame("evaluate")
st.title(frame.t("nav.evaluate"))
