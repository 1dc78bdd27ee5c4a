"""nDCG Lab's live class: questions, answers and their rules in a database (no streamlit).

:mod:`ndcg_live.store` keeps classes, questions, students and answers (SQLAlchemy: SQLite by
default, any database by ``NDCG_LAB_DATABASE_URL``); :mod:`ndcg_live.questions` builds
questions and checks answers with the core; :mod:`ndcg_live.messages` holds the live class's
error messages. The page (``ui/views/live.py``) renders them.

Importing the package registers the messages and loads nothing else: the names below are
imported from their modules on first use (PEP 562), so the app's catalogue of messages has
the live class's without loading SQLAlchemy on every page.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import messages

if TYPE_CHECKING:
    from .questions import judge, spec_from_practice, spec_from_ranking
    from .store import DATABASE_URL_ENV, LiveStore, RateLimit

_MODULES: dict[str, tuple[str, ...]] = {
    "questions": ("judge", "spec_from_practice", "spec_from_ranking"),
    "store": ("DATABASE_URL_ENV", "LiveStore", "RateLimit"),
}
_WHERE = {name: module for module, names in _MODULES.items() for name in names}


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported from its module the first time it is asked for."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "DATABASE_URL_ENV",
    "LiveStore",
    "RateLimit",
    "judge",
    "messages",
    "spec_from_practice",
    "spec_from_ranking",
]
