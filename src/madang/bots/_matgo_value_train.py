"""Fit :mod:`madang.bots.matgo_value` to self-play outcomes and write its weights.

Run ``python -m madang.bots._matgo_value_train --games 40000 --workers 2`` (needs
numpy, a development dependency). Greedy bots play each other from seeded deals,
playing a random card or 고/스톱 now and then (``--epsilon``) so that the positions
are varied; every position where a card is to be played is recorded from both seats'
sides with the game's outcome for that seat (1 won, 0 lost, ½ 나가리). A logistic
regression with a little L2 regularisation is fitted by Newton's method; the held-out
log-loss and accuracy are printed, and the weights are written to
``_matgo_value_weights.py`` next to this file.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from madang.bots.matgo_greedy import Knowledge, choose
from madang.bots.matgo_value import NAMES, features
from madang.matgo.engine import Phase, new_game

_OUT = Path(__file__).with_name("_matgo_value_weights.py")


def play(seed: int, epsilon: float) -> tuple[list[list[float]], list[float]]:
    """One self-play game: the recorded positions' features and their outcomes."""
    rng = random.Random(seed)
    s = new_game(seed=seed, dealer=seed & 1, events=False)
    rows: list[list[float]] = []
    seats: list[int] = []
    while not s.over:
        legal = s.legal_actions()
        p = s.current
        if s.phase is Phase.PLAY:
            for seat in (0, 1):
                rows.append(features(s, seat))
                seats.append(seat)
        if len(legal) == 1:
            a = legal[0]
        elif s.phase in (Phase.PLAY, Phase.GO_STOP) and rng.random() < epsilon:
            a = rng.choice(legal)
        else:
            a = choose(Knowledge.from_state(s, p), legal)
        s.step(a)
    outcome = [0.5, 0.5] if s.winner is None else [float(s.winner == 0), float(s.winner == 1)]
    return rows, [outcome[seat] for seat in seats]


def _batch(args: tuple[int, int, float]) -> tuple[Any, Any]:
    first, n, epsilon = args
    xs: list[list[float]] = []
    ys: list[float] = []
    for seed in range(first, first + n):
        rows, outcomes = play(seed, epsilon)
        xs += rows
        ys += outcomes
    return np.asarray(xs, dtype=np.float32), np.asarray(ys, dtype=np.float32)


def fit(x: Any, y: Any, l2: float = 1e-3, iterations: int = 12) -> Any:
    """Logistic regression (soft labels) by Newton's method; returns [bias, weights…]."""
    n = len(y)
    xb = np.hstack([np.ones((n, 1), dtype=np.float64), x.astype(np.float64)])
    w = np.zeros(xb.shape[1])
    reg = l2 * np.eye(xb.shape[1])
    reg[0, 0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(xb @ w)))
        grad = xb.T @ (p - y) / n + reg @ w
        h = (xb * (p * (1 - p))[:, None]).T @ xb / n + reg
        w -= np.linalg.solve(h, grad)
    return w


def log_loss(w: Any, x: Any, y: Any) -> tuple[float, float]:
    z = w[0] + x.astype(np.float64) @ w[1:]
    p = np.clip(1.0 / (1.0 + np.exp(-z)), 1e-9, 1 - 1e-9)
    loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    decided = y != 0.5
    acc = float(np.mean((p[decided] > 0.5) == (y[decided] > 0.5)))
    return loss, acc


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=40000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--epsilon", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=1_000_000)
    ap.add_argument("--write", action="store_true", help="write the weights module")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    chunk = 500
    jobs = [
        (args.seed + i, min(chunk, args.games - i), args.epsilon)
        for i in range(0, args.games, chunk)
    ]
    with multiprocessing.Pool(args.workers) as pool:
        parts = pool.map(_batch, jobs)
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    print(f"{args.games} games, {len(y)} positions in {time.perf_counter() - t0:.0f} s")
    # Hold out the last tenth of the games (positions of a game stay together).
    cut = int(len(y) * 0.9)
    w = fit(x[:cut], y[:cut])
    for label, part in (("train", slice(None, cut)), ("held-out", slice(cut, None))):
        loss, acc = log_loss(w, x[part], y[part])
        print(f"{label} log-loss {loss:.4f} accuracy {acc:.3f}")
    base = float(np.mean(y[cut:]))
    p0 = np.full_like(y[cut:], base)
    ll0 = float(-np.mean(y[cut:] * np.log(p0) + (1 - y[cut:]) * np.log(1 - p0)))
    print(f"constant baseline log-loss {ll0:.4f}")
    for name, wi in sorted(zip(NAMES, w[1:], strict=True), key=lambda t: -abs(t[1]))[:15]:
        print(f"  {name:22s} {wi:+.3f}")
    if args.write:
        w = fit(x, y)
        body = "\n".join(f"    {v:.6f},  # {name}" for name, v in zip(NAMES, w[1:], strict=True))
        _OUT.write_text(
            '"""Weights of :mod:`madang.bots.matgo_value`, written by\n'
            "``python -m madang.bots._matgo_value_train --write``\n"
            f'({args.games} games, epsilon {args.epsilon}, seed {args.seed})."""\n\n'
            f"BIAS = {w[0]:.6f}\n"
            f"WEIGHTS: tuple[float, ...] = (\n{body}\n)\n",
            encoding="utf-8",
        )
        print(f"wrote {_OUT}")


if __name__ == "__main__":
    main()
