"""A class of 60 at once: the Calculator under 60 simultaneous students, then 10 real browsers.

Run by hand (not a test): ``.venv/bin/python bench/bench_classroom.py`` (``--help`` for options).

Part 1 starts ``streamlit run app.py`` on a free loopback port and simulates ``--students``
learners at once. Each is its own Streamlit session speaking the app's own websocket protocol
(``/_stcore/stream`` with the protobuf messages shipped in the streamlit package:
``BackMsg.rerun_script`` carrying ``WidgetStates``, answered by ``ForwardMsg`` deltas and
``script_finished``), exactly what the browser sends: no HTTP imitation. After the first page
load each student makes ``--changes`` changes at human pace (a pause of ``--pace`` seconds,
uniform, before each): drag the cards into a new order (the sortable component's value), move
the k slider, switch the gain. A change's latency runs from sending it to the end of the rerun
it causes. Every rerun is checked: no exception element, the run finished normally, and the
nDCG the page shows equals ``ndcg_core.ndcg`` of the ranking the student should now have.
Reported: latency p50/p95/max, errors, and the server's peak RSS (VmHWM from /proc).

Part 2 opens ``--browsers`` Chromium pages at once (Debian's /usr/bin/chromium through
Playwright), each on its own ranking link, and checks each page shows the core's nDCG.

Target on the 2-core machine: zero errors, p95 under 1 s, peak RSS under 1 GiB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

import ndcg_core as nc  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
RUN_TIMEOUT = 60.0  # seconds one rerun may take before it counts as an error


# --------------------------------------------------------------------------- server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
           "--server.headless", "true", "--server.address", "127.0.0.1",
           "--server.port", str(port), "--browser.gatherUsageStats", "false",
           "--server.fileWatcherType", "none"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("server did not become healthy in 60 s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


class RssSampler(threading.Thread):
    """Samples the server's resident memory; ``peak`` is the kernel's high-water mark (VmHWM)."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak_kib, self.stop = pid, 0, threading.Event()

    def _read(self) -> int:
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        except OSError:
            pass
        return 0

    def run(self) -> None:
        while not self.stop.wait(0.25):
            self.peak_kib = max(self.peak_kib, self._read())

    def cpu_seconds(self) -> float:
        """User + system CPU time the server has used so far."""
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            return 0.0

    def finish(self) -> float:
        self.stop.set()
        self.join()
        self.peak_kib = max(self.peak_kib, self._read())
        return self.peak_kib / 1024


# --------------------------------------------------------------------------- one student


@dataclass
class Page:
    """What one rerun showed: widget ids by key, the sortable's cards, the metrics, problems."""

    widgets: dict[str, str] = field(default_factory=dict)       # user key -> widget id
    options: dict[str, list[str]] = field(default_factory=dict)  # user key -> option labels
    cards: list[str] = field(default_factory=list)
    metrics: dict[str, str] = field(default_factory=dict)        # label -> shown value
    problems: list[str] = field(default_factory=list)
    query_string: str | None = None


@dataclass
class Expected:
    relevance: list[float]
    k: int | None = None
    gain: str = "linear"

    def ndcg_text(self) -> tuple[str, str]:
        m = nc.metrics(self.relevance, k=self.k, gain=self.gain)
        return f"nDCG@{m.k}", f"{m.ndcg:.4f}"


def _user_key(widget_id: str) -> str | None:
    # "$$ID-<hash>-<user key>": the user key may itself contain dashes, so split once
    parts = widget_id.split("-", 2)
    return parts[2] if len(parts) == 3 and widget_id.startswith("$$ID") else None


def _read_element(page: Page, element) -> None:
    kind = element.WhichOneof("type")
    if kind == "exception":
        page.problems.append(f"exception: {element.exception.message[:200]}")
        return
    if kind == "metric":
        page.metrics[element.metric.label] = element.metric.body
        return
    proto = getattr(element, kind)
    widget_id = getattr(proto, "id", "") if hasattr(proto, "id") else ""
    key = _user_key(widget_id) if widget_id else None
    if key is None:
        return
    page.widgets[key] = widget_id
    if kind == "button_group":
        page.options[key] = [option.content for option in proto.options]
    if kind == "component_instance" and key.startswith("calc.drag."):
        args = json.loads(proto.json_args)
        page.cards = list(args["items"][0]["items"])


class Student:
    def __init__(self, number: int, port: int, rng: random.Random) -> None:
        self.number, self.port, self.rng = number, port, rng
        self.query_string = ""
        self.page_hash = ""
        self.expected = Expected([3.0, 2.0, 0.0, 0.0, 1.0])
        self.latencies: list[float] = []
        self.load_latency: float | None = None
        self.errors: list[str] = []

    def _back(self, widget_state=None):
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.query_string
        state.page_script_hash = self.page_hash
        state.context_info.url = f"http://127.0.0.1:{self.port}/"
        state.context_info.locale = "en-US"
        state.context_info.timezone = "UTC"
        if widget_state is not None:
            state.widget_states.widgets.append(widget_state)
        return msg.SerializeToString()

    async def _run(self, ws, payload: bytes) -> tuple[float, Page]:
        """Send one rerun request and read until its script_finished."""
        page = Page()
        started = time.perf_counter()
        await ws.send(payload)
        while True:
            data = await asyncio.wait_for(ws.recv(), timeout=RUN_TIMEOUT)
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                _read_element(page, msg.delta.new_element)
            elif kind == "new_session":
                self.page_hash = msg.new_session.page_script_hash
            elif kind == "page_info_changed":
                self.query_string = msg.page_info_changed.query_string
            elif kind == "session_event" and msg.session_event.WhichOneof("type") in (
                    "script_compilation_exception", "script_changed_on_disk"):
                page.problems.append(f"session event {msg.session_event.WhichOneof('type')}")
            elif kind == "script_finished":
                # 0: finished successfully; 1: rerun early (fragment); others: errors
                if msg.script_finished not in (ForwardMsg.FINISHED_SUCCESSFULLY,):
                    page.problems.append(f"script_finished status {msg.script_finished}")
                return time.perf_counter() - started, page

    def _check(self, page: Page, what: str) -> None:
        label, value = self.expected.ndcg_text()
        shown = page.metrics.get(label)
        if page.problems:
            self.errors.extend(f"student {self.number} {what}: {p}" for p in page.problems)
        elif shown != value:
            self.errors.append(f"student {self.number} {what}: {label} shows {shown!r}, core says {value}")

    def _change(self, page: Page):
        """A realistic change: drag (half the time), k, or gain; returns (name, WidgetState)."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        what = self.rng.choices(["drag", "k", "gain"], weights=[2, 1, 1])[0]
        state = WidgetState()
        n = len(self.expected.relevance)
        if what == "drag":
            order = list(range(n))
            while order == list(range(n)):
                self.rng.shuffle(order)
            cards = [page.cards[i] for i in order]
            state.id = page.widgets[next(k for k in page.widgets if k.startswith("calc.drag."))]
            state.json_value = json.dumps([{"header": None, "items": cards}])
            self.expected.relevance = [self.expected.relevance[i] for i in order]
        elif what == "k":
            current = n if self.expected.k is None else self.expected.k
            k = self.rng.choice([v for v in range(1, n + 1) if v != current])
            state.id = page.widgets["calc.k"]
            state.double_array_value.data.append(float(k))
            self.expected.k = None if k >= n else k
        else:
            new = "exponential" if self.expected.gain == "linear" else "linear"
            state.id = page.widgets["calc.gain"]
            state.string_array_value.data.append(page.options["calc.gain"][["linear", "exponential"].index(new)])
            self.expected.gain = new
        return what, state

    async def run(self, changes: int, pace: tuple[float, float], loaded: asyncio.Barrier) -> None:
        uri = f"ws://127.0.0.1:{self.port}/_stcore/stream"
        try:
            async with websockets.connect(uri, subprotocols=["streamlit"], max_size=None,
                                          origin=f"http://127.0.0.1:{self.port}",
                                          open_timeout=RUN_TIMEOUT, ping_interval=None) as ws:
                try:
                    self.load_latency, page = await self._run(ws, self._back())
                    self._check(page, "first load")
                finally:
                    await loaded.wait()  # the class settles, then everyone starts working
                for i in range(changes):
                    await asyncio.sleep(self.rng.uniform(*pace))
                    what, state = self._change(page)
                    latency, page = await self._run(ws, self._back(state))
                    self.latencies.append(latency)
                    self._check(page, f"change {i + 1} ({what})")
        except Exception as err:  # noqa: BLE001 - every failure is counted, none stops the class
            self.errors.append(f"student {self.number}: {type(err).__name__}: {err}")
            if loaded.n_waiting < loaded.parties and not loaded.broken and self.load_latency is None:
                await loaded.abort()


async def _progress(class_: list[Student], total: int) -> None:
    started = time.perf_counter()
    while True:
        await asyncio.sleep(10)
        done = [x for s in class_ for x in s.latencies]
        tail = f", p95 so far {percentile(done, 0.95) * 1000:.0f} ms" if done else ""
        print(f"  {time.perf_counter() - started:5.0f} s: {len(done)}/{total} changes{tail}", flush=True)


async def run_class(port: int, students: int, changes: int, pace: tuple[float, float],
                    seed: int, on_loaded) -> list[Student]:
    class_ = [Student(i, port, random.Random(seed * 1000 + i)) for i in range(students)]
    loaded = asyncio.Barrier(students + 1)
    progress = asyncio.ensure_future(_progress(class_, students * changes))

    async def settle() -> None:
        try:
            await loaded.wait()
        finally:
            on_loaded()

    try:
        await asyncio.gather(settle(), *(s.run(changes, pace, loaded) for s in class_))
    finally:
        progress.cancel()
    return class_


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


# --------------------------------------------------------------------------- real browsers


def run_browsers(port: int, count: int, seed: int) -> tuple[int, list[str], float]:
    """``count`` Chromium pages at once, each on its own ranking; (correct pages, errors, seconds)."""
    from playwright.sync_api import sync_playwright

    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        rel = [rng.choice([0, 1, 2, 3]) for _ in range(rng.randint(3, 10))]
        rel[0] = max(rel[0], 1)
        k = rng.choice([None, 2, 3])
        cases.append((rel, k))
    errors: list[str] = []
    ok = 0
    started = time.perf_counter()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run"])
        pages = []
        for rel, k in cases:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            query = "rel=" + ",".join(map(str, rel)) + (f"&k={k}" if k else "")
            page.goto(f"http://127.0.0.1:{port}/?{query}", wait_until="commit")
            pages.append(page)
        idle = "[data-testid='stApp'][data-test-script-state='notRunning']"
        for (rel, k), page in zip(cases, pages, strict=True):
            m = nc.metrics(rel, k=k)
            try:
                page.wait_for_selector(idle, timeout=120_000)
                metric = page.locator(".st-key-calc_metrics [data-testid='stMetric']").filter(
                    has_text=f"nDCG@{m.k}")
                metric.first.wait_for(timeout=60_000)
                shown = metric.first.locator("[data-testid='stMetricValue']").inner_text().strip()
                exceptions = page.locator("[data-testid='stException']").count()
                if shown == f"{m.ndcg:.4f}" and exceptions == 0:
                    ok += 1
                else:
                    errors.append(f"rel={rel} k={k}: shows {shown!r}, core {m.ndcg:.4f}, exceptions {exceptions}")
            except Exception as err:  # noqa: BLE001
                errors.append(f"rel={rel} k={k}: {type(err).__name__}: {str(err)[:200]}")
        browser.close()
    return ok, errors, time.perf_counter() - started


# --------------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument("--pace", type=float, nargs=2, default=(3.0, 10.0), metavar=("MIN", "MAX"),
                        help="seconds a student looks before each change (uniform); default 3 10")
    parser.add_argument("--browsers", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not (1 <= args.students <= 500 and 1 <= args.changes <= 200 and 0 <= args.browsers <= 50):
        parser.error("keep --students 1..500, --changes 1..200, --browsers 0..50")

    port = free_port()
    proc = start_server(port)
    sampler = RssSampler(proc.pid)
    sampler.start()
    print(f"server pid {proc.pid} on 127.0.0.1:{port}; {os.cpu_count()} CPU(s); "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    try:
        t0, marks = time.perf_counter(), {}
        class_ = asyncio.run(run_class(port, args.students, args.changes, tuple(args.pace), args.seed,
                                       lambda: marks.setdefault("cpu", sampler.cpu_seconds())))
        elapsed, cpu = time.perf_counter() - t0, sampler.cpu_seconds() - marks.get("cpu", 0.0)
        latencies = [x for s in class_ for x in s.latencies]
        loads = [s.load_latency for s in class_ if s.load_latency is not None]
        errors = [e for s in class_ for e in s.errors]
        print(f"\nPart 1: {args.students} students x {args.changes} changes (pace {args.pace[0]:g}-{args.pace[1]:g} s) "
              f"in {elapsed:.1f} s")
        if latencies:
            print(f"  change latency: p50 {statistics.median(latencies) * 1000:.0f} ms, "
                  f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms "
                  f"over {len(latencies)} changes")
        if loads:
            print(f"  first page load (all at once): p50 {statistics.median(loads) * 1000:.0f} ms, "
                  f"max {max(loads) * 1000:.0f} ms")
        runs = len(latencies)
        if runs:
            print(f"  server CPU after the first loads: {cpu:.1f} s for {runs} changes = "
                  f"{cpu / runs * 1000:.0f} ms per change; "
                  f"machine load average at the end {os.getloadavg()[0]:.1f}")
        print(f"  errors: {len(errors)}")
        for e in errors[:10]:
            print(f"    {e}")
        if args.browsers:
            ok, berrors, seconds = run_browsers(port, args.browsers, args.seed)
            print(f"\nPart 2: {args.browsers} Chromium pages at once: {ok}/{args.browsers} show the core's nDCG "
                  f"({seconds:.1f} s)")
            for e in berrors[:10]:
                print(f"    {e}")
            errors += berrors
    finally:
        peak = sampler.finish()
        stop_server(proc)
    print(f"\nserver peak RSS: {peak:.0f} MiB")
    p95 = percentile(latencies, 0.95) if latencies else float("inf")
    met = not errors and p95 < 1.0 and peak < 1024
    print(f"target (0 errors, p95 < 1 s, RSS < 1 GiB): {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
