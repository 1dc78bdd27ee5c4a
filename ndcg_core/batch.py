"""Batch evaluation of a run in long format: one row per (query, item), nDCG per query.

A *run* is a table with a query id, the item's relevance grade and the system's score for
each retrieved item. :func:`evaluate` ranks every query's items by score, computes DCG@k,
IDCG@k and nDCG@k per query, and returns one row per query; the mean of the ``ndcg`` column
is the system's score. Rules, written once:

- Ranking: score descending. Tied scores follow ``ties``:

  * ``"average"`` (default; McSherry & Najork 2008, scikit-learn's ``ndcg_score``): every
    item of a tie group gets the group's mean gain, so the result is the mean over all orders
    of the tie.
  * ``"optimistic"`` / ``"pessimistic"``: ties broken by relevance, best / worst first.
  * ``"input"``: a stable sort; tied items keep the input's row order (LightGBM, XGBoost).
  * ``"trec_eval"``: score descending, then item id descending as a string (trec_eval's
    order); needs the item column.

  ``"ignore"`` (scikit-learn's ``ignore_ties=True``: an arbitrary, machine-dependent order) is
  defined for single lists only (:mod:`ndcg_core.ties`) and refused here.

- Ids are text: query and item ids are compared as strings, exactly as written (``1`` and
  ``1.0`` are two queries, ``001`` and ``1`` two items, ``NA`` is an id); only an empty field
  is missing. Numeric id columns of a DataFrame are converted to their text.
- Gains and their sums must be finite (:func:`ndcg_core.gains.first_overflow`): a grade whose
  gain overflows, or a query whose gains add up to infinity, is refused, naming the row.

- The ideal ranking is the query's own grades, sorted descending (scikit-learn's ideal).
- ``k=None`` or ``k`` above a query's length means the whole list of that query.
- A query with nothing relevant has IDCG = 0. ``no_relevant="zero"`` (default, like
  scikit-learn) reports nDCG = 0 and counts it in the mean; ``no_relevant="drop"`` reports
  nDCG = NaN (undefined) and leaves it out of the mean. The count is always reported by
  :func:`summarize` and :func:`evaluate_run`.
- Nothing is silently dropped: a missing column, a missing or non-numeric value, an infinite
  value, a negative grade or a repeated (query, item) pair raises :class:`NDCGInputError`
  naming the row (1 = the first data row) and the column.

The kernel is vectorised, with no Python loop over queries: the rows are sorted once by
(query, -score) (one ``np.sort`` of packed 64-bit keys, exact: values that float32 rounds
together are re-sorted on their float64 values; ``np.lexsort`` when the key does not fit), a
row's position is its index minus its query's first index, tie groups are runs of equal
(query, score), and per-query sums are ``np.add.reduceat``. IDCG counts each query's items per
grade when the grades are small whole numbers (else a second sort). Lists of any length mix
without padding; memory grows with the number of rows (about twice the input table's).

>>> run = pd.DataFrame({"query": ["a"] * 5, "relevance": [3, 2, 0, 0, 1],
...                     "score": [5, 4, 3, 2, 1]})
>>> evaluate(run).round(4).to_dict("records")
[{'query': 'a', 'n_items': 5, 'dcg': 4.6487, 'idcg': 4.7619, 'ndcg': 0.9762}]
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any, NoReturn, cast

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from .discounting import DISCOUNTS, Discount, discounts
from .gains import GAINS, Gain, apply_gain, first_overflow
from .options import NO_RELEVANT, BatchTies, NoRelevant, Options, check_ties, engine_options, run_options
from .ordering import order_by_ties, rank_order
from .validate import NDCGInputError, check_choice, check_k, fail

__all__ = [
    "ID_COLUMNS",
    "NO_RELEVANT",
    "CsvScan",
    "RunResult",
    "RunSummary",
    "check_csv_fields",
    "check_roles",
    "check_ties",
    "evaluate",
    "evaluate_run",
    "id_text",
    "mean_ndcg_at_ks",
    "ndcg_bands",
    "read_run",
    "summarize",
]

Ties = BatchTies
#: Tie treatments of a run (the vocabulary lives in :mod:`ndcg_core.options`).
#: Columns :func:`read_run` reads as text by default (matched case-insensitively).
ID_COLUMNS: tuple[str, ...] = ("query", "item")
#: The per-query columns, in order.
COLUMNS: tuple[str, ...] = ("query", "n_items", "dcg", "idcg", "ndcg")

Source = str | os.PathLike[str] | IO[bytes] | IO[str] | bytes


@dataclass(frozen=True, slots=True)
class RunSummary:
    """The system's score over a run's queries.

    Attributes
    ----------
    mean : float
        Mean nDCG over the queries in the mean (NaN if there are none).
    n_queries : int
        Queries in the run.
    n_no_relevant : int
        Queries with nothing relevant (IDCG = 0).
    n_in_mean : int
        Queries the mean is taken over: all of them, or those with something relevant when
        ``no_relevant="drop"``.
    """

    mean: float
    n_queries: int
    n_no_relevant: int
    n_in_mean: int


@dataclass(frozen=True, slots=True, eq=False)
class RunResult:
    """A whole evaluation: the per-query table, its summary and the options that made it."""

    per_query: pd.DataFrame
    mean: float
    n_queries: int
    n_no_relevant: int
    n_in_mean: int
    k: int | None
    gain: str
    discount: str
    ties: str
    no_relevant: str

    @classmethod
    def summarized(
        cls,
        per_query: pd.DataFrame,
        *,
        k: int | None,
        gain: str,
        discount: str,
        ties: str,
        no_relevant: NoRelevant,
    ) -> RunResult:
        """The result of a per-query table (either engine's), with :func:`summarize`'s mean and counts."""
        summary = summarize(per_query, no_relevant=no_relevant)
        return cls(
            per_query=per_query,
            mean=summary.mean,
            n_queries=summary.n_queries,
            n_no_relevant=summary.n_no_relevant,
            n_in_mean=summary.n_in_mean,
            k=k,
            gain=gain,
            discount=discount,
            ties=ties,
            no_relevant=no_relevant,
        )


@dataclass(frozen=True, slots=True)
class _Run:
    """A validated run: query codes 0..n_queries-1 and float grades and scores, row order.

    The codes of a whole run are ``int32`` when they fit (half the memory of the run's
    longest integer array, issue 12); :func:`_blocks` gives every block ``intp`` codes, so the
    kernel computes on ``intp`` as before.
    """

    codes: NDArray[np.intp]
    queries: pd.Index
    relevance: NDArray[np.float64]
    score: NDArray[np.float64]
    #: Each row's item id rank in descending string order (0 = largest id), for "trec_eval".
    item_rank: NDArray[np.int64] | None = None
    #: The grade column's name, for messages.
    relevance_column: str = "relevance"


# --------------------------------------------------------------------------- reading


def _source_name(source: Any, name: str | None) -> str:
    if name is not None:
        return str(name)
    if isinstance(source, (str, os.PathLike)):
        return Path(source).name
    return str(getattr(source, "name", "upload"))


def _is_parquet(source: Any) -> bool:
    """True when the data starts with Parquet's magic bytes ``PAR1``."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as handle:
            head = handle.read(4)
    elif isinstance(source, bytes):
        head = source[:4]
    else:
        position = source.tell()
        head = source.read(4)
        source.seek(position)
    return head in (b"PAR1", "PAR1")


def read_run(
    source: Source,
    *,
    name: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    ids: Iterable[str] = ID_COLUMNS,
) -> pd.DataFrame:
    """Read a run from a CSV or Parquet file, a file-like object (an upload) or bytes.

    Parquet is recognised by its magic bytes, anything else is read as UTF-8 CSV with a header
    row (a byte-order mark is allowed; compression is inferred from a path's extension).

    Ids are text, never guessed: the columns named in ``ids`` (case-insensitively) are read as
    strings exactly as written, so ``1`` and ``1.0``, or ``001`` and ``1``, stay different ids
    and ``NA`` or ``null`` are ids like any other. Only an empty field is missing, in every
    column (``NA`` in a grade column is a value that is not a number, and is reported as
    such). Other columns become numbers when every value is one, else stay text. A row whose
    number of fields differs from the header's is an error naming the row (and the line of
    the file, when quoted new lines make them differ).

    Parameters
    ----------
    source : path, file-like object or bytes
        The file.
    name : str, optional
        The name used in messages; defaults to the file's name.
    on_progress : callable, optional
        Called as ``on_progress(done, total)`` while reading in blocks (bytes for CSV, rows
        for Parquet); the command line draws its progress bar with it.
    ids : iterable of str
        Names of the id columns (query and item ids), read as text. Numeric id columns of a
        Parquet file are converted to their text.

    Returns
    -------
    pandas.DataFrame
        The table as read; :func:`evaluate` validates it.

    Raises
    ------
    NDCGInputError
        ``unreadable`` if the file cannot be opened or parsed, ``not_utf8`` for a CSV file that
        is not UTF-8, ``field_count`` / ``field_count_line`` for a row with too many or too
        few fields, ``empty_table`` if it has no data rows.

    >>> read_run(io.BytesIO(b"query,relevance,score\\nq1,3,0.9\\n")).shape
    (1, 3)
    >>> read_run(b"query,relevance,score\\n1,3,0.9\\n1.0,2,0.8\\n")["query"].tolist()
    ['1', '1.0']
    """
    label = _source_name(source, name)
    if isinstance(source, bytes):
        source = io.BytesIO(source)
    wanted = {str(column).casefold() for column in ids}
    kind = "CSV"
    try:
        if _is_parquet(source):
            kind = "Parquet"
            frame = _read_parquet(source, on_progress)
            for column in frame.columns:
                if str(column).casefold() in wanted:
                    frame[column] = id_text(frame[column])
        else:
            frame = _read_csv(source, on_progress, wanted, label)
    except FileNotFoundError:
        fail("file_missing", name=label)
    except (OSError, ValueError, UnicodeDecodeError) as error:
        if isinstance(error, NDCGInputError):
            raise
        if kind == "Parquet" and not isinstance(error, OSError):
            fail("parquet_invalid", name=label)  # pyarrow's own words are English only
        _unreadable(error, label, kind)
    if len(frame) == 0:
        fail("empty_table", what="file", name=label)
    return frame


#: Block size of the CSV reader: the unit of progress, and of type inference it never does.
_BLOCK = 1 << 22


def _read_csv(
    source: Any, on_progress: Callable[[int, int], None] | None, ids: set[str], label: str
) -> pd.DataFrame:
    """A CSV file read entirely as text by pyarrow, then each non-id column made numeric when
    every value is a number.

    The header is read as the first data row (column names ``f0, f1, ...``), so every column
    is text from the start, whatever its name: pyarrow never guesses a type.
    """
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv

    owned = isinstance(source, (str, os.PathLike))
    handle = pa.input_stream(os.fspath(source)) if owned else source
    try:
        # The reader wants the bytes whole (pyarrow copies them per block). An upload is a
        # BytesIO over the bytes the server holds: getvalue() returns that very object, where
        # read() would copy it (18 MiB for 1 M rows, issue 12).
        whole = isinstance(source, io.BytesIO) and source.tell() == 0
        data = source.getvalue() if whole else handle.read()
    finally:
        if owned:
            handle.close()
    if isinstance(data, bytes) and data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 (spreadsheets)
        fail("not_utf8", name=label, line=1)
    if isinstance(data, str):  # a text stream: its characters, as UTF-8
        data = data.encode("utf-8")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if not data or data.isspace():  # (not data.strip(): that copies the whole file)
        fail("empty_table", what="file", name=label)
    if not data.endswith((b"\n", b"\r")):
        data += b"\n"  # pyarrow cannot read a lone header line without its line end
    total = max(len(data), 1)
    # Every column as text: one type per header field (names not in the file are ignored).
    import csv

    # the header row only, decoded as it is read (a StringIO of the first MiB would hold 4)
    head = io.TextIOWrapper(io.BytesIO(data[: 1 << 20]), encoding="utf-8", errors="replace", newline="")
    first = next(csv.reader(head), [])
    del head
    types = {f"f{index}": pa.string() for index in range(len(first) + 1)}
    try:
        reader = pacsv.open_csv(
            pa.BufferReader(data),
            read_options=pacsv.ReadOptions(
                autogenerate_column_names=True, block_size=_BLOCK, use_threads=False
            ),
            parse_options=pacsv.ParseOptions(newlines_in_values=True),
            convert_options=pacsv.ConvertOptions(
                column_types=types, null_values=[""], strings_can_be_null=True
            ),
        )
        batches = []
        done = 0
        try:
            for batch in reader:
                batches.append(batch)
                done += batch.nbytes
                if on_progress is not None:
                    on_progress(min(done, total - 1), total)
        finally:
            # Parsed in this thread (use_threads=False: no slower here, measured) and closed
            # at once. No Python callback (invalid_row_handler) is given to pyarrow: one still
            # pending in a pyarrow thread when the interpreter exits aborted the CLI
            # ("terminate called without an active exception"); a row pyarrow refuses is
            # found again in Python, on the error path only (_explain_csv_error).
            reader.close()
        table = pa.Table.from_batches(batches, schema=reader.schema)
    except pa.ArrowInvalid as error:
        _explain_csv_error(
            str(error), lambda: io.StringIO(data.decode("utf-8", errors="replace"), newline=""), label
        )
        if "UTF8" in str(error) or "UTF-8" in str(error):
            _utf8_error(data, label)
        raise ValueError(str(error)) from None
    if on_progress is not None:
        on_progress(total, total)
    if table.num_rows == 0:
        fail("empty_table", what="file", name=label)
    header = table.slice(0, 1).to_pylist()[0]
    table = table.slice(1)
    names = _column_names([header[f"f{index}"] for index in range(table.num_columns)])
    # One column at a time, each text column dropped as soon as its numbers are made, and
    # the Arrow table given up column by column while pandas takes it (self_destruct): the
    # read holds the text of one column beside the result, not two tables (issue 12).
    columns = table.columns
    del table, batches
    for index, column_name in enumerate(names):
        if column_name.casefold() not in ids:
            columns[index] = _as_number(pc, pa, columns[index])
    result = pa.table(columns, names=names)
    del columns
    frame: pd.DataFrame = result.to_pandas(split_blocks=True, self_destruct=True)
    return frame


def _as_number(pc: Any, pa: Any, column: Any) -> Any:
    """A text column as float64 (int64 when every value is whole) when every non-empty value
    is a number; else as it is (text, reported by :func:`evaluate` if it is a grade or score).

    The text is parsed once, as float64; whole numbers then narrow to int64 cheaply.
    """
    try:
        numbers = pc.cast(column, pa.float64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return column
    try:
        return pc.cast(numbers, pa.int64())  # safe cast: fails on fractions, NaN and inf
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return numbers


def _column_names(raw: list[Any]) -> list[str]:
    """Header cells as unique column names (pandas' convention: ``Unnamed: i``, ``a.1``)."""
    names: list[str] = []
    seen: dict[str, int] = {}
    for index, cell in enumerate(raw):
        name = f"Unnamed: {index}" if cell is None or cell == "" else str(cell)
        base = name
        while name in seen:
            seen[base] += 1
            name = f"{base}.{seen[base]}"
        seen.setdefault(name, 0)
        names.append(name)
    return names


#: pyarrow's words for a row with another number of fields than the header ("Expected 3
#: columns, got 2") and for a row longer than its block ("straddling object straddles two
#: block boundaries"): the only parse errors of a reader that reads every field as text.
_FIELD_COUNT = re.compile(r"Expected (\d+) columns, got (\d+)")
_STRADDLING = "straddl"


def _explain_csv_error(message: str, text: Callable[[], IO[str]], label: str) -> None:
    """Turn pyarrow's parse error ``message`` into the project's, naming the row or line
    found again by Python's csv module in ``text()`` (the file decoded, bytes that are not
    UTF-8 replaced); return for any other error (the encoding is checked by the caller)."""
    found = _FIELD_COUNT.search(message)
    if _STRADDLING in message:
        with text() as handle:
            _long_row_error(handle, label)
    elif found is not None:
        with text() as handle:
            _field_count_error(handle, label, expected=int(found[1]), got=int(found[2]))


def _csv_records(text: IO[str]) -> Iterator[tuple[int, int, list[str]]]:
    """(first line, last line, fields) of every record of a CSV text, as Python's csv module
    reads it (with no limit on a field's size: the error paths read any file pyarrow read)."""
    import csv

    csv.field_size_limit(max(csv.field_size_limit(), 2**31 - 1))
    reader = csv.reader(text)
    line = 0
    for record in reader:
        start, line = line + 1, reader.line_num
        yield start, line, record


def _long_row_error(text: IO[str], label: str) -> NoReturn:
    """Name the line where the first row longer than the reader's block starts."""
    longest = (0, 0)
    for start, _, record in _csv_records(text):
        size = sum(len(field.encode("utf-8")) for field in record) + max(len(record) - 1, 0)
        if size > _BLOCK:
            fail("csv_row_too_long", name=label, line=start, got=size, limit=_BLOCK)
        longest = max(longest, (size, start))
    fail("csv_row_too_long", name=label, line=longest[1] or "?", got=longest[0], limit=_BLOCK)


def _field_count_error(text: IO[str], label: str, *, expected: int, got: int) -> NoReturn:
    """Name the first row whose number of fields differs from the header's (1 = first data
    row) and, when quoted new lines make them differ, its line in the file (``expected`` and
    ``got``: pyarrow's counts, shown if Python's reader finds no such row)."""
    records = _csv_records(text)
    width: int | None = None
    number = 0
    for start, line, record in records:
        if not record:  # an empty line: skipped by the reader, as by pandas
            continue
        if width is None:
            width = len(record)
            continue
        number += 1
        if len(record) != width:
            if start == number + 1 and line == start:
                fail("field_count", row=number, got=len(record), expected=width)
            fail("field_count_line", row=number, line=start, got=len(record), expected=width)
    fail("field_count_line", row="?", line="?", got=got, expected=expected)


@dataclass(frozen=True, slots=True)
class CsvScan:
    """What :func:`check_csv_fields` learnt reading a CSV file through."""

    #: The header's column names, made unique as :func:`read_run` makes them (``a``, ``a.1``).
    columns: tuple[str, ...]
    #: True when a quoted value holds a line break, so a row may span several lines.
    multiline: bool
    #: The number of data rows (blank lines not counted, as pyarrow and Spark skip them), or
    #: None when the pass stopped at something it leaves to the reader to report.
    rows: int | None = None


def _unreadable(error: Exception, label: str, kind: str) -> NoReturn:
    """``unreadable``, with the library's reason on one line (e.g. a gzip file cut short)."""
    reason = " ".join(str(error).split())[:300] or type(error).__name__
    fail("unreadable", name=label, kind=kind, reason=reason)


def check_csv_fields(path: str | os.PathLike[str], *, name: str | None = None) -> CsvScan:
    """:func:`_check_csv_fields`; a file that cannot be read to its end (a gzip file cut short)
    is ``unreadable``, as :func:`read_run` says."""
    label = _source_name(path, name)
    try:
        return _check_csv_fields(path, label)
    except OSError as error:
        _unreadable(error, label, "CSV")


def _check_csv_fields(path: str | os.PathLike[str], label: str) -> CsvScan:
    """Refuse a CSV file (a local path) that is not UTF-8, or has a row whose number of fields
    differs from the header's, naming the line or the row as :func:`read_run` does.

    The file is read once in blocks and nothing is kept, so it suits files too large for
    memory; the Spark engine calls it before Spark reads the file: Spark's reader replaces
    bytes that are not UTF-8 by U+FFFD without a word (Latin-1 ``café`` and ``cafè`` would
    become one query), pads a short row with nulls, and fails on a long one without naming it.
    The UTF-8 check is pyarrow's (native, in the same pass); only a file that fails it is
    decoded again, block by block, to find the line.

    Returns
    -------
    CsvScan
        The header's names, whether any quoted value spans lines, and the number of rows.

    Raises
    ------
    NDCGInputError
        ``not_utf8``, ``field_count`` or ``field_count_line``; ``empty_table`` for a file
        without a header.
    """
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv

    with pa.input_stream(os.fspath(path)) as stream:
        head = stream.read(1 << 20)
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 (spreadsheets), as read_run says
        fail("not_utf8", name=label, line=1)
    import csv

    first = next(
        csv.reader(io.StringIO(head.decode("utf-8", errors="replace").lstrip("\ufeff"), newline="")), []
    )
    if not first:
        fail("empty_table", what="file", name=label)
    types = {f"f{index}": pa.string() for index in range(len(first) + 1)}
    multiline = False
    counted = -1  # the header is read as a row (autogenerated column names)
    rows: int | None = None
    try:
        with pa.input_stream(os.fspath(path)) as stream:
            reader = pacsv.open_csv(
                stream,
                read_options=pacsv.ReadOptions(
                    autogenerate_column_names=True, block_size=_BLOCK, use_threads=False
                ),
                parse_options=pacsv.ParseOptions(newlines_in_values=True),
                convert_options=pacsv.ConvertOptions(
                    column_types=types, null_values=[""], strings_can_be_null=True, check_utf8=True
                ),
            )
            try:
                for batch in reader:
                    counted += batch.num_rows
                    if not multiline:
                        multiline = any(
                            pc.any(pc.match_substring_regex(column, "[\r\n]")).as_py()
                            for column in batch.columns
                        )
            finally:
                reader.close()  # stop the read-ahead before anything else (see _read_csv)
        rows = counted
    except pa.ArrowInvalid as error:
        # the order of read_run: a row pyarrow cannot parse first, then the encoding
        def text() -> IO[str]:
            return io.TextIOWrapper(
                pa.input_stream(os.fspath(path)), encoding="utf-8", errors="replace", newline=""
            )

        _explain_csv_error(str(error), text, label)
        if "UTF8" in str(error) or "UTF-8" in str(error):
            _utf8_error_in_file(path, label)
        multiline = True  # nothing this check names (a header alone...): Spark reports it
    return CsvScan(columns=tuple(_column_names(list(first))), multiline=multiline, rows=rows)


def _utf8_error_in_file(path: str | os.PathLike[str], label: str) -> NoReturn:
    """The ``not_utf8`` error naming the first line with a byte that is not UTF-8, found block
    by block (the file is never held whole); lines counted as :func:`_utf8_error` counts them."""
    import codecs

    import pyarrow as pa

    decoder = codecs.getincrementaldecoder("utf-8")()
    lines = 0
    with pa.input_stream(os.fspath(path)) as stream:
        while True:
            block = stream.read(_BLOCK)
            try:
                decoder.decode(block, final=not block)
            except UnicodeDecodeError as error:
                # error.start counts from the bytes the decoder held back from the last block
                pending = len(error.object) - len(block)
                lines += block.count(b"\n", 0, max(error.start - pending, 0))
                fail("not_utf8", name=label, line=lines + 1)
            if not block:
                break
            lines += block.count(b"\n")
    fail("not_utf8", name=label, line="?")


def _utf8_error(data: bytes, label: str) -> NoReturn:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        fail("not_utf8", name=label, line=data.count(b"\n", 0, error.start) + 1)
    fail("not_utf8", name=label, line="?")


def _read_parquet(source: Any, on_progress: Callable[[int, int], None] | None) -> pd.DataFrame:
    import pyarrow as pa
    import pyarrow.parquet as pq

    if isinstance(source, (str, os.PathLike)):
        source = pa.OSFile(os.fspath(source))  # an error opening it is the system's (OSError)
    else:
        # A buffer, not the Python file object: pyarrow's reading threads would call back into
        # Python for every read, and one still waiting for the interpreter at exit aborts it
        # (see _read_csv). An upload's getvalue() is the bytes the server holds, not a copy.
        whole = isinstance(source, io.BytesIO) and source.tell() == 0
        source = pa.BufferReader(source.getvalue() if whole else source.read())
    try:
        with pq.ParquetFile(source) as parquet:
            if on_progress is None:
                table = parquet.read()
            else:
                total = max(parquet.metadata.num_rows, 1)
                groups, done = [], 0
                for index in range(parquet.num_row_groups):
                    groups.append(parquet.read_row_group(index))
                    done += groups[-1].num_rows
                    on_progress(done, total)
                table = pa.concat_tables(groups) if groups else parquet.schema_arrow.empty_table()
    except (pa.ArrowException, OSError) as error:
        # the file is open: pyarrow's OSError is a damaged page ("Couldn't deserialize thrift")
        raise ValueError(str(error)) from None
    finally:
        source.close()
    return table.to_pandas()


def id_text(values: pd.Series) -> pd.Series:
    """Ids as text: strings stay exactly as they are, numbers become their text (``1``,
    ``1.0``), and only a missing value or an empty string is missing.

    >>> id_text(pd.Series([1, 2])).tolist()
    ['1', '2']
    >>> id_text(pd.Series([1.0, 1e3, None])).tolist()
    ['1.0', '1000.0', nan]
    """
    series = values if isinstance(values, pd.Series) else pd.Series(values)
    if pd.api.types.is_string_dtype(series.dtype) and not pd.api.types.is_object_dtype(series.dtype):
        return series
    codes, uniques = pd.factorize(series, sort=False)
    text = _unique_text(uniques)
    out = np.empty(codes.size, dtype=object)
    out[:] = np.nan
    present = codes >= 0
    out[present] = text[codes[present]]
    return pd.Series(out, index=series.index, name=series.name, dtype="str")


def _unique_text(uniques: Any) -> NDArray[np.object_]:
    """Unique ids as an object array of text (strings as they are)."""
    if pd.api.types.is_string_dtype(getattr(uniques, "dtype", None)) and not pd.api.types.is_object_dtype(
        uniques.dtype
    ):
        return np.asarray(uniques, dtype=object)
    array = np.asarray(uniques)
    if array.dtype.kind in "iub":
        return array.astype(str).astype(object)
    if array.dtype.kind == "f":
        return np.array([repr(float(value)) for value in array.tolist()], dtype=object)
    return np.array(
        [
            value if isinstance(value, str) else repr(value) if isinstance(value, float) else str(value)
            for value in array.tolist()
        ],
        dtype=object,
    )


# --------------------------------------------------------------------------- validation


def _check_columns(frame: pd.DataFrame, names: Iterable[str]) -> None:
    for column in names:
        if column not in frame.columns:
            shown = ", ".join(repr(str(c)) for c in list(frame.columns)[:20])
            if len(frame.columns) > 20:
                shown += ", ..."
            fail("missing_column", column=column, columns=shown or "(none)")


def _shown(value: Any) -> Any:
    """A cell as a plain Python value for a message (numpy scalars repr as np.float64(...))."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, str) and len(value) > 40:
        value = value[:40] + "..."
    if value is None or value is pd.NA or value is pd.NaT:
        return "a missing value"
    return value


def _numeric(frame: pd.DataFrame, column: str, *, grade: bool) -> NDArray[np.float64]:
    """A column as finite floats (and >= 0 for grades), or an error naming the first bad row."""
    series = frame[column]
    if pd.api.types.is_bool_dtype(series.dtype) or pd.api.types.is_numeric_dtype(series.dtype):
        values: NDArray[np.float64] = series.to_numpy(dtype=np.float64, na_value=np.nan)
    elif series.dtype.kind in "mM":  # dates and durations are not grades or scores
        fail("bad_column", row=1, column=column, value=str(series.iloc[0]), rule="rule_number")
    else:
        coerced = pd.to_numeric(series, errors="coerce")
        bad = coerced.isna().to_numpy() & series.notna().to_numpy()
        if bad.any():
            row = int(np.argmax(bad))
            fail("bad_column", row=row + 1, column=column, value=_shown(series.iloc[row]), rule="rule_number")
        values = coerced.to_numpy(dtype=np.float64, na_value=np.nan)
    finite = np.isfinite(values)
    if not finite.all():
        row = int(np.argmin(finite))
        raw = series.iloc[row]
        value = _shown(raw) if pd.isna(raw) else float(values[row])
        fail("bad_column", row=row + 1, column=column, value=value, rule="rule_finite")
    if grade:
        negative = values < 0
        if negative.any():
            row = int(np.argmax(negative))
            fail("bad_column", row=row + 1, column=column, value=float(values[row]), rule="rule_grade")
    return values


def _arrow_text_codes(series: pd.Series) -> tuple[NDArray[np.intp], Any] | None:
    """Codes (``int32``, -1 for a missing value) and unique values, in order of first
    appearance, of a text column held by Arrow (what :func:`read_run` gives); ``None`` for
    any other column.

    The same partition as ``pd.factorize``, made chunk by chunk into one ``int32`` array:
    ``pd.factorize`` of an Arrow column joins the chunks' codes, copies them to NumPy and
    widens them to ``intp``, about 20 MiB at once for 1 M rows, which was the peak of an
    evaluation in the server (issue 12); this holds the 4 MiB of the result.
    """
    make = getattr(series.array, "__arrow_array__", None)
    if make is None:
        return None
    import pyarrow as pa

    data = make()
    if isinstance(data, pa.Array):
        data = pa.chunked_array([data])
    if data.num_chunks == 0 or not (pa.types.is_string(data.type) or pa.types.is_large_string(data.type)):
        return None
    encoded = data.dictionary_encode()  # one dictionary for all the chunks, in order of appearance
    codes = np.empty(len(data), dtype=np.int32)
    begin = 0
    for chunk in encoded.chunks:
        indices = chunk.indices.fill_null(-1) if chunk.null_count else chunk.indices
        codes[begin : begin + len(chunk)] = indices.to_numpy(zero_copy_only=False)
        begin += len(chunk)
    dictionary = encoded.chunks[-1].dictionary
    uniques = dictionary.to_pandas(types_mapper={dictionary.type: series.dtype}.get).array
    return cast("NDArray[np.intp]", codes), uniques


def _ids(frame: pd.DataFrame, column: str, *, text: bool = True) -> tuple[NDArray[np.intp], pd.Index | None]:
    """Codes and unique ids (as text) of an id column; only a missing value or an empty
    string is missing.

    Numbers are compared as numbers (cheap), which is the same partition as comparing their
    texts: distinct numbers have distinct texts. In an object column, ``1`` and ``"1"`` are
    one text, hence one id. ``text=False`` skips making the texts of a numeric column.
    """
    series = frame[column]
    arrow = _arrow_text_codes(series)
    if arrow is not None:
        codes, uniques = arrow
    else:
        codes, uniques = pd.factorize(series, sort=False)
        codes = codes.astype(np.intp, copy=False)
    names: NDArray[np.object_] | None = None
    numeric = pd.api.types.is_numeric_dtype(series.dtype) or pd.api.types.is_bool_dtype(series.dtype)
    if numeric:
        if text:
            names = _unique_text(uniques)
    else:
        if pd.api.types.is_object_dtype(series.dtype) or not hasattr(uniques, "dtype"):
            names = _unique_text(uniques)
            merged, unique_names = pd.factorize(names, sort=False)
            names = np.asarray(unique_names, dtype=object)
            codes = np.where(codes >= 0, merged[np.maximum(codes, 0)], -1)
            empty = names == ""
        else:  # a string column (what read_run gives): compared without making objects
            empty = np.asarray(uniques == "", dtype=bool)
            names = uniques if text else None
        if empty.any():
            codes = np.where(empty[np.maximum(codes, 0)], -1, codes)
    missing = codes < 0
    if missing.any():
        row = int(np.argmax(missing))
        fail("bad_column", row=row + 1, column=column, value="a missing value", rule="rule_id")
    if not numeric:
        _refuse_nul(codes, uniques if names is None else names, column)
    return codes, None if names is None else pd.Index(names, dtype="str")


def _refuse_nul(codes: NDArray[np.intp], uniques: Any, column: str) -> None:
    """Refuse an id holding a NUL character (C programs, trec_eval among them, end the id
    there), naming its first row, as ``ndcg_core.trec`` refuses it in qrels and runs. Only the
    unique ids (text, codes index them) are searched, by Arrow, without making objects."""
    import pyarrow as pa
    import pyarrow.compute as pc

    text = pa.array(uniques)
    if pa.types.is_dictionary(text.type):  # categorical ids
        text = text.dictionary_decode()
    if not (pa.types.is_string(text.type) or pa.types.is_large_string(text.type)):
        return  # numbers, dates: no NUL in their text
    nul = pc.match_substring(text, "\x00")
    if pc.any(nul).as_py():
        flags = nul.to_numpy(zero_copy_only=False)
        row = int(np.argmax(flags[codes]))
        fail(
            "bad_column",
            row=row + 1,
            column=column,
            value=text[int(codes[row])].as_py(),
            rule="rule_id_no_nul",
        )


def _descending_text_rank(codes: NDArray[np.intp], names: pd.Index) -> NDArray[np.int64]:
    """Each row's rank of its id in descending string order (0 = the largest id)."""
    order = np.asarray(names.argsort())
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size - 1, -1, -1)
    return rank[codes]


def _repeated_pairs(
    frame: pd.DataFrame, codes: NDArray[np.intp], item: str, *, text: bool = False
) -> tuple[bool, NDArray[np.int64] | None]:
    """Whether a (query, item) pair is repeated; with ``text``, also each row's item rank in
    descending string order (for ``ties="trec_eval"``).

    The pairs are made in the item codes' own array, :data:`BLOCK_ROWS` rows at a time, and
    sorted in place, so the check holds one array of the run's length besides ``codes``
    (issue 12: a table of counts or a sorted copy held two more at the server's peak).
    """
    items, names = _ids(frame, item, text=text)
    n_items = int(items.max()) + 1
    ranks = None if names is None or not text else _descending_text_rank(items, names)
    del names
    pair = items.astype(np.int64, copy=False)
    for begin in range(0, pair.size, BLOCK_ROWS):
        part = slice(begin, begin + BLOCK_ROWS)
        pair[part] += np.multiply(codes[part], n_items, dtype=np.int64)
    pair.sort()
    repeated = bool(np.any(pair[1:] == pair[:-1]))
    return repeated, ranks


def _fail_repeated_pair(frame: pd.DataFrame, codes: NDArray[np.intp], item: str, query: str) -> NoReturn:
    """Name the first repeated (query, item) pair and its rows (only on a run that has one)."""
    items, _ = _ids(frame, item, text=False)
    pair = np.multiply(codes, int(items.max()) + 1, dtype=np.int64)
    pair += items
    duplicated = pd.Series(pair, copy=False).duplicated(keep=False).to_numpy()
    first = int(np.argmax(duplicated))
    rows = np.flatnonzero(pair == pair[first])[:5] + 1
    fail(
        "duplicate_pair",
        item=_shown(frame[item].iloc[first]),
        query=_shown(frame[query].iloc[first]),
        rows=", ".join(map(str, rows)),
    )


def _prepare(
    frame: pd.DataFrame | Source,
    *,
    query: str,
    relevance: str,
    score: str,
    item: str | None,
    ties: str = "average",
) -> _Run:
    """Validate a run and turn it into arrays (the one place the batch path raises)."""
    check_roles(query=query, relevance=relevance, score=score, item=item)
    if not isinstance(frame, pd.DataFrame):
        frame = read_run(frame, ids=(query,) if item is None else (query, item))
    if len(frame) == 0:
        fail("empty_table", what="run")
    _check_columns(frame, (query, relevance, score))
    # The default item column is checked when present; a named one must exist.
    named = item
    if item is not None and item not in frame.columns:
        if item != "item":
            _check_columns(frame, (item,))
        item = None
    if ties == "trec_eval" and item is None:
        fail("ties_needs_item", column=named or "item")
    codes, queries = _ids(frame, query)
    if queries is not None and queries.size < np.iinfo(np.int32).max:
        # the whole run's codes as int32; each block's are made intp again (see _Run)
        codes = cast("NDArray[np.intp]", codes.astype(np.int32, copy=False))
    # The pairs are checked before the grades and scores are made, so that their arrays and
    # the check's are not held at once (the peak of an evaluation); the errors keep their
    # order: a bad grade or score is named before a bad item id or a repeated pair.
    repeated = False
    item_rank = None
    pending: NDCGInputError | None = None
    if item is not None:
        try:
            repeated, item_rank = _repeated_pairs(frame, codes, item, text=ties == "trec_eval")
        except NDCGInputError as err:
            pending = err
    rel = _numeric(frame, relevance, grade=True)
    scores = _numeric(frame, score, grade=False)
    if pending is not None:
        raise pending
    if repeated and item is not None:
        _fail_repeated_pair(frame, codes, item, query)
    return _Run(
        codes=codes,
        queries=pd.Index(queries),
        relevance=rel,
        score=scores,
        item_rank=item_rank,
        relevance_column=relevance,
    )


def check_roles(*, query: str, relevance: str, score: str, item: str | None) -> None:
    """Refuse one column chosen for two roles (``score="relevance"`` would rank a run by its
    own grades: nDCG 1 for every query). Checked by both engines before the data is read.

    >>> check_roles(query="query", relevance="grade", score="grade", item=None)
    Traceback (most recent call last):
    ...
    ndcg_core.validate.NDCGInputError: The column 'grade' is chosen for two roles, relevance and score. ...
    """
    seen: dict[str, str] = {}
    for role, column in (("query", query), ("item", item), ("relevance", relevance), ("score", score)):
        if column is None:
            continue
        if column in seen:
            fail("column_roles", column=column, first=seen[column], second=role)
        seen[column] = role


def _from_options(
    options: Options, k: int | None, gain: Gain, discount: Discount, ties: Ties, no_relevant: NoRelevant
) -> tuple[int | None, Gain, Discount, Ties, NoRelevant]:
    """The five keywords of a one-file evaluation taken from ``options`` (see
    :func:`ndcg_core.options.run_options`); the keywords given too must be their defaults."""
    chosen = run_options(
        engine_options(
            options, Options(), k=k, gain=gain, discount=discount, ties=ties, no_relevant=no_relevant
        )
    )
    return chosen["k"], chosen["gain"], chosen["discount"], chosen["ties"], chosen["no_relevant"]


def _check_options(k: Any, gain: str, discount: str, ties: str, no_relevant: str) -> None:
    check_k(k, 1)
    check_choice(gain, tuple(GAINS), option="gain")
    check_choice(discount, DISCOUNTS, option="discount")
    check_ties(ties)
    check_choice(no_relevant, NO_RELEVANT, option="no_relevant")


# --------------------------------------------------------------------------- kernel


def _order(run: _Run, ties: str, counts: NDArray[np.intp], starts: NDArray[np.intp]) -> NDArray[np.intp]:
    """Row order of the ranking: by query, then score descending, ties as ``ties`` says."""
    return order_by_ties(run.codes, counts, starts, run.score, run.relevance, ties, item_rank=run.item_rank)


@dataclass(frozen=True, slots=True)
class _Terms:
    """Rows in ranked order: query code, 0-based position, DCG and IDCG term of each row."""

    counts: NDArray[np.intp]
    starts: NDArray[np.intp]
    codes: NDArray[np.intp]
    position: NDArray[np.intp]
    weight: NDArray[np.float64]
    dcg: NDArray[np.float64]
    gains: NDArray[np.float64]


def _span(run: _Run, depth: int) -> int:
    """How many discounts the kernel uses on ``run``: ``depth``, or its longest query if shorter.

    The blocks of a run take their discounts from one array of this length, so a block's
    numbers are the same floats as the whole run's (``np.log2`` of an array may differ in the
    last bit with the array's length).
    """
    return min(int(depth), int(_query_counts(run.codes, run.queries.size).max()))


def _query_counts(codes: NDArray[np.intp], n_queries: int) -> NDArray[np.intp]:
    """Rows of each query, counted :data:`BLOCK_ROWS` rows at a time: ``np.bincount`` of the
    whole run's ``int32`` codes would first copy them all as ``intp``."""
    counts = np.zeros(max(n_queries, 1), dtype=np.intp)
    for begin in range(0, codes.size, BLOCK_ROWS):
        counts += np.bincount(codes[begin : begin + BLOCK_ROWS], minlength=counts.size)
    return counts[:n_queries]


def _terms(run: _Run, *, ties: str, gain: Gain, discount: str, depth: int, span: int | None = None) -> _Terms:
    """Each row's discounted gain in the ranking, zero from position ``depth`` on.

    With ``ties="average"`` a tie group (a run of equal (query, score)) gives each of its rows
    the group's mean gain; summed over the group, mean gain * the group's discounts is the
    average DCG over all orders of the tie (McSherry & Najork 2008), also when ``depth`` cuts
    through the group.
    """
    codes = run.codes
    n_rows, n_queries = codes.size, run.queries.size
    counts = np.bincount(codes, minlength=n_queries)
    starts = np.cumsum(counts) - counts
    order = _order(run, ties, counts, starts)
    ranked_codes = codes[order]
    position = np.arange(n_rows) - starts[ranked_codes]
    longest = int(counts.max())
    table = np.zeros(longest)
    cut = min(depth, longest)
    table[:cut] = discounts(cut if span is None else span, discount)[:cut]
    weight = table[position]
    del table
    gains = _gain_values(run.relevance, gain)  # checked for the whole run by _check_gains
    ranked = gains[order]
    if ties == "average":
        ranked_scores = run.score[order]
        new = np.empty(n_rows, dtype=bool)
        new[0] = True
        np.not_equal(ranked_scores[1:], ranked_scores[:-1], out=new[1:])
        del ranked_scores
        new[1:] |= ranked_codes[1:] != ranked_codes[:-1]
        if not new.all():
            first = np.flatnonzero(new)
            sizes = np.diff(np.append(first, n_rows))
            ranked = np.repeat(np.add.reduceat(ranked, first) / sizes, sizes)
        del new
    del order
    ranked *= weight
    return _Terms(
        counts=counts,
        starts=starts,
        codes=ranked_codes,
        position=position,
        weight=weight,
        dcg=ranked,
        gains=gains,
    )


def _gain_values(relevance: NDArray[np.float64], gain: Gain) -> NDArray[np.float64]:
    """Each row's gain, unchecked (the run's gains were checked by :func:`_check_gains`)."""
    with np.errstate(over="ignore"):
        values: NDArray[np.float64] = GAINS[gain](relevance)
    return values


def _check_gains(run: _Run, gain: Gain) -> None:
    """Refuse a gain, or a query's sum of gains, that is not finite (naming the row), so no
    DCG, IDCG or nDCG can be inf or nan (:func:`ndcg_core.gains.first_overflow`).

    The gains are made :data:`BLOCK_ROWS` rows at a time (the first infinite gain in row
    order is the first found), so the check holds no array of the run's length; only when the
    gains of the whole run add up to infinity are they made at once, to find the query.
    """
    rel = run.relevance
    total = 0.0
    for begin in range(0, rel.size, BLOCK_ROWS):
        part = _gain_values(rel[begin : begin + BLOCK_ROWS], gain)
        finite = np.isfinite(part)
        if not finite.all():
            index = begin + int(np.argmin(finite))
            fail("gain_overflow_row", row=index + 1, column=run.relevance_column, value=float(rel[index]))
        with np.errstate(over="ignore"):
            total += float(np.abs(part).sum())
    if np.isfinite(total):
        return
    # The sum of all rows overflows; does a query's? (Queries are summed apart.)
    gains = _gain_values(rel, gain)
    with np.errstate(over="ignore"):
        sums = np.bincount(run.codes, weights=gains, minlength=run.queries.size)
    bad = ~np.isfinite(sums)
    if not bad.any():
        return
    code = int(np.argmax(bad))
    rows = np.flatnonzero(run.codes == code)
    found = first_overflow(gains[rows])
    # this query's sum is not finite, so its gains overflow somewhere: found is never None
    index = int(rows[found[0] if found is not None else 0])
    fail("sum_overflow_query", query=str(run.queries[code]), row=index + 1, value=float(rel[index]))


#: Rows of a block of the kernel. The ranking and every per-row array are made for one block
#: of whole queries at a time, so the working memory of an evaluation is a few arrays of this
#: length (about 1 MiB each) on top of the run itself, whatever the run's length. A query
#: longer than this is a block of its own.
BLOCK_ROWS = 1 << 15


def _blocks(run: _Run, *, extra: int = 0) -> Iterator[tuple[int, _Run]]:
    """The run as consecutive blocks of whole queries: ``(first query code, block)``.

    A block is a :class:`_Run` of its own (codes from 0, its queries' rows in input order), so
    the kernel computes the same per-query numbers on it as on the whole run. Each query
    costs its rows plus ``extra`` (the cells of a per-query table the caller makes), and a
    block holds queries up to :data:`BLOCK_ROWS` of cost (at least one query). When the
    rows are grouped by query a block's arrays are views; else one stable sort by query
    gathers them (input order kept inside a query).
    """
    codes = run.codes
    n_rows, n_queries = codes.size, run.queries.size
    if n_rows + extra * n_queries <= BLOCK_ROWS:
        yield 0, run if codes.dtype == np.intp else replace(run, codes=codes.astype(np.intp))
        return
    counts = _query_counts(codes, n_queries)
    row_end = np.cumsum(counts)
    cost_end = row_end + extra * np.arange(1, n_queries + 1)
    grouped = bool(np.all(codes[1:] >= codes[:-1]))
    by_query = None if grouped else np.argsort(codes, kind="stable")
    first = 0
    while first < n_queries:
        begin = int(row_end[first - 1]) if first else 0
        spent = int(cost_end[first - 1]) if first else 0
        stop = max(int(np.searchsorted(cost_end, spent + BLOCK_ROWS, side="right")), first + 1)
        end = int(row_end[stop - 1])
        rows: slice | NDArray[np.intp] = slice(begin, end) if by_query is None else by_query[begin:end]
        yield (
            first,
            _Run(
                codes=codes[rows].astype(np.intp) - first,
                queries=run.queries[first:stop],
                relevance=run.relevance[rows],
                score=run.score[rows],
                item_rank=None if run.item_rank is None else run.item_rank[rows],
                relevance_column=run.relevance_column,
            ),
        )
        first = stop


def _ideal_terms(run: _Run, terms: _Terms) -> NDArray[np.float64]:
    """Each position's discounted gain in the ideal ranking (grades sorted descending)."""
    ideal = rank_order(run.codes, terms.counts, terms.starts, run.relevance)
    out = terms.gains[ideal]
    out *= terms.weight
    return out


def _grade_levels(run: _Run) -> int | None:
    """``max grade + 1`` when :func:`_idcg` counts the grades of ``run`` instead of sorting
    them (whole numbers below 256, and a (query, grade) table no larger than about 4 rows a
    cell), else ``None``. Decided once for the whole run, so every block takes the same path
    and gives the same floats. Checked :data:`BLOCK_ROWS` rows at a time."""
    rel = run.relevance
    top = float(rel.max())
    if top >= 256:
        return None
    for begin in range(0, rel.size, BLOCK_ROWS):
        part = rel[begin : begin + BLOCK_ROWS]
        if not np.array_equal(part.astype(np.int64), part):
            return None
    levels = int(top) + 1
    return None if run.queries.size * levels > 4 * run.codes.size + 1024 else levels


def _idcg(
    run: _Run,
    terms: _Terms,
    *,
    gain: str,
    discount: str,
    depth: int,
    span: int | None = None,
    levels: int | None,
) -> NDArray[np.float64]:
    """IDCG@depth of every query.

    Whole-number grades below 256 are counted instead of sorted: the ideal list of a query
    holds its grade-g items at the positions after all higher grades, so IDCG is, per grade,
    gain(g) times the sum of the discounts over that range (a difference of prefix sums),
    added from the highest grade down. ``levels`` is :func:`_grade_levels` of the whole run
    (``None``: sort); a block with more (query, grade) cells than 4 times
    :data:`BLOCK_ROWS` is sorted instead, to bound its memory.
    """
    n_queries = run.queries.size
    cells = n_queries * (levels or 0)
    if levels is None or (cells > 4 * BLOCK_ROWS + 1024 and cells > 4 * run.codes.size + 1024):
        return np.add.reduceat(_ideal_terms(run, terms), terms.starts)
    grades = run.relevance.astype(np.int64)
    per_grade = np.bincount(run.codes * levels + grades, minlength=n_queries * levels)
    del grades
    per_grade = per_grade.reshape(n_queries, levels)[:, ::-1]  # highest grade first
    end = np.cumsum(per_grade, axis=1)
    begin = end - per_grade
    del per_grade
    longest = int(terms.counts.max())
    cut = min(depth, longest)
    prefix = np.zeros(longest + 1)
    np.cumsum(discounts(cut if span is None else span, discount)[:cut], out=prefix[1 : cut + 1])
    prefix[cut + 1 :] = prefix[cut]
    values = apply_gain(np.arange(levels - 1, -1, -1, dtype=np.float64), gain)
    # grade by grade, highest first: the same additions whatever the number of queries
    ideal = np.zeros(n_queries)
    for column, value in enumerate(values):
        ideal += (prefix[end[:, column]] - prefix[begin[:, column]]) * value
    return ideal


def _block_curve(
    run: _Run, *, ties: str, gain: Gain, discount: str, depth: int, span: int
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """nDCG@1..depth of every query of ``run`` (a block), one row per query (0 when nothing
    is relevant), and which queries have something relevant.

    Each row's discounted gain is added into a (query, position) table of ``depth`` columns;
    its cumulative sums along the positions are DCG@1, DCG@2, ... (the same for IDCG).
    """
    terms = _terms(run, ties=ties, gain=gain, discount=discount, depth=depth, span=span)
    n_queries = run.queries.size
    kept = terms.position < depth
    cell = terms.codes[kept].astype(np.int64) * depth + terms.position[kept]
    size = n_queries * depth
    # bincount with weights returns float64 (numpy's stubs say intp); asarray is a no-op here.
    dcg = np.asarray(np.bincount(cell, weights=terms.dcg[kept], minlength=size), dtype=np.float64)
    idcg = np.asarray(
        np.bincount(cell, weights=_ideal_terms(run, terms)[kept], minlength=size), dtype=np.float64
    )
    del cell, kept, terms
    dcg = dcg.reshape(n_queries, depth)
    idcg = idcg.reshape(n_queries, depth)
    np.cumsum(dcg, axis=1, out=dcg)
    np.cumsum(idcg, axis=1, out=idcg)
    return _ratio(dcg, idcg, "zero"), idcg[:, -1] > 0


def _ratio(dcg: NDArray[np.float64], idcg: NDArray[np.float64], no_relevant: str) -> NDArray[np.float64]:
    fill = 0.0 if no_relevant == "zero" else np.nan
    out = np.full(dcg.shape, fill)
    np.divide(dcg, idcg, out=out, where=idcg > 0)
    return out


# --------------------------------------------------------------------------- public API


def evaluate(
    frame: pd.DataFrame | Source,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    ties: Ties = "average",
    no_relevant: NoRelevant = "zero",
    options: Options | None = None,
    query: str = "query",
    relevance: str = "relevance",
    score: str = "score",
    item: str | None = "item",
) -> pd.DataFrame:
    """nDCG@k of every query of a run in long format (one row per (query, item)).

    For each query, items are ranked by score descending; DCG@k = sum over positions
    i = 1..k of gain(rel_i) * discount(i); IDCG@k is the DCG@k of the query's grades sorted
    descending; nDCG@k = DCG@k / IDCG@k. With the defaults the numbers equal scikit-learn's
    ``ndcg_score([rel], [score], k=k)`` on each query's own list.

    Parameters
    ----------
    frame : pandas.DataFrame, or a path / file-like object of a CSV or Parquet file
        One row per retrieved item: query id, relevance grade (graded or 0/1), score.
    k : int, optional
        Cutoff; ``None`` or a value above a query's length means that query's whole list.
    gain : {"linear", "exponential"}
        ``rel`` or ``2**rel - 1``.
    discount : {"log2", "jarvelin"}
        ``1 / log2(i + 1)``, or Järvelin & Kekäläinen's (no discount before position 2).
    ties : {"average", "optimistic", "pessimistic", "input", "trec_eval"}
        How tied scores are ranked (see the module's docstring): ``"input"`` keeps the input
        order of a tie, ``"trec_eval"`` puts the larger item id (as a string) first and needs
        the item column. ``"ignore"`` is refused (single lists only).
    no_relevant : {"zero", "drop"}
        nDCG of a query with nothing relevant: 0 (counted in the mean) or NaN (left out).
    options : Options, optional
        The five options above as one :class:`ndcg_core.options.Options` (one cutoff at most;
        its qrels-only options left at their defaults), instead of the keywords: a keyword
        that differs from its default is then refused.
    query, relevance, score : str
        Column names.
    item : str or None
        Item id column: when present, a (query, item) pair may appear only once. The default
        ``"item"`` is used only if the table has it; another name must exist. ``None`` skips
        the check.

    Returns
    -------
    pandas.DataFrame
        One row per query, in order of first appearance, with the columns
        ``query, n_items, dcg, idcg, ndcg``. ``ndcg.mean()`` is the system's score.

    Raises
    ------
    NDCGInputError
        On an unknown option or invalid ``k``; a missing column; an empty table; a missing,
        non-numeric or infinite relevance or score, or a negative grade (naming the row); a
        grade whose gain, or a query whose sum of gains, is not finite; a repeated
        (query, item) pair; an unreadable file.

    >>> run = pd.DataFrame({"query": ["a"] * 5 + ["b"] * 2,
    ...                     "relevance": [3, 2, 0, 0, 1, 0, 1],
    ...                     "score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.3, 0.3]})
    >>> evaluate(run)[["query", "n_items", "ndcg"]].round(4).to_dict("list")
    {'query': ['a', 'b'], 'n_items': [5, 2], 'ndcg': [0.9762, 0.8155]}
    """
    if options is not None:
        k, gain, discount, ties, no_relevant = _from_options(options, k, gain, discount, ties, no_relevant)
    _check_options(k, gain, discount, ties, no_relevant)
    run = _prepare(frame, query=query, relevance=relevance, score=score, item=item, ties=ties)
    return _per_query(run, k=k, gain=gain, discount=discount, ties=ties, no_relevant=no_relevant)


def _per_query(
    run: _Run, *, k: int | None, gain: Gain, discount: str, ties: str, no_relevant: str
) -> pd.DataFrame:
    depth = run.codes.size if k is None else int(k)
    _check_gains(run, gain)
    span = _span(run, depth)
    levels = _grade_levels(run)
    n_queries = run.queries.size
    counts = np.empty(n_queries, dtype=np.int64)
    dcg = np.empty(n_queries)
    idcg = np.empty(n_queries)
    for first, block in _blocks(run):
        terms = _terms(block, ties=ties, gain=gain, discount=discount, depth=depth, span=span)
        part = slice(first, first + block.queries.size)
        counts[part] = terms.counts
        # Rows are grouped by query in ranked order, so a query's sum is one reduceat segment.
        dcg[part] = np.add.reduceat(terms.dcg, terms.starts)
        idcg[part] = _idcg(block, terms, gain=gain, discount=discount, depth=depth, span=span, levels=levels)
        del terms
    return pd.DataFrame(
        {
            "query": run.queries,
            "n_items": counts,
            "dcg": dcg,
            "idcg": idcg,
            "ndcg": _ratio(dcg, idcg, no_relevant),
        }
    )


def ndcg_bands(per_query: pd.DataFrame, *, width: float = 0.05) -> pd.DataFrame:
    """How many queries fall in each nDCG band [start, start + width), the last one closed.

    The histogram of a run, counted here so that a chart draws one bar per band instead of
    receiving one value per query (a run of 100,000 queries is 20 rows). Queries whose nDCG
    is undefined (NaN, left out of the mean) are not counted.

    >>> table = pd.DataFrame({"ndcg": [0.0, 0.04, 0.05, 0.99, 1.0, float("nan")]})
    >>> bands = ndcg_bands(table, width=0.25)
    >>> bands.to_dict("list")
    {'start': [0.0, 0.25, 0.5, 0.75], 'end': [0.25, 0.5, 0.75, 1.0], 'count': [3, 0, 0, 2]}
    """
    _check_columns(per_query, ("ndcg",))
    if not (isinstance(width, (int, float)) and 0 < width <= 1 and (1 / width) % 1 < 1e-9):
        fail("shape", what="band_width", rule="rule_band_width", got=repr(width))
    n = round(1 / width)
    values = per_query["ndcg"].to_numpy(dtype=np.float64)
    values = values[np.isfinite(values)]
    # band i holds [i/n, (i+1)/n); 1.0 (and the float noise just above it) goes in the last band
    index = np.clip(np.floor(values * n + 1e-9).astype(np.int64), 0, n - 1)
    edges = np.arange(n + 1) / n
    return pd.DataFrame(
        {"start": edges[:-1], "end": edges[1:], "count": np.bincount(index, minlength=n).astype(np.int64)}
    )


def summarize(per_query: pd.DataFrame, *, no_relevant: NoRelevant = "zero") -> RunSummary:
    """Mean nDCG of a per-query table and the count of queries with nothing relevant.

    >>> table = pd.DataFrame({"query": ["a", "b"], "n_items": [2, 2], "dcg": [1.0, 0.0],
    ...                       "idcg": [1.0, 0.0], "ndcg": [1.0, 0.0]})
    >>> summarize(table)
    RunSummary(mean=0.5, n_queries=2, n_no_relevant=1, n_in_mean=2)
    >>> summarize(table, no_relevant="drop")
    RunSummary(mean=1.0, n_queries=2, n_no_relevant=1, n_in_mean=1)
    """
    check_choice(no_relevant, NO_RELEVANT, option="no_relevant")
    _check_columns(per_query, ("idcg", "ndcg"))
    relevant = per_query["idcg"].to_numpy(dtype=np.float64) > 0
    values = np.where(relevant, per_query["ndcg"].to_numpy(dtype=np.float64), 0.0)
    if no_relevant == "drop":
        values = values[relevant]
    mean = float(values.mean()) if values.size else float("nan")
    return RunSummary(
        mean=mean,
        n_queries=int(relevant.size),
        n_no_relevant=int(relevant.size - relevant.sum()),
        n_in_mean=int(values.size),
    )


def evaluate_run(
    frame: pd.DataFrame | Source,
    *,
    k: int | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    ties: Ties = "average",
    no_relevant: NoRelevant = "zero",
    options: Options | None = None,
    query: str = "query",
    relevance: str = "relevance",
    score: str = "score",
    item: str | None = "item",
) -> RunResult:
    """:func:`evaluate` and :func:`summarize` at once: the per-query table and the mean.

    >>> run = pd.DataFrame({"query": ["a", "a", "b", "b"], "relevance": [1, 0, 0, 0],
    ...                     "score": [2, 1, 2, 1]})
    >>> result = evaluate_run(run, no_relevant="drop")
    >>> result.mean, result.n_queries, result.n_no_relevant, result.n_in_mean
    (1.0, 2, 1, 1)
    >>> evaluate_run(run, options=Options(no_relevant="drop")).mean
    1.0
    """
    if options is not None:
        k, gain, discount, ties, no_relevant = _from_options(options, k, gain, discount, ties, no_relevant)
    per_query = evaluate(
        frame,
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        no_relevant=no_relevant,
        query=query,
        relevance=relevance,
        score=score,
        item=item,
    )
    return RunResult.summarized(
        per_query, k=k, gain=gain, discount=discount, ties=ties, no_relevant=no_relevant
    )


def mean_ndcg_at_ks(
    frame: pd.DataFrame | Source,
    *,
    ks: Iterable[int] = range(1, 21),
    gain: Gain = "linear",
    discount: Discount = "log2",
    ties: Ties = "average",
    no_relevant: NoRelevant = "zero",
    query: str = "query",
    relevance: str = "relevance",
    score: str = "score",
    item: str | None = "item",
) -> pd.DataFrame:
    """Mean nDCG@k of a run for several cutoffs, from one ranking of the rows.

    Each row's discounted gain is added into a (query, position) table of ``max(ks)``
    columns; its cumulative sums along the positions are DCG@1, DCG@2, ... of every query
    (the same for IDCG), so every cutoff costs one column. The queries are taken one block
    at a time (:data:`BLOCK_ROWS` rows and table cells), so the working memory does not grow
    with the run; the means add the queries' values in the run's order, as one table would.

    Returns
    -------
    pandas.DataFrame
        Columns ``k`` and ``ndcg`` (the mean over the queries, as :func:`summarize` takes it),
        one row per cutoff in the order given.

    >>> run = pd.DataFrame({"query": ["a"] * 5, "relevance": [3, 2, 0, 0, 1],
    ...                     "score": [5, 4, 3, 2, 1]})
    >>> mean_ndcg_at_ks(run, ks=[1, 5]).round(4).to_dict("list")
    {'k': [1, 5], 'ndcg': [1.0, 0.9762]}
    """
    cutoffs = [check_k(value, 1) and int(value) for value in ks]
    if not cutoffs:
        fail("k_invalid", got="an empty list of cutoffs")
    _check_options(cutoffs[0], gain, discount, ties, no_relevant)
    run = _prepare(frame, query=query, relevance=relevance, score=score, item=item, ties=ties)
    depth = max(cutoffs)
    _check_gains(run, gain)
    # Column sums of the queries' nDCG@1..depth, added query after query (as a mean over
    # axis 0 adds them), one block of queries at a time.
    total = np.zeros((1, depth))
    n_in_mean = 0
    span = _span(run, depth)
    for _, block in _blocks(run, extra=depth):
        values, relevant = _block_curve(
            block, ties=ties, gain=gain, discount=discount, depth=depth, span=span
        )
        if no_relevant == "drop":
            values = values[relevant]
        n_in_mean += values.shape[0]
        total = np.add.reduce(np.concatenate((total, values)), axis=0, keepdims=True)
    means = total[0] / n_in_mean if n_in_mean else np.full(depth, np.nan)
    return pd.DataFrame({"k": np.asarray(cutoffs, dtype=np.int64), "ndcg": means[np.asarray(cutoffs) - 1]})
