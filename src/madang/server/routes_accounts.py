"""Accounts: registration, login, logout, guests and who one is (cookie sessions)."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from madang.server import store
from madang.server.auth import check_password, check_username
from madang.server.deps import (
    COOKIE,
    DEVICE_COOKIE,
    body,
    client_addr,
    current_user,
    hub_of,
    need_user,
    new_session,
    with_cookie,
)
from madang.server.money import MoneyRules, bankroll
from madang.server.schemas import body as documented
from madang.server.wire import WireError

router = APIRouter()


@router.post("/api/register", openapi_extra=documented("register"))
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
    hashed = await hub.passwords.run(hub.passwords.hash, password, key=addr)
    me = await current_user(request)
    if me is not None and me["guest"]:
        user = await hub.db(store.upgrade_guest, me["id"], name, hashed)
    else:
        user = await hub.db(store.create_user, name, hashed, start=hub.config.money_start)
    token = await new_session(request, user["id"])
    device = await hub.db(store.create_device, user["id"])
    return with_cookie(
        JSONResponse({"user": user}, status_code=201),
        token,
        device,
        secure=hub.config.secure_cookie,
    )


@router.post("/api/login", openapi_extra=documented("login"))
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
    if row is not None and row.is_bot:  # a bot plays through its API tokens only
        raise WireError("bot_account", f"{row.username!r} is a bot account: it has no password")
    try:  # a known device has a lane of the hashing queue of its own (auth.Passwords)
        ok = row is not None and await hub.passwords.run(
            hub.passwords.verify,
            row.password_hash,
            password[:200],
            key=addr if device is None else f"device|{device}",
            known=device is not None,
        )
    except WireError:  # busy, or an attempt of this address still waiting: counted
        hub.throttle.refused(addr, device)
        raise
    if not ok or row is None:
        hub.throttle.fail(name, addr, device)
        raise WireError("bad_credentials", "wrong user name or password")
    hub.throttle.succeed(name, addr, device)
    token = await new_session(request, row.id)
    new_device = None if device else await hub.db(store.create_device, row.id)
    return with_cookie(
        JSONResponse({"user": store.user_dict(row)}),
        token,
        new_device,
        secure=hub.config.secure_cookie,
    )


@router.post("/api/logout", openapi_extra=documented("logout"))
async def logout(request: Request) -> Response:
    """End this session; with ``{"everywhere": true}`` every session of the account, on
    every device (then ``ended`` says how many)."""
    hub = hub_of(request)
    everywhere = (await body(request)).get("everywhere", False)
    if not isinstance(everywhere, bool):
        raise WireError("bad_request", "everywhere must be true or false")
    answer: dict[str, Any] = {"ok": True}
    if everywhere:
        user = await need_user(request)
        answer["ended"] = await hub.db(store.delete_sessions_of, user["id"])
    else:
        await hub.db(store.delete_session, request.cookies.get(COOKIE))
    resp = JSONResponse(answer)
    resp.delete_cookie(COOKIE, path="/")
    return resp


@router.post("/api/guest", openapi_extra=documented("empty"))
async def guest(request: Request) -> Response:
    hub = hub_of(request)

    hub.limits.hit("guest", client_addr(request))
    for _ in range(5):
        try:
            user = await hub.db(
                store.create_user,
                f"guest-{secrets.token_hex(3)}",
                None,
                guest=True,
                start=hub.config.money_start,
            )
            break
        except store.NameTaken:
            continue
    else:  # pragma: no cover - 16M names
        raise WireError("internal", "could not make a guest name")
    token = await hub.db(store.create_session, user["id"])
    return with_cookie(
        JSONResponse({"user": user}, status_code=201), token, secure=hub.config.secure_cookie
    )


@router.get("/api/session")
async def session(request: Request) -> dict[str, Any]:
    """Who this browser is: ``/api/me``'s answer, or ``{"user": null}`` (not a 401,
    so a logged-out page load logs no error)."""
    if await current_user(request) is None:
        return {"user": None}
    return await me(request)


@router.get("/api/me")
async def me(request: Request) -> dict[str, Any]:
    hub = hub_of(request)
    user = await need_user(request)
    wallet = await hub.db(bankroll, user["id"], MoneyRules.of(hub.config))
    return {
        "user": user,
        "balance": wallet["balance"],
        "money": wallet,
        "ratings": await hub.db(store.ratings_of, user["id"]),
    }
