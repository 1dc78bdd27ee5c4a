"""Server memory while a gzip bomb is uploaded as qrels on the Evaluate page.

Run by hand (not a test): ``.venv/bin/python bench/bench_gzip_bomb.py`` (``--help`` for options).

It makes a gzip file of ``--mib`` MiB of newlines (2,048 MiB compress to about 2 MB: a 1,000×
bomb), starts the app on a free loopback port, and in Chromium (Debian's /usr/bin/chromium
through Playwright) opens Evaluate's qrels-and-runs form with the file choice: that visit is
the warm-up, which loads every module the upload path needs. The server's resident memory
then is its idle size. Then it uploads the bomb as qrels and a one-line run, waits for the
page's refusal (the core's ``gzip_ratio`` message: the reader stops after 20× the compressed
size), and reads the kernel's high-water mark (VmHWM) of the server process.

Printed: idle RSS, peak, their ratio (goal, issue 25 item 8: under 2), the message shown, and
the same for a second upload of the bomb (nothing kept from the first). Before the streaming
reader, the same upload took the server from 294 MB to 4.4 GB.
"""

from __future__ import annotations

import argparse
import gzip
import io
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browser_helpers import (  # noqa: E402 - the suite's helpers, on the path above
    CHROMIUM,
    CHROMIUM_ARGS,
    open_page,
    start_server,
    stop_server,
    wait_idle,
)
from playwright.sync_api import sync_playwright  # noqa: E402

from ui.framework.i18n import translate  # noqa: E402


def status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def bomb(mib: int) -> bytes:
    """``mib`` MiB of newlines, gzip-compressed a MiB at a time (never all in memory)."""
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=9) as handle:
        for _ in range(mib):
            handle.write(b"\n" * (1 << 20))
    return buffer.getvalue()


def upload_bomb(page, data: bytes) -> str:
    """Upload the bomb as qrels and a one-line run; the refusal the page shows."""
    inputs = page.locator("[data-testid='stFileUploader'] input[type='file']")
    inputs.nth(0).set_input_files(
        files=[{"name": "bomb.qrels.gz", "mimeType": "application/gzip", "buffer": data}]
    )
    wait_idle(page, timeout=300_000)
    inputs.nth(1).set_input_files(
        files=[{"name": "a.run", "mimeType": "text/plain", "buffer": b"q1 Q0 d1 1 0.9 r\n"}]
    )
    wait_idle(page, timeout=300_000)
    error = page.locator("[data-testid='stAlertContentError']").filter(has_text="bomb.qrels.gz")
    error.first.wait_for(timeout=300_000)
    return " ".join(error.first.inner_text().split())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mib", type=int, default=2048, help="decompressed size of the bomb in MiB")
    args = parser.parse_args()
    data = bomb(args.mib)
    print(
        f"bomb: {len(data):,} bytes compressed, {args.mib:,} MiB of newlines ({(args.mib << 20) / len(data):,.0f}x)"
    )
    proc, base = start_server()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            open_page(page, f"{base}/Evaluate_a_run?lang=en&eval_form=trec")
            page.get_by_text(translate("en", "evaluate.trec_source_upload")).click()
            wait_idle(page)
            time.sleep(2)
            idle = status_kib(proc.pid, "VmRSS")
            for attempt in (1, 2):
                started = time.perf_counter()
                message = upload_bomb(page, data)
                took = time.perf_counter() - started
                peak = status_kib(proc.pid, "VmHWM")
                print(
                    f"upload {attempt}: idle {idle / 1024:.0f} MiB, peak {peak / 1024:.0f} MiB, "
                    f"peak / idle {peak / idle:.2f} (goal < 2), refused in {took:.1f} s"
                )
                print(f"  shown: {message[:200]}")
                page.reload()
                wait_idle(page)
                page.get_by_text(translate("en", "evaluate.trec_source_upload")).click()
                wait_idle(page)
            browser.close()
    finally:
        stop_server(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
