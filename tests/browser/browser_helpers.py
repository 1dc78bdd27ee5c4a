"""Helpers for real-browser tests (selectors stay out of test bodies)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run",
]
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``streamlit run app.py`` on loopback; return the process and its base URL."""
    port = port or _free_port()
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
        "--server.headless", "true", "--server.address", "127.0.0.1",
        "--server.port", str(port), "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as resp:
                if resp.read().strip() == b"ok":
                    return proc, base
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("Streamlit server did not become healthy in 60 s")


@contextmanager
def running_server() -> Iterator[str]:
    """A fresh server for the ``with`` block; yields its base URL and stops it afterwards."""
    proc, base = start_server()
    try:
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def wait_idle(page, timeout: float = 30_000) -> None:
    """Wait until the app's script run is over (and stays over for a moment)."""
    page.wait_for_selector("[data-testid='stApp']", timeout=timeout)
    for _ in range(3):
        page.wait_for_selector(IDLE, timeout=timeout)
        page.wait_for_timeout(250)
    page.wait_for_selector(IDLE, timeout=timeout)


def open_page(page, url: str) -> None:
    """Go to ``url`` and wait for the run to finish."""
    page.goto(url)
    wait_idle(page)


def assert_no_exception(page) -> None:
    """No Streamlit exception box anywhere on the page."""
    assert page.locator("[data-testid='stException']").count() == 0


def screenshot(page, name: str, *, full_page: bool = True) -> Path:
    """Save a screenshot under artifacts/screenshots (git-ignored) and return its path."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path
