"""The keyboard and the phone in real Chromium: skip links, focus rings, reordering without a
mouse (Up/Down buttons and the drag cards' own keyboard drag), and the sidebar on a phone."""

from __future__ import annotations

import contextlib
import math
import re

from browser_helpers import (
    SORTABLE,
    assert_no_exception,
    choose_option,
    open_page,
    screenshot,
    wait_idle,
    wait_page_ready,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from ui.framework import i18n, styles


def cards(page):
    """The drag cards (inside the sortable's iframe), in order."""
    return page.frame_locator(SORTABLE).locator("li.sortable-item")


def metric_value(page, name: str = "nDCG") -> tuple[int, str]:
    """(k, shown value) of the metric labelled ``<name>@k``."""
    for text in page.locator("[data-testid='stMetric']").all_inner_texts():
        found = re.match(rf"^{name}@(\d+)\s+(\S+)", text.strip())
        if found:
            return int(found.group(1)), found.group(2)
    raise AssertionError(f"no {name}@k metric shown")


def wait_for_metric(page, expected: tuple[int, str]) -> None:
    page.locator("[data-testid='stMetric']", has_text=f"nDCG@{expected[0]}").filter(
        has_text=expected[1]
    ).first.wait_for(timeout=15_000)
    wait_idle(page)


#: [3, 2, 0, 0, 1] with D1 moved one place down: [2, 3, 0, 0, 1], by hand.
DCG_MOVED = 2 / math.log2(2) + 3 / math.log2(3) + 1 / math.log2(6)
IDCG = 3 / math.log2(2) + 2 / math.log2(3) + 1 / math.log2(4)
MOVED = (5, f"{DCG_MOVED / IDCG:.4f}")

#: What has the focus: tag, test id, accessible text (inside the drag cards' iframe too).
_FOCUSED = """() => {
  let e = document.activeElement;
  if (e && e.tagName === 'IFRAME') e = e.contentDocument.activeElement;
  return {tag: e.tagName, testid: e.getAttribute('data-testid') || '', text: e.textContent.trim().slice(0, 40),
          cls: e.className || '', outline: getComputedStyle(e).outlineStyle + ' ' + getComputedStyle(e).outlineColor,
          width: getComputedStyle(e).outlineWidth, inFrame: e.ownerDocument !== document};
}"""


def focused(page) -> dict:
    return page.evaluate(_FOCUSED)


def tab_until(page, done, *, most: int = 30) -> int:
    """Press Tab until ``done(focused(page))``; return how many presses it took."""
    seen = []
    for presses in range(1, most + 1):
        page.keyboard.press("Tab")
        seen.append(focused(page))
        if done(seen[-1]):
            return presses
    raise AssertionError(f"not reached in {most} Tab presses; focus went to {seen}")


#: The focus ring as Chromium reports a computed outline: "solid rgb(213, 94, 0)".
RING = "solid rgb({}, {}, {})".format(*(int(styles.FOCUS_RING[i : i + 2], 16) for i in (1, 3, 5)))


def _to_ranking(page) -> None:
    """From a fresh page: Streamlit's "Skip to main content", then the app's "Skip to the ranking"."""
    assert tab_until(page, lambda f: f["testid"] == "stSkipToContent", most=2) == 1
    page.keyboard.press("Enter")
    assert tab_until(page, lambda f: "lab-skip" in f["cls"], most=2) == 1
    link = focused(page)
    assert link["text"] == "Skip to the ranking"
    assert link["outline"] == RING
    assert page.locator("a.lab-skip").is_visible()
    screenshot(page, "keyboard_skip_link", full_page=False)
    page.keyboard.press("Enter")


#: dnd-kit's keyboard sensor listens for the arrow keys only from a timer it sets when a card is
#: picked up (``setTimeout(() => listeners.add("keydown", …))`` in its bundle), while the
#: "picked up" words can be on screen before that timer runs: an arrow pressed then is lost
#: (seen once in CI). This waits, in the cards' frame, for two animation frames (React's
#: drawing of the pick-up) and then a timer of its own, which runs after the sensor's.
_SENSOR_READY = (
    "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r))))"
)


def pick_up(page, live, words: str) -> None:
    """Space on the focused card; back when dnd-kit has said ``words`` and takes arrow keys."""
    page.keyboard.press("Space")
    expect(live).to_have_text(words)
    page.frame_locator(SORTABLE).locator("body").evaluate(_SENSOR_READY)


def test_keyboard_only_moves_an_item_down_with_its_result_announced(server, page):
    """Tab, Enter and Space alone: skip to the ranking, reach Down, press it; nDCG is the hand value."""
    open_page(page, f"{server}/?rel=3,2,0,0,1")
    wait_page_ready(page)
    _to_ranking(page)
    presses = tab_until(page, lambda f: f["tag"] == "BUTTON" and f["text"].endswith("Down"))
    assert presses <= 15  # was 33 from the top of the page
    assert focused(page)["outline"] == RING
    page.keyboard.press("Space")
    wait_for_metric(page, MOVED)
    assert metric_value(page) == MOVED
    expect(cards(page)).to_have_text(["D2 · 2", "D1 · 3", "D3 · 0", "D4 · 0", "D5 · 1"])
    # the change is said in a status region (a screen reader announces it): accessibility tree
    # (the Down button knows what it moved: "Moving D1 from position 1 to 2 lowered nDCG@5 ...")
    status = page.get_by_role("status").filter(has_text="Moving D1")
    expect(status).to_have_count(1)
    expect(status).to_contain_text(MOVED[1])
    assert "- status:" in page.get_by_test_id("stMain").aria_snapshot()
    screenshot(page, "keyboard_after_down", full_page=False)
    assert_no_exception(page)


def test_drag_cards_reorder_with_space_and_arrows(server, page):
    """The drag cards' own keyboard drag (dnd-kit): Space picks D1 up, → moves it, Space drops."""
    open_page(page, f"{server}/?rel=3,2,0,0,1")
    wait_page_ready(page)
    expect(page.get_by_text(i18n.translate("en", "common.drag_keys"))).to_be_visible()  # the keys, said
    _to_ranking(page)
    tab_until(page, lambda f: f["inFrame"] and f["text"] == "D1 · 3", most=5)
    card = focused(page)
    assert card["outline"] == RING and card["width"] == "3px"
    screenshot(page, "keyboard_card_focus", full_page=False)
    live = page.frame_locator(SORTABLE).locator("[aria-live]")  # dnd-kit's own announcements
    pick_up(page, live, "D1 · 3 is over the place of D1 · 3.")
    page.keyboard.press("ArrowRight")
    expect(live).to_have_text("D1 · 3 is over the place of D2 · 2.")
    # the card in hand (a copy dnd-kit draws over the others) shows its whole label on one line
    heights = (
        page.frame_locator(SORTABLE)
        .locator("li.sortable-item")
        .evaluate_all("els => els.map(e => [e.innerText, e.scrollHeight, e.clientHeight])")
    )
    assert len(heights) == 6 and all(inner <= outer for _, inner, outer in heights), heights
    # and the page says which keys do this
    expect(page.get_by_text("Without a mouse: Tab to a card, Space picks it up")).to_be_visible()
    page.keyboard.press("Space")
    expect(live).to_have_text("D1 · 3 was dropped in the place of D2 · 2.")
    wait_for_metric(page, MOVED)
    expect(cards(page)).to_have_text(["D2 · 2", "D1 · 3", "D3 · 0", "D4 · 0", "D5 · 1"])
    # a drag sends only the new order, and D1 down one is D2 up one: the note names both
    expect(page.get_by_role("status").filter(has_text="Swapping D1 and D2")).to_have_count(1)
    assert_no_exception(page)


#: What a screen reader hears of the drag cards, read from the frame: its title, a card's role
#: and described-by text (the keys), and the live region.
_CARD_WORDS = """(frame) => {
  const doc = frame.contentDocument, card = doc.querySelector("li.sortable-item");
  return {title: frame.title, role: card.getAttribute("aria-roledescription"),
          keys: doc.getElementById(card.getAttribute("aria-describedby")).textContent.trim()};
}"""


def _card_words(page, frame, role: str) -> dict[str, str]:
    """The cards' words once their role reads ``role``: the page's script writes the frame's
    title, then (in the same pass, once the frame has drawn its cards) the keys and the role,
    every 500 ms; the title alone can be there a pass before the rest (seen once in CI)."""
    with contextlib.suppress(PlaywrightTimeout):  # the words compared below say what is wrong
        page.wait_for_function(
            f"([frame, role]) => ({_CARD_WORDS})(frame).role === role",
            arg=[frame.element_handle(), role],
            timeout=10_000,
        )
    words: dict[str, str] = frame.evaluate(_CARD_WORDS)
    return words


def test_drag_cards_speak_chinese_on_a_chinese_page(server, page):
    """Item 6 of the issue "One ranking, one truth": the cards' words for a screen reader are
    compiled into the component in English ("Picked up draggable item …", the frame titled
    "streamlit_sortables.sortable_items"); on a zh page they are Chinese, through a whole move,
    a cancelled move, and after a switch back to English."""
    open_page(page, f"{server}/?rel=3,2,0,0,1&lang=zh")
    wait_page_ready(page)
    frame = page.locator(SORTABLE)
    expect(frame).to_have_attribute("title", "拖动卡片：排序，每个条目一张卡片")
    words = _card_words(page, frame, "可移动的卡片")
    assert words == {
        "title": "拖动卡片：排序，每个条目一张卡片",
        "role": "可移动的卡片",
        "keys": "按空格键拿起卡片，用方向键移动，再按空格键放到新位置，按 Esc 放回原处。",
    }
    live = page.frame_locator(SORTABLE).locator("[aria-live]")
    page.frame_locator(SORTABLE).locator("li.sortable-item").first.focus()
    pick_up(page, live, "D1 · 3 移到了 D1 · 3 的位置。")
    page.keyboard.press("ArrowRight")
    expect(live).to_have_text("D1 · 3 移到了 D2 · 2 的位置。")
    page.keyboard.press("Escape")
    expect(live).to_have_text("已取消移动：D1 · 3 回到了原处。")
    pick_up(page, live, "D1 · 3 移到了 D1 · 3 的位置。")
    page.keyboard.press("ArrowRight")
    expect(live).to_have_text("D1 · 3 移到了 D2 · 2 的位置。")
    page.keyboard.press("Space")
    expect(live).to_have_text("D1 · 3 放在了 D2 · 2 的位置。")
    wait_for_metric(page, MOVED)
    choose_option(
        page, page.locator("[data-testid='stSidebar'] [data-testid='stSelectbox']").first, "English"
    )
    wait_idle(page)
    expect(frame).to_have_attribute("title", "Drag cards: the ranking, one card per item")
    assert _card_words(page, frame, "movable card")["role"] == "movable card"
    assert_no_exception(page)


def test_phone_sidebar_closes_after_choosing_a_page(server, browser):
    """On a 390×844 phone the open sidebar covers the page; choosing a page closes it."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_page(page, f"{server}/?lang=zh")
        # the app's page script, put on the page by the first run, is what closes the sidebar
        # when a page is chosen on a phone: tap only once it is there (failed once, loaded machine)
        wait_page_ready(page)
        # the drag cards' keyboard help names keys a phone does not have: not shown on a phone
        assert page.get_by_text(i18n.translate("zh", "common.drag_keys")).count() == 1
        expect(page.get_by_text(i18n.translate("zh", "common.drag_keys"))).to_be_hidden()
        page.get_by_test_id("stExpandSidebarButton").click()
        sidebar = page.get_by_test_id("stSidebar")
        expect(sidebar.get_by_role("link", name="盲点")).to_be_in_viewport(timeout=15_000)
        screenshot(page, "phone_sidebar_open_zh", full_page=False)
        sidebar.get_by_role("link", name="盲点").click()
        wait_idle(page)
        assert "/Blind_spots" in page.url
        expect(sidebar.get_by_role("link", name="盲点")).not_to_be_in_viewport()
        heading = page.get_by_role("heading", name="盲点").first
        expect(heading).to_be_in_viewport()
        box = heading.bounding_box()
        assert box is not None and box["x"] >= 0
        screenshot(page, "phone_after_navigation_zh", full_page=False)
        assert_no_exception(page)
    finally:
        context.close()
