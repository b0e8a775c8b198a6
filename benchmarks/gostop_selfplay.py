"""Go-Stop family self-play benchmark: random 3-seat and 4-seat (광팔기) 고스톱 beside
맞고, one core.

Both games run on the family's one engine (``madang.matgo.engine``); each is timed on the
same core in the same run, alternating rounds, and the best round is reported (the
machine is shared). Prints games/s and decisions/s of each and the cost of a 3-player
decision relative to a Matgo decision (issue 28 asks at most 1.5x).

    python3 benchmarks/gostop_selfplay.py --games 4000 --rounds 5
"""

from __future__ import annotations

import argparse
import random
import time

from _common import pin_one_core
from madang.gostop.rules import PRESETS as GOSTOP_PRESETS
from madang.matgo.engine import new_game
from madang.matgo.rules import PRESETS as MATGO_PRESETS
from madang.matgo.rules import MatgoRules


def throughput(rules: MatgoRules, n: int, seed: int) -> tuple[float, int]:
    """Seconds of CPU time and decisions for ``n`` games of random legal moves."""
    rng = random.Random(seed)
    rand = rng.random
    seats = rules.players
    decisions = 0
    t0 = time.process_time()
    for i in range(n):
        g = new_game(rules, seed=seed * 1_000_003 + i, dealer=i % seats)
        step = g.step
        legal = g.legal_actions
        while g.phase != 6:
            acts = legal()
            step(acts[int(rand() * len(acts))])
            decisions += 1
    return time.process_time() - t0, decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"go-stop family self-play, random legal moves, default presets, {pin_one_core()}")
    games = {
        "matgo": MATGO_PRESETS["default"],
        "gostop 3p": GOSTOP_PRESETS["default"],
        "gostop 4p": GOSTOP_PRESETS["gwangpalgi"],  # join/die are decisions too
    }
    for rules in games.values():
        throughput(rules, 300, args.seed + 99)  # warm up
    best: dict[str, tuple[float, int]] = {}
    for _ in range(args.rounds):
        for name, rules in games.items():
            dt, dec = throughput(rules, args.games, args.seed)
            if name not in best or dt < best[name][0]:
                best[name] = (dt, dec)
    for name, (dt, dec) in best.items():
        print(
            f"  {name:9s}: {args.games / dt:,.0f} games/s, {dec / dt:,.0f} decisions/s "
            f"({dec / args.games:.1f} decisions/game, best of {args.rounds})"
        )
    (mt, md), (gt, gd), (ft, fd) = best["matgo"], best["gostop 3p"], best["gostop 4p"]
    print(f"  a 3-player decision costs {(gt / gd) / (mt / md):.2f}x a Matgo decision")
    print(f"  a 4-seat decision costs {(ft / fd) / (mt / md):.2f}x a Matgo decision")


if __name__ == "__main__":
    main()
