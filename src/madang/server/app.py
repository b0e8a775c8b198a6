"""The ASGI app: the client's static files, the JSON API and the table WebSockets.

:func:`create_app` builds it from a :class:`~madang.server.config.ServerConfig`; at start
it applies the Alembic migrations and rebuilds every table a previous run left open from
its journal (:mod:`madang.server.resume`): the games go on. The endpoints are routers of their own
(``routes_accounts``, ``routes_reading``, ``routes_tables``, ``routes_ws``) over the
shared helpers of :mod:`madang.server.deps`; messages: ``docs/protocol.md``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from madang.core.errors import MadangError
from madang.server import (
    quickmatch,
    routes_accounts,
    routes_bots,
    routes_money,
    routes_ops,
    routes_reading,
    routes_stats,
    routes_tables,
    routes_ws,
    store,
)
from madang.server.config import ServerConfig
from madang.server.db import close_db_threads, make_engine, migrate, run_in_db
from madang.server.deps import Hub
from madang.server.resume import resume_tables
from madang.server.security import Guard
from madang.server.wire import WireError, wire_error

log = logging.getLogger("madang.server")


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The whole server as one ASGI app."""
    config = config or ServerConfig()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(config.url())
        await run_in_db(engine, migrate)
        hub = Hub(config, engine)
        if config.redis_url:  # one of several processes: tables are claimed by lease
            from madang.server.cluster import Cluster

            hub.cluster = Cluster(hub)
            await hub.cluster.start()
        else:
            hub.resumed_at_start, hub.aborted_at_start = await resume_tables(
                config, engine, hub.rooms, lambda r: hub.forget(r.table_id)
            )
        hub.quick = quickmatch.QuickMatch(hub)
        app.state.hub = hub
        hub.operator = routes_ops.start_operator(hub)
        try:
            yield
        finally:
            deal_stats = getattr(app.state, "deal_stats", None)
            if deal_stats is not None:  # a computation in progress stops
                await deal_stats.close()
            await hub.quick.close()
            if hub.operator is not None:
                hub.operator.close()
            if hub.cluster is not None:
                await hub.cluster.stop()  # hands the tables over first
            for room in list(hub.rooms.values()):
                await room.shutdown()
            hub.passwords.close()
            hub.reviewer.close()
            close_db_threads(engine)
            engine.dispose()

    app = FastAPI(title="madang", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_middleware(Guard, config=config)

    @app.exception_handler(WireError)
    async def _wire(_: Request, e: WireError) -> JSONResponse:
        return JSONResponse({"error": e.to_dict()}, status_code=e.status)

    @app.exception_handler(store.NameTaken)
    async def _taken(_: Request, e: store.NameTaken) -> JSONResponse:
        w = WireError("username_taken", str(e))
        return JSONResponse({"error": w.to_dict()}, status_code=w.status)

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

    for module in (
        routes_accounts,
        routes_money,
        routes_reading,
        routes_tables,
        routes_ws,
        routes_ops,
        routes_bots,
    ):
        app.include_router(module.router)
    app.include_router(routes_stats.router)
    app.include_router(quickmatch.router)

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
