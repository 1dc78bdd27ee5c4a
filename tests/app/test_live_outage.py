"""The live class while its PostgreSQL server is stopped mid-question and started again
(issue 22, item 14): a phone's Send is said "not saved, press Send again" in the page's
language with the answer kept in the box, the teacher's Close is said not applied, the room
says the database is not answering; never Streamlit's error page; every page comes back by
itself, and nothing stored before the stop is lost. A real server of this module's own (the
session's is shared with other tests), stopped with ``pg_ctl stop -m immediate``."""

from __future__ import annotations

import functools

import pytest
from chinese_text import english_leftovers
from pg_server import postgres_handle

from ndcg_live import questions
from ndcg_live.store import LiveStore
from ui.views import live as live_view

LIVE = "app_pages/8_Live_class.py"
RANKING = ([3.0, 2.0, 0.0, 0.0, 1.0], ["D1", "D2", "D3", "D4", "D5"])
NOT_SAVED = {"en": "Your answer was not saved", "zh": "你的回答没有保存"}
DOWN = {"en": "not answering", "zh": "没有响应"}


@pytest.fixture(scope="module")
def server():
    with postgres_handle() as running:
        yield running


#: The stores' waits between tries while the database does not answer: one short one. The app's
#: own (``ndcg_live.store.RETRY_DELAYS``, ~2 s in all) made five refused operations wait 9.5 s
#: of this test's 10.6 for the same refusal (measured); the tries and the refusal are the same.
RETRY = (0.1,)


@pytest.fixture
def db(server, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_DATABASE_URL", server.url)
    monkeypatch.setattr(live_view, "LiveStore", functools.partial(LiveStore, retry_delays=RETRY))
    store = LiveStore(server.url, retry_delays=RETRY)
    yield store
    store.dispose()


def _clean(at, lang: str) -> None:
    assert not at.exception, [e.value for e in at.exception]
    if lang == "zh":
        assert english_leftovers(at) == []


def _errors(at) -> str:
    return "\n".join([e.value for e in at.error] + [w.value for w in at.warning])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_live_database_stopped_mid_question_loses_nothing_and_every_page_recovers(app, db, server, lang):
    code, key = db.create_class()
    number = db.add_question(code, key, questions.spec_from_ranking("ndcg", *RANKING, k=3))
    db.open_question(code, key, number)
    early = db.join(code)
    db.submit(code, early.token, number, "0.5")
    student = db.join(code)
    phone = app(page=LIVE, lang=lang, **{"class": code, "student": student.token})
    teacher = app(page=LIVE, lang=lang, **{"class": code, "key": key})
    room = app(page=LIVE, lang=lang, **{"class": code, "view": "room"})
    for at in (phone, teacher, room):
        _clean(at, lang)
    server.stop()
    try:
        phone.text_input(key=f"live.answer.{number}").input("0.9")
        phone.button(key=f"FormSubmitter:live.form.{number}-{phone.button[0].label}").click().run()
        _clean(phone, lang)
        assert NOT_SAVED[lang] in _errors(phone)
        teacher.button(key=f"live.close.{number}").click().run()
        _clean(teacher, lang)
        assert DOWN[lang] in _errors(teacher)
        room.run()
        _clean(room, lang)
        assert DOWN[lang] in _errors(room)
    finally:
        server.start()
    # the pages run again by themselves (their reconnect fragment's next tick, here a run)
    for at in (phone, teacher, room):
        at.run()
        _clean(at, lang)
        assert DOWN[lang] not in _errors(at) and NOT_SAVED[lang] not in _errors(at)
    box = phone.text_input(key=f"live.answer.{number}")
    assert box.value == "0.9"  # the answer the database did not take is still in the box
    phone.button(key=f"FormSubmitter:live.form.{number}-{phone.button[0].label}").click().run()
    _clean(phone, lang)
    assert db.questions(code)[0].state == "open"  # the Close that was refused did not happen
    given = sorted(a.value for a in db.answers(code, number, key=key))
    assert given == [0.5, 0.9]  # the answer from before the stop and the one sent again
