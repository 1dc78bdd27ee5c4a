"""Placeholder: the ties page (its issue replaces this script)."""

import streamlit as st

import ui

frame = ui.frame("ties")
st.title(frame.t("nav.ties"))
