"""Chinese pages in Chromium: no English word outside the allow-list in what the page shows,
including Streamlit's own widget text (placeholders, uploader, toolbars) that AppTest cannot see.

The rules are those of tests/app/chinese_text.py. The page's shown text is read from the DOM
(text hidden with CSS does not count) with code, formulas (KaTeX), icons (ligatures of the
Material font) and charts (SVG, checked by the AppTest scan through their specs) left out; every
expander is opened and every tab shown first, and input placeholders count as shown text.
"""

from __future__ import annotations

import pytest
from browser_helpers import assert_no_exception, choose_option, open_page, settle, wait_idle
from chinese_text import english_words
from playwright.sync_api import expect

from ui.framework.frame import aria_words
from ui.framework.i18n import translate

#: The page's shown text, one text node per line. Left out: code, formulas, icons and SVG.
#: Streamlit's own "Skip to main content" link (``stSkipToContent``, shown on keyboard focus)
#: is read: the app's page script writes it in the page's language.
PAGE_TEXT_JS = """() => {
  const skip = "style,script,noscript,code,pre,.katex,svg,[data-testid=stIconMaterial]";
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (el && !el.closest(skip) && n.textContent.trim()
        && el.checkVisibility({visibilityProperty: true})) out.push(n.textContent.trim());
  }
  document.querySelectorAll("input[placeholder], textarea[placeholder]")
    .forEach(e => out.push(e.getAttribute("placeholder")));
  return out;
}"""

PAGES_ZH = {
    "calculator": "/?lang=zh",
    "lesson": "/Lesson?lang=zh",
    "ties": "/Scores_and_ties?lang=zh",
    "evaluate_upload": "/Evaluate_a_run?lang=zh",
    "evaluate_table_upload": "/Evaluate_a_run?lang=zh&eval_form=table",
}
#: Clicks that bring a page's widgets into view (the Evaluate page's file uploaders).
CLICKS = {
    "evaluate_upload": translate("zh", "evaluate.trec_source_upload"),
    "evaluate_table_upload": translate("zh", "evaluate.source_upload"),
}


def _open_expanders(page) -> None:
    for summary in page.locator("[data-testid='stExpander'] details:not([open]) > summary").all():
        summary.click()
    settle(page)  # an expander opens in the browser: no script run


def _shown_texts(page) -> list[str]:
    """The page's shown text, with every tab of every tab bar shown in turn."""
    texts = list(page.evaluate(PAGE_TEXT_JS))
    for tab in page.locator("[data-testid='stTabs'] [role='tab']").all():
        tab.click()
        expect(tab).to_have_attribute("aria-selected", "true")  # its panel is the one shown
        texts += page.evaluate(PAGE_TEXT_JS)
    return texts


def _english_lines(page) -> list[tuple[str, list[str]]]:
    return [(text, words) for text in dict.fromkeys(_shown_texts(page)) if (words := english_words(text))]


@pytest.fixture
def zh_page(browser):
    """A browser page whose own locale is Chinese too (so nothing can fall back to English)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    page = context.new_page()
    yield page
    context.close()


#: True once the page script has put the page's language on the document.
LANG_SET = "(tag) => document.documentElement.lang === tag"
SKIP_TEXT = "() => [...document.querySelectorAll('[data-testid=stSkipToContent]')].map((a) => a.textContent)"
#: The accessible names of the page's elements (aria-label), as a screen reader reads them out.
NAMES = "() => [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'))"


def _streamlit_english(names: list[str]) -> list[str]:
    """The names among ``names`` that are Streamlit's English ones (ui.framework.frame.aria_words)."""
    words = aria_words("zh")
    starts = tuple(start for start, _ in words["prefix"])
    return [n for n in names if n in words["exact"] or n.startswith(starts)]


@pytest.mark.parametrize("name", sorted(PAGES_ZH))
def test_chinese_page_in_chromium_shows_no_english(server, zh_page, name):
    open_page(zh_page, server + PAGES_ZH[name])
    assert_no_exception(zh_page)
    zh_page.wait_for_function(LANG_SET, arg="zh-CN")
    if name in CLICKS:
        zh_page.get_by_text(CLICKS[name], exact=True).click()
        wait_idle(zh_page)
    _open_expanders(zh_page)
    assert _english_lines(zh_page) == []


def test_chinese_page_text_scan_sees_streamlit_widget_text(server, zh_page):
    """The scan reads placeholders and the page's own text (so a pass is not a blind spot)."""
    open_page(zh_page, server + PAGES_ZH["calculator"])
    zh_page.wait_for_selector("[data-testid='stSelectbox'] input[placeholder='选择一个示例…']")
    texts = zh_page.evaluate(PAGE_TEXT_JS)
    assert "选择一个示例…" in texts
    assert "nDCG 计算器" in texts
    # Streamlit's hint under a box being typed in ("Press Enter to apply", English whatever
    # the page): hidden, the page's words drawn in its place
    box = zh_page.locator("[data-testid='stTextInput'] input").first
    box.click()
    box.press("End")
    box.type(", 2")
    hint = zh_page.locator("[data-testid='InputInstructions']").first
    hint.wait_for(state="attached")  # drawn by its ::after: the element itself is hidden
    assert hint.evaluate("e => [getComputedStyle(e).visibility, getComputedStyle(e, '::after').content]") == [
        "hidden",
        '"' + translate("zh", "common.enter_apply") + '"',
    ]
    assert "Press Enter to apply" not in zh_page.evaluate(PAGE_TEXT_JS)


def test_chinese_page_declares_its_language_to_the_browser(server, zh_page):
    """``<html lang>`` follows the page's language (Streamlit's page says "en" whatever the app
    shows), and so does Streamlit's skip link: on the first page, on the next, and after the
    sidebar's switch to English."""
    open_page(zh_page, server + PAGES_ZH["calculator"])
    zh_page.wait_for_function(LANG_SET, arg="zh-CN")
    assert zh_page.evaluate(SKIP_TEXT) == [translate("zh", "common.skip_to_content")] == ["跳到主要内容"]
    # Streamlit's own controls are named in Chinese too ("Open", "Help for 增益" were English)
    names = zh_page.evaluate(NAMES)
    assert _streamlit_english(names) == []
    assert "打开选项" in names and "“增益”的说明" in names
    zh_page.get_by_role("link", name=translate("zh", "nav.lesson")).click()
    wait_idle(zh_page)
    assert "/Lesson" in zh_page.url
    zh_page.wait_for_function(LANG_SET, arg="zh-CN")
    # the prediction's lead-in drawn bold, its colon outside (inside, CommonMark left the "**")
    expect(zh_page.locator("[data-testid='stMain'] strong", has_text="先预测").first).to_have_text("先预测")
    assert "**" not in zh_page.evaluate(PAGE_TEXT_JS)
    box = (
        zh_page.locator("[data-testid='stSelectbox']")
        .filter(has_text=translate("zh", "common.language"))
        .first
    )
    choose_option(zh_page, box, translate("en", "common.language_name"))
    wait_idle(zh_page)
    zh_page.wait_for_function(LANG_SET, arg="en")
    assert zh_page.evaluate(SKIP_TEXT) == ["Skip to main content"]
    names = zh_page.evaluate(NAMES)  # back in English: Streamlit's names as it wrote them
    assert "Open" in names and any(n.startswith("Help for ") for n in names)
    assert not [n for n in names if n == "打开选项" or n.endswith("的说明")]
