"""Start-up: from starting the server to the first page fully drawn, for the first visitor (cold)
and a second one (warm).

Run by hand (not a test): ``.venv/bin/python bench/bench_first_visit.py`` (``--help`` for options).

``--repeats`` fresh servers of each way of starting on a free loopback port: ``streamlit run
app.py`` (as the browser tests start it) and ``ndcg-lab app`` (the README's command, which
imports the data libraries before the server starts: ndcg_lab.serve).

Per server: the seconds from starting the process to ``/_stcore/health`` answering, then, as soon
as it answers, a first visitor (a fresh Chromium context, so nothing cached in the browser either)
opens the Calculator; three times from the navigation's start: the numbers drawn, the page usable
(the drag cards drawn and taking focus, the options' controls drawn: no Streamlit skeleton left
in the columns of controls)
and the page fully drawn (the app's style sheet and script applied too: the browser tests' wait);
then a second visitor in another fresh context (the server now warm). The
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

from browser_helpers import CHROMIUM, CHROMIUM_ARGS, free_port, wait_page_ready  # noqa: E402

SERVER_ARGS = [
    "--server.headless",
    "true",
    "--server.address",
    "127.0.0.1",
    "--browser.gatherUsageStats",
    "false",
]
SERVER_ARGS += ["--server.fileWatcherType", "none"]
STARTS = {
    "streamlit run app.py": [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py")],
    "ndcg-lab app": [sys.executable, "-m", "ndcg_lab.cli", "app"],
}


#: Marks in ms since the navigation began, taken every animation frame: the numbers drawn (the
#: first metric) and the page usable: the drag cards drawn in their frame and taking focus
#: (dnd-kit's tabindex), the options' controls there (the cut-off slider), and no Streamlit
#: skeleton left in the two columns of controls (the chart and tables below may still load).
_MARKS = """() => {
  const marks = window.__visit || (window.__visit = {});
  const now = performance.now();
  const frame = document.querySelector("iframe[src*='streamlit_sortables']");
  let cards = false;
  try { cards = !!frame.contentDocument.querySelector("li.sortable-item[tabindex='0']"); } catch (error) {}
  if (!marks.numbers && document.querySelector("[data-testid='stMetric']")) marks.numbers = now;
  const controls = "[data-testid='stColumn']:is(:has(.st-key-calc_settings), :has([class*='st-key-lab-cards-']))";
  if (!marks.usable && cards && document.querySelector("[data-testid='stSlider']")
      && !document.querySelector(`${controls} [data-testid^="stSkeleton"]`)) marks.usable = now;
  return !!marks.usable;
}"""


def visit(browser, base: str) -> tuple[float, float, float]:
    """Seconds from ``goto`` to the Calculator's numbers drawn, to the page usable (cards and
    options ready for input), and to the page fully drawn, in a fresh browser context."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    try:
        page = context.new_page()
        start = time.perf_counter()
        page.goto(f"{base}/?rel=3,2,0,0,1", wait_until="commit")
        page.wait_for_function(_MARKS, polling="raf", timeout=120_000)
        wait_page_ready(page, timeout=120_000)
        drawn = time.perf_counter() - start
        marks = page.evaluate("window.__visit")
        return marks["numbers"] / 1000, marks["usable"] / 1000, drawn
    finally:
        context.close()


Visit = tuple[float, float, float]


def one_server(browser, command: list[str]) -> tuple[float, Visit, Visit]:
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
        results: dict[str, list[tuple[float, Visit, Visit]]] = {}
        for name, command in STARTS.items():
            results[name] = [one_server(browser, command) for _ in range(args.repeats)]
        browser.close()
    for name, runs in results.items():
        health = statistics.median(r[0] for r in runs)
        print(f"  {name}: health after {health:.1f} s  [medians of {len(runs)}]")
        for i, who in ((1, "first visitor (cold server)"), (2, "second visitor (warm server)")):
            numbers, usable, drawn = (statistics.median(r[i][j] for r in runs) for j in range(3))
            print(
                f"    {who}: numbers {numbers:.1f} s, usable {usable:.1f} s, fully drawn {drawn:.1f} s  "
                "[usable: " + ", ".join(f"{r[i][1]:.1f}" for r in runs) + "]"
            )
    print(f"  load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
