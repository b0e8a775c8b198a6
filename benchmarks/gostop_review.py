"""The cost of 고스톱's review (복기, ``madang.review``) on one core.

Plays ``--games`` games of 고스톱 under each preset named (three ``hard`` bots, or four
with 광팔기, at ``--iterations`` sampled worlds a decision, deals from seeds 1, 2, …),
reviews every seat of each at ``--samples`` worlds a decision (the default is the
review's) and prints, per preset, the CPU time (``time.process_time``) of one seat's
review and of a whole game's (every seat), min / median / max, with the decisions
scored. The issue asks a 3-seat game's review in at most 10 s of one core.

    python3 benchmarks/gostop_review.py --games 6
    python3 benchmarks/gostop_review.py --games 6 --presets gwangpalgi shodang
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from _common import pin_one_core
from madang.bots import Budget, make_bot
from madang.bots.base import play
from madang.core.registry import spec
from madang.review import DEFAULT_SAMPLES, review


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--presets", nargs="+", default=["default"])
    ap.add_argument("--iterations", type=int, default=8)
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    args = ap.parse_args()
    print(pin_one_core())
    g = spec("gostop")
    for name in args.presets:
        seat_s: list[float] = []
        game_s: list[float] = []
        decisions: list[int] = []
        for seed in range(1, args.games + 1):
            s = g.deal(g.rules(name), seed)
            bots = [make_bot("gostop", "hard")] * s.seats
            rngs = [random.Random(f"{seed}:{k}") for k in range(s.seats)]
            play(s, bots, rngs, Budget(None, args.iterations))
            record = s.record()
            total = 0.0
            for seat in range(s.seats):
                t = time.process_time()
                r = review(record, seat, samples=args.samples)
                dt = time.process_time() - t
                seat_s.append(dt)
                decisions.append(len(r["decisions"]))
                total += dt
            game_s.append(total)

        def spread(xs: list[float]) -> str:
            return f"{min(xs):.2f} / {statistics.median(xs):.2f} / {max(xs):.2f} s"

        print(
            f"{name}: {args.games} games, {len(seat_s)} seat reviews at {args.samples} worlds;"
            f" a seat {spread(seat_s)} ({min(decisions)}-{max(decisions)} decisions),"
            f" a game's every seat {spread(game_s)}"
        )


if __name__ == "__main__":
    main()
