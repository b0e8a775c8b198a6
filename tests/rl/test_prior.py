"""A policy's prior (``madang train matgo --prior greedy_hard``): the prior's row from a
seat's view, the student that reads it, its saved weights as a bot, bad settings."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.rl.learned_game import plays_a_matgo_game
from tests.rl.test_train import TINY

from madang.cli import main
from madang.core.errors import RuleConfigError
from madang.rl.prior import PRIOR_CLIP, greedy_hard_prior, prior_of


def _states(seed: int, plays: int) -> list[tuple[object, list[int]]]:
    """The decisions of a random game of ``seed`` (the first ``plays`` of them)."""
    from madang.matgo.engine import new_game
    from madang.matgo.view import view

    rng = random.Random(seed)
    g = new_game(seed=seed)
    out = []
    while not g.over and len(out) < plays:
        legal = g.legal_actions()
        out.append((view(g, g.current), list(legal)))
        g.step(rng.choice(legal))
    return out


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_the_prior_marks_the_valuations_choice(seed: int) -> None:
    from madang.bots.matgo_greedy import Knowledge, choose, play_values
    from madang.bots.matgo_search import HARD_WEIGHTS
    from madang.matgo.engine import Phase

    for seen, legal in _states(seed, 40):
        row = greedy_hard_prior(seen, legal, 175)  # type: ignore[arg-type]
        illegal = np.ones(175, dtype=bool)
        illegal[legal] = False
        assert not row[illegal].any()
        if len(legal) == 1:
            assert not row.any()
            continue
        k = Knowledge.from_view(seen, HARD_WEIGHTS)  # type: ignore[arg-type]
        pick = choose(k, legal)
        assert row[pick] == 0.0  # the greedy bot's move is the prior's best
        assert (row[legal] <= 0).all() and (row[legal] >= -PRIOR_CLIP).all()
        if k.phase is Phase.PLAY:
            values = play_values(k, legal)
            for a, v in zip(legal, values, strict=True):
                assert row[a] == pytest.approx(max(v - max(values), -PRIOR_CLIP), abs=1e-5)
        else:
            assert sorted(row[legal].tolist()) == [-1.0] * (len(legal) - 1) + [0.0]


def test_an_unknown_prior_is_refused() -> None:
    with pytest.raises(RuleConfigError, match="no prior 'nope' for matgo"):
        prior_of("matgo", "nope")
    with pytest.raises(RuleConfigError, match="known: none"):
        prior_of("mahjong", "greedy_hard")


def test_saved_prior_weights_give_the_students_logits(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from madang.rl.learned import NumpyPolicy
    from madang.rl.train import Student, load_policy, save_policy

    torch.manual_seed(0)
    student = Student(torch, 10, (8,), 5, "greedy_hard")
    assert float(student.beta.detach()) == 0.0  # the prior's weight is learnt from nothing
    with torch.no_grad():
        student.beta.fill_(1.5)
    save_policy(student.net, tmp_path / "p.npz", "matgo", {"prior": "greedy_hard"}, student.beta)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 10)).astype(np.float32)
    prior = -rng.uniform(0, 5, size=(3, 5)).astype(np.float32)
    want = student(torch.from_numpy(x), torch.from_numpy(prior)).detach().numpy()
    pol = NumpyPolicy(tmp_path / "p.npz")
    assert pol.prior == "greedy_hard" and pol.beta == pytest.approx(1.5)
    assert np.allclose(pol.logits(x, prior), want, atol=1e-5)
    with pytest.raises(ValueError, match="prior greedy_hard"):
        pol.logits(x)
    other = Student(torch, 10, (8,), 5, "greedy_hard")
    load_policy(torch, other.net, tmp_path / "p.npz", other.beta)
    assert float(other.beta.detach()) == pytest.approx(1.5)
    assert torch.allclose(other(torch.from_numpy(x), torch.from_numpy(prior)), torch.tensor(want))


def test_a_prior_without_its_scale_is_no_policy(tmp_path: Path) -> None:
    import json

    from madang.rl.learned import NumpyPolicy

    bad = tmp_path / "p.npz"
    meta = json.dumps({"game": "matgo", "layers": 1, "prior": "greedy_hard"})
    np.savez(bad, W0=np.zeros((2, 2)), b0=np.zeros(2), meta=np.array(meta))
    with pytest.raises(RuleConfigError, match="beta"):
        NumpyPolicy(bad)


def test_a_prior_needs_cloning_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "o"
    assert main(["train", "matgo", "--out", str(out), *TINY, "--prior", "greedy_hard"]) == 2
    assert "--prior needs --bc-share 1" in capsys.readouterr().err
    assert not out.exists()


def test_a_run_with_the_prior_plays_as_a_bot(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from madang.rl.learned import NumpyPolicy

    out = tmp_path / "run"
    args = [*TINY, "--bc-share", "1", "--prior", "greedy_hard", "--teacher", "greedy_hard"]
    assert main(["train", "matgo", "--out", str(out), *args]) == 0
    pol = NumpyPolicy(out / "policy.npz")
    assert pol.prior == "greedy_hard" and pol.beta is not None and pol.beta != 0.0
    assert pol.layers[0][0].shape[0] == 547 + 175  # the observation and the prior's row
    plays_a_matgo_game(out / "policy.npz", seed=5)


def test_hard_play_plays_the_cards_as_hard_and_answers_the_rest_as_greedy_hard() -> None:
    from madang.bots import Budget, make_bot
    from madang.bots.matgo_greedy import Knowledge, choose
    from madang.bots.matgo_search import HARD_WEIGHTS
    from madang.matgo.engine import Phase
    from madang.rl.train import HardPlay, make_teacher

    teacher = make_teacher("matgo", "hard_play")
    assert isinstance(teacher, HardPlay)
    hard = make_bot("matgo", "hard")
    phases: set[Phase] = set()
    for seed in range(12):
        for seen, legal in _states(seed, 60):
            if len(legal) == 1:
                continue
            got = teacher.act(seen, legal, random.Random(seed), Budget(None, 2))  # type: ignore[arg-type]
            k = Knowledge.from_view(seen, HARD_WEIGHTS)  # type: ignore[arg-type]
            phases.add(k.phase)
            if k.phase in (Phase.PLAY, Phase.PICK_PLAY, Phase.PICK_FLIP):
                want = hard.act(seen, legal, random.Random(seed), Budget(None, 2))  # type: ignore[arg-type]
            else:
                want = choose(k, legal)
            assert got == want
    assert {Phase.PLAY, Phase.GO_STOP} <= phases


def test_a_prior_run_with_a_search_teacher_and_a_worker(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    import json

    out = tmp_path / "run"
    tiny = [*TINY[: TINY.index("--teacher")], *TINY[TINY.index("--teacher") + 2 :]]
    tiny = [*tiny[: tiny.index("--threads")], *tiny[tiny.index("--threads") + 2 :]]
    args = ["--bc-share", "1", "--prior", "greedy_hard", "--teacher", "hard_play"]
    args += ["--teacher-iterations", "1", "--warm-share", "0.5", "--threads", "2"]
    assert main(["train", "matgo", "--out", str(out), *tiny, *args, "--minutes", "0.05"]) == 0
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["worker_samples"] > 0 and summary["config"]["prior"] == "greedy_hard"
    plays_a_matgo_game(out / "policy.npz", seed=6)


def test_a_workers_states_come_with_their_prior_rows() -> None:
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    import time

    from madang.rl.train import TrainConfig, _Labellers, _Samples
    from madang.rl.vector import VectorGames

    cfg = TrainConfig(
        teacher="greedy_hard", prior="greedy_hard", bc_share=1, games=4, steps_per_round=2
    )
    enc = VectorGames("matgo", 1, seed=0).encoding
    samples = _Samples(enc.obs_size, enc.num_actions, 10_000, prior=True)
    workers = _Labellers(1, cfg)
    try:
        for _ in range(100):
            time.sleep(0.1)
            if workers.drain(samples) and samples.n >= 8:
                break
    finally:
        workers.close(samples)
    assert samples.prior is not None and samples.n >= 8
    below = 0
    for k in range(samples.n):
        legal = np.flatnonzero(samples.mask[k])
        row = samples.prior[k]
        assert len(legal) > 1 and row[samples.label[k]] == 0.0  # greedy_hard's own choice
        assert (row[legal] <= 0).all() and not row[~samples.mask[k]].any()
        below += bool((row[legal] < 0).any())
    assert below > samples.n // 2  # (two plays may be worth the same)
