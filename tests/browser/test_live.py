"""A live class in Chromium: one teacher and five phones (390×844) in one class, on two app
servers that share one database (a SQLite file, then a PostgreSQL server); the teacher's page
counts all five answers.

The time from the last answer to the teacher's count is printed (measured, never asserted:
`bench/bench_live.py` measures submit → counted under load). Screenshots of the teacher, a
phone and the room, in English and Chinese, go to artifacts/screenshots/ (look at them).
"""

from __future__ import annotations

import io
import re
import time
from urllib.parse import parse_qs, urlsplit

import pytest
from browser_helpers import assert_no_exception, open_page, running_server, screenshot, wait_idle

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
#: The generous wait for the teacher's count: five phones on a loaded two-core machine.
COUNT_TIMEOUT = 90_000
TEXTS = {
    "en": {
        "start": "Start a class",
        "add": "Add the question",
        "open": "Open",
        "reveal": "Reveal",
        "reveal_yes": "Yes, reveal",
        "answer": "Your answer (a number, two decimals are enough)",
        "send": "Send my answer",
        "five": "5 answers",
        "one": "1 answer",
        "saved": "Saved.",
    },
    "zh": {
        "start": "开始一堂课",
        "add": "添加这道题",
        "open": "开放",
        "reveal": "公布答案",
        "reveal_yes": "确定公布",
        "answer": "你的回答（一个数，两位小数即可）",
        "send": "提交我的回答",
        "five": "5 个回答",
        "one": "1 个回答",
        "saved": "已保存。",
    },
}


def _decode_qr(png: bytes) -> list[str]:
    import zxingcpp
    from PIL import Image

    return [result.text for result in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


@pytest.fixture(scope="module")
def postgres_url():
    """A PostgreSQL server started in a temporary folder for this module (tests/live/pg_server.py)."""
    from pg_server import postgres_server

    with postgres_server() as url:
        yield url


@pytest.fixture(scope="module")
def sqlite_servers(tmp_path_factory):
    """Two app servers on one SQLite database file (as behind one address), for the module's
    tests: each test starts classes of its own, so they share the servers and the file (a
    server's start and its first run's imports cost seconds of the machine's CPU)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('live') / 'live.sqlite3'}"
    env = {"NDCG_LAB_DATABASE_URL": url}
    with running_server(env=env) as first, running_server(env=env) as second:
        yield url, first, second


@pytest.fixture(scope="module")
def postgres_servers(postgres_url):
    """Two app servers on one PostgreSQL server."""
    env = {"NDCG_LAB_DATABASE_URL": postgres_url}
    with running_server(env=env) as first, running_server(env=env) as second:
        yield postgres_url, first, second


@pytest.fixture
def two_servers(sqlite_servers):
    """Two app servers on one SQLite database file."""
    _url, first, second = sqlite_servers
    return first, second


@pytest.fixture(params=["sqlite", "postgresql"])
def two_servers_any_database(request):
    """Two app servers on one database: a SQLite file, or a PostgreSQL server."""
    servers = {"sqlite": "sqlite_servers", "postgresql": "postgres_servers"}[request.param]
    _url, first, second = request.getfixturevalue(servers)
    return first, second, request.param


def _start_class(page, base: str, lang: str, kind: str | None = None) -> tuple[str, str, str]:
    """Start a class, add a question from the Calculator's view (nDCG@k, or the option labelled
    ``kind``) and open it; (code, key, students' link)."""
    words = TEXTS[lang]
    open_page(page, f"{base}/Live_class?lang={lang}")
    page.get_by_role("button", name=words["start"]).click()
    wait_idle(page)
    page.wait_for_url(re.compile(r"view=teacher"))
    query = parse_qs(urlsplit(page.url).query)
    assert "key" not in query  # the key stays in the session, out of the address bar
    code, key = query["class"][0], _teacher_key(page)
    if kind is not None:
        page.get_by_text(kind).click()
        wait_idle(page)
    page.get_by_role("button", name=words["add"]).click()
    wait_idle(page)
    page.locator(".st-key-live-q-1").get_by_role("button", name=words["open"], exact=True).click()
    wait_idle(page)
    link = page.locator(".st-key-live-student-link code").inner_text().strip()
    return code, key, link


def _teacher_key(page) -> str:
    """The key of the teacher link shown (folded away) on the teacher's page."""
    link = page.locator(".st-key-live-teacher-link code").text_content() or ""
    return parse_qs(urlsplit(link.strip()).query)["key"][0]


def _answer(page, link: str, text: str, lang: str) -> None:
    words = TEXTS[lang]
    open_page(page, link)
    page.get_by_label(words["answer"]).fill(text)
    page.get_by_role("button", name=words["send"]).click()
    wait_idle(page)
    page.get_by_text(words["saved"]).wait_for()


def test_live_class_teacher_sees_five_phone_answers(browser, two_servers_any_database):
    from playwright.sync_api import expect

    first, second, database = two_servers_any_database
    teacher_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    teacher = teacher_context.new_page()
    phones = []
    try:
        code, key, link = _start_class(teacher, first, "en")
        # the students' link and its QR code: the class's code, never the teacher key
        assert parse_qs(urlsplit(link).query) == {"class": [code], "lang": ["en"]} and key not in link
        qr = teacher.locator(".st-key-live-qr img")
        teacher.wait_for_function(
            "() => [...document.querySelectorAll('.st-key-live-qr img')].every(i => i.complete)"
        )
        assert _decode_qr(qr.screenshot()) == [link]
        # nDCG@5 of 3, 2, 0, 0, 1 is (3 + 2/log2 3 + 1/log2 6) / (3 + 2/log2 3 + 1/2) = 0.9762
        answers = ["0.98", "0.97", "0.5", "0.98", "1"]
        for n, text in enumerate(answers):
            context = browser.new_context(**PHONE, locale="en-US")
            phone = context.new_page()
            phones.append(context)
            # students 1, 3, 5 on the first server, 2 and 4 on the second
            base = first if n % 2 == 0 else second
            _answer(phone, link.replace(first, base), text, "en")
            assert_no_exception(phone)
            assert "student=" in phone.url and key not in phone.url and key not in phone.content()
        sent = time.perf_counter()
        expect(teacher.locator(".st-key-live-results")).to_contain_text("5 answers", timeout=COUNT_TIMEOUT)
        print(f"\n{database}: last answer -> teacher's count of five: {time.perf_counter() - sent:.2f} s")
        assert_no_exception(teacher)
        screenshot(teacher, f"live-teacher-en-{database}")
        teacher.locator(".st-key-live-results").scroll_into_view_if_needed()
        screenshot(teacher, f"live-teacher-en-answers-{database}", full_page=False)
        screenshot(phones[0].pages[0], f"live-student-en-{database}")
        room = teacher_context.new_page()
        open_page(room, f"{second}/Live_class?class={code}&view=room&lang=en&present=1")
        expect(room.locator(".st-key-live-results")).to_contain_text("5 answers", timeout=COUNT_TIMEOUT)
        assert_no_exception(room)
        room.locator(".st-key-live-results").scroll_into_view_if_needed()
        screenshot(room, f"live-room-en-{database}", full_page=False)
    finally:
        for context in phones:
            context.close()
        teacher_context.close()


def test_live_class_reveal_in_chinese_on_phone_and_room(browser, two_servers):
    from playwright.sync_api import expect

    first, second = two_servers
    teacher_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    teacher = teacher_context.new_page()
    phone_context = browser.new_context(**PHONE, locale="zh-CN")
    phone = phone_context.new_page()
    room_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    room = room_context.new_page()
    try:
        code, _key, link = _start_class(teacher, first, "zh")
        _answer(phone, link.replace(first, second), "0.98", "zh")  # within 0.01 of 0.9762
        open_page(room, f"{second}/Live_class?class={code}&view=room&lang=zh&present=1")
        expect(room.locator(".st-key-live-results")).to_contain_text(
            TEXTS["zh"]["one"], timeout=COUNT_TIMEOUT
        )
        screenshot(room, "live-room-zh-open", full_page=False)
        teacher.locator(".st-key-live-q-1").get_by_role(
            "button", name=TEXTS["zh"]["reveal"], exact=True
        ).click()
        wait_idle(teacher)
        teacher.locator(".st-key-live-confirm-reveal").get_by_role(
            "button", name=TEXTS["zh"]["reveal_yes"]
        ).click()
        wait_idle(teacher)
        # the phone sees the reveal by itself (it checks every two seconds), with the step table
        expect(phone.get_by_text(re.compile(r"^正确：0\.98 "))).to_be_visible(timeout=COUNT_TIMEOUT)
        expect(phone.locator("[class*='st-key-lab-steps-']").first).to_be_visible()
        expect(room.get_by_text("精确答案")).to_be_visible(timeout=COUNT_TIMEOUT)
        for page in (teacher, phone, room):
            assert_no_exception(page)
        screenshot(teacher, "live-teacher-zh")
        screenshot(phone, "live-student-zh-revealed")
        screenshot(room, "live-room-zh-revealed")
    finally:
        for context in (teacher_context, phone_context, room_context):
            context.close()


@pytest.fixture
def live_server(sqlite_servers):
    """One app server on the module's SQLite file (the repository's data/ stays untouched)."""
    return sqlite_servers[1]


@pytest.fixture
def live_database(sqlite_servers):
    """The database URL of :func:`live_server` (a test fills it through ``LiveStore``)."""
    return sqlite_servers[0]


def test_live_class_drag_question_on_a_phone(browser, live_server):
    """A ranking question: the phone shows drag cards and sends its order; the room's chart
    counts it (the nDCG of the order given)."""
    from playwright.sync_api import expect

    teacher_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    teacher = teacher_context.new_page()
    phone_context = browser.new_context(**PHONE, locale="en-US")
    phone = phone_context.new_page()
    try:
        _code, _key, link = _start_class(
            teacher, live_server, "en", kind="Drag the items into an ideal order (a ranking)"
        )
        open_page(phone, link)
        frame = phone.frame_locator("[data-testid='stMain'] iframe").first
        expect(frame.get_by_text("D1 · 3")).to_be_visible()
        screenshot(phone, "live-student-en-drag", full_page=False)
        phone.get_by_role("button", name="Send my answer").click()
        wait_idle(phone)
        expect(phone.get_by_text("Saved.")).to_be_visible()
        expect(teacher.locator(".st-key-live-results")).to_contain_text("1 answer", timeout=COUNT_TIMEOUT)
        assert_no_exception(phone)
        assert_no_exception(teacher)
    finally:
        phone_context.close()
        teacher_context.close()


def test_live_time_limit_counts_down_and_closes_the_phone(browser, live_server, live_database):
    """A question opened for 6 s: the phone counts down by itself (no reload) and, when the
    time is up, shows the question closed and no Send button; a late answer is refused (the
    texts in Chinese: AppTest's test_live_teacher_opens_a_question_with_a_time_limit)."""
    from playwright.sync_api import expect

    from ndcg_core import NDCGInputError
    from ndcg_live import questions
    from ndcg_live.store import LiveStore
    from ui.framework import i18n

    db = LiveStore(live_database)
    code, key = db.create_class()
    number = db.add_question(
        code, key, questions.spec_from_ranking("ndcg", [3, 2, 0, 0, 1], ["D1", "D2", "D3", "D4", "D5"])
    )
    lang = "en"
    words = i18n.catalog(lang)
    phone_context = browser.new_context(**PHONE, locale="en-US")
    phone = phone_context.new_page()
    try:
        # the phone waits first (a page load is slower than the watcher's 2 s), then the
        # teacher opens the question for 6 s: the phone sees it open, counting down, by itself
        open_page(phone, f"{live_server}/Live_class?class={code}&lang={lang}")
        expect(phone.get_by_text(words["live.wait"])).to_be_visible()
        db.open_question(code, key, number, seconds=6)  # two refreshes of 2 s, and one to spare
        counter = phone.locator(".st-key-live-time-left")
        expect(counter).to_contain_text(re.compile(r"0:0[1-6]"))
        first = counter.inner_text()
        expect(counter).not_to_have_text(first, timeout=5_000)  # it counts down by itself
        screenshot(phone, "live-student-en-time-left", full_page=False)
        expect(phone.get_by_text(words["live.closed_wait"])).to_be_visible(timeout=20_000)
        expect(counter).to_have_count(0)
        expect(phone.get_by_role("button", name=words["live.submit"])).to_have_count(0)
        assert_no_exception(phone)
        with pytest.raises(NDCGInputError) as late:
            db.submit(code, db.join(code).token, number, "0.9")
        assert late.value.key == "live_closed"
    finally:
        phone_context.close()
        db.dispose()


def test_live_class_page_prediction_started_from_the_lesson(browser, live_server):
    """The sidebar's "Start a live class" on the Lesson: the teacher lands on the class with the
    lesson's predictions offered first, asks the DCG step's question, a phone answers it as a
    choice, and after the reveal the phone sees its verdict with the lesson's reveal text."""
    from playwright.sync_api import expect

    teacher_context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    teacher = teacher_context.new_page()
    phone_context = browser.new_context(**PHONE, locale="en-US")
    phone = phone_context.new_page()
    try:
        open_page(teacher, f"{live_server}/Lesson?lang=en")
        teacher.locator("[data-testid='stSidebar']").get_by_role("button", name="Start a live class").click()
        teacher.wait_for_url(re.compile(r"/Live_class\?.*view=teacher"), timeout=COUNT_TIMEOUT)
        wait_idle(teacher)
        assert "key=" not in teacher.url
        key = _teacher_key(teacher)
        teacher.locator("[data-testid='stRadio'] label").filter(
            has_text="Discounted cumulative gain (DCG)"
        ).click()
        wait_idle(teacher)
        teacher.get_by_role("button", name="Add the question").click()
        wait_idle(teacher)
        teacher.locator(".st-key-live-q-1").get_by_role("button", name="Open", exact=True).click()
        wait_idle(teacher)
        link = teacher.locator(".st-key-live-student-link code").inner_text().strip()
        assert key not in link
        open_page(phone, link)
        phone.locator("[data-testid='stRadio'] label").filter(has_text=re.compile(r"^CG$")).click()
        phone.get_by_role("button", name="Send my answer").click()
        wait_idle(phone)
        expect(teacher.locator(".st-key-live-results")).to_contain_text("1 answer", timeout=COUNT_TIMEOUT)
        teacher.locator(".st-key-live-q-1").get_by_role("button", name="Reveal", exact=True).click()
        wait_idle(teacher)
        teacher.locator(".st-key-live-confirm-reveal").get_by_role(
            "button", name=TEXTS["en"]["reveal_yes"]
        ).click()
        wait_idle(teacher)
        # CG@5 = 6 > DCG@5 = 3 + 2/log2 3 + 1/log2 6 = 4.6487: the lesson's reveal, on the phone
        expect(phone.get_by_text("Right: CG.")).to_be_visible(timeout=COUNT_TIMEOUT)
        expect(phone.get_by_text(re.compile(r"DCG@5 = 4\.6487"))).to_be_visible()
        for page in (teacher, phone):
            assert_no_exception(page)
        screenshot(teacher, "live-teacher-en-prediction")
        screenshot(phone, "live-student-en-prediction-revealed")
    finally:
        phone_context.close()
        teacher_context.close()


#: Answers to nDCG@3 of the Calculator's example (0.8950): right within 0.01, wrong near and far.
ROOM_ANSWERS = ["0.895", "0.89", "0.9", "0.885", "0.88", "0.85", "0.2", "1"]


def _in_view(page, locator) -> bool:
    """Whether the element is drawn whole inside the window, as the page opened (no scrolling)."""
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def test_live_room_histogram_after_reveal_on_a_projector(browser, live_server, live_database):
    """The room after the reveal at 1024×768 in presenter mode, English and Chinese: one screen
    holds the question, the chart, the verdict ("4 of 8 right.") and the right answer, for a
    number and for an A-vs-B question (issue 22, item 1); the verdict and the chart's axis
    labels are >= 20 px as drawn; screenshots."""
    from playwright.sync_api import expect

    from ndcg_live import questions
    from ndcg_live.store import LiveStore

    store = LiveStore(live_database)
    code, key = store.create_class()
    number = store.add_question(
        code, key, questions.spec_from_ranking("ndcg", [3, 2, 0, 0, 1], ["D1", "D2", "D3", "D4", "D5"], k=3)
    )
    store.open_question(code, key, number)
    for answer in ROOM_ANSWERS:
        store.submit(code, store.join(code).token, number, answer)
    store.reveal(code, key, number)
    ab, ab_key = store.create_class()
    number_ab = store.add_question(
        ab,
        ab_key,
        questions.spec_from_ranking("compare", [3, 2, 0, 0, 1], ["D1", "D2", "D3", "D4", "D5"], k=3),
    )
    store.open_question(ab, ab_key, number_ab)
    for answer in ("A", "A", "B", "same", "A"):
        store.submit(ab, store.join(ab).token, number_ab, answer)
    store.reveal(ab, ab_key, number_ab)
    store.dispose()
    verdicts = {"en": "4 of 8 right.", "zh": "8 人中 4 人答对。"}
    verdicts_ab = {"en": "3 of 5 right.", "zh": "5 人中 3 人答对。"}
    base = live_server
    for lang, verdict in verdicts.items():
        context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
        room = context.new_page()
        try:
            open_page(room, f"{base}/Live_class?class={code}&view=room&lang={lang}&present=1")
            results = room.locator(".st-key-live-results")
            expect(results.get_by_text(verdict)).to_be_visible(timeout=COUNT_TIMEOUT)
            chart = results.locator("[data-testid='stVegaLiteChart']")
            expect(chart.locator("svg, canvas").first).to_be_visible()
            assert_no_exception(room)
            one_screen = [
                room.locator("h2").first,  # the question
                results.locator("[data-testid='stAlertContainer']"),  # the right answer
                chart,
                results.get_by_text(verdict),
            ]
            assert all(_in_view(room, part) for part in one_screen), [
                part.bounding_box() for part in one_screen
            ]
            # the late joiners' QR code whole, below Streamlit's header (its top third, finder
            # squares included, was under the header: the presenter padding was 2.5rem)
            qr = room.locator(".st-key-live-room-join img").bounding_box()
            header = room.get_by_test_id("stHeader").bounding_box()
            assert qr is not None and header is not None and qr["y"] >= header["y"] + header["height"]
            size = results.get_by_text(verdict).evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
            assert size >= 20
            # axis labels as drawn (SVG text boxes after the presenter zoom of 1.3)
            heights = chart.locator("svg .role-axis-label text").evaluate_all(
                "es => es.map(e => e.getBoundingClientRect().height)"
            )
            assert all(h >= 20 for h in heights), heights
            print(lang, "verdict px", size, "axis label px", [round(h, 1) for h in heights])
            chart.scroll_into_view_if_needed()
            screenshot(room, f"live-room-{lang}-histogram-revealed-1024", full_page=False)
            results.get_by_text(verdict).scroll_into_view_if_needed()
            screenshot(room, f"live-room-{lang}-histogram-verdict-1024", full_page=False)
            open_page(room, f"{base}/Live_class?class={ab}&view=room&lang={lang}&present=1")
            results = room.locator(".st-key-live-results")
            expect(results.get_by_text(verdicts_ab[lang])).to_be_visible(timeout=COUNT_TIMEOUT)
            chart = results.locator("[data-testid='stVegaLiteChart']")
            expect(chart.locator("svg, canvas").first).to_be_visible()
            one_screen = [
                room.locator("h2").first,
                room.locator("[class*='st-key-lab-table-live-ab-']"),  # both lists
                chart,
                results.get_by_text(verdicts_ab[lang]),
                results.locator("[data-testid='stAlertContainer']"),
            ]
            assert all(_in_view(room, part) for part in one_screen), [
                part.bounding_box() for part in one_screen
            ]
            # the legend whole inside its chart's drawing (it read "the right answ" at 1024 px;
            # the SVG's box, as the presenter zoom draws it)
            cut = chart.evaluate(
                """c => { const right = c.querySelector('svg').getBoundingClientRect().right;
                  return [...c.querySelectorAll('.role-legend-label text')]
                    .filter(e => e.getBoundingClientRect().right > right + 1).map(e => e.textContent); }"""
            )
            assert cut == []
            screenshot(room, f"live-room-{lang}-compare-revealed-1024", full_page=False)
        finally:
            context.close()


CONTROLS = {
    "en": {
        "typed": "0,98",
        "lock": "Lock joining (students already in stay)",
        "locked": "joining is locked",
        "key": "Teacher link or key",
    },
    "zh": {
        "typed": "0。98",
        "lock": "锁定加入（已加入的学生保留）",
        "locked": "加入已锁定",
        "key": "教师链接或密钥",
    },
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_live_teacher_controls_and_a_decimal_comma_from_a_phone(browser, live_server, lang):
    """The teacher's page keeps the key out of the address bar and shows the class's controls;
    a phone's "0,98" (or a Chinese input method's "0。98") is the answer 0.98; with joining
    locked a new phone is refused; a reload of the teacher's page asks for the key."""
    from playwright.sync_api import expect

    words, controls = TEXTS[lang], CONTROLS[lang]
    locale = "en-US" if lang == "en" else "zh-CN"
    teacher_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    teacher = teacher_context.new_page()
    phone_context = browser.new_context(**PHONE, locale=locale)
    phone = phone_context.new_page()
    late_context = browser.new_context(**PHONE, locale=locale)
    late = late_context.new_page()
    try:
        _code, key, link = _start_class(teacher, live_server, lang)
        assert key not in teacher.url
        _answer(phone, link, controls["typed"], lang)
        expect(phone.get_by_text(re.compile(r"0\.98"))).to_be_visible()
        screenshot(phone, f"live-phone-{lang}-decimal-comma", full_page=False)
        expect(teacher.locator(".st-key-live-results")).to_contain_text(words["one"], timeout=COUNT_TIMEOUT)
        teacher.get_by_text(controls["lock"], exact=True).click()
        wait_idle(teacher)
        expect(teacher.locator(".st-key-live-join-stats")).to_contain_text(
            controls["locked"], timeout=COUNT_TIMEOUT
        )
        open_page(late, link)
        expect(late.locator("[data-testid='stAlertContentError']")).to_be_visible()
        for page in (teacher, phone, late):
            assert_no_exception(page)
        controls_box = teacher.locator(".st-key-live-controls")
        controls_box.locator("summary").click()  # open "Remove students" for the screenshot
        wait_idle(teacher)
        controls_box.evaluate("e => e.scrollIntoView({block: 'start'})")
        screenshot(teacher, f"live-teacher-{lang}-controls-1280", full_page=False)
        open_page(teacher, teacher.url)  # a reload: a new session, without the key
        expect(teacher.get_by_label(controls["key"])).to_be_visible()
        assert teacher.locator(".st-key-live-join-stats").count() == 0 and "key=" not in teacher.url
    finally:
        for context in (teacher_context, phone_context, late_context):
            context.close()


def test_live_teacher_screen_and_phone_tap_targets(browser, live_server, live_database):
    """At 1280×800 the teacher of a class with five questions sees the current question's
    controls and its live answers together in one window; on the teacher's presenter page the
    students' link is no smaller than the body text; on a 390×844 phone the options and Send
    are tap targets of 44 px or more, and "Join a class" comes before "Start a class" (issue
    22, items 5 and 10). Screenshots in English and Chinese."""
    from playwright.sync_api import expect

    from ndcg_live import questions
    from ndcg_live.store import LiveStore

    store = LiveStore(live_database)
    code, key = store.create_class()
    ranking = ([3, 2, 0, 0, 1], ["D1", "D2", "D3", "D4", "D5"])
    for kind in ("ndcg", "ideal_order", "ndcg", "ndcg"):
        store.add_question(code, key, questions.spec_from_ranking(kind, *ranking, k=3))
    number = store.add_question(code, key, questions.spec_from_ranking("compare", *ranking, k=3))
    store.open_question(code, key, number)
    for answer in ("A", "A", "B", "same", "A"):
        store.submit(code, store.join(code).token, number, answer)
    store.dispose()
    base = live_server
    for lang in ("en", "zh"):
        locale = "en-US" if lang == "en" else "zh-CN"
        context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
        teacher = context.new_page()
        phone_context = browser.new_context(**PHONE, locale=locale)
        phone = phone_context.new_page()
        try:
            open_page(teacher, f"{base}/Live_class?class={code}&key={key}&lang={lang}")
            current = teacher.locator(".st-key-live-current")
            chart = current.locator("[data-testid='stVegaLiteChart']")
            expect(chart.locator("svg, canvas").first).to_be_visible(timeout=COUNT_TIMEOUT)
            row = current.locator(f".st-key-live-current-q-{number}")
            row.evaluate("e => e.scrollIntoView({block: 'start'})")
            top, bottom = row.bounding_box(), chart.bounding_box()
            assert top is not None and bottom is not None
            assert bottom["y"] + bottom["height"] - top["y"] <= 800, (top, bottom)
            # the list's counts are the current ones, with the chart's
            expect(teacher.locator(f".st-key-live-q-{number}")).to_contain_text(TEXTS[lang]["five"])
            screenshot(teacher, f"live-teacher-{lang}-current-1280", full_page=False)
            assert_no_exception(teacher)

            open_page(teacher, f"{base}/Live_class?class={code}&key={key}&lang={lang}&present=1")
            link = teacher.locator(".st-key-live-student-link code")
            sizes = teacher.locator("[data-testid='stMain'] p").evaluate_all(
                "es => es.map(e => parseFloat(getComputedStyle(e).fontSize))"
            )
            assert link.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= min(sizes)

            open_page(phone, f"{base}/Live_class?class={code}&lang={lang}")
            answer = phone.locator(".st-key-live-answer")
            expect(answer.locator("[data-testid='stRadio'] label").first).to_be_visible()
            heights = answer.locator("[data-testid='stRadio'] label, button").evaluate_all(
                "es => es.map(e => e.getBoundingClientRect().height)"
            )
            assert len(heights) >= 4 and min(heights) >= 44, heights  # three options and Send
            screenshot(phone, f"live-phone-{lang}-choice-390", full_page=False)
            open_page(phone, f"{base}/Live_class?lang={lang}")
            join = phone.get_by_role("heading", name={"en": "Join a class", "zh": "加入课堂"}[lang])
            start = phone.get_by_role("button", name=TEXTS[lang]["start"])
            assert join.bounding_box()["y"] < start.bounding_box()["y"]
            screenshot(phone, f"live-phone-{lang}-landing-390", full_page=False)
        finally:
            context.close()
            phone_context.close()
