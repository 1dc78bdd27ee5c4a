"""Relevance scales: which grades each scale allows, and the scale inferred for grades."""

from __future__ import annotations

import numpy as np
import pytest

from ndcg_core import NDCGInputError
from ndcg_core.scales import check_scale, grade_cells, infer_scale


@pytest.mark.parametrize(
    ("relevance", "scale"),
    [
        ([3, 2, 0, 0, 1], "graded"),
        ([1, 0, 1, 1, 0], "binary"),
        ([1, 0, 1], "graded"),
        ([0.5, 7.25, 0], "free"),
    ],
)
def test_check_scale_accepts_grades_of_the_scale(relevance, scale):
    assert check_scale(relevance, scale).tolist() == [float(x) for x in relevance]


@pytest.mark.parametrize(
    ("relevance", "scale", "key", "position"),
    [
        ([1, 0, 2], "binary", "not_binary", 3),
        ([1, 0.5], "binary", "not_binary", 2),
        ([3, 4], "graded", "not_graded", 2),
        ([2.5, 1], "graded", "not_graded", 1),
    ],
)
def test_check_scale_names_the_first_misfit(relevance, scale, key, position):
    with pytest.raises(NDCGInputError, match=f"Item {position} of the relevance list") as info:
        check_scale(relevance, scale)
    assert info.value.key == key


def test_check_scale_rejects_an_unknown_scale():
    with pytest.raises(NDCGInputError, match="scale must be one of graded, binary, free"):
        check_scale([1, 0], "ordinal")


def test_check_scale_still_rejects_negative_grades_on_free():
    with pytest.raises(NDCGInputError, match="0 or more"):
        check_scale([1, -1], "free")


@pytest.mark.parametrize(
    ("relevance", "expected"),
    [
        ([3, 2, 0, 0, 1], "graded"),
        ([1, 0], "graded"),
        ([4, 0], "free"),
        ([0.5], "free"),
    ],
)
def test_infer_scale_prefers_graded(relevance, expected):
    assert infer_scale(relevance) == expected


@pytest.mark.parametrize("empty", [None, float("nan"), "", "  "])
def test_grade_cells_reports_an_empty_cell(empty):
    with pytest.raises(NDCGInputError, match="Item 2 has no grade") as info:
        grade_cells([3, empty, 1])
    assert info.value.key == "grade_missing"


def test_check_scale_unjudged_fits_every_scale():
    nan = float("nan")
    assert np.isnan(check_scale([1, nan, 0], "binary", allow_unjudged=True)[1])
    assert np.isnan(check_scale([3, nan], "graded", allow_unjudged=True)[1])


def test_check_scale_unjudged_still_checks_the_judged_grades():
    with pytest.raises(NDCGInputError, match="Item 3") as info:
        check_scale([1, float("nan"), 2], "binary", allow_unjudged=True)
    assert info.value.key == "not_binary"


def test_infer_scale_leaves_unjudged_items_out():
    nan = float("nan")
    assert infer_scale([3, nan], allow_unjudged=True) == "graded"
    assert infer_scale([nan], allow_unjudged=True) == "graded"
    assert infer_scale([2.5, nan], allow_unjudged=True) == "free"
