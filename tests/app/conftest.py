"""AppTest fixtures: pages run in-process, widgets addressed by key."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


@pytest.fixture
def app() -> Callable[..., AppTest]:
    """Build an AppTest of the app; ``app(page="app_pages/2_Scores_and_ties.py", rel="3,2")``.

    Keyword arguments become link parameters (set before the first run, as a link would).
    The returned AppTest has already run once, on the requested page.
    """

    def build(page: str | None = None, *, timeout: float = 30, **params: str | list[str]) -> AppTest:
        at = AppTest.from_file(APP, default_timeout=timeout)
        for name, value in params.items():
            at.query_params[name] = value
        if page is not None and page != "app.py":
            at.switch_page(page)
        return at.run()

    return build
