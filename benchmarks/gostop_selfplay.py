"""Go-Stop family self-play benchmark: random 3-seat and 4-seat (광팔기) 고스톱 beside
맞고, one core.

Both games run on the family's one engine (``madang.matgo.engine``); each is timed on the
same core in the same run, alternating rounds, and the best round is reported (the
machine is shared). Prints games/s and decisions/s of each and the cost of a 3-player
decision relative to a Matgo decision (issue 28 asks at most 1.5x).

``--bots N`` adds the bots' speed at both tables: the search's rollout policy (full
playouts/s from a fresh deal) and, for each level, the CPU time of its decisions over
``N`` games in which every seat is that bot (``--iterations`` samples a search decision,
as the arena's ``--iterations``): p50 and p95 in milliseconds, and decisions/s.

    taskset -c 0 python3 benchmarks/gostop_selfplay.py --games 4000 --rounds 5
    taskset -c 0 python3 benchmarks/gostop_selfplay.py --games 2000 --bots 10 --iterations 32
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from _common import pin_one_core
from madang.bots import Budget, make_bot
from madang.bots.matgo_search import playout
from madang.gostop.rules import PRESETS as GOSTOP_PRESETS
from madang.matgo.engine import new_game
from madang.matgo.rules import PRESETS as MATGO_PRESETS
from madang.matgo.rules import MatgoRules
from madang.matgo.view import view


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


def playouts_per_s(rules: MatgoRules, n: int, seed: int) -> float:
    """Full playouts of the search's rollout policy per second of CPU time, each from a
    fresh deal (every seat plays the policy)."""
    states = [new_game(rules, seed=seed + i, dealer=i % rules.players) for i in range(n)]
    t0 = time.process_time()
    for s in states:
        playout(s)
    return n / (time.process_time() - t0)


def bot_decisions(game: str, rules: MatgoRules, level: str, n: int, budget: Budget) -> list[float]:
    """The CPU seconds of every decision with a choice of ``n`` games in which every seat
    is the ``level`` bot of ``game``, each given its seat's view."""
    bot = make_bot(game, level)
    times: list[float] = []
    for i in range(n):
        g = new_game(rules, seed=7_000 + i, dealer=i % rules.players)
        rng = random.Random(i)
        while g.phase != 6:
            legal = g.legal_actions()
            if len(legal) == 1:
                g.step(legal[0])
                continue
            v = view(g, g.current)
            t0 = time.thread_time()
            a = bot.act(v, list(legal), rng, budget)
            times.append(time.thread_time() - t0)
            g.step(a)
    return times


def bots_table(games: dict[str, MatgoRules], n: int, iterations: int, seed: int) -> None:
    """Print the bots' speed at each table (see the module docstring)."""
    budget = Budget(None, iterations)
    for name, rules in games.items():
        print(f"  {name:9s}: rollout policy {playouts_per_s(rules, 1000, seed):,.0f} playouts/s")
    for level in ("easy", "normal", "hard"):
        for name, rules in games.items():
            times = bot_decisions(name.split()[0], rules, level, n, budget)
            q = statistics.quantiles(times, n=100)
            print(
                f"  {name:9s} {level:6s}: p50 {1000 * q[49]:.2f} ms, p95 {1000 * q[94]:.2f} ms, "
                f"{len(times) / sum(times):,.0f} decisions/s ({len(times)} decisions, "
                f"{n} games{f', {iterations} samples' if level == 'hard' else ''})"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", type=int, default=0, help="games per level for the bots' speed")
    ap.add_argument("--iterations", type=int, default=32, help="samples per search decision")
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
    if args.bots:
        print(f"bots, CPU time of each decision, every seat the same bot, {pin_one_core()}")
        bots_table(games, args.bots, args.iterations, args.seed)


if __name__ == "__main__":
    main()
