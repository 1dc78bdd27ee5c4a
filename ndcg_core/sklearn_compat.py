"""scikit-learn compatible ``dcg_score`` and ``ndcg_score``: same signature, values and errors.

The input is two 2-D arrays, one row per query and one column per item: ``y_true`` holds the
grades, ``y_score`` the system's scores. The result is the (weighted) mean over queries of
DCG@k or nDCG@k, with tied scores averaged (McSherry & Najork 2008) unless
``ignore_ties=True``. Values agree with ``sklearn.metrics`` to 1e-12 and invalid input raises
:class:`~ndcg_core.NDCGInputError` (a ``ValueError``) whose message is scikit-learn's, word
for word, wherever scikit-learn has a message of its own. scikit-learn itself is not imported.

How it is fast (no per-query Python loop; scikit-learn loops over queries for tie averaging):

- Tie-averaged DCG@k needs, per query, the items whose score is at least the k-th largest
  score t, sorted: every tie group among them is then complete, including the group at t that
  straddles the cutoff, whose mean gain must come from all its members. One ``np.sort`` of
  packed int64 keys finds them: the score's order-preserving bits with the low bits replaced
  by the column index. Truncating the bits can only merge scores, so the items whose
  truncated key reaches that of t include every item scoring t or more (plus a few that get
  their exact key, are re-sorted, and fall below position k). When no tie reaches the top k
  of a query (continuous scores), its DCG@k is one matrix product of the gathered grades
  with the discounts. Otherwise all tie groups of all queries at once, over the regular
  block of the last columns that holds every candidate (or, when that block would be more
  than 4k wide, over the candidates' flat indices): mean gain (``np.add.reduceat``) x the
  group's discount sum, summed per query (``np.bincount``).
- With integer grades of at most 8 bits (after subtracting the lowest, if that saves bits)
  and scores whose keys span less than 2**(64 - bits) (scores in [0, 2) with grades 0-3,
  for instance), the sort key is exact instead: (score key - lowest key) << bits | grade, as
  uint64. One sort then gives every row's scores in order with their grades, so the tie
  groups need neither the gathers of grades and exact keys nor the re-sort of merged keys;
  group sums are running sums read at the group bounds (``_exact_dcg``). For k up to 12,
  each position's grade is weighed by the row's tie pattern instead (which of its top k
  neighbours tie, k - 1 bits: the weights of every pattern are tabulated once per k), and the
  tie group at the cutoff takes its members below k from one capped sum (``_pattern_dcg``),
  over the block of columns transposed so that numpy loops across queries, not within each.
  A block takes this path when ties reached the top k in the block before (the first block
  takes it): without ties the general path is two passes cheaper.
- ``ignore_ties=True`` reproduces scikit-learn's order exactly by making the same call,
  ``np.argsort(y_score)`` (numpy's default sort is not stable, so no other call would do),
  reversed, and keeps the first k columns.
- IDCG@k: the row's grades sorted (as int16 or int32 when the grades are integers that fit), the last k;
  integer grades spanning at most 4 values in rows of at most 255 items are counted instead
  (one byte per level in an int32 row sum, ``_counted_ideal``).
- Queries go through in blocks of about 2**17 cells, so every pass stays in the cache; the
  grades are compacted a block at a time (no copy of the whole input).
- Validation repeats only the checks that matter, vectorised (no ``type_of_target`` on a
  valid 2-D input); integer grades need no overflow check (no float copy of them).
- Tried and not kept: sorting the high 32 bits of the keys (an int32 sort is twice as fast,
  but with the column index in the low bits only 13 bits of mantissa remain, and the rows
  merged by that truncation cost more than the sort saved); a compiled kernel (Numba, a
  top-k insertion per row and a pass for the group at the cutoff) took twice as long as
  these numpy passes (bench/README.md, bench_sklearn's fourth round).

Known differences: scikit-learn fails inside numpy when ``y_score`` has another shape than
``y_true`` or ``sample_weight`` is 2-D; here the message says so (key ``shape``). It raises
``ZeroDivisionError`` when the weights sum to 0 and a ``TypeError`` on 0-d arrays, here
:class:`~ndcg_core.NDCGInputError` with the same text. Boolean scores, which scikit-learn
cannot negate when averaging ties, count as 0 and 1.
"""

from __future__ import annotations

import functools
import numbers
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .gains import first_overflow
from .validate import fail

__all__ = ["dcg_score", "ndcg_score"]

_SUPPORTED_TARGETS = "('multilabel-indicator', 'continuous-multioutput', 'multiclass-multioutput')"
# Queries are processed in blocks of about this many (query, item) cells (~1 MB per array).
_BLOCK_ITEMS = 1 << 17
# Tie groups are summed over a regular block of the last columns when it is at most this many
# times k wide, else over the candidates' flat indices.
_BLOCK_WIDTH = 4
_INT32 = np.iinfo(np.int32)
# Integer grades spanning at most this many bits ride in the sort key next to the exact score.
_GRADE_BITS = 8
# Up to this k, tie-averaged DCG@k with exact keys weighs each position by its tie pattern
# (2**(k - 1) patterns, tabulated once per k).
_PATTERN_K = 12
# IDCG@k is counted (not sorted) for integer grades spanning at most this many values.
_COUNTED_LEVELS = 4


# --- validation: scikit-learn's checks, in scikit-learn's order -----------------------------


def _is_array_like(value: Any) -> bool:
    return (
        hasattr(value, "__len__") or hasattr(value, "shape") or hasattr(value, "__array__")
    ) and not np.isscalar(value)


def _check_params(function: str, params: dict[str, Any]) -> None:
    """scikit-learn's ``validate_params`` for these two functions (same order, same wording)."""
    for name in ("y_true", "y_score"):
        if not _is_array_like(params[name]):
            fail("sk_param", param=name, function=function, rule="an array-like", got=repr(params[name]))
    k = params["k"]
    if k is not None and not (isinstance(k, numbers.Integral) and int(k) >= 1):
        fail(
            "sk_param", param="k", function=function, rule="an int in the range [1, inf) or None", got=repr(k)
        )
    if "log_base" in params:
        base = params["log_base"]
        # The Real as given, as scikit-learn's Interval checks it: np.isnan raises TypeError on
        # a Real numpy cannot convert (a Fraction). cast only tells mypy; no conversion here.
        if not (isinstance(base, numbers.Real) and not np.isnan(cast(float, base)) and cast(float, base) > 0):
            fail(
                "sk_param",
                param="log_base",
                function=function,
                rule="a float in the range (0.0, inf)",
                got=repr(base),
            )
    weight = params["sample_weight"]
    if weight is not None and not _is_array_like(weight):
        fail(
            "sk_param",
            param="sample_weight",
            function=function,
            rule="an array-like or None",
            got=repr(weight),
        )
    ties = params["ignore_ties"]
    if not isinstance(ties, (bool, np.bool_)):
        fail(
            "sk_param",
            param="ignore_ties",
            function=function,
            rule="an instance of 'bool' or an instance of 'numpy.bool'",
            got=repr(ties),
        )


def _check_array(value: ArrayLike) -> NDArray[Any]:
    """scikit-learn's ``check_array(value, ensure_2d=False)``: numeric, finite, non-empty."""
    try:
        array = np.asarray(value)
        if array.dtype == object:
            array = array.astype(np.float64)
    except (TypeError, ValueError) as error:
        fail("sk_conversion", reason=str(error))
    if array.dtype.kind == "c":
        fail("sk_complex", array=str(array))
    if array.dtype.kind in "USV":
        fail("sk_strings")
    if array.ndim >= 3:
        fail("sk_dim", got=array.ndim)
    # A finite sum proves every element finite (inf or NaN would propagate), so the
    # elementwise check runs only when something is wrong or the sum overflowed.
    with np.errstate(over="ignore"):  # an overflowing sum only sends us to the elementwise check
        total = array.sum() if array.dtype.kind == "f" else 0.0
    if array.dtype.kind == "f" and not np.isfinite(total):
        if np.isnan(array).any():
            fail("sk_nan")
        if not np.isfinite(array).all():
            fail("sk_infinity", dtype=repr(array.dtype))
    if array.ndim == 0:
        fail("sk_scalar", got=repr(array))
    if array.shape[0] < 1:
        fail("sk_samples", got=array.shape[0], shape=array.shape)
    if array.ndim == 2 and array.shape[1] < 1:
        fail("sk_features", got=array.shape[1], shape=array.shape)
    return array


def _num_samples(value: Any) -> int:
    shape = getattr(value, "shape", None)
    if shape is not None:
        if len(shape) == 0:
            fail("sk_scalar", got=repr(value))
        return int(shape[0])
    return len(value)


def _check_lengths(y_true: NDArray[Any], y_score: NDArray[Any], sample_weight: Any) -> None:
    lengths = [y_true.shape[0], y_score.shape[0]]
    if sample_weight is not None:
        lengths.append(_num_samples(sample_weight))
    if len(set(lengths)) > 1:
        fail("sk_lengths", lengths=repr(lengths))


def _check_target_type(y_true: NDArray[Any]) -> None:
    """``type_of_target`` must say multioutput: true for every 2-D array with 2+ columns."""
    if y_true.ndim == 2 and y_true.shape[1] > 1:
        return
    if y_true.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            integral = y_true.astype(np.int64).astype(y_true.dtype)
        if (y_true != integral).any():
            fail("sk_target_type", supported=_SUPPORTED_TARGETS, got="continuous")
    kind = "multiclass" if np.unique(y_true).size > 2 else "binary"
    fail("sk_target_type", supported=_SUPPORTED_TARGETS, got=kind)


def _check_same_shape(y_true: NDArray[Any], y_score: NDArray[Any]) -> None:
    # scikit-learn fails here with numpy's broadcasting message; this one says what is wrong.
    if y_score.shape != y_true.shape:
        fail(
            "shape",
            what="y_score",
            rule="rule_same_shape",
            expected=y_true.shape,
            got=f"an array of shape {y_score.shape}",
        )


def _weights(sample_weight: Any) -> NDArray[np.float64] | None:
    if sample_weight is None:
        return None
    try:
        weights = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError) as error:
        fail("sk_conversion", reason=str(error))
    if weights.ndim != 1:
        fail("shape", what="sample_weight", rule="rule_weights", got=f"an array of shape {weights.shape}")
    if weights.sum() == 0:
        fail("sk_weights_zero")
    return weights


def _validate(
    function: str, y_true: ArrayLike, y_score: ArrayLike, params: dict[str, Any]
) -> tuple[NDArray[Any], NDArray[Any], NDArray[np.float64] | None, Any]:
    """The grades, scores and weights as arrays, and the lowest grade when it was computed
    (``ndcg_score``; ``None`` otherwise), so that ``_per_query`` need not read them again."""
    _check_params(function, {"y_true": y_true, "y_score": y_score, **params})
    true = _check_array(y_true)
    score = _check_array(y_score)
    _check_lengths(true, score, params["sample_weight"])
    lowest = None
    if function == "ndcg_score":
        lowest = true.min()
        if lowest < 0:
            fail("sk_negative")
        if true.ndim > 1 and true.shape[1] <= 1:
            fail("sk_one_document", got=true.shape[1])
    _check_target_type(true)
    _check_same_shape(true, score)
    _check_sums(true)
    return true, score, _weights(params["sample_weight"]), lowest


def _check_sums(y_true: NDArray[Any]) -> None:
    """Refuse grades whose sum is not finite: scikit-learn returns inf or nan there (it defines
    no error), so the rule of this core applies (a number is right or refused)."""
    if y_true.dtype.kind in "biu":
        # each |grade| < 2**64, so their sum stays below 1.8e308 for any array that fits in
        # memory (it would need 10**289 cells): nothing to check, and no float copy to make
        return
    grades = np.atleast_2d(np.asarray(y_true, dtype=np.float64))
    with np.errstate(over="ignore"):  # an overflowing sum only sends us to the exact search
        if np.isfinite(np.abs(grades).sum()):
            return
    problem = first_overflow(grades.ravel())
    if problem is not None:
        row, column = divmod(problem[0], grades.shape[1])
        fail("sum_overflow_2d", row=row + 1, position=column + 1, value=float(grades[row, column]))


# --- kernels: trust their input ---------------------------------------------------------


def _discount(n: int, log_base: float) -> NDArray[np.float64]:
    # scikit-learn's exact expression, so the two agree to the last bits.
    with np.errstate(divide="ignore", invalid="ignore"):
        weights: NDArray[np.float64] = 1 / (np.log(np.arange(n) + 2) / np.log(log_base))
        return weights


def _score_keys(y_score: NDArray[Any]) -> tuple[NDArray[np.int64], bool]:
    """int64 keys with the order and the equalities of the scores (may be a read-only view),
    and True when every key is known to be >= 0 (spares ``_exact_packed`` a minimum)."""
    if y_score.dtype.kind in "biu" and y_score.dtype != np.uint64:
        return y_score.astype(np.int64), False
    if y_score.dtype == np.float64:
        bits: NDArray[np.int64] = y_score.view(np.int64)
        # Non-negative floats (and no -0.0) already order like their bits: no copy needed.
        if bits.min() >= 0:
            return bits, True
    # + 0.0 turns -0.0 into 0.0 (equal scores need equal bits) and makes a fresh float64 array.
    keys: NDArray[np.int64] = np.add(y_score, 0.0, dtype=np.float64).view(np.int64)
    # Negative floats order backwards as integers: flip their 63 magnitude bits.
    keys ^= (keys >> 63) & np.int64(0x7FFF_FFFF_FFFF_FFFF)
    return keys, False


@dataclass(slots=True)
class _Carry:
    """What a block of queries tells the next: whether a tie reached some row's top k, and
    the width of the block of columns that held the tie groups (0: none yet)."""

    tied: bool = True
    wide: int = 0


@dataclass(frozen=True, slots=True)
class _Candidates:
    """Every item scoring at least its row's k-th largest score, flat, rows in order.

    Within a row the items come in *ascending* order of truncated key (the score's bits with
    the low bits dropped), so scores that differ only in those bits may be out of order.
    """

    row: NDArray[np.intp]  # the item's query
    position: NDArray[np.intp]  # 0-based rank position within the row, by truncated key
    item: NDArray[np.intp]  # flat index of the item in the (queries x items) input
    truncated: NDArray[np.int64]  # truncated key


def _sorted_packed(keys: NDArray[np.int64]) -> tuple[NDArray[np.int64], int]:
    """Each row's keys with the low bits replaced by the column index, sorted ascending."""
    n = keys.shape[1]
    low = (1 << max(1, (n - 1).bit_length())) - 1
    packed = keys & np.int64(~low)
    packed |= np.arange(n, dtype=np.int64)
    packed.sort(axis=1)
    return packed, low


def _distinct_top_k(
    packed: NDArray[np.int64], low: int, k: int, grades: NDArray[Any], discount: NDArray[np.float64]
) -> NDArray[np.float64] | None:
    """DCG@k of every row when no row has a tie that reaches its top k, else ``None``.

    The common case of continuous scores: the last k packed keys of each row are its top k,
    in order, when their truncated keys differ from each other and from the key just below
    (then the exact scores differ too). DCG@k is then one product of the gathered grades with
    the discounts, without the candidates' flat indices or tie groups.
    """
    n = packed.shape[1]
    top = packed[:, n - k :]
    truncated = top & np.int64(~low)
    if k < n and bool((packed[:, n - k - 1] >= truncated[:, 0]).any()):
        return None
    if bool((truncated[:, 1:] == truncated[:, :-1]).any()):
        return None
    gains = np.take_along_axis(grades, top & np.int64(low), axis=1).astype(np.float64)
    # the same per-position weights as the general path: differences of the cumulated discount
    reach = np.zeros(k + 1)
    np.cumsum(discount[:k], out=reach[1:])
    dcg: NDArray[np.float64] = gains @ np.diff(reach)[::-1]
    return dcg


def _threshold(packed: NDArray[np.int64], low: int, k: int) -> NDArray[np.int64]:
    # The low bits of the threshold are 0, so a packed key reaches it exactly when its
    # truncated key does.
    threshold: NDArray[np.int64] = (packed[:, packed.shape[1] - k] & np.int64(~low))[:, None]
    return threshold


def _width(
    packed: NDArray[np.integer[Any]], threshold: NDArray[np.integer[Any]], k: int, hint: int = 0
) -> int:
    """A block of last columns that holds every candidate of every row: the narrowest, or
    with ``hint`` at most 2 columns wider.

    ``hint`` is the previous block's width, which usually fits again: when it holds every
    candidate and 3 columns fewer do not, it is taken (two column checks instead of a binary
    search of about seven; a column or two more cost less than the search). Otherwise the
    search runs on the side of it where the width lies."""
    n: int = packed.shape[1]

    def spills(width: int) -> bool:
        return width < n and bool((packed[:, n - width - 1 : n - width] >= threshold).any())

    # the width lies in (narrow, wide]: narrow spills (k - 1 always does, the k-th key being
    # the threshold itself), wide does not (n never does)
    narrow, wide = k - 1, n
    if k <= hint <= n:
        if spills(hint):
            narrow = hint
        elif hint - 3 < k:
            wide = hint
        elif spills(hint - 3):
            return hint
        else:
            wide = hint - 3
    elif not spills(k):
        return k
    while wide - narrow > 1:
        middle = (narrow + wide) // 2
        narrow, wide = (middle, wide) if spills(middle) else (narrow, middle)
    return wide


def _candidates(
    packed: NDArray[np.int64], low: int, k: int, threshold: NDArray[np.int64], wide: int
) -> _Candidates:
    n = packed.shape[1]
    row, column = np.divmod(np.flatnonzero(packed[:, n - wide :] >= threshold), wide)
    chosen = packed.ravel()[row * n + (n - wide) + column]
    return _Candidates(
        row=row,
        position=(wide - 1) - column,
        item=row * n + (chosen & low),
        truncated=chosen & np.int64(~low),
    )


def _averaged_dcg(
    grades: NDArray[Any],
    y_score: NDArray[Any],
    k: int,
    discount: NDArray[np.float64],
    packing: tuple[int, int] | None = None,
    packed_grades: NDArray[Any] | None = None,
    carry: _Carry | None = None,
) -> tuple[NDArray[np.float64], bool]:
    """Tie-averaged DCG@k of every row, and whether a tie reached some row's top k.

    ``packing`` and ``packed_grades`` (the grades as ``_exact_packed`` takes them) when the
    grades should ride in the sort key (``_exact_dcg``)."""
    keys_as_given, nonnegative = _score_keys(y_score)
    keys = np.ascontiguousarray(keys_as_given).ravel()
    if packing is not None and packed_grades is not None:
        in_order = _exact_packed(keys.reshape(y_score.shape), packed_grades, *packing, nonnegative)
        if in_order is not None:
            return _exact_dcg(in_order, packing[0], packing[1], k, discount, carry)
    rows = y_score.shape[0]
    packed, low = _sorted_packed(keys.reshape(y_score.shape))
    distinct = _distinct_top_k(packed, low, k, grades, discount)
    if distinct is not None:
        return distinct, False
    threshold = _threshold(packed, low, k)
    wide = _width(packed, threshold, k)
    if wide <= _BLOCK_WIDTH * k:
        return _block_dcg(packed[:, -wide:], low, k, keys.reshape(y_score.shape), grades, discount), True
    found = _candidates(packed, low, k, threshold, wide)
    gains = np.ascontiguousarray(grades).ravel()[found.item].astype(np.float64)
    row, position = found.row, found.position
    same_row = row[1:] == row[:-1]
    # Equal truncated keys are ties or scores that differ only in the dropped bits: those
    # entries take their exact key, and a row found out of order is sorted exactly.
    exact = found.truncated
    close_pair = (exact[1:] == exact[:-1]) & same_row
    if close_pair.any():
        close = np.zeros(exact.size, dtype=bool)
        close[1:] = close_pair
        close[:-1] |= close_pair
        exact[close] = keys[found.item[close]]
        unsorted = (exact[1:] < exact[:-1]) & same_row
        if unsorted.any():
            redo = np.zeros(rows, dtype=bool)
            redo[row[1:][unsorted]] = True
            chosen = np.flatnonzero(redo[row])
            order = chosen[np.lexsort((exact[chosen], row[chosen]))]
            exact[chosen], gains[chosen] = exact[order], gains[order]
    # Each tie group adds mean gain x the sum of its positions' discounts (0 beyond k). All
    # candidates of a row are present, so the group at the cutoff, which may straddle it,
    # takes its mean from all its members. Positions run downwards within a row here.
    width = int(position.max()) + 1
    reach = np.zeros(width + 1)
    np.cumsum(discount[: min(k, width)], out=reach[1 : min(k, width) + 1])
    reach[min(k, width) + 1 :] = reach[min(k, width)]
    starts = np.ones(exact.size, dtype=bool)
    np.logical_or(exact[1:] != exact[:-1], ~same_row, out=starts[1:])
    # bincount with weights returns float64 (numpy's stubs say intp); asarray is a no-op here.
    if starts.all():
        return np.asarray(
            np.bincount(row, weights=gains * (reach[position + 1] - reach[position]), minlength=rows),
            dtype=np.float64,
        ), True
    first = np.flatnonzero(starts)
    sizes = np.diff(first, append=exact.size)
    top = position[first] + 1  # the group's last position + 1; it spans top - sizes .. top - 1
    weights = np.add.reduceat(gains, first) * (reach[top] - reach[top - sizes]) / sizes
    return np.asarray(np.bincount(row[first], weights=weights, minlength=rows), dtype=np.float64), True


def _block_dcg(
    block: NDArray[np.int64],
    low: int,
    k: int,
    keys: NDArray[np.int64],
    grades: NDArray[Any],
    discount: NDArray[np.float64],
) -> NDArray[np.float64]:
    """Tie-averaged DCG@k from the last ``wide`` sorted packed keys of every row.

    The block holds every candidate of every row, and in rows with fewer candidates some
    items below the threshold too; those sit at positions >= k, where the discount's running
    sum no longer grows, so they add 0 whatever their groups. Working on the regular
    (rows x wide) matrix spares the flat indices of the candidates (``_candidates``), which
    cost more than the few extra cells when ``wide`` is a small multiple of k.
    """
    rows, wide = block.shape
    items = block & np.int64(low)
    gains = np.take_along_axis(grades, items, axis=1).astype(np.float64)
    exact = np.take_along_axis(keys, items, axis=1)
    # sorted by truncated key; scores that differ only in the dropped bits may be out of order
    descending = exact[:, 1:] < exact[:, :-1]
    if descending.any():  # rare: the per-row reduction only then
        unsorted = descending.any(axis=1)
        order = np.argsort(exact[unsorted], axis=1, kind="stable")
        exact[unsorted] = np.take_along_axis(exact[unsorted], order, axis=1)
        gains[unsorted] = np.take_along_axis(gains[unsorted], order, axis=1)
    reach = np.zeros(wide + 1)
    np.cumsum(discount[:k], out=reach[1 : k + 1])
    reach[k + 1 :] = reach[k]
    starts = np.empty((rows, wide), dtype=bool)
    starts[:, 0] = True
    np.not_equal(exact[:, 1:], exact[:, :-1], out=starts[:, 1:])
    first = np.flatnonzero(starts)
    sizes = np.diff(first, append=rows * wide)
    row, column = np.divmod(first, wide)
    top = wide - column  # the group's last position + 1 (positions run downwards in a row)
    weights = np.add.reduceat(gains.ravel(), first) * (reach[top] - reach[top - sizes]) / sizes
    # bincount with weights returns float64 (numpy's stubs say intp); asarray is a no-op here.
    return np.asarray(np.bincount(row, weights=weights, minlength=rows), dtype=np.float64)


# --- tie-averaged DCG@k from exact keys that carry the grade (no gathers) -----------------


def _grade_packing(span: tuple[int, int] | None) -> tuple[int, int] | None:
    """``(bits, offset)`` when every grade - offset is an integer in [0, 2**bits), bits small.

    ``span`` is the lowest and highest grade (``None``: not integers). Such grades fit in the
    low bits of a sort key next to the score's exact key when the scores' keys span less
    than 2**(64 - bits) (``_exact_packed``).
    """
    if span is None or span[0] < _INT32.min or span[1] > _INT32.max:
        return None  # (grades this far out are never few bits wide once offset anyway)
    lowest, highest = span
    # no subtraction (a pass over the grades) when it would not save a bit
    offset = 0 if lowest >= 0 and highest.bit_length() == (highest - lowest).bit_length() else lowest
    bits = (highest - offset).bit_length()
    return (bits, offset) if bits <= _GRADE_BITS else None


def _exact_packed(
    keys: NDArray[np.int64], grades: NDArray[Any], bits: int, offset: int, nonnegative: bool = False
) -> NDArray[np.uint64] | None:
    """Each row's (score key - lowest key) << bits | (grade - offset), sorted ascending.

    ``None`` when the keys span 2**(64 - bits) or more: then the score's key does not fit
    exactly next to the grade. Otherwise the sorted keys hold, in order, every row's exact
    scores and their grades: ties are equal high bits, and no gather is needed.
    """
    highest = int(keys.max())
    # keys known to be >= 0 and small enough need no minimum: they are shifted as they are
    lowest = 0 if nonnegative and highest >> (64 - bits) == 0 else int(keys.min())
    if (highest - lowest) >> (64 - bits):
        return None
    if lowest >= 0 and highest >> (64 - bits) == 0:
        # already non-negative and small enough: shift the keys as they are (one pass fewer)
        packed = np.left_shift(keys.view(np.uint64), np.uint64(bits))
    else:
        # the difference wraps in int64 but, read as uint64, is exact (it is below 2**64)
        packed = np.subtract(keys, np.int64(lowest)).view(np.uint64)
        packed <<= np.uint64(bits)
    if bits and grades.dtype == np.uint64:  # grades >= 0 viewed (``_packing_grades``), offset 0
        packed |= grades
    elif bits:
        grade = grades if offset == 0 else np.subtract(grades, offset, dtype=np.int64)
        np.bitwise_or(packed, grade, out=packed, dtype=np.uint64, casting="unsafe")
    packed.sort(axis=1)
    return packed


def _exact_dcg(
    packed: NDArray[np.uint64],
    bits: int,
    offset: int,
    k: int,
    discount: NDArray[np.float64],
    carry: _Carry | None = None,
) -> tuple[NDArray[np.float64], bool]:
    """Tie-averaged DCG@k of every row from its sorted exact keys (``_exact_packed``), and
    whether a tie reached some row's top k.

    Each row's top k are its last k keys; the tie group at the cutoff runs further down, to
    the last key whose score equals the k-th. Over the block of last columns that holds every
    such group, each group adds its mean gain x the sum of its positions' discounts (0 beyond
    k), as McSherry & Najork (2008) average them: both sums are running sums (of the grades
    over the block, of the discounts) read at the group's bounds. The grades come out of the
    keys themselves: no gather, and no re-sort (the keys are exact). For k up to
    ``_PATTERN_K``, ``_pattern_dcg`` weighs the grades by tie pattern instead (faster).
    """
    if k <= _PATTERN_K:
        return _pattern_dcg(packed, bits, offset, k, discount, carry)
    rows, n = packed.shape
    grade = np.uint64((1 << bits) - 1)
    score = ~grade
    threshold = packed[:, n - k : n - k + 1] & score
    reach = np.zeros(n + 1)
    np.cumsum(discount[:k], out=reach[1 : k + 1])
    reach[k + 1 :] = reach[k]
    # the row's top k are its last k keys; no tie reaches them when the key below differs from
    # the k-th (checked first: with many ties it fails at once) and the k differ from each other
    if k == n or not bool((packed[:, n - k - 1 : n - k] >= threshold).any()):
        top = packed[:, n - k :] & score
        if not bool((top[:, 1:] == top[:, :-1]).any()):
            # one product of the grades with the per-position weights
            gains = (packed[:, n - k :] & grade).astype(np.float64)
            dcg: NDArray[np.float64] = gains @ np.diff(reach[: k + 1])[::-1]
            return (dcg + offset * reach[k] if offset else dcg), False
    wide = _width(packed, threshold, k)
    block = packed[:, n - wide :]
    scores = block & score
    # where each group starts, and one more flag past the end (its bounds, flat)
    starts = np.empty(rows * wide + 1, dtype=bool)
    starts[::wide] = True
    np.not_equal(scores[:, 1:], scores[:, :-1], out=starts[:-1].reshape(rows, wide)[:, 1:])
    bounds = np.flatnonzero(starts)
    # the grades' running sum, read at the bounds: each group's sum of grades, as integers
    # (exact, as scikit-learn's float sums of integer grades are)
    running = np.empty(rows * wide + 1, dtype=np.int64)
    running[0] = 0
    np.bitwise_and(block, grade, out=running[1:].reshape(rows, wide), casting="unsafe")
    np.cumsum(running[1:], out=running[1:])  # int64: numpy's cumsum is faster than on uint64
    sums = np.diff(running[bounds]).astype(np.float64)
    sizes = np.diff(bounds)
    row, column = np.divmod(bounds[:-1], wide)
    last = wide - column  # the group's last position + 1 (positions run downwards in a row)
    if offset:
        sums += offset * sizes
    weights = sums * (reach[last] - reach[last - sizes]) / sizes
    # bincount with weights returns float64 (numpy's stubs say intp); asarray is a no-op here.
    return np.asarray(np.bincount(row, weights=weights, minlength=rows), dtype=np.float64), True


@functools.lru_cache(maxsize=8)
def _tie_patterns(
    k: int, discount: bytes
) -> tuple[NDArray[np.float64], NDArray[np.intp], NDArray[np.float64]]:
    """Per-position weights of every tie pattern of k positions (``_pattern_dcg``).

    Pattern p has bit j set when positions j and j + 1 (0 = the top) tie. Returns ``weights``
    (2k x 2**(k - 1)): rows 0..k-1 the weight of each position's grade for the groups other
    than the last (its group's discount sum over its size; 0 in the last group), rows k..2k-1
    1 in the last group (the one at position k - 1) and 0 elsewhere; and the last group's
    size and discount sum within the k positions, per pattern. ``discount`` is the k discounts
    as bytes (hashable).
    """
    weights = np.frombuffer(discount, dtype=np.float64)
    patterns = np.arange(1 << (k - 1))
    ties = (patterns[:, None] >> np.arange(k - 1)) & 1
    group = np.zeros((patterns.size, k), dtype=np.intp)  # each position's group, 0 at the top
    np.cumsum(1 - ties, axis=1, out=group[:, 1:])
    member = group[:, :, None] == np.arange(k)  # (pattern, position, group)
    discount_sum = np.einsum("pjg,j->pg", member, weights)
    size = member.sum(axis=1)
    row = patterns[:, None]
    per_position = discount_sum[row, group] / size[row, group]  # every group has a member
    last = group == group[:, -1:]
    per_position[last] = 0.0
    table = np.ascontiguousarray(np.concatenate([per_position, last.astype(np.float64)], axis=1).T)
    final = group[:, -1]
    return table, size[patterns, final], discount_sum[patterns, final]


def _pattern_dcg(
    packed: NDArray[np.uint64],
    bits: int,
    offset: int,
    k: int,
    discount: NDArray[np.float64],
    carry: _Carry | None = None,
) -> tuple[NDArray[np.float64], bool]:
    """Tie-averaged DCG@k of every row from its sorted exact keys (``_exact_packed``), k small,
    and whether a tie reached some row's top k.

    The tie pattern of a row's top k (which neighbours tie: k - 1 bits) fixes the weight of
    each position's grade, its group's discount sum over its size, for every group but the
    last, which may run on below position k: ``_tie_patterns`` tabulates them once per k.
    The last group's mean takes all its members, those below the top k too (counted and
    summed over the block of columns that holds them). The block is transposed first (one
    row per position): numpy then runs each step as a few long loops across the queries
    rather than one short loop per query, which is what made the general group sums slow.
    """
    rows, n = packed.shape
    grade = np.uint64((1 << bits) - 1)
    threshold = packed[:, n - k] & ~grade  # the k-th score's key, grade bits cleared
    extends = k < n and bool((packed[:, n - k - 1] >= threshold).any())
    wide = _width(packed, threshold[:, None], k, carry.wide if carry else 0) if extends else k
    if carry is not None:
        carry.wide = wide
    # one row per position, the top first; one column per query
    block = np.ascontiguousarray(packed[:, n - wide :][:, ::-1].T)
    top = block[:k]
    table, last_size, last_discount = _tie_patterns(k, discount[:k].tobytes())
    if k > 1:
        ties = (top[1:] ^ top[:-1]) <= grade  # same score: the keys differ in the grade bits only
        pattern = (np.exp2(np.arange(k - 1)) @ ties).astype(np.intp)
    else:
        pattern = np.zeros(rows, dtype=np.intp)
    gains = (top & grade).astype(np.float64)
    if offset:
        gains += offset
    # per query: the other groups' share of DCG@k, and the last group's grades in the top k
    inner, last_sum = np.einsum("jr,cjr->cr", gains, np.take(table, pattern, axis=1).reshape(2, k, rows))
    size = last_size[pattern]
    if extends:
        # Members of the last group below position k: their keys are the threshold + their
        # grade; the others' are lower, so key - threshold wraps (as uint64) to at least
        # 2**64 - threshold. Capped at 2**32, each member adds its grade (< 2**8) and each
        # other key 2**32, so one sum per query gives both the members' grade sum (the low
        # 32 bits) and their number (from the high bits), when every threshold is at most
        # 2**64 - 2**32 (keys that span almost all 64 bits: counted and summed apart).
        below = block[k:]
        if int(threshold.max()) <= (1 << 64) - (1 << 32):
            capped = np.subtract(below, threshold)
            np.minimum(capped, np.uint64(1 << 32), out=capped)
            total = capped.sum(axis=0)
            more = (wide - k) - (total >> np.uint64(32)).astype(np.intp)
            last_sum += total & np.uint64(0xFFFF_FFFF)
        else:
            more = np.count_nonzero(below >= threshold, axis=0)
            last_sum += (np.maximum(below, threshold) - threshold).sum(axis=0)
        if offset:
            last_sum += offset * more
        size = size + more
    dcg: NDArray[np.float64] = inner + last_sum * last_discount[pattern] / size
    return dcg, extends or bool(pattern.any())


def _ignore_ties_dcg(
    grades: NDArray[Any], y_score: NDArray[Any], k: int, discount: NDArray[np.float64]
) -> NDArray[np.float64]:
    # scikit-learn's own call, so numpy orders the ties the same way; then the first k.
    rows, n = y_score.shape
    ranking = np.argsort(y_score)[:, ::-1][:, :k] + (np.arange(rows) * n)[:, None]
    dcg: NDArray[np.float64] = np.ascontiguousarray(grades).ravel()[ranking].astype(np.float64) @ discount[:k]
    return dcg


def _dcg_rows(
    grades: NDArray[Any],
    y_score: NDArray[Any],
    k: int,
    discount: NDArray[np.float64],
    ignore_ties: bool,
    packing: tuple[int, int] | None = None,
    packed_grades: NDArray[Any] | None = None,
    carry: _Carry | None = None,
) -> tuple[NDArray[np.float64], bool]:
    """DCG@k of every row, and whether a tie reached some row's top k (tie-averaged only)."""
    if ignore_ties:
        return _ignore_ties_dcg(grades, y_score, k, discount), False
    return _averaged_dcg(grades, y_score, k, discount, packing, packed_grades, carry)


def _packing_grades(y_true: NDArray[Any], compact: NDArray[Any], offset: int) -> NDArray[Any]:
    """The grades as ``_exact_packed`` ORs them in: int64 grades >= 0 viewed as uint64 (no
    copy, no cast), else the compact grades (cast as they are ORed)."""
    if offset == 0 and y_true.dtype in (np.int64, np.uint64):
        return y_true.view(np.uint64)
    return compact


def _integer_span(y_true: NDArray[Any], lowest: Any = None) -> tuple[int, int] | None:
    """The lowest and highest grade when the grades are integers, else ``None``.
    ``lowest``: the lowest grade if already known (one pass over the grades fewer)."""
    if y_true.dtype.kind not in "biu":
        return None
    return int(y_true.min() if lowest is None else lowest), int(y_true.max())


def _compact(y_true: NDArray[Any], span: tuple[int, int] | None) -> NDArray[Any]:
    """The grades as int16 or int32 when they are integers that fit: sorted and gathered
    faster (numpy sorts int16 rows ~20 % faster than int32, int32 twice as fast as int64;
    not int8, which it sorts without SIMD, several times slower)."""
    if span is None:
        return y_true
    for small in (np.int16, np.int32):
        limits = np.iinfo(small)
        if limits.min <= span[0] and span[1] <= limits.max:
            return y_true if y_true.dtype == small else y_true.astype(small)
    return y_true


def _ideal_dcg_rows(
    grades: NDArray[Any], k: int, discount: NDArray[np.float64], span: tuple[int, int] | None = None
) -> NDArray[np.float64]:
    """IDCG@k of every row. ``span``: the lowest and highest grade when they are integers."""
    n = grades.shape[1]
    if span is not None and span[1] - span[0] < _COUNTED_LEVELS and n < 256:
        return _counted_ideal(grades, k, discount, span[0], span[1] - span[0])
    # the k largest grades, ascending (a contiguous slice, no reversed copy), against the
    # discounts reversed
    best = np.sort(grades, axis=1)[:, n - k :]
    ideal: NDArray[np.float64] = best.astype(np.float64) @ discount[k - 1 :: -1]  # k >= 1 here
    return ideal


def _counted_ideal(
    grades: NDArray[Any], k: int, discount: NDArray[np.float64], lowest: int, levels: int
) -> NDArray[np.float64]:
    """IDCG@k of every row from how many of its grades reach each level: integer grades
    spanning at most 4 values (level = grade - lowest, 0..3), rows of at most 255 items.

    The ideal order puts the c(v) grades at level v or above in the first c(v) positions,
    so IDCG@k = lowest x R(k) + sum over v = 1..levels of R(min(c(v), k)), R(i) the sum of
    the first i discounts. The counts come from one pass: each grade becomes 1 << 8 x level
    and a row's sum holds its count of each level in one byte (each count is at most 255):
    about half the time of sorting the grades.
    """
    level = grades if lowest == 0 else np.subtract(grades, lowest, dtype=grades.dtype)
    bytes_ = np.add.reduce(np.left_shift(1, level << 3, dtype=np.int32), axis=1, dtype=np.int32)
    reach = np.zeros(k + 1)
    np.cumsum(discount[:k], out=reach[1:])
    ideal = np.full(grades.shape[0], lowest * reach[k])
    at_least = np.zeros(grades.shape[0], dtype=np.int32)
    for v in range(levels, 0, -1):
        at_least += (bytes_ >> (8 * v)) & 0xFF
        ideal += reach[np.minimum(at_least, k)]
    return ideal


def _per_query(
    y_true: NDArray[Any],
    y_score: NDArray[Any],
    k: int,
    discount: NDArray[np.float64],
    ignore_ties: bool,
    *,
    ideal: bool,
    lowest: Any = None,
) -> NDArray[np.float64]:
    """DCG@k of every query, or nDCG@k (0 where IDCG@k = 0) with ``ideal=True``.
    ``lowest``: the lowest grade, if validation computed it.

    Vectorised over queries, a block of queries at a time: each block's arrays stay in the
    processor's cache through all the passes, which makes the whole about twice as fast.
    """
    rows, n = y_true.shape
    out = np.empty(rows)
    span = _integer_span(y_true, lowest)
    packing = None if ignore_ties else _grade_packing(span)
    step = max(1, _BLOCK_ITEMS // n)
    # The exact path (grades in the sort key) pays off when ties reach the top k (no gathers
    # over the tie groups); without ties the general path costs two passes fewer (no range of
    # the keys, no grades read: only the k top grades are gathered). Each block takes the path
    # that suits the block before it; both give the same values.
    carry = _Carry()
    for start in range(0, rows, step):
        part = slice(start, start + step)
        # compacted a block at a time: a copy of the whole would be fresh memory on every
        # call (pages the machine must fault in when the allocator has returned them)
        grades = _compact(y_true[part], span)
        gain, carry.tied = _dcg_rows(
            grades,
            y_score[part],
            k,
            discount,
            ignore_ties,
            packing if carry.tied else None,
            grades if packing is None else _packing_grades(y_true[part], grades, packing[1]),
            carry,
        )
        if ideal:
            best = _ideal_dcg_rows(grades, k, discount, span)
            gain = np.divide(gain, best, out=np.zeros_like(gain), where=best != 0)
        out[part] = gain
    return out


def _average(values: NDArray[np.float64], weights: NDArray[np.float64] | None) -> float:
    return float(np.average(values, weights=weights))


# --- public functions -------------------------------------------------------------------


def dcg_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    k: int | None = None,
    log_base: float = 2,
    sample_weight: ArrayLike | None = None,
    ignore_ties: bool = False,
) -> float:
    """Mean DCG@k over queries, as ``sklearn.metrics.dcg_score`` computes it.

    DCG@k of a row = sum over positions i = 1..k (items sorted by score, highest first) of
    y_true_i / log_b(i + 1), b = ``log_base``; tied scores share their mean grade.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Grades (any sign), one row per query.
    y_score : array-like of shape (n_queries, n_items)
        Scores; a higher score ranks higher.
    k : int, optional
        Cutoff; ``None`` means every item.
    log_base : float, default 2
        Base of the logarithm of the discount.
    sample_weight : array-like of shape (n_queries,), optional
        Query weights of the mean.
    ignore_ties : bool, default False
        Sort once and ignore ties (scikit-learn's order: later index first among ties).

    Returns
    -------
    float

    Raises
    ------
    NDCGInputError
        With scikit-learn's message, on the inputs scikit-learn rejects.

    >>> round(dcg_score([[3, 2, 0, 0, 1]], [[5, 4, 3, 2, 1]]), 4)
    4.6487
    >>> round(dcg_score([[3, 2, 1, 0, 0]], [[3, 2, 0, 0, 1]]), 4)  # tie at 0: averaged
    4.6706
    """
    true, score, weights, _ = _validate(
        "dcg_score",
        y_true,
        y_score,
        {
            "k": k,
            "log_base": log_base,
            "sample_weight": sample_weight,
            "ignore_ties": ignore_ties,
        },
    )
    n = true.shape[1]
    cut = n if k is None else min(int(k), n)
    values = _per_query(true, score, cut, _discount(n, log_base), bool(ignore_ties), ideal=False)
    return _average(values, weights)


def ndcg_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    k: int | None = None,
    sample_weight: ArrayLike | None = None,
    ignore_ties: bool = False,
) -> float:
    """Mean nDCG@k over queries, as ``sklearn.metrics.ndcg_score`` computes it.

    nDCG@k of a row = DCG@k / IDCG@k with the discount 1 / log2(i + 1); a row with IDCG@k = 0
    (nothing relevant in the top k of the ideal) scores 0 and still counts in the mean.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Non-negative grades, one row per query, at least two items.
    y_score : array-like of shape (n_queries, n_items)
        Scores; a higher score ranks higher.
    k : int, optional
        Cutoff; ``None`` means every item.
    sample_weight : array-like of shape (n_queries,), optional
        Query weights of the mean.
    ignore_ties : bool, default False
        Sort once and ignore ties (scikit-learn's order: later index first among ties).

    Returns
    -------
    float

    Raises
    ------
    NDCGInputError
        With scikit-learn's message, on the inputs scikit-learn rejects (negative grades,
        a single item, 1-D input, NaN, mismatched lengths, an invalid ``k`` ...).

    >>> round(ndcg_score([[3, 2, 0, 0, 1]], [[5, 4, 3, 2, 1]]), 4)
    0.9762
    >>> round(ndcg_score([[7, 4, 1, 0, 0]], [[0.9, 0.5, 0.6, 0.9, 0.9]]), 5)
    0.69338
    >>> round(ndcg_score([[7, 4, 1, 0, 0]], [[0.9, 0.5, 0.6, 0.9, 0.9]], ignore_ties=True), 5)
    0.54651
    """
    true, score, weights, lowest = _validate(
        "ndcg_score",
        y_true,
        y_score,
        {
            "k": k,
            "sample_weight": sample_weight,
            "ignore_ties": ignore_ties,
        },
    )
    n = true.shape[1]
    cut = n if k is None else min(int(k), n)
    values = _per_query(true, score, cut, _discount(n, 2), bool(ignore_ties), ideal=True, lowest=lowest)
    return _average(values, weights)
