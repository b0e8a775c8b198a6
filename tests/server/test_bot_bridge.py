"""The arena's example bot plays a whole server game, unchanged, through
``madang bot connect`` (issue 30, "Done when"): a real server on a loopback port, the
bridge and the bot as processes, a person at the other seat over a real WebSocket."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from tests.server.conftest import test_config as config_of
from tests.server.live import Live, running
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "examples" / "bots" / "random_bot.py"


def call(
    srv: Live, path: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> tuple[int, dict[str, Any], str | None]:
    """POST ``body``: the status, the JSON answer and the session cookie it set."""
    req = urllib.request.Request(
        srv.url(path),
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            cookie = r.headers.get("Set-Cookie")
            return r.status, json.loads(r.read()), cookie and cookie.split(";")[0]
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read()), None


SEATS = {
    "matgo": [{"kind": "human"}, {"kind": "human"}],
    "mahjong": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"},
                {"kind": "bot", "level": "easy"}],
}  # fmt: skip


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_the_example_bot_plays_a_server_game_through_the_bridge(db_url: str, game: str) -> None:
    config = config_of(db_url, turn_seconds=10.0, bot_delay=0.0)
    with running(config) as srv:
        status, made, cookie = call(
            srv, "/api/register", {"username": "robo", "password": "secret1"}
        )
        assert status == 201 and cookie
        status, made, _ = call(srv, "/api/account/bot", {"confirm": True}, {"Cookie": cookie})
        assert status == 201, made
        token = made["token"]["token"]
        assert token.startswith("mdb_")  # never read as an option (a bare one was: "-…")
        # the token on the command line, or (mahjong) from the environment
        by_arg = ["--token", token] if game == "matgo" else []
        env = {**os.environ, "MADANG_BOT_TOKEN": token} if game == "mahjong" else None
        status, _, person = call(srv, "/api/register", {"username": "minsu", "password": "secret1"})
        assert person
        body = {"game": game, "stake": 10, "seats": SEATS[game]}
        status, table, _ = call(srv, "/api/tables", body, {"Cookie": person})
        tid = table["table"]["id"]
        started = time.monotonic()
        bridge = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "madang",
                "bot",
                "connect",
                "--url",
                f"ws://127.0.0.1:{srv.port}/ws/bot",
                *by_arg,
                "--games",
                "1",
                "--",
                sys.executable,
                str(BOT),
                "7",
            ],
            stdout=subprocess.PIPE,
            cwd=ROOT,
            env=env,
        )
        try:
            for _ in range(300):  # until the bridge is connected
                status, seated, _ = call(
                    srv, f"/api/tables/{tid}/bots", {"username": "robo"}, {"Cookie": person}
                )
                if status != 409 or seated["error"]["code"] != "bot_offline":
                    break
                time.sleep(0.05)
            assert status == 200 and seated["seat"] == 1, seated
            assert seated["table"]["seats"][1]["bot"] is True
            rng = random.Random(5)
            url = f"ws://127.0.0.1:{srv.port}/ws/tables/{tid}"
            with connect(url, additional_headers={"Cookie": person}) as ws:
                ws.send(json.dumps({"type": "hello", "last_version": None}))
                result = None
                while result is None:
                    m = json.loads(ws.recv(timeout=30))
                    prompt = m.get("prompt")
                    if m["type"] in ("snapshot", "update") and prompt and prompt["seat"] == 0:
                        move = rng.choice(prompt["legal"])
                        ws.send(
                            json.dumps({"type": "act", "version": m["version"], "action": move})
                        )
                    if m["type"] == "update":
                        assert m.get("timeout") is None  # nobody ran out of time
                        result = m.get("result")
            out, _ = bridge.communicate(timeout=30)
        finally:
            if bridge.poll() is None:
                bridge.kill()
                bridge.wait()
        took = time.monotonic() - started
        refused = subprocess.run(
            [
                sys.executable,
                "-m",
                "madang",
                "bot",
                "connect",
                "--url",
                f"ws://127.0.0.1:{srv.port}/ws/bot",
                "--token",
                token + "x",
                "--",
                sys.executable,
                str(BOT),
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=30,
        )
        assert refused.returncode == 2
        assert "refused the bot (unauthorized)" in refused.stderr
    stats = json.loads(out)
    assert bridge.returncode == 0
    assert stats["games"] == 1 and stats["faults"] == 0 and stats["errors"] == 0
    assert stats["moves"] >= 5
    assert stats["results"][0]["winner"] == result["winner"]
    print(f"one server {game} game with the example bot through the bridge: {took:.2f} s, "
          f"{stats['moves']} bot moves")  # fmt: skip


def test_the_bridge_without_a_token_says_where_to_give_one() -> None:
    env = {k: v for k, v in os.environ.items() if k != "MADANG_BOT_TOKEN"}
    done = subprocess.run(
        [sys.executable, "-m", "madang", "bot", "connect", "--url", "ws://127.0.0.1:9/ws/bot",
         "--", sys.executable, str(BOT)],
        capture_output=True, text=True, cwd=ROOT, timeout=30, env=env,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--token TOKEN or $MADANG_BOT_TOKEN" in done.stderr
