"""Settings every test shares."""

from __future__ import annotations

import os
import tempfile

import pytest

# The live class's database: a test that does not choose one (through NDCG_LAB_DATABASE_URL,
# as tests/app/test_live.py does) gets a file in a temporary folder, never data/ in the tree.
_FOLDER = tempfile.TemporaryDirectory(prefix="ndcg-lab-tests-")
os.environ.setdefault("NDCG_LAB_DATABASE_URL", f"sqlite:///{_FOLDER.name}/live.sqlite3")
# ranx (an oracle) compiles its kernels with Numba on first use, ~20 s; Numba's cache next to
# ranx's files lives and dies with the venv, which CI makes afresh. A cache in the user's cache
# folder outlives it, so only a machine's first run compiles.
os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "ndcg-lab-numba"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep tests that share an expensive fixture on one pytest-xdist worker (`--dist
    loadgroup`, as `make test` runs): a browser module shares one app server, the Spark tests
    one Spark session, the live tests one PostgreSQL server. The rest spread test by test."""
    for item in items:
        parts = item.path.parts
        if "browser" in parts:
            group = f"browser:{item.path.name}"
        elif "spark" in parts:
            group = "spark"
        elif "live" in parts and "tests" in parts:
            group = "postgres"
        else:
            continue
        item.add_marker(pytest.mark.xdist_group(group))
