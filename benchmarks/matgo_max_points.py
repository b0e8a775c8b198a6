"""The most points a Matgo game moves in play, beside the bound the server uses.

Plays ``N`` games of one table (default 3,000) between the ``normal`` and the ``easy``
bots and prints the largest number of points one game moved (every payment together,
divided by the 나가리 carry it started with) and the winner's sheet, beside
:func:`madang.matgo.scoring.max_points` (``docs/server.md``, Stakes).

Run: ``python3 benchmarks/matgo_max_points.py [N] [--missions]``.
"""

from __future__ import annotations

import argparse
import random
import time

from madang.core.registry import spec
from madang.server.games import BotPlayer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=int, nargs="?", default=3000)
    ap.add_argument("--missions", action="store_true")
    args = ap.parse_args()
    overrides = {"missions": True} if args.missions else {}
    g = spec("matgo")
    assert g.max_points is not None
    session = g.session("default", 11, overrides)
    bots = [BotPlayer("matgo", "normal", 0.01), BotPlayer("matgo", "easy", 0.01)]
    rng = random.Random(1)
    best, tags, t = 0, [], time.perf_counter()
    for _ in range(args.games):
        while not session.over:
            seat = session.pending()[0]
            session.step(seat, session.bot_move(seat, bots[seat], rng))
        carry = session.record().get("carry", 1)
        moved = sum(p for _, _, p, _ in session.payments()) // carry
        if moved > best:
            best, tags = moved, session.win_tags()
        session.next_game()
    bound = g.max_points(g.rules("default", overrides))
    print(f"{args.games} games {overrides}: at most {best} points in one game {tags}")
    print(f"bound: {bound:,} ({time.perf_counter() - t:.0f} s)")


if __name__ == "__main__":
    main()
