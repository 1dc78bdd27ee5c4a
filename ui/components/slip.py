"""The tutorial's slip (TEACHING.md §2): DCG 4.67 printed for 4.6487, and a scikit-learn call that
passes the grades as scores. Predicted, then explained, on the Lesson and on Scores and ties.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core as nc
from ndcg_core.ties import rank_by_score
from ndcg_teach import predictions, questions
from ui.components import prompts
from ui.components.predict import ask
from ui.components.widgets import data_table
from ui.framework.i18n import Translate
from ui.framework.shared import presenting
from ui.framework.state import format_grade

SLIP_GRADES = predictions.SLIP_GRADES
SLIP_WRONG_TRUE = predictions.SLIP_WRONG_TRUE


def slip_numbers() -> dict[str, float]:
    """The slip's numbers, all from the core: by hand, the tutorial's calls, the right call."""
    values = predictions.decide("lesson.slip").values
    return {name: float(values[name]) for name in ("dcg", "wrong_dcg", "wrong_ndcg", "right")}


def slip_ranking(t: Translate) -> pd.DataFrame:
    """How scikit-learn ranks the tutorial's call: by score, tie groups marked."""
    r = rank_by_score(list(SLIP_WRONG_TRUE), list(SLIP_GRADES), ties="average")
    return pd.DataFrame(
        {
            t("ties.position"): np.arange(1, r.order.size + 1),
            t("ties.item"): [f"D{i + 1}" for i in r.order],
            t("lesson.slip.score"): [format_grade(float(x)) for x in r.scores],
            t("lesson.slip.true_grade"): [format_grade(float(x)) for x in r.relevance],
            t("lesson.slip.tied"): [
                t("lesson.slip.tied_n", n=int(s)) if s > 1 else t("lesson.slip.tied_none")
                for s in r.group_size
            ],
        }
    )


def slip_panel(t: Translate, *, ns: str) -> None:
    """The tutorial's DCG 4.67 vs 4.6487 and its scikit-learn call, predicted then explained."""
    st.subheader(t("lesson.slip.title"))
    st.markdown(t("lesson.slip.intro"))
    numbers = slip_numbers()
    shown = {name: f"{value:.4f}" for name, value in numbers.items()}
    shown["wrong_ndcg"] = f"{numbers['wrong_ndcg']:.5f}"
    q = prompts.question("lesson.slip", {}, t)
    if ask(f"{ns}.predict.slip", q, t, show_me=True):
        _slip_reveal(t, ns=ns, shown=shown)
    shape_panel(t, ns=ns)


def _slip_reveal(t: Translate, *, ns: str, shown: dict[str, str]) -> None:
    """The slip explained: DCG by hand, the tutorial's calls and the right one."""
    st.markdown(f"**{t('lesson.slip.by_hand')}**")
    st.latex(nc.formula("dcg", list(SLIP_GRADES)).substituted)
    wrong, right = st.columns(2)
    with wrong:
        st.markdown(f"**{t('lesson.slip.tutorial_call')}**")
        st.code(
            "dcg_score([[3, 2, 1, 0, 0]],\n          [[3, 2, 0, 0, 1]])\n"
            "ndcg_score([[3, 2, 1, 0, 0]],\n           [[3, 2, 0, 0, 1]])",
            language="python",
        )
        # side by side in half a page, but one under the other in presenter mode: its large
        # type cut "4.6706" to "4.67…" in a quarter of a 1024 px projector
        left, right_metric = (st.container(), st.container()) if presenting() else st.columns(2)
        left.metric("dcg_score", shown["wrong_dcg"], border=True)
        right_metric.metric("ndcg_score", shown["wrong_ndcg"], border=True)
    with right:
        st.markdown(f"**{t('lesson.slip.right_call')}**")
        st.code("ndcg_score([[3, 2, 0, 0, 1]],\n           [[5, 4, 3, 2, 1]])", language="python")
        st.metric("ndcg_score", shown["right"], border=True)
    st.markdown(t("lesson.slip.why", right=shown["right"]))
    st.caption(t("lesson.slip.tie_table"))
    data_table(slip_ranking(t), key=f"{ns}.slip_table")


def shape_panel(t: Translate, *, ns: str) -> None:
    """scikit-learn's "Got multiclass instead" on a 1-D list, and the fix: one row per query.

    The message is the core's ``ndcg_score``'s, which raises scikit-learn's own words
    (:func:`ndcg_teach.questions.shape_mistake`)."""
    mistake = questions.shape_mistake()
    grades = ", ".join(format_grade(g) for g in questions.SHAPE_GRADES)
    scores = ", ".join(format_grade(g) for g in questions.SHAPE_SCORES)
    with st.expander(t("lesson.shape.title")):
        st.markdown(t("lesson.shape.intro"))
        # one argument a line, as the other calls: a phone's 324 px hold 38 characters
        st.code(f"ndcg_score([{grades}],\n           [{scores}])", language="python")
        st.code(f"ValueError: {mistake.error}", language="text", wrap_lines=True)
        st.markdown(t("lesson.shape.why"))
        st.code(
            f"ndcg_score([[{grades}]],\n           [[{scores}]])\n# {mistake.fixed:.4f}", language="python"
        )
        st.caption(t("lesson.shape.many"))
