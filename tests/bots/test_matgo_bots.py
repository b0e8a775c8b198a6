"""Matgo bots: legal answers everywhere, determinism, and the view-only boundary."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.bots.walk import random_walk

from madang.arena import new_deal
from madang.bots import Budget, DecisionLog, IllegalBotAction, make_bot, play, register_bot
from madang.bots.base import Bot, RandomBot, bot_names
from madang.bots.matgo_greedy import GreedyBot, potential
from madang.bots.matgo_search import (
    CaptureBot,
    SearchBot,
    playout,
    playout_vs_greedy,
    rollout_action,
)
from madang.core.errors import RuleConfigError
from madang.matgo.actions import GO, STOP
from madang.matgo.cards import BIT, CODES, mask_of, parse_cards
from madang.matgo.engine import MatgoState, Phase, new_game
from madang.matgo.rules import PRESETS
from madang.matgo.view import view

FAST = Budget(time_s=None, iterations=2)
BOTS = ["random", "greedy", "search", "search_value", "capture"]


def _walk(seed: int, steps: int, preset: str) -> MatgoState:
    """A game advanced by ``steps`` random legal actions (stopping before the end)."""
    return random_walk(new_game(PRESETS[preset], seed=seed, dealer=seed & 1), seed, steps)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 40),
    preset=st.sampled_from(sorted(PRESETS)),
    bot=st.sampled_from(BOTS),
)
def test_bots_return_a_legal_action(seed: int, steps: int, preset: str, bot: str) -> None:
    g = _walk(seed, steps, preset)
    if g.over:
        return
    legal = g.legal_actions()
    before = g.snapshot()
    action = make_bot("matgo", bot).act(view(g, g.current), list(legal), random.Random(seed), FAST)
    assert action in legal
    assert g.snapshot() == before


@pytest.mark.parametrize("bot", BOTS)
def test_bots_are_deterministic_with_a_fixed_rng(bot: str) -> None:
    for seed in range(6):
        g = _walk(seed, 2 * seed, "default")
        v = view(g, g.current)
        picks = {
            make_bot("matgo", bot).act(v, g.legal_actions(), random.Random(99), FAST)
            for _ in range(3)
        }
        assert len(picks) == 1


class LeakCheckingBot:
    """Wraps a bot: every view it is given must hide the opponent's hand and the pile."""

    def __init__(self, inner: Bot, game: list[MatgoState], seat: int) -> None:
        self.inner = inner
        self.name = inner.name
        self.game = game
        self.seat = seat
        self.checked = 0

    def act(self, v: dict[str, Any], legal: list[int], rng: random.Random, budget: Budget) -> int:
        state = self.game[0]
        assert isinstance(v, dict) and not isinstance(v, MatgoState)
        text = json.dumps(v)
        other = 1 - self.seat
        hidden = state.hands[other] & ~state.revealed[other]
        for c in state.pile:
            hidden |= BIT[c]
        for c in range(len(CODES)):
            if hidden & BIT[c]:
                assert f'"{CODES[c]}"' not in text, f"{CODES[c]} leaked to seat {self.seat}"
        assert "deck" not in v
        self.checked += 1
        action = self.inner.act(v, legal, rng, budget)
        legal.clear()  # a bot scribbling on its copy changes nothing in the game
        v.clear()
        return action


@pytest.mark.parametrize(
    "bots",
    [("greedy", "search"), ("search", "random"), ("search_value", "greedy"), ("capture", "greedy")],
    ids="-".join,
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bots_see_only_the_view(bots: tuple[str, str], seed: int) -> None:
    session = new_deal("matgo", seed)
    state = session.match.game  # type: ignore[attr-defined]
    holder = [state]
    wrapped = [LeakCheckingBot(make_bot("matgo", b), holder, s) for s, b in enumerate(bots)]
    rngs = [random.Random(seed), random.Random(seed + 1)]
    log = DecisionLog([[], []])
    play(session, wrapped, rngs, FAST, log)
    assert state.over
    assert wrapped[0].checked + wrapped[1].checked == len(log.times[0]) + len(log.times[1]) > 0


def test_an_illegal_answer_is_refused() -> None:
    class Cheat:
        name = "cheat"

        def act(self, v: dict[str, Any], legal: list[int], rng: random.Random, b: Budget) -> int:
            return 999

    session = new_deal("matgo", 5)
    before = session.view(None)
    with pytest.raises(IllegalBotAction):
        play(session, [Cheat(), Cheat()], [random.Random(0)] * 2, FAST)
    assert session.view(None) == before  # the refused answer changed nothing


def test_registry_levels_and_errors() -> None:
    assert make_bot("matgo", "easy").name == "random"
    assert make_bot("matgo", "normal").name == "greedy"
    assert make_bot("matgo", "hard").name == "search"
    assert {"easy", "normal", "hard"} <= set(bot_names("matgo"))
    with pytest.raises(RuleConfigError):
        make_bot("matgo", "grandmaster")
    with pytest.raises(RuleConfigError):
        make_bot("no-such-game", "easy")
    with pytest.raises(RuleConfigError):
        register_bot("matgo", "x", RandomBot, level="expert")
    register_bot("testgame", "rnd", RandomBot, level="hard")
    assert make_bot("testgame", "hard").name == "random"


@pytest.mark.parametrize(
    "kwargs",
    [{"time_s": 0}, {"time_s": -1.0}, {"iterations": 0}, {"iterations": 1.5}, {"time_s": True}],
    ids=str,
)
def test_budget_validation(kwargs: dict[str, Any]) -> None:
    with pytest.raises(RuleConfigError):
        Budget(**kwargs)


def test_search_respects_its_time_budget() -> None:
    import time

    g = new_game(seed=8)
    bot = SearchBot()
    t0 = time.perf_counter()
    a = bot.act(view(g, g.current), g.legal_actions(), random.Random(0), Budget(0.02))
    assert a in g.legal_actions()
    assert time.perf_counter() - t0 < 0.5  # 20 ms budget plus one sample; generous for CI


def test_cpu_clock_budget_counts_the_threads_cpu_time() -> None:
    import time

    b = Budget(0.02, cpu=True)
    t = time.thread_time()
    assert t <= b.now() <= t + 0.01
    assert Budget(0.02).now() >= time.perf_counter() - 0.01
    g = new_game(seed=8)
    t0 = time.thread_time()
    a = SearchBot().act(view(g, g.current), g.legal_actions(), random.Random(0), b)
    assert a in g.legal_actions()
    assert 0.02 <= time.thread_time() - t0 < 0.5  # thinks 20 ms of its own CPU time


@pytest.mark.parametrize(
    ("mine", "theirs", "better", "worse"),
    [
        ("02a 04a", "", "08a", "05a"),  # the third bird completes 고도리
        ("01g 03g", "", "08g", "08p1"),  # a third 광
        ("01r 02r", "", "03r", "04r"),  # 홍단
        ("01r 02r", "03r", "04r", "03p1"),  # a broken 홍단 is worth no more than a ribbon
    ],
    ids=lambda x: x or "-",
)
def test_potential_values_sets(mine: str, theirs: str, better: str, worse: str) -> None:
    m = mask_of(parse_cards(mine))
    t = mask_of(parse_cards(theirs))
    gain = {c: potential(m | mask_of(parse_cards(c)), t) - potential(m, t) for c in (better, worse)}
    assert gain[better] > gain[worse]


def test_greedy_stops_against_a_go_caller() -> None:
    # Find a 고/스톱 question where the opponent has called 고: the greedy bot stops.
    for seed in range(400):
        g = new_game(seed=seed)
        while not g.over:
            if g.phase is Phase.GO_STOP and g.go_count[1 - g.current]:
                v = view(g, g.current)
                assert GreedyBot().act(v, g.legal_actions(), random.Random(0), FAST) == STOP
                return
            g.step(GO if g.phase is Phase.GO_STOP else g.default_action())
    pytest.skip("no such position in the seeds tried")


def test_playout_finishes_games() -> None:
    for seed in range(20):
        g = new_game(seed=seed)
        playout(g)
        assert g.over


@pytest.mark.parametrize("horizon", [1, 3, 1 << 30], ids=["h1", "h3", "full"])
def test_playout_vs_greedy_stops_at_its_horizon(horizon: int) -> None:
    played = 0
    for seed in range(10):
        g = new_game(seed=seed)
        before = sum(g.turns)
        playout_vs_greedy(g, g.current, horizon, replies=1)
        turns = sum(g.turns) - before  # each card play or token flip is one turn
        assert g.over if horizon > 40 else turns <= horizon
        played += turns
    assert played > 0


def test_search_with_an_opponent_model_is_legal_and_deterministic() -> None:
    for seed in range(4):
        g = _walk(seed, 3 * seed, "default")
        legal = g.legal_actions()
        picks = {
            SearchBot(replies=1).act(view(g, g.current), list(legal), random.Random(5), FAST)
            for _ in range(2)
        }
        assert len(picks) == 1 and picks <= set(legal)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_capture_bot_plays_the_rollout_policy_from_its_view(preset: str) -> None:
    """The ``capture`` bot, seeing only its view, answers as the search's rollout policy
    does on the whole state (국진 and 총통 aside, which it answers as greedy does)."""
    bot = CaptureBot()
    compared = set()
    for seed in range(12):
        g = new_game(PRESETS[preset], seed=seed, dealer=seed & 1)
        while not g.over:
            legal = g.legal_actions()
            a = bot.act(view(g, g.current), list(legal), random.Random(0), None)
            assert a in legal
            if g.phase in (Phase.PLAY, Phase.PICK_PLAY, Phase.PICK_FLIP, Phase.GO_STOP):
                assert a == rollout_action(g), (seed, g.phase, legal)
                compared.add(g.phase)
            g.step(a)
    assert {Phase.PLAY, Phase.GO_STOP} <= compared
