"""The Gymnasium single-agent environment: Gymnasium's checker, masks, returns."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")

import numpy as np
from gymnasium.utils.env_checker import check_env

from madang.core.errors import RuleConfigError
from madang.rl.single import SingleAgentEnv


@pytest.mark.parametrize(
    ("game", "opponents"), [("matgo", ["greedy"]), ("mahjong", ["random", "easy", "normal"])]
)
def test_gymnasium_check_env(game: str, opponents: list[str]) -> None:
    check_env(SingleAgentEnv(game, opponents=opponents), skip_render_check=True)


@pytest.mark.parametrize(
    ("game", "preset"),
    [("matgo", None), ("mahjong", None), ("gostop", None), ("gostop", "gwangpalgi")],
)
def test_episodes_with_masked_random_actions(game: str, preset: str | None) -> None:
    """(고스톱 of four, 광팔기: an agent a seat of the rules, 광값 in the returns.)"""
    env = SingleAgentEnv(game, preset=preset, opponents=["random"], seat=None)
    rng = np.random.default_rng(0)
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            assert mask.any() and np.array_equal(mask, info["action_mask"])
            obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            total += reward
            assert env.observation_space.contains(obs) and not truncated
        assert not env.action_masks().any()
        session = env.aec.session
        assert session is not None
        net = sum(p for _, to, p, _ in session.payments() if to == env.seat) - sum(
            p for frm, _, p, _ in session.payments() if frm == env.seat
        )
        assert total == net


def test_same_seed_same_episode() -> None:
    def run() -> list[float]:
        env = SingleAgentEnv("matgo", opponents=["hard"])
        obs, _ = env.reset(seed=5)
        out = [float(obs.sum())]
        done = False
        while not done:
            obs, r, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            out += [float(obs.sum()), r]
        return out

    assert run() == run()


def test_bad_opponents() -> None:
    with pytest.raises(RuleConfigError):
        SingleAgentEnv("matgo", opponents=["no_such_bot"])
    with pytest.raises(ValueError):
        SingleAgentEnv("mahjong", opponents=["random", "random"])
