"""Talk at the table (``docs/protocol.md``, Chat): emoticons and quick phrases from a
fixed catalogue, sent by id, and optional free text, checked like a name and
rate-limited.

A seated person sends ``{"type": "chat", "emote": "joy"}`` (or ``"phrase"``, or
``"text"``); the room broadcasts ``{"type": "chat", "seat": 0, "emote": "joy"}`` to
every connection of the table, seats and spectators. Chat is not versioned, not in the
streams' history, the journal or the game's record: like the portals, the server keeps
no transcript, and a reconnecting client sees only what is said from then on.

>>> parse_chat({"type": "chat", "emote": "joy"})
ChatItem(kind='emote', value='joy')
>>> parse_chat({"type": "chat", "text": "  한 판  더！ "})
ChatItem(kind='text', value='한 판 더!')
>>> parse_chat({"type": "chat", "text": "hi\\u202e"})
Traceback (most recent call last):
...
madang.server.wire.WireError: chat text may not hold control, direction or invisible characters
>>> parse_chat({"type": "chat", "emote": "joy", "text": "hi"})
Traceback (most recent call last):
...
madang.server.wire.WireError: a chat message has exactly one of emote, phrase or text
"""

from __future__ import annotations

import re
import time
import unicodedata
from dataclasses import dataclass
from typing import Any, Final, Literal

from limits import parse_many
from limits.storage import Storage
from limits.strategies import MovingWindowRateLimiter

from madang.server.auth import Counters, nfkc
from madang.server.wire import WireError

__all__ = [
    "EMOTES",
    "PHRASES",
    "ChatItem",
    "ChatLimits",
    "catalogue",
    "check_text",
    "parse_chat",
]

EMOTES: Final[dict[str, str]] = {
    "joy": "기쁨",
    "sad": "슬픔",
    "surprise": "놀람",
    "angry": "화남",
    "laugh": "웃음",
    "think": "고민",
    "cheer": "응원",
    "thanks": "감사",
}
"""The emoticons: id → name (the browser draws each as its own face, ``web/js/chat.js``)."""

PHRASES: Final[dict[str, str]] = {
    "hello": "안녕하세요",
    "please": "잘 부탁드립니다",
    "hurry": "빨리 좀 치세요~",
    "nice": "잘 치시네요!",
    "oops": "앗, 실수!",
    "sorry": "죄송합니다",
    "again": "한 판 더!",
    "bye": "수고하셨습니다",
}
"""The quick phrases (빠른 대화): id → text."""

TEXT_MAX: Final = 60
"""The longest free text, in characters after normalisation."""

_KINDS: Final = ("emote", "phrase", "text")

# Hangul fillers render as nothing (as in user names, ``auth.check_username``).
_INVISIBLE: Final = frozenset("\u115f\u1160\u3164\uffa0")
# Control (Cc), format (Cf: the direction marks, embeddings, overrides and isolates,
# zero-width characters, BOM), surrogate, private-use and unassigned code points, and
# the line and paragraph separators.
_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_SPACES: Final = re.compile(r"\s+")
_MAX_MARKS: Final = 2
"""Combining marks allowed on one character (no "Zalgo" text spilling over the table)."""


@dataclass(frozen=True, slots=True)
class ChatItem:
    """One thing said: an emoticon's or a quick phrase's id, or checked free text."""

    kind: Literal["emote", "phrase", "text"]
    value: str

    def message(self, seat: int) -> dict[str, Any]:
        """The ``chat`` message the table receives."""
        return {"type": "chat", "seat": seat, self.kind: self.value}


def check_text(value: object) -> str:
    """Free chat text, checked as a name is (``auth.check_username``): a string, NFKC
    (keeping ㅋㅋ as typed), white space collapsed, 1–:data:`TEXT_MAX` characters, no
    control, format (direction marks, zero-width), invisible or unassigned character, at
    most two combining marks in a row; else WireError ``bad_chat``.

    >>> check_text("ＡＢＣ ｗｏｗ ㅋㅋ")
    'ABC wow ㅋㅋ'
    >>> check_text("x" * 61)
    Traceback (most recent call last):
    ...
    madang.server.wire.WireError: chat text is 1-60 characters
    """
    if not isinstance(value, str):
        raise WireError("bad_chat", "chat text must be a string")
    if len(value) > 4 * TEXT_MAX:
        raise WireError("bad_chat", f"chat text is 1-{TEXT_MAX} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise WireError("bad_chat", "chat text must be valid Unicode text") from None
    for ch in value:  # before normalising: NFKC must not hide what was sent
        if unicodedata.category(ch) in _REFUSED_CATEGORIES or ch in _INVISIBLE:
            raise WireError(
                "bad_chat", "chat text may not hold control, direction or invisible characters"
            )
    text = _SPACES.sub(" ", nfkc(value)).strip()
    if not 1 <= len(text) <= TEXT_MAX:
        raise WireError("bad_chat", f"chat text is 1-{TEXT_MAX} characters")
    if any(unicodedata.category(ch) in _REFUSED_CATEGORIES or ch in _INVISIBLE for ch in text):
        raise WireError(  # pragma: no cover - NFKC of checked text makes none
            "bad_chat", "chat text may not hold control, direction or invisible characters"
        )
    marks = 0
    for ch in text:
        marks = marks + 1 if unicodedata.combining(ch) else 0
        if marks > _MAX_MARKS:
            raise WireError("bad_chat", "chat text has too many combining marks")
    return text


def parse_chat(obj: dict[str, Any]) -> ChatItem:
    """The checked content of a client's ``chat`` message (WireError ``bad_chat``)."""
    present = [k for k in _KINDS if k in obj]
    if len(present) != 1:
        raise WireError("bad_chat", "a chat message has exactly one of emote, phrase or text")
    kind = present[0]
    value = obj[kind]
    if kind == "text":
        return ChatItem("text", check_text(value))
    known = EMOTES if kind == "emote" else PHRASES
    if not isinstance(value, str) or value not in known:
        raise WireError("bad_chat", f"unknown {kind}: see GET /api/chat")
    return ChatItem("emote" if kind == "emote" else "phrase", value)


def catalogue(*, text: bool) -> dict[str, Any]:
    """What a client may send (``GET /api/chat``): the emoticons, the quick phrases, and
    whether free text is open to this user."""
    return {
        "emotes": [{"id": k, "label": v} for k, v in EMOTES.items()],
        "phrases": [{"id": k, "text": v} for k, v in PHRASES.items()],
        "text": text,
        "text_max": TEXT_MAX,
    }


class ChatLimits:
    """Per-account chat limits: moving windows of ``limits`` (``ServerConfig.chat_limit``,
    e.g. ``"3/3 seconds; 20/minute"``) counted in the app's
    :class:`~madang.server.auth.Counters`, so across a cluster's processes and all of one
    account's tables and tabs. The per-connection token bucket is the socket's
    (``routes_ws``)."""

    def __init__(self, limit: str, counters: Counters) -> None:
        self.items = parse_many(limit)
        self.counters = counters

    def hit(self, account: str) -> None:
        """Count one message of ``account``; ``rate_limited`` (nothing counted) when over."""

        def ask(_: Storage, limiter: MovingWindowRateLimiter) -> float | None:
            for item in self.items:
                if not limiter.test(item, "chat", account):
                    return float(limiter.get_window_stats(item, "chat", account)[0])
            for item in self.items:
                limiter.hit(item, "chat", account)
            return None

        reset = self.counters.run(ask)
        if reset is not None:
            raise WireError(
                "rate_limited",
                "you are talking too fast; wait a little",
                retry_after=max(0.1, reset - time.time()),
            )
