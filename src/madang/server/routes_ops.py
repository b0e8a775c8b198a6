"""For the load balancer: liveness and readiness (public, and telling nothing about the
games); for the operator: the metrics on a port of their own (:func:`start_operator`)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from madang.server.deps import Hub, hub_of
from madang.server.metrics import Operator, serve_operator
from madang.server.wire import WireError

router = APIRouter()


def _ping(eng: Any) -> None:
    with eng.connect() as c:
        c.execute(sa.text("SELECT 1"))


@router.get("/api/health")
async def health() -> dict[str, Any]:
    """Liveness: the process answers (nothing else is asked, nothing else is told: the
    node's name and its tables are the operator's, on the metrics port)."""
    return {"ok": True}


@router.get("/api/ready")
async def ready(request: Request) -> Response:
    """Readiness (the proxy's check): 200 while this process should be sent players —
    its database answers and it is not handing its tables over; else 503. Redis is not
    asked: without it a process still serves pages, logins, guests and the tables it
    plays (``/api/ready/redis`` is the operator's check of Redis)."""
    hub = hub_of(request)
    problems: list[str] = []
    try:
        await hub.db(_ping)
    except Exception as e:
        problems.append(f"database: {type(e).__name__}")
    cluster = hub.cluster
    if cluster is not None and cluster.draining:
        problems.append("draining")
    status = 503 if problems else 200
    return JSONResponse({"ready": not problems, "problems": problems}, status_code=status)


@router.get("/api/ready/redis")
async def ready_redis(request: Request) -> Response:
    """The operator's check of Redis: 200 when it answers a ``PING`` within a second
    (or this process uses none), 503 when it does not. Not for the proxy: a process
    without Redis still serves what it can alone."""
    cluster = hub_of(request).cluster
    if cluster is None:
        return JSONResponse({"ok": True, "redis": "not used"})
    if await cluster.redis_ok():
        return JSONResponse({"ok": True, "redis": "ok", "node": cluster.node})
    return JSONResponse(
        {"ok": False, "redis": "unreachable", "node": cluster.node}, status_code=503
    )


@router.get("/metrics")
async def no_metrics() -> Response:
    """Not here: the public port tells nothing about the games (not the page either, so
    that a scraper left pointing here fails plainly)."""
    raise WireError("not_found", "the metrics are served on the operator's port only")


def start_operator(hub: Hub) -> Operator | None:
    """The operator's metrics server (``metrics_port`` on ``metrics_host``), or None."""
    config = hub.config
    if config.metrics_port is None:
        return None
    node = hub.cluster.node if hub.cluster is not None else None
    return serve_operator(config.metrics_host, config.metrics_port, lambda: _gauges(hub), node)


def _gauges(hub: Hub) -> dict[str, float]:
    # read in the metrics server's thread: copy before iterating
    cluster = hub.cluster
    return {
        "madang_tables": float(sum(1 for r in list(hub.rooms.values()) if not r.closing)),
        "madang_connections": float(sum(list(hub.sockets.values()))),
        "madang_draining": float(cluster is not None and cluster.draining),
    }
