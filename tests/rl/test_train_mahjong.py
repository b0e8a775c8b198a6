"""``madang train mahjong``: the command end to end at tiny sizes, its weights as a bot in
the mahjong arena, the teacher's labels from the seat's view, the masks, bad options."""

from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any

import pytest
from tests.rl.test_train import TINY_PPO

from madang.bots import Budget
from madang.cli import main
from madang.core.errors import RuleConfigError

np = pytest.importorskip("numpy")


def _policy(tmp_path: Path, game: str, sizes: tuple[int, int], name: str = "p.npz") -> Path:
    """A policy of random weights saved as ``madang train`` saves one (numpy only)."""
    rng = np.random.default_rng(0)
    w0 = rng.normal(size=(sizes[0], 8)).astype(np.float32)
    w1 = rng.normal(size=(8, sizes[1])).astype(np.float32)
    path = tmp_path / name
    meta = np.array(f'{{"game": "{game}", "layers": 2}}')
    np.savez(path, W0=w0, b0=np.zeros(8, np.float32), W1=w1, b1=np.zeros(sizes[1]), meta=meta)
    return path


def test_a_matgo_policy_is_refused_at_a_mahjong_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from madang.rl.learned import LearnedBot

    matgo = _policy(tmp_path, "matgo", (547, 175))
    with pytest.raises(RuleConfigError, match="a matgo policy, not a mahjong one"):
        LearnedBot("mahjong", matgo)
    # a file that says mahjong but maps other sizes (an old encoding's) is refused too
    odd = _policy(tmp_path, "mahjong", (400, 130), "odd.npz")
    with pytest.raises(RuleConfigError, match="400 numbers to 130 actions"):
        LearnedBot("mahjong", odd)
    args = ["arena", "mahjong", "--a", f"learned:{matgo}", "--others", "normal", "--hands", "4"]
    assert main([*args, "--no-progress"]) == 2
    assert "is a matgo policy" in capsys.readouterr().err
    LearnedBot("mahjong", _policy(tmp_path, "mahjong", (482, 130), "ok.npz"))  # the right one


TINY = [
    "--minutes",
    "0.02",
    "--games",
    "4",
    "--steps-per-round",
    "4",
    "--updates-per-round",
    "4",
    "--hidden",
    "16",
    "--eval-every",
    "0.005",
    "--eval-deals",
    "1",
    "--final-deals",
    "2",
    *TINY_PPO,
]


def test_without_the_train_extra_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "torch", None)  # import torch raises ImportError
    assert main(["train", "mahjong", "--out", str(tmp_path / "o"), *TINY]) == 2
    assert "train extra" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        (["--preset", "nope"], "--preset: unknown mahjong rules preset 'nope'"),
        (["--teacher", "greedy"], "--teacher: unknown mahjong bot 'greedy'"),  # Matgo's
        (["--opponent", "nobody"], "--opponent: unknown mahjong bot 'nobody'"),
        (["--minutes", "0"], "--minutes must be positive"),
        (["--explore", "1.5"], "--explore must lie in [0, 1]"),
        (["--hidden", "0"], "--hidden must be positive"),
        (["--win-bonus", "-1"], "--win-bonus cannot be negative"),
        (["--init", "/nonexistent/policy.npz"], "--init /nonexistent/policy.npz: no such file"),
    ],
    ids=["preset", "teacher", "opponent", "minutes", "explore", "hidden", "bonus", "init"],
)
def test_bad_options_are_typed_errors_that_change_nothing(
    tmp_path: Path, bad: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["train", "mahjong", "--out", str(tmp_path / "o"), *TINY, *bad]) == 2
    assert capsys.readouterr().err.startswith(f"madang: error: {says}")
    assert not (tmp_path / "o").exists()
    from madang.rl.train_mahjong import MahjongTrainConfig

    with pytest.raises(RuleConfigError):
        MahjongTrainConfig(preset="nope").check()


def test_an_init_of_other_sizes_is_refused_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    other = _policy(tmp_path, "mahjong", (482, 130))  # one layer of 8, not --hidden 16
    out = tmp_path / "o"
    assert main(["train", "mahjong", "--out", str(out), *TINY, "--init", str(other)]) == 2
    assert "layers" in capsys.readouterr().err and not out.exists()


def test_the_command_runs_end_to_end_and_its_policy_plays_in_the_arena(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import csv
    import json

    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    out = tmp_path / "run"
    args = ["train", "mahjong", "--out", str(out), "--seed", "3", "--preset", "yangpan"]
    assert main([*args, *TINY]) == 0
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert printed["policy"] == str(out / "policy.npz") and printed["samples"] > 0
    # the final evaluation: 2 walls, each played four times (the policy at each seat)
    assert printed["games"] == 8 and printed["opponent"] == "normal"
    assert 0 <= printed["win_rate"] <= 1 and 0 <= printed["deal_in_rate"] <= 1
    with (out / "curve.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) >= 3 and rows[0]["samples"] == "0" and int(rows[-1]["samples"]) > 0
    assert all(r["points_per_game"] and r["others_win_rate"] for r in rows)
    stages = [r["stage"] for r in rows]
    assert stages[0] == "bc" and stages[-1] == "ppo" and stages == sorted(stages)
    assert int(rows[-1]["ppo_steps"]) >= 24
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["game"] == "mahjong" and summary["config"]["preset"] == "yangpan"
    assert summary["final"]["games"] == 8 and summary["bc_end"]["stage"] == "bc"
    from madang.rl.learned import NumpyPolicy

    bc, final = NumpyPolicy(out / "bc.npz"), NumpyPolicy(out / "policy.npz")
    assert final.meta["game"] == bc.meta["game"] == "mahjong"
    assert final.meta["preset"] == "yangpan" and final.meta["ppo_steps"] > 0
    try:
        import matplotlib  # noqa: F401 (the curve is drawn where it is installed)
    except ImportError:
        assert not (out / "curve.png").exists()
    else:
        assert (out / "curve.png").stat().st_size > 0
    # the policy is a bot of the mahjong arena's command line
    arena = ["arena", "mahjong", "--a", f"learned:{out / 'policy.npz'}", "--others", "normal"]
    assert main([*arena, "--hands", "8", "--seed", "2026", "--json", "--no-progress"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["games"] == 8 and r["a"] == f"learned:{out / 'policy.npz'}"
    assert r["faults"]["a"]["total"] == 0


class _Recorder:
    """The ``normal`` bot, keeping every view it was shown and what it answered."""

    def __init__(self) -> None:
        from madang.bots import make_bot

        self.bot = make_bot("mahjong", "normal")
        self.seen: list[tuple[dict[str, Any], list[int], int]] = []

    def act(self, view: dict[str, Any], legal: list[int], rng: Random, budget: Budget) -> int:
        a = int(self.bot.act(view, legal, rng, budget))
        self.seen.append((view, list(legal), a))
        return a


def test_the_cloning_labels_come_from_the_seats_view() -> None:
    import copy
    import random

    from madang.mahjong.view import view
    from madang.rl.train import _collect, _Samples
    from madang.rl.vector import VectorGames

    vg = VectorGames("mahjong", 4, seed=11, preset="yangpan")
    vg.reset()
    enc = vg.encoding
    teacher = _Recorder()
    samples = _Samples(enc.obs_size, enc.num_actions, 10_000)
    expected = []  # what the teacher must have been shown: each seat's own view
    states_before = []
    for _ in range(40):
        states_before = [copy.deepcopy(st) for st in vg.states]
        seats = vg.seats.tolist()
        masks = vg.mask.copy()
        for i, st in enumerate(states_before):
            if masks[i].sum() > 1:
                expected.append((view(st, seats[i]), seats[i]))
        _collect(vg, teacher, Budget(None, 1), samples, 1, 0.0, random.Random(0))
    assert samples.n == len(teacher.seen) == len(expected) > 40
    for k, ((shown, legal, label), (want, seat)) in enumerate(
        zip(teacher.seen, expected, strict=True)
    ):
        assert shown == want and shown["seat"] == seat
        assert all(p["hand"] is None for p in shown["players"] if p["seat"] != seat)
        # the label is the teacher's answer, the sample its seat's observation and mask
        assert samples.label[k] == label and samples.mask[k, label]
        assert np.array_equal(samples.obs[k], enc.observe(want))
        assert np.flatnonzero(samples.mask[k]).tolist() == sorted(legal)


def test_the_policy_never_picks_an_illegal_action(tmp_path: Path) -> None:
    import random

    torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from madang.arena import run_arena
    from madang.bots import make_bot
    from madang.mahjong.encode import MahjongEncoding
    from madang.rl.learned import register_learned
    from madang.rl.ppo import Rollouts
    from madang.rl.train import _mlp, save_policy
    from madang.rl.vector import VectorGames

    enc = MahjongEncoding()
    torch.manual_seed(0)
    net = _mlp(torch, enc.obs_size, (16,), enc.num_actions)
    with torch.no_grad():  # a policy that would call 깡, 쏘아 and 쯔모 at every decision
        net[-1].bias[[125, 126, 128]] = 1e4
    # fine-tuning samples from the masked softmax: every action taken was legal
    vg = VectorGames("mahjong", 4, seed=5)
    vg.reset()
    critic = _mlp(torch, enc.obs_size, (16,), 1)
    roll = Rollouts(vg, make_bot("mahjong", "normal"), Budget(None, 1), random.Random(0), 10.0)
    batch = roll.collect(torch, net, critic, 96, (1.0, 0.95))
    assert len(batch) >= 96 and batch.mask[np.arange(len(batch)), batch.action].all()
    favoured = batch.mask[:, [125, 126, 128]].any(axis=1)
    assert (~favoured).sum() > 48  # mostly they were not legal: something else was picked
    assert np.isin(batch.action[favoured], [125, 126, 128]).all()  # and where they were
    # the saved policy at the table: the arena plays every hand to its end (an illegal
    # answer from a built-in bot would raise IllegalBotAction)
    save_policy(net, tmp_path / "p.npz", "mahjong", {})
    name = register_learned("mahjong", tmp_path / "p.npz")
    r = run_arena("mahjong", [name, "normal", "normal", "normal"], deals=2, seed=1)
    assert r["games"] == 8
    bot = make_bot("mahjong", name)
    vg = VectorGames("mahjong", 8, seed=6)
    vg.reset()
    from madang.mahjong.view import view

    for _ in range(30):
        acts = []
        for i, st in enumerate(vg.states):
            legal = np.flatnonzero(vg.mask[i]).tolist()
            a = bot.act(view(st, int(vg.seats[i])), legal, random.Random(0), Budget())
            assert a in legal
            acts.append(a)
        vg.step(np.array(acts))


def test_a_labelling_worker_plays_the_game_and_preset_it_is_given() -> None:
    import queue
    import threading

    from madang.rl.train import _label_worker

    out: queue.Queue[dict[str, Any]] = queue.Queue()
    stop = threading.Event()
    stop.set()  # one step, then it returns
    _label_worker(4, 4, "normal", 1, 1, 0.0, out, stop, "mahjong", "yangpan")
    sent = out.get_nowait()
    assert sorted(sent) == ["label", "mask", "obs"]  # no values, no prior rows
    obs, mask, label = sent["obs"], sent["mask"], sent["label"]
    assert obs.shape[1] == 482 and mask.shape[1] == 130
    assert all(mask[k, label[k]] for k in range(len(label)))
