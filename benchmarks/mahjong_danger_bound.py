"""Where mahjong ``hard``'s points are: an upper bound from perfect danger reading, and how
much of it a seat's view can tell.

Two measurements (issue 29; docs/bots.md, "Mahjong hard: the sixth pass"):

``oracle``
    ``hard`` against three ``normal`` on the arena's deals (:func:`madang.arena.play_deals`,
    paired by deal, as ``mahjong_screen.py`` does), once as shipped and once with its danger
    model told the truth: which opponents could win by 쏘아 now and on which tiles (their
    hidden hands, 진팅 and 골라 쏘아 금지 included). ``--parts`` also plays the two halves:
    the truth about *which tiles* (the threat as the model has it) and about *who* (the
    tile dangers as the model has them). The bot cheats by construction — the view is
    patched for this run only — so the figures are a bound, not a level.

``information``
    ``hard`` plays three ``normal`` (hands dealt from ``--seed``, ``hard``'s seat turning
    with the hand); at each of its turns the view is recorded with the truth: for each
    opponent that has not declared, whether it could win by 쏘아 now (*ready*), and for
    each ready opponent and each kind in ``hard``'s hand that the model does not already
    count safe, whether that kind wins for it (*wait*). Logistic regressions on features
    of the view are fitted on the first 85% of the hands and scored (log-loss) on the
    rest, beside a constant and the shipped model's own estimate (refitted as a single
    feature, so that only its ranking counts). ``--mlp`` adds a two-layer network on a
    wider encoding (needs torch, the ``train`` extra) as a ceiling for what the view
    holds. ``--screen N`` then plays ``hard`` with the fitted ready model as its threat
    against ``hard`` as shipped on N deals of the arena (seed ``--screen-seed``).

    python3 benchmarks/mahjong_danger_bound.py oracle --preset mupan --seed 80 --deals 300 --parts
    python3 benchmarks/mahjong_danger_bound.py information --hands 6000 --mlp --screen 1000
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from unittest import mock

import numpy as np

from madang.arena import play_deals
from madang.bots._matgo_value_train import fit, log_loss
from madang.bots.base import Budget, register_bot
from madang.bots.mahjong_defensive import DangerModel
from madang.bots.mahjong_efficiency import EfficiencyBot, Table
from madang.bots.mahjong_value import ValueBot, ValueDanger
from madang.mahjong.engine import (
    EOPEO_MIN_WALL,
    _can_ron,
    _waits_mask,
    legal_actions,
    new_hand,
    step,
)
from madang.mahjong.game import MahjongSession
from madang.mahjong.rules import preset as rules_preset
from madang.mahjong.state import ACTION_FORMS, HandState, act
from madang.mahjong.tiles import DRAGONS, NUM_KINDS
from madang.mahjong.view import view as seat_view
from mahjong_screen import paired_line

# ---------------------------------------------------------------------------- the truth


def ron_mask(st: HandState, p: int) -> int:
    """The kinds seat ``p`` (holding 13 tiles) could win on by 쏘아 now (the engine's test)."""
    m = _waits_mask(st, p)
    out = 0
    k = 0
    while m:
        if m & 1 and _can_ron(st, p, k, False):
            out |= 1 << k
        m >>= 1
        k += 1
    return out


_TRUTH: dict[str, HandState | None] = {"state": None}


@contextmanager
def views_with_state() -> Iterator[None]:
    """For this block only, every mahjong session's view carries its hidden state under
    ``_state`` (for the cheating bots of the bound; nothing else reads it)."""
    real = MahjongSession.view

    def view(self: MahjongSession, seat: int | None) -> Any:
        v = dict(real(self, seat))
        v["_state"] = self.match.hand
        return v

    with mock.patch.object(MahjongSession, "view", view):
        yield


class _Told(ValueDanger):
    """The shipped model with the truth put in: ``who`` (threat 1 for a seat that could
    win by 쏘아 now, else 0) and ``which`` (a tile's danger 1 if it wins for that seat, else
    0), either or both."""

    who = True
    which = True

    def __init__(self, t: Table, passed: Sequence[int] | None = None) -> None:
        super().__init__(t, passed)
        st = _TRUTH["state"]
        assert st is not None, "the oracle runs inside views_with_state()"
        self.ron = {p: ron_mask(st, p) for p in self.opponents}
        if self.who:
            for p in self.opponents:
                self.threat[p] = 1.0 if self.ron[p] else 0.0

    def tile_danger(self, k: int, p: int) -> float:
        if not self.which:
            return super().tile_danger(k, p)
        return 1.0 if (self.ron[p] >> k) & 1 else 0.0


class _Oracle(ValueBot):
    def choose(self, view: dict[str, Any], legal: list[Any]) -> Any:
        _TRUTH["state"] = view.get("_state")
        return super().choose(view, legal)


def paired(
    variants: Sequence[tuple[str, type[ValueBot]]], preset: str, seed: int, deals: int
) -> None:
    """Play each variant against three ``normal`` on the same deals; print its points per
    hand and, after the first, the difference from the first, paired by deal."""
    first: list[float] | None = None
    for i, (label, cls) in enumerate(variants):
        name = f"_bound-{i}"
        register_bot("mahjong", name, cls)
        t0 = time.perf_counter()
        res = play_deals(
            "mahjong", [name, "efficiency", "efficiency", "efficiency"], range(deals), seed,
            Budget(), preset=preset,
        )  # fmt: skip
        line, per = paired_line(
            f"{label:34} {preset} seed {seed}", res.games, deals, first,
            f" [{time.perf_counter() - t0:.0f} s]",
        )  # fmt: skip
        first = first or per
        print(line, flush=True)


def oracle(args: argparse.Namespace) -> None:
    def told(who: bool, which: bool) -> type[ValueBot]:
        danger = type("Told", (_Told,), {"who": who, "which": which})
        return type("Oracle", (_Oracle,), {"danger_model": danger})

    variants: list[tuple[str, type[ValueBot]]] = [
        ("hard", ValueBot),
        ("told who and which tiles", told(True, True)),
    ]
    if args.parts:
        variants += [("told which tiles only", told(False, True)),
                     ("told who only", told(True, False))]  # fmt: skip
    with views_with_state():
        paired(variants, args.preset, args.seed, args.deals)


# ---------------------------------------------------------------------- the information

READY_FEATURES = (
    "discards/10", "(discards/10)²", "open melds", "opened", "wall/10",
    "concealed, could declare", "middle tiles in last 3 discards",
    "middle tiles in last 6 discards", "table minimum",
    "concealed, could declare × table minimum",
)  # fmt: skip


def _middle(k: int) -> bool:
    return k < 18 and 1 <= k % 9 <= 7


def ready_features(t: Table, p: int) -> tuple[float, ...]:
    """What the view shows of how close seat ``p`` is to ready (:data:`READY_FEATURES`)."""
    n = t.discards_made(p) / 10
    opened = sum(1 for kind, _, _ in t.melds[p] if kind != "ankan")
    river = t.rivers[p]
    could = not opened and not t.declared[p] and t.wall_count >= EOPEO_MIN_WALL
    return (
        n, n * n, float(opened), float(opened > 0), t.wall_count / 10, float(could),
        sum(1 for k in river[-3:] if _middle(k)) / 3,
        sum(1 for k in river[-6:] if _middle(k)) / 6,
        float(t.min_pan > 0), float(could and t.min_pan > 0),
    )  # fmt: skip


def wait_features(t: Table, p: int, k: int, gone: int) -> tuple[float, ...]:
    """What the view shows of whether kind ``k`` wins for a ready seat ``p``: the waits
    it could complete (two-sided per side unless 스지 (suji) is among ``p``'s discards
    ``gone`` or a neighbour is all in sight, edge, closed, a pair or single by its unseen
    copies), its place in the suit, ``p``'s discards in the suit and near ``k``, and
    whether ``p``'s open melds show one suit."""
    unseen = t.unseen
    u = unseen[k] / 3
    minimum = float(t.min_pan > 0)
    if k >= 18:
        wind = 18 + (p - t.seat + (t.seat_wind - 18)) % 4
        valued = k in DRAGONS or k == wind or k == t.round_wind
        return (1.0, u, float(valued), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, minimum)
    n = k % 9
    base = k - n
    sides = edge = 0
    if n <= 6 and unseen[k + 1] and unseen[k + 2] and not (n < 6 and (gone >> (k + 3)) & 1):
        edge, sides = (edge + 1, sides) if n == 6 else (edge, sides + 1)
    if n >= 2 and unseen[k - 1] and unseen[k - 2] and not (n > 2 and (gone >> (k - 3)) & 1):
        edge, sides = (edge + 1, sides) if n == 2 else (edge, sides + 1)
    closed = float(1 <= n <= 7 and unseen[base + n - 1] > 0 and unseen[base + n + 1] > 0)
    suit = k // 9
    in_suit = sum(1 for j in t.rivers[p] if j < 18 and j // 9 == suit)
    near = float(any(0 <= n + d < 9 and (gone >> (base + n + d)) & 1 for d in (-2, -1, 1, 2)))
    suits = {tile // 9 for kind, tile, _ in t.melds[p] if kind != "ankan" and tile < 18}
    ms = suits.pop() if len(suits) == 1 else -1
    return (
        0.0, 0.0, 0.0, float(n in (0, 8)), float(n in (1, 7)), float(sides), float(edge),
        closed, u, in_suit / 6, near, float(ms == suit), float(ms == 1 - suit), minimum,
    )  # fmt: skip


def wide_features(t: Table, p: int, k: int) -> list[float]:
    """A wider encoding for the network: ``k``'s suit within four steps each side (each
    kind's unseen copies, whether ``p`` threw it among its first six discards, later, in
    its last three, and the copies ``t.seat`` holds), ``p``'s discards by suit, its
    melds, the wall, and how recently ``p`` threw ``k``'s suit."""
    river = t.rivers[p]
    early = sum(1 << j for j in set(river[:6]))
    late = sum(1 << j for j in set(river[6:]))
    last3 = sum(1 << j for j in set(river[-3:]))
    u = t.unseen
    f: list[float] = []
    if k < 18:
        n = k % 9
        base = k - n
        for d in range(-4, 5):
            j = base + n + d
            if 0 <= n + d < 9:
                f += [1.0, u[j] / 4, (early >> j) & 1, (late >> j) & 1, (last3 >> j) & 1,
                      t.hand[j] / 4]  # fmt: skip
            else:
                f += [0.0] * 6
        f += [0.0, 0.0, 0.0]
    else:
        wind = 18 + (p - t.seat + (t.seat_wind - 18)) % 4
        f += [0.0] * 54
        f += [1.0, u[k] / 3, float(k in DRAGONS or k == wind or k == t.round_wind)]
    suit = min(k // 9, 2)
    cnt = [0, 0, 0]
    for j in river:
        cnt[min(j // 9, 2)] += 1
    ms = [0, 0, 0]
    opened = 0
    for kind, tile, _ in t.melds[p]:
        ms[min(tile // 9, 2)] += 1
        opened += kind != "ankan"
    recent = 2.0
    for i, j in enumerate(reversed(river)):
        if min(j // 9, 2) == suit:
            recent = i / 10
            break
    f += [len(river) / 20, t.wall_count / 70, opened / 2, cnt[suit] / 10,
          (sum(cnt) - cnt[suit]) / 10, ms[suit] / 2, (sum(ms) - ms[suit]) / 2,
          float(bool(t.declared[p])), float(t.min_pan > 0), recent]  # fmt: skip
    return f


class Rows:
    """Recorded rows of the two questions, with the hand each came from."""

    def __init__(self) -> None:
        self.ready: list[tuple[float, ...]] = []
        self.ready_hand: list[float] = []
        self.ready_y: list[float] = []
        self.ready_hand_id: list[int] = []
        self.wait: list[tuple[float, ...]] = []
        self.wait_hand: list[float] = []
        self.wait_wide: list[list[float]] = []
        self.wait_y: list[float] = []
        self.wait_hand_id: list[int] = []

    def record(self, st: HandState, t: Table, hand_id: int, wide: bool) -> None:
        """The rows of one turn of ``t.seat`` (before its discard) in state ``st``."""
        shipped = ValueDanger(t)
        held = [k for k in range(NUM_KINDS) if t.hand[k]]
        for p in shipped.opponents:
            ron = ron_mask(st, p)
            if not t.declared[p]:
                self.ready.append(ready_features(t, p))
                self.ready_hand.append(shipped.threat[p])
                self.ready_y.append(float(ron != 0))
                self.ready_hand_id.append(hand_id)
            if not ron or t.bulleo_waits[p] is not None:
                continue
            for k in held:
                if (shipped.safe[p] >> k) & 1 or (k >= 18 and not t.unseen[k]):
                    continue
                self.wait.append(wait_features(t, p, k, shipped.discarded[p]))
                self.wait_hand.append(DangerModel.tile_danger(shipped, k, p))
                if wide:
                    self.wait_wide.append(wide_features(t, p, k))
                self.wait_y.append(float((ron >> k) & 1))
                self.wait_hand_id.append(hand_id)


def gather(presets: Sequence[str], seed: int, hands: int, wide: bool) -> Rows:
    """``hard`` against three ``normal``: ``hands`` hands under each preset."""
    rows = Rows()
    budget = Budget()
    for preset in presets:
        rules = rules_preset(preset)
        for h in range(hands):
            st = new_hand(rules, seed=seed * 1_000_003 + h)
            me = h % 4
            bots: list[EfficiencyBot] = [EfficiencyBot() for _ in range(4)]
            bots[me] = ValueBot()
            rng = random.Random(h)
            while st.pending:
                s = st.pending[0]
                legal = [a.code for a in legal_actions(st, s)]
                v = dict(seat_view(st, s))
                if s == me and st.phase == "discard":
                    rows.record(st, Table.from_view(v), h, wide)
                code = bots[s].act(v, legal, rng, budget)
                step(st, act(s, *ACTION_FORMS[code]), events=False)
    return rows


def _score(label: str, x: Any, y: Any, held: Any) -> None:
    w = fit(x[~held], y[~held], l2=1e-4)
    print(f"  {label:44} held-out log-loss {log_loss(w, x[held], y[held])[0]:.4f}", flush=True)


def _question(name: str, x: Any, hand: Any, y: Any, ids: Any, hands: int) -> Any:
    """Print the log-loss of a constant, the shipped model and a logistic regression on
    the held-out hands (the last 15%); returns which rows were held out."""
    held = ids >= hands - hands * 15 // 100
    b = float(np.mean(y[held]))
    const = -(b * math.log(b) + (1 - b) * math.log(1 - b))
    print(f"{name}: {len(y)} rows, {float(np.mean(y)):.3f} positive; held-out rows "
          f"{int(held.sum())}, a constant's log-loss {const:.4f}")  # fmt: skip
    _score("the shipped model's estimate, refitted", hand[:, None], y, held)
    _score("logistic on the view's features", x, y, held)
    return held


def _mlp(x: Any, y: Any, held: Any, seed: int) -> None:
    try:
        import torch
    except ImportError:
        print("  (the network needs torch, in the train extra)")
        return
    torch.manual_seed(seed)
    f32 = torch.float32
    xt, yt = torch.tensor(x[~held], dtype=f32), torch.tensor(y[~held], dtype=f32)
    xh, yh = torch.tensor(x[held], dtype=f32), torch.tensor(y[held], dtype=f32)
    net = torch.nn.Sequential(
        torch.nn.Linear(x.shape[1], 64), torch.nn.ReLU(), torch.nn.Linear(64, 64),
        torch.nn.ReLU(), torch.nn.Linear(64, 1),
    )  # fmt: skip
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-5)
    lossf = torch.nn.BCEWithLogitsLoss()
    best = math.inf
    for _ in range(12):
        perm = torch.randperm(len(xt))
        for i in range(0, len(xt), 1024):
            idx = perm[i : i + 1024]
            opt.zero_grad()
            lossf(net(xt[idx]).squeeze(1), yt[idx]).backward()
            opt.step()
        with torch.no_grad():
            best = min(best, float(lossf(net(xh).squeeze(1), yh)))
    print(f"  {'a network on the wider encoding (best epoch)':44} held-out log-loss {best:.4f}")


def information(args: argparse.Namespace) -> None:
    t0 = time.perf_counter()
    rows = gather(args.presets.split(","), args.seed, args.hands, args.mlp)
    print(f"{args.hands} hands per preset ({args.presets}), seed {args.seed}: "
          f"{time.perf_counter() - t0:.0f} s")  # fmt: skip
    ready_x, ready_y = np.asarray(rows.ready), np.asarray(rows.ready_y)
    _question(
        "ready (an opponent not declared could win by 쏘아 now)", ready_x,
        np.asarray(rows.ready_hand), ready_y, np.asarray(rows.ready_hand_id), args.hands,
    )  # fmt: skip
    ready_w = fit(ready_x, ready_y, l2=1e-4)  # on every row, for the screen
    held = _question(
        "wait (a kind in hand wins for a ready opponent)", np.asarray(rows.wait),
        np.asarray(rows.wait_hand), np.asarray(rows.wait_y), np.asarray(rows.wait_hand_id),
        args.hands,
    )  # fmt: skip
    if args.mlp:
        _mlp(np.asarray(rows.wait_wide), np.asarray(rows.wait_y), held, args.seed)
    print("ready coefficients (bias first):", tuple(round(float(c), 4) for c in ready_w))
    if args.screen:
        coefficients = tuple(float(c) for c in ready_w)

        class LearnedThreat(ValueDanger):
            def _threat(self, p: int) -> float:
                if self.t.declared[p]:
                    return 1.0
                z = coefficients[0] + sum(
                    w * v for w, v in zip(coefficients[1:], ready_features(self.t, p), strict=True)
                )
                return 1.0 / (1.0 + math.exp(-z))

        learned = type("LearnedThreatBot", (ValueBot,), {"danger_model": LearnedThreat})
        for preset in args.presets.split(","):
            paired([("hard", ValueBot), ("hard, threat from the ready model", learned)],
                   preset, args.screen_seed, args.screen)  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    o = sub.add_parser("oracle", help="hard with the truth in its danger model")
    o.add_argument("--preset", default="mupan")
    o.add_argument("--seed", type=int, default=80)
    o.add_argument("--deals", type=int, default=300)
    o.add_argument("--parts", action="store_true", help="also the two halves of the truth")
    i = sub.add_parser("information", help="how much of the truth the view tells")
    i.add_argument("--presets", default="mupan,yangpan")
    i.add_argument("--seed", type=int, default=91)
    i.add_argument("--hands", type=int, default=6000, help="hands per preset")
    i.add_argument("--mlp", action="store_true", help="also a network (torch)")
    i.add_argument("--screen", type=int, default=0, help="deals to screen the ready model on")
    i.add_argument("--screen-seed", type=int, default=80)
    args = ap.parse_args(argv)
    command: Callable[[argparse.Namespace], None] = (
        oracle if args.command == "oracle" else information
    )
    command(args)


if __name__ == "__main__":
    main(sys.argv[1:])
