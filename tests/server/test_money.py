"""Game money (issue 27, item 1) and its abuse cases, on SQLite and PostgreSQL: the
start amount, the daily refill, entry minimums reserved across tables, 올인 at the
settlement, and migration 0007."""

from __future__ import annotations

import functools
import itertools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.server.conftest import START, register, use_session

from madang.server import db, money, store
from madang.server.db import make_engine, migrate
from madang.server.money import MoneyRules
from madang.server.wire import WireError

RULES = MoneyRules()
TWO_PEOPLE = {"game": "matgo", "seats": [{"kind": "human"}, {"kind": "human"}]}
VS_BOT = {"game": "matgo", "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]}


def code_of(r: Any) -> str:
    code: str = r.json()["error"]["code"]
    return code


def _engine(c: TestClient) -> Any:
    return c.app.state.hub.engine  # type: ignore[attr-defined]


def _game_rows(eng: Any, game_id: int) -> list[tuple[int, int]]:
    with eng.connect() as c:
        q = sa.select(db.ledger.c.user_id, db.ledger.c.amount).where(db.ledger.c.game_id == game_id)
        return [(int(u), int(a)) for u, a in c.execute(q)]


def _settle(
    eng: Any,
    players: list[dict[str, Any]],
    payments: list[tuple[int, int, int, str]],
    *,
    game: str = "matgo",
    stake: int = 1,
) -> tuple[int, dict[str, Any]]:
    """A game of ``game`` among ``players`` at ``stake``, dealt and settled with
    ``payments``: its id and its result."""
    tid, _ = store.create_table(
        eng, game=game, preset="default", stake=stake, private=False, invite="x",
        seats=[], created_by=players[0]["id"],
    )  # fmt: skip
    ids = [p["id"] for p in players]
    gid = store.start_game(
        eng, table_id=tid, game=game, preset="default", stake=stake, game_no=1, players=ids
    )
    result = store.finish_game(
        eng, game_id=gid, game=game, stake=stake, players=ids,
        outcome={"winner": payments[0][1] if payments else None, "points": 0, "reason": "t"},
        payments=payments, record={"moves": []}, match_scores=None,
    )  # fmt: skip
    return gid, result


# ---------------------------------------------------------------------- the start


def test_accounts_and_guests_start_with_game_money(make_client: Callable[..., TestClient]) -> None:
    c = make_client()
    register(c)
    me = c.get("/api/me").json()
    assert me["balance"] == START == me["money"]["balance"] == me["money"]["free"]
    entries = c.get("/api/ledger").json()["entries"]
    assert [(e["reason"], e["amount"], e["game_id"]) for e in entries] == [("start", START, None)]
    c.cookies.clear()
    assert c.post("/api/guest", json={}).status_code == 201
    assert c.get("/api/money").json()["balance"] == START
    # a guest who registers keeps the guest's money, and gets no second start
    assert c.post("/api/register", json={"username": "jiwoo", "password": "secret1"}).is_success
    assert c.get("/api/money").json()["balance"] == START


# ---------------------------------------------------------------------- the refill


def test_the_daily_refill_tops_up_once_below_the_floor(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(money_start=1_000, refill_floor=5_000)
    register(c)
    before = c.get("/api/money").json()
    assert before["refill"] == {
        "floor": 5_000, "available": True, "taken_today": False, "next_at": None,
    }  # fmt: skip
    r = c.post("/api/money/refill", json={})
    assert r.status_code == 200, r.text
    assert r.json()["refilled"] == 4_000 and r.json()["balance"] == 5_000
    # a second refill the same day is refused, and changes nothing
    again = c.post("/api/money/refill", json={})
    assert again.status_code == 409 and code_of(again) == "already_refilled"
    assert c.get("/api/money").json()["balance"] == 5_000
    state = c.get("/api/money").json()["refill"]
    assert not state["available"] and state["taken_today"] and state["next_at"].endswith("Z")
    reasons = [e["reason"] for e in c.get("/api/ledger").json()["entries"]]
    assert reasons == ["refill", "start"]


def test_a_refill_above_the_floor_is_refused_and_not_counted(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(money_start=5_000, refill_floor=5_000)
    me = register(c)
    r = c.post("/api/money/refill", json={})
    assert r.status_code == 409 and code_of(r) == "refill_above_floor"
    assert c.get("/api/money").json()["balance"] == 5_000
    eng = _engine(c)
    with eng.connect() as conn:  # the refused refill did not use up the day's
        assert conn.execute(sa.select(sa.func.count()).select_from(db.refills)).scalar() == 0
    # after a loss below the floor it can be taken
    bot = store.create_user(eng, "bank", None, bot=True)
    _settle(eng, [me, bot], [(0, 1, 600, "t")])
    assert c.post("/api/money/refill", json={}).json()["refilled"] == 600


def test_the_refill_is_once_per_day_in_the_configured_zone(db_url: str) -> None:
    eng = make_engine(db_url)
    migrate(eng)
    u = store.create_user(eng, "minsu", None)
    seoul = MoneyRules(refill_floor=100, day_zone="Asia/Seoul")
    evening = datetime(2026, 12, 4, 14, 30, tzinfo=UTC)  # 23:30 in Seoul
    assert money.refill(eng, u["id"], seoul, evening)["amount"] == 100
    with pytest.raises(WireError) as e:
        money.refill(eng, u["id"], seoul, evening + timedelta(minutes=20))  # 23:50
    assert e.value.code == "already_refilled"
    bot = store.create_user(eng, "bank", None, bot=True)
    _settle(eng, [u, bot], [(0, 1, 100, "t")])
    # 00:10 in Seoul the next day (still the 4th in UTC): a new day
    got = money.refill(eng, u["id"], seoul, evening + timedelta(minutes=40))
    assert got == {"amount": 100, "balance": 100}
    eng.dispose()


def test_concurrent_refills_one_succeeds(db_url: str) -> None:
    eng = make_engine(db_url)
    migrate(eng)
    u = store.create_user(eng, "minsu", None)
    barrier = threading.Barrier(8)

    def take() -> str:
        barrier.wait()
        try:
            money.refill(eng, u["id"], RULES)
            return "ok"
        except WireError as e:
            return e.code

    with ThreadPoolExecutor(8) as pool:
        got = sorted(pool.map(lambda _: take(), range(8)))
    assert got == ["already_refilled"] * 7 + ["ok"], got
    assert store.balance(eng, u["id"]) == RULES.refill_floor
    eng.dispose()


def test_two_refill_requests_at_once_one_succeeds(make_client: Callable[..., TestClient]) -> None:
    c = make_client(money_start=0)
    register(c)
    barrier = threading.Barrier(2)

    def post(_: int) -> int:
        barrier.wait()
        return c.post("/api/money/refill", json={}).status_code

    with ThreadPoolExecutor(2) as pool:
        assert sorted(pool.map(post, range(2))) == [200, 409]
    assert c.get("/api/money").json()["balance"] == RULES.refill_floor


# ---------------------------------------------------------------------- entry minimums


def test_a_table_states_its_entry_minimum(client: TestClient) -> None:
    register(client)
    r = client.post("/api/tables", json={**VS_BOT, "stake": 10})
    assert r.json()["table"]["entry"] == 10 * RULES.entry_multiple
    assert client.get("/api/tables").json()["tables"][0]["entry"] == 1_000


def test_sitting_down_with_less_than_the_entry_minimum_is_refused(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(money_start=999)
    register(c)
    r = c.post("/api/tables", json={**VS_BOT, "stake": 10})
    assert r.status_code == 409 and code_of(r) == "not_enough_money"
    assert "1,000" in r.json()["error"]["message"]
    assert c.get("/api/tables").json()["tables"] == []
    assert c.post("/api/tables", json={**VS_BOT, "stake": 1}).status_code == 201


def test_two_tables_cannot_exceed_a_bankroll(make_client: Callable[..., TestClient]) -> None:
    """The entry minimums of one's open tables are reserved: a second table whose
    minimum passes what is left is refused, to make and to join."""
    c = make_client(money_start=10_000)
    register(c, "host1")
    host = c.cookies.get("madang_session")
    r = c.post("/api/tables", json={**TWO_PEOPLE, "stake": 100})  # needs 10,000
    tid = r.json()["table"]["id"]
    c.cookies.clear()
    register(c, "other")
    assert c.post("/api/tables", json={**VS_BOT, "stake": 10}).status_code == 201  # 1,000
    assert c.get("/api/money").json()["free"] == 9_000
    r = c.post(f"/api/tables/{tid}/join", json={"stake": 100})
    assert r.status_code == 409 and code_of(r) == "not_enough_money", r.text
    seats = c.get(f"/api/tables/{tid}").json()["table"]["seats"]
    assert seats[1]["username"] is None  # no seat taken
    r = c.post("/api/tables", json={**VS_BOT, "stake": 100})
    assert code_of(r) == "not_enough_money"
    use_session(c, host)  # the host's one table reserves all of theirs
    assert c.get("/api/money").json()["free"] == 0
    assert code_of(c.post("/api/tables", json={**VS_BOT, "stake": 1})) == "not_enough_money"


# ---------------------------------------------------------------------- 올인


def test_a_loser_pays_at_most_what_they_hold(db_url: str) -> None:
    eng = make_engine(db_url)
    migrate(eng)
    a = store.create_user(eng, "winner", None, start=1_000)
    b = store.create_user(eng, "loser", None, start=50)
    gid, result = _settle(eng, [a, b], [(1, 0, 3, "stop")], stake=100)
    assert result["payments"] == [
        {"from": 1, "to": 0, "points": 3, "amount": 50, "owed": 300, "all_in": True,
         "reason": "stop"},
    ]  # fmt: skip
    assert result["money"] == {
        "0": {"net": 50, "all_in": False, "balance": 1_050},
        "1": {"net": -50, "all_in": True, "balance": 0},
    }
    assert sorted(_game_rows(eng, gid)) == sorted([(a["id"], 50), (b["id"], -50)])
    assert store.balance(eng, b["id"]) == 0
    # with nothing left, nothing is paid (and the refill is there)
    gid, result = _settle(eng, [a, b], [(1, 0, 3, "stop")], stake=100)
    assert result["payments"][0]["amount"] == 0 and store.balance(eng, b["id"]) == 0
    eng.dispose()


def test_all_in_splits_among_several_winners(db_url: str) -> None:
    """Mahjong: one loser, two winners (쏘아 by two): what the loser holds is split in
    proportion to what each was owed; the house (a bot) pays in full."""
    eng = make_engine(db_url)
    migrate(eng)
    w1, w2 = (store.create_user(eng, n, None, start=0) for n in ("w1", "w2"))
    loser = store.create_user(eng, "loser", None, start=200)
    bot = store.create_user(eng, "bot-easy", None, bot=True)
    pays = [(2, 0, 30, "ron"), (2, 1, 10, "ron"), (3, 0, 5, "ron")]
    gid, result = _settle(eng, [w1, w2, loser, bot], pays, game="mahjong", stake=10)
    assert [p["amount"] for p in result["payments"]] == [150, 50, 50]
    assert [p.get("all_in", False) for p in result["payments"]] == [True, True, False]
    assert sum(a for _, a in _game_rows(eng, gid)) == 0
    assert store.balance(eng, w1["id"]) == 200 and store.balance(eng, loser["id"]) == 0
    assert result["money"]["3"] == {"net": -50, "all_in": False}  # no balance: the house
    eng.dispose()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    holdings=st.lists(st.integers(0, 2_000), min_size=4, max_size=4),
    bots=st.lists(st.booleans(), min_size=4, max_size=4),
    payments=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 400)).filter(
            lambda p: p[0] != p[1]
        ),
        max_size=6,
    ),
    stake=st.sampled_from([1, 10]),
)
def test_every_game_sums_to_zero_with_all_in(
    holdings: list[int], bots: list[bool], payments: list[tuple[int, int, int]], stake: int
) -> None:
    """Any payments among people and bots: each game's ledger sums to zero, nobody pays
    more than they owe, a person pays exactly min(what they hold, what they owe), no
    person ends below zero, and the result's money says the same as the ledger."""
    eng = _shared_engine()  # migrated once: each example has players of its own
    users = [
        store.create_user(eng, f"{'bot' if bot else 'p'}{next(_NAMES)}", None, bot=bot, start=h)
        for h, bot in zip(holdings, bots, strict=True)
    ]
    pays = [(f, t, pts, "t") for f, t, pts in payments]
    gid, result = _settle(eng, users, pays, game="mahjong", stake=stake)
    rows = _game_rows(eng, gid)
    assert sum(a for _, a in rows) == 0
    for seat, u in enumerate(users):
        owed = sum(p * stake for f, _, p, _ in pays if f == seat)
        paid = sum(p["amount"] for p in result["payments"] if p["from"] == seat)
        assert paid == (owed if bots[seat] else min(owed, holdings[seat]))
        net = sum(a for uid, a in rows if uid == u["id"])
        assert result["money"][str(seat)]["net"] == net
        if not bots[seat]:
            assert store.balance(eng, u["id"]) == holdings[seat] + net >= 0
            assert result["money"][str(seat)]["balance"] == holdings[seat] + net
    for p in result["payments"]:
        assert 0 <= p["amount"] <= p["points"] * stake
        assert p.get("all_in", False) == (p["amount"] < p["points"] * stake)


_NAMES = itertools.count()


@functools.cache
def _shared_engine() -> Any:
    eng = make_engine("sqlite://")
    migrate(eng)
    return eng


# ---------------------------------------------------------------------- migration 0007


def test_migration_0007_gives_existing_accounts_the_start_plus_their_net(empty_db_url: str) -> None:
    from alembic import command

    from madang.server.db import alembic_config

    eng = make_engine(empty_db_url)
    cfg = alembic_config()
    with eng.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0006")
    with eng.begin() as conn:  # 0006's ledger: a game id on every row
        for name, bot in (("won", False), ("lost", False), ("broke", False), ("bot-easy", True)):
            conn.execute(
                sa.insert(db.users).values(
                    username=name, name_key=name, is_guest=False, is_bot=bot,
                    created_at=datetime.now(UTC),
                )
            )  # fmt: skip
        conn.execute(
            sa.insert(db.tables).values(
                id=1, game="matgo", preset="default", stake=1, private=False, invite="x",
                status="closed", seats=[], created_at=datetime.now(UTC),
            )
        )  # fmt: skip
        conn.execute(
            sa.insert(db.games).values(
                id=1, table_id=1, game="matgo", preset="default", stake=1, game_no=1,
                status="finished", started_at=datetime.now(UTC),
            )
        )  # fmt: skip
        net = {1: 300, 2: -1_000, 3: -250_000, 4: 250_700}
        conn.execute(
            sa.insert(db.ledger),
            [
                {"user_id": u, "game_id": 1, "amount": a, "points": a, "reason": "t",
                 "created_at": datetime.now(UTC)}
                for u, a in net.items()
            ],
        )  # fmt: skip
    migrate(eng)
    assert [store.balance(eng, u) for u in (1, 2, 3, 4)] == [
        100_300, 99_000, 0, 250_700,  # broke: raised to 0; the bot: no grant
    ]  # fmt: skip
    assert sum(a for _, a in _game_rows(eng, 1)) == 0  # the game still sums to zero
    eng.dispose()


# ---------------------------------------------------------------------- the next game


def test_the_settlement_says_who_cannot_afford_the_next_game(client: TestClient) -> None:
    """A person whose money free of their tables fell below the entry minimum during the
    game is named in the result's ``short`` (seat, ``not_enough_money``), so the table
    offers them no 다음 판; the next deal would close the table for it (as before)."""
    import json
    import random

    from tests.server.conftest import play_out, recv_until
    from tests.server.test_ws import hello, new_table

    user = register(client)
    entry = RULES.entry(100)
    body = {**VS_BOT, "stake": 100}
    for spent in (0, START - entry + 1):  # nothing; then all but one short of the entry
        tid = new_table(client, body)
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            snap = hello(ws)
            state = snap if snap["status"] == "playing" else recv_until(ws, "update")
            if spent:  # spent elsewhere while this game is played (a grant taken back)
                with _engine(client).begin() as c:
                    c.execute(sa.insert(db.ledger).values(
                        user_id=user["id"], game_id=None, amount=-spent, points=0,
                        reason="test", created_at=datetime.now(UTC),
                    ))  # fmt: skip
            last = play_out(ws, 0, state, random.Random(3).choice)
        short = last["result"]["short"]
        if not spent:
            assert short == []
            assert client.post(f"/api/tables/{tid}/leave").status_code == 200
            continue
        balance = store.balance(_engine(client), user["id"])
        assert balance < entry
        assert [(x["seat"], x["code"]) for x in short] == [(0, "not_enough_money")], short
        assert f"{entry:,}" in short[0]["message"]
        assert json.dumps(short).count("seat") == 1  # the bot is never short
