"""Bounded rules (issue 25, item 5): every integer option of every game has a least and
a largest value (an open-ended one cannot be declared), and each game bounds the points
one game can move under its rules — a bound some hand or game gets close to, never
under one that is played."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from madang.core.errors import RuleConfigError
from madang.core.options import Options, option
from madang.core.registry import games, spec
from madang.mahjong.game import MahjongSession
from madang.mahjong.rules import PAN_VALUE_MAX, MahjongRules
from madang.mahjong.scoring import (
    MAX_BASE_PAN,
    MAX_EXTRA_PAN,
    Meld,
    WinContext,
    max_hand_points,
    max_points,
    score_hand,
)
from madang.mahjong.tiles import EAST, parse_tile, parse_tiles
from madang.server.games import BotPlayer
from madang.server.rules_catalogue import catalogue


@pytest.mark.parametrize("game", games())
def test_every_integer_option_says_its_least_and_largest_value(game: str) -> None:
    for o in catalogue(game)["options"]:
        if o["type"] == "int":
            assert "values" in o or ("min" in o and "max" in o and o["min"] <= o["max"]), o


def test_an_integer_option_without_a_maximum_cannot_be_declared() -> None:
    @dataclass(frozen=True, slots=True)
    class Open(Options):
        GAME = "open"
        stake: int = option(1, minimum=1)

    with pytest.raises(TypeError, match="needs its choices, or both a minimum and a maximum"):
        Open()

    @dataclass(frozen=True, slots=True)
    class Bare(Options):
        GAME = "bare"
        count: int = 3

    with pytest.raises(TypeError, match=r"Bare\.count"):
        Bare()


def test_pan_value_is_bounded_and_the_form_shows_it() -> None:
    assert MahjongRules(pan_value=PAN_VALUE_MAX).pan_value == 100
    with pytest.raises(RuleConfigError, match="'pan_value' must be at most 100, not 101"):
        MahjongRules.from_dict({"pan_value": 101})
    with pytest.raises(RuleConfigError, match="at most 100"):
        MahjongRules.from_dict({"pan_value": 10**29})
    with pytest.raises(RuleConfigError, match="at least 1"):
        MahjongRules.from_dict({"pan_value": 0})
    (pan,) = [o for o in MahjongRules.describe() if o["name"] == "pan_value"]
    assert pan == {"name": "pan_value", "type": "int", "default": 1, "min": 1, "max": 100}


def test_the_largest_base_hand_scores_max_base_pan() -> None:
    # 대사시 + 자일색 + 사앙꼬 + 멘젠 + 스무 (benchmarks/mahjong_max_pan.py: no reading has more)
    ctx = WinContext(by="tsumo", win_tile=parse_tile("4z"), seat_wind=EAST, round_wind=EAST)
    sheet = score_hand(parse_tiles("111z 222z 333z 444z 55z"), [], ctx, MahjongRules())
    assert sheet.base_pan == MAX_BASE_PAN == 34


def test_the_largest_extras_reach_max_extra_pan() -> None:
    # 화만관 8 + 겐쇼 4 + 부지부불러 6 + 깡올라 5 + 하이떼이 올라 5
    ctx = WinContext(
        by="tsumo", win_tile=parse_tile("1m"), seat_wind=EAST, round_wind=EAST, flowers=4,
        flags=("double_eopeo", "bulleo", "kan_draw", "haitei"),
    )  # fmt: skip
    hand = parse_tiles("111m 123m 456p 77p")
    sheet = score_hand(hand, [Meld("ankan", parse_tile("9p"))], ctx, MahjongRules())
    assert sheet.extra_pan == MAX_EXTRA_PAN == 28
    # 천화 16 + 화만관 8 + 겐쇼 4: the other way to 28
    first = WinContext(
        by="tsumo", win_tile=parse_tile("1m"), seat_wind=EAST, round_wind=EAST, flowers=4,
        flags=("first_draw",),
    )  # fmt: skip
    sheet = score_hand(parse_tiles("111m 123m 456p 789p 77p"), [], first, MahjongRules())
    assert sheet.extra_pan == MAX_EXTRA_PAN


@pytest.mark.parametrize("pan_value", [1, 100])
def test_no_hand_bots_play_passes_the_mahjong_bound(pan_value: int) -> None:
    rules = MahjongRules(pan_value=pan_value, multiple_ron=True)
    g = spec("mahjong")
    assert g.max_points is not None
    assert g.max_points(rules) == max_points(rules) == 6 * max_hand_points(rules)
    assert max_hand_points(rules) == 62 * pan_value + 10
    session = MahjongSession(rules, pan_value, offers=False)
    bot, rng, won = BotPlayer("mahjong", "normal", 0.01), random.Random(pan_value), 0
    for _ in range(8):
        while not session.over:
            seat = session.pending()[0]
            session.step(seat, session.bot_move(seat, bot, rng))
        moved = sum(p for _, _, p, _ in session.payments())
        won += moved > 0
        pot = session.record().get("pot", 0)
        assert moved <= max_points(rules) + 6 * pot
        session.next_game()
    assert won  # some hands were won and paid


def test_no_played_matgo_game_passes_the_matgo_bound() -> None:
    g = spec("matgo")
    assert g.max_points is not None
    for overrides in ({}, {"missions": True, "bonus_cards": "2+2+2"}):
        rules = g.rules("default", overrides)
        bound = g.max_points(rules)
        session = g.session("default", 3, overrides)
        rng = random.Random(3)
        for _ in range(40):
            while not session.over:
                seat = session.pending()[0]
                session.step(seat, rng.choice(session.legal(seat)))
            carry = session.record().get("carry", 1)
            assert sum(p for _, _, p, _ in session.payments()) <= bound * carry
            session.next_game()


@pytest.mark.parametrize("preset", ["default", "gwangpalgi", "gwangpalgi_last"])
def test_no_played_gostop_game_passes_the_gostop_bound(preset: str) -> None:
    """Three seats, or four with 광팔기 (two losers among the three who play, and the
    sitter's 광값): no game played moves more than the bound times its carry."""
    g = spec("gostop")
    assert g.max_points is not None
    rules = g.rules(preset)
    bound = g.max_points(rules)
    session = g.session(preset, 5, None)
    rng = random.Random(5)
    gwang = 0
    for _ in range(30):
        while not session.over:
            seat = session.pending()[0]
            session.step(seat, rng.choice(session.legal(seat)))
        carry = session.record().get("carry", 1)
        payments = session.payments()
        gwang += any(reason == "gwang_sale" for _, _, _, reason in payments)
        assert sum(p for _, _, p, _ in payments) <= bound * carry
        session.next_game()
    if preset != "default":
        assert gwang  # the sitter was paid 광값 in some games: the bound counted it
    if preset == "gwangpalgi":  # the 광 money is on top of the three seats' bound
        assert bound == g.max_points(g.rules("default")) + 42
