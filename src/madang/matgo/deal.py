"""Build decks for a wanted deal: tests, puzzles and tutorials start from a situation.

:func:`arrange_deck` takes the cards each place should get and returns a deck (top
first) that deals them, filling every unnamed slot with the remaining cards in a fixed
order so that the result is deterministic.

>>> from madang.matgo.engine import new_game
>>> deck = arrange_deck(dealer_hand="01g 01r", floor="01p1", pile="01p2")
>>> g = new_game(deck=deck, dealer=0)
>>> from madang.matgo.view import view
>>> "01g" in view(g, 0)["hand"]
True
"""

from __future__ import annotations

from collections.abc import Iterable

from madang.core.errors import RecordError
from madang.matgo.cards import BIT, BONUS_MASK, CODES, parse_cards
from madang.matgo.rules import MatgoRules


def _ids(x: str | Iterable[str] | None) -> list[int]:
    if x is None:
        return []
    return parse_cards(x)


def arrange_deck(
    *,
    dealer_hand: str | Iterable[str] | None = None,
    other_hand: str | Iterable[str] | None = None,
    floor: str | Iterable[str] | None = None,
    pile: str | Iterable[str] | None = None,
    rules: MatgoRules | None = None,
    filler: str | Iterable[str] | None = None,
) -> list[str]:
    """A deck (codes, top first) dealing the given cards (each place gets at least these).

    ``pile`` lists the top of the draw pile in flip order. Unnamed slots take the
    remaining cards of the rules in force: first ``filler`` in its order, then the rest in
    id order, except that bonus cards are kept out of the hands and floor unless named
    (so the filler never changes the deal by a bonus refill).
    """
    rules = rules or MatgoRules()
    want = {
        "dealer": _ids(dealer_hand),
        "other": _ids(other_hand),
        "floor": _ids(floor),
        "pile": _ids(pile),
    }
    sizes = {"dealer": 10, "other": 10, "floor": 8}
    named = 0
    for place, cards in want.items():
        if place in sizes and len(cards) > sizes[place]:
            raise RecordError(f"{place} can hold {sizes[place]} cards, not {len(cards)}")
        for c in cards:
            if named & BIT[c]:
                raise RecordError(f"card {CODES[c]} is named twice")
            if not rules.deck_mask & BIT[c]:
                raise RecordError(f"card {CODES[c]} is not in the deck of these rules")
            named |= BIT[c]
    order = [c for c in _ids(filler) if not named & BIT[c]]
    seen = named
    for c in order:
        seen |= BIT[c]
    order += [c for c in range(len(BIT)) if rules.deck_mask & BIT[c] and not seen & BIT[c]]
    month_fill = [c for c in order if not BIT[c] & BONUS_MASK]
    bonus_fill = [c for c in order if BIT[c] & BONUS_MASK]

    def take(place: str, n: int) -> list[int]:
        got = want[place][:n]
        want[place] = want[place][n:]
        while len(got) < n:
            if not month_fill:
                raise RecordError("not enough cards to fill the deal")
            got.append(month_fill.pop(0))
        return got

    deck: list[int] = []
    for _ in range(2):
        deck += take("floor", 4)
        deck += take("other", 5)
        deck += take("dealer", 5)
    rest = want["pile"] + month_fill + bonus_fill
    deck += rest
    return [CODES[c] for c in deck]
