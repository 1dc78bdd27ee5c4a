"""The Evaluate page's IR form: qrels and TREC runs, judged pools, and comparing runs.

Every number comes from the core: :func:`ndcg_core.trec.evaluate_trec` (per-query nDCG at
each cutoff, judged@k, the means), :func:`ndcg_core.significance.compare_runs` (differences
against a baseline, bootstrap interval, paired t and randomization tests, Holm's correction)
and the readers of :mod:`ndcg_core.trec`. This module loads, caches (in the page's
:class:`ui.framework.memory.BudgetCache`, keyed on the files' digests), draws widgets, tables, charts and
the plain-language reading of the tests; it does no metric or test arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd
import streamlit as st

import ndcg_core as nc
from ndcg_core import NDCGInputError, significance, trec
from ndcg_core import options as opt
from ndcg_core.ties import rank_by_score
from ndcg_teach.exercises import MAX_SEED, parse_seed
from ndcg_teach.samples import sample_trec
from ui.components import charts
from ui.components.charts import chart_downloads
from ui.components.widgets import configured_table, parsed_input, static_table
from ui.framework import session
from ui.framework.i18n import Translate
from ui.framework.memory import cached
from ui.framework.navigation import EVALUATE_TREC_PARAMS, PAGE_BY_ID
from ui.framework.shared import seed_from_link, set_param, set_ranking, show_error
from ui.framework.state import MAX_ITEMS, Ranking
from ui.framework.text import fmt, md_escape, signed

SAMPLE_SEED = 0
DEFAULT_CUTOFFS: tuple[int, ...] = opt.TREC_DEFAULTS.k or ()
#: Characters of the cutoffs box: room for a dozen cutoffs, not for thousands of columns.
MAX_CUTOFF_CHARS = 60
CONFIDENCE = 0.95
N_RESAMPLES = 10_000
TABLE_ROWS = 10_000
#: Most unanswered queries a run's note names.
MISSING_SHOWN = 10
QRELS_KEY = "evaluate.trec_qrels"
RUNS_KEY = "evaluate.trec_runs"
#: The link parameters of the options (the same names as the core's options, shortened).
PARAMS = EVALUATE_TREC_PARAMS
#: Each option's choices and default: the core's vocabulary and trec_eval's defaults
#: (:mod:`ndcg_core.options`); the page leaves grades as given.
CHOICES: dict[str, tuple[tuple[str, ...], str]] = {
    name: (choices, getattr(opt.TREC_DEFAULTS, name))
    for name, choices in opt.CHOICES.items()
    if name != "grades"
}


@dataclass(frozen=True, slots=True, eq=False)
class Collection:
    """Qrels and runs to evaluate, a cache key (the files' digests) and what to call them."""

    qrels: pd.DataFrame
    runs: dict[str, pd.DataFrame]
    key: tuple[str, ...]
    label: str


# --------------------------------------------------------------------------- loading


@st.cache_data(show_spinner=False)
def load_sample(seed: int = SAMPLE_SEED) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """The teaching collection shipped with the app (seeded: every session sees the same)."""
    return sample_trec(seed=seed)


def sample_run_name(name: str, t: Translate) -> str:
    """A sample run's name in the page's language (``good`` is 较好 in Chinese); a name
    without a translation stays as it is."""
    key = f"evaluate.sample_run_{name}"
    text = t(key)
    return name if text == key else text


def sample_collection(t: Translate) -> Collection:
    """The sample collection as the page evaluates it, its runs named in the page's language
    (they are the app's teaching examples, not a user's files)."""
    qrels, runs = load_sample()
    runs = {sample_run_name(name, t): run for name, run in runs.items()}
    return Collection(
        qrels=qrels, runs=runs, key=("sample", str(SAMPLE_SEED), *runs), label=t("evaluate.trec_sample_name")
    )


def read_qrels_file(file: session.KeptFile) -> pd.DataFrame:
    """A qrels file read by the core, once per (bytes, name)."""
    return cached(("qrels", file.digest, file.name), lambda: trec.read_qrels(file.data, name=file.name))


def read_run_file(file: session.KeptFile) -> pd.DataFrame:
    """A run file read by the core, once per (bytes, name)."""
    return cached(("trec_run", file.digest, file.name), lambda: trec.read_trec_run(file.data, name=file.name))


def run_names(files: Sequence[session.KeptFile]) -> list[str]:
    """A name for each run: its file name without the usual suffixes
    (:func:`ndcg_core.trec.run_name`), numbered when two files give the same name.

    >>> run_names([session.kept_file("bm25.run", b"1"), session.kept_file("bm25.txt", b"2")])
    ['bm25', 'bm25 (2)']
    """
    names: list[str] = []
    for file in files:
        stem = trec.run_name(file.name) or file.name
        name, n = stem, 1
        while name in names:
            n += 1
            name = f"{stem} ({n})"
        names.append(name)
    return names


def uploaded_collection(
    qrels_file: session.KeptFile | None, run_files: Sequence[session.KeptFile], t: Translate
) -> tuple[Collection | None, list[NDCGInputError]]:
    """The collection of the uploaded files, and the error of each file that could not be read.

    A run that cannot be read is left out and the others are evaluated; without readable
    qrels nothing is.
    """
    errors: list[NDCGInputError] = []
    qrels = None
    if qrels_file is not None:
        try:
            with busy(t("evaluate.trec_progress_qrels", name=md_escape(qrels_file.name))):
                qrels = read_qrels_file(qrels_file)
        except NDCGInputError as err:
            errors.append(err)
    runs: dict[str, pd.DataFrame] = {}
    digests: list[str] = []
    for file, name in zip(run_files, run_names(run_files), strict=True):
        try:
            with busy(t("evaluate.trec_progress_run", name=md_escape(file.name))):
                runs[name] = read_run_file(file)
        except NDCGInputError as err:
            errors.append(err)
        else:
            digests.append(f"{file.digest}:{name}")
    if qrels is None or qrels_file is None or not runs:
        return None, errors
    label = t("evaluate.trec_files_name", qrels=qrels_file.name, runs=t("common.list_separator").join(runs))
    return Collection(qrels=qrels, runs=runs, key=(qrels_file.digest, *digests), label=label), errors


# --------------------------------------------------------------------------- evaluation


def busy(text: str) -> Any:
    """A spinner with ``text`` (in the page's language) while a step of the work runs: reading
    a file, evaluating the runs, comparing them. Streamlit shows it only once the step has
    taken about half a second, so a small file or a cached result shows nothing."""
    return st.spinner(text, show_time=True)


def evaluate(collection: Collection, options: opt.Options) -> Any:
    """The core's evaluation of every run (cached by the files' digests and the options)."""
    return cached(
        ("trec_evaluate", collection.key, options),
        lambda: trec.evaluate_trec(collection.qrels, collection.runs, options=options),
    )


def paired_queries(per_query: pd.DataFrame, measure: str) -> pd.DataFrame:
    """The rows of the queries that every run has a value for. The tests pair each query's
    values, and the core refuses a missing one (``compare_not_finite``): a query the options
    leave out of one run's mean (NaN: ``missing="drop"``, ``no_relevant="drop"``) is left
    out of every run.

    >>> table = pd.DataFrame({"run": ["a", "a", "b", "b"], "query": ["1", "2", "1", "2"],
    ...                       "ndcg": [0.5, 1.0, float("nan"), 0.25]})
    >>> paired_queries(table, "ndcg")["query"].tolist()
    ['2', '2']
    """
    runs = per_query["run"].nunique()
    valued = per_query.loc[per_query[measure].notna()]
    complete = valued.groupby("query", sort=False)["run"].transform("size") == runs
    return valued.loc[complete]


def compare(
    collection: Collection, options: opt.Options, result: Any, *, measure: str, baseline: str, seed: int
) -> significance.Comparison:
    """The core's comparison of every run with the baseline over :func:`paired_queries`
    (cached like the evaluation)."""
    comparison: significance.Comparison = cached(
        ("trec_compare", collection.key, options, measure, baseline, seed),
        lambda: significance.compare_runs(
            paired_queries(result.per_query, measure),
            measure=measure,
            baseline=baseline,
            confidence=CONFIDENCE,
            n_resamples=N_RESAMPLES,
            seed=seed,
        ),
    )
    return comparison


# --------------------------------------------------------------------------- widgets


def _seed_widget(name: str, default: Any, parse: Callable[[str], Any], lang: str) -> str:
    """Seed a widget's state from its link parameter once (a bad value: message, default)."""
    key = f"evaluate.trec_{name}"
    error = seed_from_link(key, PARAMS[name], default, parse)
    if error is not None:
        show_error(lang, error)
    return key


def _store(name: str, text: Callable[[Any], str]) -> None:
    set_param(PARAMS[name], text(st.session_state[f"evaluate.trec_{name}"]))


def _cutoff_param(text: str) -> str:
    return text.strip() or "all"


def cutoffs_from_text(text: str) -> tuple[int, ...] | None:
    """The cutoffs typed in the box (``"5, 10,20"``), by the core's parser; empty or ``all``:
    the whole list. Raises the core's :class:`NDCGInputError` for anything else.

    >>> cutoffs_from_text("5, 10"), cutoffs_from_text(" "), cutoffs_from_text("all")
    ((5, 10), None, None)
    """
    folded = text.strip()
    return None if folded.lower() in ("", "all") else opt.parse_cutoffs(folded)


def _seed_cutoffs(raw: str) -> str:
    parsed = cutoffs_from_text(raw)  # a bad link value: its message, and the default
    return "" if parsed is None else ",".join(str(k) for k in parsed)


def _choice_parser(choices: tuple[str, ...], name: str) -> Callable[[str], str]:
    """The link parser of one option: the core's check against its choices (a refusal names
    the link's parameter, ``trec_gain``, which is what the person typed wrong)."""
    return lambda raw: nc.validate.check_choice(raw, choices, option=PARAMS[name])


def _choice_label(t: Translate, name: str) -> Callable[[str], str]:
    """How one option's selectbox names each of its choices."""
    return lambda value: t(f"evaluate.{name}_{value}")


def option_widgets(lang: str, t: Translate) -> opt.Options:
    """The cutoffs and the seven choices (each kept in the link), and what each one means."""
    # a text box, not a multi-select: any cutoffs, and no chip drawn in the theme's light blue
    key = _seed_widget("k", ",".join(map(str, DEFAULT_CUTOFFS)), _seed_cutoffs, lang)
    cutoffs = parsed_input(
        lang,
        t("evaluate.trec_k"),
        cutoffs_from_text,
        key=key,
        refused=DEFAULT_CUTOFFS,
        max_chars=MAX_CUTOFF_CHARS,
        on_change=_store,
        args=("k", _cutoff_param),
        placeholder=t("evaluate.trec_k_all"),
        help=t("evaluate.trec_k_help"),
    )
    values: dict[str, Any] = {}
    names = list(CHOICES)
    # the IR options' choices are long ("count as 0 (trec_eval -c)"): two to a row, never cut
    for row in (names[:3], names[3:5], names[5:]):
        for box, name in zip(st.columns(len(row)), row, strict=True):
            options, default = CHOICES[name]
            key = _seed_widget(name, default, _choice_parser(options, name), lang)
            with box:
                values[name] = st.selectbox(
                    t(f"evaluate.{name}"),
                    options,
                    key=key,
                    format_func=_choice_label(t, name),
                    on_change=_store,
                    args=(name, str),
                    placeholder=t("common.choose"),
                    filter_mode=None,
                )
    with st.expander(t("evaluate.trec_options_explained"), icon=":material/help:"):
        st.markdown("\n".join(f"- {t(f'evaluate.explain_{name}')}" for name in ("k", *CHOICES)))
    return opt.Options(k=cutoffs, **values)


def seed_widget(lang: str, t: Translate) -> int:
    """The seed of the resampling (bootstrap and randomization test), kept in the link."""
    key = _seed_widget("seed", 0, parse_seed, lang)
    return int(
        st.number_input(
            t("evaluate.trec_seed"),
            min_value=0,
            max_value=MAX_SEED,
            step=1,
            key=key,
            on_change=_store,
            args=("seed", str),
            help=t("evaluate.trec_seed_help", n=f"{N_RESAMPLES:,}"),
        )
    )


def data_widgets(lang: str, t: Translate) -> Collection | None:
    """The sample collection or the uploaded qrels and runs (kept for the session)."""
    key = "evaluate.trec_source"
    session.keep_widget(key, "sample")
    kind = st.radio(
        t("evaluate.trec_source"),
        ("sample", "upload"),
        key=key,
        horizontal=True,
        format_func=lambda v: t(f"evaluate.trec_source_{v}"),
    )
    if kind == "sample":
        collection = sample_collection(t)
        qrels, runs = collection.qrels, collection.runs
        st.caption(
            t(
                "evaluate.trec_sample_caption",
                seed=SAMPLE_SEED,
                n_queries=qrels["query"].nunique(),
                n_judged=f"{len(qrels):,}",
                runs=md_escape(t("common.list_separator").join(runs)),
            )
        )
        return collection
    st.caption(t("evaluate.trec_format"))
    qrels_box, runs_box = st.columns(2)
    with qrels_box:
        on_change, args = session.upload_callback(QRELS_KEY)
        upload = st.file_uploader(
            t("evaluate.trec_qrels_label"), key=QRELS_KEY, on_change=on_change, args=args
        )
        qrels_files = session.kept_files(QRELS_KEY, upload)
    with runs_box:
        on_change, args = session.upload_callback(RUNS_KEY)
        uploads = st.file_uploader(
            t("evaluate.trec_runs_label"),
            key=RUNS_KEY,
            accept_multiple_files=True,
            on_change=on_change,
            args=args,
        )
        run_files = session.kept_files(RUNS_KEY, uploads)
    st.caption(t("evaluate.size_limit", limit=st.get_option("server.maxUploadSize")))
    kept_note(upload, qrels_files, uploads, run_files, t)
    qrels_file = qrels_files[0] if qrels_files else None
    if qrels_file is None or not run_files:
        st.info(t("evaluate.trec_upload_prompt"), icon=":material/upload_file:")
    uploaded, errors = uploaded_collection(qrels_file, run_files, t)
    for err in errors:
        show_error(lang, err)
    return uploaded


def kept_note(
    upload: Any,
    qrels: Sequence[session.KeptFile],
    uploads: Any,
    runs: Sequence[session.KeptFile],
    t: Translate,
) -> None:
    """Say which files the page keeps from an earlier visit (the uploaders show them no more),
    with a button that forgets them."""
    kept = [f.name for f in qrels if upload is None] + [f.name for f in runs if not uploads]
    if not kept:
        return
    st.caption(t("evaluate.kept_files", names=md_escape(t("common.list_separator").join(kept))))
    if st.button(t("evaluate.forget_files"), key="evaluate.trec_forget", icon=":material/delete:"):
        session.forget_files(QRELS_KEY)
        session.forget_files(RUNS_KEY)
        st.rerun()


# --------------------------------------------------------------------------- results


def measure_label(column: str, k: tuple[int, ...] | None, t: Translate) -> str:
    """How a result column is headed: ``ndcg@10`` as nDCG@10 (``ndcg``, no cutoff, as nDCG),
    likewise DCG, IDCG and judged@k (translated); the whole list has no ``@``.

    >>> measure_label("dcg@5", (5, 10), lambda key, **p: "judged" + p.get("at", ""))
    'DCG@5'
    """
    name, _, cut = column.partition("@")
    at = f"@{cut}" if cut else ("" if k is None else f"@{k[0]}")
    if name == "judged":
        return t("evaluate.th_judged", at=at)
    return {"ndcg": "nDCG", "dcg": "DCG", "idcg": "IDCG"}.get(name, name) + at


def result_config(columns: Sequence[str], options: opt.Options, t: Translate) -> dict[str, Any]:
    """Translated headers and 4-decimal formats of the core's per-query and mean columns."""
    config: dict[str, Any] = {
        "run": st.column_config.TextColumn(t("evaluate.trec_th_run")),
        "query": st.column_config.TextColumn(t("evaluate.th_query")),
        "n_queries": st.column_config.NumberColumn(t("evaluate.n_queries"), format="%d"),
        "n_items": st.column_config.NumberColumn(t("evaluate.th_items"), format="%d"),
        "missing": st.column_config.CheckboxColumn(t("evaluate.th_missing")),
    }
    for column in columns:
        if column.partition("@")[0] in ("ndcg", "dcg", "idcg", "judged"):
            config[column] = st.column_config.NumberColumn(measure_label(column, options.k, t), format="%.4f")
    return config


def means_table(result: Any, options: opt.Options, t: Translate) -> None:
    """The mean of each run at each cutoff, with judged@k."""
    means = result.means
    configured_table(
        means, column_config=result_config(list(means.columns), options, t), key="evaluate.trec_means"
    )
    st.caption(t("evaluate.trec_judged_note"))


def _queries_note(result: Any, t: Translate) -> None:
    """How many judged queries a run does not answer, and run queries without judgments."""
    n_unjudged = sum(len(queries) for queries in result.unjudged_queries.values())
    for run, queries in result.missing_queries.items():
        if queries:
            shown = t("common.list_separator").join(queries[:MISSING_SHOWN])
            if len(queries) > MISSING_SHOWN:
                shown += t("common.list_separator") + "…"
            st.caption(
                t(
                    f"evaluate.trec_missing_{result.options.missing}",
                    run=md_escape(run),
                    n=len(queries),
                    queries=md_escape(shown),
                )
            )
    if n_unjudged:
        st.caption(t("evaluate.trec_unjudged_queries", n=n_unjudged))
    if result.fractional_grades:
        separator = t("common.list_separator")
        st.caption(
            t(
                "evaluate.trec_fractional_grades",
                grades=separator.join(f"{grade:g}" for grade, _ in result.fractional_grades),
                whole=separator.join(f"{whole:g}" for _, whole in result.fractional_grades),
            )
        )


def results(collection: Collection, options: opt.Options, result: Any, lang: str, t: Translate) -> None:
    """Means, the comparison with its reading, the two charts, the per-query table, the link."""
    st.header(t("evaluate.results_header"))
    st.caption(t("evaluate.showing", name=md_escape(collection.label)))
    means_table(result, options, t)
    _queries_note(result, t)

    columns = options.columns
    measure_column = columns[0]
    if len(columns) > 1:
        measure_column = st.selectbox(
            t("evaluate.trec_compare_on"),
            columns,
            key="evaluate.trec_measure",
            format_func=lambda c: measure_label(c, options.k, t),
            filter_mode=None,
        )
    measure = measure_label(measure_column, options.k, t)
    names = list(collection.runs)
    comparison = None
    if len(names) >= 2:
        st.subheader(t("evaluate.trec_compare_header"))
        left, right = st.columns(2)
        with left:
            session.keep_widget("evaluate.trec_baseline", names[0])
            if st.session_state["evaluate.trec_baseline"] not in names:
                st.session_state["evaluate.trec_baseline"] = names[0]
            baseline = st.selectbox(
                t("evaluate.trec_baseline"), names, key="evaluate.trec_baseline", filter_mode=None
            )
        with right:
            seed = seed_widget(lang, t)
        try:
            with busy(
                t("evaluate.trec_progress_compare", baseline=md_escape(baseline), n=f"{N_RESAMPLES:,}")
            ):
                comparison = compare(
                    collection, options, result, measure=measure_column, baseline=baseline, seed=seed
                )
        except NDCGInputError as err:
            show_error(lang, err)
        else:
            comparison_section(comparison, result, names, baseline=baseline, measure=measure, t=t)
    st.subheader(t("evaluate.trec_dist_header", measure=measure))
    st.caption(t("evaluate.trec_dist_caption"))
    dist = charts.distribution_spec(result.per_query, result.means, t, measure=measure, column=measure_column)
    st.vega_lite_chart(dist, key="evaluate.trec_dist")
    chart_downloads(dist, "ndcg_distribution_per_run")

    st.subheader(t("evaluate.trec_per_query_header"))
    st.download_button(
        t("evaluate.download"),
        lambda: nc.to_csv_bytes(result.per_query),
        file_name="ndcg_per_query.csv",
        mime="text/csv",
        key="evaluate.trec_download",
        on_click="ignore",
        icon=":material/download:",
    )
    n = len(result.per_query)
    with st.expander(t("evaluate.trec_all_rows", n=f"{n:,}")):
        if n > TABLE_ROWS:
            st.caption(t("evaluate.all_queries_capped", shown=f"{TABLE_ROWS:,}", n=f"{n:,}"))
        st.dataframe(
            result.per_query.head(TABLE_ROWS),
            hide_index=True,
            column_config=result_config(list(result.per_query.columns), options, t),
            key="evaluate.trec_all",
        )
    open_query(collection, result, options, measure_column, t)


# --------------------------------------------------------------------------- comparison


def p_text(p: float) -> str:
    """A p-value with 4 decimals; below 0.0001 it says so instead of showing 0.0000.

    >>> p_text(0.04321), p_text(0.0), p_text(2e-5)
    ('0.0432', '< 0.0001', '< 0.0001')
    """
    return "< 0.0001" if p < 0.0001 else f"{p:.4f}"


def comparison_table(comparison: significance.Comparison, t: Translate) -> None:
    """The core's comparison of each run with the baseline as a static table: a column per
    compared run and a row per figure, so it fits a projector and a phone (and screen readers
    read it as a table)."""
    table = comparison.tests
    rows = {
        "trec_th_difference": [signed(d) for d in table["mean_difference"]],
        "trec_th_interval": [
            f"[{signed(low)}, {signed(high)}]"
            for low, high in zip(table["ci_low"], table["ci_high"], strict=True)
        ],
        "trec_th_t_p": [p_text(p) for p in table["p_t_test"]],
        "trec_th_rand_p": [p_text(p) for p in table["p_randomization"]],
        "trec_th_holm_p": [p_text(p) for p in table["p_randomization_holm"]],
        "trec_th_record": [
            f"{better} / {equal} / {worse}"
            for better, equal, worse in zip(table["wins"], table["ties"], table["losses"], strict=True)
        ],
    }
    # one column per compared run, one row per figure: a few narrow columns fit a phone
    columns: dict[str, list[str]] = {
        t("evaluate.trec_th_versus", baseline=comparison.baseline): [t(f"evaluate.{key}") for key in rows]
    }
    for index, run in enumerate(table["run"]):
        columns[str(run)] = [cells[index] for cells in rows.values()]
    # a static table's box: compact cells on a phone, and it scrolls in its box rather than the
    # page when many runs are compared (the sample's four runs are three compared columns)
    static_table(columns, right=list(columns)[1:], key="trec-comparison", scroll=False)
    st.caption(
        t(
            f"evaluate.trec_comparison_caption_{comparison.permutation}",
            n=f"{comparison.n_resamples:,}",
            flips=f"{comparison.n_permutations:,}",
            seed=comparison.seed,
            queries=comparison.n_queries,
        )
    )


def comparison_section(
    comparison: significance.Comparison,
    result: Any,
    names: Sequence[str],
    *,
    baseline: str,
    measure: str,
    t: Translate,
) -> None:
    """The comparison table, its reading and one topic-by-topic chart per compared run."""
    left_out = result.per_query["query"].nunique() - comparison.n_queries
    if left_out:
        st.caption(t("evaluate.trec_paired_note", n=comparison.n_queries, left_out=left_out))
    comparison_table(comparison, t)
    reading(comparison, baseline=baseline, measure=measure, t=t)
    st.subheader(t("evaluate.trec_diff_header", measure=measure))
    st.caption(t("evaluate.trec_diff_caption", baseline=md_escape(baseline)))
    for run, table in differences(comparison).items():
        row = comparison_row(comparison, run)
        chart = charts.difference_spec(
            table,
            t,
            run=run,
            baseline=baseline,
            measure=measure,
            counts=(int(row["wins"]), int(row["ties"]), int(row["losses"])),
            mean=float(row["mean_difference"]),
        )
        st.vega_lite_chart(chart, key=f"evaluate.trec_diff.{run}")
        chart_downloads(chart, f"difference_{list(names).index(run)}")


def comparison_row(comparison: Any, run: str) -> pd.Series:
    """One run's row of the comparison table."""
    table = comparison.tests
    return table.loc[table["run"] == run].iloc[0]


def differences(comparison: Any) -> dict[str, pd.DataFrame]:
    """Each compared run's per-query differences (``query``, ``difference``), in the core's order."""
    table = comparison.differences
    return {str(run): rows for run, rows in table.groupby("run", sort=False)}


def reading(comparison: Any, *, baseline: str, measure: str, t: Translate) -> None:
    """The comparison in plain words for a student, one paragraph per run, and why a small
    difference may be noise."""
    alpha = 1 - CONFIDENCE
    for row in comparison.tests.itertuples(index=False):
        p = float(row.p_randomization_holm)
        params = {
            "run": md_escape(str(row.run)),
            "baseline": md_escape(baseline),
            "measure": measure,
            "difference": signed(row.mean_difference),
            "n": int(row.n_queries),
            "p": ("p < 0.0001" if p < 0.0001 else f"p = {p:.4f}"),
            "alpha": f"{alpha:g}",
            "low": signed(row.ci_low),
            "high": signed(row.ci_high),
            "wins": int(row.wins),
            "losses": int(row.losses),
        }
        if p < alpha:
            direction = "better" if row.mean_difference > 0 else "worse"
            st.success(t(f"evaluate.trec_reading_{direction}", **params), icon=":material/check_circle:")
        else:
            st.info(t("evaluate.trec_reading_chance", **params), icon=":material/casino:")
    with st.expander(t("evaluate.trec_noise_header"), icon=":material/school:"):
        # the core enumerates every sign flip when 2**queries <= N_RESAMPLES (13 queries here)
        exact = N_RESAMPLES.bit_length() - 1
        st.markdown(t("evaluate.trec_noise_text", n=f"{N_RESAMPLES:,}", exact=exact))


# --------------------------------------------------------------------------- the Calculator


@dataclass(frozen=True, slots=True)
class TrecQueryLink:
    """One query of one run as a Calculator ranking."""

    query: str
    run: str
    ranking: Ranking
    n_items: int
    n_unjudged: int
    unjudged_names: tuple[str, ...]
    pool_size: int
    truncated: bool
    pooled: bool
    #: averaged ties among the items shown: the Calculator shows one order of them
    tied: bool = False


def query_ranking(qrels: pd.DataFrame, run: pd.DataFrame, query: str, ties: opt.BatchTies) -> pd.DataFrame:
    """The run's items of one query in the order the system ranked them, with their judged
    grade (NaN when unjudged): columns ``item``, ``relevance``, ``score``.

    The order is :func:`ndcg_core.ties.rank_by_score`'s with the page's tie treatment;
    ``trec_eval`` puts tied items by item id descending (as text), ``input`` and ``average``
    keep them in file order (a list shows one order of a tie).
    """
    rows = run.loc[run["query"].astype(str) == query, ["item", "score"]]
    judged = qrels.loc[qrels["query"].astype(str) == query, ["item", "relevance"]]
    # a negative grade (-1, -2 in TREC qrels) is in the pool but not judged (ndcg_core.trec)
    judged = judged.loc[judged["relevance"] >= 0]
    rows = rows.merge(judged, on="item", how="left", sort=False)
    if ties == "trec_eval":
        # trec_eval's tie order (item id descending as text) is the order of rows sorted that
        # way; the stable ranking below keeps it inside each tie
        rows = rows.sort_values("item", key=lambda s: s.astype(str), ascending=False, kind="stable")
    ranked = rank_by_score(
        # optimistic / pessimistic order a tie by grade; an unjudged item counts as grade 0
        rows["relevance"].fillna(0.0).to_numpy(dtype=float),
        rows["score"].to_numpy(dtype=float),
        # "input" keeps the order above inside a tie (trec_eval's); "average" shows one order
        ties="input" if ties in ("trec_eval", "average") else ties,
    )
    return rows.iloc[ranked.order][["item", "relevance", "score"]].reset_index(drop=True)


def trec_query_link(collection: Collection, run: str, query: str, options: opt.Options) -> TrecQueryLink:
    """The ranking the Calculator gets for one query of one run: the run's top
    :data:`ui.framework.state.MAX_ITEMS` items in the system's order, their grades, and the k chosen.

    Raises the core's ``all_unjudged`` when every item is unjudged and the Calculator could
    not set them against a judged pool (unjudged items dropped, or no judged item above 0)."""
    ordered = query_ranking(collection.qrels, collection.runs[run], query, options.ties)
    top = ordered.head(MAX_ITEMS)
    unjudged = top["relevance"].isna()
    names = [str(item) for item in top["item"]]
    grades = top["relevance"].to_numpy(dtype=float)
    judged = collection.qrels.loc[collection.qrels["query"].astype(str) == query, ["item", "relevance"]]
    # a negative grade is in the pool but not judged (ndcg_core.trec): not part of the ideal
    judged = judged.loc[judged["relevance"] >= 0]
    pool = judged["relevance"].to_numpy(dtype=float)
    # the judged items the list lacks (never returned, or returned past MAX_ITEMS): only those
    # above grade 0 change IDCG, and the Calculator keeps only those (ui.framework.state.Ranking.missed)
    shown = set(names)
    lacking = judged.loc[~judged["item"].astype(str).isin(shown) & (judged["relevance"] > 0), "relevance"]
    missed = sorted(lacking.to_numpy(dtype=float).tolist(), reverse=True)
    # the MAX_ITEMS largest keep every ideal position up to MAX_ITEMS exact; with k = all (or
    # k past MAX_ITEMS) more would be needed, and the page then says the Calculator's can differ
    cut = len(missed) > MAX_ITEMS
    k = options.k[0] if options.k else None
    pooled = options.ideal == "pool" and not (cut and (k is None or k > MAX_ITEMS))
    # unjudged items keep no grade (NaN, "?" in the Calculator) under the page's treatment
    base = Ranking(k=None, gain=options.gain, discount=options.discount, unjudged=options.unjudged)
    if options.ideal == "pool":
        # the ideal from the judged pool: the list's judged grades and the missed ones (set
        # first: a list of unjudged items only is a ranking against its pool)
        base = base.with_missed(missed[:MAX_ITEMS])
    try:
        ranking = base.with_items(grades.tolist(), names)
    except NDCGInputError:  # an id the Calculator cannot take as a name (too long, repeated)
        # (every item unjudged and no pool to set them against: all_unjudged, raised)
        ranking = base.with_items(grades.tolist(), [f"D{i}" for i in range(1, len(names) + 1)])
    # against a pool k is kept even past the list (IDCG@k runs to k), else only within it
    pooled_k = options.ideal == "pool" or (k is not None and k <= ranking.n)
    ranking = replace(ranking, k=k if pooled_k else None)
    return TrecQueryLink(
        query=query,
        run=run,
        ranking=ranking,
        n_items=len(ordered),
        n_unjudged=int(unjudged.sum()),
        unjudged_names=tuple(name for name, flag in zip(names, unjudged.tolist(), strict=True) if flag),
        pool_size=len(pool),
        truncated=len(ordered) > MAX_ITEMS,
        pooled=pooled,
        tied=options.ties == "average" and bool(top["score"].duplicated().any()),
    )


def _open(link: TrecQueryLink, source: str) -> None:
    set_ranking(link.ranking)
    session.set_origin(session.Origin(query=link.query, run=link.run, source=source, ranking=link.ranking))


def open_query(collection: Collection, result: Any, options: opt.Options, column: str, t: Translate) -> None:
    """Choose a run and one of its queries (lowest nDCG first) and open it in the Calculator."""
    st.subheader(t("evaluate.trec_open_header"))
    st.caption(t("evaluate.trec_open_caption"))
    names = list(collection.runs)
    left, right = st.columns(2)
    with left:
        session.keep_widget("evaluate.trec_open_run", names[0])
        if st.session_state["evaluate.trec_open_run"] not in names:
            st.session_state["evaluate.trec_open_run"] = names[0]
        run = st.selectbox(t("evaluate.trec_th_run"), names, key="evaluate.trec_open_run", filter_mode=None)
    per_query = result.per_query
    rows = per_query.loc[(per_query["run"] == run) & ~per_query.get("missing", False)]
    rows = rows.sort_values(column, kind="stable")
    queries = [str(q) for q in rows["query"]]
    value = dict(zip(queries, rows[column].tolist(), strict=True))
    if not queries:
        return
    with right:
        session.keep_widget("evaluate.trec_open_query", queries[0])
        if st.session_state["evaluate.trec_open_query"] not in queries:
            st.session_state["evaluate.trec_open_query"] = queries[0]
        query = st.selectbox(
            t("evaluate.open_choice"),
            queries,
            key="evaluate.trec_open_query",
            format_func=lambda q: t("evaluate.open_option", query=q, ndcg=fmt(value[q])),
        )
    try:
        link = trec_query_link(collection, run, query, options)
    except NDCGInputError as err:
        if err.key != "all_unjudged":
            raise
        st.caption(t("evaluate.trec_open_nothing_judged", query=md_escape(query)))
        return
    if link.n_unjudged == link.ranking.n:
        st.caption(t("evaluate.trec_open_all_unjudged"))
    elif link.n_unjudged:
        st.caption(
            t(
                "evaluate.trec_open_unjudged_shown",
                n=link.n_unjudged,
                names=md_escape(t("common.list_separator").join(link.unjudged_names[:20])),
            )
        )
    if link.pooled:
        st.caption(t("evaluate.trec_open_pooled", n=link.pool_size, m=len(link.ranking.missed)))
    if options.ideal == "pool" and not link.pooled:
        st.caption(t("evaluate.trec_open_pool_cut", n=link.pool_size, limit=MAX_ITEMS))
    if link.tied:
        st.caption(t("evaluate.open_note_ties"))
    if link.truncated:
        st.caption(t("evaluate.open_note_truncated", n=link.n_items, limit=MAX_ITEMS))
    if st.button(
        t("evaluate.open_button"),
        key="evaluate.trec_open",
        icon=":material/calculate:",
        on_click=_open,
        args=(link, collection.label),
    ):
        st.switch_page(PAGE_BY_ID["calculator"].path)


__all__ = [
    "Collection",
    "TrecQueryLink",
    "busy",
    "compare",
    "data_widgets",
    "evaluate",
    "load_sample",
    "option_widgets",
    "paired_queries",
    "query_ranking",
    "results",
    "run_names",
    "sample_collection",
    "trec_query_link",
    "uploaded_collection",
]
