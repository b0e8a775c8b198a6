"""Mahjong bots: legal answers everywhere, determinism, decisions, and the danger model."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from madang.bots.base import Budget, make_bot
from madang.bots.mahjong_defensive import FATAL, DangerModel, DefensiveBot
from madang.bots.mahjong_efficiency import EfficiencyBot, Table, discard_options, pan_estimate
from madang.mahjong.engine import build_wall, default_action, legal_actions, new_hand, step
from madang.mahjong.rules import MahjongRules
from madang.mahjong.state import Action, HandState
from madang.mahjong.tiles import parse_tile, parse_tiles, to_counts
from madang.mahjong.view import view

LEVELS = ("easy", "normal", "hard")
BUDGET = Budget(0.05)


def ask(
    bot: Any, v: dict[str, Any], legal: list[Action], rng: random.Random, budget: Budget
) -> Action:
    """``bot``'s answer among the seat's ``legal`` actions: a bot takes and returns action
    ids (:attr:`Action.code`)."""
    by_code = {a.code: a for a in legal}
    return by_code[bot.act(v, list(by_code), rng, budget)]


def play_hand(state: HandState, bots: list[Any], seed: int) -> list[str]:
    """Play to the end; every bot answer must be one of the legal actions."""
    rngs = [random.Random(seed * 4 + s) for s in range(4)]
    moves: list[str] = []
    while not state.over:
        seat = state.pending[0]
        legal = list(legal_actions(state, seat))
        v = view(state, seat)
        before = copy.deepcopy(v)
        action = ask(bots[seat], v, legal, rngs[seat], BUDGET)
        assert action in legal, f"{bots[seat].name} chose {action!r}, not legal"
        assert v == before, "a bot changed its view"
        moves.append(action.move)
        step(state, action)
    return moves


@pytest.mark.parametrize("name,level", [("random", "easy"), ("efficiency", "normal"),
                                        ("value", "hard")])  # fmt: skip
def test_levels_are_registered(name: str, level: str) -> None:
    assert make_bot("mahjong", level).name == name
    assert make_bot("mahjong", name).name == name


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    levels=st.lists(st.sampled_from(LEVELS), min_size=4, max_size=4),
    min_pan=st.sampled_from([0, 2, 3]),
    multiple_ron=st.booleans(),
)
def test_bots_always_answer_legally(
    seed: int, levels: list[str], min_pan: int, multiple_ron: bool
) -> None:
    rules = MahjongRules(min_pan=min_pan, multiple_ron=multiple_ron)
    bots: list[Any] = [make_bot("mahjong", lv) for lv in levels]
    play_hand(new_hand(rules, seed=seed), bots, seed)


@pytest.mark.parametrize("level", LEVELS)
def test_same_rng_same_game(level: str) -> None:
    runs = []
    for _ in range(2):
        bots: list[Any] = [make_bot("mahjong", level) for _ in range(4)]
        runs.append(play_hand(new_hand(seed=11), bots, 5))
    assert runs[0] == runs[1]


def test_bots_only_read_the_view() -> None:
    """A bot given a view with another seat's hand removed decides the same way: it
    never needs more than the view, and the view carries no hidden tiles."""
    st_ = new_hand(seed=21)
    v = view(st_, 0)
    assert all(p["hand"] is None for p in v["players"][1:])
    for level in ("normal", "hard"):
        bot: Any = make_bot("mahjong", level)
        a = ask(bot, v, legal_actions(st_, 0), random.Random(0), BUDGET)
        assert a in legal_actions(st_, 0)


# -- decisions ----------------------------------------------------------------------------


def _dealer_state(hand: str, draws: str, rules: MahjongRules | None = None) -> HandState:
    return new_hand(rules, wall=build_wall([hand, "", "", ""], draws=draws))


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_tsumo_is_always_taken(level: str) -> None:
    state = _dealer_state("123456789m1234p", "4p")
    legal = legal_actions(state, 0)
    assert legal[0].verb == "tsumo"
    bot: Any = make_bot("mahjong", level)
    a = ask(bot, view(state, 0), list(legal), random.Random(0), BUDGET)
    assert a.verb == "tsumo"


@pytest.mark.parametrize(
    "hand,draw,best",
    [
        ("123456789m1135p", "7z", "7z"),  # an isolated honor goes before a ready shape
        ("123m456m789m1p55p", "9p", ""),  # any tile but the pair keeps it ready
        ("11m23m456p789p12z", "3z", ""),
    ],
    ids=["isolated-honor", "ready", "honors"],
)
def test_efficiency_discards_to_lowest_shanten(hand: str, draw: str, best: str) -> None:
    state = _dealer_state(hand, draw)
    legal = legal_actions(state, 0)
    a = ask(EfficiencyBot(), view(state, 0), list(legal), random.Random(0), BUDGET)
    opts = discard_options(state.hands[0][:], 0, [4] * 25)
    lowest = min(o[1] for o in opts)
    assert a.verb == "discard"
    assert next(o for o in opts if o[0] == a.tile)[1] == lowest
    if best:
        assert a.tile == parse_tile(best)


def test_efficiency_declares_when_ready_with_a_wide_wait() -> None:
    # after 7z goes, 123456789m2345p waits on 2p and 5p: six unseen tiles, enough for 엎어
    state = _dealer_state("123456789m2345p", "7z")
    legal = legal_actions(state, 0)
    a = ask(EfficiencyBot(), view(state, 0), list(legal), random.Random(0), BUDGET)
    assert a.tile == parse_tile("7z")
    assert a.declare in ("eopeo", "bulleo")


def test_pan_estimate_sees_value() -> None:
    vk = (22, 23, 24, 18, 18)
    closed = to_counts(parse_tiles("234567m345p6688p"))
    open_hand = to_counts(parse_tiles("19m345p6688p12z"))
    assert pan_estimate(closed, [], vk) >= 2
    assert pan_estimate(open_hand, [("pon", 9, 1)], vk) < 2
    assert pan_estimate(open_hand, [("pon", 22, 1)], vk) >= 1


@pytest.mark.parametrize("min_pan,verb", [(0, "pon"), (3, "pass")], ids=["mupan", "sampan"])
def test_pon_needs_a_path_to_the_minimum(min_pan: int, verb: str) -> None:
    """55m234m678m345p9p1z: 뽕 on 5m makes it ready — fine at 무판, but under 삼판 the
    open hand has no way to three 판, so the efficiency bot passes."""
    w = build_wall(["5m", "55m234m678m345p9p1z", "", ""], draws="7z")
    state = new_hand(MahjongRules(min_pan=min_pan), wall=w)
    step(state, _discard(state, 0, "5m"))
    assert state.phase == "claim" and 1 in state.pending
    legal = legal_actions(state, 1)
    assert any(a.verb == "pon" for a in legal)
    a = ask(EfficiencyBot(), view(state, 1), list(legal), random.Random(0), BUDGET)
    assert a.verb == verb


def _discard(state: HandState, seat: int, code: str) -> Any:
    k = parse_tile(code)
    return next(a for a in legal_actions(state, seat) if a.verb == "discard" and a.tile == k
                and not a.declare)  # fmt: skip


# -- the danger model ---------------------------------------------------------------------


def _view_with_bulleo(state: HandState, seat: int, waits: list[str]) -> dict[str, Any]:
    v = view(state, 0)
    v["players"][seat]["declared"] = "bulleo"
    v["players"][seat]["face_down"] = True
    v["players"][seat]["waits"] = waits
    return v


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 100), seat=st.integers(1, 3))
def test_defensive_never_discards_a_fatal_tile_when_a_safe_one_exists(
    seed: int, pick: int, seat: int
) -> None:
    state = new_hand(seed=seed)
    held = sorted({k for k in range(25) if state.hands[0][k]})
    # every held kind but one is a 불러 wait of `seat`: only that one is safe
    safe = held[pick % len(held)]
    waits = [f"{k % 9 + 1}{'mpz'[k // 9]}" for k in held if k != safe]
    v = _view_with_bulleo(state, seat, waits)
    t = Table.from_view(v)
    dm = DangerModel(t)
    assert all(dm.fatal(k) and dm.tile_danger(k, seat) == FATAL for k in held if k != safe)
    assert not dm.fatal(safe)
    a = ask(DefensiveBot(), v, list(legal_actions(state, 0)), random.Random(0), BUDGET)
    assert a.verb in ("discard", "ankan", "tsumo")
    if a.verb == "discard":
        assert a.tile == safe


def test_own_discards_and_passed_tiles_are_safe() -> None:
    state = new_hand(seed=8)
    while sum(map(len, state.rivers)) < 9:  # a few turns: discard the drawn tile, pass claims
        step(state, default_action(state, state.pending[0]))
    me = state.turn
    t = Table.from_view(view(state, me))
    dm = DangerModel(t)
    for p in dm.opponents:
        for k in t.rivers[p]:
            assert dm.tile_danger(k, p) == 0.0, "진팅: a seat's own discard is safe against it"
    prev = (me - 1) % 4  # the seat that discarded last: safe against the two before it
    if t.rivers[prev]:
        last = t.rivers[prev][-1]
        for p in ((me + 1) % 4, (me + 2) % 4):
            assert dm.tile_danger(last, p) == 0.0, "골라 쏘아 금지: a passed tile is safe"


def test_honor_with_every_copy_visible_is_safe() -> None:
    state = new_hand(seed=3)
    v = view(state, 0)
    v["players"][1]["river"] = ["7z", "7z", "7z"]
    v["players"][2]["river"] = []
    v["players"][3]["river"] = ["7z"]
    v["players"][0]["hand"] = [c for c in v["players"][0]["hand"] if c != "7z"]
    v["players"][2]["declared"] = "eopeo"
    t = Table.from_view(v)
    dm = DangerModel(t)
    assert dm.threat[2] == 1.0
    assert dm.tile_danger(parse_tile("7z"), 2) == 0.0
    assert dm.danger(parse_tile("7z")) == 0.0


def test_suji_and_kabe_lower_the_danger() -> None:
    state = new_hand(seed=4)
    v = view(state, 0)
    for p in v["players"][1:]:
        p["river"] = []
        p["melds"] = []
    v["players"][2]["declared"] = "eopeo"
    base = DangerModel(Table.from_view(v)).tile_danger(parse_tile("4p"), 2)
    v["players"][2]["river"] = ["1p", "7p"]  # both suji of 4p discarded by seat 2
    suji = DangerModel(Table.from_view(v)).tile_danger(parse_tile("4p"), 2)
    assert suji < base
    v["players"][2]["river"] = []
    v["players"][3]["river"] = ["5p"] * 4  # every 5p visible: no wait through 5p
    v["players"][0]["hand"] = [c for c in v["players"][0]["hand"] if c != "5p"]
    kabe = DangerModel(Table.from_view(v)).tile_danger(parse_tile("4p"), 2)
    assert kabe < base
