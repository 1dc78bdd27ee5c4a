"""Rendering helpers of the "variants and libraries" page.

Link parameters of the page: ``judged`` (grades of judged items the system did not return),
``scores`` (shared with the ties page) and ``by_score=1`` (tools rank the items by those scores).
Every number comes from the core: :func:`ndcg_core.metrics` for the variants,
:func:`ndcg_core.ndcg_at_each_k` for the chart, :func:`ndcg_teach.tools.tool_scores` for the tools.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core as nc
from ndcg_core import NDCGInputError
from ndcg_core.discounting import Discount
from ndcg_core.gains import Gain
from ndcg_teach import questions, tools
from ndcg_teach.predictions import which_higher
from ui.components import prompts
from ui.components.charts import short_discount
from ui.components.predict import Question
from ui.components.prompts import grades_text
from ui.components.widgets import data_table, static_table
from ui.framework.i18n import Translate
from ui.framework.palette import css_text_on_fill
from ui.framework.shared import get_param, get_ranking, set_param, set_ranking, show_error
from ui.framework.state import MAX_ITEMS, Ranking, format_grade

#: The variants compared side by side: (gain, discount).
VARIANTS: tuple[tuple[Gain, Discount], ...] = (
    ("linear", "log2"),
    ("exponential", "log2"),
    ("linear", "jarvelin"),
    ("exponential", "jarvelin"),
)


def _one(value: Any) -> Any:
    return value[-1] if isinstance(value, list) and value else value


def judged_extra() -> np.ndarray | None:
    """Grades of judged items not returned, from the link (None when absent or empty)."""
    raw = _one(get_param("judged"))
    if raw is None or not str(raw).strip():
        return None
    return nc.parse_numbers(str(raw), what="judged_pool", limit=MAX_ITEMS, allow_negative=False)


def pool_of(ranking: Ranking, extra: np.ndarray | None) -> list[float] | None:
    """The judged pool: the list's own grades plus the judged items it missed."""
    if extra is None:
        return None
    return [*ranking.relevance, *extra.tolist()]


def variants_frame(ranking: Ranking, pool: Sequence[float] | None) -> pd.DataFrame:
    """DCG@k, IDCG@k, nDCG@k of the ranking under each variant (and each ideal, with a pool)."""
    rows = []
    ideals = ("list",) if pool is None else ("list", "pool")
    for ideal in ideals:
        for gain, discount in VARIANTS:
            m = nc.metrics(
                list(ranking.relevance),
                k=ranking.k,
                gain=gain,
                discount=discount,
                pool=None if ideal == "list" or pool is None else list(pool),
            )
            rows.append(
                {
                    "gain": gain,
                    "discount": discount,
                    "ideal": ideal,
                    "k": m.k,
                    "dcg": m.dcg,
                    "idcg": m.idcg,
                    "ndcg": m.ndcg,
                    "yours": gain == ranking.gain
                    and discount == ranking.discount
                    and ideal == ("list" if pool is None else "pool"),
                }
            )
    return pd.DataFrame(rows)


def variants_table(frame: pd.DataFrame, t: Translate) -> pd.DataFrame:
    """The variants with translated headers and values as text."""
    return pd.DataFrame(
        {
            t("variants.gain"): [t(f"variants.gain_{g}") for g in frame["gain"]],
            t("variants.discount"): [t(f"variants.discount_{d}") for d in frame["discount"]],
            t("variants.ideal"): [t(f"variants.ideal_{i}") for i in frame["ideal"]],
            "DCG@k": [f"{x:.4f}" for x in frame["dcg"]],
            "IDCG@k": [f"{x:.4f}" for x in frame["idcg"]],
            "nDCG@k": [f"{x:.4f}" for x in frame["ndcg"]],
            t("variants.yours"): [t("variants.yours_mark") if y else "" for y in frame["yours"]],
        }
    )


def show_variants(frame: pd.DataFrame, t: Translate) -> None:
    shown = variants_table(frame, t)
    yours = frame["yours"].to_numpy()
    styler = shown.style.apply(
        lambda row: (
            [f"font-weight: 700; {css_text_on_fill('your_variant')}" if yours[row.name] else ""] * len(row)
        ),
        axis=1,
    )
    data_table(styler, key="variants.table")


def by_k_frame(ranking: Ranking, pool: Sequence[float] | None, t: Translate) -> pd.DataFrame:
    """nDCG@k for every k under each variant, long format (for the chart)."""
    parts = []
    for gain, discount in VARIANTS:
        by_k = nc.ndcg_at_each_k(
            list(ranking.relevance), gain=gain, discount=discount, pool=None if pool is None else list(pool)
        )
        parts.append(
            by_k.assign(
                gain=t(f"variants.gain_{gain}"),
                discount=short_discount(discount, t),
                variant=f"{t(f'variants.gain_{gain}')} · {t(f'variants.discount_{discount}')}",
            )
        )
    return pd.concat(parts, ignore_index=True)


def gain_question(ranking: Ranking, t: Translate) -> Question:
    """Predict exponential vs linear gain (log2 discount, ideal from the list).

    Decided by the core (:func:`ndcg_teach.predictions.decide`, prompt ``variants.guess``), the
    words from :mod:`ui.components.prompts`, as in a live class.
    """
    return prompts.question("variants.guess", prompts.data_of(ranking), t)


def jarvelin_note(t: Translate) -> str:
    """What "Järvelin–Kekäläinen" means here (b = 2), and the name clash with trec_eval and ranx."""
    return t("variants.jarvelin_note")


# --- tools ---------------------------------------------------------------------------------

#: The tie example of TEACHING.md §3 and §7 (the Scores and ties page's practitioner example).
TIE_EXAMPLE_GRADES: tuple[float, ...] = (7.0, 4.0, 1.0, 0.0, 0.0)
TIE_EXAMPLE_SCORES: tuple[float, ...] = (0.9, 0.5, 0.6, 0.9, 0.9)


def tie_example_values() -> dict[str, str]:
    """The tools' values on the tie example (whole list), from the core, keyed for the text."""
    table = tools.tool_scores(list(TIE_EXAMPLE_GRADES), list(TIE_EXAMPLE_SCORES))
    by_label = table.set_index("label")["ndcg"]
    return {
        key: f"{float(by_label[label]):.4f}"
        for key, label in (
            ("sklearn", "scikit-learn"),
            ("trec_eval", "trec_eval"),
            ("ranx", "ranx ndcg"),
            ("lightgbm", "LightGBM"),
        )
    }


def load_tie_example() -> None:
    """Put the tie example in place: its grades (shared ranking), scores, and rank by them."""
    set_ranking(get_ranking().with_items(TIE_EXAMPLE_GRADES))
    set_param("scores", ", ".join(format(x, ".15g") for x in TIE_EXAMPLE_SCORES))
    set_param("by_score", "1")
    st.session_state.pop("variants.error.scores", None)


def use_scores() -> bool:
    return _one(get_param("by_score")) in ("1", "true", "yes")


def _on_use_scores() -> None:
    set_param("by_score", "1" if st.session_state["variants.use_scores"] else None)


def _on_scores() -> None:
    try:
        scores = nc.parse_numbers(st.session_state["variants.scores"], what="score_list", limit=MAX_ITEMS)
    except NDCGInputError as err:
        st.session_state["variants.error.scores"] = err
        return
    st.session_state.pop("variants.error.scores", None)
    set_param("scores", ", ".join(format(float(x), ".15g") for x in scores))


def scores_controls(ranking: Ranking, t: Translate, lang: str) -> np.ndarray | None:
    """The "rank by scores" toggle and the scores box; the scores to use (None: the ranking's order)."""
    st.session_state["variants.use_scores"] = use_scores()
    st.toggle(
        t("variants.use_scores"),
        key="variants.use_scores",
        on_change=_on_use_scores,
        help=t("variants.use_scores_help"),
    )
    if not use_scores():
        return None
    raw = _one(get_param("scores"))
    if raw is None:
        raw = ", ".join(str(i) for i in range(ranking.n, 0, -1))
        set_param("scores", raw)
    if st.session_state.get("variants.scores_for") != raw and "variants.error.scores" not in st.session_state:
        st.session_state["variants.scores"] = raw
        st.session_state["variants.scores_for"] = raw
    st.text_input(
        t("variants.scores_label"),
        key="variants.scores",
        on_change=_on_scores,
        help=t("variants.scores_help"),
    )
    if (err := st.session_state.get("variants.error.scores")) is not None:
        show_error(lang, err)
    return nc.parse_numbers(str(raw), what="score_list", limit=MAX_ITEMS)


def _grades_text(tool: str, grades: str, t: Translate) -> str:
    """What the tool does with non-integer grades, with the two caveats TEACHING.md §7 names."""
    text = t(f"variants.grades_{grades}")
    if tool == "trec_eval":
        text += t("variants.grades_pytrec")
    elif tool == "torchmetrics":
        text += t("variants.grades_docstring")
    return text


def tools_table(table: pd.DataFrame, t: Translate) -> pd.DataFrame:
    """The core's tool table with translated settings; refused inputs say so instead of a number."""

    def note(row: Any) -> str:
        status = row["status"]
        if status == "ok":
            return ""
        if status == "empty_left_out":
            return t("variants.gdeval.status_empty_left_out")
        if status == "empty":
            return t("variants.status_empty", value=format_grade(float(row["empty"])))
        if status == "rejects_large":
            return t("variants.status_rejects_large", limit=int(row["max_grade"]))
        return t(f"variants.status_{status}")

    return pd.DataFrame(
        {
            t("variants.tool"): table["tool"].tolist(),
            t("variants.call"): table["call"].tolist(),
            t("variants.value"): [t("variants.refused") if pd.isna(x) else f"{x:.4f}" for x in table["ndcg"]],
            t("variants.gain"): [t(f"variants.gain_{g}") for g in table["gain"]],
            t("variants.ties"): [t(f"variants.ties_{x}") for x in table["ties"]],
            t("variants.ideal"): [t(f"variants.ideal_{x}") for x in table["ideal"]],
            t("variants.empty"): [
                t("variants.gdeval.empty_left_out") if pd.isna(x) else format_grade(float(x))
                for x in table["empty"]
            ],
            t("variants.grades"): [
                _grades_text(tool, grades, t)
                for tool, grades in zip(table["tool"], table["grades"], strict=False)
            ],
            t("variants.note"): [note(row) for _, row in table.iterrows()],
        }
    )


# --- the questions learners ask (issue 23, items 8 and 10) ----------------------------------


def learner_questions(ranking: Ranking, t: Translate) -> None:
    """The page's last sections: which metric (nDCG, AP, RR, P@k) and LightGBM's ``label_gain``.
    They need a grade for every item (the page's notice above says so otherwise)."""
    if ranking.has_unjudged:
        return
    try:
        pool = pool_of(ranking, judged_extra())
    except NDCGInputError:  # shown above, at the judged-items box
        pool = None
    metrics_section(ranking, pool, t)
    label_gain_section(ranking, t)


# --- which metric: nDCG, AP, RR, P@k (ndcg_teach.questions.metric_table) --------------------


def _metric_name(metric: str, k: int | None, t: Translate) -> str:
    return t(f"variants.metrics.name_{metric}", k="k" if k is None else k)


def metrics_section(ranking: Ranking, pool: Sequence[float] | None, t: Translate) -> None:
    """nDCG@k, AP@k, RR and P@k of the shared ranking (when every item is graded), then two
    rankings of one query on which they disagree; every number from the core."""
    st.header(t("variants.metrics.title"))
    st.markdown(t("variants.metrics.intro"))
    k = ranking.k
    col_metric, col_value, col_rewards = (
        t("variants.metrics.col_metric"),
        t("variants.metrics.col_value"),
        t("variants.metrics.col_rewards"),
    )
    if not ranking.has_unjudged:
        values = questions.metric_table(
            list(ranking.relevance), k=k, pool=pool, gain=ranking.gain, discount=ranking.discount
        )
        st.markdown(f"**{t('variants.metrics.yours')}**")
        static_table(
            {
                col_metric: [_metric_name(m, ranking.cutoff, t) for m in values],
                col_value: [f"{v:.4f}" for v in values.values()],
                col_rewards: [t(f"variants.metrics.rewards_{m}") for m in values],
            },
            right={col_value},
            key="variants-metrics-yours",
            scroll=False,
        )
    dk = questions.DISAGREE_K
    a = questions.metric_table(list(questions.DISAGREE_A), k=dk, pool=list(questions.DISAGREE_POOL))
    b = questions.metric_table(list(questions.DISAGREE_B), k=dk, pool=list(questions.DISAGREE_POOL))
    st.markdown(
        t(
            "variants.metrics.disagree",
            a=grades_text(questions.DISAGREE_A),
            b=grades_text(questions.DISAGREE_B),
            pool=grades_text(questions.DISAGREE_POOL),
        )
    )
    col_a, col_b = t("variants.metrics.col_a"), t("variants.metrics.col_b")
    prefers = {"A": "prefers_a", "B": "prefers_b", "same": "prefers_same"}
    static_table(
        {
            col_metric: [_metric_name(m, dk, t) for m in a],
            col_a: [f"{a[m]:.4f}" for m in a],
            col_b: [f"{b[m]:.4f}" for m in a],
            t("variants.metrics.col_prefers"): [
                t(f"variants.metrics.{prefers[which_higher(a[m], b[m])]}") for m in a
            ],
        },
        right={col_a, col_b},
        key="variants-metrics-pair",
        scroll=False,
    )
    st.info(t("variants.metrics.why"), icon=":material/lightbulb:")


# --- LightGBM's label_gain (ndcg_teach.questions.label_gain_mapping) ------------------------


def label_gain_section(ranking: Ranking, t: Translate) -> None:
    """LightGBM's "Label 72 is not less than the number of label mappings (31)" and non-integer
    labels: the shared ranking's grades mapped to 0..m-1 with one gain each, and the call."""
    st.header(t("variants.label_gain.title"))
    st.markdown(t("variants.label_gain.intro", limit=questions.LIGHTGBM_DEFAULT_LABELS))
    if ranking.has_unjudged:
        return
    gain = ranking.gain
    m = questions.label_gain_mapping(list(ranking.relevance), gain=gain, k=ranking.k)

    st.markdown(
        t(
            "variants.label_gain.mapping",
            grades=grades_text(ranking.relevance),
            levels=grades_text(m.levels),
            gain=t(f"variants.gain_{gain}"),
        )
    )
    st.code(label_gain_code(m, ranking.cutoff, t), language="python")
    c1, c2 = st.columns(2)
    c1.metric(
        t("variants.label_gain.metric_grades", gain=t(f"variants.gain_{gain}")),
        f"{m.ndcg_grades:.4f}",
        border=True,
    )
    c2.metric(t("variants.label_gain.metric_labels"), f"{m.ndcg_labels:.4f}", border=True)
    st.caption(t("variants.label_gain.why"))


def label_gain_code(m: questions.LabelGain, k: int, t: Translate) -> str:
    """The LightGBM call with the mapped labels and their gains (``lightgbm.train``'s params)."""
    labels = ", ".join(str(x) for x in m.labels)
    gains = ", ".join(format(g, ".15g") for g in m.label_gain)
    return (
        f"y = [{labels}]  # {t('variants.label_gain.code_labels', m=len(m.levels) - 1)}\n"
        f'params = {{"objective": "lambdarank", "metric": "ndcg", "eval_at": [{k}],\n'
        f'          "label_gain": [{gains}]}}\n'
        f"train = lightgbm.Dataset(X, label=y, group=[{len(m.labels)}])"
    )
