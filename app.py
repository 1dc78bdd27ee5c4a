"""nDCG Lab home page: the Calculator (placeholder until the Calculator issue lands)."""

import streamlit as st

import ndcg_core as nc
import ui

frame = ui.frame("calculator")
st.title(frame.t("nav.calculator"))
m = nc.metrics(frame.ranking.relevance, **frame.ranking.options())
st.metric(f"nDCG@{m.k}", f"{m.ndcg:.4f}")
