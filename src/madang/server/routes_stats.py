"""Deal statistics (``GET /api/stats/deals``): the finished games of the database
tested against theory (:mod:`madang.server.deal_stats`, ``docs/deal-stats.md``). Public
and read-only; the computation is cached (``refresh_s``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from madang.server.deal_stats import DealStatsCache, StatsSettings
from madang.server.deps import hub_of

router = APIRouter()


def stats_cache(request: Request) -> DealStatsCache:
    """The app's cache of the page (made with the default settings when first asked;
    tests set ``app.state.deal_stats`` first)."""
    state = request.app.state
    cache = getattr(state, "deal_stats", None)
    if cache is None:
        cache = state.deal_stats = DealStatsCache(StatsSettings())
    return cache


@router.get("/api/stats/deals")
async def get_deal_stats(request: Request) -> dict[str, Any]:
    return await stats_cache(request).get(hub_of(request).engine)
