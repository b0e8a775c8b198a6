"""A real server for the tests that need its socket: the app under uvicorn with the
protocols of ``madang serve`` (:func:`madang.server.cli.uvicorn_config`), in a thread."""

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
from collections.abc import Iterator
from typing import Any

import uvicorn

from madang.server.app import create_app
from madang.server.cli import uvicorn_config
from madang.server.config import ServerConfig


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

    def raw(self, proxy: bytes = b"") -> socket.socket:
        """A connection; ``proxy``: the PROXY protocol header it begins with."""
        s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        if proxy:
            s.sendall(proxy)
        return s

    def websocket(self, path: str = "/ws/tables/1", proxy: bytes = b"") -> socket.socket:
        s = self.raw(proxy)
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


@contextlib.contextmanager
def running(config: ServerConfig) -> Iterator[Live]:
    """Serve ``config``'s app on a free loopback port until the block ends."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(create_app(config), config, host="127.0.0.1", port=port))
    t = threading.Thread(target=server.run, daemon=True)
    t.start()
    for _ in range(500):
        if server.started:
            break
        time.sleep(0.02)
    assert server.started, "the server did not start"
    try:
        yield Live(port)
    finally:
        server.should_exit = True
        t.join(3)
        if t.is_alive():  # connections a test left open: stop without waiting for them
            server.force_exit = True
            t.join(10)
