"""Verifiable mahjong deals (``docs/fairness.md``): the wall a deal key decides.

The wall is Fisher–Yates over the 104 tiles in their canonical order (``1m`` ×4, ``2m``
×4 … ``9m``, ``1p`` … ``9p``, ``1z`` … ``7z``, each four times, then ``1f`` ``2f`` ``3f``
``4f``) from the key's ``wall`` stream, top first. Nothing else is left to chance: the
engine deals from the top with no dice (``mahjong.md`` §2), and the dealer of a match's
first hand is seat 0 (later ones follow the rules).

>>> key = bytes(32)
>>> st = fair_hand(MahjongRules(), key)
>>> [tile_name(k) for k in st.wall] == fair_wall(key)
True
"""

from __future__ import annotations

from typing import Any, Final

from madang.core.fair import shuffle
from madang.mahjong.engine import new_hand
from madang.mahjong.rules import MahjongRules
from madang.mahjong.state import HandState
from madang.mahjong.tiles import ALL_TILES, EAST, kind_of, tile_name

__all__ = ["CANONICAL_WALL", "fair_deal", "fair_hand", "fair_wall", "fair_wall_ids"]

CANONICAL_WALL: Final = tuple(tile_name(kind_of(t)) for t in ALL_TILES)
"""The 104 tiles in the order the shuffle starts from (tile ids 0–103)."""


def fair_wall(key: bytes) -> list[str]:
    """The wall (tile codes, top first) of the deal key."""
    return [CANONICAL_WALL[t] for t in fair_wall_ids(key)]


def fair_wall_ids(key: bytes) -> list[int]:
    """The wall as physical tile ids (0–103, whose order is the canonical one): the
    same shuffle, for the engine's fast path."""
    return shuffle(key, ALL_TILES, "wall")


def fair_deal(rules: Any, key: bytes, game_no: int) -> dict[str, Any]:
    """The record fields the key fixes (:attr:`~madang.core.game.GameSpec.fair_deal`):
    ``wall``. The rules are checked (a bad option raises RuleConfigError)."""
    MahjongRules.from_dict(rules)
    return {"wall": fair_wall(key)}


def fair_hand(
    rules: MahjongRules, key: bytes, *, dealer: int = 0, round_wind: int = EAST, pot: int = 0
) -> HandState:
    """A hand dealt from the key's wall by the engine's ordinary deal of a given wall;
    ``dealer``, ``round_wind`` and ``pot`` are the match's."""
    wall = fair_wall_ids(key)
    return new_hand(rules, wall=wall, dealer=dealer, round_wind=round_wind, pot=pot)
