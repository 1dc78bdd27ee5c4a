"""Evaluate runs: qrels and TREC runs compared with significance (the IR way), or one table
with its own grades (per-query nDCG@k, the mean, the worst queries)."""

import streamlit as st

from ndcg_core import NDCGInputError
from ui.framework import session
from ui.framework.shared import current_frame, show_error
from ui.framework.text import md_escape
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
session.keep_widget("evaluate.source", "sample")
kind = st.radio(
    t("evaluate.source"),
    ("sample", "upload"),
    key="evaluate.source",
    horizontal=True,
    format_func=lambda v: t(f"evaluate.source_{v}"),
)
source = None
label = None
progress = ev.Progress(False)
if kind == "sample":
    sample = ev.load_sample()
    st.caption(
        t(
            "evaluate.sample_caption",
            seed=ev.SAMPLE_SEED,
            n_rows=f"{len(sample):,}",
            n_queries=ev.SAMPLE_QUERIES,
        )
    )
    st.download_button(
        t("evaluate.sample_download"),
        ev.sample_csv(),
        file_name="sample_run.csv",
        mime="text/csv",
        key="evaluate.sample_download",
        on_click="ignore",
        icon=":material/download:",
    )
    source = ev.TableRun(sample, key=f"sample:{ev.SAMPLE_QUERIES}:{ev.SAMPLE_SEED}", name="sample_run.csv")
    label = t("evaluate.sample_name")
else:
    st.caption(t("evaluate.format"))
    on_change, args = session.upload_callback("evaluate.file")
    upload = st.file_uploader(
        t("evaluate.upload_label"),
        key="evaluate.file",
        help=t("evaluate.upload_help"),
        on_change=on_change,
        args=args,
    )
    st.caption(t("evaluate.size_limit", limit=st.get_option("server.maxUploadSize")))
    kept = session.kept_files("evaluate.file", upload)
    if not kept:
        st.info(t("evaluate.upload_prompt"), icon=":material/upload_file:")
    else:
        file = kept[0]
        if upload is None:
            st.caption(t("evaluate.kept_files", names=md_escape(file.name)))
            if st.button(t("evaluate.forget_files"), key="evaluate.forget", icon=":material/delete:"):
                session.forget_files("evaluate.file")
                st.rerun()
        progress = ev.Progress(file.size > ev.LARGE_BYTES)
        try:
            table = ev.load_upload(
                file.data,
                name=file.name,
                digest=file.digest,
                on_progress=progress.reader(t("evaluate.progress_read"), 0.5),
            )
        except NDCGInputError as err:
            show_error(frame.lang, err)
        else:
            source = ev.TableRun(table, key=file.digest, name=file.name)
            label = file.name
            st.caption(
                t(
                    "evaluate.file_loaded",
                    name=md_escape(file.name),
                    n_rows=f"{len(table):,}",
                    n_columns=len(table.columns),
                )
            )

columns = None
if source is not None:
    st.subheader(t("evaluate.columns_header"))
    columns = ev.column_widgets(list(source.frame.columns), t)
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
