"""The layers, as an executable rule: pages -> ui -> (ndcg_live ->) ndcg_core, nothing points back up.

Read with ``ast`` (no import runs): every ``import`` and ``from ... import`` statement of the
project's own Python files.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE = sorted((ROOT / "ndcg_core").glob("*.py"))
UI = sorted((ROOT / "ui").glob("*.py"))
LIVE = sorted((ROOT / "ndcg_live").glob("*.py"))
PAGES = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]


def _imports(path: Path) -> list[tuple[str, list[str], int]]:
    """(module, imported names, line) of every import in ``path``; relative modules get a dot."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, [], node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            found.append((module, [alias.name for alias in node.names], node.lineno))
    return found


def _top(module: str) -> str:
    return module.lstrip(".").split(".")[0]


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", CORE, ids=_rel)
def test_core_imports_no_user_interface(path):
    """ndcg_core never imports streamlit, altair, ui, pages or ndcg_live: it stays a plain library."""
    banned = {"streamlit", "altair", "ui", "pages", "app", "ndcg_live", "sqlalchemy"}
    bad = [
        (module, line)
        for module, _, line in _imports(path)
        if not module.startswith(".") and _top(module) in banned
    ]
    assert bad == []


@pytest.mark.parametrize("path", LIVE, ids=_rel)
def test_live_store_imports_no_user_interface(path):
    """ndcg_live (the live class's database and rules) sits under ui: no streamlit, altair, ui."""
    banned = {"streamlit", "altair", "ui", "pages", "app"}
    bad = [
        (module, line)
        for module, _, line in _imports(path)
        if not module.startswith(".") and _top(module) in banned
    ]
    assert bad == []


@pytest.mark.parametrize("path", UI, ids=_rel)
def test_ui_imports_no_page(path):
    """ui serves the pages; it never imports a page script or app.py."""
    bad = [
        (module, line)
        for module, _, line in _imports(path)
        if not module.startswith(".") and _top(module) in {"pages", "app"}
    ]
    assert bad == []


@pytest.mark.parametrize("path", PAGES, ids=_rel)
def test_page_does_no_arithmetic_imports(path):
    """A page reads state, calls the core and renders: no numpy, math or statistics of its own."""
    bad = [
        (module, line)
        for module, _, line in _imports(path)
        if _top(module) in {"numpy", "math", "statistics", "decimal", "fractions", "scipy"}
    ]
    assert bad == []


@pytest.mark.parametrize("path", PAGES, ids=_rel)
def test_page_imports_no_private_name(path):
    """A page uses the public names of ui and ndcg_core only."""
    bad = [
        (module, name, line)
        for module, names, line in _imports(path)
        for name in [*names, *module.split(".")[1:]]
        if name.startswith("_")
    ]
    assert bad == []


@pytest.mark.parametrize("path", UI, ids=_rel)
def test_ui_module_imports_no_private_name_of_another(path):
    """A ui module reaches another only through its public names."""
    bad = []
    for module, names, line in _imports(path):
        own_layer = module.startswith(".") or _top(module) in {"ui", "ndcg_core"}
        if own_layer:
            bad += [(module, name, line) for name in names if name.startswith("_")]
            bad += [
                (module, part, line)
                for part in module.lstrip(".").split(".")
                if part.startswith("_") and part != "__init__"
            ]
    assert bad == []


def test_rule_finds_a_banned_import(tmp_path):
    """The reader sees through ``from x import y`` and relative imports (it can fail)."""
    sample = tmp_path / "sample.py"
    sample.write_text("import numpy as np\nfrom .widgets import _private\nfrom streamlit import x\n")
    found = {(module, tuple(names)) for module, names, _ in _imports(sample)}
    assert found == {("numpy", ()), (".widgets", ("_private",)), ("streamlit", ("x",))}


@pytest.mark.parametrize("path", [*UI, *PAGES], ids=_rel)
def test_no_private_attribute_of_the_core_or_ui(path):
    """``nc._kernel`` or ``ui.widgets._helper`` would tie a page to another layer's insides."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in {"nc", "ndcg_core", "ui"}:
                bad.append((node.attr, node.lineno))
    assert bad == []
