"""The guard in front of the app: what every HTTP request and WebSocket handshake passes.

:class:`Guard` is a plain ASGI middleware (outside FastAPI's routing, so that nothing
reaches an endpoint before it has passed):

* **Cross-origin requests** (:func:`cross_origin_refusal`): a state-changing request
  (any method but ``GET``/``HEAD``/``OPTIONS``) and every WebSocket handshake must come
  from the server's own origin. A browser says where a request comes from in
  ``Sec-Fetch-Site`` and ``Origin``; ``same-origin`` (or ``none``, typed by the user) is
  allowed, any other ``Sec-Fetch-Site`` is refused, and without it an ``Origin`` must be
  the request's own scheme, host and port or one of ``ServerConfig.allowed_origins``. A
  request with neither header does not come from a browser (which always sends one on
  these requests), so it carries no victim's cookie and is let through. A page on
  another port of the same host is another origin: it is refused.
* **JSON only**: a request body must be ``application/json`` (415 otherwise), so that
  no HTML form (``text/plain``, ``application/x-www-form-urlencoded``, multipart) can
  post to the API from another site.
* **Body size** while reading: a declared ``Content-Length`` over the cap is refused at
  once, and a chunked body is counted as it arrives and cut off at the cap (413, and
  the connection is closed), so no request holds more than ``max_body`` bytes.
* **Security headers** on every HTTP answer (:func:`security_headers`): a
  Content-Security-Policy with ``frame-ancestors 'none'``, ``X-Content-Type-Options:
  nosniff``, ``Referrer-Policy: no-referrer`` (invite links carry a secret in the
  query), ``X-Frame-Options: DENY`` for old browsers, and HSTS when the cookie is
  ``Secure`` (the site is served over HTTPS).

>>> scope = {"type": "http", "method": "POST", "scheme": "http",
...          "headers": [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:9999")]}
>>> cross_origin_refusal(scope, ())
'origin http://127.0.0.1:9999 is not this site'
>>> scope["headers"][1] = (b"origin", b"http://127.0.0.1:8000")
>>> cross_origin_refusal(scope, ()) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from madang.server.config import ServerConfig

Scope = dict[str, Any]
Message = dict[str, Any]

SAFE_METHODS = frozenset(("GET", "HEAD", "OPTIONS"))

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The Content-Security-Policy of every page: the client's own files only, no inline
script or style, never framed."""


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", ()):
        if k == name:
            return bytes(v).decode("latin-1")
    return None


def _origin_of(scope: Scope) -> str:
    """This request's own origin, from its scheme and ``Host`` header."""
    scheme = scope.get("scheme", "http")
    if scheme in ("ws", "wss"):
        scheme = "https" if scheme == "wss" else "http"
    host = _header(scope, b"host") or ""
    return f"{scheme}://{host}".lower()


def cross_origin_refusal(scope: Scope, allowed: Iterable[str]) -> str | None:
    """Why a request must be refused as cross-origin, or None when it may pass.

    Safe HTTP methods always pass; WebSocket handshakes are checked like POSTs.
    """
    if scope["type"] == "http" and scope.get("method", "GET") in SAFE_METHODS:
        return None
    site = _header(scope, b"sec-fetch-site")
    if site is not None:
        if site.lower() in ("same-origin", "none"):
            return None
        return f"a {site} request is refused"
    origin = _header(scope, b"origin")
    if origin is None:
        return None  # not a browser: no victim's cookie comes with it
    origin = origin.lower().rstrip("/")
    if origin == _origin_of(scope) or origin in {o.lower().rstrip("/") for o in allowed}:
        return None
    return f"origin {origin} is not this site"


def security_headers(config: ServerConfig) -> list[tuple[bytes, bytes]]:
    """The headers added to every HTTP answer."""
    out = [
        (b"content-security-policy", CSP.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
        (b"cross-origin-opener-policy", b"same-origin"),
    ]
    if config.secure_cookie:
        out.append((b"strict-transport-security", b"max-age=31536000"))
    return out


class BodyTooLarge(Exception):
    """A request body went past the cap while it was read."""


def _error_body(code: str, message: str) -> bytes:
    return orjson.dumps({"error": {"code": code, "message": message}})


class Guard:
    """The ASGI middleware described in the module docstring."""

    def __init__(self, app: Any, config: ServerConfig) -> None:
        self.app = app
        self.config = config
        self.max_body = config.max_body
        self.allowed = tuple(config.allowed_origins)
        self.headers = security_headers(config)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "websocket":
            why = cross_origin_refusal(scope, self.allowed)
            if why is not None:
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 4403, "reason": why[:100]})
                return
            await self.app(scope, receive, send)
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return
        await self._http(scope, receive, send)

    async def _refuse(self, send: Any, status: int, code: str, message: str) -> None:
        body = _error_body(code, message)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                    *self.headers,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def _http(self, scope: Scope, receive: Any, send: Any) -> None:
        why = cross_origin_refusal(scope, self.allowed)
        if why is not None:
            await self._refuse(send, 403, "forbidden", f"cross-site request refused: {why}")
            return
        length = _header(scope, b"content-length")
        chunked = _header(scope, b"transfer-encoding") is not None
        declared = int(length) if length is not None and length.isdigit() else None
        if declared is not None and declared > self.max_body:
            await self._refuse(send, 413, "too_large", f"a body is at most {self.max_body} bytes")
            return
        has_body = chunked or bool(declared)
        if scope["method"] not in SAFE_METHODS and has_body:
            ctype = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if ctype != "application/json":
                await self._refuse(
                    send, 415, "bad_media_type", "a request body must be application/json"
                )
                return
        seen = 0
        started = False
        extra = self.headers

        async def counted_receive() -> Message:
            nonlocal seen
            msg: Message = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge
            return msg

        async def guarded_send(msg: Message) -> None:
            nonlocal started
            if msg["type"] == "http.response.start":
                started = True
                msg = {**msg, "headers": [*msg.get("headers", ()), *extra]}
            await send(msg)

        try:
            await self.app(scope, counted_receive, guarded_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(
                    send, 413, "too_large", f"a body is at most {self.max_body} bytes"
                )
