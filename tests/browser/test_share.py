"""The share link in a real browser (issue 14): the full-size QR code fits a projector and
decodes to the same view, students reach a server started on the network, and no page asks any
host but the app's own server."""

from __future__ import annotations

import io
from urllib.parse import urlsplit

import pytest
from browser_helpers import (
    assert_no_exception,
    go_to_page,
    open_page,
    running_server,
    screenshot,
    wait_idle,
)

import ndcg_core as nc
from ui.framework.navigation import DEFAULT_PAGE, PAGES

VIEW = "rel=3,1,2,0&k=2&gain=exponential"


def _metric_value(page, label: str) -> str:
    metric = page.locator("[data-testid='stMetric']").filter(has_text=label).first
    return metric.locator("[data-testid='stMetricValue']").inner_text().strip()


def _decode_qr(png: bytes) -> list[str]:
    import zxingcpp
    from PIL import Image

    return [result.text for result in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1024, 768)])
def test_full_size_qr_code_fits_the_screen_and_opens_the_same_view(server, browser, width, height):
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    page = context.new_page()
    try:
        open_page(page, f"{server}/?{VIEW}")
        page.get_by_role("button", name="Show the QR code full size").click()
        wait_idle(page)
        qr = page.get_by_role("dialog").get_by_role("img", name="QR code of the link to this view")
        qr.wait_for()
        page.wait_for_function(
            "() => [...document.querySelectorAll('[role=dialog] img')]"
            ".every(i => i.complete && i.naturalWidth > 0)"
        )
        box = qr.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["y"] >= 0
        assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height
        assert box["width"] >= 300  # still large enough to scan from the back of a room
        shot = screenshot(page, f"qr-full-{width}", full_page=False)
        links = _decode_qr(shot.read_bytes())
        assert len(links) == 1 and links[0].startswith(server + "/?")
        other = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        try:
            open_page(other, links[0])
            assert_no_exception(other)
            expected = nc.ndcg([3, 1, 2, 0], k=2, gain="exponential")
            assert _metric_value(other, "nDCG@2") == f"{expected:.4f}"
        finally:
            other.context.close()
    finally:
        context.close()


def test_no_page_asks_another_host(server, page):
    requests: list[str] = []
    own = urlsplit(server).netloc
    page.on("request", lambda request: requests.append(request.url))
    # the first page by its link (the app's shell: scripts, styles, fonts), every other one
    # with the sidebar's link, which requests what that page draws (its components, charts)
    open_page(page, f"{server}/?rel=3,2,0,0,1")
    for entry in PAGES:
        go_to_page(page, server, "/" if entry is DEFAULT_PAGE else "/" + entry.url_path)
        assert_no_exception(page)
    foreign = [
        url
        for url in requests
        if urlsplit(url).scheme in ("http", "https", "ws", "wss") and urlsplit(url).netloc != own
    ]
    assert requests and foreign == []


def test_loopback_server_share_popover_warns_that_students_cannot_reach_it(server, page):
    """The test server listens on 127.0.0.1 only: no address students can open is known."""
    open_page(page, f"{server}/?{VIEW}")
    link, text = _share_popover(page)
    assert link.startswith(server + "/?")
    assert "No address students can open is known" in text


@pytest.fixture(scope="module")
def network_server():
    """A server listening on every interface (as in a class), reached on loopback addresses."""
    with running_server(address="0.0.0.0") as base:
        yield urlsplit(base).port


def _share_popover(page) -> tuple[str, str]:
    page.get_by_role("button", name="Share this view").click()
    wait_idle(page)
    body = page.locator("[data-testid='stPopoverBody']")
    link = body.locator("[data-testid='stCode'] code").first.inner_text().strip()
    return link, body.inner_text()


def test_network_server_share_link_names_the_network_address(network_server, page):
    """On a loopback address the link uses the machine's network address, and says so."""
    from ui.framework.address import network_address

    host = network_address()
    if host is None:
        pytest.skip("this machine has no network address")
    open_page(page, f"http://127.0.0.1:{network_server}/?{VIEW}")
    link, text = _share_popover(page)
    assert urlsplit(link).netloc == f"{host}:{network_server}"
    assert "only this computer can open" in text


def test_network_server_is_reached_from_a_second_machine(network_server, browser):
    """127.0.0.2 stands for a student's machine: a non-default loopback address of the server."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    try:
        open_page(page, f"http://127.0.0.2:{network_server}/?{VIEW}")
        assert_no_exception(page)
        expected = nc.ndcg([3, 1, 2, 0], k=2, gain="exponential")
        assert _metric_value(page, "nDCG@2") == f"{expected:.4f}"
    finally:
        context.close()
