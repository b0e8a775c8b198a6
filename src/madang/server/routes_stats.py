"""Deal statistics (``GET /api/stats/deals``): the finished games of the database
tested against theory (:mod:`madang.server.deal_stats`, ``docs/deal-stats.md``). Public
and read-only; computed in the background and cached (``refresh_s``): until the first
computation ends the answer is ``202 {"status": "computing"}`` with ``Retry-After``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from madang.server.deal_stats import DealStatsCache, StatsSettings, Stopped
from madang.server.deps import hub_of
from madang.server.wire import WireError

router = APIRouter()


def stats_cache(request: Request) -> DealStatsCache:
    """The app's cache of the page (made with the default settings when first asked;
    tests set ``app.state.deal_stats`` first)."""
    state = request.app.state
    cache = getattr(state, "deal_stats", None)
    if cache is None:
        cache = state.deal_stats = DealStatsCache(StatsSettings())
    return cache


RETRY_S = 2
"""How long a client waits before asking again while the first result is computed."""


@router.get("/api/stats/deals", response_model=None)
async def get_deal_stats(request: Request) -> dict[str, Any] | JSONResponse:
    try:
        value = stats_cache(request).get(hub_of(request).engine)
    except Stopped:
        raise WireError("busy", "this server is shutting down: try again") from None
    if value is None:
        return JSONResponse(
            {"status": "computing", "retry_s": RETRY_S},
            status_code=202,
            headers={"Retry-After": str(RETRY_S)},
        )
    return value
