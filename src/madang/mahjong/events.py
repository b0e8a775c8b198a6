"""The events a mahjong hand emits, and who may see what of them.

Events are small JSON-ready dicts with a ``"type"`` and mostly a ``"seat"``. Most are
public; these are not:

* ``deal``: the dealt tiles are seen by their seat only; others get ``"count"``;
* ``draw``: the drawn tile is seen by its seat only (a flower drawn is shown in the
  ``flower`` event that follows, which is public);
* ``ask`` (a claim question) and ``answer`` (the seat's reply to it): only the seat
  concerned sees them — that a seat *could* have claimed is private knowledge; the
  outcome of the window (``pon``, ``kan``, ``win``, or the next ``draw``) is public.

>>> redact({"type": "draw", "seat": 1, "tile": "3m"}, 2)
{'type': 'draw', 'seat': 1}
>>> redact({"type": "draw", "seat": 1, "tile": "3m"}, 1)
{'type': 'draw', 'seat': 1, 'tile': '3m'}
>>> redact({"type": "answer", "seat": 1, "action": "pass"}, None) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["PRIVATE_TYPES", "Event", "redact", "redact_all"]

Event = dict[str, Any]
"""One event: a JSON-ready dict with at least ``"type"``."""

PRIVATE_TYPES = frozenset(("ask", "answer"))
"""Event types that only their own seat sees at all."""


def redact(event: Event, seat: int | None) -> Event | None:
    """What ``seat`` (``None``: a spectator) may see of ``event``; ``None`` if nothing.

    The input is never changed; a redacted event is a new dict.
    """
    etype = event["type"]
    owner = event.get("seat")
    if owner == seat and seat is not None:
        return event
    if etype in PRIVATE_TYPES:
        return None
    if etype == "draw":
        return {k: v for k, v in event.items() if k != "tile"}
    if etype == "deal":
        out = {k: v for k, v in event.items() if k != "tiles"}
        out["count"] = len(event["tiles"])
        return out
    return event


def redact_all(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events of ``events`` that ``seat`` sees, redacted, in order."""
    out: list[Event] = []
    for e in events:
        r = redact(e, seat)
        if r is not None:
            out.append(r)
    return out
