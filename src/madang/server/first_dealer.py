"""선 뽑기 at a table (issue 26 item 5, U25): before a table's first verifiable deal, each
seat picks one of the face-down cards laid out from the deal key; the server reveals
both once both have picked, decides 선 by the game's rule (a tie lays out a new round),
and the deal follows (``docs/protocol.md``, 선 뽑기; ``docs/fairness.md``).

The room runs a :class:`FirstPickPhase` when its game has one
(``GameSpec.first_pick``), the table deals verifiably, and a person is seated: a table
of bots only, a seeded table and the arena keep the first dealer drawn from the key (or
the seed). A seat's pick is public as a slot only; the cards under the picks are shown
to nobody until both seats of the round have picked. A bot seat (or a person on
자동치기, or one who left) picks after the bot pause, a person who has not picked when
the pick's time is over gets the first free slot: which slot a seat takes does not
matter to the server, which cannot move the cards (they are the key's).

>>> from madang.core.registry import spec
>>> ph = FirstPickPhase(spec("matgo"), {}, bytes(32), seats=2, now=0.0, seconds=10.0)
>>> ph.pick(0, 3); ph.public(0.0)["picks"], ph.public(0.0)["cards"]
([3, None], None)
>>> ph.pick(1, 3)
Traceback (most recent call last):
...
madang.server.wire.WireError: slot 3 is taken: pick another face-down card
"""

from __future__ import annotations

import importlib
import time
from typing import Any

from madang.core.game import GameSpec
from madang.server.wire import WireError

__all__ = ["FirstPickPhase", "check_slot", "first_pick_of"]


def first_pick_of(game: GameSpec) -> Any:
    """The class of the game's 선 뽑기 (``GameSpec.first_pick``), or None."""
    if game.first_pick is None:
        return None
    module, _, name = game.first_pick.partition(":")
    return getattr(importlib.import_module(module), name)


def check_slot(value: object) -> int:
    """The ``slot`` of a ``first_pick`` message: a JSON integer from 0 (``bad_pick``
    otherwise; the phase checks it is on the table and free)."""
    if type(value) is not int or not 0 <= value < 2**16:
        raise WireError("bad_pick", "slot must be the number of a face-down card (0, 1, …)")
    return value


class FirstPickPhase:
    """The rounds of 선 뽑기 of one table: the layout (from the deal key), each seat's
    pick, the reveal, and 선 once decided."""

    def __init__(
        self,
        game: GameSpec,
        rules: Any,
        key: bytes,
        *,
        seats: int,
        now: float,
        seconds: float,
        reveal_seconds: float = 0.0,
    ) -> None:
        cls = first_pick_of(game)
        if cls is None:
            raise ValueError(f"{game.name} has no 선 뽑기")
        self.picker = cls(rules, key)
        self.seats = seats
        self.seconds = seconds
        self.reveal_seconds = reveal_seconds
        self.rounds: list[list[int]] = []
        """The rounds picked and revealed, in order (the record's ``first_picks``)."""
        self.picks: list[int | None] = [None] * seats
        self.started = now
        self.deadline = now + seconds
        self.revealed_at: float | None = None
        """When the current round was revealed (None: still picking)."""
        self.dealer: int | None = None

    @property
    def round(self) -> int:
        """The round being picked or shown (from 0)."""
        return len(self.rounds) - (1 if self.revealed_at is not None else 0)

    @property
    def done(self) -> bool:
        """선 is decided and the last reveal has been shown long enough."""
        return self.dealer is not None

    def pick(self, seat: int, slot: int) -> None:
        """Seat ``seat`` picks face-down card ``slot`` of the current round (WireError,
        nothing changed: ``pick_closed`` when the seat cannot pick now, ``bad_pick`` for
        a slot off the table or taken)."""
        if self.revealed_at is not None or self.dealer is not None:
            raise WireError("pick_closed", "this round's cards are shown: wait for the next")
        if self.picks[seat] is not None:
            raise WireError("pick_closed", "you picked a card this round already")
        if not 0 <= slot < self.picker.slots:
            raise WireError("bad_pick", f"slot must be 0-{self.picker.slots - 1}")
        if slot in self.picks:
            raise WireError("bad_pick", f"slot {slot} is taken: pick another face-down card")
        self.picks[seat] = slot

    def free_slot(self) -> int:
        """The first slot nobody picked (a bot's and a timeout's pick)."""
        return next(i for i in range(self.picker.slots) if i not in self.picks)

    def advance(self, now: float, bots: set[int], bot_delay: float) -> bool:
        """Make the picks that are due (bots after ``bot_delay``, everybody at the
        deadline), reveal a round both seats picked, start the next after a tie's
        reveal; whether anything changed (the room then tells everybody)."""
        changed = False
        if self.revealed_at is not None:
            if self.dealer is None and now >= self.revealed_at + self.reveal_seconds:
                self.revealed_at = None  # a tie: a new layout
                self.picks = [None] * self.seats
                self.started = now
                self.deadline = now + self.seconds
                changed = True
            else:
                return False
        for seat in range(self.seats):
            if self.picks[seat] is None and (
                now >= self.deadline or (seat in bots and now >= self.started + bot_delay)
            ):
                self.picks[seat] = self.free_slot()
                changed = True
        if all(p is not None for p in self.picks):
            picks = [p for p in self.picks if p is not None]
            self.rounds.append(picks)
            self.revealed_at = now
            self.dealer = self.picker.winner(len(self.rounds) - 1, picks)
            changed = True
        return changed

    def due(self, bots: set[int], bot_delay: float) -> float | None:
        """When :meth:`advance` has something to do next (None: 선 is decided)."""
        if self.revealed_at is not None:
            if self.dealer is not None:
                return None
            return self.revealed_at + self.reveal_seconds
        if any(self.picks[s] is None for s in bots):
            return min(self.deadline, self.started + bot_delay)
        return self.deadline

    def deal_at(self) -> float | None:
        """When the deal may follow (the decisive reveal shown for ``reveal_seconds``)."""
        if self.dealer is None or self.revealed_at is None:
            return None
        return self.revealed_at + self.reveal_seconds

    def public(self, now: float) -> dict[str, Any]:
        """The ``first_pick`` message: the round, the slots, who picked which, and only
        once the round is complete the cards under the picks and 선 (null on a tie)."""
        shown = self.revealed_at is not None
        r = self.round
        picks = self.rounds[-1] if shown else self.picks
        out: dict[str, Any] = {
            "type": "first_pick",
            "round": r,
            "slots": self.picker.slots,
            "picks": list(picks),
            "cards": None,
            "dealer": None,
            "tie": False,
            "history": [
                {"picks": p, "cards": [self.picker.codes(i)[s] for s in p]}
                for i, p in enumerate(self.rounds[: r if shown else len(self.rounds)])
            ],
            "deadline": None,
            "remaining_ms": None,
        }
        if shown:
            layout = self.picker.codes(r)
            out["cards"] = [layout[s] for s in picks]
            out["dealer"] = self.dealer
            out["tie"] = self.dealer is None
        else:
            out["deadline"] = int((time.time() + (self.deadline - now)) * 1000)
            out["remaining_ms"] = max(0, int((self.deadline - now) * 1000))
        return out
