"""Game money and self-care: the bankroll and its daily refill, the limits a player sets
on themselves (``docs/server.md``, Money and Self-care)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from madang.server import selfcare
from madang.server.deps import body, hub_of, need_user
from madang.server.money import MoneyRules, bankroll, refill
from madang.server.schemas import body as documented
from madang.server.wire import WireError

router = APIRouter()


@router.get("/api/money")
async def money(request: Request) -> dict[str, Any]:
    """The bankroll, what open tables reserve, what is free and the refill's state."""
    hub = hub_of(request)
    user = await need_user(request)
    return await hub.db(bankroll, user["id"], MoneyRules.of(hub.config))


@router.post("/api/money/refill", openapi_extra=documented("empty"))
async def take_refill(request: Request) -> dict[str, Any]:
    """The daily free refill (claimed by the player): ``already_refilled`` or
    ``refill_above_floor`` when it cannot be taken; then the bankroll as ``/api/money``."""
    hub = hub_of(request)
    user = await need_user(request)
    await body(request)
    rules = MoneyRules.of(hub.config)
    got = await hub.db(refill, user["id"], rules)
    return {"refilled": got["amount"], **await hub.db(bankroll, user["id"], rules)}


@router.get("/api/selfcare")
async def get_selfcare(request: Request) -> dict[str, Any]:
    """The player's limits, what is used and left today, and any self-exclusion."""
    hub = hub_of(request)
    user = await need_user(request)
    return await hub.db(selfcare.status, user["id"], hub.config.day_zone)


@router.post("/api/selfcare/limit", openapi_extra=documented("limit"))
async def set_limit(request: Request) -> dict[str, Any]:
    """Set (``value``: an integer) or remove (``null``) the daily ``play_minutes`` or
    ``loss`` limit: lower at once, higher or removed after the cooling-off delay."""
    hub = hub_of(request)
    user = await need_user(request)
    data = await body(request)
    if "value" not in data:
        raise WireError("bad_request", "value is required (null removes the limit)")
    kind, value = selfcare.check_value(data.get("limit"), data.get("value"))
    return await hub.db(
        selfcare.set_limit,
        user["id"],
        kind,
        value,
        zone=hub.config.day_zone,
        cooloff_s=hub.config.limit_cooloff_s,
    )


@router.post("/api/selfcare/exclude", openapi_extra=documented("exclude"))
async def exclude(request: Request) -> dict[str, Any]:
    """Exclude oneself from play for 3, 6 or 12 months: it cannot be undone early."""
    hub = hub_of(request)
    user = await need_user(request)
    data = await body(request)
    return await hub.db(selfcare.exclude, user["id"], data.get("months"), zone=hub.config.day_zone)
