"""Mahjong bots, 1 against 3 on duplicate deals: win rates, deal-in rates, decision times.

Each deal (a wall from a seed, dealer seat 0, East round) is played four times: the
*special* seat, a bot of level ``--x``, sits at seat 0, 1, 2 and 3 in turn, the other
three seats are bots of level ``--y``. So every seat position and every wall is played
by the special bot exactly once per deal, and luck of the wall largely cancels.

Figures, for the special seat (over all its hands):

* win rate: hands it won (올라 or 쏘아);
* deal-in rate: hands in which its discard (or a kan robbed from it) was won on by 쏘아;
* mean net points per hand;
* decision time p50/p95/max (milliseconds per ``act`` call, the special bot only).

Run (all four comparisons of issue 4, 2,000 hands each, two worker processes)::

    python3 benchmarks/mahjong_bots.py --hands 2000 --workers 2

or one match: ``--x hard --y normal``. ``--preset yangpan`` plays under a 2판 minimum.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from madang.bots.base import Budget, make_bot
from madang.mahjong.engine import legal_actions, new_hand, step
from madang.mahjong.rules import preset
from madang.mahjong.view import view


@dataclass
class Tally:
    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    nagari: int = 0
    others_win: int = 0
    points: int = 0
    times: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.hands += other.hands
        self.wins += other.wins
        self.deal_ins += other.deal_ins
        self.nagari += other.nagari
        self.others_win += other.others_win
        self.points += other.points
        self.times += other.times


def deal_seed(seed: int, deal: int) -> int:
    return random.Random(f"madang-mahjong-bench:{seed}:{deal}").getrandbits(63)


def play_chunk(x: str, y: str, deals: list[int], seed: int, preset_name: str) -> Tally:
    rules = preset(preset_name)
    special: Any = make_bot("mahjong", x)
    other: Any = make_bot("mahjong", y)
    budget = Budget(0.05)
    clock = time.perf_counter
    out = Tally()
    for d in deals:
        ds = deal_seed(seed, d)
        for me in range(4):
            st = new_hand(rules, seed=ds)
            bots = [special if s == me else other for s in range(4)]
            rngs = [random.Random(f"{ds}:{me}:{s}") for s in range(4)]
            while not st.over:
                seat = st.pending[0]
                legal = list(legal_actions(st, seat))
                v = view(st, seat)
                t0 = clock()
                a = bots[seat].act(v, legal, rngs[seat], budget)
                dt = clock() - t0
                if seat == me:
                    out.times.append(dt)
                step(st, a)
            res = st.result
            assert res is not None
            out.hands += 1
            if res.nagari:
                out.nagari += 1
            if any(w.seat == me for w in res.winners):
                out.wins += 1
            elif res.winners:
                out.others_win += 1
            if any(w.by == "ron" and w.source == me for w in res.winners):
                out.deal_ins += 1
            for frm, to, pts, _ in res.payments:
                if to == me:
                    out.points += pts
                if frm == me:
                    out.points -= pts
    return out


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run(x: str, y: str, hands: int, workers: int, seed: int, preset_name: str) -> dict[str, object]:
    deals = max(1, hands // 4)
    ids = list(range(deals))
    size = max(1, min(25, deals // (workers * 4) or 1))
    chunks = [ids[i : i + size] for i in range(0, deals, size)]
    total = Tally()
    t0 = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            futs = [pool.submit(play_chunk, x, y, c, seed, preset_name) for c in chunks]
            for f in futs:
                total.add(f.result())
    else:
        for c in chunks:
            total.add(play_chunk(x, y, c, seed, preset_name))
    n = total.hands
    return {
        "x": x,
        "y": y,
        "preset": preset_name,
        "hands": n,
        "win_rate": round(total.wins / n, 4),
        "deal_in_rate": round(total.deal_ins / n, 4),
        "others_win_rate": round(total.others_win / n, 4),
        "nagari_rate": round(total.nagari / n, 4),
        "mean_points": round(total.points / n, 3),
        "decisions": len(total.times),
        "p50_ms": round(1000 * pct(total.times, 0.50), 3),
        "p95_ms": round(1000 * pct(total.times, 0.95), 3),
        "max_ms": round(1000 * max(total.times, default=0.0), 3),
        "elapsed_s": round(time.perf_counter() - t0, 1),
    }


def line(r: dict[str, object]) -> str:
    return (
        f"{r['x']:>6} vs 3x {r['y']:<6} {r['hands']:>6} hands  win {r['win_rate']:.2%}  "
        f"deal-in {r['deal_in_rate']:.2%}  others win {r['others_win_rate']:.2%}  "
        f"나가리 {r['nagari_rate']:.2%}  pts/hand {r['mean_points']:+.2f}  "
        f"decision p50 {r['p50_ms']:.2f} ms p95 {r['p95_ms']:.2f} ms max {r['max_ms']:.1f} ms"
        f"  ({r['elapsed_s']} s)"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=400, help="hands per match (4 per deal)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--preset", default="default")
    ap.add_argument("--x", help="the special seat's level or bot name")
    ap.add_argument("--y", help="the other three seats' level or bot name")
    ap.add_argument("--json", action="store_true", help="print JSON lines")
    args = ap.parse_args(argv)
    if args.x or args.y:
        matches = [(args.x or "normal", args.y or "normal")]
    else:
        matches = [("easy", "easy"), ("normal", "easy"), ("normal", "normal"), ("hard", "normal")]
    results: dict[tuple[str, str], dict[str, object]] = {}
    for x, y in matches:
        r = run(x, y, args.hands, args.workers, args.seed, args.preset)
        results[(x, y)] = r
        print(json.dumps(r, ensure_ascii=False) if args.json else line(r), flush=True)
    if len(matches) == 4 and not args.json:
        rr, nr = results[("easy", "easy")], results[("normal", "easy")]
        nn, hn = results[("normal", "normal")], results[("hard", "normal")]
        ratio = float(nr["win_rate"]) / max(float(rr["win_rate"]), 1e-9)  # type: ignore[arg-type]
        di = float(hn["deal_in_rate"]) / max(float(nn["deal_in_rate"]), 1e-9)  # type: ignore[arg-type]
        wr = float(hn["win_rate"]) / max(float(nn["win_rate"]), 1e-9)  # type: ignore[arg-type]
        print(f"normal/random win-rate ratio (1 vs 3 random): {ratio:.2f}  (target >= 4)")
        print(f"hard/normal deal-in ratio (1 vs 3 normal): {di:.2f}  (target <= 0.67)")
        print(f"hard/normal win-rate ratio (1 vs 3 normal): {wr:.2f}  (target >= 0.90)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
