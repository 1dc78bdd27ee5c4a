"""The "Evaluate a run" page's helpers: loading, cached evaluation, widgets, links, charts.

Every number comes from the core: :func:`ndcg_core.evaluate_run` (per-query nDCG@k and the
mean), :func:`ndcg_core.mean_ndcg_at_ks` (the k = 1…20 curve) and
:func:`ndcg_core.ties.rank_by_score` (a query's ranking for the Calculator link). This module
loads files, caches, picks rows, formats and draws; it does no metric arithmetic.

Caching: a file is identified by the SHA-256 of its bytes. The parsed table is kept in one
:class:`ui.framework.memory.BudgetCache` keyed on that digest, the evaluations and curves in another
with a smaller budget (keyed on the digest, the columns and the options): bounded in bytes
per session and in total, dropped after
:data:`CACHE_TTL` seconds unused and as soon as every session that used them has ended (not
``st.cache_data``: it bounds entries by count only and keeps them for every session, issue 12;
and reading draws a progress bar, which a cached function would replay).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, BinaryIO

import pandas as pd
import streamlit as st

import ndcg_core as nc
from ndcg_core import NDCGInputError
from ndcg_core.gains import Gain
from ndcg_core.options import BATCH_TIES, NO_RELEVANT, BatchTies, NoRelevant, Options, check_ties
from ndcg_core.ties import rank_by_score
from ndcg_teach.samples import sample_run
from ui.components import charts
from ui.components.charts import chart_downloads
from ui.components.widgets import configured_table
from ui.framework import memory, session
from ui.framework.i18n import Translate
from ui.framework.navigation import EVALUATE_TABLE_PARAMS, PAGE_BY_ID
from ui.framework.shared import seed_from_link, set_param, set_ranking, show_error
from ui.framework.state import GAIN_CHOICES, MAX_ITEMS, Ranking, parse_k
from ui.framework.text import fmt, md_escape

SAMPLE_QUERIES = 200
SAMPLE_SEED = 0
DEFAULT_K = 10
#: The k selector's choices; "all" (the whole list) is a string so the widget never holds None.
K_CHOICES: tuple[int | str, ...] = (*range(1, 21), 50, 100, "all")
CURVE_KS = range(1, 21)
WORST = 10
TABLE_ROWS = 10_000
LARGE_BYTES = 1_000_000
ROLES: tuple[str, ...] = ("query", "item", "relevance", "score")
REQUIRED: tuple[str, ...] = ("query", "relevance", "score")
#: Page link parameters of the options (the shared ``k``/``gain`` belong to the Calculator).
PARAMS = EVALUATE_TABLE_PARAMS
_SYNONYMS: dict[str, tuple[str, ...]] = {
    "query": ("query", "qid", "query_id", "queryid", "topic"),
    "item": ("item", "item_id", "itemid", "doc", "docid", "doc_id", "docno", "document"),
    "relevance": ("relevance", "rel", "grade", "label", "judgment", "judgement", "y_true"),
    "score": ("score", "prediction", "pred", "y_score", "y_pred"),
}


@dataclass(frozen=True, slots=True)
class Columns:
    """Which column of the table plays which role (``item`` may be absent)."""

    query: str
    relevance: str
    score: str
    item: str | None = None

    def as_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of the core's batch functions."""
        return {"query": self.query, "relevance": self.relevance, "score": self.score, "item": self.item}


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The evaluation options the page offers."""

    k: int | None = DEFAULT_K
    gain: Gain = "linear"
    ties: BatchTies = "average"
    no_relevant: NoRelevant = "zero"

    def core(self) -> Options:
        """The same choice as the core's options (the rest at their defaults)."""
        return Options(k=self.k, gain=self.gain, ties=self.ties, no_relevant=self.no_relevant)


@dataclass(frozen=True, slots=True)
class TableRun:
    """A run to evaluate: the table, a cache key (digest of the bytes) and a name."""

    frame: pd.DataFrame
    key: str
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class Evaluation:
    """What the page shows: the core's result for the options and the k = 1…20 curve."""

    result: nc.RunResult
    curve: pd.DataFrame


@dataclass(frozen=True, slots=True)
class QueryLink:
    """One query of the run as a Calculator ranking, and what was changed to make it fit."""

    query: Any
    ranking: Ranking
    n_items: int
    truncated: bool
    default_labels: bool
    tied: bool


# --------------------------------------------------------------------------- formatting


def k_text(k: int | None, t: Translate) -> str:
    """k as shown in labels: the number, or "whole list"."""
    return t("evaluate.k_all") if k is None else str(k)


# --------------------------------------------------------------------------- loading


def file_digest(data: bytes | memoryview) -> str:
    """The cache key of an uploaded file: SHA-256 of its bytes."""
    return hashlib.sha256(data).hexdigest()


def upload_digest(upload: io.BytesIO) -> tuple[str, int]:
    """The digest and size of an upload.

    ``getvalue()`` of an upload Streamlit has not written to returns the very bytes object it
    holds (CPython shares it), so this copies nothing; ``getbuffer()`` would make the
    ``BytesIO`` take a private copy of the whole file for the rest of the session.
    """
    data = upload.getvalue()
    return file_digest(data), len(data)


def load_upload(
    data: bytes | BinaryIO, *, name: str, digest: str, on_progress: Callable[[int, int], None] | None = None
) -> pd.DataFrame:
    """Parse an uploaded file with the core's reader, once per (bytes, name).

    The table is never modified by the page. Raises the reader's :class:`NDCGInputError`
    (also when the same bad file is seen again).
    """

    def read() -> pd.DataFrame:
        if not isinstance(data, bytes):
            data.seek(0)
        # id columns (any usual name) are read as text, exactly as written
        return nc.read_run(
            data, name=name, on_progress=on_progress, ids=_SYNONYMS["query"] + _SYNONYMS["item"]
        )

    return memory.cached(("upload", digest, name), read)


@st.cache_data(show_spinner=False)
def load_sample() -> pd.DataFrame:
    """The built-in sample run (seeded, so every session sees the same one)."""
    return sample_run(SAMPLE_QUERIES, seed=SAMPLE_SEED)


@st.cache_data(show_spinner=False)
def sample_csv() -> bytes:
    """The sample run as a CSV file, for people to see the format."""
    return nc.to_csv_bytes(load_sample())


def guess_columns(columns: Sequence[Any]) -> dict[str, Any]:
    """The default column of each role: its usual name or a common synonym, case-insensitive.

    Each column is used for one role at most; a role without a match gets ``None``.

    >>> guess_columns(["QID", "docno", "label", "score", "x"])
    {'query': 'QID', 'item': 'docno', 'relevance': 'label', 'score': 'score'}
    >>> guess_columns(["a", "b"])["query"] is None
    True
    """
    folded = {str(column).strip().lower(): column for column in reversed(list(columns))}
    taken: set[str] = set()
    out: dict[str, Any] = {}
    for role in ROLES:
        out[role] = None
        for name in _SYNONYMS[role]:
            if name in folded and name not in taken:
                out[role] = folded[name]
                taken.add(name)
                break
    return out


# --------------------------------------------------------------------------- evaluation


def _evaluate(frame: pd.DataFrame, columns: tuple[Any, ...], options: TableOptions) -> nc.RunResult:
    query, relevance, score, item = columns
    return nc.evaluate_run(
        frame,
        options=options.core(),
        query=query,
        relevance=relevance,
        score=score,
        item=item,
    )


def _curve(frame: pd.DataFrame, columns: tuple[Any, ...], options: TableOptions) -> pd.DataFrame:
    query, relevance, score, item = columns
    return nc.mean_ndcg_at_ks(
        frame,
        ks=CURVE_KS,
        gain=options.gain,
        ties=options.ties,
        no_relevant=options.no_relevant,
        query=query,
        relevance=relevance,
        score=score,
        item=item,
    )


def evaluate(
    source: TableRun, columns: Columns, options: TableOptions, *, on_step: Callable[[str], None] | None = None
) -> Evaluation:
    """The run evaluated by the core (cached by file digest, columns and options).

    ``on_step("curve")`` is called between the two computations, for a progress bar.
    Raises :class:`NDCGInputError` when the table does not fit the columns.
    """
    cols = (columns.query, columns.relevance, columns.score, columns.item)
    results = memory.result_cache()
    result = memory.cached(
        ("evaluate", source.key, cols, options), lambda: _evaluate(source.frame, cols, options), cache=results
    )
    if on_step is not None:
        on_step("curve")
    curve = memory.cached(
        ("curve", source.key, cols, replace(options, k=None)),
        lambda: _curve(source.frame, cols, options),
        cache=results,
    )
    return Evaluation(result=result, curve=curve)


def worst_queries(per_query: pd.DataFrame, n: int = WORST) -> pd.DataFrame:
    """The ``n`` queries with something relevant (IDCG > 0) and the lowest nDCG, lowest first.

    Queries with nothing relevant are left out: no order of their items can do better, and the
    page counts them separately. Ties keep the file's order.
    """
    relevant = per_query.loc[per_query["idcg"].gt(0)]
    return relevant.sort_values("ndcg", kind="stable").head(n)


def per_query_csv(per_query: pd.DataFrame) -> Callable[[], bytes]:
    """The per-query table as CSV (formula-like ids escaped by :func:`ndcg_core.to_csv_bytes`),
    made only when the download button is pressed."""
    return lambda: nc.to_csv_bytes(per_query)


def query_link(frame: pd.DataFrame, query: Any, columns: Columns, options: TableOptions) -> QueryLink:
    """One query's rows as the Calculator's ranking: grades in the order of the system's scores.

    The order comes from :func:`ndcg_core.ties.rank_by_score` with the page's tie policy
    (``"average"`` keeps tied items in file order). Queries longer than the Calculator's limit
    keep their top :data:`ui.framework.state.MAX_ITEMS`; item ids that are not valid names (empty,
    repeated, too long) are replaced by D1, D2, ….
    """
    rows = frame.loc[frame[columns.query] == query]
    if options.ties == "trec_eval" and columns.item is not None:
        # trec_eval's tie order (item id descending as text) is the file order of the rows
        # sorted that way; the stable ranking below keeps it inside each tie
        ids = nc.id_text(rows[columns.item]).sort_values(ascending=False, kind="stable")
        rows = rows.loc[ids.index]
    # "input" and "trec_eval" (run-level treatments) rank like "average": stably, file order
    ranked = rank_by_score(
        pd.to_numeric(rows[columns.relevance]).to_numpy(dtype=float),
        pd.to_numeric(rows[columns.score]).to_numpy(dtype=float),
        ties=options.ties if options.ties in nc.TIES else "average",
    )
    top = ranked.order[:MAX_ITEMS]
    grades = ranked.relevance[:MAX_ITEMS]
    base = Ranking(k=None, gain=options.gain, discount="log2")
    fallback = columns.item is None
    ranking = base.with_items(grades)
    if columns.item is not None:
        names = [str(value) for value in rows[columns.item].to_numpy()[top]]
        try:
            ranking = base.with_items(grades, names)
        except NDCGInputError:
            fallback = True
    k = options.k if options.k is not None and options.k <= ranking.n else None
    return QueryLink(
        query=query,
        ranking=replace(ranking, k=k),
        n_items=len(rows),
        truncated=len(rows) > MAX_ITEMS,
        default_labels=fallback and columns.item is not None,
        tied=bool((ranked.group_size[:MAX_ITEMS] > 1).any()),
    )


# --------------------------------------------------------------------------- widgets


def _choice_widget(
    name: str, choices: Sequence[Any], default: Any, parse: Callable[[str], Any]
) -> tuple[str, list[Any], NDCGInputError | None]:
    """Seed an option's widget state from its link parameter (once); return key and options."""
    key = f"evaluate.{name}"
    error = seed_from_link(key, PARAMS[name], default, parse)
    options = list(choices)
    if st.session_state[key] not in options:
        options.append(st.session_state[key])
    return key, options, error


def _param_text(value: Any) -> str:
    return "all" if value is None else str(value)


def _store_param(name: str) -> None:
    set_param(PARAMS[name], _param_text(st.session_state[f"evaluate.{name}"]))


FORMS: tuple[str, ...] = ("trec", "table")


def _store_form() -> None:
    set_param(PARAMS["form"], st.session_state["evaluate.form"])


def _parse_form(raw: str) -> str:
    return nc.validate.check_choice(raw, FORMS, option=PARAMS["form"])


def _link_ties(raw: str) -> BatchTies:
    """The link's tie treatment: the core's check (``ignore`` has its own message), a refusal
    naming the link's parameter."""
    if raw == "ignore":
        return check_ties(raw)
    return nc.validate.check_choice(raw, BATCH_TIES, option=PARAMS["ties"])


def form_widget(t: Translate, lang: str) -> str:
    """Which form of data the page evaluates: qrels and runs (``"trec"``), or one table with
    its own grades (``"table"``); kept in the link (``eval_form``) and for the session. A value
    the link gives that is neither is named in a message, and the default form is used."""
    error = seed_from_link("evaluate.form", PARAMS["form"], FORMS[0], _parse_form)
    session.keep_widget("evaluate.form", FORMS[0])
    form = str(
        st.radio(
            t("evaluate.form"),
            FORMS,
            key="evaluate.form",
            horizontal=True,
            format_func=lambda v: t(f"evaluate.form_{v}"),
            on_change=_store_form,
        )
    )
    if error is not None:
        show_error(lang, error)
    return form


def option_widgets(lang: str, t: Translate) -> TableOptions:
    """The k, gain, ties and no-relevant selectors (kept in the link), with their explanations."""
    specs = (
        (
            "k",
            K_CHOICES,
            DEFAULT_K,
            lambda raw: parse_k(raw) or "all",
            lambda v: k_text(None if v == "all" else v, t),
        ),
        (
            "gain",
            GAIN_CHOICES,
            "linear",
            lambda raw: nc.validate.check_choice(raw, GAIN_CHOICES, option=PARAMS["gain"]),
            lambda v: t(f"evaluate.gain_{v}"),
        ),
        ("ties", BATCH_TIES, "average", _link_ties, lambda v: t(f"evaluate.ties_{v}")),
        (
            "no_relevant",
            NO_RELEVANT,
            "zero",
            lambda raw: nc.validate.check_choice(raw, NO_RELEVANT, option=PARAMS["no_relevant"]),
            lambda v: t(f"evaluate.no_relevant_{v}"),
        ),
    )
    values: dict[str, Any] = {}
    for column, (name, choices, default, parse, label) in zip(st.columns(4), specs, strict=True):
        key, options, error = _choice_widget(name, choices, default, parse)
        with column:
            values[name] = st.selectbox(
                t(f"evaluate.{name}"),
                options,
                key=key,
                format_func=label,
                on_change=_store_param,
                args=(name,),
                placeholder=t("common.choose"),
                filter_mode=None,
            )
            if error is not None:
                show_error(lang, error)
    st.caption(t("evaluate.ties_note"))
    st.caption(t("evaluate.sklearn_note"))
    st.caption(t("evaluate.no_relevant_note"))
    values["k"] = None if values["k"] == "all" else values["k"]
    return TableOptions(**values)


def column_widgets(source: TableRun, t: Translate) -> Columns | None:
    """Selectboxes choosing each role's column; ``None`` until query, relevance and score are set."""
    columns = list(source.frame.columns)
    guess = guess_columns(columns)
    chosen: dict[str, Any] = {}
    # a choice belongs to one file: another file, even with the same header, starts from its own
    # guesses (a kept "no item column" would refuse trec_eval ties on a file that has one, a
    # kept "score = relevance" would refuse the next file for a choice its visitor never made)
    if st.session_state.get("evaluate.columns_of") != source.key:
        for role in ROLES:
            st.session_state.pop(f"evaluate.col_{role}", None)
        st.session_state["evaluate.columns_of"] = source.key
    for box, role in zip(st.columns(4), ROLES, strict=True):
        key = f"evaluate.col_{role}"
        options: list[Any] = ([None] if role == "item" else []) + list(columns)
        default = guess[role]
        with box:
            chosen[role] = st.selectbox(
                t(f"evaluate.col_{role}"),
                options,
                key=key,
                index=options.index(default) if default in options else None,
                format_func=lambda c: (
                    t("evaluate.no_column") if c is None else t("evaluate.column_name", name=c)
                ),
                placeholder=t("evaluate.no_column"),
                filter_mode=None,
            )
    if any(chosen[role] is None for role in REQUIRED):
        st.info(t("evaluate.choose_columns"), icon=":material/view_column:")
        return None
    return Columns(
        query=chosen["query"], relevance=chosen["relevance"], score=chosen["score"], item=chosen["item"]
    )


class Progress:
    """A progress bar for long work: shown only for large files, removed when done."""

    def __init__(self, show: bool) -> None:
        self._bar = st.progress(0.0) if show else None

    def update(self, fraction: float, text: str) -> None:
        if self._bar is not None:
            self._bar.progress(min(max(fraction, 0.0), 1.0), text=text)

    def reader(self, text: str, share: float) -> Callable[[int, int], None]:
        """An ``on_progress(done, total)`` callback filling the bar up to ``share``."""
        return lambda done, total: self.update(share * done / max(total, 1), text)

    def done(self) -> None:
        if self._bar is not None:
            self._bar.empty()


# --------------------------------------------------------------------------- charts


def data_widgets(lang: str, t: Translate) -> tuple[TableRun | None, str | None, Progress]:
    """The run to evaluate: the built-in sample (and its CSV) or an uploaded file, kept for the
    session; with the name the results give it and the progress bar of a large file. A file
    the core refuses shows its message, and no run."""
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
    progress = Progress(False)
    if kind == "sample":
        sample = load_sample()
        st.caption(
            t(
                "evaluate.sample_caption",
                seed=SAMPLE_SEED,
                n_rows=f"{len(sample):,}",
                n_queries=SAMPLE_QUERIES,
            )
        )
        st.download_button(
            t("evaluate.sample_download"),
            sample_csv(),
            file_name="sample_run.csv",
            mime="text/csv",
            key="evaluate.sample_download",
            on_click="ignore",
            icon=":material/download:",
        )
        source = TableRun(sample, key=f"sample:{SAMPLE_QUERIES}:{SAMPLE_SEED}", name="sample_run.csv")
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
            progress = Progress(file.size > LARGE_BYTES)
            try:
                table = load_upload(
                    file.data,
                    name=file.name,
                    digest=file.digest,
                    on_progress=progress.reader(t("evaluate.progress_read"), 0.5),
                )
            except NDCGInputError as err:
                show_error(lang, err)
            else:
                source = TableRun(table, key=file.digest, name=file.name)
                label = file.name
                st.caption(
                    t(
                        "evaluate.file_loaded",
                        name=md_escape(file.name),
                        n_rows=f"{len(table):,}",
                        n_columns=len(table.columns),
                    )
                )

    return source, label, progress


def table_config(k: str, t: Translate) -> dict[str, Any]:
    """Translated headers and 4-decimal formats for the core's per-query columns."""
    number = "%.4f"
    return {
        "query": st.column_config.TextColumn(t("evaluate.th_query")),
        "n_items": st.column_config.NumberColumn(t("evaluate.th_items"), format="%d"),
        "dcg": st.column_config.NumberColumn(t("evaluate.th_dcg", k=k), format=number),
        "idcg": st.column_config.NumberColumn(t("evaluate.th_idcg", k=k), format=number),
        "ndcg": st.column_config.NumberColumn(t("evaluate.th_ndcg", k=k), format=number),
        "note": st.column_config.TextColumn(t("evaluate.th_note")),
    }


def with_notes(per_query: pd.DataFrame, t: Translate) -> pd.DataFrame:
    """The rows with a text note on queries with nothing relevant (IDCG = 0), so it is not colour alone."""
    notes = per_query["idcg"].gt(0).map({True: "", False: t("evaluate.nothing_relevant")})
    return per_query.assign(query=per_query["query"].astype(str), note=notes)


# --------------------------------------------------------------------------- results


def _choose_query(worst: pd.DataFrame, t: Translate) -> Any:
    key = "evaluate.open_query"
    options = list(worst["query"])
    if key in st.session_state and st.session_state[key] not in options:
        del st.session_state[key]  # other options or another file: back to the worst query
    shown = dict(zip(options, worst["ndcg"], strict=True))
    return st.selectbox(
        t("evaluate.open_choice"),
        options,
        key=key,
        placeholder=t("common.choose"),
        format_func=lambda q: t("evaluate.open_option", query=q, ndcg=fmt(shown[q])),
    )


def _open(link: QueryLink, source: str) -> None:
    set_ranking(link.ranking)
    session.set_origin(session.Origin(query=str(link.query), run="", source=source, ranking=link.ranking))


def open_in_calculator(link: QueryLink, t: Translate, *, source: str = "") -> None:
    """Notes on what the Calculator gets, and the button that opens the query there (the
    Calculator then names the query and ``source`` and links back here)."""
    if link.tied:
        st.caption(t("evaluate.open_note_ties"))
    if link.truncated:
        st.caption(t("evaluate.open_note_truncated", n=link.n_items, limit=MAX_ITEMS))
    if link.default_labels:
        st.caption(t("evaluate.open_note_labels"))
    if st.button(
        t("evaluate.open_button"),
        key="evaluate.open",
        icon=":material/calculate:",
        on_click=_open,
        args=(link, source),
    ):  # not "primary": see practice.py
        st.switch_page(PAGE_BY_ID["calculator"].path)


def results(
    evaluation: Evaluation,
    source: TableRun,
    columns: Columns,
    options: TableOptions,
    *,
    t: Translate,
    label: str | None = None,
) -> None:
    """The mean and counts, the two charts, the worst queries, the download; ``label`` names
    what is shown (the file, or the sample)."""
    run = evaluation.result
    k = k_text(options.k, t)
    label = label or source.name
    st.header(t("evaluate.results_header"))
    st.caption(t("evaluate.showing", name=md_escape(label)))
    mean_box, count_box, empty_box = st.columns(3)
    mean_box.metric(
        t("evaluate.mean", k=k),
        fmt(run.mean),
        border=True,
        help=t("evaluate.mean_help", n_in_mean=run.n_in_mean, n_queries=run.n_queries),
    )
    count_box.metric(t("evaluate.n_queries"), f"{run.n_queries:,}", border=True)
    empty_box.metric(
        t("evaluate.n_no_relevant"),
        f"{run.n_no_relevant:,}",
        border=True,
        help=t("evaluate.n_no_relevant_help"),
    )
    if pd.isna(run.mean):
        st.warning(t("evaluate.mean_undefined"), icon=":material/warning:")

    left, right = st.columns(2)
    with left:
        st.subheader(t("evaluate.hist_header", k=k))
        st.caption(t("evaluate.hist_caption", k=k))
        hist = charts.run_histogram_spec(run.per_query, run.mean, k=k, t=t)
        st.vega_lite_chart(hist, key="evaluate.histogram")
        chart_downloads(hist, "ndcg_per_query_histogram")
        if options.no_relevant == "drop" and run.n_no_relevant:
            st.caption(t("evaluate.hist_left_out", n=run.n_no_relevant))
    with right:
        st.subheader(t("evaluate.curve_header"))
        st.caption(t("evaluate.curve_caption"))
        by_k = charts.mean_by_k_spec(evaluation.curve, options.k, ks=CURVE_KS, t=t)
        st.vega_lite_chart(by_k, key="evaluate.curve")
        chart_downloads(by_k, "mean_ndcg_at_each_k")

    worst = worst_queries(run.per_query)
    config = table_config(k, t)
    if len(worst):
        st.subheader(t("evaluate.worst_header"))
        st.caption(t("evaluate.worst_caption", n=len(worst), k=k))
        configured_table(
            worst.assign(query=worst["query"].astype(str)), column_config=config, key="evaluate.worst"
        )
        query = _choose_query(worst, t)
        if query is not None:
            open_in_calculator(query_link(source.frame, query, columns, options), t, source=label)

    st.download_button(
        t("evaluate.download"),
        per_query_csv(run.per_query),
        file_name=f"ndcg_at_{_param_text(options.k)}_per_query.csv",
        mime="text/csv",
        key="evaluate.download",
        on_click="ignore",
        icon=":material/download:",
    )
    with st.expander(t("evaluate.all_queries", n=f"{run.n_queries:,}")):
        if run.n_queries > TABLE_ROWS:
            st.caption(t("evaluate.all_queries_capped", shown=f"{TABLE_ROWS:,}", n=f"{run.n_queries:,}"))
        st.dataframe(
            with_notes(run.per_query.head(TABLE_ROWS), t),
            hide_index=True,
            column_config=config,
            key="evaluate.all",
        )


__all__ = [
    "Columns",
    "Evaluation",
    "Progress",
    "QueryLink",
    "TableOptions",
    "TableRun",
    "column_widgets",
    "evaluate",
    "file_digest",
    "form_widget",
    "guess_columns",
    "k_text",
    "load_sample",
    "load_upload",
    "open_in_calculator",
    "option_widgets",
    "per_query_csv",
    "query_link",
    "results",
    "sample_csv",
    "table_config",
    "upload_digest",
    "with_notes",
    "worst_queries",
]
