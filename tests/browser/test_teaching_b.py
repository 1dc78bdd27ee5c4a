"""Blind spots, Explore and Practice in a real browser: deep links on a fresh server, navigation,
a practice answer typed and checked, screenshots at desktop and phone width."""

from __future__ import annotations

import pytest
from browser_helpers import SORTABLE, assert_no_exception, open_page, screenshot, settle, wait_idle
from playwright.sync_api import expect

import ndcg_core as nc
from ndcg_teach.exercises import make_exercises

PHONE = {"width": 390, "height": 844}


def cards(page):
    """The drag cards (inside the sortable's iframe), in order."""
    return page.frame_locator(SORTABLE).locator("li.sortable-item")


def mouse_drag(page, source, target) -> None:
    """A real mouse drag: press on ``source``, move in steps, release over ``target``'s left third."""
    start, end = source.bounding_box(), target.bounding_box()
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] / 3, end["y"] + end["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 - 12, y0, steps=3)  # past dnd-kit's 10 px activation distance
    page.mouse.move(x1, y1, steps=12)
    page.mouse.move(x1 + 1, y1, steps=2)  # one more move over the target: dnd-kit's drop check
    page.mouse.up()
    wait_idle(page)


@pytest.mark.parametrize(
    ("path", "query", "heading"),
    [
        ("Blind_spots", "rel=3,1,2&lang=zh", "盲点"),
        ("Explore", "rel=3,1,2,0", "Explore"),
        ("Practice", "seed=42&ex=4", "Practice"),
    ],
)
def test_deep_link_on_fresh_server_runs_the_page(fresh_server, page, path, query, heading):
    """A server's very first request is a deep link to the page (its own fresh server each)."""
    base = fresh_server
    open_page(page, f"{base}/{path}?{query}")
    assert_no_exception(page)
    assert page.get_by_role("heading", name=heading).first.is_visible()
    for part in query.split("&"):
        name, value = part.split("=")
        assert f"{name}={value.replace(',', '%2C')}" in page.url or part in page.url
    screenshot(page, f"teaching_b_{path.lower()}_desktop")
    page.set_viewport_size(PHONE)
    settle(page)  # a narrower window reflows the page and starts no script run
    assert_no_exception(page)
    screenshot(page, f"teaching_b_{path.lower()}_phone")


def test_navigation_reaches_each_page_with_the_ranking(server, page):
    open_page(page, f"{server}/?rel=2,0,1")
    for label, path in (("Blind spots", "/Blind_spots"), ("Explore", "/Explore"), ("Practice", "/Practice")):
        page.get_by_role("link", name=label).click()
        wait_idle(page)
        assert path in page.url
        assert "rel=2%2C0%2C1" in page.url or "rel=2,0,1" in page.url
        assert_no_exception(page)
    assert "seed=" in page.url and "ex=1" in page.url


def test_blind_spots_prediction_reveals_core_numbers(server, page):
    open_page(page, f"{server}/Blind_spots")
    page.get_by_text("Both score the same", exact=True).first.click()
    wait_idle(page)
    assert_no_exception(page)
    metric = page.locator("[data-testid='stMetric']").first
    assert f"{nc.ndcg([3, 0, 0]):.4f}" in metric.inner_text()
    screenshot(page, "teaching_b_blind_spots_revealed")


def test_practice_answer_typed_and_checked(server, page):
    exercise = make_exercises(42, n=10)[0]
    open_page(page, f"{server}/Practice?seed=42&ex=1")
    box = page.get_by_label("Your answer")
    box.fill(f"{exercise.answer + 1:.2f}")
    box.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Check").click()
    wait_idle(page)
    assert page.get_by_text("Not yet").first.is_visible()
    box.fill(f"{exercise.answer:.2f}")
    box.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Check").click()
    wait_idle(page)
    assert_no_exception(page)
    assert page.get_by_text("Right:").first.is_visible()
    assert "1 / 1" in page.locator("[data-testid='stMetric']").first.inner_text()
    screenshot(page, "teaching_b_practice_checked")


def test_practice_ideal_order_by_real_drag(server, page):
    exercise = make_exercises(42, n=10)[4]
    assert exercise.kind == "ideal_order"
    open_page(page, f"{server}/Practice?seed=42&ex=5")
    expect(cards(page)).to_have_text(["D1 · 1", "D2 · 0", "D3 · 0", "D4 · 2", "D5 · 3"])
    mouse_drag(page, cards(page).nth(4), cards(page).nth(0))  # D5 to the front
    mouse_drag(page, cards(page).nth(4), cards(page).nth(1))  # D4 to second place
    expect(cards(page)).to_have_text(["D5 · 3", "D4 · 2", "D1 · 1", "D2 · 0", "D3 · 0"])
    page.get_by_role("button", name="Check").click()
    wait_idle(page)
    assert_no_exception(page)
    assert page.get_by_text("Right: that is an ideal order").first.is_visible()
    screenshot(page, "teaching_b_practice_dragged")


def test_explore_choices_show_the_ranking_after_a_swap_is_applied(server, page):
    """After "Apply this swap", the swap's and the slide's select boxes show the items now at
    their positions: Streamlit kept showing the old texts (same positions, new labels) until
    the page set their values again (ui.framework.session.relabel)."""
    open_page(page, f"{server}/Explore?rel=1,3,0,2")
    boxes = page.locator("[data-testid='stMain'] [data-testid='stSelectbox']")

    def shown() -> list[str]:
        return [boxes.nth(n).get_by_role("combobox").input_value() for n in range(3)]

    assert shown() == ["1 · D1 · 1", "2 · D2 · 3", "1 · D1 · 1"]
    page.get_by_role("button", name="Apply this swap to my ranking").click()
    wait_idle(page)
    assert "rel=3%2C1%2C0%2C2" in page.url
    assert_no_exception(page)
    assert shown() == ["1 · D2 · 3", "2 · D1 · 1", "1 · D2 · 3"]
