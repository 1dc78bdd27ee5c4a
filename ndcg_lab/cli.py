"""``ndcg-lab app [STREAMLIT OPTIONS]`` and ``ndcg-lab evaluate FILE [OPTIONS]`` (or
``ndcg-lab evaluate --qrels QRELS RUN [RUN ...] [OPTIONS]``).

``app`` starts the Streamlit app: the checkout's when this package runs from one (``pip
install -e .``), else the files a wheel installed (:func:`ui.framework.home.app_home`);
``evaluate`` is :mod:`ndcg_lab.evaluate` (``python -m ndcg_core`` is its alias), with
the same arguments and exit status. Streamlit is not imported here: ``app`` hands the process to
``python -m ndcg_lab.serve`` (``streamlit run`` with the data libraries imported first), so
``evaluate`` starts as fast as the core.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

USAGE = """usage: ndcg-lab {app,evaluate} ...

  ndcg-lab app [STREAMLIT OPTIONS]   start nDCG Lab (e.g. --server.port 8600,
                                     --server.address 0.0.0.0 for a class)
  ndcg-lab evaluate FILE [OPTIONS]   mean nDCG@k of a run; 'ndcg-lab evaluate --help' lists
                                     the options (the same as python -m ndcg_core)
  ndcg-lab evaluate --qrels QRELS RUN [RUN ...] [OPTIONS]
                                     TREC runs against relevance judgments, one line per run
"""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (``app`` replaces the process instead)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in {"-h", "--help", "help"}:
        print(USAGE, end="")
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command == "evaluate":
        from ndcg_lab.evaluate import main as evaluate

        return evaluate(rest)
    if command == "app":
        from ui.framework.home import app_home  # a path only: imports nothing of the app

        app = app_home() / "app.py"
        if not app.is_file():
            print(f"error: {app} not found; reinstall nDCG Lab (pip install ndcg-lab)", file=sys.stderr)
            return 2
        os.chdir(app.parent)  # Streamlit reads .streamlit/config.toml from here
        # streamlit run, after importing the data libraries the pages use (ndcg_lab.serve)
        os.execv(sys.executable, [sys.executable, "-m", "ndcg_lab.serve", str(app), *rest])
    print(f"error: unknown command {command!r}\n{USAGE}", file=sys.stderr, end="")
    return 2


def exit_with(status: int) -> NoReturn:
    """End the process with ``status`` once its output is flushed, without the interpreter's
    teardown: pyarrow's thread pools can abort a process that has finished its work as they are
    destroyed at exit ("terminate called without an active exception", SIGABRT;
    apache/arrow#34314, open; seen here in a three-line script that reads a CSV with pyarrow,
    once in about 150 runs). With PySpark loaded the interpreter exits as usual: its exit hooks
    stop the JVM."""
    if "pyspark" in sys.modules:
        sys.exit(status)
    for stream in (sys.stdout, sys.stderr):
        # a closed pipe (| head): what was written is all the reader wanted
        with contextlib.suppress(OSError):
            stream.flush()
    os._exit(status)


def run() -> NoReturn:
    """The ``ndcg-lab`` command: :func:`main`, then :func:`exit_with` its status."""
    exit_with(main())


if __name__ == "__main__":
    run()
