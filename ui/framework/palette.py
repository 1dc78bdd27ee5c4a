"""The app's one palette: every colour of a chart or of the pages' CSS, and the WCAG arithmetic
that checks them. The only module that writes a colour (``tests/architecture/test_charts.py``
keeps it so); charts (:mod:`ui.components.charts`), styles and share read it from here.

:data:`OKABE_ITO` (colour-blind safe) with its names (:data:`BLUE` ...), :data:`NEUTRAL`, the
themes (:data:`THEMES`), the WCAG arithmetic (:func:`contrast_ratio`, :func:`mark_colours`,
:data:`SERIES_COLOURS`) and the fixed text-on-fill pairs of the pages' CSS
(:data:`TEXT_ON_FILL`, :func:`css_text_on_fill`).
"""

from __future__ import annotations

#: Okabe & Ito's colour-blind-safe palette (the theme's primary colour is its blue).
OKABE_ITO: dict[str, str] = {
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "green": "#009E73",
    "pink": "#CC79A7",
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "yellow": "#F0E442",
    "black": "#000000",
}

#: The two themes the app offers (Streamlit's light and dark, with the primary colours set in
#: ``.streamlit/config.toml``): page background, body text, primary colour.
#: ``tests/browser/test_contrast.py`` checks in Chromium that these are the rendered backgrounds.
THEMES: dict[str, dict[str, str]] = {
    "light": {"background": "#FFFFFF", "text": "#2F2D2B", "primary": OKABE_ITO["blue"]},
    "dark": {"background": "#171614", "text": "#EDEBE8", "primary": OKABE_ITO["sky"]},
}

#: A neutral grey for chart lines and outlines drawn on the page background in either theme
#: (3.4:1 on white, 5.4:1 on the dark background): black would vanish on the dark theme.
NEUTRAL = "#8C8C8C"

#: WCAG 2.x thresholds: body text 4.5:1, large text and graphical objects (marks, borders) 3:1.
TEXT_CONTRAST = 4.5
MARK_CONTRAST = 3.0


def relative_luminance(colour: str) -> float:
    """WCAG relative luminance of a ``#RRGGBB`` colour (0 for black, 1 for white).

    >>> relative_luminance("#FFFFFF"), relative_luminance("#000000")
    (1.0, 0.0)
    """
    code = colour.lstrip("#")
    if len(code) != 6:
        raise ValueError(f"expected #RRGGBB, got {colour!r}")
    channels = [int(code[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(first: str, second: str) -> float:
    """WCAG contrast ratio of two colours, from 1 (same) to 21 (black on white).

    >>> round(contrast_ratio("#000000", "#FFFFFF"), 1)
    21.0
    """
    high, low = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def mark_colours(theme: str) -> tuple[str, ...]:
    """The palette colours that stand out 3:1 from the theme's background, in palette order.

    Charts draw tie groups, positions past k and actual-versus-ideal with these colours *and*
    a second carrier (shape, dash, opacity or a text label), never with colour alone.
    """
    background = THEMES[theme]["background"]
    return tuple(c for c in OKABE_ITO.values() if contrast_ratio(c, background) >= MARK_CONTRAST)


#: Series colours that pass 3:1 on both themes (blue, vermillion, green, pink).
SERIES_COLOURS: tuple[str, ...] = tuple(c for c in mark_colours("light") if c in mark_colours("dark"))

#: Okabe-Ito colours by name, for chart code (lines drawn on the page in either theme use
#: :data:`NEUTRAL`).
BLUE, ORANGE, GREEN, PINK, SKY, VERMILLION, YELLOW = (
    OKABE_ITO["blue"],
    OKABE_ITO["orange"],
    OKABE_ITO["green"],
    OKABE_ITO["pink"],
    OKABE_ITO["sky"],
    OKABE_ITO["vermillion"],
    OKABE_ITO["yellow"],
)
#: Okabe-Ito's black: ink on the light cells of a chart (never a line on the page itself).
BLACK = OKABE_ITO["black"]
WHITE = "#FFFFFF"
#: The thin outline between heatmap cells.
CELL_OUTLINE = "#BBBBBB"
#: Dark text for rows shaded with a fixed light fill (the light theme's body text).
INK = THEMES["light"]["text"]


def mix(first: str, second: str, share: float) -> str:
    """``second`` mixed into ``first`` by ``share`` (0 to 1), channel by channel in sRGB, as
    Vega's ``"interpolate": "rgb"`` colour scales do (d3.interpolateRgb, gamma 1).

    >>> mix("#FFFFFF", "#0072B2", 0.5)
    '#80B8D8'
    """
    a = [int(first[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(second[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round((1 - share) * x + share * y):02X}" for x, y in zip(a, b, strict=True))


def white_text_from(fill: str, steps: int = 1000) -> float | None:
    """The smallest share of ``fill`` mixed into white from which white text contrasts more
    than black on the mix (None: black is the better ink all the way to ``fill``). Either ink,
    chosen so, reaches 4.58:1 at the least (the two are equal where the fill's luminance is
    sqrt(1.05 × 0.05) − 0.05).

    >>> white_text_from(BLUE), white_text_from(VERMILLION)
    (0.933, None)
    """
    for n in range(steps + 1):
        cell = mix(WHITE, fill, n / steps)
        if contrast_ratio(WHITE, cell) > contrast_ratio(BLACK, cell):
            return n / steps
    return None


#: Text colour and fixed background of every piece of the pages' CSS that sets both, by use;
#: each pair is checked for 4.5:1 (``tests/app/test_classroom.py``).
TEXT_ON_FILL: dict[str, tuple[str, str]] = {
    "card": (WHITE, BLUE),  # a draggable item card
    "card_beyond_k": ("#0B3C5D", "#D6E4F0"),  # a card past k: dark blue on pale blue
    "card_unjudged": ("#0B3C5D", WHITE),  # an unjudged ("?") card: dark blue on white, dashed edge
    "your_variant": (INK, "#DCEBF5"),  # the learner's own variant's row: pale Okabe-Ito blue
    "tied": (INK, "#FCEBD0"),  # tied rows: pale Okabe-Ito orange
}


def css_text_on_fill(use: str) -> str:
    """``color: ...; background-color: ...;`` of a :data:`TEXT_ON_FILL` pair.

    >>> css_text_on_fill("tied")
    'color: #2F2D2B; background-color: #FCEBD0;'
    """
    text, fill = TEXT_ON_FILL[use]
    return f"color: {text}; background-color: {fill};"
