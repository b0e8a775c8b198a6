"""What a timeout would play in Matgo: how often each candidate throws a card to a month
with nothing on the floor while a capture was there (a gift to the opponent), and how
long it takes to decide. The candidates: the engine's default answer (the lowest month
card), the ``easy`` bot (random) and the ``normal`` bot (greedy), the one the server's
timeouts ask (``docs/server.md``, Timers).

Positions: every 패 내기 question with a capture available in ``--games`` games played
at random from seeds 0, 1, …

    python3 benchmarks/matgo_timeout_moves.py --games 300
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from madang.bots import Budget, make_bot
from madang.matgo import actions as A
from madang.matgo.cards import KINDS, MONTH, MONTH_MASK, NUM_MONTH_CARDS, Kind
from madang.matgo.engine import new_game
from madang.matgo.view import view


def _card(a: int) -> int | None:
    """The month card an action plays, if it plays one."""
    c = a - A.PLAY
    return c if A.PLAY <= a < A.SHAKE and c < NUM_MONTH_CARDS else None


def _captures(g: Any, c: int) -> bool:
    return bool(g.floor & MONTH_MASK[MONTH[c]])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    args = ap.parse_args()
    bots = {
        "default": None,
        "easy": make_bot("matgo", "easy"),
        "normal": make_bot("matgo", "normal"),
    }
    gifts = dict.fromkeys(bots, 0)
    gwang = dict.fromkeys(bots, 0)
    seconds = dict.fromkeys(bots, 0.0)
    positions = 0
    rng = random.Random(1)
    for seed in range(args.games):
        g = new_game(seed=seed)
        while not g.over:
            legal = list(g.legal_actions())

            cards = [c for c in map(_card, legal) if c is not None]
            if any(_captures(g, c) for c in cards):
                positions += 1
                for name, bot in bots.items():
                    t = time.perf_counter()
                    if bot is None:
                        a = g.default_action()
                    else:
                        v = view(g, g.current)
                        a = bot.act(v, legal, random.Random(seed), Budget(0.1))
                    seconds[name] += time.perf_counter() - t
                    c = _card(a)
                    if c is not None and not _captures(g, c):
                        gifts[name] += 1
                        gwang[name] += KINDS[c] == Kind.GWANG
            g.step(legal[rng.randrange(len(legal))])
    print(f"{positions} positions with a capture available, {args.games} games")
    for name in bots:
        print(
            f"{name:8s} gives a card away {gifts[name]:5d} ({100 * gifts[name] / positions:4.1f}%),"
            f" a 광 {gwang[name]:4d}; {1000 * seconds[name] / positions:.3f} ms a decision"
        )


if __name__ == "__main__":
    main()
