"""Bounded stakes (issue 25, item 5; review 2026-12-security-2 §3.2): a table says what
its points are worth and the most one game can move, a table over the cap is refused,
amounts past 2³¹ are stored and read back (SQLite and PostgreSQL), and a settlement
that cannot be written aborts the game and closes the table — live and after a
restart, never retried for ever."""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.server.conftest import START, register, use_session
from tests.server.test_resume import _check_settled, stop_while_settling
from tests.server.test_ws import MATGO_VS_BOT, hello, new_table

from madang.server import db, store
from madang.server.db import make_engine, migrate
from madang.server.stakes import GAME_AMOUNT_CAP

MAHJONG = {"game": "mahjong", "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3}


def _engine(c: TestClient) -> Any:
    return c.app.state.hub.engine  # type: ignore[attr-defined]


def _count(eng: Any, table: sa.Table, *where: Any) -> int:
    with eng.connect() as conn:
        return int(
            conn.execute(sa.select(sa.func.count()).select_from(table).where(*where)).scalar()
        )


def test_a_table_says_what_a_point_and_a_pan_are_worth(client: TestClient) -> None:
    register(client)
    r = client.post("/api/tables", json={**MAHJONG, "stake": 10, "rules": {"pan_value": 2}})
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    # (34 기본판 + 28 부가판) × 2 + 10 base points, paid by three on 올라: 402 points
    want = {
        "point": 10,
        "units": {"pan": {"points": 2, "amount": 20}},
        "max_points": 402,
        "max_amount": 4020,
    }
    assert table["worth"] == want
    assert client.get(f"/api/tables/{table['id']}").json()["table"]["worth"] == want
    assert client.get("/api/tables").json()["tables"][0]["worth"] == want
    r = client.post("/api/tables", json={**MATGO_VS_BOT, "stake": 100})
    assert r.json()["table"]["worth"] == {
        "point": 100,
        "units": {},
        "max_points": 2359394,
        "max_amount": 235939400,
    }


@pytest.mark.parametrize("pan_value", [101, 2**62, 10**29, 0])
def test_options_past_their_bounds_make_no_table(client: TestClient, pan_value: int) -> None:
    register(client)
    r = client.post(
        "/api/tables", json={**MAHJONG, "stake": 1000, "rules": {"pan_value": pan_value}}
    )
    assert r.status_code == 400, r.text
    assert r.json()["error"]["code"] == "rule_config"
    assert _count(_engine(client), db.tables) == 0
    assert client.get("/api/tables").json()["tables"] == []


def test_a_table_whose_game_could_move_more_than_the_cap_is_refused(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(stakes=(1, 10**8), money_start=10**11)
    register(c)
    big = {"stake": 10**8}
    for body in (
        {**MAHJONG, **big, "rules": {"pan_value": 100}},  # 18,630 points × 10⁸
        {**MATGO_VS_BOT, **big},  # 2,359,394 points × 10⁸
    ):
        r = c.post("/api/tables", json=body)
        assert r.status_code == 400, r.text
        err = r.json()["error"]
        assert err["code"] == "stake_too_high"
        assert f"{GAME_AMOUNT_CAP:,}" in err["message"]
    assert _count(_engine(c), db.tables) == 0
    assert c.get("/api/tables").json()["tables"] == []
    # the defaults at the same stake stay under it: 216 points × 10⁸
    r = c.post("/api/tables", json={**MAHJONG, **big})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["worth"]["max_amount"] == 216 * 10**8 <= GAME_AMOUNT_CAP


def _game_to_settle(
    eng: Any, stake: int, points: int, names: tuple[str, str] = ("ga", "gb")
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Two players at a Matgo game in play at ``stake``; the arguments of a settlement
    in which the second, a bot (the house pays in full: no 올인), pays the first
    ``points``."""
    a = store.create_user(eng, names[0], None)
    b = store.create_user(eng, names[1], None, bot=True)
    tid, _ = store.create_table(
        eng, game="matgo", preset="default", stake=stake, private=False, invite="x",
        seats=[], created_by=a["id"],
    )  # fmt: skip
    gid = store.start_game(
        eng, table_id=tid, game="matgo", preset="default", stake=stake, game_no=1,
        players=[a["id"], b["id"]],
    )  # fmt: skip
    return a, b, {
        "game_id": gid, "game": "matgo", "stake": stake, "players": [a["id"], b["id"]],
        "outcome": {"winner": 0, "points": points, "reason": "stop"},
        "payments": [(1, 0, points, "win")], "record": {"moves": []}, "match_scores": None,
    }  # fmt: skip


def test_amounts_past_2_31_are_stored_and_read_back(db_url: str) -> None:
    eng = make_engine(db_url)
    migrate(eng)
    points = 2**31 + 7
    a, b, args = _game_to_settle(eng, 1000, points)
    result = store.finish_game(eng, **args)
    assert result["payments"][0]["amount"] == points * 1000
    # a stake past 2³¹ too (an operator's ``stakes``)
    c, d, more = _game_to_settle(eng, 3 * 10**9, 3, ("gc", "gd"))
    store.finish_game(eng, **more)
    with eng.connect() as conn:
        rows = conn.execute(
            sa.select(db.ledger.c.user_id, db.ledger.c.points, db.ledger.c.amount).order_by(
                db.ledger.c.id
            )
        ).all()
        games = conn.execute(
            sa.select(db.games.c.points, db.games.c.stake, db.games.c.status).order_by(
                db.games.c.id
            )
        ).all()
        stakes = conn.execute(sa.select(db.tables.c.stake).order_by(db.tables.c.id)).scalars()
        assert list(stakes) == [1000, 3 * 10**9]
    assert [tuple(r) for r in rows] == [
        (b["id"], -points, -points * 1000),
        (a["id"], points, points * 1000),
        (d["id"], -3, -9 * 10**9),
        (c["id"], 3, 9 * 10**9),
    ]
    assert [tuple(g) for g in games] == [
        (points, 1000, "finished"),
        (3, 3 * 10**9, "finished"),
    ]
    assert store.balance(eng, a["id"]) == points * 1000
    assert store.ledger_of(eng, b["id"], 10, None)[0]["points"] == -points
    eng.dispose()


def test_migration_0005_widens_a_database_that_holds_games(empty_db_url: str) -> None:
    """A database made before 0005 (its points in 32-bit columns on PostgreSQL), with a
    settled game, is migrated at start and then takes a payment past 2³¹."""
    from alembic import command

    from madang.server.db import alembic_config

    eng = make_engine(empty_db_url)
    cfg = alembic_config()
    with eng.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0004")
    a, _, args = _game_to_settle(eng, 10, 3)
    store.finish_game(eng, **args)
    migrate(eng)
    c, d, more = _game_to_settle(eng, 1000, 2**31 + 7, ("gc", "gd"))
    store.finish_game(eng, **more)
    if eng.dialect.name == "postgresql":
        columns = {
            (t, col["name"]): type(col["type"]).__name__
            for t in ("games", "ledger", "tables")
            for col in sa.inspect(eng).get_columns(t)
        }
        assert {k: columns[k] for k in [("games", "points"), ("ledger", "points")]} == {
            ("games", "points"): "BIGINT",
            ("ledger", "points"): "BIGINT",
        }
        assert columns[("tables", "stake")] == columns[("games", "stake")] == "BIGINT"
    assert store.balance(eng, a["id"]) == 30 + 100_000  # 0007: the start on top of the net
    assert store.balance(eng, c["id"]) == (2**31 + 7) * 1000
    assert store.ledger_of(eng, d["id"], 10, None)[0]["points"] == -(2**31 + 7)
    eng.dispose()


def test_a_payment_past_the_amount_limit_writes_nothing(db_url: str) -> None:
    eng = make_engine(db_url)
    migrate(eng)
    a, _, args = _game_to_settle(eng, 1000, 2**62)  # the bounds bypassed: 2⁶² × 1000
    with pytest.raises(store.SettlementError):
        store.finish_game(eng, **args)
    assert _count(eng, db.ledger) == 0
    assert _count(eng, db.games, db.games.c.status == "playing") == 1
    assert store.balance(eng, a["id"]) == 0
    eng.dispose()


def _db_fault(*args: Any, **kwargs: Any) -> None:
    raise sa.exc.OperationalError("INSERT INTO ledger …", {}, OSError("disk I/O error"))


def _until_forgotten(hub: Any, tid: int) -> None:
    for _ in range(1000):
        if tid not in hub.rooms:
            return
        time.sleep(0.01)
    raise AssertionError(f"table {tid} is still open")


def _assert_aborted(eng: Any, tid: int, game_id: int) -> None:
    with eng.connect() as conn:
        game = conn.execute(
            sa.select(db.games.c.status, db.games.c.end_reason).where(db.games.c.id == game_id)
        ).one()
        table = conn.execute(sa.select(db.tables.c.status).where(db.tables.c.id == tid)).scalar()
    assert tuple(game) == ("aborted", "settlement failed")
    assert table == "closed"
    assert _count(eng, db.ledger, db.ledger.c.game_id.is_not(None)) == 0


def test_a_settlement_that_cannot_be_written_aborts_the_game_and_closes_the_table(
    make_client: Callable[..., TestClient],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    c = make_client()
    register(c)
    cookie = c.cookies.get("madang_session")
    tid = new_table(c)
    hub = c.app.state.hub  # type: ignore[attr-defined]
    monkeypatch.setattr(store, "finish_game", _db_fault)
    rng = random.Random(5)
    closed = None
    with (
        caplog.at_level(logging.WARNING, logger="madang.server"),
        c.websocket_connect(f"/ws/tables/{tid}") as ws,
    ):
        m = hello(ws)
        game_id = hub.rooms[tid].game_id  # dealt: the first snapshot has a view
        for _ in range(3000):
            prompt = m.get("prompt")
            if prompt and prompt["seat"] == 0:
                move = rng.choice(prompt["legal"])
                ws.send_text(json.dumps({"type": "act", "version": m["version"], "action": move}))
            m = ws.receive_json()
            assert "result" not in m  # nothing settled, nothing announced as paid
            if m["type"] == "closed":
                closed = m
                break
    assert closed is not None and closed["code"] == "settlement_failed", closed
    assert "nobody pays" in closed["reason"]
    assert any("could not be settled" in r.getMessage() for r in caplog.records)
    _until_forgotten(hub, tid)  # the closing is stored, then the table forgotten
    assert c.get(f"/api/tables/{tid}").json()["error"]["code"] == "not_found"
    assert c.get("/api/me").json()["balance"] == START
    _assert_aborted(_engine(c), tid, game_id)
    c.__exit__(None, None, None)
    monkeypatch.undo()
    c2 = make_client()  # a restart does not take it up again
    use_session(c2, cookie)
    assert c2.app.state.hub.resumed_at_start == 0  # type: ignore[attr-defined]
    games = c2.get("/api/games").json()["games"]
    assert [(g["id"], g["status"]) for g in games] == [(game_id, "aborted")]
    _assert_aborted(_engine(c2), tid, game_id)


def test_a_settlement_that_fails_again_at_start_is_aborted_once(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    c = make_client(grace_seconds=0.3)
    register(c)
    tid = new_table(c)
    game_id, cookie = stop_while_settling(c, tid, monkeypatch)  # a crash while settling
    monkeypatch.setattr(store, "finish_game", _db_fault)
    c2 = make_client()  # the table is rebuilt, its finished game settled: it fails
    assert c2.app.state.hub.resumed_at_start == 1  # type: ignore[attr-defined]
    _until_forgotten(c2.app.state.hub, tid)  # type: ignore[attr-defined]
    _assert_aborted(_engine(c2), tid, game_id)
    c2.__exit__(None, None, None)
    monkeypatch.undo()
    c3 = make_client()  # and the next start leaves it alone
    use_session(c3, cookie)
    assert c3.app.state.hub.resumed_at_start == 0  # type: ignore[attr-defined]
    assert c3.get("/api/tables").json()["tables"] == []
    assert c3.get("/api/me").json()["balance"] == START
    _assert_aborted(_engine(c3), tid, game_id)


def test_a_table_made_before_the_bounds_is_closed_at_start(
    make_client: Callable[..., TestClient],
) -> None:
    """A table left open with a 판 worth 10⁶ (made before ``pan_value`` had a maximum) no
    longer reads: the next start closes it and aborts its game unpaid."""
    c = make_client()
    register(c)
    cookie = c.cookies.get("madang_session")
    r = c.post("/api/tables", json={**MAHJONG, "stake": 1000})
    tid = r.json()["table"]["id"]
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws)  # the hand is dealt once its person is here
    eng = _engine(c)
    c.__exit__(None, None, None)
    with eng.begin() as conn:
        conn.execute(
            sa.update(db.tables).where(db.tables.c.id == tid).values(rules={"pan_value": 10**6})
        )
    c2 = make_client()
    use_session(c2, cookie)
    assert c2.app.state.hub.aborted_at_start == 1  # type: ignore[attr-defined]
    assert c2.get("/api/tables").json()["tables"] == []
    assert [g["status"] for g in c2.get("/api/games").json()["games"]] == ["aborted"]
    assert c2.get("/api/me").json()["balance"] == START


def test_with_the_database_down_the_table_still_closes_and_the_next_start_settles(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Neither the settlement nor the abort nor the closing can be written (the database
    is down): the table closes in the process all the same, and the next start, with the
    database back, settles the game its journal ends — once."""
    c = make_client(grace_seconds=0.3)
    register(c)
    cookie = c.cookies.get("madang_session")
    tid = new_table(c)
    hub = c.app.state.hub  # type: ignore[attr-defined]
    room = hub.rooms[tid]
    for name in ("finish_game", "abort_table", "update_table"):
        monkeypatch.setattr(store, name, _db_fault)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws)  # dealt; then the person goes away and a bot plays the seat
    _until_forgotten(hub, tid)  # a bot played the seat to the end; the settlement failed
    game_id = room.game_id
    assert room.status == "closed"
    c.__exit__(None, None, None)
    monkeypatch.undo()
    c2 = make_client()
    use_session(c2, cookie)
    assert c2.app.state.hub.resumed_at_start == 1  # type: ignore[attr-defined]
    for _ in range(1000):  # the rebuilt table settles at once
        if c2.get(f"/api/games/{game_id}").status_code == 200:
            break
        time.sleep(0.01)
    _check_settled(c2, "matgo", tid, game_id)  # as played, paid once
