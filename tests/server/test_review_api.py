"""복기 on the server: ``GET /api/games/{id}/review`` in a bounded process pool, kept
with the game; a table's moves are not slowed while reviews run."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import play_out, recv_until, register

from madang.server.reviews import Reviewer
from madang.server.wire import WireError


def error_code(r: Any) -> str:
    code: str = r.json()["error"]["code"]
    return code


MATGO_VS_BOT = {"game": "matgo", "seats": [{"kind": "human"}, {"kind": "bot"}]}


def _table(c: TestClient) -> int:
    r = c.post("/api/tables", json=MATGO_VS_BOT)
    assert r.status_code == 201, r.text
    tid: int = r.json()["table"]["id"]
    return tid


def _hello(ws: Any) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "last_version": None}))
    recv_until(ws, "welcome")
    return recv_until(ws, "snapshot")


def _game(c: TestClient, seed: int) -> int:
    tid = _table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        last = play_out(ws, 0, _hello(ws), random.Random(seed).choice)
    gid: int = last["result"]["game_id"]
    return gid


def test_a_finished_game_is_reviewed_once_and_kept(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(review_samples=40)
    register(c)
    gid = _game(c, 1)
    r = c.get(f"/api/games/{gid}/review?seat=0")
    assert r.status_code == 200, r.text
    body = r.json()
    review = body["review"]
    assert body["game"] == "matgo" and review["seat"] == 0 and review["samples"] == 40
    assert review["decisions"], "seat 0 had choices"
    for d in review["decisions"]:
        assert d["mark"] in ("good", "inaccuracy", "mistake", "blunder") and d["best"]
    t = time.perf_counter()
    again = c.get(f"/api/games/{gid}/review?seat=0").json()
    assert again == body  # kept with the game
    assert time.perf_counter() - t < 1.0
    assert c.get(f"/api/games/{gid}/review?seat=1").json()["review"]["seat"] == 1
    assert error_code(c.get(f"/api/games/{gid}/review?seat=2")) == "bad_request"
    assert error_code(c.get(f"/api/games/{gid}/review?seat=x")) == "bad_request"
    assert error_code(c.get("/api/games/99999/review")) == "not_found"


def test_the_pool_answers_busy_past_its_queue() -> None:
    rec: dict[str, Any] = {"game": "chess"}

    async def go() -> None:
        rv = Reviewer(workers=1, queue=1, samples=10)
        try:
            first = asyncio.ensure_future(rv.review(1, 0, rec))
            await asyncio.sleep(0)
            assert rv.pending == 1
            with pytest.raises(WireError) as e:
                await rv.review(2, 0, rec)
            assert e.value.code == "busy" and e.value.status == 503
            assert e.value.retry_after is not None and e.value.retry_after > 0
            with pytest.raises(Exception, match="chess"):  # the record's own error, typed
                await first
            assert rv.pending == 0
        finally:
            rv.close()

    asyncio.run(go())


def _move_times(
    ws: Any, state: dict[str, Any], rng: random.Random, keep: Callable[[], bool]
) -> list[float]:
    """Play seat 0 to the end; the round trips of its own moves while ``keep()``."""
    version = state["version"]
    prompt = state.get("prompt")
    out: list[float] = []
    for _ in range(5000):
        t = 0.0
        if prompt and prompt["seat"] == 0:
            t = time.perf_counter()
            ws.send_text(
                json.dumps(
                    {"type": "act", "version": version, "action": rng.choice(prompt["legal"])}
                )
            )
        m = ws.receive_json()
        while m["type"] != "update":
            assert m["type"] != "error", m
            m = ws.receive_json()
        if t and keep():
            out.append(time.perf_counter() - t)
        version, prompt = m["version"], m["prompt"]
        if "result" in m:
            return out
    raise AssertionError("the game did not end")


def test_moves_are_not_slowed_while_reviews_run(make_client: Callable[..., TestClient]) -> None:
    c = make_client(review_samples=300, review_workers=1, tables_per_user=20)
    register(c)
    gids = [_game(c, 1)]
    tid = _table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        calm = _move_times(ws, _hello(ws), random.Random(3), lambda: True)
    done = threading.Event()

    def reviews() -> None:
        for gid in gids:
            for seat in (0, 1):
                c.get(f"/api/games/{gid}/review?seat={seat}")
        done.set()

    t0 = time.perf_counter()
    worker = threading.Thread(target=reviews)
    worker.start()
    time.sleep(0.5)  # the pool has started
    busy: list[float] = []
    try:
        while not done.is_set() and len(busy) < 12:
            tid = _table(c)
            with c.websocket_connect(f"/ws/tables/{tid}") as ws:
                busy += _move_times(ws, _hello(ws), random.Random(4), lambda: not done.is_set())
    finally:
        worker.join(120)
    print(f"reviews took {time.perf_counter() - t0:.1f} s")
    assert len(calm) >= 3 and len(busy) >= 3, (calm, busy)
    m0, m1 = statistics.median(calm), statistics.median(busy)
    print(
        f"move round trip: median {m0 * 1000:.1f} ms calm ({len(calm)} moves),"
        f" {m1 * 1000:.1f} ms with reviews running ({len(busy)} moves)"
    )
    assert m1 <= 2.0 * m0 + 0.05


@pytest.mark.parametrize(("preset", "seats"), [("default", 3), ("gwangpalgi", 4)])
def test_a_finished_gostop_game_is_reviewed_at_each_seat(
    make_client: Callable[..., TestClient], preset: str, seats: int
) -> None:
    """고스톱 at three seats and at four (광팔기): every seat's review from the same pool,
    kept with the game; the seat range is the table's."""
    from tests.server.test_gostop import hello, new_table, play_to_result

    from madang.review import review as review_of

    c = make_client(review_samples=30)
    register(c)
    bots = [{"kind": "bot", "level": "easy"}] * (seats - 1)
    tid = new_table(c, {"game": "gostop", "preset": preset, "seats": [{"kind": "human"}, *bots]})
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        last = play_to_result(ws, 0, hello(ws), random.Random(5), seats=seats, prefer=("join",))
    gid: int = last["result"]["game_id"]
    record = c.get(f"/api/games/{gid}").json()["record"]
    questions: list[str] = []
    decisions = 0
    for seat in range(seats):
        r = c.get(f"/api/games/{gid}/review?seat={seat}")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["game"] == "gostop" and len(body["players"]) == seats
        got = body["review"]
        assert got["game"] == "gostop" and got["seat"] == seat and got["samples"] == 30
        assert got == review_of(record, seat, samples=30)  # the seat's own, as the CLI's
        decisions += len(got["decisions"])
        for d in got["decisions"]:
            assert d["mark"] in ("good", "inaccuracy", "mistake", "blunder") and d["best"]
            questions += [d["question"]] if "question" in d else []
        assert c.get(f"/api/games/{gid}/review?seat={seat}").json() == body  # kept
    assert decisions > 0
    if seats == 4:  # 선+1 was asked to join or die
        assert "join" in questions
    assert error_code(c.get(f"/api/games/{gid}/review?seat={seats}")) == "bad_request"
