"""How immediate the Calculator feels: drop-to-number, page load, and the script's own run time.

Run by hand (not a test): ``.venv/bin/python bench/bench_calculator.py`` (``--help`` for options).

1. Drop to number (real Chromium, warm server): a real mouse drag of a card in the sortable
   (press, move in steps, release); the time runs from the ``pointerup`` event inside the
   sortable's iframe to the moment the page shows the new nDCG value (a MutationObserver in the
   page), both read from the same wall clock (``performance.timeOrigin + performance.now()``).
   The drags alternate D5 → position 3 (nDCG 1.0000) and back (0.9762). Target: median < 300 ms.
2. Navigation to fully drawn (real Chromium, warm server): from ``page.goto`` to the script run
   finished with the metrics, both charts and the drag cards drawn. Target: median < 3 s.
3. Server-side script run (AppTest, in process): ``AppTest.run()`` of app.py on the example and
   on a 100-item list (k = n, and k = 10: 90 greyed rows), after a warm-up. Target: median < 100 ms. Its CPU time is printed too:
   on a busy machine the wall time mostly measures waiting for a core.

The machine should be otherwise idle (2 cores: other processes inflate every figure).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browser_helpers import CHROMIUM, CHROMIUM_ARGS, IDLE, SORTABLE, start_server, wait_idle  # noqa: E402

import ndcg_core as nc  # noqa: E402

_WATCH = """(expected) => {
    window.__seen = null;
    const found = () => [...document.querySelectorAll("[data-testid='stMetricValue']")]
        .some(el => el.textContent.trim() === expected);
    const observer = new MutationObserver(() => {
        if (window.__seen === null && found()) {
            window.__seen = performance.timeOrigin + performance.now();
            observer.disconnect();
        }
    });
    observer.observe(document.body, {subtree: true, childList: true, characterData: true});
}"""

# inside the sortable's iframe (same origin): the drop time goes to the page, because the
# iframe itself is replaced by a fresh one once the new order arrives
_DROP = """() => {
    window.parent.__drop = null;
    document.addEventListener("pointerup",
        () => { window.parent.__drop = performance.timeOrigin + performance.now(); },
        {capture: true, once: true});
}"""


def _center(box: dict, fx: float = 0.5) -> tuple[float, float]:
    return box["x"] + box["width"] * fx, box["y"] + box["height"] / 2


def drag_latency(page, source_index: int, target_index: int, expected: str) -> float:
    """One real mouse drag; milliseconds from the drop to ``expected`` shown."""
    frame = page.frame_locator(SORTABLE)
    cards = frame.locator("li.sortable-item")
    iframe = page.locator(SORTABLE).element_handle().content_frame()
    iframe.evaluate(_DROP)
    page.evaluate(_WATCH, expected)
    x0, y0 = _center(cards.nth(source_index).bounding_box())
    x1, y1 = _center(cards.nth(target_index).bounding_box(), 0.33 if target_index < source_index else 0.67)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 12, y0, steps=3)
    page.mouse.move(x1, y1, steps=12)
    page.wait_for_timeout(120)
    page.mouse.up()
    page.wait_for_function("window.__seen !== null", timeout=20_000)
    drop = page.evaluate("window.__drop")
    seen = page.evaluate("window.__seen")
    wait_idle(page)
    page.locator(SORTABLE).wait_for()
    page.frame_locator(SORTABLE).locator("li.sortable-item").first.wait_for()
    return seen - drop


def drawn(page, n_cards: int) -> None:
    """Wait until the page is fully drawn: run over, metrics, two charts, the drag cards.

    (No fixed pauses here, unlike the tests' ``wait_idle``: they would count as load time.)
    """
    page.wait_for_selector(IDLE, timeout=30_000)
    page.locator("[data-testid='stMetricValue']").nth(3).wait_for()
    page.wait_for_function(
        "document.querySelectorAll(\"[data-testid='stVegaLiteChart'] canvas, "
        "[data-testid='stVegaLiteChart'] svg.marks\").length >= 2",
        timeout=30_000,
    )
    page.frame_locator(SORTABLE).locator("li.sortable-item").nth(n_cards - 1).wait_for()


def bench_browser(base: str, drags: int, loads: int) -> tuple[list[float], list[float]]:
    from playwright.sync_api import sync_playwright

    example = f"{nc.ndcg([3, 2, 0, 0, 1]):.4f}"
    ideal = f"{nc.ndcg([3, 2, 1, 0, 0]):.4f}"
    latencies: list[float] = []
    loads_ms: list[float] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
        page = context.new_page()
        for _ in range(2):  # warm the server and the browser
            page.goto(f"{base}/?rel=3,2,0,0,1")
            drawn(page, 5)
        for i in range(drags + 2):
            there = drag_latency(page, 4, 2, ideal)  # D5 to position 3
            back = drag_latency(page, 2, 4, example)  # and back to position 5
            if i >= 1:  # the first pair warms up
                latencies += [there, back]
        for _ in range(loads):
            page.goto("about:blank")
            start = time.perf_counter()
            page.goto(f"{base}/?rel=3,2,0,0,1")
            drawn(page, 5)
            loads_ms.append((time.perf_counter() - start) * 1000)
        browser.close()
    return latencies, loads_ms


def bench_script(runs: int) -> dict[str, tuple[list[float], list[float]]]:
    """Wall and CPU milliseconds of ``AppTest.run()`` (CPU: this process, all threads)."""
    from streamlit.testing.v1 import AppTest

    out: dict[str, tuple[list[float], list[float]]] = {}
    hundred = ",".join(str(i % 4) for i in range(100))
    for name, rel, k in (
        ("example (5 items)", "3,2,0,0,1", None),
        ("100 items", hundred, None),
        ("100 items, k = 10", hundred, "10"),
    ):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
        at.query_params["rel"] = rel
        if k is not None:
            at.query_params["k"] = k
        at.run()
        at.run()  # warm: imports, caches
        wall, cpu = [], []
        for _ in range(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            at.run()
            wall.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            assert not at.exception
        out[name] = (wall, cpu)
    return out


def _summary(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (
        f"median {statistics.median(values):7.1f} ms   p90 {p90:7.1f} ms   "
        f"min {ordered[0]:7.1f} ms   max {ordered[-1]:7.1f} ms   (n={len(values)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--drags", type=int, default=10, help="pairs of drags measured (default 10)")
    parser.add_argument("--loads", type=int, default=8, help="page loads measured (default 8)")
    parser.add_argument("--runs", type=int, default=20, help="AppTest runs per case (default 20)")
    args = parser.parse_args()

    proc, base = start_server()
    try:
        latencies, loads = bench_browser(base, args.drags, args.loads)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    scripts = bench_script(args.runs)

    load = os.getloadavg()
    print(f"Calculator speed (2-core machine, warm server; load average {load[0]:.1f} {load[1]:.1f})")
    print(f"  drop -> new nDCG on screen   {_summary(latencies)}   target: median < 300 ms")
    print(f"  navigation -> fully drawn    {_summary(loads)}   target: median < 3000 ms")
    for name, (wall, cpu) in scripts.items():
        print(f"  script run, {name:<17} {_summary(wall)}   target: median < 100 ms")
        print(f"    (CPU time of that run) {_summary(cpu)}")


if __name__ == "__main__":
    main()
