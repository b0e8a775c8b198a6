"""Several server processes on one database (``madang serve --redis-url …``): each table
is owned by one process at a time, through a lease in Redis, and played there; every
other process forwards to it.

Redis holds (``docs/deploy.md`` explains the choices):

* ``madang:lease:{table}`` — the owner's name, set with ``NX PX`` (claimed only if free)
  and renewed every third of ``lease_s`` by a script that extends it only for its
  holder. A process that dies stops renewing: its leases expire and, once a lease has
  been gone for half a lease more, another process claims the table, rebuilds it from
  the database's journal (:mod:`madang.server.resume`) and goes on.
* ``madang:inbox:{process}`` — a stream per process: what the others send it. A client
  may connect to any process; at a table owned elsewhere its socket's messages
  (attach, hello, act, ready, drop; joins and leaves with a reply) go to the owner's
  inbox, and the owner's updates for that connection — each already redacted for its
  seat, the very text a local socket would get — go to the inbox of the process
  holding the connection, batched per process. A stream, not pub/sub: the messages of
  one sender reach one reader in order, survive a reader's brief disconnect (it reads
  on from its last id) and can be read in batches; each inbox is trimmed and expires
  a minute after its process stops.
* ``madang:tables`` — a hash of the open tables as the lobby lists them (summary,
  owner, who sits where), written by each table's owner when it changes: the shared
  lobby, table list and presence.
* ``madang:wake`` — pub/sub: a process that hands its tables over (``SIGTERM``) names
  them, so the others claim them at once instead of waiting for leases to expire.

The database stays the one truth: a move is a journal row (unique per game and number)
before anyone sees it, and a settlement claims the game's row first. So two processes
that both believe they own a table (a Redis restart, a partition) cannot both write a
move or both pay: the second one's write fails, it gives the table up, and the table
is rebuilt from what was stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from madang.server import store
from madang.server.chat import parse_chat
from madang.server.metrics import FAILOVERS
from madang.server.resume import ResumeError, rebuild
from madang.server.room import (
    Act,
    Attach,
    AutoPlay,
    Chat,
    Conn,
    Drop,
    Entropy,
    Hello,
    Join,
    Leave,
    Message,
    Pick,
    Ready,
    Room,
)
from madang.server.wire import WireError

if TYPE_CHECKING:  # pragma: no cover
    from madang.server.deps import Hub

log = logging.getLogger("madang.server.cluster")
T = TypeVar("T")

__all__ = ["Cluster", "EdgeConn", "RemoteConn", "RemoteTable"]

LEASE = "madang:lease:{}"
INBOX = "madang:inbox:{}"
DIRECTORY = "madang:tables"
WAKE = "madang:wake"
INBOX_LEN = 10_000
INBOX_TTL_MS = 60_000
RPC_TIMEOUT_S = 5.0

# Extend each lease held by ARGV[1], claim each that is free; 1 where it is ours after.
_RENEW = """
local out = {}
for i, k in ipairs(KEYS) do
  local v = redis.call('get', k)
  if v == ARGV[1] then
    redis.call('pexpire', k, ARGV[2]); out[i] = 1
  elseif not v then
    redis.call('set', k, ARGV[1], 'PX', ARGV[2]); out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
# Delete a lease only if ARGV[1] holds it.
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def _unreachable(e: BaseException) -> bool:
    """Whether ``e`` says Redis could not be reached (a connection error or timeout)."""
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return isinstance(e, (RedisConnectionError, RedisTimeoutError, OSError, TimeoutError))


class RemoteConn(Conn):
    """On the owner: a connection held by another process (its room sends to it as to
    any connection; the texts go to that process's inbox)."""

    def __init__(
        self,
        cluster: Cluster,
        table_id: int,
        edge: str,
        cid: str,
        seat: int | None,
        username: str | None,
    ) -> None:
        super().__init__(seat, username)
        self.cluster = cluster
        self.table_id = table_id
        self.edge = edge
        self.cid = cid

    def send(self, text: str) -> None:
        self.cluster.send_to(self.edge, {"op": "deliver", "items": [[self.cid, text]]})

    def close(self) -> None:
        self.cluster.send_to(self.edge, {"op": "deliver", "items": [[self.cid, None]]})


class EdgeConn(Conn):
    """On the process holding the socket: a connection to a table owned elsewhere."""

    def __init__(self, seat: int | None, username: str | None, cid: str, owner: str) -> None:
        super().__init__(seat, username)
        self.cid = cid
        self.owner = owner
        self.table_id = 0


class RemoteTable:
    """A table owned by another process, as this process's routes and sockets see it:
    the lobby's entry for reading, the owner for everything that changes it."""

    def __init__(self, cluster: Cluster, table_id: int, entry: dict[str, Any]) -> None:
        self.cluster = cluster
        self.table_id = table_id
        self.entry = entry
        self.owner: str = entry["owner"]
        self.private: bool = entry["private"]
        self.invite: str = entry["invite"]
        self.closing: bool = entry["closing"]

    def summary(self, *, with_invite: bool = False) -> dict[str, Any]:
        out = dict(self.entry["summary"])
        if with_invite:
            out["invite"] = self.invite
        return out

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for i, u in enumerate(self.entry["people"]):
            if u == user_id:
                return i
        return None

    def sits(self, user_id: int) -> bool:
        seat = self.seat_of(user_id)
        return seat is not None and not self.entry["left"][seat]

    async def call(self, msg: Join | Leave) -> Any:
        """A join or leave, answered by the owner (its WireError raised here)."""
        if isinstance(msg, Join):
            body = {"op": "join", "user": msg.user, "seat": msg.seat, "invite": msg.invite,
                    "stake": msg.stake}  # fmt: skip
        else:
            body = {"op": "leave", "user": msg.user}
        return await self.cluster.rpc(self.owner, self.table_id, body)

    async def attach(
        self, conn: EdgeConn, user: dict[str, Any] | None, invite: str | None
    ) -> int | None:
        """Join the table's stream through its owner; the seat it gives the connection."""
        self.cluster.edges[conn.cid] = conn
        conn.table_id = self.table_id
        who = None if user is None else {"id": user["id"], "username": user["username"]}
        try:
            seat = await self.cluster.rpc(
                self.owner,
                self.table_id,
                {"op": "attach", "conn": conn.cid, "invite": invite, "user": who},
            )
        except BaseException:
            self.cluster.edges.pop(conn.cid, None)
            raise
        conn.seat = seat
        return seat  # type: ignore[no-any-return]

    def submit(self, msg: Message) -> None:
        """A socket's message, forwarded to the owner."""
        conn = msg.conn  # type: ignore[union-attr]
        assert isinstance(conn, EdgeConn)
        body: dict[str, Any] = {"tid": self.table_id, "edge": self.cluster.node, "conn": conn.cid}
        match msg:
            case Hello(_, last):
                body.update(op="hello", last=last)
            case Act(_, version, action, ref):
                body.update(op="act", version=version, action=action, ref=ref)
            case Ready():
                body.update(op="ready")
            case Entropy(_, entropy):
                body.update(op="entropy", entropy=entropy)
            case AutoPlay(_, on):
                body.update(op="autoplay", on=on)
            case Pick(_, slot):
                body.update(op="first_pick", slot=slot)
            case Chat(_, item, ref):
                body.update(op="chat", kind=item.kind, value=item.value, ref=ref)
            case Drop():
                body.update(op="drop")
                self.cluster.edges.pop(conn.cid, None)
            case _:  # pragma: no cover - the sockets send nothing else
                return
        self.cluster.send_to(conn.owner, body)


def directory_entry(room: Room, owner: str) -> dict[str, Any]:
    """A table as the shared lobby holds it."""
    return {
        "owner": owner,
        "summary": room.summary(),
        "invite": room.invite,
        "private": room.private,
        "closing": room.closing,
        "people": [s.user_id if s.kind == "human" else None for s in room.seats],
        "left": [s.left for s in room.seats],
    }


class Cluster:
    """This process's part of a cluster: its leases, its inbox, the lobby's entries of
    its tables, the connections it holds to tables owned elsewhere."""

    def __init__(self, hub: Hub) -> None:
        import redis.asyncio as aioredis

        config = hub.config
        self.hub = hub
        self.redis = aioredis.from_url(
            config.redis_url, decode_responses=True, socket_timeout=5.0,
            socket_connect_timeout=2.0, health_check_interval=10,
        )  # fmt: skip
        self.node = config.node_id or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.lease_ms = max(200, int(config.lease_s * 1000))
        self.edges: dict[str, EdgeConn] = {}
        """Connections held here to tables owned elsewhere, by id."""
        self.remotes: dict[tuple[str, str], RemoteConn] = {}
        """Connections held elsewhere to tables owned here, by (process, id)."""
        self.rpcs: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._out: dict[str, list[dict[str, Any]]] = {}
        self._dir: dict[int, str | None] = {}
        self._published: dict[int, str] = {}
        self._wakeup = asyncio.Event()
        self._send_event = asyncio.Event()
        self._woken: set[int] = set()
        self._suspect: dict[int, float] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._running: set[asyncio.Task[None]] = set()
        self.draining = False
        self.healthy = True
        self.failovers = 0
        """Tables this process claimed from a process that stopped holding them."""
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Check Redis, then run the inbox reader, the sender, the lease renewer and the
        scanner (which also adopts the tables nobody holds at start)."""
        await self.redis.ping()
        loop = asyncio.get_running_loop()
        for coro, name in (
            (self._reader(), "inbox"),
            (self._sender(), "sender"),
            (self._renewer(), "leases"),
            (self._scanner(), "scanner"),
            (self._waker(), "wake"),
        ):
            self._tasks.append(loop.create_task(coro, name=f"cluster-{name}"))

    async def drain(self) -> None:
        """Hand every table over (``SIGTERM``): stop taking tables, close this process's
        sockets of them (their clients reconnect elsewhere), release the leases and
        name the tables so that another process claims each at once."""
        if self.draining:
            return
        self.draining = True
        rooms = list(self.hub.rooms.values())
        for room in rooms:
            room.on_close = None
            await room.shutdown()
        self.hub.rooms.clear()
        await self._flush_now()
        with contextlib.suppress(Exception):
            for room in rooms:
                await self._release(keys=[LEASE.format(room.table_id)], args=[self.node])
            if rooms:
                await self.redis.publish(WAKE, json.dumps([r.table_id for r in rooms]))
        log.info("%s handed over %d tables", self.node, len(rooms))

    async def stop(self) -> None:
        """Stop the tasks and close the connection to Redis."""
        await self.drain()
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ------------------------------------------------------------------ tables here

    async def claim_new(self, room: Room) -> None:
        """A table made here: its lease (no one else can hold a new id) and lobby entry,
        both written before the table is announced, so that every process finds it at
        once (if Redis does not answer, the renewer claims it and the sender publishes
        it when Redis does)."""
        text = json.dumps(directory_entry(room, self.node), separators=(",", ":"))
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.set(LEASE.format(room.table_id), self.node, px=self.lease_ms)
            pipe.hset(DIRECTORY, str(room.table_id), text)
            await pipe.execute()
            self._published[room.table_id] = text
        except Exception as e:
            if not _unreachable(e):
                raise
            self._unhealthy(e)
        self.own(room)

    def own(self, room: Room) -> None:
        """Hook a room this process owns into the cluster."""
        room.on_change = self.changed
        room.on_lost = self.lost
        previous = room.on_close

        def closed(r: Room) -> None:
            if previous is not None:
                previous(r)
            self._published.pop(r.table_id, None)
            self._dir[r.table_id] = None
            self._send_event.set()
            self._spawn(self._release_lease(r.table_id))

        room.on_close = closed
        self.changed(room)

    def changed(self, room: Room) -> None:
        """After a room handled a message: its lobby entry, if it changed."""
        text = json.dumps(directory_entry(room, self.node), separators=(",", ":"))
        if self._published.get(room.table_id) != text:
            self._published[room.table_id] = text
            self._dir[room.table_id] = text
            self._send_event.set()

    def lost(self, room: Room) -> None:
        """A room found that another process wrote its game: it stopped; forget it."""
        self._forget(room)
        self._spawn(self._release_lease(room.table_id))
        self._wakeup.set()  # look again: if no one holds it, rebuild it from the database

    def _forget(self, room: Room) -> None:
        """This process no longer plays ``room``'s table (the lease is not touched)."""
        if self.hub.rooms.get(room.table_id) is room:
            del self.hub.rooms[room.table_id]
        self._published.pop(room.table_id, None)

    async def _release_lease(self, table_id: int) -> None:
        with contextlib.suppress(Exception):
            await self._release(keys=[LEASE.format(table_id)], args=[self.node])

    # ------------------------------------------------------------------ the lobby

    async def ask(self, call: Callable[[], Awaitable[T]]) -> T:
        """``call()`` to Redis for a request: ``busy`` (try again) at once while Redis
        is known to be down, or when it fails now."""
        if not self.healthy:
            raise WireError("busy", "the tables' directory is unreachable: try again",
                            retry_after=2.0)  # fmt: skip
        try:
            return await call()
        except Exception as e:
            if not _unreachable(e):
                raise
            self._unhealthy(e)
            raise WireError("busy", "the tables' directory is unreachable: try again",
                            retry_after=2.0) from None  # fmt: skip

    async def redis_ok(self, timeout_s: float = 1.0) -> bool:
        """Whether Redis answers a ``PING`` now (the operator's check)."""
        try:
            return bool(await asyncio.wait_for(self.redis.ping(), timeout_s))
        except Exception:
            return False

    async def entry(self, table_id: int) -> dict[str, Any] | None:
        """The lobby's entry of a table (None: not open)."""
        text = await self.ask(lambda: self.redis.hget(DIRECTORY, str(table_id)))
        return None if text is None else dict(json.loads(text))

    async def entries(self) -> list[dict[str, Any]]:
        """Every open table's lobby entry."""
        got = await self.ask(lambda: self.redis.hgetall(DIRECTORY))
        return [json.loads(v) for v in got.values()]

    async def table(self, table_id: int) -> Room | RemoteTable | None:
        """The table here, or as owned elsewhere."""
        room = self.hub.rooms.get(table_id)
        if room is not None:
            return room
        entry = await self.entry(table_id)
        if entry is None or entry["closing"]:
            return None
        owner = await self.ask(lambda: self.redis.get(LEASE.format(table_id)))
        if owner is None:
            raise WireError("busy", "the table is moving to another server: try again")
        entry["owner"] = owner
        return RemoteTable(self, table_id, entry)

    # ------------------------------------------------------------------ messages

    def send_to(self, node: str, body: dict[str, Any]) -> None:
        """Queue a message for a process's inbox (sent in order, batched)."""
        self._out.setdefault(node, []).append(body)
        self._send_event.set()

    async def rpc(self, node: str, table_id: int, body: dict[str, Any]) -> Any:
        """Ask the owner and wait for its answer (its WireError raised here)."""
        rid = f"{self.node}:{next(self._ids)}"
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.rpcs[rid] = fut
        self.send_to(node, {**body, "tid": table_id, "edge": self.node, "rid": rid})
        try:
            reply = await asyncio.wait_for(fut, RPC_TIMEOUT_S)
        except TimeoutError:
            raise WireError("busy", "the table's server did not answer: try again") from None
        finally:
            self.rpcs.pop(rid, None)
        if "error" in reply:
            raise WireError(reply["error"]["code"], reply["error"]["message"])
        return reply.get("value")

    async def _flush_now(self) -> None:
        out, self._out = self._out, {}
        dirs, self._dir = self._dir, {}
        if not out and not dirs:
            return
        pipe = self.redis.pipeline(transaction=False)
        for tid, text in dirs.items():
            if text is None:
                pipe.hdel(DIRECTORY, str(tid))
            else:
                pipe.hset(DIRECTORY, str(tid), text)
        for node, bodies in out.items():
            # a batch of deliveries to one process is one stream entry
            items = [i for b in bodies if b["op"] == "deliver" for i in b["items"]]
            rest = [b for b in bodies if b["op"] != "deliver"]
            msgs = ([{"op": "deliver", "items": items}] if items else []) + rest
            key = INBOX.format(node)
            for m in msgs:
                pipe.xadd(key, {"m": json.dumps(m, separators=(",", ":"))},
                          maxlen=INBOX_LEN, approximate=True)  # fmt: skip
            pipe.pexpire(key, INBOX_TTL_MS)
        await pipe.execute()

    async def _sender(self) -> None:
        while True:
            await self._send_event.wait()
            self._send_event.clear()
            try:
                await self._flush_now()
                self._ok()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self._unhealthy(e)
                await asyncio.sleep(0.2)

    async def _reader(self) -> None:
        key = INBOX.format(self.node)
        last = "$"
        while True:
            try:
                got = await self.redis.xread({key: last}, block=1000, count=1000)
                self._ok()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self._unhealthy(e)
                await asyncio.sleep(0.2)
                continue
            streams: Any = got or ()
            for _stream, entries in streams:
                for eid, fields in entries:
                    last = eid
                    try:
                        self._handle(json.loads(fields["m"]))
                    except Exception:  # a bad message must not stop the reader
                        log.exception("%s: bad cluster message", self.node)

    def _handle(self, m: dict[str, Any]) -> None:
        op = m["op"]
        if op == "deliver":
            for cid, text in m["items"]:
                conn = self.edges.get(cid)
                if conn is None:
                    continue
                if text is None:
                    self.edges.pop(cid, None)
                    conn.close()
                else:
                    conn.send(text)
            return
        if op == "reply":
            fut = self.rpcs.get(m["rid"])
            if fut is not None and not fut.done():
                fut.set_result(m)
            return
        if op == "quick":  # the answer to a quick-match request held here
            if self.hub.quick is not None and self.hub.quick.shared is not None:
                self.hub.quick.shared.deliver(m["ticket"], m["result"])
            return
        room = self.hub.rooms.get(m["tid"])
        edge = m["edge"]
        if room is None or room.closing:
            if "rid" in m:
                self._reply(m, WireError("not_found", "no open table here: reconnect"))
            elif op != "drop":  # the table moved: the client reconnects to its new owner
                self.send_to(edge, {"op": "deliver", "items": [[m["conn"], None]]})
            return
        key = (edge, m.get("conn", ""))
        if op == "attach":
            self._spawn(self._attach(room, m))
            return
        if op in ("join", "leave"):
            msg = (Join(m["user"], m["seat"], m["invite"], m["stake"]) if op == "join"
                   else Leave(m["user"]))  # fmt: skip
            self._spawn(self._answer(m, room.call(msg)))
            return
        rc = self.remotes.get(key)
        if rc is None:  # a connection this process does not know (from before a move)
            self.send_to(edge, {"op": "deliver", "items": [[m["conn"], None]]})
            return
        if op == "hello":
            room.submit(Hello(rc, m["last"]))
        elif op == "act":
            room.submit(Act(rc, m["version"], m["action"], m["ref"]))
        elif op == "ready":
            room.submit(Ready(rc))
        elif op == "entropy":
            room.submit(Entropy(rc, m["entropy"]))
        elif op == "autoplay":
            room.submit(AutoPlay(rc, m["on"] is True))
        elif op == "first_pick" and type(m.get("slot")) is int:
            room.submit(Pick(rc, m["slot"]))
        elif op == "chat":  # checked by the edge; the catalogue's ids checked again here
            room.submit(Chat(rc, parse_chat({m["kind"]: m["value"]}), m["ref"]))
        elif op == "drop":
            self.remotes.pop(key, None)
            room.submit(Drop(rc))

    async def _attach(self, room: Room, m: dict[str, Any]) -> None:
        user = m["user"]
        seat = room.seat_of(user["id"] if user else None)
        if seat is None and room.private and m["invite"] != room.invite:
            self._reply(m, WireError("forbidden", "private table"))
            return
        name = user["username"] if user else None
        rc = RemoteConn(self, room.table_id, m["edge"], m["conn"], seat, name)
        self.remotes[(m["edge"], m["conn"])] = rc
        try:
            await room.call(Attach(rc))
        except WireError as e:
            self.remotes.pop((m["edge"], m["conn"]), None)
            self._reply(m, e)
            return
        self._reply(m, None, seat)

    async def _answer(self, m: dict[str, Any], call: Awaitable[Any]) -> None:
        try:
            value = await call
        except WireError as e:
            self._reply(m, e)
            return
        self._reply(m, None, value)

    def _reply(self, m: dict[str, Any], err: WireError | None, value: Any = None) -> None:
        body: dict[str, Any] = {"op": "reply", "rid": m["rid"]}
        if err is not None:
            body["error"] = err.to_dict()
        else:
            body["value"] = value
        self.send_to(m["edge"], body)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._running.add(task)  # held until done (the loop keeps only weak references)
        task.add_done_callback(self._running.discard)

    # ------------------------------------------------------------------ health

    def _unhealthy(self, e: BaseException) -> None:
        if self.healthy:
            log.warning("%s: Redis unreachable (%s): tables here play on", self.node, e)
        self.healthy = False

    def _ok(self) -> None:
        if not self.healthy:
            log.warning("%s: Redis is back: sockets of remote tables reconnect", self.node)
            self.healthy = True
            # What was sent meanwhile may be lost: both ends start their links again.
            for conn in list(self.edges.values()):
                conn.close()
            self.edges.clear()
            for rc in list(self.remotes.values()):
                room = self.hub.rooms.get(rc.table_id)
                if room is not None:
                    room.submit(Drop(rc))
            self.remotes.clear()
            for room in self.hub.rooms.values():
                self._published.pop(room.table_id, None)
                self.changed(room)

    # ------------------------------------------------------------------ leases

    async def _renewer(self) -> None:
        while True:
            await asyncio.sleep(self.lease_ms / 3000)
            rooms = [r for r in list(self.hub.rooms.values()) if not r.closing]
            if not rooms:
                continue
            try:
                held = await self._renew(
                    keys=[LEASE.format(r.table_id) for r in rooms], args=[self.node, self.lease_ms]
                )
                self._ok()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self._unhealthy(e)
                continue
            for room, ok in zip(rooms, held, strict=True):
                if not ok:  # another process claimed it: it plays it from the journal
                    log.warning("%s: lost the lease of table %s", self.node, room.table_id)
                    self._forget(room)
                    room.on_close = None
                    await room.shutdown()

    async def _waker(self) -> None:
        while True:
            try:
                pubsub = self.redis.pubsub()
                await pubsub.subscribe(WAKE)
                async for msg in pubsub.listen():
                    if msg.get("type") == "message":
                        self._woken.update(int(t) for t in json.loads(msg["data"]))
                        self._wakeup.set()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self._unhealthy(e)
                await asyncio.sleep(0.5)

    async def _scanner(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), self.hub.config.scan_s)
            self._wakeup.clear()
            try:
                await self._scan()
                await self._check_edges()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self._unhealthy(e)

    async def _scan(self) -> None:
        """Claim and rebuild the open tables nobody holds (for longer than half a lease,
        or named by a process handing them over)."""
        if self.draining:
            return
        ids = await self.hub.db(store.open_table_ids)
        free = [t for t in ids if t not in self.hub.rooms]
        if not free:
            self._suspect.clear()
            return
        owners = await self.redis.mget([LEASE.format(t) for t in free])
        now = time.monotonic()
        for tid, owner in zip(free, owners, strict=True):
            if owner is not None:
                self._suspect.pop(tid, None)
                continue
            first = self._suspect.setdefault(tid, now)
            if now - first < self.lease_ms / 2000 and tid not in self._woken:
                continue
            if not await self.redis.set(LEASE.format(tid), self.node, nx=True, px=self.lease_ms):
                continue
            self._suspect.pop(tid, None)
            self._woken.discard(tid)
            await self._adopt(tid)

    async def _adopt(self, table_id: int) -> None:
        hub = self.hub
        plan = await hub.db(store.unfinished_table, table_id)
        if plan is None:
            await self._release_lease(table_id)
            return
        try:
            room = rebuild(plan, hub.config, hub.engine, lambda r: hub.forget(r.table_id))
        except ResumeError as e:
            log.warning("table %s not resumed, closed: %s", table_id, e)
            await hub.db(store.abort_table, table_id, "unreadable journal")
            self._dir[table_id] = None
            self._send_event.set()
            await self._release_lease(table_id)
            return
        hub.rooms[table_id] = room
        self.own(room)
        room.start()
        self.failovers += 1
        FAILOVERS.inc()
        log.warning("%s took table %s over", self.node, table_id)

    async def _check_edges(self) -> None:
        """Close the sockets held here of tables that another process now owns: their
        clients reconnect (to any process) and resync."""
        tables = {c.table_id for c in self.edges.values()}
        if not tables:
            return
        order = sorted(tables)
        owners = dict(zip(order, await self.redis.mget([LEASE.format(t) for t in order]),
                          strict=True))  # fmt: skip
        for cid, conn in list(self.edges.items()):
            owner = owners.get(conn.table_id)
            if owner is not None and owner != conn.owner:
                self.edges.pop(cid, None)
                conn.close()
