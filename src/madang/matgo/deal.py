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

from collections.abc import Iterable, Sequence

from madang.core.errors import RecordError
from madang.matgo.cards import BIT, BONUS_MASK, CODES, parse_cards
from madang.matgo.engine import deal_positions
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
    (so the filler never changes the deal by a bonus refill). Two seats (맞고): ``other``
    is the seat after 선; :func:`arrange_seats` deals to any number.
    """
    return arrange_seats(
        [dealer_hand, other_hand], floor=floor, pile=pile, rules=rules, filler=filler
    )


def arrange_seats(
    hands: Sequence[str | Iterable[str] | None],
    *,
    floor: str | Iterable[str] | None = None,
    pile: str | Iterable[str] | None = None,
    rules: MatgoRules | None = None,
    filler: str | Iterable[str] | None = None,
) -> list[str]:
    """:func:`arrange_deck` for the seats of the rules: ``hands[k]`` is what 선+k gets
    (``hands[0]`` is 선's), dealt by the rules' layout (``rules.deal``).

    >>> from madang.gostop.rules import GostopRules
    >>> deck = arrange_seats(["08g 08a", "01g", None], floor="08p1", rules=GostopRules())
    >>> deck[0], deck[8:10], deck[12]
    ('01g', ['08g', '08a'], '08p1')
    """
    rules = rules or MatgoRules()
    n = rules.players
    if len(hands) != n:
        raise RecordError(f"these rules deal {n} hands, not {len(hands)}")
    hand_at, floor_at = deal_positions(rules.deal, n)
    # places: 0 … n-1 the hands of 선+1 … 선 (as deal_positions orders them), n the floor
    want = [_ids(hands[k % n]) for k in range(1, n + 1)] + [_ids(floor)]
    sizes = [len(at) for at in hand_at] + [len(floor_at)]
    names = [f"the hand of 선+{k}" for k in range(1, n)] + ["the dealer's hand", "the floor"]
    named = 0
    for place, cards in enumerate([*want, _ids(pile)]):
        if place < len(sizes) and len(cards) > sizes[place]:
            raise RecordError(f"{names[place]} can hold {sizes[place]} cards, not {len(cards)}")
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
    slot_place: dict[int, int] = {}
    for place, positions in enumerate([*hand_at, floor_at]):
        for at in positions:
            slot_place[at] = place
    deck: list[int] = []
    for at in range(len(slot_place)):
        got = want[slot_place[at]]
        if got:
            deck.append(got.pop(0))
        elif month_fill:
            deck.append(month_fill.pop(0))
        else:
            raise RecordError("not enough cards to fill the deal")
    deck += _ids(pile) + month_fill + bonus_fill
    return [CODES[c] for c in deck]
