"""``import ndcg_core`` is cheap: the package loads a module only when one of its names is used."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import ndcg_core as nc

ROOT = Path(__file__).resolve().parents[2]
INIT = ROOT / "ndcg_core" / "__init__.py"


def _loaded_after(code: str) -> set[str]:
    """The top-level modules a fresh interpreter has loaded after running ``code``."""
    script = f"import sys\n{code}\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return set(result.stdout.split())


def test_import_ndcg_core_loads_no_numpy_pandas_or_pyarrow():
    loaded = _loaded_after("import ndcg_core")
    assert {"numpy", "pandas", "pyarrow", "scipy"} & loaded == set()


def test_ranked_list_metrics_load_numpy_but_not_pandas():
    loaded = _loaded_after("import ndcg_core as nc\nassert round(nc.ndcg([3, 2, 0, 0, 1]), 4) == 0.9762")
    assert "numpy" in loaded
    assert {"pandas", "pyarrow", "scipy"} & loaded == set()


def test_type_checking_imports_and_lazy_table_name_the_same_names():
    """The imports that type checkers read and the table the interpreter reads agree."""
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If))
    static = {
        (node.module, alias.name)
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    lazy = {(module, name) for module, names in nc._MODULES.items() for name in names}
    assert static == lazy


def test_every_public_name_resolves_and_is_listed_once():
    assert len(nc.__all__) == len(set(nc.__all__))
    assert set(nc.__all__) == {name for names in nc._MODULES.values() for name in names}
    for name in nc.__all__:
        assert getattr(nc, name) is not None


def test_submodules_are_reachable_as_attributes():
    assert nc.validate.__name__ == "ndcg_core.validate"
    assert nc.steps.STEP_COLUMNS[0] == "position"


def test_unknown_and_private_names_raise_attribute_error():
    for name in ("no_such_name", "_private", "__no_dunder__"):
        try:
            getattr(nc, name)
        except AttributeError as error:
            assert name in str(error)
        else:
            raise AssertionError(f"ndcg_core.{name} should not exist")
