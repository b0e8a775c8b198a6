"""Train a Matgo policy with sb3-contrib's MaskablePPO against a registered bot.

Install the training extra (torch on CPU, sb3-contrib, matplotlib)::

    python3 -m pip install -e '.[train]'
    python3 examples/train_matgo_maskable_ppo.py --timesteps 200000 --opponent greedy \\
        --out runs/matgo_ppo.zip --curve docs/rl/matgo_ppo_curve.png

The learner plays seat 0 or 1 (drawn each game) of :class:`madang.rl.single.SingleAgentEnv`;
its reward is its net payment in points. The script saves the model, plots the learning
curve (mean return per game over a moving window) and prints the policy's points per game
against the opponent over ``--eval-games`` games with a 95% confidence interval.
:class:`madang.rl.learned.LearnedBot` plays the saved model as a bot.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

import numpy as np


def make_env(opponent: str, seed: int) -> Any:
    from stable_baselines3.common.monitor import Monitor

    from madang.rl.single import SingleAgentEnv

    env = Monitor(SingleAgentEnv("matgo", opponents=[opponent], seat=None))
    env.reset(seed=seed)
    return env


def train(
    timesteps: int, opponent: str = "random", seed: int = 0, out: Path | None = None
) -> tuple[Any, list[float]]:
    """Train for ``timesteps`` env steps; the model and the returns of its games."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = make_env(opponent, seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=2048,
        batch_size=512,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=1.0,
        seed=seed,
        verbose=0,
        policy_kwargs={"net_arch": [256, 256]},
    )
    model.learn(total_timesteps=timesteps)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        model.save(out)
    return model, [float(r) for r in env.get_episode_rewards()]


def evaluate(model: Any, opponent: str, games: int, seed: int = 1) -> tuple[float, float]:
    """Points per game of the model against ``opponent`` (mean, 95% CI half-width)."""
    from madang.rl.single import SingleAgentEnv

    env = SingleAgentEnv("matgo", opponents=[opponent], seat=None)
    returns = []
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done, total = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, r, done, _, _ = env.step(int(action))
            total += r
        returns.append(total)
    a = np.array(returns)
    return float(a.mean()), float(1.96 * a.std(ddof=1) / math.sqrt(len(a))) if len(a) > 1 else 0.0


def plot(returns: list[float], path: Path, window: int = 200) -> None:
    """The learning curve: mean return per game over a moving window."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    r = np.array(returns, dtype=float)
    w = max(1, min(window, len(r)))
    smooth = np.convolve(r, np.ones(w) / w, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(np.arange(w, len(r) + 1), smooth)
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_xlabel("games played")
    ax.set_ylabel(f"points per game (mean of {w})")
    ax.set_title("MaskablePPO on Matgo")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timesteps", type=int, default=200_000)
    ap.add_argument("--opponent", default="random", help="a registered Matgo bot or level")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("runs/matgo_ppo.zip"))
    ap.add_argument("--curve", type=Path, help="write the learning curve here (PNG)")
    ap.add_argument("--eval-games", type=int, default=500)
    args = ap.parse_args(argv)
    model, returns = train(args.timesteps, args.opponent, args.seed, args.out)
    print(f"trained {args.timesteps} steps, {len(returns)} games; saved {args.out}")
    if args.curve:
        plot(returns, args.curve)
        print(f"learning curve: {args.curve}")
    if args.eval_games:
        mean, ci = evaluate(model, args.opponent, args.eval_games)
        print(f"vs {args.opponent}: {mean:+.2f} ± {ci:.2f} points per game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
