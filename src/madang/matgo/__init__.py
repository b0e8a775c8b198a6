"""Matgo (맞고): two-player Go-Stop with Hwatu cards.

>>> game = new_game(seed=1)
>>> game.over, len(game.legal_actions()) > 0
(False, True)
"""

from madang.matgo.actions import action_str, parse_action
from madang.matgo.cards import card_code, format_cards, parse_card, parse_cards
from madang.matgo.engine import MatgoState, Phase, new_game
from madang.matgo.match import MatgoMatch
from madang.matgo.record import export_record, replay, replay_json
from madang.matgo.rules import PRESETS, MatgoRules, preset
from madang.matgo.scoring import ScoreSheet, settle
from madang.matgo.view import view

__all__ = [
    "PRESETS",
    "MatgoMatch",
    "MatgoRules",
    "MatgoState",
    "Phase",
    "ScoreSheet",
    "action_str",
    "card_code",
    "export_record",
    "format_cards",
    "new_game",
    "parse_action",
    "parse_card",
    "parse_cards",
    "preset",
    "replay",
    "replay_json",
    "settle",
    "view",
]
