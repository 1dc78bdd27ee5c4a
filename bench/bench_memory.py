"""Server memory on Evaluate: a 1,000,000-row upload, 20 changes of k, then the session ends.

Run by hand (not a test): ``.venv/bin/python bench/bench_memory.py`` (``--help`` for options).

It writes a run of ``--rows`` rows (``ndcg_teach.samples.sample_run``, text ids) as CSV into a temporary
directory, starts ``streamlit run app.py`` on a free loopback port and drives the real page in
Chromium (Debian's /usr/bin/chromium through Playwright): choose "My file", upload the CSV,
wait for the results, then choose ``--changes`` different values of k, each time waiting for
the mean to be drawn. Then it closes the browser, waits until the server reports no active
session (``/_stcore/metrics``; the app's cache drops the session's tables within 2 s), then
``--settle`` seconds more, in which the app closes the disconnected session (Streamlit would
keep its uploaded bytes for good, see ``ui.framework.memory.close_gone_sessions``), and reads the
resident memory again.

Printed (from /proc/PID/status): the server's RSS when idle (after a warm-up visit that
took the same path with a 1,000-row file, loading every module it needs, and was then
dropped), the peak (VmHWM, the kernel's high-water
mark) and the RSS after the session ended; the upload's in-memory size
(``DataFrame.memory_usage(deep=True)`` of the table the app parses). Goals (issue 12): peak
under idle + 3 x the table, and after the session within 10 % of idle.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_classroom import start_server  # noqa: E402 - a sibling script, importable once bench/ is on the path (line above)
from browser_helpers import CHROMIUM, CHROMIUM_ARGS, IDLE, free_port, stop_server  # noqa: E402 - the suite's helpers

import ndcg_core as nc  # noqa: E402 - after the path set-up above, like bench_classroom
from ndcg_teach.samples import sample_run  # noqa: E402 - after the path set-up above


def status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def mib(kib: int) -> float:
    return kib / 1024


def active_sessions(port: int) -> int | None:
    """The server's count of connected sessions (Streamlit's metrics endpoint)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/metrics", timeout=10) as r:
            text = r.read().decode("utf-8", "replace")
    except OSError:
        return None
    found = re.search(r"^active_sessions(?:\{[^}]*\})?\s+([0-9.]+)", text, re.MULTILINE)
    return int(float(found.group(1))) if found else None


def wait_idle(page, timeout: float = 600_000) -> None:
    page.wait_for_selector("[data-testid='stApp']", timeout=timeout)
    for _ in range(3):
        page.wait_for_selector(IDLE, timeout=timeout)
        page.wait_for_timeout(300)
    page.wait_for_selector(IDLE, timeout=timeout)


def mean_text(page) -> str:
    metric = page.locator("[data-testid='stMetric']").filter(has_text="Mean nDCG").first
    return metric.locator("[data-testid='stMetricValue']").inner_text().strip()


def choose_k(page, k: int) -> None:
    box = page.locator("[data-testid='stSelectbox']").filter(has_text="Cutoff k").first
    box.locator("input").click()
    option = page.get_by_role("option", name=str(k), exact=True)
    if not option.is_visible():  # a click on the searchless box may leave its list closed
        page.keyboard.press("ArrowDown")
    option.click()
    wait_idle(page)


def upload(page, base: str, path: Path) -> None:
    """Open Evaluate on its one-table form, choose "My file", upload ``path`` and wait for its
    results."""
    page.goto(f"{base}/Evaluate_a_run?eval_form=table")
    wait_idle(page)
    page.locator("[data-testid='stRadio'] label").filter(has_text="My file").click()
    wait_idle(page)
    page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(path))
    page.locator("[data-testid='stMetric']").filter(has_text="Mean nDCG").first.wait_for(timeout=600_000)
    wait_idle(page)


def wait_sessions_gone(port: int, timeout: float = 300) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if active_sessions(port) == 0:
            return time.monotonic() - started
        time.sleep(0.5)
    raise RuntimeError("the server still reports an active session")


def settle(pid: int, seconds: float, *, report: bool = False) -> int:
    """RSS after ``seconds`` (printed every 15 s when ``report``); the last value."""
    started = time.monotonic()
    rss = status_kib(pid, "VmRSS")
    while time.monotonic() - started < seconds:
        time.sleep(1)
        rss = status_kib(pid, "VmRSS")
        waited = time.monotonic() - started
        if report and int(waited) % 15 == 0:
            print(f"  {waited:4.0f} s after the disconnect: RSS {mib(rss):.0f} MiB", flush=True)
    return rss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument("--warmup-rows", type=int, default=1000)
    parser.add_argument(
        "--sessions",
        type=int,
        default=1,
        help="visitors one after the other, each the same upload and changes; default 1",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=125.0,
        help="seconds to wait once the browser's session is disconnected: "
        "the app closes a disconnected session 15 s before Streamlit's "
        "server.disconnectedSessionTTL (120 s) would hide it; default 125",
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        n_queries = max(1, args.rows // 20)
        run = sample_run(n_queries, seed=1, min_items=20, max_items=20, ids="text")
        path = Path(tmp) / "run_1m.csv"
        run.to_csv(path, index=False)
        small = Path(tmp) / "warmup.csv"
        sample_run(max(1, args.warmup_rows // 20), seed=2, min_items=20, max_items=20, ids="text").to_csv(
            small, index=False
        )
        table = nc.read_run(path.read_bytes(), name=path.name)
        table_mib = table.memory_usage(deep=True).sum() / 2**20
        print(
            f"upload: {len(table):,} rows, {n_queries:,} queries, file "
            f"{path.stat().st_size / 2**20:.1f} MiB, in memory {table_mib:.1f} MiB",
            flush=True,
        )
        del run, table

        port = free_port()
        proc = start_server(port)
        base = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                # warm-up: the same path with a small file loads every module it needs (the
                # CSV reader, the upload handling); then the visitor leaves and is dropped
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                page = context.new_page()
                upload(page, base, small)
                choose_k(page, 3)
                context.close()
                wait_sessions_gone(port)
                idle = settle(proc.pid, args.settle)
                print(
                    f"idle server (after a warm-up visit with a {args.warmup_rows:,}-row upload, "
                    f"visitor gone): RSS {mib(idle):.0f} MiB",
                    flush=True,
                )

                afters = []
                for number in range(1, args.sessions + 1):
                    context = browser.new_context(viewport={"width": 1400, "height": 1000})
                    page = context.new_page()
                    started = time.perf_counter()
                    upload(page, base, path)
                    print(
                        f"session {number}: uploaded and evaluated in "
                        f"{time.perf_counter() - started:.1f} s: mean {mean_text(page)}; "
                        f"RSS {mib(status_kib(proc.pid, 'VmRSS')):.0f} MiB, "
                        f"peak so far {mib(status_kib(proc.pid, 'VmHWM')):.0f} MiB",
                        flush=True,
                    )
                    ks = [k for k in range(1, 21) if k != 10][: args.changes]
                    ks += [10] * (args.changes - len(ks))
                    started = time.perf_counter()
                    for i, k in enumerate(ks, 1):
                        choose_k(page, k)
                        if i % 5 == 0:
                            print(
                                f"  {i} changes of k: RSS {mib(status_kib(proc.pid, 'VmRSS')):.0f} MiB, "
                                f"peak so far {mib(status_kib(proc.pid, 'VmHWM')):.0f} MiB",
                                flush=True,
                            )
                    print(f"{len(ks)} changes of k in {time.perf_counter() - started:.1f} s", flush=True)
                    exceptions = page.locator("[data-testid='stException']").count()
                    during = status_kib(proc.pid, "VmRSS")
                    context.close()
                    waited = wait_sessions_gone(port)
                    afters.append(settle(proc.pid, args.settle, report=True))
                    print(f"session {number} ended: RSS {mib(afters[-1]):.0f} MiB", flush=True)
                browser.close()
            after = afters[-1]
            peak = status_kib(proc.pid, "VmHWM")
        finally:
            stop_server(proc)

    print(
        f"\nRSS idle {mib(idle):.0f} MiB, at the end of the session {mib(during):.0f} MiB, "
        f"peak {mib(peak):.0f} MiB, after the session ended {mib(after):.0f} MiB "
        f"(measured {waited + args.settle:.0f} s after the browser closed)"
    )
    growth = mib(peak - idle)
    print(
        f"peak - idle = {growth:.0f} MiB = {growth / table_mib:.2f} x the upload's "
        f"{table_mib:.0f} MiB in memory (goal < 3 x)"
    )
    back = (after - idle) / idle
    print(f"after - idle = {mib(after - idle):+.0f} MiB = {back:+.1%} of idle (goal within 10 %)")
    print(f"exceptions on the page: {exceptions}")
    met = growth < 3 * table_mib and abs(back) <= 0.10 and exceptions == 0
    print(f"goals: {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
