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

from madang.core.errors import IllegalActionError, InvalidActionError, RuleConfigError
from madang.core.game import GameSpec
from madang.core.registry import register_spec, spec, unregister_spec
from madang.rl import mahjong_v0, matgo_v0
from madang.rl.aec import FastAECEnv, MadangAECEnv

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


def _reference(raw: FastAECEnv) -> Any:
    """The contract's session of the game ``raw`` plays (its ``deal``), or None where
    the deal differs (mahjong's ``deal`` has seat 0 deal; the fast env's dealer is any)."""
    if raw.game == "mahjong" and raw.deal_seed & 3:
        return None
    return raw.spec.deal(raw.rules, raw.deal_seed)


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_masks_are_the_legal_moves_at_every_step(game: str) -> None:
    """The fast env and the game contract's Session play the same games side by side:
    at every step every agent's mask is its legal moves (empty exactly for a seat not
    asked), its observation the encoding of its view, and the rewards the payments."""
    raw = MODULES[game].raw_env()
    enc = raw.encoding
    rng = random.Random(0)
    games = 0
    for seed in range(200):
        raw.reset(seed=seed)
        session = _reference(raw)
        if session is None:
            continue
        games += 1
        returns = [0.0] * raw.num_agents
        while True:
            for i, agent in enumerate(raw.possible_agents):
                obs = raw.observe(agent)
                legal = sorted(session.legal(i))
                assert np.flatnonzero(obs["action_mask"]).tolist() == legal
                assert bool(legal) == (i in session.pending())
                assert np.array_equal(obs["observation"], enc.observe(session.view(i)))
                assert obs["observation"].flags.writeable and obs["action_mask"].flags.writeable
            for i, agent in enumerate(raw.possible_agents):
                returns[i] += raw.rewards[agent]
            if all(raw.terminations.values()):
                assert session.over
                break
            agent = raw.agent_selection
            assert int(agent.split("_")[1]) == session.pending()[0]
            action = int(rng.choice(np.flatnonzero(raw.observe(agent)["action_mask"])))
            raw.step(action)
            session.step(session.pending()[0], action)
        net = [0] * raw.num_agents
        for frm, to, points, _ in session.payments():
            net[frm] -= points
            net[to] += points
        assert returns == net
        if games == (3 if game == "mahjong" else 10):
            return
    pytest.fail("too few games")


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_the_fast_env_is_the_contract_env(game: str) -> None:
    """Where both deal the same game (Matgo always), the fast env and the Session-based
    env give the same observations, masks, rewards and agents at every step."""
    fast = MODULES[game].raw_env()
    ref = MadangAECEnv(game)
    rng = random.Random(1)
    compared = 0
    for seed in range(40):
        fast.reset(seed=seed)
        if _reference(fast) is None:
            continue
        ref.reset(seed=seed)
        for agent in fast.agent_iter():
            assert agent == ref.agent_selection
            a, b = fast.last(), ref.last()
            assert np.array_equal(a[0]["observation"], b[0]["observation"])
            assert np.array_equal(a[0]["action_mask"], b[0]["action_mask"])
            assert a[1:] == b[1:]
            mask = a[0]["action_mask"]
            action = None if a[2] or a[3] else int(rng.choice(np.flatnonzero(mask)))
            fast.step(action)
            ref.step(action)
        assert not ref.agents
        compared += 1
        if compared == 2:
            return


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

    raw = MadangAECEnv("mahjong")
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


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_an_illegal_action_raises_in_the_raw_env(game: str) -> None:
    raw = MODULES[game].raw_env()
    with pytest.raises(RuntimeError, match="reset"):
        raw.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        raw.observe("player_0")
    raw.reset(seed=0)
    agent = raw.agent_selection
    before = raw.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        raw.step(illegal)
    for bad in (-1, raw.encoding.num_actions, 2.5, "play", True):
        with pytest.raises(InvalidActionError):
            raw.step(bad)  # type: ignore[arg-type]
    after = raw.observe(agent)  # nothing changed
    assert raw.agent_selection == agent and not any(raw.terminations.values())
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])
    raw.step(np.int64(np.flatnonzero(after["action_mask"])[0]))  # numpy ids are ids


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_an_illegal_action_ends_the_game_in_env(game: str) -> None:
    """``env()`` ends the game on an illegal action, -1 to its agent and 0 to the others
    (PettingZoo's TerminateIllegalWrapper, built in)."""
    env = MODULES[game].env()
    env.reset(seed=0)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)
    seen = {}
    for a in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        assert term and trunc
        seen[a] = reward
        env.step(None)
    assert seen == {a: (-1.0 if a == agent else 0.0) for a in env.possible_agents}


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
    (frm, to, points, _), *_ = raw.fast.payments(raw.state)
    assert seen[f"player_{to}"] == points and seen[f"player_{frm}"] == -points


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_observations_are_fresh_arrays(game: str) -> None:
    """An observation handed out is the caller's: no later observation or step writes
    to it (the fast path builds each one anew, reusing no buffer)."""
    raw = MODULES[game].raw_env()
    raw.reset(seed=3)
    rng = random.Random(3)
    kept: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for _ in range(60):
        agent = raw.agent_selection
        if raw.terminations[agent]:  # (over at once, or after its moves): the next game
            raw.reset()
            continue
        obs = raw.observe(agent)
        kept.append((obs, {k: v.copy() for k, v in obs.items()}))
        again = raw.observe(agent)
        for key in obs:
            assert obs[key].flags.writeable and not np.shares_memory(obs[key], again[key])
        raw.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert len(kept) > 40
    for obs, copy in kept:  # nothing written to them since
        for key in obs:
            assert np.array_equal(obs[key], copy[key])


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_last_and_agent_iter_as_pettingzoo_defines_them(game: str) -> None:
    """The fast env's own ``last`` and ``agent_iter`` behave as :class:`AECEnv`'s:
    ``last(observe=False)`` gives no observation, ``max_iter`` bounds the loop, and
    ``last()`` before ``reset`` raises."""
    from pettingzoo import AECEnv

    env = MODULES[game].raw_env()
    with pytest.raises(RuntimeError):
        env.last()
    env.reset(seed=0)
    agent = env.agent_selection
    got, want = env.last(observe=False), AECEnv.last(env, observe=False)
    assert got == want and got[0] is None
    obs = env.last()[0]
    ref = AECEnv.last(env)[0]
    assert np.array_equal(obs["observation"], ref["observation"])
    assert np.array_equal(obs["action_mask"], ref["action_mask"])
    assert list(env.agent_iter(max_iter=0)) == []
    steps = 0
    for a in env.agent_iter(max_iter=5):
        assert a == env.agent_selection
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 5 and agent in env.possible_agents
