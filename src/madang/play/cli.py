"""``madang play matgo`` / ``madang play mahjong``: play the bots in the terminal."""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from madang.bots.base import LEVELS, Budget

#: game -> (rules module, terminal module, terminal class)
_GAMES = {
    "matgo": ("madang.matgo.rules", "madang.play.matgo_tui", "MatgoTerminal"),
    "mahjong": ("madang.mahjong.rules", "madang.play.mahjong_tui", "MahjongTerminal"),
}


def register_cli(sub: Any) -> None:
    play = sub.add_parser("play", help="play against the bots in the terminal")
    psub = play.add_subparsers(dest="play_game", required=True)
    for game in _GAMES:
        p = psub.add_parser(game, help=f"play {game} against the bots")
        p.add_argument("--level", choices=LEVELS, default="normal", help="the bots' level")
        p.add_argument("--seed", type=int, default=None, help="seed of the deals")
        p.add_argument("--preset", default="default", help="rules preset")
        p.add_argument("--games", type=int, default=None, help="stop after this many games")
        p.add_argument("--think-ms", type=int, default=100, help="the bots' time per decision")
        p.set_defaults(handler=_play)


def _play(args: argparse.Namespace) -> int:
    rules_module, tui_module, class_name = _GAMES[args.play_game]
    rules = importlib.import_module(rules_module).preset(args.preset)
    terminal = getattr(importlib.import_module(tui_module), class_name)
    terminal(
        level=args.level, rules=rules, seed=args.seed, budget=Budget(args.think_ms / 1000)
    ).run(args.games)
    return 0
