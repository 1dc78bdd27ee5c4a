"""Unjudged items ("?") in real Chromium: a "?" card dragged by mouse, "?" typed, the link, screenshots."""

from __future__ import annotations

import math

from browser_helpers import SORTABLE, assert_no_exception, open_page, screenshot, wait_idle
from playwright.sync_api import expect

L2 = math.log2
# [3, ?, 2, 0, 1] with D2 counted as 0: DCG = 3/log2(2) + 0/log2(3) + 2/log2(4) + 0/log2(5) + 1/log2(6)
# over IDCG = 3/log2(2) + 2/log2(3) + 1/log2(4) from the judged grades 3, 2, 1, 0
NDCG_ZERO = (3 + 2 / L2(4) + 1 / L2(6)) / (3 + 2 / L2(3) + 1 / L2(4))
# D2 dragged to the bottom: [3, 2, 0, 1, ?] = 3/log2(2) + 2/log2(3) + 0/log2(4) + 1/log2(5) + 0
NDCG_BOTTOM = (3 + 2 / L2(3) + 1 / L2(5)) / (3 + 2 / L2(3) + 1 / L2(4))


def cards(page):
    return page.frame_locator(SORTABLE).locator("li.sortable-item")


def metric(page, label: str):
    return page.locator("[data-testid='stMetric']", has_text=label).first


def mouse_drag(page, source, target, *, steps: int = 12) -> None:
    """A real mouse drag: press on ``source``, move in steps, release past ``target``'s middle."""
    start, end = source.bounding_box(), target.bounding_box()
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] * 0.8, end["y"] + end["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 12, y0, steps=3)  # past dnd-kit's 10 px activation distance
    page.mouse.move(x1, y1, steps=steps)
    page.mouse.move(x1 + 1, y1, steps=2)
    page.mouse.up()


def test_unjudged_card_shows_question_mark_and_drags(server, page):
    open_page(page, f"{server}/?rel=3,?,2,0,1")
    # the cards live in a component iframe, which can load after the script run (slow on a busy machine)
    expect(cards(page)).to_have_text(["D1 · 3", "D2 · ?", "D3 · 2", "D4 · 0", "D5 · 1"], timeout=15_000)
    expect(metric(page, "nDCG@5")).to_contain_text(f"{NDCG_ZERO:.4f}")
    mouse_drag(page, cards(page).nth(1), cards(page).nth(4))  # D2 to the bottom
    expect(cards(page)).to_have_text(["D1 · 3", "D3 · 2", "D4 · 0", "D5 · 1", "D2 · ?"])
    expect(metric(page, "nDCG@5")).to_contain_text(f"{NDCG_BOTTOM:.4f}")
    wait_idle(page)
    assert "rel=3%2C2%2C0%2C1%2C%3F" in page.url or "rel=3,2,0,1,?" in page.url
    assert_no_exception(page)


def test_typed_question_mark_link_round_trips(server, page, browser):
    open_page(page, f"{server}/")
    grades = page.get_by_role("textbox", name="Grades in rank order (position 1 first)")
    grades.fill("3, ?, 2, 0, 1")
    grades.press("Enter")
    expect(metric(page, "nDCG@5")).to_contain_text(f"{NDCG_ZERO:.4f}")
    wait_idle(page)
    url = page.url
    assert "rel=3%2C%3F%2C2%2C0%2C1" in url or "rel=3,?,2,0,1" in url, url
    fresh = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    try:
        open_page(fresh, url)
        expect(metric(fresh, "judged@5")).to_contain_text("0.8000", timeout=15_000)
        expect(metric(fresh, "nDCG@5")).to_contain_text(f"{NDCG_ZERO:.4f}")
        # the cards live in a component iframe, which can load after the script run
        expect(cards(fresh)).to_have_text(["D1 · 3", "D2 · ?", "D3 · 2", "D4 · 0", "D5 · 1"], timeout=15_000)
        assert_no_exception(fresh)
    finally:
        fresh.context.close()


def test_screenshots_unjudged_desktop_and_phone(server, browser):
    """Screenshots for a person to look at (artifacts/screenshots, git-ignored)."""
    for lang in ("en", "zh"):
        for name, viewport, mobile in (
            ("desktop", {"width": 1280, "height": 800}, False),
            ("phone", {"width": 390, "height": 844}, True),
        ):
            context = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile)
            shot = context.new_page()
            try:
                open_page(shot, f"{server}/?rel=3,?,2,0,1&lang={lang}")
                assert_no_exception(shot)
                expect(cards(shot).nth(1)).to_have_text("D2 · ?", timeout=15_000)
                assert screenshot(shot, f"unjudged_{name}_{lang}", full_page=False).exists()
                assert screenshot(shot, f"unjudged_{name}_{lang}_full").exists()
            finally:
                context.close()
