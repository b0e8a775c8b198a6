"""The ASGI app: the client's static files, the JSON API and the table WebSockets.

:func:`create_app` builds it from a :class:`~madang.server.config.ServerConfig`; at start
it applies the Alembic migrations and closes every game a previous run left unfinished
(as ``aborted``, with no payment). Endpoints and messages: ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.engine import Engine
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from madang.core.errors import MadangError
from madang.server import store
from madang.server.auth import (
    Passwords,
    RateLimits,
    Throttles,
    check_password,
    check_username,
)
from madang.server.config import ServerConfig
from madang.server.db import make_engine, migrate
from madang.server.games import games, presets
from madang.server.games import seats as seats_of
from madang.server.room import Conn, Room, Seat, dumps
from madang.server.schemas import body as documented
from madang.server.security import Guard
from madang.server.wire import WireError, parse_client_message, wire_error

log = logging.getLogger("madang.server")

COOKIE = "madang_session"
DEVICE_COOKIE = "madang_device"
MAX_ID = 2**31 - 1
"""Ids are SQL ``INTEGER``s (PostgreSQL's are 32-bit): a larger one names nothing."""
T = TypeVar("T")


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
        self.throttle = Throttles(
            config.login_failures,
            config.login_window_s,
            config.login_address_failures,
            config.login_name_failures,
        )
        self.limits = RateLimits(config.register_limit, config.guest_limit)
        self.sockets: dict[str, int] = {}
        """Open table WebSockets per client address."""
        self.rooms: dict[int, Room] = {}
        self.aborted_at_start = 0

    def forget(self, table_id: int) -> None:
        """Drop a closed table."""
        self.rooms.pop(table_id, None)

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store function in a worker thread."""
        return await asyncio.to_thread(fn, self.engine, *args, **kwargs)


def bot_levels() -> list[str]:
    """The bot levels the lobby offers."""
    from madang.bots import LEVELS

    return list(LEVELS)


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


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The whole server as one ASGI app."""
    config = config or ServerConfig()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(config.url())
        await asyncio.to_thread(migrate, engine)
        hub = Hub(config, engine)
        hub.aborted_at_start = await hub.db(store.abort_running)
        app.state.hub = hub
        try:
            yield
        finally:
            for room in list(hub.rooms.values()):
                await room.shutdown()
            hub.passwords.close()
            engine.dispose()

    app = FastAPI(title="madang", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_middleware(Guard, config=config)

    @app.exception_handler(WireError)
    async def _wire(_: Request, e: WireError) -> JSONResponse:
        return JSONResponse({"error": e.to_dict()}, status_code=e.status)

    @app.exception_handler(MadangError)
    async def _madang(_: Request, e: MadangError) -> JSONResponse:
        w = wire_error(e)
        return JSONResponse({"error": w.to_dict()}, status_code=w.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        w = WireError("bad_request", "malformed request")
        return JSONResponse({"error": w.to_dict()}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, e: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 401: "unauthorized", 403: "forbidden", 413: "too_large"}.get(
            e.status_code, "bad_request"
        )
        w = WireError(code, str(e.detail))
        return JSONResponse({"error": w.to_dict()}, status_code=e.status_code)

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

    def with_cookie(resp: Response, token: str, device: str | None = None) -> Response:
        resp.set_cookie(
            COOKIE,
            token,
            max_age=store.SESSION_DAYS * 86400,
            httponly=True,
            samesite="lax",
            secure=config.secure_cookie,
            path="/",
        )
        if device is not None:
            resp.set_cookie(
                DEVICE_COOKIE,
                device,
                max_age=365 * 86400,
                httponly=True,
                samesite="strict",
                secure=config.secure_cookie,
                path="/api/login",
            )
        return resp

    async def new_session(request: Request, user_id: int) -> str:
        """A fresh session for ``user_id``; the one the request came with ends (a login,
        a registration or a guest's upgrade never keeps an old token alive)."""
        hub = hub_of(request)
        await hub.db(store.delete_session, request.cookies.get(COOKIE))
        return await hub.db(store.create_session, user_id)

    # ------------------------------------------------------------------ accounts

    @app.post("/api/register", openapi_extra=documented("register"))
    async def register(request: Request) -> Response:
        hub = hub_of(request)
        data = await body(request)
        name = check_username(data.get("username"))
        password = check_password(data.get("password"))
        addr = client_addr(request)
        hub.limits.peek("register", addr)
        if await hub.db(store.name_taken, name):  # before any hashing
            raise WireError("username_taken", f"the name {name!r} (or one like it) is taken")
        hub.limits.hit("register", addr)
        hashed = await hub.passwords.run(hub.passwords.hash, password)
        me = await current_user(request)
        if me is not None and me["guest"]:
            user = await hub.db(store.upgrade_guest, me["id"], name, hashed)
        else:
            user = await hub.db(store.create_user, name, hashed)
        token = await new_session(request, user["id"])
        device = await hub.db(store.create_device, user["id"])
        return with_cookie(JSONResponse({"user": user}, status_code=201), token, device)

    @app.post("/api/login", openapi_extra=documented("login"))
    async def login(request: Request) -> Response:
        hub = hub_of(request)
        data = await body(request)
        name, password = data.get("username"), data.get("password")
        if not isinstance(name, str) or not isinstance(password, str) or len(name) > 40:
            raise WireError("bad_request", "username and password are required")
        try:
            name.encode()
            password.encode()
        except UnicodeEncodeError:
            raise WireError("bad_request", "username and password must be valid text") from None
        addr = client_addr(request)
        row = await hub.db(store.user_for_login, name)
        cookie = request.cookies.get(DEVICE_COOKIE)
        owner = await hub.db(store.device_user, cookie)
        device = cookie if row is not None and owner == row.id else None
        hub.throttle.check(name, addr, device)
        ok = row is not None and await hub.passwords.run(
            hub.passwords.verify, row.password_hash, password[:200]
        )
        if not ok or row is None:
            hub.throttle.fail(name, addr, device)
            raise WireError("bad_credentials", "wrong user name or password")
        hub.throttle.succeed(name, addr, device)
        token = await new_session(request, row.id)
        new_device = None if device else await hub.db(store.create_device, row.id)
        return with_cookie(JSONResponse({"user": store.user_dict(row)}), token, new_device)

    @app.post("/api/logout", openapi_extra=documented("empty"))
    async def logout(request: Request) -> Response:
        await hub_of(request).db(store.delete_session, request.cookies.get(COOKIE))
        resp = JSONResponse({"ok": True})
        resp.delete_cookie(COOKIE, path="/")
        return resp

    @app.post("/api/guest", openapi_extra=documented("empty"))
    async def guest(request: Request) -> Response:
        hub = hub_of(request)
        import secrets

        hub.limits.hit("guest", client_addr(request))
        for _ in range(5):
            try:
                user = await hub.db(
                    store.create_user, f"guest-{secrets.token_hex(3)}", None, guest=True
                )
                break
            except WireError:
                continue
        else:  # pragma: no cover - 16M names
            raise WireError("internal", "could not make a guest name")
        token = await hub.db(store.create_session, user["id"])
        return with_cookie(JSONResponse({"user": user}, status_code=201), token)

    @app.get("/api/session")
    async def session(request: Request) -> dict[str, Any]:
        """Who this browser is: ``/api/me``'s answer, or ``{"user": null}`` (not a 401,
        so a logged-out page load logs no error)."""
        if await current_user(request) is None:
            return {"user": None}
        return await me(request)

    @app.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        user = await need_user(request)
        return {
            "user": user,
            "balance": await hub.db(store.balance, user["id"]),
            "ratings": await hub.db(store.ratings_of, user["id"]),
        }

    # ------------------------------------------------------------------ reading

    @app.get("/api/config")
    async def get_config() -> dict[str, Any]:
        return {
            "games": {g: {"seats": seats_of(g), "presets": presets(g)} for g in games()},
            "bot_levels": bot_levels(),
            "stakes": list(config.stakes),
            "timers": {
                "turn_seconds": config.turn_seconds,
                "grace_seconds": config.grace_seconds,
                "next_game_seconds": config.next_game_seconds,
            },
        }

    def _limit(limit: int | None, before: int | None, default: int = 50) -> tuple[int, int | None]:
        if before is not None and not 1 <= before <= MAX_ID + 1:
            raise WireError("bad_request", f"before is an id, 1-{MAX_ID + 1}")
        return max(1, min(default if limit is None else limit, 200)), before

    def check_id(value: int, what: str) -> int:
        if not 1 <= value <= MAX_ID:
            raise WireError("not_found", f"no {what} {value}")
        return value

    @app.get("/api/ledger")
    async def get_ledger(
        request: Request, limit: int | None = None, before: int | None = None
    ) -> dict[str, Any]:
        hub = hub_of(request)
        user = await need_user(request)
        limit, before = _limit(limit, before)
        return {
            "balance": await hub.db(store.balance, user["id"]),
            "entries": await hub.db(store.ledger_of, user["id"], limit, before),
        }

    @app.get("/api/games")
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
        limit, before = _limit(limit, before, 20)
        return {"games": await hub.db(store.games_of, uid, game, limit, before)}

    async def finished(request: Request, game_id: int) -> dict[str, Any]:
        check_id(game_id, "finished game")
        got = await hub_of(request).db(store.game_detail, game_id)
        if got is None:
            raise WireError("not_found", f"no finished game {game_id}")
        return got

    @app.get("/api/games/{game_id}")
    async def get_game(request: Request, game_id: int) -> dict[str, Any]:
        return await finished(request, game_id)

    @app.get("/api/games/{game_id}/replay")
    async def get_replay(request: Request, game_id: int) -> dict[str, Any]:
        from madang.server.replay import frames

        g = await finished(request, game_id)
        return {
            "game": g["game"],
            "players": g["players"],
            "result": g["result"],
            "frames": await asyncio.to_thread(frames, g["game"], g["record"]),
        }

    @app.get("/api/leaderboard")
    async def get_leaderboard(
        request: Request, game: str = "matgo", limit: int | None = None
    ) -> dict[str, Any]:
        if game not in games():
            raise WireError("bad_request", f"unknown game {game!r}")
        limit, _ = _limit(limit, None)
        return {"game": game, "entries": await hub_of(request).db(store.leaderboard, game, limit)}

    # ------------------------------------------------------------------ tables

    def room_of(request: Request, table_id: int) -> Room:
        room = hub_of(request).rooms.get(table_id)
        if room is None or room.closing:
            raise WireError("not_found", f"no open table {table_id}")
        return room

    @app.get("/api/tables")
    async def list_tables(request: Request) -> dict[str, Any]:
        rooms = hub_of(request).rooms.values()
        return {"tables": [r.summary() for r in rooms if not r.private and not r.closing][:200]}

    @app.post("/api/tables", openapi_extra=documented("table"))
    async def create_table(request: Request) -> Response:
        hub = hub_of(request)
        user = await need_user(request)
        data = await body(request)
        sitting = sum(1 for r in hub.rooms.values() if not r.closing and r.sits(user["id"]))
        if sitting >= config.tables_per_user:
            raise WireError(
                "too_many_tables",
                f"you have {config.tables_per_user} open tables already; close one first",
            )
        game = data.get("game")
        if not isinstance(game, str) or game not in games():
            raise WireError("bad_request", f"game must be one of {', '.join(games())}")
        preset = data.get("preset", "default")
        if not isinstance(preset, str) or preset not in presets(game):
            raise WireError("rule_config", f"unknown {game} preset {preset!r}")
        stake = data.get("stake", config.stakes[0])
        if type(stake) is not int or stake not in config.stakes:
            raise WireError(
                "bad_request", f"stake must be one of {', '.join(map(str, config.stakes))}"
            )
        private = data.get("private", False)
        if not isinstance(private, bool):
            raise WireError("bad_request", "private must be true or false")
        specs = data.get("seats")
        if not isinstance(specs, list) or len(specs) != seats_of(game):
            raise WireError("bad_request", f"{game} needs {seats_of(game)} seats")
        levels = bot_levels()
        seats: list[Seat] = []
        for i, spec in enumerate(specs):
            if not isinstance(spec, dict) or spec.get("kind") not in ("human", "bot"):
                raise WireError("bad_request", "each seat is {kind: human} or {kind: bot, level}")
            if spec["kind"] == "bot":
                level = spec.get("level", "normal")
                if not isinstance(level, str) or level not in levels:
                    raise WireError("bad_request", f"bot level must be one of {levels}")
                seats.append(Seat(i, "bot", level=level))
            else:
                seats.append(Seat(i, "human"))
        humans = [s for s in seats if s.kind == "human"]
        if not humans:
            raise WireError("bad_request", "a table needs at least one person seat")
        humans[0].user_id = user["id"]
        humans[0].username = user["username"]
        humans[0].disconnected_at = time.monotonic()
        for s in seats:
            if s.kind == "bot":
                bot = await hub.db(store.bot_user, s.level)
                s.user_id, s.username = bot["id"], bot["username"]
        invite = store.new_invite()
        table_id = await hub.db(
            lambda eng: store.create_table(
                eng,
                game=game,
                preset=preset,
                stake=stake,
                private=private,
                invite=invite,
                seats=[{"kind": s.kind, "user_id": s.user_id, "level": s.level} for s in seats],
                created_by=user["id"],
            )
        )
        room = Room(
            table_id=table_id,
            game=game,
            preset=preset,
            stake=stake,
            private=private,
            invite=invite,
            seats=seats,
            config=config,
            engine=hub.engine,
            seed=None if config.deal_seed is None else config.deal_seed + table_id,
            on_close=lambda r: hub.forget(r.table_id),
        )
        hub.rooms[table_id] = room
        room.start()
        return JSONResponse(
            {
                "table": room.summary(with_invite=True),
                "seat": humans[0].index,
                "invite_url": f"/table/{table_id}?invite={invite}",
            },
            status_code=201,
        )

    @app.get("/api/tables/{table_id}")
    async def get_table(request: Request, table_id: int) -> dict[str, Any]:
        room = room_of(request, table_id)
        user = await current_user(request)
        seated = room.seat_of(user["id"] if user else None) is not None
        if room.private and not seated and request.query_params.get("invite") != room.invite:
            raise WireError("forbidden", "this table is private: you need its invite link")
        return {"table": room.summary(with_invite=seated)}

    @app.post("/api/tables/{table_id}/join", openapi_extra=documented("join"))
    async def join_table(request: Request, table_id: int) -> dict[str, Any]:
        room = room_of(request, table_id)
        user = await need_user(request)
        data = await body(request)
        seat, invite = data.get("seat"), data.get("invite")
        if seat is not None and type(seat) is not int:
            raise WireError("bad_request", "seat must be an integer")

        if invite is not None and not isinstance(invite, str):
            raise WireError("bad_request", "invite must be a string")
        got = await asyncio.wait_for(room.call("join", user, seat, invite, data.get("stake")), 10)
        return {"table": room.summary(with_invite=True), "seat": got}

    @app.post("/api/tables/{table_id}/leave", openapi_extra=documented("empty"))
    async def leave_table(request: Request, table_id: int) -> dict[str, Any]:
        room = room_of(request, table_id)
        user = await need_user(request)
        await asyncio.wait_for(room.call("leave", user), 10)
        return {"ok": True}

    # ------------------------------------------------------------------ WebSocket

    @app.websocket("/ws/tables/{table_id}")
    async def ws_table(ws: WebSocket, table_id: int) -> None:
        hub = hub_of(ws)
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

    async def _table_socket(ws: WebSocket, hub: Hub, table_id: int) -> None:
        await ws.accept()
        room = hub.rooms.get(table_id)
        if room is None or room.closing:
            await ws.send_text(dumps(WireError("not_found", "no open table").to_message()))
            await ws.close(code=4404)
            return
        user = await hub.db(store.session_user, ws.cookies.get(COOKIE))
        seat = room.seat_of(user["id"] if user else None)
        if seat is None and room.private and ws.query_params.get("invite") != room.invite:
            await ws.send_text(dumps(WireError("forbidden", "private table").to_message()))
            await ws.close(code=4403)
            return
        conn = Conn(seat, user["username"] if user else None)
        try:
            await asyncio.wait_for(room.call("attach", conn), 10)
        except (TimeoutError, WireError):
            await ws.close(code=4404)
            return
        writer = asyncio.get_running_loop().create_task(_writer(ws, conn))
        bucket = TokenBucket(config.rate_per_s, config.rate_burst)
        try:
            await _reader(ws, conn, room, bucket, config)
        finally:
            room.submit("drop", conn)
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)

    # ------------------------------------------------------------------ the client

    web = Path(config.web_dir)
    if (web).is_dir():
        app.mount("/static", StaticFiles(directory=web), name="static")

    def index() -> Response:
        page = web / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html")
        return HTMLResponse("<!doctype html><title>madang</title><p>The client is not installed.")

    @app.get("/")
    async def root() -> Response:
        return index()

    @app.get("/{path:path}")
    async def spa(path: str) -> Response:
        if path.startswith(("api/", "ws/", "static/")):
            raise WireError("not_found", f"no such path /{path}")
        return index()

    return app


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
    ws: WebSocket, conn: Conn, room: Room, bucket: TokenBucket, config: ServerConfig
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
            room.submit("hello", conn, m["last_version"])
        elif kind == "act":
            room.submit("act", conn, m["version"], m["action"], m["ref"])
        else:
            room.submit("ready", conn)
