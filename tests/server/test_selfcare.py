"""Self-care (issue 27, item 7), on SQLite and PostgreSQL: the daily play-time and loss
limits and self-exclusion, set by the player, enforced by the server at every seat and
every deal; lowering at once, raising after the cooling-off delay."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.server.conftest import play_out, recv_until, register
from tests.server.test_money import VS_BOT, _settle, code_of
from tests.server.test_ws import hello

from madang.server import db, money, selfcare, store
from madang.server.db import make_engine, migrate
from madang.server.money import MoneyRules

DAY = 24 * 3600


def _limit(c: TestClient, kind: str, value: object) -> Any:
    return c.post("/api/selfcare/limit", json={"limit": kind, "value": value})


def test_limits_lower_at_once_and_rise_after_the_cooling_off(client: TestClient) -> None:
    register(client)
    got = client.get("/api/selfcare").json()
    assert got["play_minutes"] == {"limit": None, "used": 0, "left": None, "pending": None}
    assert got["loss"]["limit"] is None and got["excluded_until"] is None
    assert got["zone"] == "UTC" and got["resets_at"].endswith("T00:00:00Z")
    r = _limit(client, "play_minutes", 60)  # a first limit: at once
    assert r.status_code == 200 and r.json()["play_minutes"]["limit"] == 60
    assert r.json()["play_minutes"]["left"] == 60
    raised = _limit(client, "play_minutes", 120).json()["play_minutes"]  # waits 24 h
    assert raised["limit"] == 60 and raised["pending"]["limit"] == 120
    at = datetime.fromisoformat(raised["pending"]["at"].replace("Z", "+00:00"))
    assert timedelta(hours=23, minutes=59) < at - datetime.now(UTC) <= timedelta(hours=24)
    lowered = _limit(client, "play_minutes", 30).json()["play_minutes"]  # at once, and
    assert lowered["limit"] == 30 and lowered["pending"] is None  # the raise is cancelled
    removed = _limit(client, "play_minutes", None).json()["play_minutes"]
    assert removed["limit"] == 30 and removed["pending"]["limit"] is None
    loss = _limit(client, "loss", 5_000).json()["loss"]
    assert loss == {"limit": 5_000, "used": 0, "left": 5_000, "pending": None}


def test_a_raise_takes_effect_after_the_delay(db_url: str) -> None:
    eng = make_engine(db_url)
    migrate(eng)
    u = store.create_user(eng, "minsu", None)
    t = datetime(2026, 12, 4, 9, tzinfo=UTC)
    selfcare.set_limit(eng, u["id"], "loss", 100, zone="UTC", cooloff_s=DAY, now=t)
    selfcare.set_limit(eng, u["id"], "loss", None, zone="UTC", cooloff_s=DAY, now=t)
    assert selfcare.status(eng, u["id"], "UTC", t + timedelta(hours=23))["loss"]["limit"] == 100
    later = selfcare.status(eng, u["id"], "UTC", t + timedelta(hours=24, seconds=1))
    assert later["loss"] == {"limit": None, "used": 0, "left": None, "pending": None}
    eng.dispose()


@pytest.mark.parametrize(
    "body",
    [
        {"limit": "play_minutes", "value": 0},
        {"limit": "play_minutes", "value": -5},
        {"limit": "play_minutes", "value": 1441},
        {"limit": "play_minutes", "value": "60"},
        {"limit": "play_minutes", "value": 60.0},
        {"limit": "play_minutes", "value": True},
        {"limit": "play_minutes"},
        {"limit": "loss", "value": 10**12 + 1},
        {"limit": "minutes", "value": 60},
        {"limit": None, "value": 60},
        {"value": 60},
    ],
)
def test_bad_limits_are_refused_and_change_nothing(client: TestClient, body: Any) -> None:
    register(client)
    _limit(client, "play_minutes", 90)
    r = client.post("/api/selfcare/limit", json=body)
    assert r.status_code == 400 and code_of(r) == "bad_request", r.text
    assert client.get("/api/selfcare").json()["play_minutes"]["limit"] == 90


@pytest.mark.parametrize("months", [0, 1, 5, 24, "3", 3.0, None])
def test_exclusion_takes_only_3_6_or_12_months(client: TestClient, months: object) -> None:
    register(client)
    r = client.post("/api/selfcare/exclude", json={"months": months})
    assert r.status_code == 400 and code_of(r) == "bad_request"
    assert client.get("/api/selfcare").json()["excluded_until"] is None


def test_self_exclusion_refuses_every_seat_and_cannot_be_shortened(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client()
    register(c, "host1")
    r = c.post("/api/tables", json={**VS_BOT, "seats": [{"kind": "human"}] * 2, "stake": 1})
    tid = r.json()["table"]["id"]
    c.cookies.clear()
    register(c)
    got = c.post("/api/selfcare/exclude", json={"months": 6}).json()
    until = datetime.fromisoformat(got["excluded_until"].replace("Z", "+00:00"))
    assert timedelta(days=180) <= until - datetime.now(UTC) <= timedelta(days=185)
    r = c.post("/api/tables", json={**VS_BOT, "stake": 1})
    assert r.status_code == 403 and code_of(r) == "self_excluded"
    r = c.post(f"/api/tables/{tid}/join", json={"stake": 1})
    assert r.status_code == 403 and code_of(r) == "self_excluded"
    # a shorter one changes nothing; no limit setting lifts it
    shorter = c.post("/api/selfcare/exclude", json={"months": 3}).json()
    assert shorter["excluded_until"] == got["excluded_until"]
    _limit(c, "play_minutes", None)
    assert code_of(c.post("/api/tables", json={**VS_BOT, "stake": 1})) == "self_excluded"


def test_the_loss_limit_refuses_a_seat_once_reached(make_client: Callable[..., TestClient]) -> None:
    c = make_client()
    me = register(c)
    assert _limit(c, "loss", 500).status_code == 200
    eng = c.app.state.hub.engine  # type: ignore[attr-defined]
    bank = store.create_user(eng, "bank", None, bot=True)
    _settle(eng, [me, bank], [(0, 1, 499, "t")])
    assert c.post("/api/tables", json={**VS_BOT, "stake": 1}).status_code == 201
    loss = c.get("/api/selfcare").json()["loss"]
    assert (loss["limit"], loss["used"], loss["left"]) == (500, 499, 1)
    _settle(eng, [me, bank], [(0, 1, 1, "t")])
    r = c.post("/api/tables", json={**VS_BOT, "stake": 1})
    assert r.status_code == 403 and code_of(r) == "loss_limit", r.text
    assert c.get("/api/selfcare").json()["loss"]["left"] == 0


def test_the_play_time_limit_counts_the_day_s_games(db_url: str) -> None:
    eng = make_engine(db_url)
    migrate(eng)
    u = store.create_user(eng, "minsu", None, start=10_000)
    bank = store.create_user(eng, "bank", None, bot=True)
    gid, _ = _settle(eng, [u, bank], [])
    now = datetime.now(UTC).replace(hour=12)
    with eng.begin() as c:  # a game of 40 minutes this morning
        c.execute(
            sa.update(db.games)
            .where(db.games.c.id == gid)
            .values(started_at=now - timedelta(hours=2), finished_at=now - timedelta(minutes=80))
        )
    selfcare.set_limit(eng, u["id"], "play_minutes", 45, zone="UTC", cooloff_s=DAY, now=now)
    assert selfcare.status(eng, u["id"], "UTC", now)["play_minutes"]["left"] == 5
    with eng.connect() as c:
        assert money.refusal(c, u["id"], 1, MoneyRules(), None) is None
    selfcare.set_limit(eng, u["id"], "play_minutes", 40, zone="UTC", cooloff_s=DAY, now=now)
    with eng.connect() as c:
        why = selfcare.refusal(c, u["id"], "UTC", now)
    assert why is not None and why.code == "play_time_limit"
    # tomorrow is a new day
    with eng.connect() as c:
        assert selfcare.refusal(c, u["id"], "UTC", now + timedelta(days=1)) is None
    eng.dispose()


def test_a_table_in_play_finishes_its_game_and_deals_no_other(
    make_client: Callable[..., TestClient],
) -> None:
    """Excluding oneself mid-game: the game is played to its end and settled, then the
    table closes instead of dealing the next (the code says why)."""
    c = make_client()
    register(c)
    tid = c.post("/api/tables", json={**VS_BOT, "stake": 1}).json()["table"]["id"]
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        assert snap["status"] == "playing"
        assert c.post("/api/selfcare/exclude", json={"months": 3}).status_code == 200
        last = play_out(ws, 0, snap, random.Random(3).choice)
        ws.send_text(json.dumps({"type": "ready"}))
        closed = recv_until(ws, "closed")
    assert closed["code"] == "self_excluded", closed
    assert last["result"]["game_id"] and "money" in last["result"]
    games = c.get("/api/games").json()["games"]
    assert [g["status"] for g in games] == ["finished"]
