"""Situations of 고스톱 for the tests: a deal naming the cards each seat gets, piles given
to seats, and a 스톱 from given piles (card codes in)."""

from __future__ import annotations

from collections.abc import Iterable

from madang.gostop.rules import GostopRules
from madang.matgo.cards import BIT, CODES, MONTH, NUM_MONTH_CARDS, parse_cards
from madang.matgo.deal import arrange_seats
from madang.matgo.engine import MatgoState, Phase, new_game

GS = GostopRules()

Cards = str | None


def _codes(x: Cards) -> list[str]:
    return x.split() if x else []


def table(
    hands: dict[int, str],
    *,
    floor: Cards = None,
    pile: Cards = None,
    dealer: int = 0,
    carry: int = 1,
    rules: GostopRules = GS,
    no_die: Iterable[int] = (),
) -> MatgoState:
    """A game dealing the named cards (``hands`` by seat; four seats with ``players: 4``);
    the other slots are filled with cards of months no named card has, spread over the
    hands and floor. ``no_die``: the seats barred from `die` (four seats)."""
    n = rules.players
    named = [c for x in (*hands.values(), floor, pile) for c in _codes(x)]
    touched = {MONTH[c] for c in parse_cards(named)} - {0}
    free = [c for c in range(NUM_MONTH_CARDS) if MONTH[c] not in touched]
    free.sort(key=lambda c: (c & 3, c))
    rest = [c for c in range(NUM_MONTH_CARDS) if MONTH[c] in touched]
    by_offset = [hands.get((dealer + k) % n) for k in range(n)]
    deck = arrange_seats(
        by_offset, floor=floor, pile=pile, rules=rules, filler=[CODES[c] for c in free + rest]
    )
    return new_game(rules, deck=deck, dealer=dealer, carry=carry, no_die=list(no_die))


def run(g: MatgoState, moves: Iterable[str]) -> None:
    for m in moves:
        g.step(m)


def give(g: MatgoState, seat: int, codes: str) -> None:
    """Move these cards (wherever they are) into ``seat``'s captured pile."""
    m = 0
    for c in parse_cards(codes):
        m |= BIT[c]
    g.hands = [h & ~m for h in g.hands]
    g.captured = [x & ~m for x in g.captured]
    g.floor &= ~m
    g.pile = [c for c in g.pile if not BIT[c] & m]
    g.captured[seat] |= m
    g._legal = None  # (the legal moves may change with the piles)


def stop_with(
    g: MatgoState, winner: int, piles: dict[int, str], go: Iterable[int] = (), shakes: int = 0
) -> None:
    """Give each seat its captured pile, let the seats in ``go`` (in order) have called one
    고, and let ``winner`` stop now."""
    for seat, codes in piles.items():
        give(g, seat, codes)
    for at, seat in enumerate(go, 1):
        g.go_count[seat] += 1
        g.go_at[seat] = at
    g.shakes[winner] = shakes
    g.current = winner
    g.phase = Phase.GO_STOP
    g._legal = None
    g.step("stop")
