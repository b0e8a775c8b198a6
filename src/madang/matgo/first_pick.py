"""선 뽑기 (seon ppopgi, choosing the first dealer): at a table's first game each player
picks one of the face-down cards laid out on the table; the higher month is 선 (the
lower under 밤일낮장, ``first_dealer: night_low``); the same month picks again from a new
layout (seeds 000 and 003; ``docs/fairness.md``, 선 뽑기).

The layouts come from a deal key (:func:`madang.core.fair.deal_key`), so the table can
show that it did not choose the cards after seeing the picks: round ``r``'s layout is
``SLOTS`` month cards drawn from the key's ``first_pick`` stream, which runs on from one
round to the next — a partial Fisher–Yates of the 48 month cards in id order, drawing
``j = i + below(48 − i)`` and swapping positions ``i`` and ``j`` for ``i`` = 0 … 7; slot
``i`` holds the card at position ``i``. A pick is a slot; the two players' picks of one
round are different slots.

>>> p = FirstPick(MatgoRules(), bytes(32))
>>> len(p.layout(0)), len(set(p.layout(0) + p.layout(1))) <= 16
(8, True)
>>> p.layout(0) == FirstPick(MatgoRules(), bytes(32)).layout(0)  # the key's, always
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from madang.core.errors import FairnessError
from madang.core.fair import Stream
from madang.matgo.cards import CODES, NUM_MONTH_CARDS
from madang.matgo.match import dealer_of_draw
from madang.matgo.rules import MatgoRules

__all__ = ["LABEL", "SLOTS", "FirstPick"]

SLOTS: Final = 8
"""Face-down cards laid out for each round of 선 뽑기."""
LABEL: Final = "first_pick"
"""The deal key's stream the layouts are drawn from."""
MAX_ROUNDS: Final = 64
"""More tied rounds than any table will see (each ties with chance 3/47): a record
claiming more is refused."""


class FirstPick:
    """선 뽑기 from a deal key under the match's rules (a :class:`MatgoRules` or a
    record's ``rules`` object): the layouts, the cards under the picks, the 선."""

    seats: Final = 2
    slots: Final = SLOTS

    def __init__(self, rules: Any, key: bytes) -> None:
        self.rules = rules if isinstance(rules, MatgoRules) else MatgoRules.from_dict(rules)
        self._stream = Stream(key, LABEL)
        self._layouts: list[list[int]] = []

    def layout(self, r: int) -> list[int]:
        """Round ``r``'s face-down cards (card ids), slot by slot."""
        if not 0 <= r < MAX_ROUNDS:
            raise FairnessError(f"선 뽑기 has no round {r}")
        while len(self._layouts) <= r:
            cards = list(range(NUM_MONTH_CARDS))
            for i in range(SLOTS):
                j = i + self._stream.below(NUM_MONTH_CARDS - i)
                cards[i], cards[j] = cards[j], cards[i]
            self._layouts.append(cards[:SLOTS])
        return self._layouts[r]

    def codes(self, r: int) -> list[str]:
        """Round ``r``'s cards as card codes (``01g`` …), slot by slot."""
        return [CODES[c] for c in self.layout(r)]

    def cards(self, r: int, picks: Sequence[int]) -> tuple[int, int]:
        """The cards under seat 0's and seat 1's picks of round ``r`` (FairnessError for
        picks that are not two different slots)."""
        if len(picks) != 2 or any(type(p) is not int or not 0 <= p < SLOTS for p in picks):
            raise FairnessError(f"a round of 선 뽑기 is two slots 0-{SLOTS - 1}, not {picks!r}")
        if picks[0] == picks[1]:
            raise FairnessError(f"both seats picked slot {picks[0]} in round {r}")
        layout = self.layout(r)
        return layout[picks[0]], layout[picks[1]]

    def winner(self, r: int, picks: Sequence[int]) -> int | None:
        """The seat that becomes 선 by round ``r``'s picks; None for a tie (same month)."""
        return dealer_of_draw(self.rules, *self.cards(r, picks))

    def decide(self, rounds: Sequence[Sequence[int]]) -> tuple[int, list[tuple[int, int]]]:
        """선 and the cards drawn (seat 0's, seat 1's per round) by the picks of every
        round; FairnessError unless every round but the last is a tie and the last is
        not."""
        if not 1 <= len(rounds) <= MAX_ROUNDS:
            raise FairnessError(f"선 뽑기 takes 1-{MAX_ROUNDS} rounds, not {len(rounds)}")
        draws = []
        dealer: int | None = None
        for r, picks in enumerate(rounds):
            if dealer is not None:
                raise FairnessError(f"선 was decided in round {r - 1}: no round {r}")
            draws.append(self.cards(r, picks))
            dealer = self.winner(r, picks)
        if dealer is None:
            raise FairnessError(f"the last round of 선 뽑기 ({len(rounds) - 1}) is a tie")
        return dealer, draws
