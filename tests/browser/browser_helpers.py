"""Helpers for real-browser tests (selectors stay out of test bodies)."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
SHOTS = ROOT / "artifacts" / "screenshots"
LOGS = ROOT / "artifacts" / "server-logs"
#: The output file of every server started and not yet stopped, by base URL; conftest prints
#: their ends when a browser test fails.
SERVER_LOGS: dict[str, Path] = {}
#: Features turned off on top of Playwright's own: the address bar's pop-ups. Headless Chromium
#: is a whole browser window without a screen, and it preloads the omnibox's two pop-ups
#: (chrome://omnibox-popup.top-chrome/, CDP's ``Target.getTargets`` lists them as "browser_ui")
#: in a renderer of their own for every browser context: 0.6-0.7 s of CPU each time, a quarter
#: of what a load of the Lesson page costs the whole machine (2.65 -> 1.9 s, measured 2026-12-07).
OFF_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")


def playwright_disabled_features() -> list[str]:
    """The Chromium features Playwright turns off when it launches Chromium (its
    ``chromiumSwitches``), read from the installed Playwright. Chromium reads only the last
    ``--disable-features`` of its command line, so a list of ours must repeat them."""
    import playwright

    bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
    found = re.search(r"disabledFeatures = \[(.*?)\]", bundle.read_text(encoding="utf-8"), re.DOTALL)
    features = re.findall(r'^\s*"(\w+)"', found.group(1), re.MULTILINE) if found else []
    if not features:
        raise RuntimeError(f"Playwright's list of disabled Chromium features is no longer in {bundle}")
    return features


CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-features=" + ",".join([*playwright_disabled_features(), *OFF_FEATURES]),
]
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
#: The drag cards' frame (streamlit-sortables; its title is the page's words, see
#: ui.framework.styles.DRAG_CARDS_SCRIPT).
SORTABLE = "iframe[src*='streamlit_sortables']"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(
    port: int | None = None,
    *,
    address: str = "127.0.0.1",
    env: dict[str, str] | None = None,
    command: list[str] | None = None,
    cwd: Path = ROOT,
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``streamlit run app.py`` (or ``command``, e.g. an installed ``ndcg-lab app``, with
    the same options) listening on ``address``; return the process and its base URL, always a
    loopback one (a server on 0.0.0.0, as in a class, is reached there too). ``env`` adds
    environment variables (e.g. ``NDCG_LAB_DATABASE_URL``) to this one's."""
    port = port or free_port()
    cmd = [
        *(command or [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py")]),
        "--server.headless",
        "true",
        "--server.address",
        address,
        "--server.port",
        str(port),
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
    ]
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / f"server-{port}.log"
    with log.open("wb") as out:  # the child keeps its own descriptor
        proc = subprocess.Popen(
            cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}
        )
    base = f"http://127.0.0.1:{port}"
    SERVER_LOGS[base] = log
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as resp:
                if resp.read().strip() == b"ok":
                    return proc, base
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"Streamlit server did not become healthy in 60 s:\n{log_tail(log)}")


def log_tail(path: Path, lines: int = 60) -> str:
    """The last ``lines`` lines of a server's output."""
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError as error:
        return f"(no output: {error})"


@contextmanager
def running_server(
    address: str = "127.0.0.1",
    env: dict[str, str] | None = None,
    command: list[str] | None = None,
    cwd: Path = ROOT,
) -> Iterator[str]:
    """A fresh server for the ``with`` block; yields its base URL and stops it afterwards."""
    proc, base = start_server(address=address, env=env, command=command, cwd=cwd)
    try:
        yield base
    finally:
        SERVER_LOGS.pop(base, None)
        stop_server(proc)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server started by :func:`start_server` (terminate, then kill after 10 s)."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


#: The page has drawn what the last run sent when nothing in it changed for this long: the
#: frontend sets the script state to notRunning before React has drawn the run's last
#: elements (0.7 s later on a loaded machine, measured), so the state alone is not enough.
QUIET_MS = 500

#: True when the script run is over and its output drawn: the app is not running, the
#: websocket is connected, no element is left stale from the run before, every component
#: frame has drawn its content, and the page has not changed for QUIET_MS.
_SETTLED = """() => {
  const app = document.querySelector("[data-testid='stApp']");
  const watch = window.__labRuns;
  return !!app && !!watch && app.getAttribute("data-test-script-state") === "notRunning"
    && app.getAttribute("data-test-connection-state") === "CONNECTED"
    && document.querySelectorAll("[data-stale='true']").length === 0
    && document.querySelector("[data-testid='stMain'] [data-testid='stElementContainer']") !== null
    && performance.now() - watch.lastChange > QUIET_MS
    && [...document.querySelectorAll("[data-testid='stMain'] iframe")].every((frame) => {
      // a component (the drag cards) is drawn when its React root has content
      const doc = frame.contentDocument;
      if (!doc || doc.readyState !== "complete") return false;
      const root = doc.getElementById("root");
      return root === null || root.childElementCount > 0;
    });
}""".replace("QUIET_MS", str(QUIET_MS))

#: Installed before a document loads (``add_init_script``): counts every change of the app's
#: script state from the first, so a wait can tell whether a run has started since it last
#: looked. ``seen`` is the count at the end of the last wait.
_WATCH = """(() => {
  if (window.__labRuns) return;
  window.__labRuns = {changes: 0, seen: 0, lastChange: performance.now()};
  new MutationObserver((records) => { window.__labRuns.changes += records.length; })
    .observe(document, {attributes: true, subtree: true, attributeFilter: ["data-test-script-state"]});
  new MutationObserver(() => { window.__labRuns.lastChange = performance.now(); })
    .observe(document, {childList: true, subtree: true, characterData: true});
})();"""
_WATCHED: weakref.WeakSet[Any] = weakref.WeakSet()

#: An action starts its script run within this time on a loaded machine; an action that starts
#: none (opening a popover) costs this once.
RUN_START_GRACE = 3_000


def _settle(page, timeout: float) -> None:
    page.wait_for_function(_SETTLED, timeout=timeout, polling="raf")
    page.evaluate("() => { window.__labRuns.seen = window.__labRuns.changes; }")


def wait_idle(page, timeout: float = 30_000) -> None:
    """Wait until the run that the last action started is over and drawn (no fixed sleep).

    Returns as soon as a run that began after the previous wait has settled; an action that
    starts no run gets ``RUN_START_GRACE`` ms to show one.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with contextlib.suppress(PlaywrightTimeout):  # an action that started no run
        page.wait_for_function(
            "() => window.__labRuns.changes > window.__labRuns.seen", timeout=RUN_START_GRACE, polling="raf"
        )
    _settle(page, timeout)


def settle(page, timeout: float = 30_000) -> None:
    """Wait until the page is drawn and still after an action that starts no script run
    (opening an expander): :func:`wait_idle` would first give a run ``RUN_START_GRACE`` ms."""
    _settle(page, timeout)


def open_page(page, url: str, timeout: float = 30_000) -> None:
    """Go to ``url`` and wait until its first script run is over and drawn."""
    if page not in _WATCHED:
        page.add_init_script(_WATCH)
        _WATCHED.add(page)
    page.goto(url)
    page.wait_for_function(
        "() => window.__labRuns && window.__labRuns.changes > 0", timeout=timeout, polling="raf"
    )
    _settle(page, timeout)


def go_to_page(page, server: str, path: str, timeout: float = 30_000) -> None:
    """Move the open page to the app's page at ``path`` ("/" or "/Lesson") with the sidebar's
    link, as a person does, and wait until its run is drawn; nothing when it is already there.
    The app's scripts stay loaded, so a move takes about a third of a page load's wall time
    (0.75-1.5 s against 2.2-3.4 s, each teaching page on an idle machine; less gained on a
    loaded one)."""
    if page.evaluate("() => location.pathname") == path:
        return
    page.locator(f"[data-testid='stSidebarNav'] a[href='{server}{path}']").click()
    wait_for_path(page, path, timeout)


def wait_for_path(page, path: str, timeout: float = 30_000) -> None:
    """Wait until the app shows its page at ``path`` ("/" or "/Lesson") and that page's run is
    drawn: after an action that moves to another page (a link, a button calling
    ``st.switch_page``). The run of the page left and the run of the new one are two runs;
    on a loaded machine :func:`wait_idle` alone can settle in the pause between them (seen:
    the Evaluate page still shown after its "Open in the Calculator")."""
    page.wait_for_function("(path) => location.pathname === path", arg=path, timeout=timeout)
    wait_idle(page, timeout)


def assert_no_exception(page) -> None:
    """No Streamlit exception box anywhere on the page."""
    assert page.locator("[data-testid='stException']").count() == 0


def screenshot(page, name: str, *, full_page: bool = True) -> Path:
    """Save a screenshot under artifacts/screenshots (git-ignored) and return its path."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def switch_theme(page, theme: str, background: str, timeout: float = 30_000) -> None:
    """Switch the system's colour scheme to ``theme`` ("light" or "dark") in the open page, as a
    person does in their system's settings; Streamlit follows it without a reload or a script
    run (the page switched to dark and the page opened in dark were the same pixel for pixel:
    the Calculator and the Explore page's chart, 2026-12-05). Waits until the app's background
    is ``background`` (``#RRGGBB``) and the page has settled again."""
    rgb = ", ".join(str(int(background[i : i + 2], 16)) for i in (1, 3, 5))
    page.emulate_media(color_scheme=theme)
    page.wait_for_function(
        f"""() => getComputedStyle(document.querySelector("[data-testid='stApp']")).backgroundColor
              === "rgb({rgb})" """,
        timeout=timeout,
    )
    _settle(page, timeout)


def wait_page_ready(page, timeout: float = 20_000) -> None:
    """Wait until the page is complete for a person: the app's own style sheet
    (``ui.framework.styles.PAGE_CSS``) and script (``ui.framework.styles.PAGE_SCRIPT``) are applied, and no
    Streamlit skeleton is left. On a fresh server Streamlit loads each widget's code on first
    use and shows a grey skeleton meanwhile (about 2 s, measured), after the run has settled:
    a test that tabs or audits then finds no inputs, and a page measured before the style sheet
    shows Streamlit's bare styles (a caption at 0.6 opacity, the current page's link at 40 %)."""
    page.wait_for_function(
        """() => getComputedStyle(document.documentElement).getPropertyValue('--lab-page-css').trim() === '1'
          && window.__labPageScript === true
          && !document.querySelector('[data-testid^="stSkeleton"], [data-testid="stAppSkeleton"]')""",
        timeout=timeout,
    )
    for frame in page.frames[1:]:  # components (the drag cards) drawn too
        frame.wait_for_load_state()


def axe_violations(page, *, impacts: tuple[str, ...] = ("serious", "critical")) -> list[dict[str, Any]]:
    """axe-core's violations of the page and its frames (the drag cards' iframe), of the given
    impacts, as (rule id, impact, target, html, summary) dicts, one per element.

    The axe script is the copy shipped inside the ``axe-playwright-python`` package, injected
    into every frame (axe-core audits a frame only when it runs inside it): no request leaves
    the local server.
    """
    from axe_playwright_python.sync_playwright import Axe

    script = Axe().axe_script
    for frame in page.frames:
        frame.evaluate(script)
    results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        {
            "id": rule["id"],
            "impact": rule["impact"],
            "target": " >> ".join(node["target"])
            if all(isinstance(t, str) for t in node["target"])
            else str(node["target"]),
            "html": node["html"][:200],
            "summary": (node.get("failureSummary") or "").replace("\n", " ")[:300],
        }
        for rule in results["violations"]
        if rule["impact"] in impacts
        for node in rule["nodes"]
    ]


#: Two animation frames of the page: the frontend has handled what came before and drawn it.
_TWO_FRAMES = (
    "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"
)


def choose_option(page, selectbox, name: str, attempts: int = 3) -> None:
    """Open a Streamlit selectbox and pick the option called ``name``.

    Streamlit 1.67's selectbox (a react-aria combo box) is not opened by a Playwright click that
    lands on it without a hover before: that click only focuses it (seen on every page, fresh
    or reached by the sidebar, 2026-12-06; the pointer resting on it for 0.5 s first, or a tap,
    opens it at once, so a person is not likely to meet it). A click that lands while the page
    is still drawing the widget opens nothing either (seen once in CI on a loaded machine). So
    the box is clicked until its combo box says it is expanded, read after the page has drawn
    the click: a wait on the page's state, not on time (the first version waited 10 s for a
    list that the first click never opens)."""
    wait_page_ready(page)
    combobox = selectbox.get_by_role("combobox")
    for _ in range(attempts):
        selectbox.click()
        page.evaluate(_TWO_FRAMES)
        if combobox.get_attribute("aria-expanded") == "true":
            break
    option = page.get_by_role("option", name=name)
    option.wait_for(state="visible", timeout=10_000)
    option.click()
