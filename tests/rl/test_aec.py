"""The PettingZoo environments: PettingZoo's own API and seed tests, masks equal to the
legal moves at every step, observations that depend only on the view, reproducible
episodes, point rewards, and one implementation serving any registered game."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from madang.core.errors import IllegalActionError, RuleConfigError
from madang.core.game import GameSpec
from madang.core.registry import register_spec, spec, unregister_spec
from madang.rl import mahjong_v0, matgo_v0
from madang.rl.aec import MadangAECEnv

MODULES = {"matgo": matgo_v0, "mahjong": mahjong_v0}


def play_random(env: Any, seed: int, rng: random.Random) -> list[tuple[str, int, float]]:
    """One episode with random masked actions: (agent, action, reward) per step."""
    env.reset(seed=seed)
    trace = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action, float(reward)))
        env.step(action)
    return trace


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_pettingzoo_api(game: str) -> None:
    api_test(MODULES[game].env(), num_cycles=300)


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_pettingzoo_seed(game: str) -> None:
    seed_test(MODULES[game].env, num_cycles=300)


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_masks_are_the_legal_moves_at_every_step(game: str) -> None:
    raw = MODULES[game].raw_env()
    rng = random.Random(0)
    for seed in range(3 if game == "mahjong" else 10):
        raw.reset(seed=seed)
        while not all(raw.terminations.values()):
            session = raw.session
            assert session is not None
            for i, agent in enumerate(raw.possible_agents):
                mask = raw.observe(agent)["action_mask"]
                legal = session.legal(i)
                assert np.flatnonzero(mask).tolist() == sorted(legal)
                assert bool(legal) == (i in session.pending())
            agent = raw.agent_selection
            assert raw._seat(agent) == session.pending()[0]
            ids = np.flatnonzero(raw.observe(agent)["action_mask"])
            raw.step(int(rng.choice(ids)))


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_episodes_reproduce_from_a_seed(game: str) -> None:
    a = play_random(MODULES[game].env(), 7, random.Random(1))
    b = play_random(MODULES[game].env(), 7, random.Random(1))
    assert a == b
    c = play_random(MODULES[game].env(), 8, random.Random(1))
    assert a != c


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_rewards_are_the_net_payments(game: str) -> None:
    raw = MODULES[game].raw_env()
    rng = random.Random(3)
    for seed in range(4):
        raw.reset(seed=seed)
        returns = dict.fromkeys(raw.possible_agents, 0.0)
        for _agent in raw.agent_iter():
            obs, _, term, trunc, _ = raw.last()
            if term or trunc:
                raw.step(None)
                continue
            raw.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            for a, r in raw.rewards.items():
                returns[a] += r
        session = raw.session
        assert session is not None
        net = [0] * len(returns)
        for frm, to, points, _ in session.payments():
            net[frm] -= points
            net[to] += points
        assert [returns[a] for a in raw.possible_agents] == net
        assert sum(returns.values()) == 0


def test_matgo_same_view_same_observation() -> None:
    """Two states that differ only in hidden cards (the opponent's hand and the pile)
    give seat 0 the same view and the same observation, by both encoding paths."""
    from madang.matgo.cards import iter_mask
    from madang.matgo.encode import MatgoEncoding
    from madang.matgo.engine import new_game
    from madang.matgo.view import view

    enc = MatgoEncoding()
    g = new_game(seed=11)
    h = g.clone()
    theirs = next(iter(iter_mask(h.hands[1] & ~h.revealed[1])))
    pile_card = h.pile[0]
    h.hands[1] = h.hands[1] & ~(1 << theirs) | (1 << pile_card)
    h.pile[0] = theirs
    h._legal = None
    assert g.snapshot() != h.snapshot()
    assert view(g, 0) == view(h, 0)
    assert np.array_equal(enc.observe(view(g, 0)), enc.observe(view(h, 0)))
    out = np.zeros((2, enc.obs_size), dtype=np.float32)
    enc.observe_states([g, h], [0, 0], out)
    assert np.array_equal(out[0], out[1])
    assert np.array_equal(out[0], enc.observe(view(g, 0)))


def test_mahjong_same_view_same_observation() -> None:
    from madang.mahjong.encode import MahjongEncoding
    from madang.mahjong.engine import new_hand
    from madang.mahjong.view import view

    enc = MahjongEncoding()
    st = new_hand(seed=5)
    other = st.clone()
    # swap one tile kind between seats 1 and 2 (both hidden from seat 0)
    a = next(k for k in range(25) if other.hands[1][k] and not other.hands[2][k])
    b = next(k for k in range(25) if other.hands[2][k] and not other.hands[1][k])
    other.hands[1][a] -= 1
    other.hands[1][b] += 1
    other.hands[2][b] -= 1
    other.hands[2][a] += 1
    other._legal = None
    assert view(st, 0) == view(other, 0)
    assert np.array_equal(enc.observe(view(st, 0)), enc.observe(view(other, 0)))
    out = np.zeros((2, enc.obs_size), dtype=np.float32)
    enc.observe_states([st, other], [0, 0], out)
    assert np.array_equal(out[0], out[1])


def test_mahjong_claim_window_asks_in_turn_order_after_the_discarder() -> None:
    """Several seats asked about one discard answer one by one, in turn order after the
    discarder; each sees only its own question (played by the normal bot, which makes
    ready hands and so 쏘아 chances, unlike random play)."""
    from madang.bots import Budget, make_bot

    class Seat:
        bot = make_bot("mahjong", "normal")
        budget = Budget(None, 1)

    raw = mahjong_v0.raw_env()
    rng = random.Random(0)
    seen = 0
    for seed in range(200):
        raw.reset(seed=seed)
        while not all(raw.terminations.values()):
            s = raw.session
            assert s is not None
            window = s.window()
            agent = raw.agent_selection
            seat = raw._seat(agent)
            if len(window) > 1:
                d = s.view(window[0])["claim"]["from"]
                assert window == sorted(window, key=lambda w: (w - d) % 4)
                assert seat == window[0]
                for w in window:
                    assert s.view(w)["pending"] == [w]
                seen += 1
            raw.step(s.bot_move(seat, Seat(), rng))
        if seen >= 2:
            return
    pytest.fail("no claim window with several seats in 200 hands")


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_render_ansi_and_presets(game: str) -> None:
    preset = spec(game).presets()[-1]
    env = MODULES[game].env(preset=preset, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and text
    assert "[/" not in text  # Rich markup turned into plain text
    with pytest.raises(RuleConfigError):
        MODULES[game].raw_env(rules={"no_such_option": 1})
    with pytest.raises(RuleConfigError):
        MODULES[game].raw_env(preset="no_such_preset")


def test_an_illegal_action_raises_in_the_raw_env() -> None:
    raw = matgo_v0.raw_env()
    raw.reset(seed=0)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        raw.step(illegal)


# ---------------------------------------------------------------- one implementation


def test_any_registered_game_with_an_encoding() -> None:
    from tests.contract import toy

    register_spec(
        GameSpec(
            name="pairs",
            seats=2,
            rules_module="tests.contract.toy",
            rating="pairwise",
            ruleset_version="1",
            session=toy.PairsSession,
            frames=toy.frames,
            encoding="tests.rl.toy_encoding:PairsEncoding",
        )
    )
    try:
        env = MadangAECEnv("pairs")
        api_test(env, num_cycles=50)
        trace = play_random(env, 3, random.Random(0))
        assert len(trace) == 6
    finally:
        unregister_spec("pairs")
    register_spec(toy.SPEC)
    try:
        with pytest.raises(RuleConfigError, match="no reinforcement-learning encoding"):
            MadangAECEnv("pairs")
    finally:
        unregister_spec("pairs")


def test_a_game_that_pays_at_its_deal_rewards_it() -> None:
    """Under instant 총통 (the strict preset) a deal can end the game at once: the
    payment is each agent's reward, seen through last()."""
    raw = matgo_v0.raw_env(preset="strict")
    for seed in range(500):
        raw.reset(seed=seed)
        if all(raw.terminations.values()):
            break
    else:
        pytest.fail("no deal ended the game at once")
    seen = {}
    for agent in raw.agent_iter():
        _, reward, term, _, _ = raw.last()
        assert term
        seen[agent] = reward
        raw.step(None)
    session = raw.session
    assert session is not None
    (frm, to, points, _), *_ = session.payments()
    assert seen[f"player_{to}"] == points and seen[f"player_{frm}"] == -points
