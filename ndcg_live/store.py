"""The live class's storage and rules, in a database (SQLAlchemy 2): no streamlit here.

One :class:`LiveStore` per process and database; every app server of a class opens the same
database, so two servers behind one address see the same classes, questions and answers.

- **Where**: ``NDCG_LAB_DATABASE_URL`` (any SQLAlchemy URL, e.g.
  ``postgresql+psycopg://user@host/db``), else a SQLite file ``data/live.sqlite3`` next to
  the app (git-ignored), created on first use, in WAL mode so that readers (the room's
  histogram) never wait for a writer.
- **Schema**: :data:`MIGRATIONS`, applied in order on first use; the applied version is kept
  in the table ``schema_version`` (one row).
- **Rules**: a class is found by its join code while it is active: it expires
  :data:`DEFAULT_TTL` seconds after its last activity, ended or not (expired classes are
  deleted). Every control action checks the teacher key (stored as a SHA-256 hash, compared in
  constant time). One answer per student and question: a later one replaces it while the
  question is open; answers to a question that is not open are refused. Answers are checked
  by the core (:func:`ndcg_live.questions.judge`) and stored only when valid, and never longer
  than :data:`MAX_ANSWER_CHARS` characters (an order: :data:`questions.MAX_ITEMS` names of at
  most :data:`MAX_NAME_CHARS`), whatever the widget allowed.
- **Limits**: token buckets (:class:`RateLimit`) kept in the rows, so they hold across servers:
  one per student (answers), one per class for joins, one per client address and class for
  joins (an address also joins at most :data:`MAX_PER_ADDRESS` students, above a class's size:
  a whole class may sit behind one school address), and the teacher's own (their actions never
  wait for a flood of joins). A class takes at most :data:`MAX_STUDENTS` students at a time.
- **The teacher's controls**: lock joining (returning students stay), remove students (their
  answers go, their links stop working, their seats are free again), and whether the room sees
  the answers before the reveal (by default it sees only their count: the room's link needs
  no key, so anyone with it would watch the answers come in).
- **Concurrency**: a write takes the row of its class (``SELECT ... FOR UPDATE`` on
  PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite), so a close and an answer never cross.

Every refusal is an :class:`ndcg_core.NDCGInputError` with a ``live_*`` key, shown translated.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import hmac
import io
import json
import numbers
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import platformdirs
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql.elements import ClauseElement

from ndcg_core.validate import NDCGInputError, fail

from . import questions

__all__ = [
    "DATABASE_URL_ENV",
    "DEFAULT_TTL",
    "MAX_ANSWER_CHARS",
    "MAX_PER_ADDRESS",
    "MAX_STUDENTS",
    "MIGRATIONS",
    "RETRY_DELAYS",
    "STATES",
    "TIME_LIMITS",
    "Answer",
    "ClassInfo",
    "JoinStats",
    "LiveStore",
    "QuestionInfo",
    "RateLimit",
    "Student",
    "default_url",
]

#: The environment variable with the database's SQLAlchemy URL.
DATABASE_URL_ENV = "NDCG_LAB_DATABASE_URL"
#: Seconds after its last activity that a class and its answers are kept (24 hours).
DEFAULT_TTL = 24 * 3600.0
#: The states of a question, in the order it goes through them.
STATES: tuple[str, ...] = ("ready", "open", "closed", "revealed")
#: Join codes: 6 characters without look-alikes (no 0/O, 1/I/L), ~31^6 ≈ 8.9e8 codes.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
#: Limits of one class (a flood of joins or questions stops here).
MAX_STUDENTS = 500
MAX_QUESTIONS = 100
#: Students one client address may add to a class: above a class's size (a whole class may
#: join through one school address), below :data:`MAX_STUDENTS` (one address never fills it).
MAX_PER_ADDRESS = 400
#: The longest answer stored: a typed number (the phone's field allows as many).
MAX_ANSWER_CHARS = 40
#: The longest item name in an answer (the core's limit of a label).
MAX_NAME_CHARS = 60
#: Secrets and addresses longer than this are not ours (a token is 16 characters, a key 24).
MAX_SECRET_CHARS = 128
#: The shortest and longest time limit of an open question, in seconds (5 s to an hour).
TIME_LIMITS: tuple[int, int] = (5, 3600)


def default_sqlite() -> Path:
    """The default database: a SQLite file in the user's data folder (``~/.local/share/ndcg-lab``
    on Linux, by platformdirs), never inside the installed package or the checkout."""
    return platformdirs.user_data_path("ndcg-lab") / "live.sqlite3"


def default_url() -> str:
    """``NDCG_LAB_DATABASE_URL``, else the SQLite file :func:`default_sqlite`."""
    return os.environ.get(DATABASE_URL_ENV, "").strip() or f"sqlite:///{default_sqlite()}"


@dataclass(frozen=True, slots=True)
class RateLimit:
    """A token bucket: ``burst`` actions at once, then ``per_second`` actions a second."""

    burst: float
    per_second: float


# --------------------------------------------------------------------------- schema

metadata = sa.MetaData()

schema_version = sa.Table("schema_version", metadata, sa.Column("version", sa.Integer, nullable=False))

classes = sa.Table(
    "live_class",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(16), nullable=False, unique=True),
    sa.Column("key_hash", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("last_activity", sa.Float, nullable=False, index=True),
    sa.Column("ended_at", sa.Float),
    sa.Column("n_students", sa.Integer, nullable=False, default=0),
    sa.Column("tokens", sa.Float, nullable=False),
    sa.Column("tokens_at", sa.Float, nullable=False),
    # version 2: the teacher's controls and the teacher's own bucket (NULL: full)
    sa.Column("locked", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("show_live", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("teacher_tokens", sa.Float),
    sa.Column("teacher_tokens_at", sa.Float),
)

questions_table = sa.Table(
    "live_question",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("class_id", sa.Integer, sa.ForeignKey("live_class.id", ondelete="CASCADE"), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("spec", sa.Text, nullable=False),
    sa.Column("state", sa.String(16), nullable=False),
    sa.Column("opened_at", sa.Float),
    sa.Column("closed_at", sa.Float),
    sa.UniqueConstraint("class_id", "number"),
)

students = sa.Table(
    "live_student",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("class_id", sa.Integer, sa.ForeignKey("live_class.id", ondelete="CASCADE"), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("joined_at", sa.Float, nullable=False),
    sa.Column("tokens", sa.Float, nullable=False),
    sa.Column("tokens_at", sa.Float, nullable=False),
    # version 2: removed by the teacher (the row stays so that the token stays refused)
    sa.Column("removed_at", sa.Float),
    sa.UniqueConstraint("class_id", "token_hash"),
    sa.UniqueConstraint("class_id", "number"),
)

#: Version 2: the join bucket and count of each client address in a class (the address hashed
#: with the class, never stored as such).
clients = sa.Table(
    "live_client",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("class_id", sa.Integer, sa.ForeignKey("live_class.id", ondelete="CASCADE"), nullable=False),
    sa.Column("address_hash", sa.String(64), nullable=False),
    sa.Column("n_students", sa.Integer, nullable=False),
    sa.Column("tokens", sa.Float, nullable=False),
    sa.Column("tokens_at", sa.Float, nullable=False),
    sa.UniqueConstraint("class_id", "address_hash"),
)

#: The columns version 2 adds to version 1's tables.
_V2_COLUMNS: dict[str, tuple[str, ...]] = {
    "live_class": ("locked", "show_live", "teacher_tokens", "teacher_tokens_at"),
    "live_student": ("removed_at",),
}

answers = sa.Table(
    "live_answer",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column(
        "question_id", sa.Integer, sa.ForeignKey("live_question.id", ondelete="CASCADE"), nullable=False
    ),
    sa.Column("student_id", sa.Integer, sa.ForeignKey("live_student.id", ondelete="CASCADE"), nullable=False),
    sa.Column("value", sa.Text, nullable=False),
    sa.Column("correct", sa.Boolean, nullable=False),
    sa.Column("score", sa.Float),
    sa.Column("submitted_at", sa.Float, nullable=False),
    sa.UniqueConstraint("question_id", "student_id"),
)


def _migrate_1(conn: Connection) -> None:
    """Version 1: classes, questions, students, answers."""
    metadata.create_all(conn, tables=[classes, questions_table, students, answers], checkfirst=True)


#: The schema's migrations: version -> function that brings version - 1 to it. A new version
#: appends one (e.g. ``op``-free ``ALTER TABLE`` through ``conn.exec_driver_sql``), never edits one.
MIGRATIONS: dict[int, Callable[[Connection], None]] = {1: _migrate_1}


def _migrate_2(conn: Connection) -> None:
    """Version 2: the teacher's controls (lock, show the answers live, remove students), the
    teacher's own bucket, and a join bucket per client address (``live_client``).

    Version 1 creates its tables from the current definitions, so a database made fresh has
    these columns already: only the missing ones are added.
    """
    present = sa.inspect(conn)
    for name, added in _V2_COLUMNS.items():
        table = metadata.tables[name]
        have = {c["name"] for c in present.get_columns(name)}
        for column_name in added:
            if column_name in have:
                continue
            column = table.c[column_name]
            kind = column.type.compile(dialect=conn.dialect)
            extra = ""
            default = column.server_default
            if isinstance(default, sa.DefaultClause) and isinstance(default.arg, ClauseElement):
                extra = f" NOT NULL DEFAULT {default.arg.compile(dialect=conn.dialect)}"
            conn.exec_driver_sql(f"ALTER TABLE {name} ADD COLUMN {column_name} {kind}{extra}")
    metadata.create_all(conn, tables=[clients], checkfirst=True)


MIGRATIONS[2] = _migrate_2


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class ClassInfo:
    """A class as everyone may see it (never its teacher key)."""

    code: str
    created_at: float
    last_activity: float
    ended: bool
    n_students: int  # students in the class now (the removed ones not counted)
    locked: bool = False  # joining locked by the teacher
    show_live: bool = False  # the room sees the answers before the reveal


@dataclass(frozen=True, slots=True)
class JoinStats:
    """What the teacher sees of the joins: students now, removed, joined in the last minute."""

    students: int
    removed: int
    last_minute: int
    locked: bool


@dataclass(frozen=True, slots=True)
class QuestionInfo:
    """A question of a class: its number (1, 2, ...), its spec and state, its answer count, and
    for an open question with a time limit the time (the store's clock) it closes at."""

    id: int
    number: int
    spec: dict[str, Any]
    state: str
    n_answers: int
    closes_at: float | None = None


def _state(q: Any, now: float) -> str:
    """A stored question's state at ``now``: an open question whose time limit has run out
    is closed (its ``closed_at``, set when it opened, is then in the past)."""
    if q.state == "open" and q.closed_at is not None and q.closed_at <= now:
        return "closed"
    return str(q.state)


def _info(q: Any, n: int, now: float) -> QuestionInfo:
    state = _state(q, now)
    closes_at = float(q.closed_at) if state == "open" and q.closed_at is not None else None
    return QuestionInfo(q.id, q.number, json.loads(q.spec), state, int(n), closes_at)


def _closed_at(now: float) -> Any:
    """The ``closed_at`` of open questions closed at ``now``: a time limit that ran out earlier
    keeps its own time."""
    c = questions_table.c.closed_at
    return sa.case((c.is_not(None) & (c < now), c), else_=now)


def _check_limit(seconds: Any) -> float | None:
    """A time limit in seconds (None for none), refused outside :data:`TIME_LIMITS`."""
    if seconds is None:
        return None
    low, high = TIME_LIMITS
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, numbers.Real)
        or not low <= float(seconds) <= high  # nan compares false: refused too
    ):
        fail("live_bad_time_limit", low=low, high=high, got=str(seconds)[:20])
    return float(seconds)


@dataclass(frozen=True, slots=True)
class Student:
    """A student of a class: the anonymous number shown ("Student 7") and the secret token."""

    number: int
    token: str


@dataclass(frozen=True, slots=True)
class Answer:
    """One stored answer (no student identity: the room sees only these)."""

    value: float | list[str] | str
    correct: bool
    score: float | None
    submitted_at: float


@dataclass(frozen=True, slots=True)
class Phone:
    """What a student's page shows, read in one go: the class's code as stored, the student,
    the question everyone looks at (None before the first opens) and the student's answer to it."""

    code: str
    student: Student
    question: QuestionInfo | None
    answer: Answer | None


#: Classes whose :meth:`LiveStore.shown` a store keeps a copy of (then it starts again).
MAX_SHOWN_KEPT = 1000

#: Seconds between the tries of an operation whose database did not answer (a restart, a
#: network hiccup, a locked SQLite file): about 2 s in all, then ``live_unavailable``.
RETRY_DELAYS: tuple[float, ...] = (0.2, 0.5, 1.2)

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _retrying(method: Callable[Concatenate[LiveStore, _P], _R]) -> Callable[Concatenate[LiveStore, _P], _R]:
    """Run ``method`` again, after :data:`RETRY_DELAYS`, while the database does not answer
    (SQLAlchemy's ``OperationalError`` or ``InterfaceError``: its connection refused or lost);
    then refuse with ``live_unavailable``, which a page says in its language. Each try is a
    whole transaction: nothing half-done stays behind a failed one."""

    @functools.wraps(method)
    def run(self: LiveStore, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        for delay in (*self.retry_delays, None):
            try:
                return method(self, *args, **kwargs)
            except (sa.exc.OperationalError, sa.exc.InterfaceError):
                if delay is None:
                    break
                time.sleep(delay)
        fail("live_unavailable")

    return run


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _code(code: Any) -> str:
    """A join code as classes are found by: typed with spaces or in lower case, cut to 16."""
    return str(code).strip().upper()[:16]


#: What an :class:`Answer` is read from.
_ANSWER_COLUMNS = (answers.c.value, answers.c.correct, answers.c.score, answers.c.submitted_at)


def _answer(row: Any) -> Answer:
    return Answer(json.loads(row.value), bool(row.correct), row.score, float(row.submitted_at))


def _check_key(row: Any, key: str | None) -> None:
    """Refuse (``live_wrong_key``) unless ``key`` is the teacher key of the class ``row``."""
    if not key or len(str(key)) > MAX_SECRET_CHARS or not hmac.compare_digest(row.key_hash, _hash(str(key))):
        fail("live_wrong_key", code=row.code)


# --------------------------------------------------------------------------- the store


class LiveStore:
    """The live classes of one database.

    Parameters
    ----------
    url : str or None
        A SQLAlchemy URL; None reads :func:`default_url`.
    ttl : float
        Seconds after its last activity that a class expires.
    clock : callable
        Seconds since the epoch (tests pass a fake clock).
    student_limit, teacher_limit, join_limit, address_limit : RateLimit
        The token buckets of a student (answers), of the teacher (control actions), of a
        class's joins, and of one client address's joins in a class. The teacher's bucket is
        their own: 12 connections flooding joins once refused the teacher's Open/Close 10 times
        in 50 when both shared one. With the defaults 300 students behind one school address
        join within half a minute (150 at once, then 8 a second, per class and per address:
        bench/bench_live.py had 45 of 300 refused once, and one for good, at 120 and 6 a
        second); the cap of an address (:data:`MAX_PER_ADDRESS`) keeps one from filling a class.
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        ttl: float = DEFAULT_TTL,
        clock: Callable[[], float] = time.time,
        student_limit: RateLimit = RateLimit(burst=10, per_second=1.0),
        teacher_limit: RateLimit = RateLimit(burst=60, per_second=5.0),
        join_limit: RateLimit = RateLimit(burst=150, per_second=8.0),
        address_limit: RateLimit = RateLimit(burst=150, per_second=8.0),
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
    ) -> None:
        self.url = url or default_url()
        self.ttl = float(ttl)
        self.clock = clock
        self.student_limit = student_limit
        self.teacher_limit = teacher_limit
        self.join_limit = join_limit
        self.address_limit = address_limit
        self.retry_delays = tuple(retry_delays)
        self.engine = self._engine(self.url)
        self._purged_at = 0.0
        self._shown: dict[str, tuple[float, tuple[int, str] | None]] = {}  # code -> (read at, value)
        self._shown_lock = threading.Lock()
        self._lock = threading.Lock()
        self._migrate()

    # ----------------------------------------------------------------- engine and schema

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @staticmethod
    def _engine(url: str) -> Engine:
        parsed = sa.engine.make_url(url)
        if parsed.get_backend_name() != "sqlite":
            return sa.create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).parent.mkdir(parents=True, exist_ok=True)  # created on first use
        engine = sa.create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            # Python's sqlite3 opens transactions itself and late; take that over (SQLAlchemy's
            # documented recipe) so that writes start with BEGIN IMMEDIATE below
            dbapi_conn.isolation_level = None
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")  # readers never wait for the writer
            cursor.execute("PRAGMA busy_timeout=30000")  # a writer waits for another up to 30 s
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=NORMAL")  # safe with WAL; durable at checkpoints
            cursor.close()

        @sa.event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            # a write takes the database's write lock at once: two writers never deadlock
            # upgrading a read lock, the second waits (busy_timeout) and then sees the first
            immediate = conn.get_execution_options().get("write", False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

        return engine

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with self.engine.connect().execution_options(write=True) as conn, conn.begin():
            yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    def _migrate(self) -> None:
        """Bring the schema to the last version of :data:`MIGRATIONS` (once; several servers may race)."""
        last = max(MIGRATIONS)
        for attempt in range(5):
            try:
                with self._write() as conn:
                    if not self.is_sqlite:  # one migrating server at a time on PostgreSQL
                        conn.execute(sa.text("SELECT pg_advisory_xact_lock(424242)"))
                    metadata.create_all(conn, tables=[schema_version], checkfirst=True)
                    row = conn.execute(sa.select(schema_version.c.version)).first()
                    version = 0 if row is None else int(row[0])
                    for step in range(version + 1, last + 1):
                        MIGRATIONS[step](conn)
                    if row is None:
                        conn.execute(schema_version.insert().values(version=last))
                    elif version < last:
                        conn.execute(schema_version.update().values(version=last))
                return
            except (sa.exc.OperationalError, sa.exc.IntegrityError, sa.exc.ProgrammingError):
                if attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))

    def schema_version(self) -> int:
        """The applied schema version."""
        with self._read() as conn:
            return int(conn.execute(sa.select(schema_version.c.version)).scalar_one())

    def dispose(self) -> None:
        """Close the database connections."""
        self.engine.dispose()

    # ----------------------------------------------------------------- helpers

    def _take(
        self,
        conn: Connection,
        table: sa.Table,
        row: Any,
        limit: RateLimit,
        now: float,
        *,
        columns: tuple[str, str] = ("tokens", "tokens_at"),
    ) -> None:
        """Take one token from the bucket kept in ``row``'s ``columns`` (locked), or refuse.

        A bucket never used (NULL) is full.
        """
        held, since = getattr(row, columns[0]), getattr(row, columns[1])
        if held is None or since is None:
            tokens = float(limit.burst)
        else:
            tokens = min(limit.burst, float(held) + (now - float(since)) * limit.per_second)
        if tokens < 1:
            fail("live_rate_limited")
        conn.execute(
            table.update().where(table.c.id == row.id).values({columns[0]: tokens - 1, columns[1]: now})
        )

    def _class_row(self, conn: Connection, code: str, now: float, *, lock: bool = False) -> Any:
        code = _code(code)
        query = sa.select(classes).where(classes.c.code == code)
        if lock and not self.is_sqlite:
            query = query.with_for_update()
        row = conn.execute(query).first()
        if row is None or now - float(row.last_activity) > self.ttl:
            fail("live_no_class", code=code)
        return row

    def _teacher_row(self, conn: Connection, code: str, key: str, now: float) -> Any:
        row = self._class_row(conn, code, now, lock=True)
        if not hmac.compare_digest(row.key_hash, _hash(str(key))):
            fail("live_wrong_key", code=row.code)
        if row.ended_at is not None:
            fail("live_ended", code=row.code)
        self._take(
            conn, classes, row, self.teacher_limit, now, columns=("teacher_tokens", "teacher_tokens_at")
        )
        conn.execute(classes.update().where(classes.c.id == row.id).values(last_activity=now))
        return row

    def _question_row(self, conn: Connection, class_id: int, number: int) -> Any:
        row = conn.execute(
            sa.select(questions_table).where(
                questions_table.c.class_id == class_id, questions_table.c.number == int(number)
            )
        ).first()
        if row is None:
            fail("live_no_question", question=number)
        return row

    @_retrying
    def purge_expired(self) -> int:
        """Delete classes (and their questions, students and answers) past their expiry."""
        now = self.clock()
        with self._write() as conn:
            old = [
                r.id
                for r in conn.execute(sa.select(classes.c.id).where(classes.c.last_activity < now - self.ttl))
            ]
            if not old:
                return 0
            qids = sa.select(questions_table.c.id).where(questions_table.c.class_id.in_(old))
            conn.execute(answers.delete().where(answers.c.question_id.in_(qids)))
            conn.execute(questions_table.delete().where(questions_table.c.class_id.in_(old)))
            conn.execute(students.delete().where(students.c.class_id.in_(old)))
            conn.execute(clients.delete().where(clients.c.class_id.in_(old)))
            conn.execute(classes.delete().where(classes.c.id.in_(old)))
            return len(old)

    # ----------------------------------------------------------------- teacher

    @_retrying
    def create_class(self) -> tuple[str, str]:
        """A new class: its join code and its teacher key (shown once, stored hashed)."""
        now = self.clock()
        if now - self._purged_at > 60:
            self._purged_at = now
            self.purge_expired()
        key = secrets.token_urlsafe(18)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with self._write() as conn:
                    conn.execute(
                        classes.insert().values(
                            code=code,
                            key_hash=_hash(key),
                            created_at=now,
                            last_activity=now,
                            n_students=0,
                            tokens=self.join_limit.burst,
                            tokens_at=now,
                            teacher_tokens=self.teacher_limit.burst,
                            teacher_tokens_at=now,
                        )
                    )
                return code, key
            except sa.exc.IntegrityError:
                continue  # the code is taken (maybe by an expired class): draw another
        raise RuntimeError("no free join code after 20 draws")

    @_retrying
    def is_teacher(self, code: str, key: str | None) -> bool:
        """Whether ``key`` is the teacher key of the class (False for no key or no class)."""
        if not key or len(str(key)) > MAX_SECRET_CHARS:
            return False
        with self._read() as conn:
            row = self._class_row(conn, code, self.clock())
        return hmac.compare_digest(row.key_hash, _hash(str(key)))

    @_retrying
    def add_question(self, code: str, key: str, spec: dict[str, Any]) -> int:
        """Add a question (checked by the core first); returns its number in the class."""
        questions.check(spec)  # raises on a spec the core refuses
        text = json.dumps(spec, ensure_ascii=False, sort_keys=True)
        now = self.clock()
        with self._write() as conn:
            row = self._teacher_row(conn, code, key, now)
            count = conn.execute(
                sa.select(sa.func.count()).where(questions_table.c.class_id == row.id)
            ).scalar_one()
            if count >= MAX_QUESTIONS:
                fail("live_full", code=row.code, limit=MAX_QUESTIONS, what="questions")
            number = int(count) + 1
            conn.execute(
                questions_table.insert().values(class_id=row.id, number=number, spec=text, state="ready")
            )
            return number

    @_retrying
    def _set_state(self, code: str, key: str, number: int, state: str, limit: float | None = None) -> None:
        now = self.clock()
        with self._write() as conn:
            row = self._teacher_row(conn, code, key, now)
            q = self._question_row(conn, row.id, number)
            values: dict[str, Any] = {"state": state}
            if state == "open":
                # one open question at a time: opening one closes the others
                conn.execute(
                    questions_table.update()
                    .where(questions_table.c.class_id == row.id, questions_table.c.state == "open")
                    .values(state="closed", closed_at=_closed_at(now))
                )
                values["opened_at"] = now
                # a time limit: the time it closes by itself (None: when the teacher closes it)
                values["closed_at"] = None if limit is None else now + limit
            elif state in ("closed", "revealed") and q.state in ("ready", "open"):
                ran_out = q.state == "open" and q.closed_at is not None and q.closed_at <= now
                values["closed_at"] = q.closed_at if ran_out else now
                if q.opened_at is None:  # shown without being opened: it is the current one now
                    values["opened_at"] = now
            conn.execute(questions_table.update().where(questions_table.c.id == q.id).values(**values))
        with self._shown_lock:  # this server's pages see the change at their next look
            self._shown.pop(row.code, None)

    def open_question(self, code: str, key: str, number: int, *, seconds: float | None = None) -> None:
        """Open question ``number`` for answers (and close any other open one); with
        ``seconds`` (:data:`TIME_LIMITS`) it closes by itself that long after."""
        self._set_state(code, key, number, "open", _check_limit(seconds))

    def close_question(self, code: str, key: str, number: int) -> None:
        """Close question ``number``: no answer is taken or changed after this."""
        self._set_state(code, key, number, "closed")

    def reveal(self, code: str, key: str, number: int) -> None:
        """Close question ``number`` (if open) and show the truth to everyone."""
        self._set_state(code, key, number, "revealed")

    @_retrying
    def end_class(self, code: str, key: str) -> None:
        """End the class: no more answers; it stays readable until it expires."""
        now = self.clock()
        with self._write() as conn:
            row = self._teacher_row(conn, code, key, now)
            conn.execute(
                questions_table.update()
                .where(questions_table.c.class_id == row.id, questions_table.c.state == "open")
                .values(state="closed", closed_at=_closed_at(now))
            )
            conn.execute(classes.update().where(classes.c.id == row.id).values(ended_at=now))

    @_retrying
    def lock_joining(self, code: str, key: str, *, locked: bool) -> None:
        """Lock (or open again) joining: no new student while locked; joined ones stay."""
        now = self.clock()
        with self._write() as conn:
            row = self._teacher_row(conn, code, key, now)
            conn.execute(classes.update().where(classes.c.id == row.id).values(locked=bool(locked)))

    @_retrying
    def show_live(self, code: str, key: str, *, show: bool) -> None:
        """Whether the room (anyone with the room's link) sees the answers before the reveal."""
        now = self.clock()
        with self._write() as conn:
            row = self._teacher_row(conn, code, key, now)
            conn.execute(classes.update().where(classes.c.id == row.id).values(show_live=bool(show)))

    @_retrying
    def remove_students(self, code: str, key: str, first: int, last: int) -> int:
        """Remove students ``first`` to ``last`` (their numbers, inclusive): their answers are
        deleted, their links stop working, their seats are free. Returns how many were removed.
        """
        for value in (first, last):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
                fail("live_bad_students", first=str(first)[:20], last=str(last)[:20])
        if first > last:
            fail("live_bad_students", first=first, last=last)
        now = self.clock()
        with self._write() as conn:
            row = self._teacher_row(conn, code, key, now)
            chosen = sa.select(students.c.id).where(
                students.c.class_id == row.id,
                students.c.number >= int(first),
                students.c.number <= int(last),
                students.c.removed_at.is_(None),
            )
            ids = [r.id for r in conn.execute(chosen)]
            if ids:
                conn.execute(answers.delete().where(answers.c.student_id.in_(ids)))
                conn.execute(students.update().where(students.c.id.in_(ids)).values(removed_at=now))
            return len(ids)

    @_retrying
    def join_stats(self, code: str, key: str) -> JoinStats:
        """The joins as the teacher sees them (a read: it takes no token)."""
        now = self.clock()
        with self._read() as conn:
            row = self._class_row(conn, code, now)
            _check_key(row, key)
            present = self._present(conn, row.id)
            recent = conn.execute(
                sa.select(sa.func.count()).where(
                    students.c.class_id == row.id, students.c.joined_at > now - 60.0
                )
            ).scalar_one()
        return JoinStats(present, int(row.n_students) - present, int(recent), bool(row.locked))

    def export_csv(self, code: str, key: str) -> bytes:
        """The class's questions and their answer counts as UTF-8 CSV (teacher only).

        Columns: ``question, origin, kind, k, gain, discount, relevance, labels, expected,
        state, answers, correct, prompt, text`` (``prompt``: the page's question of a
        ``"predict"`` kind, e.g. ``lesson.bases``; ``text``: the teacher's own words); no
        student appears in it.
        """
        info = self.class_info(code)
        if not self.is_teacher(info.code, key):
            fail("live_wrong_key", code=info.code)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(
            [
                "question",
                "origin",
                "kind",
                "k",
                "gain",
                "discount",
                "relevance",
                "labels",
                "expected",
                "state",
                "answers",
                "correct",
                "prompt",
                "text",
            ]
        )
        for q in self.questions(info.code):
            try:
                expected = questions.expected(q.spec)
            except NDCGInputError:  # a spec this version cannot judge: listed, its answer left empty
                expected = ""
            given = self.answers(info.code, q.number, key=key)
            writer.writerow(
                [
                    q.number,
                    q.spec.get("origin", ""),
                    q.spec.get("kind", ""),
                    "" if q.spec.get("k") is None else q.spec["k"],
                    q.spec.get("gain", ""),
                    q.spec.get("discount", ""),
                    " ".join(f"{float(x):g}" for x in q.spec.get("relevance", ())),
                    # item names come from people: a leading =, +, - or @ would run in a spreadsheet
                    " ".join(_cell(str(x)) for x in q.spec.get("labels", ())),
                    " ".join(expected) if isinstance(expected, tuple) else expected,
                    q.state,
                    len(given),
                    sum(a.correct for a in given),
                    q.spec.get("prompt", ""),
                    _cell(str(q.spec.get("text", ""))),
                ]
            )
        return out.getvalue().encode("utf-8-sig")

    @_retrying
    def export_answers_csv(self, code: str, key: str) -> bytes:
        """Every answer of the class as UTF-8 CSV, one row per answer (teacher only).

        Columns: ``question, student, value, correct, score, submitted_at``: ``student`` is the
        anonymous number the student saw ("Student 7"), never a token; ``value`` the answer as
        stored (a number, an option key, or an order's names separated by spaces); ``score``
        an order's nDCG; ``submitted_at`` seconds since the epoch (UTC).
        """
        now = self.clock()
        with self._read() as conn:
            row = self._class_row(conn, code, now)
            _check_key(row, key)
            rows = conn.execute(
                sa.select(
                    questions_table.c.number.label("question"),
                    students.c.number.label("student"),
                    answers.c.value,
                    answers.c.correct,
                    answers.c.score,
                    answers.c.submitted_at,
                )
                .join(questions_table, questions_table.c.id == answers.c.question_id)
                .join(students, students.c.id == answers.c.student_id)
                .where(questions_table.c.class_id == row.id)
                .order_by(questions_table.c.number, students.c.number)
            ).all()
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["question", "student", "value", "correct", "score", "submitted_at"])
        for r in rows:
            value = json.loads(r.value)
            shown = " ".join(_cell(str(x)) for x in value) if isinstance(value, list) else _cell(str(value))
            score = "" if r.score is None else format(float(r.score), ".17g")
            writer.writerow(
                [r.question, r.student, shown, int(bool(r.correct)), score, f"{r.submitted_at:.3f}"]
            )
        return out.getvalue().encode("utf-8-sig")

    def reask(self, code: str, key: str, number: int) -> int:
        """A new question (ready, not open) asking question ``number`` again, once it has been
        revealed: the same list, settings and kind; returns the new question's number."""
        with self._read() as conn:
            row = self._class_row(conn, code, self.clock())
            q = self._question_row(conn, row.id, number)
        return self.add_question(code, key, json.loads(q.spec))

    # ----------------------------------------------------------------- everyone

    def ping(self) -> bool:
        """Whether the database answers now (one try, no retry: a page polls it to recover)."""
        try:
            with self._read() as conn:
                conn.execute(sa.select(1))
        except (sa.exc.OperationalError, sa.exc.InterfaceError):
            return False
        return True

    @_retrying
    def class_info(self, code: str) -> ClassInfo:
        """The class of a join code; refused when there is none or it expired."""
        with self._read() as conn:
            row = self._class_row(conn, code, self.clock())
            present = self._present(conn, row.id)
        return ClassInfo(
            row.code,
            float(row.created_at),
            float(row.last_activity),
            row.ended_at is not None,
            present,
            bool(row.locked),
            bool(row.show_live),
        )

    @staticmethod
    def _present(conn: Connection, class_id: int) -> int:
        """The class's students who have not been removed."""
        return int(
            conn.execute(
                sa.select(sa.func.count()).where(
                    students.c.class_id == class_id, students.c.removed_at.is_(None)
                )
            ).scalar_one()
        )

    @_retrying
    def questions(self, code: str) -> list[QuestionInfo]:
        """The class's questions in order, with their answer counts."""
        now = self.clock()
        with self._read() as conn:
            row = self._class_row(conn, code, now)
            counts = (  # the answers of this class's questions only
                sa.select(answers.c.question_id, sa.func.count().label("n"))
                .join(questions_table, questions_table.c.id == answers.c.question_id)
                .where(questions_table.c.class_id == row.id)
                .group_by(answers.c.question_id)
                .subquery()
            )
            rows = conn.execute(
                sa.select(questions_table, sa.func.coalesce(counts.c.n, 0).label("n"))
                .outerjoin(counts, counts.c.question_id == questions_table.c.id)
                .where(questions_table.c.class_id == row.id)
                .order_by(questions_table.c.number)
            ).all()
        return [_info(r, r.n, now) for r in rows]

    @staticmethod
    def _current_row(conn: Connection, class_id: int) -> Any:
        """The row of the class's last opened question (open, closed or revealed), or None."""
        return conn.execute(
            sa.select(questions_table)
            .where(questions_table.c.class_id == class_id, questions_table.c.state != "ready")
            .order_by(questions_table.c.opened_at.desc(), questions_table.c.number.desc())
            .limit(1)
        ).first()

    @staticmethod
    def _count(conn: Connection, question_id: int) -> int:
        return int(
            conn.execute(sa.select(sa.func.count()).where(answers.c.question_id == question_id)).scalar_one()
        )

    @_retrying
    def current(self, code: str) -> QuestionInfo | None:
        """The question everyone looks at: the last one opened (open, closed or revealed)."""
        now = self.clock()
        with self._read() as conn:
            row = self._class_row(conn, code, now)
            q = self._current_row(conn, row.id)
            if q is None:
                return None
            n = self._count(conn, q.id)
        return _info(q, n, now)

    def shown(self, code: str, *, max_age: float = 0.0) -> tuple[int, str] | None:
        """The number and state of :meth:`current`'s question, without its spec or count: what
        every open page checks every few seconds to know when to change.

        With ``max_age`` the answer may be a copy read by this store (this server) at most that
        many seconds ago: a class's hundreds of phones then cost the database one read in that
        time, not one each; a change reaches them at most ``max_age`` later.
        """
        now, code = self.clock(), _code(code)
        if max_age > 0:
            with self._shown_lock:
                kept = self._shown.get(code)
            if kept is not None and 0 <= now - kept[0] <= max_age:
                return kept[1]
        value = self._read_shown(code, now)
        with self._shown_lock:
            if len(self._shown) >= MAX_SHOWN_KEPT:
                self._shown.clear()
            self._shown[code] = (now, value)
        return value

    @_retrying
    def _read_shown(self, code: str, now: float) -> tuple[int, str] | None:
        with self._read() as conn:
            q = self._current_row(conn, self._class_row(conn, code, now).id)
        return None if q is None else (int(q.number), _state(q, now))

    @_retrying
    def answers(self, code: str, number: int, *, key: str | None = None) -> list[Answer]:
        """The answers to question ``number`` (values, verdicts and scores; no students).

        Before the reveal only the teacher (``key``) sees them, unless the teacher chose to
        show them live (:meth:`show_live`); everyone sees their count (:meth:`current`).

        Raises
        ------
        NDCGInputError
            ``live_hidden`` when the answers are not to be seen yet.
        """
        with self._read() as conn:
            row = self._class_row(conn, code, self.clock())
            q = self._question_row(conn, row.id, number)
            teacher = (
                bool(key)
                and len(str(key)) <= MAX_SECRET_CHARS
                and hmac.compare_digest(row.key_hash, _hash(str(key)))
            )
            if q.state != "revealed" and not row.show_live and not teacher:
                fail("live_hidden")
            rows = conn.execute(
                sa.select(*_ANSWER_COLUMNS).where(answers.c.question_id == q.id).order_by(answers.c.id)
            ).all()
        return [_answer(r) for r in rows]

    # ----------------------------------------------------------------- students

    @_retrying
    def join(self, code: str, token: str | None = None, *, client: str | None = None) -> Student:
        """The student of ``token`` in the class, or a new anonymous student with a new token.

        A token that is not in the class (another class's, or made up) gets a new student.
        ``client`` is the visitor's address as the server saw it (None when unknown): a new
        student takes a token from the address's bucket too, and one address adds at most
        :data:`MAX_PER_ADDRESS` students to a class.

        Raises
        ------
        NDCGInputError
            ``live_no_class``, ``live_ended``, ``live_locked`` (joining locked by the teacher),
            ``live_removed`` (the token's student was removed), ``live_full``,
            ``live_address_full``, ``live_rate_limited``.
        """
        if token and len(str(token)) > MAX_SECRET_CHARS:
            token = None
        if token:  # a returning student (every reload): a read, no write lock
            try:
                return self.student(code, token)
            except NDCGInputError as err:
                if err.key != "live_no_student":
                    raise
        now = self.clock()
        with self._write() as conn:
            row = self._class_row(conn, code, now, lock=True)
            if token:
                found = conn.execute(
                    sa.select(students.c.number, students.c.removed_at).where(
                        students.c.class_id == row.id, students.c.token_hash == _hash(str(token))
                    )
                ).first()
                if found is not None:
                    if found.removed_at is not None:
                        fail("live_removed", code=row.code)
                    return Student(int(found.number), str(token))
            if row.ended_at is not None:
                fail("live_ended", code=row.code)
            if row.locked:
                fail("live_locked", code=row.code)
            if self._present(conn, row.id) >= MAX_STUDENTS:
                fail("live_full", code=row.code, limit=MAX_STUDENTS, what="students")
            if client:
                self._take_address(conn, row, str(client)[:MAX_SECRET_CHARS], now)
            self._take(conn, classes, row, self.join_limit, now)
            number = int(row.n_students) + 1  # numbers are never given twice, removed or not
            new_token = secrets.token_urlsafe(12)
            conn.execute(
                students.insert().values(
                    class_id=row.id,
                    number=number,
                    token_hash=_hash(new_token),
                    joined_at=now,
                    tokens=self.student_limit.burst,
                    tokens_at=now,
                )
            )
            conn.execute(
                classes.update().where(classes.c.id == row.id).values(n_students=number, last_activity=now)
            )
            return Student(number, new_token)

    def phone(self, code: str, token: str | None, *, client: str | None = None) -> Phone:
        """A student's page in one read: :meth:`join` (a new student only when ``token`` is not
        the class's), then :meth:`current` and :meth:`own_answer`, as of one moment.

        Raises
        ------
        NDCGInputError
            As :meth:`join`.
        """
        if token and len(str(token)) <= MAX_SECRET_CHARS:
            seen = self._phone(code, str(token))
            if seen is not None:
                return seen
        me = self.join(code, token, client=client)
        seen = self._phone(code, me.token)
        if seen is None:  # removed between the join and the read: said as such
            fail("live_removed", code=_code(code))
        return seen

    @_retrying
    def _phone(self, code: str, token: str) -> Phone | None:
        """:meth:`phone` for a token already in the class; None when it is not."""
        now = self.clock()
        with self._read() as conn:
            row = self._class_row(conn, code, now)
            who = conn.execute(
                sa.select(students.c.id, students.c.number, students.c.removed_at).where(
                    students.c.class_id == row.id, students.c.token_hash == _hash(token)
                )
            ).first()
            if who is None:
                return None
            if who.removed_at is not None:
                fail("live_removed", code=row.code)
            me = Student(int(who.number), token)
            q = self._current_row(conn, row.id)
            if q is None:
                return Phone(row.code, me, None, None)
            n = self._count(conn, q.id)
            own = conn.execute(
                sa.select(*_ANSWER_COLUMNS).where(
                    answers.c.question_id == q.id, answers.c.student_id == who.id
                )
            ).first()
        return Phone(row.code, me, _info(q, n, now), None if own is None else _answer(own))

    def _take_address(self, conn: Connection, row: Any, client: str, now: float) -> None:
        """Count a join from ``client`` in the class ``row``: its cap, then its bucket."""
        address = _hash(f"{row.id}:{client}")
        query = sa.select(clients).where(clients.c.class_id == row.id, clients.c.address_hash == address)
        found = conn.execute(query if self.is_sqlite else query.with_for_update()).first()
        if found is None:
            conn.execute(
                clients.insert().values(
                    class_id=row.id,
                    address_hash=address,
                    n_students=1,
                    tokens=self.address_limit.burst - 1,
                    tokens_at=now,
                )
            )
            return
        if found.n_students >= MAX_PER_ADDRESS:
            fail("live_address_full", code=row.code, limit=MAX_PER_ADDRESS)
        self._take(conn, clients, found, self.address_limit, now)
        conn.execute(clients.update().where(clients.c.id == found.id).values(n_students=found.n_students + 1))

    @_retrying
    def student(self, code: str, token: str) -> Student:
        """The student of ``token``; refused when the token is not in the class."""
        with self._read() as conn:
            row = self._class_row(conn, code, self.clock())
            found = conn.execute(
                sa.select(students.c.number, students.c.removed_at).where(
                    students.c.class_id == row.id,
                    students.c.token_hash == _hash(str(token)[:MAX_SECRET_CHARS]),
                )
            ).first()
        if found is None:
            fail("live_no_student", code=row.code)
        if found.removed_at is not None:
            fail("live_removed", code=row.code)
        return Student(int(found.number), str(token))

    @_retrying
    def submit(self, code: str, token: str, number: int, answer: Any) -> Answer:
        """Store a student's answer to question ``number`` (replacing their earlier one).

        Raises
        ------
        NDCGInputError
            ``live_no_class``, ``live_no_student``, ``live_no_question``, ``live_not_open``,
            ``live_closed``, ``live_rate_limited``, ``live_removed``, ``live_answer_too_long``,
            ``live_answer_too_many``, or the core's key for an invalid answer (``not_a_number``,
            ``not_finite``, ``not_permutation``, ``unknown_option``...).
        """
        _check_size(answer)
        now = self.clock()
        with self._write() as conn:
            row = self._class_row(conn, code, now, lock=True)
            who_query = sa.select(students).where(
                students.c.class_id == row.id, students.c.token_hash == _hash(str(token))
            )
            who = conn.execute(who_query if self.is_sqlite else who_query.with_for_update()).first()
            if who is None:
                fail("live_no_student", code=row.code)
            if who.removed_at is not None:
                fail("live_removed", code=row.code)
            self._take(conn, students, who, self.student_limit, now)
            q = self._question_row(conn, row.id, number)
            state = _state(q, now)  # a time limit that ran out has closed it
            if state == "ready":
                fail("live_not_open")
            if state != "open" or row.ended_at is not None:
                fail("live_closed")
            judged = questions.judge(json.loads(q.spec), answer)  # raises on an invalid answer
            values = {
                "value": json.dumps(judged.value, ensure_ascii=False),
                "correct": judged.correct,
                "score": judged.score,
                "submitted_at": now,
            }
            updated = conn.execute(
                answers.update()
                .where(answers.c.question_id == q.id, answers.c.student_id == who.id)
                .values(**values)
            )
            if updated.rowcount == 0:
                conn.execute(answers.insert().values(question_id=q.id, student_id=who.id, **values))
            conn.execute(classes.update().where(classes.c.id == row.id).values(last_activity=now))
        return Answer(judged.value, judged.correct, judged.score, now)

    @_retrying
    def own_answer(self, code: str, token: str, number: int) -> Answer | None:
        """The student's stored answer to question ``number``, if any."""
        with self._read() as conn:
            row = self._class_row(conn, code, self.clock())
            q = self._question_row(conn, row.id, number)
            found = conn.execute(
                sa.select(*_ANSWER_COLUMNS)
                .join(students, students.c.id == answers.c.student_id)
                .where(
                    answers.c.question_id == q.id,
                    students.c.class_id == row.id,
                    students.c.token_hash == _hash(str(token)),
                )
            ).first()
        if found is None:
            return None
        return _answer(found)


def _check_size(answer: Any) -> None:
    """Refuse an answer longer than any question takes, before it is read: a typed text of
    more than :data:`MAX_ANSWER_CHARS` characters, an order of more than
    :data:`questions.MAX_ITEMS` names or with a name of more than :data:`MAX_NAME_CHARS`."""
    if isinstance(answer, str):
        if len(answer) > MAX_ANSWER_CHARS:
            fail("live_answer_too_long", got=len(answer), limit=MAX_ANSWER_CHARS)
    elif isinstance(answer, (list, tuple)):
        if len(answer) > questions.MAX_ITEMS:
            fail("live_answer_too_many", got=len(answer), limit=questions.MAX_ITEMS)
        for item in answer:
            if len(str(item)) > MAX_NAME_CHARS:
                fail("live_answer_too_long", got=len(str(item)), limit=MAX_NAME_CHARS)


def _cell(text: str) -> str:
    """A CSV cell that a spreadsheet shows as text, never runs as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
