"""Placeholder: the lesson page (its issue replaces this script)."""

import streamlit as st

import ui

frame = ui.frame("lesson")
st.title(frame.t("nav.lesson"))
