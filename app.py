"""nDCG Lab: the router. Run with ``streamlit run app.py`` (or ``ndcg-lab app``).

Every request runs this script: it reads the session's language, registers the pages with
``st.navigation`` (translated titles; the addresses the pages always had, so old links and QR
codes keep working), runs the frame once for the page asked for (page set-up, sidebar, address
bar) and then the page, which takes the frame with ``current_frame()``.
"""

import streamlit as st

from ui.components import handout
from ui.framework import i18n
from ui.framework.frame import frame, session_language
from ui.framework.navigation import DEFAULT_PAGE, PAGE_BY_URL, PAGES
from ui.framework.shared import get_ranking


def export_control(page: str, lang: str, link: str) -> None:
    """The sidebar's export popover: the step table as CSV and the printable handout."""
    handout.export_control(lang, get_ranking(), link)


lang = session_language()
current = st.navigation(
    [
        st.Page(
            page.path,
            title=i18n.translate(lang, f"nav.{page.id}"),
            # no icon: st.navigation (1.67) draws a :material/ icon as an image from
            # fonts.gstatic.com, and the app makes no request outside its own server
            url_path=page.url_path,
            default=page is DEFAULT_PAGE,
        )
        for page in PAGES
    ],
    position="sidebar",
)
frame(PAGE_BY_URL.get(current.url_path, DEFAULT_PAGE).id, controls=(export_control,))
current.run()
