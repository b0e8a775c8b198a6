"""Matgo bot benchmark: decision time per bot and playout speed, on one core.

Plays ``--games`` games of the bot under test against the greedy bot (seats alternate)
and times every decision of the bot under test with its default budget; prints p50,
p95, p99 and max in milliseconds, and the search bot's playout rate. Pin it to one core
(it pins itself to the lowest core it may use) and run it on a quiet machine.

    python3 benchmarks/matgo_bots.py --bot hard --games 20
    taskset -c 0 python3 benchmarks/matgo_bots.py --bot normal --games 200
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from _common import pin_one_core
from madang.bots import Budget, make_bot
from madang.bots.matgo_search import playout
from madang.matgo.engine import new_game
from madang.matgo.view import view


def decision_times(bot_name: str, games: int, seed: int, budget: Budget) -> list[float]:
    bot = make_bot("matgo", bot_name)
    other = make_bot("matgo", "greedy")
    times: list[float] = []
    for i in range(games):
        g = new_game(seed=seed + i, dealer=i & 1)
        me = i & 1
        rng = random.Random(seed + i)
        while not g.over:
            seat = g.current
            v = view(g, seat)
            legal = list(g.legal_actions())
            if seat == me:
                t0 = time.perf_counter()
                a = bot.act(v, legal, rng, budget)
                times.append(time.perf_counter() - t0)
            else:
                a = other.act(v, legal, rng, budget)
            g.step(a)
    return times


def playout_rate(n: int, seed: int) -> float:
    states = [new_game(seed=seed + i) for i in range(n)]
    t0 = time.perf_counter()
    for s in states:
        playout(s)
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bot", default="hard")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget-ms", type=float, default=100.0)
    args = ap.parse_args()
    print(f"matgo bot decision times, {pin_one_core()}")
    print(f"  rollout policy: {playout_rate(2000, args.seed):,.0f} full playouts/s")
    budget = Budget(args.budget_ms / 1000)
    t = sorted(decision_times(args.bot, args.games, args.seed, budget))
    q = statistics.quantiles(t, n=100)
    print(
        f"  {args.bot} (budget {args.budget_ms:g} ms), {len(t)} decisions in {args.games} games: "
        f"p50 {1000 * q[49]:.1f} ms, p95 {1000 * q[94]:.1f} ms, p99 {1000 * q[98]:.1f} ms, "
        f"max {1000 * t[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
