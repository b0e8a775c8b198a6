"""``madang train mahjong``: a mahjong policy from nothing, by behaviour cloning then masked
PPO against three ``normal`` bots (the ``train`` extra).

The recipe of ``madang train matgo`` (:mod:`madang.rl.train`, ``docs/rl/train.md``) on
Korean mahjong's hands (``docs/rl/mahjong.md``, Training), its pieces reused:

1. **States** come from the batched engine (:class:`~madang.rl.vector.VectorGames`,
   ``"mahjong"`` under ``--preset``): ``--games`` hands stepped together, each decision
   (a discard, 쯔모, a kan, an answer in a claim window) played by the teacher, or (a
   share ``--explore``) by a random legal action.
2. **Labels**: the teacher (``normal``, the efficiency bot, by default; ``hard`` the
   value bot) chooses from the seat's own view (:func:`madang.mahjong.view.view`), never
   the full state; decisions with one legal action are not kept.
3. **The student**, an MLP over the encoding's 482 numbers, learns the labels by masked
   cross-entropy (:class:`madang.rl.train._Samples`, Adam on minibatches).
4. **Evaluation**: the saved policy (``learned:OUT/policy.npz``) plays three
   ``--opponent`` bots in the arena on duplicate walls, each deal four times with the
   policy at each seat (:func:`evaluate`): points per hand with a 95% interval (paired
   by deal), the share of hands it won, how often it dealt in.
5. **Fine-tuning** (:mod:`madang.rl.ppo`): in each of ``--ppo-games`` hands the learner
   holds one seat, drawn per hand, the three others are ``--opponent`` bots choosing
   from their views; the reward is the learner's points in the hand (its payments in
   minus out) / ``--reward-scale``, plus ``--win-bonus`` points for a hand it won (its
   points above 0) and minus as many for one it paid in (below 0: it dealt in, or paid a
   쯔모), at its last decision of the hand.

``--out`` receives ``policy.npz``, ``bc.npz``, ``curve.csv`` (:data:`CURVE_FIELDS`),
``summary.json`` and, where matplotlib is installed, ``curve.png``: as Matgo's.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from madang.core.errors import RuleConfigError
from madang.rl import train as base
from madang.rl.ppo import Rollouts, ppo_update

__all__ = ["CURVE_FIELDS", "MahjongTrainConfig", "evaluate", "register_cli", "train"]

GAME = "mahjong"

#: The columns of ``curve.csv``: Matgo's (``win_rate`` is the share of *hands* won,
#: ``points_per_game`` the points per hand), then how often the policy dealt in and the
#: share of hands each opponent won in the same evaluation.
CURVE_FIELDS = (*base.CURVE_FIELDS, "deal_in_rate", "others_win_rate")


@dataclass(frozen=True)
class MahjongTrainConfig(base.TrainConfig):
    """One mahjong training run's settings: Matgo's (:class:`~madang.rl.train.TrainConfig`)
    with mahjong's defaults and the rules preset."""

    out: Path = Path("runs/mahjong")
    teacher: str = "normal"
    opponent: str = "normal"
    eval_deals: int = 100  # 400 hands: each deal is played four times, A at each seat
    final_deals: int = 500  # 2,000 hands
    win_bonus: float = 0.0
    preset: str = "mupan"

    def check(self) -> None:
        """Matgo's checks, then the preset and the bots: all raise
        :class:`RuleConfigError` before anything runs or is written."""
        super().check()
        from madang.bots import make_bot
        from madang.core.registry import spec

        try:
            spec(GAME).rules(self.preset)
        except RuleConfigError as e:
            raise RuleConfigError(f"--preset: {e}") from None
        for option, name in (("teacher", self.teacher), ("opponent", self.opponent)):
            try:
                make_bot(GAME, name)
            except RuleConfigError as e:
                raise RuleConfigError(f"--{option}: {e}") from None


def evaluate(
    policy: Path, opponent: str, deals: int, seed: int, preset: str = "mupan"
) -> dict[str, Any]:
    """The saved policy against three ``opponent`` bots on ``deals`` duplicate walls (four
    hands each, the policy at each seat): the share of hands it won (with a 95% binomial
    interval over the hands), points per hand with the arena's 95% interval (paired by
    deal), the share of hands it dealt in, and the share each opponent won."""
    from madang.arena import run_arena
    from madang.bots import Budget
    from madang.rl.learned import register_learned

    name = register_learned(GAME, policy)
    r = run_arena(
        GAME,
        [name, *[opponent] * 3],
        deals=deals,
        seed=seed,
        budget=Budget(None, 32),
        preset=preset,
    )
    games = r["games"]
    p = r["hand_win_rate_a"]
    lo, hi = r["ci95_points_a"] or (r["mean_points_a"], r["mean_points_a"])
    return {
        "opponent": opponent,
        "games": games,
        "win_rate": p,
        "win_rate_ci95": round(1.96 * math.sqrt(p * (1 - p) / games), 4),
        "points_per_game": r["mean_points_a"],
        "points_lo": lo,
        "points_hi": hi,
        "deal_in_rate": r["deal_in_rate_a"],
        "others_win_rate": r["others_win_rate_each"],
    }


def _bc_round(
    torch: Any, net: Any, opt: Any, samples: Any, cfg: MahjongTrainConfig, rng: random.Random
) -> tuple[float, float] | None:
    """``cfg.updates_per_round`` minibatches of masked cross-entropy on the samples; the
    mean loss and the agreement with the teacher (None when nothing was updated)."""
    import numpy as np

    net.train()
    losses, hits, seen = [], 0, 0
    for _ in range(cfg.updates_per_round if samples.n else 0):
        idx = np.fromiter(
            (rng.randrange(samples.n) for _ in range(min(cfg.batch, samples.n))), dtype=np.int64
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
    return (float(np.mean(losses)), hits / seen) if losses else None


def train(cfg: MahjongTrainConfig, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the recipe for ``cfg.minutes`` of wall time, cloning for the first
    ``cfg.bc_share`` of it and fine-tuning for the rest (the final evaluation after it);
    the summary also written to ``OUT/summary.json``."""
    cfg.check()
    torch = base._require_torch()

    from madang.bots import Budget, make_bot
    from madang.rl.vector import VectorGames

    # --threads N: N - 1 labelling processes beside the learner while it clones (its
    # torch on one thread meanwhile), all N threads for torch while it fine-tunes
    workers = cfg.threads - 1 if cfg.bc_share > 0 else 0
    torch.set_num_threads(1 if workers else cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    teacher = make_bot(GAME, cfg.teacher)
    opponent = make_bot(GAME, cfg.opponent)
    budget = Budget(None, cfg.teacher_iterations)
    vg = VectorGames(GAME, cfg.games, seed=cfg.seed, preset=cfg.preset)
    vg.reset()
    enc = vg.encoding
    net = base._mlp(torch, enc.obs_size, cfg.hidden, enc.num_actions)
    if cfg.init is not None:
        base.load_policy(torch, net, cfg.init)
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    policy_path = out / "policy.npz"
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    samples = base._Samples(enc.obs_size, enc.num_actions, cfg.max_samples)
    meta = {
        "teacher": cfg.teacher,
        "seed": cfg.seed,
        "preset": cfg.preset,
        "init": str(cfg.init) if cfg.init else None,
    }
    t0 = time.perf_counter()
    deadline = t0 + cfg.minutes * 60
    bc_deadline = t0 + cfg.minutes * 60 * cfg.bc_share
    rows: list[dict[str, Any]] = []
    curve = out / "curve.csv"
    with curve.open("w", newline="", encoding="utf-8") as f:
        csv.DictWriter(f, CURVE_FIELDS).writeheader()
    loss_v, acc_v = float("nan"), float("nan")
    stage, ppo_steps = "bc", 0

    def checkpoint(deals: int, seed: int) -> dict[str, Any]:
        base.save_policy(
            net, policy_path, GAME, {**meta, "samples": samples.seen, "ppo_steps": ppo_steps}
        )
        row: dict[str, Any] = {
            "wall_s": round(time.perf_counter() - t0, 1),
            "stage": stage,
            "samples": samples.seen,
            "ppo_steps": ppo_steps,
            "loss": round(loss_v, 4),
            "accuracy": round(acc_v, 4),
        }
        if deals:
            row |= evaluate(policy_path, cfg.opponent, deals, seed, cfg.preset)
            log(
                f"{row['wall_s']:7.0f}s  {stage}  {samples.seen:7d} samples  "
                f"{ppo_steps:8d} ppo steps  loss {loss_v:.3f}  acc {acc_v:.3f}  "
                f"vs 3 {cfg.opponent}: hands won {row['win_rate']:.3f} "
                f"(each of them {row['others_win_rate']:.3f})  "
                f"dealt in {row['deal_in_rate']:.3f}  "
                f"points {row['points_per_game']:+.2f} "
                f"[{row['points_lo']:+.2f}, {row['points_hi']:+.2f}]"
            )
        rows.append(row)
        with curve.open("a", newline="", encoding="utf-8") as f:
            csv.DictWriter(f, CURVE_FIELDS).writerow(row)
        return row

    labellers = base._Labellers(workers, cfg, GAME, cfg.preset) if workers else None
    checkpoint(cfg.eval_deals, cfg.seed + 1)  # the untrained network: random's level
    next_eval = time.perf_counter() + cfg.eval_every * 60
    while cfg.bc_share > 0:  # at least one round, however short the stage
        base._collect(vg, teacher, budget, samples, cfg.steps_per_round, cfg.explore, rng)
        if labellers is not None:
            labellers.drain(samples)
        got = _bc_round(torch, net, opt, samples, cfg, rng)
        if got is not None:
            loss_v, acc_v = got
        now = time.perf_counter()
        if now >= bc_deadline:
            break
        if now >= next_eval:
            checkpoint(cfg.eval_deals, cfg.seed + 1)
            next_eval = time.perf_counter() + cfg.eval_every * 60
    worker_samples = 0
    if labellers is not None:
        labellers.close(samples)
        worker_samples = labellers.received
        torch.set_num_threads(cfg.threads)
    bc_s = time.perf_counter() - t0
    bc_row: dict[str, Any] | None = None
    if cfg.bc_share < 1:  # the clone, evaluated and kept, is where fine-tuning starts
        bc_row = checkpoint(cfg.eval_deals, cfg.seed + 1)
        base.save_policy(net, out / "bc.npz", GAME, {**meta, "samples": samples.seen})
        stage = "ppo"
        ppo = cfg.ppo()
        critic = base._mlp(torch, enc.obs_size, cfg.hidden, 1)
        popt = torch.optim.Adam([*net.parameters(), *critic.parameters()], lr=ppo.lr)
        pvg = VectorGames(GAME, cfg.ppo_games, seed=cfg.seed + 7, preset=cfg.preset)
        pvg.reset()
        roll = Rollouts(pvg, opponent, Budget(None, 32), rng, ppo.reward_scale, ppo.win_bonus)
        acc_v = float("nan")
        updates = 0
        next_eval = time.perf_counter() + cfg.eval_every * 60
        while True:  # at least one update, however short the stage
            batch = roll.collect(torch, net, critic, ppo.rollout, (ppo.gamma, ppo.lam))
            net.train()
            warm = updates < cfg.ppo_warmup  # the critic learns first, the policy waits
            loss_v = ppo_update(torch, net, critic, popt, batch, ppo, rng, warm)["loss"]
            updates += 1
            ppo_steps = roll.steps
            now = time.perf_counter()
            if now >= deadline:
                break
            if now >= next_eval:
                checkpoint(cfg.eval_deals, cfg.seed + 1)
                next_eval = time.perf_counter() + cfg.eval_every * 60
    train_s = time.perf_counter() - t0
    final = checkpoint(cfg.final_deals, cfg.seed + 2)
    summary = {
        "game": GAME,
        "config": {k: str(v) if isinstance(v, Path) else v for k, v in asdict(cfg).items()},
        "train_s": round(train_s, 1),
        "bc_s": round(bc_s, 1),
        "samples": samples.seen,
        "worker_samples": worker_samples,
        "ppo_steps": ppo_steps,
        "policy": str(policy_path),
        "bc_policy": str(out / "bc.npz") if bc_row is not None else None,
        "bc_end": bc_row,
        "final": final,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    if base.plot_curve(rows, out / "curve.png", f"3 {cfg.opponent}", "madang train mahjong"):
        log(f"curve: {out / 'curve.png'}")
    return summary


def _config(args: argparse.Namespace) -> MahjongTrainConfig:
    """The settings of the command's options (every field has its option)."""
    given = {
        f.name: getattr(args, f.name) for f in fields(MahjongTrainConfig) if hasattr(args, f.name)
    }
    given["out"] = Path(given["out"])
    given["hidden"] = tuple(given["hidden"])
    given["init"] = Path(given["init"]) if given["init"] else None
    return MahjongTrainConfig(**given)


def _cmd_train_mahjong(args: argparse.Namespace) -> int:
    summary = train(_config(args))
    f = summary["final"]
    print(
        json.dumps(
            {
                "policy": summary["policy"],
                "bot": f"learned:{summary['policy']}",
                "train_s": summary["train_s"],
                "samples": summary["samples"],
                "ppo_steps": summary["ppo_steps"],
                **{k: f[k] for k in CURVE_FIELDS[6:] if k in f},
            },
            ensure_ascii=False,
        )
    )
    return 0


def register_cli(inner: Any) -> None:
    """Add ``mahjong`` to ``madang train``'s sub-commands (``inner``)."""
    from madang.core.registry import spec

    d = MahjongTrainConfig()
    m = inner.add_parser(
        GAME,
        help="behaviour cloning from a bot (normal), then masked PPO against three normal; "
        "evaluated against three normal on duplicate walls",
    )
    base.add_options(m, d, "mahjong")
    m.add_argument(
        "--preset",
        default=d.preset,
        help=f"the rules preset of training and evaluation: {', '.join(spec(GAME).presets())}",
    )
    m.set_defaults(handler=_cmd_train_mahjong)
