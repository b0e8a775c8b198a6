"""Matgo events: what happened in each step, for animation, logs and redaction.

The engine records each event as a small tuple ``(type, *fields)`` (cheap on the hot
path); :func:`event_to_dict` turns one into a JSON-able dict with card codes, and
:func:`redact` hides what a seat may not see.

>>> event_to_dict(("play", 0, 28))
{'type': 'play', 'seat': 0, 'card': '08g'}
>>> redact(("draw", 1, 5), 0)
{'type': 'draw', 'seat': 1}
"""

from __future__ import annotations

from typing import Any

from madang.matgo.cards import CODES, codes_of

Event = tuple[Any, ...]


class NoEvents(list[Event]):
    """The events list of a game dealt with ``events=False``: it stays empty. Its
    ``append`` discards its argument at C speed (an empty tuple's ``count``, which looks
    at nothing), so the engine's hot paths build the same events without keeping them,
    and a clone's copy stays a ``NoEvents``."""

    __slots__ = ()

    append = ().count  # type: ignore[assignment]

    def copy(self) -> NoEvents:
        """This same empty list (it holds nothing to copy)."""
        return self


#: Field names of each event type. ``card`` fields are card ids, ``cards`` masks.
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "deal": ("dealer",),
    "floor_bonus": ("seat", "card"),  # a bonus card dealt to the floor goes to 선
    "redeal": ("reason",),
    "chongtong": ("seat", "months"),
    "chongtong_play": ("seat", "cards"),
    "bonus_play": ("seat", "card"),
    "draw": ("seat", "card"),  # a card drawn into the hand after a bonus play: hidden
    "play": ("seat", "card"),
    "shake": ("seat", "month", "cards"),
    "bomb": ("seat", "month", "cards"),
    "token_flip": ("seat", "tokens_left"),
    "pick": ("seat", "card"),
    "flip": ("seat", "card"),
    "ppeok": ("seat", "month", "count"),
    "jjok": ("seat", "month"),
    "ttadak": ("seat", "month"),
    "take_stack": ("seat", "month", "maker"),
    "sseul": ("seat",),
    "capture": ("seat", "cards"),
    "steal": ("seat", "victim", "card", "reason"),
    "steal_none": ("seat", "victim", "reason"),
    "gukjin_fixed": ("seat", "as"),
    "go": ("seat", "count", "score"),
    "stop": ("seat", "score"),
    "payment": ("from", "to", "points", "reason"),
    "end": ("winner", "points", "reason"),
    # 고스톱 only (gostop.md §7, §8): 광팔기's answers and sale, 쇼당's call and answers
    "join": ("seat",),
    "die": ("seat",),  # the seat sits this game out, its cards under the pile unseen
    "sell": ("seat",),  # 선+3 sits out and sells 광 (the 광값 follows as payments)
    "shodang": ("seat", "cards"),  # the caller's hand, shown to both
    "shodang_accept": ("seat",),
    "shodang_refuse": ("seat",),
}

#: The events only 고스톱 makes (never in a game of 맞고).
GOSTOP_EVENTS: frozenset[str] = frozenset(
    ("join", "die", "sell", "shodang", "shodang_accept", "shodang_refuse")
)

_HIDDEN = {"draw": 2}  # event type -> index of the hidden field


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-able dict of one event, cards as codes."""
    kind = event[0]
    out: dict[str, Any] = {"type": kind}
    for name, value in zip(EVENT_FIELDS[kind], event[1:], strict=True):
        if name == "card":
            out[name] = CODES[value]
        elif name == "cards":
            out[name] = codes_of(value)
        else:
            out[name] = value
    return out


def redact(event: Event, seat: int | None) -> dict[str, Any]:
    """The event as ``seat`` may see it (``None``: a spectator)."""
    hidden = _HIDDEN.get(event[0])
    if hidden is not None and event[1] != seat:
        event = event[:hidden]
        return {"type": event[0], **dict(zip(EVENT_FIELDS[event[0]], event[1:], strict=False))}
    return event_to_dict(event)
