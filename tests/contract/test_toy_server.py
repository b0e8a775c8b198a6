"""The toy game (``toy.py``) at a real server table, registered by one line: the lobby
offers it, a room plays it against a bot to the settlement, and the ledger and history
hold it — with no server code that knows it."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from tests.contract import toy
from tests.server import conftest
from tests.server.conftest import play_out, recv_until, register

from madang.core.registry import register_spec, unregister_spec
from madang.server.app import create_app


@pytest.fixture
def client(tmp_path: object) -> Iterator[TestClient]:
    register_spec(toy.SPEC)  # the one registration line
    try:
        with TestClient(create_app(conftest.test_config(f"sqlite:///{tmp_path}/toy.sqlite3"))) as c:
            yield c
    finally:
        unregister_spec("pairs")


def test_a_registered_game_is_played_by_the_server(client: TestClient) -> None:
    assert client.get("/api/config").json()["games"]["pairs"] == {
        "seats": 2,
        "presets": ["default"],
        "bot_levels": ["easy"],  # the generic random bot: a seat without a level gets it
    }
    register(client)
    before = client.get("/api/me").json()["balance"]  # the game money a new account starts with
    body = {"game": "pairs", "stake": 10, "seats": [{"kind": "human"}, {"kind": "bot"}]}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello"})
        recv_until(ws, "welcome")
        snap = recv_until(ws, "snapshot")
        assert snap["view"]["game"] == "pairs" and snap["view"]["hands"][1] is None
        last = play_out(ws, 0, snap, random.Random(5).choice)
    result = last["result"]
    mine = sum(p["amount"] * (1 if p["to"] == 0 else -1) for p in result["payments"])
    assert client.get("/api/me").json()["balance"] == before + mine
    games = client.get("/api/games?game=pairs").json()["games"]
    assert games[0]["id"] == result["game_id"]
    frames = client.get(f"/api/games/{result['game_id']}/replay").json()["frames"]
    assert len(frames) == 7  # the deal and six cards
