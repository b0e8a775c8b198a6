"""Attacks that need a real server socket: the app under uvicorn with the protocols of
``madang serve`` (:func:`madang.server.cli.uvicorn_config`), in a thread, on loopback.

Each attack is bounded (a few thousand frames or bytes, a few seconds) and asserts the
server's answer: floods and slow clients are cut off, and a normal request still works.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from tests.server import conftest

from madang.server.app import create_app
from madang.server.cli import uvicorn_config


class Live:
    """A running server: its port, and helpers to speak to it."""

    def __init__(self, port: int) -> None:
        self.port = port

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def get(self, path: str) -> int:
        with urllib.request.urlopen(self.url(path), timeout=10) as r:
            return int(r.status)

    def post(self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> int:
        req = urllib.request.Request(
            self.url(path),
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **(headers or {})},
        )
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return int(r.status)
        except urllib.error.HTTPError as e:
            return int(e.code)

    def table(self) -> int:
        """A public table (a guest against a bot) that spectators may watch."""
        r = urllib.request.urlopen(
            urllib.request.Request(
                self.url("/api/guest"), data=b"{}", headers={"Content-Type": "application/json"}
            ),
            timeout=10,
        )
        cookie = r.headers["Set-Cookie"].split(";")[0]
        body = {"game": "matgo", "stake": 1, "seats": [{"kind": "human"}, {"kind": "bot"}]}
        req = urllib.request.Request(
            self.url("/api/tables"),
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Cookie": cookie},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return int(json.loads(r.read())["table"]["id"])

    def raw(self) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        return s

    def websocket(self, path: str = "/ws/tables/1") -> socket.socket:
        s = self.raw()
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(1024)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(head.split(b"\r\n")[0].decode())
        return s


def closed_within(s: socket.socket, seconds: float) -> bytes | None:
    """Read until the peer closes; what it sent, or None if still open after ``seconds``."""
    s.settimeout(0.2)
    got = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            chunk = s.recv(65536)
        except TimeoutError:
            continue
        except ConnectionError:
            return got
        if not chunk:
            return got
        got += chunk
    return None


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Callable[..., Live]]:
    servers: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(**overrides: Any) -> Live:
        config = conftest.test_config(
            f"sqlite:///{tmp_path / f'live{len(servers)}.sqlite3'}", **overrides
        )
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = uvicorn.Server(
            uvicorn_config(create_app(config), config, host="127.0.0.1", port=port)
        )
        t = threading.Thread(target=server.run, daemon=True)
        t.start()
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.02)
        assert server.started
        servers.append((server, t))
        return Live(port)

    yield start
    for server, t in servers:
        server.should_exit = True
        t.join(10)


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


def test_ping_floods_over_several_connections_count_together(live: Callable[..., Live]) -> None:
    srv = live(ws_control_burst=100.0, ws_address_control_burst=50.0, ws_ban_s=30.0)
    path = f"/ws/tables/{srv.table()}"
    socks = [srv.websocket(path) for _ in range(4)]
    for s in socks:  # 4 x 20 = 80 frames: under each connection's cap, over the address's
        s.sendall(PING * 20)
    closed = [closed_within(s, 3.0) is not None for s in socks]
    assert any(closed)
    assert srv.get("/api/config") == 200


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


def test_forwarded_headers_only_from_a_configured_proxy(live: Callable[..., Live]) -> None:
    # Unconfigured: X-Forwarded-For from loopback is ignored, so changing it does not
    # dodge the per-address login throttle.
    srv = live(login_address_failures=3)
    codes = [
        srv.post(
            "/api/login",
            {"username": f"nobody{i}", "password": "wrong-pw"},
            {"X-Forwarded-For": f"203.0.113.{i}"},
        )
        for i in range(4)
    ]
    assert codes == [401, 401, 401, 429]
    # Behind a configured proxy (loopback here), each forwarded address is its own.
    proxied = live(login_address_failures=3, forwarded_allow_ips="127.0.0.1")
    codes = [
        proxied.post(
            "/api/login",
            {"username": f"nobody{i}", "password": "wrong-pw"},
            {"X-Forwarded-For": f"203.0.113.{i}"},
        )
        for i in range(4)
    ]
    assert codes == [401, 401, 401, 401]
