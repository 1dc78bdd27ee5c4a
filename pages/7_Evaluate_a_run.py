"""Evaluate a run: per-query nDCG@k of an uploaded or sample run, the mean, the worst queries."""

import streamlit as st

import ui
from ndcg_core import NDCGInputError
from ui import evaluate as ev

frame = ui.frame("evaluate", params=tuple(ev.PARAMS.values()))
t = frame.t
st.title(t("nav.evaluate"))
st.write(t("evaluate.intro"))

st.header(t("evaluate.data_header"))
kind = st.radio(
    t("evaluate.source"),
    ("sample", "upload"),
    key="evaluate.source",
    horizontal=True,
    format_func=lambda v: t(f"evaluate.source_{v}"),
)
source = None
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
    source = ev.Source(sample, key=f"sample:{ev.SAMPLE_QUERIES}:{ev.SAMPLE_SEED}", name="sample_run.csv")
else:
    st.caption(t("evaluate.format"))
    upload = st.file_uploader(t("evaluate.upload_label"), key="evaluate.file", help=t("evaluate.upload_help"))
    st.caption(t("evaluate.size_limit", limit=st.get_option("server.maxUploadSize")))
    if upload is None:
        st.info(t("evaluate.upload_prompt"), icon=":material/upload_file:")
    else:
        digest, size = ev.upload_digest(upload)
        progress = ev.Progress(size > ev.LARGE_BYTES)
        try:
            table = ev.load_upload(
                upload,
                name=upload.name,
                digest=digest,
                on_progress=progress.reader(t("evaluate.progress_read"), 0.5),
            )
        except NDCGInputError as err:
            ui.show_error(frame.lang, err)
        else:
            source = ev.Source(table, key=digest, name=upload.name)
            st.caption(
                t(
                    "evaluate.file_loaded",
                    name=ui.md_escape(upload.name),
                    n_rows=f"{len(table):,}",
                    n_columns=len(table.columns),
                )
            )

columns = None
if source is not None:
    st.subheader(t("evaluate.columns_header"))
    columns = ev.column_widgets(list(source.frame.columns), t)
st.subheader(t("evaluate.options_header"))
options = ev.option_widgets(frame.lang, t)

evaluation = None
if source is not None and columns is not None:
    progress.update(0.5, t("evaluate.progress_evaluate"))
    try:
        evaluation = ev.evaluate(
            source, columns, options, on_step=lambda _: progress.update(0.8, t("evaluate.progress_curve"))
        )
    except NDCGInputError as err:
        ui.show_error(frame.lang, err)
progress.done()
if evaluation is not None:
    ev.results(evaluation, source, columns, options, t=t)
