"""Placeholder: the practice page (its issue replaces this script)."""

import streamlit as st

import ui

frame = ui.frame("practice")
st.title(frame.t("nav.practice"))
