"""The three teaching pages in a real browser: deep links on a fresh server, navigation,
the lesson's Next button, no exception anywhere, screenshots at desktop and phone width."""

from __future__ import annotations

import pytest
from browser_helpers import assert_no_exception, open_page, screenshot, wait_idle

PAGES = {
    "Lesson": "Lesson: G → nDCG",
    "Scores_and_ties": "Scores and ties",
    "Variants_and_libraries": "Variants and libraries",
}


@pytest.mark.parametrize("path", list(PAGES))
def test_teaching_page_deep_link_on_a_fresh_server_runs_without_exception(fresh_server, page, path):
    """Each page gets its own fresh server, whose first request is the deep link."""
    base = fresh_server
    open_page(page, f"{base}/{path}?rel=3,2,0,0,1&step=6")
    assert_no_exception(page)
    assert page.get_by_role("heading", name=PAGES[path]).first.is_visible()
    screenshot(page, f"teaching_{path}_desktop")


def test_lesson_next_button_advances_and_updates_the_link(server, page):
    open_page(page, f"{server}/Lesson?rel=3,2,0,0,1")
    page.get_by_role("button", name="Next").click()
    wait_idle(page)
    assert "step=2" in page.url
    assert page.get_by_text("Step 2 of 6").first.is_visible()
    assert_no_exception(page)


def test_teaching_pages_reached_by_navigation_keep_the_ranking(server, page):
    open_page(page, f"{server}/?rel=2,0,1")
    for path, label in (
        ("Lesson", "Lesson: G → nDCG"),
        ("Scores_and_ties", "Scores and ties"),
        ("Variants_and_libraries", "Variants and libraries"),
    ):
        page.get_by_role("link", name=label).click()
        wait_idle(page)
        assert f"/{path}" in page.url
        assert "rel=2%2C0%2C1" in page.url or "rel=2,0,1" in page.url
        assert_no_exception(page)


@pytest.mark.parametrize("path", list(PAGES))
def test_teaching_page_at_phone_width_in_chinese(server, browser, path):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    phone = context.new_page()
    try:
        open_page(phone, f"{server}/{path}?lang=zh")
        assert_no_exception(phone)
        screenshot(phone, f"teaching_{path}_phone_zh")
        if path == "Scores_and_ties":
            _formula_says_it_scrolls(phone)
    finally:
        context.close()


#: The formula's fades (ui.framework.styles.FORMULA_CSS): how wide each edge fades out, in px.
_FADES = """e => ["--lab-fade-start", "--lab-fade-end"].map(
  (name) => parseFloat(getComputedStyle(e).getPropertyValue(name)) || 0)"""


def _formula_says_it_scrolls(phone) -> None:
    """The slip's DCG sum is wider than a phone: it scrolls, and its edge with more formula
    beyond it fades out (it scrolled with no sign), the left one once scrolled to the end."""
    phone.locator(".st-key-ties-predict-slip-show button").click()
    wait_idle(phone)
    formula = phone.locator("[data-testid='stMain'] .katex-display").first
    width, room = formula.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert width > room, (width, room)
    assert formula.evaluate(_FADES) == [0, 40]  # 2.5em of 16 px at the right edge
    formula.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    phone.wait_for_function(
        "e => parseFloat(getComputedStyle(e).getPropertyValue('--lab-fade-end')) === 0",
        arg=formula.element_handle(),
    )
    assert formula.evaluate(_FADES) == [40, 0]
