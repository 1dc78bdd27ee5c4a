"""The app's pages in navigation order, and each page's link parameters: the one place that
lists them. The router (``app.py``) makes an ``st.Page`` of each; the frame keeps a page's
parameters in the address bar and in the "share this view" link.

``url_path`` is the address Streamlit gave each page when the app used the classic ``pages/``
folder (the file name without its number), so every link and QR code handed out before the
router keeps working; the Calculator is the default page, at ``/``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Page:
    id: str
    path: str  # the page script, relative to the app's root
    url_path: str
    params: tuple[str, ...] = ()  # the page's own link parameters (shared ones: ui.framework.state)
    private: tuple[str, ...] = ()  # kept in this browser's address bar, never in a share link


#: The Evaluate page's link parameters: its table form (option -> link name) ...
EVALUATE_TABLE_PARAMS: dict[str, str] = {
    "form": "eval_form",
    "k": "eval_k",
    "gain": "eval_gain",
    "ties": "eval_ties",
    "no_relevant": "eval_norel",
}
#: ... and its qrels-and-runs form.
EVALUATE_TREC_PARAMS: dict[str, str] = {
    "k": "trec_k",
    "gain": "trec_gain",
    "discount": "trec_disc",
    "ties": "trec_ties",
    "ideal": "trec_ideal",
    "unjudged": "trec_unj",
    "missing": "trec_miss",
    "no_relevant": "trec_norel",
    "seed": "trec_seed",
}
#: The live class: the class and the view are shared; the teacher's key and a student's token
#: stay in that browser only.
LIVE_PARAMS: tuple[str, ...] = ("class", "view")
LIVE_PRIVATE: tuple[str, ...] = ("key", "student")

PAGES: tuple[Page, ...] = (
    Page("calculator", "app_pages/0_Calculator.py", "Calculator", ("scale",)),
    Page("lesson", "app_pages/1_Lesson.py", "Lesson", ("step",)),
    Page("ties", "app_pages/2_Scores_and_ties.py", "Scores_and_ties", ("grades", "scores", "dec")),
    Page(
        "variants",
        "app_pages/3_Variants_and_libraries.py",
        "Variants_and_libraries",
        ("judged", "scores", "by_score"),
    ),
    Page("blind_spots", "app_pages/4_Blind_spots.py", "Blind_spots"),
    Page("explore", "app_pages/5_Explore.py", "Explore", ("swap",)),
    Page("practice", "app_pages/6_Practice.py", "Practice", ("seed", "ex")),
    Page(
        "evaluate",
        "app_pages/7_Evaluate_a_run.py",
        "Evaluate_a_run",
        (*EVALUATE_TABLE_PARAMS.values(), *EVALUATE_TREC_PARAMS.values()),
    ),
    Page("live", "app_pages/8_Live_class.py", "Live_class", LIVE_PARAMS, LIVE_PRIVATE),
)
PAGE_BY_ID: dict[str, Page] = {page.id: page for page in PAGES}
PAGE_BY_URL: dict[str, Page] = {page.url_path: page for page in PAGES}
DEFAULT_PAGE = PAGES[0]
