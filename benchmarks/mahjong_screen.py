"""Screen variants of mahjong ``hard`` against three ``normal``, paired by deal.

Each variant is ``hard`` (:class:`~madang.bots.mahjong_value.ValueBot`) with some class
attributes changed, written ``NAME=JSON`` and joined by ``;`` (a JSON list becomes a
tuple; ``""`` is ``hard`` as shipped; ``danger.NAME=JSON`` changes an attribute of its
danger model, :class:`~madang.bots.mahjong_value.ValueDanger`). Every variant plays the
same deals of the arena (:func:`madang.arena.play_deals`: a deal's four hands, the
variant at each seat, the match seed ``--seed``), so the difference from the first
variant is paired deal by deal: the bots are deterministic, and two variants play the
same hands until their decisions differ. Printed per variant: points per hand (95% CI,
paired by deal), the hands won and dealt in, the CPU time per decision (p95 and p99,
``time.thread_time``: what a quiet core shows), and the difference in points per hand
from the first variant with its 95% CI.

    python3 benchmarks/mahjong_screen.py --preset yangpan --seed 77 --deals 500 \\
        "lookahead=[false,false,false,false]" ""
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from madang.arena import GameResult, play_deals
from madang.bots.base import Budget, register_bot
from madang.bots.mahjong_value import ValueBot, ValueDanger


def variant(spec: str) -> type[ValueBot]:
    """``hard`` with the attributes of ``spec`` (``NAME=JSON;…``) changed, timing its
    decisions in CPU time."""
    attrs: dict[str, Any] = {}
    danger: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in spec.split(";"))):
        name, _, raw = item.partition("=")
        owner: type = ValueBot
        into = attrs
        if name.startswith("danger."):
            name, owner, into = name.removeprefix("danger."), ValueDanger, danger
        if not hasattr(owner, name):
            raise SystemExit(f"{owner.__name__} has no attribute {name!r}")
        if owner is ValueBot and name == "safe_enough":
            raise SystemExit("hard reads safe_by_min (by table minimum), not safe_enough")
        value = json.loads(raw)
        into[name] = tuple(value) if isinstance(value, list) else value
    if danger:
        attrs["danger_model"] = type("ScreenedDanger", (ValueDanger,), danger)
    cpu: list[float] = []

    def act(self: ValueBot, view: Any, legal: Any, rng: Any, budget: Any) -> int:
        t0 = time.thread_time()
        out = ValueBot.act(self, view, legal, rng, budget)
        cpu.append(time.thread_time() - t0)
        return out

    cls = type("Screened", (ValueBot,), {**attrs, "act": act, "cpu": cpu})
    return cls


def ci(xs: list[float]) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - h, m + h


def paired_line(
    label: str,
    games: Sequence[GameResult],
    deals: int,
    first: list[float] | None,
    extra: str = "",
) -> tuple[str, list[float]]:
    """The line printed for a variant whose games (the variant at agent 0) are ``games``
    over ``deals`` deals: its points per hand (95% CI by deal), the hands won and dealt
    in, ``extra``, and — given the first variant's points per deal — the paired
    difference from it; with the variant's points per deal."""
    per = [0.0] * deals
    for g in games:
        per[g.deal] += g.net[0] / 4
    hands = len(games)
    won = sum(g.winner == 0 for g in games) / hands
    dealt = sum(bool(g.deal_in and g.deal_in[0]) for g in games) / hands
    m, lo, hi = ci(per)
    line = (
        f"{label}, {hands} hands: {m:+.3f} ({lo:+.2f} .. {hi:+.2f}), won {won:.2%}, "
        f"dealt in {dealt:.2%}{extra}"
    )
    if first is not None:
        dm, dlo, dhi = ci([a - b for a, b in zip(per, first, strict=True)])
        line += f"; against the first: {dm:+.3f} ({dlo:+.2f} .. {dhi:+.2f})"
    return line, per


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variants", nargs="+", help='attribute changes, e.g. "slack=1" ("" = hard)')
    ap.add_argument("--preset", default="mupan")
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--deals", type=int, default=500)
    args = ap.parse_args(argv)
    first: list[float] | None = None
    for i, spec in enumerate(args.variants):
        cls = variant(spec)
        name = f"screened-{i}"
        register_bot("mahjong", name, cls)
        bots = [name, "efficiency", "efficiency", "efficiency"]
        deals = range(args.deals)
        res = play_deals("mahjong", bots, deals, args.seed, Budget(), preset=args.preset)
        cpu = sorted(cls.cpu)  # type: ignore[attr-defined]
        p95, p99 = (1000 * cpu[min(len(cpu) - 1, int(q * len(cpu)))] for q in (0.95, 0.99))
        line, per = paired_line(
            f"{spec or 'hard':40} {args.preset} seed {args.seed}", res.games, args.deals,
            first, f", CPU p95 {p95:.1f} ms, p99 {p99:.1f} ms",
        )  # fmt: skip
        first = first or per
        print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
