"""Shared helpers of the Matgo tests: crafted deals, move runners, golden records.

The helpers are handed out by the session fixture ``mg`` (a namespace of functions),
so that the test modules never import this file by name: that works under every pytest
import mode.

A crafted deal names only the cards a test is about. :func:`deal_deck` fills every
other slot so that nothing accidental happens: the months of the named cards are kept
out of the hands and the floor (their remaining cards go to the bottom of the pile), and
the other months are spread so that no hand holds three of a month and the floor never
holds three of a month.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from madang.matgo.cards import (
    BIT,
    BONUS_MASK,
    CODES,
    MONTH,
    NUM_MONTH_CARDS,
    format_cards,
    parse_cards,
)
from madang.matgo.deal import arrange_deck
from madang.matgo.engine import MatgoState, Phase, new_game
from madang.matgo.events import Event
from madang.matgo.rules import MatgoRules

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden" / "matgo"

Cards = str | Iterable[str] | None


def _codes(x: Cards) -> list[str]:
    if x is None:
        return []
    return x.split() if isinstance(x, str) else list(x)


def deal_deck(
    *,
    dealer_hand: Cards = None,
    other_hand: Cards = None,
    floor: Cards = None,
    pile: Cards = None,
    rules: MatgoRules | None = None,
) -> list[str]:
    """A deck (codes, top first) dealing the named cards, with a harmless filler."""
    rules = rules or MatgoRules()
    named = [c for x in (dealer_hand, other_hand, floor, pile) for c in _codes(x)]
    touched = {MONTH[c] for c in parse_cards(named)} - {0}
    free = [c for c in range(NUM_MONTH_CARDS) if MONTH[c] not in touched]
    # Interleave the free months: all first cards of each month, then all second …
    free.sort(key=lambda c: (c & 3, c))
    rest = [c for c in range(NUM_MONTH_CARDS) if MONTH[c] in touched]
    filler = [CODES[c] for c in free + rest]
    return arrange_deck(
        dealer_hand=_codes(dealer_hand),
        other_hand=_codes(other_hand),
        floor=_codes(floor),
        pile=_codes(pile),
        rules=rules,
        filler=filler,
    )


def game(
    *,
    dealer_hand: Cards = None,
    other_hand: Cards = None,
    floor: Cards = None,
    pile: Cards = None,
    rules: MatgoRules | None = None,
    dealer: int = 0,
    carry: int = 1,
    moves: Sequence[str] = (),
) -> MatgoState:
    """A game dealt from :func:`deal_deck`, with ``moves`` already applied."""
    deck = deal_deck(
        dealer_hand=dealer_hand, other_hand=other_hand, floor=floor, pile=pile, rules=rules
    )
    g = new_game(rules, deck=deck, dealer=dealer, carry=carry)
    run(g, moves)
    return g


def position(
    *,
    hands: tuple[Cards, Cards] = (None, None),
    floor: Cards = None,
    pile: Cards = None,
    captured: tuple[Cards, Cards] = (None, None),
    current: int = 0,
    dealer: int = 0,
    turns: tuple[int, int] = (5, 5),
    tokens: tuple[int, int] = (0, 0),
    go: tuple[int, int] = (0, 0),
    ppeok: dict[int, int] | None = None,
    ppeok_count: tuple[int, int] = (0, 0),
    rules: MatgoRules | None = None,
    carry: int = 1,
    mission: str | None = None,
) -> MatgoState:
    """A mid-game position set up directly (for endgame situations a deal cannot reach
    in a few moves): the named cards go where they are named, every other card of the
    deck goes to the bottom of the draw pile. ``pile`` is top first; ``ppeok`` maps a
    month to the seat that made the 뻑 stack there; ``go`` sets the 고 count, with the
    score at the last 고 taken as the seat's score now.
    """
    rules = rules or MatgoRules()
    seed = 0
    g = new_game(rules, seed=seed, dealer=dealer, carry=carry, mission=mission)
    while g.phase is not Phase.PLAY:  # a seed whose deal asks nothing (no 총통, no redeal)
        seed += 1
        g = new_game(rules, seed=seed, dealer=dealer, carry=carry, mission=mission)
    named = 0

    def place(x: Cards) -> int:
        nonlocal named
        m = 0
        for c in parse_cards(_codes(x)):
            assert not named & BIT[c], f"{CODES[c]} placed twice"
            assert rules.deck_mask & BIT[c], f"{CODES[c]} is not in the deck"
            named |= BIT[c]
            m |= BIT[c]
        return m

    g.hands = [place(hands[0]), place(hands[1])]
    g.captured = [place(captured[0]), place(captured[1])]
    g.floor = place(floor)
    top = parse_cards(_codes(pile))
    place(pile)
    bottom = [c for c in range(len(BIT)) if rules.deck_mask & BIT[c] and not named & BIT[c]]
    g.pile = list(reversed(top + bottom))
    g.current = current
    g.turns = list(turns)
    g.tokens = list(tokens)
    g.go_count = list(go)
    g.ppeok_count = list(ppeok_count)
    g.stack_maker = [-1] * 13
    for month, seat in (ppeok or {}).items():
        g.stack_maker[month] = seat
    g.go_score = [g.score(0) if go[0] else 0, g.score(1) if go[1] else 0]
    g.events = []
    assert g.total_cards() == rules.deck_mask and g.count_cards() == rules.deck_size
    return g


def run(g: MatgoState, moves: Iterable[str]) -> list[Event]:
    """Apply moves in notation; return every event they caused."""
    out: list[Event] = []
    for mv in moves:
        out.extend(g.step(mv))
    return out


def types(events: Iterable[Event]) -> list[str]:
    """The event types, in order."""
    return [e[0] for e in events]


def cap(g: MatgoState, seat: int) -> str:
    """A seat's captured pile in notation (month order)."""
    return format_cards(g.captured[seat])


def floor_of(g: MatgoState) -> str:
    """The floor in notation (month order)."""
    return format_cards(g.floor)


def hand(g: MatgoState, seat: int) -> str:
    """A seat's hand in notation (month order)."""
    return format_cards(g.hands[seat])


def steals(events: Iterable[Event]) -> list[tuple[int, str, str]]:
    """The steals of some events as (thief, card, reason)."""
    return [(e[1], CODES[e[3]], e[4]) for e in events if e[0] == "steal"]


def pays(g: MatgoState) -> list[tuple[int, int, int, str]]:
    """The payments of a game as (from, to, points, reason)."""
    return list(g.payments)


def sorted_codes(text: str) -> str:
    """Codes in month order, for comparing with :func:`cap` and :func:`floor_of`."""
    m = 0
    for c in parse_cards(text):
        m |= BIT[c]
    return format_cards(m)


def golden_names() -> list[str]:
    """The example records of tests/golden/matgo (without the .json)."""
    return sorted(
        p.name[: -len(".json")]
        for p in GOLDEN_DIR.glob("*.json")
        if not p.name.endswith(".expected.json")
    )


def golden(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """An example record and its expected summary."""
    record = json.loads((GOLDEN_DIR / f"{name}.json").read_text(encoding="utf-8"))
    expected = json.loads((GOLDEN_DIR / f"{name}.expected.json").read_text(encoding="utf-8"))
    return record, expected


HELPERS = SimpleNamespace(
    deal_deck=deal_deck,
    game=game,
    position=position,
    run=run,
    types=types,
    cap=cap,
    floor=floor_of,
    hand=hand,
    steals=steals,
    pays=pays,
    sorted_codes=sorted_codes,
    golden_names=golden_names,
    golden=golden,
    GOLDEN_DIR=GOLDEN_DIR,
    BONUS_MASK=BONUS_MASK,
)


@pytest.fixture(scope="session")
def mg() -> SimpleNamespace:
    """The Matgo test helpers (see the module docstring)."""
    return HELPERS
