"""마작 (majak): Korean mahjong with 104 tiles — tiles, rules, hand analysis, scoring.

>>> from madang.mahjong import MahjongRules, WinContext, parse_tiles, parse_tile, score_hand
>>> ctx = WinContext(by="ron", win_tile=parse_tile("7z"), seat_wind=19, round_wind=18)
>>> score_hand(parse_tiles("555z 666z 77z 123m 456p"), [], ctx, MahjongRules()).base_pan
7
"""

from madang.mahjong.hand import (
    Decomposition,
    chiitoi_pairs,
    decompositions,
    is_agari,
    shanten,
    ukeire,
    waits,
)
from madang.mahjong.patterns import PATTERNS, Item, Pattern
from madang.mahjong.rules import PRESETS, MahjongRules, preset
from madang.mahjong.scoring import (
    FLAGS,
    MELD_KINDS,
    Meld,
    ScoreInputError,
    ScoreSheet,
    WinContext,
    score_hand,
)
from madang.mahjong.tiles import (
    ALL_TILES,
    BAEK,
    BAL,
    DRAGONS,
    EAST,
    FLOWER_KINDS,
    JUNG,
    NORTH,
    NUM_KINDS,
    SOUTH,
    TERMINALS_AND_HONORS,
    WEST,
    WINDS,
    TileNotationError,
    format_tiles,
    kind_of,
    parse_tile,
    parse_tiles,
    tile_name,
    to_counts,
)

__all__ = [
    "ALL_TILES",
    "BAEK",
    "BAL",
    "DRAGONS",
    "EAST",
    "FLAGS",
    "FLOWER_KINDS",
    "JUNG",
    "MELD_KINDS",
    "NORTH",
    "NUM_KINDS",
    "PATTERNS",
    "PRESETS",
    "SOUTH",
    "TERMINALS_AND_HONORS",
    "WEST",
    "WINDS",
    "Decomposition",
    "Item",
    "MahjongRules",
    "Meld",
    "Pattern",
    "ScoreInputError",
    "ScoreSheet",
    "TileNotationError",
    "WinContext",
    "chiitoi_pairs",
    "decompositions",
    "format_tiles",
    "is_agari",
    "kind_of",
    "parse_tile",
    "parse_tiles",
    "preset",
    "score_hand",
    "shanten",
    "tile_name",
    "to_counts",
    "ukeire",
    "waits",
]

# The engine (imported after the analysis modules it builds on).
from madang.mahjong.engine import (
    MahjongMatch,
    default_action,
    legal_actions,
    new_hand,
    step,
)
from madang.mahjong.state import Action, HandState
from madang.mahjong.view import view

__all__ += [
    "Action",
    "HandState",
    "MahjongMatch",
    "default_action",
    "legal_actions",
    "new_hand",
    "step",
    "view",
]
