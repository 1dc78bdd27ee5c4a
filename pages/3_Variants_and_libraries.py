"""Placeholder: the variants page (its issue replaces this script)."""

import streamlit as st

import ui

frame = ui.frame("variants")
st.title(frame.t("nav.variants"))
