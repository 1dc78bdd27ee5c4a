"""The Calculator in real Chromium: a mouse drag, keyboard moves, links, labels as text, screenshots."""

from __future__ import annotations

import re

import pytest
from browser_helpers import SORTABLE, assert_no_exception, open_page, screenshot, wait_idle
from playwright.sync_api import expect

import ndcg_core as nc

XSS = "<img src=x onerror=alert(1)>"


def cards(page):
    """The drag cards' texts, in order (inside the sortable's iframe)."""
    return page.frame_locator(SORTABLE).locator("li.sortable-item")


def metric_value(page, name: str = "nDCG") -> tuple[int, str]:
    """(k, shown value) of the metric labelled ``<name>@k``."""
    page.locator("[data-testid='stMetric']").first.wait_for()
    for text in page.locator("[data-testid='stMetric']").all_inner_texts():
        found = re.match(rf"^{name}@(\d+)\s+(\S+)", text.strip())
        if found:
            return int(found.group(1)), found.group(2)
    raise AssertionError(f"no {name}@k metric shown")


def wait_for_metric(page, expected: tuple[int, str], name: str = "nDCG", timeout: float = 15_000) -> None:
    label, value = f"{name}@{expected[0]}", expected[1]
    page.locator("[data-testid='stMetric']", has_text=label).filter(has_text=value).first.wait_for(
        timeout=timeout
    )
    wait_idle(page)


def mouse_drag(page, source, target, *, steps: int = 12) -> None:
    """A real mouse drag: press on ``source``, move in steps, release over ``target``."""
    start, end = source.bounding_box(), target.bounding_box()
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] / 3, end["y"] + end["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 12, y0, steps=3)  # past dnd-kit's 10 px activation distance
    page.mouse.move(x1, y1, steps=steps)
    page.mouse.move(x1 + 1, y1, steps=2)  # one more move over the target: dnd-kit's drop check
    page.mouse.up()


def expected(relevance, **options) -> tuple[int, str]:
    k = options.get("k") or len(relevance)
    return k, f"{nc.ndcg(relevance, **options):.4f}"


def test_mouse_drag_reorders_and_updates_nDCG(server, page):
    open_page(page, f"{server}/")
    expect(cards(page)).to_have_text(["D1 · 3", "D2 · 2", "D3 · 0", "D4 · 0", "D5 · 1"])
    assert metric_value(page) == expected([3, 2, 0, 0, 1])
    mouse_drag(page, cards(page).nth(4), cards(page).nth(2))  # D5 onto position 3
    wait_for_metric(page, expected([3, 2, 1, 0, 0]))
    assert metric_value(page) == (5, "1.0000")
    expect(cards(page)).to_have_text(["D1 · 3", "D2 · 2", "D5 · 1", "D3 · 0", "D4 · 0"])
    assert "D5" in page.get_by_test_id("stAlert").first.inner_text()  # the "what changed" note
    assert_no_exception(page)


def test_up_and_down_buttons_work_from_the_keyboard(server, page):
    """Enter and Space on the focused buttons move the chosen item (D1); the focus stays."""
    open_page(page, f"{server}/?rel=3,2,0,0,1")
    page.get_by_role("button", name="Down", exact=True).focus()
    page.keyboard.press("Enter")  # D1 to position 2
    wait_for_metric(page, expected([2, 3, 0, 0, 1]))
    page.keyboard.press("Enter")  # still focused: to position 3
    wait_for_metric(page, expected([2, 0, 3, 0, 1]))
    page.keyboard.press("Shift+Tab")  # to the Up button
    page.keyboard.press("Space")  # D1 back to position 2
    wait_for_metric(page, expected([2, 3, 0, 0, 1]))
    assert cards(page).all_inner_texts()[:3] == ["D2 · 2", "D1 · 3", "D3 · 0"]
    assert_no_exception(page)


def test_url_after_a_change_reproduces_the_view(server, page, browser):
    open_page(page, f"{server}/")
    page.get_by_role("button", name="Reverse", exact=True).click()
    wait_for_metric(page, expected([1, 0, 0, 2, 3]))
    grades = page.get_by_role("textbox", name="Grades in rank order (position 1 first)")
    grades.fill("3 0 2 1")
    grades.press("Enter")
    wait_for_metric(page, expected([3, 0, 2, 1]))
    url = page.url
    assert "rel=3%2C0%2C2%2C1" in url or "rel=3,0,2,1" in url
    shown = {name: metric_value(page, name) for name in ("CG", "DCG", "IDCG", "nDCG")}
    fresh = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    try:
        open_page(fresh, url)
        assert {name: metric_value(fresh, name) for name in shown} == shown
        expect(cards(fresh)).to_have_text(cards(page).all_inner_texts())
    finally:
        fresh.context.close()


def test_html_label_shows_as_text_and_opens_no_dialog(server, page):
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    open_page(page, f"{server}/?rel=3,2&item={XSS.replace(' ', '%20')}&item=D2")
    assert_no_exception(page)
    assert cards(page).first.inner_text() == f"{XSS} · 3"
    assert page.locator("img[src='x']").count() == 0
    assert page.frame_locator(SORTABLE).locator("img[src='x']").count() == 0
    # with no <img src=x> in the page or the drag frame, no onerror can fire later
    wait_idle(page)
    assert dialogs == []


def test_screenshots_desktop_and_phone(server, page, browser):
    """Screenshots for a person to look at (artifacts/screenshots, git-ignored)."""
    open_page(page, f"{server}/")
    assert screenshot(page, "calculator_desktop", full_page=False).exists()
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    ).new_page()
    try:
        open_page(phone, f"{server}/?lang=zh")
        assert_no_exception(phone)
        assert metric_value(phone) == expected([3, 2, 0, 0, 1])
        assert screenshot(phone, "calculator_phone_zh", full_page=False).exists()
    finally:
        phone.context.close()


def test_deep_link_on_a_fresh_server(fresh_server, page):
    """The very first request of a new server is a link with state: it shows that state."""
    open_page(page, f"{fresh_server}/?rel=1,0,1,1,0&k=3&gain=exponential&disc=jarvelin&scale=binary&lang=zh")
    assert_no_exception(page)
    assert page.get_by_role("heading", name="nDCG 计算器").first.is_visible()
    assert metric_value(page) == expected([1, 0, 1, 1, 0], k=3, gain="exponential", discount="jarvelin")


#: Where the first button under the cards stands, and the options panel's height.
_LAYOUT = """() => ({
  button: [...document.querySelectorAll("[data-testid='stMain'] button")].find((b) => b.textContent.includes("Ideal order"))
    .getBoundingClientRect().top,
  panel: document.querySelector(".st-key-calc_settings").getBoundingClientRect().height,
})"""


@pytest.mark.parametrize(
    ("width", "height", "present"),
    [(1280, 800, False), (1280, 800, True), (1024, 768, True), (390, 844, False)],
    ids=["1280", "1280-presenter", "1024-presenter", "phone"],
)
def test_first_visit_keeps_the_room_of_the_cards_and_the_options(server, browser, width, height, present):
    """Item 8 of the issue "One ranking, one truth": on a first visit the numbers come before the
    drag cards' frame and the options' code. Held back here (the sortable's files and the
    slider's and button group's code), the cards keep their drawn room, so the buttons below
    them do not move when they appear, and the options panel its smallest size."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    held: list = []
    released = []

    def hold(route) -> None:
        route.continue_() if released else held.append(route)

    context.route(re.compile(r"streamlit_sortables|/(Slider|ButtonGroup)\.[^/]*\.js"), hold)
    page = context.new_page()
    try:
        page.goto(f"{server}/?rel=3,2,0,0,1{'&present=1' if present else ''}")
        page.locator("[data-testid='stMetric']").first.wait_for()
        page.locator(".st-key-calc_settings").wait_for()
        page.wait_for_function(
            "() => getComputedStyle(document.documentElement).getPropertyValue('--lab-page-css').trim() === '1'"
        )
        assert held, "nothing was held back: the test no longer delays the cards"
        page.wait_for_timeout(300)  # what the page draws without them
        before = page.evaluate(_LAYOUT)
        assert page.frame_locator(SORTABLE).locator("li.sortable-item").count() == 0
        released.append(True)
        for route in held:
            route.continue_()
        expect(page.frame_locator(SORTABLE).locator("li.sortable-item")).to_have_count(5)
        page.get_by_test_id("stSlider").wait_for()
        page.wait_for_function(
            f"() => document.querySelector(`{SORTABLE}`).getBoundingClientRect().height >= 50"
        )
        after = page.evaluate(_LAYOUT)
        assert abs(after["button"] - before["button"]) <= 1, (before, after)
        assert before["panel"] >= 366, before
        assert_no_exception(page)
    finally:
        context.close()
