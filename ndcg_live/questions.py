"""The questions of a live class: what is stored, how an answer is checked, what the room sees.

A question is stored as a small JSON-able dictionary (:func:`spec_from_ranking`,
:func:`spec_from_practice`) that names a list and a kind, never the app's wording: every
screen words it in its own language. The one text a spec may carry is the teacher's own
(:func:`with_text`), shown as typed above the built-in task. :func:`exercise` turns a spec
into an :class:`ndcg_core.Exercise` whose exact answer comes from the core, and :func:`judge`
checks an answer with :func:`ndcg_teach.exercises.check_answer` (the Practice page's judge): a
number must be one finite number, an order a permutation of the items, a choice one of the
options.

Kinds and how they are answered (:data:`ANSWER_TYPES`):

- ``"cg"``, ``"dcg"``, ``"idcg"``, ``"ndcg"``: a number (within :data:`TOLERANCE`);
- ``"ideal_order"``: an order of the items (dragged); the room sees the nDCG of each order;
- ``"compare"``: ``"A"``, ``"B"`` or ``"same"`` (which list has the higher nDCG);
- ``"predict"``: one of the options of an app page's predict-first question
  (:func:`spec_from_prompt`: the prompt's name, e.g. ``"lesson.bases"``, and the data it
  needs); the options and the right one come from :func:`ndcg_teach.predictions.decide`, the
  rule the page itself uses, and every screen words it in its own language.
"""

from __future__ import annotations

import functools
import json
import random
from dataclasses import dataclass
from typing import Any, cast

import ndcg_core as nc
from ndcg_core.discounting import Discount
from ndcg_core.gains import Gain
from ndcg_core.validate import NDCGInputError, check_choice, fail
from ndcg_teach.exercises import CHOICES, NUMERIC_KINDS, Exercise, check_answer, make_exercises, parse_seed
from ndcg_teach.predictions import FIELDS, PROMPTS, Decision, decide

__all__ = [
    "ANSWER_TYPES",
    "CALCULATOR_KINDS",
    "MAX_TEXT",
    "TOLERANCE",
    "Judged",
    "answer_type",
    "check",
    "check_text",
    "decision",
    "exercise",
    "expected",
    "histogram",
    "judge",
    "options",
    "shown_order",
    "spec_from_practice",
    "spec_from_prompt",
    "spec_from_ranking",
    "tally",
    "with_text",
]

#: Numeric answers within this absolute distance of the exact value are right (two decimals,
#: the Practice page's tolerance).
TOLERANCE = 0.01
#: How each kind is answered.
ANSWER_TYPES: dict[str, str] = {
    **{kind: "number" for kind in NUMERIC_KINDS},
    "ideal_order": "ranking",
    "compare": "choice",
    "predict": "choice",
}
#: Questions a teacher builds from the Calculator's current view.
CALCULATOR_KINDS: tuple[str, ...] = ("ndcg", "ideal_order", "compare")
#: The most items a live question shows (a phone shows them as cards).
MAX_ITEMS = 12
#: The most characters of a teacher's own words on a question (one line on a projector).
MAX_TEXT = 200


@dataclass(frozen=True, slots=True)
class Judged:
    """An answer as stored: its value (JSON-able), whether it is right, and the number the
    room's histogram shows (the number given, or the nDCG of the order given; None for a choice)."""

    value: float | list[str] | str
    correct: bool
    score: float | None


def answer_type(spec: dict[str, Any]) -> str:
    """``"number"``, ``"ranking"`` or ``"choice"``.

    >>> answer_type({"kind": "compare"})
    'choice'
    """
    return ANSWER_TYPES[check_choice(str(spec.get("kind")), ANSWER_TYPES, option="kind")]


def _swap_ends(relevance: list[float], labels: list[str]) -> tuple[list[float], list[str]]:
    order = [len(relevance) - 1, *range(1, len(relevance) - 1), 0]
    return [relevance[i] for i in order], [labels[i] for i in order]


def spec_from_ranking(
    kind: str,
    relevance: list[float],
    labels: list[str],
    *,
    k: int | None = None,
    gain: str = "linear",
    discount: str = "log2",
) -> dict[str, Any]:
    """A question on a ranking (the Calculator's current view), checked by the core.

    ``"compare"`` asks about the ranking (A) against the same ranking with its first and last
    items swapped (B), the Lesson's own swap, at nDCG@k like ``"ndcg"``; ``"ideal_order"`` is
    about the whole list.

    >>> spec = spec_from_ranking("ndcg", [3, 2, 0, 0, 1], ["D1", "D2", "D3", "D4", "D5"], k=3)
    >>> round(exercise(spec).answer, 4)  # (3 + 2/log2(3)) / (3 + 2/log2(3) + 1/2)
    0.895
    """
    check_choice(kind, CALCULATOR_KINDS, option="kind")
    rel = [float(x) for x in nc.validate.as_relevance(list(relevance))]
    names = nc.validate.check_labels(list(labels))
    nc.validate.check_same_length(names, rel, what="labels_and_grades")
    if len(rel) > MAX_ITEMS:
        fail("too_many", what="relevance_list", got=len(rel), limit=MAX_ITEMS)
    if k is not None:
        k = nc.validate.check_k(k, len(rel))
    check_choice(gain, nc.GAINS, option="gain")
    check_choice(discount, nc.DISCOUNTS, option="discount")
    spec: dict[str, Any] = {
        "origin": "calculator",
        "kind": kind,
        "relevance": rel,
        "labels": names,
        # a comparison is at the teacher's k (the panel says "k = 3"); an ideal order is about
        # the whole list (the ideal order of the first k items is that of the whole list)
        "k": k if kind in ("ndcg", "compare") else None,
        "gain": gain,
        "discount": discount,
    }
    if kind == "compare":
        if len(rel) < 2:
            fail("too_many", what="relevance_list", got=len(rel), limit=1)  # never: UI offers n >= 2
        spec["other"], spec["other_labels"] = _swap_ends(rel, names)
    return spec


def spec_from_practice(seed: int, number: int) -> dict[str, Any]:
    """Exercise ``number`` (1-based) of the Practice page's set ``seed``.

    >>> spec_from_practice(7, 6)["kind"]
    'compare'
    """
    seed = parse_seed(str(seed))
    e = make_exercises(seed, n=max(int(number), 1))[int(number) - 1]
    spec: dict[str, Any] = {
        "origin": "practice",
        "seed": seed,
        "number": e.number,
        "kind": e.kind,
        "relevance": list(e.relevance),
        "labels": list(e.labels),
        "k": e.k,
        "gain": e.gain,
        "discount": e.discount,
    }
    if e.other is not None:
        spec["other"], spec["other_labels"] = list(e.other), list(e.other_labels or ())
    return spec


def spec_from_prompt(
    prompt: str,
    *,
    relevance: list[float] | None = None,
    labels: list[str] | None = None,
    k: int | None = None,
    gain: str = "linear",
    discount: str = "log2",
    scores: list[float] | None = None,
) -> dict[str, Any]:
    """An app page's predict-first question (a prompt of :data:`ndcg_teach.predictions.PROMPTS`).

    Keeps only the data the prompt needs (a prompt about the app's fixed examples keeps the
    gain and discount alone), checked by the core; never a text.

    >>> spec = spec_from_prompt("lesson.dcg", relevance=[3, 2, 0, 0, 1], labels=list("abcde"), k=3)
    >>> options(spec), expected(spec)    # CG@3 = 5 > DCG@3 = 3 + 2/log2(3)
    (('cg', 'dcg', 'equal'), 'cg')
    >>> sorted(spec_from_prompt("blind.padding"))
    ['discount', 'gain', 'kind', 'origin', 'prompt']
    """
    if prompt not in PROMPTS:
        fail("live_unknown_prompt", prompt=str(prompt)[:40])
    fields = PROMPTS[prompt].fields
    spec: dict[str, Any] = {
        "origin": "page",
        "kind": "predict",
        "prompt": prompt,
        "gain": gain,
        "discount": discount,
    }
    if "relevance" in fields:
        rel = [float(x) for x in nc.validate.as_relevance([] if relevance is None else list(relevance))]
        names = nc.validate.check_labels(list(labels) if labels is not None else nc.default_labels(len(rel)))
        nc.validate.check_same_length(names, rel, what="labels_and_grades")
        if len(rel) > MAX_ITEMS:
            fail("too_many", what="relevance_list", got=len(rel), limit=MAX_ITEMS)
        spec.update(relevance=rel, labels=names, k=k)
    if "scores" in fields:
        spec["scores"] = [float(x) for x in nc.validate.as_scores([] if scores is None else list(scores))]
    decision(spec)  # refuses data the core refuses
    return spec


def check_text(text: Any) -> str:
    """The teacher's own words on a question: one line of at most :data:`MAX_TEXT` characters,
    kept as typed apart from spaces at either end ("" for none).

    >>> check_text("  Which list would a user rather see? ")
    'Which list would a user rather see?'
    >>> check_text("D1" + chr(10) + "D2")
    Traceback (most recent call last):
    ...
    ndcg_core.validate.NDCGInputError: The question's own text contains a control character (U+000A). ...
    """
    if not isinstance(text, str):
        fail("unknown_option", option="text", allowed="str", got=type(text).__name__)
    words = text.strip()
    char = nc.validate.control_character(words)
    if char is not None:
        fail("live_text_control", char=char)
    if len(words) > MAX_TEXT:
        fail("live_text_too_long", got=len(words), limit=MAX_TEXT)
    return words


def with_text(spec: dict[str, Any], text: Any) -> dict[str, Any]:
    """``spec`` with the teacher's own words (:func:`check_text`) under ``"text"``; empty words
    leave it without. Every screen shows them as typed, above the task in its own language.

    >>> with_text(spec_from_practice(1, 1), " Warm-up ")["text"]
    'Warm-up'
    >>> "text" in with_text(spec_from_practice(1, 1), "")
    False
    """
    words = check_text(text)
    plain = {key: value for key, value in spec.items() if key != "text"}
    return {**plain, "text": words} if words else plain


def decision(spec: dict[str, Any]) -> Decision:
    """The options and right option of a ``"predict"`` spec, from the core (the page's rule).

    Raises ``NDCGInputError`` on a prompt the app does not have (a stored spec from another
    version, or a forged one) or data the core refuses.
    """
    if spec.get("kind") != "predict":
        fail("unknown_option", option="kind", allowed="predict", got=spec.get("kind"))
    prompt = str(spec.get("prompt"))
    if prompt not in PROMPTS:
        fail("live_unknown_prompt", prompt=prompt[:40])
    data = {key: spec[key] for key in FIELDS if key in spec}
    return decide(prompt, **data)


def check(spec: Any) -> None:
    """Raise ``NDCGInputError`` unless ``spec`` is a question this app can ask and judge.

    What the store runs before it stores a spec, and the screens before they show one: a
    malformed spec (a missing field, a kind or prompt this version does not know) is refused
    with the core's message, never a crash.
    """
    if not isinstance(spec, dict):
        fail("unknown_option", option="spec", allowed="dict", got=type(spec).__name__)
    answer_type(spec)
    if "text" in spec and not check_text(spec["text"]):
        fail("unknown_option", option="text", allowed="str", got="''")
    try:
        if spec["kind"] == "predict":
            decision(spec)
        else:
            exercise(spec)
    except NDCGInputError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as err:  # a field missing or of the wrong type
        fail("unknown_option", option="spec", allowed=", ".join(FIELDS), got=str(err)[:40])


def expected(spec: dict[str, Any]) -> float | tuple[str, ...] | str:
    """The right answer: a number, an order, or an option key."""
    if spec.get("kind") == "predict":
        return decision(spec).correct
    return exercise(spec).answer


def _ndcg(relevance: list[float], k: int | None, gain: str, discount: str) -> float:
    return float(nc.metrics(relevance, k=k, gain=cast(Gain, gain), discount=cast(Discount, discount)).ndcg)


def exercise(spec: dict[str, Any]) -> Exercise:
    """The core's exercise of a spec, its exact answer computed by the core.

    Computed once per spec (every phone's rerun shows, checks and judges the same few
    questions): the spec's JSON text is the key, the :class:`Exercise` is immutable.
    """
    try:
        text = json.dumps(spec, sort_keys=True)
    except (TypeError, ValueError):  # not a stored spec (one the store would refuse): not kept
        return _exercise(spec)
    return _kept_exercise(text)


@functools.lru_cache(maxsize=256)
def _kept_exercise(text: str) -> Exercise:
    return _exercise(json.loads(text))


def _exercise(spec: dict[str, Any]) -> Exercise:
    kind = str(spec["kind"])
    rel = [float(x) for x in spec["relevance"]]
    labels = tuple(str(x) for x in spec["labels"])
    k = spec.get("k")
    gain, discount = cast(Gain, spec["gain"]), cast(Discount, spec["discount"])
    answer: float | tuple[str, ...] | str
    other = other_labels = None
    if kind in NUMERIC_KINDS:
        m = nc.metrics(rel, k=k, gain=gain, discount=discount)
        answer = float(getattr(m, kind))
    elif kind == "ideal_order":
        table = nc.step_table(rel, labels=list(labels), gain=gain, discount=discount)
        answer = tuple(str(x) for x in table["ideal_item"])
    else:
        other = tuple(float(x) for x in spec["other"])
        other_labels = tuple(str(x) for x in spec["other_labels"])
        a, b = _ndcg(rel, k, gain, discount), _ndcg(list(other), k, gain, discount)
        answer = "same" if abs(a - b) <= 1e-12 else "A" if a > b else "B"
    return Exercise(
        int(spec.get("number", 1)), kind, tuple(rel), labels, k, gain, discount, answer, other, other_labels
    )


def shown_order(spec: dict[str, Any], salt: str) -> list[str]:
    """The order a student's drag cards start in: the list shuffled, the same for one ``salt``.

    The ideal order is never the starting order of a list that has another.
    """
    labels = [str(x) for x in spec["labels"]]
    ideal = list(cast(tuple[str, ...], exercise(spec).answer))
    rng = random.Random(salt)  # not security: only a starting order that differs per student
    order = labels[:]
    for _ in range(20):
        rng.shuffle(order)
        if order != ideal:
            break
    return order


def judge(spec: dict[str, Any], answer: Any) -> Judged:
    """Check ``answer`` with the core; raise :class:`ndcg_core.NDCGInputError` when it is invalid.

    >>> spec = spec_from_ranking("ideal_order", [0, 3, 1], ["a", "b", "c"])
    >>> judge(spec, ["b", "c", "a"])
    Judged(value=['b', 'c', 'a'], correct=True, score=1.0)
    >>> judge(spec_from_ranking("compare", [3, 0], ["a", "b"]), "A").correct
    True
    """
    if spec.get("kind") == "predict":
        d = decision(spec)
        given = check_choice(answer, d.options, option="answer")
        return Judged(given, given == d.correct, None)
    e = exercise(spec)
    if e.kind in NUMERIC_KINDS:
        verdict = check_answer(e, answer, TOLERANCE)
        value = float(cast(float, verdict.given))
        return Judged(value, verdict.correct, value)
    if e.kind == "ideal_order":
        verdict = check_answer(e, answer, TOLERANCE)
        order = list(cast(tuple[str, ...], verdict.given))
        grade = dict(zip(e.labels, e.relevance, strict=True))
        score = _ndcg([grade[x] for x in order], None, e.gain, e.discount)
        return Judged(order, verdict.correct, score)
    verdict = check_answer(e, check_choice(answer, CHOICES, option="answer"), TOLERANCE)
    return Judged(str(verdict.given), verdict.correct, None)


def histogram(
    spec: dict[str, Any], scores: list[float], verdicts: list[bool], *, revealed: bool
) -> nc.AnswerBins:
    """The bars of the room's histogram of a number or ordering question
    (:func:`ndcg_core.answer_bins`): ``scores`` are the answers' :attr:`Judged.score`,
    ``verdicts`` their stored :attr:`Judged.correct`.

    Before the reveal the bars never see the exact value. After it the right answers are one
    bar over the exact value ± :data:`TOLERANCE` (for an order, right or wrong by :func:`judge`,
    around nDCG 1 with no tolerance). nDCG and the nDCG of orders are on a 0-1 axis.

    >>> spec = spec_from_ranking("ndcg", [3, 2, 0, 0, 1], ["D1", "D2", "D3", "D4", "D5"])
    >>> [(b.count, b.verdict) for b in histogram(spec, [0.96, 0.976, 0.98], [False, True, True], revealed=True).bars]
    [(1, 'wrong'), (2, 'right')]
    """
    ranking = answer_type(spec) == "ranking"
    if not revealed:
        return nc.answer_bins(scores, unit=ranking or spec["kind"] == "ndcg")
    truth = 1.0 if ranking else float(cast(float, expected(spec)))
    return nc.answer_bins(
        scores,
        unit=ranking or spec["kind"] == "ndcg",
        truth=truth,
        tol=0.0 if ranking else TOLERANCE,
        correct=verdicts,
    )


def options(spec: dict[str, Any]) -> tuple[str, ...]:
    """The options of a choice question (:data:`ndcg_teach.exercises.CHOICES`, or a prompt's
    option keys), else ()."""
    if spec.get("kind") == "predict":
        return decision(spec).options
    return CHOICES if answer_type(spec) == "choice" else ()


def tally(values: list[Any], choices: tuple[str, ...]) -> dict[str, int]:
    """How many of ``values`` chose each of ``choices``, in their order (zeros kept).

    >>> tally(["A", "B", "A"], ("A", "B", "same"))
    {'A': 2, 'B': 1, 'same': 0}
    """
    return {c: sum(1 for v in values if v == c) for c in choices}
