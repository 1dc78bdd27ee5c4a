"""nDCG Lab's live class: questions, answers and their rules in a database (no streamlit).

:mod:`ndcg_live.store` keeps classes, questions, students and answers (SQLAlchemy: SQLite by
default, any database by ``NDCG_LAB_DATABASE_URL``); :mod:`ndcg_live.questions` builds
questions and checks answers with the core. The page (``ui/views/live.py``) renders them.
"""

from .questions import judge, spec_from_practice, spec_from_ranking
from .store import DATABASE_URL_ENV, LiveStore, RateLimit

__all__ = ["DATABASE_URL_ENV", "LiveStore", "RateLimit", "judge", "spec_from_practice", "spec_from_ranking"]
