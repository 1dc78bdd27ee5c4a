"""Real-browser fixtures: one Streamlit server per test module on a free loopback port, and
Debian's Chromium driven by Playwright through ``executable_path`` (no browser download)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from browser_helpers import CHROMIUM, CHROMIUM_ARGS, SERVER_LOGS, log_tail, running_server


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """When a browser test fails, its report ends with what the running servers printed."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and "tests/browser" in str(item.fspath):
        for base, log in SERVER_LOGS.items():
            report.sections.append((f"server output ({base}, {log.name})", log_tail(log)))


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A fresh server for this test module; yields its base URL."""
    with running_server() as base:
        yield base


@pytest.fixture
def fresh_server() -> Iterator[str]:
    """A server of its own for one test, so the test's first request is the server's first."""
    with running_server() as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run `make test` (it installs Debian's chromium)")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A new browser page (desktop 1280×800, English locale)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    yield page
    context.close()
