"""Matgo bot benchmark: decision time per bot and playout speed, on one core.

Plays ``--games`` games of the bot under test against the greedy bot (seats alternate)
and times every decision of the bot under test with its default budget; prints p50,
p95, p99 and max in milliseconds, and the search bot's playout rate. Pin it to one core
(it pins itself to the lowest core it may use) and run it on a quiet machine. The same
decisions are also timed in the thread's CPU time (``time.thread_time``): on a shared
machine that is what a quiet core would show, while the wall-clock figures include the
time the core spent on other processes. ``--cpu-clock`` counts the bot's budget in CPU
time as well (the arena's ``--cpu-clock``): its CPU-time figures are then the decision
times a quiet core would show.

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


def decision_times(
    bot_name: str, games: int, seed: int, budget: Budget
) -> tuple[list[float], list[float]]:
    """The wall-clock and the CPU times of every decision of ``bot_name``, in seconds."""
    bot = make_bot("matgo", bot_name)
    other = make_bot("matgo", "greedy")
    times: list[float] = []
    cpu: list[float] = []
    for i in range(games):
        g = new_game(seed=seed + i, dealer=i & 1)
        me = i & 1
        rng = random.Random(seed + i)
        while not g.over:
            seat = g.current
            v = view(g, seat)
            legal = list(g.legal_actions())
            if seat == me:
                t0, c0 = time.perf_counter(), time.thread_time()
                a = bot.act(v, legal, rng, budget)
                times.append(time.perf_counter() - t0)
                cpu.append(time.thread_time() - c0)
            else:
                a = other.act(v, legal, rng, budget)
            g.step(a)
    return times, cpu


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
    ap.add_argument("--cpu-clock", action="store_true", help="budget in the thread's CPU time")
    args = ap.parse_args()
    print(f"matgo bot decision times, {pin_one_core()}")
    print(f"  rollout policy: {playout_rate(2000, args.seed):,.0f} full playouts/s")
    budget = Budget(args.budget_ms / 1000, cpu=args.cpu_clock)
    wall, cpu = decision_times(args.bot, args.games, args.seed, budget)
    n = len(wall)
    kind = "CPU time" if args.cpu_clock else "wall clock"
    print(f"  {args.bot} (budget {args.budget_ms:g} ms, {kind}): {n} decisions, {args.games} games")
    for clock, times in (("wall clock", wall), ("CPU time", cpu)):
        t = sorted(times)
        q = statistics.quantiles(t, n=100)
        print(
            f"    {clock:10s} p50 {1000 * q[49]:.1f} ms, p95 {1000 * q[94]:.1f} ms, "
            f"p99 {1000 * q[98]:.1f} ms, max {1000 * t[-1]:.1f} ms"
        )


if __name__ == "__main__":
    main()
