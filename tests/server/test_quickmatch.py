"""빠른 시작 (quick match) on a real server: people waiting for the same game and stake
are seated together, the computer fills in after ``quick_fill_seconds``, a request can
be cancelled, nobody waits in two queues, and nothing is chosen but the game and the
stake. Every test runs on SQLite and on PostgreSQL (``db_url``)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server import conftest
from tests.server.live import Live, running


def call(live: Live, path: str, body: dict[str, Any] | None, cookie: str) -> tuple[int, Any]:
    """POST ``body`` (GET when None) as ``cookie``; the status and the JSON answer."""
    req = urllib.request.Request(
        live.url(path),
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Cookie": cookie},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return int(r.status), json.loads(r.read())
    except urllib.error.HTTPError as e:
        return int(e.code), json.loads(e.read())


def guest(live: Live) -> str:
    req = urllib.request.Request(
        live.url("/api/guest"), data=b"{}", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return str(r.headers["Set-Cookie"].split(";")[0])


def name_of(live: Live, cookie: str) -> str:
    return str(call(live, "/api/session", None, cookie)[1]["user"]["username"])


def wait_until(check: Callable[[], bool], seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_two_people_are_seated_together_at_once(db_url: str) -> None:
    config = conftest.test_config(db_url, quick_fill_seconds=5.0)
    with running(config) as live:
        a, b = guest(live), guest(live)
        start = time.monotonic()
        with ThreadPoolExecutor(2) as pool:
            fa = pool.submit(call, live, "/api/quick", {"game": "matgo", "stake": 10}, a)
            wait_until(lambda: call(live, "/api/quick", None, a)[1]["queued"] is not None)
            fb = pool.submit(call, live, "/api/quick", {"game": "matgo", "stake": 10}, b)
            (sa, ra), (sb, rb) = fa.result(), fb.result()
        took = time.monotonic() - start
        assert (sa, sb) == (201, 201), (ra, rb)
        assert ra["table"]["id"] == rb["table"]["id"]
        assert {ra["seat"], rb["seat"]} == {0, 1}
        assert ra["people"] == rb["people"] == 2
        assert took < 5.0  # not the computer's wait: the second person completed the pair
        seats = ra["table"]["seats"]
        assert [s["kind"] for s in seats] == ["human", "human"]
        assert {s["username"] for s in seats} == {name_of(live, a), name_of(live, b)}
        assert ra["table"]["stake"] == 10 and ra["table"]["game"] == "matgo"
        print(f"\nquick match, person + person: seated {took * 1000:.0f} ms after the first ask")
        # assigned, not chosen: the table is full, nobody else can pick it to sit with them
        c = guest(live)
        code, got = call(live, f"/api/tables/{ra['table']['id']}/join", {"stake": 10}, c)
        assert (code, got["error"]["code"]) == (409, "table_full")


def test_the_computer_fills_in_after_the_wait(db_url: str) -> None:
    config = conftest.test_config(db_url, quick_fill_seconds=0.3)
    with running(config) as live:
        a = guest(live)
        start = time.monotonic()
        code, got = call(live, "/api/quick", {"game": "matgo", "stake": 1}, a)
        took = time.monotonic() - start
        assert code == 201, got
        assert got["people"] == 1
        assert 0.3 <= got["waited_s"] <= took < 3.0
        kinds = [s["kind"] for s in got["table"]["seats"]]
        assert sorted(kinds) == ["bot", "human"]
        bot = next(s for s in got["table"]["seats"] if s["kind"] == "bot")
        assert bot["level"] == "normal" and bot["username"] == "bot-normal"
        print(f"\nquick match, person + computer (fill 0.3 s): seated in {took * 1000:.0f} ms")
        # the table plays: the person's page connects and the first deal follows
        assert call(live, "/api/quick", None, a)[1]["queued"] is None


def test_mahjong_seats_the_people_waiting_and_bots_in_the_rest(db_url: str) -> None:
    config = conftest.test_config(db_url, quick_fill_seconds=0.8)
    with running(config) as live:
        cookies = [guest(live), guest(live)]
        with ThreadPoolExecutor(2) as pool:
            got = list(
                pool.map(
                    lambda c: call(live, "/api/quick", {"game": "mahjong", "stake": 100}, c),
                    cookies,
                )
            )
        assert [code for code, _ in got] == [201, 201], got
        (_, a), (_, b) = got
        assert a["table"]["id"] == b["table"]["id"] and a["seat"] != b["seat"]
        assert a["people"] == 2
        kinds = [s["kind"] for s in a["table"]["seats"]]
        assert sorted(kinds) == ["bot", "bot", "human", "human"]
        assert a["waited_s"] >= 0.8 or b["waited_s"] >= 0.8


def test_queues_are_by_game_and_stake(db_url: str) -> None:
    config = conftest.test_config(db_url, quick_fill_seconds=0.4)
    with running(config) as live:
        a, b = guest(live), guest(live)
        with ThreadPoolExecutor(2) as pool:
            fa = pool.submit(call, live, "/api/quick", {"game": "matgo", "stake": 1}, a)
            fb = pool.submit(call, live, "/api/quick", {"game": "matgo", "stake": 10}, b)
            (_, ra), (_, rb) = fa.result(), fb.result()
        assert ra["table"]["id"] != rb["table"]["id"]
        assert (ra["people"], rb["people"]) == (1, 1)
        assert (ra["table"]["stake"], rb["table"]["stake"]) == (1, 10)


def test_cancel_and_one_queue_at_a_time(db_url: str) -> None:
    config = conftest.test_config(db_url, quick_fill_seconds=10.0)
    with running(config) as live:
        a = guest(live)
        with ThreadPoolExecutor(1) as pool:
            fa = pool.submit(call, live, "/api/quick", {"game": "matgo", "stake": 1}, a)
            wait_until(lambda: call(live, "/api/quick", None, a)[1]["queued"] is not None)
            status = call(live, "/api/quick", None, a)[1]
            assert status["queued"]["game"] == "matgo" and status["queued"]["stake"] == 1
            assert status["queued"]["preset"] == "default"  # not named: the default rules
            assert status["fill_seconds"] == 10.0
            # a second request, for the same queue or another, is refused and changes nothing
            for other in ({"game": "matgo", "stake": 1}, {"game": "mahjong", "stake": 10}):
                code, got = call(live, "/api/quick", other, a)
                assert (code, got["error"]["code"]) == (409, "already_queued")
            assert call(live, "/api/quick", None, a)[1]["queued"]["game"] == "matgo"
            start = time.monotonic()
            assert call(live, "/api/quick/cancel", {}, a) == (200, {"cancelled": True})
            code, got = fa.result()
            assert time.monotonic() - start < 2.0
        assert (code, got) == (200, {"status": "cancelled"})
        assert call(live, "/api/quick", None, a)[1]["queued"] is None
        assert call(live, "/api/quick/cancel", {}, a) == (200, {"cancelled": False})
        tables = call(live, "/api/tables", None, a)[1]["tables"]
        assert tables == []  # nothing was made for the cancelled request
        # after a cancel the person may queue again (and a second person completes it)
        b = guest(live)
        with ThreadPoolExecutor(2) as pool:
            fa = pool.submit(call, live, "/api/quick", {"game": "matgo", "stake": 1}, a)
            wait_until(lambda: call(live, "/api/quick", None, a)[1]["queued"] is not None)
            fb = pool.submit(call, live, "/api/quick", {"game": "matgo", "stake": 1}, b)
            assert fa.result()[0] == fb.result()[0] == 201


def test_bad_requests_are_refused(client: TestClient) -> None:
    def code(r: Any) -> tuple[int, str]:
        return r.status_code, r.json()["error"]["code"]

    assert code(client.post("/api/quick", json={"game": "matgo"})) == (401, "unauthorized")
    assert code(client.get("/api/quick")) == (401, "unauthorized")
    assert client.post("/api/guest").status_code == 201
    for bad in (
        {"game": "go", "stake": 1},
        {"stake": 1},
        {"game": "matgo", "stake": 7},
        {"game": "matgo", "stake": "10"},
        {"game": "matgo", "stake": True},
        {"game": "matgo", "preset": "gwangpalgi", "stake": 1},  # 고스톱's, not 맞고's
        {"game": "matgo", "preset": 1, "stake": 1},
        # assigned, not chosen: no opponent, table or seat can be named
        {"game": "matgo", "stake": 1, "opponent": "minsu"},
        {"game": "matgo", "stake": 1, "table": 1},
        {"game": "matgo", "stake": 1, "seat": 0},
    ):
        assert code(client.post("/api/quick", json=bad)) == (400, "bad_request"), bad
    assert client.get("/api/quick").json()["queued"] is None
    assert client.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize("fill", [0.0])
def test_a_person_at_the_cap_of_open_tables_is_refused(
    make_client: Callable[..., TestClient], fill: float
) -> None:
    client = make_client(tables_per_user=1, quick_fill_seconds=fill)
    assert client.post("/api/guest").status_code == 201
    r = client.post("/api/quick", json={"game": "matgo", "stake": 1})
    assert r.status_code == 201, r.text
    r = client.post("/api/quick", json={"game": "matgo", "stake": 1})
    assert (r.status_code, r.json()["error"]["code"]) == (429, "too_many_tables")
    assert client.get("/api/quick").json()["queued"] is None


def test_a_request_whose_connection_closes_leaves_the_queue(db_url: str) -> None:
    config = conftest.test_config(db_url, quick_fill_seconds=2.0)
    with running(config) as live:
        a = guest(live)
        body = json.dumps({"game": "matgo", "stake": 1}).encode()
        s = live.raw()
        s.sendall(
            (
                f"POST /api/quick HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\n"
                f"Content-Type: application/json\r\nCookie: {a}\r\n"
                f"Content-Length: {len(body)}\r\n\r\n"
            ).encode()
            + body
        )
        wait_until(lambda: call(live, "/api/quick", None, a)[1]["queued"] is not None)
        queued = time.monotonic()
        s.close()
        # out of the queue long before the computer's 2 s
        wait_until(lambda: call(live, "/api/quick", None, a)[1]["queued"] is None, 1.5)
        time.sleep(max(0.0, queued + 2.3 - time.monotonic()))  # past the fill time
        # no table was made for them
        assert call(live, "/api/tables", None, a)[1]["tables"] == []
        # and they may queue again
        code, got = call(live, "/api/quick/cancel", {}, a)
        assert (code, got) == (200, {"cancelled": False})


def test_money_and_self_care_are_checked_before_the_queue(
    make_client: Callable[..., TestClient],
) -> None:
    """Nobody waits for a table they could not sit at: a stake whose entry minimum is
    more than the player holds, or a self-exclusion, is refused at the request."""
    client = make_client(quick_fill_seconds=0.0, money_start=50_000, entry_multiple=100)
    assert client.post("/api/guest").status_code == 201
    r = client.post("/api/quick", json={"game": "matgo", "stake": 1000})  # needs 100,000
    assert (r.status_code, r.json()["error"]["code"]) == (409, "not_enough_money")
    assert client.get("/api/quick").json()["queued"] is None
    assert client.post("/api/selfcare/exclude", json={"months": 3}).status_code == 200
    r = client.post("/api/quick", json={"game": "matgo", "stake": 1})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "self_excluded")
    assert client.get("/api/tables").json()["tables"] == []
