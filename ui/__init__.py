"""The app's shared user-interface code: the page frame, state, translations, widgets, charts.

Pages call :func:`frame` first, then the core, then render with helpers from here.
"""

from .i18n import LANGUAGES, error_text, translate
from .page_frame import Frame, frame, get_param, get_ranking, page_params, set_param, set_ranking, show_error
from .state import MAX_ITEMS, Ranking
from .text import breakable_math, md_escape

__all__ = [
    "LANGUAGES",
    "MAX_ITEMS",
    "Frame",
    "Ranking",
    "breakable_math",
    "error_text",
    "frame",
    "get_param",
    "get_ranking",
    "md_escape",
    "page_params",
    "set_param",
    "set_ranking",
    "show_error",
    "translate",
]
