"""Finding English left on a Chinese page: the allow-list, the word finder, and every visible
text of an AppTest run (the browser tests read the same rules for what Chromium shows).

What may stay in Latin script on a Chinese page (issue 11): code (inline, blocks, a call, an
identifier, a command line), formulas, item labels (D1 …), quoted values (a file name, a column,
what someone typed: ``{x!r}`` in a message; a name from a file, “query”), the names of metrics, tools, libraries, formats and
people, and the titles of references (which Chinese sets in 《》). Everything else is Chinese.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

#: Names and symbols only, never a common English word: metrics and their symbols, tools,
#: libraries, languages, file formats, and people cited on the pages.
ALLOWED_WORDS = {
    w.lower()
    for w in (
        # metrics and symbols
        "nDCG",
        "DCG",
        "IDCG",
        "CG",
        "ERR",
        "RBP",
        "MAP",
        "MRR",
        "log",
        "log2",
        "ln",
        "max",
        "min",
        "rel",
        "exp",
        "nDCG@k",
        "DCG@k",
        "IDCG@k",
        "qid",
        "ID",
        "URL",
        "NaN",
        # key names as printed on keyboards
        "Tab",
        "Esc",
        # tools, libraries, languages, formats
        "scikit-learn",
        "sklearn",
        "ranx",
        "numba",
        "trec_eval",
        "pytrec_eval",
        "ir_measures",
        "Spark",
        "PySpark",
        "MLlib",
        "LightGBM",
        "XGBoost",
        "TensorFlow",
        "TF-Ranking",
        "torchmetrics",
        "gdeval",
        "Altair",
        "NumPy",
        "SciPy",
        "pandas",
        "Hive",
        "SQL",
        "Elasticsearch",
        "OpenSearch",
        "Solr",
        "Vespa",
        "Lucene",
        "RankLib",
        "Metarank",
        "Python",
        "Scala",
        "Java",
        "Streamlit",
        "Chromium",
        "TREC",
        "qrels",
        "CSV",
        "TSV",
        "PNG",
        "SVG",
        "QR",
        "HTML",
        "PDF",
        "Parquet",
        "UTF-8",
        "GBK",
        "Excel",
        "jarvelin",
        # people
        "Järvelin",
        "Kekäläinen",
        "Burges",
        "McSherry",
        "Najork",
        "Manning",
        "Raghavan",
        "Schütze",
        "Sakai",
        "Moffat",
        "Zobel",
        "Chapelle",
        "Metzler",
        "Zhang",
        "Grinberg",
        "Clarke",
        "Wang",
        "Robertson",
        "Voorhees",
        "Buckley",
        "Craswell",
        "Grinspan",
        "Holm",
        "Krichene",
        "Rendle",
        # venues of the references
        "SIGIR",
        "CIKM",
        "ACM",
        "TOIS",
        "ECIR",
        "ICML",
        "COLT",
        "KDD",
        # references by their usual short names (Manning et al., Introduction to Information Retrieval)
        "IIR",
        # languages by their own names (the language switcher)
        "English",
    )
}
#: Names of more than one word (stripped before the words are counted).
ALLOWED_PHRASES = ("TensorFlow Ranking", "TF Ranking", "Spark MLlib")

_LATIN_WORD = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ0-9_\-]*")
_ICON = re.compile(r":material/[a-z_]+:|:[a-z_]+:|:[a-z]+(?:-background)?\[")  # icons, :gray[…]
_ESCAPE = re.compile(r"\\(.)")  # md_escape's backslashes
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|`[^`]*`", re.DOTALL)
_TITLE = re.compile(r"《[^》]*》")  # a reference's title, as Chinese sets it
_QUOTED = re.compile(r"'[^'\n]{0,200}'")  # a value quoted by {x!r}
_CALL = re.compile(r"[A-Za-z_][\w.]*\((?:[^()]|\([^()]*\))*\)")  # ndcg_score(y_true, y_score)
_SCRIPT = re.compile(r"\b[\w-]+\.pl(?: +[\w./-]+)+")  # gdeval.pl qrels run 10: a Perl script's command line
_COMMAND = re.compile(r"\b[\w.-]+(?: +-{1,2}[A-Za-z][\w.=-]*(?: +[\w./=-]+)*)+")  # trec_eval -m x a b
_IDENTIFIER = re.compile(r"\b\w+(?:[_.]\w+)+\b|\b\w+=\S*")  # y_true, tfr.keras.metrics, k=5, metric="x"
_NAME = re.compile(r"“[^”\s\u4e00-\u9fff]{1,60}”")  # one quoted name: a file's column “query”
_ITEM = re.compile(r"D\d+")
_JSON = re.compile(r"\{\s*\"[^{}]*\}")  # a JSON object: {"metric": "ndcg"}


def english_words(text: str) -> list[str]:
    """Latin-script words of three or more letters that are neither exempt nor allowed.

    >>> english_words("步骤表（CSV）与 nDCG@5：`ndcg_score(y_true, y_score)`，D12")
    []
    >>> english_words("相关性 Relevance grade")
    ['Relevance', 'grade']
    """
    text = _ESCAPE.sub(r"\1", _MATH.sub(" ", _ICON.sub(" ", text)))
    for pattern in (_MATH, _JSON, _TITLE, _QUOTED, _NAME, _CALL, _SCRIPT, _COMMAND, _IDENTIFIER):
        text = pattern.sub(" ", text)
    for phrase in ALLOWED_PHRASES:
        text = text.replace(phrase, " ")
    words = []
    for word in _LATIN_WORD.findall(text):
        core = word.strip("-_")
        letters = sum(ch.isascii() and ch.isalpha() for ch in core)
        if letters >= 3 and core.lower() not in ALLOWED_WORDS and not _ITEM.fullmatch(core):
            words.append(core)
    return words


# --------------------------------------------------------------------------- AppTest's texts

#: Proto fields whose strings are shown to the reader (labels, bodies, help, options, …).
TEXT_FIELDS = {
    "body",
    "label",
    "help",
    "placeholder",
    "options",
    "content",
    "caption",
    "text",
    "alt",
    "description",
    "title",
    "markdown",
    "icon_text",
}
#: Elements whose text is code, a formula, CSS or a component's own data.
SKIP_TYPES = {"code", "latex", "html", "component_instance", "empty"}
_PROTO_SKIP = {"code", "html", "component_instance"}


def _proto_texts(message: Any, field: str = "") -> Iterator[str]:
    if isinstance(message, str):
        if field in TEXT_FIELDS:
            yield message
        return
    if not hasattr(message, "ListFields"):
        return
    for descriptor, value in message.ListFields():
        name = descriptor.name
        if name in _PROTO_SKIP:
            continue
        values = value if getattr(descriptor, "is_repeated", False) else [value]
        for item in values:
            yield from _proto_texts(item, name)


def _spec_texts(spec: Any, key: str = "") -> Iterator[str]:
    """Titles and descriptions of a Vega-Lite spec (axes, legends, tooltips, the chart)."""
    if isinstance(spec, dict):
        for name, value in spec.items():
            yield from _spec_texts(value, name)
    elif isinstance(spec, list):
        for value in spec:
            yield from _spec_texts(value, key)
    elif isinstance(spec, str) and key in ("title", "description", "text", "subtitle"):
        yield spec


def _frame_texts(frame: Any, config: dict[str, Any]) -> Iterator[str]:
    """Headers (the column configuration's label where one is set) and cells of a data frame."""
    for column in frame.columns:
        yield str((config.get(str(column)) or {}).get("label") or column)
        for cell in frame[column].tolist():
            if isinstance(cell, str):
                yield cell


def visible_texts(at: Any) -> list[tuple[str, str]]:
    """Every text an AppTest run shows: (element type, text), in page order."""
    out: list[tuple[str, str]] = []

    def walk(node: Any) -> None:
        kind = str(getattr(node, "type", "") or "")
        proto = getattr(node, "proto", None)
        if kind in SKIP_TYPES:
            return
        if kind in ("dataframe", "arrow_data_frame", "table", "arrow_table", "data_editor"):
            config = json.loads(getattr(proto, "columns", "") or "{}")
            out.extend((kind, text) for text in _frame_texts(node.value, config))
        elif kind in ("vega_lite_chart", "arrow_vega_lite_chart"):
            out.extend((kind, text) for text in _spec_texts(json.loads(proto.spec)))
        elif proto is not None:
            out.extend((kind or type(node).__name__, text) for text in _proto_texts(proto))
        children = getattr(node, "children", None)
        for child in children.values() if isinstance(children, dict) else ():
            walk(child)

    for root in (at.main, at.sidebar):  # the page's public roots
        walk(root)
    return out


def english_leftovers(at: Any) -> list[tuple[str, str, list[str]]]:
    """(element type, text, its English words) for every visible text with English left."""
    return [(kind, text, words) for kind, text in visible_texts(at) if (words := english_words(text))]
