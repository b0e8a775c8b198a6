"""Verifiable 고스톱 deals (``docs/fairness.md``, 고스톱): what a deal key decides of a game.

The deck is Matgo's scheme over the rules' cards (:func:`madang.matgo.fair.fair_deck`:
the shuffle under the label ``deck`` of the 48 month cards in id order, then the bonus
cards of ``bonus_cards`` — ``"2+2+3"``: ``b2 b2x b3``). The first 선 of a table (its
game 1) is drawn for every seat from the label ``first_dealer`` (``gostop.md`` §2: each
seat draws a month card, the highest month wins — the lowest with ``night_low`` — and the
seats tied for best draw again among themselves). Nothing else is left to chance: who
sits out with four seats is the players' answers, not the key's.

>>> from madang.gostop.rules import GostopRules
>>> key = bytes(32)
>>> dealer, rounds = fair_first_dealer(GostopRules(), key)
>>> dealer == fair_first_dealer(GostopRules(), key)[0], len(rounds[0])
(True, 3)
>>> fair_deal({}, key, 2) == {"deck": [CODES[c] for c in fair_deck(GostopRules(), key)]}
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from madang.core.errors import FairnessError
from madang.core.fair import Stream
from madang.gostop.rules import GostopRules
from madang.matgo.cards import CODES, MONTH, NUM_MONTH_CARDS
from madang.matgo.fair import fair_deck
from madang.matgo.rules import FirstDealer

__all__ = ["fair_deal", "fair_deck", "fair_first_dealer"]

_MAX_ROUNDS = 64
"""Draw rounds at most (a tie for best among several seats repeats with probability
below a half; 64 rounds tied is below 2^-64, and a verifier refuses more)."""


def fair_first_dealer(rules: GostopRules, key: bytes) -> tuple[int, list[list[int | None]]]:
    """선 of a table's first game and the months drawn, one list per round indexed by
    seat (``None``: not drawing that round), from the key's ``first_dealer`` stream.

    Each round lays the 48 month cards in id order and draws, for the ``k`` seats still
    drawing in seat order, a partial Fisher–Yates: for ``i`` from 0 to ``k − 1``, ``j = i +
    below(48 − i)``, swap positions ``i`` and ``j``; the ``i``-th drawing seat gets the card
    at ``i`` (month ``id div 4 + 1``). The stream runs on from round to round."""
    stream = Stream(key, "first_dealer")
    sign = 1 if rules.first_dealer is FirstDealer.HIGH else -1
    drawing = list(range(rules.players))
    rounds: list[list[int | None]] = []
    for _ in range(_MAX_ROUNDS):
        cards = list(range(NUM_MONTH_CARDS))
        for i in range(len(drawing)):
            j = i + stream.below(NUM_MONTH_CARDS - i)
            cards[i], cards[j] = cards[j], cards[i]
        months: list[int | None] = [None] * rules.players
        for seat, card in zip(drawing, cards, strict=False):
            months[seat] = MONTH[card]
        rounds.append(months)
        best = max(sign * MONTH[c] for c in cards[: len(drawing)])
        drawing = [s for s, c in zip(drawing, cards, strict=False) if sign * MONTH[c] == best]
        if len(drawing) == 1:
            return drawing[0], rounds
    raise FairnessError(f"the first dealer's draw is tied after {_MAX_ROUNDS} rounds")


def fair_deal(
    rules: Any, key: bytes, game_no: int, first_picks: Sequence[Sequence[int]] | None = None
) -> dict[str, Any]:
    """The record fields the key fixes (:attr:`~madang.core.game.GameSpec.fair_deal`):
    ``deck`` (codes), and ``dealer`` for a table's first game (drawn for
    ``rules["players"]`` seats, 3 when the rules do not name them). 고스톱 has no 선
    뽑기: ``first_picks`` is a FairnessError."""
    if first_picks is not None:
        raise FairnessError(
            "고스톱 has no 선 뽑기 (first_picks): its first 선 is drawn from the key"
        )
    r = GostopRules.from_dict(rules)
    out: dict[str, Any] = {"deck": [CODES[c] for c in fair_deck(r, key)]}
    if game_no == 1:
        out["dealer"] = fair_first_dealer(r, key)[0]
    return out
