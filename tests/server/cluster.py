"""A cluster on loopback for the tests and ``benchmarks/cluster_load.py``: Debian's
``redis-server``, several ``madang serve`` processes on one PostgreSQL database, and
HAProxy in front of them (round robin, no stickiness, ``/api/ready`` as its check), as
``docs/deploy.md`` describes; plus a client that plays a person's seat and rides out
reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, proc: subprocess.Popen[bytes] | None, what: str, s: float = 60) -> None:
    end = time.monotonic() + s
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if proc is not None and proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"{what} exited: {err[-3000:]}") from None
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not start")


def missing_cluster_tools() -> list[str]:
    """What the cluster tests need and this machine lacks: Debian's ``redis-server`` and
    ``haproxy`` on the PATH, the ``redis`` client (``.ci/run`` installs them all)."""
    missing = [exe for exe in ("redis-server", "haproxy") if not shutil.which(exe)]
    try:
        import redis  # noqa: F401
    except ImportError:
        missing.append("the redis client (pip install redis)")
    return missing


def have_cluster_tools() -> bool:
    """Whether Redis and HAProxy (Debian's) and the redis client are here."""
    return not missing_cluster_tools()


def cluster_skip_reason(pg_url: str | None) -> str | None:
    """Why the cluster tests cannot run here (``None``: they can), naming what is
    missing, PostgreSQL (``MADANG_TEST_POSTGRES_URL``) included."""
    missing = ([] if pg_url else ["PostgreSQL (MADANG_TEST_POSTGRES_URL is not set)"]) + (
        missing_cluster_tools()
    )
    if not missing:
        return None
    return "needs " + ", ".join(missing) + " (.ci/run installs them)"


class RedisServer:
    """``redis-server`` on a free port, no persistence (a restart starts empty)."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", str(self.folder)]  # fmt: skip
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_port(self.port, self.proc, "redis-server")

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None


class Node:
    """One ``madang serve`` process of the cluster."""

    def __init__(self, name: str, db_url: str, redis_url: str, folder: Path, **opts: Any) -> None:
        self.name = name
        self.port = free_port()
        self.metrics_port = free_port()
        """The operator's port (the metrics), on loopback."""
        self.db_url = db_url
        self.redis_url = redis_url
        self.folder = folder
        self.opts = opts
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = folder / f"{name}.log"

    def start(self, *, cpu: int | None = None) -> None:
        o = {"bot_delay": 0.01, "claim_seconds": 0.25, "turn_seconds": 30.0, **self.opts}
        args = [sys.executable, "-m", "madang", "serve", "--port", str(self.port)]
        args += ["--database-url", self.db_url, "--redis-url", self.redis_url]
        args += ["--node-id", self.name, "--data", str(self.folder)]
        args += ["--metrics-port", str(self.metrics_port)]
        args += ["--bot-delay", str(o.pop("bot_delay")), "--claim-seconds"]
        args += [str(o["claim_seconds"]), "--turn-seconds", str(o.pop("turn_seconds"))]
        args += ["--claim-decision-seconds", str(o.pop("claim_seconds"))]
        args += ["--tables-per-user", "1000", "--guest-limit", "100000/hour"]
        # as docs/deploy.md: HAProxy (on 127.0.0.1) names each client (PROXY protocol)
        args += ["--forwarded-allow-ips", "127.0.0.1", "--proxy-protocol"]
        # a waiting table's creator need not stay connected (seat_hold_seconds): the
        # tests that use one only look at its sockets
        for k, v in {"grace_seconds": 0.5, "seat_hold_seconds": 600, "next_game_seconds": 0.5,
                     "bot_budget_s": 0.01, "first_pick_seconds": 0.1,
                     "first_pick_reveal_seconds": 0,
                     "argon2_time_cost": 1, "argon2_memory_kib": 8192, **o}.items():  # fmt: skip
            args += ["--set", f"{k}={v}"]
        if cpu is not None and shutil.which("taskset"):
            args = ["taskset", "-c", str(cpu), *args]
        out = self.log.open("ab")
        self.proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
        wait_port(self.port, self.proc, f"node {self.name}")

    def kill(self) -> None:
        """``kill -9``."""
        if self.proc is not None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
            self.proc = None

    def term(self, timeout: float = 30) -> None:
        """``SIGTERM`` and wait for it to exit (it hands its tables over first)."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout)
            self.proc = None

    def cpu_seconds(self) -> float:
        """User + system CPU of the process so far (Linux /proc)."""
        if self.proc is None:
            return 0.0
        with open(f"/proc/{self.proc.pid}/stat") as f:
            parts = f.read().rsplit(")", 1)[1].split()
        return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


HAPROXY_CFG = """\
global
    maxconn 4000
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    option redispatch
    retries 3
frontend madang
    bind 127.0.0.1:{port}
    default_backend nodes
backend nodes
    balance roundrobin
    option httpchk GET /api/ready
    timeout check 2s
    default-server inter 500ms fall 2 rise 1 send-proxy-v2
{servers}
"""


class Proxy:
    """HAProxy in front of the nodes: round robin, no stickiness."""

    def __init__(self, nodes: list[Node], folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.nodes = nodes
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        servers = "\n".join(f"    server {n.name} 127.0.0.1:{n.port} check" for n in self.nodes)
        cfg = self.folder / "haproxy.cfg"
        cfg.write_text(HAPROXY_CFG.format(port=self.port, servers=servers))
        self.proc = subprocess.Popen(
            ["haproxy", "-db", "-f", str(cfg)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        wait_port(self.port, self.proc, "haproxy")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None


def http(port: int, method: str, path: str, body: Any = None, cookie: str | None = None) -> Any:
    """One JSON request: (Set-Cookie, body). Raises on an HTTP error."""
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})},
    )
    with urllib.request.urlopen(req, timeout=15) as r:
        return r.headers.get("Set-Cookie"), json.loads(r.read() or b"null")


def guest(port: int) -> str:
    cookie, _ = http(port, "POST", "/api/guest", {})
    return str(cookie.split(";")[0])


def new_table(port: int, cookie: str, game: str, level: str = "easy") -> int:
    bots = [{"kind": "bot", "level": level}] * (1 if game == "matgo" else 3)
    for _ in range(50):  # a node that is handing over says busy: ask again
        try:
            _, got = http(port, "POST", "/api/tables",
                          {"game": game, "stake": 1, "seats": [{"kind": "human"}, *bots]},
                          cookie)  # fmt: skip
            return int(got["table"]["id"])
        except (OSError, urllib.error.HTTPError):
            time.sleep(0.2)
    raise RuntimeError("no table")


@dataclass
class Player:
    """Plays seat 0 of one table through ``port`` (any node, or the proxy) until its
    game ends (``endless``: game after game until the deadline), reconnecting whenever
    the socket drops; checks every view it gets is its own seat's (nothing of another
    seat's hand). ``latencies``: (when, seconds) from a move to the update showing it."""

    port: int
    cookie: str
    table_id: int
    rng: random.Random
    think_s: float = 0.0
    endless: bool = False
    games: int = 0
    version: int | None = None
    result: dict[str, Any] | None = None
    reconnects: int = 0
    moves: int = 0
    latencies: list[tuple[float, float]] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sent_at: float | None = None
    last_move_at: float = 0.0

    def _check(self, m: dict[str, Any]) -> None:
        view = m.get("view")
        if not isinstance(view, dict):
            return
        if view.get("seat") != 0:
            self.leaks.append(f"a view of seat {view.get('seat')}")
        players = view.get("players")
        if isinstance(players, list) and not (view.get("result") or {}).get("nagari"):
            for p in players[1:]:
                if p.get("hand") is not None and view.get("result") is None:
                    self.leaks.append(f"seat {p['seat']}'s hand")
        mahjong = view.get("game") == "mahjong"
        for e in m.get("events") or ():
            other = e.get("seat") not in (0, None)
            if mahjong and e.get("type") == "draw" and other and "tile" in e:
                self.leaks.append("another seat's drawn tile")

    async def play(self, deadline: float) -> None:
        url = f"ws://127.0.0.1:{self.port}/ws/tables/{self.table_id}"
        headers = {"Cookie": self.cookie, "Origin": f"http://127.0.0.1:{self.port}"}
        while self.result is None and time.monotonic() < deadline:
            try:
                async with websockets.connect(url, additional_headers=headers,
                                              open_timeout=10) as ws:  # fmt: skip
                    # a snapshot: a move sent just before the socket dropped may be
                    # lost, and the snapshot asks the question again
                    await ws.send(json.dumps({"type": "hello", "last_version": None}))
                    await self._session(ws, deadline)
            except websockets.ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd is not None else None
                self.errors.append(f"closed {code}")
                if code == 4404:  # the table closed while away: its game is over
                    self.result = self._finished_game()
            except (OSError, websockets.WebSocketException, TimeoutError) as e:
                self.errors.append(type(e).__name__)
            if self.result is None and time.monotonic() < deadline:
                self.reconnects += 1
                self.sent_at = None
                await asyncio.sleep(0.1 + 0.2 * self.rng.random())
        if self.result is not None and not self.endless:  # leave: the table closes
            with contextlib.suppress(OSError):  # closed already
                await asyncio.to_thread(
                    http, self.port, "POST", f"/api/tables/{self.table_id}/leave", {},
                    self.cookie,
                )  # fmt: skip

    def _finished_game(self) -> dict[str, Any] | None:
        """The result of this table's last game, from the player's history."""
        _, got = http(self.port, "GET", "/api/games", cookie=self.cookie)
        for g in got["games"]:
            if g.get("table_id") == self.table_id and g["status"] == "finished":
                return dict(g)
        return None

    async def _session(self, ws: Any, deadline: float) -> None:
        while time.monotonic() < deadline:
            raw = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
            m = json.loads(raw)
            kind = m["type"]
            if kind == "closed":
                self.errors.append(f"closed: {m.get('reason')}")
                return
            if kind == "error":
                self.sent_at = None
                if m.get("code") in ("stale_version", "illegal_action", "not_found", "busy"):
                    await ws.send(json.dumps({"type": "hello", "last_version": None}))
                continue
            if kind not in ("snapshot", "update"):
                continue
            if kind == "update" and self.version is not None and m["version"] != self.version + 1:
                await ws.send(json.dumps({"type": "hello", "last_version": self.version}))
                continue
            self.version = m["version"]
            self._check(m)
            if self.sent_at is not None and kind == "update":
                self.latencies.append((time.monotonic(), time.perf_counter() - self.sent_at))
                self.sent_at = None
            if m.get("result") is not None or m.get("status") == "between":
                self.games += 1
                if self.endless:  # the next game, at once
                    await ws.send(json.dumps({"type": "ready"}))
                    continue
                self.result = m.get("result") or {}
                return
            prompt = m.get("prompt")
            if prompt and prompt["seat"] == 0 and self.sent_at is None:
                if self.think_s:
                    await asyncio.sleep(self.think_s * (0.5 + self.rng.random()))
                move = self.rng.choice(prompt["legal"])
                self.sent_at = time.perf_counter()
                self.moves += 1
                self.last_move_at = time.monotonic()
                await ws.send(json.dumps({"type": "act", "version": m["version"],
                                          "action": move}))  # fmt: skip


def loopback(n: int, net: int = 10) -> str:
    """The ``n``-th of the loopback addresses ``127.net.*.*`` (a distinct client)."""
    return f"127.{net}.{n // 250}.{n % 250 + 1}"


async def spectate(
    port: int,
    table_id: int,
    source: str,
    *,
    hold: asyncio.Event | None = None,
    gate: asyncio.Semaphore | None = None,
    welcomed: set[str] | None = None,
) -> str:
    """Watch a table from the address ``source``: "ok" once welcomed (added to
    ``welcomed``, then the socket is held until ``hold`` is set), else what went wrong.
    ``gate`` bounds how many sockets are opening at once."""
    url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
    ws = None
    try:
        if gate is not None:
            await gate.acquire()
        try:
            ws = await websockets.connect(url, local_addr=(source, 0), open_timeout=30,
                                          ping_interval=None, compression=None)  # fmt: skip
            await ws.send(json.dumps({"type": "hello", "last_version": None}))
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if m["type"] in ("welcome", "snapshot"):
                    break  # (an error, e.g. busy, comes before the socket is closed)
        finally:
            if gate is not None:
                gate.release()
        if welcomed is not None:
            welcomed.add(source)
        if hold is not None:
            await hold.wait()
        return "ok"
    except websockets.ConnectionClosed as e:
        return f"closed {e.rcvd.code if e.rcvd is not None else None}"
    except (OSError, websockets.WebSocketException, TimeoutError) as e:
        return f"{type(e).__name__}: {e}"[:120]
    finally:
        if ws is not None:
            await ws.close()


def http_from(
    source: str, port: int, method: str, path: str, body: Any = None, cookie: str | None = None
) -> tuple[int, Any]:
    """One JSON request from the address ``source``: (status, body); never raises on
    an HTTP error status."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15, source_address=(source, 0))
    try:
        headers = {"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})}
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        r = conn.getresponse()
        raw = r.read()
        try:
            data = json.loads(raw or b"null")
        except ValueError:
            data = raw.decode(errors="replace")
        return r.status, data
    finally:
        conn.close()
