"""자동치기 (auto-play): a person hands their seat to the ``normal`` bot until they take
it back (``docs/protocol.md``, ``autoplay``; ``docs/server.md``, 자동치기).

The flag is the seat's state (:attr:`Seat.auto <madang.server.room.Seat>`), public: every
client sees it in the seats (``auto``) and a reconnecting client in its welcome. While it
is on, the room plays the seat as it plays a bot seat — the seat's bot (``normal``) moves
through :meth:`Session.bot_move <madang.core.game.Session.bot_move>` from the seat's view
alone, with the room's bot pacing (``bot_delay``), and its claim windows are a bot's
(decoy pauses). The person may still answer a question themselves; the bot plays every
question they leave.

>>> check_autoplay(True), check_autoplay(False)
(True, False)
>>> check_autoplay("on")
Traceback (most recent call last):
...
madang.server.wire.WireError: on must be true or false
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from madang.server.wire import WireError

if TYPE_CHECKING:
    from madang.server.room import Seat

__all__ = ["check_autoplay", "set_autoplay"]


def check_autoplay(value: object) -> bool:
    """The ``on`` field of an ``autoplay`` message: a JSON boolean (``bad_autoplay``
    otherwise — 1, "true" and null are refused, not guessed)."""
    if type(value) is not bool:
        raise WireError("bad_autoplay", "on must be true or false")
    return value


def set_autoplay(seat: Seat | None, on: bool, *, closed: bool) -> bool:
    """Turn 자동치기 on or off for ``seat`` (None: a spectator's connection); whether the
    flag changed. Refused with a WireError that changes nothing: ``not_seated`` for a
    spectator or a person who left the seat, ``game_over`` at a closed table."""
    if seat is None or seat.left or seat.user_id is None:
        raise WireError("not_seated", "only a seated player can turn 자동치기 on or off")
    if closed:
        raise WireError("game_over", "the table is closed")
    if seat.auto == on:
        return False
    seat.auto = on
    return True
