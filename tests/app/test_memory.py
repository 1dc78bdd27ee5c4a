"""Memory bounds of the app's caches (issue 12, defect 4): bytes, time, sessions.

``ui.framework.memory.BudgetCache`` alone, then the Evaluate page's use of it through AppTest: before
the fix, per-query tables of every k stayed in ``st.cache_data`` for every session for the
life of the server.
"""

from __future__ import annotations

import pandas as pd
import pytest

from ui.framework import memory

PAGE = "app_pages/7_Evaluate_a_run.py"


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _cache(**overrides) -> tuple[memory.BudgetCache, Clock]:
    clock = Clock()
    options = {"max_bytes": 1000, "session_bytes": 500, "ttl": 60.0, **overrides}
    return memory.BudgetCache(clock=clock, **options), clock


def test_nbytes_counts_the_strings_of_object_columns():
    frame = pd.DataFrame({"query": ["x" * 1000] * 10}, dtype=object)
    # ten strings of 1,000 characters: at least 10,000 bytes, not 10 pointers
    assert memory.nbytes(frame) >= 10 * 1000


def test_budget_cache_evicts_least_recently_used_over_the_session_budget():
    cache, _ = _cache()
    for key in "abc":
        cache.put(key, key, session="s", size=200)  # 600 bytes > 500
    assert cache.keys() == ["b", "c"]
    assert cache.session_bytes_used("s") == 400


def test_budget_cache_reading_an_entry_keeps_it():
    cache, _ = _cache()
    cache.put("a", "a", session="s", size=200)
    cache.put("b", "b", session="s", size=200)
    assert cache.get("a", session="s") == "a"  # a is now the most recent
    cache.put("c", "c", session="s", size=200)
    assert cache.keys() == ["a", "c"]


def test_budget_cache_total_budget_spans_sessions():
    cache, _ = _cache()
    for i, session in enumerate(["s1", "s2", "s3", "s4", "s5", "s6"]):
        cache.put(i, i, session=session, size=200)  # 6 x 200 > 1000
    assert cache.total_bytes() <= 1000
    assert cache.keys() == [1, 2, 3, 4, 5]


def test_budget_cache_keeps_the_entry_just_stored_even_when_too_large():
    cache, _ = _cache()
    cache.put("small", 1, session="s", size=100)
    cache.put("huge", 2, session="s", size=5000)  # the run in progress needs it
    assert cache.keys() == ["huge"]


def test_budget_cache_entry_expires_after_ttl_unused():
    cache, clock = _cache()
    cache.put("a", "a", session="s", size=10)
    clock.now = 59.0
    assert cache.get("a", session="s") == "a"  # used: the clock restarts
    clock.now = 118.0
    assert cache.get("a", session="s") == "a"
    clock.now = 179.0
    assert cache.prune(None) == 10
    assert len(cache) == 0


def test_budget_cache_shared_entry_lives_while_one_of_its_sessions_does():
    cache, _ = _cache()
    cache.put("file", "table", session="s1", size=300)
    assert cache.get("file", session="s2") == "table"
    assert cache.prune(lambda s: s == "s2") == 0  # s1 ended, s2 still uses it
    assert cache.prune(lambda s: False) == 300
    assert len(cache) == 0


def test_budget_cache_drop_session_frees_only_its_own_entries():
    cache, _ = _cache()
    cache.put("a", 1, session="s1", size=100)
    cache.put("b", 2, session="s2", size=100)
    assert cache.drop_session("s1") == 100
    assert cache.keys() == ["b"]


def test_close_gone_sessions_waits_for_the_grace_period_then_closes_once():
    memory._SESSIONS.clear()
    memory.track_session("gone")
    memory.track_session("here")
    closed: list[str] = []
    alive = {"here"}.__contains__
    assert memory.close_gone_sessions(alive, closed.append, now=0.0, after=100.0) == []
    assert memory.close_gone_sessions(alive, closed.append, now=99.0, after=100.0) == []
    assert memory.close_gone_sessions(alive, closed.append, now=100.0, after=100.0) == ["gone"]
    assert memory.close_gone_sessions(alive, closed.append, now=500.0, after=100.0) == []
    assert closed == ["gone"]


def test_close_gone_sessions_forgets_the_clock_when_the_browser_comes_back():
    memory._SESSIONS.clear()
    memory.track_session("s")
    connected = {"s": False}
    alive = connected.__getitem__
    memory.close_gone_sessions(alive, print, now=0.0, after=100.0)
    connected["s"] = True
    memory.close_gone_sessions(alive, print, now=50.0, after=100.0)  # reconnected
    connected["s"] = False
    assert memory.close_gone_sessions(alive, print, now=120.0, after=100.0) == []


def test_release_memory_runs_without_error():
    assert memory.release_memory() in (True, False)


@pytest.fixture
def small_budget(monkeypatch):
    """The Evaluate cache with a budget of 5 sample evaluations per session."""
    cache = memory.BudgetCache(max_bytes=10 * memory.MiB, session_bytes=60_000, ttl=3600)
    monkeypatch.setitem(memory._UPLOAD_CACHES, "runs", cache)
    monkeypatch.setitem(memory._UPLOAD_CACHES, "results", cache)
    return cache


def test_evaluate_changes_of_k_stay_within_the_session_budget(app, small_budget):
    at = app(page=PAGE, eval_form="table")
    for k in range(1, 21):
        at.selectbox(key="evaluate.k").set_value(k).run()
        assert not at.exception
    entries = list(small_budget._items.values())
    sessions = {s for entry in entries for s in entry.sessions}
    assert len(sessions) == 1
    session = sessions.pop()
    biggest = max(entry.size for entry in entries)
    # within the budget, but for the entry of the run in progress
    assert small_budget.session_bytes_used(session) <= 60_000 + biggest
    assert len(small_budget) < 20


def test_evaluate_tables_are_dropped_when_the_session_ends(app, small_budget):
    at = app(page=PAGE, eval_form="table")
    at.selectbox(key="evaluate.k").set_value(3).run()
    assert len(small_budget) >= 2  # the evaluation and the curve
    memory._CACHES.append(small_budget)
    try:
        assert memory.prune_all(lambda session: False) > 0  # nobody is connected any more
    finally:
        memory._CACHES.remove(small_budget)
    assert len(small_budget) == 0


def test_evaluate_keeps_few_evaluations_beside_the_table(app, monkeypatch):
    """Each k is one per-query table: the results' own, smaller budget keeps the last few of a
    visitor trying every k, not all 20 (issue 12)."""
    tables = memory.BudgetCache(max_bytes=10 * memory.MiB, session_bytes=10 * memory.MiB, ttl=3600)
    results = memory.BudgetCache(max_bytes=10 * memory.MiB, session_bytes=40_000, ttl=3600)
    monkeypatch.setitem(memory._UPLOAD_CACHES, "runs", tables)
    monkeypatch.setitem(memory._UPLOAD_CACHES, "results", results)
    at = app(page=PAGE, eval_form="table")
    for k in range(1, 21):
        at.selectbox(key="evaluate.k").set_value(k).run()
        assert not at.exception
    keys = results.keys()
    kept = [key for key in keys if key[0] == "evaluate"]
    assert 1 <= len(kept) < 10
    assert kept[-1][3].k == 20  # the one on screen is kept


def test_use_system_arrow_pool_makes_arrow_allocate_from_the_c_heap():
    import pyarrow as pa

    assert memory.use_system_arrow_pool()
    assert pa.default_memory_pool().backend_name == "system"


class FakeLibc:
    """Records ``mallopt`` calls instead of changing the process's allocator."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def mallopt(self, param: int, value: int) -> int:
        self.calls.append((param, value))
        return 1


def test_configure_allocator_sets_glibc_trim_threshold_back_to_its_default(monkeypatch):
    """Large frees before the first Evaluate page had raised glibc's trim threshold to 7.2 MiB
    in the server, and a thread arena keeps a free top below it resident (issue 12)."""
    libc = FakeLibc()
    monkeypatch.setattr(memory, "_libc", lambda: libc)
    assert memory.configure_allocator()
    m_trim_threshold = -1  # malloc.h
    assert (m_trim_threshold, 128 * 1024) in libc.calls


def test_configure_allocator_keeps_one_mib_at_an_arena_top(monkeypatch):
    """With glibc's 128 KiB pad every evaluation faulted its pages in again (~20 % slower)."""
    libc = FakeLibc()
    monkeypatch.setattr(memory, "_libc", lambda: libc)
    assert memory.configure_allocator()
    m_top_pad = -2  # malloc.h
    assert (m_top_pad, 1024 * 1024) in libc.calls


def test_collect_all_frees_cyclic_garbage_that_gc_freeze_parked():
    """the frame (ui.framework.frame) freezes the objects alive when a page imports new modules; a session's
    objects in cycles frozen that way were never freed (issue 12: ~80 MiB after a session)."""
    import gc
    import weakref

    class Holder:
        pass

    holder = Holder()
    holder.me = holder  # a cycle, as Streamlit's session objects form
    gone = weakref.ref(holder)
    gc.freeze()
    try:
        del holder
        gc.collect()
        assert gone() is not None  # parked: the ordinary collection does not see it
        assert memory.collect_all() >= 1
        assert gone() is None
        assert gc.get_freeze_count() > 0  # parked again, for the speed the frame wants
    finally:
        gc.unfreeze()


def test_close_session_empties_the_state_of_the_closed_session():
    """Streamlit's runtime loop keeps the last session it served alive after its close; its
    state (the kept upload) must not stay with it (issue 12)."""
    from types import SimpleNamespace

    class State(dict):
        pass

    state = State({"keep.files.evaluate.file": b"x" * 1000})
    # a widget's format function holds the page script's globals (the table)
    state._new_widget_state = SimpleNamespace(widget_metadata={"w": lambda v: v})
    info = SimpleNamespace(session=SimpleNamespace(session_state=state))
    closed: list[str] = []
    runtime = SimpleNamespace(
        _session_mgr=SimpleNamespace(get_session_info=lambda session: info),
        close_session=closed.append,
    )
    memory.close_session(runtime, "s1")
    assert closed == ["s1"]
    assert state == {}
    assert state._new_widget_state.widget_metadata == {}


def test_cached_trims_the_heap_after_computing_a_value(monkeypatch):
    """A parse or an evaluation leaves freed blocks in the heap that nothing else trims while
    the session lasts; the next evaluation's peak came on top of them (issue 12)."""
    trims = []
    monkeypatch.setattr(memory, "release_memory", lambda: trims.append(1) or True)
    cache = memory.BudgetCache(max_bytes=memory.MiB, session_bytes=memory.MiB, ttl=60)
    assert memory.cached(("key",), lambda: "value", cache=cache) == "value"
    assert len(trims) == 1


def test_cached_does_not_trim_on_a_hit(monkeypatch):
    trims = []
    cache = memory.BudgetCache(max_bytes=memory.MiB, session_bytes=memory.MiB, ttl=60)
    memory.cached(("key",), lambda: "value", cache=cache)
    monkeypatch.setattr(memory, "release_memory", lambda: trims.append(1) or True)
    assert memory.cached(("key",), lambda: "other", cache=cache) == "value"
    assert trims == []
