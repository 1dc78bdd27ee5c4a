"""Live-class fixtures: a fresh database per test, on a SQLite file and on a real PostgreSQL
server that the suite starts in a temporary folder (never skipped: `make test` installs it)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from pg_server import postgres_server

_names = itertools.count()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The URL of the session's PostgreSQL server (its maintenance database ``ndcg``)."""
    with postgres_server() as url:
        yield url


def fresh_postgres_database(server_url: str) -> str:
    """A new, empty database on the server; its URL."""
    name = f"lab_{next(_names)}"
    engine = sa.create_engine(server_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name}")
    engine.dispose()
    return server_url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """An empty database: a SQLite file in a temporary folder, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'data' / 'live.sqlite3'}"
    return fresh_postgres_database(request.getfixturevalue("postgres_url"))
