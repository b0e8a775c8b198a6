"""The room actor: one asyncio task per table owns its game and is its only writer.

Everything that changes a table — a player's move, a join, a connection coming or
going, a timer running out, a bot's turn — is a message on the room's queue, handled
one at a time by :meth:`Room.run`. Each seat (and the spectators) has its own stream
of versioned, redacted updates; a client acts against the version of its own stream.
A finished game is settled in the database (one transaction) before its last update
goes out.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from madang.core.errors import MadangError
from madang.core.registry import spec
from madang.server import store
from madang.server.autoplay import set_autoplay
from madang.server.chat import ChatItem
from madang.server.config import ServerConfig
from madang.server.db import run_in_db
from madang.server.fairdeal import FairDeal
from madang.server.first_dealer import FirstPickPhase
from madang.server.games import BotPlayer, Pacing, Session, bot_level_for, make_session, pacing
from madang.server.journal import journal_of
from madang.server.metrics import MOVE_SECONDS, MOVES
from madang.server.money import MoneyRules, first_refusal, shortfalls
from madang.server.pauses import ClaimPauses
from madang.server.wire import WireError, wire_error

log = logging.getLogger("madang.server")

T = TypeVar("T")

SPECTATORS = -1
"""The stream key of the spectators."""

SETTLEMENT_FAILED = "settlement failed"
"""The ``end_reason`` of a game aborted because its settlement could not be written."""


try:  # orjson encodes a view ~10x faster than the standard library; optional
    import orjson

    _ORJSON = True
except ImportError:  # pragma: no cover - the standard library does the same, slower
    _ORJSON = False


def _std_dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def dumps(obj: Any) -> str:
    """Compact JSON for the wire (UTF-8 text, not ASCII-escaped).

    >>> dumps({"type": "seats", "seats": [{"seat": 0, "username": "민수"}]})
    '{"type":"seats","seats":[{"seat":0,"username":"민수"}]}'
    >>> dumps({1: 0.5, "big": 2**70})  # int keys as strings; past 64 bits: the fallback
    '{"1":0.5,"big":1180591620717411303424}'
    """
    if _ORJSON:
        try:
            return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:  # orjson.JSONEncodeError: an int past 64 bits, a subclass …
            pass
    return _std_dumps(obj)


def too_many_tables(limit: int) -> WireError:
    """The refusal of a seat to a person who sits at ``limit`` open tables already."""
    return WireError("too_many_tables", f"you sit at {limit} open tables already; leave one first")


class Conn:
    """One client connection as the room sees it: a seat (or None) and an outbox.

    The WebSocket layer drains :attr:`outbox`; tests may subclass and override
    :meth:`send` to inspect every message.
    """

    def __init__(self, seat: int | None, username: str | None = None) -> None:
        self.seat = seat
        self.username = username
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.hello = False
        self.autopilot = False
        """Whether this connection asks the seat's bot to play for it: a bot account
        past its fault limit in the game (:mod:`madang.server.botseat`)."""

    def send(self, text: str) -> None:
        """Queue one message (JSON text) for the client."""
        self.outbox.put_nowait(text)

    def close(self) -> None:
        """Ask the writer to close the connection."""
        self.outbox.put_nowait(None)

    def new_game(self) -> None:
        """A game is about to be dealt at the table (a bot account's seat starts afresh)."""


class Status(StrEnum):
    """Where a table stands (its value is what the lobby and the database say)."""

    WAITING = "waiting"  #: a person seat is still free
    PLAYING = "playing"
    BETWEEN = "between"  #: a game has ended; the next waits for the people to be ready
    CLOSED = "closed"


class Kind(StrEnum):
    """Who controls a seat."""

    HUMAN = "human"
    BOT = "bot"


# ---------------------------------------------------------------------- messages
# Everything that changes a table is one of these on the room's queue.


@dataclass(frozen=True, slots=True)
class Tick:
    """A timer went off: look at what is due."""


@dataclass(frozen=True, slots=True)
class Act:
    """A client's move, made against its stream's ``version``."""

    conn: Conn
    version: int
    action: str
    ref: int | None = None


@dataclass(frozen=True, slots=True)
class Hello:
    """A client (re)connects: the missed updates since ``last_version``, or a snapshot."""

    conn: Conn
    last_version: int | None = None


@dataclass(frozen=True, slots=True)
class Ready:
    """Between games: a person is ready for the next."""

    conn: Conn


@dataclass(frozen=True, slots=True)
class Drop:
    """A connection closed."""

    conn: Conn


@dataclass(frozen=True, slots=True)
class Entropy:
    """A seat's entropy string for the next verifiable deal (checked by the wire)."""

    conn: Conn
    entropy: str


@dataclass(frozen=True, slots=True)
class AutoPlay:
    """A seat turns 자동치기 on or off (checked by the wire; :mod:`~madang.server.autoplay`)."""

    conn: Conn
    on: bool


@dataclass(frozen=True, slots=True)
class Pick:
    """선 뽑기: a seat picks a face-down card (checked by the wire; :mod:`.first_dealer`)."""

    conn: Conn
    slot: int


@dataclass(frozen=True, slots=True)
class Chat:
    """An emoticon, a quick phrase or free text from a connection, checked and
    rate-limited by the socket (:mod:`madang.server.chat`): a seat's is broadcast to the
    whole table, a spectator's refused."""

    conn: Conn
    item: ChatItem
    ref: int | None = None


@dataclass(frozen=True, slots=True)
class Join:
    """Take a seat (answered through :meth:`Room.call`): the seat's index."""

    user: dict[str, Any]
    seat: int | None
    invite: str | None
    stake: object


@dataclass(frozen=True, slots=True)
class Leave:
    """Give up one's seat (answered through :meth:`Room.call`)."""

    user: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Attach:
    """A new connection joins its seat's stream or the spectators' (answered)."""

    conn: Conn


Message = (
    Tick | Act | Hello | Ready | Entropy | AutoPlay | Pick | Chat | Drop | Join | Leave | Attach
)
Question = Join | Leave | Attach
"""The messages :meth:`Room.call` waits an answer to."""


@dataclass
class Seat:
    """A table position and who controls it."""

    index: int
    kind: Kind
    user_id: int | None = None
    username: str | None = None
    level: str | None = None
    bot: BotPlayer | None = None
    conns: set[Conn] = field(default_factory=set)
    disconnected_at: float | None = None
    left: bool = False
    bot_control: bool = False
    auto: bool = False
    """자동치기: its person has the seat's bot play for them (:mod:`.autoplay`)."""
    account_bot: bool = False
    """The person seat is held by a bot account (``docs/bot-protocol.md``)."""

    def public(self) -> dict[str, Any]:
        """The seat as the clients see it."""
        return {
            "seat": self.index,
            "kind": self.kind,
            "username": self.username,
            "level": self.level,
            "connected": self.kind == Kind.BOT or bool(self.conns),
            "bot_control": self.kind == Kind.BOT or self.bot_control,
            "auto": self.auto,
            "left": self.left,
            "bot": self.kind == Kind.BOT or self.account_bot,
        }


@dataclass
class Stream:
    """A seat's (or the spectators') versioned updates."""

    version: int = 0
    history: deque[tuple[int, str]] = field(default_factory=deque)


class Room:
    """A table: its seats, its game session and the actor task that runs them."""

    def __init__(
        self,
        *,
        table_id: int,
        game: str,
        preset: str,
        rules: dict[str, Any] | None = None,
        rules_in_force: dict[str, Any] | None = None,
        stake: int,
        private: bool,
        invite: str,
        seats: list[Seat],
        config: ServerConfig,
        engine: Engine,
        seed: int | None = None,
        on_close: Callable[[Room], None] | None = None,
        worth: dict[str, Any] | None = None,
        fair: bool = False,
    ) -> None:
        self.table_id = table_id
        self.game = game
        self.preset = preset
        self.rules = rules or {}
        """The options changed from the preset (validated when the table was made)."""
        self.rules_in_force = rules_in_force or {}
        self.stake = stake
        self.worth = worth or {"point": stake, "units": {}}
        """What a point and the game's other units are worth at this table, and the most
        one game can move (:func:`madang.server.stakes.worth`)."""
        self.private = private
        self.invite = invite
        self.seats = seats
        self.config = config
        self.engine = engine
        self.seed = seed if seed is not None else secrets.randbits(64)
        self.rng = random.Random(self.seed ^ 0x5EED)
        self.fair_deals = fair and spec(game).fair_deal is not None
        """Whether the games are dealt verifiably (``docs/fairness.md``): a secret seed
        per game, committed to before the deal, mixed with the seats' entropy. False for
        a seeded table (``deal_seed``), whose deals follow from :attr:`seed`, and for a
        game that cannot deal from a key yet (no ``GameSpec.fair_deal``: 고스톱)."""
        self.fair: FairDeal | None = None
        """The verifiable deal of the current (or just finished) game."""
        self.fair_next: FairDeal | None = None
        """The next game's: committed to and collecting entropy until it is dealt."""
        self.first_pick: FirstPickPhase | None = None
        """선 뽑기 before the first verifiable deal (:mod:`.first_dealer`), while it runs."""
        self.on_close = on_close
        self.status: Status = Status.WAITING
        self.session: Session | None = None
        self.game_id: int | None = None
        self.moves_stored = 0
        """Moves of the current game in the journal (the next one's number)."""
        self.games_played = 0
        self.streams: dict[int, Stream] = {k: Stream() for k in (*range(len(seats)), SPECTATORS)}
        self.spectators: set[Conn] = set()
        self.asked: dict[int, tuple[float, float]] = {}
        self.ready: set[int] = set()
        self.next_deadline = 0.0
        self.last_result: dict[str, Any] | None = None
        self.queue: asyncio.Queue[tuple[Message, asyncio.Future[Any] | None]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0
        self.closing = False
        self.offer_until: float | None = None
        """While a move is offered for claims (``Session.offering``): when the pause ends
        at the latest (sooner when every person asked has answered)."""
        self.offer_from = 0.0
        """When the offer began."""
        self.offer_min = 0.0
        """When its uniform pause (``claim_seconds``) ends: it is never over sooner."""
        self.offer_people = False
        """Whether its window asked a person who decides (the pause waits for them)."""
        self.pauses = ClaimPauses(config, random.Random(self.seed ^ 0xDEC0))
        """The decoy pauses of offers that ask no person (``docs/server.md``, Claims)."""
        self.deferred: list[Any] = []
        """The events of the offer's pause that the table sees when it ends."""
        self.held_moves = 0
        """Answers to the open claim window, counted in the metrics when its pause ends."""
        self.held_timings: list[float] = []
        """Their times (``madang_move_seconds``), observed then too."""
        self.on_change: Callable[[Room], None] | None = None
        """Called after each message the room handled (a cluster's lobby entry)."""
        self.on_lost: Callable[[Room], None] | None = None
        """Called when the room stopped because another process wrote its game (the
        journal refused a move number already stored): the table is someone else's."""

    # ------------------------------------------------------------------ outside API

    def restore(
        self,
        session: Session | None,
        *,
        status: Status,
        game_id: int | None,
        moves: int,
        games_played: int,
        last_result: dict[str, Any] | None,
        offering: bool,
        fair: FairDeal | None = None,
    ) -> None:
        """Set up a table rebuilt after a restart (:mod:`madang.server.resume`), before
        :meth:`start`: its session replayed from the journal, the people's seats waiting
        for them to reconnect (the grace runs from now), the timers of the seats asked
        fresh, an offer's pause begun again. The streams start at the clock in
        milliseconds, above every version the table's earlier life sent, so a client's
        ``hello`` from before gets a snapshot. ``fair``: the last game's verifiable deal
        (its seed from the game's row); a table between games commits to a fresh seed
        for the next."""
        self.session = session
        self.fair = fair
        self.status = status
        self.game_id = game_id
        self.moves_stored = moves
        self.games_played = games_played
        self.last_result = last_result
        base = int(time.time() * 1000)
        for stream in self.streams.values():
            stream.version = base
        now = time.monotonic()
        for s in self.seats:
            if s.kind == Kind.HUMAN and s.user_id is not None:
                s.disconnected_at = now
                s.bot_control = s.left
        if status == Status.PLAYING and session is not None:
            if offering:
                self._open_offer(now)
            self._ask(None)
        elif status == Status.BETWEEN:
            self.next_deadline = now + self.config.next_game_seconds
            if self.last_result is not None:
                self.last_result["next_deadline"] = self._epoch_ms(self.next_deadline)
            if session is not None:
                self._commit_next(session.game_no + 1)

    def start(self) -> None:
        """Start the actor task."""
        self.task = asyncio.get_running_loop().create_task(self.run(), name=f"room-{self.table_id}")

    def submit(self, msg: Message) -> None:
        """Queue a message for the actor."""
        self.queue.put_nowait((msg, None))

    async def call(self, msg: Question) -> Any:
        """Queue a message and wait for the actor's answer (a WireError is raised)."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((msg, fut))
        return await fut

    def summary(self, *, with_invite: bool = False) -> dict[str, Any]:
        """The table as the lobby shows it."""
        out: dict[str, Any] = {
            "id": self.table_id,
            "game": self.game,
            "preset": self.preset,
            "rules": self.rules,
            "rules_in_force": self.rules_in_force,
            "stake": self.stake,
            "entry": MoneyRules.of(self.config).entry(self.stake),
            "worth": self.worth,
            "private": self.private,
            "status": self.status,
            # a waiting table whose seats are drawing cards for the first 선 (the lobby
            # says so instead of "waiting": its seats are taken and a game is coming)
            "picking": self.status == Status.WAITING and self.first_pick is not None,
            "seats": [s.public() for s in self.seats],
            "spectators": len(self.spectators),
            "games_played": self.games_played,
        }
        if with_invite:
            out["invite"] = self.invite
        return out

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat held by ``user_id`` at this table (a person seat), or None."""
        if user_id is None:
            return None
        for s in self.seats:
            if s.kind == Kind.HUMAN and s.user_id == user_id:
                return s.index
        return None

    def sits(self, user_id: int) -> bool:
        """Whether ``user_id`` holds a seat here and has not left it."""
        seat = self.seat_of(user_id)
        return seat is not None and not self.seats[seat].left

    # ------------------------------------------------------------------ the actor

    async def run(self) -> None:
        """Handle the queue until the table closes."""
        if self.status == Status.WAITING:
            await self._guard(self._before_first_deal())
            await self._guard(self._run_due())
        elif self.session is not None:  # rebuilt after a restart
            if self._playing() and self.session.over and self.offer_until is None:
                await self._guard(self._finish([]))  # its last move ended it, unsettled
            await self._guard(self._run_due())
        while not self.closing:
            if self.on_change is not None:
                self.on_change(self)
            msg = await self.queue.get()
            await self._guard(self._handle(msg))
            if not self.closing and self.status == Status.WAITING:
                await self._guard(self._before_first_deal())
            if not self.closing:
                await self._guard(self._run_due())
        self._cancel_timer()

    async def _guard(self, coro: Awaitable[None]) -> None:
        try:
            await coro
        except Exception:  # the actor must survive a bug in one message
            log.exception("room %s: error", self.table_id)

    async def _handle(self, item: tuple[Message, asyncio.Future[Any] | None]) -> None:
        msg, fut = item
        match msg:
            case Tick():
                return
            case Act(conn, version, action, ref):
                try:
                    await self._act(conn, version, action)
                except WireError as e:
                    conn.send(dumps(e.to_message(ref)))
            case Hello(conn, last_version):
                self._hello(conn, last_version)
            case Ready(conn):
                if conn.seat is None:
                    err = WireError("not_seated", "spectators need not be ready")
                    conn.send(dumps(err.to_message()))
                elif self.status != Status.BETWEEN:
                    conn.send(dumps(WireError("game_over", "no game to wait for").to_message()))
                else:
                    self.ready.add(conn.seat)
            case Entropy(conn, entropy):
                try:
                    self._entropy(conn, entropy)
                except WireError as e:
                    conn.send(dumps(e.to_message()))
            case AutoPlay(conn, on):
                try:
                    seat = None if conn.seat is None else self.seats[conn.seat]
                    if set_autoplay(seat, on, closed=self.closing):
                        self._send_seats()
                except WireError as e:
                    conn.send(dumps(e.to_message()))
            case Pick(conn, slot):
                try:
                    self._pick(conn, slot)
                except WireError as e:
                    conn.send(dumps(e.to_message()))
            case Chat(conn, said, ref):
                self._chat(conn, said, ref)
            case Drop(conn):
                self._drop(conn)
            case Join() | Leave() | Attach():
                assert fut is not None
                try:
                    res = await self._answer(msg)
                except WireError as e:
                    if not fut.done():
                        fut.set_exception(e)
                    return
                if not fut.done():
                    fut.set_result(res)

    async def _answer(self, msg: Question) -> Any:
        match msg:
            case Join(user, seat, invite, stake):
                return await self._join(user, seat, invite, stake)
            case Leave(user):
                return await self._leave(user)
            case Attach(conn):
                return self._attach(conn)

    # ------------------------------------------------------------------ seats

    def _all_seated(self) -> bool:
        return all(s.kind == Kind.BOT or s.user_id is not None for s in self.seats)

    def _people(self) -> list[Seat]:
        """The person seats held by someone who has not left."""
        return [s for s in self.seats if s.kind == Kind.HUMAN and s.user_id and not s.left]

    def _everyone_here(self) -> bool:
        """Whether every person seated (and not gone) has a connection: nobody is dealt
        a game while away, for a bot to play it with their money."""
        return all(s.conns for s in self._people())

    async def _before_first_deal(self) -> None:
        """A waiting table: deal once every seat is taken and every person is here; a
        person with no connection for ``seat_hold_seconds`` (``grace_seconds`` unless
        set; a page reload is shorter) loses the seat; with no person left the table
        closes. Nobody pays for a game they were not at (``docs/server.md``,
        Disconnection)."""
        now = time.monotonic()
        hold = self.config.seat_hold_seconds
        if hold is None:
            hold = self.config.grace_seconds
        gone = [
            s
            for s in self._people()
            if not s.conns and s.disconnected_at is not None and now >= s.disconnected_at + hold
        ]
        for s in gone:
            self._free_seat(s)
        if gone:
            self._send_seats()
            if not self._people():
                await self._close("nobody is seated")
                return
            await self._save_table()
        if self.first_pick is not None and not self._all_seated():
            self._cancel_first_pick()
        if self.session is None:
            self._commit_next(1)
        if self._all_seated() and self._everyone_here():
            wait = self._entropy_due()
            if wait is None:
                wait = self._first_pick_due()
            if wait is None:
                await self._start_game()
            else:
                self._schedule(wait)
            return
        due = [
            s.disconnected_at + hold
            for s in self._people()
            if not s.conns and s.disconnected_at is not None
        ]
        if due:
            self._schedule(min(due))

    def _free_seat(self, s: Seat) -> None:
        """Before the first deal: the seat's person is gone, the seat is free again (their
        connections watch on as spectators)."""
        s.user_id = None
        s.username = None
        s.disconnected_at = None
        s.account_bot = False
        for c in list(s.conns):
            c.seat = None
            self.spectators.add(c)
        s.conns.clear()

    async def _join(
        self, user: dict[str, Any], seat: int | None, invite: str | None, stake: object
    ) -> int:
        mine = self.seat_of(user["id"])
        if mine is not None:
            return mine
        if self.private and invite != self.invite:
            raise WireError("forbidden", "this table is private: you need its invite link")
        if self.status == Status.CLOSED or self.closing:
            raise WireError("not_found", "the table is closed")
        if type(stake) is not int or stake != self.stake:
            # a seat is taken only by someone who was shown the stake and accepted it
            raise WireError(
                "stake_unconfirmed", f"this table plays for {self.stake} a point: confirm it"
            )
        free = [s for s in self.seats if s.kind == Kind.HUMAN and s.user_id is None]
        if seat is not None:
            if not 0 <= seat < len(self.seats):
                raise WireError("bad_request", f"seat must be 0-{len(self.seats) - 1}")
            target = self.seats[seat]
            if target not in free:
                raise WireError("seat_taken", f"seat {seat} is not free")
        elif not free:
            raise WireError("table_full", "no free seat at this table")
        else:
            target = free[0]
        # the seat is stored before it is taken, under the cap on the person's open
        # tables (counted in the database, so across processes and racing requests)
        taken = {**self._seat_rows()[target.index], "user_id": user["id"]}
        if user.get("bot"):
            taken["bot"] = True
        try:
            await self._save_table({target.index: taken}, seating=user["id"])
        except store.TooManyTables:
            raise too_many_tables(self.config.tables_per_user) from None
        target.user_id = user["id"]
        target.username = user["username"]
        target.account_bot = bool(user.get("bot"))
        target.disconnected_at = time.monotonic()
        self._send_seats()
        return target.index  # the deal waits for them to connect (_before_first_deal)

    async def _leave(self, user: dict[str, Any]) -> bool:
        idx = self.seat_of(user["id"])
        if idx is None:
            raise WireError("not_seated", "you hold no seat at this table")
        s = self.seats[idx]
        if self.status == Status.WAITING:
            self._free_seat(s)
            if not self._people():
                await self._close("nobody is seated")
                return True
        else:
            s.left = True
            s.bot_control = True
            if self.status == Status.BETWEEN:
                await self._close("a player left")
                return True
        self._send_seats()
        await self._save_table()
        return True

    def _attach(self, conn: Conn) -> bool:
        """A new connection: to its seat's stream, or to the spectators."""
        if conn.seat is None:
            self.spectators.add(conn)
            return True
        s = self.seats[conn.seat]
        s.conns.add(conn)
        if s.disconnected_at is not None or s.bot_control:
            s.disconnected_at = None
            if not s.left:
                s.bot_control = False
            self._send_seats()
        return True

    def _drop(self, conn: Conn) -> None:
        if conn.seat is None:
            self.spectators.discard(conn)
            return
        s = self.seats[conn.seat]
        s.conns.discard(conn)
        if not s.conns:
            s.disconnected_at = time.monotonic()
            self._send_seats()

    def _chat(self, conn: Conn, item: ChatItem, ref: int | None) -> None:
        """Say ``item`` from the connection's seat to every connection of the table (not
        versioned, not kept: ``madang.server.chat``); spectators watch, they do not talk."""
        if conn.seat is None:
            conn.send(dumps(WireError("not_seated", "spectators cannot chat").to_message(ref)))
            return
        text = dumps(item.message(conn.seat))
        for c in self._all_conns():
            if c.hello:
                c.send(text)

    def _send_seats(self) -> None:
        text = dumps({"type": "seats", "seats": [s.public() for s in self.seats]})
        for c in self._all_conns():
            c.send(text)

    def _all_conns(self) -> list[Conn]:
        out = list(self.spectators)
        for s in self.seats:
            out.extend(s.conns)
        return out

    def _seat_rows(self) -> list[dict[str, Any]]:
        """The seats as the table's row stores them."""
        rows: list[dict[str, Any]] = []
        for s in self.seats:
            row = {"kind": s.kind, "user_id": s.user_id, "level": s.level, "left": s.left}
            if s.account_bot:
                row["bot"] = True
            rows.append(row)
        return rows

    async def _save_table(
        self, changed: dict[int, dict[str, Any]] | None = None, *, seating: int | None = None
    ) -> None:
        """Store the table's status and seats (``changed``: some seats' rows instead of
        what they hold now). ``seating``: a person taking a seat by this write, refused
        (:class:`~madang.server.store.TooManyTables`, nothing written) when they sit at
        ``tables_per_user`` open tables already."""
        seats = self._seat_rows()
        for i, row in (changed or {}).items():
            seats[i] = row
        await run_in_db(
            self.engine,
            store.update_table,
            self.table_id,
            self.status,
            seats,
            seating=seating,
            tables_per_user=None if seating is None else self.config.tables_per_user,
            stake=self.stake,
            money_rules=None if seating is None else MoneyRules.of(self.config),
        )

    # ------------------------------------------------------------------ games

    async def _start_game(self) -> None:
        # every deal needs each person's entry minimum free and their self-care limits
        # unreached: else the table closes, its last game finished (docs/server.md, Money)
        people = [(s.user_id, s.username or "") for s in self._people() if s.user_id]
        refused = await run_in_db(
            self.engine, first_refusal, people, self.stake, MoneyRules.of(self.config),
            self.table_id,
        )  # fmt: skip
        if refused is not None:
            name, why = refused
            await self._close(f"{name}: {why}", code=why.code)
            return
        if self.session is None:
            self.session = make_session(self.game, self.preset, self.seed, self.rules)
        else:
            self.session.next_game()
        sess = self.session
        self.fair, self.fair_next = self.fair_next, None
        if self.fair is not None:
            if self.fair.binding.game_no != sess.game_no:  # pragma: no cover - a bug
                raise RuntimeError(f"committed to game {self.fair.binding.game_no}, "
                                   f"dealing {sess.game_no}")  # fmt: skip
            picks, self.first_pick = (self.first_pick.rounds if self.first_pick else None), None
            self.fair.first_picks = picks  # 선 뽑기's picks enter the record
            sess.redeal(self.fair.key(), picks)
        handed_back = False
        for s in self.seats:
            for c in s.conns:
                c.new_game()
            if s.bot_control and s.conns and not s.left and not self._autopiloted(s):
                s.bot_control = False  # a bot account back from its fault limit
                handed_back = True
        if handed_back:
            self._send_seats()
        self.status = Status.PLAYING
        self.ready.clear()
        self.last_result = None
        players = [s.user_id for s in self.seats]
        self.game_id = await run_in_db(
            self.engine,
            store.start_game,
            table_id=self.table_id,
            game=self.game,
            preset=self.preset,
            stake=self.stake,
            game_no=sess.game_no,
            players=players,
            record=self._record(),
            fair_seed=None if self.fair is None else self.fair.seed.hex(),
        )
        self.moves_stored = 0
        self.asked.clear()
        self._ask(None)
        self._broadcast(sess.start_events(), new_game=True)
        if sess.over:  # a redeal or an instant win at the deal
            await self._finish([])

    # ------------------------------------------------------------------ verifiable deals

    def _commit_next(self, game_no: int) -> None:
        """Draw the secret seed of game ``game_no`` (unless drawn) and send everybody its
        commitment (``fair_commit``) before anything of that game is dealt; the seats'
        entropy is taken from now until the deal (``docs/fairness.md``)."""
        if not self.fair_deals or self.fair_next is not None:
            return
        # the rules as the game's record will hold them (the digest a verifier reads: a
        # 고스톱 record keeps ``players`` beside its rules, not among them)
        trial = spec(self.game).session(self.preset, 0, self.rules)
        rules = trial.record().get("rules", {})
        self.fair_next = FairDeal.draw(
            self.game, self.table_id, game_no, rules, seats=len(self.seats)
        )
        text = dumps(self.fair_next.commit_message())
        for c in self._all_conns():
            if c.hello:
                c.send(text)

    def _entropy(self, conn: Conn, entropy: str) -> None:
        """A seat's entropy string for the deal committed to: once per game, only before
        the deal (WireError otherwise: nothing changes)."""
        if conn.seat is None:
            raise WireError("not_seated", "only the seats add entropy to a deal")
        deal = self.fair_next
        if deal is None or self.first_pick is not None:  # 선 뽑기 laid its cards out
            raise WireError("entropy_closed", "no deal is waiting for entropy now")
        deal.add(conn.seat, entropy)
        ack = dumps({"type": "fair_ack", "game_no": deal.binding.game_no, "entropy": entropy})
        for c in self.seats[conn.seat].conns:
            c.send(ack)

    def _entropy_due(self) -> float | None:
        """Before a verifiable deal that could be made now: None when it may be made —
        every person seated sent their entropy, or the wait (``entropy_seconds``, from
        the first time asked) is over — else when the wait ends."""
        deal = self.fair_next
        if deal is None or all(deal.entropy[s.index] is not None for s in self._people()):
            return None
        now = time.monotonic()
        if deal.window_until is None:
            deal.window_until = now + self.config.entropy_seconds
        return deal.window_until if now < deal.window_until else None

    # ------------------------------------------------------------------ 선 뽑기

    def _first_pick_due(self) -> float | None:
        """Before a verifiable first deal of a game with 선 뽑기 and a person seated: run
        the picks (:class:`.first_dealer.FirstPickPhase`, its cards laid out from the
        deal key, so no entropy is taken any more); None once 선 is decided and shown
        (or when there is none to run), else when to look again."""
        deal = self.fair_next
        game = spec(self.game)
        if deal is None or game.first_pick is None or deal.binding.game_no != 1:
            return None
        if not self._people():
            return None  # bots only: the first 선 comes from the key (docs/fairness.md)
        now = time.monotonic()
        cfg = self.config
        changed = False
        if self.first_pick is None:
            self.first_pick = FirstPickPhase(
                game,
                game.rules(self.preset, self.rules),
                deal.key(),
                seats=len(self.seats),
                now=now,
                seconds=cfg.first_pick_seconds,
                reveal_seconds=cfg.first_pick_reveal_seconds,
            )
            changed = True
        ph = self.first_pick
        bots = {s.index for s in self.seats if s.kind == Kind.BOT or s.left or s.auto}
        if ph.advance(now, bots, cfg.bot_delay) or changed:
            self._send_first_pick(now)
        if ph.done:
            at = ph.deal_at()
            return at if at is not None and now < at else None
        return ph.due(bots, cfg.bot_delay)

    def _pick(self, conn: Conn, slot: int) -> None:
        """A seat picks a face-down card (WireError otherwise: nothing changes)."""
        if conn.seat is None:
            raise WireError("not_seated", "only the seats pick a card for 선")
        if self.first_pick is None:
            raise WireError("pick_closed", "no cards are laid out for 선 now")
        self.first_pick.pick(conn.seat, slot)
        self._send_first_pick(time.monotonic())

    def _send_first_pick(self, now: float) -> None:
        assert self.first_pick is not None
        text = dumps(self.first_pick.public(now))
        for c in self._all_conns():
            if c.hello:
                c.send(text)

    def _cancel_first_pick(self) -> None:
        """A seat was given up during 선 뽑기: its layout is void (the key it came from is
        revealed with ``fair_reveal``), the next game 1 commits to a fresh seed."""
        self.first_pick = None
        deal, self.fair_next = self.fair_next, None
        for c in self._all_conns():
            if deal is not None:
                c.send(dumps({"type": "fair_reveal", "fair": deal.fairness(reveal=True)}))
            c.send(dumps({"type": "first_pick", "cancelled": True}))

    def _record(self, *, reveal: bool = False) -> dict[str, Any]:
        """The current game's record, with its ``fairness`` field for a verifiable deal
        (the seed only with ``reveal``: the game is over)."""
        assert self.session is not None
        record = self.session.record()
        if self.fair is not None:
            record["fairness"] = self.fair.fairness(reveal=reveal)
        return record

    def _fair_public(self) -> dict[str, Any] | None:
        """A snapshot's ``fair``: the commitment of the deal to come, or the current
        game's commitment and the strings it mixed in (never a seed)."""
        if self.fair_next is not None:
            return self.fair_next.public(dealt=False)
        if self.fair is not None and self.status == Status.PLAYING:
            return self.fair.public(dealt=True)
        return None

    def _askable(self) -> list[int]:
        """The seats that may answer now: during an offer only those asked to claim."""
        assert self.session is not None
        if self.offer_until is not None:
            return self._pacing().window()
        return self.session.pending()

    def _pacing(self) -> Pacing:
        """The session's offer hook (:class:`~madang.core.game.Pacing`): there is an offer
        only in a game that has one."""
        assert self.session is not None
        pace = pacing(self.session)
        assert pace is not None, "an offer in a game that never offers"
        return pace

    def _ask(self, actor: int | None) -> None:
        """Start the timers of the seats newly asked (and of the seat that just acted).

        During an offer the asked seats have until its end, whatever ``turn_seconds``.
        """
        now = time.monotonic()
        pending = self._askable()
        until = self.offer_until
        asked = {}
        for s in pending:
            if s == actor or s not in self.asked:
                asked[s] = (now, until if until is not None else now + self.config.turn_seconds)
            else:
                asked[s] = self.asked[s]
        self.asked = asked

    async def _act(self, conn: Conn, version: int, action: str) -> None:
        seat = conn.seat
        if seat is None:
            raise WireError("not_seated", "spectators cannot act")
        if self.status != Status.PLAYING or self.session is None:
            raise WireError("game_over", "no game is running at this table")
        current = self.streams[seat].version
        if version != current:
            raise WireError(
                "stale_version", f"you acted on version {version}, you are at {current}"
            )
        if seat not in self._askable():
            raise WireError("illegal_action", "you have nothing to answer now")
        try:
            move = self.session.string_to_action(action)  # the wire's notation: an id
        except MadangError as e:
            raise wire_error(e) from None
        started = time.perf_counter()
        answering = self.offer_until is not None  # a claim window's answer
        await self._apply(seat, move)
        if answering and self.offer_until is not None:
            self.held_timings.append(time.perf_counter() - started)
        else:
            MOVE_SECONDS.observe(time.perf_counter() - started)

    async def _apply(self, seat: int, move: int, *, timed_out: bool = False) -> None:
        """Play ``seat``'s move (an action id); ``timed_out``: the default answer when its
        time ran out (its own stream's update says so in ``timeout``)."""
        sess = self.session
        assert sess is not None
        offering = self.offer_until is not None
        try:
            events = sess.step(seat, move)
        except MadangError as e:
            raise wire_error(e) from None
        await self._journal(seat, sess.action_to_string(move), timed_out)
        pace = pacing(sess)
        if pace is not None and (offering or pace.offering):
            # A move offered for claims, or an answer to it: the table sees the offer
            # at once and what follows when the pause ends (docs/server.md, Claims).
            if not offering:
                self._open_offer(time.monotonic())
                self.asked.clear()
            now, later = pace.split_offer(events)
            self.deferred.extend(later)
            self._ask(seat)
            self._broadcast(now, timeout=seat if timed_out else None)
            return
        if sess.over:
            await self._finish(events, timeout=seat if timed_out else None)
            return
        self._ask(seat)
        self._broadcast(events, timeout=seat if timed_out else None)

    async def _journal(self, seat: int, move: str, timed_out: bool) -> None:
        """Store the accepted move as the game's next before anything shows it (the
        journal, ``docs/server.md``); if it cannot be stored the table closes unannounced."""
        assert self.game_id is not None
        try:
            await journal_of(self.engine).append(
                {
                    "game_id": self.game_id,
                    "seq": self.moves_stored,
                    "seat": seat,
                    "move": move,
                    "timed_out": timed_out,
                }
            )
        except IntegrityError as e:
            # Move number taken: another process holds this table (a lost lease). Stop
            # without writing anything more; the table is rebuilt from what was stored.
            log.warning("table %s: move %s of game %s was stored by another process (%s)",
                        self.table_id, self.moves_stored, self.game_id, e.orig)  # fmt: skip
            self._abandon()
            raise WireError("busy", "the table moved to another server: reconnect") from None
        except Exception:
            log.exception("table %s: move %s of game %s not stored", self.table_id,
                          self.moves_stored, self.game_id)  # fmt: skip
            await self._close("the table could not save its game")
            raise WireError("internal", "the move could not be saved") from None
        self.moves_stored += 1
        if self.offer_until is not None:  # a claim window's answer: counted when it ends
            self.held_moves += 1
        else:
            MOVES.inc()

    def _open_offer(self, now: float) -> None:
        """Begin the pause after an offered move (``docs/server.md``, Claims): until every
        person asked has answered (within ``claim_decision_seconds``), else the uniform
        pause or a decoy; never shorter than the uniform pause."""
        assert self.session is not None
        cfg = self.config
        self.offer_from = now
        self.offer_min = now + cfg.claim_seconds
        self.offer_people = any(
            not self._controller_is_bot(self.seats[s], now) for s in self._pacing().window()
        )
        if self.offer_people:
            self.offer_until = now + max(cfg.claim_seconds, cfg.claim_decision_seconds)
            return
        people = sum(s.kind == Kind.HUMAN and not s.left for s in self.seats)
        decoy = self.pauses.decoy(people=people)
        self.offer_until = self.offer_min if decoy is None else now + decoy

    def _offer_answered(self, now: float) -> None:
        """Every person asked has answered: the pause ends now, or with the uniform one."""
        self.offer_people = False
        self.offer_until = max(self.offer_min, now)
        self.pauses.asked(self.offer_until - self.offer_from)

    async def _end_offer(self) -> None:
        """The pause after an offered move is over: show what followed it."""
        sess = self.session
        assert sess is not None
        events, self.deferred = self.deferred, []
        self.offer_until = None
        self._count_held()
        self._pacing().end_offer()
        if sess.over:
            await self._finish(events)
            return
        self.asked.clear()
        self._ask(None)
        self._broadcast(events, offer_over=True)

    def _count_held(self) -> None:
        """The pause is over: count the answers its window got (the metrics never show
        a window while it is open; ``docs/deploy.md``, Health and metrics)."""
        if self.held_moves:
            MOVES.inc(self.held_moves)
        for seconds in self.held_timings:
            MOVE_SECONDS.observe(seconds)
        self.held_moves = 0
        self.held_timings.clear()

    async def _finish(self, events: list[Any], *, timeout: int | None = None) -> None:
        """Settle the finished game (committed first), then tell everybody."""
        sess = self.session
        assert sess is not None and self.game_id is not None
        game_id = self.game_id
        players = [s.user_id or 0 for s in self.seats]
        outcome = sess.outcome()
        payments = sess.payments()
        record = self._record(reveal=True)
        scores = sess.match_scores()
        placement = sess.placement_scores()
        try:
            result = await run_in_db(
                self.engine,
                store.finish_game,
                game_id=game_id,
                game=self.game,
                stake=self.stake,
                players=players,
                outcome=outcome,
                payments=payments,
                record=record,
                match_scores=scores,
                placement=placement,
            )
        except store.AlreadySettled as e:  # settled before a restart: not paid twice
            log.warning("table %s: game %s was settled already", self.table_id, game_id)
            result = dict(e.result or {})
        except Exception:
            # Not written (a database fault, an amount past the columns): nobody is
            # paid, the game is aborted and the table closes — never left playing.
            log.exception("table %s: game %s could not be settled", self.table_id, game_id)
            await self._abort_unsettled(game_id)
            return
        if scores is None and not any(s.left for s in self.seats):
            # who could not be dealt the next game now: the settlement says so (and
            # offers them no 다음 판) rather than the table closing at the next deal
            result["short"] = await self._shortfalls()
        self.games_played += 1
        result["game_id"] = self.game_id
        result["match_over"] = scores is not None
        if self.fair is not None:  # the seed revealed: anyone can deal the game again
            result["fair"] = self.fair.fairness(reveal=True)
        self.asked.clear()
        leaving = any(s.left for s in self.seats)
        self.status = Status.BETWEEN
        self.next_deadline = time.monotonic() + self.config.next_game_seconds
        result["next_deadline"] = None if leaving else self._epoch_ms(self.next_deadline)
        self.last_result = result
        self._broadcast(events, result=result, timeout=timeout)
        if leaving:
            await self._close("a player left")
        else:
            self._commit_next(sess.game_no + 1)

    async def _shortfalls(self) -> list[dict[str, Any]]:
        """The people who could not be dealt the next game now, by seat, with the wire
        error of why (``not_enough_money``, a self-care limit); [] when it cannot be
        read (the deal checks again)."""
        people = [(s.index, s.user_id) for s in self._people() if s.user_id]
        try:
            short = await run_in_db(
                self.engine, shortfalls, people, self.stake, MoneyRules.of(self.config),
                self.table_id,
            )  # fmt: skip
        except Exception:
            log.exception("table %s: the next game's money could not be read", self.table_id)
            return []
        return [{"seat": seat, **why.to_dict()} for seat, why in short]

    async def _abort_unsettled(self, game_id: int) -> None:
        """A finished game whose settlement could not be written: store it ``aborted``
        (no payment) with the table closed, tell the players and close. If even that
        cannot be written (the database is down) the table closes here all the same,
        and the next start settles or aborts the game once more."""
        self.asked.clear()
        try:
            await run_in_db(self.engine, store.abort_table, self.table_id, SETTLEMENT_FAILED)
            log.warning("table %s: game %s aborted, nobody paid; table closed",
                        self.table_id, game_id)  # fmt: skip
        except Exception:
            log.exception("table %s: game %s could not be marked aborted either",
                          self.table_id, game_id)  # fmt: skip
        await self._close(
            "the game could not be settled: it is aborted and nobody pays",
            code="settlement_failed",
        )

    async def _close(self, reason: str, *, code: str | None = None) -> None:
        """Close the table: every connection is told why (``code``: a wire code when the
        table closes on a failure) and closed; the table is stored closed and forgotten,
        in that order even when the database cannot be written. Every commitment not yet
        revealed is (``fair_reveal``): a game cut short, a deal never made."""
        unrevealed = [self.fair_next]
        if self.status == Status.PLAYING:
            unrevealed.append(self.fair)
        self.fair_next = None
        for d in unrevealed:
            if d is not None:
                reveal = dumps({"type": "fair_reveal", "fair": d.fairness(reveal=True)})
                for c in self._all_conns():
                    c.send(reveal)
        self.status = Status.CLOSED
        self.closing = True
        self._cancel_timer()
        msg: dict[str, Any] = {"type": "closed", "reason": reason}
        if code is not None:
            msg["code"] = code
        text = dumps(msg)
        for c in self._all_conns():
            c.send(text)
            c.close()
        try:
            await self._save_table()
        except Exception:
            log.exception("table %s: its closing could not be stored", self.table_id)
        if self.on_close is not None:
            self.on_close(self)

    # ------------------------------------------------------------------ timers, bots

    @staticmethod
    def _autopiloted(s: Seat) -> bool:
        """Whether the seat's connections all ask its bot to play (a bot account past
        its fault limit)."""
        return bool(s.conns) and all(c.autopilot for c in s.conns)

    def _controller_is_bot(self, s: Seat, now: float) -> bool:
        if s.kind == Kind.BOT or s.left or s.auto or self._autopiloted(s):
            return True
        return (
            s.disconnected_at is not None and now >= s.disconnected_at + self.config.grace_seconds
        )

    def _due(self, seat: int, now: float) -> float:
        s = self.seats[seat]
        asked_at, deadline = self.asked[seat]
        if s.kind == Kind.BOT or s.left or s.auto or self._autopiloted(s):
            if self.offer_until is not None:
                return asked_at  # a claim answer: held till the pause ends, no delay needed
            return min(asked_at + self.config.bot_delay, deadline)
        if s.disconnected_at is not None:
            return min(deadline, s.disconnected_at + self.config.grace_seconds)
        assert self.session is not None
        if self.offer_until is None and self.session.auto_move(seat) is not None:
            return min(asked_at + self.config.bot_delay, deadline)  # a frozen hand plays
        return deadline

    def _playing(self) -> bool:
        return self.status == Status.PLAYING

    async def _run_due(self) -> None:
        steps = 0
        while not self.closing:
            now = time.monotonic()
            if self.status == Status.BETWEEN:
                await self._between(now)
                if not self._playing():  # the next game began, or the table closed
                    return
                continue
            if self.status != Status.PLAYING or self.session is None:
                return
            best: tuple[float, int] | None = None
            for seat in self._askable():
                if seat not in self.asked:
                    continue
                d = self._due(seat, now)
                if best is None or d < best[0]:
                    best = (d, seat)
            if self.offer_until is not None and best is None:
                if self.offer_people:
                    self._offer_answered(now)
                if now < self.offer_until:
                    self._schedule(self.offer_until)
                    return
                await self._end_offer()
                continue
            if best is None:
                return
            if best[0] > now:
                self._schedule(best[0])
                return
            seat = best[1]
            s = self.seats[seat]
            if self._controller_is_bot(s, now):
                # a claim question is private: taking over for it must not show
                if (
                    s.kind == Kind.HUMAN
                    and not (s.bot_control or s.auto)
                    and self.offer_until is None
                ):
                    s.bot_control = True
                    self._send_seats()
                move = await self._bot_move(seat)
                await self._apply(seat, move)
            elif (auto := self.session.auto_move(seat)) is not None:
                await self._apply(seat, auto)  # a declared hand discards what it drew
            else:
                await self._apply(seat, self._timeout_move(seat), timed_out=True)
            steps += 1
            if steps % 64 == 0:
                await asyncio.sleep(0)  # let other tables run

    def _seat_bot(self, seat: int) -> BotPlayer:
        """The bot that plays ``seat``: its level for a bot seat, ``normal`` for a
        person's (it answers when they are away or out of time), or the strongest level
        the game has below it (고스톱's ``easy`` for now)."""
        s = self.seats[seat]
        if s.bot is None:
            level = s.level or bot_level_for(self.game, "normal")
            s.bot = BotPlayer(self.game, level, self.config.bot_budget_s)
        return s.bot

    async def _bot_move(self, seat: int) -> int:
        assert self.session is not None
        bot = self._seat_bot(seat)
        if bot.level == "hard":
            return await asyncio.to_thread(self.session.bot_move, seat, bot, self.rng)
        return self.session.bot_move(seat, bot, self.rng)

    def _timeout_move(self, seat: int) -> int:
        """A person's time ran out: the move the seat's bot makes for it as the game lets
        a timeout choose (:meth:`Session.timeout_move`); the default answer should the
        bot fail, so that the table plays on."""
        assert self.session is not None
        try:
            return self.session.timeout_move(seat, self._seat_bot(seat), self.rng)
        except Exception:
            log.exception("table %s: no bot move for seat %s out of time; default answer",
                          self.table_id, seat)  # fmt: skip
            return self.session.default_move(seat)

    async def _between(self, now: float) -> None:
        # the next game is dealt only with every person here (none is dealt a game
        # while away): when all are ready, or at the deadline; else the table closes
        people = self._people()
        here = self._everyone_here()
        ready = all(s.index in self.ready for s in people)
        if people and here and (ready or now >= self.next_deadline):
            wait = self._entropy_due()
            if wait is None:
                await self._start_game()
            else:
                self._schedule(wait)
            return
        if now >= self.next_deadline:
            someone = any(s.conns for s in people)
            await self._close("a player did not come back" if someone else "nobody came back")
            return
        self._schedule(self.next_deadline)

    def _schedule(self, when: float) -> None:
        """Make sure the actor wakes up by ``when`` (monotonic seconds).

        A timer already set for that time or earlier is kept: its tick finds nothing
        due and sets the next one. So a table sets about one timer per turn time, not
        one per move.
        """
        if self._timer is not None and self._timer_at <= when:
            return
        self._cancel_timer()
        loop = asyncio.get_running_loop()
        self._timer_at = when
        self._timer = loop.call_later(max(0.0, when - time.monotonic()), self._tick)

    def _tick(self) -> None:
        self._timer = None
        self.submit(Tick())

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    # ------------------------------------------------------------------ streams

    @staticmethod
    def _epoch_ms(mono: float) -> int:
        return int((time.time() + (mono - time.monotonic())) * 1000)

    def _timers(self) -> list[dict[str, Any]]:
        if self.session is None or self.status != Status.PLAYING:
            return []
        now = time.monotonic()
        out = []
        if self.offer_until is not None:
            return []  # an offer's questions are private
        for seat in self.session.public_pending():
            if seat in self.asked:
                dl = self.asked[seat][1]
                out.append(
                    {
                        "seat": seat,
                        "deadline": self._epoch_ms(dl),
                        "remaining_ms": max(0, int((dl - now) * 1000)),
                    }
                )
        return out

    def _prompt(self, seat: int | None) -> dict[str, Any] | None:
        sess = self.session
        if seat is None or sess is None or self.status != Status.PLAYING or seat not in self.asked:
            return None
        if seat not in self._askable():
            return None
        dl = self.asked[seat][1]
        return {
            "seat": seat,
            "question": sess.question(seat),
            "legal": [sess.action_to_string(a) for a in sess.legal(seat)],
            "deadline": self._epoch_ms(dl),
            "remaining_ms": max(0, int((dl - time.monotonic()) * 1000)),
        }

    def _conns_of(self, key: int) -> set[Conn]:
        return self.spectators if key == SPECTATORS else self.seats[key].conns

    def _view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees now, with the help a person reads beside it (only people's
        streams get views): during an offer, the offer itself unless it is asked."""
        sess = self.session
        assert sess is not None
        if self.offer_until is not None:
            pace = self._pacing()
            if seat is None or seat not in pace.window():
                offered: dict[str, Any] = pace.offered_view(seat)
                return offered
        shown: dict[str, Any] = sess.annotate(sess.view(seat), seat)  # any game's view
        return shown

    def _broadcast(
        self,
        events: list[Any],
        *,
        result: dict[str, Any] | None = None,
        new_game: bool = False,
        offer_over: bool = False,
        timeout: int | None = None,
    ) -> None:
        sess = self.session
        assert sess is not None
        timers = self._timers()
        for key, stream in self.streams.items():
            if key != SPECTATORS and self.seats[key].kind == Kind.BOT:
                continue
            seat = None if key == SPECTATORS else key
            conns = self._conns_of(key)
            if key == SPECTATORS and not conns:
                stream.version += 1
                stream.history.clear()
                continue
            evs = sess.version_events(events, seat)
            if not evs and result is None and not new_game and not offer_over:
                continue
            stream.version += 1
            msg: dict[str, Any] = {
                "type": "update",
                "version": stream.version,
                "game_no": sess.game_no,
                "events": evs,
                "view": self._view(seat),
                "prompt": self._prompt(seat),
                "timers": timers,
            }
            if result is not None:
                msg["result"] = result
            if new_game and self.fair is not None:  # the strings the deal mixed in
                msg["fair"] = self.fair.public(dealt=True)
            if timeout is not None and timeout == key:
                msg["timeout"] = timeout  # your time ran out: the default answer was played
            text = dumps(msg)
            stream.history.append((stream.version, text))
            if len(stream.history) > self.config.history:
                stream.history.popleft()
            for c in conns:
                if c.hello:
                    c.send(text)

    def _snapshot(self, key: int) -> dict[str, Any]:
        seat = None if key == SPECTATORS else key
        sess = self.session
        return {
            "type": "snapshot",
            "version": self.streams[key].version,
            "game_no": sess.game_no if sess else 0,
            "status": self.status,
            "view": self._view(seat) if sess else None,
            "prompt": self._prompt(seat),
            "timers": self._timers(),
            "seats": [s.public() for s in self.seats],
            "result": self.last_result if self.status == Status.BETWEEN else None,
            "fair": self._fair_public(),
            "first_pick": (
                None if self.first_pick is None else self.first_pick.public(time.monotonic())
            ),
        }

    def _hello(self, conn: Conn, last_version: int | None) -> None:
        key = SPECTATORS if conn.seat is None else conn.seat
        stream = self.streams[key]
        conn.send(
            dumps(
                {
                    "type": "welcome",
                    "table": self.summary(with_invite=conn.seat is not None),
                    "seat": conn.seat,
                    "you": conn.username,
                    "server_time": int(time.time() * 1000),
                    # the stream's version now: the updates up to it that follow are the
                    # past (a new tab replays them into its log), any later one is news
                    "version": stream.version,
                }
            )
        )
        conn.hello = True
        if last_version is not None and 0 <= last_version <= stream.version:
            missed = stream.version - last_version
            if missed == 0:
                return
            hist = stream.history
            if hist and hist[0][0] <= last_version + 1 and len(hist) >= missed:
                for v, text in hist:
                    if v > last_version:
                        conn.send(text)
                return
        conn.send(dumps(self._snapshot(key)))

    def _abandon(self) -> None:
        """Stop from inside the actor without touching the database: the connections
        close (their clients reconnect) and :attr:`on_lost` is told."""
        self.closing = True
        self._cancel_timer()
        for c in self._all_conns():
            c.close()
        if self.on_lost is not None:
            self.on_lost(self)

    async def shutdown(self) -> None:
        """Stop the actor (server shutdown): connections are closed, nothing is paid."""
        self.closing = True
        self._cancel_timer()
        for c in self._all_conns():
            c.close()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
