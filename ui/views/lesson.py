"""Rendering helpers of the lesson page: G → CG → DCG → IDCG → nDCG, one step at a time.

The page is a walk of :data:`STEPS` steps (the fifth core step names plus "play"). The step is
a link parameter (``?step=3``), so a teacher's link opens the same step. Each step shows its
explanation and formula, asks a prediction (a radio with no default), and reveals the core's
numbers once the learner answered. Answers are judged from the core's numbers, never typed in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

import ndcg_core as nc
from ndcg_core.discounting import discounts
from ndcg_teach import predictions
from ui.components import prompts
from ui.components.predict import Question, ask
from ui.components.widgets import number, static_table, step_table
from ui.framework import messages
from ui.framework.i18n import Translate
from ui.framework.shared import get_param, set_param
from ui.framework.state import Ranking, format_grade

#: The lesson's steps, in order (the first five are the core's formula steps).
STEPS: tuple[str, ...] = ("gain", "cg", "dcg", "idcg", "ndcg", "play")

#: The step table's columns each step shows (cumulative: a step adds its own).
COLUMNS: dict[str, tuple[str, ...]] = {
    "gain": ("position", "item", "relevance", "gain"),
    "cg": ("cg",),
    "dcg": ("log_term", "discount", "discounted_gain", "dcg"),
    "idcg": ("ideal_relevance", "ideal_discounted_gain", "idcg"),
    "ndcg": ("ndcg",),
    "play": (),
}


#: Static CSS (no user text): long formulas scroll sideways instead of being cut on a phone.
def parse_step(text: Any) -> int:
    """The lesson step of a link: a whole number from 1 to len(STEPS).

    Raises ``NDCGInputError("step_invalid")`` on anything else (the page shows it translated
    and opens step 1).

    >>> parse_step("3"), parse_step(" 6 ")
    (3, 6)
    """
    raw = str(text)
    try:
        step = int(raw.strip())
    except ValueError:
        messages.fail("step_invalid", n=len(STEPS), got=repr(raw[:20]))
    if not 1 <= step <= len(STEPS):
        messages.fail("step_invalid", n=len(STEPS), got=repr(raw[:20]))
    return step


def shown_columns(step: int, *, revealed: bool) -> list[str]:
    """The step table's columns at ``step`` (1-based): earlier steps', plus this one's once revealed.

    >>> shown_columns(2, revealed=False)
    ['position', 'item', 'relevance', 'gain']
    >>> shown_columns(2, revealed=True)[-1]
    'cg'
    """
    upto = step if revealed else step - 1
    names = STEPS[: max(upto, 1)]
    return [column for name in names for column in COLUMNS[name]]


def _set_step(step: int) -> None:
    set_param("step", str(step))


def current_step(lang: str, show_error: Callable[..., None]) -> int:
    """The step from the link (1 when absent); a broken value shows a message and gives 1."""
    raw = get_param("step")
    if raw is None:
        return 1
    try:
        return parse_step(raw[-1] if isinstance(raw, list) else raw)
    except nc.NDCGInputError as err:
        show_error(lang, err)
        return 1


def nav_buttons(step: int, t: Translate) -> None:
    """Back and Next (Back disabled at the first step, Next at the last)."""
    back, _, forward = st.columns([1, 3, 1])
    back.button(
        t("lesson.back"),
        key="lesson.back",
        icon=":material/arrow_back:",
        on_click=_set_step,
        args=(step - 1,),
        disabled=step <= 1,
        width="stretch",
    )
    forward.button(
        t("lesson.next"),
        key="lesson.next",
        icon=":material/arrow_forward:",
        on_click=_set_step,
        args=(step + 1,),
        disabled=step >= len(STEPS),
        width="stretch",
    )


# --- explanations ------------------------------------------------------------------------

#: How many discount factors the DCG step's explanation lists before its ellipsis.
SHOWN_FACTORS = 5


def _factor(value: float) -> str:
    """A discount factor as the explanation lists it: three decimals, trailing zeros dropped.

    >>> [_factor(x) for x in (1.0, 0.5, 0.6309297535714575)]
    ['1', '0.5', '0.631']
    """
    return f"{value:.3f}".rstrip("0").rstrip(".")


def explain(name: str, ranking: Ranking, t: Translate) -> str:
    """The explanation of a step; the DCG step's follows the ranking's discount.

    The DCG step names the chosen discount (1/log2(i + 1), or Järvelin's 1/max(1, log2 i)) and
    lists its first factors, computed by :func:`ndcg_core.discounting.discounts`.
    """
    if name != "dcg":
        return t(f"lesson.{name}.explain")
    factors = discounts(SHOWN_FACTORS, ranking.discount)
    listed = t("common.list_separator").join(_factor(float(x)) for x in factors)
    key = "lesson.dcg.explain_jarvelin" if ranking.discount == "jarvelin" else "lesson.dcg.explain"
    return t(key, factors=listed)


# --- predictions -------------------------------------------------------------------------


def question(name: str, ranking: Ranking, m: nc.Metrics, t: Translate) -> Question | None:
    """The prediction of a step, judged from the core's numbers (None for "play").

    Shown by :func:`ui.components.predict.ask` with the key ``lesson.predict.<name>``; the options and the
    right one come from :func:`ndcg_teach.predictions.decide` (prompt ``lesson.<name>``), the
    texts from :func:`ui.components.prompts.question`, which the live class uses too. ``m`` (the page's
    metrics) is kept for the callers; the decision computes its own from the ranking.
    """
    if name not in STEPS[:-1]:
        return None
    return prompts.question(f"lesson.{name}", prompts.data_of(ranking), t)


# --- table and chart ---------------------------------------------------------------------


def show_table(
    table: pd.DataFrame, columns: list[str], t: Translate, *, discount: str, key: str, present: bool = False
) -> None:
    """The table so far (the Calculator's static step table with the step's columns).

    Rows past k are greyed and, when there are any, marked in an "In top k" column.
    """
    step_table(table, t, discount=discount, columns=columns, mark_cutoff=None, present=present, key=key)


# --- extra sections: why log2(i + 1), which ideal, the same k ------------------------------

#: Two judged items the system never returned (grades 3 and 2), added to the learner's grades
#: to form the judged pool of the "which ideal" section (TEACHING.md §7: [3, 2, 0, 0, 1] then
#: scores 0.6510 against every judged item); the same-k trap's list (TEACHING.md §1). Defined
#: with the predictions that use them (:mod:`ndcg_teach.predictions`).
UNRETRIEVED = predictions.UNRETRIEVED
SAME_K_LIST, SAME_K_DCG, SAME_K_IDCG = (
    predictions.SAME_K_LIST,
    predictions.SAME_K_DCG,
    predictions.SAME_K_IDCG,
)


def bases_section(ranking: Ranking, t: Translate) -> None:
    """Why log2(i + 1): the + 1, the base (cancels in nDCG, not in DCG), steeper discounts."""
    rel = list(ranking.relevance)
    table = nc.base_comparison(rel, k=ranking.k, gain=ranking.gain)
    m = nc.metrics(rel, k=ranking.k, gain=ranking.gain)
    st.markdown(f"### {t('lesson.bases.title')}")
    st.markdown(t("lesson.bases.explain"))
    q = prompts.question("lesson.bases", prompts.data_of(ranking), t)
    if ask("lesson.predict.bases", q, t, show_me=True):
        names = {"2": "2", "e": "e ≈ 2.718", "10": "10"}
        static_table(
            {
                t("lesson.bases.col_base"): list(names.values()),
                t("lesson.bases.col_dcg", k=m.k): [number(x) for x in table["dcg"]],
                t("lesson.bases.col_idcg", k=m.k): [number(x) for x in table["idcg"]],
                t("lesson.bases.col_ndcg", k=m.k): [number(x) for x in table["ndcg"]],
            },
            right={
                t("lesson.bases.col_dcg", k=m.k),
                t("lesson.bases.col_idcg", k=m.k),
                t("lesson.bases.col_ndcg", k=m.k),
            },
            key="lesson-bases",
            scroll=False,
        )


def which_ideal_section(ranking: Ranking, t: Translate) -> None:
    """The list's own ideal (scikit-learn) against every judged item (trec_eval), same ranking."""
    rel = list(ranking.relevance)
    pool = rel + list(UNRETRIEVED)
    options = ranking.options()
    own = nc.metrics(rel, **options)
    pooled = nc.metrics(rel, pool=pool, **options)
    st.markdown(f"### {t('lesson.which_ideal.title')}")
    st.markdown(t("lesson.which_ideal.explain"))
    q = prompts.question("lesson.which_ideal", prompts.data_of(ranking), t)
    if not ask("lesson.predict.which_ideal", q, t, show_me=True):
        return
    pool_text = "[" + ", ".join(format_grade(x) for x in sorted(pool, reverse=True)) + "]"
    col_idcg, col_ndcg = t("lesson.which_ideal.col_idcg", k=own.k), t("lesson.which_ideal.col_ndcg", k=own.k)
    static_table(
        {
            t("lesson.which_ideal.col_ideal"): [
                t("lesson.which_ideal.own"),
                t("lesson.which_ideal.pooled", pool=pool_text),
            ],
            col_idcg: [number(own.idcg), number(pooled.idcg)],
            col_ndcg: [number(own.ndcg), number(pooled.ndcg)],
        },
        right={col_idcg, col_ndcg},
        key="lesson-which-ideal",
        scroll=False,
    )
    st.info(t("lesson.which_ideal.why"), icon=":material/lightbulb:")


def same_k_section(t: Translate) -> None:
    """The trap of dividing DCG@2 by IDCG@4: a perfect [3, 2, 2, 1] gets 0.7487."""
    st.markdown(f"### {t('lesson.same_k.title')}")
    st.markdown(t("lesson.same_k.explain"))
    q = prompts.question("lesson.same_k", prompts.data_of(Ranking()), t)
    ask("lesson.predict.same_k", q, t, show_me=True)
