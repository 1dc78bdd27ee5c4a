"""Every string in both languages: same keys, same placeholders, no key used but not defined,
every core error translated, and no English left in the headings and labels of a Chinese page."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

import ndcg_core as nc
from ui import classroom, i18n
from ui.pages import PAGES
from ui.state import DISCOUNT_CHOICES, GAIN_CHOICES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([ROOT / "app.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "ui").glob("*.py")])
NAMESPACES = sorted(p.stem for p in (i18n.LOCALES_DIR / "en").glob("*.toml"))
TRANSLATE_CALLS = {"t", "translate", "_t", "tr"}
_KEY = re.compile(rf"^(?:{'|'.join(map(re.escape, NAMESPACES))})\.[A-Za-z0-9_.]+$")

#: Keys built at run time, with every value they can take.
DYNAMIC_KEYS: list[str] = [
    *(f"nav.{page.id}" for page in PAGES),
    *(f"classroom.gain.{g}" for g in GAIN_CHOICES),
    *(f"classroom.discount.{d}" for d in DISCOUNT_CHOICES),
    *(f"classroom.columns.{c}" for c in classroom.HANDOUT_COLUMNS),
    *(f"classroom.chart_{fmt}" for fmt in ("png", "svg")),
]


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _used_keys() -> list[tuple[str, str, bool, set[str] | None]]:
    """(where, key or f-string prefix, is_prefix, keyword names or None) of translate calls."""
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or _call_name(node) not in TRANSLATE_CALLS:
                continue
            kwargs = None if any(k.arg is None for k in node.keywords) else {k.arg for k in node.keywords}
            for arg in node.args[:2]:
                where = f"{path.relative_to(ROOT)}:{arg.lineno}"
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and _KEY.match(arg.value):
                    found.append((where, arg.value, False, kwargs))
                elif isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
                    prefix = str(arg.values[0].value)
                    if any(prefix.startswith(f"{ns}.") for ns in NAMESPACES):
                        found.append((where, prefix, True, None))
    return found


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != "en"])
def test_catalog_has_the_same_keys_in_every_language(lang):
    en, other = set(i18n.catalog("en")), set(i18n.catalog(lang))
    assert sorted(en - other) == [], f"missing in {lang}"
    assert sorted(other - en) == [], f"missing in en (only in {lang})"


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != "en"])
def test_catalog_placeholders_match_english(lang):
    en, other = i18n.catalog("en"), i18n.catalog(lang)
    wrong = {key: (i18n.placeholders(en[key]), i18n.placeholders(other[key]))
             for key in en.keys() & other.keys()
             if i18n.placeholders(en[key]) != i18n.placeholders(other[key])}
    assert wrong == {}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_catalog_has_no_empty_strings(lang):
    assert [key for key, text in i18n.catalog(lang).items() if not text.strip()] == []


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_core_error_key_is_translated_with_its_placeholders(lang):
    catalog = i18n.catalog(lang)
    missing = [key for key in nc.MESSAGES if f"errors.{key}" not in catalog]
    assert missing == []
    wrong = [key for key, template in nc.MESSAGES.items()
             if i18n.placeholders(catalog[f"errors.{key}"]) != i18n.placeholders(template)]
    assert wrong == []


def test_translate_calls_use_defined_keys():
    catalog = i18n.catalog("en")
    used = _used_keys()
    assert used, "the scan found no translate calls at all"
    undefined = [f"{where}: {key}" for where, key, is_prefix, _ in used
                 if (not any(k.startswith(key) for k in catalog) if is_prefix else key not in catalog)]
    assert undefined == []


def test_translate_calls_pass_every_placeholder():
    catalog = i18n.catalog("en")
    short = [f"{where}: {key} needs {sorted(i18n.placeholders(catalog[key]) - kwargs)}"
             for where, key, is_prefix, kwargs in _used_keys()
             if not is_prefix and kwargs is not None and key in catalog
             and not i18n.placeholders(catalog[key]) <= kwargs]
    assert short == []


@pytest.mark.parametrize("key", DYNAMIC_KEYS)
def test_dynamic_key_is_defined(key):
    assert key in i18n.catalog("en").keys() & i18n.catalog("zh").keys()


def test_translate_falls_back_to_english_then_to_the_key():
    assert i18n.translate("xx", "nav.calculator") == i18n.catalog("en")["nav.calculator"]
    assert i18n.translate("zh", "nav.no_such_key") == "nav.no_such_key"


def test_error_text_translates_core_error_and_its_fragment():
    with pytest.raises(nc.NDCGInputError) as info:
        nc.parse_relevance("")
    text = i18n.error_text("zh", info.value)
    assert text == i18n.catalog("zh")["errors.empty"].format(what=i18n.catalog("zh")["terms.relevance_list"])


@pytest.mark.parametrize(("value", "expected"), [
    ("zh-CN", "zh"), ("zh_TW", "zh"), ("ZH", "zh"), ("en-GB", "en"), ("fr-FR", None), ("", None), (None, None),
])
def test_normalize_language_reads_browser_locales(value, expected):
    assert i18n.normalize_language(value) == expected


# --------------------------------------------------------------------------- no English in Chinese

#: ASCII words that may stand in Chinese text: metric names, tools, formats, symbols.
ALLOWED_WORDS = {w.lower() for w in (
    "nDCG", "DCG", "IDCG", "CG", "log", "log2", "scikit-learn", "sklearn", "ranx", "trec_eval",
    "pytrec_eval", "ir_measures", "Spark", "PySpark", "MLlib", "LightGBM", "XGBoost", "TensorFlow",
    "TF-Ranking", "torchmetrics", "Altair", "CSV", "PNG", "SVG", "QR", "HTML", "PDF", "Parquet",
    "TSV", "TREC", "pandas", "NumPy", "Hive", "SQL", "Järvelin", "Kekäläinen", "Burges", "McSherry",
    "Najork", "max", "min", "rel", "nDCG@k", "DCG@k", "IDCG@k", "URL", "ID", "Elasticsearch",
    "OpenSearch", "Solr", "Vespa", "Lucene", "RankLib", "Metarank", "qid", "jarvelin", "exp",
)}
_LATIN_WORD = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ0-9_\-]*")
_ICON = re.compile(r":material/[a-z_]+:|:[a-z_]+:")
_MATH = re.compile(r"\$[^$]*\$|`[^`]*`")
LABELLED = ("title", "header", "subheader", "tabs", "metric", "expander", "button", "checkbox",
            "toggle", "radio", "selectbox", "multiselect", "slider", "select_slider", "number_input",
            "text_input", "text_area", "date_input", "color_picker", "download_button")


def english_words(text: str) -> list[str]:
    """Latin-script words of three or more letters that are not on the allow-list."""
    text = _MATH.sub(" ", _ICON.sub(" ", text))
    words = []
    for word in _LATIN_WORD.findall(text):
        core = word.strip("-_")
        letters = sum(ch.isascii() and ch.isalpha() for ch in core)
        if letters >= 3 and core.lower() not in ALLOWED_WORDS and not re.fullmatch(r"D\d+", core):
            words.append(core)
    return words


def test_english_words_finds_leftovers_and_allows_terms():
    assert english_words("步骤表（CSV）与 nDCG@5") == []
    assert english_words("Järvelin 折损 $\\log_2(i+1)$") == []
    assert english_words("相关性 Relevance grade") == ["Relevance", "grade"]


def _texts(at) -> list[tuple[str, str]]:
    out = []
    for kind in LABELLED:
        elements = at.get(kind) if kind == "download_button" else getattr(at, kind)
        for element in elements:
            text = element.label if hasattr(element, "label") else getattr(element, "value", "")
            if kind == "metric":
                text = element.label
            out.append((kind, str(text)))
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_page_in_chinese_has_no_english_in_headings_and_labels(app, page):
    at = app(page=page.path, lang="zh", timeout=60)
    assert not at.exception, [e.message for e in at.exception]
    leftovers = [(kind, text) for kind, text in _texts(at) if english_words(text)]
    assert leftovers == []


def test_error_text_renders_every_fragment_in_chinese():
    """A rule with its own parameter (the seed's limit) reads Chinese, not English, in zh."""
    error = nc.NDCGInputError("bad_link", param="seed", got="x", rule="rule_seed", limit=999999)
    text = i18n.error_text("zh", error)
    assert "0 到 999999 之间的整数" in text
    assert english_words(text.replace("'seed'", "")) == []  # the link's own parameter name stays


def test_every_core_term_is_translated_with_its_placeholders():
    zh = i18n.catalog("zh")
    assert [key for key in nc.validate.TERMS if f"terms.{key}" not in zh] == []
    assert [key for key, text in nc.validate.TERMS.items()
            if i18n.placeholders(zh[f"terms.{key}"]) != i18n.placeholders(text)] == []


def test_core_error_refuses_an_english_fragment():
    """what= and rule= take keys of TERMS, so no English phrase can reach a Chinese page."""
    with pytest.raises(KeyError, match="TERMS"):
        nc.NDCGInputError("empty", what="relevance list")
