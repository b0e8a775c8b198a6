"""Matgo 고/스톱 rules of the search bot compared on the same deals, game by game.

Each rule is ``hard`` (:class:`madang.bots.matgo_search.SearchBot`) with one 고/스톱 setting
changed, against ``--b`` (``greedy``) on the same duplicate deals. The search is made
deterministic — ``--iterations`` samples per play and ``--go-playouts`` playouts per
고/스톱 answer, whatever the time (60, about 25 ms a play, and 1,200, about the 100 ms
a 고/스톱 answer gets) — so two rules'
games differ only where a 고/스톱 answer differs ("changed"), and the change in points is
paired game by game (mean and 95% CI of the per-game difference from the first rule)::

    taskset -c 1 python3 benchmarks/matgo_go_rules.py --deals 600 --seed 11 \\
        --rules risk=1 risk=0.3 risk=0.2 risk=0.1 risk=0.05 margin=5 greedy-rule

``--b-rule RULE`` makes the opponent ``hard`` itself, deterministic in the same way with
that rule (``--b-rule risk=0.05`` is ``hard`` as shipped: the rules head to head)::

    taskset -c 0 python3 benchmarks/matgo_go_rules.py --deals 600 --seed 11 \\
        --b-rule risk=0.05 --rules risk=0.2

A rule is ``risk=R`` (``go_risk``: 스톱 when the opponent wins in more than R of the
worlds; 1 is expected payment alone), ``margin=M`` (``go_margin``, with no cap on the
risk), ``net`` or ``net=R`` (``go_net``: 고's expected payment taken four plays after
the 고 by :mod:`madang.bots.matgo_net`, as ``hard_learned`` does, the card play
``hard``'s; the cap on the risk R, 0.05 by default) or ``greedy-rule``
(``search_go=False``). A rule's games are printed as one table row.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import pin_one_core
from madang.arena import GameResult, play_deals, points_ci
from madang.bots import Budget
from madang.bots.base import register_bot
from madang.bots.matgo_search import SearchBot


class _FixedGo(SearchBot):
    """The search bot answering 고/스톱 with a fixed number of playouts (no clock)."""

    go_playouts = 1200

    def go_or_stop(
        self,
        view: dict[str, Any],
        me: int,
        prior: int,
        rng: random.Random,
        deadline: float,
        cap: int,
        clock: Callable[[], float] = time.perf_counter,
    ) -> int:
        return super().go_or_stop(view, me, prior, rng, math.inf, self.go_playouts, clock)


def make_rule(rule: str, playouts: int) -> SearchBot:
    """The bot of one rule (see the module doc)."""
    key, _, value = rule.partition("=")
    if key == "risk":
        bot = _FixedGo(go_risk=float(value))
    elif key == "margin":
        bot = _FixedGo(go_margin=float(value), go_risk=1.0)
    elif key == "greedy-rule":
        bot = _FixedGo(search_go=False)
    elif key == "net":
        bot = _FixedGo(go_net=True, go_risk=float(value or 0.05))
    else:
        raise SystemExit(f"unknown rule {rule!r}: risk=R, margin=M, net[=R] or greedy-rule")
    bot.go_playouts = playouts
    return bot


def row(rule: str, games: list[GameResult], first: list[GameResult] | None) -> str:
    """One table row: win rate of decided games, points per game, the paired change."""
    wins = sum(g.winner == 0 for g in games)
    losses = sum(g.winner == 1 for g in games)
    pts = sum(g.net[0] for g in games) / len(games)
    _, _, ci = points_ci(games, 0)
    lo, hi = ci or (pts, pts)
    cells = [
        rule,
        f"{wins} / {losses}",
        f"{wins / max(1, wins + losses):.2%}",
        f"{pts:+.2f} ({lo:+.2f} .. {hi:+.2f})",
    ]
    if first is None:
        return "| " + " | ".join([*cells, "—", "—"]) + " |"
    diff = [g.net[0] - f.net[0] for g, f in zip(games, first, strict=True)]
    changed = sum(g.net != f.net or g.winner != f.winner for g, f in zip(games, first, strict=True))
    mean = sum(diff) / len(diff)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diff) / max(1, len(diff) - 1))
    half = 1.96 * sd / math.sqrt(len(diff))
    return "| " + " | ".join([*cells, str(changed), f"{mean:+.2f} (±{half:.2f})"]) + " |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--b", default="greedy", help="the opponent")
    ap.add_argument("--b-rule", help="the opponent is hard with this rule (overrides --b)")
    ap.add_argument("--iterations", type=int, default=60, help="samples per play")
    ap.add_argument("--go-playouts", type=int, default=1200, help="playouts per 고/스톱")
    ap.add_argument("--rules", nargs="+", default=["risk=1", "risk=0.05"])
    args = ap.parse_args()
    print(f"matgo_go_rules: {pin_one_core()}, {args.deals} deals, seed {args.seed}")
    print(
        "| 고/스톱 rule | A wins / B wins | A's win rate | A's points per game (95% CI by deal)"
        " | changed | change in points |"
    )
    print("|---|---|---|---|---|---|")
    budget = Budget(time_s=None, iterations=args.iterations)
    opponent = args.b
    if args.b_rule:
        b_bot = make_rule(args.b_rule, args.go_playouts)
        register_bot("matgo", "go-rule-b", lambda: b_bot)
        opponent = "go-rule-b"
    first: list[GameResult] | None = None
    for rule in args.rules:
        bot = make_rule(rule, args.go_playouts)
        register_bot("matgo", "go-rule", lambda bot=bot: bot)
        res = play_deals("matgo", ["go-rule", opponent], range(args.deals), args.seed, budget)
        games = sorted(res.games, key=lambda g: (g.deal, g.rotation))
        print(row(rule, games, first), flush=True)
        if first is None:
            first = games


if __name__ == "__main__":
    main()
