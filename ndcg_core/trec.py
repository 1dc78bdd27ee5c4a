"""Evaluation the IR way: relevance judgments (qrels) apart from the runs, TREC files, judged pools.

A *qrels* table holds the judgments: one row per (query, item) with its relevance grade. A
*run* holds what a system retrieved: one row per (query, item) with its score, no grades. The
grade of a retrieved item is looked up in the qrels; an item the qrels do not grade is
*unjudged*. :func:`evaluate_trec` computes nDCG@k of every (run, query) for one or several
cutoffs at once.

Files (:func:`read_qrels`, :func:`read_trec_run`) are TREC text (``query iter doc grade`` and
``query Q0 doc rank score tag``, fields separated by any run of spaces or tabs), or CSV / Parquet
with the columns ``query, item, relevance`` / ``query, item, score``; gzip-compressed or not. The
kind is recognised from the content (gzip's and Parquet's magic bytes; a first line with commas
is CSV), never from the file name. Ids are text, exactly as written (``007`` stays ``007``).
The rank column of a TREC run is ignored, as trec_eval ignores it: the order is the score's.

The defaults are trec_eval's conventions, so the default number equals
``trec_eval -c -m ndcg_cut.10 qrels run``:

- ``ties="trec_eval"``: score descending, then item id descending as a string (byte order).
  trec_eval 9 and earlier (and pytrec_eval, built on it) keep scores as 32-bit floats, so two
  scores that differ only beyond float32's precision (about 7 significant digits) tie there
  and not here; trec_eval 10 reads them as doubles, as this module does.
- ``ideal="pool"``: IDCG from every judged item of the query, retrieved or not.
  ``ideal="list"`` takes it from the returned list's own grades (unjudged items as 0), as
  scikit-learn's ``ndcg_score`` would on that list.
- ``unjudged="zero"``: an unjudged retrieved item has gain 0. ``"drop"`` removes the unjudged
  items and closes up the list: the condensed list of Sakai's nDCG' (2007), ``trec_eval -J``.
- ``missing="zero"``: a judged query the run does not answer counts as nDCG 0 in the mean
  (``trec_eval -c``). ``"drop"`` leaves it out, as pytrec_eval (which has no ``-c``) does.
- ``no_relevant="zero"``: a judged query with nothing relevant (IDCG = 0) counts as 0, as in
  trec_eval; ``"drop"`` leaves it out of the mean (its nDCG is NaN in the per-query table).
- A negative grade (−1, −2 in many TREC qrels) is handled as trec_eval handles it: the item is
  in the pool but not judged. Its gain is 0 in DCG and in the ideal, ``unjudged="drop"``
  removes it, and it does not count as judged in ``judged@k``.
- Queries of a run without any judgment are left out and reported
  (:attr:`TrecResult.unjudged_queries`), as trec_eval leaves them out.
- ``judged@k`` is the share of the first ``min(k, n)`` retrieved items (of the whole list,
  before ``unjudged="drop"``) that have a judgment, as ir_measures' ``Judged@k`` computes it
  since 0.3.1 (``judged_provider.py``: a run shorter than the cutoff divides by its length).
  ir_measures breaks tied scores by document id ascending, so at a cutoff that splits a tie
  it may count other items.

Repeated pairs: trec_eval refuses a run or qrels that names a (query, document) pair twice
("duplicate docs"). A run with a repeated pair is refused here too, naming both lines. In the
qrels, a pair graded twice with *different* grades is refused; the same grade written twice is
kept once (it cannot change any number; trec_eval would still refuse it, and pytrec_eval's
``parse_qrel`` silently keeps the last grade).

>>> import pandas as pd
>>> qrels = pd.DataFrame({"query": ["q1", "q1", "q1", "q2"], "item": ["a", "b", "c", "d"],
...                       "relevance": [3, 2, 0, 1]})
>>> run = pd.DataFrame({"query": ["q1", "q1", "q1"], "item": ["b", "x", "a"],
...                     "score": [0.9, 0.8, 0.7]})
>>> result = evaluate_trec(qrels, {"bm25": run}, k=3)  # DCG = 2 + 0 + 3/log2(4); IDCG = 3 + 2/log2(3)
>>> result.per_query[["query", "n_items", "ndcg@3", "judged@3", "missing"]].round(4).to_dict("list")
{'query': ['q1', 'q2'], 'n_items': [3, 0], 'ndcg@3': [0.8212, 0.0], 'judged@3': [0.6667, nan], 'missing': [False, True]}
>>> result.means.round(4).to_dict("records")
[{'run': 'bm25', 'n_queries': 2, 'ndcg@3': 0.4106, 'judged@3': 0.6667}]
"""

from __future__ import annotations

import itertools
import mmap
import os
import re
import stat
import sys
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal, NoReturn

import numpy as np
from numpy.typing import NDArray

from .discounting import Discount, discounts
from .gains import GAINS, Gain, first_overflow
from .options import (
    TREC_DEFAULTS,
    BatchTies,
    Grades,
    Ideal,
    Missing,
    NoRelevant,
    Options,
    Unjudged,
    engine_options,
    measure_columns,
)
from .ordering import order_by_ties, rank_order
from .validate import check_choice, fail

if TYPE_CHECKING:
    import pandas as pd

    from .significance import Comparison

# pandas (and the batch engine, which is built on it) are imported by the functions that read
# CSV, Parquet or DataFrames, and by the result's tables on first access: a TREC text file
# evaluated into a report never loads them (about 0.25 s of a command's start).

__all__ = [
    "GZIP_RATIO",
    "INPUT_FORMATS",
    "MAX_ID_BYTES",
    "MAX_TEXT_SIZE",
    "InputFormat",
    "TrecResult",
    "evaluate_trec",
    "read_qrels",
    "read_trec_run",
    "run_name",
]

#: A TREC file: a path, a binary stream or its bytes (read as bytes: a text stream is not one;
#: the one-file engine's :data:`ndcg_core.batch.Source` also takes text).
ByteSource = str | os.PathLike[str] | IO[bytes] | bytes

#: How a qrels or run file is read: decided from its first line (``"auto"``), or forced.
#: Parquet is recognised by its magic bytes whatever the choice.
InputFormat = Literal["auto", "trec", "csv"]
INPUT_FORMATS: tuple[InputFormat, ...] = ("auto", "trec", "csv")

#: A file's text: bytes, or a file mapped into memory (sliced, searched and parsed in place).
Text = bytes | mmap.mmap

#: Suffixes taken off a file name to name its run (``bm25.run.gz`` is the run ``bm25``).
_RUN_SUFFIXES = (".gz", ".txt", ".trec", ".run", ".res", ".tsv", ".csv", ".parquet", ".pq")


# --------------------------------------------------------------------------- reading


def _label(source: Any, name: str | None) -> str:
    if name is not None:
        return str(name)
    if isinstance(source, (str, os.PathLike)):
        return Path(source).name
    return str(getattr(source, "name", "upload"))


#: The most bytes of text read from one file whose size is not its own: a gzip file's text
#: once decompressed, or what a pipe, a device or an upload stream delivers (a plain file is
#: mapped at its own size). 2 GiB is about 45 million lines of a TREC run, several times the
#: largest runs of TREC's tracks, and an amount of memory a laptop still has.
MAX_TEXT_SIZE = 2 << 30

#: A gzip file may expand to at most this many times its own size: real TREC files compress
#: 4-6 times, a "gzip bomb" (a small file of repeated bytes) about 1000 times.
GZIP_RATIO = 20

#: The longest id (query or document) read, in bytes of UTF-8: far beyond any collection's
#: (TREC docnos are tens of bytes, URLs a few hundred).
MAX_ID_BYTES = 1000

#: Bytes read from a stream at a time.
_CHUNK = 1 << 20


def _read_stream(handle: Any, label: str, limit: int) -> bytes:
    """What a pipe, a device or an upload stream delivers, at most ``limit`` bytes: one byte
    more is read to tell a stream of exactly ``limit`` bytes from a longer one, then refused."""
    parts: list[bytes] = []
    total = 0
    while True:
        chunk = handle.read(min(_CHUNK, limit + 1 - total))
        if not chunk:
            break
        part = chunk.encode("utf-8") if isinstance(chunk, str) else bytes(chunk)
        parts.append(part)
        total += len(part)
        if total > limit:
            fail("stream_too_large", name=label, limit=limit)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def _gunzip(data: Text, label: str, max_size: int) -> bytes:
    """The text of a gzip file (of one or more members), decompressed as a stream and refused
    as soon as it passes ``GZIP_RATIO`` times the file's size or ``max_size``: at most one
    byte more than the limit is ever decompressed."""
    by_ratio = GZIP_RATIO * len(data)
    limit = min(by_ratio, max_size)
    parts: list[bytes] = []
    total = 0
    pending: Any = memoryview(data)
    try:
        while len(pending):
            inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)  # a gzip header and trailer
            while not inflater.eof:
                part = inflater.decompress(pending, limit + 1 - total)
                parts.append(part)
                total += len(part)
                if total > limit:
                    if limit == max_size and max_size < by_ratio:
                        fail("gzip_too_large", name=label, limit=max_size)
                    fail("gzip_ratio", name=label, ratio=GZIP_RATIO, size=len(data), limit=by_ratio)
                pending = inflater.unconsumed_tail
                if not part and not len(pending):
                    raise EOFError("Compressed file ended before the end-of-stream marker was reached")
            pending = inflater.unused_data
            if pending.strip(b"\x00") == b"":  # zeros after the last member (as gzip allows)
                break
            if pending[:2] != b"\x1f\x8b":
                raise OSError("Not a gzipped file: unexpected bytes after the compressed data")
    except (OSError, EOFError, zlib.error) as error:
        fail("unreadable", name=label, kind="gzip", reason=" ".join(str(error).split())[:300])
    return parts[0] if len(parts) == 1 else b"".join(parts)


def _load(source: ByteSource, label: str, max_size: int = MAX_TEXT_SIZE) -> Text:
    """The bytes of a file, path or upload, gunzipped when they start with gzip's magic bytes.

    A plain file named by its path is mapped into memory rather than read: the parser reads
    the pages of the operating system's cache in place, with no copy of a file of hundreds of
    megabytes (and none of the page faults of a fresh buffer that size). A path that is not a
    plain file (a pipe, ``/dev/zero``) and a file-like upload are read up to ``max_size``
    bytes; a gzip file's text up to ``max_size`` and ``GZIP_RATIO`` times its size."""
    data: Text
    try:
        if isinstance(source, bytes):
            data = source
        elif isinstance(source, (str, os.PathLike)):
            with open(source, "rb") as handle:
                if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                    data = _read_stream(handle, label, max_size)
                elif os.fstat(handle.fileno()).st_size == 0:
                    data = b""
                else:
                    try:
                        data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
                    except (ValueError, OSError):  # a file system without mmap: read as bytes
                        data = _read_stream(handle, label, max_size)
        else:
            data = _read_stream(source, label, max_size)
    except FileNotFoundError:
        fail("file_missing", name=label)
    except OSError as error:
        fail("unreadable", name=label, kind="TREC", reason=" ".join(str(error).split())[:300])
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data, label, max_size)
    if data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    return data


def _bytes(data: Text) -> bytes:
    """The text as ``bytes`` (a copy of a mapped file): for the slow paths and messages."""
    return data if isinstance(data, bytes) else bytes(data)


def _first_line(data: Text) -> bytes:
    """The first line that is neither blank nor a TREC comment (so a comment with commas
    above a TREC file does not make it a CSV file)."""
    for line in data[: 1 << 16].splitlines():
        if line.strip() and not line.lstrip(b" \t").startswith(b"#"):
            return line
    return b""


#: A comment line of a TREC file: its first non-blank character is ``#``. Only the line's
#: text is matched, so the line stays (blank) and every later line keeps its number.
_COMMENT = re.compile(rb"(^|[\r\n])[ \t]*#[^\r\n]*")


def _without_comments(data: Text) -> Text:
    """The text with every comment line made blank (blank lines are skipped by the parser and
    by the line counts of messages); unchanged, and not copied, when it holds no ``#``.

    trec_eval 10 skips comment lines too (its qrels reader only some of them).

    >>> _without_comments(b"# judged in 2024\\n1 0 d 1\\n  # x\\r\\n1 0 #e 0\\n")
    b'\\n1 0 d 1\\n\\r\\n1 0 #e 0\\n'
    """
    if data.find(b"#") < 0:
        return data
    return _COMMENT.sub(rb"\1", data)


def _is_csv(data: Text) -> bool:
    """Whether a file (not Parquet) is CSV, from the structure of its first line that is
    neither blank nor a comment: split on spaces and tabs into 4 fields (qrels) or 6 and more
    (a run) it is TREC, even with commas in an id, a tag or a score (``<dbpedia:Paris,_Texas>``,
    ``bm25,k1=0.9``, ``0,9``); a header such as ``query, item, score, tag`` (each field but
    the last ending with its comma) stays CSV. Any other line is CSV when it holds a comma.

    >>> _is_csv(b"e Q0 <dbpedia:Paris,_Texas> 1 2.0 r\\n"), _is_csv(b"query,item,score\\n")
    (False, True)
    >>> _is_csv(b"query, item, score, tag\\n"), _is_csv(b"q1 0 d 1\\n")
    (True, False)
    """
    line = _first_line(data)
    fields = line.split()
    if len(fields) == 4 or len(fields) >= 6:
        return all(field.endswith(b",") for field in fields[:-1])
    return b"," in line


def _is_frame(value: Any) -> bool:
    """Whether ``value`` is a pandas DataFrame, without importing pandas (a program that never
    imported it holds none)."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(value, pd.DataFrame)


def _check_file_columns(frame: pd.DataFrame, names: tuple[str, ...], label: str) -> None:
    """The columns a qrels or run file read as CSV or Parquet needs, refused naming the file."""
    for column in names:
        if column not in frame.columns:
            shown = ", ".join(repr(str(c)) for c in list(frame.columns)[:20])
            if len(frame.columns) > 20:
                shown += ", ..."
            fail(
                "file_missing_column",
                name=label,
                column=column,
                columns=shown or "(none)",
                needed=", ".join(names),
            )


def _normalized(data: Text) -> bytes:
    """The text with every run of spaces made one space and none at a line's ends, so that a
    one-character delimiter splits it (the slow path, for files whose fields are padded)."""
    data = re.sub(rb" +", b" ", data)
    return re.sub(rb"(?m)^ | (?=\r?$)", b"", data)


def _cut(data: bytes, n_fields: int) -> bytes | None:
    """The (normalised) text with every field after the ``n_fields``-th taken off its line, or
    None when no line has more. trec_eval reads a run's first six fields and ignores the rest
    of the line ("Any field following run_id is ignored", get_trec_results.c): its own test
    file ``results.trunc`` has text there.

    >>> _cut(b"q Q0 d 1 2.5 r note 7\\nq Q0 e 2 1 r\\r\\n", 6)
    b'q Q0 d 1 2.5 r\\nq Q0 e 2 1 r\\r\\n'
    """
    pattern = re.compile(rb"(?m)^((?:[^ \r\n]+ ){%d}[^ \r\n]+) [^\r\n]*" % (n_fields - 1))
    cut, count = pattern.subn(rb"\1", data)
    return cut if count else None


def _lines(data: bytes) -> list[tuple[int, list[bytes]]]:
    """(line number, fields) of every non-blank line: the slow path, for messages only."""
    out = []
    for number, line in enumerate(data.splitlines(), start=1):
        fields = line.split()
        if fields:
            out.append((number, fields))
    return out


def _text(value: bytes) -> str:
    return value.decode("utf-8", errors="replace")


def _line_of_row(data: Text, row: int) -> tuple[int, list[bytes]]:
    """The line number and fields of the ``row``-th (0-based) non-blank line."""
    seen = -1
    for number, line in enumerate(_bytes(data).splitlines(), start=1):
        fields = line.split()
        if fields:
            seen += 1
            if seen == row:
                return number, fields
    return row + 1, []


#: Bytes of text per block of pyarrow's parser (each block a chunk, parsed in parallel).
_BLOCK_SIZE = 1 << 24

#: The TERMS key of the numeric field of each kind of TREC file.
_FIELD_TERM = {"qrels": "field_grade", "run": "field_score"}


def _parse(
    data: Text, *, n_fields: int, number_field: int, keep: tuple[int, ...], dictionary: bool = True
) -> Any:
    """pyarrow's multithreaded CSV reader on one space (no quoting, ids as text).

    With ``dictionary`` the first field (the query) is read as a dictionary column, its
    chunks' dictionaries then unified: the parser hands over each row's query code. A run's
    query field is read as plain text instead (:func:`_encode` codes it a stretch of equal
    ids at a time): the parser's dictionary hashed every line's id, 0.1-0.25 CPU s of a
    10 M-line run.

    The parse's buffers come from the system allocator, not pyarrow's default (mimalloc): with
    two parsing threads mimalloc took 1.3-2x the CPU time on a 455 MB run (most of it the
    page faults of memory it had just obtained), and a first parse in a fresh process up to
    5 CPU s against 1.8-2.2 (bench/README.md, bench_trec.py)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    names = [f"f{index}" for index in range(n_fields)]
    types = {name: pa.string() for name in names}
    types[names[number_field]] = pa.float64()
    if dictionary:
        types[names[0]] = pa.dictionary(pa.int32(), pa.string())
    table = pacsv.read_csv(
        pa.py_buffer(data),
        read_options=pacsv.ReadOptions(column_names=names, block_size=_BLOCK_SIZE),
        parse_options=pacsv.ParseOptions(
            delimiter=" ", quote_char=False, escape_char=False, ignore_empty_lines=True
        ),
        convert_options=pacsv.ConvertOptions(
            column_types=types,
            null_values=[],
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
            include_columns=[names[index] for index in keep],
        ),
        memory_pool=pa.system_memory_pool(),
    )
    return table.unify_dictionaries() if dictionary else table


def _split(
    data: Text, label: str, *, kind: str, n_fields: int, number_field: int, keep: tuple[int, ...]
) -> tuple[Any, NDArray[np.float64]]:
    """A TREC file as a pyarrow table of the fields ``keep`` (text, except ``number_field``:
    float64), and that field as one numpy array (made once: it is the size of the run).
    Fields are split by pyarrow's CSV reader on one space: tabs are made spaces
    first, and a file with padded fields (several spaces, or spaces at a line's ends) is
    normalised when the quick split fails. Errors are located by a slow pass naming the line."""
    import pyarrow as pa

    layout: dict[str, Any] = {
        "n_fields": n_fields,
        "number_field": number_field,
        "keep": keep,
        "dictionary": kind != "run",
    }
    if data.find(b"\t") >= 0:
        data = _bytes(data).translate(bytes.maketrans(b"\t", b" "))
    try:
        table = _parse(data, **layout)
    except pa.ArrowInvalid:
        try:
            table = _parse(_normalized(data), **layout)
        except pa.ArrowInvalid as error:
            if kind != "run" or (cut := _cut(_normalized(data), n_fields)) is None:
                _locate(data, label, kind=kind, n_fields=n_fields, number_field=number_field, error=error)
            try:
                table = _parse(cut, **layout)
            except pa.ArrowInvalid as error:
                _locate(data, label, kind=kind, n_fields=n_fields, number_field=number_field, error=error)
    if table.num_rows == 0:
        fail("empty_table", what="file", name=label)
    values = _contiguous(table.column(keep.index(number_field)))
    # min and max carry any NaN or infinity, with no temporary the size of the run
    if not (np.isfinite(values.min()) and np.isfinite(values.max())):
        line, fields = _line_of_row(data, int(np.argmin(np.isfinite(values))))
        shown = _text(fields[number_field]) if len(fields) > number_field else "?"
        fail("trec_value", name=label, line=line, what=_FIELD_TERM[kind], value=shown, rule="rule_finite")
    return table, values


def _numpy(array: Any) -> NDArray[Any]:
    """A pyarrow array or chunked array of numbers or booleans, without nulls, as NumPy: a
    read-only view of its buffer where it can be (booleans, packed in bits, are copied).

    Not ``to_numpy()``, nor ``pa.array(...)`` the other way (:func:`_arrow`): pyarrow imports
    pandas on its first conversion (its pandas shim), and a TREC text report needs no pandas
    (a quarter of a second of the command's start; bench/README.md, "start-up").

    >>> import pyarrow as pa
    >>> _numpy(pa.chunked_array([[1.5, 2.0], [3.0]])).tolist(), _numpy(pa.array([True, False])).tolist()
    ([1.5, 2.0, 3.0], [True, False])
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(array, pa.ChunkedArray):
        if array.num_chunks == 1:
            array = array.chunk(0)
        elif array.num_chunks == 0:
            return np.zeros(0, dtype=_NUMPY_TYPES.get(str(array.type), np.bool_))
        else:
            array = pa.concat_arrays(array.chunks, memory_pool=pa.system_memory_pool())
    if array.null_count:
        raise ValueError("an array with nulls has no NumPy view")
    if pa.types.is_boolean(array.type):
        return _numpy(pc.cast(array, pa.uint8())).astype(np.bool_)
    dtype = np.dtype(_NUMPY_TYPES[str(array.type)])
    data = array.buffers()[1]
    if data is None or not len(array):
        return np.zeros(0, dtype=dtype)
    return np.frombuffer(data, dtype=dtype, count=len(array), offset=array.offset * dtype.itemsize)


#: pyarrow's names of the number types :func:`_numpy` reads.
_NUMPY_TYPES: dict[str, Any] = {
    "double": np.float64,
    "float": np.float32,
    **{
        f"{sign}int{bits}": np.dtype(f"{sign}int{bits}").type
        for sign in ("", "u")
        for bits in (8, 16, 32, 64)
    },
}


def _arrow(values: NDArray[Any]) -> Any:
    """A NumPy array of numbers or booleans as a pyarrow array, sharing its memory (booleans
    are packed in bits), without the pandas shim of ``pa.array`` (see :func:`_numpy`).

    >>> _arrow(np.array([3, 1])).to_pylist(), _arrow(np.array([True, False, True])).to_pylist()
    ([3, 1], [True, False, True])
    """
    import pyarrow as pa

    values = np.ascontiguousarray(values)
    if values.dtype == np.bool_:
        bits = np.packbits(values, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), values.size, [None, pa.py_buffer(bits)])
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), values.size, [None, pa.py_buffer(values)])


def _found(positions: Any) -> NDArray[Any]:
    """``pc.index_in``'s answer (int32, null where not found) as NumPy, -1 where not found.

    >>> import pyarrow as pa, pyarrow.compute as pc
    >>> _found(pc.index_in(pa.array(["b", "x"]), value_set=pa.array(["a", "b"]))).tolist()
    [1, -1]
    """
    import pyarrow.compute as pc

    return _numpy(pc.fill_null(positions, _arrow(np.array([-1], dtype=np.int32))[0]))


def _contiguous(column: Any) -> NDArray[Any]:
    """A pyarrow column without nulls as one numpy array, joined by pyarrow in memory from the
    system allocator (read-only: a view of pyarrow's buffer).

    Not ``ChunkedArray.to_numpy()``: numpy asks the kernel for transparent huge pages for every
    array of 4 MB or more (``madvise``), and on a machine whose memory is fragmented the kernel
    then compacts memory on the first touch. A fresh 80 MB numpy array measured 0.17-0.7 CPU s
    that way against a steady 0.04-0.06 s without the request (bench/README.md, bench_trec.py).

    >>> import pyarrow as pa
    >>> _contiguous(pa.chunked_array([[1.5, 2.0], [3.0]])).tolist()
    [1.5, 2.0, 3.0]
    """
    import pyarrow as pa

    if isinstance(column, pa.ChunkedArray):
        pool = pa.system_memory_pool()
        column = (
            column.chunk(0) if column.num_chunks == 1 else pa.concat_arrays(column.chunks, memory_pool=pool)
        )
    return _numpy(column)


#: A number written with a decimal comma (``0,9``, ``-1,5e3``), as a spreadsheet in many
#: languages writes it: not a number in a TREC file (trec_eval's ``atof`` would read ``0``).
_DECIMAL_COMMA = re.compile(rb"[+-]?\d*,\d+([eE][+-]?\d+)?")


def _locate(
    data: Text, label: str, *, kind: str, n_fields: int, number_field: int, error: Exception
) -> NoReturn:
    """Name the first line with the wrong number of fields or a value that is not a number."""
    data = _bytes(data)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as bad:
        fail("not_utf8", name=label, line=data.count(b"\n", 0, bad.start) + 1)
    for number, fields in _lines(data):
        if len(fields) < n_fields or (len(fields) > n_fields and kind != "run"):
            fail("trec_field_count", name=label, line=number, got=len(fields), what=f"trec_{kind}")
        for index in (0, 2):  # query and document ids (a line longer than a parser's block)
            if len(fields[index]) > MAX_ID_BYTES:
                fail(
                    "trec_id_too_long",
                    name=label,
                    line=number,
                    what="field_id",
                    got=len(fields[index]),
                    limit=MAX_ID_BYTES,
                )
        try:
            if b"_" in fields[number_field]:  # Python reads 1_0 as 10, pyarrow refuses it
                raise ValueError(fields[number_field])
            float(fields[number_field])
        except ValueError:
            comma = _DECIMAL_COMMA.fullmatch(fields[number_field]) is not None
            fail(
                "trec_value",
                name=label,
                line=number,
                what=_FIELD_TERM[kind],
                value=_text(fields[number_field])[:40],
                rule="rule_number_decimal_comma" if comma else "rule_number",
            )
    reason = " ".join(str(error).split())[:300]
    fail("unreadable", name=label, kind="TREC", reason=reason)


def _frame_values(
    frame: pd.DataFrame, column: str, *, label: str | None, offset: int, what: str
) -> NDArray[np.float64]:
    """A numeric column as finite float64, or an error naming the line (files) or row (tables)."""
    import pandas as pd

    from . import batch

    series = frame[column]
    values: NDArray[np.float64]
    if series.dtype.kind in "mM":  # dates and durations: no grade or score (nanoseconds would be)
        if label is None:
            fail("bad_column", row=1, column=column, value=str(series.iloc[0]), rule="rule_number")
        fail("trec_value", name=label, line=offset, what=what, value=str(series.iloc[0]), rule="rule_number")
    if pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(series.dtype):
        values = series.to_numpy(dtype=np.float64, na_value=np.nan)
        rule = "rule_finite"
    else:
        coerced = pd.to_numeric(series, errors="coerce")
        values = coerced.to_numpy(dtype=np.float64, na_value=np.nan)
        rule = "rule_number"
    bad = ~np.isfinite(values)
    if bad.any():
        row = int(np.argmax(bad))
        raw = series.iloc[row]
        shown = "a missing value" if pd.isna(raw) else batch._shown(raw)
        if isinstance(shown, float):
            rule = "rule_finite"
        if label is None:
            fail("bad_column", row=row + 1, column=column, value=shown, rule=rule)
        fail("trec_value", name=label, line=row + offset, what=what, value=str(shown), rule=rule)
    return values


def _id_column(frame: pd.DataFrame, column: str, *, label: str | None, offset: int) -> Any:
    """An id column as pyarrow text (no copy when pandas already holds it in pyarrow); a
    missing or empty id is an error naming the line or row."""
    from . import batch

    text = batch.id_text(frame[column])
    missing = text.isna().to_numpy() | (text == "").to_numpy(dtype=bool, na_value=True)
    if missing.any():
        row = int(np.argmax(missing))
        if label is None:
            fail("bad_column", row=row + 1, column=column, value="a missing value", rule="rule_id")
        fail("trec_value", name=label, line=row + offset, what="field_id", value="", rule="rule_id")
    return _arrow_text(text)


def _arrow_text(text: pd.Series) -> Any:
    """A text Series as a pyarrow string array (or chunked array)."""
    import pyarrow as pa

    values = text.array
    array = pa.array(values) if hasattr(values, "__arrow_array__") else pa.array(text.to_numpy(dtype=object))
    return array if array.type == pa.string() else array.cast(pa.string())


@dataclass(frozen=True, slots=True)
class _Encoded:
    """A qrels or run table: each row's query code (0..n-1, in order of first appearance; int32
    for a run) and the unique query ids, each row's item id (a pyarrow string array or chunked
    array, not encoded), its grades or scores, its tags, and how to find a row's line for
    messages."""

    query_codes: NDArray[Any]
    queries: Any
    items: Any
    values: NDArray[np.float64]
    tag: Any
    data: Text | None
    offset: int
    label: str | None
    #: After :meth:`take`, each kept row's row in the table as read (None: the rows as read).
    rows: NDArray[np.intp] | None = None

    def line(self, row: int) -> int:
        """The line of a row in its file (or its row number in a table)."""
        if self.rows is not None:
            row = int(self.rows[row])
        if self.data is not None:
            return _line_of_row(self.data, int(row))[0]
        return int(row) + self.offset

    def take(self, keep: NDArray[np.bool_]) -> _Encoded:
        """The rows where ``keep`` is true (codes and ids unchanged; lines of the kept rows)."""

        kept = np.flatnonzero(keep)
        return _Encoded(
            self.query_codes[keep],
            self.queries,
            self.items.filter(_arrow(keep)),
            self.values[keep],
            None if self.tag is None else self.tag.filter(_arrow(keep)),
            self.data,
            self.offset,
            self.label,
            kept if self.rows is None else self.rows[kept],
        )

    def frame(self, value: str) -> pd.DataFrame:
        """The table as a DataFrame: ``query``, ``item`` (str), ``value`` and ``tag``; the
        file it was read from kept in its ``attrs`` (:class:`_Origin`)."""
        import pandas as pd

        columns: dict[str, Any] = {
            "query": _strings(self.queries, self.query_codes),
            "item": _series(self.items),
            value: self.values,
        }
        if self.tag is not None:
            columns["tag"] = _series(self.tag)
        frame = pd.DataFrame(columns)
        if self.label is not None:
            frame.attrs[_ORIGIN] = _Origin(self.label, self.data, self.offset, self.rows, len(frame))
        return frame


#: The key of :class:`_Origin` in the ``attrs`` of a DataFrame that :func:`read_qrels` gives.
_ORIGIN = "ndcg_core.trec.origin"


class _Origin:
    """The file a qrels DataFrame was read from, so that a refusal found only once it is
    evaluated (a query whose gains overflow under the exponential gain) names the file and
    its line, not 'table' and a row: the Evaluate page reads the qrels once and evaluates the
    DataFrame under each choice of options. Kept by reference (copies of the frame share it;
    pandas deep-copies ``attrs``), and used only while the frame has as many rows."""

    __slots__ = ("data", "label", "n_rows", "offset", "rows")

    def __init__(self, label: str, data: Text | None, offset: int, rows: Any, n_rows: int) -> None:
        self.label, self.data, self.offset, self.rows, self.n_rows = label, data, offset, rows, n_rows

    def __deepcopy__(self, memo: dict[int, Any]) -> _Origin:
        return self


def _strings(uniques: Any, codes: NDArray[np.intp]) -> pd.Series:
    import pyarrow as pa

    return _series(uniques.take(pa.array(codes)))


def _series(array: Any) -> pd.Series:
    """pyarrow text as a pandas ``str`` Series, without a copy to Python objects."""
    series = array.to_pandas()
    return series if series.dtype == "str" else series.astype("str")


def _stretch_codes(column: Any) -> tuple[NDArray[np.int32], Any] | None:
    """Codes (int32, in order of first appearance) and unique values of a pyarrow string column
    whose equal values mostly come in stretches (a run's query field: a run file lists one
    query's lines together), or None when they do not.

    Each chunk is run-length encoded (neighbours compared in C++, nothing hashed), only the
    first id of each stretch is hashed, and the codes are written out in memory from the
    system allocator.

    >>> import pyarrow as pa
    >>> codes, uniques = _stretch_codes(pa.chunked_array([["b", "b", "a"], ["a", "c", "b"]]))
    >>> codes.tolist(), uniques.to_pylist()
    ([0, 0, 1, 1, 2, 0], ['b', 'a', 'c'])
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    pool = pa.system_memory_pool()
    ends, values, offset = [], [], 0
    for chunk in chunks:
        stretches = pc.run_end_encode(chunk, run_end_type=pa.int32(), memory_pool=pool)
        ends.append(_numpy(stretches.run_ends).astype(np.int64) + offset)
        values.append(stretches.values)
        offset += len(chunk)
        if 4 * sum(len(part) for part in values) > offset + 4096:  # not in stretches
            return None
    encoded = pc.dictionary_encode(pa.concat_arrays(values))
    run_ends = _arrow(np.concatenate(ends).astype(np.int32))
    stretched = pa.RunEndEncodedArray.from_buffers(
        pa.run_end_encoded(pa.int32(), encoded.indices.type),
        offset,
        [None],
        0,
        0,
        [run_ends, encoded.indices],
    )
    codes: NDArray[np.int32] = _numpy(pc.run_end_decode(stretched, memory_pool=pool))
    return codes, encoded.dictionary


def _encode(column: Any, *, wide: bool = True) -> tuple[NDArray[Any], Any]:
    """Codes (in order of first appearance) and unique values of a pyarrow string column,
    hashed once in C++. The codes are ``intp``, or pyarrow's int32 when not ``wide`` (a run's
    query codes: half the memory, and no conversion of every row)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not wide and not pa.types.is_dictionary(column.type) and len(column):
        stretched = _stretch_codes(column)
        if stretched is not None:
            return stretched
    # a dictionary column (the query field of a TREC qrels file) is encoded already, its chunks
    # sharing one dictionary (Table.unify_dictionaries), in order of first appearance
    encoded = column if pa.types.is_dictionary(column.type) else pc.dictionary_encode(column)
    if isinstance(encoded, pa.ChunkedArray):
        if encoded.num_chunks == 0:
            return np.zeros(0, dtype=np.intp), pa.array([], type=pa.string())
        # one hash table over the chunks: every chunk shares the last chunk's dictionary
        codes = _contiguous(pa.chunked_array([chunk.indices for chunk in encoded.chunks]))
        dictionary = encoded.chunk(encoded.num_chunks - 1).dictionary
    else:
        codes, dictionary = _numpy(encoded.indices), encoded.dictionary
    if dictionary.type != pa.string():  # large_string: lookups need one type on both sides
        dictionary = dictionary.cast(pa.string())
    return (codes.astype(np.intp, copy=False) if wide else codes), dictionary


def _first_long_id(column: Any) -> tuple[int, int] | None:
    """(row, bytes) of the first id longer than ``MAX_ID_BYTES`` bytes, or None. Lengths are
    taken a chunk at a time, in C++ (a dictionary column's dictionary only).

    >>> import pyarrow as pa
    >>> _first_long_id(pa.chunked_array([["a", "b"], ["c", "d" * 1001]]))
    (3, 1001)
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    start = 0
    for chunk in chunks:
        if pa.types.is_dictionary(chunk.type):
            lengths = pc.binary_length(chunk.dictionary)
            if len(lengths) and pc.max(lengths).as_py() > MAX_ID_BYTES:
                long_codes = pc.indices_nonzero(pc.greater(lengths, MAX_ID_BYTES))
                row = pc.index(pc.is_in(chunk.indices, value_set=long_codes), True).as_py()
                return start + row, int(lengths[chunk.indices[row].as_py()].as_py())
        else:
            lengths = pc.binary_length(chunk)
            if len(lengths) and pc.max(lengths).as_py() > MAX_ID_BYTES:
                row = pc.index(pc.greater(lengths, MAX_ID_BYTES), True).as_py()
                return start + row, int(lengths[row].as_py())
        start += len(chunk)
    return None


def _first_nul_id(column: Any) -> int | None:
    """The row of the first id holding a NUL character, or None (a dictionary column's
    dictionary is searched only).

    >>> import pyarrow as pa
    >>> _first_nul_id(pa.chunked_array([["a", "b"], ["c", "d\\x00e"]]))
    3
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    start = 0
    for chunk in chunks:
        if pa.types.is_dictionary(chunk.type):
            flags = pc.match_substring(chunk.dictionary, "\x00")
            if pc.any(flags).as_py():
                row = pc.index(pc.is_in(chunk.indices, value_set=pc.indices_nonzero(flags)), True).as_py()
                return start + int(row)
        else:
            flags = pc.match_substring(chunk, "\x00")
            if pc.any(flags).as_py():
                return start + int(pc.index(flags, True).as_py())
        start += len(chunk)
    return None


def _check_id_lengths(
    column: Any, *, label: str | None, column_name: str, line: Any, nul: bool = True
) -> None:
    """Refuse an id longer than ``MAX_ID_BYTES`` bytes of UTF-8, or one holding a NUL character
    (C programs, trec_eval among them, end the id there: ``d\\0x`` would be ``d`` to one tool
    and not to another), naming its line (``line`` maps a row to it) or, in a DataFrame, its
    row and column. ``nul=False``: the text is known to hold no NUL (a search of the file)."""
    found = _first_long_id(column)
    if found is not None:
        row, got = found
        if label is None:
            fail("id_too_long", row=row + 1, column=column_name, got=got, limit=MAX_ID_BYTES)
        fail("trec_id_too_long", name=label, line=line(row), what="field_id", got=got, limit=MAX_ID_BYTES)
    row_nul = _first_nul_id(column) if nul else None
    if row_nul is not None:
        value = column[row_nul].as_py()  # (a dictionary's scalar gives its text too)
        if label is None:
            fail("bad_column", row=row_nul + 1, column=column_name, value=value, rule="rule_id_no_nul")
        fail(
            "trec_value", name=label, line=line(row_nul), what="field_id", value=value, rule="rule_id_no_nul"
        )


def _table(
    source: Any,
    name: str | None,
    *,
    kind: str,
    tags: bool = True,
    max_size: int = MAX_TEXT_SIZE,
    input_format: InputFormat = "auto",
) -> _Encoded:
    """Any qrels or run input read, checked and encoded (a TREC run's tags only with ``tags``;
    ``max_size`` as in :func:`_load`; ``input_format`` as in :func:`read_qrels`)."""

    value = "relevance" if kind == "qrels" else "score"
    if _is_frame(source):
        from . import batch  # (here: pandas is loaded only for a CSV, Parquet or DataFrame)

        frame = source
        batch._check_columns(frame, ("query", "item", value))
        if len(frame) == 0:
            fail("empty_table", what=kind)
        label, data, offset = name, None, 1
    else:
        label = _label(source, name)
        data = _load(source, label, max_size)
        if not len(data) or re.search(rb"\S", data) is None:  # (strip() would copy the whole file)
            fail("empty_table", what="file", name=label)
        parquet = data[:4] == b"PAR1"
        if parquet or input_format == "csv" or (input_format == "auto" and _is_csv(data)):
            from . import batch

            frame = batch.read_run(_bytes(data), name=label, ids=("query", "item"))
            _check_file_columns(frame, ("query", "item", value), label)
            if len(frame) == 0:
                fail("empty_table", what="file", name=label)
            offset = 1 if parquet else 2  # the line of row 0 (CSV: the header is line 1)
            data = None
        else:
            frame = None
            data = _without_comments(data)
    if frame is not None:
        queries = _id_column(frame, "query", label=label, offset=offset)
        items = _id_column(frame, "item", label=label, offset=offset)
        for column, ids in (("query", queries), ("item", items)):
            _check_id_lengths(ids, label=label, column_name=column, line=lambda row: row + offset)
        values = _frame_values(frame, value, label=label, offset=offset, what=_FIELD_TERM[kind])
        tag = None
        if kind == "run" and "tag" in frame.columns:
            from . import batch

            tag = _arrow_text(batch.id_text(frame["tag"]))
        data = None
    else:
        assert data is not None
        if kind == "qrels":
            table, values = _split(data, str(label), kind=kind, n_fields=4, number_field=3, keep=(0, 2, 3))
            tag = None
        else:
            keep = (0, 2, 4, 5) if tags else (0, 2, 4)
            table, values = _split(data, str(label), kind=kind, n_fields=6, number_field=4, keep=keep)
            tag = table.column(3) if tags else None
        queries, items = table.column(0), table.column(1)
        offset = 0
        text = data
        nul = text.find(b"\x00") >= 0  # (a search of the mapped file: no copy)
        for column, ids in (("query", queries), ("item", items)):
            _check_id_lengths(
                ids, label=label, column_name=column, line=lambda row: _line_of_row(text, row)[0], nul=nul
            )
    query_codes, query_ids = _encode(queries, wide=kind != "run")
    # Item ids are not encoded: hashing every line's id into one table of a million distinct
    # ids was the slowest step. Each row is its own "code" (None); the ids, left in pyarrow's
    # chunks, are hashed (:func:`_text_hash`), and only ids whose hashes match compared.
    item_ids = _string_chunks(items)
    encoded = _Encoded(query_codes, query_ids, item_ids, values, tag, data, offset, label)
    origin = source.attrs.get(_ORIGIN) if _is_frame(source) else None
    if isinstance(origin, _Origin) and origin.n_rows == len(source):
        encoded = replace(
            encoded, data=origin.data, offset=origin.offset, label=name or origin.label, rows=origin.rows
        )
    return encoded


def _string_chunks(column: Any) -> Any:
    """A pyarrow text column as ``string`` (int32 offsets), its chunks left as they are."""
    import pyarrow as pa

    return column if column.type == pa.string() else column.cast(pa.string())


def _take(strings: Any, rows: NDArray[Any]) -> Any:
    """``strings.take(rows)`` as one pyarrow array. A chunked array is taken from chunk by
    chunk (pyarrow's own take of a chunked array joins every chunk first: a copy of the
    whole run for a few rows).

    >>> import pyarrow as pa
    >>> chunked = pa.chunked_array([["a", "b"], ["c"], ["d", "e"]])
    >>> _take(chunked, np.array([4, 0, 2, 2, 1])).to_pylist()
    ['e', 'a', 'c', 'c', 'b']
    """
    import pyarrow as pa

    rows = np.asarray(rows, dtype=np.int64)
    if not isinstance(strings, pa.ChunkedArray):
        return strings.take(_arrow(rows))
    if strings.num_chunks == 1:
        return strings.chunk(0).take(_arrow(rows))
    if strings.num_chunks == 0:
        return pa.array([], type=strings.type)
    if rows.size == 0:
        return strings.chunk(0).slice(0, 0)
    ends = np.cumsum([len(chunk) for chunk in strings.chunks])
    which = np.searchsorted(ends, rows, side="right")
    order = np.argsort(which, kind="stable")
    edges = np.searchsorted(which[order], np.arange(strings.num_chunks + 1))
    parts = []
    for index, chunk in enumerate(strings.chunks):
        if edges[index + 1] > edges[index]:
            local = rows[order[edges[index] : edges[index + 1]]] - (ends[index] - len(chunk))
            parts.append(chunk.take(_arrow(local)))
    taken = pa.concat_arrays(parts)
    inverse = np.empty_like(order)
    inverse[order] = np.arange(order.size)
    return taken.take(_arrow(inverse))


#: Odd 64-bit multipliers (splitmix64's) that spread the words of :func:`_text_hash`.
_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))

#: Bits of an id's hash in a (query, id) key: the query code takes the 32 bits above.
_HASH_BITS = 32

_ALL_BITS = np.uint64(0xFFFFFFFFFFFFFFFF)

#: ``_LOW_BYTES[n]``: the mask of the low ``n`` bytes of a uint64 (n = 0..8).
_LOW_BYTES = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)


def _mix(value: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """splitmix64's finaliser, element-wise (wrapping uint64 arithmetic)."""
    value = value ^ (value >> np.uint64(30))  # (a new array: the caller's is left alone)
    value *= _MIX[1]
    value ^= value >> np.uint64(27)
    value *= _MIX[2]
    return value ^ (value >> np.uint64(31))


#: Rows hashed at a time by :func:`_text_hash`: its temporaries stay in the caches.
_HASH_BLOCK = 1 << 16


def _text_hash(strings: Any) -> NDArray[np.uint64]:
    """A 64-bit hash of every string of a pyarrow ``string`` array or chunked array (no
    nulls), from its bytes: :func:`_block_hash` of one block of rows after another.

    >>> import pyarrow as pa
    >>> hashed = _text_hash(pa.array(["007", "7", "007"]))
    >>> bool(hashed[0] == hashed[2]), bool(hashed[0] == hashed[1])
    (True, False)
    """
    import pyarrow as pa

    if isinstance(strings, pa.ChunkedArray):
        parts = [_text_hash(chunk) for chunk in strings.chunks]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)
    n = len(strings)
    if n <= _HASH_BLOCK:
        return _block_hash(strings)
    hashed = np.empty(n, dtype=np.uint64)
    for start in range(0, n, _HASH_BLOCK):
        hashed[start : start + _HASH_BLOCK] = _block_hash(strings.slice(start, _HASH_BLOCK))
    return hashed


def _block_hash(strings: Any) -> NDArray[np.uint64]:
    """A 64-bit hash of every string of a pyarrow ``string`` array (no nulls), from its bytes.

    Vectorised over the rows, eight bytes at a time (one round for ids of up to 8 bytes): no
    hash table is built, so nothing outgrows the caches. Equal strings hash equal; different
    strings may too (rarely), so a match is only a candidate, checked exactly by the caller.
    The first round, over every row, mixes in place."""
    n = len(strings)
    buffers = strings.buffers()
    offsets = np.frombuffer(buffers[1], dtype=np.int32, count=n + 1, offset=4 * strings.offset)
    raw = np.frombuffer(buffers[2], dtype=np.uint8) if buffers[2] is not None else np.zeros(0, np.uint8)
    raw = raw[: int(offsets[-1])]
    # every 8-byte window of the text as a little-endian uint64 (an unaligned, overlapping
    # view, no copy); the windows of the last 7 bytes come from a small zero-padded copy
    inner = max(raw.size - 7, 0)
    windows = np.ndarray((inner,), dtype="<u8", buffer=raw, strides=(1,))
    tail = np.concatenate([raw[inner:], np.zeros(8, dtype=np.uint8)])
    tail_windows = np.ndarray((tail.size - 7,), dtype="<u8", buffer=tail, strides=(1,))

    def read(position: NDArray[np.int32]) -> NDArray[np.uint64]:
        # positions only grow along the rows; the bound in the positions' own type (a Python
        # int would make numpy convert the whole array before searching)
        late = int(np.searchsorted(position, position.dtype.type(inner)))
        if late == position.size:
            return windows[position]
        return np.concatenate([windows[position[:late]], tail_windows[position[late:] - inner]])

    start = offsets[:-1]
    length = np.subtract(offsets[1:], start)
    # the first word of every id (ids are never empty), in place
    hashed = np.empty(n, dtype=np.uint64)
    hashed[:] = length
    hashed *= _MIX[0]
    value = read(start)
    value &= _LOW_BYTES[np.minimum(length, 8)]  # keep the id's own bytes only
    hashed ^= value
    _mix_in_place(hashed, value)
    del value
    rows = np.flatnonzero(length > 8)
    word = 1
    while rows.size:
        left = length[rows] - 8 * word
        value = read(start[rows] + 8 * word)
        value &= _LOW_BYTES[np.minimum(left, 8)]
        hashed[rows] = _mix(hashed[rows] ^ value)
        rows = rows[left > 8]
        word += 1
    return hashed


def _mix_in_place(value: NDArray[np.uint64], scratch: NDArray[np.uint64]) -> None:
    """:func:`_mix` of ``value`` written over it, ``scratch`` (same size) overwritten."""
    np.right_shift(value, np.uint64(30), out=scratch)
    value ^= scratch
    value *= _MIX[1]
    np.right_shift(value, np.uint64(27), out=scratch)
    value ^= scratch
    value *= _MIX[2]
    np.right_shift(value, np.uint64(31), out=scratch)
    value ^= scratch


def _pair_keys(groups: NDArray[np.intp], hashed: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """A 64-bit key of each (group, string) pair: the group (below 2**32) in the high bits, the
    top ``_HASH_BITS`` bits of the string's hash in the low ones. Equal pairs, equal keys."""
    codes = np.asarray(groups, dtype=np.int64).view(np.uint64)  # codes are >= 0: no copy
    return (codes << np.uint64(32)) | (hashed >> np.uint64(64 - _HASH_BITS))


#: The qrels' (query, item) keys sorted, and the row of each: see :func:`_qrels`.
_Lookup = tuple[NDArray[np.uint64], NDArray[np.intp]]


def _qrels(
    source: Any, name: str | None, *, max_size: int = MAX_TEXT_SIZE, input_format: InputFormat = "auto"
) -> tuple[_Encoded, _Lookup | None]:
    """Qrels read and encoded, a pair graded twice with the same grade kept once; and their
    (query, item) keys (:func:`_pair_keys`) sorted, with the row of each, for
    :func:`_look_up` (None when two judged pairs share a key, a hash collision: the run's ids
    are then looked up by their text).

    Read like a run: the ids are hashed, not encoded (one sort of a million keys is quicker
    than a hash table of a million ids), and only the rows of a repeated key are compared by
    their text."""
    table = _table(source, name, kind="qrels", max_size=max_size, input_format=input_format)
    keys = _pair_keys(table.query_codes, _text_hash(table.items))
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    same = keys[1:] == keys[:-1]
    if not same.any():
        return table, (keys, order)
    # the rows of repeated keys, in file order, compared exactly
    candidate = np.zeros(order.size, dtype=bool)
    candidate[1:] |= same
    candidate[:-1] |= same
    rows = np.sort(order[candidate])
    import pandas as pd  # (only for qrels with a repeated key: rare)

    exact = pd.DataFrame(
        {"query": table.query_codes[rows], "item": _take(table.items, rows).to_numpy(zero_copy_only=False)}
    )
    pair = exact.groupby(["query", "item"], sort=False).ngroup().to_numpy()
    first = rows[pd.Series(np.arange(rows.size)).groupby(pair).transform("first").to_numpy()]
    grades = table.values
    conflict = grades[rows] != grades[first]
    if conflict.any():
        at = int(np.argmax(conflict))
        row = int(rows[at])
        fail(
            "qrels_conflict",
            name=table.label or "table",
            item=str(table.items[row]),
            query=str(table.queries[table.query_codes[row]]),
            first=float(grades[first[at]]),
            line_first=table.line(int(first[at])),
            second=float(grades[row]),
            line=table.line(row),
        )
    repeated = rows[first != rows]
    if not repeated.size:
        return table, None  # keys that collided, pairs that differ
    keep = np.ones(order.size, dtype=bool)
    keep[repeated] = False
    kept = keep[order]
    keys, order = keys[kept], (np.cumsum(keep) - 1)[order[kept]]
    collided = bool((keys[1:] == keys[:-1]).any())
    return table.take(keep), None if collided else (keys, order)


def _run(
    source: Any,
    name: str | None,
    *,
    tags: bool = True,
    max_size: int = MAX_TEXT_SIZE,
    input_format: InputFormat = "auto",
) -> _Encoded:
    """A run read and encoded; a repeated (query, item) pair is refused."""
    table = _table(source, name, kind="run", tags=tags, max_size=max_size, input_format=input_format)
    repeated = _repeated_pair(table.query_codes, len(table.queries), table.items)
    if repeated is not None:
        first, row = repeated
        fail(
            "run_duplicate",
            name=table.label or "table",
            item=str(table.items[row]),
            query=str(table.queries[table.query_codes[row]]),
            line_first=table.line(first),
            line=table.line(row),
        )
    return table


#: Rows scanned at a time (whole queries) by the checks that look at every row of a run:
#: their temporaries stay small. (A fresh array the size of a 10 M-line run costs more in
#: page faults than the arithmetic done on it.)
_SEGMENT = 1 << 18


def _query_counts(codes: NDArray[Any], n_queries: int) -> NDArray[np.intp]:
    """Rows of each query code, counted a segment at a time (``np.bincount`` of int32 codes
    would first convert all of them to ``intp``)."""
    counts = np.zeros(n_queries, dtype=np.intp)
    for start in range(0, codes.size, _SEGMENT):
        counts += np.bincount(codes[start : start + _SEGMENT], minlength=n_queries)
    return counts


def _grouped(codes: NDArray[Any]) -> bool:
    """Whether the rows are grouped by query: codes, numbered in order of first appearance,
    never go down."""
    for start in range(0, codes.size, _SEGMENT):
        block = codes[start : start + _SEGMENT + 1]
        if not bool(np.all(block[1:] >= block[:-1])):
            return False
    return True


def _segments(counts: NDArray[np.intp]) -> list[tuple[int, int, int, int]]:
    """(first query, end query, first row, end row) of stretches of whole queries of about
    :data:`_SEGMENT` rows, for a run grouped by query with ``counts`` rows per query."""
    ends = np.cumsum(counts)
    starts = ends - counts
    total = int(ends[-1]) if ends.size else 0
    edges = np.unique(np.append(np.searchsorted(starts, np.arange(0, total, _SEGMENT)), counts.size))
    return [
        (int(first), int(end), int(starts[first]), int(ends[end - 1]))
        for first, end in itertools.pairwise(edges)
        if end > first
    ]


def _repeated_pair(query_codes: NDArray[Any], n_queries: int, items: Any) -> tuple[int, int] | None:
    """The rows (first, second) of the first repeated (query, item) pair, or None.

    Each row gets a 32-bit key of its item (:func:`_segment_keys`), and the keys of each query
    are sorted (for millions of rows quicker than a hash table); only the rows of the queries
    where a key repeats are then compared exactly, by their text."""
    suspect = _repeated_queries(query_codes, n_queries, items)
    if not suspect.any():
        return None
    rows = np.flatnonzero(suspect[query_codes])
    import pandas as pd  # (only for a run whose keys repeat: rare)

    exact = pd.DataFrame(
        {
            "query": query_codes[rows],
            "item": _take(items, rows).to_numpy(zero_copy_only=False),
        }
    )
    repeated = exact.duplicated(keep="first").to_numpy()
    if not repeated.any():
        return None  # keys that collided, pairs that differ
    second = int(np.argmax(repeated))
    match = (exact["query"] == exact["query"].iloc[second]) & (exact["item"] == exact["item"].iloc[second])
    return int(rows[int(np.argmax(match.to_numpy()))]), int(rows[second])


def _short_keys(strings: Any) -> NDArray[np.uint32] | None:
    """A 32-bit key of every string of a pyarrow ``string`` array whose strings are all of 1 to
    8 bytes, or None when one is longer: the string's own bytes read as one little-endian
    word (shifted up, so the bytes after it fall off), times an odd constant (a bijection of
    64-bit words), its top 32 bits. Equal strings, equal keys; different strings can share a
    key (rarely), so a repeated key only makes a candidate that is compared by text.

    The usual document ids (``D1234567``, ``clueweb``'s are longer) fit in 8 bytes; for them
    this is about half the work of :func:`_text_hash`.

    >>> import pyarrow as pa
    >>> keys = _short_keys(pa.array(["abcdefgh", "a", "abcdefgh", "ab", "a"]))
    >>> [int(keys[i] == keys[j]) for i, j in [(0, 2), (1, 4), (0, 3), (1, 3)]]
    [1, 1, 0, 0]
    >>> _short_keys(pa.array(["abcdefghi"])) is None
    True
    """
    n = len(strings)
    buffers = strings.buffers()
    offsets = np.frombuffer(buffers[1], dtype=np.int32, count=n + 1, offset=4 * strings.offset)
    start = offsets[:-1]
    length = np.subtract(offsets[1:], start)
    if n == 0 or int(length.max()) > 8 or int(length.min()) < 1:
        return None
    raw = np.frombuffer(buffers[2], dtype=np.uint8)[: int(offsets[-1])]
    inner = max(raw.size - 7, 0)
    late = int(np.searchsorted(start, start.dtype.type(inner)))  # ids in the last 7 bytes
    word = np.empty(n, dtype=np.uint64)
    word[:late] = np.ndarray((inner,), dtype="<u8", buffer=raw, strides=(1,))[start[:late]]
    if late < n:
        tail = np.concatenate([raw[inner:], np.zeros(8, dtype=np.uint8)])
        word[late:] = np.ndarray((tail.size - 7,), dtype="<u8", buffer=tail, strides=(1,))[
            start[late:] - inner
        ]
    word <<= (np.subtract(8, length, dtype=np.int32) * 8).astype(np.uint64)
    word *= _MIX[0]
    word >>= np.uint64(32)
    return word.astype(np.uint32)


def _segment_keys(strings: Any) -> NDArray[np.uint32]:
    """A 32-bit key of every string of a pyarrow string array or chunked array: its
    :func:`_short_keys` when every string of it has 1 to 8 bytes, else the top 32 bits of its
    :func:`_text_hash` (one kind of key for all the strings given: a query's rows must
    compare alike)."""
    import pyarrow as pa

    chunks = strings.chunks if isinstance(strings, pa.ChunkedArray) else [strings]
    parts = []
    for chunk in chunks:
        keys = _short_keys(chunk)
        if keys is None:
            return (_text_hash(strings) >> np.uint64(64 - _HASH_BITS)).astype(np.uint32)
        parts.append(keys)
    return np.concatenate(parts) if len(parts) != 1 else parts[0]


def _repeated_queries(query_codes: NDArray[Any], n_queries: int, items: Any) -> NDArray[np.bool_]:
    """Which queries have two rows whose items share a 32-bit key (:func:`_segment_keys`):
    every query with a repeated pair, and the rare one whose keys merely collide.

    A run grouped by query is checked a stretch of whole queries at a time
    (:func:`_segments`): each query's keys laid out one query per row of a uint32 grid and
    each row sorted on its own, many small sorts that stay in the caches, about five times
    quicker than one sort of every key. Otherwise one sort of all the (query, key) pairs."""
    suspect = np.zeros(n_queries, dtype=bool)
    if _grouped(query_codes):
        counts = _query_counts(query_codes, n_queries)
        for first, end, start, stop in _segments(counts):
            high = _segment_keys(items.slice(start, stop - start))
            widths = counts[first:end]
            width = int(widths.max())
            if (end - first) * width > 2 * (stop - start) + 4096:  # lists of very unequal length
                codes = np.asarray(query_codes[start:stop], dtype=np.int64).view(np.uint64)
                keys = np.sort((codes << np.uint64(32)) | high)
                repeated = keys[1:][keys[1:] == keys[:-1]] >> np.uint64(32)
                suspect[repeated.astype(np.intp)] = True
                continue
            if (widths == width).all():
                grid = high.reshape(end - first, width)
            else:
                # padding that equals a key only makes a false candidate, which the exact
                # check drops
                grid = np.empty((end - first, width), dtype=np.uint32)
                grid[:] = np.uint32(0xFFFFFFFF) - np.arange(width, dtype=np.uint32)
                shift = np.arange(end - first) * width - (np.cumsum(widths) - widths)
                grid.ravel()[np.arange(stop - start) + np.repeat(shift, widths)] = high
            grid.sort(axis=1)
            suspect[first + np.flatnonzero((grid[:, 1:] == grid[:, :-1]).any(axis=1))] = True
    else:
        keys = np.sort(_pair_keys(query_codes, _text_hash(items)))
        suspect[(keys[1:][keys[1:] == keys[:-1]] >> np.uint64(32)).astype(np.intp)] = True
    return suspect


def read_qrels(
    source: ByteSource | pd.DataFrame,
    *,
    name: str | None = None,
    max_size: int = MAX_TEXT_SIZE,
    input_format: InputFormat = "auto",
) -> pd.DataFrame:
    """Relevance judgments from a TREC qrels file, a CSV or Parquet file, or a DataFrame.

    TREC: ``query iter doc grade`` per line, fields separated by any run of spaces or tabs, the
    ``iter`` field ignored; a line whose first non-blank character is ``#`` is a comment,
    skipped (as trec_eval 10 does). CSV / Parquet / DataFrame: the columns ``query, item,
    relevance`` (there ``#1`` is an id like any other). gzip is recognised from the content.
    Grades may be negative (see the module's docstring).

    Parameters
    ----------
    source : path, file-like object, bytes or DataFrame
    name : str, optional
        The file's name in messages (default: the path's name, or ``upload``).
    max_size : int, default MAX_TEXT_SIZE (2 GiB)
        The most bytes of text read from a gzip file once decompressed, or from a pipe, a
        device or a file-like object. A gzip file is also refused once its text passes
        ``GZIP_RATIO`` (20) times its own size.
    input_format : {"auto", "trec", "csv"}, default "auto"
        How a file is read. ``"auto"`` decides from its first line that is neither blank nor a
        comment: 4 fields (qrels) or 6 and more (a run) separated by spaces or tabs is TREC,
        commas in its fields or not; another line with a comma is a CSV header. Parquet is
        recognised by its magic bytes whatever the choice.

    Returns
    -------
    pandas.DataFrame
        ``query`` (str), ``item`` (str), ``relevance`` (float64), in the file's order; a pair
        graded twice with the same grade is kept once.

    Raises
    ------
    NDCGInputError
        Naming the file and line: a line without 4 fields, a grade that is not a finite
        number, an id longer than ``MAX_ID_BYTES`` (1000) bytes, a pair graded twice with
        different grades; ``empty_table`` for no lines; naming the file and the limit: more
        text than ``max_size`` or 20 times a gzip file's size.

    >>> read_qrels(b"301 0 FBIS3-10082 1\\n301\\t0  007 -2\\r\\n\\n").to_dict("list")
    {'query': ['301', '301'], 'item': ['FBIS3-10082', '007'], 'relevance': [1.0, -2.0]}
    >>> try:
    ...     read_qrels(b"301 0 d1 1\\n301 0 d1 2\\n", name="qrels.txt")
    ... except ValueError as error:  # NDCGInputError
    ...     print(error.key, error.params["line_first"], error.params["line"])
    qrels_conflict 1 2
    """
    input_format = check_choice(input_format, INPUT_FORMATS, option="input_format")
    return _qrels(source, name, max_size=max_size, input_format=input_format)[0].frame("relevance")


def read_trec_run(
    source: ByteSource | pd.DataFrame,
    *,
    name: str | None = None,
    max_size: int = MAX_TEXT_SIZE,
    input_format: InputFormat = "auto",
) -> pd.DataFrame:
    """A run from a TREC run file, a CSV or Parquet file, or a DataFrame.

    TREC: ``query Q0 doc rank score tag`` per line, fields separated by any run of spaces or
    tabs; fields after the sixth are ignored, as trec_eval ignores them. The rank is ignored
    (the order is the score's, as in trec_eval); comment lines (``#`` first) are skipped.
    CSV / Parquet / DataFrame: the columns ``query, item, score`` (and ``tag`` when present).
    gzip is recognised from the content; ``name``, ``max_size`` and ``input_format`` as in
    :func:`read_qrels`.

    Returns
    -------
    pandas.DataFrame
        ``query`` (str), ``item`` (str), ``score`` (float64) and ``tag`` (str) when the input has
        one, in the file's order.

    Raises
    ------
    NDCGInputError
        Naming the file and line: a line of fewer than 6 fields, a score that is not a finite
        number (a decimal comma such as ``0,9`` said so),
        an id longer than 1000 bytes, a (query, item) pair retrieved twice; ``empty_table``
        for no lines; the limits of :func:`read_qrels`.

    >>> read_trec_run(b"1 Q0 007 1 2.5 bm25\\n1 Q0 7 2 2.5 bm25\\n").to_dict("list")
    {'query': ['1', '1'], 'item': ['007', '7'], 'score': [2.5, 2.5], 'tag': ['bm25', 'bm25']}
    """
    input_format = check_choice(input_format, INPUT_FORMATS, option="input_format")
    return _run(source, name, max_size=max_size, input_format=input_format).frame("score")


# --------------------------------------------------------------------------- result


@dataclass(frozen=True, eq=False)
class TrecResult:
    """An evaluation of runs against qrels.

    Attributes
    ----------
    per_query : pandas.DataFrame
        One row per (run, judged query), runs in the order given and queries in the qrels'
        order: ``run, query, n_items`` (items the run retrieved), then the columns
        ``measure_columns(options.k, m)`` of ``m`` = ``ndcg``, ``dcg``, ``idcg``, ``judged``,
        then ``missing`` (True for a judged query the run did not answer). nDCG is NaN where
        the options leave the query out of the mean; ``judged`` is NaN for a missing query.
    means : pandas.DataFrame
        One row per run: ``run, n_queries`` (queries in the mean) and the mean of each ndcg
        and judged column (judged over the answered queries).
    columns : mapping of str to numpy array
        What :attr:`per_query` holds, column by column; both tables are built from these and
        :attr:`mean_rows` on first access, so a report that reads only the means never loads
        pandas.
    mean_rows : tuple of dict
        What :attr:`means` holds, one dict per run.
    options : Options
        The options that made it.
    unjudged_queries : mapping of run name to tuple of str
        Queries of each run without any judgment: left out.
    missing_queries : mapping of run name to tuple of str
        Judged queries each run did not answer.
    fractional_grades : tuple of (float, float)
        The qrels' grades that are not whole numbers (the smallest :data:`FRACTIONAL_SHOWN`
        distinct ones), each with the whole number trec_eval would read instead (truncated
        toward zero); empty when every grade is whole. With ``grades="any"`` they were used as
        given, with ``"truncate"`` truncated.
    """

    columns: Mapping[str, NDArray[Any]]
    mean_rows: tuple[Mapping[str, Any], ...]
    options: Options
    unjudged_queries: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    missing_queries: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    fractional_grades: tuple[tuple[float, float], ...] = ()

    @classmethod
    def from_frames(
        cls, per_query: pd.DataFrame, means: pd.DataFrame, options: Options, **details: Any
    ) -> TrecResult:
        """A result made elsewhere (the Spark engine's tables) from its two tables, which it
        keeps as they are."""
        result = cls(
            {str(name): per_query[name].to_numpy() for name in per_query.columns},
            tuple(means.to_dict("records")),
            options,
            **details,
        )
        result.__dict__.update(per_query=per_query, means=means)  # (the cached tables)
        return result

    @cached_property
    def per_query(self) -> pd.DataFrame:
        import pandas as pd

        frame = pd.DataFrame(dict(self.columns))
        for name in ("run", "query"):
            frame[name] = frame[name].astype("str")
        return frame

    @cached_property
    def means(self) -> pd.DataFrame:
        import pandas as pd

        frame = pd.DataFrame(list(self.mean_rows))
        frame["run"] = frame["run"].astype("str")
        return frame

    @property
    def runs(self) -> tuple[str, ...]:
        """The runs' names, in the order given."""
        return tuple(str(row["run"]) for row in self.mean_rows)

    def no_relevant_counts(self) -> dict[str, int]:
        """The number of judged queries with nothing relevant (IDCG = 0) in each run's table.

        >>> import pandas as pd
        >>> qrels = pd.DataFrame({"query": ["q1", "q2"], "item": ["a", "b"], "relevance": [1, 0]})
        >>> run = pd.DataFrame({"query": ["q1", "q2"], "item": ["a", "b"], "score": [1.0, 1.0]})
        >>> evaluate_trec(qrels, {"good": run}, k=10).no_relevant_counts()["good"]  # q2
        1
        """
        column = measure_columns(self.options.k, "idcg")[0]
        empty = np.asarray(self.columns[column], dtype=np.float64) == 0
        runs = np.asarray(self.columns["run"], dtype=object)
        return {run: int(np.count_nonzero(empty & (runs == run))) for run in self.runs}

    def compare(
        self,
        *,
        measure: str | None = None,
        baseline: str | None = None,
        confidence: float = 0.95,
        n_resamples: int = 10_000,
        seed: int | None = 0,
    ) -> Comparison:
        """Every run against a baseline, query by query (:func:`ndcg_core.compare_runs`).

        The comparison is paired, so it is made on the queries that every run has a value
        for: a query the options leave out of a run's mean (``missing="drop"``,
        ``no_relevant="drop"``) is left out of the comparison for every run, and
        :attr:`Comparison.n_queries` says how many remain. ``measure`` defaults to the first
        cutoff's nDCG column.

        >>> import pandas as pd
        >>> qrels = pd.DataFrame(
        ...     {"query": ["1", "1", "2", "2", "3", "3"], "item": ["a", "b"] * 3, "relevance": [1, 0, 0, 1, 2, 1]}
        ... )
        >>> good = qrels.drop(columns="relevance").assign(score=[2, 1, 1, 2, 2, 1])
        >>> poor = good.assign(score=[1, 2, 2, 1, 1, 2])
        >>> comparison = evaluate_trec(qrels, {"good": good, "poor": poor}, k=10).compare(baseline="poor")
        >>> comparison.tests["run"].tolist(), comparison.n_queries, comparison.tests["wins"].tolist()
        (['good'], 3, [3])
        """
        from . import batch
        from .significance import compare_runs

        column = measure if measure is not None else measure_columns(self.options.k, "ndcg")[0]
        batch._check_columns(self.per_query, (column,))
        values = self.per_query[["run", "query", column]]
        finite = np.isfinite(values[column].to_numpy(dtype=np.float64))
        # A query is compared only if every run has a finite value for it.
        counts = values.loc[finite, "query"].value_counts()
        shared = counts.index[counts == values["run"].nunique()]
        return compare_runs(
            values[values["query"].isin(shared)],
            measure=column,
            baseline=baseline,
            confidence=confidence,
            n_resamples=n_resamples,
            seed=seed,
        )


# --------------------------------------------------------------------------- computing


def run_name(path: str | os.PathLike[str]) -> str:
    """The name of a run read from a file: its name without the usual suffixes.

    >>> run_name("runs/bm25.run.gz"), run_name("dense.csv"), run_name("input.uogTr")
    ('bm25', 'dense', 'input.uogTr')
    """
    text = Path(path).name
    changed = True
    while changed:
        changed = False
        for suffix in _RUN_SUFFIXES:
            if text.lower().endswith(suffix) and len(text) > len(suffix):
                text, changed = text[: -len(suffix)], True
    return text


def _named_runs(runs: Any) -> list[tuple[str, Any]]:
    if _is_frame(runs) or isinstance(runs, (str, os.PathLike, bytes)):
        runs = [runs]
    if isinstance(runs, Mapping):
        pairs = [(str(name), run) for name, run in runs.items()]
    else:
        pairs = []
        for index, run in enumerate(runs):
            if isinstance(run, (str, os.PathLike)):
                pairs.append((run_name(run), run))
            else:
                pairs.append((f"run{index + 1}", run))
    if not pairs:
        fail("no_runs")
    seen: set[str] = set()
    for name, _ in pairs:
        if name in seen:
            fail("run_name_duplicate", run=name)
        seen.add(name)
    return pairs


def _gains(pool: _Encoded, gain: Gain) -> NDArray[np.float64]:
    """Gains of the qrels' grades, a negative grade (trec_eval: in the pool, not judged)
    counting as 0. Each gain, and each query's sum of gains, must be finite (the rule of
    :func:`ndcg_core.gains.first_overflow`, query by query: a query's IDCG sums only its own
    gains); a refusal names the query and the line."""
    grades = pool.values
    with np.errstate(over="ignore"):
        out = GAINS[gain](np.maximum(grades, 0.0))
        sums = np.bincount(pool.query_codes, weights=out, minlength=len(pool.queries))
    if np.isfinite(sums).all():
        return out
    name = pool.label or "table"
    problem = first_overflow(out)
    if problem is not None and problem[1] == "gain":
        row = problem[0]
        query = str(pool.queries[pool.query_codes[row]])
        fail("qrels_gain_overflow", name=name, line=pool.line(row), query=query, value=float(grades[row]))
    code = int(np.argmin(np.isfinite(sums)))
    rows = np.flatnonzero(pool.query_codes == code)
    with np.errstate(over="ignore"):
        running = np.cumsum(out[rows])
    row = int(rows[int(np.argmin(np.isfinite(running)))])
    fail(
        "qrels_sum_overflow",
        name=name,
        line=pool.line(row),
        query=str(pool.queries[code]),
        value=float(grades[row]),
    )


def _bins(position: NDArray[np.intp], cutoffs: NDArray[np.int64]) -> NDArray[np.intp]:
    """Index of the first cutoff that includes each 0-based position (len(cutoffs): none)."""
    return np.searchsorted(cutoffs, position, side="right").astype(np.intp, copy=False)


def _cumulative(
    codes: NDArray[np.intp], bins: NDArray[np.intp], weights: NDArray[np.float64], n_queries: int, n_cut: int
) -> NDArray[np.float64]:
    """Per query and cutoff, the sum of the weights of the rows the cutoff includes: one
    bincount into (query, cutoff) cells, then a cumulative sum along the cutoffs."""
    kept = bins < n_cut
    cell = codes[kept].astype(np.int64, copy=False) * n_cut + bins[kept]
    table = np.bincount(cell, weights=weights[kept], minlength=n_queries * n_cut).astype(np.float64)
    table = table.reshape(n_queries, n_cut)  # (float even when no row is kept)
    return np.cumsum(table, axis=1)


def _head(
    codes: NDArray[Any], values: NDArray[np.float64], counts: NDArray[np.intp], k: int, ties: bool
) -> NDArray[np.intp] | None:
    """The rows that can be among the first ``k`` of their query, for a run grouped by query
    and listed by rank (``values`` never rising inside a query); None for any other run.

    Each query's first ``k`` rows, and with ``ties`` (trec_eval's order, which breaks a tie by
    the ids) the rest of a tie at the k-th row, which may move up. Ranked on their own, these
    rows take the first ``k`` places as in the whole run. Checked a segment at a time: no
    array the size of the run is made.

    >>> _head(np.array([0, 0, 0, 1, 1]), np.array([3.0, 2.0, 2.0, 5.0, 4.0]), np.array([3, 2]), 2, True)
    array([0, 1, 2, 3, 4])
    >>> _head(np.array([0, 0, 0, 1, 1]), np.array([3.0, 2.0, 2.0, 5.0, 4.0]), np.array([3, 2]), 1, True)
    array([0, 3])
    >>> _head(np.array([0, 0, 1]), np.array([1.0, 2.0, 1.0]), np.array([2, 1]), 1, True) is None
    True
    """
    if not _grouped(codes):
        return None
    for start in range(0, codes.size, _SEGMENT):
        value, code = values[start : start + _SEGMENT + 1], codes[start : start + _SEGMENT + 1]
        ranked = value[1:] <= value[:-1]
        ranked |= code[1:] != code[:-1]
        if not bool(ranked.all()):
            return None
    starts = np.cumsum(counts) - counts
    taken = np.minimum(counts, k)
    if ties:
        longer = np.flatnonzero(counts > k)
        last = starts[longer] + (k - 1)
        for query in longer[values[last] == values[last + 1]]:
            first, end = int(starts[query]) + k - 1, int(starts[query] + counts[query])
            other = np.flatnonzero(values[first + 1 : end] != values[first])
            taken[query] = k + int(other[0]) if other.size else int(counts[query])
    before = np.cumsum(taken) - taken
    rows = np.arange(int(taken.sum()), dtype=np.intp)
    rows += np.repeat(starts - before, taken)
    return rows


def _best_gains(
    codes: NDArray[np.intp], n_queries: int, gains: NDArray[np.float64], depth: int
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.float64]] | None:
    """Each query's ``depth`` largest gains, largest first: the rows of the ideal ranking
    (:func:`_ranked_gains` of the gains themselves) whose position is below ``depth``, in the
    same order, as (query code, 0-based position, gain); None when the gains take too many
    distinct values (then rank them all).

    Gains are few distinct values (grades 0-3): the rows of each (query, value) are counted,
    and the k best read off the counts, with no sort of the judged rows. Equal gains are the
    same number, so this ideal list is the sorted one, value for value.

    >>> codes, position, best = _best_gains(np.array([0, 0, 0, 1, 0]), 2, np.array([1.0, 3.0, 0.0, 2.0, 3.0]), 2)
    >>> codes.tolist(), position.tolist(), best.tolist()
    ([0, 0, 1], [0, 1, 0], [3.0, 3.0, 2.0])
    """

    encoded = _arrow(gains).dictionary_encode()  # (a hash of the values: no sort)
    level = _numpy(encoded.indices).astype(np.intp)
    values = _numpy(encoded.dictionary)
    n_levels = values.size
    if n_queries * n_levels > 2 * codes.size + 4096:
        return None
    descending = np.argsort(-values, kind="stable")
    rank = np.empty(n_levels, dtype=np.intp)
    rank[descending] = np.arange(n_levels)
    cells = np.bincount(codes * n_levels + rank[level], minlength=n_queries * n_levels)
    totals = cells.reshape(n_queries, n_levels).sum(axis=1)
    taken = np.minimum(totals, depth)
    before = np.cumsum(taken) - taken
    position = np.arange(int(taken.sum()), dtype=np.intp) - np.repeat(before, taken)
    best_codes = np.repeat(np.arange(n_queries, dtype=np.intp), taken)
    # a row's place among all rows ranked by (query, gain descending) falls in one cell
    place = position + np.repeat(np.cumsum(totals) - totals, taken)
    cell = np.searchsorted(np.cumsum(cells), place, side="right")
    return best_codes, position, values[descending][cell - best_codes * n_levels]


def _ranked_positions(
    codes: NDArray[np.intp], n_queries: int, values: NDArray[np.float64]
) -> tuple[NDArray[np.intp] | None, NDArray[np.intp]]:
    """Row order by query then ``values`` descending (input order in a tie), and each ranked
    row's 0-based position in its query. The order is None when it is the input order (a
    run listed by rank): no identity permutation, and no gathers through it, at run size."""
    counts = np.bincount(codes, minlength=n_queries)
    starts = np.cumsum(counts) - counts
    if _already_ranked(codes, values):
        # A TREC run file lists each query's documents by rank: no sort needed.
        position = np.arange(codes.size)
        position -= starts[codes]
        return None, position
    order = rank_order(codes, counts, starts, values)
    position = np.arange(codes.size)
    position -= starts[codes[order]]
    return order, position


def _already_ranked(codes: NDArray[np.intp], values: NDArray[np.float64]) -> bool:
    """Whether the rows are grouped by query (codes in order of first appearance never go
    down) and, inside each query, ``values`` never go up: then the ranking is the input order
    (a tie keeps input order, as the sort would)."""
    if codes.size < 2:
        return True
    if not np.all(codes[1:] >= codes[:-1]):
        return False
    ranked = values[1:] <= values[:-1]  # (one-byte temporaries: this runs over every row)
    ranked |= codes[1:] != codes[:-1]
    return bool(ranked.all())


def _trec_order(
    codes: NDArray[np.intp], n_queries: int, score: NDArray[np.float64], items: Any
) -> tuple[NDArray[np.intp] | None, NDArray[np.intp]]:
    """trec_eval's order: by query, score descending, then item id descending as a string.

    Ranked by score first; only the rows of a tie are then re-sorted by their ids (ties are
    few, so no sort ever compares the ids of the whole run). ``items``: each row's item code
    (None: the row itself) and the ids (a pyarrow string array or chunked array). The order is
    None for the input order."""
    import pyarrow.compute as pc

    order, position = _ranked_positions(codes, n_queries, score)
    ranked_codes, ranked_score = (codes, score) if order is None else (codes[order], score[order])
    same = ranked_score[1:] == ranked_score[:-1]
    same &= ranked_codes[1:] == ranked_codes[:-1]
    if same.any():
        tied = np.zeros(codes.size, dtype=bool)
        tied[1:] |= same
        tied[:-1] |= same
        rows = np.flatnonzero(tied)
        # the tie group of each tied row (numbered over the tied rows only): a tied row starts
        # a group unless it ties with the row before it
        after = np.zeros(rows.size, dtype=bool)
        after[rows > 0] = same[rows[rows > 0] - 1]
        group = np.cumsum(~after)
        tied_rows = rows if order is None else order[rows]
        names = _take(items[1], tied_rows if items[0] is None else items[0][tied_rows])
        # pyarrow compares text by its bytes, as strcmp does
        item_codes = _numpy(pc.rank(names, sort_keys="ascending", tiebreaker="dense")).astype(np.int64)
        # descending id within a tie group; the rows of a group are contiguous and keep their slots
        resorted = np.lexsort((-item_codes, group))
        if order is None:
            order = np.arange(codes.size)
        order[rows] = tied_rows[resorted]
    return order, position


def _ranked_gains(
    codes: NDArray[np.intp],
    n_queries: int,
    score: NDArray[np.float64],
    gains: NDArray[np.float64],
    grades: NDArray[np.float64],
    items: Any,
    ties: str,
) -> tuple[NDArray[np.intp] | None, NDArray[np.intp], NDArray[np.intp], NDArray[np.float64]]:
    """The ranking: the row order (None for the input order), and in that order each row's
    query code, 0-based position and gain (a tie's mean gain with ``ties="average"``)."""
    if ties == "trec_eval":
        order, position = _trec_order(codes, n_queries, score, items)
    elif ties in ("optimistic", "pessimistic"):
        counts = np.bincount(codes, minlength=n_queries)
        starts = np.cumsum(counts) - counts
        order = order_by_ties(codes, counts, starts, score, np.fmax(grades, 0.0), ties)
        position = np.arange(codes.size) - starts[codes[order]]
    else:  # "average" and "input": input order inside a tie
        order, position = _ranked_positions(codes, n_queries, score)
    ranked_codes = codes if order is None else codes[order]
    ranked = gains if order is None else gains[order]
    if ties == "average" and ranked.size:
        ranked_score = score if order is None else score[order]
        new = np.empty(ranked.size, dtype=bool)
        new[0] = True
        np.not_equal(ranked_score[1:], ranked_score[:-1], out=new[1:])
        new[1:] |= ranked_codes[1:] != ranked_codes[:-1]
        if not new.all():
            first = np.flatnonzero(new)
            sizes = np.diff(np.append(first, ranked.size))
            ranked = np.repeat(np.add.reduceat(ranked, first) / sizes, sizes)
    return order, ranked_codes, position, ranked


def _look_up(
    lookup: _Lookup,
    pool: _Encoded,
    code: NDArray[np.intp],
    run: _Encoded,
    rows: NDArray[np.intp] | None,
) -> NDArray[np.intp]:
    """The qrels row of the (query, item) pair of each of the run's ``rows`` (None: every
    row), -1 where it is not judged; ``code``: those rows' query codes in the qrels.

    The run's pair keys are searched in the qrels' sorted keys (a run grouped by query
    searches one query's small stretch of them after another, which stays in the caches); a
    key found is a candidate, and the texts of both ids are then compared exactly."""
    import pyarrow.compute as pc

    keys, pool_rows = lookup
    ids = _run_ids(run, rows)
    wanted = _pair_keys(code, _text_hash(ids))
    where = np.searchsorted(keys, wanted)
    np.minimum(where, keys.size - 1, out=where)
    hit = np.flatnonzero(keys[where] == wanted)
    found = np.full(code.size, -1, dtype=np.intp)
    candidate = pool_rows[where[hit]]
    ours = _take(ids, hit)
    theirs = _take(pool.items, candidate)
    same = _numpy(pc.equal(ours, theirs))
    found[hit[same]] = candidate[same]
    return found


def _run_ids(run: _Encoded, rows: NDArray[np.intp] | None) -> Any:
    """The item ids of the run's ``rows`` (None: every row), in that order."""
    return run.items if rows is None else _take(run.items, rows)


def _look_up_by_text(
    pool: _Encoded, code: NDArray[np.intp], run: _Encoded, rows: NDArray[np.intp] | None
) -> NDArray[np.intp]:
    """What :func:`_look_up` gives, by the ids' text (when judged ids of one query collide):
    the judged ids encoded, each (query, item) pair of the qrels numbered, and the run's
    pairs found among those numbers."""
    import pandas as pd
    import pyarrow.compute as pc

    pool_codes, pool_ids = _encode(pool.items)
    pool_keys = pd.Index(pool.query_codes.astype(np.int64) * (len(pool_ids) + 1) + pool_codes)
    item = _found(pc.index_in(_run_ids(run, rows), value_set=pool_ids))
    found = pool_keys.get_indexer(np.where(item >= 0, code.astype(np.int64) * (len(pool_ids) + 1) + item, -1))
    found[item < 0] = -1
    return np.asarray(found, dtype=np.intp)


def _judgments(
    pool: _Encoded,
    lookup: _Lookup | None,
    pool_gains: NDArray[np.float64],
    run: _Encoded,
    code: NDArray[np.intp],
    rows: NDArray[np.intp] | None,
) -> tuple[NDArray[np.float64], NDArray[np.bool_], NDArray[np.float64]]:
    """The grade (NaN where the qrels have none), judged flag and gain of the run's ``rows``
    (None: every row) whose query codes in the qrels are ``code``. ``lookup``:
    :func:`_qrels` (None: a hash collision inside the qrels, ids looked up by text)."""
    found = (
        _look_up_by_text(pool, code, run, rows) if lookup is None else _look_up(lookup, pool, code, run, rows)
    )
    grades = np.where(found >= 0, pool.values[np.maximum(found, 0)], np.nan)
    judged = found >= 0
    judged[judged] = grades[judged] >= 0  # a negative grade: in the pool, not judged (trec_eval)
    return grades, judged, np.where(judged, pool_gains[np.maximum(found, 0)], 0.0)


#: The most fractional grades a result names (:attr:`TrecResult.fractional_grades`).
FRACTIONAL_SHOWN = 5


def _fractional(grades: NDArray[np.float64]) -> tuple[tuple[float, float], ...]:
    """The smallest distinct grades that are not whole numbers, each with its truncation.

    >>> _fractional(np.array([1.0, 1.7, 0.5, 1.7, -0.5]))
    ((-0.5, -0.0), (0.5, 0.0), (1.7, 1.0))
    """
    whole = np.trunc(grades)
    if (whole == grades).all():
        return ()
    shown = np.unique(grades[whole != grades])[:FRACTIONAL_SHOWN]
    return tuple((float(grade), float(np.trunc(grade))) for grade in shown)


def evaluate_trec(
    qrels: pd.DataFrame | ByteSource,
    runs: Mapping[str, pd.DataFrame | ByteSource]
    | Sequence[pd.DataFrame | ByteSource]
    | pd.DataFrame
    | ByteSource,
    *,
    k: Any = 10,
    gain: Gain = "linear",
    discount: Discount = "log2",
    ties: BatchTies = "trec_eval",
    ideal: Ideal = "pool",
    unjudged: Unjudged = "zero",
    missing: Missing = "zero",
    no_relevant: NoRelevant = "zero",
    grades: Grades = "any",
    options: Options | None = None,
    max_size: int = MAX_TEXT_SIZE,
    input_format: InputFormat = "auto",
) -> TrecResult:
    """nDCG@k of every run and judged query, against relevance judgments (qrels).

    With the defaults the mean equals ``trec_eval -c -m ndcg_cut.10 qrels run`` (see the
    module's docstring for each convention and the option that changes it);
    ``missing="drop"`` equals pytrec_eval's ``ndcg_cut_10`` averaged over its queries;
    ``unjudged="drop"`` is the condensed nDCG' (``trec_eval -J``); ``ideal="list"`` is
    scikit-learn's ideal on the returned list.

    Parameters
    ----------
    qrels : DataFrame, path, file-like object or bytes
        The judgments (see :func:`read_qrels`).
    runs : mapping of name to run, or a sequence of runs
        Each run a DataFrame or a file (see :func:`read_trec_run`). A sequence names each
        file run by :func:`run_name`; two runs of one name are refused.
    k : int, sequence of int, text such as ``"5,10,20"``, or None
        Cutoff(s), computed in one pass; ``None`` means each list whole (and the whole pool).
    gain, discount, ties, ideal, unjudged, missing, no_relevant, grades
        The options of :class:`ndcg_core.options.Options` (described in
        :data:`ndcg_core.options.DESCRIPTIONS`). ``grades="any"`` uses a grade such as 0.5 as
        given (and names it in :attr:`TrecResult.fractional_grades`); ``"truncate"`` truncates
        each grade toward zero first, as trec_eval reads grades (C's ``atol``).
    options : Options, optional
        Every option above as one :class:`ndcg_core.options.Options`, instead of the keywords
        (a keyword that differs from its default, :data:`ndcg_core.options.TREC_DEFAULTS`, is
        then refused).
    max_size : int, default MAX_TEXT_SIZE (2 GiB)
        The most text read from one gzip file, pipe or stream (see :func:`read_qrels`).
    input_format : {"auto", "trec", "csv"}, default "auto"
        How the qrels and every run file are read (see :func:`read_qrels`).

    Returns
    -------
    TrecResult
    """
    options = engine_options(
        options,
        TREC_DEFAULTS,
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        ideal=ideal,
        unjudged=unjudged,
        missing=missing,
        no_relevant=no_relevant,
        grades=grades,
    )
    form = check_choice(input_format, INPUT_FORMATS, option="input_format")
    import pyarrow.compute as pc

    named = _named_runs(runs)
    pool, pool_lookup = _qrels(qrels, None, max_size=max_size, input_format=form)
    fractional = _fractional(pool.values)
    if fractional and options.grades == "truncate":
        pool = replace(pool, values=np.trunc(pool.values))
    n_queries = len(pool.queries)
    pool_gains = _gains(pool, options.gain)
    encoded = [
        (name, _run(run, None, tags=False, max_size=max_size, input_format=form)) for name, run in named
    ]  # tags unused here
    run_counts = [_query_counts(run.query_codes, len(run.queries)) for _, run in encoded]
    longest = max([int(np.bincount(pool.query_codes).max())] + [int(counts.max()) for counts in run_counts])
    cutoffs = np.asarray(options.k if options.k is not None else (longest,), dtype=np.int64)
    by_size = np.argsort(cutoffs, kind="stable")
    sorted_cutoffs = cutoffs[by_size]
    n_cut = cutoffs.size
    table = discounts(min(int(sorted_cutoffs[-1]), longest), options.discount)

    def discounted(position: NDArray[np.intp], values: NDArray[np.float64]) -> NDArray[np.float64]:
        weight = np.zeros(position.size)
        inside = position < table.size
        weight[inside] = table[position[inside]]
        return values * weight

    def cumulative(codes: NDArray[np.intp], position: NDArray[np.intp], values: NDArray[np.float64]) -> Any:
        return _cumulative(codes, _bins(position, sorted_cutoffs), values, n_queries, n_cut)

    pool_idcg = None
    if options.ideal == "pool":
        # only each query's k best gains can be in IDCG@k (the deepest cutoff's)
        best = _best_gains(pool.query_codes, n_queries, pool_gains, int(sorted_cutoffs[-1]))
        if best is None:
            _, codes, position, ranked = _ranked_gains(
                pool.query_codes, n_queries, pool_gains, pool_gains, pool.values, None, "input"
            )
        else:
            codes, position, ranked = best
        pool_idcg = cumulative(codes, position, discounted(position, ranked))

    query_ids = np.asarray(pool.queries.to_pylist(), dtype=object)
    given = np.argsort(by_size)  # column j of the given order is column given[j] of the sorted
    names = {m: measure_columns(options.k, m) for m in ("ndcg", "dcg", "idcg", "judged")}
    unjudged_queries: dict[str, tuple[str, ...]] = {}
    missing_queries: dict[str, tuple[str, ...]] = {}
    tables: list[dict[str, NDArray[Any]]] = []
    mean_rows: list[dict[str, Any]] = []
    for (name, run), counts in zip(encoded, run_counts, strict=True):
        # the run's ids looked up in the qrels' once per distinct id (hashed in C++)
        query_map = _found(pc.index_in(run.queries, value_set=pool.queries))
        query_map = query_map.astype(np.intp)
        unjudged_queries[name] = tuple(run.queries.filter(_arrow(query_map < 0)).to_pylist())
        # rows per judged query (each of the run's queries is one of the qrels' at most)
        n_items = np.zeros(n_queries, dtype=np.intp)
        n_items[query_map[query_map >= 0]] = counts[query_map >= 0]
        answered = n_items > 0
        missing_queries[name] = tuple(query_ids[~answered])
        top_only = (
            options.k is not None
            and options.unjudged == "zero"
            and pool_idcg is not None
            and (options.ties in ("trec_eval", "input"))
        )
        # The order needs no grades, and DCG@k and judged@k only the first k rows of each
        # query: in a run listed by rank, the rows that can be among them are known from the
        # counts alone, and nothing else of the run is ever gathered.
        head = (
            _head(run.query_codes, run.values, counts, int(sorted_cutoffs[-1]), options.ties == "trec_eval")
            if top_only
            else None
        )
        kept: NDArray[np.intp] | None  # the run's rows kept (None: every row)
        if head is not None:
            code = query_map[run.query_codes[head]]
            kept = head[code >= 0]
            code = code[code >= 0]
        else:
            code = query_map[run.query_codes]
            keep = code >= 0
            kept = None if keep.all() else np.flatnonzero(keep)
            if kept is not None:
                code = code[kept]
        score = run.values if kept is None else run.values[kept]
        items = (kept, run.items)

        if top_only:
            # the ids of the first k rows of each query alone are looked up in the qrels
            if options.ties == "trec_eval":
                order, position = _trec_order(code, n_queries, score, items)
            else:
                order, position = _ranked_positions(code, n_queries, score)
            top = np.flatnonzero(position < sorted_cutoffs[-1])
            rows = top if order is None else order[top]
            run_rows = rows if kept is None else kept[rows]
            run_grades, judged, gains = _judgments(pool, pool_lookup, pool_gains, run, code[rows], run_rows)
            codes, position = code[rows], position[top]
            judged_count = cumulative(codes, position, judged.astype(np.float64))
            ranked = gains
        else:
            run_grades, judged, gains = _judgments(pool, pool_lookup, pool_gains, run, code, kept)
            order, codes, position, ranked = _ranked_gains(
                code, n_queries, score, gains, run_grades, items, options.ties
            )
            judged_count = cumulative(
                codes, position, (judged if order is None else judged[order]).astype(np.float64)
            )
        # the whole list: judged@k, and DCG unless unjudged items are dropped
        shown = np.minimum(n_items[:, None], sorted_cutoffs[None, :])
        judged_share = np.full(judged_count.shape, np.nan)
        np.divide(judged_count, shown, out=judged_share, where=shown > 0)
        if options.unjudged == "drop":
            code, score, gains, run_grades = code[judged], score[judged], gains[judged], run_grades[judged]
            items = (np.flatnonzero(judged) if items[0] is None else items[0][judged], items[1])
            _, codes, position, ranked = _ranked_gains(
                code, n_queries, score, gains, run_grades, items, options.ties
            )
        dcg = cumulative(codes, position, discounted(position, ranked))
        if pool_idcg is None:  # ideal="list": the returned (or condensed) list's own gains
            _, codes, position, ranked = _ranked_gains(
                code, n_queries, gains, gains, run_grades, None, "input"
            )
            idcg = cumulative(codes, position, discounted(position, ranked))
        else:
            idcg = pool_idcg
        ndcg = np.full(dcg.shape, 0.0 if options.no_relevant == "zero" else np.nan)
        np.divide(dcg, idcg, out=ndcg, where=idcg > 0)
        if options.missing == "drop":
            ndcg[~answered] = np.nan
        columns: dict[str, Any] = {
            "run": np.full(n_queries, name, dtype=object),
            "query": query_ids,
            "n_items": n_items.astype(np.int64),
        }
        for measure, values in (("ndcg", ndcg), ("dcg", dcg), ("idcg", idcg), ("judged", judged_share)):
            for column, index in zip(names[measure], given, strict=True):
                columns[column] = values[:, index]
        columns["missing"] = ~answered
        tables.append(columns)
        in_mean = ~np.isnan(ndcg[:, 0])
        row: dict[str, Any] = {"run": name, "n_queries": int(in_mean.sum())}
        for column, index in zip(names["ndcg"], given, strict=True):
            row[column] = float(ndcg[in_mean, index].mean()) if in_mean.any() else float("nan")
        for column, index in zip(names["judged"], given, strict=True):
            row[column] = float(judged_share[answered, index].mean()) if answered.any() else float("nan")
        mean_rows.append(row)
    per_query = {column: np.concatenate([table[column] for table in tables]) for column in tables[0]}
    return TrecResult(per_query, tuple(mean_rows), options, unjudged_queries, missing_queries, fractional)
