"""Nobody is charged for a game they never started (issue 25, U4), over real WebSockets:
a waiting table whose creator went away deals no game and gives their seat up (closing
when no person is left), a game is never dealt to a person who is not connected, and
leaving in the middle of a game still pays as before."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from tests.server.conftest import START, play_out, recv_until, register, use_session

TWO_PEOPLE = {"game": "matgo", "stake": 10, "seats": [{"kind": "human"}, {"kind": "human"}]}


def hello(ws: Any) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "last_version": None}))
    recv_until(ws, "welcome")
    return recv_until(ws, "snapshot")


def two_people(c: TestClient) -> tuple[int, str, str]:
    """A two-person Matgo table just made by ``host1``: its id and both players'
    sessions (``other1`` has not joined)."""
    register(c, "other1")
    other = c.cookies.get("madang_session") or ""
    c.cookies.clear()
    register(c, "host1")
    host = c.cookies.get("madang_session") or ""
    r = c.post("/api/tables", json=TWO_PEOPLE)
    assert r.status_code == 201, r.text
    tid: int = r.json()["table"]["id"]
    return tid, host, other


def untouched(c: TestClient, token: str) -> None:
    """The player of ``token`` played no game and paid nothing."""
    use_session(c, token)
    me = c.get("/api/me").json()
    assert me["balance"] == START, me
    assert all(r["games"] == 0 and r["rating"] == 1500 for r in me["ratings"].values()), me
    assert [e["reason"] for e in c.get("/api/ledger").json()["entries"]] == ["start"]
    assert c.get("/api/games").json()["games"] == []


def test_a_creator_who_went_away_is_dealt_no_game(make_client: Callable[..., TestClient]) -> None:
    c = make_client(grace_seconds=1.0)
    tid, host, other = two_people(c)
    use_session(c, host)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert hello(ws)["status"] == "waiting"
    # the creator closed the page; someone joins within the grace and connects
    use_session(c, other)
    r = c.post(f"/api/tables/{tid}/join", json={"stake": 10})
    assert r.status_code == 200 and r.json()["seat"] == 1
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        assert snap["status"] == "waiting" and snap["view"] is None  # no deal
        assert snap["seats"][0]["username"] == "host1" and not snap["seats"][0]["connected"]
        seats = recv_until(ws, "seats")["seats"]  # the grace ran out: the seat is free
        assert seats[0]["username"] is None and seats[1]["username"] == "other1"
        table = c.get(f"/api/tables/{tid}").json()["table"]
        assert table["status"] == "waiting" and table["games_played"] == 0
    untouched(c, host)
    untouched(c, other)


def test_a_waiting_table_closes_when_its_only_person_goes(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(grace_seconds=1.0)
    tid, host, _ = two_people(c)
    use_session(c, host)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws)
    deadline = time.monotonic() + 10
    while c.get(f"/api/tables/{tid}").status_code == 200 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert c.get(f"/api/tables/{tid}").json()["error"]["code"] == "not_found"
    assert c.get("/api/tables").json()["tables"] == []
    use_session(c, host)  # the seat counts no more against the cap
    assert c.post("/api/tables", json=TWO_PEOPLE).status_code == 201
    untouched(c, host)


def test_the_deal_waits_for_the_creator_to_come_back(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(grace_seconds=30)
    tid, host, other = two_people(c)
    use_session(c, other)
    assert c.post(f"/api/tables/{tid}/join", json={"stake": 10}).status_code == 200
    with c.websocket_connect(f"/ws/tables/{tid}") as ws_other:
        assert hello(ws_other)["status"] == "waiting"  # the creator is not here yet
        use_session(c, host)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws_host:  # a page reload
            assert hello(ws_host)["status"] == "playing"
            update = recv_until(ws_other, "update")
            assert update["game_no"] == 1 and update["view"]["seat"] == 1


def test_a_person_away_between_games_is_not_dealt_the_next(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(grace_seconds=1.0, next_game_seconds=1.0)
    tid, host, other = two_people(c)
    use_session(c, other)
    assert c.post(f"/api/tables/{tid}/join", json={"stake": 10}).status_code == 200
    use_session(c, host)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws_host:
        assert hello(ws_host)["status"] == "waiting"
        use_session(c, other)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws_other:
            snap = hello(ws_other)  # dealt now that both are here
            assert snap["status"] == "playing"
        # other went away mid-game: a bot plays their seat to the end of the game, and
        # that game pays as any other
        last = play_out(ws_host, 0, hello(ws_host), random.Random(5).choice)
        ws_host.send_text(json.dumps({"type": "ready"}))
        closed = recv_until(ws_host, "closed")  # not a second game with a bot for them
    assert closed["reason"] == "a player did not come back"
    result = last["result"]
    use_session(c, other)
    games = c.get("/api/games").json()["games"]
    assert [g["id"] for g in games] == [result["game_id"]]
    theirs = sum(p["amount"] * ((p["to"] == 1) - (p["from"] == 1)) for p in result["payments"])
    assert c.get("/api/me").json()["balance"] == START + theirs


def test_leaving_mid_game_still_pays(make_client: Callable[..., TestClient]) -> None:
    c = make_client(grace_seconds=1.0)
    tid, host, other = two_people(c)
    use_session(c, other)
    assert c.post(f"/api/tables/{tid}/join", json={"stake": 10}).status_code == 200
    use_session(c, host)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws_host:
        hello(ws_host)
        use_session(c, other)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws_other:
            assert hello(ws_other)["status"] == "playing"
            assert c.post(f"/api/tables/{tid}/leave", json={}).json() == {"ok": True}
        last = play_out(ws_host, 0, hello(ws_host), random.Random(6).choice)
        assert recv_until(ws_host, "closed")["reason"] == "a player left"
    result = last["result"]
    use_session(c, other)
    assert [g["id"] for g in c.get("/api/games").json()["games"]] == [result["game_id"]]
    theirs = sum(p["amount"] * ((p["to"] == 1) - (p["from"] == 1)) for p in result["payments"])
    assert c.get("/api/me").json()["balance"] == START + theirs
    assert result["money"]["1"] == {"net": theirs, "all_in": False, "balance": START + theirs}
    entries = c.get("/api/ledger").json()["entries"]  # the leaver's own ledger says it too
    assert sum(e["amount"] for e in entries if e["game_id"] == result["game_id"]) == theirs
    if result["winner"] is not None:
        assert c.get("/api/me").json()["ratings"]["matgo"]["games"] == 1
