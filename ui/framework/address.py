"""Which address the share link and its QR code use, so that students can open them.

The frame builds the link from the address the teacher's browser used (``st.context.url``). On
the teacher's laptop that is ``127.0.0.1`` or ``localhost``, which opens the student's own
machine, not the teacher's. :func:`share_address` decides, without Streamlit (tested in
``tests/app/test_address.py``):

1. the public address the teacher configured (:data:`PUBLIC_URL_ENV`), if any;
2. else the browser's address, if it is not a loopback one;
3. else, when the server listens on the network, this machine's address on the network
   (:func:`network_address`), with the browser's port and page;
4. else no address students can reach is known: the browser's address, flagged.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit, urlunsplit

#: The environment variable with the address students use, e.g. ``http://192.168.1.20:8501`` or
#: ``https://ndcg.example.edu`` behind a proxy; the page's path is added to it.
PUBLIC_URL_ENV = "NDCG_LAB_PUBLIC_URL"

#: What the address of the link is: configured, the browser's, found on the network, or one
#: only this machine can open.
SOURCES: tuple[str, ...] = ("configured", "browser", "network", "unreachable")


@dataclass(frozen=True, slots=True)
class ShareAddress:
    """The base of the share link (scheme, host, port and page path) and where it came from."""

    url: str
    source: str
    host: str
    browser_host: str


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` is this machine only: ``localhost``, ``127.0.0.0/8`` or ``::1``.

    >>> [is_loopback(h) for h in ("localhost", "127.0.0.2", "::1", "[::1]", "192.168.1.20", "")]
    [True, True, True, True, False, False]
    """
    if not host:
        return False
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@lru_cache(maxsize=1)
def network_address() -> str | None:
    """This machine's IPv4 address on the network, or None when it has none.

    The address is the one the system would send from to reach an outside host: connecting a
    UDP socket only chooses the route and the source address; UDP has no handshake, so
    ``connect`` sends no packet (192.0.2.1 is TEST-NET-1, RFC 5737, never a real host).
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))
            host = sock.getsockname()[0]
    except OSError:  # no network at all
        return None
    return None if is_loopback(host) or host == "0.0.0.0" else host


def _with_host(url: str, host: str) -> str:
    parts = urlsplit(url)
    netloc = f"[{host}]" if ":" in host else host
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme or "http", netloc, parts.path, "", ""))


def share_address(
    browser_url: str | None,
    *,
    public_url: str | None = None,
    server_address: str | None = None,
    detect: Callable[[], str | None] = network_address,
) -> ShareAddress:
    """The base of the share link and its source (see the module's docstring).

    Parameters
    ----------
    browser_url : str or None
        The page's address in the teacher's browser (``st.context.url``), None if unknown.
    public_url : str or None
        The configured public address of the app's home page (:data:`PUBLIC_URL_ENV`).
    server_address : str or None
        Streamlit's ``server.address``: where the server listens (None or empty: everywhere).
    detect : callable
        Returns this machine's network address (:func:`network_address`; tests replace it).

    >>> share_address("http://127.0.0.1:8501/Lesson", server_address="0.0.0.0",
    ...               detect=lambda: "192.168.1.20").url
    'http://192.168.1.20:8501/Lesson'
    >>> share_address("http://localhost:8501/", public_url="https://ndcg.example.edu/").url
    'https://ndcg.example.edu/'
    >>> share_address("http://127.0.0.1:8501/", server_address="127.0.0.1").source
    'unreachable'
    """
    browser = urlsplit(browser_url or "")
    browser_host = browser.hostname or ""
    if public_url and public_url.strip():
        public = urlsplit(public_url.strip())
        path = public.path.rstrip("/") + (browser.path or "/")
        url = urlunsplit((public.scheme or "http", public.netloc, path, "", ""))
        return ShareAddress(url, "configured", public.hostname or "", browser_host)
    base = urlunsplit((browser.scheme, browser.netloc, browser.path, "", "")) if browser_url else ""
    if not is_loopback(browser_host):
        return ShareAddress(base, "browser", browser_host, browser_host)
    if not is_loopback(server_address):
        host = detect()
        if host:
            return ShareAddress(_with_host(base, host), "network", host, browser_host)
    return ShareAddress(base, "unreachable", browser_host, browser_host)
