"""The texts of the app's predict-first questions, for the pages and the live class alike.

A prompt (``"lesson.dcg"``, ``"blind.padding"`` ...) is decided by the core
(:func:`ndcg_teach.predictions.decide`: the option keys, the right one and the numbers behind
it); this module only puts that decision into words in one language. A page builds its
:class:`ui.components.predict.Question` with :func:`question`; the live class renders the same prompt with
:func:`asked` on each screen in that screen's language (the teacher, a student's phone and the
projector may differ), so the page and the live class ask the same words and judge alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ndcg_teach import predictions, tools
from ui.components.predict import Question, option_texts
from ui.components.widgets import number
from ui.framework.i18n import Translate
from ui.framework.state import Ranking, format_grade
from ui.framework.text import join_names, md_escape, sentences

#: The pages that ask predictions a live class can use, in the app's order.
PAGES: tuple[str, ...] = ("lesson", "ties", "variants", "blind_spots")
#: The blind spots' case name of each prompt (``blind_spots.<case>.*`` texts), in the page's
#: order (``ui.views.blind_spots.CASES``, which numbers them).
_CASES: dict[str, str] = {
    "blind.padding": "padding",
    "blind.unretrieved": "unretrieved",
    "blind.nothing": "nothing",
    "blind.lengths": "lengths",
    "blind.difficulty": "difficulty",
    "blind.gain": "gain",
    "blind.unjudged": "unjudged",
    "blind.not_modelled": "not_modelled",
    "blind.sampled": "sampled",
}


@dataclass(frozen=True, slots=True)
class Asked:
    """A prompt in one language, as a live screen shows it.

    Attributes
    ----------
    title : str
        Its short name (the teacher's picker, the question's heading).
    context : str
        Markdown shown above the question on a live screen (the case's story and lists); the
        page shows the same things in its own layout.
    question : Question
        What the page asks (text, option texts, right key, reveal, feedback).
    answer : str
        The text of the reveal: the page's reveal, or the right option's feedback, or the
        page's explanation ("why") when its reveal is numbers and charts.
    """

    title: str
    context: str
    question: Question
    answer: str


def data_of(ranking: Ranking, *, scores: Iterable[float] | None = None) -> dict[str, Any]:
    """The data a prompt takes from a ranking (and the ties page's scores): never a text."""
    data: dict[str, Any] = {
        "relevance": [float(x) for x in ranking.relevance],
        "labels": list(ranking.labels),
        "k": ranking.k,
        "gain": ranking.gain,
        "discount": ranking.discount,
    }
    if scores is not None:
        data["scores"] = [float(x) for x in scores]
    return data


def prompts_of(page: str) -> tuple[str, ...]:
    """The prompts a page asks, in its order.

    >>> prompts_of("ties")
    ('lesson.slip', 'ties.guess')
    """
    return tuple(name for name, p in predictions.PROMPTS.items() if page in p.pages)


def grades_text(values: Sequence[float]) -> str:
    """ "[3, 0, 0]"."""
    return "[" + ", ".join(format_grade(float(x)) for x in values) + "]"


def _ab(t: Translate) -> dict[str, str]:
    return {
        "A": t("blind_spots.answer_a"),
        "B": t("blind_spots.answer_b"),
        "same": t("blind_spots.answer_same"),
    }


def _lesson(prompt: str, d: predictions.Decision, data: Mapping[str, Any], t: Translate) -> Asked:
    v, name = d.values, prompt.split(".", 1)[1]
    opts = option_texts(t, prompt, d.options)
    context, title = (
        "",
        t(f"lesson.{name}.title") if name in ("bases", "which_ideal", "same_k", "slip") else "",
    )
    if name == "gain":
        text = t("lesson.gain.question")
        reveal = t("lesson.gain.reveal", gains=f"({', '.join(format_grade(g) for g in v['gains'])})")
    elif name == "cg":
        before, after = format_grade(v["before"]), format_grade(v["after"])
        if v["single"]:
            text = t("lesson.cg.question_single")
        else:
            labels = list(data["labels"])
            text = t("lesson.cg.question", first=md_escape(labels[0]), last=md_escape(labels[-1]), k=v["k"])
        reveal = t("lesson.cg.reveal", k=v["k"], before=before, after=after)
    elif name == "dcg":
        text = t("lesson.dcg.question", k=v["k"])
        key = "lesson.dcg.reveal" if data["gain"] == "linear" else "lesson.dcg.reveal_exp"
        reveal = t(key, k=v["k"], cg=format_grade(v["cg"]), dcg=number(v["dcg"]))
    elif name == "idcg":
        text = t("lesson.idcg.question", k=v["k"])
        reveal = t("lesson.idcg.reveal", k=v["k"], dcg=number(v["dcg"]), idcg=number(v["idcg"]))
    elif name == "ndcg":
        text = t("lesson.ndcg.question", k=v["k"])
        reveal = t("lesson.ndcg.reveal", k=v["k"], ndcg=number(v["ndcg"]))
    elif name == "bases":
        context = t("lesson.bases.explain")
        text = t("lesson.bases.question", k=v["k"])
        reveal = t("lesson.bases.reveal", k=v["k"], ndcg=number(v["ndcg"]))
    elif name == "which_ideal":
        context = t("lesson.which_ideal.explain")
        text = t("lesson.which_ideal.question", k=v["k"])
        reveal = t("lesson.which_ideal.reveal", k=v["k"], own=number(v["own"]), pool=number(v["pool"]))
    elif name == "same_k":
        context = t("lesson.same_k.explain")
        text = t("lesson.same_k.question")
        reveal = t(
            "lesson.same_k.reveal",
            dcg=number(v["dcg"]),
            idcg=number(v["idcg"]),
            ratio=number(v["ratio"]),
            ndcg=number(v["ndcg"]),
        )
    else:  # slip
        context = t("lesson.slip.intro")
        text = t("lesson.slip.question")
        shown = {key: number(v[key]) for key in ("dcg", "wrong_dcg", "right")}
        shown["wrong_ndcg"] = f"{v['wrong_ndcg']:.5f}"
        reveal = t("lesson.slip.reveal", **shown)
    q = Question(text, opts, d.correct, reveal)
    return Asked(title or t(f"lesson.names.{name}"), context, q, reveal)


def labelled(t: Translate, label: str, grades: str) -> str:
    """``label: `grades` `` with the colon of the language (full-width in Chinese text).

    >>> labelled(lambda key, **p: f"{p['label']}: {p['value']}", "List A", "3, 2")
    'List A: `3, 2`'
    """
    return t("common.labelled", label=label, value=f"`{grades}`")


def _blind(prompt: str, d: predictions.Decision, t: Translate, lang: str) -> Asked:
    case, v = _CASES[prompt], d.values
    a, b = t("blind_spots.list_a"), t("blind_spots.list_b")
    context = t(f"blind_spots.{case}.story")
    if case in ("padding", "unretrieved", "lengths", "difficulty"):
        context += (
            "\n\n"
            + labelled(t, a, grades_text(v["list_a"]))
            + " · "
            + labelled(t, b, grades_text(v["list_b"]))
        )
    elif case == "nothing":
        context += "\n\n" + labelled(t, a, grades_text(v["list_a"]))
    if case == "sampled":  # the question gives the whole catalogue's numbers
        text = t("blind_spots.sampled.question", a=number(v["full"][0]), b=number(v["full"][1]))
    else:
        text = t(f"blind_spots.{case}.question")
    feedback: dict[str, str] = {}
    reveal = ""
    why_params: dict[str, Any] = {}
    if case in ("padding", "unretrieved", "lengths", "difficulty"):
        opts = _ab(t)
    elif case == "nothing":
        opts = {key: t(f"blind_spots.nothing.answer_{key}") for key in d.options}
        why_params = nothing_relevant_names(lang)
        feedback = {key: t(f"blind_spots.nothing.feedback_{key}", **why_params) for key in d.options}
    else:
        opts = {key: t(f"blind_spots.{case}.answer_{key.lower()}") for key in d.options}
        if case == "not_modelled":
            reveal = t("blind_spots.not_modelled.feedback", ndcg=number(v["ndcg"]))
        elif case == "sampled":
            reveal = t("blind_spots.sampled.reveal", a=number(v["sampled"][0]), b=number(v["sampled"][1]))
    if case == "difficulty":
        why_params = {
            "a_mean": f"{v['a_mean']:.3f}",
            "a_worst": f"{v['a_worst']:.3f}",
            "b_mean": f"{v['b_mean']:.3f}",
            "example_worst": f"{v['example_worst']:.3f}",
        }
    q = Question(text, opts, d.correct, reveal, feedback)
    answer = reveal or feedback.get(d.correct, "") or t(f"blind_spots.{case}.why", **why_params)
    if case == "sampled":  # its reveal is numbers: a class hears the reason too
        answer = sentences(reveal, t("blind_spots.sampled.why"))
    return Asked(t(f"blind_spots.{case}.title"), context, q, answer)


def asked(prompt: str, data: Mapping[str, Any], t: Translate, lang: str) -> Asked:
    """The prompt on ``data`` in the language of ``t``; raises ``NDCGInputError`` on a prompt or
    data the core refuses (an unknown prompt, a grade that is not a number ...)."""
    d = predictions.decide(prompt, **{key: data[key] for key in predictions.FIELDS if key in data})
    a = _asked(prompt, d, data, t, lang)
    # judged on the decision's numbers: an answer given for other numbers is asked again
    return replace(a, question=replace(a.question, about=(prompt, d.correct, d.values)))


def _asked(prompt: str, d: predictions.Decision, data: Mapping[str, Any], t: Translate, lang: str) -> Asked:
    if prompt.startswith("lesson."):
        return _lesson(prompt, d, data, t)
    if prompt.startswith("blind."):
        return _blind(prompt, d, t, lang)
    v = d.values
    if prompt == "ties.guess":
        reveal = t(
            "ties.reveal_none"
            if v["tied"] == 0
            else "ties.reveal_flat"
            if v["flat"]
            else "ties.reveal_between"
        )
        q = Question(t("ties.question"), option_texts(t, "ties.guess", d.options), d.correct, reveal)
        title = t("ties.band_title" if v["tied"] else "ties.band_title_no_ties", k=v["k"])
        return Asked(title, "", q, reveal)
    # variants.guess
    reveal = t("variants.guess.reveal", linear=number(v["linear"]), exponential=number(v["exponential"]))
    q = Question(
        t("variants.guess.question", k=v["k"]),
        option_texts(t, "variants.guess", d.options),
        d.correct,
        reveal,
    )
    return Asked(t("variants.side_title"), "", q, reveal)


def question(prompt: str, data: Mapping[str, Any], t: Translate, lang: str = "en") -> Question:
    """What a page asks for ``prompt`` (``lang`` only names tools in the page's list style)."""
    return asked(prompt, data, t, lang).question


def title(prompt: str, t: Translate) -> str:
    """The prompt's short name, without data (the teacher's picker).

    Lesson steps are named by their step, the sections and cases by their titles.
    """
    if prompt in _CASES:  # numbered as on the page (a question's heading has its own number)
        number = list(_CASES).index(prompt) + 1
        return t("blind_spots.numbered", number=number, title=t(f"blind_spots.{_CASES[prompt]}.title"))
    if prompt.startswith("lesson."):
        name = prompt.split(".", 1)[1]
        return (
            t(f"lesson.{name}.title")
            if name in ("bases", "which_ideal", "same_k", "slip")
            else t(f"lesson.names.{name}")
        )
    if prompt == "ties.guess":
        return t("live.predict_ties_title")
    return t("variants.side_title")


def nothing_relevant_names(lang: str) -> dict[str, str]:
    """Placeholders naming the tools by what they report for IDCG = 0, from the core.

    ``zero_tools`` / ``one_tools``: the tools that report 0 / 1 (:func:`ndcg_teach.tools.
    nothing_relevant_reports`); ``skip_tools``: the tools that can leave the query out, with
    the option. Joined with the language's list separator.
    """
    reports = tools.nothing_relevant_reports()
    return {
        "zero_tools": join_names(reports.get(0.0, ()), lang),
        "one_tools": join_names(reports.get(1.0, ()), lang),
        "skip_tools": join_names(
            [
                f"{name} (`{option}`)" if lang != "zh" else f"{name}（`{option}`）"
                for name, option in tools.EMPTY_SKIP.items()
            ],
            lang,
        ),
    }
