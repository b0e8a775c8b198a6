"""``GET /api/stats/deals`` and ``madang stats deals --data``: the finished games of the
database, counted once each, cached with a bounded refresh (SQLite and PostgreSQL)."""

from __future__ import annotations

import copy
import itertools
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from madang import stats
from madang.server import deal_stats, store
from madang.server.db import make_engine
from madang.server.deal_stats import DealStatsCache, StatsSettings, Stopped

_NAMES = itertools.count(1)
SETTINGS = StatsSettings(simulate_games=20, seed=1, refresh_s=3600.0)


def store_finished(eng: Any, game: str, record: dict[str, Any], winner: int | None = 0) -> int:
    """A finished game of ``game`` with ``record`` in the database (as a room stores it)."""
    n = 2 if game == "matgo" else 4
    users = [store.create_user(eng, f"player{next(_NAMES)}", None)["id"] for _ in range(n)]
    tid, _ = store.create_table(
        eng,
        game=game,
        preset="default",
        stake=1,
        private=False,
        invite="x",
        seats=[{"user_id": u} for u in users],
        created_by=users[0],
    )
    gid = store.start_game(
        eng,
        table_id=tid,
        game=game,
        preset="default",
        stake=1,
        game_no=1,
        players=users,
        record=record,
    )
    store.finish_game(
        eng,
        game_id=gid,
        game=game,
        stake=1,
        players=users,
        outcome={"winner": winner, "points": 0, "reason": "test"},
        payments=[],
        record=record,
        match_scores=None,
    )
    return gid


def ready(c: TestClient, games: int | None = None) -> dict[str, Any]:
    """The page's JSON once computed (with ``games`` Matgo games counted, if given):
    until then the endpoint answers 202 at once."""
    deadline = time.monotonic() + 120
    while True:
        r = c.get("/api/stats/deals")
        if r.status_code == 200:
            body: dict[str, Any] = r.json()
            if games is None or body["games"]["matgo"]["games"] == games:
                return body
        else:
            assert r.status_code == 202, r.text
            assert r.json() == {"status": "computing", "retry_s": 2}
            assert r.headers["Retry-After"] == "2"
        assert time.monotonic() < deadline, "the statistics were not computed in time"
        time.sleep(0.05)


def records(game: str, n: int, seed: int) -> list[dict[str, Any]]:
    return [s.record() for s in stats.simulated_sessions(game, n, seed)]


def test_the_page_counts_the_finished_games(
    make_client: Callable[..., TestClient], db_url: str
) -> None:
    c = make_client()
    c.app.state.deal_stats = DealStatsCache(SETTINGS)  # type: ignore[attr-defined]
    eng = make_engine(db_url)
    try:
        matgo = records("matgo", 6, 1)
        for r in matgo:
            store_finished(eng, "matgo", r)
        mahjong = records("mahjong", 3, 2)
        for r in mahjong:
            store_finished(eng, "mahjong", r)
        classic = copy.deepcopy(matgo[0])  # another preset's rules: skipped
        classic["rules"]["bonus_cards"] = "none"
        store_finished(eng, "matgo", classic)
        broken = copy.deepcopy(matgo[1])  # a stored record that does not replay
        broken["moves"] = ["nonsense"]
        store_finished(eng, "matgo", broken)
        # a game still being played is not counted
        store.start_game(
            eng,
            table_id=1,
            game="matgo",
            preset="default",
            stake=1,
            game_no=9,
            players=[1, 2],
            record=matgo[2],
        )

        first = c.get("/api/stats/deals")  # answered at once, computed in the background
        assert first.status_code == 202
        body = ready(c)
        assert body["status"] == "ready"
        m, j = body["games"]["matgo"], body["games"]["mahjong"]
        assert (m["games"], m["skipped"], m["unreadable"]) == (6, 1, 1)
        assert j["games"] == 3
        assert m["simulation"] == {"games": 20, "bot": "random", "seed": 1}
        st = {s["name"]: s for s in m["statistics"]}
        assert sum(st["bonus_to_seon"]["observed"]) == 6
        assert sum(st["months_to_seon"]["observed"]) == 60
        assert st["winner"]["reference"] is True
        assert sum(st["winner"]["expected"]) == pytest.approx(sum(st["winner"]["observed"]))

        # cached: a new game shows after the refresh time only
        store_finished(eng, "matgo", matgo[3])
        assert c.get("/api/stats/deals").json() == body
        c.app.state.deal_stats = DealStatsCache(  # type: ignore[attr-defined]
            StatsSettings(simulate_games=20, seed=1, refresh_s=0.0)
        )
        assert ready(c)["games"]["matgo"]["games"] == 7
        # past the refresh time the last value is answered at once while a new one is made
        store_finished(eng, "matgo", matgo[4])
        stale = c.get("/api/stats/deals")
        assert stale.status_code == 200 and stale.json()["games"]["matgo"]["games"] == 7
        assert ready(c, games=8)["games"]["matgo"]["games"] == 8
    finally:
        eng.dispose()


def test_a_failed_computation_is_an_error_then_computed_again(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client()
    c.app.state.deal_stats = DealStatsCache(StatsSettings(bot="nobody"))  # type: ignore[attr-defined]
    assert c.get("/api/stats/deals").status_code == 202
    deadline = time.monotonic() + 60
    while (r := c.get("/api/stats/deals")).status_code == 202:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert r.status_code == 400 and "nobody" in r.json()["error"]["message"]
    assert c.get("/api/stats/deals").status_code == 202  # asked again: computed again


def test_the_command_reads_the_database_of_data(
    make_client: Callable[..., TestClient],
    db_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from madang.cli import main

    make_client()  # the app migrates the database
    eng = make_engine(db_url)
    try:
        for r in records("matgo", 4, 3):
            store_finished(eng, "matgo", r)
    finally:
        eng.dispose()
    if db_url.startswith("sqlite"):
        where = ["--data", str(Path(db_url.split("///", 1)[1]).parent)]
    else:
        where = ["--database-url", db_url]
    rc = main(["stats", "deals", *where, "--game", "matgo", "--simulate", "10", "--json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert json.loads(out)["games"]["matgo"]["games"] == 4


def test_a_database_without_games_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from madang.cli import main

    eng = make_engine(f"sqlite:///{tmp_path / 'madang.sqlite3'}")
    with eng.begin() as c:
        c.exec_driver_sql("CREATE TABLE other (id INTEGER)")
    eng.dispose()
    rc = main(["stats", "deals", "--data", str(tmp_path), "--simulate", "5"])
    _, err = capsys.readouterr()
    assert rc == 2 and "no games table" in err


def test_a_server_stopping_stops_a_computation_in_progress(
    make_client: Callable[..., TestClient],
) -> None:
    """A page being computed (here: a million simulated games, hours of work) does not
    hold a server's shutdown: it stops within a game, keeps nothing, and no other starts."""
    c = make_client()
    cache = DealStatsCache(StatsSettings(simulate_games=1_000_000, seed=7))
    c.app.state.deal_stats = cache  # type: ignore[attr-defined]
    assert c.get("/api/stats/deals").status_code == 202
    time.sleep(0.3)  # well inside the simulation
    t0 = time.monotonic()
    c.__exit__(None, None, None)  # the app's shutdown
    assert time.monotonic() - t0 < 5
    assert cache._task is not None and cache._task.done()
    assert isinstance(cache._task.exception(), Stopped)
    assert ("matgo", 1_000_000, 7, "random", "default") not in deal_stats._REFERENCES
    with pytest.raises(Stopped):  # a request that still comes is refused, not computed
        cache.get(make_engine("sqlite://"))
