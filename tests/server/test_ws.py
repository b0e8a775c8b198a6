"""The live table over real WebSockets: play, errors, reconnection, timers, durability."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from tests.server.conftest import DEAL_SEED, START, play_out, recv_until, register, use_session

from madang.server.games import make_session

MATGO_VS_BOT = {
    "game": "matgo",
    "stake": 10,
    "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
}


def new_table(c: TestClient, body: dict[str, Any] = MATGO_VS_BOT) -> int:
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    tid: int = r.json()["table"]["id"]
    return tid


def hello(ws: Any, last: int | None = None) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "last_version": last}))
    recv_until(ws, "welcome")
    return recv_until(ws, "snapshot")


def test_tables_deal_from_the_configured_seed(client: TestClient) -> None:
    register(client)
    tid = new_table(client)
    expected = make_session("matgo", "default", DEAL_SEED + tid)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
    assert snap["view"]["hand"] == expected.view(0)["hand"]


def test_whole_matgo_game_settles_ledger_history_and_ratings(client: TestClient) -> None:
    register(client)
    tid = new_table(client)
    rng = random.Random(1)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        assert snap["status"] == "playing" and snap["view"]["seat"] == 0
        last = play_out(ws, 0, snap, rng.choice)
    result = last["result"]
    assert last["view"]["over"] and last["prompt"] is None
    me = client.get("/api/me").json()
    mine = sum(p["amount"] * (1 if p["to"] == 0 else -1) for p in result["payments"])
    assert me["balance"] == START + mine
    ledger = client.get("/api/ledger").json()
    assert sum(e["amount"] for e in ledger["entries"] if e["game_id"]) == mine
    games = client.get("/api/games").json()["games"]
    assert games[0]["id"] == result["game_id"] and games[0]["players"] == ["minsu", "bot-easy"]
    detail = client.get(f"/api/games/{result['game_id']}").json()
    assert detail["record"]["game"] == "matgo" and detail["payments"] == result["payments"]
    frames = client.get(f"/api/games/{result['game_id']}/replay").json()["frames"]
    assert len(frames) == len(detail["record"]["moves"]) + 1
    if result["winner"] is not None:
        assert me["ratings"]["matgo"]["games"] == 1
        board = client.get("/api/leaderboard?min_games=1").json()["entries"]
        assert {e["username"] for e in board} == {"minsu", "bot-easy"}
        # one game is not enough for the default list (U17)
        assert client.get("/api/leaderboard").json()["entries"] == []
        assert client.get("/api/leaderboard?min_games=2").json()["entries"] == []


def test_errors_change_nothing(client: TestClient) -> None:
    register(client)
    tid = new_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        v = snap["version"]
        assert snap["status"] == "playing" and snap["prompt"] is not None
        bad = [
            ("{not json", "bad_request"),
            (json.dumps({"type": "act", "version": v - 1, "action": "go"}), "stale_version"),
            (json.dumps({"type": "act", "version": v, "action": "fly away"}), "invalid_action"),
            (json.dumps({"type": "act", "version": v, "action": "play 99z"}), "invalid_action"),
            (json.dumps({"type": "act", "version": v, "action": "go", "ref": 9}), "illegal_action"),
            (json.dumps({"type": "ready"}), "game_over"),
            ("x" * 5000, "too_large"),
        ]
        for text, code in bad:
            ws.send_text(text)
            m = recv_until(ws, "error")
            assert m["code"] == code, (text[:40], m)
        ws.send_text(json.dumps({"type": "hello", "last_version": v}))
        recv_until(ws, "welcome")
        ws.send_text(json.dumps({"type": "ping"}))
        assert recv_until(ws, "pong")["server_time"] > 0  # nothing was missed, no update


def test_rate_limit(make_client: Callable[..., TestClient]) -> None:
    c = make_client(rate_per_s=1.0, rate_burst=3.0)
    register(c)
    tid = new_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        for _ in range(6):
            ws.send_text(json.dumps({"type": "ping"}))
        got: list[dict[str, Any]] = []
        while len(got) < 6:
            m = ws.receive_json()
            if m["type"] in ("pong", "error"):
                got.append(m)
        codes = [m.get("code") for m in got if m["type"] == "error"]
        assert codes and set(codes) == {"rate_limited"}
        assert sum(m["type"] == "pong" for m in got) + len(codes) == 6


def test_spectator_cannot_act_and_sees_no_hand(client: TestClient) -> None:
    register(client)
    tid = new_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as player:
        hello(player)  # the game is dealt once its person is here
        client.cookies.clear()
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            snap = hello(ws)
            assert snap["view"]["seat"] is None and "hand" not in snap["view"]
            ws.send_text(json.dumps({"type": "act", "version": snap["version"], "action": "go"}))
            assert recv_until(ws, "error")["code"] == "not_seated"


def test_reconnect_gets_missed_updates_or_snapshot(client: TestClient) -> None:
    register(client)
    tid = new_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        v0 = snap["version"]
        updates = []
        version, prompt = v0, snap["prompt"]
        while len(updates) < 3:
            if prompt and prompt["seat"] == 0:
                ws.send_text(
                    json.dumps({"type": "act", "version": version, "action": prompt["legal"][0]})
                )
            m = ws.receive_json()
            if m["type"] == "update":
                updates.append(m)
                version, prompt = m["version"], m["prompt"]
                if "result" in m:
                    break
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_text(json.dumps({"type": "hello", "last_version": v0}))
        recv_until(ws, "welcome")
        again = [recv_until(ws, "update") for _ in updates]
        assert [u["version"] for u in again] == [u["version"] for u in updates]
        assert again[0]["events"] == updates[0]["events"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap2 = hello(ws, None)
        assert snap2["version"] >= updates[-1]["version"]
        ws.send_text(json.dumps({"type": "hello", "last_version": 10**9}))
        recv_until(ws, "welcome")
        assert recv_until(ws, "snapshot")["version"] == snap2["version"]


def test_timer_plays_a_move_for_a_person_out_of_time(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(turn_seconds=0.2)
    register(c)
    tid = new_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        prompt, version = snap["prompt"], snap["version"]
        while not (prompt and prompt["seat"] == 0):
            m = recv_until(ws, "update")
            prompt, version = m["prompt"], m["version"]
        assert 0 < prompt["remaining_ms"] <= 200 and prompt["deadline"] > time.time() * 1000 - 1000
        m = recv_until(ws, "update")  # nobody answered: the server played for us
        played = [e for e in m["events"] if e.get("seat") == 0]
        assert played, m["events"]
        assert m["timeout"] == 0  # and says so
        ws.send_text(json.dumps({"type": "act", "version": version, "action": prompt["legal"][0]}))
        assert recv_until(ws, "error")["code"] == "stale_version"


def test_bot_takes_over_a_dropped_seat_and_hands_it_back(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(grace_seconds=0.5)
    register(c, "host1")
    tid = new_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert hello(ws)["status"] == "playing"
    # The person went away mid-game: after the grace period the bot answers for them
    # and the game ends (it still settles).
    deadline = time.time() + 20
    while time.time() < deadline:
        games = c.get("/api/games").json()["games"]
        if games:
            break
        time.sleep(0.05)
    assert games and games[0]["status"] == "finished"
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_text(json.dumps({"type": "hello", "last_version": None}))
        recv_until(ws, "welcome")
        snap = recv_until(ws, "snapshot")
        assert snap["seats"][0]["bot_control"] is False  # handed back on return
        assert snap["seats"][1]["bot_control"] is True


def mahjong_hand_against_bots(client: TestClient, level: str, seed: int) -> dict[str, Any]:
    """A person (seat 0, random answers) and three bots play one hand; the last update."""
    register(client)
    bots = [{"kind": "bot", "level": level}] * 3
    tid = new_table(client, {"game": "mahjong", "seats": [{"kind": "human"}, *bots]})
    rng = random.Random(seed)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        assert snap["view"]["game"] == "mahjong" and snap["view"]["players"][1]["hand"] is None
        return play_out(ws, 0, snap, rng.choice)


def test_mahjong_hand_with_three_bots(client: TestClient) -> None:
    last = mahjong_hand_against_bots(client, "normal", 2)
    assert last["view"]["result"] is not None
    games = client.get("/api/games").json()["games"]
    assert games[0]["game"] == "mahjong" and games[0]["status"] == "finished"
    frames = client.get(f"/api/games/{games[0]['id']}/replay").json()["frames"]
    assert all(p["hand"] is not None for p in frames[0]["view"]["players"])


def test_restart_keeps_finished_games_and_resumes_running_ones(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client()
    register(c)
    cookie = c.cookies.get("madang_session")
    tid = new_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        last = play_out(ws, 0, hello(ws), random.Random(3).choice)
        ws.send_text(json.dumps({"type": "ready"}))
        nxt = recv_until(ws, "update")
        assert nxt["game_no"] == last["game_no"] + 1
    balance = c.get("/api/me").json()["balance"]
    c.__exit__(None, None, None)  # the server stops with game 2 running
    c2 = make_client()
    use_session(c2, cookie)
    assert c2.get("/api/me").json()["balance"] == balance
    games = c2.get("/api/games").json()["games"]
    assert [g["status"] for g in games] == ["finished"]  # game 2 is still being played
    assert [t["status"] for t in c2.get("/api/tables").json()["tables"]] == ["playing"]
    with c2.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        # the bot may have moved on since; seat 0 has not (it is waited for)
        assert snap["game_no"] == nxt["game_no"] and snap["view"]["hand"] == nxt["view"]["hand"]


def test_a_socket_to_no_open_table_is_closed_4404(client: TestClient) -> None:
    """A table that was never made (or whose id is no id) is gone for good: 4404 after
    a ``not_found`` error, which tells the client not to ask again (a table that is
    only moving gets 1013: ``tests/server/test_cluster.py``)."""
    from starlette.websockets import WebSocketDisconnect

    for tid in (999_999, 2**40):
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            assert ws.receive_json()["code"] == "not_found"
            try:
                ws.receive_text()
            except WebSocketDisconnect as e:
                assert e.code == 4404
            else:
                raise AssertionError("not closed")


def test_the_proxy_check_and_the_operator_check_of_redis(client: TestClient) -> None:
    """``/api/ready`` (the proxy's) asks the database; ``/api/ready/redis`` (the
    operator's) says a process without Redis uses none."""
    assert client.get("/api/ready").json() == {"ready": True, "problems": []}
    r = client.get("/api/ready/redis")
    assert r.status_code == 200 and r.json()["redis"] == "not used"
