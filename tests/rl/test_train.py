"""``madang train matgo``: the command end to end at tiny sizes (cloning, then PPO), its
weights as a bot, the PPO stage's parts."""

from __future__ import annotations

import csv
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tests.rl.learned_game import plays_a_matgo_game

from madang.cli import main
from madang.core.errors import RuleConfigError

TINY_PPO = [
    "--threads", "1", "--bc-share", "0.5", "--ppo-games", "4", "--ppo-rollout", "24",
    "--ppo-epochs", "1", "--ppo-warmup", "0",
]  # fmt: skip
"""One thread, half the time fine-tuning, in small rollouts: the tiny runs of both games."""

TINY = [
    "--minutes",
    "0.01",
    "--games",
    "4",
    "--steps-per-round",
    "3",
    "--updates-per-round",
    "4",
    "--hidden",
    "16",
    "--teacher",
    "normal",
    "--eval-every",
    "0.005",
    "--eval-deals",
    "2",
    "--final-deals",
    "3",
    *TINY_PPO,
    "--keep",
    "last",
]
"""The settings of a Matgo run of seconds."""


def test_without_the_train_extra_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch raises ImportError
    assert main(["train", "matgo", "--out", str(tmp_path / "o"), *TINY]) == 2
    assert "train extra" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "bad",
    [
        ["--explore", "1.5"],
        ["--minutes", "0"],
        ["--games", "0"],
        ["--hidden", "0"],
        ["--bc-share", "1.5"],
        ["--ppo-rollout", "0"],
        ["--ppo-entropy", "-1"],
        ["--win-bonus", "-1"],
        ["--ppo-warmup", "-1"],
        ["--init", "/nonexistent/policy.npz"],
        ["--distill", "nonsense"],
        ["--temperature", "-0.1"],
        ["--temperature", "0"],
        ["--warm-share", "1.5"],
    ],
)
def test_bad_settings_change_nothing(
    tmp_path: Path, bad: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["train", "matgo", "--out", str(tmp_path / "o"), *TINY, *bad]) == 2
    assert capsys.readouterr().err.startswith("madang: error: --")
    assert not (tmp_path / "o").exists()


def test_a_file_that_is_no_policy(tmp_path: Path) -> None:
    from madang.rl.learned import NumpyPolicy

    bad = tmp_path / "x.npz"
    np.savez(bad, W0=np.zeros((2, 2)))
    (tmp_path / "empty.npz").write_bytes(b"")
    (tmp_path / "broken.npz").write_bytes(b"PK\x03\x04 not a zip")
    np.save(tmp_path / "array.npy", np.zeros(3))
    for path in (bad, tmp_path / "empty.npz", tmp_path / "broken.npz", tmp_path / "array.npy"):
        with pytest.raises(RuleConfigError, match="not a policy"):
            NumpyPolicy(path)


def test_saved_weights_give_the_networks_logits(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from madang.rl.learned import NumpyPolicy
    from madang.rl.train import _mlp, save_policy

    torch.manual_seed(0)
    net = _mlp(torch, 10, (8, 6), 5)
    save_policy(net, tmp_path / "p.npz", "matgo", {"seed": 0})
    x = np.random.default_rng(0).normal(size=(3, 10)).astype(np.float32)
    want = net(torch.from_numpy(x)).detach().numpy()
    pol = NumpyPolicy(tmp_path / "p.npz")
    assert np.allclose(pol.logits(x), want, atol=1e-5)
    mask = np.array([False, True, False, True, False])
    best = int(np.argmax(np.where(mask, want[0], -np.inf)))
    assert pol.predict(x[0], mask, True)[0] == best


def test_init_loads_saved_weights_and_refuses_other_shapes(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from madang.rl.train import _mlp, load_policy, save_policy

    torch.manual_seed(0)
    a, b = _mlp(torch, 10, (8, 6), 5), _mlp(torch, 10, (8, 6), 5)
    x = torch.from_numpy(np.random.default_rng(1).normal(size=(3, 10)).astype(np.float32))
    assert not torch.allclose(a(x), b(x))
    save_policy(a, tmp_path / "a.npz", "matgo", {})
    load_policy(torch, b, tmp_path / "a.npz")
    assert torch.allclose(a(x), b(x))
    other = _mlp(torch, 10, (7,), 5)
    before = [p.detach().clone() for p in other.parameters()]
    with pytest.raises(RuleConfigError, match="layers"):
        load_policy(torch, other, tmp_path / "a.npz")
    assert all(torch.equal(p, q) for p, q in zip(before, other.parameters(), strict=True))


def test_an_init_of_other_shapes_stops_the_command_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from madang.rl.encoding import load_encoding
    from madang.rl.train import _mlp, save_policy

    enc = load_encoding("matgo")
    save_policy(_mlp(torch, enc.obs_size, (8,), enc.num_actions), tmp_path / "s.npz", "matgo", {})
    init = ["--init", str(tmp_path / "s.npz")]  # TINY's network is 16 wide
    assert main(["train", "matgo", "--out", str(tmp_path / "o"), *TINY, *init]) == 2
    assert "layers" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_the_command_runs_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    out = tmp_path / "run"
    assert main(["train", "matgo", "--out", str(out), "--seed", "3", *TINY]) == 0
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert printed["policy"] == str(out / "policy.npz") and printed["samples"] > 0
    assert printed["games"] == 6 and printed["opponent"] == "greedy"
    with (out / "curve.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) >= 3 and rows[0]["samples"] == "0" and int(rows[-1]["samples"]) > 0
    assert all(r["points_per_game"] for r in rows)
    # cloning first, then fine-tuning: the stage marked, PPO decisions counted
    stages = [r["stage"] for r in rows]
    assert stages[0] == "bc" and stages[-1] == "ppo" and stages == sorted(stages)
    assert rows[-1]["samples"] == [r for r in rows if r["stage"] == "bc"][-1]["samples"]
    assert int(rows[-1]["ppo_steps"]) >= 24 and printed["ppo_steps"] == int(rows[-1]["ppo_steps"])
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["final"]["games"] == 6 and summary["bc_end"]["stage"] == "bc"
    from madang.rl.learned import NumpyPolicy

    bc, final = NumpyPolicy(out / "bc.npz"), NumpyPolicy(out / "policy.npz")
    assert final.meta["ppo_steps"] > 0 and "ppo_steps" not in bc.meta
    assert not all(np.array_equal(a[0], b[0]) for a, b in zip(bc.layers, final.layers, strict=True))
    try:
        import matplotlib  # noqa: F401 (the curve is drawn where it is installed)
    except ImportError:
        assert not (out / "curve.png").exists()
    else:
        assert (out / "curve.png").stat().st_size > 0

    plays_a_matgo_game(out / "policy.npz", 4)


def test_two_threads_label_in_a_worker_process(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from madang.rl.train import TrainConfig, train

    cfg = TrainConfig(
        minutes=0.01,
        out=tmp_path / "w",
        threads=2,
        teacher="greedy_hard",
        games=4,
        steps_per_round=2,
        updates_per_round=1,
        hidden=(8,),
        eval_deals=0,
        final_deals=1,
        bc_share=1.0,
    )
    summary = train(cfg, log=lambda _: None)
    # the worker's states (at least one step of its 4 games) joined the learner's
    assert summary["worker_samples"] > 0
    assert summary["samples"] > summary["worker_samples"]
    assert summary["ppo_steps"] == 0 and summary["bc_policy"] is None


def test_a_labeller_ahead_of_the_learner_waits() -> None:
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    import time

    from madang.rl.train import TrainConfig, _Labellers, _Samples
    from madang.rl.vector import VectorGames

    cfg = TrainConfig(teacher="random", games=4, steps_per_round=2, explore=0.0)
    enc = VectorGames("matgo", 1, seed=0).encoding
    samples = _Samples(enc.obs_size, enc.num_actions, 100_000)
    workers = _Labellers(1, cfg)
    time.sleep(4)  # nothing drained: a random teacher labels thousands of states a second
    workers.close(samples)
    # what waited is at most the queue's 8 steps of 4 games, plus the step being sent
    assert 0 < workers.received <= (4 * 2 + 2) * 4


def test_gae_of_a_finished_episode() -> None:
    from madang.rl.ppo import gae

    adv, ret = gae([0.0, 0.0, 3.0], [1.0, 2.0, 0.5], gamma=0.9, lam=0.5)
    d = [0.0 + 0.9 * 2.0 - 1.0, 0.0 + 0.9 * 0.5 - 2.0, 3.0 - 0.5]  # the TD errors
    want = [d[0] + 0.45 * (d[1] + 0.45 * d[2]), d[1] + 0.45 * d[2], d[2]]
    assert np.allclose(adv, want) and np.allclose(ret, np.add(want, [1.0, 2.0, 0.5]))


def test_rollouts_credit_the_learners_points_and_the_loss_decreases() -> None:
    torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from madang.rl.ppo import PPOSettings, ppo_loss, ppo_update

    net, critic, roll = _greedy_rollouts(torch, 5)
    batch = roll.collect(torch, net, critic, 64, (1.0, 1.0))
    assert len(batch) >= 64 and roll.returns and roll.steps >= len(batch)
    # every action sampled was legal; the games' points were paid
    assert batch.mask[np.arange(len(batch)), batch.action].all()
    assert any(roll.returns) and batch.ret.any()
    s = PPOSettings(lr=3e-3, epochs=1, batch=len(batch), entropy=0.0)
    t = {
        "obs": torch.from_numpy(batch.obs),
        "mask": torch.from_numpy(batch.mask),
        "action": torch.from_numpy(batch.action),
        "logp": torch.from_numpy(batch.logp),
        "advantage": torch.from_numpy(
            (batch.advantage - batch.advantage.mean()) / (batch.advantage.std() + 1e-8)
        ),
        "ret": torch.from_numpy(batch.ret),
    }
    with torch.no_grad():
        before, _ = ppo_loss(torch, net, critic, t, s)
    opt = torch.optim.Adam([*net.parameters(), *critic.parameters()], lr=s.lr)
    for _ in range(20):
        ppo_update(torch, net, critic, opt, batch, s, random.Random(1))
    with torch.no_grad():
        after, parts = ppo_loss(torch, net, critic, t, s)
    assert float(after) < float(before)
    assert parts["entropy"] >= 0


def _small_nets(torch: Any) -> tuple[Any, Any]:
    """A Matgo policy and critic of one hidden layer of 32, from torch seed 0."""
    from madang.rl.train import _mlp
    from madang.rl.vector import VectorGames

    torch.manual_seed(0)
    probe = VectorGames("matgo", 1, seed=0)
    net = _mlp(torch, probe.encoding.obs_size, (32,), probe.encoding.num_actions)
    critic = _mlp(torch, probe.encoding.obs_size, (32,), 1)
    return net, critic


def _greedy_rollouts(torch: Any, seed: int) -> tuple[Any, Any, Any]:
    """:func:`_small_nets` and rollouts of 4 Matgo games (deal seed ``seed``) against
    ``greedy``, the points scaled by 10."""
    from madang.bots import Budget, make_bot
    from madang.rl.ppo import Rollouts
    from madang.rl.vector import VectorGames

    net, critic = _small_nets(torch)
    vg = VectorGames("matgo", 4, seed=seed)
    vg.reset()
    roll = Rollouts(vg, make_bot("matgo", "greedy"), Budget(None, 32), random.Random(0), 10.0)
    return net, critic, roll


def test_the_win_bonus_is_credited_to_the_last_decision_of_a_decided_game() -> None:
    torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from madang.bots import Budget, make_bot
    from madang.rl.ppo import Rollouts
    from madang.rl.vector import VectorGames

    net, critic = _small_nets(torch)

    def play(bonus: float) -> tuple[Rollouts, np.ndarray]:
        torch.manual_seed(1)  # the same samples: the same games, only the rewards differ
        vg = VectorGames("matgo", 8, seed=5)
        vg.reset()
        roll = Rollouts(
            vg, make_bot("matgo", "greedy"), Budget(None, 32), random.Random(0), 10.0, bonus
        )
        # λ = 0: a step's return is its own reward plus the next step's value (0 at the end)
        return roll, roll.collect(torch, net, critic, 200, (1.0, 0.0)).ret

    plain_roll, plain = play(0.0)
    bonus_roll, bonus = play(5.0)
    assert plain_roll.returns == bonus_roll.returns  # the points themselves are unchanged
    diff = bonus - plain
    hit = np.flatnonzero(np.abs(diff) > 1e-6)
    decided = [p for p in bonus_roll.returns if p]
    # one step per decided game, none for a draw (a game settled before the learner's
    # first decision, a 총통 at the deal, has no step to credit)
    assert 0 < len(decided) - 2 <= len(hit) <= len(decided)
    # +0.5 (5 points / scale 10) where the game was won, -0.5 where lost: the last step's
    # own reward is the game's settlement, so its sign is the game's
    assert np.allclose(diff[hit], 0.5 * np.sign(plain[hit]))
    assert {1.0, -1.0} <= set(np.sign(plain[hit]).tolist())


def _changes(a: np.ndarray, b: np.ndarray) -> Counter[float]:
    """How often each nonzero difference of two returns occurs (rounded to 0.001)."""
    d = (a - b).astype(np.float64)
    return Counter(round(float(x), 3) for x in d[np.abs(d) > 1e-6])


def test_points_clip_bounds_a_games_points_in_the_reward() -> None:
    torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from madang.bots import Budget, make_bot
    from madang.rl.ppo import Rollouts
    from madang.rl.vector import VectorGames

    net, critic = _small_nets(torch)

    def play(clip: float | None) -> tuple[Rollouts, np.ndarray]:
        torch.manual_seed(1)  # the same samples: the same games, only the rewards differ
        vg = VectorGames("matgo", 8, seed=5)
        vg.reset()
        roll = Rollouts(
            vg, make_bot("matgo", "greedy"), Budget(None, 32), random.Random(0), 10.0, 5.0, clip
        )
        return roll, roll.collect(torch, net, critic, 200, (1.0, 0.0)).ret  # λ = 0

    plain_roll, plain = play(None)
    clip_roll, clipped = play(3.0)
    _, win_only = play(0.0)
    assert plain_roll.returns == clip_roll.returns  # the games themselves are unchanged
    # the last step of every game worth more than 3 points (and only there) changes, by
    # the points past the clip: (±3 - points) / 10
    got = _changes(clipped, plain)
    want = Counter(round((max(-3, min(3, p)) - p) / 10, 3) for p in clip_roll.returns if p)
    assert not got - want and 0 <= want.total() - got.total() <= 2 + sum(
        1 for p in clip_roll.returns if 0 < abs(p) <= 3
    )
    assert any(k > 0 for k in got) and any(k < 0 for k in got)
    # clipped to 0, the points count for nothing: the win bonus alone
    got = _changes(win_only, plain)
    want = Counter(round(-p / 10, 3) for p in clip_roll.returns if p)
    assert not got - want and want.total() - got.total() <= 2


def test_keep_best_ships_the_weights_the_rule_picks(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from madang.rl.learned import NumpyPolicy
    from madang.rl.train import best_row

    out = tmp_path / "best"
    args = ["train", "matgo", "--out", str(out), "--seed", "3", *TINY, "--keep", "best"]
    args[args.index("--eval-deals") + 1] = "6"
    assert main(args) == 0
    with (out / "curve.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    # every row but the final one (on other deals) is a candidate, the last weights too
    candidates = [
        {k: float(r[k]) for k in ("win_rate", "win_rate_ci95", "points_per_game", "wall_s")}
        for r in rows[:-1]
    ]
    assert len(candidates) >= 3 and candidates[-1]["wall_s"] >= summary["train_s"]
    kept = candidates[best_row(candidates) or 0]
    assert summary["kept"]["wall_s"] == kept["wall_s"]
    policy = (out / "policy.npz").read_bytes()
    assert policy == (out / "best.npz").read_bytes() and (out / "last.npz").is_file()
    # the shipped weights are those evaluated in the kept row
    kept_row = rows[candidates.index(kept)]
    meta = NumpyPolicy(out / "policy.npz").meta
    assert meta.get("ppo_steps", 0) == int(kept_row["ppo_steps"])
    assert meta["samples"] == int(kept_row["samples"])
    assert summary["final"]["games"] == 6


def test_keep_best_rule() -> None:
    from madang.rl.train import best_row

    row = {"win_rate": 0.5, "win_rate_ci95": 0.1}
    assert best_row([{"stage": "bc"}]) is None
    # points below 0 lose to any row at or above 0, whatever its win rate
    assert (
        best_row(
            [{**row, "points_per_game": -0.1, "win_rate": 0.9}, {**row, "points_per_game": 0.0}]
        )
        == 1
    )
    # then the win rate's lower bound: a narrower interval can beat a higher rate
    assert (
        best_row(
            [
                {"win_rate": 0.56, "win_rate_ci95": 0.08, "points_per_game": 1.0},
                {"win_rate": 0.54, "win_rate_ci95": 0.02, "points_per_game": 0.5},
            ]
        )
        == 1
    )
    # when none reaches 0 points, the lower bound alone
    assert (
        best_row(
            [
                {"win_rate": 0.4, "win_rate_ci95": 0.05, "points_per_game": -1.0},
                {"win_rate": 0.5, "win_rate_ci95": 0.05, "points_per_game": -9.0},
            ]
        )
        == 1
    )


def test_a_warm_up_update_trains_the_critic_and_leaves_the_policy() -> None:
    torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from madang.rl.ppo import PPOSettings, critic_loss, ppo_update

    net, critic, roll = _greedy_rollouts(torch, 6)
    batch = roll.collect(torch, net, critic, 64, (1.0, 0.95))
    s = PPOSettings(lr=3e-3, epochs=2, batch=32)
    opt = torch.optim.Adam([*net.parameters(), *critic.parameters()], lr=s.lr)
    obs, ret = torch.from_numpy(batch.obs), torch.from_numpy(batch.ret)
    policy = [p.detach().clone() for p in net.parameters()]
    with torch.no_grad():
        before = float(critic_loss(torch, critic, obs, ret))
    for _ in range(5):
        ppo_update(torch, net, critic, opt, batch, s, random.Random(1), critic_only=True)
    assert all(torch.equal(p, q) for p, q in zip(policy, net.parameters(), strict=True))
    with torch.no_grad():
        assert float(critic_loss(torch, critic, obs, ret)) < before
    ppo_update(torch, net, critic, opt, batch, s, random.Random(1))  # then the policy moves
    assert not all(torch.equal(p, q) for p, q in zip(policy, net.parameters(), strict=True))


def test_the_shipped_policy_plays_from_a_clone() -> None:
    from madang.rl.learned import NumpyPolicy

    path = Path(__file__).resolve().parents[2] / "docs" / "rl" / "train_matgo_policy.npz"
    assert path.stat().st_size < 1_200_000  # small enough to ship (docs/rl/train.md)
    assert NumpyPolicy(path).meta["prior"] == "greedy_hard"  # the fourth run's
    plays_a_matgo_game(path, 11)


class _ValueRecorder:
    """The ``search_q`` teacher at 2 worlds, keeping every view it was shown, the legal
    actions and what it answered."""

    def __init__(self) -> None:
        from madang.rl.train import make_teacher

        self.teacher = make_teacher("matgo", "search_q", 2)
        self.seen: list[tuple[dict[str, Any], list[int], int, list[float] | None]] = []

    def values(
        self, view: dict[str, Any], legal: list[int], rng: random.Random
    ) -> tuple[int, list[float] | None]:
        label, v = self.teacher.values(view, legal, rng)
        self.seen.append((view, list(legal), label, v))
        return label, v


def test_the_value_teacher_sees_the_seats_view_and_values_the_legal_actions() -> None:
    import copy

    from madang.bots import Budget
    from madang.matgo.view import view
    from madang.rl.train import _collect, _Samples
    from madang.rl.vector import VectorGames

    vg = VectorGames("matgo", 4, seed=11)
    vg.reset()
    enc = vg.encoding
    teacher = _ValueRecorder()
    samples = _Samples(enc.obs_size, enc.num_actions, 10_000, values=True)
    expected = []  # what the teacher must have been shown: each seat's own view
    for _ in range(60):
        states_before = [copy.deepcopy(st) for st in vg.states]
        seats, masks = vg.seats.tolist(), vg.mask.copy()
        for i, st in enumerate(states_before):
            if masks[i].sum() > 1:
                expected.append((view(st, seats[i]), seats[i]))
        _collect(vg, teacher, Budget(None, 1), samples, 1, 0.0, random.Random(0))
    assert samples.n == len(teacher.seen) == len(expected) > 60
    assert samples.values is not None and samples.hard is not None
    hard = 0
    for k, ((shown, legal, label, v), (want, seat)) in enumerate(
        zip(teacher.seen, expected, strict=True)
    ):
        assert shown == want and shown["seat"] == seat
        # its own hand; of the opponent's and the draw pile, only their sizes
        assert "hands" not in shown and isinstance(shown["pile"], int)
        assert samples.label[k] == label and label in legal
        assert np.flatnonzero(samples.mask[k]).tolist() == sorted(legal)
        if v is None:  # 고/스톱: greedy_hard's hard label, no values
            hard += 1
            assert samples.hard[k] and not samples.values[k].any()
            continue
        assert not samples.hard[k] and len(v) == len(legal)
        # one value per legal action, in place; nothing at the illegal ones
        assert samples.values[k, legal].tolist() == pytest.approx(v)
        assert not samples.values[k, ~samples.mask[k]].any()
        assert all(0.0 <= x <= 1.0 for x in v)  # chances of winning
        assert v[legal.index(label)] == max(v)  # the label is the best value's action
    assert hard < len(expected)


def test_action_values_depend_on_the_view_alone() -> None:
    """Two games that differ only in what the seat cannot see (the opponent's hand and the
    draw pile) give the seat the same view, so the same values for the same sampling."""
    from madang.bots.matgo_search import action_values
    from madang.matgo.engine import new_game
    from madang.matgo.view import view

    g = new_game(seed=3)
    me = g.current
    other = g.clone()
    other.resample_hidden(me, random.Random(9))  # the unseen cards dealt differently
    assert other.hands[1 - me] != g.hands[1 - me] or other.pile != g.pile
    assert view(other, me) == view(g, me)
    legal = g.legal_actions()
    for leaf in ("win", "points"):
        a = action_values(view(g, me), legal, random.Random(5), 3, leaf)  # type: ignore[arg-type]
        b = action_values(view(other, me), legal, random.Random(5), 3, leaf)  # type: ignore[arg-type]
        assert a == b and len(a) == len(legal) and len(set(a)) > 1
    with pytest.raises(RuleConfigError, match="leaf"):
        action_values(view(g, me), legal, random.Random(5), 1, "nonsense")  # type: ignore[arg-type]


def test_distill_loss_of_a_perfect_fit_and_a_hard_label() -> None:
    """Two decisions: the first's logits fit the values exactly (centred, over its two
    legal actions: 2 - 0 = (0.2 - 0) / 0.1), so it costs 0; the second is a hard label
    over logits (1, 0, 0): -log(e / (e + 2)) = log(1 + 2/e). The mean is half that."""
    import math

    from madang.rl.train import distill_loss

    torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    raw = torch.tensor([[0.0, 2.0, 9.0], [1.0, 0.0, 0.0]])
    mask = torch.tensor([[True, True, False], [True, True, True]])
    q = torch.tensor([[0.0, 0.2, 0.0], [0.0, 0.0, 0.0]])
    hard = torch.tensor([False, True])
    y = torch.tensor([1, 0])
    loss = distill_loss(torch, raw, mask, y, q, hard, "mse", 0.1)
    assert float(loss) == pytest.approx(math.log(1 + 2 / math.e) / 2, abs=1e-6)
    soft = distill_loss(torch, raw, mask, y, q, hard, "soft", 0.1)
    assert float(soft) == pytest.approx(math.log(1 + 2 / math.e) / 2, abs=1e-6)  # KL 0 too


def test_distillation_loss_falls_on_a_tiny_run() -> None:
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    import torch

    from madang.bots import Budget
    from madang.rl.train import TrainConfig, _bc_round, _collect, _mlp, _Samples, make_teacher
    from madang.rl.vector import VectorGames

    vg = VectorGames("matgo", 8, seed=2)
    vg.reset()
    enc = vg.encoding
    samples = _Samples(enc.obs_size, enc.num_actions, 10_000, values=True)
    rng = random.Random(0)
    _collect(vg, make_teacher("matgo", "search_q", 1), Budget(None, 1), samples, 12, 0.1, rng)
    assert samples.hard is not None and (~samples.hard[: samples.n]).sum() > 50
    for how in ("soft", "mse"):
        torch.manual_seed(0)
        net = _mlp(torch, enc.obs_size, (32,), enc.num_actions)
        opt = torch.optim.Adam(net.parameters(), lr=3e-3)
        cfg = TrainConfig(distill=how, temperature=0.02, batch=32, updates_per_round=10)
        first = _bc_round(torch, net, opt, samples, cfg, rng)
        for _ in range(5):
            last = _bc_round(torch, net, opt, samples, cfg, rng)
        assert first is not None and last is not None
        assert last[0] < 0.7 * first[0], (how, first, last)


def test_two_threads_carry_the_values_from_the_worker(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from madang.rl.train import TrainConfig, _Labellers, _Samples
    from madang.rl.vector import VectorGames

    cfg = TrainConfig(teacher="search_q", teacher_iterations=1, games=4, steps_per_round=2)
    enc = VectorGames("matgo", 1, seed=0).encoding
    samples = _Samples(enc.obs_size, enc.num_actions, 100_000, values=True)
    workers = _Labellers(1, cfg)
    workers.close(samples)  # at least one step of its 4 games
    assert workers.received == samples.n > 0
    assert samples.values is not None and samples.hard is not None
    valued = ~samples.hard[: samples.n]
    assert valued.any()
    got = samples.values[: samples.n][valued]
    mask = samples.mask[: samples.n][valued]
    assert (got[~mask] == 0).all() and ((got >= 0) & (got <= 1)).all() and got.max() > 0
    # the label is a legal action of the best value
    for k in np.flatnonzero(valued):
        assert samples.values[k, samples.label[k]] == samples.values[k][samples.mask[k]].max()


def test_a_distilling_run_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    out = tmp_path / "q"
    tiny = [*TINY[: TINY.index("--teacher")], *TINY[TINY.index("--teacher") + 2 :]]
    args = ["--teacher", "search_q", "--teacher-iterations", "1", "--warm-share", "0.3"]
    assert main(["train", "matgo", "--out", str(out), *tiny, *args, "--distill", "mse"]) == 0
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["samples"] > 0 and summary["config"]["distill"] == "mse"
    from madang.rl.learned import NumpyPolicy

    assert NumpyPolicy(out / "policy.npz").meta["distill"] == "mse"
    plays_a_matgo_game(out / "policy.npz", 4)


def test_one_drain_takes_every_step_a_worker_has_put() -> None:
    """A step of 32 games (about 70 kB of observations) is larger than a pipe's buffer,
    and the worker's feeder thread writes the next one only between its labelling (a
    teacher that holds the interpreter): one drain must still take every step already
    put, not only what is in the pipe."""
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    import time

    from madang.rl.train import TrainConfig, _Labellers, _Samples
    from madang.rl.vector import VectorGames

    cfg = TrainConfig(teacher="greedy_hard", games=32, steps_per_round=2, explore=0.0)
    enc = VectorGames("matgo", 1, seed=0).encoding
    samples = _Samples(enc.obs_size, enc.num_actions, 100_000)
    workers = _Labellers(1, cfg)
    try:
        waiting = 0
        for _ in range(100):  # the queue full: 4 * 2 steps
            time.sleep(0.1)
            try:
                waiting = workers.queue.qsize()
            except NotImplementedError:
                pytest.skip("qsize is not implemented on this platform")
            if waiting == 8:
                break
        assert waiting == 8
        got = workers.drain(samples)
        # the 8 steps' real decisions (most of the 32 games' each step; one step's
        # at most were taken before the fix)
        assert got == samples.n >= 6 * 16, got
    finally:
        workers.close(samples)
