"""고스톱 (gostop) at the server: tables of three (a person and two bots, people only),
the bot levels it offers, the settlement (each loser pays the winner, points × stake,
payments summing to zero), ratings by placement, replays, and what goes over the wire
(no other hand; the leak check over every message is ``tests/server/test_leaks.py``)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import START, recv_until, register, use_session

from madang.server.games import BotPlayer, bot_level_for, bot_levels
from madang.server.ratings import placement_deltas

GOSTOP_VS_BOTS = {
    "game": "gostop",
    "stake": 10,
    "seats": [{"kind": "human"}, *[{"kind": "bot", "level": "easy"}] * 2],
}


def new_table(c: TestClient, body: dict[str, Any]) -> int:
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    tid: int = r.json()["table"]["id"]
    return tid


def hello(ws: Any) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "last_version": None}))
    recv_until(ws, "welcome")
    return recv_until(ws, "snapshot")


def own_hand_only(view: dict[str, Any], seat: int) -> None:
    """A seat's view over the wire: its own hand and the others' as counts."""
    assert view["game"] == "gostop" and view["seat"] == seat
    assert "hands" not in view and len(view["hand_counts"]) == 3
    assert len(view["hand"]) == view["hand_counts"][seat]


def play_to_result(ws: Any, seat: int, snap: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Answer ``seat``'s prompts at random, checking each update's view, until the
    game's result; the last update."""
    version, prompt = snap["version"], snap.get("prompt")
    own_hand_only(snap["view"], seat)
    for _ in range(5000):
        if prompt and prompt["seat"] == seat:
            move = rng.choice(prompt["legal"])
            ws.send_text(json.dumps({"type": "act", "version": version, "action": move}))
        m = ws.receive_json()
        assert m["type"] != "error", m
        if m["type"] != "update":
            continue
        assert m["version"] == version + 1
        version, prompt = m["version"], m["prompt"]
        own_hand_only(m["view"], seat)
        if "result" in m:
            return m
    raise AssertionError("the game did not end")


def test_config_offers_gostop_with_its_working_bot_levels(client: TestClient) -> None:
    config = client.get("/api/config").json()
    assert config["games"]["gostop"]["seats"] == 3
    assert config["games"]["gostop"]["bot_levels"] == bot_levels("gostop")
    assert config["games"]["matgo"]["bot_levels"] == ["easy", "normal", "hard"]
    assert "gostop" in client.get("/api/rules").json()["games"]
    # a quick match fills 고스톱's seats with the strongest level it has
    assert bot_level_for("gostop", "normal") in bot_levels("gostop")
    assert bot_level_for("matgo", "normal") == "normal"
    # a person's stand-in (away, out of time) is a bot of the game, not the default answer
    assert BotPlayer("gostop", bot_level_for("gostop", "normal"), 0.01).bot is not None


def test_a_table_of_three_needs_three_seats_and_a_level_the_game_has(client: TestClient) -> None:
    register(client)
    two = {**GOSTOP_VS_BOTS, "seats": GOSTOP_VS_BOTS["seats"][:2]}
    r = client.post("/api/tables", json=two)
    assert r.status_code == 400 and "3 seats" in r.json()["error"]["message"]
    missing = [lv for lv in ("easy", "normal", "hard") if lv not in bot_levels("gostop")]
    for level in missing:  # a level whose bot cannot play three seats is not offered
        seats = [{"kind": "human"}, {"kind": "bot", "level": level}, {"kind": "bot"}]
        r = client.post("/api/tables", json={**GOSTOP_VS_BOTS, "seats": seats})
        assert r.status_code == 400 and "gostop bot level" in r.json()["error"]["message"]
    # the engine plays four seats (광팔기) and 쇼당; the tables do not yet
    for body in ({"rules": {"players": 4}}, {"rules": {"shodang": True}},
                 {"preset": "gwangpalgi"}, {"preset": "shodang"}):  # fmt: skip
        r = client.post("/api/tables", json={**GOSTOP_VS_BOTS, **body})
        assert r.status_code == 400 and r.json()["error"]["code"] == "rule_config", body
        assert "not played at tables yet" in r.json()["error"]["message"] or (
            "3 seats" in r.json()["error"]["message"]
        )
    presets = client.get("/api/config").json()["games"]["gostop"]["presets"]
    assert "default" in presets and not {"shodang", "gwangpalgi", "gwangpalgi_last"} & set(presets)
    assert client.get("/api/tables").json()["tables"] == []  # nothing was made


def test_gostop_against_two_bots_plays_to_the_settlement(client: TestClient) -> None:
    register(client)
    tid = new_table(client, GOSTOP_VS_BOTS)
    table = client.get(f"/api/tables/{tid}").json()["table"]
    assert table["game"] == "gostop" and len(table["seats"]) == 3
    assert table["worth"]["max_points"] > 0  # the stake cap knows the game's bound
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        assert snap["status"] == "playing"
        last = play_to_result(ws, 0, snap, random.Random(4))
    result = last["result"]

    pays = result["payments"]
    net = [0, 0, 0]
    for p in pays:
        assert p["amount"] == p["points"] * 10 and p["from"] != p["to"]
        net[p["from"]] -= p["amount"]
        net[p["to"]] += p["amount"]
    assert sum(net) == 0
    if result["winner"] is not None:
        assert {p["to"] for p in pays if p["reason"] == "win"} <= {result["winner"]}
    me = client.get("/api/me").json()
    assert me["balance"] == START + net[0]
    ledger = client.get("/api/ledger").json()["entries"]
    assert sum(e["amount"] for e in ledger if e["game_id"]) == net[0]
    games = client.get("/api/games").json()["games"]
    assert games[0]["game"] == "gostop" and games[0]["players"] == ["minsu", "bot-easy", "bot-easy"]
    detail = client.get(f"/api/games/{result['game_id']}").json()
    assert detail["record"]["game"] == "gostop" and detail["payments"] == pays
    frames = client.get(f"/api/games/{result['game_id']}/replay").json()["frames"]
    assert len(frames) == len(detail["record"]["moves"]) + 1
    assert all(len(h) == 7 for h in frames[0]["view"]["hands"])  # the replay shows them
    assert "match_scores" not in result and not result["match_over"]  # the table goes on
    # this deal (seed 101, the person's moves from seed 4) is won: the person is rated by
    # placement (the bots share one account, which keeps its rating)
    assert result["winner"] is not None
    assert set(result["ratings"]) == {"0"}
    assert me["ratings"]["gostop"]["games"] == 1 and "rd" not in me["ratings"]["gostop"]
    moved = result["ratings"]["0"]["after"] - result["ratings"]["0"]["before"]
    expected = placement_deltas([1500.0] * 3, net, [0] * 3)[0]
    assert expected != 0 and moved == pytest.approx(expected, abs=0.1)
    # every loser's own sheet, as the person's page shows it
    winner = result["winner"]
    assert [s["loser"] for s in last["view"]["sheets"]] == [(winner + 1) % 3, (winner + 2) % 3]


def test_three_people_at_a_table(client: TestClient) -> None:
    """People only: two join the table made by a third; every seat plays its prompts,
    and each sees its own hand only."""
    cookies = []
    for name in ("minsu", "jiwoo", "seoyun"):
        client.cookies.clear()
        register(client, name)
        cookies.append(client.cookies.get("madang_session") or "")
    use_session(client, cookies[0])
    people = {**GOSTOP_VS_BOTS, "seats": [{"kind": "human"}] * 3}
    tid = new_table(client, people)
    for i in (1, 2):
        use_session(client, cookies[i])
        r = client.post(f"/api/tables/{tid}/join", json={"stake": 10})
        assert r.status_code == 200 and r.json()["seat"] == i, r.text
    socks = []
    for i in range(3):
        use_session(client, cookies[i])
        socks.append(client.websocket_connect(f"/ws/tables/{tid}").__enter__())
    try:
        state = [hello(ws) for ws in socks]
        for i, ws in enumerate(socks):  # a seat connected before the deal: the deal's update
            if state[i]["status"] != "playing":
                state[i] = recv_until(ws, "update")
        versions = [s["version"] for s in state]
        prompts = [s.get("prompt") for s in state]
        rng = random.Random(9)
        result = None
        for _ in range(2000):
            seat = next((i for i, p in enumerate(prompts) if p and p["seat"] == i), None)
            assert seat is not None, "nobody is asked"
            move = rng.choice(prompts[seat]["legal"])
            socks[seat].send_text(
                json.dumps({"type": "act", "version": versions[seat], "action": move})
            )
            for i, ws in enumerate(socks):  # every seat gets the one update
                m = recv_until(ws, "update")
                own_hand_only(m["view"], i)
                versions[i], prompts[i] = m["version"], m["prompt"]
                result = m.get("result")
            if result is not None:
                break
        assert result is not None
        assert sum(p["amount"] * (1 if p["to"] == 0 else -1 if p["from"] == 0 else 0)
                   for p in result["payments"]) == result["money"]["0"]["net"]  # fmt: skip
        assert sum(int(v["net"]) for v in result["money"].values()) == 0
    finally:
        for ws in socks:
            ws.__exit__(None, None, None)


def test_a_gostop_table_resumes_after_a_restart(
    make_client: Callable[..., TestClient],
) -> None:
    """The server stops with a game of three in progress: after the restart the table
    plays on from the same position (the journal replays the session, seats and match)."""
    c = make_client()
    register(c)
    cookie = c.cookies.get("madang_session")
    tid = new_table(c, GOSTOP_VS_BOTS)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        prompt = snap["prompt"]
        assert prompt and prompt["seat"] == 0  # seed 101: the person plays first
        move = prompt["legal"][0]
        ws.send_text(json.dumps({"type": "act", "version": snap["version"], "action": move}))
        before = recv_until(ws, "update")
        while before["prompt"] is None or before["prompt"]["seat"] != 0:
            before = recv_until(ws, "update")  # the bots played on to the person's turn
    c.__exit__(None, None, None)
    c2 = make_client()
    use_session(c2, cookie)
    with c2.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        assert snap["status"] == "playing" and snap["game_no"] == before["game_no"]
        assert snap["view"]["hand"] == before["view"]["hand"]
        assert snap["view"]["hand_counts"] == before["view"]["hand_counts"]
        assert snap["prompt"]["legal"] == before["prompt"]["legal"]
        last = play_to_result(ws, 0, snap, random.Random(2))
    result = last["result"]
    mine = sum(p["amount"] * ((p["to"] == 0) - (p["from"] == 0)) for p in result["payments"])
    assert mine == result["money"]["0"]["net"]


def test_a_quick_match_of_gostop_fills_in_with_the_bots_it_has(db_url: str) -> None:
    """빠른 시작 for 고스톱: alone, the person is seated with two bots after the fill time,
    of the server's ``quick_bot_level`` where the game has it, else its strongest."""
    from tests.server.conftest import test_config
    from tests.server.live import running
    from tests.server.test_quickmatch import call, guest

    config = test_config(db_url, quick_fill_seconds=0.2)
    with running(config) as live:
        code, got = call(live, "/api/quick", {"game": "gostop", "stake": 1}, guest(live))
        assert code == 201, got
        seats = got["table"]["seats"]
        assert got["table"]["game"] == "gostop" and len(seats) == 3
        level = bot_level_for("gostop", config.quick_bot_level)
        assert sorted(s["kind"] for s in seats) == ["bot", "bot", "human"]
        assert {s["level"] for s in seats if s["kind"] == "bot"} == {level}
