"""The live class page: the teacher's controls, a student's phone, the room's projector.

Which view a visitor sees comes from the link (:func:`view_of`):

- ``?class=CODE&view=teacher``: the teacher, whose key this browser session holds (the store
  checks it on every action). A teacher link ``?class=CODE&key=SECRET`` is taken once: the
  key goes into the session and leaves the address bar (it would land in proxy logs and on the
  projector); a new session (a reload) asks for it;
- ``?class=CODE&view=room``: the room (a projector), read-only;
- ``?class=CODE`` (``&student=TOKEN`` once joined): a student;
- no class: start a class or type a join code.

``key`` and ``student`` are private link parameters (:func:`ui.frame` keeps them in this
browser's address bar but never in a share link or QR code); the students' link and its QR code
are built here from ``class`` and ``lang`` only. Everything stored and every rule lives in
:mod:`ndcg_live` (one :class:`ndcg_live.store.LiveStore` per process and database); every number
shown comes from the core through :mod:`ndcg_live.questions`. Student and teacher text (item
names) is escaped with :func:`ui.md_escape`; nothing typed is rendered as HTML.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Concatenate, ParamSpec

import streamlit as st
from streamlit_sortables import sort_items

import ndcg_core as nc
from ndcg_core import NDCGInputError
from ndcg_live import questions
from ndcg_live.store import DEFAULT_TTL, MAX_ANSWER_CHARS, Answer, LiveStore, QuestionInfo, default_url
from ndcg_teach import exercises, predictions
from ui.components import charts, prompts, widgets
from ui.framework import address, i18n, share
from ui.framework.i18n import Translate
from ui.framework.navigation import LIVE_PARAMS, LIVE_PRIVATE
from ui.framework.shared import LIVE_START, Frame, get_param, get_ranking, set_param, show_error
from ui.framework.state import format_grade, parse_decimals, parse_scores
from ui.framework.text import lead, md_escape, sentences

#: Public link parameters (the students' link) and private ones (never in a share link).
PARAMS = LIVE_PARAMS
PRIVATE = LIVE_PRIVATE
_P = ParamSpec("_P")

#: How often the room's answers and a student's "is there a new question?" are read (seconds).
REFRESH = 2.0
#: How old (seconds) the question's state a page's watcher reads may be: the server reads it
#: once in that time for all of a class's phones (bench/README.md, bench_live.py).
WATCH_MAX_AGE = 0.5
#: The time limits a teacher may give a question when opening it (seconds; 0: none).
TIME_CHOICES: tuple[int, ...] = (0, 30, 60, 90, 120, 180, 300)
#: Classes one browser session may start within :data:`START_WINDOW` seconds.
START_LIMIT = 3
START_WINDOW = 600.0


@st.cache_resource(show_spinner=False)
def _store(url: str) -> LiveStore:
    return LiveStore(url)


def store() -> LiveStore:
    """The process's store of the configured database (``NDCG_LAB_DATABASE_URL`` or SQLite)."""
    return _store(default_url())


def _one(value: Any) -> str:
    if isinstance(value, list):
        value = value[-1] if value else ""
    return "" if value is None else str(value).strip()


def view_of(params: dict[str, str]) -> str:
    """``"landing"``, ``"teacher"``, ``"room"`` or ``"student"`` from the link's parameters.

    >>> view_of({"class": "K7P2QX", "key": "s3cret"}), view_of({"class": "K7P2QX", "view": "room"})
    ('teacher', 'room')
    >>> view_of({}), view_of({"class": "K7P2QX"}), view_of({"class": "K7P2QX", "view": "teacher"})
    ('landing', 'student', 'teacher')
    """
    if not params.get("class"):
        return "landing"
    if params.get("key") or params.get("view") == "teacher":
        return "teacher"
    return "room" if params.get("view") == "room" else "student"


def link_params() -> dict[str, str]:
    """The live class's parameters of this session's link (the teacher's key from the session
    once it has left the link)."""
    params = {name: _one(get_param(name)) for name in (*PARAMS, *PRIVATE)}
    if not params["key"] and params["class"]:
        params["key"] = _kept_keys().get(params["class"].upper(), "")
    return params


def _kept_keys() -> dict[str, str]:
    """The teacher keys this browser session holds, by join code."""
    kept: dict[str, str] = st.session_state.setdefault("live.keys", {})
    return kept


def _keep_key(code: str, key: str) -> None:
    """Hold the teacher key in the session and take it out of the address bar."""
    st.session_state["live.keys"] = {**_kept_keys(), code.upper(): key}
    set_param("key", None)
    set_param("student", None)
    set_param("view", "teacher")


def client_address() -> str | None:
    """The visitor's address as the server saw it (``st.context.ip_address``; None on
    localhost or when unknown). Behind a proxy it is the proxy's: every student then counts
    as one address."""
    try:
        return st.context.ip_address
    except Exception:
        return None


def _base(page_url: str | None) -> address.ShareAddress:
    return address.share_address(
        page_url,
        public_url=os.environ.get(address.PUBLIC_URL_ENV),
        server_address=st.get_option("server.address"),
    )


def _page_url() -> str | None:
    try:
        return st.context.url
    except Exception:
        return None


def student_link(base: str, code: str, lang: str) -> str:
    """The link students open: the class's code and the language, never a key or token.

    >>> student_link("http://192.168.1.20:8501/Live_class", "K7P2QX", "zh")
    'http://192.168.1.20:8501/Live_class?class=K7P2QX&lang=zh'
    """
    return share.share_link(base, {"class": code, "lang": lang})


def room_link(base: str, code: str, lang: str) -> str:
    """The room's (projector's) link: read-only, no key."""
    return share.share_link(base, {"class": code, "view": "room", "lang": lang, "present": "1"})


def teacher_link(base: str, code: str, key: str, lang: str) -> str:
    """The teacher's secret link: whoever has it controls the class."""
    return share.share_link(base, {"class": code, "key": key, "lang": lang})


# ----------------------------------------------------------------------------- texts


def count_text(t: Translate, n: int) -> str:
    """ "no answers", "1 answer", "5 answers" (and the Chinese forms)."""
    return t("live.count_zero") if n == 0 else t("live.count_one") if n == 1 else t("live.count_many", n=n)


def kind_text(t: Translate, spec: dict[str, Any]) -> str:
    """The question's kind as the Practice page names it (e.g. "nDCG@3"), or for a page's
    prediction "Prediction · <its title>"."""
    if spec.get("kind") == "predict":
        name = str(spec.get("prompt"))
        if name not in predictions.PROMPTS:  # a stored prompt this version does not know
            return t("live.kind_predict")
        return f"{t('live.kind_predict')} · {prompts.title(name, t)}"
    return t(f"practice.kind.{spec['kind']}")


def class_voice(frame: Frame) -> Translate:
    """The viewer's translator, with a page's text reworded for a class where the page speaks
    to a learner at their own ranking (``live.asked.<key with __ for .>``: "this list", the
    teacher's, shown above the question)."""
    own = i18n.catalog(frame.lang)

    def t(key: str, **params: Any) -> str:
        reworded = f"live.asked.{key.replace('.', '__')}"
        return frame.t(reworded if reworded in own else key, **params)

    return t


def asked(frame: Frame, spec: dict[str, Any]) -> prompts.Asked:
    """A ``"predict"`` question in the viewer's language (the page's words, for a class)."""
    return prompts.asked(str(spec["prompt"]), spec, class_voice(frame), frame.lang)


def choice_names(frame: Frame, spec: dict[str, Any]) -> dict[str, str]:
    """Option key -> the text shown: a prediction's options, else A / B / the same."""
    if spec.get("kind") == "predict":
        return dict(asked(frame, spec).question.options)
    return {c: frame.t(f"practice.choice_{c}") for c in exercises.CHOICES}


def answer_text(frame: Frame, spec: dict[str, Any], value: Any) -> str:
    """A stored answer as Markdown (item names escaped)."""
    kind = questions.answer_type(spec)
    if kind == "number":
        return f"{float(value):g}"
    if kind == "ranking":
        return md_escape(" › ".join(str(x) for x in value))
    return md_escape(choice_names(frame, spec).get(str(value), str(value)))


def own_text(spec: dict[str, Any], *, number: int) -> None:
    """The teacher's own words on the question, as typed (escaped: never Markdown or HTML)."""
    words = spec.get("text")
    if words:
        with st.container(key=f"live-own-text-{number}"):
            st.markdown(md_escape(words))


def predict_prompt(frame: Frame, spec: dict[str, Any], *, number: int) -> None:
    """A page's prediction: its title, the teacher's own words, the question, then the page's
    context and the list it is about."""
    t = frame.t
    a = asked(frame, spec)
    st.header(t("live.current_title", number=number, kind=a.title))
    own_text(spec, number=number)
    # the question first: under a story of a few lines it fell below a 1024×768 projector's edge
    st.markdown(lead(t("common.predict_prompt"), a.question.text))
    if a.context:
        st.markdown(a.context)
    if "relevance" in spec:
        cells = _list_cells(frame, spec["relevance"], spec["labels"], None)
        if "scores" in spec:
            head = next(iter(cells))
            cells[head].append(t("ties.score"))
            for i, score in enumerate(spec["scores"], 1):
                cells[str(i)].append(format(float(score), ".15g"))
        widgets.static_table(cells, key=f"live-list-{number}")
        k = spec.get("k")
        st.caption(
            t(
                "live.predict_list",
                k=t("live.whole") if k is None else k,
                gain=t(f"blind_spots.variant_names.{spec['gain']}"),
                discount=t(f"blind_spots.variant_names.{spec['discount']}"),
            )
        )
    else:  # the page's own example, under the Calculator's variant: the answer may depend on it
        st.caption(
            t(
                "live.predict_variant",
                gain=t(f"blind_spots.variant_names.{spec['gain']}"),
                discount=t(f"blind_spots.variant_names.{spec['discount']}"),
            )
        )


def prompt(frame: Frame, spec: dict[str, Any], *, number: int, cards: bool = False) -> None:
    """The question: its title, the teacher's own words, its task and list(s), in the viewer's
    language (an order to drag shows its list, except on a phone whose drag ``cards`` show it)."""
    t = frame.t
    if spec.get("kind") == "predict":
        predict_prompt(frame, spec, number=number)
        return
    e = questions.exercise(spec)
    st.header(t("live.current_title", number=number, kind=kind_text(t, spec)))
    own_text(spec, number=number)
    at_k = e.kind == "compare" and e.k is not None  # at the teacher's k, and said so
    if at_k:
        text = t("live.prompt_compare_k", k=e.k)
    elif e.kind in ("compare", "ideal_order"):  # Practice's "predict, then check" is not a class's
        text = t(f"live.prompt_{e.kind}")
    else:
        text = t(f"practice.prompt.{e.kind}", k=e.cutoff)
    if e.kind in exercises.NUMERIC_KINDS and e.k is None:
        sep = "" if text.endswith(("。", "？", "！")) else " "
        text = f"{text}{sep}{t('practice.prompt.whole', k=e.cutoff)}"
    st.markdown(text)
    st.caption(
        t(
            "live.variant",  # the teacher's settings, not the student's Calculator's
            gain=t(f"blind_spots.variant_names.{e.gain}"),
            discount=t(f"blind_spots.variant_names.{e.discount}"),
        )
    )
    if e.kind == "compare":  # one table, A's rows over B's (a projector has the room for one)
        a = _list_cells(frame, e.relevance, e.labels, t("practice.list_a"))
        b = _list_cells(frame, e.other or (), e.other_labels or (), t("practice.list_b"))
        names = [f"{x} · {row}" for x in "AB" for row in next(iter(a.values()))]
        both = {t("practice.position"): names}
        both.update(
            {
                n: [*a_cells, *b_cells]
                for (n, a_cells), b_cells in zip(list(a.items())[1:], list(b.values())[1:], strict=True)
            }
        )
        widgets.static_table(both, shaded=[False, False, True, True], key=f"live-ab-{number}")
    elif e.kind != "ideal_order" or not cards:
        widgets.static_table(_list_cells(frame, e.relevance, e.labels, None), key=f"live-list-{number}")


def _list_cells(frame: Frame, relevance: Any, labels: Any, title: str | None) -> dict[str, list[str]]:
    t = frame.t
    head = title or t("practice.position")
    return {
        head: [t("practice.row_item"), t("practice.row_grade")],
        **{
            str(i): [str(x), format_grade(float(g))]
            for i, (x, g) in enumerate(zip(labels, relevance, strict=True), 1)
        },
    }


def truth_text(frame: Frame, spec: dict[str, Any]) -> str:
    """The exact answer as a sentence (Markdown, names escaped); a prediction's adds the page's reveal."""
    t = frame.t
    if spec.get("kind") == "predict":
        a = asked(frame, spec)
        right = t("live.truth_choice", choice=md_escape(a.question.options[a.question.correct]))
        return sentences(right, a.answer)
    e = questions.exercise(spec)
    if e.kind in exercises.NUMERIC_KINDS:
        return t(
            "live.truth_number",
            value=widgets.number(widgets.answer_number(e.answer)),
            tol=questions.TOLERANCE,
        )
    if e.kind == "ideal_order":
        return t("live.truth_order", order=md_escape(" › ".join(widgets.answer_order(e.answer))))
    return t("live.truth_choice", choice=md_escape(choice_names(frame, spec)[str(e.answer)]))


def has_worked_answer(spec: dict[str, Any]) -> bool:
    """Whether :func:`worked_answer` draws a step table for the question: not for a page's
    prediction about its fixed examples, whose reveal is in :func:`truth_text` only."""
    return spec.get("kind") != "predict" or "relevance" in spec


def worked_answer(
    frame: Frame, spec: dict[str, Any], *, key: str, order: list[str] | None = None, titled: bool = True
) -> None:
    """The step table(s) behind the answer: the list's (A's and B's), or the student's order's.

    A page's prediction about a list shows that list's step table; one about the page's fixed
    examples has its reveal in :func:`truth_text` only.
    """
    t = frame.t
    if not has_worked_answer(spec):
        return
    if spec.get("kind") == "predict":
        if titled:
            st.markdown(f"**{t('live.steps_title')}**")
        table = nc.step_table(
            list(spec["relevance"]),
            labels=list(spec["labels"]),
            k=spec.get("k"),
            gain=spec["gain"],
            discount=spec["discount"],
            # the ideal the question is about (the lesson's "which ideal?": the judged pool)
            pool=predictions.judged_pool(str(spec["prompt"]), spec["relevance"]),
        )
        widgets.step_table(table, t, discount=spec["discount"], present=frame.present, key=f"{key}-0")
        return
    e = questions.exercise(spec)
    if titled:
        st.markdown(f"**{t('live.steps_title')}**")
    lists: list[tuple[str | None, Any, Any]]
    if e.kind == "compare":
        lists = [("A", e.relevance, e.labels), ("B", e.other, e.other_labels)]
    elif e.kind == "ideal_order":
        # the student's own order on their phone; else the ideal order the question asks for
        # (its table ends at nDCG = 1), never the Calculator's order the items came from
        grade = dict(zip(e.labels, e.relevance, strict=True))
        shown = order if order is not None else widgets.answer_order(e.answer)
        lists = [(None, [grade[x] for x in shown], shown)]
        st.caption(t("live.steps_yours" if order is not None else "live.steps_ideal"))
    else:
        lists = [(None, e.relevance, e.labels)]
    for n, (name, rel, labels) in enumerate(lists):
        if name:
            st.caption(t("live.steps_list", name=name))
        table = nc.step_table(list(rel), labels=list(labels), k=e.k, gain=e.gain, discount=e.discount)
        widgets.step_table(table, t, discount=e.discount, present=frame.present, key=f"{key}-{n}")


def shown_valid(frame: Frame, q: QuestionInfo) -> bool:
    """Whether a stored question can be shown; if not (a spec this version cannot ask, e.g. a
    prompt that no longer exists), its message in the viewer's language instead of a crash."""
    try:
        questions.check(q.spec)
    except NDCGInputError as err:
        show_error(frame.lang, err)
        return False
    return True


def results(frame: Frame, code: str, q: QuestionInfo, *, key: str | None = None) -> None:
    """The room's answers: a count, a chart (choices, numbers, or the nDCG of the orders), and
    after the reveal the exact answer marked. Before the reveal the store gives the answers to
    the teacher (``key``) only, unless the teacher shows them live: the room sees the count."""
    t = frame.t
    try:
        given = store().answers(code, q.number, key=key)
    except NDCGInputError as err:
        if err.key != "live_hidden":
            raise
        with st.container(key="live-results"):
            st.markdown(f"**{t('live.answers_title')}** · {count_text(t, q.n_answers)}")
            st.caption(t("live.hidden_until_reveal"))
            if questions.answer_type(q.spec) == "choice":  # the room reads the choices it votes on
                st.markdown(
                    "\n".join(f"- {md_escape(name)}" for name in choice_names(frame, q.spec).values())
                )
        return
    revealed = q.state == "revealed"
    with st.container(key="live-results"):
        st.markdown(f"**{t('live.answers_title')}** · {count_text(t, len(given))}")
        if not given:
            st.caption(t("live.no_answers"))
        else:
            kind = questions.answer_type(q.spec)
            expected = questions.expected(q.spec)
            if kind == "choice":
                counts = questions.tally([a.value for a in given], questions.options(q.spec))
                chart = charts.live_choice_chart(
                    counts,
                    choice_names(frame, q.spec),
                    t,
                    truth=str(expected) if revealed else None,
                    present=frame.present,
                )
            else:
                truth = (1.0 if kind == "ranking" else widgets.answer_number(expected)) if revealed else None
                # the bars are the core's (every answer in one bar; right and wrong apart after the reveal)
                bins = questions.histogram(
                    q.spec,
                    [float(a.score or 0.0) for a in given],
                    [a.correct for a in given],
                    revealed=revealed,
                )
                chart = charts.live_number_chart(
                    bins, t, truth=truth, ndcg=kind == "ranking", present=frame.present
                )
            st.altair_chart(chart, width="stretch")
            if revealed:
                # the verdict in body text (large in presenter mode), not a small grey caption
                right = t("live.right_count", right=sum(a.correct for a in given), n=len(given))
                st.markdown(f"**{right}**")
        if revealed:
            st.success(truth_text(frame, q.spec), icon=":material/lightbulb:")


# ----------------------------------------------------------------------------- landing


def _start_class() -> None:
    now = time.time()
    started = [s for s in st.session_state.get("live.started", []) if now - s < START_WINDOW]
    if len(started) >= START_LIMIT:
        st.session_state["live.flash"] = ("too_many_classes", len(started))
        return
    code, key = store().create_class()
    st.session_state["live.started"] = [*started, now]
    st.session_state["live.mine"] = (code, key)  # the sidebar's "go to my live class"
    set_param("class", code)
    _keep_key(code, key)


def _mine_running() -> tuple[str, str] | None:
    """This session's class when it is still running (not ended, not expired)."""
    mine = st.session_state.get("live.mine")
    if not mine:
        return None
    try:
        running = not store().class_info(mine[0]).ended
    except NDCGInputError:
        running = False
    return (str(mine[0]), str(mine[1])) if running else None


def start_from(page: str) -> None:
    """The sidebar's control on any page: go to this session's running class, or start one;
    the predictions of ``page`` are offered first. The key goes into this session's private
    link parameters only (never into a share link or QR code, :func:`ui.frame`)."""
    st.session_state["live.from"] = page
    st.session_state["live.adding"] = True  # the "add a question" form open on arrival
    if page in prompts.PAGES:
        st.session_state["live.source"] = "predict"
        st.session_state["live.predict_page"] = page
    mine = _mine_running()
    if mine is None:
        _start_class()
        return
    set_param("class", mine[0])
    _keep_key(mine[0], mine[1])


def _join() -> None:
    code = str(st.session_state.get("live.join_code", "")).strip().upper()
    if code:
        set_param("class", code[:16])
        set_param("key", None)
        set_param("student", None)
        set_param("view", None)


def landing(frame: Frame) -> None:
    """Start a class (teacher) or type a join code (student)."""
    t = frame.t
    flash = st.session_state.pop("live.flash", None)
    if flash:
        st.warning(t(f"live.{flash[0]}", n=flash[1]), icon=":material/hourglass:")
    # joining first: on a phone (columns stacked) the student's box is the one on top
    learn, teach = st.columns(2, gap="large")
    with teach, st.container(border=True):
        st.header(t("live.start_title"))
        st.caption(t("live.start_help"))
        st.button(
            t("live.start"),
            key="live.start",
            on_click=_start_class,
            icon=":material/co_present:",
        )
        st.caption(t("live.expires", hours=int(DEFAULT_TTL // 3600)))
    with learn, st.container(border=True):
        st.header(t("live.join_title"))
        with st.form("live.join_form", border=False):
            st.text_input(
                t("live.join_code"),
                key="live.join_code",
                placeholder=t("live.join_placeholder"),
                max_chars=16,
            )
            st.form_submit_button(t("live.join"), on_click=_join, icon=":material/login:")


def take_start_request() -> None:
    """Start (or go to) a class when the sidebar's live button sent the session here
    (``LIVE_START``: the page it came from, whose predictions are offered first)."""
    origin = st.session_state.pop(LIVE_START, None)
    if isinstance(origin, str):
        start_from(origin)


def page(frame: Frame) -> None:
    """The whole page below the title: the view the link asks for."""
    params = link_params()
    view = view_of(params)
    if view == "landing":
        landing(frame)
        return
    try:
        _page(frame, params, view)
    except NDCGInputError as err:
        if err.key != "live_unavailable":
            raise
        # an action just refused is said first (a phone's "not saved, press Send again")
        unavailable(frame, st.session_state.pop("live.error", None) or err)


def unavailable(frame: Frame, err: NDCGInputError) -> None:
    """The database does not answer (the store has tried for about 2 s): said in the page's
    language, never Streamlit's error page; the page runs again by itself once it answers."""
    show_error(frame.lang, err)
    reconnect()


@st.fragment(run_every=REFRESH)
def reconnect() -> None:
    """Every :data:`REFRESH` seconds: once the database answers again, run the whole page."""
    if store().ping():
        st.rerun()


def _guarded(body: Callable[Concatenate[Frame, _P], None]) -> Callable[Concatenate[Frame, _P], None]:
    """A part of the page that reruns by itself (a fragment): while the database does not
    answer it says so in its place, and tries again at its next run."""

    @functools.wraps(body)
    def run(frame: Frame, /, *args: _P.args, **kwargs: _P.kwargs) -> None:
        try:
            body(frame, *args, **kwargs)
        except NDCGInputError as err:
            if err.key != "live_unavailable":
                raise
            show_error(frame.lang, err)

    return run


def _page(frame: Frame, params: dict[str, str], view: str) -> None:
    code = params["class"].upper()
    if view == "student":  # the page every phone reruns: one read of the store (LiveStore.phone)
        student(frame, code, params["student"])
        return
    try:
        info = store().class_info(code)
    except NDCGInputError as err:
        if err.key == "live_unavailable":
            raise
        show_error(frame.lang, err)
        landing(frame)
        return
    if view == "teacher":
        if not params["key"]:
            ask_key(frame, info.code)
            return
        if not store().is_teacher(info.code, params["key"]):
            show_error(frame.lang, NDCGInputError("live_wrong_key", code=info.code))
            if not get_param("key"):  # a key typed into the form: forget it and ask again
                st.session_state["live.keys"] = {c: k for c, k in _kept_keys().items() if c != info.code}
                ask_key(frame, info.code)
            return
        if get_param("key"):  # a teacher link: the key moves from the address bar to the session
            _keep_key(info.code, params["key"])
            st.session_state["live.mine"] = (info.code, params["key"])
        teacher(frame, info.code, params["key"], ended=info.ended, locked=info.locked, show=info.show_live)
    else:
        room(frame, info.code)


# ----------------------------------------------------------------------------- teacher


def _take_key(code: str) -> None:
    key = str(st.session_state.get("live.key_input", "")).strip()
    if "key=" in key:  # the whole teacher link pasted
        key = key.split("key=", 1)[1].split("&", 1)[0]
    if key:
        st.session_state["live.keys"] = {**_kept_keys(), code: key}
        st.session_state["live.key_input"] = ""


def ask_key(frame: Frame, code: str) -> None:
    """The teacher's page in a session without the key (a reload): ask for it."""
    t = frame.t
    st.info(t("live.key_needed", code=f"`{code}`"), icon=":material/key:")
    with st.form("live.key_form", border=False):
        st.text_input(t("live.key_label"), key="live.key_input", type="password", max_chars=200)
        st.form_submit_button(t("live.key_open"), on_click=_take_key, args=(code,), icon=":material/login:")


@contextlib.contextmanager
def _teacher_action() -> Iterator[None]:
    """The body of a teacher's button callback: a refused action (the store's
    :class:`NDCGInputError`) is kept for the next run, which shows it above the controls; what
    follows the refused call in the body does not run."""
    try:
        yield
    except NDCGInputError as err:
        st.session_state["live.error"] = err


def _act(action: str, code: str, key: str, number: int) -> None:
    with _teacher_action():
        if action == "open_question":  # with the time limit chosen above the questions
            limit = int(st.session_state.get("live.time_limit") or 0)
            store().open_question(code, key, number, seconds=limit or None)
        else:
            getattr(store(), action)(code, key, number)


def _add(code: str, key: str, spec_of: Callable[[], dict[str, Any]]) -> None:
    with _teacher_action():
        spec = questions.with_text(spec_of(), st.session_state.get("live.text", ""))
        st.session_state["live.added"] = store().add_question(code, key, spec)
        st.session_state["live.text"] = ""  # the words belong to the question just added


def _reask(code: str, key: str, number: int) -> None:
    with _teacher_action():
        st.session_state["live.added"] = store().reask(code, key, number)


def _end(code: str, key: str) -> None:
    with _teacher_action():
        store().end_class(code, key)


def _calculator_spec() -> dict[str, Any]:
    r = get_ranking()
    kind = str(st.session_state.get("live.kind") or "ndcg")  # read at the click, not the last run
    return questions.spec_from_ranking(
        kind, list(r.relevance), list(r.labels), k=r.k, gain=r.gain, discount=r.discount
    )


def _practice_spec() -> dict[str, Any]:
    return questions.spec_from_practice(
        int(st.session_state.get("live.seed", 1)), int(st.session_state.get("live.exercise", 1))
    )


def ties_scores() -> list[float]:
    """The scores a ties prediction uses: the Scores and ties page's (rounded as it rounds them),
    else one score per item in rank order (n, n - 1, ..., 1: no ties), as that page starts."""
    n = get_ranking().n
    try:
        raw = get_param("scores")
        if raw is None:
            return [float(x) for x in range(n, 0, -1)]
        scores = parse_scores(raw[-1] if isinstance(raw, list) else raw)
        dec = get_param("dec", "")
        decimals = parse_decimals(dec[-1] if isinstance(dec, list) and dec else dec)
        if decimals is not None:
            scores = nc.ties.round_scores(scores, decimals)
        return [float(x) for x in scores]
    except NDCGInputError:  # a broken link parameter: the page's own start, not a guess
        return [float(x) for x in range(n, 0, -1)]


def _prompt_chosen() -> str:
    page = str(st.session_state.get("live.predict_page") or prompts.PAGES[0])
    return str(st.session_state.get(f"live.prompt.{page}") or prompts.prompts_of(page)[0])


def _predict_spec() -> dict[str, Any]:
    name = _prompt_chosen()  # read at the click, not the last run
    r = get_ranking()
    fields = predictions.PROMPTS[name].fields if name in predictions.PROMPTS else ()
    return questions.spec_from_prompt(
        name,
        relevance=list(r.relevance),
        labels=list(r.labels),
        k=r.k,
        gain=r.gain,
        discount=predictions.prompt_discount(name, r.discount),
        scores=ties_scores() if "scores" in fields else None,
    )


def pages_first(first: str | None) -> list[str]:
    """The pages with predictions, the one the teacher came from first.

    >>> pages_first("blind_spots")[:2]
    ['blind_spots', 'lesson']
    """
    pages = list(prompts.PAGES)
    if first in pages:
        pages.remove(first)
        pages.insert(0, first)
    return pages


def predict_picker(frame: Frame, code: str, key: str) -> None:
    """The app's predict-first questions, grouped by page (the page the teacher came from first),
    with what the question is asked about and how students will read it."""
    t = frame.t
    pages = pages_first(st.session_state.get("live.from"))
    page = st.radio(
        t("live.predict_page"),
        pages,
        key="live.predict_page",
        horizontal=True,
        format_func=lambda p: t(f"nav.{p}"),
    )
    st.radio(
        t("live.predict_prompt"),
        prompts.prompts_of(page),
        key=f"live.prompt.{page}",
        format_func=lambda name: prompts.title(name, t),
    )
    name = _prompt_chosen()
    fields = predictions.PROMPTS[name].fields
    r = get_ranking()
    used = predictions.prompt_discount(name, r.discount)  # a case may keep its own discount
    gain, discount = t(f"blind_spots.variant_names.{r.gain}"), t(f"blind_spots.variant_names.{used}")
    if "relevance" in fields:
        k = r.cutoff if r.k is not None else t("live.whole")
        items = items_text(r.relevance, r.labels)
        st.caption(t("live.predict_on_ranking", items=items, k=k, gain=gain, discount=discount))
    else:
        st.caption(t("live.predict_fixed", gain=gain, discount=discount))
    if "scores" in fields:
        st.caption(t("live.predict_on_scores", scores=", ".join(format(x, ".15g") for x in ties_scores())))
    try:
        spec = _predict_spec()
    except NDCGInputError as err:  # e.g. an unjudged item in the ranking: said, not added
        show_error(frame.lang, err)
        return
    decision = predictions.decide(
        name, **{field: spec[field] for field in predictions.FIELDS if field in spec}
    )
    if decision.values.get("flat"):  # every option names the same number: nothing to ask
        st.warning(t("live.predict_flat"), icon=":material/info:")
        _add_button(t, "predict", code, key, _predict_spec, disabled=True)
        return
    st.caption(t("live.predict_preview", question=asked(frame, spec).question.text))
    _add_button(t, "predict", code, key, _predict_spec)


def _add_button(
    t: Translate,
    source: str,
    code: str,
    key: str,
    make: Callable[[], dict[str, Any]],
    *,
    disabled: bool = False,
) -> None:
    """The "Add the question" button of one source (``live.add_<source>``): adds ``make()``."""
    st.button(
        t("live.add"),
        key=f"live.add_{source}",
        on_click=_add,
        args=(code, key, make),
        disabled=disabled,
        icon=":material/add:",
    )


def add_question(frame: Frame, code: str, key: str) -> None:
    """The teacher's "add a question" form: a page's prediction, the Calculator's view or a
    Practice exercise."""
    t = frame.t
    # from a page with predictions (the sidebar's control), its predictions come first
    came_from = st.session_state.get("live.from")
    st.session_state.setdefault("live.source", "predict" if came_from in prompts.PAGES else "calculator")
    source = st.radio(
        t("live.source"),
        ("predict", "calculator", "practice"),
        key="live.source",
        horizontal=True,
        format_func=lambda v: t(f"live.source_{v}"),
    )
    st.text_input(
        t("live.own_text"),
        key="live.text",
        max_chars=questions.MAX_TEXT,
        placeholder=t("live.own_text_placeholder"),
        help=t("live.own_text_help", limit=questions.MAX_TEXT),
    )
    if source == "predict":
        predict_picker(frame, code, key)
    elif source == "calculator":
        r = get_ranking()
        st.caption(
            t(
                "live.calculator_list",
                items=items_text(r.relevance, r.labels),
                k=r.cutoff if r.k is not None else t("live.whole"),
                gain=t(f"blind_spots.variant_names.{r.gain}"),
                discount=t(f"blind_spots.variant_names.{r.discount}"),
            )
        )
        kinds = questions.CALCULATOR_KINDS if r.n >= 2 else ("ndcg",)
        st.radio(t("live.kind"), kinds, key="live.kind", format_func=lambda v: t(f"live.kind_{v}"))
        too_long = r.n > questions.MAX_ITEMS
        if too_long:
            st.warning(
                t("live.calculator_too_long", limit=questions.MAX_ITEMS, n=r.n), icon=":material/info:"
            )
        _add_button(t, "calculator", code, key, _calculator_spec, disabled=too_long)
    else:
        left, right = st.columns(2)
        left.number_input(
            t("live.seed"), min_value=0, max_value=exercises.MAX_SEED, value=1, step=1, key="live.seed"
        )
        right.number_input(
            t("live.exercise"), min_value=1, max_value=10, value=1, step=1, key="live.exercise"
        )
        practice_preview(frame)
        _add_button(t, "practice", code, key, _practice_spec)


def items_text(relevance: Sequence[float], labels: Sequence[str]) -> str:
    """A list as the teacher's form names it, Markdown-escaped: "D1 · 3, D2 · ?, D3 · 0".

    >>> print(items_text([3.0, float("nan"), 0.5], ["D1", "a*b", "D3"]))
    D1 · 3, a\\*b · ?, D3 · 0\\.5
    """
    return md_escape(", ".join(f"{x} · {format_grade(g)}" for x, g in zip(labels, relevance, strict=True)))


def practice_preview(frame: Frame) -> None:
    """What the chosen Practice exercise asks, before it is added (it was added unseen): its
    kind, its list(s), k and the variant, as the students' screens give them."""
    t = frame.t
    try:
        spec = _practice_spec()
        e = questions.exercise(spec)
    except NDCGInputError as err:
        show_error(frame.lang, err)
        return
    lists = items_text(e.relevance, e.labels)
    if e.other is not None and e.other_labels is not None:  # as a comparison's context gives them
        lists = " · ".join(
            t("common.labelled", label=t("live.steps_list", name=name), value=shown)
            for name, shown in (("A", lists), ("B", items_text(e.other, e.other_labels)))
        )
    st.caption(
        t(
            "live.practice_preview",
            kind=kind_text(t, spec),
            lists=lists,
            k=t("live.whole") if e.k is None else e.k,
            gain=t(f"blind_spots.variant_names.{e.gain}"),
            discount=t(f"blind_spots.variant_names.{e.discount}"),
        )
    )


def limit_text(t: Translate, seconds: int) -> str:
    """A time limit as the teacher picks it: "No time limit", "30 s", "2 min"."""
    if not seconds:
        return t("live.no_time_limit")
    if seconds % 60:
        return t("live.limit_seconds", seconds=seconds)
    return t("live.limit_minutes", minutes=seconds // 60)


def time_left(t: Translate, closes_at: float | None) -> None:
    """The time an open question with a limit has left, as m:ss (drawn again at each refresh)."""
    if closes_at is None:
        return
    left = max(0, math.ceil(closes_at - store().clock()))
    with st.container(key="live-time-left"):
        # no inline :material/timer: (its ligature is English text a screen reader reads) and
        # no emoji (fonts without one show a box): the words alone
        st.markdown(t("live.time_left", time=f"{left // 60}:{left % 60:02d}"))


def _shortened(words: str, limit: int = 40) -> str:
    """The start of the teacher's own words, for the question list (one line)."""
    return words if len(words) <= limit else words[: limit - 1].rstrip() + "…"


def _question_row(
    frame: Frame, code: str, key: str, q: QuestionInfo, *, ended: bool, prefix: str = "live"
) -> None:
    """One question's line (number, kind, state, count) and its open / close / reveal buttons;
    Reveal asks first (it cannot be undone)."""
    t = frame.t
    with st.container(
        key=f"{prefix.replace('.', '-')}-q-{q.number}", horizontal=True, vertical_alignment="center"
    ):
        st.markdown(
            t(
                "live.question_line",
                number=q.number,
                kind=kind_text(t, q.spec)
                + (f" · “{md_escape(_shortened(str(q.spec['text'])))}”" if q.spec.get("text") else ""),
                state=t(f"live.state_{q.state}"),
                count=count_text(t, q.n_answers),
            )
        )
        for action, label, allowed in (
            # a revealed question stays closed: its answer has been shown
            ("open_question", "open", q.state in ("ready", "closed")),
            ("close_question", "close", q.state == "open"),
            ("reveal", "reveal", q.state in ("open", "closed")),
        ):
            name = f"{prefix}.{label}.{q.number}" if prefix != "live" else f"live.{label}.{q.number}"
            click: tuple[Callable[..., None], tuple[Any, ...]] = (
                (_ask, ("reveal", q.number)) if action == "reveal" else (_act, (action, code, key, q.number))
            )
            st.button(
                t(f"live.{label}"),
                key=name,
                on_click=click[0],
                args=click[1],
                disabled=ended or not allowed,
                # never type="primary": white on the dark theme's sky-blue primary is 2.3:1 (axe-core)
            )
        if q.state == "revealed" and not ended and prefix == "live":
            # the same question once more, as a new one (after the explanation, a second try)
            st.button(
                t("live.reask"),
                key=f"live.reask.{q.number}",
                on_click=_reask,
                args=(code, key, q.number),
                icon=":material/replay:",
            )


def question_list(frame: Frame, code: str, key: str, items: list[QuestionInfo], *, ended: bool) -> None:
    """Every question with its state and count, and its open / close / reveal buttons."""
    if not items:
        st.caption(frame.t("live.no_questions"))
    for q in items:
        _question_row(frame, code, key, q, ended=ended)


def _lock(code: str, key: str) -> None:
    with _teacher_action():
        store().lock_joining(code, key, locked=bool(st.session_state.get("live.lock")))


def _show_live(code: str, key: str) -> None:
    with _teacher_action():
        store().show_live(code, key, show=bool(st.session_state.get("live.show_live")))


def _remove(code: str, key: str) -> None:
    first = int(st.session_state.get("live.remove_first", 1))
    last = int(st.session_state.get("live.remove_last", first))
    with _teacher_action():
        st.session_state["live.removed"] = store().remove_students(code, key, first, last)


@st.fragment(run_every=REFRESH)
@_guarded
def join_stats(frame: Frame, code: str, key: str) -> None:
    """Who is in the class and how fast they join (read again every :data:`REFRESH` seconds)."""
    t = frame.t
    stats = store().join_stats(code, key)
    with st.container(key="live-join-stats"):
        st.markdown(
            t(
                "live.join_stats",
                students=stats.students,
                last_minute=stats.last_minute,
                removed=stats.removed,
            )
            + " · "
            + t("live.join_locked" if stats.locked else "live.join_open")
        )


def class_controls(frame: Frame, code: str, key: str, *, locked: bool, show: bool) -> None:
    """The teacher's controls of the class: joining, the room's view, removing students."""
    t = frame.t
    removed = st.session_state.pop("live.removed", None)
    if removed is not None:
        st.success(t("live.removed", n=removed), icon=":material/person_remove:")
    with st.container(key="live-controls"):
        _controls(frame, code, key, locked=locked, show=show)


def _controls(frame: Frame, code: str, key: str, *, locked: bool, show: bool) -> None:
    t = frame.t
    st.subheader(t("live.controls_title"))
    join_stats(frame, code, key)
    with st.container(horizontal=True):
        st.toggle(t("live.lock"), value=locked, key="live.lock", on_change=_lock, args=(code, key))
        st.toggle(
            t("live.show_live"),
            value=show,
            key="live.show_live",
            on_change=_show_live,
            args=(code, key),
            help=t("live.show_live_help"),
        )
    with st.expander(t("live.remove_title"), icon=":material/person_remove:"):
        st.caption(t("live.remove_help"))
        with st.form("live.remove_form", border=False):
            left, right = st.columns(2)
            left.number_input(t("live.remove_first"), min_value=1, value=1, step=1, key="live.remove_first")
            right.number_input(t("live.remove_last"), min_value=1, value=1, step=1, key="live.remove_last")
            st.form_submit_button(
                t("live.remove"), on_click=_remove, args=(code, key), icon=":material/person_remove:"
            )
    end_control(frame, code, key)


def _links(frame: Frame, code: str, key: str, base: address.ShareAddress, *, ended: bool) -> None:
    """The students' link (large: it is read from the back of the room), the room's button
    and the teacher's secret link. An ended class keeps them folded away, without QR code."""
    t = frame.t
    join = student_link(base.url, code, frame.lang)
    if ended:
        with st.expander(t("live.links_title"), icon=":material/link:"):
            with st.container(key="live-student-link"):
                st.code(join, language=None, wrap_lines=True)
            st.link_button(t("live.room_open"), room_link(base.url, code, frame.lang), icon=":material/tv:")
        _teacher_link(frame, code, key, base)
        return
    links, qr = st.columns([3, 2], gap="large")
    with links:
        st.markdown(f"**{t('live.students_title')}**")
        st.caption(t("live.students_help"))
        with st.container(key="live-student-link"):
            st.code(join, language=None, wrap_lines=True)
        if base.host:
            if base.source == "unreachable":
                st.warning(share.share_note(frame.lang, base), icon=":material/wifi_off:")
            else:
                st.caption(share.share_note(frame.lang, base))
        st.link_button(t("live.room_open"), room_link(base.url, code, frame.lang), icon=":material/tv:")
        _teacher_link(frame, code, key, base)
    with qr, st.container(key="live-qr"):
        st.image(share.qr_png(join, scale=8), width=240, alt=t("live.qr_alt"))


def _teacher_link(frame: Frame, code: str, key: str, base: address.ShareAddress) -> None:
    t = frame.t
    with (
        st.expander(t("live.teacher_link_title"), icon=":material/key:"),
        st.container(key="live-teacher-link"),
    ):
        st.caption(t("live.teacher_link_help"))
        st.code(teacher_link(base.url, code, key, frame.lang), language=None, wrap_lines=True)


def _ask(name: str, value: Any) -> None:
    """A control that acts only once confirmed: remember what is asked (``live.confirm.<name>``)."""
    st.session_state[f"live.confirm.{name}"] = value


def _drop(name: str) -> None:
    st.session_state.pop(f"live.confirm.{name}", None)


def _confirmed_end(code: str, key: str) -> None:
    _drop("end")
    _end(code, key)


def _confirmed_reveal(code: str, key: str, number: int) -> None:
    _drop("reveal")
    _act("reveal", code, key, number)


def _confirm(
    t: Translate, name: str, text: str, yes: str, on_yes: Callable[..., None], args: tuple[Any, ...]
) -> None:
    """The question asked before an action that cannot be undone, with its two buttons."""
    with st.container(key=f"live-confirm-{name}", border=True):
        st.warning(text, icon=":material/help:")
        with st.container(horizontal=True):
            st.button(yes, key=f"live.{name}_yes", on_click=on_yes, args=args, icon=":material/check:")
            st.button(t("live.cancel"), key=f"live.{name}_no", on_click=_drop, args=(name,))


def end_control(frame: Frame, code: str, key: str) -> None:
    """ "End the class", asked once more before it acts (apart from the downloads)."""
    t = frame.t
    if st.session_state.get("live.confirm.end"):
        _confirm(t, "end", t("live.end_confirm"), t("live.end_yes"), _confirmed_end, (code, key))
    else:
        st.button(
            t("live.end"), key="live.end", on_click=_ask, args=("end", True), icon=":material/stop_circle:"
        )


def teacher(
    frame: Frame, code: str, key: str, *, ended: bool, locked: bool = False, show: bool = False
) -> None:
    """The teacher's view: links and the class's controls; the current question with its
    controls and its answers together; every question; adding one; the downloads."""
    t = frame.t
    # always drawn, full or empty: what follows keeps its place on the page (and its state)
    with st.container(key="live-flash"):
        error = st.session_state.pop("live.error", None)
        if error is not None:
            show_error(frame.lang, error)
        added = st.session_state.pop("live.added", None)
        if added is not None:
            # a toast, gone by itself: a banner here stayed up through the opens and reveals
            # that follow (they rerun the question's fragment, not this part of the page)
            st.toast(t("live.added", number=added), icon=":material/check:")
    st.header(t("live.code_heading", code=f"`{code}`"))  # a code, not a word: set as code
    _links(frame, code, key, _base(_page_url()), ended=ended)
    if ended:
        st.info(t("live.ended", hours=int(DEFAULT_TTL // 3600)), icon=":material/event_busy:")
    else:
        class_controls(frame, code, key, locked=locked, show=show)
    st.divider()
    lesson(frame, code, key, ended=ended)
    if not ended:
        st.divider()
        # open while there is no question, or while the teacher came from a page to ask its
        # questions; then it stays as the teacher leaves it (a toggle, never folded by a rerun)
        st.session_state.setdefault("live.adding", not store().questions(code))
        if st.toggle(t("live.add_title"), key="live.adding"):
            with st.container(key="live-add", border=True):
                add_question(frame, code, key)
    st.divider()
    with st.container(horizontal=True):
        st.download_button(
            t("live.csv"),
            data=lambda: store().export_csv(code, key),
            file_name=f"live_class_{code}.csv",
            mime="text/csv",
            key="live.csv",
            on_click="ignore",
            icon=":material/download:",
        )
        st.download_button(
            t("live.csv_answers"),
            data=lambda: store().export_answers_csv(code, key),
            file_name=f"live_class_{code}_answers.csv",
            mime="text/csv",
            key="live.csv_answers",
            on_click="ignore",
            icon=":material/download:",
            help=t("live.csv_answers_help"),
        )


@st.fragment(run_every=REFRESH)
@_guarded
def lesson(frame: Frame, code: str, key: str, *, ended: bool) -> None:
    """The current question with its own controls and its answers, then every question with
    its count, read again every :data:`REFRESH` seconds (no count stays stale)."""
    t = frame.t
    items = store().questions(code)
    q = store().current(code)
    asked = st.session_state.get("live.confirm.reveal")
    if (
        asked is not None
        and not ended
        and any(i.number == asked and i.state in ("open", "closed") for i in items)
    ):
        _confirm(
            t,
            "reveal",
            t("live.reveal_confirm", number=asked),
            t("live.reveal_yes"),
            _confirmed_reveal,
            (code, key, int(asked)),
        )
    with st.container(key="live-current"):
        if q is None:
            st.caption(t("live.room_waiting"))
        elif shown_valid(frame, q):
            _question_row(frame, code, key, q, ended=ended, prefix="live.current")
            time_left(t, q.closes_at)
            prompt(frame, q.spec, number=q.number)
            results(frame, code, q, key=key)
    st.subheader(t("live.questions_title"))
    if not ended:
        st.selectbox(
            t("live.time_limit"),
            TIME_CHOICES,
            key="live.time_limit",
            format_func=lambda v: limit_text(t, v),
            help=t("live.time_limit_help"),
            width=320,
        )
    question_list(frame, code, key, items, ended=ended)


# ----------------------------------------------------------------------------- room


@st.fragment(run_every=REFRESH)
@_guarded
def room(frame: Frame, code: str) -> None:
    """The projector, one screen at 1024×768: how to join (small once a question is up), the
    question beside its answers (the count, the chart, after the reveal the verdict and the
    right answer); the worked step table folded below."""
    t = frame.t
    join = student_link(_base(_page_url()).url, code, frame.lang)
    q = store().current(code)
    if store().class_info(code).ended:  # no QR code to a class that takes nobody
        st.info(t("live.room_ended"), icon=":material/event_busy:")
    elif q is None:
        text, qr = st.columns([4, 1])
        text.markdown(t("live.room_join", link=f"`{join}`", code=f"**`{code}`**"))
        qr.image(share.qr_png(join, scale=6), width=160, alt=t("live.qr_alt"))
    else:
        with st.container(key="live-room-join", horizontal=True, vertical_alignment="center"):
            st.caption(t("live.room_join", link=f"`{join}`", code=f"**`{code}`**"))
            st.image(share.qr_png(join, scale=4), width=96, alt=t("live.qr_alt"))
    if q is None:
        st.info(t("live.room_waiting"), icon=":material/hourglass:")
        return
    if not shown_valid(frame, q):
        return
    question, answers = st.columns([11, 9], gap="large")
    with question:
        time_left(t, q.closes_at)
        prompt(frame, q.spec, number=q.number)
    with answers:
        results(frame, code, q)
    if q.state == "revealed" and has_worked_answer(q.spec):  # an empty fold said nothing
        with st.expander(t("live.steps_title"), icon=":material/table:"):
            worked_answer(frame, q.spec, key=f"live-room-steps-{q.number}", titled=False)


# ----------------------------------------------------------------------------- student


def _signature(code: str) -> tuple[int, str] | None:
    return store().shown(code, max_age=WATCH_MAX_AGE)


@st.fragment(run_every=REFRESH)
def _watch(t: Translate, code: str, shown: tuple[int, str] | None, closes_at: float | None = None) -> None:
    """Rerun the page when the teacher opens, closes or reveals a question (or its time limit
    runs out), showing meanwhile the time it has left."""
    time_left(t, closes_at)
    if st.session_state.pop("live.fresh", False):
        return  # the page's own run has just read it
    try:
        now = _signature(code)
    except NDCGInputError:  # the database not answering: the next check tries again
        return
    if now != shown:
        st.rerun()


def _sort_key(q: QuestionInfo, token: str) -> str:
    return f"live.sort.{q.number}.{token[:6]}"


def cards(spec: dict[str, Any], order: list[str]) -> list[str]:
    """The drag cards "item · grade" in ``order``."""
    grade = dict(zip(spec["labels"], spec["relevance"], strict=True))
    return [f"{x} · {format_grade(float(grade[x]))}" for x in order]


def _order_from_cards(spec: dict[str, Any], value: Any, shown: list[str]) -> list[str]:
    label_of = dict(zip(cards(spec, list(spec["labels"])), spec["labels"], strict=True))
    held = shown
    if isinstance(value, list) and value and isinstance(value[0], dict):
        held = list(value[0].get("items", shown))
    elif isinstance(value, list) and all(isinstance(x, str) for x in value):
        held = value
    return [label_of[c] for c in held if c in label_of]


def _submit(code: str, token: str, number: int, answer: Any) -> None:
    try:
        saved = store().submit(code, token, number, answer)
    except NDCGInputError as err:
        if err.key == "live_unavailable":  # said as "not saved, send again", the answer kept
            err = NDCGInputError("live_not_saved")
            st.session_state[f"live.unsent.{number}"] = answer
        st.session_state["live.error"] = err
    else:
        st.session_state.pop(f"live.unsent.{number}", None)
        st.session_state["live.saved"] = (number, saved)


#: Refusals of an answer that change the whole page (the question closed meanwhile, the
#: student removed...): the page runs again and says them at its top.
_PAGE_CHANGED = frozenset(
    {"live_closed", "live_not_open", "live_no_class", "live_no_student", "live_removed", "live_no_question"}
)


@st.fragment
@_guarded
def answer_part(frame: Frame, code: str, token: str, q: QuestionInfo, own: Answer | None) -> None:
    """The open question's answer: "Saved.", the student's answer, the form to send another.

    Sending reruns this part alone, not the page's frame, question and tables: in a class of
    hundreds the server has one small run to make per answer. ``own`` is the page's read; a
    run of this part alone takes the answer just saved, or reads it again.
    """
    t = frame.t
    error = st.session_state.get("live.error")
    if error is not None and error.key in _PAGE_CHANGED:
        st.rerun()  # the whole page: it shows the question's new state and says why
    if error is not None:
        student_error(frame, q, st.session_state.pop("live.error"))
    saved = st.session_state.pop("live.saved", None)
    if isinstance(saved, tuple) and saved[0] == q.number:
        own = saved[1]
        st.success(t("live.saved"), icon=":material/check:")
    elif not st.session_state.pop("live.own_fresh", False):  # this part's own run: read it
        own = store().own_answer(code, token, q.number)
    if own is not None:
        st.markdown(t("live.your_answer", answer=answer_text(frame, q.spec, own.value)))
    with st.container(key="live-answer"):  # large tap targets (ui.framework.styles)
        answer_form(frame, code, token, q, own)


def answer_form(frame: Frame, code: str, token: str, q: QuestionInfo, own: Answer | None) -> None:
    """The answer widget of the open question: a number, a choice, or drag cards."""
    t = frame.t
    kind = questions.answer_type(q.spec)
    if kind == "ranking":
        shown = cards(q.spec, questions.shown_order(q.spec, f"{token}:{q.number}"))
        st.markdown(t("live.drag"))
        order = sort_items(shown, direction="horizontal", key=_sort_key(q, token))
        widgets.drag_keys(t, key=f"live-{q.number}")
        st.button(
            t("live.submit"),
            key=f"live.submit.{q.number}",
            icon=":material/send:",
            on_click=lambda: _submit(code, token, q.number, _order_from_cards(q.spec, order, shown)),
        )
        return
    # an answer the database did not take stays in the box (the box may have gone meanwhile)
    unsent = str(st.session_state.get(f"live.unsent.{q.number}", ""))
    with st.form(f"live.form.{q.number}", border=False):
        if kind == "number":
            st.text_input(
                t("live.answer_label"),
                key=f"live.answer.{q.number}",
                max_chars=MAX_ANSWER_CHARS,  # the store refuses longer ones itself
                placeholder=t("live.answer_placeholder"),  # an example, not a value typed
                value=unsent if unsent else "" if own is None else f"{widgets.answer_number(own.value):g}",
            )
        else:
            names = choice_names(frame, q.spec)
            st.radio(
                t("live.choice_label"),
                list(names),
                index=(
                    list(names).index(unsent)
                    if unsent in names
                    else None
                    if own is None
                    else list(names).index(str(own.value))
                ),
                key=f"live.answer.{q.number}",
                format_func=lambda c: names[c],
            )
        # the answer is stored in the button's callback, before the page runs: one run, not two
        st.form_submit_button(
            t("live.submit"),
            icon=":material/send:",
            on_click=_submit_form,
            args=(code, token, q.number),
        )
    if st.session_state.pop("live.choose_first", False):
        st.warning(t("practice.choose_first"), icon=":material/info:")


def _submit_form(code: str, token: str, number: int) -> None:
    value = st.session_state.get(f"live.answer.{number}")
    if value is None or value == "":
        st.session_state["live.choose_first"] = True
    else:
        _submit(code, token, number, value)


def verdict(frame: Frame, spec: dict[str, Any], own: Answer) -> None:
    """The student's answer marked against the truth."""
    t = frame.t
    expected = questions.expected(spec)
    kind = questions.answer_type(spec)
    box = st.success if own.correct else st.error
    icon = ":material/check_circle:" if own.correct else ":material/cancel:"
    if kind == "number":
        key = "live.right_number" if own.correct else "live.wrong_number"
        box(
            t(
                key,
                given=f"{widgets.answer_number(own.value):g}",
                tol=questions.TOLERANCE,
                expected=widgets.number(widgets.answer_number(expected)),
            ),
            icon=icon,
        )
    elif kind == "ranking":
        box(
            t(
                "live.right_order" if own.correct else "live.wrong_order",
                score=widgets.number(float(own.score or 0.0)),
            ),
            icon=icon,
        )
    else:
        names = choice_names(frame, spec)
        if own.correct:
            said = t("live.right_choice", choice=md_escape(names[str(own.value)]))
        else:
            said = t(
                "live.wrong_choice",
                given=md_escape(names[str(own.value)]),
                expected=md_escape(names[str(expected)]),
            )
        # a page's word on the option chosen, as the page says it ("0 / 0" is right about the
        # mathematics, though the tools report 0 or 1): said on the phone too
        feedback = (
            asked(frame, spec).question.feedback.get(str(own.value), "")
            if spec.get("kind") == "predict"
            else ""
        )
        box(sentences(said, feedback), icon=icon)


def student_error(frame: Frame, q: QuestionInfo | None, err: NDCGInputError) -> None:
    """A refused answer in the student's words: a choice outside the options (a forged
    request) is answered with the options as shown, never the store's keys."""
    if err.key == "unknown_option" and q is not None and questions.answer_type(q.spec) == "choice":
        shown = "、".join if frame.lang == "zh" else ", ".join
        names = shown(f"“{name}”" for name in choice_names(frame, q.spec).values())
        st.error(frame.t("live.bad_choice", options=md_escape(names)), icon=":material/error:")
        return
    show_error(frame.lang, err)


def student(frame: Frame, code: str, token: str) -> None:
    """A student's phone: who they are, the open question and its answer, after the reveal
    their answer against the truth with the step table."""
    t = frame.t
    try:
        seen = store().phone(code, token or None, client=client_address())
    except NDCGInputError as err:
        if err.key == "live_unavailable":  # an answer just refused is said first ("not saved")
            unavailable(frame, st.session_state.pop("live.error", None) or err)
        else:
            st.session_state.pop("live.error", None)  # an answer's refusal: said by this one
            show_error(frame.lang, err)
            if err.key == "live_no_class":
                landing(frame)
        return
    me, q, own, code = seen.student, seen.question, seen.answer, seen.code
    if me.token != token:
        set_param("student", me.token)  # the link keeps the student through a reload
        token = me.token
    st.markdown(t("live.you_are", name=t("live.student_name", number=me.number)))
    error = st.session_state.get("live.error")
    if error is not None and (q is None or q.state != "open" or error.key in _PAGE_CHANGED):
        st.session_state.pop("live.error")
        student_error(frame, q, error)  # else the answer's part says it, next to the form
    st.session_state["live.fresh"] = True
    _watch(t, code, None if q is None else (q.number, q.state), None if q is None else q.closes_at)
    if q is None:
        st.info(t("live.wait"), icon=":material/hourglass:")
        return
    if not shown_valid(frame, q):
        return
    prompt(frame, q.spec, number=q.number, cards=q.state == "open")
    if q.state == "open":
        st.session_state["live.own_fresh"] = True
        answer_part(frame, code, token, q, own)
        return
    st.session_state.pop("live.saved", None)
    if own is not None:
        st.markdown(t("live.your_answer", answer=answer_text(frame, q.spec, own.value)))
    if q.state == "closed":
        st.info(t("live.closed_wait"), icon=":material/hourglass:")
        if own is None:
            st.caption(t("live.no_answer"))
        return
    # revealed
    if own is None:
        st.caption(t("live.no_answer"))
        st.success(truth_text(frame, q.spec), icon=":material/lightbulb:")
    else:
        verdict(frame, q.spec, own)  # a wrong choice's verdict names the right one: said once
        if q.spec.get("kind") == "predict":  # the page's why, right or not
            st.info(asked(frame, q.spec).answer, icon=":material/lightbulb:")
        elif not own.correct and questions.answer_type(q.spec) != "choice":
            st.info(truth_text(frame, q.spec), icon=":material/lightbulb:")
    order = (
        widgets.answer_order(own.value)
        if own is not None and questions.answer_type(q.spec) == "ranking"
        else None
    )
    worked_answer(frame, q.spec, key=f"live-steps-{q.number}", order=order)
