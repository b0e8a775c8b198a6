"""고스톱 for three seats on the family's engine (``gostop.md``): the deal, turn order,
steals from each opponent, instant payments, special endings and the settlement per loser
with 독박 — the worked examples of §13 as engine situations (card codes in, payments out)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.gostop.tables import give, run, stop_with, table

from madang.core.errors import RecordError, RuleConfigError
from madang.gostop.rules import GostopRules
from madang.matgo.cards import BIT, CODES, NUM_MONTH_CARDS, format_cards, parse_cards
from madang.matgo.deal import arrange_seats
from madang.matgo.engine import MatgoState, Phase, new_game
from madang.matgo.rules import BbeokStealFrom, BonusCards, Chongtong, Gukjin, Meong

GS = GostopRules()


def pays(g: MatgoState) -> list[tuple[int, int, int, str]]:
    return list(g.payments)


def fresh(rules: GostopRules = GS, carry: int = 1) -> MatgoState:
    for seed in range(100):
        g = new_game(rules, seed=seed, carry=carry)
        if not g.over and not g.captured[0]:
            return g
    raise AssertionError("no plain deal")


# ------------------------------------------------------------------ deal and turns


def test_deal_layout_seven_six_counter_clockwise() -> None:
    # §13.1: 선 = P2; P0 (=선+1) gets deck[0-3, 15-17], P1 deck[4-7, 18-20], P2 deck[8-11,
    # 21-23]; floor deck[12-14, 24-26]; pile from deck[27]
    g = next(
        g
        for seed in range(50)
        if not (g := new_game(GS, seed=seed, dealer=2)).over and not g.captured[2]
    )
    ids = g.deck
    mask = [sum(BIT[ids[i]] for i in r) for r in (
        [*range(0, 4), *range(15, 18)], [*range(4, 8), *range(18, 21)],
        [*range(8, 12), *range(21, 24)], [*range(12, 15), *range(24, 27)],
    )]  # fmt: skip
    assert g.hands == mask[:3]
    assert g.floor == mask[3]
    assert len(g.pile) == 24 and g.pile[-1] == ids[27]
    assert g.current == 2 and g.phase is Phase.PLAY


def test_bonus_card_on_the_floor_goes_to_the_dealer_and_is_replaced() -> None:
    # §13.1: deck[13] is b3: it goes to 선's (P2's) captured pile; deck[27] takes its place
    ids = [c for c in range(len(BIT)) if GS.deck_mask & BIT[c] and c < NUM_MONTH_CARDS]
    b3 = parse_cards("b3")[0]
    ids = [*ids[:13], b3, *ids[13:], *parse_cards("b2 b2x")]
    g = new_game(GS, deck=ids, dealer=2)
    assert format_cards(g.captured[2]) == "b3"
    assert g.floor & BIT[ids[27]] and g.floor.bit_count() == 6
    assert len(g.pile) == 23


def test_turns_go_dealer_then_counter_clockwise() -> None:
    g = table({1: "02a", 2: "03g"}, dealer=1)  # 선 P1, then P2, then P0
    seen = []
    for _ in range(6):
        seen.append(g.current)
        g.step(g.default_action())
        while g.phase is not Phase.PLAY and not g.over:
            g.step(g.default_action())
    assert seen == [1, 2, 0, 1, 2, 0]


def test_bad_setups_are_typed_errors() -> None:
    with pytest.raises(RecordError, match="dealer must be a seat from 0 to 2"):
        new_game(GS, seed=1, dealer=3)
    with pytest.raises(RecordError, match="does not match the rules"):
        new_game(GS, deck=new_game(seed=1).deck)  # a 맞고 deck of 50 cards
    with pytest.raises(RuleConfigError, match="'players' must be one of 3, 4"):
        GostopRules.from_dict({"players": 5})
    with pytest.raises(RecordError, match="no_die is for 4 players"):
        new_game(GS, seed=1, no_die=[1])
    with pytest.raises(RecordError, match="no_die must be a list of seats from 0 to 3"):
        new_game(GostopRules(players=4), seed=1, no_die=[4])
    with pytest.raises(RecordError, match="deal 3 hands, not 2"):
        arrange_seats(["01g", "02a"], rules=GS)


# ------------------------------------------------------------------ steals and instants


def test_jjok_steals_from_each_opponent_in_turn_order() -> None:
    # §13.8: P0 plays 05p1 and flips 05p2 (쪽): P1 gives 03p1, then P2 gives 12d
    g = table({0: "05p1"}, pile="05p2")
    give(g, 1, "03p1 11d")
    give(g, 2, "12d")
    g.step("play 05p1")
    steals = [e for e in g.events if e[0] == "steal"]
    assert [(e[1], e[2], CODES[e[3]], e[4]) for e in steals] == [
        (0, 1, "03p1", "jjok"),
        (0, 2, "12d", "jjok"),
    ]
    assert format_cards(g.captured[1]) == "11d" and not g.captured[2]
    assert g.current == 1


def test_a_victim_with_nothing_gives_nothing_the_other_still_gives() -> None:
    g = table({0: "05p1"}, pile="05p2")
    give(g, 2, "12d")
    g.step("play 05p1")
    assert [(e[0], e[2]) for e in g.events if e[0] in ("steal", "steal_none")] == [
        ("steal_none", 1),
        ("steal", 2),
    ]


def _ppeok_game(carry: int = 1, rules: GostopRules = GS) -> MatgoState:
    # P1's first three turns are each a 뻑 (§13.9, §13.10); P0 and P2 play harmlessly
    return table(
        {0: "12g 12a 12r", 1: "07p1 06p1 05p1", 2: "10a 10r"},
        floor="07r 06r 05r",
        pile="11g 07p2 09a 11d 06p2 09r 11p1 05p2",
        carry=carry,
        rules=rules,
    )


_PPEOK_MOVES = [
    "play 12g", "play 07p1", "play 10a", "play 12a", "play 06p1", "play 10r", "play 12r",
    "play 05p1",
]  # fmt: skip


def test_first_ppeok_is_paid_by_each_opponent_after_the_receiver() -> None:
    g = _ppeok_game()
    run(g, _PPEOK_MOVES[:2])
    assert pays(g) == [(2, 1, 3, "cheot_ppeok"), (0, 1, 3, "cheot_ppeok")]
    assert g.stack_maker[7] == 1


def test_three_yeon_ppeok_ends_the_game_21_from_each() -> None:
    # §13.10: 3 + 6 + 9, then 3뻑 3 more: P0 -> P1 21, P2 -> P1 21
    g = _ppeok_game()
    run(g, _PPEOK_MOVES)
    assert g.over and g.winner == 1 and g.end_reason == "sam_ppeok"
    got: dict[int, int] = {}
    for frm, to, pts, _ in g.payments:
        assert to == 1
        got[frm] = got.get(frm, 0) + pts
    assert got == {0: 21, 2: 21}
    assert [r for f, _, _, r in g.payments if f == 2] == [
        "cheot_ppeok", "yeon_ppeok", "sam_yeon_ppeok", "sam_ppeok",
    ]  # fmt: skip
    # with carry 2 only the 3뻑 part doubles: 3 + 6 + 9 + 6 = 24 from each
    g = _ppeok_game(carry=2)
    run(g, _PPEOK_MOVES)
    assert sum(p for f, _, p, _ in g.payments if f == 0) == 24


def test_first_bbeok_points_scale_and_zero_turns_them_off() -> None:
    g = _ppeok_game(rules=GostopRules(first_bbeok_points=5, three_bbeok_points=4))
    run(g, _PPEOK_MOVES)
    assert [p for f, _, p, _ in g.payments if f == 0] == [5, 10, 15, 4]
    g = _ppeok_game(rules=GostopRules(first_bbeok_points=0))
    run(g, _PPEOK_MOVES)
    assert g.payments == [(2, 1, 3, "sam_ppeok"), (0, 1, 3, "sam_ppeok")]


def test_taking_a_ppeok_stack_steals_from_each_or_from_its_maker() -> None:
    # P1 makes a 뻑 of July; P2 takes it with 07a: one 피 from each of P0 and P1, or with
    # bbeok_steal_from: maker only from P1
    for rules, victims in ((GS, [0, 1]), (GostopRules(bbeok_steal_from=BbeokStealFrom.MAKER), [1])):
        g = table({0: "12g", 1: "07p1", 2: "07a"}, floor="07r", pile="11g 07p2 10a", rules=rules)
        give(g, 0, "01p1")
        give(g, 1, "02p1")
        run(g, ["play 12g", "play 07p1"])
        assert g.stack_maker[7] == 1
        g.step("play 07a")
        steals = [e for e in g.events if e[0] == "steal"]
        assert [e[2] for e in steals] == victims
        assert all(e[4] == "ppeok" for e in steals)


def test_three_ppeok_with_a_carry_is_flat() -> None:
    # §13.11: carry 2; P2's third 뻑 of the game comes on its 5th turn (the earlier ones on
    # turns 2 and 4: no instant payments): P0 -> P2 6, P1 -> P2 6, even though P0 called 고
    g = table({0: "12g", 1: "10a", 2: "07p1"}, floor="07r", pile="11g 09p1 07p2", carry=2)
    g.ppeok_count[2], g.turns[2], g.ppeok_turns[2] = 2, 4, 1 << 2 | 1 << 4
    g.go_count[0], g.go_at[0] = 1, 1
    run(g, ["play 12g", "play 10a", "play 07p1"])
    assert g.over and g.winner == 2 and g.end_reason == "sam_ppeok"
    assert pays(g) == [(0, 2, 6, "sam_ppeok"), (1, 2, 6, "sam_ppeok")]
    assert g.points == 12  # each pays its own: no 독박 on a 3뻑 (§14.9)


def test_chongtong_wins_at_once_from_each() -> None:
    # §13.13: P2 is dealt 08g 08a 08p1 08p2: P0 -> P2 5, P1 -> P2 5; with carry 2, 10 each
    for carry, pts in ((1, 5), (2, 10)):
        g = table({2: "08g 08a 08p1 08p2"}, carry=carry)
        assert g.over and g.winner == 2 and g.end_reason == "chongtong"
        assert pays(g) == [(0, 2, pts, "chongtong"), (1, 2, pts, "chongtong")]


def test_two_chongtong_is_a_redeal() -> None:
    g = table({1: "08g 08a 08p1 08p2", 2: "09a 09r 09p1 09p2"})
    assert g.over and g.winner is None and g.end_reason == "redeal" and not g.payments


# ------------------------------------------------------------------ settlement per loser


def test_plain_stop_gwangbak_on_one_loser() -> None:
    # §13.2: P0 stops at 3 with 01g 03g 08g; P1 holds 11g, P2 no 광: P1 3, P2 6 (광박)
    g = fresh()
    stop_with(g, 0, {0: "01g 03g 08g", 1: "11g", 2: "02p1"})
    assert pays(g) == [(1, 0, 3, "win"), (2, 0, 6, "win")]
    assert g.points == 9 and [s.stake for s in g.sheets] == [3, 3]
    assert [m.name for m in g.sheets[1].multipliers] == ["gwangbak"]


@pytest.mark.parametrize(
    ("rules", "p2_pile", "p2_pays"),
    [
        (GS, "", 5),  # no 피 at all: exempt
        (GostopRules(pibak_zero_pi=True), "", 10),
        (GS, "04p1 04p2 05p1 05p2 06p1 06p2", 5),  # 피 value 6: above the threshold
        (GostopRules(pibak_max_pi=6), "04p1 04p2 05p1 05p2 06p1 06p2", 10),
    ],
    ids=["zero-exempt", "pibak_zero_pi", "six-pi", "pibak_max_pi-6"],
)
def test_pibak_at_five(rules: GostopRules, p2_pile: str, p2_pays: int) -> None:
    # §13.3: P1 stops with 피 value 11 (2) + 홍단 (3) = 5; P0's 피 value is 5: P0 -> P1 10
    g = fresh(rules)
    piles = {
        1: "01r 02r 03r 07p1 07p2 08p1 08p2 09p1 09p2 10p1 10p2 11d 11p1",
        0: "12d 11p2 01p1 01p2",
    }
    if p2_pile:
        piles[2] = p2_pile
    stop_with(g, 1, piles)
    assert pays(g) == [(2, 1, p2_pays, "win"), (0, 1, 10, "win")]


def test_gobak_dokbak_pays_both_shares() -> None:
    # §13.4: P0 went at 3 (3 광); P1 stops with 홍단: shares 3 and 3, P0 pays 6, P2 nothing
    for rules, pts in ((GS, 6), (GostopRules(gobak_multiplier=2), 12)):
        g = fresh(rules)
        stop_with(g, 1, {0: "01g 03g 08g", 1: "01r 02r 03r", 2: "12g"}, go=[0])
        assert pays(g) == [(0, 1, pts, "win")]
        assert g.dokbak_seat(1) == 0 and g.points == pts


def test_dokbak_carries_the_other_losers_bak() -> None:
    # §13.5: P0 went at 3 (초단), P2 stops with 피 value 12; P0 피 7 (share 3), P1 피 4
    # (피박: share 6): P0 -> P2 9
    g = fresh()
    stop_with(
        g,
        2,
        {
            0: "04r 05r 07r 01p1 01p2 02p1 02p2 03p1 03p2 04p1",
            1: "04p2 05p1 05p2 06p1",
            2: "06p2 07p1 07p2 08p1 08p2 09p1 09p2 10p1 10p2 11p1 12d",
        },
        go=[0],
    )
    assert pays(g) == [(0, 2, 9, "win")]


def test_of_two_go_callers_the_later_is_in_gobak() -> None:
    # §13.6: P0 goes (홍단), then P1 goes (청단), P2 stops with 초단: P1 -> P2 6
    g = fresh()
    stop_with(g, 2, {0: "01r 02r 03r", 1: "06r 09r 10r", 2: "04r 05r 07r"}, go=[0, 1])
    assert pays(g) == [(1, 2, 6, "win")]


def test_three_go_shake_and_pibak() -> None:
    # §13.7: S = (6 + 3) x 2 (3고) x 2 (흔들기) = 36; P1 (피 4) pays 72, P2 (피 8) 36
    g = fresh()
    pi12 = "06p1 06p2 07p1 07p2 08p1 08p2 09p1 09p2 10p1 10p2 11p1 11p2"
    stop_with(
        g,
        0,
        {
            0: "01r 02r 03r " + pi12,
            1: "01p1 01p2 02p1 02p2",
            2: "03p1 03p2 04p1 04p2 05p1 05p2 12d",
        },
        go=[0, 0, 0],
        shakes=1,
    )
    assert g.sheets[0].stake == 36
    assert pays(g) == [(1, 0, 72, "win"), (2, 0, 36, "win")]


def test_nagari_carry_doubles_s() -> None:
    # §13.12, game 2 with carry 2: P1 stops with 피 value 13 (4): S = 8; P0 (피 3) pays 16,
    # P2 (피 8) pays 8
    g = fresh(carry=2)
    stop_with(
        g,
        1,
        {
            1: "01p1 01p2 02p1 02p2 03p1 03p2 04p1 04p2 05p1 05p2 06p1 06p2 07p1",
            0: "07p2 08p1 08p2",
            2: "09p1 09p2 10p1 10p2 11p1 11p2 12d",
        },
    )
    assert pays(g) == [(2, 1, 8, "win"), (0, 1, 16, "win")]


@pytest.mark.parametrize(
    ("meong", "p1", "p2"), [(Meong.MEONGTTA, 6, 6), (Meong.MEONGBAK, 3, 6)], ids=["멍따", "멍박"]
)
def test_meongtta_and_meongbak(meong: Meong, p1: int, p2: int) -> None:
    # §13.14: P0 stops with 7 열끗 (3); P1 holds one 열끗, P2 none
    g = fresh(GostopRules(meong=meong))
    stop_with(g, 0, {0: "02a 04a 05a 06a 07a 10a 12a", 1: "08a", 2: "01p1"})
    assert pays(g) == [(1, 0, p1, "win"), (2, 0, p2, "win")]


def test_stop_points_is_a_rules_value() -> None:
    # a 쪽 takes P0 from 피 value 9 to 11: 2 points, asked only with stop_points 2; from
    # 10 to 12: 3 points, asked with the default
    for rules, pile, asked in (
        (GS, "01p1 01p2 02p1 02p2 03p1 03p2 04p1 04p2 06p1", False),
        (GostopRules(stop_points=2), "01p1 01p2 02p1 02p2 03p1 03p2 04p1 04p2 06p1", True),
        (GS, "01p1 01p2 02p1 02p2 03p1 03p2 04p1 04p2 06p1 06p2", True),
    ):
        g = table({0: "05p1"}, pile="05p2", rules=rules)
        give(g, 0, pile)
        g.step("play 05p1")
        assert (g.phase is Phase.GO_STOP and g.current == 0) is asked


def test_bonus_card_sets() -> None:
    for value, size in (("2+2+3", 51), ("2+3", 50), ("2+2+2", 51), ("none", 48)):
        rules = GostopRules(bonus_cards=BonusCards(value))
        g = new_game(rules, seed=4)
        assert g.count_cards() == size and g.total_cards() == rules.deck_mask


# ------------------------------------------------------------------ the example records

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "gostop"


@pytest.mark.parametrize(
    "name",
    [
        "01_jjok_steals_from_both",
        "02_first_bbeok",
        "03_gwang_sale",
    ],
)
def test_example_records_replay_on_the_engine(name: str) -> None:
    """The records of ``gostop.md``'s examples (copied from the rules' examples), played
    on the engine: the payments and the result they expect."""
    record = json.loads((GOLDEN / f"{name}.json").read_text())
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text())
    rules = GostopRules.from_dict({**record["rules"], "players": record["players"]})
    g = new_game(
        rules, deck=record["deck"], dealer=record["dealer"], carry=record["carry"],
        no_die=record["no_die"],
    )  # fmt: skip
    run(g, record["moves"])
    assert g.over is expected["finished"]
    assert g.winner == expected["winner"] and g.points == expected["points"]
    assert g.sitter == (-1 if expected["sitting_out"] is None else expected["sitting_out"])
    assert g.seller == (-1 if expected["seller"] is None else expected["seller"])
    assert [{"from": f, "to": t, "points": p} for f, t, p, _ in g.payments] == expected["payments"]
    if name.startswith("01"):
        steals = [(e[2], CODES[e[3]]) for e in g.events if e[0] == "steal"]
        assert steals == [(1, "03p1"), (2, "12d")]


@pytest.mark.parametrize(("jabbeok", "each"), [(True, 2), (False, 1)], ids=["자뻑-2", "자뻑-1"])
def test_jabbeok_takes_two_from_each(jabbeok: bool, each: int) -> None:
    # P1 makes a 뻑 of July on its first turn, then takes it back with 07a (§3)
    g = table(
        {0: "12g 12a", 1: "07p1 07a", 2: "10a"},
        floor="07r",
        pile="11g 07p2 09a 11d 06p1",
        rules=GostopRules(jabbeok=jabbeok),
    )
    give(g, 0, "01p1 01p2 02p1")
    give(g, 2, "03p1 03p2 04p1")
    run(g, ["play 12g", "play 07p1", "play 10a", "play 12a", "play 07a"])
    steals = [(e[2], e[4]) for e in g.events if e[0] == "steal"]
    want = [(2, "ppeok"), (0, "ppeok")] + [(2, "jabbeok"), (0, "jabbeok")] * (each - 1)
    assert steals == want
    assert g.captured[0].bit_count() == 3 - each + 4  # with 12g 12a 11g 11d taken
    assert g.captured[2].bit_count() == 3 - each  # (10a and 09a lie on the floor)


def test_gukjin_counts_for_the_winner_and_for_each_loser() -> None:
    # §6.5: the winner's 국진 counts as 쌍피 when that pays more; a loser's the way that
    # makes that loser's own share smaller
    g = fresh()
    singles9 = "01p1 01p2 02p1 02p2 03p1 03p2 04p1 04p2 05p1"
    stop_with(
        g, 0, {0: singles9 + " 09a", 1: "06p1 06p2 07p1", 2: "07p2 08p1 08p2 10p1 10p2 11p1 11p2"}
    )
    assert g.sheets[0].gukjin == {"winner": "pi"}  # 피 11: 2 points; as 열끗 it scores 0
    assert pays(g) == [(1, 0, 4, "win"), (2, 0, 2, "win")]  # P1 피 3: 피박
    g = fresh()
    pi12 = "01p1 01p2 02p1 02p2 03p1 03p2 04p1 04p2 05p1 05p2 06p1 06p2"
    stop_with(g, 0, {0: pi12, 1: "09a 07p1 07p2 08p1 08p2", 2: "10p1 10p2 11p1 11p2"})
    # P1 as 쌍피 has 피 6 (no 피박): pays 3; P2 피 4: 피박, 6
    assert g.sheets[0].gukjin == {"loser": "pi"}
    assert pays(g) == [(1, 0, 3, "win"), (2, 0, 6, "win")]


def test_a_seat_with_nothing_to_play_is_skipped() -> None:
    # §14.7: P1 has no card and no bomb token: play goes P0, P2, P0 …
    g = table({0: "05p1 06p1", 2: "07p1"})
    give(g, 1, format_cards(g.hands[1]))
    assert not g.hands[1]
    seen = []
    for _ in range(4):
        seen.append(g.current)
        g.step(g.default_action())
        while g.phase is not Phase.PLAY and not g.over:
            g.step(g.default_action())
    assert seen == [0, 2, 0, 2]


def test_chongtong_choice_among_three() -> None:
    # chongtong: choice (M§5): P2 is asked before 선's first move; stopping wins
    # chongtong_points from each, playing on counts as a 흔들기 and 선 moves first
    rules = GostopRules(chongtong=Chongtong.CHOICE, chongtong_points=7)
    g = table({2: "08g 08a 08p1 08p2"}, rules=rules)
    assert g.phase is Phase.CHONGTONG and g.current == 2
    g.step("chongtong stop")
    assert pays(g) == [(0, 2, 7, "chongtong"), (1, 2, 7, "chongtong")]
    g = table({2: "08g 08a 08p1 08p2"}, rules=rules)
    g.step("chongtong play")
    assert g.phase is Phase.PLAY and g.current == 0 and g.shakes[2] == 1


def test_bonus_steals_pi_takes_from_each() -> None:
    # bonus_steals_pi: playing a bonus card takes one 피 from each opponent
    for rules, given in ((GS, 0), (GostopRules(bonus_steals_pi=True), 2)):
        g = table({0: "b3 05p1"}, pile="06p1 05p2", rules=rules)
        give(g, 1, "01p1")
        give(g, 2, "02p1")
        g.step("play b3")
        assert len([e for e in g.events if e[0] == "steal"]) == given
        assert g.captured[0].bit_count() == 1 + given


def test_gukjin_ask_goes_to_the_capturing_seat() -> None:
    # gukjin: ask: P1 captures 09a and answers 열끗 or 쌍피 before the score check
    g = table({1: "09r"}, floor="09a", pile="11g 10p1", rules=GostopRules(gukjin=Gukjin.ASK))
    g.step(g.default_action())  # P0 plays a card of another month, flips 11g
    g.step("play 09r")  # P1 takes 09a, flips 10p1
    assert g.phase is Phase.GUKJIN and g.current == 1
    g.step("gukjin pi")
    assert (g.current, g.phase) == (2, Phase.PLAY)
