"""Relevance scales: which grades a scale allows, and the scale a list of grades fits.

Contents
--------
SCALES
    ``("graded", "binary", "free")``: whole grades 0-3 (0 not relevant ... 3 fully relevant),
    like / dislike as 1 / 0 (recommendation lists), or any non-negative number.
check_scale(relevance, scale)
    The grades, checked against the scale (raises :class:`NDCGInputError` on the first misfit).
infer_scale(relevance)
    The narrowest scale the grades fit: binary only when asked for, so graded, else free.
grade_cells(values)
    Grades from table cells, where an empty cell is a missing grade (not a NaN).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .validate import as_relevance, check_choice, fail

__all__ = ["SCALES", "Scale", "check_scale", "grade_cells", "infer_scale"]

Scale = Literal["graded", "binary", "free"]

#: The relevance scales, in the order a page offers them.
SCALES: tuple[Scale, ...] = ("graded", "binary", "free")

#: The largest grade of the graded scale.
GRADED_MAX = 3


def check_scale(
    relevance: ArrayLike, scale: Scale, *, what: str = "relevance_list", allow_unjudged: bool = False
) -> NDArray[np.float64]:
    """Grades that fit ``scale``: 0/1 for binary, whole numbers 0-3 for graded, any >= 0 for free.

    With ``allow_unjudged=True`` an unjudged item (NaN) fits every scale: it has no grade to check.

    >>> check_scale([3, 2, 0, 0, 1], "graded").tolist()
    [3.0, 2.0, 0.0, 0.0, 1.0]
    >>> check_scale([1, 0, 2], "binary")
    Traceback (most recent call last):
    ...
    ndcg_core.validate.NDCGInputError: Item 3 of the relevance list is 2. On the binary scale (like / dislike) every grade must be 0 or 1.
    """
    check_choice(scale, SCALES, option="scale")
    rel = as_relevance(relevance, what=what, allow_unjudged=allow_unjudged)
    judged = ~np.isnan(rel)
    if scale == "binary":
        bad = judged & (rel != 0) & (rel != 1)
        key = "not_binary"
    elif scale == "graded":
        bad = judged & ((rel != np.round(rel)) | (rel > GRADED_MAX))
        key = "not_graded"
    else:
        return rel
    if bad.any():
        position = int(np.argmax(bad))
        fail(key, what=what, position=position + 1, value=float(rel[position]))
    return rel


def infer_scale(relevance: ArrayLike, *, allow_unjudged: bool = False) -> Scale:
    """The scale for grades that came without one: graded when they fit 0-3, else free.

    Binary grades also fit the graded scale; a page chooses binary explicitly. With
    ``allow_unjudged=True`` unjudged items (NaN) are left out (none judged: graded).

    >>> infer_scale([3, 2, 0, 0, 1]), infer_scale([0.5, 7])
    ('graded', 'free')
    >>> infer_scale([0.5, float("nan")], allow_unjudged=True)
    'free'
    """
    rel = as_relevance(relevance, allow_unjudged=allow_unjudged)
    rel = rel[~np.isnan(rel)]
    fits = bool(np.all(rel == np.round(rel)) and (rel.size == 0 or rel.max() <= GRADED_MAX))
    return "graded" if fits else "free"


def grade_cells(values: Sequence[Any]) -> NDArray[np.float64]:
    """Grades from the cells of an edited table: an empty cell (None, NaN, "") is an error.

    >>> grade_cells([3, "2", 0.5]).tolist()
    [3.0, 2.0, 0.5]
    """
    for index, value in enumerate(values):
        empty = value is None or (isinstance(value, float) and math.isnan(value))
        if empty or (isinstance(value, str) and not value.strip()):
            fail("grade_missing", position=index + 1)
    return as_relevance(list(values))
