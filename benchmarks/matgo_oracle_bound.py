"""What hidden information is worth to Matgo ``hard``: the search told the truth, head to head.

``hard`` (:class:`~madang.bots.matgo_search.SearchBot`, deterministic: 60 sampled worlds a
play and 1,200 playouts a 고/스톱, as in ``matgo_go_rules.py``) plays itself on the arena's
deals (:func:`madang.arena.play_deals`, both seatings of every deal), but seat A's worlds
are dealt with the truth put in:

``--told hand``
    the opponent's hidden hand as it is; the draw pile dealt at random from the rest, as
    always. This bounds what any reading of the opponent's hand (inference from its
    plays) could bring.
``--told floor``
    only which cards of the months on the floor the opponent holds (the rest of its hand
    dealt at random from the other months): what its plays can best give away, since a
    card of a floor month captures.
``--told all``
    the opponent's hand and the draw pile in its real order: no hidden information at all.

The bot cheats by construction (the view carries the state for this run only), so the
figures are bounds, not levels (issue 29; docs/bots.md, "What hidden information is worth").

    python3 benchmarks/matgo_oracle_bound.py --told hand --deals 300
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from madang.arena import play_deals, points_ci
from madang.bots import matgo_search
from madang.bots.base import Budget, register_bot
from madang.bots.matgo_search import SearchBot
from madang.matgo.cards import BIT, MONTH, MONTH_MASK, cards_of
from madang.matgo.engine import MatgoState
from madang.matgo.game import MatgoSession

PLAYS = 60
"""Sampled worlds per play (the budget's iteration cap)."""
GO_PLAYOUTS = 1200
"""Playouts per 고/스톱."""


class _Told(matgo_search._Worlds):
    """Worlds of seat ``me``'s view with the truth of :data:`_TRUTH` dealt in (when set)."""

    __slots__ = ("floor_months", "truth", "unseen")

    def __init__(self, view: dict[str, Any], me: int, rng: random.Random) -> None:
        super().__init__(view, me, rng)
        self.truth: MatgoState | None = _TRUTH["state"] if _TRUTH["told"] else None
        b = self.base
        o = 1 - me
        unseen = b.hands[o] & ~b.revealed[o]
        for c in b.pile:
            unseen |= BIT[c]
        self.unseen = unseen
        months = 0
        for c in cards_of(b.floor):
            months |= MONTH_MASK[MONTH[c]]
        self.floor_months = months

    def deal(self) -> MatgoState:
        truth = self.truth
        if truth is None:
            return super().deal()
        b = self.base
        o = 1 - self.me
        told = _TRUTH["told"]
        if told == "floor":
            hidden = truth.hands[o] & ~b.revealed[o]
            known = hidden & self.floor_months
            others = cards_of(self.unseen & ~self.floor_months)
            self.rng.shuffle(others)
            hand = b.revealed[o] | known
            for c in others[: hidden.bit_count() - known.bit_count()]:
                hand |= BIT[c]
            b.hands[o] = hand
        else:
            b.hands[o] = truth.hands[o]
        if told == "all":
            b.pile = list(truth.pile)
        else:
            rest = cards_of(self.unseen & ~b.hands[o])
            self.rng.shuffle(rest)
            b.pile = rest
        b.deck = ()
        b._legal = None
        return b


_TRUTH: dict[str, Any] = {"state": None, "told": None}


class _Fixed(SearchBot):
    """``hard`` with a fixed number of samples (deterministic), told nothing."""

    told: str | None = None

    def act(
        self, view: dict[str, Any], legal: list[int], rng: random.Random, budget: Budget | None
    ) -> int:
        _TRUTH["state"] = view.get("_state")
        _TRUTH["told"] = self.told
        try:
            return super().act(view, legal, rng, Budget(None, PLAYS))
        finally:
            _TRUTH["told"] = None

    def go_or_stop(self, view: dict[str, Any], me: int, prior: int, rng: random.Random,
                   deadline: float, cap: int, clock: Any = time.perf_counter) -> int:  # fmt: skip
        return super().go_or_stop(view, me, prior, rng, math.inf, GO_PLAYOUTS, clock)


@contextmanager
def told_worlds() -> Iterator[None]:
    """For this block only, Matgo views carry their state under ``_state`` and the search
    deals its worlds through :class:`_Told`."""
    real = MatgoSession.view

    def view(self: MatgoSession, seat: int | None) -> Any:
        v = dict(real(self, seat))
        v["_state"] = self.match.game
        return v

    with (
        mock.patch.object(MatgoSession, "view", view),
        mock.patch.object(matgo_search, "_Worlds", _Told),
    ):
        yield


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--told", choices=("hand", "floor", "all"), default="hand")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--start", type=int, default=0, help="first deal (to split a run)")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    told = type("Told", (_Fixed,), {"told": args.told})
    register_bot("matgo", "_told", told)
    register_bot("matgo", "_hard", _Fixed)
    t0 = time.perf_counter()
    with told_worlds():
        res = play_deals(
            "matgo", ["_told", "_hard"], range(args.start, args.start + args.deals), args.seed,
            Budget(None, PLAYS),
        )  # fmt: skip
    wins = sum(g.winner == 0 for g in res.games)
    losses = sum(g.winner == 1 for g in res.games)
    _, m, ci = points_ci(res.games, 0)
    lo, hi = ci or (m, m)
    print(
        f"told the {args.told} against hard, deals {args.start}..{args.start + args.deals - 1} "
        f"of seed {args.seed}: {len(res.games)} games, A {wins} / B {losses} "
        f"({wins / max(1, wins + losses):.1%}), A's points per game {m:+.2f} "
        f"({lo:+.2f} .. {hi:+.2f}) [{time.perf_counter() - t0:.0f} s]"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
