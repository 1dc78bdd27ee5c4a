"""The classroom helpers (ui.framework.share, ui.framework.styles, ui.components.handout, ui.components.charts): share links and QR codes,
exports, presenter CSS and the palette's contrast."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import altair as alt
import numpy as np
import pandas as pd
import pytest
import segno

import ndcg_core as nc
from ui.components import charts, handout
from ui.framework import i18n, palette, share, styles
from ui.framework.state import Ranking, ranking_from_params, ranking_to_params

BASE = "http://192.168.1.20:8501/Lesson"


def _params_of(link: str) -> dict[str, str | list[str]]:
    query = parse_qs(urlsplit(link).query, keep_blank_values=True)
    return {name: values if name == "item" else values[-1] for name, values in query.items()}


# --------------------------------------------------------------------------- share link and QR


def test_share_link_round_trips_ranking_labels_and_variants():
    ranking = Ranking().with_items([3, 2, 0, 0, 1], ["A&B", "文档", "x=y", "D4", "#5"])
    ranking = Ranking(ranking.relevance, ranking.labels, k=3, gain="exponential", discount="jarvelin")
    link = share.share_link(BASE, {**ranking_to_params(ranking), "lang": "zh", "seed": "42"})
    back, errors = ranking_from_params(_params_of(link))
    assert errors == []
    assert back == ranking
    assert _params_of(link)["lang"] == "zh" and _params_of(link)["seed"] == "42"
    assert link.startswith(BASE + "?")


def test_share_link_keeps_commas_readable():
    link = share.share_link(BASE, {"rel": "3,2,0,0,1"})
    assert link == BASE + "?rel=3,2,0,0,1"


def test_share_link_stays_short_for_twenty_items():
    """20 graded items, k, both variants, language, presenter mode and a seed: at most 120 characters."""
    ranking = Ranking().with_items([3, 2, 0, 1, 0.5] * 4)
    ranking = Ranking(ranking.relevance, ranking.labels, k=10, gain="exponential", discount="jarvelin")
    params = {**ranking_to_params(ranking), "lang": "zh", "present": "1", "seed": "12345"}
    query = urlsplit(share.share_link(BASE, params)).query
    assert "item=" not in query, "default labels must be left out"
    assert len(query) <= 120
    assert "rel=3,2,0,1,0.5,3" in query


def test_qr_code_of_a_twenty_item_link_is_small_enough_to_scan_from_afar():
    ranking = Ranking().with_items([3, 2, 0, 1, 0.5] * 4)
    link = share.share_link(BASE, {**ranking_to_params(ranking), "lang": "zh", "k": "10"})
    code = segno.make(link, error="m", micro=False, boost_error=False)
    assert code.version <= 6  # at most 41×41 modules
    png = share.qr_png(link, scale=12, border=4)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(png[16:20], "big")
    assert width == (code.symbol_size(scale=1, border=4)[0]) * 12


# --------------------------------------------------------------------------- exports


def test_step_table_csv_is_the_core_step_table():
    ranking = Ranking().with_items([3, 2, 0, 0, 1], ["甲", "B", "C", "D", "E"])
    ranking = Ranking(ranking.relevance, ranking.labels, k=3)
    data = handout.step_table_csv(ranking)
    assert data.startswith("\ufeff".encode())
    read = pd.read_csv(io.BytesIO(data), encoding="utf-8-sig", keep_default_na=False, na_values=[""])
    expected = nc.step_table([3, 2, 0, 0, 1], k=3, labels=["甲", "B", "C", "D", "E"])
    assert list(read.columns) == list(expected.columns)
    assert read["item"].tolist() == ["甲", "B", "C", "D", "E"]
    assert read["ndcg"].to_numpy() == pytest.approx(expected["ndcg"].to_numpy(), abs=1e-12)
    assert read["ndcg"].iloc[-1] == pytest.approx(nc.ndcg([3, 2, 0, 0, 1], k=3), abs=1e-12)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def test_handout_escapes_item_names():
    ranking = Ranking().with_items([1, 0], ["<script>alert(1)</script>", "a&b"])
    page = handout.handout_html(ranking, "en", link="http://x/?a=1&b=<2>")
    assert "<script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    parser = _Text()
    parser.feed(page)
    assert "script" not in parser.tags


def test_handout_shows_the_core_metrics_and_formulas():
    ranking = Ranking(k=3, gain="exponential")
    page = handout.handout_html(ranking, "en")
    # [3, 2, 0, 0, 1] with gains 2^rel - 1 = 7, 3, 0, 0, 1; ideal [3, 2, 1] has gains 7, 3, 1
    dcg = 7 + 3 / np.log2(3) + 0 / 2
    idcg = 7 + 3 / np.log2(3) + 1 / 2
    assert "DCG@3 = <b>8.8928</b>" in page and round(dcg, 4) == 8.8928
    assert "IDCG@3 = <b>9.3928</b>" in page and round(idcg, 4) == 9.3928
    assert "nDCG@3 = <b>0.9468</b>" in page and round(dcg / idcg, 4) == 0.9468
    assert page.count("<math") == 5  # one per step: G, CG, DCG, IDCG, nDCG
    assert page.count("<tr") == 1 + 5  # header and one row per position


def test_handout_in_chinese_uses_the_chinese_strings():
    page = handout.handout_html(Ranking(), "zh")
    zh = i18n.catalog("zh")
    assert zh["classroom.handout.title"] in page
    assert zh["classroom.columns.discounted_gain"] in page
    assert 'lang="zh-Hans"' in page
    assert "classroom." not in page  # no untranslated key


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_chart_image_renders_offline(fmt):
    chart = (
        alt.Chart(pd.DataFrame({"position": [1, 2], "ndcg": [0.5, 0.9]}))
        .mark_bar()
        .encode(x="position:O", y="ndcg:Q", tooltip=["position", "ndcg"])
    )
    data = charts.chart_image(chart, fmt)
    if fmt == "png":
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
    else:
        assert data.lstrip().startswith(b"<svg") and b"</svg>" in data


def test_chart_image_rejects_unknown_format():
    with pytest.raises(ValueError, match="png"):
        charts.chart_image({}, "gif")


# --------------------------------------------------------------------------- presenter CSS


def test_presenter_css_is_static_and_hides_secondary_containers():
    css = styles.PRESENTER_CSS
    assert css.startswith("<style>") and css.endswith("</style>")
    assert css.count("<") == 2  # nothing but the style element
    assert f'[class*="st-key-{styles.SECONDARY_PREFIX}"]' in css
    assert re.search(r"stMetricValue\"\] \[data-testid=\"stMarkdownContainer\"\] p \{\{?\s*font-size: 4", css)


# --------------------------------------------------------------------------- contrast


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ("#000000", "#FFFFFF", 21.0),
        ("#FFFFFF", "#FFFFFF", 1.0),
        # #777777: channel 0x77/255 = 0.4667 -> ((0.4667 + 0.055) / 1.055) ** 2.4 = 0.1845
        ("#777777", "#FFFFFF", 1.05 / (0.18447 + 0.05)),
    ],
)
def test_contrast_ratio_matches_wcag_arithmetic(first, second, expected):
    assert palette.contrast_ratio(first, second) == pytest.approx(expected, rel=1e-3)


@pytest.mark.parametrize("theme", sorted(palette.THEMES))
def test_theme_text_meets_wcag_aa(theme):
    colours = palette.THEMES[theme]
    assert palette.contrast_ratio(colours["text"], colours["background"]) >= palette.TEXT_CONTRAST


@pytest.mark.parametrize("theme", sorted(palette.THEMES))
def test_primary_colour_stands_out_in_both_themes(theme):
    colours = palette.THEMES[theme]
    assert palette.contrast_ratio(colours["primary"], colours["background"]) >= palette.MARK_CONTRAST


@pytest.mark.parametrize("theme", sorted(palette.THEMES))
def test_series_colours_stand_out_on_both_themes(theme):
    background = palette.THEMES[theme]["background"]
    assert len(palette.SERIES_COLOURS) >= 3
    assert all(palette.contrast_ratio(c, background) >= palette.MARK_CONTRAST for c in palette.SERIES_COLOURS)


def test_mark_colours_leave_out_yellow_on_white_and_black_on_dark():
    assert palette.OKABE_ITO["yellow"] not in palette.mark_colours("light")
    assert palette.OKABE_ITO["black"] not in palette.mark_colours("dark")


def test_css_text_colours_in_ui_meet_wcag_aa():
    """Text drawn on a fixed background (cards, greyed rows) is readable in both themes: 4.5:1."""
    low = [
        (use, fg, bg, round(palette.contrast_ratio(fg, bg), 2))
        for use, (fg, bg) in palette.TEXT_ON_FILL.items()
        if palette.contrast_ratio(fg, bg) < palette.TEXT_CONTRAST
    ]
    assert low == []


@pytest.mark.parametrize("module", [share, styles, handout, charts], ids=lambda m: m.__name__)
def test_classroom_modules_doctests_pass(module):
    import doctest

    assert doctest.testmod(module).failed == 0


def _bar_chart(values):
    data = pd.DataFrame({"position": list(range(1, len(values) + 1)), "ndcg": values})
    return alt.Chart(data).mark_bar().encode(x="position:O", y="ndcg:Q", tooltip=["position", "ndcg"])


@pytest.mark.parametrize(
    "page", __import__("ui.framework.navigation", fromlist=["PAGES"]).PAGES, ids=lambda p: p.id
)
def test_every_chart_on_a_page_has_a_text_alternative(app, page):
    """Each Vega-Lite chart carries a ``description`` (vega-embed makes it the chart's aria-label)."""
    import json

    at = app(page=page.path, timeout=60)
    specs = [json.loads(e.proto.spec) for e in at.get("vega_lite_chart")]
    assert [s.get("title", s.get("mark", "?")) for s in specs if not s.get("description")] == []


def _chart_page():
    import altair as alt
    import pandas as pd
    import streamlit as st

    from ui.components import charts

    st.session_state["lab.lang"] = "zh"
    chart = alt.Chart(pd.DataFrame({"k": [1, 2], "ndcg": [0.5, 1.0]})).mark_line().encode(x="k:Q", y="ndcg:Q")
    st.altair_chart(chart)
    charts.chart_downloads(chart, "ndcg_by_k")


def test_chart_downloads_offers_png_and_svg_in_the_page_language():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_chart_page, default_timeout=30).run()
    assert not at.exception
    buttons = {b.key: b for b in at.get("download_button")}
    assert set(buttons) == {"lab.chart_png.ndcg_by_k", "lab.chart_svg.ndcg_by_k"}
    assert buttons["lab.chart_png.ndcg_by_k"].label == i18n.catalog("zh")["classroom.chart_png"]


def test_chart_image_renders_a_spec_dict_with_dataframes_and_missing_values():
    """Pages hand Vega-Lite dicts whose datasets are DataFrames (NaN past the list): still renders."""
    spec = {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "datasets": {"d": pd.DataFrame({"position": [1, 2, 3], "gain": [3.0, float("nan"), 1.0]})},
        "data": {"name": "d"},
        "mark": "bar",
        "encoding": {
            "x": {"field": "position", "type": "ordinal"},
            "y": {"field": "gain", "type": "quantitative"},
        },
    }
    assert charts.chart_image(spec, "svg").lstrip().startswith(b"<svg")


@pytest.mark.parametrize(
    ("page", "name"),
    [
        ("app.py", "ndcg_at_each_k"),
        ("app_pages/1_Lesson.py", "lesson_discounted_gain"),
        ("app_pages/3_Variants_and_libraries.py", "variants_tools"),
    ],
)
def test_page_offers_chart_downloads(app, page, name):
    params = {"step": "6"} if "Lesson" in page else {}
    at = app(page=page, timeout=60, **params)
    assert not at.exception
    keys = {b.key for b in at.get("download_button")}
    assert {f"lab.chart_png.{name}", f"lab.chart_svg.{name}"} <= keys


def test_every_chart_of_blind_spots_explore_and_evaluate_has_downloads(app):
    at = app(page="app_pages/4_Blind_spots.py", timeout=60)
    for name, value in {"padding": "same", "unretrieved": "same", "nothing": "zero", "lengths": "B"}.items():
        at.radio(key=f"blind.{name}.predict").set_value(value)
    at.run()
    explore = app(page="app_pages/5_Explore.py", timeout=60)
    explore.radio(key="explore.guess").set_value("high").run()
    evaluate = app(page="app_pages/7_Evaluate_a_run.py", timeout=60, eval_form="table")
    evaluate_trec = app(page="app_pages/7_Evaluate_a_run.py", timeout=60)
    pages = {
        "blind spots": (
            at,
            [
                "blind_padding_ndcg",
                "blind_unretrieved_ndcg",
                "blind_nothing_ndcg",
                "blind_lengths_dcg",
                "blind_lengths_ndcg",
                "blind_length_drift",
            ],
        ),
        "explore": (explore, ["explore_swaps", "explore_all_orderings", "explore_slide_down"]),
        "evaluate": (evaluate, ["ndcg_per_query_histogram", "mean_ndcg_at_each_k"]),
        "evaluate (qrels and runs)": (
            evaluate_trec,
            # one difference chart per run compared with good (the sample's runs 1-3), one distribution
            ["difference_1", "difference_2", "difference_3", "ndcg_distribution_per_run"],
        ),
    }
    for page, (run, names) in pages.items():
        assert not run.exception, page
        keys = {b.key for b in run.get("download_button")}
        drawn = len(run.get("arrow_vega_lite_chart")) or len(run.get("vega_lite_chart"))
        assert {f"lab.chart_{fmt}.{name}" for name in names for fmt in ("png", "svg")} <= keys, page
        assert drawn == len(names), page


def test_neutral_line_colour_stands_out_on_both_themes():
    assert all(
        palette.contrast_ratio(palette.NEUTRAL, colours["background"]) >= palette.MARK_CONTRAST
        for colours in palette.THEMES.values()
    )


def test_theme_primaries_are_the_configured_ones():
    """The arithmetic above is done on the colours the app is really configured with."""
    import tomllib

    config = tomllib.loads((Path(styles.__file__).parents[2] / ".streamlit" / "config.toml").read_text())
    assert {theme: config["theme"][theme]["primaryColor"] for theme in ("light", "dark")} == {
        theme: colours["primary"] for theme, colours in palette.THEMES.items()
    }


def test_every_fixed_background_in_ui_sets_its_text_colour():
    """A fixed light background under the theme's text colour is unreadable on the dark theme, so
    every fixed background comes from palette.TEXT_ON_FILL, which pairs it with its text colour."""
    backgrounds = [
        (path.name, m.group(0))
        for path in sorted(Path(styles.__file__).parents[1].rglob("*.py"))
        if path.name != "palette.py"  # where TEXT_ON_FILL pairs each fill with its text colour
        for m in re.finditer(r"background-color:\s*#[0-9A-Fa-f]{6}", path.read_text(encoding="utf-8"))
    ]
    assert backgrounds == []
