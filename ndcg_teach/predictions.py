"""The app's predict-first questions as data: each prompt's options and its right answer.

A page asks "which is larger, CG@3 or DCG@3?" before it shows the numbers; a live class asks
the same question of a whole room. Both get the options and the right one from here, decided
from the core's numbers (:func:`ndcg_core.compare_values`, the one rule for comparing
computed values), so the page and the live class cannot disagree. The texts are not here: each
screen renders them in its own language from the option keys and :attr:`Decision.values`.

:func:`decide` takes a prompt name (a key of :data:`PROMPTS`, e.g. ``"lesson.bases"``) and the
data it needs (:data:`FIELDS`: a ranking's grades and item names, k, gain, discount, scores);
prompts about the app's fixed examples (the blind spots, the tutorial's slip) need only the
gain and discount.

>>> d = decide("lesson.dcg", relevance=[3, 2, 0, 0, 1], k=3)
>>> d.options, d.correct          # CG@3 = 5 > DCG@3 = 3 + 2/log2(3) = 4.2619
(('cg', 'dcg', 'equal'), 'cg')
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from ndcg_core.discounting import DISCOUNTS, Discount
from ndcg_core.gains import GAINS, Gain, apply_gain
from ndcg_core.judging import compare_values
from ndcg_core.ranked import dcg, metrics, ndcg
from ndcg_core.sklearn_compat import dcg_score, ndcg_score
from ndcg_core.steps import base_comparison, mismatched_cutoffs, order_bounds
from ndcg_core.ties import tie_view
from ndcg_core.validate import (
    as_relevance,
    as_scores,
    check_choice,
    check_k,
    check_same_length,
    parse_relevance,
)

from .questions import sampled_evaluation

__all__ = [
    "DIFFICULTY_EASY",
    "DIFFICULTY_HARD",
    "DUPLICATES",
    "FIELDS",
    "FIXED_DISCOUNT",
    "GAIN_A",
    "GAIN_B",
    "GAIN_DISCOUNT",
    "GAIN_K",
    "GAIN_POOL",
    "LENGTHS_A",
    "LENGTHS_B",
    "LONG_MIXED",
    "NOTHING_A",
    "PADDING_A",
    "PADDING_B",
    "PADDING_BASE",
    "PROMPTS",
    "RETURNED_A",
    "RETURNED_B",
    "SAME_K_DCG",
    "SAME_K_IDCG",
    "SAME_K_LIST",
    "SAMPLED_ASKED",
    "SAMPLED_ITEMS",
    "SAMPLED_USERS",
    "SHORT_PERFECT",
    "SLIP_GRADES",
    "SLIP_RIGHT_SCORES",
    "SLIP_WRONG_TRUE",
    "UNJUDGED_EXAMPLE",
    "UNRETRIEVED",
    "WORKED",
    "Decision",
    "Prompt",
    "decide",
    "gain_case_scores",
    "judged_pool",
    "lengths_overtake",
    "prompt_discount",
    "which_higher",
]

# --- the app's fixed examples (TEACHING.md §1, §2, §4, §7) -------------------------------

#: Two judged items the system never returned (grades 3 and 2): the lesson's "which ideal".
UNRETRIEVED: tuple[float, ...] = (3.0, 2.0)
#: The same-k trap of TEACHING.md §1: a perfect list scored as DCG@2 / IDCG@4.
SAME_K_LIST: tuple[float, ...] = (3.0, 2.0, 2.0, 1.0)
SAME_K_DCG, SAME_K_IDCG = 2, 4
#: The tutorial's slip (TEACHING.md §2): true grades, the grades passed as scores, right scores.
SLIP_GRADES: tuple[int, ...] = (3, 2, 0, 0, 1)
SLIP_WRONG_TRUE: tuple[int, ...] = (3, 2, 1, 0, 0)
SLIP_RIGHT_SCORES: tuple[int, ...] = (5, 4, 3, 2, 1)
#: The blind spots' lists (TEACHING.md §4).
PADDING_BASE: tuple[float, ...] = (3.0,)
PADDING_A: tuple[float, ...] = PADDING_BASE
PADDING_B: tuple[float, ...] = (3.0, 0.0, 0.0)
RETURNED_A: tuple[float, ...] = (3.0, 3.0, 3.0)
RETURNED_B: tuple[float, ...] = (3.0, 3.0, 3.0, 3.0)
NOTHING_A: tuple[float, ...] = (0.0, 0.0, 0.0)
SHORT_PERFECT: tuple[float, ...] = (3.0, 2.0, 1.0)
LONG_MIXED: tuple[float, ...] = (1.0, 0.0, 2.0, 1.0, 3.0, 1.0, 2.0, 1.0, 1.0, 2.0, 1.0, 1.0)
LENGTHS_A: tuple[float, ...] = SHORT_PERFECT
LENGTHS_B: tuple[float, ...] = LONG_MIXED[:8]
#: Same nDCG, different difficulty (TEACHING.md §1): both perfect, very different floors.
DIFFICULTY_EASY: tuple[float, ...] = (1.0, 1.0, 1.0, 1.0, 0.0)
DIFFICULTY_HARD: tuple[float, ...] = (1.0, 0.0, 0.0, 0.0, 0.0)
WORKED: tuple[float, ...] = (3.0, 2.0, 0.0, 0.0, 1.0)
#: The gain can reorder systems (TEACHING.md §4): one judged pool, k = 5.
GAIN_POOL: tuple[float, ...] = (3.0, 2.0, 2.0, 2.0, 0.0, 0.0)
GAIN_A: tuple[float, ...] = (2.0, 2.0, 2.0, 3.0, 0.0)
GAIN_B: tuple[float, ...] = (3.0, 0.0, 0.0, 2.0, 2.0)
GAIN_K = 5
#: The discount the gain case always uses: the case holds with it only (TEACHING.md §4).
GAIN_DISCOUNT: Discount = "log2"
#: Unjudged items: the example typed with "?" for the items nobody judged.
UNJUDGED_EXAMPLE = "3, ?, 2, ?, 0, 1"
#: What nDCG does not model: one relevant page returned three times.
DUPLICATES: tuple[float, ...] = (3.0, 3.0, 3.0)

#: The data a prompt may need, as :func:`decide` takes it.
FIELDS: tuple[str, ...] = ("relevance", "labels", "k", "gain", "discount", "scores")


@dataclass(frozen=True, slots=True)
class Decision:
    """A prompt's option keys (in display order), the right one, and the numbers its texts show.

    ``values`` holds numbers from the core (and tuples of grades for the lists a prompt shows);
    a screen formats them in its texts, never computes them.
    """

    options: tuple[str, ...]
    correct: str
    values: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Prompt:
    """A prompt of :data:`PROMPTS`: the pages that ask it, the data it needs, its decision."""

    pages: tuple[str, ...]
    fields: tuple[str, ...]
    decide: Callable[..., Decision]


def which_higher(first: float, second: float) -> str:
    """``"A"``, ``"B"`` or ``"same"``: which of two values (from the core) is higher.

    >>> which_higher(0.9, 0.8), which_higher(0.8, 0.9), which_higher(0.1 + 0.2, 0.3)
    ('A', 'B', 'same')
    """
    return {"higher": "A", "lower": "B", "same": "same"}[compare_values(first, second)]


def _side(a: float, b: float, *, higher: str, lower: str, same: str) -> str:
    """Which option names how ``b`` compares with ``a``."""
    return {"higher": higher, "lower": lower, "same": same}[compare_values(b, a)]


_AB: tuple[str, ...] = ("A", "B", "same")
_YES_NO: tuple[str, ...] = ("yes", "no")

# --- the lesson ------------------------------------------------------------------------------


def _lesson_gain(relevance: Sequence[float], gain: Gain, **_: Any) -> Decision:
    gains = apply_gain(as_relevance(list(relevance)), gain)
    return Decision(("grade", "position", "both"), "grade", {"gains": tuple(float(g) for g in gains)})


def _lesson_cg(
    relevance: Sequence[float], k: int | None, gain: Gain, discount: Discount, **_: Any
) -> Decision:
    rel = [float(x) for x in relevance]
    m = metrics(rel, k=k, gain=gain, discount=discount)
    if len(rel) < 2:  # one item: no other order
        return Decision(_YES_NO, "no", {"single": True, "k": m.k, "before": m.cg, "after": m.cg})
    swapped = [rel[-1], *rel[1:-1], rel[0]]
    after = metrics(swapped, k=k, gain=gain, discount=discount).cg
    correct = "no" if compare_values(after, m.cg) == "same" else "yes"
    return Decision(_YES_NO, correct, {"single": False, "k": m.k, "before": m.cg, "after": after})


def _lesson_dcg(
    relevance: Sequence[float], k: int | None, gain: Gain, discount: Discount, **_: Any
) -> Decision:
    m = metrics(list(relevance), k=k, gain=gain, discount=discount)
    correct = {"same": "equal", "higher": "cg", "lower": "dcg"}[compare_values(m.cg, m.dcg)]
    return Decision(("cg", "dcg", "equal"), correct, {"k": m.k, "cg": m.cg, "dcg": m.dcg})


def _lesson_idcg(
    relevance: Sequence[float], k: int | None, gain: Gain, discount: Discount, **_: Any
) -> Decision:
    m = metrics(list(relevance), k=k, gain=gain, discount=discount)
    correct = "yes" if compare_values(m.dcg, m.idcg) == "higher" else "no"
    return Decision(_YES_NO, correct, {"k": m.k, "dcg": m.dcg, "idcg": m.idcg})


def _lesson_ndcg(
    relevance: Sequence[float], k: int | None, gain: Gain, discount: Discount, **_: Any
) -> Decision:
    m = metrics(list(relevance), k=k, gain=gain, discount=discount)
    correct = "low" if m.ndcg < 0.5 else ("mid" if m.ndcg <= 0.9 else "high")
    return Decision(("low", "mid", "high"), correct, {"k": m.k, "ndcg": m.ndcg})


def _lesson_bases(relevance: Sequence[float], k: int | None, gain: Gain, **_: Any) -> Decision:
    table = base_comparison(list(relevance), k=k, gain=gain)
    base2, base10 = float(table["ndcg"].iloc[0]), float(table["ndcg"].iloc[-1])
    k_shown = metrics(list(relevance), k=k, gain=gain).k
    return Decision(
        ("up", "down", "same"),
        _side(base2, base10, higher="up", lower="down", same="same"),
        {"k": k_shown, "ndcg": base2, "ndcg_base10": base10},
    )


def judged_pool(prompt: str, relevance: Sequence[float]) -> list[float] | None:
    """The judged pool a prompt's ideal comes from, or None when it is the list's own grades.

    Only ``lesson.which_ideal`` asks about a pool: the list's grades and two judged items the
    system never returned (:data:`UNRETRIEVED`).

    >>> judged_pool("lesson.which_ideal", [3, 2, 0])
    [3.0, 2.0, 0.0, 3.0, 2.0]
    >>> judged_pool("lesson.dcg", [3, 2, 0]) is None
    True
    """
    if prompt != "lesson.which_ideal":
        return None
    return [float(x) for x in relevance] + list(UNRETRIEVED)


def _lesson_which_ideal(
    relevance: Sequence[float], k: int | None, gain: Gain, discount: Discount, **_: Any
) -> Decision:
    rel = [float(x) for x in relevance]
    pool = judged_pool("lesson.which_ideal", rel)
    own = metrics(rel, k=k, gain=gain, discount=discount)
    pooled = metrics(rel, k=k, gain=gain, discount=discount, pool=pool)
    return Decision(
        ("higher", "lower", "same"),
        _side(own.ndcg, pooled.ndcg, higher="higher", lower="lower", same="same"),
        {"k": own.k, "own": own.ndcg, "pool": pooled.ndcg, "own_idcg": own.idcg, "pool_idcg": pooled.idcg},
    )


def _lesson_same_k(**_: Any) -> Decision:
    c = mismatched_cutoffs(list(SAME_K_LIST), dcg_k=SAME_K_DCG, idcg_k=SAME_K_IDCG)
    correct = {"same": "one", "lower": "less", "higher": "more"}[compare_values(c.ratio, 1.0)]
    return Decision(
        ("one", "less", "more"), correct, {"dcg": c.dcg, "idcg": c.idcg, "ratio": c.ratio, "ndcg": c.ndcg}
    )


def _lesson_slip(**_: Any) -> Decision:
    by_hand = dcg(list(SLIP_GRADES))  # the DCG by hand, the one the tutorial should have printed
    wrong_dcg = dcg_score([list(SLIP_WRONG_TRUE)], [list(SLIP_GRADES)])
    # "Is 4.67 the DCG@5 of [3, 2, 0, 0, 1]?": yes only when the DCG rounds to 4.67
    correct = "yes" if round(by_hand, 2) == 4.67 else "no"
    return Decision(
        _YES_NO,
        correct,
        {
            "dcg": by_hand,
            "wrong_dcg": wrong_dcg,
            "wrong_ndcg": ndcg_score([list(SLIP_WRONG_TRUE)], [list(SLIP_GRADES)]),
            "right": ndcg_score([list(SLIP_GRADES)], [list(SLIP_RIGHT_SCORES)]),
        },
    )


# --- scores and ties ---------------------------------------------------------------------------


def _ties_guess(
    relevance: Sequence[float],
    scores: Sequence[float],
    k: int | None,
    gain: Gain,
    discount: Discount,
    **_: Any,
) -> Decision:
    view = tie_view(list(relevance), list(scores), k=k, gain=gain, discount=discount)
    if view.n_tied_items == 0:
        correct = "between"  # one order: every treatment gives the same number
    elif compare_values(view.average, view.optimistic) == "same":
        correct = "best"
    elif compare_values(view.average, view.pessimistic) == "same":
        correct = "worst"
    else:
        correct = "between"
    return Decision(
        ("worst", "between", "best"),
        correct,
        {
            "k": metrics(list(relevance), k=k).k,
            "tied": view.n_tied_items,
            "pessimistic": view.pessimistic,
            "average": view.average,
            "optimistic": view.optimistic,
            # one number whatever the order of the ties (none, or ties of equal grades): every
            # option describes it, so there is nothing to predict
            "flat": compare_values(view.pessimistic, view.optimistic) == "same",
        },
    )


# --- blind spots ----------------------------------------------------------------------------


def _two(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    return {"list_a": tuple(a), "list_b": tuple(b)}


def _blind_padding(gain: Gain, discount: Discount, **_: Any) -> Decision:
    a, b = (
        ndcg(list(PADDING_A), gain=gain, discount=discount),
        ndcg(list(PADDING_B), gain=gain, discount=discount),
    )
    return Decision(_AB, which_higher(a, b), {**_two(PADDING_A, PADDING_B), "a": a, "b": b})


def _blind_unretrieved(gain: Gain, discount: Discount, **_: Any) -> Decision:
    a = ndcg(list(RETURNED_A), gain=gain, discount=discount)
    b = ndcg(list(RETURNED_B), gain=gain, discount=discount)
    return Decision(_AB, which_higher(a, b), {**_two(RETURNED_A, RETURNED_B), "a": a, "b": b})


def _blind_nothing(gain: Gain, discount: Discount, **_: Any) -> Decision:
    value = ndcg(list(NOTHING_A), gain=gain, discount=discount)
    correct = "zero" if compare_values(value, 0.0) == "same" else "one"
    return Decision(("one", "zero", "undefined"), correct, {"list_a": NOTHING_A, "a": value})


def _blind_lengths(gain: Gain, discount: Discount, **_: Any) -> Decision:
    a = metrics(list(LENGTHS_A), gain=gain, discount=discount).dcg
    b = metrics(list(LENGTHS_B), gain=gain, discount=discount).dcg
    return Decision(_AB, which_higher(a, b), {**_two(LENGTHS_A, LENGTHS_B), "a": a, "b": b})


def _blind_difficulty(gain: Gain, discount: Discount, **_: Any) -> Decision:
    easy = order_bounds(list(DIFFICULTY_EASY), gain=gain, discount=discount)
    hard = order_bounds(list(DIFFICULTY_HARD), gain=gain, discount=discount)
    worked = order_bounds(list(WORKED), gain=gain, discount=discount)
    return Decision(
        _AB,
        which_higher(easy.mean, hard.mean),
        {
            **_two(DIFFICULTY_EASY, DIFFICULTY_HARD),
            "a_mean": easy.mean,
            "a_worst": easy.worst,
            "b_mean": hard.mean,
            "example_worst": worked.worst,
        },
    )


def gain_case_scores(discount: Discount = GAIN_DISCOUNT) -> dict[str, tuple[float, float]]:
    """nDCG@5 of systems A and B of "the gain can reorder systems", per gain, with ``discount``.

    The case holds with 1/log2(i + 1) (:data:`GAIN_DISCOUNT`, which the case always uses): A
    wins with linear gain, B with exponential gain. With Järvelin and Kekäläinen's discount A
    wins under both, which the page says beside it.

    >>> {g: [round(x, 3) for x in v] for g, v in gain_case_scores().items()}
    {'linear': [0.907, 0.757], 'exponential': [0.805, 0.809]}
    >>> {g: [round(x, 3) for x in v] for g, v in gain_case_scores("jarvelin").items()}
    {'linear': [0.931, 0.669], 'exponential': [0.851, 0.731]}
    """
    return {
        g: (
            ndcg(list(GAIN_A), k=GAIN_K, gain=g, discount=discount, pool=list(GAIN_POOL)),
            ndcg(list(GAIN_B), k=GAIN_K, gain=g, discount=discount, pool=list(GAIN_POOL)),
        )
        for g in ("linear", "exponential")
    }


def lengths_overtake(gain: Gain, discount: Discount) -> int | None:
    """The shortest prefix of :data:`LONG_MIXED` whose DCG exceeds :data:`SHORT_PERFECT`'s
    under ``gain`` and ``discount``, or ``None`` when no prefix does (the slider's range).

    >>> lengths_overtake("linear", "log2"), lengths_overtake("linear", "jarvelin")
    (8, 9)
    >>> lengths_overtake("exponential", "log2") is None
    True
    """
    short = metrics(list(SHORT_PERFECT), gain=gain, discount=discount).dcg
    for n in range(len(SHORT_PERFECT), len(LONG_MIXED) + 1):
        long = metrics(list(LONG_MIXED[:n]), gain=gain, discount=discount).dcg
        if which_higher(long, short) == "A":
            return n
    return None


#: Prompts asked under a discount of their own, whatever the Calculator's (the case needs it).
FIXED_DISCOUNT: dict[str, Discount] = {"blind.gain": GAIN_DISCOUNT, "blind.sampled": "log2"}


def prompt_discount(prompt: str, discount: Discount) -> Discount:
    """The discount ``prompt`` is asked under: its own (:data:`FIXED_DISCOUNT`) or ``discount``.

    >>> prompt_discount("blind.gain", "jarvelin"), prompt_discount("blind.lengths", "jarvelin")
    ('log2', 'jarvelin')
    """
    return FIXED_DISCOUNT.get(prompt, discount)


def _blind_gain(**_: Any) -> Decision:
    scores = gain_case_scores()
    return Decision(
        _AB,
        which_higher(*scores["exponential"]),
        {
            **_two(GAIN_A, GAIN_B),
            "pool": GAIN_POOL,
            "linear": scores["linear"],
            "exponential": scores["exponential"],
        },
    )


def _blind_unjudged(gain: Gain, discount: Discount, **_: Any) -> Decision:
    example = parse_relevance(UNJUDGED_EXAMPLE, allow_unjudged=True)
    zero = ndcg(example, unjudged="zero", gain=gain, discount=discount)
    drop = ndcg(example, unjudged="drop", gain=gain, discount=discount)
    correct = {"A": "zero", "B": "drop", "same": "same"}[which_higher(zero, drop)]
    return Decision(("zero", "drop", "same"), correct, {"zero": zero, "drop": drop})


#: Blind spot 9 (sampled items): users, catalogue size, and the sample size the question asks
#: about (the page's slider starts there).
SAMPLED_USERS, SAMPLED_ITEMS, SAMPLED_ASKED = 500, 10_000, 100


@functools.cache
def _sampled_means() -> tuple[tuple[float, float], tuple[float, float]]:
    """Models A and B's mean nDCG@10 on the whole catalogue and over 1 + SAMPLED_ASKED items
    (seeded: the same for every visitor; 20-30 ms, so computed once a process)."""
    table = sampled_evaluation(negatives=SAMPLED_ASKED, n_users=SAMPLED_USERS, n_items=SAMPLED_ITEMS)
    by_model = table.set_index("model")
    full = (float(by_model.loc["A", "full"]), float(by_model.loc["B", "full"]))
    sampled = (float(by_model.loc["A", "sampled"]), float(by_model.loc["B", "sampled"]))
    return full, sampled


def _blind_sampled(**_: Any) -> Decision:
    # nDCG of one relevant item of grade 1: the gain does not matter, the discount is log2
    full, sampled = _sampled_means()
    return Decision(_AB, which_higher(*sampled), {"full": full, "sampled": sampled})


def _blind_not_modelled(gain: Gain, discount: Discount, **_: Any) -> Decision:
    value = ndcg(list(DUPLICATES), gain=gain, discount=discount)
    correct = "no" if compare_values(value, 1.0) == "same" else "yes"
    return Decision(_YES_NO, correct, {"list_a": DUPLICATES, "ndcg": value})


# --- variants --------------------------------------------------------------------------------


def _variants_guess(relevance: Sequence[float], k: int | None, **_: Any) -> Decision:
    # the page's side-by-side question: log2 discount, ideal from the list
    linear = metrics(list(relevance), k=k, gain="linear", discount="log2")
    exponential = metrics(list(relevance), k=k, gain="exponential", discount="log2")
    return Decision(
        ("higher", "lower", "same"),
        compare_values(exponential.ndcg, linear.ndcg),
        {"k": linear.k, "linear": linear.ndcg, "exponential": exponential.ndcg},
    )


_RANKED = ("relevance", "labels", "k", "gain", "discount")
_FIXED = ("gain", "discount")

#: Every prompt a live class can ask, grouped by page in the order the pages ask them.
PROMPTS: dict[str, Prompt] = {
    "lesson.gain": Prompt(("lesson",), _RANKED, _lesson_gain),
    "lesson.cg": Prompt(("lesson",), _RANKED, _lesson_cg),
    "lesson.dcg": Prompt(("lesson",), _RANKED, _lesson_dcg),
    "lesson.bases": Prompt(("lesson",), _RANKED, _lesson_bases),
    "lesson.idcg": Prompt(("lesson",), _RANKED, _lesson_idcg),
    "lesson.which_ideal": Prompt(("lesson",), _RANKED, _lesson_which_ideal),
    "lesson.same_k": Prompt(("lesson",), _FIXED, _lesson_same_k),
    "lesson.ndcg": Prompt(("lesson",), _RANKED, _lesson_ndcg),
    "lesson.slip": Prompt(("lesson", "ties"), _FIXED, _lesson_slip),
    "ties.guess": Prompt(("ties",), (*_RANKED, "scores"), _ties_guess),
    "variants.guess": Prompt(("variants",), _RANKED, _variants_guess),
    "blind.padding": Prompt(("blind_spots",), _FIXED, _blind_padding),
    "blind.unretrieved": Prompt(("blind_spots",), _FIXED, _blind_unretrieved),
    "blind.nothing": Prompt(("blind_spots",), _FIXED, _blind_nothing),
    "blind.lengths": Prompt(("blind_spots",), _FIXED, _blind_lengths),
    "blind.difficulty": Prompt(("blind_spots",), _FIXED, _blind_difficulty),
    "blind.gain": Prompt(("blind_spots",), _FIXED, _blind_gain),
    "blind.unjudged": Prompt(("blind_spots",), _FIXED, _blind_unjudged),
    "blind.not_modelled": Prompt(("blind_spots",), _FIXED, _blind_not_modelled),
    "blind.sampled": Prompt(("blind_spots",), _FIXED, _blind_sampled),
}


def decide(
    prompt: str,
    *,
    relevance: Sequence[float] | None = None,
    labels: Sequence[str] | None = None,
    k: int | None = None,
    gain: str = "linear",
    discount: str = "log2",
    scores: Sequence[float] | None = None,
) -> Decision:
    """The options and the right one of ``prompt`` on the given data, from the core's numbers.

    Raises
    ------
    NDCGInputError
        ``unknown_option`` for a prompt that is not in :data:`PROMPTS` (or a gain or discount
        that is not the core's), and the core's keys for data it refuses (a grade that is not
        a finite number, scores of another length, k out of range ...).

    >>> decide("lesson.idcg", relevance=[3, 2, 0, 0, 1]).correct   # DCG never beats IDCG
    'no'
    >>> decide("blind.padding").correct    # [3] and [3, 0, 0] both score nDCG 1
    'same'
    """
    check_choice(prompt, PROMPTS, option="prompt")
    check_choice(gain, GAINS, option="gain")
    check_choice(discount, DISCOUNTS, option="discount")
    spec = PROMPTS[prompt]
    data: dict[str, Any] = {"gain": cast(Gain, gain), "discount": cast(Discount, discount)}
    if "relevance" in spec.fields:
        rel = as_relevance([] if relevance is None else list(relevance))  # non-empty, graded, finite
        data["relevance"] = [float(x) for x in rel]
        data["k"] = None if k is None else check_k(k, int(rel.size))
    if "scores" in spec.fields:
        given = as_scores([] if scores is None else list(scores))
        check_same_length(given, rel, what="grades_and_scores")
        data["scores"] = [float(x) for x in given]
    return spec.decide(**data)
