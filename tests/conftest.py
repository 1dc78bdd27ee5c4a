"""Settings every test shares."""

from __future__ import annotations

import os
import tempfile

# The live class's database: a test that does not choose one (through NDCG_LAB_DATABASE_URL,
# as tests/app/test_live.py does) gets a file in a temporary folder, never data/ in the tree.
_FOLDER = tempfile.TemporaryDirectory(prefix="ndcg-lab-tests-")
os.environ.setdefault("NDCG_LAB_DATABASE_URL", f"sqlite:///{_FOLDER.name}/live.sqlite3")
