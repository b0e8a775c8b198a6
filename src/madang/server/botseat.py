"""Bot accounts at the tables: one WebSocket per bot (``/ws/bot``) carrying all its seats.

A bot account's seat is a person seat whose connection is a :class:`BotConn`: the room
sends it what it sends a person's socket (``welcome``, ``snapshot``, ``update``,
``error`` …) and the connection turns that into the bot protocol of
``docs/bot-protocol.md`` on the bot's one socket (:class:`BotSocket`), each message with
its ``table``: ``start`` when a game is dealt, a ``request`` (the seat's view, the legal
moves, the stream's version as ``id``) whenever the room prompts the seat, ``end`` with
the result. The bot's answers reach the room as a person's moves do (:class:`Act`), so
the table's clock, its default move and its checks (``stale_version``,
``illegal_action`` …) are the room's own. Each refused answer and each timeout is a
fault; at ``bot_max_faults`` in one game the connection turns on its
:attr:`~madang.server.room.Conn.autopilot` and the room's ``normal`` bot plays the seat
to the end of that game. A dropped socket is a person's dropped connection: after
``grace_seconds`` the bot plays for it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from madang.bots.external import PROTOCOL, encode
from madang.core.registry import spec
from madang.server.room import Attach, Conn, Drop, Hello, Join, Ready, Room

log = logging.getLogger("madang.server")

FAULT_CODES = frozenset({"invalid_action", "illegal_action", "stale_version", "bad_request"})
"""The wire codes that count as a bot's faults when they answer its move."""


def frame(message: dict[str, Any]) -> str:
    """One bot-protocol message as a WebSocket text frame: the line
    :func:`madang.bots.external.encode` writes to a process, without its newline.

    >>> frame({"type": "start", "table": 3, "seat": 1})
    '{"type":"start","table":3,"seat":1}'
    """
    return encode(message).decode("utf-8").rstrip("\n")


class BotSocket:
    """One bot account's connection: its outbox (drained by the socket's writer), its
    seats by table and the invitations waiting for its answer."""

    def __init__(self, user: dict[str, Any], max_faults: int) -> None:
        self.user = user
        self.max_faults = max_faults
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.seats: dict[int, BotConn] = {}
        self.invites: dict[int, asyncio.Future[bool]] = {}
        self.closed = False
        self.replaced = False
        """Closed because a newer socket of the same bot took its place."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message for the bot."""
        if not self.closed:
            self.outbox.put_nowait(frame(message))

    def hello(self) -> dict[str, Any]:
        """The connection's first message."""
        return {
            "type": "hello",
            "protocol": PROTOCOL,
            "bot": self.user["username"],
            "max_faults": self.max_faults,
        }

    async def sit(self, room: Room, seat: int) -> BotConn:
        """Join the seat's stream at ``room`` as a connection (the room deals once every
        seat is here) and say hello for it (the room answers with a snapshot)."""
        conn = BotConn(room, seat, self)
        self.seats[room.table_id] = conn
        await asyncio.wait_for(room.call(Attach(conn)), 10)
        room.submit(Hello(conn, None))
        return conn

    async def invite(self, room: Room, inviter: str, seat: int | None, wait_s: float) -> int:
        """Invite the bot to ``room`` and wait for its answer: the seat it took, or
        ``bot_declined`` (a decline, no answer in ``wait_s``, the socket gone)."""
        from madang.server.wire import WireError

        if room.table_id in self.invites or room.table_id in self.seats:
            raise WireError("bot_declined", "the bot is invited to this table already")
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.invites[room.table_id] = fut
        self.send(
            {
                "type": "invite",
                "table": room.table_id,
                "from": inviter,
                "game": room.game,
                "ruleset": spec(room.game).ruleset_version,
                "rules": rules_of(room),
                "seats": len(room.seats),
                "stake": room.stake,
            }
        )
        try:
            accepted = await asyncio.wait_for(fut, wait_s)
        except TimeoutError:
            accepted = False
        finally:
            self.invites.pop(room.table_id, None)
        if not accepted:
            self.send({"type": "invite_over", "table": room.table_id})
            raise WireError("bot_declined", f"{self.user['username']} declined the invitation")
        got: int = await asyncio.wait_for(
            room.call(Join(self.user, seat, room.invite, room.stake)), 10
        )
        await self.sit(room, got)
        return got

    def answer_invite(self, table: int, accept: bool) -> bool:
        """The bot's ``accept`` or ``decline``; False when nothing waits for it."""
        fut = self.invites.get(table)
        if fut is None or fut.done():
            return False
        fut.set_result(accept)
        return True

    def drop(self) -> None:
        """The socket closed: every seat's connection drops (the rooms give the bot
        ``grace_seconds`` to come back), every invitation is declined."""
        self.closed = True
        for conn in list(self.seats.values()):
            conn.room.submit(Drop(conn))
        self.seats.clear()
        for fut in self.invites.values():
            if not fut.done():
                fut.set_result(False)
        self.outbox.put_nowait(None)


def rules_of(room: Room) -> dict[str, Any]:
    """Every rules option of the table, as a record stores them."""
    rules: dict[str, Any] = spec(room.game).rules(room.preset, room.rules).to_dict()
    return rules


class BotConn(Conn):
    """A bot account's seat at one table, as the room sees a connection: what the room
    sends becomes the bot protocol on the bot's socket (see the module's docstring)."""

    def __init__(self, room: Room, seat: int, socket: BotSocket) -> None:
        super().__init__(seat, socket.user["username"])
        self.room = room
        self.socket = socket
        self.table = room.table_id
        self.game_no: int | None = None
        self.faults = 0
        self.asked: int | None = None
        """The version of the request the bot was sent last (None: none open)."""

    # --- the room's side --------------------------------------------------------------

    def send(self, text: str) -> None:
        msg = json.loads(text)
        kind = msg.get("type")
        if kind in ("snapshot", "update"):
            self._update(msg)
        elif kind == "error":
            self._error(msg)
        elif kind == "closed":
            self.socket.send({"type": "closed", "table": self.table, "reason": msg["reason"]})
        # welcome, seats, fair_* and pong say nothing a bot needs

    def close(self) -> None:
        if self.socket.seats.get(self.table) is self:
            del self.socket.seats[self.table]

    def new_game(self) -> None:
        self.faults = 0
        self.autopilot = False
        self.asked = None

    # --- the bot's side ----------------------------------------------------------------

    def fault(self, kind: str, message: str) -> None:
        """Count one fault of the bot in this game; at the limit the seat's bot plays."""
        self.faults += 1
        log.warning("table %s: bot %s fault %s/%s (%s): %s", self.table, self.username,
                    self.faults, self.socket.max_faults, kind, message)  # fmt: skip
        if self.faults >= self.socket.max_faults and not self.autopilot:
            self.autopilot = True
            self.asked = None
            self.socket.send(
                {
                    "type": "broken",
                    "table": self.table,
                    "faults": self.faults,
                    "message": "too many faults: the normal bot plays this seat to the end "
                    "of the game",
                }
            )

    def _start(self, msg: dict[str, Any]) -> None:
        room = self.room
        self.game_no = msg["game_no"]
        self.socket.send(
            {
                "type": "start",
                "table": self.table,
                "game_no": self.game_no,
                "game": room.game,
                "ruleset": spec(room.game).ruleset_version,
                "rules": rules_of(room),
                "seats": len(room.seats),
                "seat": self.seat,
                "time": {"budget_ms": None, "limit_ms": round(room.config.turn_seconds * 1000)},
            }
        )

    def _update(self, msg: dict[str, Any]) -> None:
        view = msg.get("view")
        if view is None:
            return  # a snapshot before the first deal
        if msg["game_no"] != self.game_no:
            self._start(msg)
        if msg.get("timeout") == self.seat:
            self.fault("timeout", "no answer in the table's time: the default move was played")
        result = msg.get("result")
        if result is not None:
            self.asked = None
            self.socket.send(
                {
                    "type": "end",
                    "table": self.table,
                    "seat": self.seat,
                    "winner": result.get("winner"),
                    "reason": result.get("reason"),
                    "points": result.get("points"),
                    "payments": result.get("payments"),
                    "view": view,
                }
            )
            self.room.submit(Ready(self))  # a bot is ready for the next game at once
            return
        prompt = msg.get("prompt")
        if prompt is None or prompt["seat"] != self.seat or self.autopilot:
            return
        self.asked = msg["version"]
        self.socket.send(
            {
                "type": "request",
                "table": self.table,
                "id": msg["version"],
                "seat": self.seat,
                "view": view,
                "legal": prompt["legal"],
                "remaining_ms": prompt["remaining_ms"],
            }
        )

    def _error(self, msg: dict[str, Any]) -> None:
        out = {"type": "error", "table": self.table, "code": msg["code"], "message": msg["message"]}
        if "ref" in msg:
            out["id"] = msg["ref"]
        self.socket.send(out)
        if msg["code"] in FAULT_CODES:
            self.fault(msg["code"], msg["message"])
