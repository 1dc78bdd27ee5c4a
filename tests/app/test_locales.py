"""Every string in both languages: same keys, same placeholders, no key used but not defined,
every core error translated, and no English left in the headings and labels of a Chinese page."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from chinese_text import english_leftovers, english_words, visible_texts
from markdown_it import MarkdownIt
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1.element_tree import Radio

import ndcg_core as nc
from ui.components import handout
from ui.framework import i18n
from ui.framework.navigation import PAGES
from ui.framework.state import DISCOUNT_CHOICES, GAIN_CHOICES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([ROOT / "app.py", *(ROOT / "app_pages").glob("*.py"), *(ROOT / "ui").rglob("*.py")])
NAMESPACES = sorted(p.stem for p in (i18n.LOCALES_DIR / "en").glob("*.toml"))
TRANSLATE_CALLS = {"t", "translate", "_t", "tr"}
_KEY = re.compile(rf"^(?:{'|'.join(map(re.escape, NAMESPACES))})\.[A-Za-z0-9_.]+$")

#: Keys built at run time, with every value they can take.
DYNAMIC_KEYS: list[str] = [
    *(f"nav.{page.id}" for page in PAGES),
    *(f"classroom.gain.{g}" for g in GAIN_CHOICES),
    *(f"classroom.discount.{d}" for d in DISCOUNT_CHOICES),
    *(f"classroom.columns.{c}" for c in handout.HANDOUT_COLUMNS),
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
                elif (
                    isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant)
                ):
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
    wrong = {
        key: (i18n.placeholders(en[key]), i18n.placeholders(other[key]))
        for key in en.keys() & other.keys()
        if i18n.placeholders(en[key]) != i18n.placeholders(other[key])
    }
    assert wrong == {}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_catalog_has_no_empty_strings(lang):
    assert [key for key, text in i18n.catalog(lang).items() if not text.strip()] == []


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_catalog_bold_reads_bold_in_commonmark(lang):
    """Every string, its placeholders filled with a word, leaves no ``**`` on the page when
    read as CommonMark (markdown-it-py; Streamlit's Markdown follows the same rules): a closing
    ``**`` after a punctuation mark must be followed by a space or a punctuation mark, which a
    Chinese sentence, "**Järvelin–Kekäläinen 2002（b = 2）**是…", did not give (Variants)."""
    render = MarkdownIt("commonmark").render
    left = {
        key: text
        for key, text in i18n.catalog(lang).items()
        if "**" in re.sub(r"<code>.*?</code>", "", render(re.sub(r"\{[^{}]*\}", "x1", text)), flags=re.S)
    }
    assert left == {}


def test_every_layer_has_registered_its_messages():
    """The core, the teaching content, the live class and the app each own their messages;
    importing i18n (which every page does) registers them all, so the checks below see them."""
    assert set(nc.validate.message_layers()) == {"core", "teach", "live", "app"}
    assert all(nc.validate.message_layers().values())


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_core_error_key_is_translated_with_its_placeholders(lang):
    """Every layer's keys, the core's and those registered by ndcg_teach, ndcg_live and the app."""
    catalog = i18n.catalog(lang)
    missing = [key for key in nc.validate.all_messages() if f"errors.{key}" not in catalog]
    assert missing == []
    wrong = [
        key
        for key, template in nc.validate.all_messages().items()
        if i18n.placeholders(catalog[f"errors.{key}"]) != i18n.placeholders(template)
    ]
    assert wrong == []


def test_translate_calls_use_defined_keys():
    catalog = i18n.catalog("en")
    used = _used_keys()
    assert used, "the scan found no translate calls at all"
    undefined = [
        f"{where}: {key}"
        for where, key, is_prefix, _ in used
        if (not any(k.startswith(key) for k in catalog) if is_prefix else key not in catalog)
    ]
    assert undefined == []


def test_translate_calls_pass_every_placeholder():
    catalog = i18n.catalog("en")
    short = [
        f"{where}: {key} needs {sorted(i18n.placeholders(catalog[key]) - kwargs)}"
        for where, key, is_prefix, kwargs in _used_keys()
        if not is_prefix
        and kwargs is not None
        and key in catalog
        and not i18n.placeholders(catalog[key]) <= kwargs
    ]
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


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("zh-CN", "zh"),
        ("zh_TW", "zh"),
        ("ZH", "zh"),
        ("en-GB", "en"),
        ("fr-FR", None),
        ("", None),
        (None, None),
    ],
)
def test_normalize_language_reads_browser_locales(value, expected):
    assert i18n.normalize_language(value) == expected


# --------------------------------------------------------------------------- no English in Chinese


def test_english_words_finds_leftovers_and_allows_terms():
    assert english_words("步骤表（CSV）与 nDCG@5") == []
    assert english_words("Järvelin 折损系数 $\\log_2(i+1)$") == []
    assert english_words("相关性 Relevance grade") == ["Relevance", "grade"]


def test_english_words_exempts_code_values_and_titles():
    assert english_words("调用 ndcg_score(y_true, y_score, k=5) 与 trec_eval -m ndcg_cut.5 qrels run") == []
    assert english_words("列 'relevance' 的第 2 行是 'high'") == []
    assert english_words("见《Cumulated gain-based evaluation of IR techniques》") == []
    assert english_words("| :gray[D1] | ndcg\\_score\\(\\) |") == []


def test_english_words_keeps_prose_around_code():
    assert english_words("`k=5` is the cutoff") == ["the", "cutoff"]


#: Link parameters and inputs that put a page into an error state (bad grades, a bad seed, …).
ERROR_STATES = {
    "calculator_bad_grades": ("app.py", {}, [("calc.text", "3, x, -1")]),
    "ties_bad_scores": ("app_pages/2_Scores_and_ties.py", {}, [("ties.scores", "0.9, high")]),
    "ties_bad_grades": ("app_pages/2_Scores_and_ties.py", {}, [("ties.grades", "3, 2, nope")]),
    "variants_bad_judged": ("app_pages/3_Variants_and_libraries.py", {}, [("variants.judged", "3, x")]),
    "practice_bad_seed": ("app_pages/6_Practice.py", {"seed": "x", "ex": "99"}, []),
    "lesson_bad_step": ("app_pages/1_Lesson.py", {"step": "x"}, []),
    "calculator_bad_link": ("app.py", {"rel": "3,x", "k": "0", "gain": "cubic"}, []),
}
EVALUATE_UPLOADS = {
    "not_utf8": "query,relevance,score\n查询,3,0.9\n".encode("gbk"),
    "negative": b"query,item,relevance,score\na,x,3,0.1\na,y,-1,0.9\n",
    "non_numeric": b"query,item,relevance,score\na,x,3,0.1\na,y,high,0.9\n",
    "missing_column": b"id,value\na,1\n",
    "good": b"query,item,relevance,score\na,x,3,0.1\na,y,0,0.9\nb,u,2,0.7\nb,v,0,0.7\nc,p,0,0.3\n",
}


class _FirstOption(Radio):
    """A radio that reports its first option as chosen, as the browser sends it (the option's
    shown text), so a test can answer a question without knowing the option's value."""

    @property
    def _widget_state(self) -> WidgetState:
        return WidgetState(id=self.id, string_value=self.options[0])


def _answer_open_questions(at, rounds: int = 4):
    """Choose the first option of every unanswered radio (predict-first questions), so the
    answers, reveals and whatever they unlock are rendered too."""
    for _ in range(rounds):
        open_radios = [r for r in at.radio if r.value is None and r.options]
        if not open_radios:
            return at
        for radio in open_radios:
            radio.__class__ = _FirstOption
        at.run()
    return at


def _assert_chinese(at):
    assert not at.exception, [e.message for e in at.exception]
    assert english_leftovers(at) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_page_in_chinese_has_no_english_in_any_visible_text(app, page):
    at = app(page=page.path, lang="zh", timeout=90)
    _assert_chinese(at)
    _assert_chinese(_answer_open_questions(at))


@pytest.mark.parametrize("state", sorted(ERROR_STATES))
def test_page_in_chinese_showing_an_error_has_no_english(app, state):
    path, params, inputs = ERROR_STATES[state]
    at = app(page=path, lang="zh", timeout=90, **params)
    for key, text in inputs:
        at.text_input(key=key).set_value(text).run()
    assert at.error or at.warning, "the state shows no message: it no longer tests one"
    _assert_chinese(at)


@pytest.mark.parametrize("case", sorted(EVALUATE_UPLOADS))
def test_evaluate_in_chinese_after_an_upload_has_no_english(app, case):
    at = app(page="app_pages/7_Evaluate_a_run.py", lang="zh", timeout=90, eval_form="table")
    at.radio(key="evaluate.source").set_value("upload").run()
    at.file_uploader(key="evaluate.file").set_value(("运行结果.csv", EVALUATE_UPLOADS[case], "text/csv"))
    _assert_chinese(at.run())


def test_page_scan_reads_every_kind_of_text(app):
    """The scan sees captions, metric help, options, table cells and chart titles, so a page
    that passes has been read, not skipped."""
    at = app(page="app.py", lang="zh", timeout=90)
    kinds = {kind for kind, _ in visible_texts(at)}
    assert {
        "title",
        "caption",
        "metric",
        "selectbox",
        "button_group",
        "vega_lite_chart",
        "markdown",
        "expander",
    } <= kinds
    texts = [text for _, text in visible_texts(at)]
    assert i18n.translate("zh", "calculator.cg_help") in texts
    assert i18n.translate("zh", "common.choose") in texts


def test_chinese_catalog_keeps_the_glossary():
    """TEACHING.md §6: 得分 only for a practice score, 四舍五入 (not 取整) for rounding, full-width
    brackets around Chinese, no italics on Chinese."""
    zh = i18n.catalog("zh")
    cjk = "[\u4e00-\u9fff]"
    assert [k for k, v in zh.items() if "得分" in v and not k.startswith("practice.")] == []
    assert [k for k, v in zh.items() if "取整" in v] == []
    assert [k for k, v in zh.items() if re.search(rf"\([^()]*{cjk}[^()]*\)", v)] == []
    assert [
        k
        for k, v in zh.items()
        if re.search(rf"(?<![*\w])[*_](?![*_\s])[^*_]*{cjk}[^*_]*(?<![*_\s])[*_](?![*\w])", v)
    ] == []


def test_error_text_renders_every_fragment_in_chinese():
    """A rule with its own parameter (the seed's limit) reads Chinese, not English, in zh."""
    error = nc.NDCGInputError("bad_link", param="seed", got="x", rule="rule_seed", limit=999999)
    text = i18n.error_text("zh", error)
    assert "0 到 999999 之间的整数" in text
    assert english_words(text.replace("'seed'", "")) == []  # the link's own parameter name stays


def test_every_core_term_is_translated_with_its_placeholders():
    zh = i18n.catalog("zh")
    assert [key for key in nc.validate.all_terms() if f"terms.{key}" not in zh] == []
    assert [
        key
        for key, text in nc.validate.all_terms().items()
        if i18n.placeholders(zh[f"terms.{key}"]) != i18n.placeholders(text)
    ] == []


def test_core_error_refuses_an_english_fragment():
    """what= and rule= take keys of TERMS, so no English phrase can reach a Chinese page."""
    with pytest.raises(KeyError, match="TERMS"):
        nc.NDCGInputError("empty", what="relevance list")
