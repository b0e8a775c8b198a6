"""The fine-tuning stage of ``madang train matgo``: masked PPO against a bot on the batched
engine (the ``train`` extra: torch).

The policy is the cloned MLP (:func:`madang.rl.train._mlp`, saved as numpy, so play needs
no torch); the critic is a second MLP of the same widths over the same observation (a
value network beside the policy rather than a head on its trunk, so that its first,
untrained gradients cannot disturb the cloned features; it is not saved: play does not
need it).

* **Episodes**: ``VectorGames`` steps ``games`` games together; in each game the learner
  holds one seat (drawn at every deal), the opponent bot the other, choosing from its
  seat's view as at a table. The learner samples from its masked softmax.
* **Reward**: the learner's points (the game's payments to it minus those it makes),
  divided by ``reward_scale``, credited to its last decision before they are paid; at
  the game's end, ``win_bonus`` points more (won: its points above 0) or fewer (lost:
  below 0), also divided by ``reward_scale``, credited to its last decision of the game.
  With ``points_clip`` C, the game's points count clipped to [−C, C] (the difference
  taken back at its last decision: a few huge games do not outweigh many small ones;
  C = 0 leaves the win bonus alone). An episode is one game, so its return is (the
  game's points, clipped, ± the bonus) / scale.
* **Update**: only finished games are learnt from (terminal value 0); GAE(γ, λ) gives
  advantages (normalised per batch); the clipped surrogate, an entropy bonus and the
  critic's squared error, over ``epochs`` passes of shuffled minibatches, Adam with the
  gradient norm clipped. A game in progress when the weights change keeps the
  log-probabilities it was played with (the clip bounds that lag).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy and torch are the extras' (imported when the stage runs)
    import numpy.typing as npt

__all__ = [
    "Batch",
    "PPOSettings",
    "Rollouts",
    "critic_loss",
    "gae",
    "ppo_loss",
    "ppo_update",
    "seat_view",
]


def seat_view(game: str) -> Callable[[Any, int], dict[str, Any]]:
    """The function giving a seat's view of an engine state of ``game`` (its
    ``madang.GAME.view.view``): what its bots see at a table, and all they are shown here.

    >>> seat_view("mahjong").__module__
    'madang.mahjong.view'
    """
    from madang.core.errors import RuleConfigError

    try:
        module = importlib.import_module(f"madang.{game}.view")
    except ModuleNotFoundError:
        raise RuleConfigError(f"{game} has no seat views to train on") from None
    view: Callable[[Any, int], dict[str, Any]] = module.view
    return view


@dataclass(frozen=True)
class PPOSettings:
    """The fine-tuning stage's settings (``madang train matgo --ppo-*``)."""

    lr: float = 1e-4
    rollout: int = 2048
    epochs: int = 4
    batch: int = 256
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    gamma: float = 1.0
    lam: float = 0.95
    reward_scale: float = 10.0
    win_bonus: float = 0.0
    points_clip: float | None = None
    max_grad_norm: float = 0.5


@dataclass
class Batch:
    """Learner decisions of finished games: what the update reads (numpy arrays)."""

    obs: npt.NDArray[Any]
    mask: npt.NDArray[Any]
    action: npt.NDArray[Any]
    logp: npt.NDArray[Any]
    advantage: npt.NDArray[Any]
    ret: npt.NDArray[Any]

    def __len__(self) -> int:
        return len(self.action)


def gae(
    rewards: list[float], values: list[float], gamma: float, lam: float
) -> tuple[list[float], list[float]]:
    """Advantages and returns of one finished episode (the value after its end is 0).

    >>> gae([0.0, 1.0], [0.5, 0.5], 1.0, 1.0)
    ([0.5, 0.5], [1.0, 1.0])
    """
    adv = [0.0] * len(rewards)
    nxt, running = 0.0, 0.0
    for t in range(len(rewards) - 1, -1, -1):
        delta = rewards[t] + gamma * nxt - values[t]
        running = delta + gamma * lam * running
        adv[t] = running
        nxt = values[t]
    return adv, [a + v for a, v in zip(adv, values, strict=True)]


@dataclass
class _Step:
    obs: npt.NDArray[Any]
    mask: npt.NDArray[Any]
    action: int
    logp: float
    value: float
    reward: float = 0.0


@dataclass
class Rollouts:
    """The learner against ``opponent`` in ``vg``'s games; :meth:`collect` returns a batch
    of at least ``size`` decisions from finished games."""

    vg: Any
    opponent: Any
    budget: Any
    rng: random.Random
    reward_scale: float
    win_bonus: float = 0.0
    points_clip: float | None = None  #: a game's points count clipped to ±this
    learner_seat: list[int] = field(default_factory=list)
    pending: list[list[_Step]] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)  # finished games' points
    steps: int = 0  # learner decisions made

    def __post_init__(self) -> None:
        n = self.vg.n
        self.learner_seat = [self.rng.randrange(self.vg.num_seats) for _ in range(n)]
        self.pending = [[] for _ in range(n)]
        self._points = [0.0] * n

    def collect(
        self, torch: Any, net: Any, critic: Any, size: int, gamma_lam: tuple[float, float]
    ) -> Batch:
        """Play on until the games finished since the call hold ``size`` learner decisions
        (forced ones, a single legal action, included); their batch with GAE(γ, λ)."""
        import numpy as np

        gamma, lam = gamma_lam
        vg = self.vg
        view = seat_view(vg.game)
        done_eps: list[list[_Step]] = []
        have = 0
        obs, mask = vg.obs, vg.mask
        while have < size:
            seats = vg.seats
            mine = [i for i in range(vg.n) if int(seats[i]) == self.learner_seat[i]]
            actions = [0] * vg.n
            if mine:
                x = torch.from_numpy(obs[mine])
                m = torch.from_numpy(mask[mine].astype(bool))
                with torch.no_grad():
                    logits = net(x).masked_fill(~m, -1e9)
                    dist = torch.distributions.Categorical(logits=logits)
                    a = dist.sample()
                    logp = dist.log_prob(a).numpy()
                    v = critic(x).squeeze(-1).numpy()
                for k, i in enumerate(mine):
                    act = int(a[k])
                    actions[i] = act
                    self.pending[i].append(
                        _Step(obs[i].copy(), mask[i].astype(bool), act, float(logp[k]), float(v[k]))
                    )
                self.steps += len(mine)
            for i in range(vg.n):
                if int(seats[i]) != self.learner_seat[i]:
                    legal = np.flatnonzero(mask[i]).tolist()
                    actions[i] = (
                        legal[0]
                        if len(legal) == 1
                        else int(
                            self.opponent.act(
                                view(vg.states[i], int(seats[i])), legal, self.rng, self.budget
                            )
                        )
                    )
            learner = self.learner_seat
            obs, mask, rewards, done = vg.step(np.array(actions, dtype=np.int64))
            for i in np.flatnonzero(rewards.any(axis=1)).tolist():
                r = float(rewards[i, learner[i]])
                self._points[i] += r
                if self.pending[i]:  # paid before its first decision: nobody's to learn
                    self.pending[i][-1].reward += r / self.reward_scale
            for i in np.flatnonzero(done).tolist():
                if self.pending[i]:
                    pts = self._points[i]
                    won = (pts > 0) - (pts < 0)  # 1, 0 (drawn) or -1
                    extra = won * self.win_bonus
                    if self.points_clip is not None:  # take back what lies past the clip
                        extra += max(-self.points_clip, min(self.points_clip, pts)) - pts
                    self.pending[i][-1].reward += extra / self.reward_scale
                    done_eps.append(self.pending[i])
                    have += len(self.pending[i])
                self.returns.append(self._points[i])
                self.pending[i], self._points[i] = [], 0.0
                learner[i] = self.rng.randrange(vg.num_seats)
        return _batch(done_eps, gamma, lam)


def _batch(episodes: list[list[_Step]], gamma: float, lam: float) -> Batch:
    import numpy as np

    adv: list[float] = []
    ret: list[float] = []
    for ep in episodes:
        a, r = gae([s.reward for s in ep], [s.value for s in ep], gamma, lam)
        adv += a
        ret += r
    steps = [s for ep in episodes for s in ep]
    return Batch(
        obs=np.stack([s.obs for s in steps]),
        mask=np.stack([s.mask for s in steps]),
        action=np.array([s.action for s in steps], dtype=np.int64),
        logp=np.array([s.logp for s in steps], dtype=np.float32),
        advantage=np.array(adv, dtype=np.float32),
        ret=np.array(ret, dtype=np.float32),
    )


def critic_loss(torch: Any, critic: Any, obs: Any, ret: Any) -> Any:
    """The critic's mean squared error against the returns."""
    return ((critic(obs).squeeze(-1) - ret) ** 2).mean()


def ppo_loss(
    torch: Any, net: Any, critic: Any, b: dict[str, Any], s: PPOSettings
) -> tuple[Any, dict[str, float]]:
    """The clipped surrogate plus ``value_coef`` × the critic's squared error minus
    ``entropy`` × the policy's entropy, on a minibatch of tensors; the loss and its parts."""
    logits = net(b["obs"]).masked_fill(~b["mask"], -1e9)
    dist = torch.distributions.Categorical(logits=logits)
    logp = dist.log_prob(b["action"])
    ratio = torch.exp(logp - b["logp"])
    adv = b["advantage"]
    pg = -torch.min(ratio * adv, ratio.clamp(1 - s.clip, 1 + s.clip) * adv).mean()
    vf = critic_loss(torch, critic, b["obs"], b["ret"])
    ent = dist.entropy().mean()
    loss = pg + s.value_coef * vf - s.entropy * ent
    return loss, {"policy": pg.item(), "value": vf.item(), "entropy": ent.item()}


def ppo_update(
    torch: Any,
    net: Any,
    critic: Any,
    opt: Any,
    batch: Batch,
    s: PPOSettings,
    rng: random.Random,
    critic_only: bool = False,
) -> dict[str, float]:
    """``s.epochs`` passes of shuffled minibatches over ``batch``; the mean loss and parts.
    ``critic_only``: the loss is the critic's term alone, the policy is left as it is (the
    warm-up, so that an untrained critic's advantages do not move a cloned policy)."""
    import numpy as np

    adv = batch.advantage
    adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(adv) > 1 else adv
    t = {
        "obs": torch.from_numpy(batch.obs),
        "mask": torch.from_numpy(batch.mask),
        "action": torch.from_numpy(batch.action),
        "logp": torch.from_numpy(batch.logp),
        "advantage": torch.from_numpy(adv.astype(np.float32)),
        "ret": torch.from_numpy(batch.ret),
    }
    params = [p for g in opt.param_groups for p in g["params"]]
    totals: dict[str, list[float]] = {"loss": [], "policy": [], "value": [], "entropy": []}
    idx = list(range(len(batch)))
    for _ in range(s.epochs):
        rng.shuffle(idx)
        for k in range(0, len(idx), s.batch):
            mb = torch.tensor(idx[k : k + s.batch], dtype=torch.int64)
            loss, parts = ppo_loss(torch, net, critic, {n: v[mb] for n, v in t.items()}, s)
            if critic_only:
                loss = s.value_coef * critic_loss(torch, critic, t["obs"][mb], t["ret"][mb])
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, s.max_grad_norm)
            opt.step()
            totals["loss"].append(loss.item())
            for n, v in parts.items():
                totals[n].append(v)
    return {n: float(np.mean(v)) for n, v in totals.items()}
