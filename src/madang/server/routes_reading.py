"""Reading: the server's configuration, ledgers, game histories, finished games and
their replays, the leaderboard."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Request

from madang.ladder import published
from madang.server import store
from madang.server.chat import catalogue as chat_catalogue
from madang.server.deps import (
    check_id,
    current_user,
    hub_of,
    limit_before,
    need_user,
)
from madang.server.games import bot_levels, games, presets
from madang.server.games import seats as seats_of
from madang.server.rules_catalogue import catalogue
from madang.server.wire import WireError

router = APIRouter()


@router.get("/api/config")
async def get_config(request: Request) -> dict[str, Any]:
    config = hub_of(request).config
    return {
        "games": {
            g: {"seats": seats_of(g), "presets": presets(g), "bot_levels": bot_levels(g)}
            for g in games()
        },
        "bot_levels": bot_levels(),
        "stakes": list(config.stakes),
        "money": {
            "start": config.money_start,
            "refill_floor": config.refill_floor,
            "entry_multiple": config.entry_multiple,
            "day_zone": config.day_zone,
            "limit_cooloff_s": config.limit_cooloff_s,
        },
        "timers": {
            "turn_seconds": config.turn_seconds,
            "grace_seconds": config.grace_seconds,
            "next_game_seconds": config.next_game_seconds,
        },
    }


@router.get("/api/rules")
async def get_rules() -> dict[str, Any]:
    """Every registered game's rules options and its presets' values of each: what the
    lobby's form offers (``POST /api/tables`` takes a preset plus ``rules`` changes)."""
    return {"games": {g: catalogue(g) for g in games()}}


@router.get("/api/chat")
async def get_chat(request: Request) -> dict[str, Any]:
    """What the table's chat offers (``docs/protocol.md``, Chat): the emoticons, the
    quick phrases, and whether this user may send free text (never a guest)."""
    user = await current_user(request)
    text = hub_of(request).config.chat_text and user is not None and not user.get("guest")
    return chat_catalogue(text=bool(text))


@router.get("/api/ledger")
async def get_ledger(
    request: Request, limit: int | None = None, before: int | None = None
) -> dict[str, Any]:
    hub = hub_of(request)
    user = await need_user(request)
    limit, before = limit_before(limit, before)
    return {
        "balance": await hub.db(store.balance, user["id"]),
        "entries": await hub.db(store.ledger_of, user["id"], limit, before),
    }


@router.get("/api/games")
async def get_games(
    request: Request,
    user: str | None = None,
    game: str | None = None,
    limit: int | None = None,
    before: int | None = None,
) -> dict[str, Any]:
    hub = hub_of(request)
    name = user
    if name is None:
        uid = (await need_user(request))["id"]
    else:
        if len(name) > 80 or not name.isprintable():
            raise WireError("not_found", "no such user")
        row = await hub.db(store.user_by_name, name)
        if row is None:
            raise WireError("not_found", f"no user {name!r}")
        uid = row.id
    if game is not None and game not in games():
        raise WireError("bad_request", f"unknown game {game!r}")
    limit, before = limit_before(limit, before, 20)
    return {"games": await hub.db(store.games_of, uid, game, limit, before)}


async def finished(request: Request, game_id: int) -> dict[str, Any]:
    check_id(game_id, "finished game")
    got = await hub_of(request).db(store.game_detail, game_id)
    if got is None:
        raise WireError("not_found", f"no finished game {game_id}")
    return got


@router.get("/api/games/{game_id}")
async def get_game(request: Request, game_id: int) -> dict[str, Any]:
    return await finished(request, game_id)


@router.get("/api/games/{game_id}/replay")
async def get_replay(request: Request, game_id: int) -> dict[str, Any]:
    from madang.server.replay import frames

    g = await finished(request, game_id)
    return {
        "game": g["game"],
        "players": g["players"],
        "result": g["result"],
        "frames": await asyncio.to_thread(frames, g["game"], g["record"]),
    }


@router.get("/api/games/{game_id}/review")
async def get_review(request: Request, game_id: int, seat: int = 0) -> dict[str, Any]:
    """복기: the review of ``seat``'s decisions in a finished game (:mod:`madang.review`),
    computed off the event loop in the review pool (``busy`` when it is full) and kept
    with the game."""
    g = await finished(request, game_id)
    n = len(g["players"])  # a player per seat (고스톱: 3, or 4 with 광팔기)
    if not 0 <= seat < n:
        raise WireError("bad_request", f"seat must be 0-{n - 1}")
    hub = hub_of(request)
    review = await hub.db(store.review_of, game_id, seat)
    if review is None:
        review = await hub.reviewer.review(game_id, seat, g["record"])
        await hub.db(store.save_review, game_id, seat, review)
    return {"game_id": game_id, "game": g["game"], "players": g["players"], "review": review}


def _rank_query(request: Request, game: str, min_games: int | None) -> int:
    """Check a ranking's query; the minimum of rated games in force (the server's
    ``rank_min_games`` unless the query names one, 1–1000)."""
    if game not in games():
        raise WireError("bad_request", f"unknown game {game!r}")
    if min_games is None:
        return hub_of(request).config.rank_min_games
    if not 1 <= min_games <= 1000:
        raise WireError("bad_request", "min_games is 1-1000")
    return min_games


@router.get("/api/leaderboard")
async def get_leaderboard(
    request: Request,
    game: str = "matgo",
    limit: int | None = None,
    min_games: int | None = None,
) -> dict[str, Any]:
    """The rating ladder: players with at least ``min_games`` rated games (default
    the server's ``rank_min_games``, 1–1000): one lucky game does not put anyone at
    the top."""
    min_games = _rank_query(request, game, min_games)
    limit, _ = limit_before(limit, None)
    entries = await hub_of(request).db(store.leaderboard, game, limit, min_games)
    return {"game": game, "min_games": min_games, "entries": entries}


@router.get("/api/ranking/week")
async def get_week_ranking(
    request: Request,
    game: str = "matgo",
    limit: int | None = None,
    min_games: int | None = None,
) -> dict[str, Any]:
    """This week's ranking by game money won (the ledger since Monday 00:00 UTC), of the
    players with at least ``min_games`` rated games, as the ladder."""
    min_games = _rank_query(request, game, min_games)
    limit, _ = limit_before(limit, None)
    at = store.now()
    since = store.week_start(at)
    entries = await hub_of(request).db(store.weekly_money, game, limit, min_games, at)
    return {
        "game": game,
        "min_games": min_games,
        "since": since.isoformat().replace("+00:00", "Z"),
        "until": (since + timedelta(days=7)).isoformat().replace("+00:00", "Z"),
        "entries": entries,
    }


@router.get("/api/ladder")
async def get_ladder(game: str | None = None) -> dict[str, Any]:
    """The strength ladder of the computer players shipped with this version
    (``madang arena ladder GAME --publish``): per game its pairs' points and wins with
    95% intervals and a rating per bot, or null where none was published."""
    if game is not None and game not in games():
        raise WireError("bad_request", f"unknown game {game!r}")
    chosen = games() if game is None else [game]
    return {"games": {g: await asyncio.to_thread(published, g) for g in chosen}}
