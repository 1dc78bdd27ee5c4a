"""A live class under load: 60 students answer 3 questions on one server; nothing may be lost.

Run by hand (not a test): ``.venv/bin/python bench/bench_live.py`` (``--help`` for options).

Starts ``streamlit run app.py`` on a free loopback port with its own database
(``NDCG_LAB_DATABASE_URL``, a fresh SQLite file unless ``--database-url`` names another), makes
a class through the same store the app uses (:class:`ndcg_live.store.LiveStore`) and adds three
questions: nDCG@3 of the example (a number), A or B (a choice), and the ideal order (drag
cards). ``--students`` sessions then speak Streamlit's own websocket protocol as a phone's
browser does (``bench_classroom.py`` explains it): each, at a time uniform over ``--arrive``
seconds (a class scanning the code), opens the students' link (``/Live_class?class=CODE``),
which joins the class and puts a student token in its link; a join refused as "too many
requests" is tried again 3 s later, as the page asks (up to 5 times). While a phone's page is
open its watcher runs as the browser runs it: a fragment rerun every 2 s (the interval and the
fragment the server names in its ``auto_rerun`` message), each phone at its own phase; when
the watcher sees the teacher's change it reruns the whole page. The teacher opens each question
in turn; every phone waits until its watcher shows the question, then, after a think time
(``--think``, uniform), sends an answer the way the page's widgets do, in the answer's part of
the page (a fragment: the browser sends its id, and only that part runs): the form's text box
and button, the radio and button, or the drag cards' order and the send button. One more
answer to the first question is sent after it closes (through the store, as a page left open
would) and must be refused.

Reported:

- **joins refused** at the first try, the reloads they took, and students who never joined
  (must be 0);
- **lost answers**: answers sent and confirmed ("Saved") but not in the database, plus answers
  refused or failed (must be 0);
- **submit → counted**: from sending the answer to the moment a separate reader of the database
  (the teacher's count, polled every 20 ms here; the page itself reads every 2 s) sees it,
  p50/p95/max; and submit → the student's page confirms ("Saved");
- **open → shown**: from the teacher's Open to the phone showing the question (its watcher's
  wait, up to 2 s, and the page's run), and the number of watcher runs;
- **peak server memory**: the server's VmHWM (goal < 1 GiB), and its CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import sqlalchemy as sa  # noqa: E402
import websockets  # noqa: E402
from bench_classroom import RssSampler, free_port, percentile, start_server, stop_server  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from ndcg_core import NDCGInputError  # noqa: E402
from ndcg_live import questions  # noqa: E402
from ndcg_live.store import DATABASE_URL_ENV, LiveStore, RateLimit  # noqa: E402

RUN_TIMEOUT = 60.0
#: How often a student refused as "too many requests" reloads before giving up.
JOIN_TRIES = 5
RELEVANCE = [3.0, 2.0, 0.0, 0.0, 1.0]
LABELS = ["D1", "D2", "D3", "D4", "D5"]
STUDENT = re.compile(r"Student (\d+)")


@dataclass
class Seen:
    """One rerun as the phone received it: widgets by key, texts, problems."""

    widgets: dict[str, str] = field(default_factory=dict)  # user key (or submit label) -> id
    fragments: dict[str, str] = field(default_factory=dict)  # user key -> the id of its fragment
    full: bool = False  # a run of the whole page (not only a fragment's)
    options: dict[str, list[str]] = field(default_factory=dict)
    cards: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _read(seen: Seen, element, fragment_id: str = "") -> None:
    kind = element.WhichOneof("type")
    if kind == "exception":
        seen.problems.append(f"exception: {element.exception.message[:200]}")
        return
    if kind == "markdown":
        seen.texts.append(element.markdown.body)
    elif kind == "alert":
        seen.texts.append(element.alert.body)
        if element.alert.format == 1:  # ERROR
            seen.problems.append(f"error shown: {element.alert.body[:200]}")
    proto = getattr(element, kind, None)
    widget_id = getattr(proto, "id", "") if proto is not None and hasattr(proto, "id") else ""
    if not widget_id:
        return
    parts = widget_id.split("-", 2)
    key = parts[2] if len(parts) == 3 else widget_id
    if kind == "button" and proto.is_form_submitter:
        key = "submit"
    seen.widgets[key] = widget_id
    if fragment_id:
        seen.fragments[key] = fragment_id
    if kind == "radio":
        seen.options[key] = list(proto.options)
    if kind == "component_instance" and key.startswith("live.sort."):
        seen.cards = list(json.loads(proto.json_args)["items"][0]["items"])


def _answer_key(seen: Seen, number: int) -> str | None:
    """The key of question ``number``'s answer widget in a run, if the run shows it."""
    return next(
        (k for k in seen.widgets if k.startswith((f"live.answer.{number}", f"live.sort.{number}."))), None
    )


def _shows(seen: Seen, number: int) -> bool:
    return _answer_key(seen, number) is not None


class Phone:
    """One student's browser session."""

    def __init__(self, index: int, port: int, code: str, rng: random.Random) -> None:
        self.index, self.port, self.code, self.rng = index, port, code, rng
        self.query_string = f"class={code}&lang=en"
        self.page_hash = ""
        self.number: int | None = None
        self.confirm: list[float] = []
        self.sent: dict[int, float] = {}  # question -> time the answer was sent (perf_counter)
        self.saved: set[int] = set()
        self.errors: list[str] = []
        self.retries = 0  # joins refused as "too many requests", tried again as the page says
        self.watcher = ""  # the page's watcher (a fragment the browser runs every few seconds)
        self.every = 2.0  # its interval, as the server asked (auto_rerun)
        self.next_watch = 0.0  # when the browser runs it next (loop time)
        self.shown: dict[int, float] = {}  # question -> when the phone showed it (perf_counter)
        self.watches = 0

    def _back(
        self, *states: WidgetState, page_hash: str | None = None, fragment: str = "", auto: bool = False
    ) -> bytes:
        msg = BackMsg()
        run = msg.rerun_script
        run.query_string = self.query_string
        run.page_script_hash = self.page_hash if page_hash is None else page_hash
        run.fragment_id = fragment  # a widget in a fragment reruns that fragment alone
        run.is_auto_rerun = auto
        run.context_info.url = f"http://127.0.0.1:{self.port}/Live_class"
        run.context_info.locale = "en-US"
        run.context_info.timezone = "UTC"
        for state in states:
            run.widget_states.widgets.append(state)
        return msg.SerializeToString()

    async def _run(
        self, ws, payload: bytes, pages: dict[str, str] | None = None, *, fragment: bool = False
    ) -> Seen:
        """Send one rerun request and read the run it starts until it finishes: a fragment's
        run (``fragment``) finishes on its own, unless it reruns the whole page (st.rerun)."""
        seen = Seen(full=not fragment)
        await ws.send(payload)
        while True:
            msg = ForwardMsg()
            msg.ParseFromString(await asyncio.wait_for(ws.recv(), timeout=RUN_TIMEOUT))
            kind = msg.WhichOneof("type")
            if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                _read(seen, msg.delta.new_element, msg.delta.fragment_id)
            elif kind == "auto_rerun":
                self.watcher, self.every = msg.auto_rerun.fragment_id, msg.auto_rerun.interval
            elif kind == "new_session":
                self.page_hash = msg.new_session.page_script_hash
                if pages is not None:
                    pages.update({p.url_pathname: p.page_script_hash for p in msg.new_session.app_pages})
            elif kind == "navigation":
                self.page_hash = msg.navigation.page_script_hash or self.page_hash
                if pages is not None:
                    pages.update({p.url_pathname: p.page_script_hash for p in msg.navigation.app_pages})
            elif kind == "page_info_changed":
                self.query_string = msg.page_info_changed.query_string
            elif kind == "script_finished":
                if msg.script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
                    if fragment:
                        return seen
                    continue
                if msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    seen = Seen(full=True)  # st.rerun(): what counts is the page's run that follows
                    fragment = False
                    continue
                if msg.script_finished != ForwardMsg.FINISHED_SUCCESSFULLY:
                    seen.problems.append(f"script_finished status {msg.script_finished}")
                return seen

    async def _watch(self, ws) -> Seen:
        """The watcher's run, as the browser makes it every few seconds; when the question has
        changed it reruns the whole page (returned with ``full``)."""
        self.watches += 1
        return await self._run(ws, self._back(fragment=self.watcher, auto=True), fragment=True)

    async def _idle(self, ws, seconds: float | None, question: int | None = None) -> Seen | None:
        """The page open and untouched for ``seconds`` (or, with ``question``, until the watcher
        shows that question): its watcher runs on time meanwhile. Returns the page's last run
        that the watcher made, if any."""
        loop = asyncio.get_running_loop()
        end = None if seconds is None else loop.time() + seconds
        last = None
        while True:
            if self.next_watch <= loop.time():
                self.next_watch = loop.time() + self.every
            if end is not None and self.next_watch > end:
                await asyncio.sleep(max(0.0, end - loop.time()))
                return last
            await asyncio.sleep(max(0.0, self.next_watch - loop.time()))
            self.next_watch += self.every
            seen = await self._watch(ws)
            if seen.full:
                last = seen
                if question is not None and _shows(seen, question):
                    self.shown[question] = time.perf_counter()
                    return seen

    def _answer(self, seen: Seen, number: int, kind: str) -> list[WidgetState]:
        states = []
        if kind == "number":
            text = WidgetState(id=seen.widgets[f"live.answer.{number}"])
            text.string_value = f"{self.rng.choice([0.89, 0.9, 0.5, 0.95, 0.8]):g}"
            states += [text, WidgetState(id=seen.widgets["submit"], trigger_value=True)]
        elif kind == "choice":
            radio = WidgetState(id=seen.widgets[f"live.answer.{number}"])
            radio.string_value = self.rng.choice(seen.options[f"live.answer.{number}"])
            states += [radio, WidgetState(id=seen.widgets["submit"], trigger_value=True)]
        else:
            order = seen.cards[:]
            self.rng.shuffle(order)
            sort_key = next(k for k in seen.widgets if k.startswith(f"live.sort.{number}."))
            drag = WidgetState(id=seen.widgets[sort_key])
            drag.json_value = json.dumps([{"header": None, "items": order}])
            states += [drag]
        return states

    async def run(
        self,
        kinds: list[str],
        think: tuple[float, float],
        after_close,
        arrive: float = 0.0,
    ) -> None:
        uri = f"ws://127.0.0.1:{self.port}/_stcore/stream"
        await asyncio.sleep(self.rng.uniform(0.0, arrive))  # when this student scans the code
        try:
            async with websockets.connect(
                uri,
                subprotocols=["streamlit"],
                max_size=None,
                origin=f"http://127.0.0.1:{self.port}",
                open_timeout=RUN_TIMEOUT,
                ping_interval=None,
            ) as ws:
                pages: dict[str, str] = {}
                await self._run(ws, self._back(), pages)  # the first request: the home page
                seen = await self._run(ws, self._back(page_hash=pages["Live_class"]))  # the link's page
                self.page_hash = pages["Live_class"]
                # refused as "too many requests": the student waits the few seconds the page
                # asks for and reloads (a rerun of the same link), up to JOIN_TRIES times
                while (
                    "student=" not in self.query_string
                    and self.retries < JOIN_TRIES
                    and any("Too many requests" in problem for problem in seen.problems)
                ):
                    self.retries += 1
                    await asyncio.sleep(3.0)
                    seen = await self._run(ws, self._back())
                found = STUDENT.search(" ".join(seen.texts))
                self.number = int(found.group(1)) if found else None
                if "student=" not in self.query_string or self.number is None:
                    self.errors.append(f"phone {self.index}: did not join ({seen.problems})")
                    return
                loop = asyncio.get_running_loop()
                self.next_watch = loop.time() + self.rng.uniform(0.0, self.every)  # its own phase
                for n, kind in enumerate(kinds, 1):
                    # the page waits; its watcher shows the question once the teacher opens it
                    seen = await self._idle(ws, None, question=n)
                    await self._idle(ws, self.rng.uniform(*think))  # the student thinks
                    states = self._answer(seen, n, kind)
                    answer_part = seen.fragments.get(_answer_key(seen, n) or "", "")
                    if kind == "ranking":  # the drop reruns the answer's part
                        seen = await self._run(
                            ws, self._back(*states, fragment=answer_part), fragment=bool(answer_part)
                        )
                        states = [
                            *states,
                            WidgetState(id=seen.widgets[f"live.submit.{n}"], trigger_value=True),
                        ]
                    started = time.perf_counter()
                    self.sent[n] = started
                    seen = await self._run(
                        ws, self._back(*states, fragment=answer_part), fragment=bool(answer_part)
                    )
                    self.confirm.append(time.perf_counter() - started)
                    if any(t.startswith("Saved.") for t in seen.texts) and not seen.problems:
                        self.saved.add(n)
                    else:
                        self.errors.append(f"phone {self.index} question {n}: not saved {seen.problems}")
                if after_close is not None:
                    await after_close(self, ws)
        except Exception as err:
            self.errors.append(f"phone {self.index}: {type(err).__name__}: {err}")


class Counter(threading.Thread):
    """The teacher's count, read from the database every 20 ms: when each answer first appears."""

    def __init__(self, url: str, code: str) -> None:
        super().__init__(daemon=True)
        self.engine = sa.create_engine(url)
        self.code = code
        self.first_seen: dict[tuple[int, int], float] = {}  # (question, student) -> perf_counter
        self.stop = threading.Event()

    def run(self) -> None:
        query = sa.text(
            "SELECT q.number, s.number FROM live_answer a JOIN live_question q ON q.id = a.question_id "
            "JOIN live_student s ON s.id = a.student_id JOIN live_class c ON c.id = q.class_id WHERE c.code = :code"
        )
        while not self.stop.wait(0.02):
            with self.engine.connect() as conn:
                rows = conn.execute(query, {"code": self.code}).all()
            now = time.perf_counter()
            for row in rows:
                self.first_seen.setdefault((int(row[0]), int(row[1])), now)


async def main_async(args) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="ndcg-bench-live-"))
    url = args.database_url or f"sqlite:///{workdir / 'live.sqlite3'}"
    os.environ[DATABASE_URL_ENV] = url  # the server inherits it
    store = LiveStore(url, teacher_limit=RateLimit(burst=100, per_second=10))
    code, key = store.create_class()
    specs = [
        questions.spec_from_ranking("ndcg", RELEVANCE, LABELS, k=3),
        questions.spec_from_ranking("compare", RELEVANCE, LABELS),
        questions.spec_from_ranking("ideal_order", RELEVANCE, LABELS),
    ]
    kinds = [questions.answer_type(s) for s in specs]
    for spec in specs:
        store.add_question(code, key, spec)
    port = free_port()
    proc = start_server(port)
    sampler = RssSampler(proc.pid)
    sampler.start()
    counter = Counter(url, code)
    counter.start()
    refused: list[str] = []

    async def after_close(phone: Phone, ws) -> None:
        """The first student answers question 1 again after it closed (through the store, as a
        stale page's form would reach it): it must be refused."""
        if phone.index != 0:
            return
        await closed_first.wait()
        token = parse_qs(phone.query_string)["student"][0]
        try:
            store.submit(code, token, 1, "0.9")
            refused.append("an answer after close was stored")
        except NDCGInputError as err:
            if err.key != "live_closed":
                refused.append(f"an answer after close got {err.key}")

    try:
        cpu_before = sampler.cpu_seconds()
        started = time.perf_counter()
        opened: dict[int, float] = {}  # question -> when the teacher opened it
        closed_first = asyncio.Event()
        phones = [Phone(i, port, code, random.Random(args.seed * 1000 + i)) for i in range(args.students)]
        tasks = [
            asyncio.ensure_future(p.run(kinds, tuple(args.think), after_close, args.arrive)) for p in phones
        ]
        # everyone joins first (as a class scans the code), then the teacher asks; a phone the
        # server refused has an error and no number: it is counted as refused, never waited for
        while sum(p.number is not None or bool(p.errors) for p in phones) < args.students:
            await asyncio.sleep(0.2)
        joined = time.perf_counter() - started
        n_joined = sum(p.number is not None for p in phones)
        print(f"{n_joined} of {args.students} phones joined in {joined:.1f} s", flush=True)
        for n in range(1, len(specs) + 1):
            store.open_question(code, key, n)
            opened[n] = time.perf_counter()
            while sum(n in p.sent or p.errors != [] for p in phones) < args.students:
                await asyncio.sleep(0.2)
            await asyncio.sleep(args.think[1] / 4)
            while sum(n in p.saved or p.errors != [] for p in phones) < args.students:
                await asyncio.sleep(0.2)
            print(f"question {n} ({kinds[n - 1]}): {sum(n in p.saved for p in phones)} saved", flush=True)
            if n == 1:
                store.close_question(code, key, 1)
                closed_first.set()
        await asyncio.gather(*tasks)
        await asyncio.sleep(0.5)
        cpu = sampler.cpu_seconds() - cpu_before
    finally:
        counter.stop.set()
        counter.join()
        stop_server(proc)
        peak = sampler.finish()

    errors = [e for p in phones for e in p.errors] + refused
    sent = {(n, p.number): p.sent[n] for p in phones for n in p.sent if p.number is not None}
    stored = {(q.number, None): len(store.answers(code, q.number, key=key)) for q in store.questions(code)}
    lost = sum(1 for k in sent if k not in counter.first_seen) + sum(
        len(p.sent) - len(p.saved) for p in phones
    )
    counted = [counter.first_seen[k] - t for k, t in sent.items() if k in counter.first_seen]
    confirms = [c for p in phones for c in p.confirm]
    shown = [p.shown[n] - opened[n] for p in phones for n in p.shown]
    total = sum(stored.values())
    print()
    print(
        f"database: {url.split(':')[0]}; students {args.students} arriving over {args.arrive:g} s, "
        f"questions {len(specs)}, think {args.think} s"
    )
    refused_joins = [p for p in phones if p.number is None]
    print(
        f"joins refused at the first try: {sum(p.retries > 0 for p in phones)} "
        f"({sum(p.retries for p in phones)} reloads); never joined: {len(refused_joins)}  (must be 0)"
    )
    print(f"answers sent {len(sent)}, confirmed {sum(len(p.saved) for p in phones)}, stored {total}")
    print(f"lost answers: {lost}  (must be 0)")
    if counted:
        print(
            "submit -> counted (a reader of the database): "
            f"p50 {percentile(counted, 0.5) * 1000:.0f} ms, p95 {percentile(counted, 0.95) * 1000:.0f} ms, "
            f"max {max(counted) * 1000:.0f} ms (goal p95 < 2 s)"
        )
    if confirms:
        print(
            "submit -> the phone shows 'Saved': "
            f"p50 {percentile(confirms, 0.5) * 1000:.0f} ms, p95 {percentile(confirms, 0.95) * 1000:.0f} ms, "
            f"max {max(confirms) * 1000:.0f} ms"
        )
    if shown:
        print(
            f"the teacher opens -> the phone shows the question (its watcher every {phones[0].every:g} s): "
            f"p50 {percentile(shown, 0.5) * 1000:.0f} ms, p95 {percentile(shown, 0.95) * 1000:.0f} ms, "
            f"max {max(shown) * 1000:.0f} ms"
        )
    print(f"watcher runs: {sum(p.watches for p in phones)}")
    print(f"answer after close refused: {'yes' if not refused else 'NO'}")
    print(
        f"server peak RSS {peak:.0f} MiB (goal < 1024), server CPU {cpu:.1f} s; load {os.getloadavg()[0]:.1f}"
    )
    for line in errors[:20]:
        print("  error:", line)
    store.dispose()
    return 0 if lost == 0 and not errors and not refused_joins and total == len(sent) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 8.0), help="seconds before answering")
    parser.add_argument("--database-url", default="", help="SQLAlchemy URL (default: a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--arrive", type=float, default=30.0, help="seconds over which the students scan the code (uniform)"
    )
    parser.add_argument("--deadline", type=float, default=900.0, help="seconds before the run gives up")
    args = parser.parse_args()
    try:
        return asyncio.run(asyncio.wait_for(main_async(args), args.deadline))
    except TimeoutError:
        print(f"the run did not finish in {args.deadline:.0f} s (the server was stopped)")
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
