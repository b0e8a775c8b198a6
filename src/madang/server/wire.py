"""Wire errors and message checks: every failure the client sees has a stable code.

:class:`WireError` carries a code of ``docs/protocol.md`` and an HTTP status; the
engines' typed errors map to codes by :func:`wire_error`.

>>> from madang.core.errors import IllegalActionError
>>> e = wire_error(IllegalActionError("not your turn"))
>>> e.code, e.status
('illegal_action', 409)
>>> parse_client_message('{"type": "act", "version": 3, "action": "go"}')["version"]
3
>>> parse_client_message('{"type": "act", "version": "3", "action": "go"}')
Traceback (most recent call last):
...
madang.server.wire.WireError: version must be an integer
"""

from __future__ import annotations

import json
from typing import Any

from madang.core.errors import MadangError

#: HTTP status of each wire code.
STATUS: dict[str, int] = {
    "bad_request": 400,
    "invalid_action": 400,
    "illegal_action": 409,
    "rule_config": 400,
    "bad_record": 400,
    "rules_error": 400,
    "stale_version": 409,
    "not_seated": 403,
    "game_over": 409,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "username_taken": 409,
    "bad_credentials": 401,
    "throttled": 429,
    "seat_taken": 409,
    "table_full": 409,
    "stake_unconfirmed": 409,
    "stake_too_high": 400,
    "too_large": 413,
    "rate_limited": 429,
    "bad_media_type": 415,
    "busy": 503,
    "too_many_tables": 429,
    "already_queued": 409,
    "internal": 500,
    "settlement_failed": 500,
    "bad_entropy": 400,
    "entropy_closed": 409,
    "not_enough_money": 409,
    "already_refilled": 409,
    "refill_above_floor": 409,
    "self_excluded": 403,
    "play_time_limit": 403,
    "loss_limit": 403,
    "bad_autoplay": 400,
    "bad_pick": 400,
    "pick_closed": 409,
    "bad_chat": 400,
    "chat_off": 403,
    "bot_account": 403,
    "already_bot": 409,
    "has_games": 409,
    "too_many_tokens": 409,
    "bot_offline": 409,
    "bot_declined": 409,
}


class WireError(Exception):
    """A failure reported to a client: ``code`` (see :data:`STATUS`) and a message."""

    def __init__(self, code: str, message: str, *, retry_after: float | None = None) -> None:
        if code not in STATUS:
            raise ValueError(f"unknown wire code {code!r}")
        super().__init__(message)
        self.code = code
        self.status = STATUS[code]
        self.retry_after = retry_after

    def to_dict(self) -> dict[str, Any]:
        """The ``error`` object of an HTTP answer."""
        out: dict[str, Any] = {"code": self.code, "message": str(self)}
        if self.retry_after is not None:
            out["retry_after"] = round(self.retry_after, 1)
        return out

    def to_message(self, ref: Any = None) -> dict[str, Any]:
        """The WebSocket ``error`` message."""
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": str(self)}
        if self.retry_after is not None:
            out["retry_after"] = round(self.retry_after, 1)
        if ref is not None:
            out["ref"] = ref
        if self.retry_after is not None:
            out["retry_after"] = round(self.retry_after, 1)
        return out


def wire_error(err: MadangError) -> WireError:
    """The wire error of an engine error: its own stable ``code`` (``bad_request`` for
    one the wire does not know)."""
    code = err.code if err.code in STATUS else "bad_request"
    return WireError(code, str(err) or type(err).__name__)


_TYPES = {"hello", "act", "ready", "ping", "fair_entropy", "autoplay", "first_pick", "chat"}


def _int(obj: dict[str, Any], key: str, *, optional: bool = False) -> int | None:
    v = obj.get(key)
    if v is None and optional:
        return None
    if type(v) is not int or not -(2**53) < v < 2**53:
        raise WireError("bad_request", f"{key} must be an integer")
    return v


def parse_client_message(text: str | bytes) -> dict[str, Any]:
    """Check one client message; return it with its fields typed, or raise WireError."""
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        raise WireError("bad_request", "a message must be one JSON object") from None
    if not isinstance(obj, dict):
        raise WireError("bad_request", "a message must be one JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        shown = repr(kind) if isinstance(kind, str | None) else type(kind).__name__
        raise WireError("bad_request", f"unknown message type {shown[:40]}")
    ref = obj.get("ref")
    if ref is not None and (type(ref) is not int or not 0 <= ref < 2**53):
        raise WireError("bad_request", "ref must be a non-negative integer")
    out: dict[str, Any] = {"type": kind, "ref": ref}
    if kind == "hello":
        out["last_version"] = _int(obj, "last_version", optional=True)
    elif kind == "act":
        out["version"] = _int(obj, "version")
        action = obj.get("action")
        if not isinstance(action, str) or not 0 < len(action) <= 64:
            raise WireError("bad_request", "action must be a move string")
        out["action"] = action
    elif kind == "fair_entropy":
        from madang.server.fairdeal import check_entropy

        out["entropy"] = check_entropy(obj.get("entropy"))
    elif kind == "autoplay":
        from madang.server.autoplay import check_autoplay

        out["on"] = check_autoplay(obj.get("on"))
    elif kind == "first_pick":
        from madang.server.first_dealer import check_slot

        out["slot"] = check_slot(obj.get("slot"))
    elif kind == "chat":
        from madang.server.chat import parse_chat

        out["chat"] = parse_chat(obj)
    return out
