"""The layers, as an executable rule: app.py and app_pages -> ui -> (ndcg_live ->) ndcg_teach
-> ndcg_core, nothing points back up; inside ui three floors, views -> components -> framework, a view
importing no other view; no import cycle among the project's modules.

Read with ``ast`` (no import runs): every ``import`` and ``from ... import`` statement of the
project's own Python files, at any depth (an import inside a function counts: it closes a
cycle just as well). Run ``python tests/architecture/test_layers.py`` to print the layers.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE = sorted((ROOT / "ndcg_core").glob("*.py"))
UI = sorted((ROOT / "ui").rglob("*.py"))
LIVE = sorted((ROOT / "ndcg_live").glob("*.py"))
TEACH = sorted((ROOT / "ndcg_teach").glob("*.py"))
PAGES = [ROOT / "app.py", *sorted((ROOT / "app_pages").glob("*.py"))]


@functools.cache  # each file is read by several rules: parsed once a run
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@functools.cache
def _imports(path: Path) -> tuple[tuple[str, list[str], int], ...]:
    """(module, imported names, line) of every import in ``path``; relative modules get a dot."""
    tree = _tree(path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, [], node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            found.append((module, [alias.name for alias in node.names], node.lineno))
    return tuple(found)


def _top(module: str) -> str:
    return module.lstrip(".").split(".")[0]


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _banned(path: Path, banned: set[str]) -> list[tuple[str, int]]:
    """(module, line) of every absolute import in ``path`` of a package in ``banned``."""
    return [
        (module, line)
        for module, _, line in _imports(path)
        if not module.startswith(".") and _top(module) in banned
    ]


@pytest.mark.parametrize("path", CORE, ids=_rel)
def test_core_imports_no_user_interface(path):
    """ndcg_core never imports streamlit, altair, ui, the pages, ndcg_live, ndcg_teach or the
    command (ndcg_lab): it stays a plain library. The one exception is ``python -m ndcg_core``,
    the alias of ``ndcg-lab evaluate``: ``ndcg_core/__main__.py`` imports the command and
    nothing else."""
    if path.name == "__main__.py":
        assert {_top(m) for m, _, _ in _imports(path)} <= {"sys", "ndcg_lab"}
        return
    banned = {
        "streamlit",
        "altair",
        "sqlalchemy",
        "ui",
        "pages",
        "app_pages",
        "app",
        "ndcg_live",
        "ndcg_teach",
        "ndcg_lab",
    }
    assert _banned(path, banned) == []


@pytest.mark.parametrize("path", TEACH, ids=_rel)
def test_teaching_content_imports_the_core_only(path):
    """ndcg_teach sits between the core and the app: of the project it imports ndcg_core only,
    and no streamlit, altair or sqlalchemy."""
    assert (
        _banned(
            path,
            {"streamlit", "altair", "sqlalchemy", "ui", "pages", "app_pages", "app", "ndcg_live", "ndcg_lab"},
        )
        == []
    )


@pytest.mark.parametrize("path", LIVE, ids=_rel)
def test_live_store_imports_no_user_interface(path):
    """ndcg_live (the live class's database and rules) sits under ui: no streamlit, altair, ui."""
    assert _banned(path, {"streamlit", "altair", "ui", "pages", "app"}) == []


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
        own_layer = module.startswith(".") or _top(module) in {"ui", "ndcg_core", "ndcg_teach"}
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
    """``nc._kernel`` or ``ui.components.widgets._helper`` would tie a page to another layer's insides."""
    tree = _tree(path)
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in {"nc", "ndcg_core", "ndcg_teach", "ui"}:
                bad.append((node.attr, node.lineno))
    assert bad == []


# --- the floors of ui, and cycles ----------------------------------------------------------

FLOORS = ("framework", "components", "views")  # each may import only the floors before it
PROJECT = ("ndcg_core", "ndcg_teach", "ndcg_live", "ndcg_lab", "ui")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(module: str, names: list[str], path: Path) -> list[str]:
    """The project modules an import statement in ``path`` refers to (``from ui.views import
    live`` refers to ``ui.views.live``); relative imports resolved against ``path``'s package."""
    if module.startswith("."):
        level = len(module) - len(module.lstrip("."))
        package = _module_name(path).split(".")
        if path.name != "__init__.py":
            package = package[:-1]
        base = ".".join(
            package[: len(package) - level + 1] + ([module.lstrip(".")] if module.lstrip(".") else [])
        )
    else:
        base = module
    if _top(base) not in PROJECT:
        return []
    return [
        f"{base}.{name}" if (ROOT / Path(*f"{base}.{name}".split("."))).with_suffix(".py").exists() else base
        for name in names
    ] or [base]


@functools.cache  # four rules read it; callers do not change it
def _graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports (at any depth of the file)."""
    files = sorted(
        {
            *(ROOT / "ui").rglob("*.py"),
            *(ROOT / "ndcg_core").glob("*.py"),
            *TEACH,
            *LIVE,
            *(ROOT / "ndcg_lab").glob("*.py"),
        }
    )
    graph: dict[str, set[str]] = {}
    for path in files:
        name = _module_name(path)
        graph[name] = {
            target
            for module, names, _ in _imports(path)
            for target in _absolute(module, names, path)
            if target != name
        }
    return graph


def _floor(module: str) -> int | None:
    parts = module.split(".")
    return FLOORS.index(parts[1]) if parts[0] == "ui" and len(parts) > 2 and parts[1] in FLOORS else None


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in graph:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_ui_modules_live_on_a_floor():
    """Every ui module but the package's own ``__init__`` sits in framework, components or views."""
    stray = [m for m in _graph() if m.startswith("ui.") and m.count(".") == 1 and m[3:] not in FLOORS]
    assert stray == []


def test_a_floor_imports_only_the_floors_below_it():
    """framework imports neither components nor views; components import no view."""
    bad = [
        (module, target)
        for module, targets in _graph().items()
        if (own := _floor(module)) is not None
        for target in targets
        if (other := _floor(target)) is not None and other > own
    ]
    assert bad == []


def test_a_view_imports_no_other_view():
    bad = [
        (module, target)
        for module, targets in _graph().items()
        if _floor(module) == 2
        for target in targets
        if _floor(target) == 2
    ]
    assert bad == []


def test_no_import_cycle_among_the_project_modules():
    """Function-level imports count: a deferred import closes a cycle just as well."""
    assert _cycles(_graph()) == []


@pytest.mark.parametrize("path", [*UI, *PAGES], ids=_rel)
def test_no_function_level_import_of_a_project_module(path):
    """ui, the pages and the router import the project's modules at the top of the file, where
    a reader (and this test) sees the layers; a deferred import of a library is allowed."""
    tree = _tree(path)
    top_level = {id(node) for node in tree.body}
    bad = [
        (node.lineno, ast.unparse(node))
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        and id(node) not in top_level
        and any(_top(m) in PROJECT or m.startswith(".") for m in _node_modules(node))
    ]
    assert bad == []


def _node_modules(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    return ["." * node.level + (node.module or "")]


def test_cycle_finder_finds_a_cycle_and_the_floor_rule_a_climb():
    """The rules can fail: a three-module cycle, and a framework module importing a view."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert (_floor("ui.framework.frame"), _floor("ui.views.live"), _floor("ui.text")) == (0, 2, None)


if __name__ == "__main__":  # the layers, as a reader sees them: python tests/architecture/test_layers.py
    graph = _graph()
    for floor in ("ndcg_core", "ndcg_teach", "ndcg_live", "ndcg_lab", *(f"ui.{f}" for f in FLOORS)):
        members = sorted(m for m in graph if m == floor or m.startswith(floor + "."))
        print(f"{floor} ({len(members)} modules)")
        for member in members:
            uses = sorted(
                {
                    ".".join(t.split(".")[:2]) if not t.startswith("ui.") else ".".join(t.split(".")[:3])
                    for t in graph[member]
                }
                - {member}
            )
            print(f"  {member:<34} -> {', '.join(uses) if uses else '(nothing of the project)'}")
