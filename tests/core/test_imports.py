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


#: A TREC qrels file and a run with a tie (trec_eval's order reads the tied ids) and an
#: unjudged query, written by hand.
_QRELS = "q1 0 a 2\nq1 0 b 1\nq1 0 c 0\nq2 0 d 1\n"
_RUN = "q1 Q0 b 1 2.0 r\nq1 Q0 a 2 2.0 r\nq1 Q0 x 3 1.0 r\nq2 Q0 d 1 5.0 r\nq9 Q0 d 1 1.0 r\n"


def test_trec_text_report_loads_no_pandas(tmp_path):
    """The --qrels text report of one run (no --output) reads, ranks and sums with pyarrow and
    NumPy only: pandas, a quarter of a second of the command's start, is never imported
    (pyarrow would import it on its first ``to_numpy`` or ``pa.array``: see trec._numpy)."""
    (tmp_path / "qrels").write_text(_QRELS)
    (tmp_path / "r.run").write_text(_RUN)
    code = (
        "from ndcg_lab.evaluate import main\n"
        f"assert main(['--qrels', {str(tmp_path / 'qrels')!r}, {str(tmp_path / 'r.run')!r}, '--k', '5,10']) == 0"
    )
    loaded = _loaded_after(code)
    assert {"numpy", "pyarrow"} <= loaded
    assert "pandas" not in loaded


def test_trec_text_report_without_pandas_prints_trec_evals_numbers(tmp_path, capsys):
    """The same report's numbers: trec_eval's tie order ranks b before a (ids descending),
    DCG@5 of q1 = 1 + 2/log2(3), IDCG = 2 + 1/log2(3); q2 = 1."""
    from ndcg_lab.evaluate import main

    (tmp_path / "qrels").write_text(_QRELS)
    (tmp_path / "r.run").write_text(_RUN)
    assert main(["--qrels", str(tmp_path / "qrels"), str(tmp_path / "r.run"), "--k", "5"]) == 0
    log3 = 1.584962500721156
    expected = ((1 + 2 / log3) / (2 + 1 / log3) + 1.0) / 2
    assert f"nDCG@5 {expected:.4f}" in capsys.readouterr().out


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
