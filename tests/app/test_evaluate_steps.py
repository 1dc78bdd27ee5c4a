"""The Evaluate page's link form parameter and its progress messages (AppTest): a bad
``eval_form`` is named in the page's language, and each slow step of the IR form (reading a
file, evaluating, comparing) runs under a spinner whose text is in the page's language."""

from __future__ import annotations

import contextlib

import pytest
import streamlit as st
from test_evaluate_trec import QRELS, RUN_A, RUN_B, _upload

from ndcg_core import NDCGInputError
from ui.framework.i18n import error_text, translate
from ui.framework.text import md_escape

PAGE = "app_pages/7_Evaluate_a_run.py"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_form_widget_bad_link_value_is_named_in_the_pages_language(app, lang):
    at = app(page=PAGE, eval_form="tabel", lang=lang)
    assert not at.exception
    expected = error_text(
        lang, NDCGInputError("unknown_option", option="eval_form", allowed="trec, table", got="tabel")
    )
    assert expected in [e.value.replace("\\", "") for e in at.error]
    assert at.radio(key="evaluate.form").value == "trec"  # the default form is used
    assert "eval_form" not in at.query_params  # and the bad value leaves the link


def test_form_widget_good_link_value_gives_no_message(app):
    at = app(page=PAGE, eval_form="table")
    assert at.radio(key="evaluate.form").value == "table"
    assert not at.error


@pytest.fixture
def spinner_texts(monkeypatch):
    """The texts of every spinner the page opens (Streamlit draws one only after 0.5 s)."""
    texts: list[str] = []

    @contextlib.contextmanager
    def record(text: str = "", **_: object):
        texts.append(text)
        yield

    monkeypatch.setattr(st, "spinner", record)
    return texts


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_evaluate_trec_steps_run_under_translated_spinners(app, spinner_texts, lang):
    at = _upload(app(page=PAGE, lang=lang), QRELS, {"a.run": RUN_A, "b.run": RUN_B})
    assert not at.exception
    t = lambda key, **p: translate(lang, key, **p)  # noqa: E731 - a short alias for the test
    for text in (
        t("evaluate.trec_progress_qrels", name=md_escape("qrels.txt")),
        t("evaluate.trec_progress_run", name=md_escape("a.run")),
        t("evaluate.trec_progress_run", name=md_escape("b.run")),
        t("evaluate.trec_progress_evaluate", n=2),
        t("evaluate.trec_progress_compare", baseline="a", n="10,000"),
    ):
        assert text in spinner_texts, (text, spinner_texts)
