"""nDCG Lab home page: the Calculator (placeholder until the Calculator issue lands)."""

import streamlit as st

import ndcg_core as nc

st.set_page_config(page_title="nDCG Lab", layout="wide")
st.title("nDCG Lab")
example = [3, 2, 0, 0, 1]
m = nc.metrics(example)
st.metric("nDCG@5 of [3, 2, 0, 0, 1]", f"{m.ndcg:.4f}")
