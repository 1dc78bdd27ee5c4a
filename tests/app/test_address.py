"""The share link's address: students can open it, or the popover says they cannot (issue 14)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from ui.framework import address, i18n

LAN = "192.168.1.20"  # what the detector would find on a classroom network (never contacted)


def _no_network() -> str | None:
    return None


def test_share_address_keeps_a_browser_address_students_can_open():
    share = address.share_address(
        "http://192.168.1.20:8501/Lesson", server_address="0.0.0.0", detect=lambda: "10.0.0.9"
    )
    assert (share.url, share.source) == ("http://192.168.1.20:8501/Lesson", "browser")


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::1]", "127.0.0.2"])
def test_share_address_replaces_a_loopback_host_by_the_network_address(host):
    share = address.share_address(f"http://{host}:8600/Blind_spots", server_address="", detect=lambda: LAN)
    assert (share.url, share.source, share.host) == (f"http://{LAN}:8600/Blind_spots", "network", LAN)


def test_share_address_on_a_server_listening_only_on_loopback_is_unreachable():
    share = address.share_address("http://localhost:8501/", server_address="127.0.0.1", detect=lambda: LAN)
    assert (share.url, share.source) == ("http://localhost:8501/", "unreachable")


def test_share_address_without_a_network_is_unreachable():
    share = address.share_address("http://127.0.0.1:8501/", server_address="0.0.0.0", detect=_no_network)
    assert share.source == "unreachable"


def test_share_address_prefers_the_configured_public_address():
    share = address.share_address(
        "http://192.168.1.20:8501/Lesson", public_url="https://ndcg.example.edu/lab/", detect=lambda: LAN
    )
    assert (share.url, share.source, share.host) == (
        "https://ndcg.example.edu/lab/Lesson",
        "configured",
        "ndcg.example.edu",
    )


def test_is_loopback_is_false_for_network_and_empty_hosts():
    assert not any(address.is_loopback(h) for h in ("192.168.1.20", "ndcg.example.edu", "0.0.0.0", "", None))


def test_network_address_is_none_or_a_non_loopback_ipv4_address():
    host = address.network_address()
    assert host is None or (not address.is_loopback(host) and host.count(".") == 3)


def test_frame_share_link_uses_the_configured_public_address(app, monkeypatch):
    monkeypatch.setenv(address.PUBLIC_URL_ENV, "http://10.1.2.3:8501")
    at = app(rel="3,2,0", k="2")
    at.session_state["lab.share"] = True
    at.run()
    link = at.sidebar.code[0].value
    assert link.startswith("http://10.1.2.3:8501/?")
    assert parse_qs(urlsplit(link).query)["rel"] == ["3,2,0"]
    note = i18n.translate("en", "classroom.share_from_configured", host="10\\.1\\.2\\.3")
    assert note in [c.value for c in at.sidebar.caption]


def test_frame_share_popover_names_the_address_in_chinese(app, monkeypatch):
    monkeypatch.setenv(address.PUBLIC_URL_ENV, "http://10.1.2.3:8501")
    at = app(rel="3,2,0", lang="zh")
    at.session_state["lab.share"] = True
    at.run()
    assert any("公开地址" in c.value for c in at.sidebar.caption)
