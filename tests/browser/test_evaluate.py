"""The Evaluate a run page in a real browser: deep link on a fresh server, a real upload,
a bad file in Chinese, the Calculator link, and screenshots (desktop, phone, zh)."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from browser_helpers import assert_no_exception, open_page, screenshot, wait_for_path, wait_idle

import ndcg_core as nc
from ndcg_teach.samples import sample_run
from ui.framework.i18n import error_text, translate
from ui.views import evaluate as ev

RUN_CSV = b"query,item,relevance,score\na,x,3,0.1\na,y,0,0.9\na,z,1,0.5\nb,u,2,0.7\nb,v,0,0.7\nb,w,1,0.2\n"
NEGATIVE_CSV = b"query,item,relevance,score\na,x,3,0.1\na,y,-1,0.9\n"


def _metric(page, label: str) -> str:
    box = page.locator("[data-testid='stMetric']").filter(has_text=label).first
    return box.locator("[data-testid='stMetricValue']").inner_text().strip()


def _upload(page, lang: str, data: bytes, name: str) -> None:
    page.get_by_text(translate(lang, "evaluate.source_upload")).click()
    wait_idle(page)
    page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(
        files=[{"name": name, "mimeType": "text/csv", "buffer": data}]
    )
    wait_idle(page)


def test_evaluate_deep_link_on_fresh_server_shows_core_mean(fresh_server, page):
    """First request of a fresh server: the Evaluate page with k from the link."""
    open_page(page, f"{fresh_server}/Evaluate_a_run?eval_form=table&eval_k=5&lang=en")
    assert_no_exception(page)
    assert page.get_by_role("heading", name="Evaluate a run").first.is_visible()
    mean = nc.evaluate_run(sample_run(ev.SAMPLE_QUERIES, seed=ev.SAMPLE_SEED), k=5).mean
    assert _metric(page, "Mean nDCG@5") == f"{mean:.4f}"
    assert "eval_k=5" in page.url
    screenshot(page, "evaluate-desktop")
    page.locator("[data-testid='stMetric']").first.scroll_into_view_if_needed()
    screenshot(page, "evaluate-desktop-results", full_page=False)


def test_evaluate_upload_shows_core_mean_and_opens_worst_query_in_calculator(server, page):
    """A real upload; then query a (ranked y, z, x by score) opens with grades 0, 1, 3."""
    open_page(page, f"{server}/Evaluate_a_run?eval_form=table&lang=en")
    _upload(page, "en", RUN_CSV, "run.csv")
    assert_no_exception(page)
    mean = nc.evaluate_run(pd.read_csv(io.BytesIO(RUN_CSV)), k=10).mean
    assert _metric(page, "Mean nDCG@10") == f"{mean:.4f}"
    page.get_by_role("button", name=translate("en", "evaluate.open_button")).click()
    wait_for_path(page, "/")
    assert_no_exception(page)
    assert "rel=0%2C1%2C3" in page.url or "rel=0,1,3" in page.url
    assert "item=y&item=z&item=x" in page.url


def test_evaluate_bad_file_shows_translated_message(server, page):
    open_page(page, f"{server}/Evaluate_a_run?eval_form=table&lang=zh")
    _upload(page, "zh", NEGATIVE_CSV, "bad.csv")
    assert_no_exception(page)
    with pytest.raises(nc.NDCGInputError) as caught:
        nc.evaluate(nc.read_run(NEGATIVE_CSV, name="bad.csv"))
    shown = " ".join(page.locator("[data-testid='stAlert']").all_inner_texts())
    assert error_text("zh", caught.value) in shown, shown
    page.locator("[data-testid='stAlert']").first.scroll_into_view_if_needed()
    screenshot(page, "evaluate-zh", full_page=False)
    page.get_by_text(translate("zh", "evaluate.source_sample")).click()
    wait_idle(page)
    assert page.locator("[data-testid='stMetric']").count() == 3


def test_evaluate_phone_layout_runs_without_exception(server, browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="en-US", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    try:
        open_page(page, f"{server}/Evaluate_a_run?eval_form=table&lang=en")
        assert_no_exception(page)
        page.locator("[data-testid='stMetric']").first.scroll_into_view_if_needed()
        screenshot(page, "evaluate-phone", full_page=False)
    finally:
        context.close()
