"""Rendering helpers of the "scores and ties" page, and the tutorial's slip (shared with the lesson).

The page's own link parameters are ``scores`` (one per item, in the items' order) and ``dec``
(round the scores to that many decimals; absent = no rounding). Both go through the core's
parsers, so a broken link shows a translated message instead of failing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core as nc
from ndcg_core import NDCGInputError
from ndcg_core.ties import TieView
from ndcg_teach import predictions
from ui.components import prompts
from ui.components.predict import Question, ask
from ui.components.widgets import data_table, static_table
from ui.framework.i18n import Translate
from ui.framework.navigation import PAGE_BY_ID
from ui.framework.palette import css_text_on_fill
from ui.framework.shared import (
    get_param,
    get_ranking,
    presenting,
    ranking_chosen,
    set_param,
    set_ranking,
    show_error,
)
from ui.framework.state import MAX_ITEMS, Ranking, check_ranking, format_grade, parse_scores
from ui.framework.styles import NARROW_PREFIX, WIDE_PREFIX

#: The practitioner's example of TEACHING.md §3: three items tie at 0.9.
PRACTITIONER_GRADES: tuple[float, ...] = (7.0, 4.0, 1.0, 0.0, 0.0)
PRACTITIONER_SCORES: tuple[float, ...] = (0.9, 0.5, 0.6, 0.9, 0.9)
#: Decimals offered by the rounding control (the core accepts 0 to 15).
DECIMALS: tuple[int, ...] = (0, 1, 2, 3, 4, 6)

#: The tutorial's slip (TEACHING.md §2): true grades, the grades passed as scores, right scores
#: (defined with the prediction that asks about them).
SLIP_GRADES = predictions.SLIP_GRADES
SLIP_WRONG_TRUE = predictions.SLIP_WRONG_TRUE
SLIP_RIGHT_SCORES = predictions.SLIP_RIGHT_SCORES

_SHADE = css_text_on_fill("tied")  # dark text in either theme: tied rows (also said in text)


def format_scores(values: Iterable[float]) -> str:
    """Scores as a link and a text box show them: "0.9,0.5" (up to 15 significant digits)."""
    return ",".join(format(float(x), ".15g") for x in values)


def _one(value: Any) -> Any:
    return value[-1] if isinstance(value, list) and value else value


#: The page's own grades (link parameter): the practitioner's example or grades typed here,
#: kept on this page until "use these grades in the Calculator" (CONTRIBUTING, "The shared
#: ranking"); absent, the page shows the shared ranking's grades.
GRADES_PARAM = "grades"


def load_practitioner() -> None:
    """Put the practitioner's example on this page: its grades and scores (the page's own link
    parameters; the shared ranking stays as it is)."""
    set_param(GRADES_PARAM, ",".join(format_grade(x) for x in PRACTITIONER_GRADES))
    set_param("scores", format_scores(PRACTITIONER_SCORES))
    set_param("dec", None)
    st.session_state.pop("ties.error.scores", None)
    st.session_state.pop("ties.error.grades", None)
    st.session_state.pop("ties.error.link_grades", None)


def ensure_scores() -> None:
    """A first visit without scores: the practitioner's example when nobody chose the shared
    ranking (a fresh session's example), else one score per item of the shared ranking in rank
    order (n, n - 1, ..., 1: no ties). A visit never changes the shared ranking."""
    if get_param("scores") is not None:
        return
    if get_param(GRADES_PARAM) is None and not ranking_chosen():
        load_practitioner()
    else:
        set_param("scores", format_scores(range(page_ranking().n, 0, -1)))


def _grades_ranking(shared: Ranking, text: str) -> Ranking:
    rel = nc.parse_relevance(text, limit=MAX_ITEMS)
    new = shared.with_items(rel.tolist(), shared.labels if rel.size == shared.n else None)
    check_ranking(new)
    return new


def page_ranking() -> Ranking:
    """The ranking this page works on: the shared one with the page's own grades, if any.

    Grades of a link the core refuses are dropped from the link; their message is kept for
    :func:`grades_and_scores` to show under the box.
    """
    shared = get_ranking()
    raw = _one(get_param(GRADES_PARAM))
    if raw is None:
        return shared
    try:
        return _grades_ranking(shared, str(raw))
    except NDCGInputError as err:
        set_param(GRADES_PARAM, None)
        st.session_state["ties.error.link_grades"] = err
        return shared


def own_grades() -> bool:
    """Whether the page shows grades of its own (not the shared ranking's)."""
    return get_param(GRADES_PARAM) is not None


def _on_grades() -> None:
    shared = get_ranking()
    try:
        new = _grades_ranking(shared, st.session_state["ties.grades"])
    except NDCGInputError as err:
        st.session_state["ties.error.grades"] = err
        return
    st.session_state.pop("ties.error.grades", None)
    st.session_state.pop("ties.error.link_grades", None)
    same = new.relevance == shared.relevance
    set_param(GRADES_PARAM, None if same else ",".join(format_grade(x) for x in new.relevance))


_GO = "ties.go_calculator"


def _use_in_calculator() -> None:
    set_ranking(page_ranking())
    set_param(GRADES_PARAM, None)
    st.session_state[_GO] = True  # the button is gone on the next run (no own grades left)


def use_in_calculator(t: Translate) -> None:
    """The explicit action that hands the page's own grades to the shared ranking and opens the
    Calculator; offered only while the page shows grades of its own."""
    if st.session_state.pop(_GO, False):
        st.switch_page(PAGE_BY_ID["calculator"].path)
    if own_grades():
        st.button(
            t("ties.use_in_calculator"),
            key="ties.use",
            on_click=_use_in_calculator,
            icon=":material/calculate:",
            help=t("ties.use_in_calculator_help"),
        )


def _on_scores() -> None:
    try:
        scores = parse_scores(st.session_state["ties.scores"])
    except NDCGInputError as err:
        st.session_state["ties.error.scores"] = err
        return
    st.session_state.pop("ties.error.scores", None)
    set_param("scores", format_scores(scores))


def _on_decimals() -> None:
    value = st.session_state["ties.dec"]
    set_param("dec", None if value is None or value == "none" else str(value))


def _sync(key: str, value: str) -> None:
    """Show ``value`` in the text box ``key`` when its source changed (not while it has an
    error), and again after another page ran (which dropped the box's state)."""
    if key not in st.session_state or (
        st.session_state.get(f"{key}_for") != value
        and f"{key.replace('.', '.error.', 1)}" not in st.session_state
    ):
        st.session_state[key] = value
        st.session_state[f"{key}_for"] = value


def typed_error() -> bool:
    """Whether a text box holds input it refused (its message shows under it).

    The page then draws no ranking: the link still holds the last accepted values, and a
    ranking (or a length message) from them would not be about what the boxes show.
    """
    return any(key in st.session_state for key in ("ties.error.grades", "ties.error.scores"))


def grades_and_scores(ranking: Ranking, t: Translate, lang: str) -> None:
    """The two text boxes (grades write the shared ranking, scores the link); messages below."""
    _sync("ties.grades", ", ".join(format_grade(x) for x in ranking.relevance))
    raw = _one(get_param("scores"))
    _sync("ties.scores", "" if raw is None else str(raw))
    left, right = st.columns(2)
    with left:
        st.text_input(
            t("ties.grades_label"),
            key="ties.grades",
            on_change=_on_grades,
            help=t("ties.grades_help"),
            placeholder="7, 4, 1, 0, 0",
        )
        for name in ("ties.error.grades", "ties.error.link_grades"):
            if (err := st.session_state.get(name)) is not None:
                show_error(lang, err)
    with right:
        st.text_input(
            t("ties.scores_label"),
            key="ties.scores",
            on_change=_on_scores,
            help=t("ties.scores_help"),
            placeholder="0.9, 0.5, 0.6, 0.9, 0.9",
        )
        if (err := st.session_state.get("ties.error.scores")) is not None:
            show_error(lang, err)


def decimals_control(t: Translate, current: int | None) -> None:
    """Round the scores to n decimals (or not at all)."""
    options: list[Any] = ["none", *DECIMALS]
    if current is not None and current not in DECIMALS:
        options.append(current)
    st.session_state["ties.dec"] = "none" if current is None else current
    st.segmented_control(
        t("ties.decimals_label"),
        options=options,
        key="ties.dec",
        required=True,
        format_func=lambda v: (
            t("ties.decimals_none")
            if v == "none"
            else t("ties.decimals_one")
            if str(v) == "1"
            else t("ties.decimals_n", n=v)
        ),
        on_change=_on_decimals,
        help=t("ties.decimals_help"),
    )


# --- results ------------------------------------------------------------------------------


def ranking_frame(view: TieView, labels: Sequence[str], t: Translate) -> pd.DataFrame:
    """The induced ranking with tie groups, translated headers, values as text."""
    r = view.ranking
    return pd.DataFrame(
        {
            t("ties.position"): np.arange(1, r.order.size + 1),
            t("ties.item"): [labels[i] for i in r.order],
            t("ties.grade"): [format_grade(float(x)) for x in r.relevance],
            t("ties.score"): [format(float(x), ".15g") for x in r.scores],
            t("ties.group"): r.group.tolist(),
            t("ties.tied"): [
                t("ties.tied_yes", n=int(s)) if s > 1 else t("ties.tied_no") for s in r.group_size
            ],
        }
    )


def show_ranking(view: TieView, labels: Sequence[str], t: Translate) -> None:
    """The induced ranking, tied rows shaded: interactive on a wide screen, static on a phone.

    An interactive data frame is drawn on a canvas at its columns' width and scrolled sideways
    in a phone's column, so a phone gets a static table that wraps its headers instead;
    ``styles.PAGE_CSS`` shows one of the two by the screen's width (``lab-wide-`` and
    ``lab-narrow-`` containers).
    """
    shown = ranking_frame(view, labels, t)
    tied = view.ranking.group_size > 1
    styler = shown.style.apply(lambda row: [_SHADE if tied[row.name] else ""] * len(row), axis=1)
    if presenting():  # presenter mode: one static table already (data_table)
        data_table(styler, key="ties.ranking")
        return
    with st.container(key=f"{WIDE_PREFIX}ties-ranking"):
        data_table(styler, key="ties.ranking", height="auto" if len(shown) <= 12 else 420)
    with st.container(key=f"{NARROW_PREFIX}ties-ranking"):
        cells = {column: [str(x) for x in shown[column].tolist()] for column in shown.columns}
        right = [t("ties.position"), t("ties.score"), t("ties.group")]
        static_table(cells, right=right, shaded=tied.tolist(), key="ties-ranking-narrow")


#: The band (worst, average, best), then the single orders of tools: LightGBM/XGBoost,
#: trec_eval and scikit-learn's ignore_ties. All names of ndcg_core.ties.TIES.
BAND: tuple[str, ...] = ("pessimistic", "average", "optimistic")
SINGLE_ORDERS: tuple[str, ...] = ("input", "trec_eval", "ignore")
TREATMENTS: tuple[str, ...] = (*BAND, *SINGLE_ORDERS)


def treatment_name(name: str, calls: Mapping[str, str | None], t: Translate, *, short: bool = False) -> str:
    """A treatment's label: named after its tools only when a call of theirs returns the number
    (:func:`ndcg_teach.tools.tie_calls`); else by its rule alone (``ties.<name>_plain``)."""
    plain = name in calls and calls[name] is None
    return t(f"ties.{name}{'_plain' if plain else ''}{'_short' if short else ''}")


def treatments_frame(
    view: TieView, t: Translate, calls: Mapping[str, str | None] | None = None
) -> pd.DataFrame:
    """One row per tie treatment: its key, translated name and nDCG (from the core's view)."""
    named = {} if calls is None else calls
    return pd.DataFrame(
        {
            "treatment": list(TREATMENTS),
            # charts show no Markdown
            "name": [treatment_name(x, named, t).replace("`", "") for x in TREATMENTS],
            "ndcg": [getattr(view, x) for x in TREATMENTS],
        }
    )


def metrics(
    view: TieView,
    t: Translate,
    *,
    k: int | None = None,
    calls: Mapping[str, str | None] | None = None,
) -> None:
    """The six numbers: the band (worst, average, best), then the tools' single orders; without
    ties, the one nDCG@k every treatment gives. A row is named after a tool only where
    ``calls`` holds the tool's call for it."""
    named = {} if calls is None else calls
    with st.container(key="ties_metrics"):
        if view.n_tied_items == 0:  # one order: no treatments to tell apart
            st.metric(
                "nDCG" if k is None else f"nDCG@{k}",
                f"{view.average:.4f}",
                help=t("ties.no_ties"),
                border=True,
            )
            return
        for row in (BAND, SINGLE_ORDERS):
            cols = st.columns(len(row))
            for col, name in zip(cols, row, strict=False):
                col.metric(
                    treatment_name(name, named, t, short=True),
                    f"{getattr(view, name):.4f}",
                    help=f"{treatment_name(name, named, t)}: {t(f'ties.{name}_help')}",
                    border=True,
                )


def settings_note(ranking: Ranking, calls: Mapping[str, str | None], t: Translate) -> None:
    """Next to the numbers: the gain and discount they were computed with, the calls of the
    tools that return them, and, where no call does, that the rows carry no tool's name."""
    gain = t(f"calculator.value_gain_{ranking.gain}")
    discount = t(f"calculator.value_discount_{ranking.discount}")
    st.caption(t("ties.settings", gain=gain, discount=discount))
    lines = [
        f"# {treatment_name(name, calls, t).replace('`', '')}\n{call}"
        for name in TREATMENTS
        if (call := calls.get(name)) is not None
    ]
    if lines:
        st.code("\n".join(lines), language="python", wrap_lines=True)
    if any(call is None for call in calls.values()):
        st.caption(t("ties.no_call", gain=gain, discount=discount))


def why_code(t: Translate, *, k: int | None = None) -> str:
    """The code block of "why a hand-written sort disagrees", comments in the page's language."""
    cut = "" if k is None else f", k={k}"
    return (
        "ranked = sorted(zip(scores, grades), reverse=True)   # "
        f"{t('ties.code_sorted')}\n"
        f"ndcg_score([grades], [scores]{cut})                       # "
        f"{t('ties.code_average')}\n"
        f"ndcg_score([grades], [scores]{cut}, ignore_ties=True)     # "
        f"{t('ties.code_ignore')}"
    )


def band_question(ranking: Ranking, scores: Iterable[float], t: Translate) -> Question:
    """Predict where scikit-learn's default lands between the worst and best order of the ties.

    Decided by the core (:func:`ndcg_teach.predictions.decide`, prompt ``ties.guess``) on the
    ranking's grades and the (rounded) scores, the words from :mod:`ui.components.prompts`, as in a live class.
    """
    return prompts.question("ties.guess", prompts.data_of(ranking, scores=scores), t)


def predict_band(ranking: Ranking, scores: Iterable[float], t: Translate) -> bool:
    """Ask where the average lands in the band, and True once answered or shown; with a band
    of no width (no ties, or ties among equal grades) there is nothing to predict: every option
    names the same number (and "At the worst end" was judged wrong, "In between" right), so the
    page says why and shows the numbers."""
    scores = list(scores)
    data = prompts.data_of(ranking, scores=scores)
    q = band_question(ranking, scores, t)
    if predictions.decide("ties.guess", **{key: data[key] for key in predictions.FIELDS}).values["flat"]:
        st.info(q.reveal, icon=":material/info:")
        return True
    return ask("ties.predict.guess", q, t, show_me=True)
