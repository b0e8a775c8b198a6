"""``madang train matgo``: a Matgo policy from nothing, by cloning a bot, then masked PPO,
or by distilling the search's action values (the ``train`` extra).

The default recipe (``docs/rl/train.md``, the second 60-minute run's: the shipped
policy's) clones ``greedy_hard`` for the first ``--bc-share`` of ``--minutes`` and
fine-tunes by PPO for the rest (5). With ``--teacher search_q`` (:class:`SearchQ`, the
third run's) the student first clones ``--warm-teacher`` for ``--warm-share`` of the
time, then learns a value for every legal action, the mean over
``--teacher-iterations`` sampled worlds of the search's leaf (``--distill mse|soft``,
:func:`distill_loss`). The parts:

1. **States** come from the batched engine (:class:`~madang.rl.vector.VectorGames`):
   ``--games`` games stepped together, each decision played by the teacher, or (a share
   ``--explore``) by a random legal action, so that the student also sees states off the
   teacher's path.
2. **Labels**: the teacher (``greedy_hard``, ``greedy``'s valuation with ``hard``'s
   weights; ``search_q``, the search's values; :data:`TEACHERS`; or any Matgo bot)
   labels from the seat's own view (:func:`madang.matgo.view.view`), never the full
   state. Decisions with one legal action teach nothing and are not kept.
3. **The student**, a multilayer perceptron over the encoding's observation, learns a
   label by masked cross-entropy (illegal actions get no probability) and values by
   :func:`distill_loss`, with Adam on minibatches drawn from everything collected so
   far, between rounds of collection.
4. **Evaluation**: every ``--eval-every`` minutes, and at the end, the student plays
   ``greedy`` in the arena on duplicate deals (both seats of each deal); win rate and
   points per game with 95% confidence intervals go to ``curve.csv`` beside the wall time
   and the stage (``bc`` or ``ppo``).
5. **Fine-tuning** (:mod:`madang.rl.ppo`): the cloned policy plays ``--opponent`` on the
   batched engine and learns from the points of its games (clipped to ``--points-clip``),
   plus ``--win-bonus`` for a won game and minus it for a lost one, by masked PPO (a
   critic, trained alone for the first ``--ppo-warmup`` updates, GAE, the clipped
   objective, an optional entropy bonus).
6. **The weights kept** (``--keep best``): among the evaluated weights, the best by a
   rule fixed in advance (:func:`best_row`) is shipped as ``policy.npz``.

``--out`` receives ``policy.npz`` (the weights: numpy arrays, so play needs no torch;
the bot ``learned:OUT/policy.npz``), ``bc.npz`` (the policy at the end of cloning, the
same format), ``best.npz`` and ``last.npz`` (with ``--keep best``), ``curve.csv``,
``summary.json`` and, where matplotlib is installed, ``curve.png``.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from madang.core.errors import RuleConfigError
from madang.rl.ppo import PPOSettings, Rollouts, ppo_update, seat_view

if TYPE_CHECKING:  # numpy and torch are the extras' (imported when the command runs)
    import numpy.typing as npt

__all__ = [
    "CURVE_FIELDS",
    "TrainConfig",
    "evaluate",
    "load_policy",
    "register_cli",
    "save_policy",
    "train",
]

#: The columns of ``curve.csv``.
CURVE_FIELDS = (
    "wall_s",
    "stage",
    "samples",
    "ppo_steps",
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


#: How much faster than the network's weights a prior's scale ``beta`` learns (Adam
#: moves a parameter by about its learning rate a step: at 1e-3 a scale of 3 would take
#: thousands of steps, and a student whose ``beta`` stayed near 0 ignored the prior).
PRIOR_LR = 30.0

#: ``--keep``: the final ``policy.npz`` is the last weights, or the best evaluated ones
#: (:func:`best_row`).
KEEP = ("last", "best")

#: ``--distill``: how the student learns a teacher's action values
#: (:meth:`SearchQ.values`): ``soft``, cross-entropy against ``softmax(values / T)``
#: over the legal actions; ``mse``, its logits less their mean over the legal actions
#: regressed on the values less theirs, divided by ``T`` (``--temperature``).
#: ``argmax``: the values' best action as a hard label (cross-entropy), the values not kept.
DISTILL = ("soft", "mse", "argmax")


@dataclass(frozen=True)
class TrainConfig:
    """One training run's settings (the command's options)."""

    minutes: float = 60.0
    seed: int = 0
    out: Path = Path("runs/matgo")
    threads: int = 2
    teacher: str = "greedy_hard"
    teacher_iterations: int = 8
    games: int = 32
    explore: float = 0.15
    hidden: tuple[int, ...] = (256, 256)
    lr: float = 1e-3
    batch: int = 256
    steps_per_round: int = 32
    updates_per_round: int = 64
    max_samples: int = 300_000
    eval_every: float = 5.0
    eval_deals: int = 200
    final_deals: int = 1000
    opponent: str = "greedy"
    bc_share: float = 0.25
    ppo_games: int = 64
    ppo_lr: float = 5e-5
    ppo_rollout: int = 2048
    ppo_epochs: int = 4
    ppo_clip: float = 0.2
    ppo_entropy: float = 0.0
    reward_scale: float = 10.0
    win_bonus: float = 20.0
    points_clip: float | None = 20.0
    ppo_warmup: int = 10
    init: Path | None = None
    keep: str = "best"
    distill: str = "mse"
    temperature: float = 0.01
    warm_share: float = 0.25
    warm_teacher: str = "greedy_hard"
    prior_bonus: float = 0.0
    prior: str | None = None

    def ppo(self) -> PPOSettings:
        """The fine-tuning stage's settings."""
        return PPOSettings(
            lr=self.ppo_lr,
            rollout=self.ppo_rollout,
            epochs=self.ppo_epochs,
            batch=self.batch,
            clip=self.ppo_clip,
            entropy=self.ppo_entropy,
            reward_scale=self.reward_scale,
            win_bonus=self.win_bonus,
            points_clip=self.points_clip,
        )

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
            "ppo_games": self.ppo_games,
            "ppo_lr": self.ppo_lr,
            "ppo_rollout": self.ppo_rollout,
            "ppo_epochs": self.ppo_epochs,
            "ppo_clip": self.ppo_clip,
            "reward_scale": self.reward_scale,
        }
        for name, value in positive.items():
            if not value > 0:
                raise RuleConfigError(f"--{name.replace('_', '-')} must be positive, not {value}")
        if self.updates_per_round < 0 or self.eval_deals < 0 or self.final_deals < 0:
            raise RuleConfigError("--updates-per-round and the deal counts cannot be negative")
        if not 0 <= self.explore <= 1:
            raise RuleConfigError(f"--explore must lie in [0, 1], not {self.explore}")
        if not 0 <= self.bc_share <= 1:
            raise RuleConfigError(f"--bc-share must lie in [0, 1], not {self.bc_share}")
        if self.ppo_warmup < 0:
            raise RuleConfigError(f"--ppo-warmup cannot be negative, not {self.ppo_warmup}")
        if self.win_bonus < 0:
            raise RuleConfigError(f"--win-bonus cannot be negative, not {self.win_bonus}")
        if self.points_clip is not None and self.points_clip < 0:
            raise RuleConfigError(f"--points-clip cannot be negative, not {self.points_clip}")
        if self.keep not in KEEP:
            raise RuleConfigError(f"--keep must be one of {', '.join(KEEP)}, not {self.keep!r}")
        if self.init is not None and not Path(self.init).is_file():
            raise RuleConfigError(f"--init {self.init}: no such file")
        if self.ppo_entropy < 0:
            raise RuleConfigError(f"--ppo-entropy cannot be negative, not {self.ppo_entropy}")
        if self.distill not in DISTILL:
            raise RuleConfigError(
                f"--distill must be one of {', '.join(DISTILL)}, not {self.distill!r}"
            )
        if not self.temperature > 0:
            raise RuleConfigError(f"--temperature must be positive, not {self.temperature}")
        if not 0 <= self.warm_share <= 1:
            raise RuleConfigError(f"--warm-share must lie in [0, 1], not {self.warm_share}")
        if not self.hidden or min(self.hidden) < 1:
            raise RuleConfigError(f"--hidden must be positive layer widths, not {self.hidden}")
        if self.prior is not None and self.bc_share < 1:
            raise RuleConfigError(
                "--prior needs --bc-share 1 (the fine-tuning stage has no prior inputs)"
            )


def _greedy_hard() -> Any:
    from madang.bots.matgo_greedy import GreedyBot
    from madang.bots.matgo_search import HARD_WEIGHTS

    bot = GreedyBot(HARD_WEIGHTS)
    bot.name = "greedy_hard"
    return bot


class SearchQ:
    """A teacher that values every legal action (``--teacher search_q``, leaf the chance
    of winning at horizon 1; ``search_q_points``, :func:`~madang.bots.matgo_search.leaf_value`
    at horizon 3): :func:`~madang.bots.matgo_search.action_values` over ``worlds``
    sampled worlds from the seat's own view, the greedy valuation's choice given
    ``prior_bonus`` more (``--prior-bonus``). 고/스톱 and 광팔기's join/die get
    ``greedy_hard``'s answer as a hard label (:meth:`values` returns None there), as the
    ``search_value`` bot answers them. As a bot (:meth:`act`) it plays the best value's
    action (the greedy valuation's choice on a tie)."""

    def __init__(self, leaf: str = "win", worlds: int = 4, prior_bonus: float = 0.0) -> None:
        from madang.bots.matgo_search import HARD_WEIGHTS

        if leaf not in ("win", "points"):
            raise RuleConfigError(f"unknown leaf {leaf!r}: win or points")
        self.leaf, self.worlds, self.weights = leaf, worlds, HARD_WEIGHTS
        self.prior_bonus = prior_bonus
        self.name = "search_q" if leaf == "win" else "search_q_points"

    def values(
        self, view: dict[str, Any], legal: list[int], rng: random.Random
    ) -> tuple[int, list[float] | None]:
        """The label (the greedy valuation's choice where the values tie it) and the
        values of ``legal`` (None where the answer is a hard label)."""
        from madang.bots.matgo_greedy import Knowledge, choose
        from madang.bots.matgo_search import action_values
        from madang.matgo.engine import Phase

        k = Knowledge.from_view(view, self.weights)
        prior = choose(k, legal)
        if k.phase in (Phase.GO_STOP, Phase.JOIN):
            return prior, None
        v = action_values(view, legal, rng, self.worlds, "win" if self.leaf == "win" else "points")
        v[legal.index(prior)] += self.prior_bonus
        best = max(v)
        return (prior if v[legal.index(prior)] >= best else legal[v.index(best)]), v

    def act(self, view: dict[str, Any], legal: list[int], rng: random.Random, budget: Any) -> int:
        """The best value's action (the greedy valuation's choice on a tie)."""
        if len(legal) == 1:
            return legal[0]
        return self.values(view, legal, rng)[0]


class HardPlay:
    """A teacher that plays the cards as ``hard`` does and answers every other question
    (고/스톱, 국진, 총통, 광팔기's join/die) as ``greedy_hard`` (``--teacher hard_play``):
    the search's card play wins more games than the one-ply valuation's, and the
    valuation's 고/스톱, which nearly always stops, keeps those wins (docs/rl/train.md).
    ``hard`` searches ``budget.iterations`` sampled worlds a decision."""

    name = "hard_play"

    def __init__(self) -> None:
        from madang.bots import make_bot
        from madang.bots.matgo_search import HARD_WEIGHTS

        self.hard, self.weights = make_bot("matgo", "hard"), HARD_WEIGHTS

    def act(self, view: dict[str, Any], legal: list[int], rng: random.Random, budget: Any) -> int:
        from madang.bots.matgo_greedy import Knowledge, choose
        from madang.matgo.engine import Phase

        if len(legal) == 1:
            return legal[0]
        k = Knowledge.from_view(view, self.weights)
        if k.phase in (Phase.PLAY, Phase.PICK_PLAY, Phase.PICK_FLIP):
            return int(self.hard.act(view, legal, rng, budget))
        return choose(k, legal)


#: Teachers for ``--teacher`` beside the registered bots: ``greedy_hard`` is ``greedy``'s
#: one-ply valuation with ``hard``'s weights (52% of decided games against ``greedy``,
#: docs/bots.md), at ``greedy``'s cost.
TEACHERS: dict[str, dict[str, Callable[[int, float], Any]]] = {
    "matgo": {
        "greedy_hard": lambda _w, _b: _greedy_hard(),
        "hard_play": lambda _w, _b: HardPlay(),
        "search_q": lambda worlds, bonus: SearchQ("win", worlds, bonus),
        "search_q_points": lambda worlds, bonus: SearchQ("points", worlds, bonus),
    }
}


def make_teacher(game: str, name: str, worlds: int = 8, prior_bonus: float = 0.0) -> Any:
    """The teacher ``name`` of ``game``: one of :data:`TEACHERS` (``worlds``: the sampled
    worlds of a value teacher's label, ``prior_bonus`` its greedy choice's bonus), else
    the registered bot (an unknown name raises :class:`RuleConfigError`).

    >>> make_teacher("matgo", "greedy_hard").name
    'greedy_hard'
    >>> make_teacher("matgo", "search_q", 4).worlds
    4
    """
    from madang.bots import make_bot

    factory = TEACHERS.get(game, {}).get(name)
    return factory(worlds, prior_bonus) if factory is not None else make_bot(game, name)


def keeps_values(teacher: Any, distill: str) -> bool:
    """Whether samples keep ``teacher``'s action values: a value teacher
    (:class:`SearchQ`) distilled by ``mse`` or ``soft``, not by its ``argmax`` label.

    >>> keeps_values(make_teacher("matgo", "search_q"), "mse")
    True
    >>> keeps_values(make_teacher("matgo", "search_q"), "argmax")
    False
    """
    return hasattr(teacher, "values") and distill != "argmax"


def best_row(rows: list[dict[str, Any]]) -> int | None:
    """``--keep best``'s rule, fixed before the run: among the evaluated rows, the one
    whose win rate's lower bound (``win_rate - win_rate_ci95``) is highest among those
    with points per game ≥ 0 (among all of them when none has); the first of equals;
    None when nothing was evaluated.

    >>> best_row([
    ...     {"win_rate": 0.55, "win_rate_ci95": 0.05, "points_per_game": -1.0},
    ...     {"win_rate": 0.52, "win_rate_ci95": 0.05, "points_per_game": 0.5},
    ...     {"win_rate": 0.54, "win_rate_ci95": 0.05, "points_per_game": 0.0},
    ...     {"stage": "bc"},
    ... ])
    2
    """
    scored = [
        (r["points_per_game"] >= 0, r["win_rate"] - r["win_rate_ci95"], -i)
        for i, r in enumerate(rows)
        if "win_rate" in r
    ]
    return -max(scored)[2] if scored else None


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


class Student:
    """The network a run trains: a multilayer perceptron over the observation; with a
    prior (``--prior``, :mod:`madang.rl.prior`), over the observation and the prior's
    row, plus ``beta`` times that row (``beta`` a learned scale, from 0)."""

    def __init__(
        self, torch: Any, obs_size: int, hidden: tuple[int, ...], actions: int, prior: str | None
    ) -> None:
        self.torch = torch
        self.net = _mlp(torch, obs_size + (actions if prior else 0), hidden, actions)
        self.beta = torch.nn.Parameter(torch.zeros(())) if prior else None

    def __call__(self, obs: Any, prior: Any = None) -> Any:
        """The logits of a batch of observations (and their prior rows)."""
        if self.beta is None:
            return self.net(obs)
        return self.net(self.torch.cat([obs, prior], 1)) + self.beta * prior

    def parameters(self) -> list[Any]:
        return [*self.net.parameters(), *([self.beta] if self.beta is not None else [])]

    def train(self) -> None:
        self.net.train()


def save_policy(net: Any, path: Path, game: str, meta: dict[str, Any], beta: Any = None) -> None:
    """Write the network's weights as numpy arrays (``W0, b0, W1, ...``, and a prior's
    scale ``beta`` where given), loadable by :class:`madang.rl.learned.NumpyPolicy`,
    written whole or not at all."""
    import numpy as np

    linears = [m for m in net if hasattr(m, "weight")]
    arrays = {}
    for i, m in enumerate(linears):
        arrays[f"W{i}"] = m.weight.detach().cpu().numpy().T.astype(np.float32)
        arrays[f"b{i}"] = m.bias.detach().cpu().numpy().astype(np.float32)
    if beta is not None:
        arrays["beta"] = np.array(float(beta.detach()), dtype=np.float32)
    arrays["meta"] = np.array(json.dumps({"game": game, "layers": len(linears), **meta}))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)  # about 7% smaller: a 256-256 policy under 1 MB
    tmp.replace(path)


def load_policy(torch: Any, net: Any, path: Path, beta: Any = None) -> None:
    """Set the network's weights (and a prior's scale ``beta``) to those
    :func:`save_policy` wrote at ``path``; a file of other layer shapes raises
    :class:`RuleConfigError` and changes nothing."""
    from madang.rl.learned import NumpyPolicy

    saved = NumpyPolicy(path)
    layers = saved.layers
    linears = [m for m in net if hasattr(m, "weight")]
    shapes = [tuple(m.weight.shape[::-1]) for m in linears]
    if [w.shape for w, _ in layers] != shapes:
        raise RuleConfigError(
            f"--init {path}: layers {[w.shape for w, _ in layers]}, the network's {shapes}"
        )
    with torch.no_grad():
        for m, (w, b) in zip(linears, layers, strict=True):
            m.weight.copy_(torch.from_numpy(w.T.copy()))
            m.bias.copy_(torch.from_numpy(b))
        if beta is not None and saved.beta is not None:
            beta.fill_(saved.beta)


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
    """The labelled states collected so far (the oldest dropped past ``cap``); with
    ``values``, each also carries the teacher's action values (``values``, 0 at the
    illegal actions) or, where the teacher gave a hard label, ``hard`` set; with
    ``prior``, each carries its prior's row (``prior``, :mod:`madang.rl.prior`)."""

    def __init__(
        self, obs_size: int, actions: int, cap: int, values: bool = False, prior: bool = False
    ) -> None:
        import numpy as np

        self.obs = np.zeros((cap, obs_size), dtype=np.float32)
        self.mask = np.zeros((cap, actions), dtype=bool)
        self.label = np.zeros(cap, dtype=np.int64)
        self.values = np.zeros((cap, actions), dtype=np.float32) if values else None
        self.hard = np.ones(cap, dtype=bool) if values else None
        self.prior = np.zeros((cap, actions), dtype=np.float32) if prior else None
        self.cap, self.n, self.seen = cap, 0, 0

    def add(
        self,
        obs: npt.NDArray[Any],
        mask: npt.NDArray[Any],
        label: int,
        values: npt.NDArray[Any] | None = None,
        prior: npt.NDArray[Any] | None = None,
    ) -> None:
        i = self.seen % self.cap
        self.obs[i], self.mask[i], self.label[i] = obs, mask, label
        if self.values is not None and self.hard is not None:
            self.hard[i] = values is None
            self.values[i] = 0.0 if values is None else values
        if self.prior is not None and prior is not None:
            self.prior[i] = prior
        self.seen += 1
        self.n = min(self.cap, self.n + 1)

    def extend(self, arrays: dict[str, npt.NDArray[Any]]) -> None:
        """Add a batch of labelled states (a worker's round: :meth:`take`'s arrays)."""
        label = arrays["label"]
        values, hard, prior = (arrays.get(k) for k in ("values", "hard", "prior"))
        for k in range(len(label)):
            v = None if values is None or hard is None or hard[k] else values[k]
            p = None if prior is None else prior[k]
            self.add(arrays["obs"][k], arrays["mask"][k], int(label[k]), v, p)

    def take(self) -> dict[str, npt.NDArray[Any]]:
        """Everything held, oldest first, copied (a worker's round to send), then empty:
        the states, masks and labels, and the values, hard flags and prior rows where
        kept."""
        n = self.n
        got = {"obs": self.obs[:n].copy(), "mask": self.mask[:n].copy()}
        got["label"] = self.label[:n].copy()
        if self.values is not None and self.hard is not None:
            got |= {"values": self.values[:n].copy(), "hard": self.hard[:n].copy()}
        if self.prior is not None:
            got["prior"] = self.prior[:n].copy()
        self.n = self.seen = 0
        return got


def _label_worker(
    seed: int,
    games: int,
    teacher: str,
    iterations: int,
    steps: int,
    explore: float,
    out: Any,
    stop: Any,
    game: str = "matgo",
    preset: str | None = None,
    warm_teacher: str = "greedy_hard",
    warm_until: float = 0.0,
    prior_bonus: float = 0.0,
    distill: str = "mse",
    prior: str | None = None,
) -> None:
    """A labelling process (``--threads`` above 1): its own games (of ``game`` under
    ``preset``) and teacher (``warm_teacher`` until the wall-clock time ``warm_until``),
    each step's labelled states sent to ``out`` as arrays, until ``stop`` is set (at
    least one step)."""
    from madang.bots import Budget
    from madang.rl.prior import prior_of
    from madang.rl.vector import VectorGames

    rng = random.Random(seed)
    vg = VectorGames(game, games, seed=seed, preset=preset)
    vg.reset()
    bot = make_teacher(game, teacher, iterations, prior_bonus)
    budget = Budget(None, iterations)
    warm = make_teacher(game, warm_teacher, iterations) if time.time() < warm_until else None
    enc = vg.encoding
    values = keeps_values(bot, distill)
    mine = _Samples(enc.obs_size, enc.num_actions, games, values, prior is not None)
    prior_fn = prior_of(game, prior) if prior is not None else None
    while True:
        if warm is not None and time.time() >= warm_until:
            warm = None
        _collect(vg, warm or bot, budget, mine, 1, explore, rng, prior_fn)
        out.put(mine.take())
        if stop.is_set():
            return


class _Labellers:
    """``n`` labelling processes beside the learner (started with ``spawn``: the learner's
    torch threads are not forked); :meth:`drain` moves what they sent into ``samples``.

    The queue holds at most ``4 * cfg.steps_per_round`` steps' states (about four of the
    learner's rounds): a worker faster than the learner takes them waits, rather than
    piling up states in memory that would arrive too late to be learnt (in the second
    60-minute run of docs/rl/train.md, about 2 million states, an estimated 5 GB, came
    in at the end of cloning).
    """

    def __init__(
        self,
        n: int,
        cfg: TrainConfig,
        game: str = "matgo",
        preset: str | None = None,
        warm_s: float = 0.0,
    ) -> None:
        import multiprocessing as mp

        ctx = mp.get_context("spawn")
        self.queue = ctx.Queue(maxsize=4 * cfg.steps_per_round)
        self.stop = ctx.Event()
        self.received = 0
        self.procs = [
            ctx.Process(
                target=_label_worker,
                args=(
                    cfg.seed * 1000 + 101 + k,
                    cfg.games,
                    cfg.teacher,
                    cfg.teacher_iterations,
                    cfg.steps_per_round,
                    cfg.explore,
                    self.queue,
                    self.stop,
                    game,
                    preset,
                    cfg.warm_teacher,
                    time.time() + warm_s,
                    cfg.prior_bonus,
                    cfg.distill,
                    cfg.prior,
                ),
                daemon=True,
            )
            for k in range(n)
        ]
        for p in self.procs:
            p.start()

    def drain(self, samples: _Samples) -> int:
        """Add every step the workers have put so far to ``samples``; how many states.

        The steps already put are waited for (``qsize``), not only those that happen to
        be in the pipe: a step's arrays (about 100 kB) are larger than a pipe's buffer,
        so the queue's feeder thread writes them one at a time as they are read, and
        ``get_nowait`` alone found the next one not yet written and stopped after one
        or two a round (the worker then labelled 7% of the states, the third 60-minute
        run of docs/rl/train.md)."""
        import queue

        try:
            put = self.queue.qsize()
        except NotImplementedError:  # macOS: what is in the pipe only
            put = 0
        got = taken = 0
        while True:
            try:
                arrays = self.queue.get(timeout=5.0) if taken < put else self.queue.get_nowait()
            except queue.Empty:
                return got
            taken += 1
            samples.extend(arrays)
            got += len(arrays["label"])
            self.received += len(arrays["label"])

    def close(self, samples: _Samples) -> None:
        """Stop the workers, keeping what they sent until they end."""
        self.stop.set()
        while any(p.is_alive() for p in self.procs):
            self.drain(samples)
            for p in self.procs:
                p.join(timeout=0.05)
        self.drain(samples)


def _collect(
    vg: Any,
    teacher: Any,
    budget: Any,
    samples: _Samples,
    steps: int,
    explore: float,
    rng: random.Random,
    prior: Callable[[dict[str, Any], list[int], int], npt.NDArray[Any]] | None = None,
) -> None:
    """Step every game ``steps`` times, labelling each real decision with the teacher's
    choice from the seat's view (and, from a value teacher such as :class:`SearchQ`, with
    its values of the legal actions where ``samples`` keeps values; and with ``prior``'s
    row where given); the teacher plays it (or a random legal action)."""
    import numpy as np

    view = seat_view(vg.game)
    obs, mask = vg.obs, vg.mask
    valued = samples.values is not None and hasattr(teacher, "values")
    for _ in range(steps):
        actions = []
        for i, st in enumerate(vg.states):
            legal = np.flatnonzero(mask[i]).tolist()
            if len(legal) == 1:
                actions.append(legal[0])
                continue
            seen = view(st, int(vg.seats[i]))
            p = prior(seen, legal, mask.shape[1]) if prior is not None else None
            if valued:
                label, v = teacher.values(seen, legal, rng)
                row = None
                if v is not None:
                    row = np.zeros(mask.shape[1], dtype=np.float32)
                    row[legal] = v
                samples.add(obs[i], mask[i], int(label), row, p)
            else:
                label = int(teacher.act(seen, legal, rng, budget))
                samples.add(obs[i], mask[i], label, None, p)
            actions.append(rng.choice(legal) if rng.random() < explore else label)
        obs, mask, _, _ = vg.step(np.array(actions, dtype=np.int64))


@dataclass(frozen=True)
class Recipe:
    """What differs between the games that the recipe (:func:`run`) trains: the game and
    its rules preset, the curve's columns, the evaluation of a saved policy
    (``evaluate(policy, deals, seed)``), the evaluation's part of the log line, the policy
    file's extra ``meta``, and the curve's opponent and title."""

    game: str
    preset: str | None
    curve_fields: tuple[str, ...]
    evaluate: Callable[[Path, int, int], dict[str, Any]]
    describe: Callable[[dict[str, Any]], str]
    meta: dict[str, Any]
    against: str
    title: str


def train(cfg: TrainConfig, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the recipe on Matgo for ``cfg.minutes`` of wall time, cloning for the first
    ``cfg.bc_share`` of it and fine-tuning for the rest (the final evaluation after it);
    the summary also written to ``OUT/summary.json``."""
    recipe = Recipe(
        game="matgo",
        preset=None,
        curve_fields=CURVE_FIELDS,
        evaluate=lambda policy, deals, seed: evaluate(policy, cfg.opponent, deals, seed),
        describe=lambda row: f"vs {cfg.opponent}: win {row['win_rate']:.3f}",
        meta={},
        against=cfg.opponent,
        title="madang train matgo",
    )
    return run(cfg, recipe, log)


def _bc_round(
    torch: Any, net: Any, opt: Any, samples: _Samples, cfg: TrainConfig, rng: random.Random
) -> tuple[float, float] | None:
    """``cfg.updates_per_round`` minibatches of masked cross-entropy on the samples (or
    :func:`distill_loss` on a value teacher's); the mean loss and the agreement with the
    teacher (None when nothing was updated). ``net`` is a :class:`Student` or a plain
    network."""
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
        p = None if samples.prior is None else torch.from_numpy(samples.prior[idx])
        raw = net(x) if p is None else net(x, p)
        logits = raw.masked_fill(~m, -1e9)
        if samples.values is None or samples.hard is None:
            loss = torch.nn.functional.cross_entropy(logits, y)
        else:
            hard = torch.from_numpy(samples.hard[idx])
            q = torch.from_numpy(samples.values[idx])
            loss = distill_loss(torch, raw, m, y, q, hard, cfg.distill, cfg.temperature)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        hits += int((logits.argmax(1) == y).sum())
        seen += len(idx)
    return (float(np.mean(losses)), hits / seen) if losses else None


def distill_loss(
    torch: Any, raw: Any, mask: Any, label: Any, values: Any, hard: Any, how: str, temp: float
) -> Any:
    """The mean over a minibatch of: masked cross-entropy with the label where ``hard``;
    elsewhere, by ``how`` (:data:`DISTILL`), the cross-entropy against
    ``softmax(values / temp)`` over the legal actions (``soft``; its target's entropy
    taken off, so it is the KL divergence and 0 at a perfect fit), or the mean squared
    error between the logits and ``values / temp``, each less its mean over the legal
    actions (``mse``). (A worked example, which needs torch, is
    ``tests/rl/test_train.py::test_distill_loss_of_a_perfect_fit_and_a_hard_label``.)
    """
    F = torch.nn.functional
    logits = raw.masked_fill(~mask, -1e9)
    logp = F.log_softmax(logits, dim=1)
    per = torch.zeros(len(raw), dtype=raw.dtype)
    if bool(hard.any()):
        per = per + torch.where(hard, -logp.gather(1, label[:, None])[:, 0], 0.0)
    soft = ~hard
    if bool(soft.any()):
        if how == "soft":
            tlogp = F.log_softmax((values / temp).masked_fill(~mask, -1e9), dim=1)
            kl = (tlogp.exp() * (tlogp - logp)).masked_fill(~mask, 0.0).sum(1)
            per = per + torch.where(soft, kl, 0.0)
        else:
            legal = mask.float()
            count = legal.sum(1, keepdim=True)
            pred = raw - (raw * legal).sum(1, keepdim=True) / count
            target = (values - (values * legal).sum(1, keepdim=True) / count) / temp
            se = ((pred - target) ** 2 * legal).sum(1) / count[:, 0]
            per = per + torch.where(soft, se, 0.0)
    return per.mean()


def run(cfg: TrainConfig, recipe: Recipe, log: Callable[[str], None] = print) -> dict[str, Any]:
    """The recipe for any game with an encoding (:class:`Recipe` says what differs):
    clone ``cfg.teacher`` for the first ``cfg.bc_share`` of ``cfg.minutes``, fine-tune by
    PPO against ``cfg.opponent`` for the rest, evaluate along the way and at the end;
    the summary also written to ``OUT/summary.json``."""
    cfg.check()
    torch = _require_torch()

    from madang.bots import Budget, make_bot
    from madang.rl.vector import VectorGames

    game = recipe.game
    # --threads N: N - 1 labelling processes beside the learner while it clones (its
    # torch on one thread meanwhile), all N threads for torch while it fine-tunes
    workers = cfg.threads - 1 if cfg.bc_share > 0 else 0
    torch.set_num_threads(1 if workers else cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    out = Path(cfg.out)
    policy_path = out / "policy.npz"
    teacher = make_teacher(game, cfg.teacher, cfg.teacher_iterations, cfg.prior_bonus)
    # a value teacher is preceded by cloning --warm-teacher for --warm-share of the time
    # (or, under --prior, any teacher other than --warm-teacher: a search's labels)
    warms = hasattr(teacher, "values") or (
        cfg.prior is not None and cfg.teacher != cfg.warm_teacher
    )
    warm_s = cfg.minutes * 60 * cfg.warm_share if warms else 0.0
    warm_teacher = (
        make_teacher(game, cfg.warm_teacher, cfg.teacher_iterations) if warm_s > 0 else teacher
    )
    opponent = make_bot(game, cfg.opponent)  # an unknown opponent fails before training
    budget = Budget(None, cfg.teacher_iterations)
    vg = VectorGames(game, cfg.games, seed=cfg.seed, preset=recipe.preset)
    vg.reset()
    enc = vg.encoding
    from madang.rl.prior import prior_of

    prior_fn = prior_of(game, cfg.prior) if cfg.prior is not None else None
    student = Student(torch, enc.obs_size, cfg.hidden, enc.num_actions, cfg.prior)
    net = student.net
    if cfg.init is not None:
        load_policy(torch, net, cfg.init, student.beta)
    out.mkdir(parents=True, exist_ok=True)  # the settings and the bots are good: write
    groups: list[dict[str, Any]] = [{"params": list(net.parameters())}]
    if student.beta is not None:  # Adam moves a weight about lr a step: beta, 30 times that
        groups.append({"params": [student.beta], "lr": cfg.lr * PRIOR_LR})
    opt = torch.optim.Adam(groups, lr=cfg.lr)
    samples = _Samples(
        enc.obs_size,
        enc.num_actions,
        cfg.max_samples,
        keeps_values(teacher, cfg.distill),
        cfg.prior is not None,
    )
    meta = {
        "teacher": cfg.teacher,
        "distill": cfg.distill if hasattr(teacher, "values") else None,
        "seed": cfg.seed,
        **recipe.meta,
        "init": str(cfg.init) if cfg.init else None,
        "prior": cfg.prior,
    }
    t0 = time.perf_counter()
    deadline = t0 + cfg.minutes * 60
    bc_deadline = t0 + cfg.minutes * 60 * cfg.bc_share
    warm_deadline = t0 + warm_s  # --warm-teacher labels until then
    rows: list[dict[str, Any]] = []
    curve = out / "curve.csv"
    with curve.open("w", newline="", encoding="utf-8") as f:
        csv.DictWriter(f, recipe.curve_fields).writeheader()
    loss_v, acc_v = float("nan"), float("nan")
    stage, ppo_steps = "bc", 0

    best_path = out / "best.npz"

    def checkpoint(deals: int, seed: int, save: bool = True) -> dict[str, Any]:
        if save:
            save_policy(
                net,
                policy_path,
                game,
                {**meta, "samples": samples.seen, "ppo_steps": ppo_steps},
                student.beta,
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
            row |= recipe.evaluate(policy_path, deals, seed)
            log(
                f"{row['wall_s']:7.0f}s  {stage}  {samples.seen:7d} samples  "
                f"{ppo_steps:8d} ppo steps  loss {loss_v:.3f}  acc {acc_v:.3f}  "
                f"{recipe.describe(row)}  "
                f"points {row['points_per_game']:+.2f} "
                f"[{row['points_lo']:+.2f}, {row['points_hi']:+.2f}]"
            )
        rows.append(row)
        with curve.open("a", newline="", encoding="utf-8") as f:
            csv.DictWriter(f, recipe.curve_fields).writerow(row)
        if cfg.keep == "best" and save and deals and best_row(rows) == len(rows) - 1:
            shutil.copyfile(policy_path, best_path)  # the best so far by the rule
        return row

    labellers = _Labellers(workers, cfg, game, recipe.preset, warm_s) if workers else None
    checkpoint(cfg.eval_deals, cfg.seed + 1)  # the untrained network: random's level
    next_eval = time.perf_counter() + cfg.eval_every * 60
    warming = warm_s > 0
    while cfg.bc_share > 0:  # at least one round, however short the stage
        if warming and time.perf_counter() >= warm_deadline:
            warming = False  # the warm clone evaluated (and kept if best) before the switch
            checkpoint(cfg.eval_deals, cfg.seed + 1)
            next_eval = time.perf_counter() + cfg.eval_every * 60
        who = warm_teacher if warming else teacher
        _collect(vg, who, budget, samples, cfg.steps_per_round, cfg.explore, rng, prior_fn)
        if labellers is not None:
            labellers.drain(samples)
        got = _bc_round(torch, student, opt, samples, cfg, rng)
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
        save_policy(net, out / "bc.npz", game, {**meta, "samples": samples.seen})
        stage = "ppo"
        ppo = cfg.ppo()
        critic = _mlp(torch, enc.obs_size, cfg.hidden, 1)
        popt = torch.optim.Adam([*net.parameters(), *critic.parameters()], lr=ppo.lr)
        pvg = VectorGames(game, cfg.ppo_games, seed=cfg.seed + 7, preset=recipe.preset)
        pvg.reset()
        roll = Rollouts(
            pvg, opponent, Budget(None, 32), rng, ppo.reward_scale, ppo.win_bonus, ppo.points_clip
        )
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
    kept: dict[str, Any] | None = None
    if cfg.keep == "best" and cfg.eval_deals:
        checkpoint(cfg.eval_deals, cfg.seed + 1)  # the last weights, on the same deals
        shutil.copyfile(policy_path, out / "last.npz")
        kept = rows[best_row(rows) or 0]
        shutil.copyfile(best_path, policy_path)
        log(f"kept the weights of {kept['wall_s']:.0f}s ({kept['stage']}) as {policy_path}")
    final = checkpoint(cfg.final_deals, cfg.seed + 2, save=kept is None)
    summary = {
        "game": game,
        "config": {k: str(v) if isinstance(v, Path) else v for k, v in asdict(cfg).items()},
        "train_s": round(train_s, 1),
        "bc_s": round(bc_s, 1),
        "samples": samples.seen,
        "worker_samples": worker_samples,
        "ppo_steps": ppo_steps,
        "policy": str(policy_path),
        "bc_policy": str(out / "bc.npz") if bc_row is not None else None,
        "bc_end": bc_row,
        "kept": kept,
        "final": final,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    if plot_curve(rows, out / "curve.png", recipe.against, recipe.title):
        log(f"curve: {out / 'curve.png'}")
    return summary


def plot_curve(
    rows: list[dict[str, Any]], path: Path, opponent: str, title: str = "madang train matgo"
) -> bool:
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
    bc = [r["wall_s"] / 60 for r in rows if r.get("stage") == "bc"]
    if bc and any(r.get("stage") == "ppo" for r in rows):  # the clone's row: PPO starts
        ax.axvline(bc[-1], color="tab:orange", ls="--", lw=1, label="cloning → PPO")
        ax.legend(loc="lower right")
    ax.set_xlabel("wall time (minutes)")
    ax.set_ylabel(f"points per game vs {opponent} (95% CI)")
    ax.set_title(title)
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)
    return True


_C = TypeVar("_C", bound=TrainConfig)


def config_from_args(cls: type[_C], args: argparse.Namespace) -> _C:
    """The settings of a ``madang train GAME`` command's options (each field with an
    option of its name; the others keep their defaults)."""
    given = {f.name: getattr(args, f.name) for f in fields(cls) if hasattr(args, f.name)}
    given["out"] = Path(given["out"])
    given["hidden"] = tuple(given["hidden"])
    given["init"] = Path(given["init"]) if given["init"] else None
    return cls(**given)


def print_final(summary: dict[str, Any], curve_fields: tuple[str, ...]) -> None:
    """The run's final evaluation as one JSON line (the policy, its bot name, the
    training's figures and the evaluation's columns of the curve)."""
    f = summary["final"]
    print(
        json.dumps(
            {
                "policy": summary["policy"],
                "bot": f"learned:{summary['policy']}",
                "train_s": summary["train_s"],
                "samples": summary["samples"],
                "ppo_steps": summary["ppo_steps"],
                **{k: f[k] for k in curve_fields[6:] if k in f},
            },
            ensure_ascii=False,
        )
    )


def _cmd_train_matgo(args: argparse.Namespace) -> int:
    print_final(train(config_from_args(TrainConfig, args)), CURVE_FIELDS)
    return 0


def register_cli(sub: Any) -> None:
    """Add ``train matgo`` and ``train mahjong`` (:mod:`madang.rl.train_mahjong`) to the
    ``madang`` parser (they need the ``train`` extra when run)."""
    p = sub.add_parser("train", help="train a policy from nothing (needs the train extra: torch)")
    inner = p.add_subparsers(dest="train_command", required=True)
    m = inner.add_parser(
        "matgo",
        help="behaviour cloning from a bot (greedy_hard), then masked PPO against greedy, "
        "or distillation of the search's action values (--teacher search_q); "
        "evaluated against greedy on duplicate deals",
    )
    add_options(m, TrainConfig(), "matgo")
    m.set_defaults(handler=_cmd_train_matgo)
    from madang.rl.train_mahjong import register_cli as register_mahjong

    register_mahjong(inner)


def add_options(m: argparse.ArgumentParser, d: TrainConfig, game: str) -> None:
    """The options of ``madang train GAME`` (one per setting of :class:`TrainConfig`),
    with ``d``'s values as defaults."""
    m.add_argument("--minutes", type=float, default=d.minutes, help="wall time for training")
    m.add_argument("--seed", type=int, default=d.seed)
    m.add_argument("--out", default=str(d.out), help="folder for policy.npz, curve.csv, ...")
    m.add_argument(
        "--threads",
        type=int,
        default=d.threads,
        help="cores: N - 1 labelling processes while cloning, N torch threads after",
    )
    m.add_argument("--teacher", default=d.teacher, help=f"the {game} bot to clone")
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
    m.add_argument(
        "--final-deals", type=int, default=d.final_deals, help="at the end (A at every seat)"
    )
    m.add_argument(
        "--opponent", default=d.opponent, help="the bot fine-tuned and evaluated against"
    )
    m.add_argument(
        "--bc-share", type=float, default=d.bc_share, help="share of --minutes for cloning"
    )
    m.add_argument("--ppo-games", type=int, default=d.ppo_games, help="games stepped together")
    m.add_argument("--ppo-lr", type=float, default=d.ppo_lr, help="Adam's learning rate")
    m.add_argument("--ppo-rollout", type=int, default=d.ppo_rollout, help="decisions per update")
    m.add_argument("--ppo-epochs", type=int, default=d.ppo_epochs, help="passes per update")
    m.add_argument("--ppo-clip", type=float, default=d.ppo_clip, help="the ratio's clip")
    m.add_argument("--ppo-entropy", type=float, default=d.ppo_entropy, help="entropy bonus")
    m.add_argument(
        "--reward-scale", type=float, default=d.reward_scale, help="points per unit of reward"
    )
    m.add_argument(
        "--win-bonus",
        type=float,
        default=d.win_bonus,
        help="points added to a won game's reward, taken from a lost one's (fine-tuning)",
    )
    m.add_argument(
        "--points-clip",
        type=float,
        default=d.points_clip,
        help="a game's points count clipped to ±this in the reward (0: the win bonus alone)",
    )
    m.add_argument(
        "--keep",
        choices=KEEP,
        default=d.keep,
        help="policy.npz: the last weights, or the best evaluated (win rate's lower bound "
        "among points >= 0)",
    )
    m.add_argument(
        "--ppo-warmup",
        type=int,
        default=d.ppo_warmup,
        help="first updates that train the critic alone (the policy unchanged)",
    )
    m.add_argument(
        "--init", default=None, help="start from this policy.npz's weights (same --hidden)"
    )
    m.add_argument(
        "--distill",
        default=d.distill,
        help=f"a value teacher's targets ({', '.join(DISTILL)}): cross-entropy against "
        "softmax(values/T), squared error of the centred logits against values/T, or "
        "the best value's action as a label",
    )
    m.add_argument("--temperature", type=float, default=d.temperature, help="T of --distill")
    m.add_argument(
        "--warm-share",
        type=float,
        default=d.warm_share,
        help="share of --minutes cloning --warm-teacher before a value teacher's labels "
        "(or, under --prior, any other teacher's)",
    )
    m.add_argument("--warm-teacher", default=d.warm_teacher, help="the bot cloned first")
    m.add_argument(
        "--prior",
        default=d.prior,
        help="a hand-written valuation the student reads beside the observation "
        "(greedy_hard; needs --bc-share 1)",
    )
    m.add_argument(
        "--prior-bonus",
        type=float,
        default=d.prior_bonus,
        help="added to the value of the greedy valuation's choice (a value teacher's)",
    )
