"""``streamlit run`` as ``ndcg-lab app`` starts it, with the data libraries the app's pages use
imported before the server takes its first visitor.

A fresh server's first visitor waited about 0.7 s longer than the next one (bench/
bench_first_visit.py), 0.45 s of it importing pandas, Altair, NumPy and pyarrow in that
visitor's first script run (``python -X importtime``). Imported here, before Streamlit starts,
they are in ``sys.modules`` when the first page runs. Only libraries that never touch Streamlit:
the app's own modules declare Streamlit caches and a component, which belong to Streamlit's
runtime and must be made after it exists (made earlier, Streamlit logs "No runtime found, using
MemoryCacheStorageManager" and keeps those caches apart), so the first run still imports them.

Run as ``python -m ndcg_lab.serve APP [STREAMLIT OPTIONS]`` (:mod:`ndcg_lab.cli` does).
"""

from __future__ import annotations

import importlib
import sys

#: Imported before the server starts (about 0.45 s of a first visit's script run).
PRELOAD = ("numpy", "pyarrow", "pandas", "altair")


def main(argv: list[str] | None = None) -> None:
    """Import :data:`PRELOAD`, then hand over to Streamlit's own ``streamlit run APP ...``."""
    for name in PRELOAD:
        importlib.import_module(name)
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", *(sys.argv[1:] if argv is None else argv)]
    cli.main()


if __name__ == "__main__":
    main()
