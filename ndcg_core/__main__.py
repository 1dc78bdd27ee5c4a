"""``python -m ndcg_core``: an alias of ``ndcg-lab evaluate`` (the command lives in
:mod:`ndcg_lab.evaluate`; this file is the one place the core imports ndcg_lab, and the layer
test exempts it by name)."""

from ndcg_lab.cli import exit_with
from ndcg_lab.evaluate import main

if __name__ == "__main__":
    exit_with(main())
