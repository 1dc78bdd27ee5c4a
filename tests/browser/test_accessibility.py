"""An axe-core audit in Chromium of every page, in English and Chinese, light and dark theme.

axe-core (the copy shipped in the ``axe-playwright-python`` package, no network) runs on the
page and inside the drag cards' iframe. The test fails on any serious or critical violation
(WCAG A/AA rules such as colour contrast, names of buttons, links and images, form labels),
except the few that are Streamlit's own markup and cannot be changed from the app, listed in
``KNOWN`` with the reason. It fails on ``heading-order`` too (moderate, but the app's own
headings: a section is h2 under the page's h1). Other moderate and minor findings are printed,
not failed.

Each language's pages are audited in one browser page: opened once by its link, then moved to
each page with the sidebar's links, as a person does (18 page loads became 2; the audit of the
page is the same, what a link adds is tested in test_frame and test_teaching_*).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import (
    assert_no_exception,
    axe_violations,
    go_to_page,
    open_page,
    screenshot,
    switch_theme,
    wait_page_ready,
)

from ui.framework import palette
from ui.framework.navigation import DEFAULT_PAGE, PAGES

#: Moderate rules that are the app's own doing and fail the test like serious ones.
STRICT_RULES = frozenset({"heading-order"})

#: Serious or critical violations in Streamlit's own markup that the app cannot change, by
#: (rule id, CSS selector axe reports). Each is one element, never a whole rule.
KNOWN: dict[tuple[str, str], str] = {}

#: Every page's path, by id (the home page is "/"; Streamlit names the others by file).
PATHS = {page.id: "/" if page is DEFAULT_PAGE else "/" + page.url_path for page in PAGES}


def _failing(page, page_id: str, lang: str, theme: str) -> list[str]:
    """The page's violations that fail the test, each as a line (printed: every finding)."""
    found = axe_violations(page, impacts=("minor", "moderate", "serious", "critical"))
    for item in found:
        print(page_id, lang, theme, item["impact"], item["id"], item["target"], item["summary"][:120])
    failing = [
        f"{theme}: {item['id']} {item['target']}: {item['summary']} | {item['html']}"
        for item in found
        if (item["impact"] in ("serious", "critical") or item["id"] in STRICT_RULES)
        and (item["id"], item["target"]) not in KNOWN
    ]
    if failing:
        screenshot(page, f"axe_{page_id}_{lang}_{theme}", full_page=False)
    return failing


@pytest.fixture(scope="module")
def open_pages(browser, server) -> Iterator[dict[str, Any]]:
    """One open page per language for the module, reached once by its link and then moved from
    page to page with the sidebar's links, as a person does (a move takes a third of a page
    load's wall time on an idle machine: the app's scripts stay loaded). A test that fails closes its language's page, so
    the next test opens a fresh one."""
    pages: dict[str, Any] = {}
    yield pages
    for page in pages.values():
        page.context.close()


def _audited_page(browser, server: str, pages: dict[str, Any], lang: str, page_id: str):
    """The language's open page, showing ``page_id`` in the light theme and drawn."""
    path = PATHS[page_id]
    if lang not in pages:
        context = browser.new_context(
            viewport={"width": 1280, "height": 900}, locale="en-US", color_scheme="light"
        )
        pages[lang] = context.new_page()
        open_page(pages[lang], f"{server}{path}?lang={lang}", timeout=90_000)
    page = pages[lang]
    switch_theme(page, "light", palette.THEMES["light"]["background"])
    go_to_page(page, server, path, timeout=90_000)  # the Evaluate page computes its sample
    wait_page_ready(page, timeout=90_000)
    return page


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page_id", list(PATHS))
def test_axe_finds_no_serious_violation(browser, server, open_pages, page_id, lang):
    """The page audited in the light theme, then in the dark one: the system's setting switched
    in the open page, which Streamlit follows as it is (one page load for both themes)."""
    try:
        page = _audited_page(browser, server, open_pages, lang, page_id)
        assert_no_exception(page)
        failing = _failing(page, page_id, lang, "light")
        switch_theme(page, "dark", palette.THEMES["dark"]["background"])
        assert_no_exception(page)
        failing += _failing(page, page_id, lang, "dark")
    except BaseException:
        if lang in open_pages:
            open_pages.pop(lang).context.close()
        raise
    assert not failing, "\n".join(failing)
