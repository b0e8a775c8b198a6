"""For the operator and the load balancer: liveness, readiness and the metrics."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from madang.server.deps import Hub, hub_of
from madang.server.metrics import exposition

router = APIRouter()


def _ping(eng: Any) -> None:
    with eng.connect() as c:
        c.execute(sa.text("SELECT 1"))


@router.get("/api/health")
async def health(request: Request) -> dict[str, Any]:
    """Liveness: the process answers (nothing else is asked)."""
    hub = hub_of(request)
    node = hub.cluster.node if hub.cluster is not None else None
    return {"ok": True, "node": node, "tables": len(hub.rooms)}


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
async def metrics(request: Request) -> Response:
    """Prometheus metrics (text format 0.0.4)."""
    hub = hub_of(request)
    return Response(
        exposition(lambda: _gauges(hub)), media_type="text/plain; version=0.0.4; charset=utf-8"
    )


def _gauges(hub: Hub) -> dict[str, float]:
    cluster = hub.cluster
    return {
        "madang_tables": float(sum(1 for r in hub.rooms.values() if not r.closing)),
        "madang_connections": float(sum(hub.sockets.values())),
        "madang_draining": float(cluster is not None and cluster.draining),
    }
