"""Text contrast measured in Chromium, in the light and the dark theme (WCAG 2.x AA).

Both themes are on offer (``.streamlit/config.toml``); Streamlit follows the system setting, so
the page is opened with ``color_scheme`` emulated as light, measured, switched to dark (Streamlit
follows the change without a reload) and measured again. Every visible piece of text on the page and in
the drag cards' iframe is measured, the charts' axis and legend text included (its colour is its
SVG fill): its colour (with opacity) composed over the first opaque
background behind it, against 4.5:1 (3:1 for large text). Disabled controls are exempt, as in
WCAG. The rendered backgrounds must be the ones ``ui.components.palette.THEMES`` does its arithmetic on.
"""

from __future__ import annotations

import pytest
from browser_helpers import (
    assert_no_exception,
    open_page,
    screenshot,
    switch_theme,
    wait_idle,
    wait_page_ready,
)

from ui.framework import palette, styles

#: For each element with its own text: its colour, the backgrounds behind it (innermost first,
#: up to the first opaque one), its size and weight, and whether it is disabled.
_TEXTS = """() => {
  const out = [];
  // rgb()/rgba(), or color(srgb r g b / a) with channels from 0 to 1 (a color-mix())
  const rgba = (s) => {
    const m = (s.match(/[\\d.]+/g) || []).map(Number);
    return s.startsWith('color(') ? [m[0] * 255, m[1] * 255, m[2] * 255, m.length > 3 ? m[3] : 1]
      : m.concat([1]).slice(0, 4);
  };
  // the charts' axis and legend text and their labels on the page's background (SVG: its
  // colour is its fill); other SVG text (a heatmap's values on their cells) is left out
  const chart = ':is(.role-axis-label, .role-axis-title, .role-legend-label, .role-legend-title, [class*=CHART_INK_]) text';
  for (const el of document.querySelectorAll('body *')) {
    const svg = el.matches('[data-testid=stVegaLiteChart] ' + chart);
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    if (r.width < 1 || r.height < 1 || cs.visibility === 'hidden' || cs.display === 'none') continue;
    if (!svg && el.closest('[aria-hidden="true"], svg, canvas, .katex-mathml, title, style, script')) continue;
    let opacity = svg ? Number(cs.fillOpacity) : 1;
    const layers = [];
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      opacity *= Number(s.opacity);
      // a background counts only where it is behind the text (a slider's value sits above its thumb)
      const box = e.getBoundingClientRect();
      if (x < box.left || x > box.right || y < box.top || y > box.bottom) continue;
      const bg = rgba(s.backgroundColor);
      if (bg.length === 4 && bg[3] > 0) { layers.push(bg); if (bg[3] >= 1) break; }
    }
    if (opacity === 0) continue;   // not shown (a slider's range labels until hovered)
    out.push({
      text: el.textContent.trim().slice(0, 40), tag: el.tagName,
      color: rgba(svg ? cs.fill : cs.color), opacity, layers, chart: svg,
      size: parseFloat(cs.fontSize), weight: Number(cs.fontWeight) || 400,
      disabled: !!el.closest('[disabled], [aria-disabled="true"], [data-disabled="true"]'),
    });
  }
  return out;
}""".replace("CHART_INK", styles.CHART_INK)


def _over(top: list[float], bottom: tuple[float, float, float]) -> tuple[float, float, float]:
    a = top[3]
    return tuple(a * t + (1 - a) * b for t, b in zip(top[:3], bottom, strict=False))


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(c):02X}" for c in rgb)


def _contrast(item: dict, page_background: tuple[float, float, float]) -> float:
    background = page_background
    for layer in reversed(item["layers"]):
        background = _over(layer, background)
    colour = list(item["color"])
    colour[3] *= item["opacity"]
    return palette.contrast_ratio(_hex(_over(colour, background)), _hex(background))


def _large(item: dict) -> bool:
    # WCAG: 18 pt (24 px), or 14 pt (18.66 px) bold
    return item["size"] >= 24 or (item["size"] >= 18.66 and item["weight"] >= 700)


#: Pages to measure, with text each must show (so a half-drawn page cannot pass).
_PAGES = {
    # rows and cards past k (greyed), a caption, metrics, formulas, a "what changed" box, tables
    "calculator": ("/?rel=3,2,0,0,1,2&k=3", {"nDCG@3", "— no", "D4 · 0"}),
    "lesson": ("/Lesson?rel=3,2,0,0,1&k=3&step=6", {"Play with it", "— no"}),
    "ties": ("/Scores_and_ties", {"Scores and ties"}),
    "evaluate": ("/Evaluate_a_run?eval_form=table", {"Worst queries", "Open in the Calculator"}),
    # the IR form: the comparison table, its reading, the charts
    "evaluate_trec": ("/Evaluate_a_run", {"Compared with good", "Open in the Calculator"}),
    "practice": ("/Practice", {"Check"}),
}


#: Pages with charts: their axis and legend text must be among the texts measured.
_CHARTS = {"calculator", "evaluate", "evaluate_trec"}


def _open(page, server: str, name: str) -> None:
    path, _ = _PAGES[name]
    open_page(page, server + path)
    # the app's style sheet applied (until then a caption has Streamlit's 0.6 opacity: 3.89:1,
    # measured on a loaded machine)
    wait_page_ready(page)
    if name == "calculator":
        page.get_by_role("button", name="Down", exact=True).click()
        wait_idle(page)
        # the click leaves the pointer over the buttons: a help tooltip fading in or out would
        # be measured half-transparent; move away and wait until no tooltip is shown
        page.mouse.move(1, 1)
        page.locator("[data-testid='stTooltipContent']").first.wait_for(state="hidden")


def _measure(page, theme: str, name: str) -> list[tuple[str, str, float]]:
    """The texts of the open page below their contrast goal in ``theme``."""
    _, expected = _PAGES[name]
    assert_no_exception(page)
    for text in expected:  # a half-drawn page cannot be measured: wait until it shows them all
        page.get_by_text(text, exact=False).first.wait_for(state="attached")
    screenshot(page, f"contrast_{name}_{theme}", full_page=False)
    background = page.evaluate(
        "() => getComputedStyle(document.querySelector('[data-testid=stApp]')).backgroundColor"
    )
    page_rgb = tuple(float(x) for x in background[background.index("(") + 1 : -1].split(",")[:3])
    assert _hex(page_rgb) == palette.THEMES[theme]["background"]
    items = [i for frame in page.frames for i in frame.evaluate(_TEXTS) if not i["disabled"]]
    assert expected <= {i["text"] for i in items}
    if name in _CHARTS:  # the charts' axis and legend text is measured too (not a blind spot)
        assert any(i["chart"] for i in items), "no chart text measured"
    return [
        (i["text"], i["tag"], round(_contrast(i, page_rgb), 2))
        for i in items
        if _contrast(i, page_rgb) < (palette.MARK_CONTRAST if _large(i) else palette.TEXT_CONTRAST)
    ]


@pytest.mark.parametrize("name", sorted(_PAGES))
def test_every_text_meets_wcag_aa_in_both_themes(browser, server, name):
    """Measured in the light theme, then in the dark one: the system's setting switched in the
    open page, which Streamlit follows as it is (one page load for both themes)."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, locale="en-US", color_scheme="light"
    )
    try:
        page = context.new_page()
        _open(page, server, name)
        low = {"light": _measure(page, "light", name)}
        switch_theme(page, "dark", palette.THEMES["dark"]["background"])
        low["dark"] = _measure(page, "dark", name)
        assert not low["light"] and not low["dark"], "\n".join(
            f"{theme}: {item}" for theme, items in low.items() for item in items
        )
    finally:
        context.close()
