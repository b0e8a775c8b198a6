"""What the endpoints share: the hub (database, settings, rooms, limits) and the
request helpers (the JSON body, the user of the session cookie, cookies, ids)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import Request, WebSocket
from fastapi.responses import Response
from sqlalchemy.engine import Engine

from madang.server import store
from madang.server.auth import Counters, Passwords, RateLimits, Throttles
from madang.server.botseat import BotSocket
from madang.server.chat import ChatLimits
from madang.server.config import ServerConfig
from madang.server.db import run_in_db
from madang.server.reviews import Reviewer
from madang.server.room import Room

if TYPE_CHECKING:  # pragma: no cover
    from madang.server.cluster import Cluster, RemoteTable
    from madang.server.metrics import Operator
    from madang.server.quickmatch import QuickMatch
from madang.server.wire import WireError

T = TypeVar("T")

COOKIE = "madang_session"
DEVICE_COOKIE = "madang_device"
MAX_ID = 2**31 - 1
"""Ids are SQL ``INTEGER``s (PostgreSQL's are 32-bit): a larger one names nothing."""


class Hub:
    """What the endpoints share: the database, the settings and the live rooms."""

    def __init__(self, config: ServerConfig, engine: Engine) -> None:
        self.config = config
        self.engine = engine
        self.passwords = Passwords(
            config.argon2_time_cost,
            config.argon2_memory_kib,
            workers=config.hash_workers,
            queue=config.hash_queue,
        )
        self.counters = Counters(config.redis_url)
        """Where the limits below count (shared through Redis in a cluster)."""
        self.throttle = Throttles(
            config.login_failures,
            config.login_window_s,
            config.login_address_failures,
            config.login_name_failures,
            self.counters,
        )
        self.limits = RateLimits(config.register_limit, config.guest_limit, self.counters)
        self.chat = ChatLimits(config.chat_limit, self.counters)
        """Per-account chat limits (the per-connection ones are the sockets')."""
        self.reviewer = Reviewer(config.review_workers, config.review_queue, config.review_samples)
        """The pool that computes game reviews (:mod:`madang.server.reviews`)."""
        self.sockets: dict[str, int] = {}
        """Open table WebSockets per client address."""
        self.rooms: dict[int, Room] = {}
        self.bots: dict[int, BotSocket] = {}
        """The bot accounts connected to ``/ws/bot`` here, by user id."""
        self.cluster: Cluster | None = None
        """This process's part of a cluster (``--redis-url``), else None."""
        self.quick: QuickMatch | None = None
        """The quick-match queues (made at start, :mod:`madang.server.quickmatch`)."""
        self.operator: Operator | None = None
        """The operator's metrics server (``metrics_port``), else None."""
        self.resumed_at_start = 0
        """Tables rebuilt from the journal at start."""
        self.aborted_at_start = 0
        """Games aborted at start because their table's history did not replay."""

    def forget(self, table_id: int) -> None:
        """Drop a closed table."""
        self.rooms.pop(table_id, None)

    async def table(self, table_id: int) -> Room | RemoteTable | None:
        """An open table: played here, or (in a cluster) owned by another process."""
        if self.cluster is not None:
            return await self.cluster.table(table_id)
        return self.rooms.get(table_id)

    async def lobby(self) -> list[dict[str, Any]]:
        """The open public tables as the lobby lists them (every process's)."""
        if self.cluster is not None:
            entries = await self.cluster.entries()
            rows = [e["summary"] for e in entries if not e["private"] and not e["closing"]]
            return sorted(rows, key=lambda t: int(t["id"]))
        return [r.summary() for r in self.rooms.values() if not r.private and not r.closing]

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store function in the database threads (:func:`run_in_db`)."""
        return await run_in_db(self.engine, fn, *args, **kwargs)


def hub_of(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def body(request: Request) -> dict[str, Any]:
    # the Guard has checked the media type and caps the size while this reads
    raw = await request.body()
    if not raw:
        return {}
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):
        raise WireError("bad_request", "the body must be a JSON object") from None
    if not isinstance(obj, dict):
        raise WireError("bad_request", "the body must be a JSON object")
    return obj


async def current_user(request: Request) -> dict[str, Any] | None:
    return await hub_of(request).db(store.session_user, request.cookies.get(COOKIE))


async def need_user(request: Request) -> dict[str, Any]:
    user = await current_user(request)
    if user is None:
        raise WireError("unauthorized", "log in or play as a guest first")
    return user


def client_addr(request: Request | WebSocket) -> str:
    # the peer, or what a configured proxy forwarded (uvicorn's ProxyHeadersMiddleware)
    return request.client.host if request.client else "?"


def with_cookie(
    resp: Response, token: str, device: str | None = None, *, secure: bool = False
) -> Response:
    """Set the session cookie (and a device cookie), ``Secure`` when served over HTTPS."""
    resp.set_cookie(
        COOKIE,
        token,
        max_age=store.SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=secure,
        path="/",
    )
    if device is not None:
        resp.set_cookie(
            DEVICE_COOKIE,
            device,
            max_age=365 * 86400,
            httponly=True,
            samesite="strict",
            secure=secure,
            path="/api/login",
        )
    return resp


async def new_session(request: Request, user_id: int) -> str:
    """A fresh session for ``user_id``; the one the request came with ends (a login,
    a registration or a guest's upgrade never keeps an old token alive)."""
    hub = hub_of(request)
    await hub.db(store.delete_session, request.cookies.get(COOKIE))
    return await hub.db(store.create_session, user_id)


def limit_before(
    limit: int | None, before: int | None, default: int = 50
) -> tuple[int, int | None]:
    """A page's size (1–200, ``default`` when absent) and the id it ends before."""
    if before is not None and not 1 <= before <= MAX_ID + 1:
        raise WireError("bad_request", f"before is an id, 1-{MAX_ID + 1}")
    return max(1, min(default if limit is None else limit, 200)), before


def check_id(value: int, what: str) -> int:
    """``value`` if it can be an id, else ``not_found`` (no SQL integer overflows)."""
    if not 1 <= value <= MAX_ID:
        raise WireError("not_found", f"no {what} {value}")
    return value
