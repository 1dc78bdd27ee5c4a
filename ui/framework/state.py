"""The shared ranking state and its URL form (no streamlit import: pure and testable).

A view is reproduced by its link: ``?rel=3,2,0,0,1&k=3&gain=exponential&disc=jarvelin&lang=zh``
(item names as repeated ``item=`` parameters, only when they are not the default D1…Dn).
An unjudged item is ``?`` in ``rel`` (NaN in :class:`Ranking`), and ``unj=drop`` chooses the
condensed list (nDCG′) over counting unjudged items as 0. ``missed=3,2,2`` gives the grades of
judged items the system did not return: the ideal then comes from the judged pool (the list's
judged grades and these), as trec_eval's does.
Links go through the same parsers as typed text, so a broken link gives messages, not a crash.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NotRequired, TypedDict, TypeVar

import numpy as np

import ndcg_core as nc
from ndcg_core import NDCGInputError
from ndcg_core.discounting import Discount
from ndcg_core.gains import Gain
from ndcg_core.options import Unjudged
from ui.framework import messages

_Choice = TypeVar("_Choice", bound=str)

MAX_ITEMS = 100
EXAMPLE_RELEVANCE: tuple[float, ...] = (3.0, 2.0, 0.0, 0.0, 1.0)
GAIN_CHOICES: tuple[Gain, ...] = tuple(nc.GAINS)  # the core names the options once
DISCOUNT_CHOICES: tuple[Discount, ...] = tuple(nc.DISCOUNTS)
UNJUDGED_CHOICES: tuple[Unjudged, ...] = nc.UNJUDGED
SHARED_PARAMS: tuple[str, ...] = ("rel", "item", "k", "gain", "disc", "unj", "missed", "lang", "present")
#: The one NaN object a :class:`Ranking` holds for an unjudged item: NaN is unequal to itself,
#: but tuples compare elements by identity first, so two rankings with "?" at the same
#: places compare equal (the change notes, the error slots and the editors rely on it).
UNJUDGED_GRADE = float("nan")

# Limits of a link, checked once when a session reads it (ui.frame), before any page converts
# a value: far below what the server itself accepts (a request line of tens of kilobytes;
# a request the server rejects never reaches the app, so the app could not say why).
#: Different parameter names in one link (the app uses about a dozen).
MAX_LINK_PARAMS = 40
#: Characters of a parameter's name.
MAX_NAME_CHARS = 40
#: Characters of one value: a list of MAX_ITEMS numbers written out fits with room to spare.
MAX_VALUE_CHARS = 2000
#: Characters of a value that is one number or one word (a seed, k, a step, an option):
#: checked before the number is converted, so "seed=" and 5,000 digits never reach ``int``.
MAX_NUMBER_CHARS = 20
SHORT_PARAMS: frozenset[str] = frozenset(
    {
        "k",
        "gain",
        "disc",
        "unj",
        "lang",
        "present",
        "scale",
        "seed",
        "ex",
        "step",
        "swap",
        "dec",
        "by_score",
        "eval_k",
        "eval_gain",
        "eval_ties",
        "eval_norel",
    }
)
#: Item names: like the table's names (the core refuses names over 60 characters itself).
MAX_LABEL_CHARS = 200
#: How often a name may appear: ``item`` once per item, every other name once.
REPEATABLE: dict[str, int] = {"item": MAX_ITEMS}


def default_labels(n: int) -> tuple[str, ...]:
    """D1, D2, …, Dn."""
    return tuple(f"D{i}" for i in range(1, n + 1))


def format_grade(value: float) -> str:
    """A grade as people write it: 3 not 3.0, 0.5 as 0.5, an unjudged item (NaN) as "?"."""
    return "?" if math.isnan(value) else f"{value:g}"


def is_unjudged(value: float) -> bool:
    """Whether a grade of a :class:`Ranking` marks an unjudged item."""
    return math.isnan(value)


class Variant(TypedDict):
    """The gain and the discount of a ranking, as keyword arguments of the core's functions."""

    gain: Gain
    discount: Discount


class ListOptions(Variant):
    """Keyword arguments of the core's ranked-list functions: :meth:`Ranking.options`."""

    k: int | None


class JudgedOptions(ListOptions):
    """:class:`ListOptions` with unjudged items and a judged pool: :meth:`Ranking.judged_options`."""

    unjudged: Unjudged
    pool: NotRequired[tuple[float, ...] | None]


@dataclass(frozen=True, slots=True)
class Ranking:
    """The ranking a learner works on: grades and item names in rank order, and the variant.

    An unjudged item has the grade NaN (always the object :data:`UNJUDGED_GRADE`); ``unjudged``
    says what it means: ``"zero"`` (gain 0, trec_eval) or ``"drop"`` (the condensed list, nDCG′).

    ``missed`` holds the grades of judged items the system did not return (a query opened from
    the Evaluate page). When it is not empty the ideal comes from the judged pool, :attr:`pool`:
    the list's own judged grades plus these, so editing, adding or removing items of the list
    edits the pool with it and the pool always holds every graded item of the list (the core's
    ``pool_missing`` cannot arise). Only grades above 0 are kept (a judged item of grade 0
    changes no IDCG), largest first. A preset or a link without ``missed`` starts without a
    pool; the Calculator's "forget the judged pool" empties it.
    """

    relevance: tuple[float, ...] = EXAMPLE_RELEVANCE
    labels: tuple[str, ...] = default_labels(len(EXAMPLE_RELEVANCE))
    k: int | None = None
    gain: Gain = "linear"
    discount: Discount = "log2"
    unjudged: Unjudged = "zero"
    missed: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if any(math.isnan(x) and x is not UNJUDGED_GRADE for x in self.relevance):
            canonical = tuple(UNJUDGED_GRADE if math.isnan(x) else x for x in self.relevance)
            object.__setattr__(self, "relevance", canonical)
        kept = tuple(sorted((float(x) for x in self.missed if x > 0), reverse=True))
        if kept != self.missed:
            object.__setattr__(self, "missed", kept)

    @property
    def pool(self) -> tuple[float, ...] | None:
        """The judged pool when the ranking has one (the list's judged grades, then
        :attr:`missed`), else None: the ideal is then the list's own grades."""
        if not self.missed:
            return None
        return tuple(x for x in self.relevance if not math.isnan(x)) + self.missed

    def metric_k(self, list_k: int) -> int:
        """The k that names the metrics, given the core's ``Metrics.k`` (the list's cutoff):
        that, or against a judged pool k itself, or with k = all the whole pool when it is
        longer than the list (IDCG then runs over every position of the ideal, as the formulas
        and the step table show it)."""
        pool = self.pool
        if pool is None:
            return list_k
        if self.k is not None:
            return self.k
        return max(list_k, len(pool))

    @property
    def n_judged(self) -> int:
        """How many items of the list carry a grade."""
        return self.n - self.n_unjudged

    @property
    def n(self) -> int:
        return len(self.relevance)

    @property
    def n_unjudged(self) -> int:
        """How many items are unjudged ("?")."""
        return sum(1 for x in self.relevance if math.isnan(x))

    @property
    def has_unjudged(self) -> bool:
        return self.n_unjudged > 0

    @property
    def cutoff(self) -> int:
        """k as a number of positions (the whole list when k is None or larger)."""
        return self.n if self.k is None else min(self.k, self.n)

    def options(self) -> ListOptions:
        """Keyword arguments for the core's ranked-list functions (grades must all be judged)."""
        return {"k": self.k, "gain": self.gain, "discount": self.discount}

    def judged_options(self) -> JudgedOptions:
        """:meth:`options` plus ``unjudged`` and, with a judged pool, ``pool``: for the core
        functions that take unjudged items and a pool (metrics, step_table, formulas,
        describe_change). :meth:`options` alone is the list's own ideal."""
        out: JudgedOptions = {
            "k": self.k,
            "gain": self.gain,
            "discount": self.discount,
            "unjudged": self.unjudged,
        }
        if self.missed:
            out["pool"] = self.pool
        return out

    def with_missed(self, grades: Sequence[float]) -> Ranking:
        """The same list with a judged pool: ``grades`` of judged items it lacks (validated:
        finite, non-negative, at most :data:`MAX_ITEMS`); an empty sequence forgets the pool."""
        if not len(grades):
            return replace(self, missed=())
        rel = nc.validate.as_relevance(list(grades), what="missed_grades")
        if rel.size > MAX_ITEMS:
            nc.validate.fail("too_many", what="missed_grades", got=int(rel.size), limit=MAX_ITEMS)
        return replace(self, missed=tuple(float(x) for x in rel))

    def with_order(self, order: Sequence[int]) -> Ranking:
        """The same items in a new order (``order`` lists old positions, 0-based)."""
        return replace(
            self,
            relevance=tuple(self.relevance[i] for i in order),
            labels=tuple(self.labels[i] for i in order),
        )

    def with_items(self, relevance: Iterable[float], labels: Sequence[str] | None = None) -> Ranking:
        """New grades (and names): validated, k kept when it still fits.

        NaN (an unjudged item) is accepted, but not for every item: a ranking needs a grade,
        unless it brings its judged pool (:attr:`missed`) and counts unjudged items as 0 (a
        query whose retrieved items were all unjudged: DCG 0, IDCG from the pool, nDCG 0).
        """
        rel = nc.validate.as_relevance(list(relevance), allow_unjudged=True)
        if rel.size > MAX_ITEMS:
            nc.validate.fail("too_many", what="relevance_list", got=int(rel.size), limit=MAX_ITEMS)
        against_pool = bool(self.missed) and self.unjudged == "zero"
        if not against_pool and all(math.isnan(x) for x in rel.tolist()):
            nc.validate.fail("all_unjudged", what="relevance_list")
        names = default_labels(rel.size) if labels is None else tuple(nc.validate.check_labels(list(labels)))
        nc.validate.check_same_length(names, rel, what="labels_and_grades")
        k = self.k if self.k is None or self.k <= rel.size else None
        return replace(self, relevance=tuple(float(x) for x in rel), labels=names, k=k)


def check_ranking(ranking: Ranking) -> None:
    """Raise the core's :class:`NDCGInputError` when the pages could not compute ``ranking``
    under its own options: grades whose gains add up past the largest float (the core's
    overflow rule, :func:`ndcg_core.gains.first_overflow`, on the list and on its judged pool),
    or every item unjudged without a judged pool to set them against (:meth:`Ranking.with_items`).
    The frame applies it to a link and to every change, so no page meets such a ranking."""
    if ranking.n_judged == 0:  # all "?": only against a judged pool, unjudged items as 0
        ranking.with_items(ranking.relevance, ranking.labels)
    options = ranking.judged_options()
    options["k"] = None  # the rule is on the whole list: pages show every k (nDCG@k by k)
    nc.metrics(ranking.relevance, **options)


def ranking_to_params(ranking: Ranking) -> dict[str, str | list[str]]:
    """The link parameters of a ranking (defaults left out, so links stay short)."""
    params: dict[str, str | list[str]] = {"rel": ",".join(format_grade(x) for x in ranking.relevance)}
    if ranking.labels != default_labels(ranking.n):
        params["item"] = list(ranking.labels)
    if ranking.k is not None:
        params["k"] = str(ranking.k)
    if ranking.gain != "linear":
        params["gain"] = ranking.gain
    if ranking.discount != "log2":
        params["disc"] = ranking.discount
    if ranking.unjudged != "zero":
        params["unj"] = ranking.unjudged
    if ranking.missed:
        params["missed"] = ",".join(format_grade(x) for x in ranking.missed)
    return params


def _choice(
    params: Mapping[str, Any],
    name: str,
    choices: tuple[_Choice, ...],
    errors: list[NDCGInputError],
) -> _Choice | None:
    """The link parameter ``name`` checked against ``choices`` (typed as they are), or None
    when it is absent or refused (the refusal, which names the parameter as the link spells
    it, appended to ``errors``)."""
    text = _one(params, name)
    if text is None:
        return None
    try:
        return nc.validate.check_choice(text, choices, option=name)
    except NDCGInputError as err:
        errors.append(err)
        return None


def _one(params: Mapping[str, Any], name: str) -> str | None:
    value = params.get(name)
    if isinstance(value, (list, tuple)):
        return str(value[-1]) if value else None
    return None if value is None else str(value)


def _many(params: Mapping[str, Any], name: str) -> list[str] | None:
    value = params.get(name)
    if value is None:
        return None
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]


def parse_k(text: str) -> int | None:
    """k from a link or a text box: a positive integer, or "all" / empty for the whole list."""
    folded = text.strip().lower()
    if folded in ("", "all", "none"):
        return None
    # before int(): thousands of digits are slow or refused; and int() reads "1_0" as 10
    if len(folded) > MAX_NUMBER_CHARS or "_" in folded:
        nc.validate.fail("k_invalid", got=repr(text[:20]))
    try:
        value = int(folded)
    except ValueError:
        nc.validate.fail("k_invalid", got=repr(text[:20]))
    return nc.validate.check_k(value, value)


MAX_DECIMALS = 15


def parse_scores(text: Any) -> np.ndarray:
    """Scores typed or linked: finite numbers, at most MAX_ITEMS."""
    return nc.parse_numbers(str(text), what="score_list", limit=MAX_ITEMS)


def parse_decimals(text: Any) -> int | None:
    """The ``dec`` link parameter: empty or "none" for no rounding, else 0 to 15.

    >>> parse_decimals("2"), parse_decimals(""), parse_decimals("none")
    (2, None, None)
    """
    raw = str(text).strip()
    if raw.lower() in ("", "none"):
        return None
    try:
        value = int(raw)
    except ValueError:
        nc.validate.fail("decimals_invalid", got=repr(raw[:20]), limit=MAX_DECIMALS)
    if not 0 <= value <= MAX_DECIMALS:
        nc.validate.fail("decimals_invalid", got=repr(raw[:20]), limit=MAX_DECIMALS)
    return value


def value_limit(name: str) -> int:
    """The most characters a value of the link parameter ``name`` may have."""
    if name in SHORT_PARAMS:
        return MAX_NUMBER_CHARS
    if name == "item":
        return MAX_LABEL_CHARS
    return MAX_VALUE_CHARS


def check_link(params: Mapping[str, Any]) -> tuple[dict[str, Any], list[NDCGInputError]]:
    """A link's parameters within the app's limits, and an error for each refused part.

    More than :data:`MAX_LINK_PARAMS` names: the whole link is refused (only a valid-looking
    ``lang`` is kept, so the message comes in the visitor's language). A name longer than
    :data:`MAX_NAME_CHARS`, a value longer than :func:`value_limit` or a name repeated more
    often than :data:`REPEATABLE` allows: that parameter is refused, the rest applies.

    >>> check_link({"k": "3", "seed": "9" * 30})[0]
    {'k': '3'}
    >>> [e.key for e in check_link({"k": "3", "seed": "9" * 30})[1]]
    ['link_value_too_long']
    """
    if len(params) > MAX_LINK_PARAMS:
        kept: dict[str, Any] = {}
        lang = params.get("lang")
        if isinstance(lang, str) and len(lang) <= MAX_NUMBER_CHARS:
            kept["lang"] = lang
        error = messages.error("link_too_many", got=len(params), limit=MAX_LINK_PARAMS)
        return kept, [error]
    out: dict[str, Any] = {}
    errors: list[NDCGInputError] = []
    for name, value in params.items():
        if len(name) > MAX_NAME_CHARS:
            errors.append(messages.error("link_name_too_long", got=len(name), limit=MAX_NAME_CHARS))
            continue
        values = [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]
        allowed = REPEATABLE.get(name, 1)
        if len(values) > allowed:
            errors.append(messages.error("link_repeated", param=name, got=len(values), limit=allowed))
            continue
        limit = value_limit(name)
        longest = max((len(v) for v in values), default=0)
        if longest > limit:
            errors.append(messages.error("link_value_too_long", param=name, got=longest, limit=limit))
            continue
        out[name] = value
    return out, errors


def ranking_from_params(params: Mapping[str, Any]) -> tuple[Ranking, list[NDCGInputError]]:
    """The ranking a link describes, and the problems found in it.

    Each broken parameter falls back to the example's value and adds one error; the rest of
    the link still applies. Grades (``rel``, ``missed``) the core cannot compute under the
    link's variant (:func:`check_ranking`) are broken too. ``params`` maps a name to a string or a list of strings.
    """
    errors: list[NDCGInputError] = []
    ranking = Ranking()
    rel_text = _one(params, "rel")
    labels = _many(params, "item")
    # the variant first: whether the grades overflow depends on the gain
    gain = _choice(params, "gain", GAIN_CHOICES, errors)
    if gain is not None:
        ranking = replace(ranking, gain=gain)
    discount = _choice(params, "disc", DISCOUNT_CHOICES, errors)
    if discount is not None:
        ranking = replace(ranking, discount=discount)
    unjudged = _choice(params, "unj", UNJUDGED_CHOICES, errors)
    if unjudged is not None:
        ranking = replace(ranking, unjudged=unjudged)
    if rel_text is not None:
        try:
            rel = nc.parse_relevance(rel_text, limit=MAX_ITEMS, allow_unjudged=True)
            with_rel = ranking.with_items(rel)
            check_ranking(with_rel)
            ranking = with_rel
        except NDCGInputError as err:
            errors.append(err)
    if labels is not None:
        try:
            ranking = ranking.with_items(ranking.relevance, labels)
        except NDCGInputError as err:
            errors.append(err)
    k_text = _one(params, "k")
    if k_text is not None:
        try:
            ranking = replace(ranking, k=parse_k(k_text))
        except NDCGInputError as err:
            errors.append(err)
    missed_text = _one(params, "missed")
    if missed_text is not None:
        try:
            missed = nc.validate.parse_numbers(
                missed_text, what="missed_grades", limit=MAX_ITEMS, allow_negative=False
            )
            with_missed = ranking.with_missed(missed.tolist())
            check_ranking(with_missed)
            ranking = with_missed
        except NDCGInputError as err:
            errors.append(err)
    return ranking, errors
