"""``madang play GAME``: play the bots in the terminal, for every registered game that
has a terminal session (``GameSpec.terminal``)."""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from madang.bots.base import LEVELS, Budget
from madang.core.registry import games, spec


def _games() -> list[str]:
    """The registered games that can be played in the terminal."""
    return [g for g in games() if spec(g).terminal]


def register_cli(sub: Any) -> None:
    play = sub.add_parser("play", help="play against the bots in the terminal")
    psub = play.add_subparsers(dest="play_game", required=True)
    for game in _games():
        p = psub.add_parser(game, help=f"play {game} against the bots")
        p.add_argument("--level", choices=LEVELS, default="normal", help="the bots' level")
        p.add_argument("--seed", type=int, default=None, help="seed of the deals")
        p.add_argument("--preset", default="default", help="rules preset")
        p.add_argument("--games", type=int, default=None, help="stop after this many games")
        p.add_argument("--think-ms", type=int, default=100, help="the bots' time per decision")
        p.set_defaults(handler=_play)


def _play(args: argparse.Namespace) -> int:
    game = spec(args.play_game)
    assert game.terminal is not None
    game.rules(args.preset)  # an unknown preset: RuleConfigError before the screen clears
    module, class_name = game.terminal.split(":")
    terminal = getattr(importlib.import_module(module), class_name)
    terminal(
        level=args.level, preset=args.preset, seed=args.seed, budget=Budget(args.think_ms / 1000)
    ).run(args.games)
    return 0
