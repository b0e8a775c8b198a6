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
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from madang.core.errors import RuleConfigError
from madang.rl import train as base

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
    points_clip: float | None = None  # Matgo's later defaults (issue 30) not measured here
    keep: str = "last"
    ppo_lr: float = 1e-4
    ppo_entropy: float = 0.01
    preset: str = "mupan"
    # Matgo's value distillation (docs/rl/train.md) is not built for mahjong
    warm_share: float = 0.0

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


def train(cfg: MahjongTrainConfig, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the recipe (:func:`madang.rl.train.run`) on mahjong hands for ``cfg.minutes``
    of wall time, cloning for the first ``cfg.bc_share`` of it and fine-tuning for the
    rest (the final evaluation after it); the summary also written to
    ``OUT/summary.json``."""
    recipe = base.Recipe(
        game=GAME,
        preset=cfg.preset,
        curve_fields=CURVE_FIELDS,
        evaluate=lambda policy, deals, seed: evaluate(
            policy, cfg.opponent, deals, seed, cfg.preset
        ),
        describe=lambda row: (
            f"vs 3 {cfg.opponent}: hands won {row['win_rate']:.3f} "
            f"(each of them {row['others_win_rate']:.3f})  "
            f"dealt in {row['deal_in_rate']:.3f}"
        ),
        meta={"preset": cfg.preset},
        against=f"3 {cfg.opponent}",
        title="madang train mahjong",
    )
    return base.run(cfg, recipe, log)


def _cmd_train_mahjong(args: argparse.Namespace) -> int:
    base.print_final(train(base.config_from_args(MahjongTrainConfig, args)), CURVE_FIELDS)
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
