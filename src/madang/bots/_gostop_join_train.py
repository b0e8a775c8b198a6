"""Data and fit for 광팔기's join/die rule (:func:`madang.bots.matgo_greedy.join_or_die`).

Run ``python -m madang.bots._gostop_join_train --deals 800 --samples 150 --seed 0``
(needs numpy, a development dependency). Each deal of the preset ``gwangpalgi`` (the
one that asks: under ``gwangpalgi_last`` nobody is asked) is dealt from its seed, 선 at
seat ``seed % 4``; the join/die question of 선+1 is valued by the review's method
(:func:`madang.bots.matgo_search.answer_values`: in ``--samples`` worlds sampled from
the seat's own view, each answer, then every seat plays on by the rollout policy to the
end; `die` is worth exactly 0), then 선+1 joins and 선+2's question is valued the same
way. Every question is a row: the seat's cheap features (:func:`join_features`, what
:func:`join_or_die` reads) and the expected payment of `join`.

The rows are split by deal (``--holdout``: the last share of the deals held out), a
logistic regression of "join pays" (expected payment of `join` above 0), each row
weighted by the payment at stake, is fitted on the rest, and the held-out agreement
with the search's better answer and the points a question the rule gives up against
that answer are printed for the fitted logistic, for the integer-weighted strength and
threshold searched on the training rows (weights 0..``--range``), for the rule shipped
when the script runs (``today's rule``: :func:`join_or_die`, which also answers 선+2's
question inside 선+1's playouts) and for always joining or dying. ``--out FILE`` keeps the
rows as JSON (``--rows FILE`` refits from them without playing).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from madang.bots.matgo_greedy import JOIN_FEATURES, join_features, join_or_die
from madang.bots.matgo_search import answer_values
from madang.gostop.rules import PRESETS
from madang.matgo import actions as A
from madang.matgo.engine import Phase, new_game
from madang.matgo.view import view


@dataclass(frozen=True)
class Row:
    """One join/die question: the deal's seed, the seat asked (1: 선+1, 2: 선+2), the
    features, the expected payment of `join` (`die` pays 0) and today's answer."""

    seed: int
    asked: int
    features: tuple[int, ...]
    join: float
    rule: int


def questions(seed: int, samples: int) -> list[Row]:
    """The deal's join/die questions (선+1's, then 선+2's after 선+1 joins) valued by
    :func:`answer_values` in ``samples`` worlds (seeded from the deal's seed)."""
    g = new_game(PRESETS["gwangpalgi"], seed=seed, dealer=seed % 4, events=False)
    rng = random.Random(seed)
    rows: list[Row] = []
    asked = 1
    while g.phase is Phase.JOIN:
        me = g.current
        legal = g.legal_actions()
        if sorted(legal) != sorted((A.JOIN, A.DIE)):
            break
        values, _ = answer_values(dict(view(g, me)), [A.JOIN, A.DIE], rng, samples)
        hand, floor = g.hands[me], g.floor
        rows.append(
            Row(
                seed,
                asked,
                join_features(hand, floor),
                values[0]["expected"] - values[1]["expected"],
                join_or_die(hand, floor),
            )
        )
        g.step(A.JOIN)
        asked += 1
    return rows


def collect(first: int, deals: int, samples: int, log: bool = True) -> list[Row]:
    """The questions of deals ``first`` .. ``first + deals - 1``."""
    rows: list[Row] = []
    t0 = time.perf_counter()
    for i, seed in enumerate(range(first, first + deals)):
        rows += questions(seed, samples)
        if log and (i + 1) % 50 == 0:
            print(f"  {i + 1} deals, {len(rows)} questions, {time.perf_counter() - t0:.0f} s")
    return rows


def fit_logistic(x: Any, y: Any, weight: Any, l2: float = 1e-2, iterations: int = 20) -> Any:
    """Weighted logistic regression by Newton's method; returns [bias, weights…]."""
    n = len(y)
    xb = np.hstack([np.ones((n, 1)), x.astype(np.float64)])
    wsum = float(weight.sum())
    w = np.zeros(xb.shape[1])
    reg = l2 * np.eye(xb.shape[1])
    reg[0, 0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(xb @ w)))
        grad = xb.T @ (weight * (p - y)) / wsum + reg @ w
        h = (xb * (weight * p * (1 - p))[:, None]).T @ xb / wsum + reg
        w -= np.linalg.solve(h, grad)
    return w


def score(join: Any, values: Any) -> tuple[float, float]:
    """For answers ``join`` (bools) against the rows' expected payments of `join`: the
    share agreeing with the better answer, and the points a question given up against
    it (the search's answer's value minus the chosen answer's, averaged)."""
    best = np.maximum(values, 0.0)
    got = np.where(join, values, 0.0)
    return float(np.mean(join == (values > 0))), float(np.mean(best - got))


def search_strength(
    x: Any, values: Any, ranges: Sequence[Sequence[int]]
) -> tuple[tuple[int, ...], int, float]:
    """The integer weights (one range per feature) and threshold ("join when the weighted
    sum is at least the threshold") that give up the fewest points on ``x``."""
    best: tuple[tuple[int, ...], int, float] = ((), 0, float("inf"))
    for ws in itertools.product(*ranges):
        s = x @ np.asarray(ws)
        for t in range(int(s.min()), int(s.max()) + 2):
            lost = score(s >= t, values)[1]
            if lost < best[2] - 1e-12:
                best = (tuple(ws), t, lost)
    return best


def report(rows: list[Row], holdout: float, ranges: Sequence[Sequence[int]]) -> dict[str, Any]:
    """Fit on the first deals, score on the held-out last ``holdout`` share of them."""
    seeds = sorted({r.seed for r in rows})
    cut_seed = seeds[int(len(seeds) * (1 - holdout))] if len(seeds) > 1 else seeds[-1] + 1
    train = [r for r in rows if r.seed < cut_seed]
    test = [r for r in rows if r.seed >= cut_seed]
    out: dict[str, Any] = {"rows": len(rows), "train": len(train), "test": len(test)}
    xtr = np.asarray([r.features for r in train], dtype=np.float64)
    vtr = np.asarray([r.join for r in train])
    xte = np.asarray([r.features for r in test], dtype=np.float64)
    vte = np.asarray([r.join for r in test])
    out["join_pays_share"] = float(np.mean(np.asarray([r.join for r in rows]) > 0))
    out["join_mean"] = float(np.mean([r.join for r in rows]))
    w = fit_logistic(xtr, (vtr > 0).astype(np.float64), np.abs(vtr) + 0.1)
    out["logistic"] = {"bias": float(w[0])} | {
        n: float(v) for n, v in zip(JOIN_FEATURES, w[1:], strict=True)
    }
    ws, t, _ = search_strength(xtr, vtr, ranges)
    out["strength"] = {"weights": dict(zip(JOIN_FEATURES, ws, strict=True)), "threshold": t}
    answers = {
        "today's rule": np.asarray([r.rule == A.JOIN for r in test]),
        "logistic": (w[0] + xte @ w[1:]) > 0,
        "strength": (xte @ np.asarray(ws)) >= t,
        "always join": np.ones(len(test), dtype=bool),
        "always die": np.zeros(len(test), dtype=bool),
    }
    out["held_out"] = {}
    for name, join in answers.items():
        agree, given_up = score(join, vte)
        out["held_out"][name] = {
            "agree": agree,
            "points_given_up": given_up,
            "joins": float(np.mean(join)),
        }
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=800)
    ap.add_argument("--samples", type=int, default=150, help="worlds a question")
    ap.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    ap.add_argument("--holdout", type=float, default=0.3, help="share of deals held out")
    ap.add_argument("--out", type=Path, help="write the rows (JSON) here")
    ap.add_argument("--rows", type=Path, help="fit on these rows instead of playing")
    ap.add_argument("--range", type=int, default=3, help="integer weights 0..N searched")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    if args.rows:
        raw = json.loads(args.rows.read_text(encoding="utf-8"))
        rows = [r | {"features": tuple(r["features"])} for r in raw]
        rows = [Row(**r) for r in rows]
    else:
        rows = collect(args.seed, args.deals, args.samples)
        print(f"{args.deals} deals, {len(rows)} questions in {time.perf_counter() - t0:.0f} s")
    if args.out:
        args.out.write_text(json.dumps([r.__dict__ for r in rows]), encoding="utf-8")
    ranges = [range(args.range + 1)] * len(JOIN_FEATURES)
    print(json.dumps(report(rows, args.holdout, ranges), indent=1))


if __name__ == "__main__":
    main()
