"""Matgo self-play benchmark: full games with uniformly random legal moves, one core.

Prints games/s and decisions/s (throughput pass: no per-step timing), then the engine's
per-step latency p50/p99/max in microseconds (a second pass timing each ``step`` call).

    python3 benchmarks/matgo_selfplay.py --games 20000
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from _common import pin_one_core
from madang.matgo.engine import new_game
from madang.matgo.rules import PRESETS


def throughput(n: int, seed: int, preset: str, events: bool) -> tuple[float, int]:
    rules = PRESETS[preset]
    rng = random.Random(seed)
    rand = rng.random
    decisions = 0
    t0 = time.perf_counter()
    for i in range(n):
        g = new_game(rules, seed=seed * 1_000_003 + i, dealer=i & 1)
        if not events:
            g.events = _NullList()
        step = g.step
        legal = g.legal_actions
        while g.phase != 6:
            acts = legal()
            step(acts[int(rand() * len(acts))])
            decisions += 1
    return time.perf_counter() - t0, decisions


class _NullList(list):  # type: ignore[type-arg]
    """An event sink that keeps nothing (to measure the cost of events)."""

    def append(self, item: object) -> None:
        pass


def latency(n: int, seed: int, preset: str) -> list[int]:
    rules = PRESETS[preset]
    rng = random.Random(seed)
    ns = time.perf_counter_ns
    samples = []
    for i in range(n):
        g = new_game(rules, seed=seed * 7 + i, dealer=i & 1)
        while not g.over:
            acts = g.legal_actions()
            a = acts[rng.randrange(len(acts))]
            t = ns()
            g.legal_actions()
            g.step(a)
            samples.append(ns() - t)
    return samples


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--preset", default="default", choices=sorted(PRESETS))
    args = ap.parse_args()
    print(f"matgo self-play, random legal moves, preset {args.preset}, {pin_one_core()}")
    throughput(500, args.seed + 99, args.preset, True)  # warm up
    for label, events in (("with events", True), ("events off", False)):
        dt, dec = throughput(args.games, args.seed, args.preset, events)
        print(
            f"  {label:12s}: {args.games} games in {dt:.2f} s = {args.games / dt:,.0f} games/s, "
            f"{dec / dt:,.0f} decisions/s ({dec / args.games:.1f} decisions/game)"
        )
    samples = latency(min(args.games, 5000), args.seed, args.preset)
    samples.sort()
    q = statistics.quantiles(samples, n=100)
    print(
        f"  step latency (legal_actions + step) over {len(samples)} steps: "
        f"p50 {q[49] / 1000:.1f} us, p99 {q[98] / 1000:.1f} us, max {samples[-1] / 1000:.1f} us"
    )


if __name__ == "__main__":
    main()
