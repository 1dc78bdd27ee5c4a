"""Evaluate runs: qrels and TREC runs compared with significance (the IR way), or one table
with its own grades (per-query nDCG@k, the mean, the worst queries)."""

import streamlit as st

from ndcg_core import NDCGInputError
from ui.framework.shared import current_frame, show_error
from ui.views import evaluate as ev
from ui.views import evaluate_trec as et

frame = current_frame()
t = frame.t
st.title(t("nav.evaluate"))
st.write(t("evaluate.intro"))

form = ev.form_widget(t, frame.lang)

if form == "trec":
    st.header(t("evaluate.trec_data_header"))
    collection = et.data_widgets(frame.lang, t)
    st.header(t("evaluate.options_header"))
    trec_options = et.option_widgets(frame.lang, t)
    if collection is not None:
        try:
            with et.busy(t("evaluate.trec_progress_evaluate", n=len(collection.runs))):
                result = et.evaluate(collection, trec_options)
        except NDCGInputError as err:
            show_error(frame.lang, err)
        else:
            et.results(collection, trec_options, result, frame.lang, t)
    st.stop()

st.header(t("evaluate.data_header"))
source, label, progress = ev.data_widgets(frame.lang, t)

columns = None
if source is not None:
    st.subheader(t("evaluate.columns_header"))
    columns = ev.column_widgets(source, t)
st.header(t("evaluate.options_header"))
options = ev.option_widgets(frame.lang, t)

evaluation = None
if source is not None and columns is not None:
    progress.update(0.5, t("evaluate.progress_evaluate"))
    try:
        evaluation = ev.evaluate(
            source, columns, options, on_step=lambda _: progress.update(0.8, t("evaluate.progress_curve"))
        )
    except NDCGInputError as err:
        show_error(frame.lang, err)
progress.done()
if evaluation is not None and source is not None and columns is not None:
    ev.results(evaluation, source, columns, options, t=t, label=label)
