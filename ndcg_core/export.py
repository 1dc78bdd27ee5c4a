"""Writing tables for people: CSV safe to open in a spreadsheet, Parquet and JSON exact.

A CSV cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is run as a
formula by spreadsheets (CSV injection, CWE-1236). Every CSV this project writes (the command
line's ``--output``, the Evaluate page's per-query download, the step-table download) goes
through :func:`csv_safe`, which escapes such text cells the way OWASP describes: a leading
apostrophe (``=cmd`` is written ``'=cmd``), so the cell is shown as text. Plain numbers such as
``-1`` or ``-0.5`` are not formulas and are written unchanged; so are number columns. Parquet
and JSON are data formats that no spreadsheet evaluates: they are written exactly.

>>> table = pd.DataFrame({"query": ["=1+1", "-1", "q"], "ndcg": [0.5, -0.25, 1.0]})
>>> print(to_csv_bytes(table).decode())
query,ndcg
'=1+1,0.5
-1,-0.25
q,1.0
<BLANKLINE>
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import IO, Any

import numpy as np
import pandas as pd

__all__ = ["FORMULA_START", "csv_safe", "to_csv_bytes", "write_table"]

#: First characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection).
FORMULA_START: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r")

# A plain decimal number (what a spreadsheet reads as a number, not a formula): -1, +0.5, -1e3.
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def _escape(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells (and column names) cannot start a formula.

    Only text cells that start with ``=``, ``+``, ``-``, ``@``, tab or carriage return and are
    not plain numbers get a leading apostrophe; number columns are left as they are.

    >>> csv_safe(pd.DataFrame({"item": ["@SUM(A1)", "+1", "\\tx", "a-b"]}))["item"].tolist()
    ["'@SUM(A1)", '+1', "'\\tx", 'a-b']
    """
    out = frame.copy()
    for column in out.columns:
        series = out[column]
        if pd.api.types.is_numeric_dtype(series.dtype) or pd.api.types.is_bool_dtype(series.dtype):
            continue
        values = series.to_numpy(dtype=object, na_value=None)
        starts = np.fromiter(
            (isinstance(v, str) and v.startswith(FORMULA_START) for v in values),
            dtype=bool,
            count=values.size,
        )
        if starts.any():
            values = values.copy()
            values[starts] = [_escape(v) for v in values[starts]]
            out[column] = pd.Series(values, index=out.index, dtype=object)
    out.columns = [_escape(str(name)) for name in out.columns]
    return out


def to_csv_bytes(frame: pd.DataFrame, *, encoding: str = "utf-8") -> bytes:
    """``frame`` as CSV bytes (no index), escaped by :func:`csv_safe`.

    ``encoding="utf-8-sig"`` adds the byte-order mark some spreadsheets need for non-Latin
    text.
    """
    data: bytes = csv_safe(frame).to_csv(index=False).encode(encoding)
    return data


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows as plain Python values: floats keep every bit (``repr``), NaN becomes null."""
    records = frame.astype(object).where(frame.notna(), None).to_dict("records")
    return [
        {str(key): (value.item() if isinstance(value, np.generic) else value) for key, value in row.items()}
        for row in records
    ]


def write_table(frame: pd.DataFrame, out: str | os.PathLike[str] | IO[str]) -> None:
    """Write ``frame`` to ``out``: Parquet for ``.parquet`` / ``.pq``, JSON (records, exact)
    for ``.json``, else CSV escaped by :func:`csv_safe`; ``"-"`` writes CSV to stdout.
    """
    if out == "-" or not isinstance(out, (str, os.PathLike)):
        stream = sys.stdout if out == "-" else out  # any text stream, not only io.TextIOBase
        csv_safe(frame).to_csv(stream, index=False)
        return
    path = os.fspath(out)
    lower = path.lower()
    if lower.endswith((".parquet", ".pq")):
        frame.to_parquet(path, index=False)
    elif lower.endswith(".json"):
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(_records(frame), handle, ensure_ascii=False, allow_nan=False)
            handle.write("\n")
    else:
        csv_safe(frame).to_csv(path, index=False)
