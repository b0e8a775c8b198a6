"""Train :mod:`madang.bots.matgo_net` on self-play of the search bot and write its weights.

One command, from a seed::

    nice -n 10 python -m madang.bots._matgo_net_train --games 6000 --workers 2 \
        --seed 5000000 --write

(numpy only.) Two search bots (``hard``'s settings, ``--iterations`` samples a
decision so that it is fast) play the deals ``new_game(seed=SEED + i)``, playing a random
card ``--epsilon`` of the time so that the positions vary. Every position where a card
is to be played is recorded from both seats' sides with what that seat was paid from
there to the end (net points, clipped to ``±--clip``). The last tenth of the games is
held out. A two-layer ReLU network is fitted by Adam on the squared error, keeping the
epoch with the best held-out error; the held-out error is printed beside three
baselines fitted on the same training rows: the mean, the logistic win model
(:func:`madang.bots.matgo_value.win_probability`, mapped to points by least squares)
and the search's potential leaf (:func:`madang.bots.matgo_search.leaf_value`, likewise).
``--write`` saves the network to ``_matgo_net_weights.npz`` (or ``--out``).

A second generation learns from the games of the search with a net in it:
``--players net`` has ``hard_learned`` play itself (the net shipped, or ``--net PATH``)
instead of ``hard``::

    nice -n 10 python -m madang.bots._matgo_net_train --games 6000 --workers 2 \
        --seed 6000000 --players net --out gen2.npz --write
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from madang.bots.base import Budget
from madang.bots.matgo_net import WEIGHTS_PATH, PointsNet, inputs, load
from madang.bots.matgo_search import SearchBot, leaf_value, net_points
from madang.bots.matgo_value import win_probability
from madang.matgo.engine import MatgoState, Phase, new_game
from madang.matgo.view import view

Rows = tuple[Any, Any, Any, Any]


def players(net: str | None) -> SearchBot:
    """The self-play bot: ``hard``'s search (``net`` ``None``), or ``hard_learned``'s
    reading the points net at ``net`` (``""``: the one shipped)."""
    if net is None:
        return SearchBot()
    return SearchBot(leaf="net", go_net=True, net=_read(net) if net else None)


@functools.cache
def _read(path: str) -> PointsNet:
    """The net at ``path``, read once per process (not once per self-play game)."""
    return load(path)


def play(seed: int, iterations: int, epsilon: float, net: str | None = None) -> Rows:
    """One self-play game of the search bot: per recorded position and side, the input
    row, the points that side was paid from there, the logistic model's chance and the
    potential leaf (the baselines' inputs)."""
    rng = random.Random(seed)
    s = new_game(seed=seed, dealer=seed & 1, events=False)
    bot = players(net)
    budget = Budget(time_s=None, iterations=iterations)
    kept: list[tuple[MatgoState, int]] = []
    while not s.over:
        legal = s.legal_actions()
        p = s.current
        if s.phase is Phase.PLAY:
            kept.append((s.clone(), len(s.payments)))
        if len(legal) == 1:
            a = legal[0]
        elif s.phase is Phase.PLAY and rng.random() < epsilon:
            a = rng.choice(legal)
        else:
            a = bot.act(dict(view(s, p)), list(legal), rng, budget)
        s.step(a)
    xs, ys, probs, leaves = [], [], [], []
    states = [k for k, _ in kept]
    for seat in (0, 1):
        if states:
            xs.append(inputs(states, seat))
        for k, n_pay in kept:
            ys.append(net_points(s, seat, n_pay))
            probs.append(win_probability(k, seat))
            leaves.append(leaf_value(k, seat, len(k.payments)))
    x = np.vstack(xs) if xs else np.zeros((0, 0), np.float32)
    return (
        x,
        np.asarray(ys, np.float32),
        np.asarray(probs, np.float32),
        np.asarray(leaves, np.float32),
    )


def _batch(args: tuple[int, int, int, float, str | None]) -> Rows:
    first, n, iterations, epsilon, net = args
    parts = [play(seed, iterations, epsilon, net) for seed in range(first, first + n)]
    parts = [p for p in parts if len(p[1])]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))  # type: ignore[return-value]


def generate(
    games: int, seed: int, iterations: int, epsilon: float, workers: int, net: str | None = None
) -> tuple[list[Rows], float]:
    """Self-play ``games`` deals from ``seed`` in ``workers`` processes: the rows of each
    chunk of games (in seed order) and the seconds it took. ``net``: as :func:`players`."""
    t0 = time.perf_counter()
    chunk = max(1, min(100, games // 10))  # the same chunks whatever the workers
    jobs = [
        (seed + i, min(chunk, games - i), iterations, epsilon, net) for i in range(0, games, chunk)
    ]
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            parts = pool.map(_batch, jobs)
    else:
        parts = [_batch(j) for j in jobs]
    return parts, time.perf_counter() - t0


def _init(rng: np.random.Generator, n_in: int, n_out: int) -> tuple[Any, Any]:
    w = rng.normal(0.0, np.sqrt(2.0 / n_in), (n_in, n_out)).astype(np.float32)
    return w, np.zeros(n_out, np.float32)


def fit(
    x: Any,
    y: Any,
    xv: Any,
    yv: Any,
    hidden: tuple[int, ...] = (64, 32),
    epochs: int = 30,
    batch: int = 256,
    lr: float = 1e-3,
    l2: float = 1e-4,
    seed: int = 0,
) -> tuple[PointsNet, list[tuple[float, float]]]:
    """Fit the network (Adam, squared error, L2 on the weights) to ``x, y``; return the
    epoch with the lowest mean squared error on ``xv, yv`` and the curve of
    (training, held-out) errors per epoch."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    xn = ((x - mean) / scale).astype(np.float32)
    sizes = [x.shape[1], *hidden, 1]
    params = [a for i in range(len(sizes) - 1) for a in _init(rng, sizes[i], sizes[i + 1])]
    params[-1] += float(y.mean())
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1, b2, eps = 0.9, 0.999, 1e-8
    step = 0

    def net() -> PointsNet:
        pairs = [(params[i].copy(), params[i + 1].copy()) for i in range(0, len(params), 2)]
        return PointsNet(mean, scale, pairs)

    best, best_err = net(), float("inf")
    curve: list[tuple[float, float]] = []
    n = len(y)
    for _ in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        for at in range(0, n, batch):
            idx = order[at : at + batch]
            h = [xn[idx]]
            for i in range(0, len(params), 2):
                z = h[-1] @ params[i] + params[i + 1]
                h.append(np.maximum(z, 0.0) if i + 2 < len(params) else z)
            err = h[-1][:, 0] - y[idx]
            total += float(err @ err)
            g = (2.0 / len(idx)) * err[:, None]
            grads: list[Any] = [None] * len(params)
            for i in range(len(params) - 2, -1, -2):
                grads[i] = h[i // 2].T @ g + l2 * params[i]
                grads[i + 1] = g.sum(axis=0)
                if i:
                    g = (g @ params[i].T) * (h[i // 2] > 0)
            step += 1
            for j, p in enumerate(params):
                m[j] = b1 * m[j] + (1 - b1) * grads[j]
                v[j] = b2 * v[j] + (1 - b2) * grads[j] ** 2
                mh = m[j] / (1 - b1**step)
                vh = v[j] / (1 - b2**step)
                p -= (lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        candidate = net()
        held = float(np.mean((candidate.forward(xv) - yv) ** 2))
        curve.append((total / n, held))
        if held < best_err:
            best, best_err = candidate, held
    return best, curve


def _linear(train_in: Any, train_y: Any, test_in: Any) -> Any:
    """Least-squares ``a + b·input`` fitted on the training rows, applied to the test rows."""
    a = np.vstack([np.ones_like(train_in), train_in]).T.astype(np.float64)
    coef, *_ = np.linalg.lstsq(a, train_y.astype(np.float64), rcond=None)
    return coef[0] + coef[1] * test_in


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=6000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=8, help="search samples a decision")
    ap.add_argument("--epsilon", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=5_000_000)
    ap.add_argument("--clip", type=float, default=60.0, help="targets clipped to ±CLIP")
    ap.add_argument("--hidden", default="32,16", help="hidden layer sizes")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=3e-4, help="Adam's step size")
    ap.add_argument("--l2", type=float, default=1e-3, help="weight decay")
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument(
        "--players",
        choices=("search", "net"),
        default="search",
        help="who plays the games: hard's search, or hard_learned's (a second generation)",
    )
    ap.add_argument(
        "--net", type=Path, help="with --players net: the net they read (default: the shipped)"
    )
    ap.add_argument("--write", action="store_true", help="save the weights")
    ap.add_argument("--out", type=Path, default=WEIGHTS_PATH)
    ap.add_argument(
        "--data",
        type=Path,
        help="an .npz of the self-play rows: read if it exists (made with the same "
        "--games, --seed, --iterations and --epsilon), else written",
    )
    args = ap.parse_args(argv)
    if args.games < 10:
        ap.error("--games must be at least 10 (a tenth is held out)")
    if args.net is not None and args.players != "net":
        ap.error("--net is for --players net")
    net_path: str | None = None
    if args.players == "net":
        net_path = str(args.net) if args.net else ""
        if args.net:
            load(args.net)  # refused here, with NetWeightsError, not in every worker
    made_with = [args.games, args.seed, args.iterations, int(args.players == "net")]
    if args.data and args.data.exists():
        with np.load(args.data, allow_pickle=False) as z:
            n_parts = int(z["parts"])
            parts = [tuple(z[f"p{j}_{i}"] for i in range(4)) for j in range(n_parts)]
            gen_s = float(z["generate_s"])
            made = [int(v) for v in z["made_with"]]
        made += [0] * (4 - len(made))  # files from before --players: hard's search
        if made != made_with:
            ap.error(
                f"{args.data} was made with --games, --seed, --iterations and"
                f" --players net (1) or not (0): {made}"
            )
    else:
        parts, gen_s = generate(
            args.games, args.seed, args.iterations, args.epsilon, args.workers, net_path
        )
        if args.data:
            arrays = {f"p{j}_{i}": p[i] for j, p in enumerate(parts) for i in range(4)}
            with open(args.data, "wb") as f:
                np.savez(
                    f,
                    parts=len(parts),
                    generate_s=gen_s,
                    made_with=np.array(made_with),
                    **arrays,
                )
    cut_part = max(1, int(len(parts) * 0.9)) if len(parts) > 1 else 1
    train, test = parts[:cut_part], parts[cut_part:] or parts[-1:]

    def cat(ps: list[Rows], i: int) -> Any:
        return np.concatenate([p[i] for p in ps])

    x, y, xv, yv = cat(train, 0), cat(train, 1), cat(test, 0), cat(test, 1)
    raw_v = yv.copy()
    y = np.clip(y, -args.clip, args.clip)
    yv = np.clip(yv, -args.clip, args.clip)
    rows = len(y) + len(yv)
    print(
        f"{args.games} games, {rows} rows ({x.nbytes + xv.nbytes} bytes of inputs) in {gen_s:.0f} s"
    )
    t0 = time.perf_counter()
    hidden = tuple(int(h) for h in args.hidden.split(","))
    net, curve = fit(
        x,
        y,
        xv,
        yv,
        hidden=hidden,
        epochs=args.epochs,
        batch=args.batch,
        lr=args.lr,
        l2=args.l2,
        seed=args.seed,
    )
    fit_s = time.perf_counter() - t0
    for epoch, (tr, he) in enumerate(curve, 1):
        print(f"  epoch {epoch:2d}: training MSE {tr:.2f}, held-out MSE {he:.2f}")
    pred = net.forward(xv)
    report: dict[str, Any] = {
        "games": args.games,
        "rows": rows,
        "generate_s": round(gen_s, 1),
        "fit_s": round(fit_s, 1),
        "curve": curve,
    }
    baselines = {
        "net": pred,
        "mean": np.full_like(yv, float(y.mean())),
        "logistic": _linear(cat(train, 2), y, cat(test, 2)),
        "potential": _linear(cat(train, 3), y, cat(test, 3)),
    }
    for name, p in baselines.items():
        mse = float(np.mean((p - yv) ** 2))
        mae = float(np.mean(np.abs(p - raw_v)))
        report[name] = {"mse": mse, "mae": mae}
        print(f"held-out {name:9s}: MSE {mse:7.2f} (clipped targets), MAE {mae:6.2f} points")
    print(f"fit in {fit_s:.0f} s")
    if args.write:
        net.meta = {
            "games": args.games,
            "seed": args.seed,
            "iterations": args.iterations,
            "players": args.players,
            "epsilon": args.epsilon,
            "clip": args.clip,
            "hidden": list(hidden),
            "lr": args.lr,
            "l2": args.l2,
            "batch": args.batch,
            "heldout_mse": report["net"]["mse"],
        }
        net.save(args.out)
        print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return report


if __name__ == "__main__":
    main()
