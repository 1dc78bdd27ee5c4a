"""Practice: a seeded set of exercises (CG, DCG@k, IDCG@k, nDCG@k, ideal order, which is higher)."""

import streamlit as st

from ui.framework.shared import current_frame
from ui.views import practice

frame = current_frame()
st.title(frame.t("nav.practice"))
st.markdown(frame.t("practice.intro", tol=practice.TOLERANCE))
st.caption(
    frame.t(
        "practice.variant",
        gain=frame.t(f"blind_spots.variant_names.{frame.ranking.gain}"),
        discount=frame.t(f"blind_spots.variant_names.{frame.ranking.discount}"),
    )
)

place = practice.read_link(frame)
practice.toolbar(frame, place)
st.divider()
practice.prompt(frame, place)
practice.answer(frame, place)
practice.help_and_solution(frame, place)
