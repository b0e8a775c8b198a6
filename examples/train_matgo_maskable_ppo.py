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


def arena(
    model_path: Path, opponents: list[str], deals: int, hard_ms: float
) -> list[dict[str, Any]]:
    """The saved policy against each opponent in the arena (duplicate deals, both seats):
    win rate and points per game, each with a 95% confidence interval."""
    from madang.arena import run_arena
    from madang.bots import Budget
    from madang.rl.learned import register_learned

    name = register_learned("matgo", model_path)
    rows = []
    for opp in opponents:
        budget = Budget(hard_ms / 1000) if opp in ("hard", "search") else Budget(None, 32)
        r = run_arena("matgo", [name, opp], deals=deals, seed=7, budget=budget)
        p, n = r["win_rate_a"], r["games"]
        rows.append(
            {
                "opponent": opp,
                "games": n,
                "win_rate": p,
                "win_rate_ci95": 1.96 * math.sqrt(p * (1 - p) / n),
                "points_per_game": r["mean_points_a"],
                "points_ci95": r["ci95_points_a"],
            }
        )
    return rows


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
    ap.add_argument("--arena", type=int, default=0, help="deals per opponent in the arena")
    ap.add_argument("--arena-opponents", default="random,greedy,hard")
    ap.add_argument("--hard-ms", type=float, default=100.0, help="hard's time per decision")
    ap.add_argument("--skip-training", action="store_true", help="load --out instead")
    args = ap.parse_args(argv)
    if args.skip_training:
        from sb3_contrib import MaskablePPO

        model, returns = MaskablePPO.load(str(args.out), device="cpu"), []
    else:
        model, returns = train(args.timesteps, args.opponent, args.seed, args.out)
        print(f"trained {args.timesteps} steps, {len(returns)} games; saved {args.out}")
    if args.curve and returns:
        plot(returns, args.curve)
        print(f"learning curve: {args.curve}")
    if args.eval_games:
        mean, ci = evaluate(model, args.opponent, args.eval_games)
        print(f"vs {args.opponent}: {mean:+.2f} ± {ci:.2f} points per game")
    if args.arena:
        for row in arena(args.out, args.arena_opponents.split(","), args.arena, args.hard_ms):
            lo, hi = row["points_ci95"]
            print(
                f"arena vs {row['opponent']}: {row['games']} games, win rate "
                f"{row['win_rate']:.3f} ± {row['win_rate_ci95']:.3f}, points per game "
                f"{row['points_per_game']:+.2f} [{lo:+.2f}, {hi:+.2f}]"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
