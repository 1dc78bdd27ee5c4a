"""The Chromium the browser tests drive: Playwright's own settings kept, and no address-bar
pop-up preloaded for every page (CHROMIUM_ARGS)."""

from __future__ import annotations

from pathlib import Path

from browser_helpers import OFF_FEATURES, playwright_disabled_features


def test_chromium_keeps_playwrights_features_off_and_preloads_no_omnibox_popup(browser):
    context = browser.new_context()
    try:
        context.new_page().goto("about:blank")
        session = browser.new_browser_cdp_session()
        processes = session.send("SystemInfo.getProcessInfo")["processInfo"]
        (pid,) = [p["id"] for p in processes if p["type"] == "browser"]
        # Chromium rewrites its process title: the arguments joined by spaces
        arguments = Path(f"/proc/{pid}/cmdline").read_bytes().decode().replace("\0", " ").split()
        # Chromium reads the last --disable-features only: it must hold Playwright's and ours
        last = [a for a in arguments if a.startswith("--disable-features=")][-1]
        off = set(last.removeprefix("--disable-features=").split(","))
        playwrights = set(playwright_disabled_features())
        assert {"PaintHolding", "ThirdPartyStoragePartitioning"} <= playwrights  # the list was read
        assert playwrights | set(OFF_FEATURES) <= off
        targets = session.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
        assert [t["url"] for t in targets if t["type"] == "browser_ui"] == []
    finally:
        context.close()
