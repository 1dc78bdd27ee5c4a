"""The one predict-then-reveal widget: a question with no default answer, then the verdict.

Every page's predict-first question (lesson steps, ties, variants, blind spots, Explore) is a
:class:`Question` shown by :func:`ask`. The page decides what is right from the core's numbers
(:func:`ndcg_core.compare_values`); the widget only asks, judges the chosen option against
``Question.correct`` and says so, in the page's language (``common.predict_*`` texts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import streamlit as st

from ui.framework.i18n import Translate
from ui.framework.text import lead, sentences


@dataclass(frozen=True, slots=True)
class Question:
    """A prediction, already translated.

    Attributes
    ----------
    text : str
        The question (Markdown; user text in it escaped by the caller).
    options : Mapping[str, str]
        Option key -> the text shown, in display order.
    correct : str
        The right option's key, decided from the core's numbers.
    reveal : str
        Said after any answer (and by "just show me"): the numbers that settle it.
    feedback : Mapping[str, str]
        An extra sentence for a chosen option (why that answer is right or not).
    about : object
        What the verdict is decided on, in no language (the numbers that settle it): an answer
        given while it was something else (before the ranking or the variant changed) is not
        judged against the new numbers: the question is asked again, its reveal staying shown
        with the new numbers, as after "just show me". ``None``: always the same.
    """

    text: str
    options: Mapping[str, str]
    correct: str
    reveal: str = ""
    feedback: Mapping[str, str] = field(default_factory=dict)
    about: object = None


def option_texts(t: Translate, prefix: str, keys: Sequence[str]) -> dict[str, str]:
    """``{key: t(f"{prefix}.{key}")}`` for option keys whose texts share a prefix."""
    return {key: t(f"{prefix}.{key}") for key in keys}


def _on_show(key: str) -> None:
    st.session_state[key] = True


def ask(key: str, q: Question, t: Translate, *, show_me: bool = False, horizontal: bool = False) -> bool:
    """Ask ``q`` (a radio with no default) and, once answered, judge it; True when revealed.

    Parameters
    ----------
    key : str
        The radio's widget key; the "just show me" button is ``<key>.show``.
    q : Question
    t : Translate
        The page's translate function.
    show_me : bool
        Offer a "just show me" button that reveals without an answer; otherwise a caption
        says to choose an answer to see the numbers.
    horizontal : bool
        Options side by side (short options).
    """
    shown_key, answer_key = f"{key}.shown", f"{key}.answer"
    # the answer on record and what it was given for (a text: compares equal however its numbers
    # were made, nan included); an answer is judged on those numbers only
    about = repr(q.about)
    given = st.session_state.get(answer_key)
    earlier = given is not None and st.session_state.get(key) == given[0] and given[1] != about
    if earlier:  # before the radio is drawn, so that its state may still be set in this run
        st.session_state[key] = None  # asked again; the numbers stay shown, as "just show me" does
        st.session_state[shown_key] = True
    st.markdown(lead(t("common.predict_prompt"), q.text))
    choice = st.radio(
        q.text,
        options=list(q.options),
        index=None,
        key=key,
        format_func=q.options.__getitem__,
        horizontal=horizontal,
        label_visibility="collapsed",
    )
    if choice is None:
        st.session_state[answer_key] = None
    elif given is None or earlier or given[0] != choice:
        st.session_state[answer_key] = (choice, about)  # a new answer: given for the numbers now
    if choice is None and not st.session_state.get(shown_key):
        if show_me:
            st.button(
                t("common.predict_show_me"),
                key=f"{key}.show",
                on_click=_on_show,
                args=(shown_key,),
                type="tertiary",
                icon=":material/visibility:",
            )
        else:
            st.caption(t("common.predict_hint"))
        return False
    with st.container(key=f"verdict_{key.replace('.', '_')}"):
        note = sentences(q.feedback.get(choice or "", ""), q.reveal)
        if choice is None:
            said = sentences(t("common.predict_earlier"), q.reveal) if earlier else note
            st.info(said.strip(), icon=":material/lightbulb:")
        elif choice == q.correct:
            st.success(sentences(t("common.predict_right"), note), icon=":material/check_circle:")
        else:
            st.warning(sentences(t("common.predict_not_quite"), note), icon=":material/help:")
    return True
