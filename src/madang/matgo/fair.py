"""Verifiable Matgo deals (``docs/fairness.md``): what a deal key decides of a game.

From a deal key (:func:`madang.core.fair.deal_key`): the deck, shuffled from the deck of
the rules in force in its canonical order (card ids: the 48 month cards ``01g`` …
``12d``, then the rules' bonus cards ``b2``, ``b3`` / ``b2``, ``b2x``, ``b2y``); the
first 선 of a table (its game 1), drawn as two players each drawing a month card; the
mission under ``missions: true``. Each comes from its own stream of the key (``deck``,
``first_dealer``, ``mission``). The engine deals the deck as it deals any given deck.

>>> from madang.core.fair import Stream
>>> key = bytes(32)
>>> fair_deck(MatgoRules(), key)[:4] == fair_deck(MatgoRules(), key)[:4]
True
>>> g = fair_game(MatgoRules(), key, dealer=0)
>>> list(g.deck) == fair_deck(MatgoRules(), key)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from madang.core.errors import FairnessError
from madang.core.fair import Stream, shuffle
from madang.matgo.cards import CODES, NUM_MONTH_CARDS, cards_of
from madang.matgo.engine import MatgoState, new_game
from madang.matgo.match import dealer_of_draw
from madang.matgo.rules import MatgoRules
from madang.matgo.scoring import MISSIONS, Mission

__all__ = ["fair_deal", "fair_deck", "fair_first_dealer", "fair_game", "fair_mission"]


def fair_deck(rules: MatgoRules, key: bytes) -> list[int]:
    """The deck (card ids, top first) of the deal key: Fisher–Yates over the rules'
    deck in id order from the key's ``deck`` stream."""
    return shuffle(key, cards_of(rules.deck_mask), "deck")


def fair_first_dealer(rules: MatgoRules, key: bytes) -> tuple[int, list[tuple[int, int]]]:
    """선 of a table's first game and the draws (card ids; seat 0's, seat 1's) from the
    key's ``first_dealer`` stream: seat 0 draws month card ``below(48)``, seat 1 one of
    the 47 others (``below(47)``, plus one at or above seat 0's); the same month draws
    again; the higher month is 선 (the lower with ``first_dealer: night_low``)."""
    stream = Stream(key, "first_dealer")
    draws: list[tuple[int, int]] = []
    while True:
        a = stream.below(NUM_MONTH_CARDS)
        b = stream.below(NUM_MONTH_CARDS - 1)
        if b >= a:
            b += 1
        draws.append((a, b))
        dealer = dealer_of_draw(rules, a, b)
        if dealer is not None:
            return dealer, draws


def fair_mission(key: bytes) -> Mission:
    """The mission (``missions: true``): entry ``below(8)`` of the key's ``mission``
    stream in the table's order (godori, hongdan, cheongdan, chodan, ssangpi,
    gwang_1_3_8, gwang_11_12, ogwang)."""
    return MISSIONS[Stream(key, "mission").below(len(MISSIONS))]


def fair_deal(
    rules: Any, key: bytes, game_no: int, first_picks: Sequence[Sequence[int]] | None = None
) -> dict[str, Any]:
    """The record fields the key fixes (:attr:`~madang.core.game.GameSpec.fair_deal`):
    ``deck`` (codes); ``dealer`` for a table's first game (later games' 선 is the last
    winner) — by the seats' ``first_picks`` (선 뽑기, :mod:`madang.matgo.first_pick`)
    when the table held one, else drawn from the key; ``mission`` under ``missions:
    true``. FairnessError for picks in a later game or picks that decide nothing."""
    from madang.matgo.first_pick import FirstPick

    r = MatgoRules.from_dict(rules)
    out: dict[str, Any] = {"deck": [CODES[c] for c in fair_deck(r, key)]}
    if first_picks is not None and game_no != 1:
        raise FairnessError("선 뽑기 chooses the first game's 선 only: game_no must be 1")
    if first_picks is not None:
        out["dealer"] = FirstPick(r, key).decide(first_picks)[0]
    elif game_no == 1:
        out["dealer"] = fair_first_dealer(r, key)[0]
    if r.missions:
        out["mission"] = fair_mission(key).name
    return out


def fair_game(
    rules: MatgoRules, key: bytes, *, dealer: int, carry: int = 1, events: bool = True
) -> MatgoState:
    """A game dealt from the key's deck (and mission), by the engine's ordinary deal of
    a given deck; ``dealer`` and ``carry`` are the match's (game 1's dealer:
    :func:`fair_first_dealer`)."""
    mission = fair_mission(key).name if rules.missions else None
    return new_game(
        rules, deck=fair_deck(rules, key), dealer=dealer, carry=carry, mission=mission,
        events=events,
    )  # fmt: skip
