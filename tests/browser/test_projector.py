"""The classroom's screens: on a projector (1024×768, 1280×800, presenter mode on and off) and a
phone (390×844), no table, formula or chart of the Calculator, Lesson and Ties pages reaches past
the right edge of the view or scrolls sideways.

Screenshots go to artifacts/screenshots; with ``NDCG_LAB_UPDATE_DOCS=1`` the Calculator's (its
step table) are also copied into ``docs/`` (``projector-1024.png``, ...), so reviewers see what a
class sees.
"""

from __future__ import annotations

import contextlib
import os
import shutil

import pytest
from browser_helpers import ROOT, assert_no_exception, open_page, screenshot

#: Viewports of a classroom: two common projector resolutions and a phone.
SIZES: dict[str, tuple[int, int]] = {"1024": (1024, 768), "1280": (1280, 800), "phone": (390, 844)}

#: The pages and views checked: k = 10 of a 12-item list (a long sum, rows past k greyed).
LONG = "rel=3,2,3,0,1,2,3,0,0,1,2,1&k=10"
PAGES: dict[str, str] = {
    "calculator": f"/?{LONG}",
    "lesson": f"/Lesson?{LONG}&step=6",  # the last step: every formula, the whole table
    "ties": "/Scores_and_ties?rel=3,2,3,0,1&scores=0.9,0.7,0.7,0.4,0.4",
    # a free scale allows 1e300: 301 digits written out (now 1 × 10^300 and 1.000e+300)
    "huge": "/?rel=1e300,2,0,1&scale=free",
}

#: Every element of the main area that must fit: tables, display formulas, charts and the
#: headline metrics; and every element of the main area that scrolls sideways.
_OVERFLOWS = r"""() => {
  const width = window.innerWidth;
  const main = document.querySelector("[data-testid='stMain']");
  const name = (e) => e.tagName.toLowerCase()
      + (e.className && typeof e.className === "string" ? "." + e.className.split(" ")[0] : "")
      + " «" + (e.textContent || "").replace(/\s+/g, " ").slice(0, 40) + "»";
  const out = [];
  const fits = "table, .katex-display, .katex, [data-testid='stVegaLiteChart'] canvas, "
      + "[data-testid='stVegaLiteChart'] svg.marks, [data-testid='stMetric']";
  for (const e of main.querySelectorAll(fits)) {
    const box = e.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1) {
      out.push(`${name(e)} ends at ${Math.round(box.right)} > ${width}`);
    }
  }
  for (const e of main.querySelectorAll("*")) {
    const style = getComputedStyle(e);
    if ((style.overflowX === "auto" || style.overflowX === "scroll") && e.scrollWidth > e.clientWidth + 1
        && e.clientWidth > 0) {
      out.push(`${name(e)} scrolls sideways: ${e.scrollWidth} > ${e.clientWidth}`);
    }
  }
  const page = document.documentElement.scrollWidth;
  if (page > width + 1) out.push(`page is ${page} wide`);
  return out;
}"""


def _check_view(page, page_id: str, size: str, present: bool) -> list[str]:
    """What reaches past the right edge of the open page, once its layout is still; takes the
    screenshots (the Calculator's step table too)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    # the layout may still move after the run is drawn (fonts, KaTeX, a chart re-measuring
    # its width after a resize): wait for it to fit
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(f"() => ({_OVERFLOWS})().length === 0", timeout=10_000)
    overflows = page.evaluate(_OVERFLOWS)
    name = f"projector-{page_id}-{size}" + ("-present" if present else "")
    screenshot(page, name, full_page=False)
    if page_id == "calculator":  # the step table and the formulas below it
        steps = page.locator("[class*='st-key-lab-steps-']").first
        steps.evaluate("e => { e.style.scrollMarginTop = '4rem'; e.scrollIntoView(); }")
        shot = screenshot(page, f"{name}-steps", full_page=False)
        if os.environ.get("NDCG_LAB_UPDATE_DOCS"):
            shutil.copyfile(shot, ROOT / "docs" / f"{name.replace('-calculator', '')}.png")
        # back to the top: every scrolled box from the first element up (the main area scrolls,
        # not the window; scrollIntoView put the title under Streamlit's header)
        page.locator("[data-testid='stMain'] [data-testid='stElementContainer']").first.evaluate(
            "e => { for (let n = e; n; n = n.parentElement) n.scrollTop = 0; }"
        )
    return [f"{size}: {overflow}" for overflow in overflows]


#: Segmented-control options drawn as pieces of a joined bar (no left border, square corners),
#: which broke apart when the options wrap in a narrow column in presenter mode.
_JOINED_SEGMENTS = r"""() => [...document.querySelectorAll("[data-testid='stMain'] button[data-variant='segmented_control']")]
  .filter((b) => { const s = getComputedStyle(b);
    return s.borderTopLeftRadius === "0px" || /, 0\)$|\/ 0\)$/.test(s.borderLeftColor); })
  .map((b) => b.textContent.slice(0, 40))"""


#: How far the main area's first element starts above the bottom of Streamlit's header (which
#: is drawn over the page in the theme's background): > 0 is hidden under it.
_UNDER_HEADER = """() => document.querySelector("[data-testid='stHeader']").getBoundingClientRect().bottom
  - document.querySelector("[data-testid='stMain'] [data-testid='stElementContainer']").getBoundingClientRect().top"""


@pytest.mark.parametrize("present", [False, True], ids=["normal", "present"])
@pytest.mark.parametrize("page_id", list(PAGES))
def test_page_fits_a_projector_without_sideways_scroll(server, browser, page_id, present):
    """At 1280×800, then with the window made 1024×768 (one page load for both projectors).
    Narrowed rather than widened: what was laid out for the wider screen must shrink, the
    stricter of the two directions."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    try:
        open_page(page, server + PAGES[page_id] + ("&present=1" if present else ""))
        assert_no_exception(page)
        under_header = page.evaluate(_UNDER_HEADER)  # before any check scrolls the main area
        overflows = _check_view(page, page_id, "1280", present)
        width, height = SIZES["1024"]
        page.set_viewport_size({"width": width, "height": height})
        assert_no_exception(page)
        overflows += _check_view(page, page_id, "1024", present)
        assert not overflows, "\n".join(overflows)
        if present:  # each option its own button, whole, when they wrap onto a second line
            assert page.evaluate(_JOINED_SEGMENTS) == []
        assert under_header <= 0  # nothing drawn under Streamlit's header as the page opened
    finally:
        context.close()


#: The main area's headings whose lines the browser does not balance (ui.framework.styles).
_UNBALANCED_HEADINGS = """() => [...document.querySelectorAll("[data-testid='stMain'] :is(h1, h2, h3)")]
  .filter((h) => getComputedStyle(h).textWrapStyle !== "balance").map((h) => h.textContent.slice(0, 40))"""


@pytest.mark.parametrize("page_id", list(PAGES))
def test_page_fits_a_phone_without_sideways_scroll(server, browser, page_id):
    width, height = SIZES["phone"]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    page = context.new_page()
    try:
        open_page(page, server + PAGES[page_id])
        assert_no_exception(page)
        overflows = _check_view(page, page_id, "phone", False)
        assert not overflows, "\n".join(overflows)
        # a heading that wraps on a phone keeps its lines even (no last line of one word)
        assert page.evaluate(_UNBALANCED_HEADINGS) == []
    finally:
        context.close()


#: The Variants page's tools table: nine columns, wider than a 1024 px projector at large type.
VARIANTS = "/Variants_and_libraries?rel=3,2,3,0,1&k=5&present=1"

#: Every cell of the main area's tables that ends past the view's right edge.
_CUT_CELLS = r"""() => [...document.querySelectorAll("[data-testid='stMain'] td, [data-testid='stMain'] th")]
  .filter((c) => { const b = c.getBoundingClientRect(); return b.width > 0 && b.right > window.innerWidth + 1; })
  .map((c) => c.textContent.slice(0, 40))"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_data_table_presenter_fits_1024_in_parts(server, browser, lang):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    page = context.new_page()
    try:
        open_page(page, f"{server}{VARIANTS}&lang={lang}")
        assert_no_exception(page)
        # the presenter's type and the fonts may still change the layout after the run is drawn
        # (seen on a loaded CI machine): wait for it to settle, then measure
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(f"() => ({_CUT_CELLS})().length === 0", timeout=10_000)
        cut = page.evaluate(_CUT_CELLS)
        screenshot(page, f"projector-variants-1024-present-{lang}", full_page=False)
        assert not cut, cut
    finally:
        context.close()


#: Cut or overlapping parts of the main area: a table, formula or chart reaching past the
#: column it is in (the general formulas overlapped the worked ones), tabs hidden behind a scroll
#: arrow, a chart's legend past its chart, and a select box whose text is cut ("Choose an exar").
_CUT_PARTS = r"""() => {
  const out = [];
  const name = (e) => (e.textContent || "").replace(/\s+/g, " ").slice(0, 40);
  const main = document.querySelector("[data-testid='stMain']");
  for (const column of main.querySelectorAll("[data-testid='stColumn']")) {
    const right = column.getBoundingClientRect().right;
    for (const e of column.querySelectorAll("table, .katex, [data-testid='stVegaLiteChart'] svg.marks")) {
      const box = e.getBoundingClientRect();
      if (box.width > 0 && box.right > right + 1) out.push(`«${name(e)}» ends at ${Math.round(box.right)} > column ${Math.round(right)}`);
    }
  }
  for (const tabs of main.querySelectorAll("[role='tablist']")) {
    if (tabs.scrollWidth > tabs.clientWidth + 1) {
      out.push(`tabs «${name(tabs)}» hidden behind an arrow: ${tabs.scrollWidth} > ${tabs.clientWidth}`);
    }
  }
  for (const svg of main.querySelectorAll("[data-testid='stVegaLiteChart'] svg.marks")) {
    const right = svg.getBoundingClientRect().right;
    for (const legend of svg.querySelectorAll(".role-legend")) {
      const box = legend.getBoundingClientRect();
      if (box.width > 0 && box.right > right + 1) out.push(`legend «${name(legend)}» cut at ${Math.round(right)}`);
    }
  }
  for (const e of main.querySelectorAll("[data-baseweb='select'] *")) {
    const text = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (text && e.scrollWidth > e.clientWidth + 1) {
      out.push(`select text «${name(e)}» cut: ${e.scrollWidth} > ${e.clientWidth}`);
    }
  }
  return out;
}"""


#: The pages checked with the sidebar open: the Calculator's and Lesson's formulas and charts,
#: the Variants tools table and the Blind spots tab bar (nine tabs).
SIDEBAR_PAGES = {
    **PAGES,
    "variants": VARIANTS.replace("&present=1", ""),
    "blind_spots": "/Blind_spots?rel=3,2,0,0,1",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page_id", ["calculator", "lesson", "variants", "blind_spots"])
def test_presenter_layout_holds_with_the_sidebar_open_at_1024(server, browser, page_id, lang):
    """The teacher opens the sidebar (to reach Share) in presenter mode at 1024×768."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    page = context.new_page()
    try:
        open_page(page, f"{server}{SIDEBAR_PAGES[page_id]}&present=1&lang={lang}")
        assert_no_exception(page)
        page.get_by_test_id("stExpandSidebarButton").click()
        page.get_by_test_id("stSidebarCollapseButton").wait_for()
        check = f"() => ({_OVERFLOWS})().concat(({_CUT_PARTS})())"
        with contextlib.suppress(PlaywrightTimeout):  # the layout settles after the sidebar opens
            page.wait_for_function(f"() => ({check})().length === 0", timeout=10_000)
        problems = page.evaluate(check)
        screenshot(page, f"projector-{page_id}-1024-present-sidebar-{lang}", full_page=False)
        assert not problems, "\n".join(problems)
    finally:
        context.close()
