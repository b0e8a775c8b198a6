"""OpenSpiel's ISMCTSBot against our ``hard`` bots at the same time per decision.

Run (``pip install -e '.[rl]'``)::

    python3 benchmarks/rl_ismcts.py [--game matgo|mahjong] [--deals N] [--ms 100]

Every bot gets the same wall-clock budget per decision; the arena plays every deal with
each bot on each seat (Matgo: ISMCTS against one ``hard``; mahjong: against three, its
worlds dealt from its view by ``madang.mahjong.engine.from_view``) and prints ISMCTS's
win rate and points per game with 95% confidence intervals, and the decision times.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import pin_one_core


def main(argv: list[str] | None = None) -> int:
    from madang.arena import run_arena
    from madang.bots import Budget
    from madang.rl.openspiel import register_ismcts

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--ms", type=float, default=100.0, help="time per decision (both bots)")
    ap.add_argument("--opponent", default="hard")
    ap.add_argument("--game", default="matgo", choices=("matgo", "mahjong"))
    args = ap.parse_args(argv)
    print(
        f"rl_ismcts: {args.game}, {pin_one_core()}, {args.deals} deals, {args.ms:g} ms per decision"
    )
    register_ismcts(args.game)
    seats = 2 if args.game == "matgo" else 4  # mahjong: ISMCTS against three of them
    r = run_arena(
        args.game,
        ["ismcts", *[args.opponent] * (seats - 1)],
        deals=args.deals,
        seed=11,
        budget=Budget(args.ms / 1000),
    )
    p, n = r["win_rate_a"], r["games"]
    lo, hi = r["ci95_points_a"]
    print(
        f"ismcts vs {args.opponent}: {n} games, win rate {p:.3f} ± "
        f"{1.96 * math.sqrt(p * (1 - p) / n):.3f}, points per game {r['mean_points_a']:+.2f} "
        f"[{lo:+.2f}, {hi:+.2f}]"
    )
    for d in r["decision_ms"].values():
        print(f"  {d['bot']}: {d['decisions']} decisions, p50 {d['p50']} ms, p95 {d['p95']} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
