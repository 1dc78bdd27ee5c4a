"""The frame on every page: language from the link, the language switch, share, export, presenter mode."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from ui.framework import i18n, styles
from ui.framework.navigation import PAGES
from ui.framework.state import EXAMPLE_RELEVANCE

PRESENTER_MARK = "nDCG Lab presenter mode"


def _open_share(at):
    """Open the share popover (it tracks its state and draws its content only when open)."""
    at.session_state["lab.share"] = True
    return at.run()


def _share_link(at) -> str:
    if not at.sidebar.code:
        _open_share(at)
    codes = [c.value for c in at.sidebar.code]
    assert len(codes) == 1
    return codes[0]


def _q(at, name: str) -> str | list[str] | None:
    """A link parameter after the run (AppTest keeps single values as strings)."""
    value = at.query_params.get(name)
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def _presenter_css_present(at) -> bool:
    return any(PRESENTER_MARK in str(getattr(e, "proto", "")) for e in at.get("html"))


def test_frame_language_comes_from_the_link(app):
    at = app(lang="zh")
    assert at.sidebar.selectbox(key="lab.lang_widget").value == "zh"
    assert at.sidebar.selectbox(key="lab.lang_widget").label == i18n.catalog("zh")["common.language"]


def test_frame_language_defaults_to_english(app):
    at = app()
    assert at.sidebar.selectbox(key="lab.lang_widget").value == "en"


def test_frame_language_switch_keeps_the_ranking(app):
    at = app(rel="2,0,1", k="2")
    at.sidebar.selectbox(key="lab.lang_widget").select("zh").run()
    assert not at.exception
    assert _q(at, "lang") == "zh"
    assert _q(at, "rel") == "2,0,1"
    assert _q(at, "k") == "2"
    assert at.sidebar.toggle(key="lab.present_widget").label == i18n.catalog("zh")["common.presenter_mode"]


def test_frame_share_link_reproduces_the_view(app):
    at = app(page="app_pages/1_Lesson.py", rel="3,1,2", k="2", gain="exponential", lang="zh")
    query = parse_qs(urlsplit(_share_link(at)).query)
    assert query["rel"] == ["3,1,2"]
    assert query["k"] == ["2"]
    assert query["gain"] == ["exponential"]
    assert query["lang"] == ["zh"]


def test_frame_share_link_carries_custom_labels(app):
    at = app(rel="1,0", item=["猫", "a&b"])
    assert parse_qs(urlsplit(_share_link(at)).query)["item"] == ["猫", "a&b"]


def test_frame_share_popover_makes_no_qr_code_while_closed(app):
    at = app()
    assert len(at.sidebar.get("image")) == 0
    assert len(at.sidebar.code) == 0


def test_frame_share_popover_shows_a_qr_code(app):
    at = _open_share(app(lang="zh"))
    images = at.sidebar.get("image")
    assert len(images) == 1
    assert i18n.catalog("zh")["classroom.qr_caption"] in str(images[0].proto)


def test_frame_export_offers_step_table_and_handout(app):
    at = app(lang="zh")
    labels = {b.key: b.label for b in at.get("download_button")}
    assert labels["lab.download_csv"] == i18n.catalog("zh")["classroom.step_csv"]
    assert labels["lab.download_handout"] == i18n.catalog("zh")["classroom.handout_download"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_frame_presenter_mode_from_the_link_styles_every_page(app, page):
    at = app(page=page.path, present="1", timeout=60)
    assert not at.exception
    assert _presenter_css_present(at)
    assert at.sidebar.toggle(key="lab.present_widget").value is True


def test_frame_without_presenter_mode_adds_no_style(app):
    at = app()
    assert not _presenter_css_present(at)


def test_frame_presenter_toggle_turns_it_on_and_into_the_link(app):
    at = app(rel="3,2")
    at.sidebar.toggle(key="lab.present_widget").set_value(True).run()
    assert _presenter_css_present(at)
    assert _q(at, "present") == "1"
    assert "present=1" in _share_link(at)


@pytest.mark.parametrize("page", ["app.py", "app_pages/1_Lesson.py", "app_pages/5_Explore.py"])
def test_every_page_carries_the_static_page_css(app, page):
    at = app(page=page)
    assert not at.exception
    assert any(f"st-key-{styles.TABLE_PREFIX}" in str(e.proto) for e in at.get("html"))
    assert not _presenter_css_present(at)


def test_secondary_container_key_matches_presenter_css():
    from ui.framework.shared import Frame

    assert hasattr(Frame, "secondary")
    assert f"st-key-{styles.SECONDARY_PREFIX}" in styles.PRESENTER_CSS


def test_frame_freezes_imported_objects_for_cheap_post_run_gc(app, monkeypatch):
    """Objects of a library imported before a page runs leave the collector's generations.

    ``gc.get_objects()`` lists the objects of generations 0-2 only, not the permanent one that
    ``gc.freeze()`` fills: a frozen object is no longer walked by a collection.
    """
    import gc
    import sys

    import pandas as pd

    gc.unfreeze()
    monkeypatch.setattr(
        sys.modules["ui.framework.frame"], "_FROZEN_MODULES", 0
    )  # as in a fresh server process
    probe = pd.DataFrame.__dict__["__init__"]  # a function object, tracked by the collector
    assert gc.is_tracked(probe)
    assert any(obj is probe for obj in gc.get_objects())
    app()
    assert not any(obj is probe for obj in gc.get_objects())


# --- link limits (issue 12): refused with a message in the page's language ------------------


def _link_errors(at) -> list[str]:
    import re

    return [re.sub(r"\\(.)", r"\1", e.value) for e in at.error]


def _expected(lang: str, key: str, **params) -> str:
    from ndcg_core import NDCGInputError

    return i18n.error_text(lang, NDCGInputError(key, **params))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_frame_link_with_too_many_parameters_is_refused_whole(app, lang):
    from ui.framework.state import MAX_LINK_PARAMS

    extra = {f"p{i}": "1" for i in range(MAX_LINK_PARAMS)}
    at = app(rel="1,2,3", lang=lang, **extra)
    assert not at.exception
    assert _link_errors(at) == [
        _expected(lang, "link_too_many", got=MAX_LINK_PARAMS + 2, limit=MAX_LINK_PARAMS)
    ]
    assert at.session_state["lab.ranking"].relevance == (3.0, 2.0, 0.0, 0.0, 1.0)  # example
    assert at.session_state["lab.lang"] == lang


def test_frame_link_with_a_long_value_refuses_that_parameter_only(app):
    from ui.framework.state import MAX_NUMBER_CHARS

    at = app(rel="1,2,3", k="7" * 50)
    assert _link_errors(at) == [
        _expected("en", "link_value_too_long", param="k", got=50, limit=MAX_NUMBER_CHARS)
    ]
    assert at.session_state["lab.ranking"].relevance == (1.0, 2.0, 3.0)
    assert _q(at, "k") is None


def test_frame_link_with_a_repeated_parameter_refuses_it(app):
    at = app(rel="1,2,3", k=["1", "2"])
    assert _link_errors(at) == [_expected("en", "link_repeated", param="k", got=2, limit=1)]
    assert at.session_state["lab.ranking"].k is None


def test_frame_link_with_a_long_parameter_name_refuses_it(app):
    from ui.framework.state import MAX_NAME_CHARS

    at = app(**{"x" * 100: "1"})
    assert _link_errors(at) == [_expected("en", "link_name_too_long", got=100, limit=MAX_NAME_CHARS)]


def test_frame_link_errors_go_once_dismissed_and_do_not_come_back(app):
    at = app(k="7" * 50)
    at.button(key="lab.dismiss_link_errors").click().run()
    assert not at.error
    at.run()
    assert not at.error and not at.exception


def test_config_hides_error_details_from_visitors():
    import tomllib
    from pathlib import Path

    config = tomllib.loads(
        (Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml").read_text(encoding="utf-8")
    )
    assert config["client"]["showErrorDetails"] == "none"


def _frame_ranking_after_an_edit() -> None:
    """A page's frame, then an edit applied in the same run (as a drag is)."""
    import streamlit as st

    from ui.framework.shared import Frame, set_ranking
    from ui.framework.state import Ranking

    page = Frame(page="lesson", lang="en", present=False)  # what the router's frame("lesson") makes
    before = page.ranking.relevance
    set_ranking(Ranking(relevance=(1.0, 0.0, 3.0), labels=("A", "B", "C")))
    st.text(f"{before}|{page.ranking.relevance}")


def test_frame_ranking_is_the_current_one_after_an_edit():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_frame_ranking_after_an_edit, default_timeout=30).run()
    assert not at.exception
    before, after = at.text[0].value.split("|")
    assert before == "(3.0, 2.0, 0.0, 0.0, 1.0)"  # the worked example of a fresh session
    assert after == "(1.0, 0.0, 3.0)"


def test_frame_overflowing_link_falls_back_and_the_next_page_works(app):
    """rel=1e308,1e308: the core's overflow message, the example in its place (and in the
    link), and the next page opened from there runs."""
    at = app(rel="1e308,1e308")
    assert not at.exception
    assert any("1.8e308" in e.value.replace("\\", "") for e in at.error)
    assert at.session_state["lab.ranking"].relevance == EXAMPLE_RELEVANCE
    assert _q(at, "rel") == "3,2,0,0,1"
    at.switch_page("app_pages/1_Lesson.py").run()
    assert not at.exception


def test_frame_change_that_overflows_keeps_the_last_good_ranking(app):
    """1023,1023,1023 is fine with the linear gain; the exponential gain would sum three
    2^1023 gains past the largest float: the message, and the linear ranking kept."""
    at = app(rel="1023,1023,1023")
    at.segmented_control(key="calc.gain").set_value("exponential").run()
    assert not at.exception
    assert any("1.8e308" in e.value.replace("\\", "") for e in at.error)
    ranking = at.session_state["lab.ranking"]
    assert (ranking.relevance, ranking.gain) == ((1023.0, 1023.0, 1023.0), "linear")
    at.run()
    assert not at.exception
