"""The OpenSpiel games: OpenSpiel's random-simulation test, observations, returns."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from madang.rl.openspiel import register  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def registered() -> None:
    register()
    register()  # twice: a no-op


def test_importing_the_module_registers_the_games() -> None:
    """As OpenSpiel's own Python games: import the module, then load the game by name
    (in a fresh interpreter, where nothing else has registered them)."""
    import subprocess
    import sys

    code = (
        "import pyspiel, madang.rl.openspiel\n"
        "for g in ('matgo', 'mahjong', 'gostop'):\n"
        "    game = pyspiel.load_game('python_madang_' + g)\n"
        "    print(game.get_type().short_name, game.num_players())\n"
        "game = pyspiel.load_game('python_madang_gostop', {'preset': 'gwangpalgi'})\n"
        "print(game.num_players(), game.get_type().min_num_players)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:4] == [
        "python_madang_matgo 2",
        "python_madang_mahjong 4",
        "python_madang_gostop 3",
        "4 3",  # 고스톱 of four (광팔기): the rules' seats
    ]


@pytest.mark.parametrize(
    ("game", "params", "sims"),
    [
        ("matgo", {}, 3),
        ("mahjong", {}, 1),
        ("gostop", {}, 2),
        ("gostop", {"preset": "gwangpalgi"}, 2),
    ],
)
def test_random_sim(game: str, params: dict[str, str], sims: int) -> None:
    g = pyspiel.load_game(f"python_madang_{game}", params)
    pyspiel.random_sim_test(g, num_sims=sims, serialize=False, verbose=False)


@pytest.mark.parametrize(
    ("game", "params"), [("matgo", {}), ("gostop", {}), ("gostop", {"preset": "gwangpalgi"})]
)
def test_rewards_add_up_to_the_returns_at_every_state(game: str, params: dict[str, str]) -> None:
    """Instant payments (뻑, 따닥, 광값) are rewarded by the move that makes them, so the
    rewards so far equal the returns at every state, not only at the end (OpenSpiel's
    random simulation checks it, on the games it happens to deal)."""
    g = pyspiel.load_game(f"python_madang_{game}", {**params, "num_deals": 40})
    rng = random.Random(1)
    mid_game_payments = 0
    for deal in range(40):
        state = g.new_initial_state()
        state.apply_action(deal)
        total = list(state.rewards())
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            total = [t + r for t, r in zip(total, state.rewards(), strict=True)]
            assert total == state.returns()
            mid_game_payments += not state.is_terminal() and any(total)
        assert sum(total) == 0
    assert mid_game_payments > 0  # the deals do pay during play: the check bites


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_a_game_played_to_the_end(game: str) -> None:
    from madang.rl.encoding import load_encoding

    g = pyspiel.load_game(f"python_madang_{game}", {"num_deals": 10})
    enc = load_encoding(game)
    rng = random.Random(0)
    state = g.new_initial_state()
    assert len(state.chance_outcomes()) == 10
    state.apply_action(3)
    while not state.is_terminal():
        p = state.current_player()
        view = state.session.view(p)
        assert state.observation_tensor(p) == pytest.approx(list(enc.observe(view)))
        legal = state.legal_actions()
        assert legal == sorted(state.session.legal(p))
        clone = state.clone()
        a = rng.choice(legal)
        state.apply_action(a)
        clone.apply_action(a)
        assert str(clone) == str(state)
    assert sum(state.returns()) == 0


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
def test_resampled_states_look_the_same_to_the_player(game: str) -> None:
    g = pyspiel.load_game(f"python_madang_{game}")
    state = g.new_initial_state()
    state.apply_action(4)
    rng = random.Random(2)
    for _ in range(8):
        state.apply_action(rng.choice(state.legal_actions()))
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(5):
        other = state.resample_from_infostate(p, sampler)
        assert other.observation_string(p) == state.observation_string(p)
        assert other.legal_actions() == state.legal_actions()


def test_ismcts_plays_matgo_as_a_bot() -> None:
    from madang.bots import Budget, make_bot
    from madang.matgo.engine import new_game
    from madang.matgo.view import view
    from madang.rl.openspiel import register_ismcts

    register_ismcts("matgo")
    bot = make_bot("matgo", "ismcts")
    g = new_game(seed=3)
    rng = random.Random(0)
    while not g.over:
        legal = g.legal_actions()
        a = bot.act(view(g, g.current), list(legal), rng, Budget(None, 3))
        assert a in legal
        g.step(a)


def test_ismcts_plays_mahjong_as_a_bot() -> None:
    """Mahjong too: a world dealt from the seat's view alone (engine.from_view)."""
    from madang.bots import Budget, make_bot
    from madang.mahjong.engine import legal_actions, new_hand, step
    from madang.mahjong.view import view
    from madang.rl.openspiel import register_ismcts

    register_ismcts("mahjong")
    bot = make_bot("mahjong", "ismcts")
    g = new_hand(seed=5)
    rng = random.Random(0)
    decisions = 0
    while not g.over and decisions < 40:
        seat = g.pending[0]
        legal = legal_actions(g, seat)
        a = bot.act(view(g, seat), list(legal), rng, Budget(None, 2))
        assert a in legal
        step(g, a)
        decisions += 1
