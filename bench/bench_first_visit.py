"""Start-up: from starting the server to the first page fully drawn, for the first visitor (cold)
and a second one (warm).

Run by hand (not a test): ``.venv/bin/python bench/bench_first_visit.py`` (``--help`` for options).

``--repeats`` fresh servers (``streamlit run app.py``, as ``ndcg-lab app`` and the browser
tests start it) on a free loopback port.

Per server: the seconds from starting the process to ``/_stcore/health`` answering, then, as soon
as it answers, a first visitor (a fresh Chromium context, so nothing cached in the browser either)
opens the Calculator and the time runs until the page is fully drawn (the script run over, no
Streamlit skeleton left, the app's style sheet applied, the drag cards drawn: the same wait as the
browser tests); then a second visitor in another fresh context (the server now warm). The
machine should be otherwise idle (2 cores); the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browser_helpers import CHROMIUM, CHROMIUM_ARGS, free_port, open_page, wait_page_ready  # noqa: E402

SERVER_ARGS = [
    "--server.headless",
    "true",
    "--server.address",
    "127.0.0.1",
    "--browser.gatherUsageStats",
    "false",
]
SERVER_ARGS += ["--server.fileWatcherType", "none"]
STARTS = {"streamlit run app.py": [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py")]}


def visit(browser, base: str) -> float:
    """Seconds from ``goto`` to the Calculator fully drawn, in a fresh browser context."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    try:
        page = context.new_page()
        start = time.perf_counter()
        open_page(page, f"{base}/?rel=3,2,0,0,1", timeout=120_000)
        wait_page_ready(page, timeout=120_000)
        return time.perf_counter() - start
    finally:
        context.close()


def one_server(browser, command: list[str]) -> tuple[float, float, float]:
    port = free_port()
    log = open(os.devnull, "wb")  # noqa: SIM115 (the child keeps it open)
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*command, *SERVER_ARGS, "--server.port", str(port)], cwd=ROOT, stdout=log, stderr=log
    )
    base = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as resp:
                    if resp.read().strip() == b"ok":
                        break
            except OSError:
                if time.perf_counter() - start > 120:
                    raise RuntimeError(f"{command} did not start in 120 s") from None
                time.sleep(0.05)
        health = time.perf_counter() - start
        first = visit(browser, base)
        second = visit(browser, base)
        return health, first, second
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="fresh servers per way of starting")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    load = os.getloadavg()
    print(f"First visitor after start (2-core machine; load average {load[0]:.1f} {load[1]:.1f} at start)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        results: dict[str, list[tuple[float, float, float]]] = {}
        for name, command in STARTS.items():
            results[name] = [one_server(browser, command) for _ in range(args.repeats)]
        browser.close()
    for name, runs in results.items():
        health, first, second = (statistics.median(r[i] for r in runs) for i in range(3))
        print(
            f"  {name}: health after {health:.1f} s; first visitor {first:.1f} s "
            f"(start to drawn {health + first:.1f} s); second visitor {second:.1f} s; "
            f"first / second {first / second:.1f}x  [medians of {len(runs)}; first: "
            + ", ".join(f"{r[1]:.1f}" for r in runs)
            + "]"
        )
    print(f"  load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
