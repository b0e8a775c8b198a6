"""``madang play matgo`` / ``madang play mahjong``: play the bots in the terminal."""

from __future__ import annotations

import argparse
from typing import Any

from madang.bots.base import LEVELS, Budget


def register_cli(sub: Any) -> None:
    play = sub.add_parser("play", help="play against the bots in the terminal")
    psub = play.add_subparsers(dest="play_game", required=True)
    for game in ("matgo", "mahjong"):
        p = psub.add_parser(game, help=f"play {game} against the bots")
        p.add_argument("--level", choices=LEVELS, default="normal", help="the bots' level")
        p.add_argument("--seed", type=int, default=None, help="seed of the deals")
        p.add_argument("--preset", default="default", help="rules preset")
        p.add_argument("--games", type=int, default=None, help="stop after this many games")
        p.add_argument("--think-ms", type=int, default=100, help="the bots' time per decision")
        p.set_defaults(handler=_play_matgo if game == "matgo" else _play_mahjong)


def _play_matgo(args: argparse.Namespace) -> int:
    from madang.matgo.rules import preset
    from madang.play.matgo_tui import MatgoTerminal

    MatgoTerminal(
        level=args.level,
        rules=preset(args.preset),
        seed=args.seed,
        budget=Budget(args.think_ms / 1000),
    ).run(args.games)
    return 0


def _play_mahjong(args: argparse.Namespace) -> int:
    from madang.mahjong.rules import preset
    from madang.play.mahjong_tui import MahjongTerminal

    MahjongTerminal(
        level=args.level,
        rules=preset(args.preset),
        seed=args.seed,
        budget=Budget(args.think_ms / 1000),
    ).run(args.games)
    return 0
