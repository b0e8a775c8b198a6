"""광팔기's join/die rule in play: one ``normal`` (greedy) bot answering by a candidate
rule against three answering by issue 28's rule, on duplicate deals, paired with the same
deals played by issue 28's rule in its seat.

    nice -n 10 python3 benchmarks/gostop_join.py --deals 1500 --seed 9 \\
        --weights 2,0,1,1,3 --threshold 12       # the rule shipped in issue 29

Each deal (the arena's deal seeds, ``madang.arena.deal_seed``) is played four times under
the preset (``gwangpalgi`` by default), agent A at each seat and three greedy bots in the
others, as ``madang arena gostop --preset gwangpalgi`` seats them; then the same four
games with A answering by issue 28's rule (2 per 광, 1 per month held twice, 1 per card
pairing the floor; join from 4). Every bot is deterministic (``hard`` with
``--iterations`` samples and seeded generators), so a game in which A's answer is the
same under both rules is the same game. ``--level hard`` makes A the search bot (the
others stay ``normal``). Printed: A's points a game under each rule (95% CI over
deals), the paired difference (95% CI over deals) and the number of deals in which it
is not zero.

The candidate is a weighted strength over :data:`madang.bots.matgo_greedy.JOIN_FEATURES`
(``--weights``, integers) joined from ``--threshold``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from madang.arena import deal_seed, net_points, new_deal, rotations
from madang.bots import Budget, make_bot, play
from madang.bots.base import Bot
from madang.bots.matgo_greedy import JOIN_FEATURES, GreedyBot, join_features
from madang.matgo import actions as A
from madang.matgo.cards import mask_of, parse_card

_OLD = ((2, 1, 1, 0, 0), 4)  # issue 28's rule: 2 per 광, 1 per pair, 1 per floor pairing; from 4


class RuleBot:
    """``inner`` (a bot of ``gostop``) answering join/die by the strength ``weights`` ·
    features ≥ ``threshold`` instead of its own rule."""

    def __init__(self, inner: Bot, weights: tuple[int, ...], threshold: int) -> None:
        self.inner = inner
        self.name = f"{inner.name}-join"
        self.rule = (weights, threshold)

    def act(
        self, view: dict[str, Any], legal: list[int], rng: random.Random, budget: Budget | None
    ) -> int:
        if view["phase"] != "join" or len(legal) == 1:
            return self.inner.act(view, legal, rng, budget)
        hand = mask_of(parse_card(c) for c in view["hand"])
        floor = mask_of(parse_card(c) for pile in view["floor"] for c in pile["cards"])
        weights, threshold = self.rule
        s = sum(w * f for w, f in zip(weights, join_features(hand, floor), strict=True))
        return A.JOIN if s >= threshold else A.DIE


def _ci(xs: list[float]) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return m, m - h, m + h


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--preset", default="gwangpalgi")
    ap.add_argument("--weights", default="2,0,1,1,3", help=",".join(JOIN_FEATURES))
    ap.add_argument("--threshold", type=int, default=12)
    ap.add_argument("--level", default="normal", help="agent A's level (the others: normal)")
    ap.add_argument("--iterations", type=int, default=32, help="hard's samples a decision")
    args = ap.parse_args(argv)
    weights = tuple(int(w) for w in args.weights.split(","))
    if len(weights) != len(JOIN_FEATURES):
        ap.error(f"--weights takes {len(JOIN_FEATURES)} integers: {', '.join(JOIN_FEATURES)}")
    new: Bot = RuleBot(make_bot("gostop", args.level), weights, args.threshold)
    old: Bot = RuleBot(make_bot("gostop", args.level), *_OLD)
    others: list[Bot] = [RuleBot(GreedyBot(), *_OLD) for _ in range(3)]
    budget = Budget(None, args.iterations)
    t0 = time.perf_counter()
    per_deal_new: list[float] = []
    per_deal_old: list[float] = []
    games = 0
    for d in range(args.deals):
        ds = deal_seed(args.seed, d)
        got = {"new": 0.0, "old": 0.0}
        for r, seats in enumerate(rotations(4, 4)):
            for label, a_bot in (("new", new), ("old", old)):
                session = new_deal("gostop", ds, args.preset)
                bots = [a_bot if a == 0 else others[a - 1] for a in seats]
                rngs = [random.Random(f"{ds}:{r}:{s}") for s in range(4)]
                play(session, bots, rngs, budget)
                got[label] += net_points(session)[seats.index(0)]
            games += 1
        per_deal_new.append(got["new"] / 4)
        per_deal_old.append(got["old"] / 4)
    diff = [n - o for n, o in zip(per_deal_new, per_deal_old, strict=True)]
    out = {
        "preset": args.preset,
        "level": args.level,
        "deals": args.deals,
        "games": games,
        "seed": args.seed,
        "rule": {"weights": dict(zip(JOIN_FEATURES, weights, strict=True)), "from": args.threshold},
        "new_points": _ci(per_deal_new),
        "old_points": _ci(per_deal_old),
        "difference": _ci(diff),
        "deals_that_differ": sum(x != 0 for x in diff),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
