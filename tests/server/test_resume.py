"""Games that survive a restart (issue 13, item 2): at start every table left open is
rebuilt from its seed and its games' journals and goes on (``madang.server.resume``).

Each test stops a server with a game in a chosen state — a Matgo 고/스톱 question, a
mahjong claim window, between games, a game whose last move was stored but not settled
— starts another on the same database, and checks the table goes on: the client
reconnects with its old version and gets a snapshot asking the same question, the game
finishes, and its outcome is that of an uninterrupted replay of the same moves. On
SQLite and on PostgreSQL (``MADANG_TEST_POSTGRES_URL``). The same through ``kill -9``
of a real ``madang serve``: ``test_resume_live.py``.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.server.conftest import DEAL_SEED, play_out, recv_until, register, use_session
from tests.server.test_ws import hello, new_table

from madang.server import db, store
from madang.server.games import make_session

MAHJONG_VS_BOTS = {"game": "mahjong", "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3}


def _engine(c: TestClient) -> Any:
    return c.app.state.hub.engine  # type: ignore[attr-defined]


def _until_asked(
    ws: Any, snap: dict[str, Any], rng: random.Random, questions: tuple[str, ...]
) -> dict[str, Any] | None:
    """Play seat 0 at random until it is asked one of ``questions``: that update (or
    None if the game ended first)."""
    m = snap
    for _ in range(3000):
        prompt = m.get("prompt")
        if prompt and prompt["seat"] == 0:
            if prompt["question"] in questions:
                return m
            move = rng.choice(prompt["legal"])
            ws.send_text(json.dumps({"type": "act", "version": m["version"], "action": move}))
        m = recv_until(ws, "update")
        if "result" in m:
            return None
    raise AssertionError("the game did not end")


def _uninterrupted(game: str, tid: int, c: TestClient, game_id: int) -> dict[str, Any]:
    """The stored game's moves replayed on a fresh session of the table's seed (every
    earlier game of the table first): its outcome and payments."""
    eng = _engine(c)
    with eng.connect() as conn:
        ids = [
            r.id
            for r in conn.execute(
                sa.select(db.games.c.id).where(db.games.c.table_id == tid).order_by(db.games.c.id)
            )
        ]
    sess = make_session(game, "default", DEAL_SEED + tid)
    for i, gid in enumerate(ids):
        if i:
            sess.next_game()
        for m in store.journal(eng, gid)[1]:
            sess.step(m["seat"], sess.string_to_action(m["move"]))
        if gid == game_id:
            break
    assert sess.over
    return {"outcome": sess.outcome(), "payments": sess.payments(), "record": sess.record()}


def _check_settled(c: TestClient, game: str, tid: int, game_id: int) -> dict[str, Any]:
    detail = c.get(f"/api/games/{game_id}").json()
    assert detail["status"] == "finished"
    want = _uninterrupted(game, tid, c, game_id)
    assert detail["record"] == want["record"]
    result = detail["result"]
    assert result["winner"] == want["outcome"]["winner"]
    assert result["points"] == want["outcome"]["points"]
    pays = [(p["from"], p["to"], p["points"], p["reason"]) for p in result["payments"]]
    assert pays == [tuple(p) for p in want["payments"]]
    with _engine(c).connect() as conn:
        rows = conn.execute(
            sa.select(db.ledger.c.amount).where(db.ledger.c.game_id == game_id)
        ).all()
        players = dict(
            conn.execute(
                sa.select(db.game_players.c.seat, db.game_players.c.user_id).where(
                    db.game_players.c.game_id == game_id
                )
            ).all()
        )
    assert sum(r.amount for r in rows) == 0
    paid = [p for p in pays if p[2] and players[p[0]] != players[p[1]]]  # bots: one account
    assert len(rows) == 2 * len(paid)  # one settlement, paid once
    return detail


def test_a_matgo_game_goes_on_from_its_go_stop_question(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client()
    register(c)
    cookie = c.cookies.get("madang_session")
    rng = random.Random(5)
    for _ in range(15):  # tables until seat 0 is asked 고/스톱
        tid = new_table(c)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            asked = _until_asked(ws, hello(ws), rng, ("go_stop",))
        if asked is not None:
            break
        assert c.post(f"/api/tables/{tid}/leave").status_code == 200
    else:
        pytest.fail("no 고/스톱 question in 15 games")
    moves_before = len(store.journal(_engine(c), c.app.state.hub.rooms[tid].game_id)[1])  # type: ignore[attr-defined]
    c.__exit__(None, None, None)  # the server stops with the question open

    c2 = make_client()
    use_session(c2, cookie)
    assert c2.app.state.hub.resumed_at_start == 1  # type: ignore[attr-defined]
    assert c2.app.state.hub.aborted_at_start == 0  # type: ignore[attr-defined]
    tables = c2.get("/api/tables").json()["tables"]
    assert [(t["id"], t["status"]) for t in tables] == [(tid, "playing")]
    with c2.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws, last=asked["version"])  # its old version: a snapshot
        assert snap["version"] > asked["version"]
        assert snap["view"] == asked["view"]
        assert snap["prompt"]["question"] == "go_stop"
        assert snap["prompt"]["legal"] == asked["prompt"]["legal"]
        last = play_out(ws, 0, snap, rng.choice)
    game_id = last["result"]["game_id"]
    detail = _check_settled(c2, "matgo", tid, game_id)
    assert len(detail["record"]["moves"]) > moves_before
    statuses = [g["status"] for g in c2.get("/api/games").json()["games"]]
    assert "aborted" not in statuses


def test_a_mahjong_hand_goes_on_from_an_open_claim_window(
    make_client: Callable[..., TestClient],
) -> None:
    # The person's decision time is long enough to stop the server inside the window and
    # to say hello to the next one before the resumed window runs out, however loaded
    # the machine; the pause after the other discards is short.
    c = make_client(claim_seconds=0.05, claim_decision_seconds=10.0)
    register(c)
    cookie = c.cookies.get("madang_session")
    rng = random.Random(2)
    for _ in range(6):
        tid = new_table(c, MAHJONG_VS_BOTS)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            asked = _until_asked(ws, hello(ws), rng, ("claim", "rob"))
        room = c.app.state.hub.rooms[tid]  # type: ignore[attr-defined]
        if asked is not None:
            moves = store.journal(_engine(c), room.game_id)[1]
            if not (moves[-1]["seat"] == 0 and moves[-1]["timed_out"]):
                break  # stopped inside the window (not after its time ran out)
        assert c.post(f"/api/tables/{tid}/leave").status_code == 200
    else:
        pytest.fail("no claim window to stop in")
    c.__exit__(None, None, None)

    c2 = make_client(claim_seconds=0.05, claim_decision_seconds=10.0)
    use_session(c2, cookie)
    assert c2.app.state.hub.resumed_at_start >= 1  # type: ignore[attr-defined]
    with c2.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws, last=asked["version"])
        assert snap["prompt"]["question"] == asked["prompt"]["question"]
        assert snap["prompt"]["legal"] == asked["prompt"]["legal"]
        assert snap["view"]["players"][0]["hand"] == asked["view"]["players"][0]["hand"]
        assert snap["view"]["claim"] == asked["view"]["claim"]
        last = play_out(ws, 0, snap, rng.choice)
    _check_settled(c2, "mahjong", tid, last["result"]["game_id"])


def test_a_table_between_games_deals_its_next_game_after_a_restart(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client()
    register(c)
    cookie = c.cookies.get("madang_session")
    tid = new_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        last = play_out(ws, 0, hello(ws), random.Random(3).choice)
    c.__exit__(None, None, None)

    c2 = make_client()
    use_session(c2, cookie)
    with c2.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws, last=last["version"])
        assert snap["status"] == "between"
        assert snap["result"]["game_id"] == last["result"]["game_id"]
        ws.send_text(json.dumps({"type": "ready"}))
        nxt = recv_until(ws, "update")
    assert nxt["game_no"] == last["game_no"] + 1
    # the same deal an uninterrupted table deals for its second game
    expected = make_session("matgo", "default", DEAL_SEED + tid)
    with _engine(c2).connect() as conn:
        first = conn.execute(sa.select(db.games.c.id).order_by(db.games.c.id)).scalar()
    for m in store.journal(_engine(c2), first)[1]:
        expected.step(m["seat"], expected.string_to_action(m["move"]))
    expected.next_game()
    assert nxt["view"]["hand"] == expected.view(0)["hand"]


def stop_while_settling(
    c: TestClient, tid: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str | None]:
    """Let table ``tid``'s game (dealt when its person connects, then played by a bot
    after the person goes away for the grace) run to its end and stop the server while
    its settlement is in flight, as a process that dies before the settlement commits:
    the game's id and the person's session cookie. The game stays ``playing``, stored to
    its last move."""
    cookie = c.cookies.get("madang_session")
    room = c.app.state.hub.rooms[tid]  # type: ignore[attr-defined]
    settling = threading.Event()

    def stuck(*args: Any, **kwargs: Any) -> None:
        settling.set()
        while not room.closing:  # until the server stops the room
            time.sleep(0.01)
        raise OSError("the process died before the settlement committed")

    monkeypatch.setattr(store, "finish_game", stuck)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws)  # dealt; then the person goes away
    assert settling.wait(20), "the game did not end"
    game_id = room.game_id
    c.__exit__(None, None, None)
    monkeypatch.undo()
    with _engine(c).connect() as conn:
        status = conn.execute(sa.select(db.games.c.status).where(db.games.c.id == game_id))
        assert status.scalar() == "playing"  # stored to its last move, unsettled
    return game_id, cookie


def test_a_game_stored_to_its_end_but_not_settled_settles_once_at_start(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    c = make_client(grace_seconds=0.3)
    register(c)
    tid = new_table(c)
    game_id, cookie = stop_while_settling(c, tid, monkeypatch)

    c2 = make_client()
    use_session(c2, cookie)
    with c2.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        assert snap["status"] == "between" and snap["result"]["game_id"] == game_id
    _check_settled(c2, "matgo", tid, game_id)
    c3 = make_client()  # a second restart settles nothing again
    use_session(c3, cookie)
    _check_settled(c3, "matgo", tid, game_id)


def _a_game_to_settle(
    eng: Any, stake: int, payment: tuple[int, int, int, str]
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Two players at a Matgo game in play, each holding 1,000, and the arguments of its
    settlement."""
    a, b = (store.create_user(eng, n, None, start=1000) for n in ("ga", "gb"))
    tid, _ = store.create_table(
        eng, game="matgo", preset="default", stake=stake, private=False, invite="x",
        seats=[], created_by=a["id"],
    )  # fmt: skip
    gid = store.start_game(
        eng, table_id=tid, game="matgo", preset="default", stake=stake, game_no=1,
        players=[a["id"], b["id"]],
    )  # fmt: skip
    winner = payment[1]
    return a, b, {
        "game_id": gid, "game": "matgo", "stake": stake, "players": [a["id"], b["id"]],
        "outcome": {"winner": winner, "points": payment[2], "reason": payment[3]},
        "payments": [payment], "record": {"moves": []}, "match_scores": None,
    }  # fmt: skip


def test_settling_twice_pays_once() -> None:
    from madang.server.db import make_engine, migrate

    eng = make_engine("sqlite://")
    migrate(eng)
    a, b, args = _a_game_to_settle(eng, 10, (1, 0, 3, "stop"))
    first = store.finish_game(eng, **args)
    with pytest.raises(store.AlreadySettled) as e:
        store.finish_game(eng, **args)
    assert e.value.result == first
    assert store.balance(eng, a["id"]) == 1030 and store.balance(eng, b["id"]) == 970


def test_a_table_whose_journal_does_not_replay_is_closed_unpaid_with_a_reason(
    make_client: Callable[..., TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    c = make_client()
    register(c)
    cookie = c.cookies.get("madang_session")
    tid = new_table(c)
    rng = random.Random(8)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        m = hello(ws)
        for _ in range(6):
            prompt = m["prompt"]
            if prompt and prompt["seat"] == 0:
                move = rng.choice(prompt["legal"])
                ws.send_text(json.dumps({"type": "act", "version": m["version"], "action": move}))
            m = recv_until(ws, "update")
    eng = _engine(c)
    game_id = c.app.state.hub.rooms[tid].game_id  # type: ignore[attr-defined]
    balance = c.get("/api/me").json()["balance"]
    c.__exit__(None, None, None)
    with eng.begin() as conn:  # a move the game never allowed
        conn.execute(
            sa.update(db.game_moves)
            .where(db.game_moves.c.game_id == game_id, db.game_moves.c.seq == 0)
            .values(move="play 99x")
        )
    with caplog.at_level(logging.WARNING, logger="madang.server"):
        c2 = make_client()
    use_session(c2, cookie)
    assert c2.app.state.hub.aborted_at_start == 1  # type: ignore[attr-defined]
    assert any(f"table {tid} not resumed" in r.getMessage() for r in caplog.records)
    games = c2.get("/api/games").json()["games"]
    assert [(g["id"], g["status"]) for g in games] == [(game_id, "aborted")]
    assert c2.get("/api/tables").json()["tables"] == []
    assert c2.get("/api/me").json()["balance"] == balance


def test_settlements_racing_in_threads_pay_once(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight settlements of one game at once (threads with their own connections and
    without the process's settlement lock, as several processes would be): one pays,
    the others get AlreadySettled."""
    import contextlib
    import threading

    monkeypatch.setattr(store, "_settle_lock", contextlib.nullcontext())
    from madang.server.db import make_engine, migrate

    eng = make_engine(db_url)
    migrate(eng)
    a, b, args = _a_game_to_settle(eng, 5, (0, 1, 7, "stop"))
    barrier = threading.Barrier(8)
    got: list[str] = []

    def settle() -> None:
        barrier.wait()
        try:
            store.finish_game(eng, **args)
            got.append("paid")
        except store.AlreadySettled:
            got.append("already")

    threads = [threading.Thread(target=settle) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    eng.dispose()
    eng = make_engine(db_url)
    assert sorted(got) == ["already"] * 7 + ["paid"]
    assert store.balance(eng, a["id"]) == 965 and store.balance(eng, b["id"]) == 1035
    with eng.connect() as c:
        games = sa.select(sa.func.count()).where(db.ledger.c.game_id.is_not(None))
        assert c.execute(games).scalar() == 2
    eng.dispose()
