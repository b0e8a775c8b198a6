"""빠른 시작 (quick match): choose a game, its rules and a stake, and be seated.

A request waits in the queue of its game, rules preset (``default`` unless named: 고스톱
of four with 광팔기 is its own queue) and stake. As soon as enough people wait to fill a
table (2 for 맞고, 3 or 4 for 고스톱, 4 for 마작) the oldest of them are seated together; when the
oldest request has waited ``quick_fill_seconds`` (3 s by default, as the portals'
"matched in under 3 s, the computer fills in"), the table is made with the people
waiting (up to its seats) and the computer (``quick_bot_level``) in every other seat.

Every table is rated, so a quick match is a rated room: the opponents are assigned, never
chosen. The request names no table, seat or person, the seats are drawn at random, and
every seat of the table made is taken (by the people matched or a bot), so nobody can
pick the table from the lobby to sit with someone. A person waits in one queue at a
time (``already_queued``) and may cancel until they are matched.

In a cluster (``redis_url``) the queues are shared through Redis (:class:`SharedQueues`):
requests that reach different processes are matched together, whichever process takes
a group makes its table, and each person's answer goes to the process that holds their
request (its inbox, ``op: quick``); a cancel or a status may reach any process.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from madang.core.registry import spec as game_spec
from madang.server import money, store
from madang.server.deps import body, hub_of, need_user
from madang.server.games import bot_level_for, bot_levels, games
from madang.server.games import presets as presets_of
from madang.server.games import seats as seats_of
from madang.server.money import MoneyRules
from madang.server.room import Kind, Seat, too_many_tables
from madang.server.schemas import body as documented
from madang.server.stakes import check_table
from madang.server.wire import WireError

if TYPE_CHECKING:  # pragma: no cover
    from madang.server.deps import Hub

__all__ = ["QuickMatch", "Ticket", "router"]

QuickKey = tuple[str, str, int]
"""A queue: the game, its rules preset and the stake."""

FIELDS = frozenset({"game", "preset", "stake"})
"""What a request may say: opponents, tables and seats are assigned, never chosen."""


def seats_for(key: QuickKey) -> int:
    """How many seats a table of the queue ``key`` has (고스톱: 3, or 4 with 광팔기)."""
    game, preset, _ = key
    return seats_of(game, game_spec(game).rules(preset, None))


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
        game, preset, stake = self.key
        return {
            "game": game,
            "preset": preset,
            "stake": stake,
            "waited_s": round(now - self.since, 3),
        }


@dataclass(frozen=True)
class Matched:
    """A person of a group being seated, and how their request is answered."""

    user_id: int
    username: str
    answer: Callable[[dict[str, Any] | WireError], None]
    since: float
    """When the request was queued (``time.monotonic`` of the process that holds it;
    another process's answers are timed again there)."""


class QuickMatch:
    """The quick-match queues: this process's (:data:`QuickKey` → tickets, oldest
    first), or in a cluster the shared ones (:class:`SharedQueues`)."""

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
        self.shared = SharedQueues(self) if hub.cluster is not None else None
        """The cluster's queues in Redis (None: one process)."""

    # ------------------------------------------------------------------ requests

    def queued(self, user_id: int) -> Ticket | None:
        """``user_id``'s request while it waits in this process's queue (not once it is
        matched)."""
        t = self.tickets.get(user_id)
        return t if t is not None and t in self.queues.get(t.key, ()) else None

    async def status(self, user_id: int) -> dict[str, Any] | None:
        """``user_id``'s waiting request as they see it (``GET /api/quick``), or None."""
        if self.shared is not None:
            return await self.shared.status(user_id)
        t = self.queued(user_id)
        return None if t is None else t.public(time.monotonic())

    async def wait(
        self, user: dict[str, Any], game: str, preset: str, stake: int
    ) -> dict[str, Any]:
        """Queue ``user`` for ``game`` under ``preset`` at ``stake`` and wait until they
        are seated (the answer names the table and their seat) or cancel
        (``{"status": "cancelled"}``).
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
        why = await self.hub.db(money.may_sit, uid, stake, MoneyRules.of(self.hub.config))
        if why is not None:  # a self-care limit, or too little money for the stake
            raise why
        if uid in self.tickets:  # a second request raced this one past the read
            raise WireError("already_queued", "you are waiting for a quick match already")
        loop = asyncio.get_running_loop()
        key = (game, preset, stake)
        t = Ticket(uid, user["username"], key, time.monotonic(), loop.create_future())
        if self.shared is not None:
            return await self.shared.wait(t)
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

    async def cancel(self, user_id: int) -> bool:
        """Take ``user_id``'s request out of its queue; False when there was none (or it
        is matched already: the table is being made)."""
        if self.shared is not None:
            return await self.shared.cancel(user_id)
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
        n = seats_for(key)
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
        people = [Matched(t.user_id, t.username, partial(self._answer, t), t.since) for t in group]
        self.spawn(self.seat_group(key, people))

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` as a task that :meth:`close` waits for."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def seat_group(self, key: QuickKey, group: list[Matched]) -> None:
        """Make the table of ``group`` (the computer in the other seats): each person's
        seat drawn at random. A person who reached the cap on open tables meanwhile is
        answered ``too_many_tables`` and the others are seated without them."""
        from madang.server.routes_tables import open_table

        game, preset, stake = key
        people = list(group)
        try:
            in_force = game_spec(game).rules(preset, None)
            worth = check_table(game, in_force, stake)
            rules = MoneyRules.of(self.hub.config)
            for t in list(people):  # money or a limit changed while they waited
                why = await self.hub.db(money.may_sit, t.user_id, stake, rules)
                if why is not None:
                    t.answer(why)
                    people.remove(t)
            while people:
                n = seats_of(game, in_force)
                places = self.rng.sample(range(n), len(people))
                level = bot_level_for(game, self.hub.config.quick_bot_level)
                seats = [Seat(i, Kind.BOT, level=level) for i in range(n)]
                for t, i in zip(people, places, strict=True):
                    seats[i] = Seat(i, Kind.HUMAN, user_id=t.user_id, username=t.username)
                try:
                    room = await open_table(
                        self.hub,
                        game=game,
                        preset=preset,
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
                        t.answer(too_many_tables(e.limit))
                    people = [t for t in people if t.user_id != e.user_id]
                    continue
                now = time.monotonic()
                summary = room.summary()
                for t, i in zip(people, places, strict=True):
                    t.answer(
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
                t.answer(e)
        except Exception:
            for t in people:
                t.answer(WireError("internal", "the table could not be made: try again"))
            raise

    def _answer(self, t: Ticket, got: dict[str, Any] | WireError) -> None:
        """Answer a request of this process (its person may queue again)."""
        if self.tickets.get(t.user_id) is t:
            del self.tickets[t.user_id]
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
        if self.shared is not None:
            await self.shared.close()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)


# ---------------------------------------------------------------------- a cluster's queues

QUEUE = "madang:quick:{}:{}:{}"
"""A queue (game, preset, stake): a sorted set of ticket ids by the time they came (ms, Redis's
clock)."""
TICKET = "madang:quick:ticket:"
"""+ id: a request's person, process and queue (JSON), while it lives."""
PERSON = "madang:quick:user:{}"
"""A person's live request (its id): one at a time, whichever process took it."""

# Redis's own clock in ms (one clock for every process).
_NOW = """local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""
# Take the ids (and tickets) of up to ARGV[1] of the oldest of KEYS[1].
_TAKE = """local function take(q, n, prefix)
  local got = redis.call('zpopmin', q, n)
  local out = {'take'}
  for i = 1, #got, 2 do
    out[#out + 1] = got[i]
    out[#out + 1] = redis.call('get', prefix .. got[i]) or ''
  end
  return out
end
"""
# KEYS: queue, person, ticket; ARGV: id, ticket, seats, ttl ms, ticket prefix.
# 'already' when the person has a live request; else queue it (after dropping the
# tickets of processes that died: older than the ttl) and take a full table's worth.
_ENQUEUE = (
    _NOW
    + _TAKE
    + """
if not redis.call('set', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[4]) then return {'already'} end
redis.call('set', KEYS[3], ARGV[2], 'PX', ARGV[4])
redis.call('zremrangebyscore', KEYS[1], '-inf', now - tonumber(ARGV[4]))
redis.call('zadd', KEYS[1], now, ARGV[1])
if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[3]) then
  return take(KEYS[1], ARGV[3], ARGV[5])
end
return {'queued'}
"""
)
# KEYS: queue; ARGV: seats, fill ms, ttl ms, ticket prefix. Take up to a table's worth
# once the oldest has waited the fill time; else how long until it will have.
_DUE = (
    _NOW
    + _TAKE
    + """
redis.call('zremrangebyscore', KEYS[1], '-inf', now - tonumber(ARGV[3]))
local first = redis.call('zrange', KEYS[1], 0, 0, 'WITHSCORES')
if #first == 0 then return {'empty'} end
local left = tonumber(first[2]) + tonumber(ARGV[2]) - now
if left > 0 then return {'wait', tostring(left)} end
return take(KEYS[1], ARGV[1], ARGV[4])
"""
)
# KEYS: person; ARGV: ticket prefix. Out of the queue if still in it: its
# id and ticket; else nothing (none, or matched already).
_CANCEL = """
local id = redis.call('get', KEYS[1])
if not id then return {} end
local ticket = redis.call('get', ARGV[1] .. id)
if not ticket then return {} end
local q = cjson.decode(ticket)['queue']
if redis.call('zrem', q, id) == 0 then return {} end
redis.call('del', KEYS[1], ARGV[1] .. id)
return {id, ticket}
"""


# KEYS: the people's keys; ARGV: their ticket ids, then the ticket prefix. A person's
# key is deleted only while it still names that ticket (they may have queued again).
_RELEASE = """
local prefix = ARGV[#ARGV]
for i, k in ipairs(KEYS) do
  if redis.call('get', k) == ARGV[i] then redis.call('del', k) end
  redis.call('del', prefix .. ARGV[i])
end
return 1
"""


class SharedQueues:
    """A cluster's quick-match queues in Redis (``docs/server.md``, Quick match).

    A request is queued by one script that also refuses a person with a live request
    and takes a full table's worth; the process that holds a request looks again when
    it has waited the fill time (whoever takes a group makes its table). A taken ticket
    is answered where its request waits: here, or through that process's inbox. A
    ticket outlives its process by ``quick_fill_seconds + 60`` s at most."""

    def __init__(self, quick: QuickMatch) -> None:
        cluster = quick.hub.cluster
        assert cluster is not None
        self.quick = quick
        self.cluster = cluster
        self.fill_ms = int(quick.hub.config.quick_fill_seconds * 1000)
        self.ttl_ms = self.fill_ms + 60_000
        self.waiting: dict[str, Ticket] = {}
        """This process's requests by ticket id."""
        self._ids = itertools.count(1)
        redis = cluster.redis
        self._enqueue = redis.register_script(_ENQUEUE)
        self._due = redis.register_script(_DUE)
        self._cancel = redis.register_script(_CANCEL)
        self._release = redis.register_script(_RELEASE)

    async def wait(self, t: Ticket) -> dict[str, Any]:
        tid = f"{self.cluster.node}:{next(self._ids)}"
        queue = QUEUE.format(*t.key)
        ticket = json.dumps({"user_id": t.user_id, "username": t.username,
                             "node": self.cluster.node, "queue": queue})  # fmt: skip
        self.waiting[tid] = t
        try:
            got = await self.cluster.ask(
                lambda: self._enqueue(
                    keys=[queue, PERSON.format(t.user_id), TICKET + tid],
                    args=[tid, ticket, seats_for(t.key), self.ttl_ms, TICKET],
                )
            )
            if got[0] == "already":
                raise WireError("already_queued", "you are waiting for a quick match already")
            if got[0] == "take":
                self._seat(t.key, got[1:])
            watch = asyncio.get_running_loop().create_task(self._watch(t, queue))
            try:
                # the fill time, a table being made and a message from another process
                # at most: then the request is answered busy (its process is gone)
                done = await asyncio.wait_for(asyncio.shield(t.done), self.fill_ms / 1000 + 30)
            except TimeoutError:
                done = WireError("busy", "the quick match did not answer: try again")
            finally:
                watch.cancel()
                if not t.done.done():  # gone (its connection closed) or timed out
                    await self._withdraw(t.user_id)
        finally:
            self.waiting.pop(tid, None)
        if isinstance(done, WireError):
            raise done
        return done

    async def _watch(self, t: Ticket, queue: str) -> None:
        """Look at the queue when the request has waited the fill time (and again while
        its oldest has not): take what is due."""
        delay = self.fill_ms / 1000
        while not t.done.done():
            await asyncio.sleep(delay)
            try:
                got = await self._due(
                    keys=[queue], args=[seats_for(t.key), self.fill_ms, self.ttl_ms, TICKET]
                )
            except Exception:  # Redis is away a moment: look again soon
                delay = 0.5
                continue
            if got[0] == "take":
                self._seat(t.key, got[1:])
            delay = float(got[1]) / 1000 if got[0] == "wait" else self.fill_ms / 1000 + 0.5

    def _seat(self, key: QuickKey, taken: list[str]) -> None:
        people = []
        ids: dict[int, str] = {}
        for tid, text in zip(taken[::2], taken[1::2], strict=True):
            if not text:
                continue  # a ticket that expired with its process
            ticket = json.loads(text)
            ids[int(ticket["user_id"])] = tid
            people.append(
                Matched(
                    ticket["user_id"],
                    ticket["username"],
                    partial(self._answer, tid, ticket),
                    time.monotonic(),
                )
            )
        if people:
            self.quick.spawn(self._open(key, people, ids))

    async def _open(self, key: QuickKey, people: list[Matched], ids: dict[int, str]) -> None:
        """Make the table; then its people may queue again (their keys released)."""
        try:
            await self.quick.seat_group(key, people)
        finally:
            with contextlib.suppress(Exception):  # they expire in any case
                await self._release(
                    keys=[PERSON.format(u) for u in ids], args=[*ids.values(), TICKET]
                )

    def _answer(self, tid: str, ticket: dict[str, Any], got: dict[str, Any] | WireError) -> None:
        body = {"error": got.to_dict()} if isinstance(got, WireError) else got
        if ticket["node"] == self.cluster.node:
            self.deliver(tid, body)
        else:
            self.cluster.send_to(ticket["node"], {"op": "quick", "ticket": tid, "result": body})

    def deliver(self, tid: str, body: dict[str, Any]) -> None:
        """The answer to this process's request ``tid`` (from here or another process)."""
        t = self.waiting.get(tid)
        if t is None or t.done.done():
            return  # gone meanwhile: the seat is held for seat_hold_seconds, then freed
        if "error" in body:
            t.done.set_result(WireError(body["error"]["code"], body["error"]["message"]))
        else:
            if "waited_s" in body:
                body = {**body, "waited_s": round(time.monotonic() - t.since, 3)}
            t.done.set_result(body)

    async def cancel(self, user_id: int) -> bool:
        got = await self.cluster.ask(
            lambda: self._cancel(keys=[PERSON.format(user_id)], args=[TICKET])
        )
        if not got:
            return False
        tid, ticket = got[0], json.loads(got[1])
        self._answer(tid, ticket, {"status": "cancelled"})
        return True

    async def _withdraw(self, user_id: int) -> None:
        with contextlib.suppress(Exception):  # the ticket expires in any case
            await self._cancel(keys=[PERSON.format(user_id)], args=[TICKET])

    async def status(self, user_id: int) -> dict[str, Any] | None:
        redis = self.cluster.redis
        got = await self.cluster.ask(lambda: redis.get(PERSON.format(user_id)))
        if got is None:
            return None
        tid = str(got)
        text = await self.cluster.ask(lambda: redis.get(TICKET + tid))
        if text is None:
            return None
        ticket = json.loads(text)
        score = await self.cluster.ask(lambda: redis.zscore(ticket["queue"], tid))
        if score is None:
            return None  # matched: the table is being made
        now_s, now_us = await self.cluster.ask(lambda: redis.time())
        waited = (int(now_s) * 1000 + int(now_us) // 1000 - float(score)) / 1000
        game, *named, stake = ticket["queue"].split(":")[2:]
        preset = named[0] if named else "default"  # a ticket of a process before presets
        return {
            "game": game,
            "preset": preset,
            "stake": int(stake),
            "waited_s": round(max(0.0, waited), 3),
        }

    async def close(self) -> None:
        """At shutdown: this process's requests leave the queues, answered busy."""
        for tid, t in list(self.waiting.items()):
            await self._withdraw(t.user_id)
            self.deliver(tid, {"error": {"code": "busy", "message": "this server is shutting "
                                         "down: try again"}})  # fmt: skip


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
            f"a quick match takes only game, preset and stake ({', '.join(extra)}): "
            "opponents, tables and seats are assigned, not chosen",
        )
    if hub.cluster is not None and hub.cluster.draining:
        raise WireError("busy", "this server is shutting down: try again")
    game = data.get("game")
    if not isinstance(game, str) or game not in games():
        raise WireError("bad_request", f"game must be one of {', '.join(games())}")
    preset = data.get("preset", "default")
    if not isinstance(preset, str) or preset not in presets_of(game):
        raise WireError("bad_request", f"preset must be one of {', '.join(presets_of(game))}")
    stake = data.get("stake", hub.config.stakes[0])
    stakes = hub.config.stakes
    if type(stake) is not int or stake not in stakes:
        raise WireError("bad_request", f"stake must be one of {', '.join(map(str, stakes))}")
    waiting = asyncio.ensure_future(_quick(request).wait(user, game, preset, stake))
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
    return {
        "queued": await _quick(request).status(int(user["id"])),
        "fill_seconds": hub_of(request).config.quick_fill_seconds,
    }


@router.post("/api/quick/cancel", openapi_extra=documented("empty"))
async def quick_cancel(request: Request) -> dict[str, Any]:
    """Leave the queue: ``cancelled`` false when the caller was not waiting (or was
    matched already)."""
    user = await need_user(request)
    return {"cancelled": await _quick(request).cancel(int(user["id"]))}
