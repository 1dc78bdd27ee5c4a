"""The live class's storage and rules, on a real SQLite file and a real PostgreSQL server."""

from __future__ import annotations

import csv
import math

import pytest
import sqlalchemy as sa

import ndcg_core as nc
import ndcg_live.store as live_store
from ndcg_live import questions
from ndcg_live.store import DEFAULT_TTL, LiveStore, RateLimit

LIVE_MAX = live_store.MAX_STUDENTS

RANKING = ([3.0, 2.0, 0.0, 0.0, 1.0], ["D1", "D2", "D3", "D4", "D5"])


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _ndcg3() -> float:
    import math

    return (3 + 2 / math.log2(3)) / (3 + 2 / math.log2(3) + 1 / 2)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(database_url, clock) -> LiveStore:
    s = LiveStore(database_url, clock=clock)
    yield s
    s.dispose()


def _class_with_question(store: LiveStore, kind: str = "ndcg", k: int | None = 3) -> tuple[str, str, int]:
    code, key = store.create_class()
    number = store.add_question(code, key, questions.spec_from_ranking(kind, *RANKING, k=k))
    return code, key, number


def test_store_creates_sqlite_file_in_wal_mode(tmp_path):
    path = tmp_path / "new" / "folder" / "live.sqlite3"
    store = LiveStore(f"sqlite:///{path}")
    with store.engine.connect() as conn:
        mode = conn.exec_driver_sql("PRAGMA journal_mode").scalar()
    store.dispose()
    assert path.exists() and mode == "wal"


def test_store_records_schema_version(store):
    assert store.schema_version() == max(live_store.MIGRATIONS)


def test_store_migrates_once_when_opened_twice(database_url):
    LiveStore(database_url).dispose()
    second = LiveStore(database_url)
    with second.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT count(*) FROM schema_version")).scalar()
    second.dispose()
    assert rows == 1


def test_create_class_gives_six_character_code_and_secret_key(store):
    code, key = store.create_class()
    assert len(code) == 6 and code.isalnum() and len(key) >= 20 and key not in code


def test_teacher_key_is_stored_hashed(store):
    _, key = store.create_class()
    with store.engine.connect() as conn:
        stored = conn.execute(sa.text("SELECT key_hash FROM live_class")).scalar()
    assert key not in stored


def test_unknown_code_is_refused(store):
    with pytest.raises(nc.NDCGInputError) as caught:
        store.class_info("ZZZZZZ")
    assert caught.value.key == "live_no_class"


def test_code_is_found_in_lower_case_with_spaces(store):
    code, _ = store.create_class()
    assert store.class_info(f"  {code.lower()} ").code == code


def test_class_expires_after_ttl_of_inactivity(store, clock):
    code, _ = store.create_class()
    clock.now += DEFAULT_TTL + 1
    with pytest.raises(nc.NDCGInputError) as caught:
        store.class_info(code)
    assert caught.value.key == "live_no_class"


def test_activity_postpones_expiry(store, clock):
    code, key, number = _class_with_question(store)
    clock.now += DEFAULT_TTL - 10
    store.open_question(code, key, number)
    clock.now += DEFAULT_TTL - 10
    assert store.class_info(code).code == code


def test_purge_deletes_expired_class_and_answers(store, clock):
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    student = store.join(code)
    store.submit(code, student.token, number, "0.9")
    clock.now += DEFAULT_TTL + 1
    assert store.purge_expired() == 1
    with store.engine.connect() as conn:
        left = [
            conn.execute(sa.text(f"SELECT count(*) FROM {t}")).scalar() for t in ("live_answer", "live_class")
        ]
    assert left == [0, 0]


def test_control_action_with_wrong_key_is_refused(store):
    code, _, number = _class_with_question(store)
    with pytest.raises(nc.NDCGInputError) as caught:
        store.open_question(code, "not-the-key", number)
    assert caught.value.key == "live_wrong_key"


@pytest.mark.parametrize("action", ["add_question", "close_question", "reveal", "end_class", "export_csv"])
def test_every_control_action_checks_the_key(store, action):
    code, _, number = _class_with_question(store)
    args = {
        "add_question": (questions.spec_from_ranking("ndcg", *RANKING),),
        "close_question": (number,),
        "reveal": (number,),
        "end_class": (),
        "export_csv": (),
    }[action]
    with pytest.raises(nc.NDCGInputError) as caught:
        getattr(store, action)(code, "wrong", *args)
    assert caught.value.key == "live_wrong_key"


def test_join_with_same_token_keeps_the_student(store):
    code, _ = store.create_class()
    first = store.join(code)
    again = store.join(code, first.token)
    assert (again.number, again.token) == (first.number, first.token)


def test_join_gives_numbers_in_order(store):
    code, _ = store.create_class()
    assert [store.join(code).number for _ in range(3)] == [1, 2, 3]


def test_join_with_unknown_token_gives_a_new_student(store):
    code, _ = store.create_class()
    store.join(code)
    assert store.join(code, "made-up-token").number == 2


def test_answer_before_open_is_refused(store):
    code, _, number = _class_with_question(store)
    student = store.join(code)
    with pytest.raises(nc.NDCGInputError) as caught:
        store.submit(code, student.token, number, "0.9")
    assert caught.value.key == "live_not_open"


def test_number_answer_is_judged_by_the_core(store):
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    student = store.join(code)
    answer = store.submit(code, student.token, number, f"{_ndcg3():.2f}")
    assert answer.correct and answer.value == pytest.approx(round(_ndcg3(), 2))


def test_later_answer_replaces_earlier_one(store):
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    student = store.join(code)
    store.submit(code, student.token, number, "0.5")
    store.submit(code, student.token, number, "0.9")
    assert [a.value for a in store.answers(code, number, key=key)] == [0.9]


def test_answer_after_close_is_refused_and_earlier_kept(store):
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    student = store.join(code)
    store.submit(code, student.token, number, "0.5")
    store.close_question(code, key, number)
    with pytest.raises(nc.NDCGInputError) as caught:
        store.submit(code, student.token, number, "0.9")
    assert caught.value.key == "live_closed"
    assert [a.value for a in store.answers(code, number, key=key)] == [0.5]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("inf", "answer_not_finite"),
        ("nan", "answer_not_finite"),
        ("abc", "answer_not_a_number"),
        ("1 2", "answer_too_many"),
    ],
)
def test_invalid_number_is_refused_and_not_stored(store, text, key):
    code, teacher, number = _class_with_question(store)
    store.open_question(code, teacher, number)
    student = store.join(code)
    with pytest.raises(nc.NDCGInputError) as caught:
        store.submit(code, student.token, number, text)
    assert caught.value.key == key
    assert store.answers(code, number, key=teacher) == []


@pytest.mark.parametrize(
    "order", [["D1", "D2", "D3", "D4"], ["D1", "D1", "D2", "D3", "D4"], ["D1", "D2", "D3", "D4", "X"]]
)
def test_ranking_that_is_not_a_permutation_is_refused(store, order):
    code, key, number = _class_with_question(store, "ideal_order", None)
    store.open_question(code, key, number)
    student = store.join(code)
    with pytest.raises(nc.NDCGInputError) as caught:
        store.submit(code, student.token, number, order)
    assert caught.value.key == "not_permutation"
    assert store.answers(code, number, key=key) == []


def test_ranking_answer_scores_its_ndcg(store):
    code, key, number = _class_with_question(store, "ideal_order", None)
    store.open_question(code, key, number)
    student = store.join(code)
    # grades in the order given: 1, 3, 2, 0, 0; ideal 3, 2, 1, 0, 0 (linear gain, log2)
    answer = store.submit(code, student.token, number, ["D5", "D1", "D2", "D3", "D4"])
    import math

    dcg = 1 + 3 / math.log2(3) + 2 / 2
    idcg = 3 + 2 / math.log2(3) + 1 / 2
    assert not answer.correct and answer.score == pytest.approx(dcg / idcg)


def test_choice_answer_outside_options_is_refused(store):
    code, key, number = _class_with_question(store, "compare", None)
    store.open_question(code, key, number)
    student = store.join(code)
    with pytest.raises(nc.NDCGInputError) as caught:
        store.submit(code, student.token, number, "<b>C</b>")
    assert caught.value.key == "unknown_option"


def test_compare_answer_is_judged(store):
    # A = 3, 2, 0, 0, 1; B swaps the ends: 1, 2, 0, 0, 3, whose nDCG is lower
    code, key, number = _class_with_question(store, "compare", None)
    store.open_question(code, key, number)
    student = store.join(code)
    assert store.submit(code, student.token, number, "A").correct


def test_opening_a_question_closes_the_open_one(store):
    code, key, first = _class_with_question(store)
    second = store.add_question(code, key, questions.spec_from_ranking("compare", *RANKING))
    store.open_question(code, key, first)
    store.open_question(code, key, second)
    assert [q.state for q in store.questions(code)] == ["closed", "open"]


def test_current_question_is_the_last_opened(store, clock):
    code, key, first = _class_with_question(store)
    second = store.add_question(code, key, questions.spec_from_ranking("compare", *RANKING))
    store.open_question(code, key, second)
    clock.now += 5
    store.open_question(code, key, first)
    assert store.current(code).number == first


def test_reveal_closes_the_question(store):
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    store.reveal(code, key, number)
    student = store.join(code)
    with pytest.raises(nc.NDCGInputError) as caught:
        store.submit(code, student.token, number, "0.9")
    assert (store.questions(code)[0].state, caught.value.key) == ("revealed", "live_closed")


def test_ended_class_refuses_answers_and_new_students(store):
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    student = store.join(code)
    store.end_class(code, key)
    with pytest.raises(nc.NDCGInputError) as answer_refused:
        store.submit(code, student.token, number, "0.9")
    with pytest.raises(nc.NDCGInputError) as join_refused:
        store.join(code)
    assert (answer_refused.value.key, join_refused.value.key) == ("live_closed", "live_ended")


def test_student_flood_is_rate_limited(database_url, clock):
    store = LiveStore(database_url, clock=clock, student_limit=RateLimit(burst=3, per_second=1.0))
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    student = store.join(code)
    for _ in range(3):
        store.submit(code, student.token, number, "0.5")
    with pytest.raises(nc.NDCGInputError) as caught:
        store.submit(code, student.token, number, "0.5")
    clock.now += 1.0  # one token back
    store.submit(code, student.token, number, "0.6")
    store.dispose()
    assert caught.value.key == "live_rate_limited"


def test_teacher_flood_is_rate_limited(database_url, clock):
    store = LiveStore(database_url, clock=clock, teacher_limit=RateLimit(burst=2, per_second=0.5))
    code, key, number = _class_with_question(store)  # one action taken
    store.open_question(code, key, number)
    with pytest.raises(nc.NDCGInputError) as caught:
        store.close_question(code, key, number)
    store.dispose()
    assert caught.value.key == "live_rate_limited"


def test_answers_survive_a_new_store_on_the_same_database(database_url):
    first = LiveStore(database_url)
    code, key, number = _class_with_question(first)
    first.open_question(code, key, number)
    student = first.join(code)
    first.submit(code, student.token, number, "0.9")
    first.dispose()  # the server stops
    second = LiveStore(database_url)
    values = [a.value for a in second.answers(code, number, key=key)]
    second.dispose()
    assert values == [0.9]


def test_export_csv_lists_questions_and_counts(store):
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    for text in ("0.9", "0.2"):
        store.submit(code, store.join(code).token, number, text)
    rows = store.export_csv(code, key).decode("utf-8-sig").splitlines()
    header, row = rows[0].split(","), rows[1].split(",")
    assert dict(zip(header, row, strict=True))["answers"] == "2"
    assert dict(zip(header, row, strict=True))["correct"] == "1"
    assert dict(zip(header, row, strict=True))["kind"] == "ndcg"


def test_export_csv_escapes_formula_names(store):
    code, key = store.create_class()
    store.add_question(code, key, questions.spec_from_ranking("ndcg", [1, 0], ["=cmd()", "B"]))
    assert "'=cmd()" in store.export_csv(code, key).decode("utf-8-sig")


def test_own_words_are_stored_exported_and_asked_again(store):
    """The teacher's words travel with the question: into the CSV (a leading = kept as text)
    and into a re-asked copy."""
    code, key = store.create_class()
    spec = questions.with_text(questions.spec_from_ranking("compare", *RANKING), "=Which list, A or B?")
    number = store.add_question(code, key, spec)
    store.open_question(code, key, number)
    store.reveal(code, key, number)
    store.reask(code, key, number)
    assert [q.spec["text"] for q in store.questions(code)] == ["=Which list, A or B?"] * 2
    rows = list(csv.DictReader(store.export_csv(code, key).decode("utf-8-sig").splitlines()))
    assert [row["text"] for row in rows] == ["'=Which list, A or B?"] * 2


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("x" * (questions.MAX_TEXT + 1), "live_text_too_long"),
        ("two\nlines", "live_text_control"),
        ("bidi\u202eflip", "live_text_control"),
        ("   ", "unknown_option"),  # stored specs carry no empty words
        (12, "unknown_option"),
    ],
)
def test_store_refuses_own_words_the_widget_would_not_send(store, text, key):
    """The 200-character box is only the browser's limit: the store checks the spec it is sent."""
    code, key_ = store.create_class()
    spec = {**questions.spec_from_ranking("ndcg", *RANKING), "text": text}
    with pytest.raises(nc.NDCGInputError) as caught:
        store.add_question(code, key_, spec)
    assert caught.value.key == key and store.questions(code) == []


def test_own_words_of_the_most_characters_are_kept():
    assert questions.check_text(" " + "字" * questions.MAX_TEXT + " ") == "字" * questions.MAX_TEXT


def test_time_limit_closes_the_question_by_itself(store, clock):
    """Opened for 30 s: answers are taken until the 30th second, refused from then on; every
    reader sees it closed then, and the time it closed is the limit's, not the next click's."""
    code, key, number = _class_with_question(store)
    student = store.join(code)
    store.open_question(code, key, number, seconds=30)
    opened = clock.now
    assert (store.current(code).state, store.current(code).closes_at) == ("open", opened + 30)
    clock.now += 29.5
    store.submit(code, student.token, number, "0.9")
    clock.now += 0.5
    with pytest.raises(nc.NDCGInputError) as caught:
        store.submit(code, student.token, number, "0.8")
    assert caught.value.key == "live_closed"
    assert [(q.state, q.closes_at) for q in store.questions(code)] == [("closed", None)]
    assert store.current(code).state == "closed"
    assert [a.value for a in store.answers(code, number, key=key)] == [0.9]
    clock.now += 100
    store.reveal(code, key, number)
    with store.engine.connect() as conn:
        closed_at = conn.execute(sa.text("SELECT closed_at FROM live_question")).scalar_one()
    assert closed_at == opened + 30 and store.current(code).state == "revealed"


def test_time_limit_is_dropped_by_close_and_by_opening_again(store, clock):
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number, seconds=60)
    store.close_question(code, key, number)
    store.open_question(code, key, number)  # again, with no limit
    clock.now += 3600
    assert (store.current(code).state, store.current(code).closes_at) == ("open", None)
    store.submit(code, store.join(code).token, number, "0.9")


def test_opening_another_question_keeps_the_time_a_limit_ran_out(store, clock):
    code, key, first = _class_with_question(store)
    second = store.add_question(code, key, questions.spec_from_ranking("ndcg", *RANKING))
    store.open_question(code, key, first, seconds=10)
    limit_end = clock.now + 10
    clock.now += 50
    store.open_question(code, key, second, seconds=5)
    with store.engine.connect() as conn:
        times = conn.execute(sa.text("SELECT closed_at FROM live_question ORDER BY number")).scalars().all()
    assert times == [limit_end, clock.now + 5]
    assert [q.state for q in store.questions(code)] == ["closed", "open"]


@pytest.mark.parametrize("seconds", [0, 4.9, 3601, -30, float("nan"), float("inf"), True, "60"])
def test_time_limit_outside_5_s_to_an_hour_is_refused(store, seconds):
    code, key, number = _class_with_question(store)
    with pytest.raises(nc.NDCGInputError) as caught:
        store.open_question(code, key, number, seconds=seconds)
    assert caught.value.key == "live_bad_time_limit"
    assert store.questions(code)[0].state == "ready"


def test_export_has_no_student_token(store):
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    student = store.join(code)
    store.submit(code, student.token, number, "0.9")
    assert student.token.encode() not in store.export_csv(code, key)


def test_default_url_is_a_sqlite_file_in_the_users_data_folder(monkeypatch, tmp_path):
    """Never inside the installed package or the checkout: XDG_DATA_HOME/ndcg-lab on Linux."""
    from ndcg_live.store import DATABASE_URL_ENV, default_url

    monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    assert default_url() == f"sqlite:///{tmp_path / 'share' / 'ndcg-lab' / 'live.sqlite3'}"


def test_database_url_setting_wins(monkeypatch):
    from ndcg_live.store import DATABASE_URL_ENV, default_url

    monkeypatch.setenv(DATABASE_URL_ENV, "postgresql+psycopg://lab@db/ndcg")
    assert default_url() == "postgresql+psycopg://lab@db/ndcg"


def test_a_class_of_sixty_joins_at_once_after_the_teacher_acted(database_url):
    # the teacher's actions and the joins share the class's bucket: the teacher's actions
    # must not shrink it below a class joining at once (found by the two-process test in CI)
    store = LiveStore(database_url)
    code, key = store.create_class()
    number = store.add_question(
        code, key, questions.spec_from_ranking("ideal_order", [3, 2, 0, 0, 1], ["D1", "D2", "D3", "D4", "D5"])
    )
    store.open_question(code, key, number)
    joined = [store.join(code) for _ in range(60)]
    assert store.class_info(code).n_students == len(joined) == 60
    store.dispose()


# ----------------------------------------------------------------------------- page predictions


def _predict_class(store: LiveStore, prompt: str = "lesson.dcg") -> tuple[str, str, int]:
    code, key = store.create_class()
    spec = questions.spec_from_prompt(prompt, relevance=RANKING[0], labels=RANKING[1], k=3)
    number = store.add_question(code, key, spec)
    store.open_question(code, key, number)
    return code, key, number


def test_predict_spec_round_trips_through_the_store(store):
    code, _key, _number = _predict_class(store)
    spec = store.questions(code)[0].spec
    assert spec == {
        "origin": "page",
        "kind": "predict",
        "prompt": "lesson.dcg",
        "relevance": RANKING[0],
        "labels": RANKING[1],
        "k": 3,
        "gain": "linear",
        "discount": "log2",
    }


def test_predict_spec_of_a_fixed_example_keeps_no_ranking(store):
    code, _key, _number = _predict_class(store, "blind.padding")
    assert "relevance" not in store.questions(code)[0].spec


def test_predict_answer_is_judged_by_the_pages_rule(store):
    code, key, number = _predict_class(store)
    right = store.submit(code, store.join(code).token, number, "cg")  # CG@3 = 5 > DCG@3 = 4.2619
    wrong = store.submit(code, store.join(code).token, number, "equal")
    assert (right.correct, wrong.correct) == (True, False)
    assert [a.value for a in store.answers(code, number, key=key)] == ["cg", "equal"]


def test_predict_answer_outside_the_prompts_options_is_refused(store):
    code, key, number = _predict_class(store)
    with pytest.raises(nc.NDCGInputError) as err:
        store.submit(code, store.join(code).token, number, "A")  # an option of another question
    assert err.value.key == "unknown_option" and store.answers(code, number, key=key) == []


def test_predict_unknown_prompt_is_refused_when_added(store):
    code, key = store.create_class()
    spec = {
        "origin": "page",
        "kind": "predict",
        "prompt": "lesson.nope",
        "gain": "linear",
        "discount": "log2",
    }
    with pytest.raises(nc.NDCGInputError) as err:
        store.add_question(code, key, spec)
    assert err.value.key == "live_unknown_prompt" and store.questions(code) == []


def test_predict_stored_spec_with_unknown_prompt_is_refused_when_loaded(store):
    code, key, number = _predict_class(store)
    with store.engine.begin() as conn:  # a spec another version stored, or a forged one
        conn.execute(
            sa.text("UPDATE live_question SET spec = :spec"),
            {"spec": '{"kind": "predict", "prompt": "lesson.gone", "gain": "linear", "discount": "log2"}'},
        )
    spec = store.questions(code)[0].spec
    with pytest.raises(nc.NDCGInputError) as err:
        questions.check(spec)
    assert err.value.key == "live_unknown_prompt"
    with pytest.raises(nc.NDCGInputError):
        store.submit(code, store.join(code).token, number, "cg")
    assert "lesson.gone" in store.export_csv(code, key).decode("utf-8-sig")  # listed, not a crash


def test_predict_export_lists_prompt_and_right_option(store):
    code, key, number = _predict_class(store)
    store.submit(code, store.join(code).token, number, "cg")
    rows = store.export_csv(code, key).decode("utf-8-sig").splitlines()
    row = dict(zip(rows[0].split(","), rows[1].split(","), strict=True))
    assert (row["kind"], row["prompt"], row["expected"], row["correct"]) == (
        "predict",
        "lesson.dcg",
        "cg",
        "1",
    )


# ----------------------------------------------------------------------------- class control (part two)


def test_teacher_acts_while_joins_flood_the_class(database_url, clock):
    """The teacher's actions have their own bucket: a flood of joins never blocks Open/Close."""
    store = LiveStore(database_url, clock=clock, join_limit=RateLimit(burst=5, per_second=1.0))
    code, key, number = _class_with_question(store)
    for _ in range(5):
        store.join(code)
    with pytest.raises(nc.NDCGInputError) as flooded:
        store.join(code)
    store.open_question(code, key, number)
    store.close_question(code, key, number)
    store.dispose()
    assert flooded.value.key == "live_rate_limited"


def test_joins_from_one_address_are_limited_and_others_still_join(database_url, clock):
    store = LiveStore(database_url, clock=clock, address_limit=RateLimit(burst=3, per_second=0.5))
    code, _key = store.create_class()
    for _ in range(3):
        store.join(code, client="203.0.113.7")
    with pytest.raises(nc.NDCGInputError) as caught:
        store.join(code, client="203.0.113.7")
    other = store.join(code, client="198.51.100.2")
    store.dispose()
    assert (caught.value.key, other.number) == ("live_rate_limited", 4)


def test_a_class_of_three_hundred_joins_behind_one_school_address(database_url, clock):
    """300 students behind one address, arriving over 25 s (a lecture hall scanning the QR
    code), all join with the default limits (at 120 and then 6 a second, 30 were refused)."""
    store = LiveStore(database_url, clock=clock)
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    for _ in range(300):
        store.join(code, client="192.0.2.1")
        clock.now += 25 / 300
    assert store.class_info(code).n_students == 300
    store.dispose()


def test_one_address_cannot_take_more_than_its_share_of_the_class(database_url, clock):
    store = LiveStore(database_url, clock=clock)
    code, _key = store.create_class()
    refused = None
    for _ in range(LIVE_MAX + 5):
        clock.now += 10.0  # slow enough for every bucket
        try:
            store.join(code, client="192.0.2.9")
        except nc.NDCGInputError as err:
            refused = err
            break
    n = store.class_info(code).n_students
    store.dispose()
    assert (
        refused is not None
        and refused.key == "live_address_full"
        and n == getattr(live_store, "MAX_PER_ADDRESS", None)
    )


def test_locked_class_refuses_new_students_and_keeps_joined_ones(store):
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    first = store.join(code)
    store.lock_joining(code, key, locked=True)
    with pytest.raises(nc.NDCGInputError) as caught:
        store.join(code)
    again = store.join(code, first.token)
    store.submit(code, first.token, number, "0.9")
    store.lock_joining(code, key, locked=False)
    later = store.join(code)
    assert (caught.value.key, again.number, later.number) == ("live_locked", 1, 2)
    assert store.class_info(code).locked is False


def test_lock_needs_the_teacher_key(store):
    code, _key = store.create_class()
    with pytest.raises(nc.NDCGInputError) as caught:
        store.lock_joining(code, "wrong", locked=True)
    assert caught.value.key == "live_wrong_key"


def test_removed_students_lose_their_answers_and_their_seat(store):
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    team = [store.join(code) for _ in range(5)]
    for s in team:
        store.submit(code, s.token, number, "0.5")
    removed = store.remove_students(code, key, 2, 4)
    with pytest.raises(nc.NDCGInputError) as caught:
        store.submit(code, team[2].token, number, "0.5")
    with pytest.raises(nc.NDCGInputError) as rejoin:
        store.join(code, team[2].token)
    info = store.class_info(code)
    assert removed == 3 and len(store.answers(code, number, key=key)) == 2
    assert (caught.value.key, rejoin.value.key) == ("live_removed", "live_removed")
    assert info.n_students == 2 and store.join(code).number == 6


def test_removing_frees_the_seats_of_a_full_class(database_url, clock):
    store = LiveStore(database_url, clock=clock)
    code, key = store.create_class()
    for _ in range(LIVE_MAX):
        clock.now += 0.5
        store.join(code)
    with pytest.raises(nc.NDCGInputError) as full:
        store.join(code)
    store.remove_students(code, key, 1, 10)
    clock.now += 1.0
    back = store.join(code)
    store.dispose()
    assert full.value.key == "live_full" and back.number == LIVE_MAX + 1


def test_join_stats_count_the_last_minute(store, clock):
    code, key = store.create_class()
    store.join(code)
    clock.now += 120
    for _ in range(4):
        store.join(code)
        clock.now += 5
    stats = store.join_stats(code, key)
    assert (stats.students, stats.last_minute, stats.locked) == (5, 4, False)


@pytest.mark.parametrize(
    ("answer", "key"),
    [
        ("0.5" + " " * 5000, "live_answer_too_long"),
        ("0" * 41, "live_answer_too_long"),
        (["D1"] * 5000, "live_answer_too_many"),
        (["x" * 5000, "D2", "D3", "D4", "D5"], "live_answer_too_long"),
    ],
    ids=["spaces", "digits", "long-list", "long-name"],
)
def test_submit_enforces_the_answer_length_on_the_server(store, answer, key):
    code, teacher, number = _class_with_question(store)
    store.open_question(code, teacher, number)
    student = store.join(code)
    with pytest.raises(nc.NDCGInputError) as caught:
        store.submit(code, student.token, number, answer)
    assert caught.value.key == key
    assert store.answers(code, number, key=teacher) == []


def test_answers_are_hidden_from_the_room_until_the_reveal(store):
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    store.submit(code, store.join(code).token, number, "0.9")
    with pytest.raises(nc.NDCGInputError) as hidden:
        store.answers(code, number)
    teacher_sees = len(store.answers(code, number, key=key))
    store.reveal(code, key, number)
    assert hidden.value.key == "live_hidden"
    assert (teacher_sees, len(store.answers(code, number))) == (1, 1)
    assert store.current(code).n_answers == 1  # the count is never hidden


def test_teacher_may_show_answers_in_the_room_before_the_reveal(store):
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    store.submit(code, store.join(code).token, number, "0.9")
    store.show_live(code, key, show=True)
    assert len(store.answers(code, number)) == 1 and store.class_info(code).show_live


def test_compare_question_carries_the_teachers_k(store):
    """With k = 3 the reveal compares nDCG@3 (0.8950 vs 0.4750), not the whole lists (0.9762 vs 0.7187)."""
    spec = questions.spec_from_ranking("compare", *RANKING, k=3)
    e = questions.exercise(spec)
    a = (3 + 2 / math.log2(3)) / (3 + 2 / math.log2(3) + 1 / 2)  # A = 3, 2, 0
    b = (1 + 2 / math.log2(3)) / (3 + 2 / math.log2(3) + 1 / 2)  # B = 1, 2, 0 (ideal 3, 2, 1)
    assert spec["k"] == 3 and e.k == 3
    assert questions._ndcg(list(e.relevance), 3, "linear", "log2") == pytest.approx(a, abs=1e-12)
    assert questions._ndcg(list(e.other or ()), 3, "linear", "log2") == pytest.approx(b, abs=1e-12)
    assert (round(a, 4), round(b, 4)) == (0.895, 0.475)


def test_ideal_order_question_stays_about_the_whole_list(store):
    assert questions.spec_from_ranking("ideal_order", *RANKING, k=3)["k"] is None


def test_schema_version_two_adds_the_class_controls(store):
    assert store.schema_version() == 2


def test_version_one_database_is_brought_to_version_two(database_url, clock):
    """A class made under version 1 keeps its students and gets the new columns and table."""
    first = LiveStore(database_url, clock=clock)
    code, key = first.create_class()
    student = first.join(code)
    with first.engine.begin() as conn:  # back to version 1's schema
        conn.exec_driver_sql("DROP TABLE live_client")
        for table, columns in live_store._V2_COLUMNS.items():
            for column in columns:
                conn.exec_driver_sql(f"ALTER TABLE {table} DROP COLUMN {column}")
        conn.exec_driver_sql("UPDATE schema_version SET version = 1")
    first.dispose()
    second = LiveStore(database_url, clock=clock)
    second.lock_joining(code, key, locked=True)
    again = second.join(code, student.token, client="192.0.2.1")
    info, version = second.class_info(code), second.schema_version()
    second.dispose()
    assert (version, again.number, info.locked, info.n_students) == (2, 1, True, 1)


def test_export_answers_csv_has_every_answer_value(store):
    # issue 22, item 7: every answer's value, not only the counts
    code, key, number = _class_with_question(store)
    store.open_question(code, key, number)
    first, second = store.join(code), store.join(code)
    store.submit(code, first.token, number, "0.9")
    store.submit(code, second.token, number, "0,2")
    order = store.add_question(code, key, questions.spec_from_ranking("ideal_order", *RANKING))
    store.open_question(code, key, order)
    store.submit(code, second.token, order, ["D1", "D2", "D5", "D3", "D4"])
    text = store.export_answers_csv(code, key).decode("utf-8-sig")
    rows = [line.split(",") for line in text.splitlines()]
    assert rows[0] == ["question", "student", "value", "correct", "score", "submitted_at"]
    assert [r[:4] for r in rows[1:]] == [
        ["1", "1", "0.9", "1"],
        ["1", "2", "0.2", "0"],
        ["2", "2", "D1 D2 D5 D3 D4", "1"],
    ]
    assert float(rows[3][4]) == 1.0
    assert first.token not in text and second.token not in text


def test_export_answers_csv_checks_the_key(store):
    code, _key, _number = _class_with_question(store)
    with pytest.raises(nc.NDCGInputError) as caught:
        store.export_answers_csv(code, "wrong")
    assert caught.value.key == "live_wrong_key"


def test_reask_copies_a_question_as_a_new_one(store):
    code, key, number = _class_with_question(store, "compare")
    store.open_question(code, key, number)
    store.submit(code, store.join(code).token, number, "A")
    store.reveal(code, key, number)
    again = store.reask(code, key, number)
    asked = store.questions(code)
    assert again == number + 1 and asked[1].spec == asked[0].spec
    assert (asked[1].state, asked[1].n_answers) == ("ready", 0)
    with pytest.raises(nc.NDCGInputError) as caught:
        store.reask(code, "wrong", number)
    assert caught.value.key == "live_wrong_key"


# ----------------------------------------------------------------- a phone's reads (#22 item 15)


def test_phone_reads_the_student_the_question_and_their_answer_at_once(store):
    code, key, number = _class_with_question(store)
    first = store.phone(code.lower(), None, client="10.0.0.1")  # a new student joins
    assert (first.code, first.student.number, first.question, first.answer) == (code, 1, None, None)
    store.open_question(code, key, number)
    store.submit(code, first.student.token, number, "0.5")
    other = store.join(code)
    store.submit(code, other.token, number, "0.9")
    seen = store.phone(code, first.student.token)
    assert seen.student == first.student
    assert (seen.question.number, seen.question.state, seen.question.n_answers) == (number, "open", 2)
    assert (seen.answer.value, seen.answer.correct) == (0.5, False)  # their own, not the other's
    assert seen.question == store.current(code)
    assert seen.answer == store.own_answer(code, first.student.token, number)


def test_phone_with_an_unknown_token_joins_as_a_new_student(store):
    code, _ = store.create_class()
    store.join(code)
    seen = store.phone(code, "made-up-token")
    assert seen.student.number == 2 and seen.student.token != "made-up-token"
    assert store.phone(code, seen.student.token).student == seen.student  # and stays that student


def test_phone_refuses_as_join_does(store):
    code, key = store.create_class()
    removed = store.join(code)
    store.remove_students(code, key, removed.number, removed.number)
    store.end_class(code, key)
    refused = {}
    for name, call in {
        "no class": lambda: store.phone("NOSUCH", None),
        "removed": lambda: store.phone(code, removed.token),
        "ended, new": lambda: store.phone(code, None),
    }.items():
        with pytest.raises(nc.NDCGInputError) as caught:
            call()
        refused[name] = caught.value.key
    assert refused == {"no class": "live_no_class", "removed": "live_removed", "ended, new": "live_ended"}


def test_shown_is_the_current_questions_number_and_state(store, clock):
    code, key, number = _class_with_question(store)
    assert store.shown(code) is None
    store.open_question(code, key, number, seconds=30)
    assert store.shown(code.lower()) == (number, "open")
    clock.now += 31  # its time ran out: closed, as current() says
    assert store.shown(code) == (number, "closed") == (store.current(code).number, store.current(code).state)


def test_shown_with_max_age_reads_once_in_that_time(database_url, clock):
    teacher, server = LiveStore(database_url, clock=clock), LiveStore(database_url, clock=clock)
    try:
        code, key = teacher.create_class()
        number = teacher.add_question(code, key, questions.spec_from_ranking("ndcg", *RANKING, k=3))
        assert server.shown(code, max_age=0.5) is None
        teacher.open_question(code, key, number)  # through another server: not seen at once
        clock.now += 0.4
        assert server.shown(code, max_age=0.5) is None
        assert server.shown(code) == (number, "open")  # max_age 0: read now
        teacher.close_question(code, key, number)
        clock.now += 0.4
        assert server.shown(code, max_age=0.5) == (number, "open")  # the copy read 0.4 s ago
        clock.now += 0.2
        assert server.shown(code, max_age=0.5) == (number, "closed")  # 0.6 s: read again
        server.reveal(code, key, number)  # through this server: its copy is dropped at once
        assert server.shown(code, max_age=0.5) == (number, "revealed")
    finally:
        teacher.dispose()
        server.dispose()


def test_exercise_is_computed_once_per_spec_and_each_spec_gets_its_own():
    at_3 = questions.spec_from_ranking("ndcg", *RANKING, k=3)
    again = questions.spec_from_ranking("ndcg", *RANKING, k=3)
    whole = questions.spec_from_ranking("ndcg", *RANKING, k=None)
    assert questions.exercise(at_3) is questions.exercise(again)  # kept: every phone's run shows it
    assert questions.exercise(at_3).answer == pytest.approx(_ndcg3(), abs=1e-12)
    ideal = 3 + 2 / math.log2(3) + 1 / 2 + 0 + 0
    assert questions.exercise(whole).answer == pytest.approx(
        (ideal - 1 / 2 + 1 / math.log2(6)) / ideal, abs=1e-12
    )
    at_3["relevance"] = [0.0, 0.0, 0.0, 0.0, 3.0]  # a spec changed in place is another spec
    assert questions.exercise(at_3).answer == 0.0
