"""Two server processes on one database: every answer of both is counted, none lost."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ndcg_live import questions
from ndcg_live.store import LiveStore

ROOT = Path(__file__).resolve().parents[2]

#: One "server": joins ``n`` students, says "ready", and when told "go" on its standard input
#: has each answer as fast as it can (both processes answer at once: a signal, not a clock).
WORKER = """
import sys
from ndcg_live.store import LiveStore
url, code, number, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
store = LiveStore(url)
students = [store.join(code) for _ in range(n)]
print("ready", flush=True)
sys.stdin.readline()
for i, s in enumerate(students):
    store.submit(code, s.token, number, ["D1", "D2", "D3", "D4", "D5"] if i % 2 else ["D2", "D1", "D3", "D4", "D5"])
    store.submit(code, s.token, number, ["D1", "D2", "D5", "D3", "D4"])  # replaces the first
store.dispose()
print("ok", n)
"""


def test_two_processes_on_one_database_lose_no_answer(database_url):
    store = LiveStore(database_url)
    code, key = store.create_class()
    number = store.add_question(
        code, key, questions.spec_from_ranking("ideal_order", [3, 2, 0, 0, 1], ["D1", "D2", "D3", "D4", "D5"])
    )
    store.open_question(code, key, number)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, database_url, code, str(number), "25"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    ready = [p.stdout.readline().strip() for p in procs if p.stdout is not None]  # both joined
    outputs = [p.communicate("go\n", timeout=120) for p in procs]
    given = store.answers(code, number, key=key)
    info = store.class_info(code)
    store.dispose()
    assert ready == ["ready", "ready"], outputs
    assert [p.returncode for p in procs] == [0, 0], outputs
    assert (len(given), info.n_students) == (50, 50)
    assert all(a.value == ["D1", "D2", "D5", "D3", "D4"] and a.correct for a in given)
