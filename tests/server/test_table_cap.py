"""The cap on the open tables one person sits at (``tables_per_user``) holds under
racing requests, counts joins as well as creates, and is checked in the database (so a
cluster's processes share it: ``test_cluster.py`` races creates through them all)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import sqlalchemy as sa
from tests.server import conftest
from tests.server.live import Live, running

from madang.server import db, store
from madang.server.db import make_engine

TWO_PEOPLE = {"game": "matgo", "stake": 10, "seats": [{"kind": "human"}, {"kind": "human"}]}
VS_BOT = {"game": "matgo", "stake": 10, "seats": [{"kind": "human"}, {"kind": "bot"}]}


def call(live: Live, path: str, body: dict[str, Any], cookie: str = "") -> tuple[int, Any]:
    req = urllib.request.Request(
        live.url(path),
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            cookie = (r.headers.get("Set-Cookie") or "").split(";")[0]
            return int(r.status), cookie or json.loads(r.read())
    except urllib.error.HTTPError as e:
        return int(e.code), json.loads(e.read())


def guest(live: Live) -> str:
    status, cookie = call(live, "/api/guest", {})
    assert status == 201
    return str(cookie)


def race(calls: list[tuple[str, dict[str, Any]]], live: Live, cookie: str) -> list[Any]:
    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(lambda pc: call(live, pc[0], pc[1], cookie), calls))


def seated_tables(url: str, user_id: int) -> int:
    eng = make_engine(url)
    try:
        return store.sitting_at(eng, user_id)
    finally:
        eng.dispose()


def user_id_of(url: str, cookie: str) -> int:
    token = cookie.split("=", 1)[1]
    eng = make_engine(url)
    try:
        user = store.session_user(eng, token)
        assert user is not None
        return int(user["id"])
    finally:
        eng.dispose()


def test_twenty_racing_creates_make_at_most_the_cap(db_url: str) -> None:
    with running(conftest.test_config(db_url, tables_per_user=3)) as live:
        cookie = guest(live)
        answers = race([("/api/tables", VS_BOT)] * 20, live, cookie)
    made = [a for a in answers if a[0] == 201]
    refused = [a for a in answers if a[0] != 201]
    assert len(made) == 3, answers
    assert {(s, b["error"]["code"]) for s, b in refused} == {(429, "too_many_tables")}
    eng = make_engine(db_url)
    with eng.connect() as c:  # a refused create made no row
        assert c.execute(sa.select(sa.func.count()).select_from(db.tables)).scalar() == 3
    eng.dispose()


def test_joins_count_and_race_with_creates(db_url: str) -> None:
    with running(conftest.test_config(db_url, tables_per_user=3)) as live:
        others = [guest(live) for _ in range(6)]
        open_ids = []
        for cookie in others:  # six tables with a free person seat
            status, got = call(live, "/api/tables", TWO_PEOPLE, cookie)
            assert status == 201
            open_ids.append(got["table"]["id"])
        me = guest(live)
        joins = [(f"/api/tables/{t}/join", {"stake": 10}) for t in open_ids]
        answers = race([("/api/tables", VS_BOT)] * 3 + joins, live, me)
        ok = [a for a in answers if a[0] in (200, 201)]
        assert len(ok) == 3, answers
        refused = {(s, b["error"]["code"]) for s, b in answers if s not in (200, 201)}
        assert refused == {(429, "too_many_tables")}
        uid = user_id_of(db_url, me)
        assert seated_tables(db_url, uid) == 3
        # a refused join took no seat: the lobby shows it free
        lobby = json.loads(urllib.request.urlopen(live.url("/api/tables"), timeout=10).read())
        taken = [t for t in lobby["tables"] if t["id"] in open_ids and t["seats"][1]["username"]]
        assert len(taken) == sum(1 for s, _ in answers[3:] if s == 200)
        # leaving one frees a place under the cap
        joined = [t for t, a in zip(open_ids, answers[3:], strict=True) if a[0] == 200]
        left = joined[0] if joined else None
        if left is not None:
            assert call(live, f"/api/tables/{left}/leave", {}, me)[0] == 200
        else:  # three creates won: leave one of them
            tid = next(int(b["table"]["id"]) for s, b in answers[:3] if s == 201)
            assert call(live, f"/api/tables/{tid}/leave", {}, me)[0] == 200
        assert call(live, "/api/tables", VS_BOT, me)[0] == 201
        assert call(live, "/api/tables", VS_BOT, me)[0] == 429
