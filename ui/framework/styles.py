"""The static style sheets of the pages: every page's, upright (Chinese) text, presenter mode.

Contents
--------
PAGE_CSS, UPRIGHT_CSS, PRESENTER_CSS, widget_text_css
    The style sheets (static, no user text) the frame puts on every page.
SECONDARY_PREFIX, TABLE_PREFIX, STEP_TABLE_PREFIX
    Key prefixes of the containers they style: hidden in presenter mode, static tables, step
    tables shown whole or in parts (:func:`step_parts`, :func:`step_table_key`).
CHART_INK
    The name prefix of chart text layers drawn in the theme's text colour.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from ui.framework.palette import OKABE_ITO, css_text_on_fill

#: Containers whose key starts with this are hidden in presenter mode: a page wraps controls a
#: teacher does not need in front of a class in ``st.container(key="lab-secondary-<name>")``.
SECONDARY_PREFIX = "lab-secondary-"

#: Containers whose key starts with this hold a static table (``ui.components.widgets.static_table``).
TABLE_PREFIX = "lab-table-"

#: Chart text layers named with this (``ui.components.charts._ink``) take the theme's text colour.
CHART_INK = "lab_ink"

#: Containers whose key starts with this hold a step table twice: whole (``-whole``) and in
#: parts (``-part0``...); the style sheet shows the whole table only where it fits.
STEP_TABLE_PREFIX = "lab-steps-"
#: Containers shown only on a wide screen / only on a phone (the screen's width, 640 px:
#: where Streamlit stacks columns), for a view that needs another form on a phone.
WIDE_PREFIX = "lab-wide-"
NARROW_PREFIX = "lab-narrow-"
#: The containers of the drag cards' keyboard help, hidden on a touch screen without a mouse.
DRAG_KEYS_PREFIX = "lab-drag-keys-"

#: The step table's parts on a narrow screen, by the core's column names: what is summed
#: (gains, CG), how it is discounted (DCG), and the ideal ranking with nDCG. Columns not named
#: here go with the first part.
STEP_PARTS: tuple[frozenset[str], ...] = (
    frozenset({"log_term", "discount", "discounted_gain", "dcg"}),
    frozenset({"ideal_item", "ideal_relevance", "ideal_gain", "ideal_discounted_gain", "idcg", "ndcg"}),
)


def step_parts(cells: Mapping[str, Any], columns: Sequence[str], lead: int = 0) -> list[dict[str, Any]]:
    """The step table's columns split into parts that fit a phone or a projector at large type.

    ``cells`` maps shown headers to cells: ``lead`` leading columns (the "In top k" mark), then
    one per core column of ``columns``, in order. Every part repeats the position column (and the
    lead columns go with the first part), so each part reads on its own. Parts left empty are
    dropped; a table of a single part gives one part.

    >>> parts = step_parts({"i": [1], "Gain": [3], "DCG": [3.0], "nDCG": [1.0]},
    ...                    ["position", "gain", "dcg", "ndcg"])
    >>> [list(p) for p in parts]
    [['i', 'Gain'], ['i', 'DCG'], ['i', 'nDCG']]
    """
    headers = list(cells)
    named = dict(zip(columns, headers[lead:], strict=False))
    groups: list[list[str]] = [[], [], []]
    for column, header in named.items():
        if column != "position":
            groups[next((n + 1 for n, part in enumerate(STEP_PARTS) if column in part), 0)].append(header)
    position = [named["position"]] if "position" in named else []
    groups = [group for group in groups if group]
    return [
        {h: cells[h] for h in [*(headers[:lead] if n == 0 else []), *position, *group]}
        for n, group in enumerate(groups)
    ]


#: The width, in ems of the step table's type, that one column of the whole step table needs
#: with its header wrapped (a number like 0.6309 and its padding; checked in Chromium by
#: tests/browser/test_projector.py). The whole table is shown from columns × this width on.
STEP_COLUMN_EMS = 4.0


#: The room, in ems of a presenter table's type (1.6rem), of a 1024 px projector's page
#: (1024 px less the presenter padding, 2 × 3rem), less a margin for the estimate's error.
PRESENT_TABLE_EMS = 32.0


def text_ems(text: str) -> float:
    """A rough width of ``text`` in ems: wide (CJK) characters 1 em, others 0.55 em.

    >>> text_ems("ab"), text_ems("等级")
    (1.1, 2.0)
    """
    return round(sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.55 for c in text), 2)


def column_ems(cells: Sequence[str], wrap: float = 9.0) -> float:
    """The room, in ems, one column needs to read well: its longest word (which does not break),
    its longest cell up to ``wrap`` ems (longer ones wrap), and 1 em of padding.

    >>> column_ems(["Tool", "scikit-learn"])
    7.6
    >>> column_ems(["相关性等级（等级）不是整数"])
    10.0
    >>> column_ems(["RankingMetrics(predictionAndLabels)"])
    20.25
    """
    need = 0.0
    for cell in cells:
        # a line breaks at a space and next to a wide (CJK) character
        words = re.split(r"\s+|(?<=[\u2e80-\uffef])|(?=[\u2e80-\uffef])", cell)
        need = max(need, *(text_ems(w) for w in words), min(text_ems(cell), wrap))
    return round(need + 1.0, 2)


def table_parts(cells: Mapping[str, Sequence[str]], room: float = PRESENT_TABLE_EMS) -> list[dict[str, Any]]:
    """A wide table's columns split into parts of at most ``room`` ems; every part repeats the
    first column (the row's name), so each reads on its own. A table that fits is one part.

    >>> parts = table_parts({"Tool": ["a"], "Call": ["x" * 30], "Gain": ["linear"]}, room=20)
    >>> [list(p) for p in parts]
    [['Tool', 'Call'], ['Tool', 'Gain']]
    """
    headers = list(cells)
    if not headers:
        return []
    need = {h: column_ems([h, *cells[h]]) for h in headers}
    lead, groups = headers[0], [[headers[0]]]
    for header in headers[1:]:
        if len(groups[-1]) > 1 and sum(need[h] for h in groups[-1]) + need[header] > room:
            groups.append([lead])
        groups[-1].append(header)
    return [{h: cells[h] for h in group} for group in groups]


def step_table_key(key: str, columns: int) -> str:
    """The key of a step table's container: the prefix, its number of columns, the page's key.

    A table shown whole at every width (one part) has 0 columns here: no query hides it.

    >>> step_table_key("calc_steps", 13)
    'lab-steps-c13-calc_steps'
    """
    return f"{STEP_TABLE_PREFIX}c{columns}-{key}"


def _step_table_queries(most: int = 40) -> str:
    """Container queries that show a step table of n columns whole where it fits, else in parts."""
    rules = []
    for n in range(2, most + 1):
        box, width = f'[class*="st-key-{STEP_TABLE_PREFIX}c{n}-"]', round(n * STEP_COLUMN_EMS, 2)
        rules.append(f'@container (min-width: {width}em) {{ {box} [class*="-part"] {{ display: none; }} }}')
        rules.append(
            f'@container (max-width: {width - 0.01}em) {{ {box} [class*="-whole"] {{ display: none; }} }}'
        )
    return "\n".join(rules)


#: The focus ring of the app's own controls (the skip link, the drag cards, buttons and links in
#: the page): Okabe-Ito vermillion, which stands out 3:1 from every background of both themes
#: (3.9:1 on white, 4.7:1 on the dark theme, 3.6:1 on the light sidebar) and differs from the
#: blue cards it circles. WCAG 2.2's focus appearance asks 3:1 against what is next to it.
FOCUS_RING = OKABE_ITO["vermillion"]

#: The class of a skip link (:func:`ui.components.widgets.skip_link`): off screen until focused, then shown
#: where it stands; and of an element that takes no room (the anchor a skip link jumps to, the
#: holder of PAGE_SCRIPT).
SKIP_LINK_CLASS = "lab-skip"
#: The start of the drag cards' containers' keys (:func:`card_rows_css`).
DRAG_CARDS_PREFIX = "lab-cards-"

#: The drawn size of the drag cards (ui.components.widgets' card styles, measured in Chromium):
#: the element holding one row (the frame and 7.6 px under it) and each further row, and a
#: card's outer width as a base plus so much per character of its text ("D1 · 3": 75 + 8 px
#: of margins; 128 + 12 px in presenter mode), in px; normal and large cards.
CARD_SIZES = {False: (58.0, 42.0, 32.0, 8.5), True: (87.0, 71.0, 26.0, 19.0)}
_TRAY_PADDING = 8.0


def card_rows_css(key: str, texts: list[str], *, large: bool) -> str:
    """CSS that keeps the room of the drag cards ``texts`` in the container ``key`` while their
    frame loads: as many rows as the cards will wrap into at the container's width (a container
    query per width where one more row is needed), so what is below does not move when they
    appear. Only the texts' lengths are used: no user text enters the CSS.

    >>> css = card_rows_css("lab-cards-calc", ["D1 · 3"] * 5, large=True)
    >>> css.count("@container")  # 140 px a card: 2 rows under 708 px, 3 under 428, 5 under 288
    3
    >>> "min-height: 87px" in css and "(max-width: 707px) { .st-key-lab-cards-calc" in css
    True
    """
    first, more, base, per_char = CARD_SIZES[large]
    widths = [base + per_char * len(text) for text in texts]

    def rows(room: float) -> int:
        count, used = 1, 0.0
        for width in widths:
            if used and used + width > room - _TRAY_PADDING:
                count, used = count + 1, 0.0
            used += width
        return count

    target = f".st-key-{key} > [data-testid='stElementContainer']"
    shown = rows(4000)
    rules = [f"{target} {{ min-height: {first + more * (shown - 1):.0f}px; }}"]
    for room in range(4000, 99, -1):
        if rows(room) > shown:
            shown = rows(room)
            rules.append(
                f"@container (max-width: {room}px) {{ {target} {{ min-height: {first + more * (shown - 1):.0f}px; }} }}"
            )
    return "<style>" + "\n".join(rules) + "</style>"


NO_ROOM_CLASS = "lab-no-room"

#: Static CSS of every page (no user text): a shaded row of a static table (``md_table``'s
#: ``shaded``, e.g. tied rows) fills its cells with the tied rows' pair of palette.TEXT_ON_FILL;
#: a view with a ``lab-wide-`` and a ``lab-narrow-`` form shows one by the screen's width; a
#: static table wider than the page scrolls sideways
#: (the projector test fails on it), its headers wrap, its cells come closer in a narrow column
#: and its digits line up; the step table is shown whole or in parts by the room it has; captions are faded less than Streamlit's 0.6
#: opacity, which left them at 3.9:1 on the light theme (WCAG AA asks 4.5:1; now ~6:1 light,
#: ~9:1 dark), and code is set in the code colour without the syntax colours, whose comments,
#: brackets and keywords fell to 2.3-4.3:1 (both measured by tests/browser/test_contrast.py);
#: inline code takes the text colour (Streamlit's green was 4.3:1 light, 4.2:1 dark at its small
#: size: axe-core); the current page's link in the sidebar, which Streamlit draws disabled at 40 %
#: (2.3:1), is shown in the text colour on a grey band instead; a focus ring (FOCUS_RING) on the
#: page's own controls; skip links (``--lab-page-css`` tells a test that this sheet is applied);
#: the Variants tools table's call column may break inside a call where the page is wide
#: enough for the whole table (its one-word calls made it 887 px in 820 and cut the last column
#: at 1280 px; axe flagged the scrolling box, which a keyboard cannot reach).
PAGE_CSS = f"""<style>
[class*="st-key-{TABLE_PREFIX}"] [data-testid="stMarkdownContainer"] {{ overflow-x: auto; }}
[class*="st-key-{TABLE_PREFIX}"] table {{ margin: 0 0 1rem; font-variant-numeric: tabular-nums; }}
[class*="st-key-{TABLE_PREFIX}"] {{ container-type: inline-size; }}
[class*="st-key-{TABLE_PREFIX}"] th, [class*="st-key-{TABLE_PREFIX}"] td {{
  padding: 0.25rem 0.45rem; font-size: 0.9rem; }}
@container (min-width: 40em) {{ .st-key-{TABLE_PREFIX}variants-tools-wrapped td:nth-child(2) {{
  overflow-wrap: anywhere; min-width: 11em; }} }}
@container (max-width: 25em) {{ [class*="st-key-{TABLE_PREFIX}"] th, [class*="st-key-{TABLE_PREFIX}"] td {{
  padding: 0.2rem 0.25rem; }} }}
[class*="st-key-{STEP_TABLE_PREFIX}"] {{ container-type: inline-size; font-size: 0.9rem; }}
[class*="st-key-{STEP_TABLE_PREFIX}"] [data-testid="stMarkdownContainer"] {{ font-size: inherit; }}
[class*="st-key-{STEP_TABLE_PREFIX}"] th, [class*="st-key-{STEP_TABLE_PREFIX}"] td {{ font-size: 1em !important; }}
{_step_table_queries()}
[class*="st-key-{TABLE_PREFIX}"] td:has(> .stMarkdownColoredBackground) {{ {css_text_on_fill("tied")} }}
[class*="st-key-{TABLE_PREFIX}"] td > .stMarkdownColoredBackground {{ background-color: transparent !important; }}
@media (min-width: 641px) {{ [class*="st-key-{NARROW_PREFIX}"] {{ display: none !important; }} }}
@media (max-width: 640px) {{ [class*="st-key-{WIDE_PREFIX}"] {{ display: none !important; }} }}
@media (hover: none) and (pointer: coarse) {{ [class*="st-key-{DRAG_KEYS_PREFIX}"] {{ display: none !important; }} }}
/* sections are h2 and their parts h3 (a heading order screen readers can follow), drawn at the
   sizes Streamlit gives h3 and h4, so a page keeps its look */
[data-testid="stMain"] h2 {{ font-size: 1.75rem !important; }}
[data-testid="stMain"] h3 {{ font-size: 1.5rem !important; }}
/* a heading that wraps keeps its lines even: no last line of one word, or of one Chinese
   character, under a projector's or a phone's heading */
[data-testid="stMain"] :is(h1, h2, h3) {{ text-wrap: balance; }}
[data-testid="stCaptionContainer"] {{ opacity: 0.75 !important; }}
[class*="st-key-lab-formula-"] .katex {{ font-size: 1.21em; }}
[class*="st-key-lab-formula-"] p:has(.katex) {{ line-height: 2.4; }}
[data-testid="stCode"] code span {{ color: inherit !important; }}
[data-testid="stCode"] code .token.comment {{ font-style: italic; }}
[data-testid="stApp"] :not(pre) > code, [data-testid="stTooltipContent"] :not(pre) > code {{ color: inherit; }}
[data-testid="stMain"] :is(a, button, summary, input, [tabindex]:not([tabindex="-1"])):focus-visible {{
  outline: 3px solid {FOCUS_RING} !important; outline-offset: 2px; }}
a.{SKIP_LINK_CLASS} {{ position: absolute; left: -10000px; top: 0; z-index: 1000; }}
a.{SKIP_LINK_CLASS}:focus {{ position: static; display: inline-block; padding: 0.25rem 0.75rem;
  border-radius: 0.5rem; outline: 3px solid {FOCUS_RING}; outline-offset: 2px; }}
[data-testid="stElementContainer"]:has(a.{SKIP_LINK_CLASS}):not(:focus-within) {{ margin-bottom: -1rem; }}
[data-testid="stElementContainer"]:has(.{NO_ROOM_CLASS}) {{ margin-bottom: -1rem; }}
/* the live class: a phone's options and Send button are tap targets of 44-48 px (WCAG 2.5.5,
   Apple's and Android's minimum); the students' link is read off the teacher's screen */
.st-key-live-answer [data-testid="stRadio"] label {{ min-height: 44px; align-items: center; }}
.st-key-live-answer button {{ min-height: 48px; }}
.st-key-live-student-link code {{ font-size: 1.3rem !important; }}
/* the teacher's own words on a question: read first, from the back of the room too */
[class*="st-key-live-own-text-"] p {{ font-size: 1.2em; font-weight: 600; overflow-wrap: anywhere; }}
.st-key-live-time-left p {{ font-size: 1.2em; }}
/* first visit: the drag cards' frame and the Calculator's options load their code after the
   numbers are drawn (about 0.5 s, up to 2-4 s on a busy machine); the cards' box keeps the
   room they will take at its width (card_rows_css) and the options panel its smallest size
   (366 px, one item), so nothing below moves and nobody clicks into a gap */
[class*="st-key-{DRAG_CARDS_PREFIX}"] {{ container-type: inline-size; }}
.st-key-calc_settings {{ min-height: 366px; }}
/* tabs wrap onto a second line instead of hiding behind a scroll arrow (Blind spots' nine cases
   at 1280 px, or 1024 in presenter mode with the sidebar open); the selected tab's mark is its own */
[data-testid="stTabs"] [role="tablist"] {{ flex-wrap: wrap; overflow-x: visible; row-gap: 0.25rem; }}
/* the charts' axis and legend text: Streamlit's grey (rgb 128, 132, 149) is 3.7:1 on the light theme's
   white, below WCAG AA's 4.5:1; the theme's text colour at 75 % is 6.1:1 there and 8.9:1 on
   the dark background (the chart's own text colour, inherited, in either theme) */
[data-testid="stVegaLiteChart"] :is(.role-axis-label, .role-axis-title, .role-legend-label, .role-legend-title) text {{
  fill: color-mix(in srgb, currentColor 75%, transparent) !important; }}
/* labels drawn on the page's background (a mean, the chosen k, the room's counts): the theme's
   text colour, where Vega draws them black (charts._ink names their layers) */
[data-testid="stVegaLiteChart"] [class*="{CHART_INK}_"] text {{ fill: currentColor !important; }}
:root {{ --lab-page-css: 1; }}
</style>"""

#: The app's one script (static text, no user input; drawn by the frame in the sidebar with
#: ``st.html(..., unsafe_allow_javascript=True)``), listeners added once per browser tab
#: (Streamlit switches pages without loading a new document):
#:
#: - after a page is chosen in the sidebar on a narrow screen (a phone), where the open sidebar
#:   covers the page, it closes the sidebar: ``st.navigation``'s page list does not (1.67, seen
#:   in tests/browser/test_keyboard.py), nor does ``st.page_link``. It clicks Streamlit's own collapse button, so the state
#:   stays Streamlit's; 767.98 px is below Streamlit's "md" break point, where the sidebar
#:   overlays the page.
#: - a skip link (SKIP_LINK_CLASS) puts the focus on the first text field after its anchor (the
#:   grades), so the next Tab reaches the drag cards. The link's plain ``#anchor`` works without
#:   it, but Chromium's next Tab from a ``tabindex=-1`` anchor sometimes skipped the whole
#:   ranking (measured: 1 run in 2), which a direct focus cannot.
#: - a new page opens at its top. Streamlit (1.67) keeps the scroll position of its main
#:   container when the page changes (the Calculator opened from a button far down Evaluate);
#:   it only looks reset when the old page's elements are cleared and drawn empty before the
#:   new ones come, which a busy machine skips (seen in CI: the Calculator shown 3,042 px
#:   down). Streamlit changes the page's path with ``history.pushState`` or ``replaceState``
#:   (or the browser's back and forward buttons do): a change of path, not of the query, scrolls to the top.
#: - the drag cards speak the page's language to a screen reader (:data:`DRAG_CARDS_SCRIPT`).
PAGE_SCRIPT = f"""<div class="{NO_ROOM_CLASS}"></div><script>
(() => {{
  if (window.__labPageScript) return;
  window.__labPageScript = true;
  let path = location.pathname;
  const toTop = () => {{
    if (location.pathname === path) return;
    path = location.pathname;
    const main = document.querySelector('[data-testid="stMain"]');
    if (main) main.scrollTop = 0;
    requestAnimationFrame(() => {{ if (main && main.isConnected) main.scrollTop = 0; }});
  }};
  for (const name of ["pushState", "replaceState"]) {{
    const change = history[name];
    history[name] = function (...args) {{ const result = change.apply(this, args); toTop(); return result; }};
  }}
  window.addEventListener("popstate", toTop);
  document.addEventListener("click", (event) => {{
    const skip = event.target.closest("a.{SKIP_LINK_CLASS}");
    if (skip) {{
      const anchor = document.getElementById(skip.hash.slice(1));
      const field = anchor && [...document.querySelectorAll("[data-testid='stMain'] input")].find(
        (el) => anchor.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
      if (field) {{ event.preventDefault(); field.focus(); field.scrollIntoView({{block: "center"}}); }}
      return;
    }}
    const link = event.target.closest(
      '[data-testid="stSidebar"] a:is([data-testid="stSidebarNavLink"], [data-testid="stPageLink-NavLink"])');
    if (!link || link.hasAttribute("disabled") || !window.matchMedia("(max-width: 767.98px)").matches) return;
    setTimeout(() => {{
      const close = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
      if (close) close.click();
    }}, 0);
  }}, true);
}})();
</script>"""

#: The drag cards (streamlit-sortables 0.3.1, an iframe of the same origin) are dnd-kit's
#: sortable list, whose words for a screen reader are compiled into the component in English:
#: the frame's title ("streamlit_sortables.sortable_items"), the role of a card ("sortable"),
#: the keys (a hidden text every card points to with ``aria-describedby``) and what happens
#: during a move (a live region: "Picked up draggable item D2 · 3." …). The component has no
#: parameter for them. This script, added to :data:`PAGE_SCRIPT` once per tab, puts the page's
#: words (:func:`page_language_script` sets ``window.__labDrag``) on every card frame: it finds
#: new frames twice a second and, inside each, rewrites a text when it changes (a
#: MutationObserver runs before the browser reads the page out, and it rewrites the text node
#: React keeps, so React's next announcement still lands). The English patterns are dnd-kit's
#: ``defaultAnnouncements`` (@dnd-kit/core, src/components/Accessibility/defaults.ts, as
#: compiled into the component); a card's id is its text ("D2 · 3").
DRAG_CARDS_SCRIPT = r"""<script>
(() => {
  if (window.__labDragScript) return;
  window.__labDragScript = true;
  const said = [
    [/^Picked up draggable item (.*)\.$/s, "picked"],
    [/^Draggable item (.*) was moved over droppable area (.*)\.$/s, "over"],
    [/^Draggable item (.*) is no longer over a droppable area\.$/s, "not_over"],
    [/^Dragging was cancelled\. Draggable item (.*) was dropped\.$/s, "cancelled"],
    [/^Draggable item (.*) was dropped over droppable area (.*)$/s, "dropped_over"],
    [/^Draggable item (.*) was dropped\.$/s, "dropped"],
  ];
  const translate = (text, words) => {
    for (const [pattern, key] of said) {
      const found = text.match(pattern);
      if (found) return words[key].replace("{card}", found[1]).replace("{place}", found[2] || "");
    }
    return text;
  };
  const rewrite = (node, text) => {
    const first = node && node.firstChild;
    if (first && first.nodeType === Node.TEXT_NODE) { if (first.nodeValue !== text) first.nodeValue = text; }
    else if (node && node.textContent !== text) node.textContent = text;
  };
  const fix = (frame) => {
    const words = window.__labDrag;
    if (!words) return;
    if (frame.title !== words.title) frame.title = words.title;
    const doc = frame.contentDocument;
    if (!doc || !doc.body) return;
    const keys = doc.querySelector('[id^="DndDescribedBy"]');
    if (keys) rewrite(keys, words.keys);
    for (const card of doc.querySelectorAll("[aria-roledescription]")) {
      if (card.getAttribute("aria-roledescription") !== words.role) card.setAttribute("aria-roledescription", words.role);
    }
    const live = doc.querySelector('[id^="DndLiveRegion"]');
    if (live && live.textContent) {
      const text = translate(live.textContent, words);
      if (text !== live.textContent) rewrite(live, text);
    }
    if (frame.__labWatched !== doc) {
      frame.__labWatched = doc;
      new doc.defaultView.MutationObserver(() => fix(frame)).observe(doc.body, {
        subtree: true, childList: true, characterData: true, attributes: true,
        attributeFilter: ["aria-roledescription"],
      });
    }
  };
  window.__labDragApply = () => {
    for (const frame of document.querySelectorAll('iframe[src*="streamlit_sortables"]')) {
      try { fix(frame); } catch (error) { /* a frame still loading: the next round */ }
    }
  };
  setInterval(window.__labDragApply, 500);
})();
</script>"""


#: Streamlit's own controls name themselves in English for a screen reader (``aria-label``:
#: "Open", "Copy to clipboard", "Help for <label>", ...; 1.67 has no option for them). This
#: script, added to :data:`PAGE_SCRIPT` once per tab, writes the page's words in their place
#: (:func:`page_language_script` sets ``window.__labAria``: ``exact`` names and ``prefix``
#: pairs, "Help for " -> "“{label}”的说明"). It keeps each element's own name (a property of
#: the element, not an attribute: no DOM change) and translates from it, so that a switch back
#: to English restores it and a name React writes anew is translated again; its own writes it
#: recognises and leaves. Charts' SVG marks (thousands on the Evaluate page) are skipped.
ARIA_SCRIPT = r"""<script>
(() => {
  if (window.__labAriaScript) return;
  window.__labAriaScript = true;
  const translate = (name) => {
    const words = window.__labAria || {exact: {}, prefix: []};
    if (Object.prototype.hasOwnProperty.call(words.exact, name)) return words.exact[name];
    for (const [start, template] of words.prefix) {
      if (name.startsWith(start)) return template.replace("{label}", name.slice(start.length));
    }
    return name;
  };
  const fix = (el) => {
    // Streamlit's controls are HTML; a chart's marks (SVG, named by Vega) are left alone
    if (el.namespaceURI !== "http://www.w3.org/1999/xhtml") return;
    const now = el.getAttribute("aria-label");
    if (now === null) return;
    if (now !== el.__labAriaSet) el.__labAriaOwn = now;  // React wrote it
    const text = translate(el.__labAriaOwn);
    el.__labAriaSet = text;
    if (text !== now) el.setAttribute("aria-label", text);
  };
  const all = (root) => {
    if (root.nodeType !== Node.ELEMENT_NODE) return;
    if (root.hasAttribute("aria-label")) fix(root);
    for (const el of root.querySelectorAll("[aria-label]")) fix(el);
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "attributes") fix(record.target);
      else for (const node of record.addedNodes) all(node);
    }
  }).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ["aria-label"]});
  window.__labAriaApply = () => all(document.body);
  window.__labAriaApply();
})();
</script>"""


def page_language_script(
    html_lang: str,
    skip_text: str,
    drag_words: dict[str, str] | None = None,
    aria_words: dict[str, Any] | None = None,
) -> str:
    """A script that puts the page's language on the document: ``<html lang>`` (which a screen
    reader's voice and the browser's choice of Chinese glyphs follow; Streamlit's page says
    "en" whatever the app shows) and the text of Streamlit's own "Skip to main content" link
    (1.67 has no option for it; the link is constant, so React never writes it again).

    Drawn with :data:`PAGE_SCRIPT` by the frame: Streamlit runs the script again whenever its
    text changes (a change of language) and when the page is drawn anew (a change of page).
    ``drag_words`` are the drag cards' words for a screen reader (:data:`DRAG_CARDS_SCRIPT`:
    ``title``, ``role``, ``keys``, and the announcements ``picked``, ``over``, ``not_over``,
    ``dropped_over``, ``dropped``, ``cancelled`` with ``{card}`` and ``{place}``).
    ``aria_words`` are Streamlit's controls' names in the page's language (:data:`ARIA_SCRIPT`).
    Every argument is the app's own text (``i18n.HTML_LANG``, catalog strings), never user
    input, and is written as JSON.

    >>> 'documentElement.lang = "zh-CN"' in page_language_script("zh-CN", "跳到主要内容")
    True
    """
    lang, skip = json.dumps(html_lang), json.dumps(skip_text, ensure_ascii=False)
    drag = json.dumps(drag_words or {}, ensure_ascii=False).replace("</", "<\\/")
    aria = json.dumps(aria_words or {"exact": {}, "prefix": []}, ensure_ascii=False).replace("</", "<\\/")
    return (
        f'<div class="{NO_ROOM_CLASS}"></div><script>'
        f"document.documentElement.lang = {lang};"
        "for (const link of document.querySelectorAll('[data-testid=\"stSkipToContent\"]')) "
        f"{{ if (link.textContent !== {skip}) link.textContent = {skip}; }}"
        + (
            f"window.__labDrag = {drag}; if (window.__labDragApply) window.__labDragApply();"
            if drag_words
            else ""
        )
        + f"window.__labAria = {aria}; if (window.__labAriaApply) window.__labAriaApply();"
        + "</script>"
    )


def widget_text_css(upload_label: str, enter_apply: str, enter_submit: str) -> str:
    """CSS that puts the page's language on Streamlit's own widget texts, which Streamlit 1.67
    does not let a script set: the file uploader's, and the hint under a text or number box
    being typed in ("Press Enter to apply", in a form "Press Enter to submit form").

    The button's own text ("Upload") is hidden, which also takes it out of the accessibility
    tree, and ``upload_label`` is drawn in its place (CSS generated content is read by screen
    readers); the same for the typing hint (``enter_apply``, ``enter_submit``; a character
    count Streamlit may add to it is left out). The "200MB per file" line is left out: the page
    states the limit in its own caption (``evaluate.size_limit``). The texts are catalog texts,
    never user input.
    """
    label = json.dumps(upload_label, ensure_ascii=False)
    apply, submit = (json.dumps(text, ensure_ascii=False) for text in (enter_apply, enter_submit))
    return (
        "<style>"
        '[data-testid="InputInstructions"] { visibility: hidden; }'
        f'[data-testid="InputInstructions"]::after {{ content: {apply}; visibility: visible; '
        "position: absolute; right: 0; white-space: nowrap; }"
        f'[data-testid="stForm"] [data-testid="InputInstructions"]::after {{ content: {submit}; }}'
        '[data-testid="stFileUploaderDropzoneInstructions"] { display: none; }'
        '[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p '
        "{ visibility: hidden; position: relative; }"
        '[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p::after '
        f"{{ content: {label}; visibility: visible; position: absolute; left: 0; right: 0; "
        "text-align: center; white-space: nowrap; }"
        "</style>"
    )


#: Languages set upright: Chinese has no italics (TEACHING.md §6), so code comments and
#: Markdown emphasis, italic in English, stay upright in them (``UPRIGHT_CSS``).
UPRIGHT_LANGUAGES: tuple[str, ...] = ("zh",)
UPRIGHT_CSS = """<style>
[data-testid="stCode"] code .token.comment, [data-testid="stMarkdownContainer"] em { font-style: normal; }
</style>"""

#: Static CSS (no user text). Sizes were checked on 1920×1080 screenshots for reading at 8 m:
#: key numbers ~67 px, body text and widget labels ~24-26 px, formulas twice their size. Glide
#: data frames (``st.dataframe``) draw on a canvas at their content width and overflow when
#: zoomed, so they keep their size: a page shows a table large with ``st.table`` when
#: ``frame.present`` is true (this CSS enlarges ``st.table``).
#: The main area's container (CSS container query) in presenter mode, and its width (content
#: box, px) below which the presenter layout stacks columns: a 1024 px projector with the
#: sidebar open leaves about 630 px, with it closed 928 px.
PRESENT_CONTAINER = "lab-main"
PRESENT_STACK_PX = 900

PRESENTER_CSS = f"""<style>
/* nDCG Lab presenter mode */
[class*="st-key-{SECONDARY_PREFIX}"] {{ display: none !important; }}
/* the top padding clears Streamlit's header (3.75rem, drawn over the page in the theme's
   background): at 2.5rem it hid the top third of the room's QR code, finder squares included */
[data-testid="stMainBlockContainer"] {{ max-width: 100% !important; padding: 3.75rem 3rem 3rem !important; }}
[data-testid="stMain"] h1 {{ font-size: 3.4rem !important; }}
[data-testid="stMain"] h2 {{ font-size: 2.3rem !important; }}
[data-testid="stMain"] h3 {{ font-size: 1.9rem !important; }}
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] li {{ font-size: 1.6rem !important; line-height: 1.45; }}
[data-testid="stMain"] [data-testid="stWidgetLabel"] p {{ font-size: 1.5rem !important; }}
[data-testid="stMain"] [data-testid="stCaptionContainer"],
[data-testid="stMain"] [data-testid="stCaptionContainer"] p {{ font-size: 1.35rem !important; }}
[data-testid="stMain"] [data-testid="stMetricValue"],
[data-testid="stMain"] [data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p {{
  font-size: 4.2rem !important; line-height: 1.15 !important; font-weight: 600 !important; }}
[data-testid="stMain"] [data-testid="stMetricLabel"] [data-testid="stMarkdownContainer"] p {{ font-size: 1.7rem !important; }}
[data-testid="stMain"] [data-testid="stMetricDelta"],
[data-testid="stMain"] [data-testid="stMetricDelta"] * {{ font-size: 1.5rem !important; }}
[data-testid="stMain"] .katex {{ font-size: 2em !important; }}
[data-testid="stMain"] .katex-display {{ overflow-x: auto; overflow-y: hidden; padding: 0.4em 0; }}
[data-testid="stTable"] table, [data-testid="stTable"] th, [data-testid="stTable"] td {{ font-size: 1.6rem !important; }}
[data-testid="stMain"] [data-testid="stMarkdownContainer"] th,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] td {{ font-size: 1.6rem !important; }}
[data-testid="stMain"] [class*="st-key-{STEP_TABLE_PREFIX}"] {{ font-size: 1.6rem; }}
[data-testid="stMain"] [data-testid="stVegaLiteChart"] {{ zoom: 1.3; width: calc(100% / 1.3) !important; }}
[data-testid="stMain"] button div, [data-testid="stMain"] button p {{
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }}
[data-testid="stMain"] button p, [data-testid="stMain"] input,
[data-testid="stMain"] [data-baseweb="select"] * {{ font-size: 1.35rem !important; }}
[data-testid="stMain"] .st-key-live-student-link code {{ font-size: 1.6rem !important; }}
/* a segmented control's options, at large type, wrap onto a second line in a narrow column
   (the Calculator's settings at 1024 px): each keeps its own corners and left border (the
   theme's border colour: its text colour at 20 %), apart by a gap, instead of a joined bar
   broken in two */
[data-testid="stMain"] [role="radiogroup"]:has(> button[data-variant="segmented_control"]) {{ gap: 0.3rem; }}
[data-testid="stMain"] button[data-variant="segmented_control"] {{ border-radius: 0.5rem !important; margin: 0 !important; }}
[data-testid="stMain"] button[data-variant="segmented_control"]:not([aria-checked="true"]) {{
  border-left-color: color-mix(in srgb, currentColor 20%, transparent) !important; }}
[data-testid="stMain"] [data-testid="stSliderThumbValue"],
[data-testid="stMain"] [data-testid="stSliderTickBar"] * {{ font-size: 1.35rem !important; }}
[data-testid="stMain"] [class*="st-key-lab-formula-"] p:has(.katex) {{ line-height: 2.4; }}
/* the thumb's value, at large type, sits above the track: room for it under the label */
[data-testid="stMain"] [data-testid="stSlider"] [data-baseweb="slider"] {{ padding-top: 1.4rem; }}
/* a narrow main area (a 1024 px projector with the sidebar open: about 630 px): columns are
   stacked, so formulas, the ranking pair, charts and the settings panel get the whole width */
[data-testid="stMainBlockContainer"] {{ container-type: inline-size; container-name: {PRESENT_CONTAINER}; }}
@container {PRESENT_CONTAINER} (max-width: {PRESENT_STACK_PX}px) {{
  [data-testid="stHorizontalBlock"] {{ flex-wrap: wrap !important; }}
  [data-testid="stColumn"] {{ flex: 1 1 100% !important; min-width: 100% !important; width: 100% !important; }}
  /* tables are split into parts for the 928 px of a 1024 px projector (PRESENT_TABLE_EMS):
     in two thirds of the room, two thirds of the type */
  [data-testid="stTable"] table, [data-testid="stTable"] th, [data-testid="stTable"] td {{ font-size: 1.1rem !important; }}
  [data-testid="stMain"] [class*="st-key-{STEP_TABLE_PREFIX}"] {{ font-size: 1.1rem; }}
  [data-testid="stMain"] [data-testid="stMarkdownContainer"] th,
  [data-testid="stMain"] [data-testid="stMarkdownContainer"] td {{ font-size: 1.1rem !important; overflow-wrap: anywhere; }}
}}
</style>"""


#: Wide LaTeX scrolls sideways (a DCG sum of five terms is wider than a phone), and says so: an
#: edge with more formula beyond it fades out (a mask moved by the formula's own scroll
#: position, ``animation-timeline``; a formula that fits has no scroll timeline, so no fade).
#: Browsers without scroll timelines scroll as before, with no fade. "<" is written "\3c " (a CSS
#: escape): the frontend's HTML sanitiser drops a style element whose text holds a "<" and a
#: letter, which "<length>" is (the whole sheet was silently missing).
FORMULA_FADE = "2.5em"
FORMULA_CSS = """<style>
[data-testid="stMain"] .katex-display { overflow-x: auto; overflow-y: hidden; padding: 0.3em 0; }
@property --lab-fade-start { syntax: "\\3c length>"; inherits: false; initial-value: 0px; }
@property --lab-fade-end { syntax: "\\3c length>"; inherits: false; initial-value: 0px; }
@keyframes lab-formula-fade {
  0% { --lab-fade-start: 0px; --lab-fade-end: FADE; }
  8% { --lab-fade-start: FADE; }
  92% { --lab-fade-end: FADE; }
  100% { --lab-fade-start: FADE; --lab-fade-end: 0px; }
}
@supports (animation-timeline: scroll()) {
  [data-testid="stMain"] .katex-display {
    mask-image: linear-gradient(to right, transparent, black var(--lab-fade-start),
      black calc(100% - var(--lab-fade-end)), transparent);
    animation: lab-formula-fade linear both;
    animation-timeline: scroll(self inline);
  }
}
</style>""".replace("FADE", FORMULA_FADE)
