"""Every option of :class:`MatgoRules` flipped, with the behaviour it changes; presets and
the ``from_dict`` / ``to_dict`` contract of ``notation.md``'s option names."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from madang.core.errors import RecordError, RuleConfigError
from madang.matgo.actions import action_str
from madang.matgo.cards import format_cards, mask_of, parse_cards
from madang.matgo.engine import Phase, new_game
from madang.matgo.record import export_record, replay
from madang.matgo.rules import (
    PRESETS,
    BonusCards,
    Chongtong,
    FirstDealer,
    Gukjin,
    MatgoRules,
    Meong,
    preset,
)
from madang.matgo.scoring import MISSIONS, mission_by_name, settle
from madang.matgo.view import view

ASK = MatgoRules(gukjin=Gukjin.ASK)
BEFORE = MatgoRules(gukjin=Gukjin.BEFORE_SCORE)


def _m(codes: str) -> int:
    return mask_of(parse_cards(codes))


# ------------------------------------------------------------------ bonus_cards


@pytest.mark.parametrize(
    ("value", "size", "bonus"),
    [("2+3", 50, "b2 b3"), ("none", 48, ""), ("2+2+2", 51, "b2 b2x b2y")],
)
def test_bonus_cards_deck(value: str, size: int, bonus: str) -> None:
    rules = MatgoRules.from_dict({"bonus_cards": value})
    assert rules.deck_size == size
    assert format_cards(rules.deck_mask & ~_m(" ".join(_month_codes()))) == bonus
    for seed in range(5):
        g = new_game(rules, seed=seed)
        assert len(g.deck) == size
        assert mask_of(g.deck) == rules.deck_mask
        assert g.total_cards() == rules.deck_mask and g.count_cards() == size
        assert len(g.pile) == size - 28 - g.captured[g.dealer].bit_count()  # floor bonus


def _month_codes() -> list[str]:
    from madang.matgo.cards import CODES

    return [c for c in CODES if not c.startswith("b")]


def test_bonus_cards_none_rejects_a_bonus_card(mg: SimpleNamespace) -> None:
    rules = MatgoRules(bonus_cards=BonusCards.NONE)
    with pytest.raises(RecordError):
        mg.game(dealer_hand="b2", rules=rules)
    deck = mg.deal_deck()  # a default deck has b2 and b3
    with pytest.raises(RecordError):
        new_game(rules, deck=deck)
    with pytest.raises(RecordError):
        new_game(MatgoRules(bonus_cards=BonusCards.THREE_TWOS), deck=deck)


def test_three_ssangpi_bonus_cards_are_dealt_and_worth_two(mg: SimpleNamespace) -> None:
    rules = MatgoRules(bonus_cards=BonusCards.THREE_TWOS)
    g = mg.game(floor="b2x 05p1", pile="b2y 09p1", rules=rules)
    assert mg.cap(g, 0) == "b2x b2y"
    assert g.floor.bit_count() == 8
    g = mg.game(dealer_hand="05p2", floor="05p1", pile="b2 10p1", rules=rules)
    mg.run(g, ["play 05p2"])
    assert mg.cap(g, 0) == "05p1 05p2 b2"
    from madang.matgo.cards import pi_value

    assert pi_value(_m("b2 b2x b2y")) == 6


# ------------------------------------------------------------------ jabbeok

_JABBEOK = {
    "dealer_hand": "01p1 05p2 05r",
    "other_hand": "03p1 04p1",
    "floor": "01p2 03p2 04p2 05p1",
    "pile": "09p1 10p1 05a 12g 11p1",
}
_JABBEOK_MOVES = ["play 01p1", "play 03p1", "play 05p2", "play 04p1", "play 05r"]


@pytest.mark.parametrize(
    ("jabbeok", "stolen"),
    [(True, [(0, "03p1", "ppeok"), (0, "03p2", "jabbeok")]), (False, [(0, "03p1", "ppeok")])],
    ids=["on-two", "off-one"],
)
def test_jabbeok(mg: SimpleNamespace, jabbeok: bool, stolen: list[Any]) -> None:
    g = mg.game(**_JABBEOK, rules=MatgoRules(jabbeok=jabbeok))
    events = mg.run(g, _JABBEOK_MOVES)
    assert mg.steals(events) == stolen


# ------------------------------------------------------------------ bonus_steals_pi


@pytest.mark.parametrize("on", [False, True], ids=["off", "on"])
def test_bonus_steals_pi(mg: SimpleNamespace, on: bool) -> None:
    rules = MatgoRules(bonus_steals_pi=on)
    g = mg.position(
        hands=("b2 05p2 06p1", "07p1"),
        floor="09p1 05p1",
        pile="10p1 b3 11p1",
        captured=("", "04p1 04p2 11d"),
        turns=(3, 3),
        rules=rules,
    )
    played = mg.run(g, ["play b2"])  # from the hand
    flipped = mg.run(g, ["play 05p2"])  # b3 flipped with the play
    if on:
        assert mg.steals(played) == [(0, "04p1", "bonus")]
        assert mg.steals(flipped) == [(0, "04p2", "bonus")]
        assert mg.cap(g, 1) == "11d"
    else:
        assert mg.steals(played) == mg.steals(flipped) == []
        assert mg.cap(g, 1) == "04p1 04p2 11d"


def test_bonus_steals_pi_not_on_the_last_card(mg: SimpleNamespace) -> None:
    g = mg.position(
        hands=("05p2", "07p1"),
        floor="05p1 09p1",
        pile="b3 11p1",
        captured=("", "04p1 11d"),
        turns=(9, 9),
        rules=MatgoRules(bonus_steals_pi=True),
    )
    events = mg.run(g, ["play 05p2"])
    assert "b3" in mg.cap(g, 0).split()
    assert mg.steals(events) == []


# ------------------------------------------------------------------ first_dealer


def test_first_dealer_high_and_night_low() -> None:
    match = pytest.importorskip("madang.matgo.match", reason="MatgoMatch not written yet")
    from madang.matgo.cards import MONTH

    seen = set()
    for seed in range(30):
        d_high, draws = match.draw_first_dealer(MatgoRules(), random.Random(seed))
        d_low, draws_low = match.draw_first_dealer(
            MatgoRules(first_dealer=FirstDealer.NIGHT_LOW), random.Random(seed)
        )
        assert draws == draws_low
        a, b = draws[-1]
        assert MONTH[a] != MONTH[b]
        assert all(MONTH[x] == MONTH[y] for x, y in draws[:-1])  # ties draw again
        assert d_high == (0 if MONTH[a] > MONTH[b] else 1)
        assert d_low == 1 - d_high
        seen.add(d_high)
    assert seen == {0, 1}
    m = match.MatgoMatch(MatgoRules(first_dealer=FirstDealer.NIGHT_LOW), seed=3)
    a, b = m.first_draws[-1]
    assert m.game.dealer == (0 if MONTH[a] < MONTH[b] else 1)


# ------------------------------------------------------------------ chongtong


@pytest.mark.parametrize("holder", ["dealer_hand", "other_hand"])
def test_chongtong_instant_ends_at_once(mg: SimpleNamespace, holder: str) -> None:
    rules = MatgoRules(chongtong=Chongtong.INSTANT)
    g = mg.game(**{holder: "05a 05r 05p1 05p2"}, rules=rules)
    seat = 0 if holder == "dealer_hand" else 1
    assert g.over and g.winner == seat and g.points == 10
    assert mg.pays(g) == [(1 - seat, seat, 10, "chongtong")]
    g = mg.game(**{holder: "05a 05r 05p1 05p2"})
    assert g.phase is Phase.CHONGTONG and not g.over


# ------------------------------------------------------------------ pibak_zero_pi and meong


@pytest.mark.parametrize(
    ("zero", "loser", "pibak"),
    [
        (False, "01g", False),
        (True, "01g", True),
        (False, "01p1", True),
        (True, "01p1", True),
        (False, "01p1 02p1 03p1 04p1 05p1 06p1 07p1 08p1", False),
    ],
    ids=["off-zero-pi", "on-zero-pi", "off-one-pi", "on-one-pi", "eight-pi"],
)
def test_pibak_zero_pi(zero: bool, loser: str, pibak: bool) -> None:
    winner = _m("09p1 09p2 10p1 10p2 11p1 11p2 11d 12d")  # 피 10: 1 point
    s = settle(winner, _m(loser), rules=MatgoRules(pibak_zero_pi=zero))
    assert ("pibak" in [m.name for m in s.multipliers]) is pibak
    assert s.points == (2 if pibak else 1)


def test_pibak_zero_pi_in_a_game(mg: SimpleNamespace) -> None:
    pos = {
        "hands": ("05p2 06p1", "07r"),
        "floor": "05p1 09r",
        "pile": "10r",
        # 4 광 (4) and 피 10; 05p2 x 05p1 makes 피 12 (3): 7
        "captured": ("01g 03g 08g 11g 01p1 01p2 02p1 02p2 03p1 03p2 04p1 11p1 11d", "12g"),
    }
    for zero, points in ((False, 7), (True, 14)):
        g = mg.position(**pos, rules=MatgoRules(pibak_zero_pi=zero))
        mg.run(g, ["play 05p2"])
        assert g.phase is Phase.GO_STOP and g.score(0) == 7
        mg.run(g, ["stop"])
        assert g.points == points


@pytest.mark.parametrize(
    ("meong", "loser", "factor"),
    [
        ("meongtta", "01g", 2),
        ("meongtta", "01g 12a", 2),
        ("meongbak", "01g", 2),
        ("meongbak", "01g 12a", 1),
    ],
    ids=["meongtta-loser-none", "meongtta-loser-one", "meongbak-loser-none", "meongbak-loser-one"],
)
def test_meong(meong: str, loser: str, factor: int) -> None:
    winner = _m("02a 04a 05a 06a 07a 08a 10a")  # 7 열끗 (3) + 고도리 (5) = 8
    s = settle(winner, _m(loser), rules=MatgoRules.from_dict({"meong": meong}))
    assert s.base == 8
    assert s.points == 8 * factor
    names = [m.name for m in s.multipliers]
    assert names == ([] if factor == 1 else [meong])


# ------------------------------------------------------------------ gukjin


def test_gukjin_ask_question_after_capturing_09a(mg: SimpleNamespace) -> None:
    g = mg.game(dealer_hand="09a", floor="09p1", pile="10p1", rules=ASK)
    mg.run(g, ["play 09a"])
    assert g.phase is Phase.GUKJIN and g.current == 0
    assert [action_str(a) for a in g.legal_actions()] == ["gukjin animal", "gukjin pi"]
    assert view(g, 0)["gukjin"] == "free"
    events = mg.run(g, ["gukjin pi"])
    assert events[0] == ("gukjin_fixed", 0, "pi")
    assert view(g, 1)["gukjin"] == "pi"
    assert g.pending() == {"seat": 1, "question": "play"}
    # asked once only: the default (auto) never asks
    g = mg.game(dealer_hand="09a", floor="09p1", pile="10p1")
    mg.run(g, ["play 09a"])
    assert g.phase is Phase.PLAY and g.current == 1


_GUKJIN_STEAL = {  # P1 takes 09a with 09p1; P0 then makes two 쪽
    "hands": ("05p2 06p2 01p1", "09p1 08p1"),
    "floor": "09a 10p1",
    "pile": "11p1 05r 12g 06r",
    "current": 1,
    "turns": (3, 3),
}


def test_gukjin_ask_pi_is_stolen_after_single_pi_and_stays_ssangpi(mg: SimpleNamespace) -> None:
    g = mg.position(**_GUKJIN_STEAL, rules=ASK)
    mg.run(g, ["play 09p1", "gukjin pi"])
    first = mg.run(g, ["play 05p2"])
    assert mg.steals(first) == [(0, "09p1", "jjok")]  # the single 피 goes first
    second = mg.run(g, ["play 08p1", "play 06p2"])
    assert mg.steals(second) == [(0, "09a", "jjok")]  # then 국진 as 쌍피
    assert view(g, 0)["gukjin"] == "pi"
    # P0: 05r 05p2 06r 06p2 09p1 + 09a as 쌍피 = 피 5
    from madang.matgo.scoring import pi_count

    assert pi_count(g.captured[0], True) == 5


def test_gukjin_ask_animal_is_never_stolen(mg: SimpleNamespace) -> None:
    g = mg.position(**_GUKJIN_STEAL, rules=ASK)
    mg.run(g, ["play 09p1", "gukjin animal", "play 05p2", "play 08p1"])
    events = mg.run(g, ["play 06p2"])
    assert mg.steals(events) == []
    assert "steal_none" in mg.types(events)
    assert "09a" in mg.cap(g, 1).split()


def test_gukjin_auto_becomes_animal_when_nothing_else_can_be_given(mg: SimpleNamespace) -> None:
    g = mg.position(
        hands=("05p2 06p1", "07p1"),
        floor="09p1",
        pile="05r",
        captured=("", "09a 01g"),
        turns=(3, 3),
    )
    assert view(g, 0)["gukjin"] == "free"
    events = mg.run(g, ["play 05p2"])
    assert ("gukjin_fixed", 1, "animal") in events
    assert "steal_none" in mg.types(events)
    assert mg.cap(g, 1) == "01g 09a"
    assert view(g, 0)["gukjin"] == "animal"


def test_gukjin_auto_is_kept_when_other_cards_can_be_given(mg: SimpleNamespace) -> None:
    g = mg.position(
        hands=("05p2 06p1", "07p1"),
        floor="09p1",
        pile="05r",
        captured=("", "09a 11d"),
        turns=(3, 3),
    )
    events = mg.run(g, ["play 05p2"])
    assert mg.steals(events) == [(0, "11d", "jjok")]
    assert view(g, 0)["gukjin"] == "free"


def test_gukjin_auto_counts_best_at_a_score_check(mg: SimpleNamespace) -> None:
    g = mg.position(captured=("09a 01p1 01p2 02p1 02p2 03p1 03p2 04p1 04p2", ""))
    assert g.score(0) == 1  # 국진 as 쌍피: 피 10
    g = mg.position(captured=("09a 02a 04a 05a 06a 07p1", ""), rules=ASK)
    assert g.score(0) == 1  # not fixed yet: counted best (5 열끗)


#: P0 holds 광 3 + 홍단 (6 points) and 피 8 + 국진: as 쌍피 it makes 피 10, 7 points.
_GUKJIN_BEFORE = {
    "hands": ("05p2 06p1", "07p1 07p2"),
    "floor": "10p1",
    "pile": "11p1 04p1 04p2",
    "captured": ("01g 03g 08g 01r 02r 03r 09a 01p1 01p2 02p1 02p2 03p1 03p2 05p1 06p2", ""),
    "turns": (3, 3),
}


def test_gukjin_before_score_counts_animal_until_it_would_make_a_score(
    mg: SimpleNamespace,
) -> None:
    g = mg.position(**{**_GUKJIN_BEFORE, "captured": ("09a 01p1 01p2", "")}, rules=BEFORE)
    assert g.score(0) == 0 and view(g, 0)["gukjin_as"][0] == "animal"
    mg.run(g, ["play 05p2"])  # a score check that no count could make a score
    assert g.phase is Phase.PLAY and g.current == 1


def test_gukjin_before_score_asks_just_before_the_score(mg: SimpleNamespace) -> None:
    g = mg.position(**_GUKJIN_BEFORE, rules=BEFORE)
    assert g.score(0) == 6  # 국진 counted as 열끗 so far
    mg.run(g, ["play 05p2"])
    assert g.phase is Phase.GUKJIN and g.current == 0
    assert g.default_action() == g.legal_actions()[1]  # 쌍피 scores more
    events = mg.run(g, ["gukjin pi"])
    assert events[0] == ("gukjin_fixed", 0, "pi")
    assert g.phase is Phase.GO_STOP and g.score(0) == 7
    assert view(g, 0)["gukjin_as"][0] == "pi" and view(g, 0)["stop_now"]["points"] >= 7
    # answered 열끗: no score, the game goes on, and it is never asked again
    g = mg.position(**_GUKJIN_BEFORE, rules=BEFORE)
    mg.run(g, ["play 05p2", "gukjin animal"])
    assert g.phase is Phase.PLAY and g.current == 1 and g.score(0) == 6
    mg.run(g, ["play 07p1", "play 06p1"])
    assert g.phase is not Phase.GUKJIN


# ------------------------------------------------------------------ missions


def test_missions_off_has_no_mission_and_rejects_one() -> None:
    assert new_game(seed=1).mission is None
    with pytest.raises(RecordError):
        new_game(seed=1, mission="godori")


def test_missions_on_draws_a_mission_and_records_it() -> None:
    rules = MatgoRules(missions=True)
    g = new_game(rules, seed=1)
    assert g.mission in MISSIONS
    assert view(g, None)["mission"] == g.mission.name
    g = new_game(rules, seed=1, mission="hongdan")
    assert g.mission is mission_by_name("hongdan")
    rec = export_record(g)
    assert rec["mission"] == "hongdan" and rec["rules"] == rules.to_dict()
    assert rec["rules"]["missions"] is True and rec["ruleset"] == "1"
    assert replay(rec).mission is g.mission
    with pytest.raises(RecordError):
        new_game(rules, seed=1, mission="no-such-mission")


def test_mission_multiplies_a_winner_who_completed_it(mg: SimpleNamespace) -> None:
    pos = {
        "hands": ("03r 06p1", "07p1"),
        "floor": "03p1 09p1",
        "pile": "10p1",
        "captured": ("01g 08g 11g 12g 01r 02r", "03g"),
    }
    g = mg.position(**pos, rules=MatgoRules(missions=True), mission="hongdan")
    mg.run(g, ["play 03r", "stop"])  # 4 광 (4) + 홍단 (3) = 7, x2 홍단 mission
    assert g.points == 14
    assert [m.name for m in g.sheet.multipliers] == ["mission_hongdan"]
    g = mg.position(**pos, rules=MatgoRules(missions=True), mission="cheongdan")
    mg.run(g, ["play 03r", "stop"])
    assert g.points == 7


@pytest.mark.parametrize("mission", MISSIONS, ids=lambda m: m.name)
def test_mission_table_in_settle(mission: Any) -> None:
    ten_pi = _m("01p1 02p1 03p1 04p1 05p1 06p1 07p1 09p1 10p1 11p1")
    loser = _m("12r")  # in no mission; no 피, so no 피박
    base = settle(mission.cards | ten_pi, loser)
    s = settle(mission.cards | ten_pi, loser, mission=mission)
    assert s.points == base.points * mission.multiplier
    assert settle(ten_pi, loser, mission=mission).points == 1  # not completed


# ------------------------------------------------------------------ from_dict / presets


@pytest.mark.parametrize(
    "data",
    [
        {"bonus_cards": "2+3"},
        {"bonus_cards": "none"},
        {"bonus_cards": "2+2+2"},
        {"jabbeok": False},
        {"bonus_steals_pi": True},
        {"first_dealer": "night_low"},
        {"chongtong": "instant"},
        {"pibak_zero_pi": True},
        {"meong": "meongbak"},
        {"gukjin": "ask"},
        {"missions": True},
        {"jabbeok": False, "gukjin": "ask", "bonus_cards": "none"},
    ],
    ids=lambda d: ",".join(f"{k}={v}" for k, v in d.items()),
)
def test_from_dict_round_trip(data: dict[str, Any]) -> None:
    rules = MatgoRules.from_dict(data)
    defaults = MatgoRules().to_dict()
    assert rules.changes() == {k: v for k, v in data.items() if defaults[k] != v}
    assert MatgoRules.from_dict(rules.changes()) == rules
    assert MatgoRules.from_dict(rules.to_dict()) == rules


def test_option_names_are_those_of_notation_md() -> None:
    assert list(MatgoRules().to_dict()) == [
        "bonus_cards", "jabbeok", "bonus_steals_pi", "first_dealer", "chongtong",
        "pibak_zero_pi", "meong", "gukjin", "missions",
    ]  # fmt: skip
    assert MatgoRules().to_dict() == {
        "bonus_cards": "2+3", "jabbeok": True, "bonus_steals_pi": False,
        "first_dealer": "high", "chongtong": "choice", "pibak_zero_pi": False,
        "meong": "meongtta", "gukjin": "auto", "missions": False,
    }  # fmt: skip
    assert MatgoRules.from_dict({}) == MatgoRules.from_dict(None) == MatgoRules()


@pytest.mark.parametrize(
    "data",
    [
        {"no_such_option": 1},
        {"bonus_cards": "3+3"},
        {"bonus_cards": 2},
        {"jabbeok": "yes"},
        {"jabbeok": 1},
        {"bonus_steals_pi": None},
        {"first_dealer": "low"},
        {"chongtong": True},
        {"pibak_zero_pi": "false"},
        {"meong": "MEONGBAK"},
        {"gukjin": "pi"},
        {"missions": 0},
        {"min_pan": 2},
        [("jabbeok", False)],
        "default",
        7,
    ],
    ids=repr,
)
def test_from_dict_errors(data: Any) -> None:
    with pytest.raises(RuleConfigError):
        MatgoRules.from_dict(data)


def test_constructor_validates() -> None:
    with pytest.raises(RuleConfigError):
        MatgoRules(jabbeok="no")  # type: ignore[arg-type]
    with pytest.raises(RuleConfigError):
        MatgoRules(meong="meongbak")  # type: ignore[arg-type]
    with pytest.raises(RuleConfigError):
        MatgoRules().replace(gukjin="ask")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets(name: str) -> None:
    rules = preset(name)
    assert rules is PRESETS[name]
    assert MatgoRules.from_dict(rules.to_dict()) == rules
    g = new_game(rules, seed=11)
    while not g.over:
        g.step(g.default_action())
    assert g.total_cards() == rules.deck_mask


def test_preset_contents() -> None:
    assert preset("default") == MatgoRules()
    assert preset("classic").deck_size == 48
    assert preset("bonus3").deck_size == 51
    assert preset("strict").changes() == {
        "chongtong": "instant", "pibak_zero_pi": True, "meong": "meongbak",
    }  # fmt: skip
    assert preset("tournament").changes() == {"jabbeok": False, "gukjin": "before_score"}
    assert preset("missions").missions is True
    with pytest.raises(RuleConfigError):
        preset("no-such-preset")


def test_rules_are_frozen() -> None:
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        MatgoRules().jabbeok = False  # type: ignore[misc]
    assert MatgoRules().replace(meong=Meong.MEONGBAK).meong is Meong.MEONGBAK
