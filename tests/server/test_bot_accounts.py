"""Bot accounts (``docs/bot-protocol.md``, At the server): the upgrade, API tokens, the
bot's socket, invitations, faults and takeovers, what a bot sees, and the bot marks."""

from __future__ import annotations

import hashlib
import json
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import recv_until, register, use_session
from tests.server.test_leaks import matgo_hidden, walk

from madang.server import db

TWO_PEOPLE = {"game": "matgo", "stake": 10, "seats": [{"kind": "human"}, {"kind": "human"}]}


def make_bot(c: TestClient, name: str = "robo") -> tuple[dict[str, Any], str]:
    """Register ``name`` and upgrade it to a bot account: the user and its first token."""
    register(c, name)
    r = c.post("/api/account/bot", json={"confirm": True, "label": "first"})
    assert r.status_code == 201, r.text
    c.cookies.clear()
    return r.json()["user"], r.json()["token"]["token"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_upgrade_rules_tokens_and_login(client: TestClient) -> None:
    register(client, "person")
    r = client.post("/api/account/bot", json={})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
    # an account that played a game stays a person
    tid = client.post("/api/tables", json={**TWO_PEOPLE, "seats": [{"kind": "human"},
                      {"kind": "bot", "level": "easy"}]}).json()["table"]["id"]  # fmt: skip
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_text(json.dumps({"type": "hello", "last_version": None}))
        recv_until(ws, "snapshot")
    r = client.post("/api/account/bot", json={"confirm": True})
    assert r.status_code == 409 and r.json()["error"]["code"] == "has_games"
    assert client.get("/api/me").json()["user"]["bot"] is False
    client.cookies.clear()

    user, token = make_bot(client)
    assert user["bot"] is True
    assert client.get("/api/me").status_code == 401  # its session ended with the upgrade
    r = client.post("/api/login", json={"username": "robo", "password": "secret1"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bot_account"
    r = client.post("/api/account/bot", json={"confirm": True})
    assert r.status_code == 401  # no session can be made for it any more

    # tokens: listed without the token, made (shown once), revoked
    listed = client.get("/api/account/bot/tokens", headers=bearer(token)).json()["tokens"]
    assert [t["label"] for t in listed] == ["first"] and "token" not in listed[0]
    second = client.post("/api/account/bot/tokens", json={"label": "ci"}, headers=bearer(token))
    assert second.status_code == 201
    tok2 = second.json()["token"]
    engine = client.app.state.hub.engine  # type: ignore[attr-defined]
    with engine.connect() as c:
        rows = c.execute(sa.select(db.bot_tokens)).all()
    stored = {str(v) for row in rows for v in row}
    assert token not in stored and tok2["token"] not in stored
    assert hashlib.sha256(tok2["token"].encode()).hexdigest() in stored
    r = client.delete(f"/api/account/bot/tokens/{tok2['id']}", headers=bearer(token))
    assert r.status_code == 200
    r = client.get("/api/account/bot/tokens", headers=bearer(tok2["token"]))
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    r = client.delete(f"/api/account/bot/tokens/{tok2['id']}", headers=bearer(token))
    assert r.status_code == 404
    r = client.post("/api/account/bot/tokens", json={"label": 5}, headers=bearer(token))
    assert r.status_code == 400


def test_bad_and_forged_tokens_are_refused_then_throttled(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(login_address_failures=3)
    _, token = make_bot(client)
    for headers in ({}, {"Authorization": "Bearer " + token[:-2] + "xx"}, {"Authorization": token}):
        with client.websocket_connect("/ws/bot", headers=headers) as ws:
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "unauthorized"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4401
    # the address failed three times: even the right token waits now
    with client.websocket_connect("/ws/bot", headers=bearer(token)) as ws:
        err = ws.receive_json()
        assert err["code"] == "throttled" and err["retry_after"] > 0
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4429


def watch(room: Any, sock: Any, seat: int) -> list[dict[str, Any]]:
    """Check every message the bot's socket is sent, at the moment it is sent, for a
    card its seat cannot see (the leak tests' helpers); the messages, in order."""
    seen: list[dict[str, Any]] = []
    plain_send = sock.send

    def checked(message: dict[str, Any]) -> None:
        if room.session is not None and message.get("type") in ("request", "start", "end"):
            strings: list[str] = []
            walk(message, set(), strings)
            assert not set(strings) & matgo_hidden(room, seat), message
        seen.append(message)
        plain_send(message)

    sock.send = checked
    return seen


def _seat_bot(client: TestClient, ws_bot: Any, tid: int, results: dict[str, Any]) -> None:
    """Invite the bot to ``tid`` in a thread and accept on its socket."""

    def invite() -> None:
        r = client.post(f"/api/tables/{tid}/bots", json={"username": "robo"})
        results["invite"] = r

    t = threading.Thread(target=invite)
    t.start()
    inv = recv_until(ws_bot, "invite")
    assert inv["table"] == tid and inv["game"] == "matgo" and inv["stake"] == 10
    ws_bot.send_text(json.dumps({"type": "accept", "table": tid}))
    t.join(10)
    assert results["invite"].status_code == 200, results["invite"].text
    assert results["invite"].json()["seat"] == 1


def _person_plays(
    client: TestClient, tid: int, out: dict[str, Any], games: int = 1
) -> threading.Thread:
    """Seat 0's person answers each prompt with a random legal move until the result of
    the ``games``-th game, ready for the next after each (in a thread); a prompt
    overtaken by the bot's move is refused ``stale_version``."""
    rng = random.Random(3)

    def play() -> None:
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_text(json.dumps({"type": "hello", "last_version": None}))
            m = recv_until(ws, "snapshot")
            for _ in range(5000):
                prompt = m.get("prompt")
                if m["type"] in ("snapshot", "update") and prompt and prompt["seat"] == 0:
                    act = {
                        "type": "act",
                        "version": m["version"],
                        "action": rng.choice(prompt["legal"]),
                    }
                    ws.send_text(json.dumps(act))
                m = ws.receive_json()
                if m["type"] == "error":
                    assert m["code"] == "stale_version", m
                if m["type"] == "update" and "result" in m:
                    out["last"] = m
                    out["games"] = out.get("games", 0) + 1
                    if out["games"] == games:
                        return
                    ws.send_text(json.dumps({"type": "ready"}))

    t = threading.Thread(target=play, daemon=True)
    t.start()
    return t


def test_faults_get_typed_errors_then_the_normal_bot_plays(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(turn_seconds=30.0, rank_min_games=1)
    bot_user, token = make_bot(client)
    register(client, "person")
    tid = client.post("/api/tables", json=TWO_PEOPLE).json()["table"]["id"]
    with client.websocket_connect("/ws/bot", headers=bearer(token)) as bot:
        hello = bot.receive_json()
        assert hello == {"type": "hello", "protocol": 1, "bot": "robo", "max_faults": 3}
        bot.send_text(json.dumps({"type": "decline", "table": 999}))
        assert bot.receive_json()["code"] == "not_found"
        _seat_bot(client, bot, tid, {})
        summary = client.get(f"/api/tables/{tid}").json()["table"]
        assert summary["seats"][1]["username"] == "robo" and summary["seats"][1]["bot"] is True
        assert summary["seats"][0]["bot"] is False
        hub = client.app.state.hub  # type: ignore[attr-defined]
        room = hub.rooms[tid]
        sock = hub.bots[bot_user["id"]]
        seen = watch(room, sock, 1)
        out: dict[str, Any] = {}
        person = _person_plays(client, tid, out, games=2)
        started = time.monotonic()
        start = recv_until(bot, "start")
        assert start["seat"] == 1 and start["game"] == "matgo" and start["table"] == tid
        assert start["time"]["limit_ms"] == 30_000
        req = recv_until(bot, "request")
        assert req["view"]["seat"] == 1 and req["legal"]
        rid = req["id"]
        answers = [
            ({"table": tid, "id": rid}, "invalid_action"),  # no move
            ({"table": tid, "id": rid, "move": "go"}, "illegal_action"),
            ({"table": tid, "id": rid - 1, "move": req["legal"][0]}, "stale_version"),
        ]
        for answer, code in answers:
            bot.send_text(json.dumps(answer))
            err = recv_until(bot, "error")
            assert err["code"] == code and err["table"] == tid
        broken = recv_until(bot, "broken")
        assert broken["faults"] == 3
        end = recv_until(bot, "end")  # the normal bot played the seat: no 30 s waits
        assert time.monotonic() - started < 25
        assert end["table"] == tid and end["view"]["seat"] == 1
        assert not [m for m in seen[seen.index(broken) :] if m["type"] == "request"]
        # the next game: a fresh count, the seat handed back, asked again
        assert recv_until(bot, "start")["game_no"] == start["game_no"] + 1
        requests = 0
        while (m := bot.receive_json())["type"] != "end":
            if m["type"] == "request":
                requests += 1
                bot.send_text(json.dumps({"table": tid, "id": m["id"], "move": m["legal"][0]}))
            assert m["type"] != "broken"
        person.join(30)
        assert requests >= 3 and out["games"] == 2
        seats = client.get(f"/api/tables/{tid}").json()["table"]["seats"]
        assert seats[1]["bot_control"] is False and seats[1]["connected"] is True
    board = client.get("/api/leaderboard?game=matgo&min_games=1").json()
    marks = {e["username"]: e["bot"] for e in board["entries"]}
    assert marks == {"robo": True, "person": False}
    week = client.get("/api/ranking/week?game=matgo&min_games=1").json()
    assert {e["username"]: e["bot"] for e in week["entries"]} == marks


def test_a_dropped_bot_is_played_by_the_normal_bot_after_grace(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(turn_seconds=30.0, grace_seconds=0.3, seat_hold_seconds=30.0)
    _, token = make_bot(client)
    register(client, "person")
    tid = client.post("/api/tables", json=TWO_PEOPLE).json()["table"]["id"]
    out: dict[str, Any] = {}
    with client.websocket_connect("/ws/bot", headers=bearer(token)) as bot:
        _seat_bot(client, bot, tid, {})
        person = _person_plays(client, tid, out)
        recv_until(bot, "start")
        started = time.monotonic()
    person.join(30)  # the bot's socket closed with its first request unanswered
    assert "last" in out and time.monotonic() - started < 25
    seats = client.get(f"/api/tables/{tid}").json()["table"]["seats"]
    assert seats[1]["bot"] is True and seats[1]["connected"] is False


def test_invitations_need_a_seated_person_and_a_connected_bot(client: TestClient) -> None:
    _, token = make_bot(client)
    register(client, "person")
    tid = client.post("/api/tables", json=TWO_PEOPLE).json()["table"]["id"]
    r = client.post(f"/api/tables/{tid}/bots", json={"username": "robo"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "bot_offline"
    r = client.post(f"/api/tables/{tid}/bots", json={"username": "person"})
    assert r.status_code == 404
    with client.websocket_connect("/ws/bot", headers=bearer(token)) as bot:
        bot.receive_json()
        results: dict[str, Any] = {}
        t = threading.Thread(
            target=lambda: results.update(
                r=client.post(f"/api/tables/{tid}/bots", json={"username": "robo"})
            )
        )
        t.start()
        recv_until(bot, "invite")
        bot.send_text(json.dumps({"type": "decline", "table": tid}))
        t.join(10)
        assert results["r"].status_code == 409
        assert results["r"].json()["error"]["code"] == "bot_declined"
        assert recv_until(bot, "invite_over")["table"] == tid
    use_session(client, None)
    register(client, "other")
    r = client.post(f"/api/tables/{tid}/bots", json={"username": "robo"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"


def test_a_reconnecting_bot_finds_its_game_and_a_second_socket_replaces_the_first(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(turn_seconds=30.0, grace_seconds=30.0)
    bot_user, token = make_bot(client)
    register(client, "person")
    tid = client.post("/api/tables", json=TWO_PEOPLE).json()["table"]["id"]
    out: dict[str, Any] = {}
    with client.websocket_connect("/ws/bot", headers=bearer(token)) as first:
        _seat_bot(client, first, tid, {})
        person = _person_plays(client, tid, out)
        start = recv_until(first, "start")
        with client.websocket_connect("/ws/bot", headers=bearer(token)) as second:
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(1000):
                    first.receive_json()
            assert closed.value.code == 4409
            assert second.receive_json()["type"] == "hello"  # sent once it is the bot's
            hub = client.app.state.hub  # type: ignore[attr-defined]
            seen = watch(hub.rooms[tid], hub.bots[bot_user["id"]], 1)
            again = recv_until(second, "start")  # the running game, from its snapshot
            assert again["game_no"] == start["game_no"] and again["seat"] == 1
            while "last" not in out:  # the bot answers every request itself
                m = second.receive_json()
                if m["type"] == "request":
                    move = {"table": tid, "id": m["id"], "move": m["legal"][0]}
                    second.send_text(json.dumps(move))
                elif m["type"] == "error":
                    assert m["code"] == "stale_version", m
                elif m["type"] == "end":
                    break
            person.join(30)
    assert "last" in out
    assert not out["last"].get("timeout")
    assert sum(m["type"] == "request" for m in seen) >= 3  # checked for hidden cards


def test_a_restart_keeps_the_bot_mark_and_the_bot_plays_on(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(turn_seconds=30.0, grace_seconds=30.0)
    _, token = make_bot(c)
    register(c, "person")
    tid = c.post("/api/tables", json=TWO_PEOPLE).json()["table"]["id"]
    with c.websocket_connect("/ws/bot", headers=bearer(token)) as bot:
        _seat_bot(c, bot, tid, {})
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_text(json.dumps({"type": "hello", "last_version": None}))
            recv_until(ws, "snapshot")
            start = recv_until(bot, "start")
    cookie = c.cookies.get("madang_session")
    c.__exit__(None, None, None)  # the server stops with the game running
    c2 = make_client(turn_seconds=30.0, grace_seconds=30.0)
    use_session(c2, cookie)
    seats = c2.get(f"/api/tables/{tid}").json()["table"]["seats"]
    assert seats[1]["username"] == "robo" and seats[1]["bot"] is True
    with c2.websocket_connect("/ws/bot", headers=bearer(token)) as bot:
        assert bot.receive_json()["type"] == "hello"
        again = recv_until(bot, "start")  # its seat found again, the game where it was
        assert again["table"] == tid and again["seat"] == 1
        assert again["game_no"] == start["game_no"]
