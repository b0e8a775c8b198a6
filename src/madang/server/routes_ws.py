"""The live table: one WebSocket per table and client, read and written beside the
room actor (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from madang.server import store
from madang.server.chat import ChatItem
from madang.server.cluster import EdgeConn, RemoteTable
from madang.server.config import ServerConfig
from madang.server.deps import COOKIE, MAX_ID, Hub, client_addr, hub_of
from madang.server.room import (
    Act,
    Attach,
    AutoPlay,
    Chat,
    Conn,
    Drop,
    Entropy,
    Hello,
    Pick,
    Ready,
    Room,
    dumps,
)
from madang.server.wire import WireError, parse_client_message

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def ws_table(ws: WebSocket, table_id: int) -> None:
    hub = hub_of(ws)
    config = hub.config
    addr = client_addr(ws)
    if hub.sockets.get(addr, 0) >= config.ws_per_address:
        await ws.close(code=4429, reason="too many connections from your address")
        return
    hub.sockets[addr] = hub.sockets.get(addr, 0) + 1
    try:
        await _table_socket(ws, hub, table_id)
    finally:
        hub.sockets[addr] -= 1
        if not hub.sockets[addr]:
            del hub.sockets[addr]


TRY_AGAIN = 1013
"""The close code of a socket to a table that is open but has no process to play it
just now (moving between processes, or Redis unreachable): the client reconnects."""
GONE = 4404
"""The close code of a socket to a table that is not open (closed, or never made)."""


async def _refuse(ws: WebSocket, hub: Hub, table_id: int, e: WireError | None = None) -> None:
    """Close a socket that reached no table: ``TRY_AGAIN`` while the table is open in
    the database (its owner is moving, or the cluster cannot say who it is), else
    ``GONE`` — the database is the one truth of which tables exist."""
    if e is not None and e.code == "forbidden":
        await ws.send_text(dumps(e.to_message()))
        await ws.close(code=4403)
        return
    open_now = False
    if (hub.cluster is not None or e is not None) and 1 <= table_id <= MAX_ID:
        try:
            open_now = await hub.db(store.table_is_open, table_id)
        except Exception:  # the database cannot say: let the client ask again
            open_now = True
    if open_now:
        err = WireError("busy", "the table is moving to another server: try again")
        await ws.send_text(dumps((e if e is not None and e.code == "busy" else err).to_message()))
        await ws.close(code=TRY_AGAIN, reason="try again")
        return
    await ws.send_text(dumps(WireError("not_found", "no open table").to_message()))
    await ws.close(code=GONE)


async def _table_socket(ws: WebSocket, hub: Hub, table_id: int) -> None:
    config = hub.config
    await ws.accept()
    try:
        room = await hub.table(table_id)
    except WireError as e:  # a table between owners (a cluster's failover)
        await _refuse(ws, hub, table_id, e)
        return
    if room is None or room.closing:
        if room is not None:  # closing for good
            await ws.send_text(dumps(WireError("not_found", "no open table").to_message()))
            await ws.close(code=GONE)
            return
        await _refuse(ws, hub, table_id)
        return
    user = await hub.db(store.session_user, ws.cookies.get(COOKIE))
    invite = ws.query_params.get("invite")
    conn: Conn
    if isinstance(room, RemoteTable):  # owned by another process: through it
        conn = EdgeConn(None, user["username"] if user else None, secrets.token_hex(8), room.owner)
        try:
            await room.attach(conn, user, invite)
        except WireError as e:  # forbidden, or the owner has it no more (it moved)
            await _refuse(ws, hub, table_id, e)
            return
    else:
        seat = room.seat_of(user["id"] if user else None)
        if seat is None and room.private and invite != room.invite:
            await ws.send_text(dumps(WireError("forbidden", "private table").to_message()))
            await ws.close(code=4403)
            return
        conn = Conn(seat, user["username"] if user else None)
        try:
            await asyncio.wait_for(room.call(Attach(conn)), 10)
        except TimeoutError:
            await _refuse(ws, hub, table_id, WireError("busy", "the table is busy: try again"))
            return
        except WireError as e:
            await _refuse(ws, hub, table_id, e)
            return
    writer = asyncio.get_running_loop().create_task(_writer(ws, conn))
    bucket = TokenBucket(config.rate_per_s, config.rate_burst)
    talk = Talk(hub, user)
    try:
        await _reader(ws, conn, room, bucket, config, talk)
    finally:
        room.submit(Drop(conn))
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 5)


class TokenBucket:
    """A per-connection rate limit: ``rate`` messages per second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()
        self.refused = 0.0

    def take(self) -> bool:
        """Spend a token; False when the connection is over its rate."""
        now = time.monotonic()
        elapsed = now - self.stamp
        self.stamp = now
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        self.refused = max(0.0, self.refused - elapsed * self.rate)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1.0
        return False


class Talk:
    """A connection's chat gate (:mod:`madang.server.chat`): free text only for a
    registered player where the server allows it, and the limits — this connection's
    token bucket (``chat_per_s``, ``chat_burst``), then its account's windows
    (``chat_limit``, across tabs, tables and processes). The room refuses spectators."""

    def __init__(self, hub: Hub, user: dict[str, Any] | None) -> None:
        config = hub.config
        self.hub = hub
        self.user = user
        self.bucket = TokenBucket(config.chat_per_s, config.chat_burst)

    def check(self, item: ChatItem) -> None:
        """Raise the WireError that refuses ``item``, if any (the account's windows count
        only what passes the rest)."""
        user = self.user
        if user is None:
            raise WireError("not_seated", "spectators cannot chat")
        if item.kind == "text" and (user.get("guest") or not self.hub.config.chat_text):
            why = "guests" if user.get("guest") else "this server"
            raise WireError("chat_off", f"free text is off for {why}: use the emoticons")
        if not self.bucket.take():
            wait = (1.0 - self.bucket.tokens) / self.bucket.rate
            raise WireError("rate_limited", "you are talking too fast; wait a little",
                            retry_after=max(0.1, wait))  # fmt: skip
        self.hub.chat.hit(f"u{user['id']}")


async def _writer(ws: WebSocket, conn: Conn) -> None:
    while True:
        text = await conn.outbox.get()
        if text is None:
            with contextlib.suppress(Exception):
                await ws.close()
            return
        try:
            await ws.send_text(text)
        except Exception:
            return


async def _reader(
    ws: WebSocket,
    conn: Conn,
    room: Room | RemoteTable,
    bucket: TokenBucket,
    config: ServerConfig,
    talk: Talk,
) -> None:
    greeted = False  # a client must say hello soon, then speak (ping) now and then
    while True:
        idle = config.ws_idle_s if greeted else config.ws_hello_s
        try:
            async with asyncio.timeout(idle):  # no extra task per message (as wait_for)
                msg = await ws.receive()
        except TimeoutError:
            reason = "idle" if greeted else "no hello"
            with contextlib.suppress(Exception):
                await ws.close(code=4408, reason=reason)
            return
        except (WebSocketDisconnect, RuntimeError):
            return
        if msg["type"] == "websocket.disconnect":
            return
        raw = msg.get("text")
        if raw is None:
            raw = msg.get("bytes") or b""
        size = len(raw.encode() if isinstance(raw, str) else raw)
        if not bucket.take():
            if bucket.refused > 4 * config.rate_burst:
                conn.close()
                with contextlib.suppress(Exception):
                    await ws.close(code=1008)
                return
            conn.send(dumps(WireError("rate_limited", "slow down").to_message()))
            continue
        if size > config.max_message:
            conn.send(
                dumps(
                    WireError(
                        "too_large", f"messages are at most {config.max_message} bytes"
                    ).to_message()
                )
            )
            continue
        try:
            m = parse_client_message(raw)
        except WireError as e:
            conn.send(dumps(e.to_message()))
            continue
        kind = m["type"]
        if kind == "ping":
            conn.send(dumps({"type": "pong", "server_time": int(time.time() * 1000)}))
        elif kind == "hello":
            greeted = True
            room.submit(Hello(conn, m["last_version"]))
        elif kind == "act":
            room.submit(Act(conn, m["version"], m["action"], m["ref"]))
        elif kind == "fair_entropy":
            room.submit(Entropy(conn, m["entropy"]))
        elif kind == "autoplay":
            room.submit(AutoPlay(conn, m["on"]))
        elif kind == "first_pick":
            room.submit(Pick(conn, m["slot"]))
        elif kind == "chat":
            try:
                talk.check(m["chat"])
            except WireError as e:
                conn.send(dumps(e.to_message(m["ref"])))
                continue
            room.submit(Chat(conn, m["chat"], m["ref"]))
        else:
            room.submit(Ready(conn))
