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

Then each student tours every other page (``--tour``, on by default): the Lesson, Scores
and ties, Variants, Blind spots, Explore, Practice and Evaluate, each a page switch as the
browser sends it (``rerun_script`` with the page's script hash, the link carried along). On
Evaluate the student chooses "My file" and uploads a run of their own (``--upload-rows``
rows, ``ndcg_teach.samples.sample_run`` seeded by the student's number) the way the browser does:
``file_urls_request`` on the websocket, an HTTP PUT of the file with the XSRF cookie and
header, then the uploader's widget state; the page must show the mean nDCG@10 that
``ndcg_core.evaluate_run`` gives for that file. Every step's latency counts in its own line.

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
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import browser_helpers  # noqa: E402 - the suite's server and Chromium helpers, on the path above
import websockets  # noqa: E402
from browser_helpers import CHROMIUM, CHROMIUM_ARGS, free_port, stop_server  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

import ndcg_core as nc  # noqa: E402
from ndcg_teach.samples import sample_run  # noqa: E402 - after the path set-up above

#: The pages a student tours after the Calculator (url paths of the pages/ scripts).
TOUR: tuple[str, ...] = (
    "Lesson",
    "Scores_and_ties",
    "Variants_and_libraries",
    "Blind_spots",
    "Explore",
    "Practice",
    "Evaluate_a_run",
)
RUN_TIMEOUT = 60.0  # seconds one rerun may take before it counts as an error


# --------------------------------------------------------------------------- server


def start_server(port: int) -> subprocess.Popen[bytes]:
    """The app on ``port`` (tests/browser/browser_helpers.py, the suite's own way to start it)."""
    proc, _ = browser_helpers.start_server(port)
    return proc


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

    widgets: dict[str, str] = field(default_factory=dict)  # user key -> widget id
    options: dict[str, list[str]] = field(default_factory=dict)  # user key -> option labels
    cards: list[str] = field(default_factory=list)
    metrics: dict[str, str] = field(default_factory=dict)  # label -> shown value
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
    if kind == "radio":
        page.options[key] = list(proto.options)
    if kind == "component_instance" and key.startswith("calc.drag."):
        args = json.loads(proto.json_args)
        page.cards = list(args["items"][0]["items"])


class Student:
    def __init__(self, number: int, port: int, rng: random.Random) -> None:
        self.number, self.port, self.rng = number, port, rng
        self.query_string = ""
        self.page_hash = ""
        self.xsrf = ""
        self.expected = Expected([3.0, 2.0, 0.0, 0.0, 1.0])
        self.latencies: list[float] = []
        self.load_latency: float | None = None
        self.errors: list[str] = []
        self.tour_latencies: list[float] = []  # page switches and Evaluate steps
        self.upload_latency: float | None = None  # from the PUT to the evaluated page
        self.pages: dict[str, str] = {}  # url path -> page script hash
        self.session_id = ""

    def _back(self, widget_state=None, *, page_hash: str | None = None):
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.query_string
        state.page_script_hash = self.page_hash if page_hash is None else page_hash
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
                self.session_id = msg.new_session.initialize.session_id or self.session_id
                for app_page in msg.new_session.app_pages:
                    self.pages[app_page.url_pathname] = app_page.page_script_hash
            elif kind == "navigation":
                self.page_hash = msg.navigation.page_script_hash or self.page_hash
                for app_page in msg.navigation.app_pages:
                    self.pages[app_page.url_pathname] = app_page.page_script_hash
            elif kind == "page_info_changed":
                self.query_string = msg.page_info_changed.query_string
            elif kind == "session_event" and msg.session_event.WhichOneof("type") in (
                "script_compilation_exception",
                "script_changed_on_disk",
            ):
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
            state.string_array_value.data.append(
                page.options["calc.gain"][["linear", "exponential"].index(new)]
            )
            self.expected.gain = new
        return what, state

    async def _file_urls(self, ws, name: str):
        msg = BackMsg()
        msg.file_urls_request.request_id = f"upload-{self.number}"
        msg.file_urls_request.file_names.append(name)
        msg.file_urls_request.session_id = self.session_id
        await ws.send(msg.SerializeToString())
        while True:
            reply = ForwardMsg()
            reply.ParseFromString(await asyncio.wait_for(ws.recv(), timeout=RUN_TIMEOUT))
            if reply.WhichOneof("type") == "file_urls_response":
                response = reply.file_urls_response
                if response.error_msg:
                    raise RuntimeError(f"file URLs refused: {response.error_msg}")
                return response.file_urls[0]

    def _put(self, url: str, name: str, data: bytes) -> None:
        """The browser's upload: multipart PUT with the XSRF cookie and its header."""
        boundary = f"----bench{self.number}{random.getrandbits(32):x}"
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                f'filename="{name}"\r\nContent-Type: text/csv\r\n\r\n'
            ).encode()
            + data
            + f"\r\n--{boundary}--\r\n".encode()
        )
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{url}" if url.startswith("/") else url,
            data=body,
            method="PUT",
            headers={
                "Content-Type": f"multipart/form-data; boundary={boundary}",
                "Cookie": f"_streamlit_xsrf={self.xsrf}",
                "X-Xsrftoken": self.xsrf,
                "Origin": f"http://127.0.0.1:{self.port}",
            },
        )
        with urllib.request.urlopen(request, timeout=RUN_TIMEOUT) as response:
            response.read()

    async def _evaluate_upload(self, ws, page: Page, rows: int) -> None:
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        radio = WidgetState()
        radio.id = page.widgets["evaluate.source"]
        radio.string_value = page.options["evaluate.source"][1]  # "My file"
        latency, page = await self._run(ws, self._back(radio))
        self.tour_latencies.append(latency)
        self._no_problems(page, "Evaluate, choose My file")
        run = sample_run(max(1, rows // 10), seed=1000 + self.number, min_items=5, max_items=15)
        data = run.to_csv(index=False).encode("utf-8")
        name = f"run_{self.number}.csv"
        started = time.perf_counter()
        urls = await self._file_urls(ws, name)
        await asyncio.to_thread(self._put, urls.upload_url, name, data)
        state = WidgetState()
        state.id = page.widgets["evaluate.file"]
        info = state.file_uploader_state_value.uploaded_file_info.add()
        info.file_id, info.name, info.size = urls.file_id, name, len(data)
        info.file_urls.CopyFrom(urls)
        latency, page = await self._run(ws, self._back(state))
        self.upload_latency = time.perf_counter() - started
        expected = f"{nc.evaluate_run(nc.read_run(data, name=name), k=10).mean:.4f}"
        shown = page.metrics.get("Mean nDCG@10")
        self._no_problems(page, "Evaluate upload")
        if shown != expected:
            self.errors.append(
                f"student {self.number} Evaluate upload: mean shows {shown!r}, core says {expected}"
            )

    def _no_problems(self, page: Page, what: str) -> None:
        self.errors.extend(f"student {self.number} {what}: {p}" for p in page.problems)

    async def tour(self, ws, pace: tuple[float, float], rows: int) -> None:
        """Every other page once, in the navigation's order; an upload on Evaluate."""
        for path in TOUR:
            await asyncio.sleep(self.rng.uniform(*pace))
            page_hash = self.pages.get(path)
            if page_hash is None:
                self.errors.append(f"student {self.number}: no page {path!r} in the navigation")
                continue
            latency, page = await self._run(ws, self._back(page_hash=page_hash))
            self.page_hash = page_hash
            self.tour_latencies.append(latency)
            self._no_problems(page, f"page {path}")
            if path == "Evaluate_a_run" and rows:
                await self._evaluate_upload(ws, page, rows)

    async def run(
        self,
        changes: int,
        pace: tuple[float, float],
        loaded: asyncio.Barrier,
        tour: bool = True,
        rows: int = 2000,
    ) -> None:
        uri = f"ws://127.0.0.1:{self.port}/_stcore/stream"
        try:
            async with websockets.connect(
                uri,
                subprotocols=["streamlit"],
                max_size=None,
                origin=f"http://127.0.0.1:{self.port}",
                open_timeout=RUN_TIMEOUT,
                ping_interval=None,
            ) as ws:
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
                if tour:
                    await self.tour(ws, pace, rows)
        except Exception as err:
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


def xsrf_cookie(port: int) -> str:
    """The XSRF cookie the server sets (on its health check, which the browser calls first)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=30) as response:
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            if name.strip() == "_streamlit_xsrf":
                return rest.split(";", 1)[0]
    return ""


async def run_class(
    port: int,
    students: int,
    changes: int,
    pace: tuple[float, float],
    seed: int,
    on_loaded,
    tour: bool = True,
    rows: int = 2000,
) -> list[Student]:
    class_ = [Student(i, port, random.Random(seed * 1000 + i)) for i in range(students)]
    cookie = xsrf_cookie(port)
    for student in class_:
        student.xsrf = cookie
    loaded = asyncio.Barrier(students + 1)
    progress = asyncio.ensure_future(_progress(class_, students * changes))

    async def settle() -> None:
        try:
            await loaded.wait()
        finally:
            on_loaded()

    try:
        await asyncio.gather(settle(), *(s.run(changes, pace, loaded, tour, rows) for s in class_))
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
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
        )
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
                    has_text=f"nDCG@{m.k}"
                )
                metric.first.wait_for(timeout=60_000)
                shown = metric.first.locator("[data-testid='stMetricValue']").inner_text().strip()
                exceptions = page.locator("[data-testid='stException']").count()
                if shown == f"{m.ndcg:.4f}" and exceptions == 0:
                    ok += 1
                else:
                    errors.append(
                        f"rel={rel} k={k}: shows {shown!r}, core {m.ndcg:.4f}, exceptions {exceptions}"
                    )
            except Exception as err:
                errors.append(f"rel={rel} k={k}: {type(err).__name__}: {str(err)[:200]}")
        browser.close()
    return ok, errors, time.perf_counter() - started


# --------------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument(
        "--pace",
        type=float,
        nargs=2,
        default=(3.0, 10.0),
        metavar=("MIN", "MAX"),
        help="seconds a student looks before each change (uniform); default 3 10",
    )
    parser.add_argument("--browsers", type=int, default=10)
    parser.add_argument(
        "--no-tour",
        dest="tour",
        action="store_false",
        help="only the Calculator (the tour of every page is on by default)",
    )
    parser.add_argument(
        "--upload-rows",
        type=int,
        default=2000,
        help="rows of each student's Evaluate upload; 0 for none; default 2000",
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not (1 <= args.students <= 500 and 1 <= args.changes <= 200 and 0 <= args.browsers <= 50):
        parser.error("keep --students 1..500, --changes 1..200, --browsers 0..50")

    port = free_port()
    proc = start_server(port)
    sampler = RssSampler(proc.pid)
    sampler.start()
    print(
        f"server pid {proc.pid} on 127.0.0.1:{port}; {os.cpu_count()} CPU(s); "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    try:
        t0, marks = time.perf_counter(), {}
        class_ = asyncio.run(
            run_class(
                port,
                args.students,
                args.changes,
                tuple(args.pace),
                args.seed,
                lambda: marks.setdefault("cpu", sampler.cpu_seconds()),
                args.tour,
                args.upload_rows,
            )
        )
        elapsed, cpu = time.perf_counter() - t0, sampler.cpu_seconds() - marks.get("cpu", 0.0)
        latencies = [x for s in class_ for x in s.latencies]
        loads = [s.load_latency for s in class_ if s.load_latency is not None]
        errors = [e for s in class_ for e in s.errors]
        print(
            f"\nPart 1: {args.students} students x {args.changes} changes (pace {args.pace[0]:g}-{args.pace[1]:g} s) "
            f"in {elapsed:.1f} s"
        )
        if latencies:
            print(
                f"  change latency: p50 {statistics.median(latencies) * 1000:.0f} ms, "
                f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms "
                f"over {len(latencies)} changes"
            )
        if loads:
            print(
                f"  first page load (all at once): p50 {statistics.median(loads) * 1000:.0f} ms, "
                f"max {max(loads) * 1000:.0f} ms"
            )
        tour = [x for s in class_ for x in s.tour_latencies]
        uploads = [s.upload_latency for s in class_ if s.upload_latency is not None]
        if tour:
            print(
                f"  tour of every page: p50 {statistics.median(tour) * 1000:.0f} ms, "
                f"p95 {percentile(tour, 0.95) * 1000:.0f} ms, max {max(tour) * 1000:.0f} ms "
                f"over {len(tour)} page runs"
            )
        if uploads:
            print(
                f"  Evaluate uploads ({args.upload_rows:,} rows each, PUT to shown mean): "
                f"p50 {statistics.median(uploads) * 1000:.0f} ms, "
                f"p95 {percentile(uploads, 0.95) * 1000:.0f} ms over {len(uploads)} uploads"
            )
        runs = len(latencies)
        if runs:
            print(
                f"  server CPU after the first loads: {cpu:.1f} s for {runs} changes = "
                f"{cpu / runs * 1000:.0f} ms per change; "
                f"machine load average at the end {os.getloadavg()[0]:.1f}"
            )
        print(f"  errors: {len(errors)}")
        for e in errors[:10]:
            print(f"    {e}")
        if args.browsers:
            ok, berrors, seconds = run_browsers(port, args.browsers, args.seed)
            print(
                f"\nPart 2: {args.browsers} Chromium pages at once: {ok}/{args.browsers} show the core's nDCG "
                f"({seconds:.1f} s)"
            )
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
