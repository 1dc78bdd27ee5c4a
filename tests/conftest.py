"""Settings every test shares."""

from __future__ import annotations

import functools
import os
import sys
import tempfile
from typing import Any

import pytest

# The live class's database: a test that does not choose one (through NDCG_LAB_DATABASE_URL,
# as tests/app/test_live.py does) gets a file in a temporary folder, never data/ in the tree.
_FOLDER = tempfile.TemporaryDirectory(prefix="ndcg-lab-tests-")
os.environ.setdefault("NDCG_LAB_DATABASE_URL", f"sqlite:///{_FOLDER.name}/live.sqlite3")
# ranx (an oracle) compiles its kernels with Numba on first use (~50 kernels, ~50 s of one
# process, measured 2026-12-06) and caches them, here in the user's cache folder rather than in
# the venv, which CI makes afresh. Numba files a cached kernel under its source's folder and
# checks the source's content (sha256): a venv made again at the same path loads them (~5 s);
# a venv at a new path, or a machine's first run, compiles them.
os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "ndcg-lab-numba"))


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's worker reads the groups into node ids
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep tests that share an expensive fixture on one pytest-xdist worker (`--dist
    loadgroup`, as `make test` runs): a browser module shares one app server, the Spark tests
    one Spark session, the live tests one PostgreSQL server, the tests that ask ranx load its
    Numba kernels once (~5 s of a process's time even from the cache). The rest spread test by
    test."""
    for item in items:
        parts = item.path.parts
        if item.get_closest_marker("ranx"):
            group = "ranx"
        elif "browser" in parts:
            group = f"browser:{item.path.name}"
        elif "spark" in parts:
            group = "spark"
        elif "live" in parts and "tests" in parts:
            group = "postgres"
        else:
            continue
        item.add_marker(pytest.mark.xdist_group(group))


class _GroupsApplied:
    """Stops a run where ``--dist loadgroup`` silently groups nothing (pytest-xdist 3.8 marks a
    group in the node id, which pytest 9.2 ignores: pytest-dev/pytest-xdist#1386): each worker
    would then start its own Spark, servers and PostgreSQL."""

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        if node.config.getvalue("dist") != "loadgroup":
            return
        shared = [i for i in ids if i.startswith(("tests/browser/", "tests/spark/", "tests/live/"))]
        if shared and not any("@" in i for i in shared):
            raise pytest.UsageError(
                f"pytest-xdist did not group the {len(shared)} tests that share a server or a Spark "
                "session (pytest-dev/pytest-xdist#1386): use the pinned pytest of requirements-dev.txt"
            )


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_GroupsApplied(), "ndcg-lab-groups-applied")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Each AppTest scans every installed distribution's metadata for Streamlit components
    before its first run (Streamlit 1.67's ``AppTest._run``: ~0.1 s, half the time of a typical
    AppTest, 0.2 s under load). A server scans once when it starts; the tests scan once per
    process too. The installed packages do not change during a run."""
    if "streamlit.testing.v1" not in sys.modules:  # no AppTest collected: leave Streamlit unloaded
        return
    from streamlit.components.v2 import manifest_scanner

    if not hasattr(manifest_scanner.scan_component_manifests, "cache_info"):
        manifest_scanner.scan_component_manifests = functools.cache(manifest_scanner.scan_component_manifests)
