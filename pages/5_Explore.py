"""Placeholder: the explore page (its issue replaces this script)."""

import streamlit as st

import ui

frame = ui.frame("explore")
st.title(frame.t("nav.explore"))
