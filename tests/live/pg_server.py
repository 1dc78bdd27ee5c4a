"""A real PostgreSQL server for the tests, started in a temporary folder (initdb + pg_ctl).

The server listens on a free loopback port and a socket in its own folder, trusts local
connections (a throw-away cluster), and is stopped and deleted afterwards. PostgreSQL refuses
to run as root: under root (a CI container) the cluster is made and run as the ``postgres``
user that Debian's package creates. ``scripts/system-deps`` installs PostgreSQL where missing.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


def pg_bin() -> Path | None:
    """The newest ``/usr/lib/postgresql/<version>/bin`` with initdb, or ``initdb`` on the PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_user(cmd: list[str], user: str | None) -> list[str]:
    return cmd if user is None else ["runuser", "-u", user, "--", *cmd]


@dataclass
class PostgresServer:
    """A running test server: its URL, and ``stop()`` / ``start()`` for a fault in mid-test."""

    url: str
    _ctl: list[str]
    _start: list[str]
    _user: str | None

    def stop(self) -> None:
        """Stop the server at once (as a crash or a restart would: connections are cut)."""
        subprocess.run(
            _as_user([*self._ctl, "-m", "immediate", "-w", "stop"], self._user),
            check=True,
            capture_output=True,
        )

    def start(self) -> None:
        """Start the stopped server again, on the same port and data."""
        subprocess.run(_as_user(self._start, self._user), check=True, capture_output=True)


@contextmanager
def postgres_server() -> Iterator[str]:
    """Start a PostgreSQL server; yield its SQLAlchemy URL (psycopg 3); stop and delete it."""
    with postgres_handle() as server:
        yield server.url


@contextmanager
def postgres_handle() -> Iterator[PostgresServer]:
    """Start a PostgreSQL server; yield it (:class:`PostgresServer`); stop and delete it."""
    binaries = pg_bin()
    if binaries is None:
        raise RuntimeError("PostgreSQL is not installed: run scripts/system-deps (package postgresql)")
    user = "postgres" if os.geteuid() == 0 else None
    folder = Path(tempfile.mkdtemp(prefix="ndcg-pg-"))
    data = folder / "data"
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    port = _free_port()
    log = folder / "server.log"
    subprocess.run(
        _as_user(
            [
                str(binaries / "initdb"),
                "-D",
                str(data),
                "-U",
                "lab",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
            user,
        ),
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    ctl = [str(binaries / "pg_ctl"), "-D", str(data)]
    start = [*ctl, "-l", str(log), "-o", options, "-w", "start"]
    subprocess.run(_as_user(start, user), check=True, capture_output=True)
    try:
        subprocess.run(
            _as_user(
                [str(binaries / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "lab", "ndcg"], user
            ),
            check=True,
            capture_output=True,
        )
        yield PostgresServer(f"postgresql+psycopg://lab@127.0.0.1:{port}/ndcg", ctl, start, user)
    finally:
        subprocess.run(
            _as_user([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"], user),
            capture_output=True,
        )
        for _ in range(20):
            try:
                shutil.rmtree(folder)
                break
            except OSError:
                time.sleep(0.2)
