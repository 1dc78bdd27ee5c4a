"""Practice exercises: generated from a seed, checked with a stated tolerance, explained by steps.

Contents
--------
make_exercises
    A reproducible set of exercises from a seed (a teacher's link gives a class the same set).
check_answer
    A :class:`Verdict` on an answer: right or wrong, and by how much (numbers judged by
    :func:`ndcg_core.judging.judge_number`, "compare" answers by :func:`ndcg_core.judging.compare_values`).
hints
    The hints of an exercise, one step of its step table at a time, as data (key, parameters).
solution_tables
    The step tables that solve an exercise (one per list shown).
parse_seed, parse_index
    The seed and the exercise number of a link, checked.

Kinds of exercise (:data:`KINDS`): ``"cg"``, ``"dcg"``, ``"idcg"``, ``"ndcg"`` (compute CG@k,
DCG@k, IDCG@k or nDCG@k of a shown list), ``"ideal_order"`` (put a shuffled list into the ideal
order) and ``"compare"`` (predict which of two lists scores the higher nDCG@k, or that they tie).
Expected answers and hints come from :func:`ndcg_core.steps.step_table`, so the practice page
and the lesson cannot disagree. Nothing here draws random numbers except through a
``numpy.random.Generator`` seeded by the caller's seed.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import numpy as np
import pandas as pd

from ndcg_core.discounting import DISCOUNTS, Discount
from ndcg_core.gains import GAINS, Gain
from ndcg_core.judging import ANSWER_TOLERANCE, Verdict, answer_tolerance, compare_values, judge_number
from ndcg_core.steps import step_table
from ndcg_core.validate import check_choice, fail

__all__ = [
    "CHOICES",
    "DEFAULT_TOLERANCE",
    "KINDS",
    "MAX_SEED",
    "NUMERIC_KINDS",
    "Exercise",
    "Hint",
    "Verdict",
    "check_answer",
    "check_permutation",
    "hints",
    "make_exercises",
    "parse_index",
    "parse_seed",
    "solution_tables",
]

Kind = Literal["cg", "dcg", "idcg", "ndcg", "ideal_order", "compare"]

#: Every kind of exercise, in the order a set introduces them.
KINDS: tuple[str, ...] = ("cg", "dcg", "idcg", "ndcg", "ideal_order", "compare")
#: Kinds answered with one number.
NUMERIC_KINDS: tuple[str, ...] = ("cg", "dcg", "idcg", "ndcg")
#: Answers of a "compare" exercise: list A scores higher, list B does, or both score the same.
CHOICES: tuple[str, ...] = ("A", "B", "same")
#: Numeric answers within this absolute distance of the exact value count as right
#: (:data:`ndcg_core.judging.ANSWER_TOLERANCE`, stated there once).
DEFAULT_TOLERANCE = ANSWER_TOLERANCE
#: Seeds are whole numbers from 0 to MAX_SEED (short enough to read out in class).
MAX_SEED = 999_999


@dataclass(frozen=True, slots=True)
class Exercise:
    """One exercise: what is shown and the exact answer.

    Attributes
    ----------
    number : int
        1-based place in its set.
    kind : str
        One of :data:`KINDS`.
    relevance, labels : tuple
        The list shown (list A of a "compare"), grades in rank order and item names.
    k : int or None
        The cutoff asked about; ``None`` is the whole list.
    gain, discount : str
        The variant the answer uses.
    other, other_labels : tuple or None
        List B of a "compare" exercise.
    answer : float, tuple of str, or str
        The number (numeric kinds), one ideal order of the labels ("ideal_order"), or one of
        :data:`CHOICES` ("compare").
    """

    number: int
    kind: str
    relevance: tuple[float, ...]
    labels: tuple[str, ...]
    k: int | None
    gain: Gain
    discount: Discount
    answer: float | tuple[str, ...] | str
    other: tuple[float, ...] | None = None
    other_labels: tuple[str, ...] | None = None

    @property
    def cutoff(self) -> int:
        """k as a number of positions (the whole list when k is None or larger)."""
        return len(self.relevance) if self.k is None else min(self.k, len(self.relevance))


@dataclass(frozen=True, slots=True)
class Hint:
    """One hint as data: a message key and its parameters (numbers or tuples of numbers).

    The user interface fills a translated template, e.g. ``practice.hint_discounts`` with
    ``values`` formatted to three decimals.
    """

    key: str
    params: dict[str, Any] = field(default_factory=dict)


def _hint(key: str, **params: Any) -> Hint:
    return Hint(key, params)


def _table(
    relevance: Sequence[float], labels: Sequence[str], k: int | None, gain: Gain, discount: Discount
) -> pd.DataFrame:
    """The step table within the cutoff."""
    table = step_table(list(relevance), k=k, gain=gain, discount=discount, labels=list(labels))
    return table[table["in_cutoff"]].reset_index(drop=True)


def _last(
    relevance: Sequence[float],
    labels: Sequence[str],
    k: int | None,
    gain: Gain,
    discount: Discount,
    column: str,
) -> float:
    return float(_table(relevance, labels, k, gain, discount)[column].iloc[-1])


def _labels(n: int) -> tuple[str, ...]:
    return tuple(f"D{i}" for i in range(1, n + 1))


def _grades(rng: np.random.Generator, low: int = 3, high: int = 6) -> list[float]:
    """3 to 6 grades from 0-3 with at least one relevant item."""
    n = int(rng.integers(low, high + 1))
    grades = rng.integers(0, 4, size=n)
    if not grades.any():
        grades[int(rng.integers(0, n))] = int(rng.integers(1, 4))
    return [float(x) for x in grades]


def _ideal_order(relevance: Sequence[float], labels: Sequence[str]) -> tuple[str, ...]:
    order = np.argsort(-np.asarray(relevance, dtype=np.float64), kind="stable")
    return tuple(labels[i] for i in order)


def _is_ideal(relevance: Sequence[float]) -> bool:
    rel = np.asarray(relevance, dtype=np.float64)
    return bool(np.all(rel[:-1] >= rel[1:]))


def _numeric(number: int, kind: str, rng: np.random.Generator, gain: Gain, discount: Discount) -> Exercise:
    rel = _grades(rng)
    n = len(rel)
    k = None if rng.random() < 0.5 else int(rng.integers(2, n))
    labels = _labels(n)
    answer = _last(rel, labels, k, gain, discount, kind)
    return Exercise(number, kind, tuple(rel), labels, k, gain, discount, answer)


def _ordering(number: int, rng: np.random.Generator, gain: Gain, discount: Discount) -> Exercise:
    while True:
        rel = _grades(rng, 4, 6)
        if len(set(rel)) >= 2 and not _is_ideal(rel):
            break
    labels = _labels(len(rel))
    return Exercise(
        number, "ideal_order", tuple(rel), labels, None, gain, discount, _ideal_order(rel, labels)
    )


def _compare(number: int, rng: np.random.Generator, gain: Gain, discount: Discount) -> Exercise:
    while True:
        rel = _grades(rng, 3, 5)
        if len(set(rel)) >= 2:
            break
    labels = _labels(len(rel))
    if rng.random() < 0.25:
        # the padding blind spot: the same list with irrelevant items appended ties
        pad = int(rng.integers(1, 4))
        other = rel + [0.0] * pad
        other_labels = labels + tuple(f"D{i}" for i in range(len(rel) + 1, len(rel) + pad + 1))
    else:
        while True:
            order = rng.permutation(len(rel))
            other = [rel[i] for i in order]
            if other != rel:
                break
        other_labels = tuple(labels[i] for i in order)
    a = _last(rel, labels, None, gain, discount, "ndcg")
    b = _last(other, other_labels, None, gain, discount, "ndcg")
    answer = {"higher": "A", "lower": "B", "same": "same"}[compare_values(a, b)]
    return Exercise(
        number, "compare", tuple(rel), labels, None, gain, discount, answer, tuple(other), other_labels
    )


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= int(seed) <= MAX_SEED:
        fail("bad_link", param="seed", got=str(seed)[:20], rule="rule_seed", limit=MAX_SEED)
    return int(seed)


def make_exercises(
    seed: int,
    n: int = 10,
    *,
    kinds: Sequence[str] = KINDS,
    gain: Gain = "linear",
    discount: Discount = "log2",
) -> list[Exercise]:
    """A set of ``n`` exercises, the same for the same arguments.

    The first exercises introduce each kind of ``kinds`` once, in order; the rest are drawn
    from ``kinds`` at random. Lists have 3 to 6 items graded 0-3, at least one of them relevant.

    Parameters
    ----------
    seed : int
        0 to :data:`MAX_SEED`.
    n : int
        Number of exercises, at least 1.
    kinds : sequence of str
        Kinds to use (a subset of :data:`KINDS`).
    gain, discount : str
        The variant the answers use.

    Returns
    -------
    list of Exercise

    Raises
    ------
    NDCGInputError
        On a seed out of range, an ``n`` below 1, an unknown kind, gain or discount.

    >>> ex = make_exercises(7, n=6)
    >>> [e.kind for e in ex]
    ['cg', 'dcg', 'idcg', 'ndcg', 'ideal_order', 'compare']
    >>> ex == make_exercises(7, n=6)
    True
    """
    seed = _check_seed(seed)
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        fail("shape", what="exercise_count", rule="rule_positive_integer", got=repr(n))
    kinds = tuple(kinds)
    if not kinds:
        fail("empty", what="list")
    for kind in kinds:
        check_choice(kind, KINDS, option="exercise kind")
    check_choice(gain, GAINS, option="gain")
    check_choice(discount, DISCOUNTS, option="discount")
    rng = np.random.default_rng(seed)
    out: list[Exercise] = []
    for number in range(1, int(n) + 1):
        kind = kinds[number - 1] if number <= len(kinds) else kinds[int(rng.integers(0, len(kinds)))]
        if kind in NUMERIC_KINDS:
            out.append(_numeric(number, kind, rng, gain, discount))
        elif kind == "ideal_order":
            out.append(_ordering(number, rng, gain, discount))
        else:
            out.append(_compare(number, rng, gain, discount))
    return out


def check_permutation(given: Sequence[Any], labels: Sequence[str]) -> tuple[str, ...]:
    """``given`` as a tuple of names, refused unless it holds each of ``labels`` exactly once.

    >>> check_permutation(["D2", "D1"], ("D1", "D2"))
    ('D2', 'D1')
    >>> check_permutation(["D1", "D1"], ("D1", "D2"))
    Traceback (most recent call last):
    ...
    ndcg_core.validate.NDCGInputError: The order must hold each of the 2 items exactly once. \
Got 2 items, 1 missing and 1 unknown or repeated.
    """
    if isinstance(given, (str, bytes)) or not isinstance(given, Sequence):
        fail("not_permutation", n=len(labels), got=0, missing=len(labels), extra=0)
    names = tuple(str(x) for x in given)
    if sorted(names) != sorted(labels):
        missing = len(set(labels) - set(names))
        extra = len(names) - (len(labels) - missing)
        fail("not_permutation", n=len(labels), got=len(names), missing=missing, extra=extra)
    return names


def check_answer(exercise: Exercise, answer: Any, tol: float = DEFAULT_TOLERANCE) -> Verdict:
    """Check an answer to ``exercise``.

    - numeric kinds: a number, or text holding one number (parsed as typed text is); right
      when |answer - exact| <= ``tol`` (:func:`ndcg_core.judging.judge_number`);
    - ``"ideal_order"``: the item names in the proposed order, refused unless they hold each
      item exactly once (:func:`check_permutation`); right when the grades never increase
      (equal grades in any order);
    - ``"compare"``: one of :data:`CHOICES`.

    Raises
    ------
    NDCGInputError
        On text that is not exactly one number, an order that is not a permutation of the
        items, a choice not in :data:`CHOICES`, or a negative
        or non-finite ``tol``.

    >>> ex = make_exercises(7, n=1)[0]
    >>> ex.kind, ex.relevance, ex.k
    ('cg', (2.0, 2.0, 3.0, 2.0, 3.0, 3.0), None)
    >>> check_answer(ex, "15").correct, check_answer(ex, 15.5).correct
    (True, False)
    """
    expected = exercise.answer
    if exercise.kind in NUMERIC_KINDS:
        return judge_number(answer, float(cast("float", expected)), tol=tol)
    tol = answer_tolerance(tol=tol)  # the same check of ``tol`` for every kind
    if exercise.kind == "ideal_order":
        given = check_permutation(answer, exercise.labels)
        grade = dict(zip(exercise.labels, exercise.relevance, strict=False))
        correct = _is_ideal([grade[x] for x in given])
        return Verdict(correct, given, expected, None, tol)
    choice = check_choice(answer, CHOICES, option="answer")
    return Verdict(choice == expected, choice, expected, None, tol)


def _values(table: pd.DataFrame, column: str) -> tuple[float, ...]:
    return tuple(float(x) for x in table[column])


def hints(exercise: Exercise) -> tuple[Hint, ...]:
    """The hints of ``exercise``, from a general rule to the numbers of its step table.

    Each hint adds one step; the last one leaves only the final addition or division.

    >>> [h.key for h in hints(make_exercises(7, n=2)[1])]
    ['dcg_rule', 'gains', 'discounts', 'discounted_gains']
    """
    e = exercise
    kk = e.cutoff
    if e.kind == "compare":
        a = _table(e.relevance, e.labels, None, e.gain, e.discount)
        b = _table(e.other or (), e.other_labels or (), None, e.gain, e.discount)
        return (
            _hint("compare_rule"),
            _hint("ndcg_of", list="A", value=float(a["ndcg"].iloc[-1])),
            _hint("ndcg_of", list="B", value=float(b["ndcg"].iloc[-1])),
        )
    t = _table(e.relevance, e.labels, e.k, e.gain, e.discount)
    if e.kind == "cg":
        # CG sums gains: with exponential gain the hint lists the gains, not the grades
        shown = (
            _hint("grades", k=kk, values=_values(t, "relevance"))
            if e.gain == "linear"
            else _hint("gains", k=kk, values=_values(t, "gain"))
        )
        return (_hint("cg_rule", k=kk), shown)
    if e.kind == "dcg":
        return (
            _hint("dcg_rule", k=kk),
            _hint("gains", k=kk, values=_values(t, "gain")),
            _hint("discounts", k=kk, values=_values(t, "discount")),
            _hint("discounted_gains", k=kk, values=_values(t, "discounted_gain")),
        )
    if e.kind == "idcg":
        return (
            _hint("idcg_rule", k=kk),
            _hint("ideal_grades", k=kk, values=_values(t, "ideal_relevance")),
            _hint("discounts", k=kk, values=_values(t, "discount")),
            _hint("ideal_discounted_gains", k=kk, values=_values(t, "ideal_discounted_gain")),
        )
    if e.kind == "ndcg":
        return (
            _hint("ndcg_rule", k=kk),
            _hint("dcg_value", k=kk, value=float(t["dcg"].iloc[-1])),
            _hint("idcg_value", k=kk, value=float(t["idcg"].iloc[-1])),
        )
    full = step_table(list(e.relevance), labels=list(e.labels))
    return (
        _hint("sort_rule"),
        _hint("ideal_grades", k=len(e.relevance), values=_values(full, "ideal_relevance")),
        _hint("first_item", item=str(full["ideal_item"].iloc[0])),
    )


def solution_tables(exercise: Exercise) -> dict[str, pd.DataFrame]:
    """The step tables that solve ``exercise``: ``{"A": ...}``, and ``"B"`` for a "compare".

    Only the rows within the cutoff; the last row holds the answer of a numeric kind. An
    "ideal_order" is solved by the table of its answer, the list put into an ideal order (its
    DCG equals its IDCG on every row), not by the table of the shuffled list it shows.

    >>> t = solution_tables(make_exercises(7, n=2)[1])["A"]
    >>> list(t["position"])
    [1, 2]
    """
    e = exercise
    if e.kind == "ideal_order" and isinstance(e.answer, tuple):
        grade = dict(zip(e.labels, e.relevance, strict=True))
        return {"A": _table([grade[x] for x in e.answer], e.answer, e.k, e.gain, e.discount)}
    out = {"A": _table(e.relevance, e.labels, e.k, e.gain, e.discount)}
    if e.other is not None and e.other_labels is not None:
        out["B"] = _table(e.other, e.other_labels, e.k, e.gain, e.discount)
    return out


def parse_seed(text: str) -> int:
    """The seed of a link: a whole number from 0 to :data:`MAX_SEED`.

    >>> parse_seed(" 42 ")
    42
    """
    folded = str(text).strip()
    # length first: int() of thousands of digits is slow, and refused past 4,300 (ValueError)
    if len(folded) > len(str(MAX_SEED)) or not folded.isascii() or not folded.isdigit():
        fail("bad_link", param="seed", got=folded[:20], rule="rule_seed", limit=MAX_SEED)
    return _check_seed(int(folded))


def parse_index(text: str, n: int) -> int:
    """The exercise number of a link: a whole number from 1 to ``n``.

    >>> parse_index("3", 10)
    3
    """
    folded = str(text).strip()
    if len(folded) > len(str(n)) or not folded.isascii() or not folded.isdigit() or not 1 <= int(folded) <= n:
        fail("bad_link", param="ex", got=folded[:20], rule="rule_exercise", n=n)
    return int(folded)
