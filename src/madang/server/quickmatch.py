"""빠른 시작 (quick match): choose a game and a stake, and be seated.

A request waits in the queue of its game and stake. As soon as enough people wait to
fill a table (2 for 맞고, 4 for 마작) the oldest of them are seated together; when the
oldest request has waited ``quick_fill_seconds`` (3 s by default, as the portals'
"matched in under 3 s, the computer fills in"), the table is made with the people
waiting (up to its seats) and the computer (``quick_bot_level``) in every other seat.

Every table is rated, so a quick match is a rated room: the opponents are assigned, never
chosen. The request names no table, seat or person, the seats are drawn at random, and
every seat of the table made is taken (by the people matched or a bot), so nobody can
pick the table from the lobby to sit with someone. A person waits in one queue at a
time (``already_queued``) and may cancel until they are matched.

The queue lives in the process that took the request: in a cluster (``redis_url``) each
process matches the requests it serves, and a person whose request another process took
is seated with the computer instead of with them (``docs/server.md``, Quick match).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from madang.core.registry import spec as game_spec
from madang.server import store
from madang.server.deps import body, bot_levels, hub_of, need_user
from madang.server.games import games
from madang.server.games import seats as seats_of
from madang.server.room import Kind, Seat, too_many_tables
from madang.server.schemas import body as documented
from madang.server.stakes import check_table
from madang.server.wire import WireError

if TYPE_CHECKING:  # pragma: no cover
    from madang.server.deps import Hub

__all__ = ["QuickMatch", "Ticket", "router"]

QuickKey = tuple[str, int]
"""A queue: the game and the stake."""

FIELDS = frozenset({"game", "stake"})
"""What a request may say: opponents, tables and seats are assigned, never chosen."""


@dataclass(eq=False)
class Ticket:
    """One person's request, from the queue until their table is made (or it ends)."""

    user_id: int
    username: str
    key: QuickKey
    since: float
    """When it was queued (``time.monotonic``)."""
    done: asyncio.Future[dict[str, Any] | WireError] = field(repr=False)

    def public(self, now: float) -> dict[str, Any]:
        """The request as its person sees it (``GET /api/quick``)."""
        return {"game": self.key[0], "stake": self.key[1], "waited_s": round(now - self.since, 3)}


class QuickMatch:
    """The quick-match queues of one process (:data:`QuickKey` → tickets, oldest first)."""

    def __init__(self, hub: Hub, rng: random.Random | None = None) -> None:
        if hub.config.quick_bot_level not in bot_levels():
            raise ValueError(f"quick_bot_level must be one of {bot_levels()}")
        if hub.config.quick_fill_seconds < 0:
            raise ValueError("quick_fill_seconds must be 0 or more")
        self.hub = hub
        self.rng = rng or random.SystemRandom()
        self.queues: dict[QuickKey, list[Ticket]] = {}
        self.tickets: dict[int, Ticket] = {}
        """Every live request by its person: queued, or matched and being seated."""
        self._timers: dict[QuickKey, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.closed = False

    # ------------------------------------------------------------------ requests

    def queued(self, user_id: int) -> Ticket | None:
        """``user_id``'s request while it waits in a queue (not once it is matched)."""
        t = self.tickets.get(user_id)
        return t if t is not None and t in self.queues.get(t.key, ()) else None

    async def wait(self, user: dict[str, Any], game: str, stake: int) -> dict[str, Any]:
        """Queue ``user`` for ``game`` at ``stake`` and wait until they are seated (the
        answer names the table and their seat) or cancel (``{"status": "cancelled"}``).
        Refused: a person queued already (``already_queued``), one at
        ``tables_per_user`` open tables (``too_many_tables``)."""
        uid = int(user["id"])
        if self.closed:
            raise WireError("busy", "this server is shutting down: try again")
        if uid in self.tickets:
            raise WireError("already_queued", "you are waiting for a quick match already")
        limit = self.hub.config.tables_per_user
        if await self.hub.db(store.sitting_at, uid) >= limit:
            raise too_many_tables(limit)
        if uid in self.tickets:  # a second request raced this one past the read
            raise WireError("already_queued", "you are waiting for a quick match already")
        loop = asyncio.get_running_loop()
        t = Ticket(uid, user["username"], (game, stake), time.monotonic(), loop.create_future())
        self.tickets[uid] = t
        self.queues.setdefault(t.key, []).append(t)
        self._match(t.key)
        try:
            got = await asyncio.shield(t.done)
        finally:  # the request went away (its connection closed): it leaves the queue
            self._withdraw(t)
        if isinstance(got, WireError):
            raise got
        return got

    def cancel(self, user_id: int) -> bool:
        """Take ``user_id``'s request out of its queue; False when there was none (or it
        is matched already: the table is being made)."""
        t = self.queued(user_id)
        if t is None:
            return False
        self._withdraw(t)
        t.done.set_result({"status": "cancelled"})
        return True

    def _withdraw(self, t: Ticket) -> None:
        q = self.queues.get(t.key)
        if q is not None and t in q:
            q.remove(t)
            if not q:
                del self.queues[t.key]
                timer = self._timers.pop(t.key, None)
                if timer is not None:
                    timer.cancel()
        if self.tickets.get(t.user_id) is t:
            del self.tickets[t.user_id]

    # ------------------------------------------------------------------ matching

    def _match(self, key: QuickKey) -> None:
        """Seat every full table's worth of people waiting, oldest first; when the oldest
        left has waited ``quick_fill_seconds``, seat them all with the computer; else
        look again when it will have."""
        q = self.queues.get(key, [])
        n = seats_of(key[0])
        while len(q) >= n:
            self._seat(key, q[:n])
            del q[:n]
        if q and time.monotonic() >= q[0].since + self.hub.config.quick_fill_seconds:
            self._seat(key, q[:])
            q.clear()
        timer = self._timers.pop(key, None)
        if timer is not None:
            timer.cancel()
        if not q:
            self.queues.pop(key, None)
            return
        loop = asyncio.get_running_loop()
        due = q[0].since + self.hub.config.quick_fill_seconds
        self._timers[key] = loop.call_later(max(0.0, due - time.monotonic()), self._fire, key)

    def _fire(self, key: QuickKey) -> None:
        self._timers.pop(key, None)
        if not self.closed:
            self._match(key)

    def _seat(self, key: QuickKey, group: list[Ticket]) -> None:
        task = asyncio.get_running_loop().create_task(self._open(key, group))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _open(self, key: QuickKey, group: list[Ticket]) -> None:
        """Make the table of ``group`` (the computer in the other seats): each person's
        seat drawn at random. A person who reached the cap on open tables meanwhile is
        answered ``too_many_tables`` and the others are seated without them."""
        from madang.server.routes_tables import open_table

        game, stake = key
        people = list(group)
        try:
            in_force = game_spec(game).rules("default", None)
            worth = check_table(game, in_force, stake)
            while people:
                n = seats_of(game)
                places = self.rng.sample(range(n), len(people))
                seats = [Seat(i, Kind.BOT, level=self.hub.config.quick_bot_level) for i in range(n)]
                for t, i in zip(people, places, strict=True):
                    seats[i] = Seat(i, Kind.HUMAN, user_id=t.user_id, username=t.username)
                try:
                    room = await open_table(
                        self.hub,
                        game=game,
                        preset="default",
                        rules={},
                        in_force=in_force,
                        stake=stake,
                        worth=worth,
                        private=False,
                        seats=seats,
                        created_by=people[0].user_id,
                    )
                except store.TooManyTables as e:
                    over = [t for t in people if t.user_id == e.user_id]
                    for t in over:
                        self._answer(t, too_many_tables(e.limit))
                    people = [t for t in people if t.user_id != e.user_id]
                    continue
                now = time.monotonic()
                summary = room.summary()
                for t, i in zip(people, places, strict=True):
                    self._answer(
                        t,
                        {
                            "status": "seated",
                            "table": summary,
                            "seat": i,
                            "people": len(people),
                            "waited_s": round(now - t.since, 3),
                        },
                    )
                return
        except WireError as e:  # the server is draining, a stake its game cannot take …
            for t in people:
                self._answer(t, e)
        except Exception:
            for t in people:
                self._answer(t, WireError("internal", "the table could not be made: try again"))
            raise
        finally:
            for t in group:
                if self.tickets.get(t.user_id) is t:
                    del self.tickets[t.user_id]

    @staticmethod
    def _answer(t: Ticket, got: dict[str, Any] | WireError) -> None:
        if not t.done.done():
            t.done.set_result(got)

    async def close(self) -> None:
        """At shutdown: every waiting request is answered ``busy``; tables being made
        are finished first."""
        self.closed = True
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for q in self.queues.values():
            for t in q:
                self._answer(t, WireError("busy", "this server is shutting down: try again"))
        self.queues.clear()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)


# ---------------------------------------------------------------------- endpoints

router = APIRouter()


def _quick(request: Request) -> QuickMatch:
    quick = hub_of(request).quick
    if quick is None:  # pragma: no cover - made at start
        raise WireError("busy", "the server is starting: try again")
    return quick


@router.post("/api/quick", openapi_extra=documented("quick"))
async def quick_match(request: Request) -> Response:
    """Wait for a seat: 201 with the table and seat, or 200 ``cancelled``."""
    hub = hub_of(request)
    user = await need_user(request)
    data = await body(request)
    extra = sorted(set(data) - FIELDS)
    if extra:
        raise WireError(
            "bad_request",
            f"a quick match takes only game and stake ({', '.join(extra)}): "
            "opponents, tables and seats are assigned, not chosen",
        )
    if hub.cluster is not None and hub.cluster.draining:
        raise WireError("busy", "this server is shutting down: try again")
    game = data.get("game")
    if not isinstance(game, str) or game not in games():
        raise WireError("bad_request", f"game must be one of {', '.join(games())}")
    stake = data.get("stake", hub.config.stakes[0])
    stakes = hub.config.stakes
    if type(stake) is not int or stake not in stakes:
        raise WireError("bad_request", f"stake must be one of {', '.join(map(str, stakes))}")
    waiting = asyncio.ensure_future(_quick(request).wait(user, game, stake))
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait({waiting, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
        if not waiting.done():  # the person went away: out of the queue
            waiting.cancel()
            await asyncio.wait({waiting})
    if waiting.cancelled():
        return Response(status_code=499)  # nobody reads it
    got = waiting.result()
    return JSONResponse(got, status_code=201 if got["status"] == "seated" else 200)


async def _disconnected(request: Request) -> None:
    """Return when the client closed the connection (the body is read already: the
    next ASGI message is ``http.disconnect``)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


@router.get("/api/quick")
async def quick_status(request: Request) -> dict[str, Any]:
    """The caller's waiting request (``queued``: null when none) and the fill time."""
    user = await need_user(request)
    t = _quick(request).queued(int(user["id"]))
    return {
        "queued": None if t is None else t.public(time.monotonic()),
        "fill_seconds": hub_of(request).config.quick_fill_seconds,
    }


@router.post("/api/quick/cancel", openapi_extra=documented("empty"))
async def quick_cancel(request: Request) -> dict[str, Any]:
    """Leave the queue: ``cancelled`` false when the caller was not waiting (or was
    matched already)."""
    user = await need_user(request)
    return {"cancelled": _quick(request).cancel(int(user["id"]))}
