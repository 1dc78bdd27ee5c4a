"""Translations: every visible string lives in ``locales/<lang>/<namespace>.toml``.

A key is ``"<namespace>.<name>"``: ``t("calculator.title")`` reads ``title`` from
``locales/<lang>/calculator.toml``. Both languages must define the same keys with the same
``{placeholders}``; ``tests/app/test_locales.py`` checks it. This module does not import
streamlit, so it can be tested and used anywhere.
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Callable, Mapping
from functools import lru_cache
from types import ModuleType
from typing import Any

from ndcg_core import NDCGInputError, validate
from ndcg_core.validate import render
from ndcg_live import messages as live_messages
from ndcg_teach import messages as teach_messages
from ui.framework import messages as app_messages
from ui.framework.home import app_home

#: A page's translate function: ``t("namespace.key", **params)`` in the page's language.
Translate = Callable[..., str]

LOCALES_DIR = app_home() / "locales"
LANGUAGES: tuple[str, ...] = ("en", "zh")
DEFAULT_LANGUAGE = "en"
#: The BCP 47 tag of each language, for the document's ``<html lang>``: Simplified Chinese as
#: written in mainland China (TEACHING.md §6), so a browser picks Simplified glyphs and a screen
#: reader a Mandarin voice.
HTML_LANG: dict[str, str] = {"en": "en", "zh": "zh-CN"}
#: The modules whose ``MESSAGES`` and ``TERMS`` a page can show, the core's and each layer's
#: (importing one registers its keys with the core: ndcg_core.validate.register_messages).
MESSAGE_MODULES: tuple[ModuleType, ...] = (validate, teach_messages, live_messages, app_messages)


def _flatten(prefix: str, table: Mapping[str, Any], out: dict[str, str]) -> None:
    for name, value in table.items():
        key = f"{prefix}.{name}"
        if isinstance(value, Mapping):
            _flatten(key, value, out)
        else:
            out[key] = str(value)


@lru_cache(maxsize=len(LANGUAGES))
def catalog(lang: str) -> dict[str, str]:
    """Every key of one language, from all the namespace files of ``locales/<lang>/``.

    English error messages and their fragments are each layer's own (``errors.*`` from the
    ``MESSAGES``, ``terms.*`` from the ``TERMS`` of :data:`MESSAGE_MODULES`): one source for
    each English text. Other languages translate them in ``errors.toml`` and ``terms.toml``.
    """
    out: dict[str, str] = {}
    if lang == DEFAULT_LANGUAGE:
        for module in MESSAGE_MODULES:
            out.update({f"errors.{key}": text for key, text in module.MESSAGES.items()})
            out.update({f"terms.{key}": text for key, text in module.TERMS.items()})
    for path in sorted((LOCALES_DIR / lang).glob("*.toml")):
        with path.open("rb") as handle:
            _flatten(path.stem, tomllib.load(handle), out)
    return out


def placeholders(template: str) -> set[str]:
    """The names of the ``{placeholders}`` of a template."""
    return {
        field.split(".")[0].split("[")[0].split("!")[0].split(":")[0]
        for _, field, _, _ in string.Formatter().parse(template)
        if field
    }


def normalize_language(value: str | None) -> str | None:
    """``"zh-CN"``, ``"zh_TW"``, ``"ZH"`` -> ``"zh"``; unknown -> ``None``."""
    if not value:
        return None
    code = str(value).strip().lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else None


def translate(lang: str, key: str, **params: Any) -> str:
    """The text of ``key`` in ``lang`` with ``params`` filled in.

    A key missing in ``lang`` falls back to English, and a key missing everywhere shows the key
    itself, so a slip never crashes a page (the locale tests catch both).

    Plurals: when the count ``n`` is 1 and ``<key>_one`` exists, that text is used ("1 query
    ... is", not "1 queries ... are"); a key whose count can be 1 names it ``n`` and has its
    ``_one`` form in every language (Chinese, with no plural, words it as the other form).
    """
    count = params.get("n")
    if type(count) is int and count == 1 and f"{key}_one" in catalog(lang):
        key = f"{key}_one"
    template = catalog(lang).get(key) or catalog(DEFAULT_LANGUAGE).get(key)
    if template is None:
        return key
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


def error_text(lang: str, err: NDCGInputError) -> str:
    """An :class:`NDCGInputError` in ``lang``: its message key translated with its parameters."""
    table = catalog(lang)
    if f"errors.{err.key}" not in table:
        return str(err)
    messages = {name[len("errors.") :]: text for name, text in table.items() if name.startswith("errors.")}
    terms = {name[len("terms.") :]: text for name, text in table.items() if name.startswith("terms.")}
    try:
        return render(messages, terms, err.key, err.params)
    except (KeyError, IndexError, ValueError):
        return str(err)
