"""The move journal (issue 13, item 1): every accepted move, a timeout's default answer
included, is stored as the game's next move before any update shows it; a game is its
record as dealt plus its journal."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import recv_until, register
from tests.server.test_ws import hello, mahjong_hand_against_bots, new_table

from madang.core.registry import spec
from madang.server import store


def _journal(client: TestClient, game_id: int) -> tuple[dict[str, Any] | None, list[Any]]:
    return store.journal(client.app.state.hub.engine, game_id)  # type: ignore[attr-defined]


def test_each_update_shows_only_stored_moves_and_the_journal_is_the_record(
    client: TestClient,
) -> None:
    register(client)
    tid = new_table(client)
    rng = random.Random(3)
    game_id = None
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        version, prompt = snap["version"], snap["prompt"]
        shown = 0
        for _ in range(500):
            if prompt and prompt["seat"] == 0:
                move = rng.choice(prompt["legal"])
                ws.send_text(json.dumps({"type": "act", "version": version, "action": move}))
            m = recv_until(ws, "update")
            version, prompt = m["version"], m["prompt"]
            shown += sum(1 for e in m["events"] if e["type"] in ("play", "go", "stop", "pick"))
            game_id = m.get("result", {}).get("game_id", game_id)
            if game_id is None:
                games = client.app.state.hub.rooms[tid].game_id  # type: ignore[attr-defined]
                dealt, moves = _journal(client, games)
                assert len(moves) >= shown  # nothing shown that is not stored
                # the deal while it plays (the bot's last move may have ended and settled
                # the game since this update: then the whole record)
                assert dealt is not None
                assert dealt["moves"] in ([], [m["move"] for m in moves])
            if "result" in m:
                break
    assert game_id is not None
    start, moves = _journal(client, game_id)
    detail = client.get(f"/api/games/{game_id}").json()
    assert start is not None
    assert [m["move"] for m in moves] == detail["record"]["moves"]
    assert [m["seq"] for m in moves] == list(range(len(moves)))
    assert not any(m["timed_out"] for m in moves)
    # the record as dealt plus the journal replays to the game that was played
    assert (
        spec("matgo").frames({**start, "moves": [m["move"] for m in moves]})[-1]
        == (spec("matgo").frames(detail["record"])[-1])
    )


def test_a_mahjong_journal_replays_in_the_order_moves_were_accepted(client: TestClient) -> None:
    last = mahjong_hand_against_bots(client, "easy", 5)
    game_id = last["result"]["game_id"]
    start, moves = _journal(client, game_id)  # after the end, the record is the whole game
    assert start is not None
    record = {**start, "moves": [f"{m['seat']} {m['move']}" for m in moves]}
    detail = client.get(f"/api/games/{game_id}").json()
    got = spec("mahjong").frames(record)[-1]["view"]
    assert got == spec("mahjong").frames(detail["record"])[-1]["view"]


def test_a_move_that_cannot_be_stored_is_never_shown(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    register(client)
    tid = new_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        prompt = snap["prompt"]
        while not (prompt and prompt["seat"] == 0):  # the bot may deal first
            m = recv_until(ws, "update")
            prompt, snap = m["prompt"], m

        def broken(*args: Any, **kwargs: Any) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(store, "journal_moves", broken)
        move = prompt["legal"][0]
        ws.send_text(json.dumps({"type": "act", "version": snap["version"], "action": move}))
        seen = []
        for _ in range(10):
            m = ws.receive_json()
            seen.append(m["type"])
            if m["type"] == "closed":
                break
        assert "update" not in seen and "closed" in seen


def test_rows_arriving_during_a_write_share_the_next_transaction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asyncio
    import time

    from madang.server.db import make_engine
    from madang.server.journal import JournalWriter

    batches: list[list[int]] = []

    def write(eng: object, rows: list[dict[str, Any]]) -> None:
        time.sleep(0.02)  # a slow disk: rows gather meanwhile
        if any(r["seq"] == 13 for r in rows):
            raise ValueError("bad row")
        batches.append([r["seq"] for r in rows])

    monkeypatch.setattr(store, "journal_moves", write)
    writer = JournalWriter(make_engine("sqlite://"))

    async def run(seqs: range) -> list[BaseException | None]:
        async def one(i: int) -> None:
            await asyncio.sleep(0.001 * (i - seqs[0]))
            row = {"game_id": 1, "seq": i, "seat": 0, "move": "x", "timed_out": False}
            await writer.append(row)

        return await asyncio.gather(*(one(i) for i in seqs), return_exceptions=True)

    assert asyncio.run(run(range(0, 12))) == [None] * 12
    assert sorted(s for b in batches for s in b) == list(range(12))
    assert len(batches) <= 3  # shared transactions, not one per row
    batches.clear()
    results = asyncio.run(run(range(12, 24)))
    assert [12 + i for i, r in enumerate(results) if r is not None] == [13]  # only the bad row
    assert sorted(s for b in batches for s in b) == [i for i in range(12, 24) if i != 13]
