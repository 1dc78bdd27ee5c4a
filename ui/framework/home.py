"""Where the app's own files are: the router ``app.py``, ``app_pages/``, ``.streamlit/`` and
``locales/``. Streamlit runs the app from files, so they are not Python modules of a package.

In a checkout they sit at its root, next to this package; a wheel installs them under
``<prefix>/share/ndcg-lab`` (``[tool.setuptools.data-files]`` in pyproject.toml), where
``<prefix>`` is the environment's data path (``sysconfig``: the venv, or ``~/.local`` for a
user install). This module imports nothing of the app, so the ``ndcg-lab`` command may use it
without loading Streamlit.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

#: The checkout's root, when this package runs from a checkout.
CHECKOUT = Path(__file__).resolve().parents[2]
#: Where a wheel installs the app's files.
INSTALLED = Path(sysconfig.get_path("data")) / "share" / "ndcg-lab"


def app_home() -> Path:
    """The folder holding ``app.py`` and ``locales/``: the checkout's root when this code runs
    from a checkout, else the installed share folder."""
    return CHECKOUT if (CHECKOUT / "app.py").is_file() else INSTALLED
