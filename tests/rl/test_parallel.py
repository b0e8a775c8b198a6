"""The PettingZoo Parallel environments: PettingZoo's own API and seed tests, the same
games as the AEC environments (a claim window answered in one step), only the acting
agents act, and bad actions raise and change nothing."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import parallel_api_test, parallel_seed_test

from madang.core.errors import IllegalActionError, InvalidActionError
from madang.rl import mahjong_v0, matgo_v0

MODULES: dict[str, Any] = {"matgo": matgo_v0, "mahjong": mahjong_v0}


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_pettingzoo_parallel_api(game: str) -> None:
    parallel_api_test(MODULES[game].parallel_env(), num_cycles=300)


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_pettingzoo_parallel_seed(game: str) -> None:
    parallel_seed_test(MODULES[game].parallel_env, num_cycles=300)


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_the_same_games_as_the_aec_env(game: str) -> None:
    """Step for step with the AEC env on the same deals: the acting agents are the ones
    the AEC env selects in turn (several at once in a mahjong claim window), with the
    same observations and masks; the rewards add up to the same returns."""
    par = MODULES[game].parallel_env()
    aec = MODULES[game].raw_env()
    several = 0
    # (random play rarely asks two seats about one discard: hands 133 and 398 do)
    for seed in range(8) if game == "matgo" else (0, 1, 2, 133, 398):
        rng = random.Random(seed)
        obs, _ = par.reset(seed=seed)
        aec.reset(seed=seed)
        while all(aec.terminations.values()):  # (par skips a deal that ends at once)
            aec.reset()
        assert aec.deal_seed == par.deal_seed
        returns = dict.fromkeys(par.possible_agents, 0.0)
        aec_returns = dict.fromkeys(par.possible_agents, 0.0)
        while par.agents:
            acting = par.acting()
            assert sorted(acting) == [a for a in par.agents if obs[a]["action_mask"].any()]
            several += len(acting) > 1
            actions = {}
            for agent in acting:
                assert aec.agent_selection == agent
                want = aec.observe(agent)
                for key in ("observation", "action_mask"):
                    assert np.array_equal(obs[agent][key], want[key])
                actions[agent] = rng.choice(np.flatnonzero(want["action_mask"]).tolist())
                aec.step(actions[agent])
                for a in aec.possible_agents:
                    aec_returns[a] += aec.rewards[a]
            # the others' actions are ignored, whatever they are
            actions |= {a: 0 for a in par.agents if a not in acting}
            obs, rewards, term, trunc, _ = par.step(actions)
            for a, r in rewards.items():
                returns[a] += r
            assert not any(trunc.values())
            assert all(term.values()) == (not par.agents)
        assert all(aec.terminations.values())
        assert returns == aec_returns
        assert sum(returns.values()) == 0
    if game == "mahjong":
        assert several > 0, "no claim window asked several seats"


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_bad_actions_raise_and_change_nothing(game: str) -> None:
    from madang.rl.parallel import MadangParallelEnv

    env = MadangParallelEnv(game)
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})
    obs, _ = env.reset(seed=4)
    (agent,) = env.acting()
    mask = obs[agent]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    for bad, error in (
        ({}, InvalidActionError),
        ({agent: illegal}, IllegalActionError),
        ({agent: -1}, InvalidActionError),
        ({agent: "play"}, InvalidActionError),
    ):
        with pytest.raises(error):
            env.step(bad)
        assert env.acting() == [agent]
    legal = int(np.flatnonzero(mask)[0])
    env.step({agent: np.int64(legal)})
    assert env.agents


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_an_illegal_action_ends_the_game_in_parallel_env(game: str) -> None:
    env = MODULES[game].parallel_env()
    obs, _ = env.reset(seed=4)
    (agent,) = env.acting()
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    _, rewards, term, trunc, _ = env.step({agent: illegal})
    assert rewards == {a: (-1.0 if a == agent else 0.0) for a in env.possible_agents}
    assert all(term.values()) and all(trunc.values()) and not env.agents


def test_a_deal_that_ends_at_once_is_not_played() -> None:
    """Under instant 총통 (strict) a deal can end the game at once: the Parallel env
    deals the next one (no reward at reset), the same deal the AEC env plays next."""
    par = matgo_v0.parallel_env(preset="strict")
    aec = matgo_v0.raw_env(preset="strict")
    for seed in range(500):
        aec.reset(seed=seed)
        if all(aec.terminations.values()):
            break
    else:
        pytest.fail("no deal ended the game at once")
    par.reset(seed=seed)
    aec.reset()
    assert par.deal_seed == aec.deal_seed and par.agents
