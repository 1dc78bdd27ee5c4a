"""Issue 24, item 2, in Chromium: the paths on which the shared ranking changed behind the
user's back. Pages are changed with the sidebar's links (one session), as a person does."""

from __future__ import annotations

from browser_helpers import assert_no_exception, choose_option, open_page, wait_idle
from playwright.sync_api import expect

from ui.framework.i18n import translate


def _go(page, lang: str, page_id: str) -> None:
    page.locator("[data-testid='stSidebarNav']").get_by_role(
        "link", name=translate(lang, f"nav.{page_id}")
    ).click()
    page.get_by_role("heading", level=1).filter(
        has_text=translate(lang, "calculator.title" if page_id == "calculator" else f"nav.{page_id}")
    ).first.wait_for()
    wait_idle(page)
    assert_no_exception(page)


def _grades_box(page, lang: str):
    return page.get_by_label(translate(lang, "calculator.grades_label"), exact=True)


def _selected_scale(page) -> str:
    group = page.locator("[data-testid='stButtonGroup']").filter(
        has_text=translate("en", "calculator.scale_binary")
    )
    if group.count() == 0:  # the Chinese page
        group = page.locator("[data-testid='stButtonGroup']").filter(
            has_text=translate("zh", "calculator.scale_binary")
        )
    return group.locator("[role='radio'][aria-checked='true']").inner_text().strip()


def test_a_first_visit_to_scores_and_ties_keeps_the_ranking_of_the_link(server, page):
    """/Scores_and_ties?rel=3,2,0,0,1&lang=zh, then the Calculator: still 3, 2, 0, 0, 1."""
    open_page(page, f"{server}/Scores_and_ties?rel=3,2,0,0,1&lang=zh")
    assert_no_exception(page)
    assert "rel=3%2C2%2C0%2C0%2C1" in page.url or "rel=3,2,0,0,1" in page.url
    _go(page, "zh", "calculator")
    expect(_grades_box(page, "zh")).to_have_value("3, 2, 0, 0, 1")
    assert "7%2C4" not in page.url and "7,4" not in page.url


def test_b_boxes_scale_and_note_after_page_hops(server, page):
    """Scores and ties → Calculator → type → Scores and ties → Calculator."""
    open_page(page, f"{server}/Scores_and_ties?lang=en")
    scores = page.get_by_label(translate("en", "ties.scores_label"), exact=True)
    expect(scores).to_have_value("0.9,0.5,0.6,0.9,0.9")
    _go(page, "en", "calculator")
    box = _grades_box(page, "en")
    expect(box).to_have_value("3, 2, 0, 0, 1")
    box.fill("3, 2, 1")
    box.press("Enter")
    wait_idle(page)
    note = page.locator("[data-testid='stAlertContentInfo']").filter(has_text="nDCG@3")
    expect(note).to_have_count(1)  # the change just made is reported
    _go(page, "en", "ties")
    expect(scores).to_have_value("0.9,0.5,0.6,0.9,0.9")
    _go(page, "en", "calculator")
    expect(box).to_have_value("3, 2, 1")
    assert _selected_scale(page) == translate("en", "calculator.scale_graded")
    expect(note).to_have_count(0)  # nothing changed since: no note


def test_c_a_graded_query_from_evaluate_leaves_the_binary_scale(server, page):
    open_page(page, f"{server}/?lang=zh")
    picker = page.locator("[data-testid='stSelectbox']").filter(
        has_text=translate("zh", "calculator.preset_label")
    )
    choose_option(page, picker, translate("zh", "calculator.preset_binary"))
    wait_idle(page)
    assert _selected_scale(page) == translate("zh", "calculator.scale_binary")
    _go(page, "zh", "evaluate")
    page.get_by_role("button", name=translate("zh", "evaluate.open_button")).click()
    page.get_by_role("heading", level=1).filter(has_text=translate("zh", "calculator.title")).wait_for()
    wait_idle(page)
    assert_no_exception(page)
    assert _selected_scale(page) == translate("zh", "calculator.scale_graded")
    expect(page.locator("[data-testid='stAlertContentError']")).to_have_count(0)
