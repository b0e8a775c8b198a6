"""The batched path: its observations and masks are the view-based ones, its rewards
the payments, finished games are dealt anew."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")

from madang.rl.vector import VectorGames  # noqa: E402


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_vector_matches_the_views(game: str) -> None:
    vg = VectorGames(game, 6, seed=1)
    obs, mask = vg.reset()
    rng = np.random.default_rng(0)
    ended = 0
    views = __import__(f"madang.{game}.view", fromlist=["view"]).view
    for _ in range(150 if game == "matgo" else 120):
        for i, st in enumerate(vg.states):
            seat = int(vg.seats[i])
            v = views(st, seat)
            assert np.array_equal(obs[i], vg.encoding.observe(v))
            legal = vg.fast.legal_ids(st, seat)
            assert np.flatnonzero(mask[i]).tolist() == sorted(legal)
        before = [list(vg.fast.payments(st)) for st in vg.states]
        obs, mask, rewards, done = vg.step(np.argmax(mask * rng.random(mask.shape), axis=1))
        assert (rewards.sum(1) == 0).all()
        ended += int(done.sum())
        for i in np.flatnonzero(~done):
            new = list(vg.fast.payments(vg.states[i]))[len(before[i]) :]
            assert (
                sum(p for _, to, p, _ in new if to == 0)
                - sum(p for frm, _, p, _ in new if frm == 0)
                == rewards[i, 0]
            )
    assert ended > 0
    assert mask.any(1).all()


def _net(payments: Any, seat: int) -> float:
    return float(sum(p for _, to, p, _ in payments if to == seat)) - sum(
        p for frm, _, p, _ in payments if frm == seat
    )


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_gymnasium_vector_env_with_action_masks(game: str) -> None:
    """``gymnasium.make_vec`` of the registered id: every row is the learner's question
    (its observation and mask from the engine state, the mask never empty, also in the
    info), the opponents' moves are played in between, an episode's rewards add up to
    the learner's net payment from its first decision on, and a finished row starts its
    next game in the same step (final observation in the info)."""
    import gymnasium

    import madang.rl
    from madang.rl.vector import MadangVectorEnv

    env = gymnasium.make_vec(madang.rl.GYM_IDS[game], num_envs=5, seat=None)
    raw = env.unwrapped
    assert isinstance(raw, MadangVectorEnv)
    obs, infos = env.reset(seed=4)
    rng = np.random.default_rng(0)
    returns = np.zeros(5)
    begun: list[tuple[Any, int, int]] = [(None, -1, 0)] * 5
    episodes = 0
    for _ in range(120 if game == "matgo" else 150):
        assert env.observation_space.contains(obs)
        assert np.array_equal(infos["action_mask"], obs["action_mask"].astype(bool))
        for i, st in enumerate(raw.states):
            seat = int(infos["seat"][i])
            assert raw.fast.current(st) == seat
            assert np.array_equal(obs["observation"][i], raw.fast.observe(st, seat))
            assert np.array_equal(obs["action_mask"][i], raw.fast.legal_mask(st, seat))
            if begun[i][0] is not st:
                begun[i] = (st, seat, len(raw.fast.payments(st)))
        mask = obs["action_mask"]
        obs, rewards, term, trunc, infos = env.step(np.argmax(mask * rng.random(mask.shape), 1))
        assert not trunc.any()
        returns += rewards
        for i in np.flatnonzero(term):
            st, seat, paid = begun[i]
            assert raw.fast.current(st) < 0
            assert returns[i] == _net(raw.fast.payments(st)[paid:], seat)
            assert infos["_final_obs"][i]
            assert np.array_equal(infos["final_obs"]["observation"][i], raw.fast.observe(st, seat))
            returns[i] = 0
            episodes += 1
    assert episodes >= 5


@pytest.mark.parametrize("game", ["matgo", "mahjong", "gostop"])
def test_gymnasium_make_and_check_env(game: str) -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import madang.rl

    env = gymnasium.make(madang.rl.GYM_IDS[game])
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=2)
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()
    # the module-qualified id needs no import first, as Gymnasium's plugins do
    assert gymnasium.make(f"madang.rl:{madang.rl.GYM_IDS[game]}").unwrapped.aec.game == game


@pytest.mark.parametrize(("preset", "seats"), [("default", 3), ("gwangpalgi", 4)])
def test_gostop_through_gymnasium_at_three_and_four_seats(preset: str, seats: int) -> None:
    """``madang/Gostop-v0`` under the preset's rules: an agent a seat (four with 광팔기, the
    opponents named for the three others) and Gymnasium's checker; ``make_vec`` runs
    copies of it (고스톱 has no batched path), the masks through ``call``. (Its episodes'
    returns: ``test_single``.)"""
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import madang.rl

    others = ["normal", "easy", "normal"][: seats - 1]
    env = gymnasium.make(madang.rl.GYM_IDS["gostop"], preset=preset, opponents=others)
    check_env(env.unwrapped, skip_render_check=True)
    assert len(env.unwrapped.aec.possible_agents) == seats
    venv = gymnasium.make_vec(madang.rl.GYM_IDS["gostop"], num_envs=2, preset=preset)
    obs, _ = venv.reset(seed=3)
    assert obs.shape == (2, *env.observation_space.shape)
    masks = venv.call("action_masks")
    obs, *_ = venv.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    assert obs.shape[0] == 2
    venv.close()


def test_vector_env_reproduces_and_rejects_bad_actions() -> None:
    from madang.core.errors import IllegalActionError, InvalidActionError
    from madang.rl.vector import MadangVectorEnv

    a, b = MadangVectorEnv("matgo", 3), MadangVectorEnv("matgo", 3)
    oa, _ = a.reset(seed=9)
    ob, _ = b.reset(seed=9)
    for _ in range(30):
        assert np.array_equal(oa["observation"], ob["observation"])
        act = np.argmax(oa["action_mask"], 1)
        oa, ra, *_ = a.step(act)
        ob, rb, *_ = b.step(act)
        assert np.array_equal(ra, rb)
    before = [s.clone().snapshot() for s in a.states]
    illegal = np.argmin(oa["action_mask"], 1)
    for bad, error in (
        (illegal, IllegalActionError),
        (np.full(3, 175), InvalidActionError),
        (np.zeros(2, dtype=int), InvalidActionError),
        (np.zeros(3), InvalidActionError),
    ):
        with pytest.raises(error):
            a.step(bad)
        assert [s.snapshot() for s in a.states] == before
    with pytest.raises(ValueError):
        MadangVectorEnv("matgo", 2, seat=2)
