"""The adversarial corpus's large input, made in memory (not committed)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def one_row_queries() -> bytes:
    """100,000 queries of one row each; query i has grade i % 3, so nDCG is 1 when the grade
    is above 0, else 0 (nothing relevant)."""
    lines = ["query,item,relevance,score\n"]
    lines += [f"{i:06d},d,{i % 3},0.5\n" for i in range(100_000)]
    return "".join(lines).encode()
