"""The rankings people understand (U17): this week's game money won (the ledger since
Monday 00:00 UTC) and the rating ladder, each listing only players with at least
``rank_min_games`` rated games (guests never), on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from madang.server import db, store
from madang.server.db import make_engine


def settle(
    eng: Any,
    game: str,
    players: list[int],
    payments: list[tuple[int, int, int, str]],
    *,
    stake: int = 10,
    scores: list[int] | None = None,
    winner: int | None = 0,
) -> int:
    """A table and one finished game of ``players`` paying ``payments`` (seat to seat,
    points at ``stake``); the game's id."""
    tid, _ = store.create_table(
        eng,
        game=game,
        preset="default",
        stake=stake,
        private=False,
        invite=store.new_invite(),
        seats=[{"kind": "human", "user_id": u} for u in players],
        created_by=players[0],
    )
    gid = store.start_game(
        eng, table_id=tid, game=game, preset="default", stake=stake, game_no=1, players=players
    )
    store.finish_game(
        eng,
        game_id=gid,
        game=game,
        stake=stake,
        players=players,
        outcome={"winner": winner, "points": 1, "reason": "test"},
        payments=payments,
        record={},
        match_scores=scores,
    )
    return gid


def test_the_week_ranks_money_won_of_players_with_enough_games(
    make_client: Callable[..., TestClient], db_url: str
) -> None:
    client = make_client(rank_min_games=2)
    eng = make_engine(db_url)
    try:
        ace = store.create_user(eng, "ace", None, start=100_000)["id"]
        bob = store.create_user(eng, "bob", None, start=100_000)["id"]
        new = store.create_user(eng, "newbie", None, start=100_000)["id"]
        ghost = store.create_user(eng, "guest-x1", None, guest=True, start=100_000)["id"]
        # ace beats bob twice (7 and 3 points at 10), bob beats ace once (2 points)
        settle(eng, "matgo", [ace, bob], [(1, 0, 7, "score")])
        settle(eng, "matgo", [ace, bob], [(1, 0, 3, "score")])
        settle(eng, "matgo", [bob, ace], [(1, 0, 2, "score")], winner=0)
        # the newbie's one big win: one game is not enough to be ranked
        settle(eng, "matgo", [new, bob], [(1, 0, 50, "score")])
        # a guest's wins are not ranked
        for _ in range(2):
            settle(eng, "matgo", [ghost, ace], [(1, 0, 1, "score")])
        # last week's win does not count this week (the ladder keeps its rating)
        old = settle(eng, "matgo", [ace, bob], [(1, 0, 100, "score")])
        with eng.begin() as c:
            c.execute(
                sa.update(db.ledger)
                .where(db.ledger.c.game_id == old)
                .values(created_at=store.week_start(store.now()) - timedelta(seconds=1))
            )
        # mahjong money is mahjong's
        settle(eng, "mahjong", [bob, ace, new, ghost], [(1, 0, 40, "score")], scores=[4, 3, 2, 1])
    finally:
        eng.dispose()
    week = client.get("/api/ranking/week?game=matgo").json()
    assert week["min_games"] == 2
    since = datetime.fromisoformat(week["since"].replace("Z", "+00:00"))
    assert since.weekday() == 0 and (since.hour, since.minute, since.second) == (0, 0, 0)
    assert since <= datetime.now(UTC) < since + timedelta(days=7)
    assert week["until"] == (since + timedelta(days=7)).isoformat().replace("+00:00", "Z")
    # ace: +70 +30 -20 -10 -10 = 60 in 5 games; bob: -70 -30 +20 -500 = -580 in 4
    assert week["entries"] == [
        {"rank": 1, "username": "ace", "bot": False, "won": 60, "games": 5},
        {"rank": 2, "username": "bob", "bot": False, "won": -580, "games": 4},
    ]
    mahjong = client.get("/api/ranking/week?game=mahjong&min_games=1").json()
    assert [(e["username"], e["won"]) for e in mahjong["entries"]] == [("bob", 400), ("ace", -400)]
    # the ladder lists the same players by rating: the newbie's one game is not enough
    ladder = client.get("/api/leaderboard?game=matgo").json()
    assert ladder["min_games"] == 2
    assert {e["username"] for e in ladder["entries"]} == {"ace", "bob"}
    assert "newbie" in {
        e["username"] for e in client.get("/api/leaderboard?min_games=1").json()["entries"]
    }


def test_mahjong_ladder_is_by_placement(
    make_client: Callable[..., TestClient], db_url: str
) -> None:
    """Four players of equal rating: 1st +30, 2nd +10, 3rd -10, 4th -30 (Tenhou's
    placement rating, as the page explains)."""
    client = make_client(rank_min_games=1)
    eng = make_engine(db_url)
    try:
        ids = [
            store.create_user(eng, n, None, start=100_000)["id"]
            for n in ("nam", "buk", "dong", "seo")
        ]
        settle(eng, "mahjong", ids, [(3, 0, 10, "score")], scores=[30, 20, 10, 0])
    finally:
        eng.dispose()
    board = client.get("/api/leaderboard?game=mahjong").json()["entries"]
    assert [(e["username"], e["rating"], e["games"]) for e in board] == [
        ("nam", 1530.0, 1),
        ("buk", 1510.0, 1),
        ("dong", 1490.0, 1),
        ("seo", 1470.0, 1),
    ]
    assert all("rd" not in e for e in board)


def test_ranking_queries_are_checked(client: TestClient) -> None:
    def code(path: str) -> tuple[int, str]:
        r = client.get(path)
        return r.status_code, r.json()["error"]["code"]

    for path in ("/api/ranking/week", "/api/leaderboard"):
        assert code(f"{path}?game=go") == (400, "bad_request")
        for bad in ("0", "1001", "x"):
            assert code(f"{path}?min_games={bad}") == (400, "bad_request")
    got = client.get("/api/ranking/week?game=mahjong").json()
    assert (got["game"], got["min_games"], got["entries"]) == ("mahjong", 10, [])


def test_week_start_is_monday_midnight_utc() -> None:
    sunday_night = datetime(2026, 12, 6, 23, 59, 59, tzinfo=UTC)
    assert store.week_start(sunday_night) == datetime(2026, 11, 30, tzinfo=UTC)
    monday = datetime(2026, 12, 7, tzinfo=UTC)
    assert store.week_start(monday) == monday
    # 08:00 on Monday in Seoul is still Sunday in UTC: the week is UTC's
    seoul = datetime(2026, 12, 7, 8, 0, tzinfo=UTC) - timedelta(hours=9)
    assert store.week_start(seoul.astimezone(UTC)) == datetime(2026, 11, 30, tzinfo=UTC)


def test_the_ladder_of_the_computer_players(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``GET /api/ladder``: the ladder JSON shipped in the package (``madang arena ladder
    GAME --publish``) per game, null where none was published; a bad game is refused."""
    from madang import ladder

    monkeypatch.setattr(ladder, "DATA_DIR", tmp_path)
    none = {"matgo": None, "mahjong": None, "gostop": None}
    assert client.get("/api/ladder").json() == {"games": none}
    shipped = {"game": "matgo", "bots": ["easy", "hard"], "ratings": {"easy": {"elo": -100}}}
    (tmp_path / "ladder_matgo.json").write_text(json.dumps(shipped), encoding="utf-8")
    assert client.get("/api/ladder").json()["games"] == {**none, "matgo": shipped}
    assert client.get("/api/ladder?game=matgo").json() == {"games": {"matgo": shipped}}
    r = client.get("/api/ladder?game=go")
    assert (r.status_code, r.json()["error"]["code"]) == (400, "bad_request")


def test_the_published_ladders_are_complete() -> None:
    """The ladders shipped with the package (if any) have every pair and a rating per bot."""
    from madang import ladder

    for game in ("matgo", "mahjong"):
        data = ladder.published(game)
        if data is None:
            continue
        bots = data["bots"]
        cells = {(p["a"], p["b"]) for p in data["pairs"]}
        assert cells == {(a, b) for a in bots for b in bots if a != b}
        assert set(data["ratings"]) == set(bots)
        assert all(p["points_ci95"] is not None for p in data["pairs"])
