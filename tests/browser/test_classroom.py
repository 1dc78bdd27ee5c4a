"""The classroom in a real browser: presenter mode on a 1080p projector, the share link and its
QR code, the step-table download, and reordering with the keyboard."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest
from browser_helpers import assert_no_exception, open_page, screenshot, wait_idle

import ndcg_core as nc


def _metric_value(page, label: str) -> str:
    metric = page.locator("[data-testid='stMetric']").filter(has_text=label).first
    return metric.locator("[data-testid='stMetricValue']").inner_text().strip()


@pytest.fixture
def projector(browser):
    """A 1920×1080 page, as a classroom projector shows it."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US")
    page = context.new_page()
    yield page
    context.close()


def test_presenter_mode_collapses_sidebar_and_enlarges_numbers(server, projector):
    open_page(projector, f"{server}/?rel=3,2,0,0,1&present=1")
    projector.wait_for_selector("[data-testid='stMetricValue']")
    assert_no_exception(projector)
    box = projector.locator("[data-testid='stSidebar']").bounding_box()
    assert box is None or box["x"] + box["width"] <= 1  # collapsed: off screen
    size = projector.locator("[data-testid='stMetricValue'] p").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 60  # ~1/16 of the screen height: readable from the back of a room
    screenshot(projector, "presenter_1080p", full_page=False)


def test_share_link_reproduces_the_view_in_a_new_browser(server, page, browser):
    open_page(page, f"{server}/?rel=3,1,2,0&k=2&gain=exponential")
    page.get_by_role("button", name="Share this view").click()
    wait_idle(page)
    # the link's own code block (drawn by a component Streamlit loads on first use, so it can
    # come after the note below it, whose Markdown has code of its own: `--server.address ...`)
    link = (
        page.locator("[data-testid='stPopoverBody'] [data-testid='stCode'] code").first.inner_text().strip()
    )
    assert link.startswith(server + "/?")
    qr = page.get_by_role("img", name="QR code of the link to this view").first
    qr.wait_for()
    assert qr.evaluate("e => e.naturalWidth") >= 300
    other = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    try:
        open_page(other, link)
        other.wait_for_selector("[data-testid='stMetricValue']")
        expected = nc.ndcg([3, 1, 2, 0], k=2, gain="exponential")
        assert _metric_value(other, "nDCG@2") == f"{expected:.4f}"
        assert_no_exception(other)
    finally:
        other.context.close()


def test_step_table_download_is_the_core_table(server, page):
    open_page(page, f"{server}/?rel=2,0,1&k=2")
    page.get_by_role("button", name="Download").first.click()
    with page.expect_download() as info:
        page.get_by_role("button", name="Step table (CSV)").click()
    data = Path(info.value.path()).read_bytes()
    table = pd.read_csv(io.BytesIO(data), encoding="utf-8-sig")
    expected = nc.step_table([2, 0, 1], k=2)
    assert table["ndcg"].to_numpy() == pytest.approx(expected["ndcg"].to_numpy(), abs=1e-12)
    assert table["item"].tolist() == ["D1", "D2", "D3"]


def test_reordering_works_with_the_keyboard(server, page):
    open_page(page, f"{server}/?rel=3,2,0,0,1")
    down = page.get_by_role("button", name="Down", exact=True)
    down.focus()
    page.keyboard.press("Enter")
    wait_idle(page)
    assert "rel=2%2C3%2C0%2C0%2C1" in page.url or "rel=2,3,0,0,1" in page.url
    assert _metric_value(page, "nDCG@5") == f"{nc.ndcg([2, 3, 0, 0, 1]):.4f}"


def test_full_size_qr_code_of_a_twenty_item_link_fits_a_1080p_screen(server, projector):
    rel = ",".join(["3", "2", "0", "1", "0.5"] * 4)
    open_page(projector, f"{server}/?rel={rel}&k=10&present=1")
    projector.locator(
        "[data-testid='stSidebarCollapsedControl'] button, [data-testid='stExpandSidebarButton']"
    ).first.click()
    projector.get_by_role("button", name="Show the QR code full size").click()
    wait_idle(projector)
    image = projector.get_by_role("dialog").get_by_role("img", name="QR code of the link to this view")
    image.wait_for()
    box = image.bounding_box()
    assert box["width"] >= 700
    assert box["y"] >= 0 and box["y"] + box["height"] <= 1080
    screenshot(projector, "qr_full_size_1080p", full_page=False)
