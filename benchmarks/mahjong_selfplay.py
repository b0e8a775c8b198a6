"""Self-play speed of the mahjong engine: full hands on one core, two policies.

Run pinned to one core::

    taskset -c 0 python3 benchmarks/mahjong_selfplay.py [--hands N] [--greedy-hands N]

* ``random``: a uniformly random legal action at every decision (all pending seats'
  actions pooled, so claim answers come in random order too).
* ``greedy``: shanten-greedy — 올라/쏘아 whenever allowed; discard the tile that
  leaves the lowest shanten, ties broken by the most ukeire (unseen tiles that improve
  the hand), then by the lowest kind; 뽕 when it does not raise the shanten; never 깡,
  never 엎어.

Prints hands/s for each (per CPU second of this process, so that a busy machine skews
the figure less; the wall time is shown too), then runs ``benchmarks/mahjong_shanten.py``
(the hand-analysis comparison) if it is there.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from pathlib import Path

from madang.mahjong.engine import legal_actions, new_hand, step
from madang.mahjong.hand import shanten, ukeire
from madang.mahjong.state import Action, HandState


def random_policy(state: HandState, rng: random.Random) -> Action:
    return rng.choice(legal_actions(state))


def _visible(state: HandState) -> list[int]:
    seen = [0] * 25
    for s in range(4):
        for k in state.rivers[s]:
            seen[k] += 1
        for m in state.melds[s]:
            seen[m.tile] += 3 if m.kind == "pon" else 4
    return seen


def greedy_policy(state: HandState, rng: random.Random) -> Action:
    seat = state.pending[0]
    acts = legal_actions(state, seat)
    verbs = {a.verb: a for a in acts}
    for v in ("tsumo", "ron"):
        if v in verbs:
            return verbs[v]
    counts = state.hands[seat]
    nmelds = len(state.melds[seat])
    quad = state.rules.quad_as_two_pairs
    if state.phase != "discard":
        if "pon" in verbs:
            after = counts[:]
            after[state.claim_tile] -= 2
            if shanten(after, nmelds + 1, quad) <= shanten(counts, nmelds, quad):
                return verbs["pon"]
        return verbs["pass"]
    discards = [a for a in acts if a.verb == "discard" and not a.declare]
    if len(discards) == 1:
        return discards[0]
    visible = _visible(state)
    best: tuple[int, int, int] | None = None
    choice = discards[0]
    for a in discards:
        counts[a.tile] -= 1
        try:
            sh = shanten(counts, nmelds, quad)
            if best is not None and sh > best[0]:
                continue
            uk = sum(ukeire(counts, nmelds, visible, quad).values())
        finally:
            counts[a.tile] += 1
        key = (sh, -uk, a.tile)
        if best is None or key < best:
            best, choice = key, a
    return choice


def run(policy: str, hands: int, seed: int) -> tuple[float, float, int, int]:
    """Play ``hands`` full hands; return (CPU seconds, wall seconds, decisions, won)."""
    rng = random.Random(seed)
    pick = random_policy if policy == "random" else greedy_policy
    decisions = 0
    won = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for i in range(hands):
        state = new_hand(seed=seed * 1_000_003 + i, dealer=i % 4)
        while state.result is None:
            step(state, pick(state, rng))
            decisions += 1
        won += not state.result.nagari
    return time.process_time() - cpu, time.perf_counter() - start, decisions, won


def _shanten_comparison() -> None:
    path = Path(__file__).with_name("mahjong_shanten.py")
    if not path.exists():
        print(f"({path.name} not found: no shanten comparison)")
        return
    spec = importlib.util.spec_from_file_location("mahjong_shanten_bench", path)
    if spec is None or spec.loader is None:  # pragma: no cover
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    module.main()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="random-policy hands")
    parser.add_argument("--greedy-hands", type=int, default=300, help="greedy-policy hands")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-shanten", action="store_true", help="skip the shanten bench")
    args = parser.parse_args(argv)
    new_hand(seed=0)  # warm the tables
    for policy, n in (("random", args.hands), ("greedy", args.greedy_hands)):
        if n <= 0:
            continue
        secs, wall, decisions, won = run(policy, n, args.seed)
        print(
            f"mahjong self-play {policy:6s}: {n} hands in {secs:.2f} s CPU "
            f"({wall:.2f} s wall) = {n / secs:,.0f} hands/s, {decisions / secs:,.0f} "
            f"decisions/s, {decisions / n:.1f} decisions/hand, {won / n:.1%} won"
        )
    if not args.no_shanten:
        _shanten_comparison()


if __name__ == "__main__":
    main()
