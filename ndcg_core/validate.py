"""Input checks for ndcg_core: the one exception class and the one place that raises it.

Every error carries a message *key* and its *parameters* besides the English message, so the
user interface can show the same error in another language. The core's English text lives
here: :data:`MESSAGES` (one template per key) and :data:`TERMS` (the fragments a message names,
such as the list that was wrong or the rule it broke). The parameters ``what`` and ``rule`` hold
keys of :data:`TERMS`, never English, so a translation (``locales/zh/errors.toml`` and
``terms.toml``) renders every part of the message in its own language.

Each layer above the core owns the messages it raises: ``ndcg_teach``, ``ndcg_live`` and the
app (``ui.framework.messages``) each hand theirs to :func:`register_messages` when imported,
and :class:`NDCGInputError` renders any registered key; :func:`all_messages` and
:func:`all_terms` are every layer's together.
"""

from __future__ import annotations

import math
import numbers
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence, Sized
from types import MappingProxyType
from typing import Any, NoReturn, TypeVar, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "MESSAGES",
    "TERMS",
    "TERM_PARAMS",
    "NDCGInputError",
    "all_messages",
    "all_terms",
    "as_relevance",
    "as_scores",
    "check_choice",
    "check_k",
    "check_labels",
    "check_same_length",
    "control_character",
    "fail",
    "message_layers",
    "parse_answer",
    "parse_labels",
    "parse_numbers",
    "parse_relevance",
    "register_messages",
]

#: A value of a vocabulary: :func:`check_choice` returns the type of its ``allowed``.
_Choice = TypeVar("_Choice", bound=str)

#: English message of every error key: what was wrong, the rule, and what was received.
MESSAGES: dict[str, str] = {
    "empty": "The {what} is empty. Enter at least one number, e.g. 3, 2, 0, 0, 1.",
    "all_unjudged": (
        "Every item of the {what} is unjudged (?). At least one item needs a grade, e.g. 3, ?, 2, 0, 1."
    ),
    "not_a_number": (
        "Item {position} of the {what} is {token!r}, which is not a number. "
        "Use numbers separated by commas, spaces or new lines."
    ),
    "not_finite": (
        "Item {position} of the {what} is {token}. Only finite numbers are allowed (no NaN or infinity)."
    ),
    "negative": ("Item {position} of the {what} is {value:g}. nDCG needs relevance grades of 0 or more."),
    "too_many": "The {what} has {got} items, more than the {limit} allowed here.",
    # a typed answer: one number (ndcg_core.validate.parse_answer)
    "answer_empty": "Your answer is empty. Enter one number, e.g. 0.85.",
    "answer_not_a_number": "Your answer is {token!r}, which is not a number. Enter one number, e.g. 0.85.",
    "answer_not_finite": "Your answer is {token}. Enter one finite number (no NaN or infinity), e.g. 0.85.",
    "answer_too_many": "Your answer has {got} parts. Enter one number only, e.g. 0.85.",
    "length_mismatch": ("The {what} must have the same length. Got {left} and {right} items instead."),
    "k_invalid": "k must be a whole number of at least 1, or none for the whole list. Got {got} instead.",
    "k_too_large": (
        "k must be at most {limit} (the largest 64-bit whole number; any k past a list's "
        "length means the whole list). Got {got} instead."
    ),
    "position_invalid": "The position must be an integer from 1 to {n}. Got {got} instead.",
    "unknown_option": "{option} must be one of {allowed}. Got {got!r} instead.",
    "options_and_keywords": (
        "Give the options either as options=Options(...) or as keywords, not both: {names} also given "
        "as a keyword."
    ),
    "options_one_cutoff": (
        "A run with its own grades is evaluated at one cutoff at a time; these options have {count} "
        "({got}). Evaluate once per cutoff, or use mean_ndcg_at_ks for a curve."
    ),
    "options_need_qrels": (
        "{option}={got!r} applies to runs evaluated against qrels (evaluate_trec): a run with its own "
        "grades has no judged pool. Leave it at {default!r}."
    ),
    "label_empty": "Item {position} has an empty name. Every item needs a name, e.g. D{position}.",
    "label_duplicate": "The name {label!r} is used more than once. Item names must be unique.",
    "label_too_long": "The name of item {position} has {got} characters, more than the {limit} allowed.",
    "pool_missing": (
        "The judged pool must contain every graded item of the ranking. It has {pool_count} "
        "item(s) of grade {grade:g} but the ranking has {list_count}."
    ),
    "shape": "The {what} must be {rule}. Got {got} instead.",
    "missing_column": "The column {column!r} is missing. The table has the columns {columns}.",
    "bad_column": ("Row {row} of the column {column!r} holds {value!r}, which is not {rule}."),
    "duplicate_pair": (
        "The item {item!r} appears more than once for the query {query!r} (rows {rows}). "
        "Each (query, item) pair must appear once."
    ),
    "empty_table": "The {what} has no rows. It needs at least one (query, item) row.",
    "unreadable": "The file {name!r} could not be read as {kind}: {reason}",
    "file_missing": "The file {name!r} does not exist.",
    "bad_values": "The column {column!r} has {count} value(s) that are not {rule}, e.g. {value!r}.",
    "duplicate_pairs": (
        "The item {item!r} appears {count} times for the query {query!r}. "
        "Each (query, item) pair must appear once."
    ),
    "not_binary": (
        "Item {position} of the {what} is {value:g}. On the binary scale (like / dislike) "
        "every grade must be 0 or 1."
    ),
    "not_graded": (
        "Item {position} of the {what} is {value:g}. On the graded scale every grade must be "
        "a whole number from 0 to 3."
    ),
    "grade_missing": "Item {position} has no grade. Enter a number of 0 or more.",
    "decimals_invalid": "decimals must be an integer from 0 to {limit}. Got {got} instead.",
    # scikit-learn's own wording (ndcg_core.sklearn_compat raises exactly what it raises).
    "sk_param": "The {param!r} parameter of {function} must be {rule}. Got {got} instead.",
    "sk_conversion": "{reason}",
    "sk_complex": "Complex data not supported\n{array}\n",
    "sk_strings": (
        "dtype='numeric' is not compatible with arrays of bytes/strings."
        "Convert your data to numeric values explicitly instead."
    ),
    "sk_dim": "Found array with dim {got}, while dim <= 2 is required.",
    "sk_nan": "Input contains NaN.",
    "sk_infinity": "Input contains infinity or a value too large for {dtype}.",
    "sk_scalar": (
        "Input should have at least 1 dimension i.e. satisfy `len(x.shape) > 0`, got scalar `{got}` instead."
    ),
    "sk_samples": ("Found array with {got} sample(s) (shape={shape}) while a minimum of 1 is required."),
    "sk_features": ("Found array with {got} feature(s) (shape={shape}) while a minimum of 1 is required."),
    "sk_lengths": "Found input variables with inconsistent numbers of samples: {lengths}",
    "sk_negative": "ndcg_score should not be used on negative y_true values.",
    "sk_one_document": (
        "Computing NDCG is only meaningful when there is more than 1 document. Got {got} instead."
    ),
    "sk_target_type": "Only {supported} formats are supported. Got {got} instead",
    "sk_weights_zero": "Weights sum to zero, can't be normalized",
    # issue 12: hostile files and values
    "label_control": (
        "The name of item {position} contains a control character ({char}). Item names must be "
        "one line of text: no new lines, tabs or other invisible control characters."
    ),
    "parquet_invalid": (
        "The file {name!r} starts like a Parquet file but is not a valid one (it may be cut "
        "short or damaged). Save it again, or use a CSV file."
    ),
    "field_count": (
        "Row {row} has {got} field(s), but the header has {expected}. Every row needs exactly "
        "one value per column (check for an extra or missing comma, or a quote that is not "
        "closed)."
    ),
    "field_count_line": (
        "Row {row} (line {line} of the file) has {got} field(s), but the header has {expected}. "
        "Every row needs exactly one value per column (check for an extra or missing comma, "
        "or a quote that is not closed)."
    ),
    "not_utf8": (
        "The file {name!r} is not UTF-8 text (line {line} holds bytes that are not UTF-8). "
        'Save it as UTF-8 text (a spreadsheet\'s "CSV UTF-8") and read it again.'
    ),
    "gain_overflow": (
        "The grade {value:g} is too large for the exponential gain: 2^{value:g} - 1 is above "
        "the largest floating-point number (about 1.8e308). Use grades below 1024."
    ),
    "gain_overflow_row": (
        "Row {row} of the column {column!r} holds the grade {value:g}, too large for the "
        "exponential gain: 2^{value:g} - 1 is above the largest floating-point number "
        "(about 1.8e308). Use grades below 1024."
    ),
    "sum_overflow": (
        "The grades are too large: their gains add up to more than the largest floating-point "
        "number (about 1.8e308) at the grade {value:g} (item {position}), so DCG would be "
        "infinite. Use smaller grades."
    ),
    "sum_overflow_query": (
        "The grades of the query {query!r} are too large: their gains add up to more than the "
        "largest floating-point number (about 1.8e308) at row {row} (grade {value:g}), so DCG "
        "would be infinite. Use smaller grades."
    ),
    "sum_overflow_spark": (
        "The grades of the query {query!r} are too large: their gains add up to more than the "
        "largest floating-point number (about 1.8e308) (its largest grade is {value:g}), so "
        "DCG would be infinite. Use smaller grades."
    ),
    "sum_overflow_2d": (
        "The grades of y_true are too large: they add up to more than the largest "
        "floating-point number (about 1.8e308) at row {row}, column {position} (grade "
        "{value:g}), so DCG would be infinite. Use smaller grades."
    ),
    "ties_ignore_batch": (
        "The tie treatment 'ignore' (an arbitrary, machine-dependent order) is defined for a "
        "single list only, not for a run of many queries. Use 'input' (tied items keep the "
        "file's order) or 'trec_eval' (score descending, then item id descending)."
    ),
    "ties_needs_item": (
        "The tie treatment 'trec_eval' breaks ties by item id, but the run has no item column "
        "{column!r}. Name the item id column, or choose another tie treatment."
    ),
    # ndcg_core.significance: comparing runs query by query
    "compare_column_name": "The {option} column must be named by a non-empty text. Got {got} instead.",
    "compare_missing_id": (
        "The column {column!r} has {count} row(s) without a value. Every row needs a run name and a query id."
    ),
    "compare_too_few_runs": "Comparing runs needs at least two runs. The table has {got}.",
    "compare_too_few_queries": (
        "Comparing runs needs at least two queries (the tests are over queries). The table has {got}."
    ),
    "compare_unknown_baseline": "The baseline run {baseline!r} is not in the table. Its runs are {runs}.",
    "compare_duplicate": (
        "The run {run!r} has {count} rows for the query {query!r}. Each (run, query) pair must appear once."
    ),
    "compare_missing_queries": (
        "The run {run!r} has no value for {count} of the {total} queries, e.g. {query!r}. The "
        "runs are compared query by query, so every run needs a value for the same queries."
    ),
    "compare_not_finite": (
        "The run {run!r} has {value} as its {measure!r} for the query {query!r} ({count} "
        "value(s) of the table are not finite numbers). Every value compared must be a finite "
        "number: give the query a value in every run, or leave it out of every run."
    ),
    "compare_exact_too_many": (
        "The exact randomization test enumerates 2^n sign flips for n queries and is limited "
        "to {limit} queries. Got {got} queries: use permutation='auto' or 'monte_carlo'."
    ),
    "compare_too_many_resamples": (
        "Comparing runs takes at most {limit} resamples (bootstrap resamples and random sign "
        "flips): more changes no figure shown and takes memory and minutes. Got {got} instead."
    ),
    "compare_undefined": "The statistic {statistic!r} is not defined for these values, so it is not shown.",
    # issue 15: qrels and TREC runs
    "trec_field_count": (
        "Line {line} of the file {name!r} has {got} field(s), but a line of a {what}. "
        "Fields are separated by spaces or tabs."
    ),
    "trec_value": "Line {line} of the file {name!r}: the {what} {value!r} is not {rule}.",
    "file_missing_column": (
        "The file {name!r}, read as CSV or Parquet, has no column {column!r}: its columns are "
        "{columns}. A qrels or run table needs the columns {needed}; a TREC file has no header "
        "line (4 fields a line in qrels, 6 in a run)."
    ),
    "qrels_conflict": (
        "The qrels file {name!r} grades the item {item!r} of the query {query!r} twice with "
        "different grades: {first:g} on line {line_first} and {second:g} on line {line}. "
        "Keep one grade per (query, item)."
    ),
    "qrels_gain_overflow": (
        "Line {line} of the qrels file {name!r} (query {query!r}) holds the grade {value:g}, "
        "too large for the exponential gain: 2^{value:g} - 1 is above the largest "
        "floating-point number (about 1.8e308). Use grades below 1024."
    ),
    "qrels_sum_overflow": (
        "The grades of the query {query!r} in the qrels file {name!r} are too large: their "
        "gains add up to more than the largest floating-point number (about 1.8e308) at line "
        "{line} (grade {value:g}), so IDCG would be infinite. Use smaller grades."
    ),
    "run_duplicate": (
        "The run {name!r} retrieves the item {item!r} twice for the query {query!r} (lines "
        "{line_first} and {line}). Each (query, item) pair must appear once, as trec_eval requires."
    ),
    "run_name_duplicate": (
        "Two runs are named {run!r}. Give each run its own name (rename a file, or pass a "
        "mapping from names to runs)."
    ),
    "no_runs": "No run was given. Give at least one run to evaluate against the qrels.",
    # hostile files: comment lines, gzip bombs, pipes and devices, over-long ids
    "gzip_ratio": (
        "The file {name!r} is gzip-compressed and expands to more than {ratio} times its size "
        "({size} bytes compressed, more than {limit} bytes decompressed). Real TREC files "
        "compress 4 to 6 times, so it was not read further."
    ),
    "gzip_too_large": (
        "The file {name!r} is gzip-compressed and expands to more than {limit} bytes, the most "
        "read from one file, so it was not read further."
    ),
    "stream_too_large": (
        "The file {name!r} is not a plain file (a pipe, a device or an upload stream) and "
        "delivers more than {limit} bytes, the most read from one such file, so it was not read "
        "further."
    ),
    "trec_id_too_long": (
        "Line {line} of the file {name!r}: an {what} of {got} bytes (UTF-8), more than the "
        "{limit} allowed. No collection has ids that long."
    ),
    "id_too_long": (
        "Row {row} of the column {column!r} holds an id of {got} bytes (UTF-8), more than the "
        "{limit} allowed. No collection has ids that long."
    ),
    # issue 15: qrels, several runs, warehouse tables (ndcg_core.spark)
    "duplicate_pairs_run": (
        "The item {item!r} appears {count} times for the query {query!r} in the run {run!r}. "
        "Each (query, item) pair must appear once in a run."
    ),
    "qrels_conflict_table": (
        "The qrels judge the item {item!r} of the query {query!r} more than once with different "
        "grades ({low:g} and {high:g}). Each judged (query, item) pair needs one grade."
    ),
    "table_missing": (
        "The table {name!r} does not exist in the metastore. Check the database and table name "
        "(db.table), or create the table first."
    ),
    "table_name_invalid": "The table name {name!r} is not valid. Write it as db.table or table.",
    "database_missing": (
        "The database {database!r} of the table {name!r} does not exist in the metastore. "
        "Create it first (CREATE DATABASE {database}) or choose another database."
    ),
    # issue "Read every file trec_eval reads", items 11, 12 and 16: wrong types, library
    # messages, output tables
    "column_roles": (
        "The column {column!r} is chosen for two roles, {first} and {second}. The query, item, "
        "relevance and score columns must be different columns."
    ),
    "column_type": "The column {column!r} holds values of the type {type}, which are not {rule}.",
    "table_exists": (
        "The table {name!r} already exists. Choose another name for the results, or allow "
        "replacing it (--overwrite)."
    ),
    "table_is_view": (
        "{name!r} is a view, not a table: the results are written to a table only. Choose another name."
    ),
    "output_is_input": (
        "The output {name!r} is one of the inputs: writing the results there would destroy it. "
        "Choose another name."
    ),
    "csv_row_too_long": (
        "Line {line} of the file {name!r} starts a row of {got} bytes, more than the {limit} a "
        "row may have. No id, grade or score is that long: check for a quote that is not closed."
    ),
}


#: English text of the fragments that ``what`` and ``rule`` name; a fragment may use the
#: error's other parameters (e.g. ``{limit}``).
TERMS: dict[str, str] = {
    # what was wrong
    "list": "list",
    "relevance_list": "relevance list",
    "score_list": "score list",
    "judged_pool": "judged pool",
    "labels_and_grades": "item names and the grades",
    "answers_and_verdicts": "answers and their verdicts",
    "grades_and_scores": "grades and scores",
    "relevance_and_scores": "relevance list and the score list",
    "text": "text",
    "answer": "answer",
    "run": "run",
    "qrels": "qrels (relevance judgments)",
    "table": "table {name!r}",
    "file": "file {name!r}",
    "n_queries": "number of queries (n_queries)",
    "tolerance": "tolerance",
    "decimals": "number of decimals",
    "compared_value": "compared value",
    "expected_answer": "expected answer",
    "largest_exact": "largest list enumerated exactly",
    "samples": "number of samples",
    "log_bases": "log bases",
    "y_score": "y_score",
    "trec_qrels": (
        "TREC qrels file has 4 (query, iteration, document, grade); trec_eval refuses any other "
        'number too ("Malformed line")'
    ),
    "trec_run": (
        "TREC run has at least 6 (query, Q0, document, rank, score, tag; fields after the sixth "
        "are ignored, as trec_eval ignores them)"
    ),
    "field_grade": "grade",
    "field_score": "score",
    "field_id": "id",
    "sample_weight": "sample_weight",
    "per_query_table": "per-query table",
    "confidence": "confidence level",
    "seed": "seed",
    # the rule it broke
    "rule_text": "text",
    "band_width": "band width",
    "rule_band_width": "a number in (0, 1] that divides 1 into whole bands",
    "rule_same_shape": "an array of the shape of y_true, {expected}",
    "rule_weights": "a one-dimensional array, one weight per query",
    "rule_one_dimensional": "a one-dimensional list",
    "rule_positive_integer": "a positive integer",
    "rule_one_number": "one number",
    "rule_finite_non_negative": "a finite number of 0 or more",
    "rule_decimals": "an integer from 0 to {limit}",
    "rule_tolerance_or_decimals": "left out when a number of decimals is given",
    "rule_number": "a number",
    "rule_number_decimal_comma": "a number: write the decimal point as '.', not as a decimal comma",
    "rule_finite": "a finite number (no missing values, NaN or infinity)",
    "rule_grade": "a relevance grade of 0 or more",
    "rule_id": "an id (every row needs one)",
    "rule_scalar_id": "ids (text or numbers, one value per row, not lists or records)",
    "rule_id_no_nul": (
        "an id without a NUL character (byte 0), which ends an id in C programs such as trec_eval"
    ),
    "rule_log_base": "finite numbers above 1",
    "rule_data_frame": "a pandas DataFrame with one row per (run, query)",
    "rule_confidence": "a number strictly between 0 and 1, e.g. 0.95",
    "rule_seed_or_none": "a whole number from 0 to {limit}, or None for a fresh seed",
}

#: The parameters of an error that hold keys of :data:`TERMS`.
TERM_PARAMS: tuple[str, ...] = ("what", "rule")

# The registry of messages, the one state of this module that changes: each layer adds its own
# once, when it is imported (register_messages). Layer -> (its messages, its terms).
_LAYERS: dict[str, tuple[dict[str, str], dict[str, str]]] = {"core": (MESSAGES, TERMS)}
_ALL_MESSAGES: dict[str, str] = dict(MESSAGES)
_ALL_TERMS: dict[str, str] = dict(TERMS)


def register_messages(
    layer: str, messages: Mapping[str, str], terms: Mapping[str, str] | None = None
) -> None:
    """Let the layer ``layer`` raise :class:`NDCGInputError` with message keys of its own.

    ``messages`` maps each key to its English template and ``terms`` the layer's own ``what=`` /
    ``rule=`` fragments, as :data:`MESSAGES` and :data:`TERMS` do for the core. A key that
    another layer (the core included) has registered is refused, so no layer rewords another's
    message: a key used by several layers lives in the lowest of them. The same layer
    registering again (its module imported anew, as Streamlit does after an edit) replaces its
    own keys. The Chinese of every key stays in ``locales/zh/errors.toml`` and ``terms.toml``.

    >>> register_messages("example", {"empty": "Nothing."})
    Traceback (most recent call last):
    ...
    ValueError: The layer 'example' registers message keys of another layer: 'empty' (core).
    """
    if layer == "core":
        raise ValueError("The core's messages are validate.MESSAGES and validate.TERMS, not a registration.")
    new = (dict(messages), dict(terms or {}))
    for index, kind in enumerate(("message", "term")):
        taken = [
            f"{key!r} ({other})"
            for other, tables in _LAYERS.items()
            if other != layer
            for key in new[index]
            if key in tables[index]
        ]
        if taken:
            raise ValueError(
                f"The layer {layer!r} registers {kind} keys of another layer: {', '.join(taken)}."
            )
    _LAYERS[layer] = new
    _ALL_MESSAGES.clear()
    _ALL_TERMS.clear()
    for own_messages, own_terms in _LAYERS.values():
        _ALL_MESSAGES.update(own_messages)
        _ALL_TERMS.update(own_terms)


def all_messages() -> Mapping[str, str]:
    """The English template of every registered message key, the core's and each layer's
    (read-only; a layer's keys are there once it is imported)."""
    return MappingProxyType(_ALL_MESSAGES)


def all_terms() -> Mapping[str, str]:
    """The English text of every registered ``what=`` / ``rule=`` fragment (read-only)."""
    return MappingProxyType(_ALL_TERMS)


def message_layers() -> dict[str, tuple[str, ...]]:
    """Each registered layer and its message keys (the core first, then in the order registered)."""
    return {layer: tuple(own_messages) for layer, (own_messages, _) in _LAYERS.items()}


def render(templates: Mapping[str, str], terms: Mapping[str, str], key: str, params: dict[str, Any]) -> str:
    """Fill the template of ``key`` with ``params``, ``what`` and ``rule`` given by ``terms``.

    The user interface calls it with its own language's tables, this module with the English
    ones, so both render a message the same way.

    >>> render(MESSAGES, TERMS, "empty", {"what": "relevance_list"})
    'The relevance list is empty. Enter at least one number, e.g. 3, 2, 0, 0, 1.'
    """
    filled = dict(params)
    for name in TERM_PARAMS:
        value = filled.get(name)
        if isinstance(value, str) and value in terms:
            filled[name] = terms[value].format(**params)
    return templates[key].format(**filled)


class NDCGInputError(ValueError):
    """Invalid input to ndcg_core.

    Attributes
    ----------
    key : str
        The message key (a key of :data:`MESSAGES` or of a layer's registered messages,
        :func:`all_messages`), for translation.
    params : dict
        The values substituted into the message.
    """

    def __init__(self, key: str, **params: Any) -> None:
        # scikit-learn's own messages (sk_*) carry its English wording on purpose
        for name in () if key.startswith("sk_") else TERM_PARAMS:
            if name in params and params[name] not in _ALL_TERMS:
                raise KeyError(
                    f"{name}={params[name]!r} is not a key of ndcg_core.validate.TERMS or of a layer's terms"
                )
        if key not in _ALL_MESSAGES:
            raise KeyError(f"{key!r} is not a registered message key (is its layer imported?)")
        self.key = key
        self.params = params
        super().__init__(render(_ALL_MESSAGES, _ALL_TERMS, key, params))


def fail(key: str, **params: Any) -> NoReturn:
    """Raise :class:`NDCGInputError` with the message ``key`` filled with ``params``."""
    raise NDCGInputError(key, **params)


# NFKC folds full-width digits and punctuation ("３，２" -> "3,2"); the ideographic comma and
# the list separators people type in Chinese stay, so they are separators too.
_SEPARATORS = re.compile(r"[\s,;、|]+")
# One typed number (an answer): a single comma or ideographic full stop between digits is the
# decimal point ("0,98" from a decimal-comma keyboard, "0。98" from a Chinese input method).
# In a list the comma stays the separator ("0,98" is the two grades 0 and 98).
_DECIMAL_COMMA = re.compile(r"([+-]?\d+)[,。](\d+)")


def _to_float(token: str) -> float:
    """``float(token)``, but refusing the underscores Python allows between digits ("1_0" is 10)."""
    if "_" in token:
        raise ValueError(token)
    return float(token)


def parse_numbers(
    text: str,
    *,
    what: str = "list",
    limit: int | None = None,
    allow_negative: bool = True,
) -> NDArray[np.float64]:
    """Parse numbers typed by a person into a float array.

    Separators are commas, semicolons, spaces, tabs, new lines, the full-width comma "，",
    the ideographic comma "、" and "|"; brackets around the list are ignored.

    >>> parse_numbers("3, 2 0;0\\n1").tolist()
    [3.0, 2.0, 0.0, 0.0, 1.0]
    >>> parse_numbers("[0.5，1]").tolist()
    [0.5, 1.0]
    """
    if not isinstance(text, str):
        fail("shape", what=what, rule="rule_text", got=type(text).__name__)
    folded = unicodedata.normalize("NFKC", text).strip().strip("[]()").strip()
    tokens = [token for token in _SEPARATORS.split(folded) if token]
    if not tokens:
        fail("empty", what=what)
    if limit is not None and len(tokens) > limit:
        fail("too_many", what=what, got=len(tokens), limit=limit)
    values = np.empty(len(tokens), dtype=np.float64)
    for index, token in enumerate(tokens):
        try:
            value = _to_float(token)
        except ValueError:
            fail("not_a_number", what=what, position=index + 1, token=token[:40])
        if not math.isfinite(value):
            fail("not_finite", what=what, position=index + 1, token=token)
        if value < 0 and not allow_negative:
            fail("negative", what=what, position=index + 1, value=value)
        values[index] = value
    return values


def parse_answer(text: str) -> float:
    """Parse the one number a person typed as an answer.

    The text is read as :func:`parse_numbers` reads a list (full-width digits, brackets), but
    its messages speak of the answer: ``answer_empty``, ``answer_too_many``,
    ``answer_not_a_number`` and ``answer_not_finite``. A single comma or ideographic full stop
    between digits is the decimal point ("0,98" and "0。98" are 0.98; in a list the comma
    separates); underscores are refused ("1_0" is not 10).

    >>> parse_answer(" 0.98 "), parse_answer("０.５"), parse_answer("0,98"), parse_answer("0。98")
    (0.98, 0.5, 0.98, 0.98)
    """
    if not isinstance(text, str):
        fail("shape", what="answer", rule="rule_one_number", got=type(text).__name__)
    folded = unicodedata.normalize("NFKC", text).strip().strip("[]()").strip()
    decimal = _DECIMAL_COMMA.fullmatch(folded)
    if decimal:
        folded = f"{decimal[1]}.{decimal[2]}"
    tokens = [token for token in _SEPARATORS.split(folded) if token]
    if not tokens:
        fail("answer_empty")
    if len(tokens) > 1:
        fail("answer_too_many", got=len(tokens))
    (token,) = tokens
    try:
        value = _to_float(token)
    except ValueError:
        fail("answer_not_a_number", token=token[:40])
    if not math.isfinite(value):
        fail("answer_not_finite", token=token[:40])
    return value


def parse_relevance(
    text: str, *, limit: int | None = None, allow_unjudged: bool = False
) -> NDArray[np.float64]:
    """Parse relevance grades typed by a person: non-negative finite numbers.

    With ``allow_unjudged=True`` a ``?`` (or the full-width ``？``) marks an item that was
    never judged; it becomes NaN, which only the ``unjudged=`` option of the metrics accepts.

    Parameters
    ----------
    text : str
        The grades in rank order, e.g. ``"3, 2, 0, 0, 1"``, ``"3 2 0 0 1"`` or ``"3，2，0"``.
    limit : int, optional
        The most items allowed (the user interface's limit); ``None`` for no limit.
    allow_unjudged : bool
        Accept ``?`` for an unjudged item (NaN in the result).

    Returns
    -------
    numpy.ndarray of float
        The grades, position 1 first (NaN for ``?``).

    Raises
    ------
    NDCGInputError
        On empty text, a token that is not a number, NaN or infinity, a negative grade, or
        more items than ``limit``.

    >>> parse_relevance("3, 2, 0, 0, 1").tolist()
    [3.0, 2.0, 0.0, 0.0, 1.0]
    >>> parse_relevance("3, ?, 1", allow_unjudged=True).tolist()
    [3.0, nan, 1.0]
    """
    if not allow_unjudged:
        return parse_numbers(text, what="relevance_list", limit=limit, allow_negative=False)
    if not isinstance(text, str):
        fail("shape", what="relevance_list", rule="rule_text", got=type(text).__name__)
    folded = unicodedata.normalize("NFKC", text).strip().strip("[]()").strip()
    tokens = [token for token in _SEPARATORS.split(folded) if token]
    if not tokens:
        fail("empty", what="relevance_list")
    if limit is not None and len(tokens) > limit:
        fail("too_many", what="relevance_list", got=len(tokens), limit=limit)
    unjudged = np.array([token == "?" for token in tokens])
    # the judged tokens go through the one parser, so their errors name their own position
    judged = [token if token != "?" else "0" for token in tokens]
    values = parse_numbers(" ".join(judged), what="relevance_list", allow_negative=False)
    values[unjudged] = np.nan
    return values


def parse_labels(text: str, n: int | None = None, *, limit: int = 60) -> list[str]:
    """Parse item names typed as one comma- or line-separated list and check them.

    >>> parse_labels("D1, D2, D3")
    ['D1', 'D2', 'D3']
    """
    folded = unicodedata.normalize("NFKC", text) if isinstance(text, str) else ""
    labels = [part.strip() for part in re.split(r"[,;\n、]", folded)]
    if labels == [""]:
        labels = []
    if n is not None and len(labels) != n:
        fail("length_mismatch", what="labels_and_grades", left=len(labels), right=n)
    return check_labels(labels, limit=limit)


def control_character(label: str) -> str | None:
    """The first control or format character of ``label`` (Unicode Cc / Cf), as ``U+XXXX``.

    >>> control_character("a" + chr(9) + "b"), control_character("D1")
    ('U+0009', None)
    """
    for char in label:
        if unicodedata.category(char) in ("Cc", "Cf"):
            return f"U+{ord(char):04X}"
    return None


def check_labels(labels: Sequence[Any], *, limit: int = 60) -> list[str]:
    """Check item names: each non-empty, one line (no control characters), at most ``limit``
    characters, no name twice.

    A name with a new line, tab, carriage return or another control or format character
    (Unicode categories Cc and Cf) would split a row of the step table and of its download.

    >>> check_labels(["D1", " D2 "])
    ['D1', 'D2']
    """
    seen: set[str] = set()
    out: list[str] = []
    for index, raw in enumerate(labels):
        label = "" if raw is None or (isinstance(raw, float) and math.isnan(raw)) else str(raw).strip()
        if not label:
            fail("label_empty", position=index + 1)
        char = control_character(label)
        if char is not None:
            fail("label_control", position=index + 1, char=char)
        if len(label) > limit:
            fail("label_too_long", position=index + 1, got=len(label), limit=limit)
        if label in seen:
            fail("label_duplicate", label=label)
        seen.add(label)
        out.append(label)
    return out


def _as_float_vector(values: ArrayLike, what: str, allow_nan: bool = False) -> NDArray[np.float64]:
    if isinstance(values, str):
        return parse_numbers(values, what=what)
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        bad = _first_non_number(values)
        fail("not_a_number", what=what, position=bad[0], token=str(bad[1])[:40])
    underscored = _first_underscored(values)
    if underscored is not None:  # NumPy, like float(), reads "1_0" as 10
        fail("not_a_number", what=what, position=underscored[0], token=underscored[1][:40])
    if array.ndim != 1:
        fail("shape", what=what, rule="rule_one_dimensional", got=f"{array.shape}")
    if array.size == 0:
        fail("empty", what=what)
    finite = np.isfinite(array) | (np.isnan(array) if allow_nan else False)
    if not finite.all():
        position = int(np.argmin(finite))
        item = values[position] if isinstance(values, (list, tuple)) else None
        # a typed cell ("1e999") is named as typed, as the text box names it, not as "inf"
        token = item.strip()[:40] if isinstance(item, str) else str(array[position])
        fail("not_finite", what=what, position=position + 1, token=token)
    return array


def _first_underscored(values: Any) -> tuple[int, str] | None:
    if isinstance(values, np.ndarray) and values.dtype.kind not in "OUS":
        return None  # numbers already: no text to read
    if isinstance(values, Iterable) and not isinstance(values, (str, bytes)):
        for index, value in enumerate(values):
            if isinstance(value, (str, np.str_)) and "_" in value:
                return index + 1, str(value)
    return None


def _first_non_number(values: Any) -> tuple[int, Any]:
    if isinstance(values, Iterable):
        for index, value in enumerate(values):
            try:
                _to_float(value) if isinstance(value, str) else float(value)
            except (TypeError, ValueError):
                return index + 1, value
    return 1, values


def as_relevance(
    values: ArrayLike,
    *,
    allow_negative: bool = False,
    what: str = "relevance_list",
    allow_unjudged: bool = False,
) -> NDArray[np.float64]:
    """Relevance grades as a 1-D float array: non-empty, finite, non-negative unless allowed.

    With ``allow_unjudged=True``, NaN (an unjudged item) is accepted; infinity never is.

    >>> as_relevance([3, 2, 0]).tolist()
    [3.0, 2.0, 0.0]
    """
    if allow_unjudged and isinstance(values, str):
        return parse_relevance(values, allow_unjudged=True)
    array = _as_float_vector(values, what, allow_nan=allow_unjudged)
    if not allow_negative and (array < 0).any():
        position = int(np.argmax(array < 0))
        fail("negative", what=what, position=position + 1, value=float(array[position]))
    return array


def as_scores(values: ArrayLike, *, what: str = "score_list") -> NDArray[np.float64]:
    """Model scores as a 1-D float array: non-empty and finite (any sign)."""
    return _as_float_vector(values, what)


def check_same_length(left: Sized, right: Sized, *, what: str) -> None:
    """Raise unless ``left`` and ``right`` have the same length."""
    if len(left) != len(right):
        fail("length_mismatch", what=what, left=len(left), right=len(right))


def check_k(k: Any, n: int) -> int:
    """The cutoff as an int in 1..n: ``None`` or ``k > n`` mean the whole list.

    >>> check_k(None, 5), check_k(3, 5), check_k(10, 5)
    (5, 3, 5)
    """
    if k is None:
        return n
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
        fail("k_invalid", got=repr(k))
    return min(int(k), n)


def check_choice(value: Any, allowed: Iterable[_Choice], *, option: str) -> _Choice:
    """``value`` when it is one of ``allowed``, typed as they are (a vocabulary typed
    ``tuple[Gain, ...]`` gives a ``Gain``); raise otherwise.

    >>> check_choice("log2", ("log2", "jarvelin"), option="discount")
    'log2'
    """
    choices = tuple(allowed)
    if value not in choices:
        fail("unknown_option", option=option, allowed=", ".join(choices), got=value)
    # value equals one of the choices: it is that choice, whatever type the caller gave it.
    return cast(_Choice, value)
