"""The shared frame in a real browser: deep links on a fresh server, navigation, language."""

from __future__ import annotations

import pytest
from browser_helpers import assert_no_exception, choose_option, open_page, screenshot, wait_idle

from ui.framework.i18n import translate
from ui.framework.navigation import DEFAULT_PAGE, PAGE_BY_URL, PAGES


def test_deep_link_on_fresh_server_runs_the_page(fresh_server, page):
    """The first request a fresh server gets is a deep link to a page other than the home page."""
    open_page(page, f"{fresh_server}/Scores_and_ties?rel=3,1,2&lang=zh")
    assert_no_exception(page)
    assert page.get_by_role("heading", name="模型分数与并列").first.is_visible()
    assert "rel=3%2C1%2C2" in page.url or "rel=3,1,2" in page.url


def test_navigation_link_keeps_the_ranking(server, page):
    open_page(page, f"{server}/?rel=2,0,1")
    page.get_by_role("link", name="Blind spots").click()
    wait_idle(page)
    assert "/Blind_spots" in page.url
    assert "rel=2%2C0%2C1" in page.url or "rel=2,0,1" in page.url
    assert_no_exception(page)


def test_browser_locale_chooses_chinese_without_lang_in_the_link(server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    page = context.new_page()
    try:
        open_page(page, f"{server}/Blind_spots?rel=3,2")
        assert (
            page.get_by_role("heading", name="盲点").first.is_visible()
            or page.get_by_text("盲点").first.is_visible()
        )
        assert "lang=zh" in page.url
        assert_no_exception(page)
        screenshot(page, "frame_zh_locale", full_page=False)
    finally:
        context.close()


def test_language_switch_keeps_the_ranking(server, page):
    open_page(page, f"{server}/Explore?rel=1,3,2&k=2")
    choose_option(page, page.locator("[data-testid='stSidebar'] [data-testid='stSelectbox']").first, "中文")
    wait_idle(page)
    assert "lang=zh" in page.url
    assert "rel=1%2C3%2C2" in page.url or "rel=1,3,2" in page.url
    assert "k=2" in page.url
    assert page.get_by_text("语言").first.is_visible()
    assert_no_exception(page)


def _opens(page, base: str, url_path: str, lang: str, page_id: str) -> None:
    open_page(page, f"{base}/{url_path}?rel=2,0,1&lang={lang}")
    assert_no_exception(page)
    assert page.title().startswith(translate(lang, f"nav.{page_id}"))
    assert "rel=2%2C0%2C1" in page.url or "rel=2,0,1" in page.url


@pytest.mark.parametrize("target", ["Lesson", "Live_class", ""], ids=["Lesson", "Live_class", "root"])
def test_router_runs_a_deep_link_as_a_fresh_servers_first_request(fresh_server, page, target):
    """The first request of a fresh server goes through the router too (Streamlit's pages/
    compatibility mode, which would run the page file alone, is never entered)."""
    page_id = PAGE_BY_URL[target].id if target else "calculator"
    _opens(page, fresh_server, target, "zh", page_id)


def test_every_address_the_app_ever_had_opens_its_page(server, page):
    """The url_path of every page is the address Streamlit gave its file in pages/ before the
    router, so links and QR codes handed out then still open the same page."""
    for entry in PAGES:
        _opens(page, server, "" if entry is DEFAULT_PAGE else entry.url_path, "en", entry.id)
