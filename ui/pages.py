"""The app's pages in navigation order: id, script path (relative to the app root), icon."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Page:
    id: str
    path: str
    icon: str


PAGES: tuple[Page, ...] = (
    Page("calculator", "app.py", ":material/calculate:"),
    Page("lesson", "pages/1_Lesson.py", ":material/school:"),
    Page("ties", "pages/2_Scores_and_ties.py", ":material/balance:"),
    Page("variants", "pages/3_Variants_and_libraries.py", ":material/compare_arrows:"),
    Page("blind_spots", "pages/4_Blind_spots.py", ":material/visibility_off:"),
    Page("explore", "pages/5_Explore.py", ":material/explore:"),
    Page("practice", "pages/6_Practice.py", ":material/edit_note:"),
    Page("evaluate", "pages/7_Evaluate_a_run.py", ":material/table_chart:"),
    Page("live", "pages/8_Live_class.py", ":material/co_present:"),
)
PAGE_BY_ID: dict[str, Page] = {page.id: page for page in PAGES}
