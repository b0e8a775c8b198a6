"""Bot accounts (``docs/bot-protocol.md``, At the server): the upgrade of an account to
a bot, its API tokens, the invitation of a bot to a table, and the bot's WebSocket
(``/ws/bot``) that carries all its tables (:mod:`madang.server.botseat`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from starlette.websockets import WebSocketDisconnect

from madang.server import store
from madang.server.botseat import BotConn, BotSocket
from madang.server.deps import COOKIE, Hub, body, check_id, client_addr, hub_of, need_user
from madang.server.room import Act, Room, dumps
from madang.server.routes_tables import room_of
from madang.server.routes_ws import TokenBucket
from madang.server.wire import WireError

router = APIRouter()

UNAUTHORIZED = 4401
"""The close code of a bot socket without a valid token."""
THROTTLED = 4429
"""… of one from an address that failed too often (``retry_after`` in its error)."""
REPLACED = 4409
"""… of a bot's socket that a newer one of the same bot replaced."""


def _label(data: dict[str, Any]) -> str:
    label = data.get("label", "")
    if not isinstance(label, str) or len(label) > 40 or not label.isprintable():
        raise WireError("bad_request", "label must be printable text of at most 40 characters")
    return label


def _refused(e: store.BotRefused) -> WireError:
    return WireError(e.code, str(e))


def _bearer(headers: Any) -> str | None:
    value = headers.get("authorization")
    if not isinstance(value, str):
        return None
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def bot_of(hub: Hub, headers: Any, addr: str) -> tuple[dict[str, Any], int]:
    """The bot account of the request's ``Authorization: Bearer TOKEN`` and the token's
    id; ``unauthorized`` without a valid token. Failures are throttled as failed logins
    are, per address (``throttled`` while blocked)."""
    hub.throttle.address.check(addr)
    token = _bearer(headers)
    found = await hub.db(store.bot_token_user, token) if token else None
    if found is None:
        hub.throttle.address.fail(addr)
        raise WireError("unauthorized", "an API token of a bot account is required (Bearer)")
    return found


# ---------------------------------------------------------------------- accounts, tokens


@router.post("/api/account/bot")
async def make_bot(request: Request) -> Response:
    """Turn the logged-in account into a bot account, for good (``{"confirm": true}``):
    only a registered account that has played no game. Its sessions end; the answer
    holds its first API token, shown this once."""
    hub = hub_of(request)
    user = await need_user(request)
    data = await body(request)
    if data.get("confirm") is not True:
        raise WireError("bad_request", 'a bot account is for good: send {"confirm": true}')
    label = _label(data)
    try:
        made = await hub.db(store.make_bot_account, user["id"], label)
    except store.BotRefused as e:
        raise _refused(e) from None
    resp = JSONResponse(made, status_code=201)
    resp.delete_cookie(COOKIE, path="/")
    return resp


@router.get("/api/account/bot/tokens")
async def list_tokens(request: Request) -> dict[str, Any]:
    hub = hub_of(request)
    user, _ = await bot_of(hub, request.headers, client_addr(request))
    return {"tokens": await hub.db(store.bot_tokens_of, user["id"])}


@router.post("/api/account/bot/tokens")
async def new_token(request: Request) -> Response:
    """Another API token (shown once) for the bot of the Bearer token."""
    hub = hub_of(request)
    user, _ = await bot_of(hub, request.headers, client_addr(request))
    label = _label(await body(request))
    try:
        token = await hub.db(store.create_bot_token, user["id"], label)
    except store.BotRefused as e:
        raise _refused(e) from None
    return JSONResponse({"token": token}, status_code=201)


@router.delete("/api/account/bot/tokens/{token_id}")
async def revoke_token(request: Request, token_id: int) -> dict[str, Any]:
    """Revoke one of the bot's tokens (the one used too, if named)."""
    hub = hub_of(request)
    user, _ = await bot_of(hub, request.headers, client_addr(request))
    check_id(token_id, "token")
    if not await hub.db(store.revoke_bot_token, user["id"], token_id):
        raise WireError("not_found", f"no token {token_id}")
    return {"ok": True}


# ---------------------------------------------------------------------- invitations


@router.post("/api/tables/{table_id}/bots")
async def invite_bot(request: Request, table_id: int) -> dict[str, Any]:
    """A person seated at a table that waits for players invites a connected bot
    account to a free seat (``{"username": NAME, "seat": N?}``); the answer waits for
    the bot's ``accept`` (its seat) or ``decline`` (``bot_declined``)."""
    hub = hub_of(request)
    user = await need_user(request)
    data = await body(request)
    name, seat = data.get("username"), data.get("seat")
    if not isinstance(name, str) or not 0 < len(name) <= 40:
        raise WireError("bad_request", "username must name a bot account")
    if seat is not None and type(seat) is not int:
        raise WireError("bad_request", "seat must be an integer")
    room = await room_of(request, table_id)
    if not isinstance(room, Room):
        raise WireError("busy", "the table is played by another server process")
    if not room.sits(user["id"]):
        raise WireError("not_seated", "only a player at the table invites a bot to it")
    if room.status != "waiting":
        raise WireError("game_over", "bots are invited before a table's first deal")
    row = await hub.db(store.user_by_name, name)
    if row is None or not row.is_bot:
        raise WireError("not_found", f"no bot account {name!r}")
    sock = hub.bots.get(row.id)
    if sock is None:
        raise WireError("bot_offline", f"the bot {name!r} is not connected")
    got = await sock.invite(room, user["username"], seat, hub.config.bot_invite_seconds)
    return {"table": room.summary(with_invite=True), "seat": got}


# ---------------------------------------------------------------------- the socket


@router.websocket("/ws/bot")
async def ws_bot(ws: WebSocket) -> None:
    hub = hub_of(ws)
    addr = client_addr(ws)
    await ws.accept()
    try:
        user, _ = await bot_of(hub, ws.headers, addr)
    except WireError as e:
        await ws.send_text(dumps(e.to_message()))
        await ws.close(code=THROTTLED if e.code == "throttled" else UNAUTHORIZED)
        return
    if hub.sockets.get(addr, 0) >= hub.config.ws_per_address:
        await ws.close(code=4429, reason="too many connections from your address")
        return
    hub.sockets[addr] = hub.sockets.get(addr, 0) + 1
    sock = BotSocket(user, hub.config.bot_max_faults)
    old = hub.bots.get(user["id"])
    if old is not None:  # a newer connection of the same bot takes over its seats
        old.replaced = True
        old.drop()
    hub.bots[user["id"]] = sock
    writer = asyncio.get_running_loop().create_task(_writer(ws, sock))
    try:
        sock.send(sock.hello())
        for room in list(hub.rooms.values()):
            seat = room.seat_of(user["id"])
            if seat is not None and not room.closing and not room.seats[seat].left:
                await sock.sit(room, seat)
        await _reader(ws, sock, hub)
    finally:
        if hub.bots.get(user["id"]) is sock:
            del hub.bots[user["id"]]
        if not sock.closed:
            sock.drop()
        hub.sockets[addr] -= 1
        if not hub.sockets[addr]:
            del hub.sockets[addr]
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 5)


async def _writer(ws: WebSocket, sock: BotSocket) -> None:
    while True:
        text = await sock.outbox.get()
        if text is None:
            with contextlib.suppress(Exception):
                await ws.close(code=REPLACED if sock.replaced else 1000)
            return
        try:
            await ws.send_text(text)
        except Exception:
            return


async def _reader(ws: WebSocket, sock: BotSocket, hub: Hub) -> None:
    config = hub.config
    bucket = TokenBucket(config.rate_per_s, config.rate_burst)
    while not sock.closed:
        try:
            async with asyncio.timeout(config.ws_idle_s):
                msg = await ws.receive()
        except TimeoutError:
            with contextlib.suppress(Exception):
                await ws.close(code=4408, reason="idle")
            return
        except (WebSocketDisconnect, RuntimeError):
            return
        if msg["type"] == "websocket.disconnect":
            return
        raw = msg.get("text")
        if raw is None:
            raw = msg.get("bytes") or b""
        if not bucket.take():
            if bucket.refused > 4 * config.rate_burst:
                with contextlib.suppress(Exception):
                    await ws.close(code=1008)
                return
            sock.send(WireError("rate_limited", "slow down").to_message())
            continue
        if len(raw.encode() if isinstance(raw, str) else raw) > config.max_message:
            err = WireError("too_large", f"messages are at most {config.max_message} bytes")
            sock.send(err.to_message())
            continue
        try:
            _handle(sock, raw)
        except WireError as e:
            sock.send(e.to_message())


def _handle(sock: BotSocket, raw: str | bytes) -> None:
    """One message of the bot: a ``ping``, an ``accept`` or ``decline`` of an
    invitation, or an answer ``{"table", "id", "move"}`` (to the room as a move)."""
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):
        raise WireError("bad_request", "a message must be one JSON object") from None
    if not isinstance(obj, dict):
        raise WireError("bad_request", "a message must be one JSON object")
    kind = obj.get("type")
    table = obj.get("table")
    if kind == "ping":
        sock.send({"type": "pong", "server_time": int(time.time() * 1000)})
        return
    if type(table) is not int:
        raise WireError("bad_request", "table must be the id of one of your tables")
    if kind in ("accept", "decline"):
        if not sock.answer_invite(table, kind == "accept"):
            raise WireError("not_found", f"no invitation to table {table} waits for an answer")
        return
    if kind is not None:
        raise WireError("bad_request", f"unknown message type {str(kind)[:40]!r}")
    conn = sock.seats.get(table)
    if conn is None:
        raise WireError("not_seated", f"you hold no seat at table {table}")
    _answer(conn, obj)


def _answer(conn: BotConn, obj: dict[str, Any]) -> None:
    """An answer to a request at the bot's table: malformed ones are refused
    (``invalid_action``) and counted as faults; the others go to the room."""
    rid, move = obj.get("id"), obj.get("move")
    if type(rid) is not int or not isinstance(move, str) or not 0 < len(move) <= 64:
        err = WireError("invalid_action", "an answer is {table, id: the request's id, move}")
        conn.send(dumps(err.to_message(rid if type(rid) is int else None)))
        return
    if conn.autopilot:
        err = WireError("game_over", "the normal bot plays this seat until the game ends")
        conn.send(dumps(err.to_message(rid)))
        return
    conn.room.submit(Act(conn, rid, move, rid))
