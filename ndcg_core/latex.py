"""The LaTeX that pages show, in one place: each step's formula, general and with the learner's numbers.

Contents
--------
STEPS
    ``("gain", "cg", "dcg", "idcg", "ndcg")``, in teaching order.
general_formula(step, *, gain, discount)
    The symbolic formula, e.g. ``\\mathrm{DCG@k} = \\sum_{i=1}^{k} \\frac{rel_i}{\\log_2(i+1)}``.
formula(step, relevance, *, k, gain, discount, pool, digits) -> Formula
    The general formula, the same formula with the learner's numbers substituted, and its value
    (from :func:`ndcg_core.ranked.metrics`, never recomputed here).
formulas(relevance, ...)
    All five at once.

Numbers are compact: grades as typed (``3``, not ``3.0``; ``0.5``), results with ``digits``
decimals (``4.6487``), integers as integers (``CG@5 = 6``). Gains are written ``3`` (linear) or
``2^{3}-1`` (exponential); divisors ``\\log_2 2`` (log2: position i is divided by
log2(i + 1)) or, for Järvelin's discount, ``1`` at position 1 and ``\\log_2 i`` from position 2.
A sum of more than ``MAX_TERMS`` terms shows the first 3, then ``\\underbrace{\\cdots}_{h}``
with the number h of hidden terms, then the last 2; :attr:`Formula.hidden` holds h so a page
can say it in words. The LaTeX holds no words, so it needs no translation.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .discounting import DISCOUNTS, Discount, discounts
from .gains import GAINS, Gain, apply_gain
from .ranked import Unjudged, ideal_relevance, metrics, prepared
from .validate import check_choice, check_k, fail

__all__ = ["MAX_TERMS", "STEPS", "Formula", "formula", "formulas", "general_formula"]

#: The five steps, in teaching order.
STEPS: tuple[str, ...] = ("gain", "cg", "dcg", "idcg", "ndcg")

#: Longest sum written out in full; longer ones are shortened (first 3, dots, last 2).
MAX_TERMS = 8
_HEAD, _TAIL = 3, 2


@dataclass(frozen=True, slots=True)
class Formula:
    """One step's formula.

    Attributes
    ----------
    step : str
        One of :data:`STEPS`.
    general : str
        The symbolic formula (LaTeX).
    substituted : str
        The formula with the learner's numbers (LaTeX), ending in ``= value``.
    value : float
        The step's value, from the core's metrics: CG@k, DCG@k, IDCG@k or nDCG@k; for
        ``"gain"``, the total gain G_1 + ... + G_k of the top k.
    terms : tuple of float
        The exact value of every term of the substituted sum, hidden ones included (for
        ``"gain"`` and ``"cg"`` the gains and grades, for ``"dcg"`` and ``"idcg"`` each
        gain times its discount, for ``"ndcg"`` the pair (DCG@k, IDCG@k)).
    hidden : int
        How many terms the shortened sum does not show (0 when it shows all).
    k : int
        The cutoff in the formula's name: ``k``, or the length of the list (or of the judged
        pool, if longer) when ``k`` is None.
    """

    step: str
    general: str
    substituted: str
    value: float
    terms: tuple[float, ...]
    hidden: int
    k: int


#: Numbers from this size on are written m × 10^e: a free scale allows 1e300, 301 digits long.
SCIENTIFIC_FROM = 1e9


def _scientific(x: float, digits: int | None) -> str:
    """``x`` as LaTeX m × 10^e, the mantissa trimmed (``digits=None``) or with ``digits`` decimals.

    >>> print(_scientific(1e300, None), "|", _scientific(2.5e12, 4))
    {1 \\times 10^{300}} | {2.5000 \\times 10^{12}}
    """
    text = np.format_float_scientific(x, trim="-") if digits is None else f"{x:.{digits}e}"
    mantissa, exponent = text.split("e")
    # braced: one unit, so a line of KaTeX never breaks between the mantissa and the power
    return f"{{{mantissa.rstrip('.')} \\times 10^{{{int(exponent)}}}}}"


def _grade(x: float) -> str:
    """A grade as typed: 3, 0.5, 1.25 (1 \\times 10^{300} for a huge one)."""
    if abs(float(x)) >= SCIENTIFIC_FROM:
        return _scientific(float(x), None)
    return np.format_float_positional(float(x), trim="-")


def _result(x: float, digits: int) -> str:
    """A result: an integer as an integer, anything else with ``digits`` decimals."""
    x = float(x)
    if abs(x) >= SCIENTIFIC_FROM:
        return _scientific(x, digits)
    if x.is_integer():
        return str(int(x))
    return f"{x:.{digits}f}"


def _fixed(x: float, digits: int) -> str:
    """DCG, IDCG or nDCG: always ``digits`` decimals (1.0000, not 1), as the app's metric cards
    show them: one rounding rule for a number wherever a view shows it."""
    x = float(x)
    return _scientific(x, digits) if abs(x) >= SCIENTIFIC_FROM else f"{x:.{digits}f}"


def _gain_tex(x: float, gain: str) -> str:
    return _grade(x) if gain == "linear" else f"2^{{{_grade(x)}}}-1"


def _divisor_tex(position: int, discount: str) -> str:
    if discount == "log2":
        return f"\\log_2 {position + 1}"
    return "1" if position < 2 else f"\\log_2 {position}"


def _shorten(parts: Sequence[str], separator: str) -> tuple[str, int]:
    """Join ``parts``; more than MAX_TERMS become first 3, an underbraced count, last 2."""
    if len(parts) <= MAX_TERMS:
        return separator.join(parts), 0
    hidden = len(parts) - _HEAD - _TAIL
    shown = [*parts[:_HEAD], f"\\underbrace{{\\cdots}}_{{{hidden}}}", *parts[-_TAIL:]]
    return separator.join(shown), hidden


def _sum_symbol(term: str) -> str:
    return f"\\sum_{{i=1}}^{{k}} {term}"


def general_formula(step: str, *, gain: Gain = "linear", discount: Discount = "log2") -> str:
    """The symbolic formula of a step.

    >>> general_formula("dcg")
    '\\\\mathrm{DCG@k} = \\\\sum_{i=1}^{k} \\\\frac{rel_i}{\\\\log_2(i+1)}'
    >>> print(general_formula("gain", gain="exponential"))
    G_i = 2^{rel_i} - 1
    >>> print(general_formula("idcg", discount="jarvelin"))
    \\mathrm{IDCG@k} = \\sum_{i=1}^{k} \\frac{rel^{*}_i}{\\max(1,\\ \\log_2 i)}
    """
    check_choice(step, STEPS, option="step")
    check_choice(gain, GAINS, option="gain")
    check_choice(discount, DISCOUNTS, option="discount")
    divisor = "\\log_2(i+1)" if discount == "log2" else "\\max(1,\\ \\log_2 i)"

    def numerator(rel: str) -> str:
        return rel if gain == "linear" else f"2^{{{rel}}}-1"

    if step == "gain":
        return "G_i = rel_i" if gain == "linear" else "G_i = 2^{rel_i} - 1"
    if step == "cg":  # CG sums gains (Järvelin & Kekäläinen 2002), not grades
        return "\\mathrm{CG@k} = " + _sum_symbol("rel_i" if gain == "linear" else "(2^{rel_i}-1)")
    if step == "dcg":
        return "\\mathrm{DCG@k} = " + _sum_symbol(f"\\frac{{{numerator('rel_i')}}}{{{divisor}}}")
    if step == "idcg":
        return "\\mathrm{IDCG@k} = " + _sum_symbol(f"\\frac{{{numerator('rel^{*}_i')}}}{{{divisor}}}")
    return "\\mathrm{nDCG@k} = \\frac{\\mathrm{DCG@k}}{\\mathrm{IDCG@k}}"


def _digits(digits: Any) -> int:
    if isinstance(digits, bool) or not isinstance(digits, numbers.Integral) or not 0 <= int(digits) <= 15:
        fail("shape", what="decimals", rule="rule_decimals", limit=15, got=repr(digits))
    return int(digits)


def _equation(name: str, body: str, shown: str, single: bool) -> str:
    if single and body == shown:  # "CG@1 = 3", not "CG@1 = 3 = 3"
        return f"{name} = {shown}"
    return f"{name} = {body} = {shown}"


def _dcg_sum(
    rel: NDArray[np.float64], cutoff: int, gain: str, discount: str
) -> tuple[list[str], tuple[float, ...]]:
    grades = rel[:cutoff]
    parts = [
        f"\\frac{{{_gain_tex(x, gain)}}}{{{_divisor_tex(i, discount)}}}"
        for i, x in enumerate(grades.tolist(), start=1)
    ]
    values = apply_gain(grades, gain) * discounts(cutoff, discount)
    return parts, tuple(values.tolist())


def formula(
    step: str,
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
    digits: int = 4,
    unjudged: Unjudged | None = None,
) -> Formula:
    """A step's formula, general and with the learner's numbers substituted.

    Parameters
    ----------
    step : {"gain", "cg", "dcg", "idcg", "ndcg"}
    relevance : array-like of float
        Grades in rank order, position 1 first.
    k, gain, discount, pool
        As in :func:`ndcg_core.ranked.ndcg`.
    digits : int
        Decimals of results (grades are shown as given).
    unjudged : {"zero", "drop"}, optional
        As in :func:`ndcg_core.metrics.metrics`: an unjudged item (NaN) is written with gain 0
        (``"zero"``), or the formula is that of the condensed list (``"drop"``).

    Returns
    -------
    Formula

    Raises
    ------
    NDCGInputError
        On invalid grades, ``k``, options, pool or ``digits``.

    >>> f = formula("dcg", [3, 2, 0, 0, 1])
    >>> print(f.substituted)  # doctest: +NORMALIZE_WHITESPACE
    \\mathrm{DCG@5} = \\frac{3}{\\log_2 2} + \\frac{2}{\\log_2 3} + \\frac{0}{\\log_2 4}
    + \\frac{0}{\\log_2 5} + \\frac{1}{\\log_2 6} = 4.6487
    >>> print(formula("cg", [3, 2, 0, 0, 1]).substituted)
    \\mathrm{CG@5} = 3 + 2 + 0 + 0 + 1 = 6
    >>> print(formula("cg", [3, 2, 1], gain="exponential").substituted)
    \\mathrm{CG@3} = (2^{3}-1) + (2^{2}-1) + (2^{1}-1) = 11
    >>> print(formula("cg", [3, float("nan"), 1], unjudged="zero").substituted)
    \\mathrm{CG@3} = 3 + 0 + 1 = 4
    >>> print(formula("ndcg", [3, 2, 0, 0, 1]).substituted)
    \\mathrm{nDCG@5} = \\frac{\\mathrm{DCG@5}}{\\mathrm{IDCG@5}} = \\frac{4.6487}{4.7619} = 0.9762
    >>> print(formula("gain", [3, 2, 0], gain="exponential").substituted)
    (G_1, \\ldots, G_{3}) = (2^{3}-1, 2^{2}-1, 2^{0}-1) = (7, 3, 0)
    """
    check_choice(step, STEPS, option="step")
    digits = _digits(digits)
    rel = prepared(relevance, unjudged)
    if not rel.size:  # the condensed list of a ranking without a judged item
        fail("all_unjudged", what="relevance_list")
    m = metrics(rel, k=k, gain=gain, discount=discount, pool=pool)
    ideal = ideal_relevance(rel, pool=pool)
    label_k = max(rel.size, ideal.size) if k is None else int(k)
    general = general_formula(step, gain=gain, discount=discount)

    def name(metric: str) -> str:
        return f"\\mathrm{{{metric}@{label_k}}}"

    if step == "gain":
        grades = rel[: m.k]
        gains = apply_gain(grades, gain)
        gain_text = (
            [_grade(x) for x in grades.tolist()]
            if gain == "linear"
            else [_result(g, digits) for g in gains.tolist()]
        )
        shown_gains, hidden = _shorten(gain_text, ", ")
        symbols = {1: "G_1", 2: "(G_1, G_2)"}.get(m.k, f"(G_1, \\ldots, G_{{{m.k}}})")
        if gain == "linear":
            text = f"{symbols} = ({shown_gains})" if m.k > 1 else f"{symbols} = {shown_gains}"
        else:
            shown_tex, _ = _shorten([_gain_tex(x, gain) for x in grades.tolist()], ", ")
            text = (
                f"{symbols} = ({shown_tex}) = ({shown_gains})"
                if m.k > 1
                else f"{symbols} = {shown_tex} = {shown_gains}"
            )
        terms = tuple(gains.tolist())
        return Formula(step, general, text, float(gains.sum()), terms, hidden, label_k)
    if step == "cg":
        grades = rel[: m.k].tolist()
        # CG sums the gains: the grades themselves (linear) or (2^{rel}-1) each (exponential)
        written = (
            [_grade(x) for x in grades] if gain == "linear" else [f"({_gain_tex(x, gain)})" for x in grades]
        )
        body, hidden = _shorten(written, " + ")
        # a sum of typed grades reads best trimmed: 1.75, not 1.7500
        text = _equation(name("CG"), body, _grade(round(m.cg, digits)), len(grades) == 1)
        terms = tuple(apply_gain(rel[: m.k], gain).tolist())
        return Formula(step, general, text, m.cg, terms, hidden, label_k)
    if step in ("dcg", "idcg"):
        source, cutoff, value = (
            (rel, m.k, m.dcg) if step == "dcg" else (ideal, check_k(k, ideal.size), m.idcg)
        )
        parts, terms = _dcg_sum(source, cutoff, gain, discount)
        body, hidden = _shorten(parts, " + ")
        text = _equation(name(step.upper()), body, _fixed(value, digits), False)
        return Formula(step, general, text, value, terms, hidden, label_k)
    ratio = f"\\frac{{{name('DCG')}}}{{{name('IDCG')}}}"
    if m.idcg > 0:
        text = (
            f"{name('nDCG')} = {ratio} = \\frac{{{_fixed(m.dcg, digits)}}}"
            f"{{{_fixed(m.idcg, digits)}}} = {_fixed(m.ndcg, digits)}"
        )
    else:  # nothing relevant: the rule, not a division by zero
        text = f"{name('nDCG')} = 0 \\quad ({name('IDCG')} = 0)"
    return Formula(step, general, text, m.ndcg, (m.dcg, m.idcg), 0, label_k)


def formulas(
    relevance: ArrayLike,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    pool: ArrayLike | None = None,
    digits: int = 4,
    unjudged: Unjudged | None = None,
) -> tuple[Formula, ...]:
    """The formulas of all :data:`STEPS`, in order.

    >>> [round(f.value, 4) for f in formulas([3, 2, 0, 0, 1])]
    [6.0, 6.0, 4.6487, 4.7619, 0.9762]
    """
    return tuple(
        formula(
            step, relevance, k=k, gain=gain, discount=discount, pool=pool, digits=digits, unjudged=unjudged
        )
        for step in STEPS
    )
