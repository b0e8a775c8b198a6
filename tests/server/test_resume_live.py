"""``kill -9`` of a real ``madang serve`` with live games, and a restart: every game
finishes, none is aborted, and each one's outcome is that of an uninterrupted replay of
its moves (issue 13, item 2). On SQLite and on PostgreSQL (``MADANG_TEST_POSTGRES_URL``).

Four tables play at once (two Matgo, two mahjong, a person's seat and bots); the
person's seat is played by this test over a WebSocket at one table at a time, and the
server is killed at moments chosen to land in each phase: while the person is asked
고/스톱, while it is asked to claim a mahjong discard, and at an arbitrary moment of
play (the other tables, whose people are away and played by bots after the grace, are
then mid-turn). After the last restart the games play to their ends.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from tests.server.conftest import BACKENDS, PG_URL, reset_postgres

from madang.server import db, store
from madang.server.db import make_engine
from madang.server.games import make_session

websockets_sync = pytest.importorskip("websockets.sync.client")

DEAL_SEED = 500


class Server:
    """``madang serve`` in a child process on a free loopback port."""

    def __init__(self, url: str, data: Path) -> None:
        self.url = url
        self.data = data
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        args = [sys.executable, "-m", "madang", "serve", "--port", str(self.port)]
        args += ["--data", str(self.data), "--deal-seed", str(DEAL_SEED)]
        args += ["--bot-delay", "0.01", "--claim-seconds", "0.25", "--turn-seconds", "30"]
        args += ["--tables-per-user", "8", "--set", "grace_seconds=0.5"]
        args += ["--set", "next_game_seconds=0.5", "--set", "bot_budget_s=0.01"]
        args += ["--set", "argon2_time_cost=1", "--set", "argon2_memory_kib=8192"]
        if self.url.startswith("postgresql"):
            args += ["--database-url", self.url]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                if self.proc.poll() is not None:
                    err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                    raise AssertionError(f"the server exited: {err[-2000:]}") from None
                time.sleep(0.05)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None

    def request(self, method: str, path: str, body: Any, cookie: str | None) -> Any:
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers={"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.headers.get("Set-Cookie"), json.loads(r.read() or b"null")


@pytest.fixture(params=BACKENDS)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'madang.sqlite3'}"
    else:
        assert PG_URL is not None
        reset_postgres(PG_URL)
        url = PG_URL
    srv = Server(url, tmp_path)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _ws(srv: Server, tid: int, cookie: str) -> Any:
    return websockets_sync.connect(
        f"ws://127.0.0.1:{srv.port}/ws/tables/{tid}",
        additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{srv.port}"},
        open_timeout=10,
    )


def _play_until(srv: Server, tid: int, cookie: str, stop: Any, rng: random.Random) -> bool:
    """Play seat 0 at ``tid`` at random until ``stop(update)`` holds (True) or its game
    ends (False)."""
    with _ws(srv, tid, cookie) as ws:
        ws.send(json.dumps({"type": "hello", "last_version": None}))
        end = time.monotonic() + 60
        while time.monotonic() < end:
            m = json.loads(ws.recv(timeout=30))
            if m["type"] not in ("snapshot", "update"):
                continue
            if m.get("result") or m.get("status") == "between":
                return False
            if stop(m):
                return True
            prompt = m.get("prompt")
            if prompt and prompt["seat"] == 0:
                move = rng.choice(prompt["legal"])
                ws.send(json.dumps({"type": "act", "version": m["version"], "action": move}))
    raise AssertionError("no end and no stop")


def _asked(*questions: str) -> Any:
    def stop(m: dict[str, Any]) -> bool:
        p = m.get("prompt")
        return bool(p and p["seat"] == 0 and p["question"] in questions)

    return stop


def test_kill_9_in_every_phase_and_every_game_finishes(server: Server) -> None:
    cookie, _ = server.request("POST", "/api/guest", {}, None)
    cookie = cookie.split(";")[0]
    rng = random.Random(11)
    tables: dict[int, str] = {}

    def new_table(game: str) -> int:
        bots = [{"kind": "bot", "level": "easy"}] * (1 if game == "matgo" else 3)
        body = {"game": game, "stake": 1, "seats": [{"kind": "human"}, *bots]}
        _, got = server.request("POST", "/api/tables", body, cookie)
        tid = int(got["table"]["id"])
        tables[tid] = game
        return tid

    phases: list[str] = []
    for game, stop, phase in (
        ("matgo", _asked("go_stop"), "go_stop"),
        ("mahjong", _asked("claim", "rob"), "claim"),
    ):
        for _ in range(12):  # tables until seat 0 is asked the question
            tid = new_table(game)
            if _play_until(server, tid, cookie, stop, rng):
                server.kill()  # at once: the question is open
                phases.append(phase)
                server.start()
                # the question is asked again after the restart
                assert _play_until(server, tid, cookie, stop, rng)
                break
    assert phases == ["go_stop", "claim"]
    # Two more tables mid-play (dealt while the person was here, then played by bots
    # for them once they went away), then a kill at any moment.
    for game in ("matgo", "mahjong"):
        _play_until(server, new_table(game), cookie, lambda m: m["type"] == "snapshot", rng)
    time.sleep(1.5)
    server.kill()
    server.start()
    end = time.monotonic() + 240
    eng = make_engine(server.url)
    try:
        while time.monotonic() < end:
            with eng.connect() as c:
                playing = c.execute(
                    sa.select(sa.func.count()).where(db.games.c.status == "playing")
                ).scalar()
            if not playing:
                break
            time.sleep(0.3)
        server.stop()
        _check_every_game(eng, tables)
    finally:
        eng.dispose()


def _check_every_game(eng: Any, tables: dict[int, str]) -> None:
    with eng.connect() as c:
        games = c.execute(sa.select(db.games).order_by(db.games.c.id)).all()
        ledger = c.execute(  # the games' rows (not the start or refill grants)
            sa.select(db.ledger).where(db.ledger.c.game_id.isnot(None))
        ).all()
    assert games and {g.status for g in games} == {"finished"}, [g.status for g in games]
    assert sum(r.amount for r in ledger) == 0
    assert {r.game_id for r in ledger} <= {g.id for g in games}
    for tid, game in tables.items():
        sess = make_session(game, "default", DEAL_SEED + tid)
        mine = [g for g in games if g.table_id == tid]
        assert mine, f"table {tid} played no game"
        for i, g in enumerate(mine):
            if i:
                sess.next_game()
            for m in store.journal(eng, g.id)[1]:
                sess.step(m["seat"], sess.string_to_action(m["move"]))
            assert sess.over
            assert sess.record() == g.record  # the game stored is the one replayed
            out = sess.outcome()
            assert (g.winner, g.points) == (out["winner"], out["points"])
            pays = [(p["from"], p["to"], p["points"], p["reason"]) for p in g.result["payments"]]
            assert pays == [tuple(p) for p in sess.payments()]
