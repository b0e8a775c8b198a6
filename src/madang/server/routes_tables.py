"""Tables: the lobby's list, creating, joining and leaving a table."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from madang.core.registry import spec as game_spec
from madang.server import store
from madang.server.cluster import RemoteTable
from madang.server.deps import Hub, body, current_user, hub_of, need_user
from madang.server.games import (
    bot_level_for,
    bot_levels,
    games,
    make_session,
    presets,
)
from madang.server.games import seats as seats_of
from madang.server.money import MoneyRules
from madang.server.room import Join, Kind, Leave, Room, Seat, too_many_tables
from madang.server.rules_catalogue import option_values
from madang.server.schemas import body as documented
from madang.server.stakes import check_table
from madang.server.wire import WireError

router = APIRouter()


async def room_of(request: Request, table_id: int) -> Room | RemoteTable:
    room = await hub_of(request).table(table_id)
    if room is None or room.closing:
        raise WireError("not_found", f"no open table {table_id}")
    return room


@router.get("/api/tables")
async def list_tables(request: Request) -> dict[str, Any]:
    return {"tables": (await hub_of(request).lobby())[:200]}


@router.post("/api/tables", openapi_extra=documented("table"))
async def create_table(request: Request) -> Response:
    hub = hub_of(request)
    config = hub.config
    user = await need_user(request)
    data = await body(request)
    if hub.cluster is not None and hub.cluster.draining:
        raise WireError("busy", "this server is shutting down: try again")
    game = data.get("game")
    if not isinstance(game, str) or game not in games():
        raise WireError("bad_request", f"game must be one of {', '.join(games())}")
    preset = data.get("preset", "default")
    if not isinstance(preset, str) or preset not in presets(game):
        raise WireError("rule_config", f"unknown {game} preset {preset!r}")
    overrides = data.get("rules")
    # a preset with some options changed: every option of the rules pages is playable
    in_force = game_spec(game).rules(preset, overrides)  # bad options: rule_config
    # the rules must deal a game at this table's seats (rule_config now, not when the
    # room deals); the seats follow the rules (고스톱's players: 3, or 4 with 광팔기)
    make_session(game, preset, 0, overrides)  # rules that cannot deal: rule_config
    stake = data.get("stake", config.stakes[0])
    if type(stake) is not int or stake not in config.stakes:
        raise WireError("bad_request", f"stake must be one of {', '.join(map(str, config.stakes))}")
    worth = check_table(game, in_force, stake)  # one game's bound over the cap: refused
    private = data.get("private", False)
    if not isinstance(private, bool):
        raise WireError("bad_request", "private must be true or false")
    specs = data.get("seats")
    n = seats_of(game, in_force)  # 고스톱: 3, or 4 with 광팔기 (its rules' players)
    if not isinstance(specs, list) or len(specs) != n:
        raise WireError("bad_request", f"{game} under these rules needs {n} seats")
    levels = bot_levels(game)
    seats: list[Seat] = []
    for i, spec in enumerate(specs):
        if not isinstance(spec, dict) or spec.get("kind") not in tuple(Kind):
            raise WireError("bad_request", "each seat is {kind: human} or {kind: bot, level}")
        if spec["kind"] == Kind.BOT:
            level = spec.get("level", bot_level_for(game, "normal"))
            if not isinstance(level, str) or level not in levels:
                raise WireError("bad_request", f"{game} bot level must be one of {levels}")
            seats.append(Seat(i, Kind.BOT, level=level))
        else:
            seats.append(Seat(i, Kind.HUMAN))
    humans = [s for s in seats if s.kind == Kind.HUMAN]
    if not humans:
        raise WireError("bad_request", "a table needs at least one person seat")
    humans[0].user_id = user["id"]
    humans[0].username = user["username"]
    try:
        room = await open_table(
            hub,
            game=game,
            preset=preset,
            rules=overrides or {},
            in_force=in_force,
            stake=stake,
            worth=worth,
            private=private,
            seats=seats,
            created_by=user["id"],
        )
    except store.TooManyTables:
        raise too_many_tables(config.tables_per_user) from None
    return JSONResponse(
        {
            "table": room.summary(with_invite=True),
            "seat": humans[0].index,
            "invite_url": f"/table/{room.table_id}?invite={room.invite}",
        },
        status_code=201,
    )


async def open_table(
    hub: Hub,
    *,
    game: str,
    preset: str,
    rules: dict[str, Any],
    in_force: object,
    stake: int,
    worth: dict[str, Any],
    private: bool,
    seats: list[Seat],
    created_by: int,
) -> Room:
    """Make and start a table whose person seats named (``user_id`` set) are theirs and
    whose bot seats get their level's account: the row (under the cap on each person's
    open tables, :class:`~madang.server.store.TooManyTables` otherwise, nothing made),
    the room, and in a cluster its claim. The people seated hold their seats until
    their pages connect (``seat_hold_seconds``)."""
    config = hub.config
    for s in seats:
        if s.kind == Kind.BOT:
            bot = await hub.db(store.bot_user, s.level)
            s.user_id, s.username = bot["id"], bot["username"]
    invite = store.new_invite()
    # the cap is checked in the table's own transaction (docs/server.md, Security)
    table_id, seed = await hub.db(
        store.create_table,
        game=game,
        preset=preset,
        stake=stake,
        private=private,
        invite=invite,
        seats=[{"kind": s.kind, "user_id": s.user_id, "level": s.level} for s in seats],
        created_by=created_by,
        rules=rules,
        deal_seed=config.deal_seed,
        tables_per_user=config.tables_per_user,
        money_rules=MoneyRules.of(config),
    )
    held = time.monotonic()
    for s in seats:
        if s.kind == Kind.HUMAN and s.user_id is not None:
            s.disconnected_at = held  # until their page connects
    room = Room(
        table_id=table_id,
        game=game,
        preset=preset,
        rules=rules,
        rules_in_force=option_values(in_force),
        stake=stake,
        worth=worth,
        private=private,
        invite=invite,
        seats=seats,
        config=config,
        engine=hub.engine,
        seed=seed,
        on_close=lambda r: hub.forget(r.table_id),
        fair=config.deal_seed is None,
    )
    hub.rooms[table_id] = room
    if hub.cluster is not None:
        await hub.cluster.claim_new(room)
    room.start()
    return room


@router.get("/api/tables/{table_id}")
async def get_table(request: Request, table_id: int) -> dict[str, Any]:
    room = await room_of(request, table_id)
    user = await current_user(request)
    seated = room.seat_of(user["id"] if user else None) is not None
    if room.private and not seated and request.query_params.get("invite") != room.invite:
        raise WireError("forbidden", "this table is private: you need its invite link")
    return {"table": room.summary(with_invite=seated)}


@router.post("/api/tables/{table_id}/join", openapi_extra=documented("join"))
async def join_table(request: Request, table_id: int) -> dict[str, Any]:
    room = await room_of(request, table_id)
    user = await need_user(request)
    data = await body(request)
    seat, invite = data.get("seat"), data.get("invite")
    if seat is not None and type(seat) is not int:
        raise WireError("bad_request", "seat must be an integer")

    if invite is not None and not isinstance(invite, str):
        raise WireError("bad_request", "invite must be a string")
    got = await asyncio.wait_for(room.call(Join(user, seat, invite, data.get("stake"))), 10)
    if isinstance(room, RemoteTable):  # the lobby's entry as its owner has it now
        room = await hub_of(request).table(table_id) or room
    return {"table": room.summary(with_invite=True), "seat": got}


@router.post("/api/tables/{table_id}/leave", openapi_extra=documented("empty"))
async def leave_table(request: Request, table_id: int) -> dict[str, Any]:
    room = await room_of(request, table_id)
    user = await need_user(request)
    await asyncio.wait_for(room.call(Leave(user)), 10)
    return {"ok": True}
