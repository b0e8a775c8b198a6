"""고스톱 as a PettingZoo AEC environment: three agents (four with 광팔기), masks the legal
moves (join/die included), an observation of each seat's view only, rewards the payments
(광값 included); Matgo's encoding unchanged."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from madang.core.errors import IllegalActionError, RuleConfigError
from madang.gostop.encode import GostopEncoding, planes, scalars
from madang.gostop.game import deal
from madang.gostop.rules import PRESETS
from madang.matgo.cards import NUM_CARDS
from madang.matgo.engine import Phase
from madang.rl import gostop_v0


def test_pettingzoo_api() -> None:
    env = gostop_v0.env()
    api_test(env, num_cycles=300)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]


def test_pettingzoo_seed() -> None:
    seed_test(gostop_v0.env, num_cycles=200)


#: The presets of a table of four (광팔기: the environment's four agents).
FOUR = [name for name in sorted(PRESETS) if PRESETS[name].players == 4]


@pytest.mark.parametrize("preset", FOUR)
def test_pettingzoo_api_at_four_seats(preset: str) -> None:
    env = gostop_v0.env(preset)
    api_test(env, num_cycles=300)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert gostop_v0.raw_env(preset).encoding.seats == 4


def test_four_agents_answer_join_or_die_and_the_sitter_gets_its_gwang_sale() -> None:
    """광팔기 (``gwangpalgi``): the join/die question is in the masks of the seats asked,
    and the seat sitting out gets nothing but its 광값 (when it sells)."""
    raw = gostop_v0.raw_env("gwangpalgi")
    join, die = (raw.encoding.action_id(m) for m in ("join", "die"))
    rng = random.Random(5)
    answers: set[int] = set()
    sold = 0
    for seed in range(12):
        raw.reset(seed=seed)
        session = raw.session
        assert session is not None
        returns = dict.fromkeys(raw.possible_agents, 0.0)
        while not all(raw.terminations.values()):
            agent = raw.agent_selection
            legal = np.flatnonzero(raw.observe(agent)["action_mask"]).tolist()
            if join in legal:
                assert legal == [join, die] or legal == [join]  # 연사 금지 may bar die
            action = int(rng.choice(legal))
            answers |= {action} & {join, die}
            raw.step(action)
            for a in raw.possible_agents:
                returns[a] += raw.rewards[a]
        out = session.outcome()
        sitter = raw.possible_agents[out["sitting_out"]]
        gwang = sum(
            pts if to == out["sitting_out"] else -pts
            for frm, to, pts, why in session.payments()
            if why == "gwang_sale" and out["sitting_out"] in (frm, to)
        )
        assert returns[sitter] == gwang and sum(returns.values()) == 0
        sold += out["seller"] is not None and gwang > 0
    assert answers == {join, die} and sold


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_masks_observations_and_rewards_follow_the_game(preset: str) -> None:
    """Beside the contract's session of the same deal: at every step each agent's mask
    is its legal moves (empty for a seat not asked), its observation the encoding of its
    view, and the rewards add up to the payments."""
    raw = gostop_v0.raw_env(preset)
    enc = raw.encoding
    rng = random.Random(3)
    for seed in range(4):
        raw.reset(seed=seed)
        session = raw.session
        assert session is not None
        n = len(raw.possible_agents)
        assert n == PRESETS[preset].players
        returns = [0.0] * n
        while True:
            for i, agent in enumerate(raw.possible_agents):
                obs = raw.observe(agent)
                legal = sorted(session.legal(i))
                assert np.flatnonzero(obs["action_mask"]).tolist() == legal
                assert bool(legal) == (i in session.pending())
                assert np.array_equal(obs["observation"], enc.observe(session.view(i)))
                returns[i] += raw.rewards[agent]
            if all(raw.terminations.values()):
                break
            agent = raw.agent_selection
            raw.step(int(rng.choice(np.flatnonzero(raw.observe(agent)["action_mask"]))))
        net = [0] * n
        for frm, to, points, _ in session.payments():
            net[frm] -= points
            net[to] += points
        assert returns == net and sum(net) == 0


def test_an_observation_shows_nothing_hidden() -> None:
    """Worlds that differ only in what a seat cannot see (both other hands, the pile)
    give that seat the same observation."""
    enc = GostopEncoding(PRESETS["default"])
    rng = random.Random(1)
    differs = 0
    for seed in range(6):
        s = deal(PRESETS["default"], seed)
        for _ in range(3 * seed):
            if s.over:
                break
            seat = s.pending()[0]
            s.step(seat, rng.choice(s.legal(seat)))
        for seat in range(3):
            other = s.resampled(seat, random.Random(seed))
            differs += other.match.game.hands != s.match.game.hands
            assert np.array_equal(enc.observe(s.view(seat)), enc.observe(other.view(seat)))
    assert differs > 10  # the hidden hands were dealt again


def test_the_layout_names_every_number() -> None:
    enc = GostopEncoding(PRESETS["default"])
    assert enc.planes == planes(3) and enc.scalars == scalars(3)
    assert enc.obs_size == len(planes(3)) * NUM_CARDS + len(scalars(3))
    assert len(set(enc.planes)) == len(enc.planes) and len(set(enc.scalars)) == len(enc.scalars)
    assert {"captured_o1", "captured_o2", "revealed_o2"} <= set(enc.planes)
    assert "score_o2" in enc.scalars and "revealed_mine" not in enc.planes
    with pytest.raises(RuleConfigError, match="no fast engine path"):
        enc.fast()


def test_stop_points_are_what_stop_pays_every_loser_together() -> None:
    enc = GostopEncoding(PRESETS["default"])
    asked = 0
    for seed in range(80):
        s = deal(PRESETS["default"], seed)
        g = s.match.game
        while not s.over:
            seat = s.pending()[0]
            if g.phase is Phase.GO_STOP:
                obs = enc.observe(s.view(seat))
                assert enc.scalar(obs, "stop_points") == g.stop_points(seat) > 0
                asked += 1
            legal = s.legal(seat)
            s.step(seat, legal[0])
        if asked >= 5:
            return
    pytest.fail("too few 고/스톱 questions")


def test_an_illegal_action_raises_in_the_raw_env_and_ends_the_game_in_env() -> None:
    raw = gostop_v0.raw_env()
    raw.reset(seed=2)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    with pytest.raises(IllegalActionError):
        raw.step(int(np.flatnonzero(mask == 0)[0]))
    env = gostop_v0.env()
    env.reset(seed=2)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.rewards[agent] == -1 and all(env.terminations.values())


def test_render_ansi_shows_three_seats() -> None:
    raw = gostop_v0.raw_env(render_mode="ansi")
    raw.reset(seed=5)
    text = raw.render()
    assert text is not None and "o1" in text and "o2" in text and "바닥" in text
