"""Attacks that need a real server socket: the app under uvicorn with the protocols of
``madang serve`` (:func:`madang.server.cli.uvicorn_config`), in a thread, on loopback.

Each attack is bounded (a few thousand frames or bytes, a few seconds) and asserts the
server's answer: floods and slow clients are cut off, and a normal request still works.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server import conftest
from tests.server.live import Live, closed_within, running


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Callable[..., Live]]:
    with contextlib.ExitStack() as stack:
        count = 0

        def start(**overrides: Any) -> Live:
            nonlocal count
            count += 1
            url = f"sqlite:///{tmp_path / f'live{count}.sqlite3'}"
            return stack.enter_context(running(conftest.test_config(url, **overrides)))

        yield start


PING = bytes([0x89, 0x80, 0, 0, 0, 0])  # a masked, empty ping frame


def test_ping_flood_is_cut_off_and_the_address_refused(live: Callable[..., Live]) -> None:
    srv = live(ws_control_burst=20.0, ws_address_control_burst=40.0, ws_ban_s=30.0)
    path = f"/ws/tables/{srv.table()}"
    s = srv.websocket(path)
    s.sendall(PING * 5)  # a few pings are answered (pongs)
    time.sleep(0.2)
    assert s.recv(4096).count(b"\x8a\x00") == 5
    with contextlib.suppress(OSError):
        s.sendall(PING * 2000)
    got = closed_within(s, 5.0)
    assert got is not None, "the flooding connection was not closed"
    assert got.count(b"\x8a\x00") < 20  # the flood's pings went unanswered
    assert b"\x88" in got and (1008).to_bytes(2, "big") in got  # closed with 1008
    s.close()
    # The address is refused WebSockets for a while; HTTP still works.
    with pytest.raises(ConnectionError):
        srv.websocket(path).recv(1)
    assert srv.get("/api/config") == 200


def test_a_flood_that_reconnects_meets_the_same_address_bucket(
    live: Callable[..., Live],
) -> None:
    srv = live(ws_control_burst=30.0, ws_address_control_burst=40.0, ws_ban_s=30.0)
    path = f"/ws/tables/{srv.table()}"
    first = srv.websocket(path)
    first.sendall(PING * 25)  # under the connection's 30 and the address's 40
    time.sleep(0.2)
    assert first.recv(4096).count(b"\x8a\x00") == 25
    first.close()
    second = srv.websocket(path)  # a fresh connection, but the same address
    second.sendall(PING * 25)
    got = closed_within(second, 3.0)
    assert got is not None and (1008).to_bytes(2, "big") in got
    assert srv.get("/api/config") == 200


def test_many_honest_sockets_behind_one_address(live: Callable[..., Live]) -> None:
    """Clients behind one NAT each ping now and then: the address's budget grows with
    its sockets, so none is cut off."""
    srv = live(ws_control_burst=10.0, ws_address_control_burst=8.0, ws_per_address=64)
    path = f"/ws/tables/{srv.table()}"
    socks = [srv.websocket(path) for _ in range(40)]
    for s in socks:  # one keep-alive ping each: 40 in all, over the address's bare 8
        s.sendall(PING)
    time.sleep(0.3)
    for s in socks:
        s.settimeout(2)
        assert b"\x8a\x00" in s.recv(4096)
        s.close()


def test_chunked_upload_is_cut_at_the_cap(live: Callable[..., Live]) -> None:
    srv = live()
    s = srv.raw()
    s.sendall(
        b"POST /api/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"x" * 65536
    frame = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    sent = 0
    try:
        for _ in range(64):  # up to 4 MiB; the server answers after 64 KiB
            s.sendall(frame)
            sent += 1
    except OSError:
        pass
    got = closed_within(s, 10.0)
    assert got is not None and got.startswith(b"HTTP/1.1 413"), got
    assert b'"too_large"' in got
    assert srv.get("/api/config") == 200


def test_slow_and_idle_connections_are_closed(live: Callable[..., Live]) -> None:
    srv = live(read_timeout_s=0.5)
    idle = srv.raw()  # sends nothing at all
    slow = srv.raw()
    slow.sendall(b"GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never ends its headers
    assert closed_within(idle, 5.0) == b""
    assert closed_within(slow, 5.0) is not None
    assert srv.get("/api/config") == 200


def test_connections_per_address(live: Callable[..., Live]) -> None:
    srv = live(connections_per_address=5, read_timeout_s=30.0)
    held = [srv.raw() for _ in range(5)]
    time.sleep(0.2)
    extra = srv.raw()
    assert closed_within(extra, 3.0) is not None  # aborted at once
    for s in held:
        s.close()
    time.sleep(0.2)
    assert srv.get("/api/config") == 200


def failed_logins(srv: Live, n: int) -> list[int]:
    """``n`` failed logins, each claiming another forwarded address."""
    return [
        srv.post(
            "/api/login",
            {"username": f"nobody{i}", "password": "wrong-pw"},
            {"X-Forwarded-For": f"203.0.113.{i}"},
        )
        for i in range(n)
    ]


def test_forwarded_headers_only_from_a_configured_proxy(live: Callable[..., Live]) -> None:
    # Unconfigured: X-Forwarded-For from loopback is ignored, so changing it does not
    # dodge the per-address login throttle.
    assert failed_logins(live(login_address_failures=3), 4) == [401, 401, 401, 429]
    # Behind a configured proxy (loopback here), each forwarded address is its own.
    proxied = live(login_address_failures=3, forwarded_allow_ips="127.0.0.1")
    assert failed_logins(proxied, 4) == [401, 401, 401, 401]


def proxy_v1(client: str, port: int = 40000) -> bytes:
    """HAProxy's ``send-proxy`` header for a client at ``client``."""
    return f"PROXY TCP4 {client} 127.0.0.1 {port} 8000\r\n".encode()


def proxy_v2(client: str, port: int = 40000) -> bytes:
    """HAProxy's ``send-proxy-v2`` header (PROXY, TCP over IPv4) for ``client``."""
    addrs = bytes(map(int, client.split("."))) + bytes([127, 0, 0, 1])
    body = addrs + port.to_bytes(2, "big") + (8000).to_bytes(2, "big")
    return b"\r\n\r\n\x00\r\nQUIT\n\x21\x11" + len(body).to_bytes(2, "big") + body


def request(s: Any, head: bytes) -> bytes:
    """Send one request on ``s`` and read until the peer closes (or 5 s)."""
    with contextlib.suppress(OSError):  # a connection aborted already takes nothing
        s.sendall(head)
    return closed_within(s, 5.0) or b""


GET = b"GET /api/config HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


@pytest.mark.parametrize("header", [proxy_v1, proxy_v2], ids=["v1", "v2"])
def test_a_trusted_proxy_names_the_client_every_limit_counts(
    live: Callable[..., Live], header: Callable[..., bytes]
) -> None:
    """Behind a proxy (the PROXY protocol), the connection cap, the control-frame ban
    and the app's per-address limits count the client the proxy names, not the proxy."""
    srv = live(proxy_protocol=True, forwarded_allow_ips="127.0.0.1",
               connections_per_address=2, read_timeout_s=30.0, login_address_failures=2,
               ws_control_burst=5.0, ws_address_control_burst=5.0)  # fmt: skip
    held = [srv.raw(header("198.51.100.1", 40000 + i)) for i in range(2)]
    time.sleep(0.2)
    third = srv.raw(header("198.51.100.1", 40003))
    assert closed_within(third, 3.0) == b""  # that client's cap: aborted at once
    other = srv.raw(header("198.51.100.2"))  # another client through the same proxy
    assert request(other, GET).startswith(b"HTTP/1.1 200")
    for s in held:
        s.close()
    # the app sees the client too: its login throttle is the client's own
    body = b'{"username":"nobody","password":"wrong-pw"}'
    login = (b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))  # fmt: skip
    codes = [request(srv.raw(header("198.51.100.3")), login)[9:12] for _ in range(3)]
    assert codes == [b"401", b"401", b"429"]
    assert request(srv.raw(header("198.51.100.4")), login)[9:12] == b"401"
    # one client's ping flood bans that client only
    path = f"/ws/tables/{srv.table()}"
    flooder = srv.websocket(path, header("198.51.100.5"))
    with contextlib.suppress(OSError):
        flooder.sendall(PING * 200)
    got = closed_within(flooder, 5.0)
    assert got is not None and (1008).to_bytes(2, "big") in got
    with pytest.raises(ConnectionError):
        srv.websocket(path, header("198.51.100.5", 41000)).recv(1)
    honest = srv.websocket(path, header("198.51.100.6"))
    honest.sendall(PING)
    honest.settimeout(2)
    assert b"\x8a\x00" in honest.recv(4096)
    honest.close()


def test_a_proxy_header_from_anyone_else_is_not_believed(live: Callable[..., Live]) -> None:
    """Only the proxies of ``forwarded_allow_ips`` may name a client: anyone else's
    PROXY header is a malformed request, and a trusted proxy's own requests (its health
    checks, without a header) are served as its own."""
    srv = live(proxy_protocol=True, forwarded_allow_ips="192.0.2.1", connections_per_address=1,
               read_timeout_s=30.0)  # fmt: skip
    assert request(srv.raw(proxy_v1("198.51.100.9")), GET).startswith(b"HTTP/1.1 400")
    held = srv.raw()  # 127.0.0.1's one connection
    time.sleep(0.2)
    # a header claiming another client does not get it a fresh count: aborted at once
    assert request(srv.raw(proxy_v1("198.51.100.10")), GET) == b""
    held.close()
    time.sleep(0.2)
    trusted = live(proxy_protocol=True, forwarded_allow_ips="127.0.0.1")
    assert request(trusted.raw(), GET).startswith(b"HTTP/1.1 200")  # no header
    assert request(trusted.raw(b"PROXY UNKNOWN\r\n"), GET).startswith(b"HTTP/1.1 200")
    assert request(trusted.raw(b"PROXY TCP4 nonsense\r\n"), GET) == b""  # aborted
