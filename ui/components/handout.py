"""Exports of the current example: the step table as CSV and the printable one-page handout.

Built from the core (user text escaped by Jinja2's autoescaping, never rendered), offered by the
sidebar's export popover (:func:`export_control`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import ndcg_core as nc
from ndcg_core.latex import formulas
from ui.framework import i18n
from ui.framework.state import Ranking, format_grade

if TYPE_CHECKING:  # imported when a handout is made, not with the app
    import jinja2


def step_table(ranking: Ranking) -> Any:
    """The core's step table of the shared ranking (item names included)."""
    return nc.step_table(list(ranking.relevance), labels=list(ranking.labels), **ranking.judged_options())


def step_table_csv(ranking: Ranking) -> bytes:
    """The step table as UTF-8 CSV (with a byte-order mark, so spreadsheets read Chinese names).

    Columns keep the core's names (``position, item, relevance, gain, cg, ...``), the same as
    the command line's output, so a file reads the same in both languages. Item names that a
    spreadsheet would run as a formula are escaped by :func:`ndcg_core.to_csv_bytes`.
    """
    return nc.to_csv_bytes(step_table(ranking), encoding="utf-8-sig")


def _column_title(lang: str, column: str) -> str:
    key = f"classroom.columns.{column}"
    return i18n.translate(lang, key) if key in i18n.catalog(lang) else column


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "✓" if value else "—"
    if isinstance(value, float):
        return "" if value != value else f"{value:.4f}".rstrip("0").rstrip(".") if value % 1 else f"{value:g}"
    return str(value)


HANDOUT_COLUMNS: tuple[str, ...] = (
    "position",
    "item",
    "relevance",
    "gain",
    "cg",
    "discount",
    "discounted_gain",
    "dcg",
    "ideal_item",
    "ideal_relevance",
    "idcg",
    "ndcg",
    "in_cutoff",
)

TEXT_COLUMNS = frozenset({"item", "ideal_item"})


@lru_cache(maxsize=1)
def _templates() -> jinja2.Environment:
    """The Jinja2 environment of ``ui/templates`` (autoescaping on: every value is escaped)."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("ui", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
    )


def handout_html(ranking: Ranking, lang: str, *, link: str | None = None) -> str:
    """A printable one-page summary of the example: ranking, metrics, formulas, step table.

    Everything numeric comes from the core (metrics, step table, formulas as MathML); the
    template ``ui/templates/handout.html.j2`` escapes every value (item names, the link,
    translations), except the MathML that ``latex2mathml`` builds from the core's formulas.
    The file is downloaded, never rendered in the app.
    """
    from latex2mathml.converter import convert
    from markupsafe import Markup

    def t(key: str, **params: Any) -> str:
        return i18n.translate(lang, f"classroom.{key}", **params)

    m = nc.metrics(list(ranking.relevance), **ranking.judged_options())
    table = step_table(ranking)[list(HANDOUT_COLUMNS)]

    def shown(column: str, value: Any, item: Any) -> str:
        # a returned item without a grade is unjudged: "?" (kept with gain 0 by unjudged="zero")
        if column == "relevance" and item != nc.NO_ITEM and value != value:
            return "?"
        return _cell(value)

    rows = [
        {
            "past_k": not values["in_cutoff"],
            "cells": [
                {"text": column in TEXT_COLUMNS, "value": shown(column, value, values["item"])}
                for column, value in values.items()
            ],
        }
        for values in table.to_dict("records")
    ]
    variant = t("handout.variant", gain=t(f"gain.{ranking.gain}"), discount=t(f"discount.{ranking.discount}"))
    if ranking.has_unjudged:
        variant += " " + t(f"handout.unjudged_{ranking.unjudged}")
    if ranking.pool is not None:
        variant += " " + t(
            "handout.pool",
            n=len(ranking.pool),
            m=len(ranking.missed),
            grades=", ".join(format_grade(x) for x in ranking.missed),
        )
    prime = "′" if ranking.has_unjudged and ranking.unjudged == "drop" else ""
    return (
        _templates()
        .get_template("handout.html.j2")
        .render(
            html_lang="zh-Hans" if lang == "zh" else "en",
            title=t("handout.title"),
            variant=variant,
            ranking_title=t("handout.ranking"),
            items=[
                {"label": label, "grade": format_grade(grade)}
                for label, grade in zip(ranking.labels, ranking.relevance, strict=True)
            ],
            metrics=[
                {"name": f"{name}{prime}@{ranking.metric_k(m.k)}", "value": f"{value:.4f}"}
                for name, value in (("DCG", m.dcg), ("IDCG", m.idcg), ("nDCG", m.ndcg))
            ],
            formulas_title=t("handout.formulas"),
            # MathML made by latex2mathml from the core's own LaTeX (no user text in it)
            formulas=[
                Markup(convert(f.substituted, display="block"))
                for f in formulas(list(ranking.relevance), **ranking.judged_options())
            ],
            steps_title=t("handout.steps"),
            columns=[
                {"title": _column_title(lang, column), "text": column in TEXT_COLUMNS}
                for column in HANDOUT_COLUMNS
            ],
            rows=rows,
            past_k_note=t("handout.past_k_note"),
            link=link,
            link_label=t("handout.link"),
        )
    )


def export_control(lang: str, ranking: Ranking, link: str) -> None:
    """Downloads of the current example: the step table as CSV and a printable handout."""
    import streamlit as st

    with st.popover(
        i18n.translate(lang, "classroom.export"),
        icon=":material/download:",
        width="stretch",
        key="lab.export",
    ):
        st.download_button(
            i18n.translate(lang, "classroom.step_csv"),
            data=lambda: step_table_csv(ranking),
            file_name="ndcg_steps.csv",
            mime="text/csv",
            key="lab.download_csv",
            on_click="ignore",
            icon=":material/table_view:",
            width="stretch",
        )
        st.download_button(
            i18n.translate(lang, "classroom.handout_download"),
            data=lambda: handout_html(ranking, lang, link=link),
            file_name="ndcg_handout.html",
            mime="text/html",
            key="lab.download_handout",
            on_click="ignore",
            icon=":material/print:",
            width="stretch",
            help=i18n.translate(lang, "classroom.handout_help"),
        )
