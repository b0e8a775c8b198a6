"""``madang train matgo``: a Matgo policy from nothing, by behaviour cloning (the ``train`` extra).

The recipe (``docs/rl/train.md``):

1. **States** come from the batched engine (:class:`~madang.rl.vector.VectorGames`):
   ``--games`` games stepped together, each decision played by the teacher, or (a share
   ``--explore``) by a random legal action, so that the student also sees states off the
   teacher's path.
2. **Labels**: the teacher (``hard``, the search bot, by default) chooses from the seat's
   own view (:func:`madang.matgo.view.view`), never the full state. Decisions with one
   legal action teach nothing and are not kept.
3. **The student**, a multilayer perceptron over the encoding's observation, learns the
   labels by masked cross-entropy (illegal actions get no probability), with Adam on
   minibatches drawn from everything collected so far, between rounds of collection.
4. **Evaluation**: every ``--eval-every`` minutes, and at the end, the student plays
   ``greedy`` in the arena on duplicate deals (both seats of each deal); win rate and
   points per game with 95% confidence intervals go to ``curve.csv`` beside the wall time.

``--out`` receives ``policy.npz`` (the weights: numpy arrays, so play needs no torch;
the bot ``learned:OUT/policy.npz``), ``curve.csv``, ``summary.json`` and, where
matplotlib is installed, ``curve.png``.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from madang.core.errors import RuleConfigError

if TYPE_CHECKING:  # numpy and torch are the extras' (imported when the command runs)
    import numpy.typing as npt

__all__ = ["CURVE_FIELDS", "TrainConfig", "evaluate", "register_cli", "save_policy", "train"]

#: The columns of ``curve.csv``.
CURVE_FIELDS = (
    "wall_s",
    "samples",
    "loss",
    "accuracy",
    "opponent",
    "games",
    "win_rate",
    "win_rate_ci95",
    "points_per_game",
    "points_lo",
    "points_hi",
)


@dataclass(frozen=True)
class TrainConfig:
    """One training run's settings (the command's options)."""

    minutes: float = 60.0
    seed: int = 0
    out: Path = Path("runs/matgo")
    threads: int = 2
    teacher: str = "hard"
    teacher_iterations: int = 8
    games: int = 32
    explore: float = 0.15
    hidden: tuple[int, ...] = (256, 256)
    lr: float = 1e-3
    batch: int = 256
    steps_per_round: int = 32
    updates_per_round: int = 64
    max_samples: int = 300_000
    eval_every: float = 10.0
    eval_deals: int = 200
    final_deals: int = 1000
    opponent: str = "greedy"

    def check(self) -> None:
        """Bad settings raise :class:`RuleConfigError` before anything runs."""
        positive = {
            "minutes": self.minutes,
            "threads": self.threads,
            "games": self.games,
            "batch": self.batch,
            "steps_per_round": self.steps_per_round,
            "max_samples": self.max_samples,
            "eval_every": self.eval_every,
            "lr": self.lr,
            "teacher_iterations": self.teacher_iterations,
        }
        for name, value in positive.items():
            if not value > 0:
                raise RuleConfigError(f"--{name.replace('_', '-')} must be positive, not {value}")
        if self.updates_per_round < 0 or self.eval_deals < 0 or self.final_deals < 0:
            raise RuleConfigError("--updates-per-round and the deal counts cannot be negative")
        if not 0 <= self.explore <= 1:
            raise RuleConfigError(f"--explore must lie in [0, 1], not {self.explore}")
        if not self.hidden or min(self.hidden) < 1:
            raise RuleConfigError(f"--hidden must be positive layer widths, not {self.hidden}")


def _require_torch() -> Any:
    try:
        import numpy  # noqa: F401 (the rl extra's)
        import torch
    except ImportError:
        raise RuleConfigError(
            "madang train needs the train extra (torch): pip install 'madang[train]'"
        ) from None
    return torch


def _mlp(torch: Any, obs_size: int, hidden: tuple[int, ...], actions: int) -> Any:
    layers: list[Any] = []
    width = obs_size
    for h in hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
        width = h
    layers.append(torch.nn.Linear(width, actions))
    return torch.nn.Sequential(*layers)


def save_policy(net: Any, path: Path, game: str, meta: dict[str, Any]) -> None:
    """Write the network's weights as numpy arrays (``W0, b0, W1, ...``), loadable by
    :class:`madang.rl.learned.NumpyPolicy`, written whole or not at all."""
    import numpy as np

    linears = [m for m in net if hasattr(m, "weight")]
    arrays = {}
    for i, m in enumerate(linears):
        arrays[f"W{i}"] = m.weight.detach().cpu().numpy().T.astype(np.float32)
        arrays[f"b{i}"] = m.bias.detach().cpu().numpy().astype(np.float32)
    arrays["meta"] = np.array(json.dumps({"game": game, "layers": len(linears), **meta}))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(path)


def evaluate(policy: Path, opponent: str, deals: int, seed: int) -> dict[str, Any]:
    """The saved policy against ``opponent`` on ``deals`` duplicate deals (2 games each):
    win rate and points per game with 95% confidence intervals."""
    from madang.arena import run_arena
    from madang.bots import Budget
    from madang.rl.learned import register_learned

    name = register_learned("matgo", policy)
    r = run_arena("matgo", [name, opponent], deals=deals, seed=seed, budget=Budget(None, 32))
    p = r["win_rate_a"] if r["win_rate_a"] is not None else 0.0
    decided = max(1, r["wins"]["a"] + r["wins"]["b"])
    lo, hi = r["ci95_points_a"] or (r["mean_points_a"], r["mean_points_a"])
    return {
        "opponent": opponent,
        "games": r["games"],
        "win_rate": p,
        "win_rate_ci95": round(1.96 * math.sqrt(p * (1 - p) / decided), 4),
        "points_per_game": r["mean_points_a"],
        "points_lo": lo,
        "points_hi": hi,
    }


class _Samples:
    """The labelled states collected so far (the oldest dropped past ``cap``)."""

    def __init__(self, obs_size: int, actions: int, cap: int) -> None:
        import numpy as np

        self.obs = np.zeros((cap, obs_size), dtype=np.float32)
        self.mask = np.zeros((cap, actions), dtype=bool)
        self.label = np.zeros(cap, dtype=np.int64)
        self.cap, self.n, self.seen = cap, 0, 0

    def add(self, obs: npt.NDArray[Any], mask: npt.NDArray[Any], label: int) -> None:
        i = self.seen % self.cap
        self.obs[i], self.mask[i], self.label[i] = obs, mask, label
        self.seen += 1
        self.n = min(self.cap, self.n + 1)


def _collect(
    vg: Any,
    teacher: Any,
    budget: Any,
    samples: _Samples,
    steps: int,
    explore: float,
    rng: random.Random,
) -> None:
    """Step every game ``steps`` times, labelling each real decision with the teacher's
    choice from the seat's view; the teacher plays it (or a random legal action)."""
    import numpy as np

    from madang.matgo.view import view

    obs, mask = vg.obs, vg.mask
    for _ in range(steps):
        actions = []
        for i, st in enumerate(vg.states):
            legal = np.flatnonzero(mask[i]).tolist()
            if len(legal) == 1:
                actions.append(legal[0])
                continue
            seat = int(vg.seats[i])
            label = int(teacher.act(view(st, seat), legal, rng, budget))
            samples.add(obs[i], mask[i], label)
            actions.append(rng.choice(legal) if rng.random() < explore else label)
        obs, mask, _, _ = vg.step(np.array(actions, dtype=np.int64))


def train(cfg: TrainConfig, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the recipe for ``cfg.minutes`` of wall time (the final evaluation after it);
    the summary also written to ``OUT/summary.json``."""
    cfg.check()
    torch = _require_torch()
    import numpy as np

    from madang.bots import Budget, make_bot
    from madang.rl.vector import VectorGames

    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    policy_path = out / "policy.npz"
    teacher = make_bot("matgo", cfg.teacher)
    make_bot("matgo", cfg.opponent)  # an unknown opponent fails before training
    budget = Budget(None, cfg.teacher_iterations)
    vg = VectorGames("matgo", cfg.games, seed=cfg.seed)
    vg.reset()
    enc = vg.encoding
    net = _mlp(torch, enc.obs_size, cfg.hidden, enc.num_actions)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    samples = _Samples(enc.obs_size, enc.num_actions, cfg.max_samples)
    meta = {"teacher": cfg.teacher, "seed": cfg.seed}
    t0 = time.perf_counter()
    deadline = t0 + cfg.minutes * 60
    rows: list[dict[str, Any]] = []
    curve = out / "curve.csv"
    with curve.open("w", newline="", encoding="utf-8") as f:
        csv.DictWriter(f, CURVE_FIELDS).writeheader()
    loss_v, acc_v = float("nan"), float("nan")

    def checkpoint(deals: int, seed: int) -> dict[str, Any]:
        save_policy(net, policy_path, "matgo", {**meta, "samples": samples.seen})
        row: dict[str, Any] = {
            "wall_s": round(time.perf_counter() - t0, 1),
            "samples": samples.seen,
            "loss": round(loss_v, 4),
            "accuracy": round(acc_v, 4),
        }
        if deals:
            row |= evaluate(policy_path, cfg.opponent, deals, seed)
            log(
                f"{row['wall_s']:7.0f}s  {samples.seen:7d} samples  loss {loss_v:.3f}  "
                f"acc {acc_v:.3f}  vs {cfg.opponent}: win {row['win_rate']:.3f}  "
                f"points {row['points_per_game']:+.2f} "
                f"[{row['points_lo']:+.2f}, {row['points_hi']:+.2f}]"
            )
        rows.append(row)
        with curve.open("a", newline="", encoding="utf-8") as f:
            csv.DictWriter(f, CURVE_FIELDS).writerow(row)
        return row

    checkpoint(cfg.eval_deals, cfg.seed + 1)  # the untrained network: random's level
    next_eval = time.perf_counter() + cfg.eval_every * 60
    while time.perf_counter() < deadline:
        _collect(vg, teacher, budget, samples, cfg.steps_per_round, cfg.explore, rng)
        if samples.n == 0:
            continue
        net.train()
        losses, hits, seen = [], 0, 0
        for _ in range(cfg.updates_per_round):
            idx = np.fromiter(
                (rng.randrange(samples.n) for _ in range(min(cfg.batch, samples.n))),
                dtype=np.int64,
            )
            x = torch.from_numpy(samples.obs[idx])
            m = torch.from_numpy(samples.mask[idx])
            y = torch.from_numpy(samples.label[idx])
            logits = net(x).masked_fill(~m, -1e9)
            loss = torch.nn.functional.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
            hits += int((logits.argmax(1) == y).sum())
            seen += len(idx)
        if losses:
            loss_v, acc_v = float(np.mean(losses)), hits / seen
        now = time.perf_counter()
        if now >= next_eval and now < deadline:
            checkpoint(cfg.eval_deals, cfg.seed + 1)
            next_eval = time.perf_counter() + cfg.eval_every * 60
    train_s = time.perf_counter() - t0
    final = checkpoint(cfg.final_deals, cfg.seed + 2)
    summary = {
        "config": {k: str(v) if isinstance(v, Path) else v for k, v in asdict(cfg).items()},
        "train_s": round(train_s, 1),
        "samples": samples.seen,
        "policy": str(policy_path),
        "final": final,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    if plot_curve(rows, out / "curve.png", cfg.opponent):
        log(f"curve: {out / 'curve.png'}")
    return summary


def plot_curve(rows: list[dict[str, Any]], path: Path, opponent: str) -> bool:
    """Points per game against the opponent by wall time (with the 95% intervals), as a
    PNG; False where matplotlib is not installed or nothing was evaluated."""
    pts = [r for r in rows if "points_per_game" in r]
    try:
        import matplotlib
    except ImportError:
        return False
    if not pts:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [r["wall_s"] / 60 for r in pts]
    y = [r["points_per_game"] for r in pts]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.errorbar(
        x,
        y,
        yerr=[
            [v - r["points_lo"] for v, r in zip(y, pts, strict=True)],
            [r["points_hi"] - v for v, r in zip(y, pts, strict=True)],
        ],
        marker="o",
        capsize=3,
    )
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_xlabel("wall time (minutes)")
    ax.set_ylabel(f"points per game vs {opponent} (95% CI)")
    ax.set_title("madang train matgo")
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)
    return True


def _cmd_train_matgo(args: argparse.Namespace) -> int:
    cfg = TrainConfig(
        minutes=args.minutes,
        seed=args.seed,
        out=Path(args.out),
        threads=args.threads,
        teacher=args.teacher,
        teacher_iterations=args.teacher_iterations,
        games=args.games,
        explore=args.explore,
        hidden=tuple(args.hidden),
        lr=args.lr,
        batch=args.batch,
        steps_per_round=args.steps_per_round,
        updates_per_round=args.updates_per_round,
        eval_every=args.eval_every,
        eval_deals=args.eval_deals,
        final_deals=args.final_deals,
        opponent=args.opponent,
    )
    summary = train(cfg)
    f = summary["final"]
    print(
        json.dumps(
            {
                "policy": summary["policy"],
                "bot": f"learned:{summary['policy']}",
                "train_s": summary["train_s"],
                "samples": summary["samples"],
                **{k: f[k] for k in CURVE_FIELDS[4:] if k in f},
            },
            ensure_ascii=False,
        )
    )
    return 0


def register_cli(sub: Any) -> None:
    """Add ``train matgo`` to the ``madang`` parser (it needs the ``train`` extra when run)."""
    p = sub.add_parser("train", help="train a policy from nothing (needs the train extra: torch)")
    inner = p.add_subparsers(dest="train_command", required=True)
    m = inner.add_parser(
        "matgo",
        help="behaviour cloning from the search bot, evaluated against greedy on duplicate deals",
    )
    d = TrainConfig()
    m.add_argument("--minutes", type=float, default=d.minutes, help="wall time for training")
    m.add_argument("--seed", type=int, default=d.seed)
    m.add_argument("--out", default=str(d.out), help="folder for policy.npz, curve.csv, ...")
    m.add_argument("--threads", type=int, default=d.threads, help="torch's threads")
    m.add_argument("--teacher", default=d.teacher, help="the Matgo bot to clone")
    m.add_argument("--teacher-iterations", type=int, default=d.teacher_iterations)
    m.add_argument("--games", type=int, default=d.games, help="games stepped together")
    m.add_argument("--explore", type=float, default=d.explore, help="share of random moves")
    m.add_argument("--hidden", type=int, nargs="+", default=list(d.hidden))
    m.add_argument("--lr", type=float, default=d.lr, help="Adam's learning rate")
    m.add_argument("--batch", type=int, default=d.batch, help="minibatch size")
    m.add_argument(
        "--steps-per-round", type=int, default=d.steps_per_round, help="steps of every game"
    )
    m.add_argument(
        "--updates-per-round", type=int, default=d.updates_per_round, help="gradient steps"
    )
    m.add_argument("--eval-every", type=float, default=d.eval_every, help="minutes")
    m.add_argument("--eval-deals", type=int, default=d.eval_deals, help="per evaluation")
    m.add_argument("--final-deals", type=int, default=d.final_deals, help="2 games each")
    m.add_argument("--opponent", default=d.opponent, help="the bot evaluated against")
    m.set_defaults(handler=_cmd_train_matgo)
