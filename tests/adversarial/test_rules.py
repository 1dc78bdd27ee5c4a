"""The rules of issue 12 on the single-list side: one-line labels, finite gains and sums in
every entry point, and CSV exports escaped against formula injection."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ndcg_core as nc
from ndcg_core.export import csv_safe, to_csv_bytes, write_table

APP = str(Path(__file__).resolve().parents[2] / "app.py")

# ----------------------------------------------------------------- labels are one line


@pytest.mark.parametrize(
    ("label", "char"),
    [
        ("a\nb", "U+000A"),
        ("a\tb", "U+0009"),
        ("a\rb", "U+000D"),
        ("a\x00b", "U+0000"),
        ("a\x1bb", "U+001B"),
        ("a\u200bb", "U+200B"),
        ("a\u202eb", "U+202E"),
        ("a\x85b", "U+0085"),
    ],
)
def test_check_labels_refuses_control_characters(label, char):
    expected = re.escape(f"The name of item 2 contains a control character ({char})")
    with pytest.raises(nc.NDCGInputError, match=expected) as info:
        nc.validate.check_labels(["ok", label])
    assert info.value.key == "label_control"


def test_check_labels_keeps_ordinary_unicode():
    assert nc.validate.check_labels(["文档一", "Ωmega", "a b"]) == ["文档一", "Ωmega", "a b"]


def test_step_table_refuses_a_label_with_a_new_line():
    with pytest.raises(nc.NDCGInputError, match="control character"):
        nc.step_table([3, 2], labels=["a\nb", "c"])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_link_item_with_newline_gets_the_label_message(lang):
    """?rel=1,0&item=a%0Ab&item=c: the translated message, and the table keeps its rows."""
    from streamlit.testing.v1 import AppTest

    from ui.framework.i18n import error_text
    from ui.framework.text import md_escape

    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"rel": "1,0", "item": ["a\nb", "c"], "lang": lang})
    at.run()
    assert not at.exception
    with pytest.raises(nc.NDCGInputError) as caught:
        nc.validate.check_labels(["a\nb", "c"])
    assert md_escape(error_text(lang, caught.value)) in [e.value for e in at.error]
    if lang == "zh":
        assert "控制字符" in error_text(lang, caught.value)


# ----------------------------------------------------------------- finite gains and sums


HUGE = [1e308, 1e308, 0.0]  # linear gains add up to inf
STEEP = [1100.0, 1.0, 0.0]  # 2^1100 - 1 is inf


@pytest.mark.parametrize(
    "function",
    [
        lambda rel, **o: nc.dcg(rel, **o),
        lambda rel, **o: nc.idcg(rel, **o),
        lambda rel, **o: nc.ndcg(rel, **o),
        lambda rel, **o: nc.metrics(rel, **o),
        lambda rel, **o: nc.step_table(rel, **o),
        lambda rel, **o: nc.ndcg_at_each_k(rel, **o),
        lambda rel, **o: nc.ndcg_from_scores(rel, [3.0, 2.0, 1.0], **o),
        lambda rel, **o: nc.dcg_from_scores(rel, [1.0, 1.0, 1.0], **o),
        lambda rel, **o: nc.tie_view(rel, [1.0, 1.0, 0.0], **o),
    ],
    ids=[
        "dcg",
        "idcg",
        "ndcg",
        "metrics",
        "step_table",
        "ndcg_at_each_k",
        "ndcg_from_scores",
        "dcg_from_scores",
        "tie_view",
    ],
)
@pytest.mark.parametrize(
    ("relevance", "gain", "key"),
    [
        (HUGE, "linear", "sum_overflow"),
        (STEEP, "exponential", "gain_overflow"),
    ],
)
def test_single_list_functions_refuse_gains_that_are_not_finite(function, relevance, gain, key):
    """Before: DCG inf and nDCG nan, with no message."""
    with pytest.raises(nc.NDCGInputError) as info:
        function(relevance, gain=gain)
    assert info.value.key == key
    assert f"{relevance[0]:g}" in str(info.value)  # the grade is named


@pytest.mark.parametrize("function", [nc.ndcg_score, nc.dcg_score])
def test_sklearn_compatible_functions_refuse_sums_that_are_not_finite(function):
    """scikit-learn returns nan / inf here (it defines no error): this core refuses."""
    with pytest.raises(nc.NDCGInputError, match=r"row 2, column 2 \(grade 1e\+308\)") as info:
        function([[1, 0], [1e308, 1e308]], [[1, 0], [1, 0]])
    assert info.value.key == "sum_overflow_2d"


def test_exponential_gain_of_1023_is_still_computed():
    assert nc.ndcg([1023.0, 0.0], gain="exponential") == 1.0


# ----------------------------------------------------------------- CSV injection


def test_csv_safe_escapes_formula_cells_but_not_plain_numbers():
    frame = pd.DataFrame(
        {"item": ["=cmd", "+1+1", "-1", "-0.5", "@x", "\tx", "\rx", "-x", "a=b", "+3"], "n": np.arange(10)}
    )
    assert csv_safe(frame)["item"].tolist() == [
        "'=cmd",
        "'+1+1",
        "-1",
        "-0.5",
        "'@x",
        "'\tx",
        "'\rx",
        "'-x",
        "a=b",
        "+3",
    ]
    assert frame["item"].iloc[0] == "=cmd"  # the input is not changed


def test_csv_safe_escapes_column_names():
    assert csv_safe(pd.DataFrame({"=x": [1]})).columns.tolist() == ["'=x"]


def test_to_csv_bytes_writes_negative_numbers_unchanged():
    text = to_csv_bytes(pd.DataFrame({"v": [-1.5, 2.0]})).decode()
    assert text == "v\n-1.5\n2.0\n"


def test_write_table_parquet_and_json_are_exact(tmp_path):
    frame = pd.DataFrame({"query": ["=cmd", "-x"], "ndcg": [0.1 + 0.2, 1.0]})
    write_table(frame, tmp_path / "t.parquet")
    write_table(frame, tmp_path / "t.json")
    assert pd.read_parquet(tmp_path / "t.parquet")["query"].tolist() == ["=cmd", "-x"]
    import json

    rows = json.loads((tmp_path / "t.json").read_text())
    assert rows == [{"query": "=cmd", "ndcg": 0.30000000000000004}, {"query": "-x", "ndcg": 1.0}]


def test_step_table_download_escapes_formula_item_names():
    from ui.components.handout import step_table_csv
    from ui.framework.state import Ranking

    ranking = Ranking().with_items([3.0, 2.0], ['=HYPERLINK("x")', "@a"])
    data = step_table_csv(ranking)
    assert data.startswith(b"\xef\xbb\xbf")  # spreadsheets need the mark for Chinese names
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert [row["item"] for row in rows] == ['\'=HYPERLINK("x")', "'@a"]


def test_evaluate_page_download_escapes_formula_queries():
    from ui.views.evaluate import per_query_csv

    table = nc.evaluate(pd.DataFrame({"query": ["=1+1", "-1"], "relevance": [1, 1], "score": [1, 1]}))
    rows = list(csv.DictReader(io.StringIO(per_query_csv(table)().decode())))
    assert [row["query"] for row in rows] == ["'=1+1", "-1"]
