"""The options of an evaluation of runs, each named, described and checked in one place.

The command line (``--ideal pool``), the Python API (``ideal="pool"``), the share link, the
Evaluate page and the Spark engine all take these names and values, so a run evaluated in one
place can be repeated in another. :class:`Options` holds one choice of each, checked on
construction; the tuples below are the vocabulary the parsers and the pages list.

The names follow the IR conventions where there is one (trec_eval's, Sakai's), and say which
tool each value imitates in :data:`DESCRIPTIONS`, the one English description of each option
(the command line prints it; the pages carry their own translated labels).
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any, Literal

from .discounting import DISCOUNTS, Discount
from .gains import GAINS, Gain
from .validate import check_choice, fail

__all__ = [
    "BATCH_TIES",
    "CHOICES",
    "DESCRIPTIONS",
    "GRADES",
    "IDEALS",
    "MISSING",
    "NO_RELEVANT",
    "QRELS_ONLY",
    "TREC_DEFAULTS",
    "UNJUDGED",
    "BatchTies",
    "Grades",
    "Ideal",
    "Missing",
    "NoRelevant",
    "Options",
    "Unjudged",
    "check_ties",
    "engine_options",
    "measure_columns",
    "parse_cutoffs",
    "run_options",
]

BatchTies = Literal["average", "optimistic", "pessimistic", "input", "trec_eval"]
Ideal = Literal["pool", "list"]
Unjudged = Literal["zero", "drop"]
Missing = Literal["zero", "drop"]
NoRelevant = Literal["zero", "drop"]
Grades = Literal["any", "truncate"]

#: Tie treatments of a run. ``"ignore"`` (scikit-learn's ``ignore_ties`` order) is defined on
#: single lists and scikit-learn's 2-D arrays only: its order is arbitrary, see ndcg_core.ties.
BATCH_TIES: tuple[BatchTies, ...] = ("average", "optimistic", "pessimistic", "input", "trec_eval")
#: Where IDCG's grades come from: every judged item of the query, or the returned list.
IDEALS: tuple[Ideal, ...] = ("pool", "list")
#: Retrieved items without a judgment: gain 0, or left out of the list (condensed list).
UNJUDGED: tuple[Unjudged, ...] = ("zero", "drop")
#: Judged queries that a run does not answer: nDCG 0 in the mean, or left out.
MISSING: tuple[Missing, ...] = ("zero", "drop")
#: Queries with nothing relevant (IDCG = 0): nDCG 0 in the mean, or left out.
NO_RELEVANT: tuple[NoRelevant, ...] = ("zero", "drop")

#: Grades that are not whole numbers: used as given, or truncated toward zero as trec_eval
#: reads them (C's ``atol``: 1.7 is 1, -0.5 is 0). The names of the tools table's ``grades``.
GRADES: tuple[Grades, ...] = ("any", "truncate")

#: The values of each option but ``k``: the vocabulary the command line, the pages and the link
#: parsers offer, in this order.
CHOICES: dict[str, tuple[str, ...]] = {
    "gain": tuple(GAINS),
    "discount": DISCOUNTS,
    "ties": BATCH_TIES,
    "ideal": IDEALS,
    "unjudged": UNJUDGED,
    "missing": MISSING,
    "no_relevant": NO_RELEVANT,
    "grades": GRADES,
}

#: What :class:`Options` holds that a run with its own grades (the one-file engines) has no use
#: for: it has no judged pool.
QRELS_ONLY: tuple[str, ...] = ("ideal", "unjudged", "missing", "grades")

#: The one English description of each option and of each of its values.
DESCRIPTIONS: dict[str, str] = {
    "k": "cutoff(s): one whole number, or several separated by commas (5,10,20); none for the whole list",
    "gain": "linear: the grade itself; exponential: 2**grade - 1",
    "discount": "log2: 1 / log2(i + 1); jarvelin: Järvelin & Kekäläinen's, no discount before position 2",
    "ties": (
        "average: the mean over the orders of a tie (scikit-learn); optimistic / pessimistic: best / "
        "worst order; input: tied items keep their input order (LightGBM, XGBoost); trec_eval: score "
        "descending, then item id descending as a string"
    ),
    "ideal": (
        "pool: IDCG from every judged item of the query (trec_eval, ranx, IR papers); list: from the "
        "returned list's own grades (scikit-learn)"
    ),
    "unjudged": (
        "zero: a retrieved item without a judgment has gain 0 (trec_eval); drop: it is removed and the "
        "list closes up, the condensed nDCG' (Sakai 2007, trec_eval -J)"
    ),
    "missing": (
        "zero: a judged query the run does not answer counts as nDCG 0 (trec_eval -c); drop: it is left "
        "out of the mean (pytrec_eval)"
    ),
    "no_relevant": "zero: a query with nothing relevant counts as nDCG 0 in the mean; drop: it is left out",
    "grades": (
        "any: grades are used as given, 0.5 and 1.7 too; truncate: each grade is truncated toward zero "
        "(1.7 is 1, 0.5 is 0), as trec_eval reads them"
    ),
}

#: The largest cutoff: the engines hold cutoffs as int64 (a larger k means the whole list
#: anyway, as every k past a list's length does).
MAX_CUTOFF = 2**63 - 1
#: The most resamples (bootstrap) and random sign flips a comparison of runs takes
#: (:func:`ndcg_core.compare_runs`, ``--resamples``): 100 times the default. The Monte Carlo
#: p-value's standard error is then at most 0.0005, below any figure shown; 10**9 of them took
#: 7.45 GiB and minutes.
MAX_RESAMPLES = 1_000_000
_CUTOFF_TEXT = re.compile(r"\s*\d+\s*(,\s*\d+\s*)*")


def parse_cutoffs(value: Any) -> tuple[int, ...] | None:
    """Cutoffs from ``None``, a whole number, a sequence of them, or text such as ``"5,10,20"``.

    ``None`` (or the text ``none``, as the command line and a link write it) means the whole
    list. Repeated cutoffs are kept once, in the order given.

    >>> parse_cutoffs(None), parse_cutoffs(10), parse_cutoffs("5, 10,20"), parse_cutoffs([10, 5, 10])
    (None, (10,), (5, 10, 20), (10, 5))
    >>> parse_cutoffs("none")
    >>> parse_cutoffs("5;10")
    Traceback (most recent call last):
    ...
    ndcg_core.validate.NDCGInputError: k must be a whole number of at least 1, or none for the whole list. Got '5;10' instead.
    """
    if value is None:
        return None
    if isinstance(value, str):
        if value.strip().lower() == "none":
            return None
        if not _CUTOFF_TEXT.fullmatch(value):
            fail("k_invalid", got=repr(value))
        values: Iterable[Any] = (int(part) for part in value.split(","))
    elif isinstance(value, numbers.Integral) and not isinstance(value, bool):
        values = (value,)
    elif isinstance(value, Iterable):
        values = value
    else:
        fail("k_invalid", got=repr(value))
    cutoffs: list[int] = []
    for k in values:
        if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
            fail("k_invalid", got=repr(k))
        if int(k) > MAX_CUTOFF:  # the engines hold cutoffs as int64
            fail("k_too_large", got=int(k), limit=MAX_CUTOFF)
        if int(k) not in cutoffs:
            cutoffs.append(int(k))
    if not cutoffs:
        fail("k_invalid", got=repr(value))
    return tuple(cutoffs)


def check_ties(ties: Any) -> BatchTies:
    """A run's tie treatment: one of :data:`BATCH_TIES`; ``"ignore"`` gets its own message,
    which names the alternatives (``"input"``, ``"trec_eval"``).

    >>> check_ties("input")
    'input'
    """
    if ties == "ignore":
        fail("ties_ignore_batch")
    return check_choice(ties, BATCH_TIES, option="ties")


def measure_columns(cutoffs: tuple[int, ...] | None, measure: str = "ndcg") -> tuple[str, ...]:
    """A result's column names for one measure: ``name@k`` for each cutoff, the IR way
    (``ndcg@10``, ``dcg@10``, ``judged@10``), one cutoff too, so that tables made with
    different cutoffs cannot be mistaken for each other; the plain name without a cutoff
    (the whole list).

    >>> measure_columns(None), measure_columns((10,)), measure_columns((5, 10))
    (('ndcg',), ('ndcg@10',), ('ndcg@5', 'ndcg@10'))
    >>> measure_columns((5, 10), "judged")
    ('judged@5', 'judged@10')
    """
    if cutoffs is None:
        return (measure,)
    return tuple(f"{measure}@{k}" for k in cutoffs)


@dataclass(frozen=True, slots=True)
class Options:
    """One choice of every option of an evaluation, checked when it is made.

    ``k`` accepts what :func:`parse_cutoffs` accepts and is kept as a tuple (or ``None``).

    >>> Options(k="5,10", ideal="pool").k
    (5, 10)
    >>> Options(k=10).columns
    ('ndcg@10',)
    >>> Options(ideal="judged")
    Traceback (most recent call last):
    ...
    ndcg_core.validate.NDCGInputError: ideal must be one of pool, list. Got 'judged' instead.
    """

    k: Any = None
    gain: Gain = "linear"
    discount: Discount = "log2"
    ties: BatchTies = "average"
    ideal: Ideal = "list"
    unjudged: Unjudged = "zero"
    missing: Missing = "zero"
    no_relevant: NoRelevant = "zero"
    grades: Grades = "any"

    def __post_init__(self) -> None:
        object.__setattr__(self, "k", parse_cutoffs(self.k))
        check_choice(self.gain, tuple(GAINS), option="gain")
        check_choice(self.discount, DISCOUNTS, option="discount")
        check_ties(self.ties)
        check_choice(self.ideal, IDEALS, option="ideal")
        check_choice(self.unjudged, UNJUDGED, option="unjudged")
        check_choice(self.missing, MISSING, option="missing")
        check_choice(self.no_relevant, NO_RELEVANT, option="no_relevant")
        check_choice(self.grades, GRADES, option="grades")

    @property
    def columns(self) -> tuple[str, ...]:
        """The nDCG column names of a result under these options (see :func:`measure_columns`)."""
        return measure_columns(self.k)


#: trec_eval's settings, the defaults of every evaluation against qrels (the TREC engines, the
#: command line's --qrels, the Evaluate page's qrels form): nDCG@10, trec_eval's tie order,
#: the ideal from the judged pool; the other options as :class:`Options` has them.
TREC_DEFAULTS = Options(k=10, ties="trec_eval", ideal="pool")


def engine_options(options: Any, defaults: Options, **keywords: Any) -> Options:
    """The options of an engine call: its option ``keywords`` as one :class:`Options`, or
    ``options`` when it was given one (checked to be an :class:`Options`). Then no keyword may
    differ from its default (``defaults``, the engine's): such a keyword is refused, so that
    no choice is silently overridden.

    >>> engine_options(None, TREC_DEFAULTS, k=5, gain="exponential").k
    (5,)
    >>> engine_options(Options(k=5), TREC_DEFAULTS, k=10, gain="linear").k
    (5,)
    >>> engine_options(Options(k=5), TREC_DEFAULTS, k=10, gain="exponential")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ndcg_core.validate.NDCGInputError: Give the options either ... not both: gain also given as a keyword.
    """
    if options is None:
        return Options(**keywords)
    if not isinstance(options, Options):
        fail("unknown_option", option="options", allowed="Options(...)", got=type(options).__name__)
    changed = [
        name
        for name, value in keywords.items()
        if (parse_cutoffs(value) if name == "k" else value) != getattr(defaults, name)
    ]
    if changed:
        fail("options_and_keywords", names=", ".join(changed))
    return options


def run_options(options: Options) -> dict[str, Any]:
    """The keywords of a one-file engine (``k`` as one cutoff or None, ``gain``, ``discount``,
    ``ties``, ``no_relevant``) from ``options``; refused when it has several cutoffs or sets an
    option that needs qrels.

    >>> run_options(Options(k=5, gain="exponential"))["k"], run_options(Options())["k"]
    (5, None)
    >>> run_options(Options(ideal="pool"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ndcg_core.validate.NDCGInputError: ideal='pool' applies to runs evaluated against qrels ... Leave it at 'list'.
    """
    plain = Options()
    for name in QRELS_ONLY:
        if getattr(options, name) != getattr(plain, name):
            fail("options_need_qrels", option=name, got=getattr(options, name), default=getattr(plain, name))
    if options.k is not None and len(options.k) > 1:
        fail("options_one_cutoff", count=len(options.k), got=",".join(map(str, options.k)))
    settings = {field.name: getattr(options, field.name) for field in fields(Options)}
    for name in QRELS_ONLY:
        del settings[name]
    settings["k"] = None if options.k is None else options.k[0]
    return settings
