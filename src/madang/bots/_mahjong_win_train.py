"""Fit :func:`madang.bots.mahjong_value.win_chance` to ``hard``'s own hands and print
its coefficients.

Run ``python -m madang.bots._mahjong_win_train`` (750 deals of seed 77 by default, about
5 minutes of one core; needs numpy, a development dependency). ``hard``
(:class:`~madang.bots.mahjong_value.ValueBot`, valuing its hands with the coefficients
:data:`PLAYED_WITH`) plays against three ``normal`` on the arena's deals of match seed
``--seed`` (:func:`madang.arena.play_deals`: each deal four times, ``hard`` at each seat), under
무판 and 양판. After each of its discards the hand left is recorded — its 향청
(shanten), its 유효패 (ukeire: the unseen tiles that improve it; for a ready hand the
winning tiles as :meth:`~madang.bots.mahjong_value.ValueBot.ready_value` counts them),
the tiles left in the wall, how many other seats have declared (엎어/불러) and whether
the table has a minimum — with whether that seat went on to win the hand. A logistic
regression (:func:`madang.bots._matgo_value_train.fit`, Newton's method with a little
L2) is fitted on all but the last tenth of the deals, scored on that tenth against the
coefficients it was played with and those shipped, then refitted on everything and
printed as :data:`~madang.bots.mahjong_value.WIN_COEFFICIENTS` (the shipped ones are
this command's output at its defaults, pasted in). The bots are deterministic: the same
seed and deals give the same rows and the same coefficients.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np

from madang.arena import play_deals
from madang.bots._matgo_value_train import fit, log_loss
from madang.bots.base import Budget, registered_bot
from madang.bots.mahjong_efficiency import Table, _acceptance, hand_keys
from madang.bots.mahjong_value import (
    WIN_COEFFICIENTS,
    WIN_FEATURES,
    ValueBot,
    declared_others,
    win_features,
)
from madang.mahjong.hand import shanten_keys
from madang.mahjong.state import ACTION_FORMS

PLAYED_WITH: tuple[float, ...] = (-2.81, -2.73, 0.0, 0.852, 0.335, 0.342, 0.0, 0.0)
"""The :func:`~madang.bots.mahjong_value.win_chance` coefficients ``hard`` plays the
recorded hands with: those it shipped when the shipped ones were fitted (the first fit,
to the defensive bot's hands), so that the script reproduces them."""

PRESETS = ("mupan", "yangpan")
"""The rules the hands are played under (the tables with and without a minimum)."""

Raw = tuple[int, float, int, int, int]
"""A recorded hand: shanten, ukeire, wall count, other seats declared, table minimum."""


class _Recorder(ValueBot):
    """``hard`` (with :data:`PLAYED_WITH`), writing down the hand it keeps after each
    discard."""

    win_coefficients = PLAYED_WITH
    rows: list[tuple[int, Raw]]  # (seat, features) of the current play_deals call

    def act(self, view: Any, legal: Any, rng: Any, budget: Any) -> int:
        code = super().act(view, legal, rng, budget)
        verb, tile, _ = ACTION_FORMS[code]
        if verb == "discard" and view.get("phase") == "discard":
            t = Table.from_view(view)
            self.rows.append((t.seat, hand_features(self, t, tile)))
        return code


def hand_features(bot: ValueBot, t: Table, discard: int) -> Raw:
    """The raw features of the 13-tile hand ``t.seat`` keeps after discarding ``discard``."""
    c13 = t.hand[:]
    c13[discard] -= 1
    melds = t.my_melds
    keys = hand_keys(c13)
    m = len(melds)
    shanten = shanten_keys(keys[0], keys[1], keys[2], m, t.quad_as_two_pairs)
    ukeire, kinds = _acceptance(c13, keys, m, t.quad_as_two_pairs, shanten, t.unseen)
    uk = float(ukeire)
    if shanten == 0:
        uk, _ = bot.ready_value(t, c13, melds, kinds)
    return shanten, uk, t.wall_count, declared_others(t), t.min_pan


def collect(
    preset: str, seed: int, deals: range
) -> tuple[list[Raw], list[float], list[tuple[int, int]]]:
    """Rows, outcomes (1.0 when the seat won the hand) and the hand of each row (its deal
    and ``hard``'s seat), from ``hard`` against three ``normal`` on ``deals`` of match
    seed ``seed``."""
    rows: list[Raw] = []
    won: list[float] = []
    hand_of: list[tuple[int, int]] = []
    for d in deals:
        _Recorder.rows = []
        with registered_bot("mahjong", "_win_recorder", _Recorder):
            res = play_deals(
                "mahjong", ["_win_recorder", "efficiency", "efficiency", "efficiency"],
                [d], seed, Budget(), preset=preset,
            )  # fmt: skip
        # hard sits at a different seat in each of the deal's four hands
        winner_at = {g.seats.index(0): g.winner == 0 for g in res.games}
        assert len(winner_at) == len(res.games)
        for seat, raw in _Recorder.rows:
            rows.append(raw)
            won.append(float(winner_at[seat]))
            hand_of.append((d, seat))
    return rows, won, hand_of


def design(rows: list[Raw]) -> Any:
    """The feature matrix (no bias column) of :func:`win_features` for ``rows``."""
    return np.asarray([win_features(*r) for r in rows], dtype=np.float64)


def loss_of(coefficients: tuple[float, ...], x: Any, y: Any) -> float:
    """The log-loss of ``coefficients`` (bias first) on the rows ``x`` with outcomes ``y``."""
    return log_loss(np.asarray(coefficients, dtype=np.float64), x, y)[0]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=750, help="deals per preset (4 hands each)")
    ap.add_argument("--seed", type=int, default=77, help="the arena's match seed")
    ap.add_argument("--l2", type=float, default=1e-3)
    args = ap.parse_args(argv)
    if args.deals < 2:
        ap.error("--deals must be at least 2 (a tenth of them, at least one, is held out)")
    t0 = time.perf_counter()
    rows: list[Raw] = []
    y: list[float] = []
    deal_of: list[int] = []
    for preset in PRESETS:
        r, w, d = collect(preset, args.seed, range(args.deals))
        rows += r
        y += w
        deal_of += [deal for deal, _ in d]
        print(f"{preset}: {len(r)} discards, {time.perf_counter() - t0:.0f} s", flush=True)
    x = design(rows)
    ya = np.asarray(y)
    held = np.asarray(deal_of) >= args.deals - max(1, args.deals // 10)
    w = fit(x[~held], ya[~held], l2=args.l2)
    base = float(np.mean(ya[held]))
    ll0 = -(base * math.log(base) + (1 - base) * math.log(1 - base))
    print(
        f"held-out log-loss ({int(held.sum())} rows): "
        f"refit {log_loss(w, x[held], ya[held])[0]:.4f}, "
        f"played with {loss_of(PLAYED_WITH, x[held], ya[held]):.4f}, "
        f"shipped {loss_of(WIN_COEFFICIENTS, x[held], ya[held]):.4f}, constant {ll0:.4f}"
    )
    w = fit(x, ya, l2=args.l2)
    print("WIN_COEFFICIENTS: Final = (")
    for name, v in zip(("bias", *WIN_FEATURES), w, strict=True):
        print(f"    {v:.4f},  # {name}")
    print(")")


if __name__ == "__main__":
    main()
