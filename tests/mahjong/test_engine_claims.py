"""Claim windows on crafted walls: 쏘아 over 뽕, multiple 쏘아, 진팅, 골라 쏘아 금지, 깡쏘아.

Each wall is written as the four dealt hands (dealer = seat 0) plus the tiles drawn from
the front in order (the dealer's 14th first, then seat 1, 2, 3, 0 …).
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.mahjong.walls import options, play

from madang.mahjong.engine import (
    build_wall,
    default_action,
    new_hand,
    step,
    tile_counts,
)
from madang.mahjong.state import HandState


def deal(
    hands: list[str],
    draws: str = "",
    rules: dict[str, Any] | None = None,
    pot: int = 0,
    **kw: Any,
) -> HandState:
    return new_hand(rules, wall=build_wall(hands, draws=draws, **kw), pot=pot)


# Seat 0 (dealer) discards 5z, its 14th tile. Seat 1 holds 55z (뽕), seat 2 waits on 5z.
RON_VS_PON = [
    "147m258p369p1234z",
    "258m147p55z1236z7z",
    "123m456m789m234p5z",
    "369m369p123467z5p",
]


def test_ron_beats_pon_whatever_the_answer_order() -> None:
    st = deal(RON_VS_PON, draws="5z")
    play(st, "0 discard 5z")
    assert st.phase == "claim" and st.pending == [1, 2]
    assert options(st, 1) == ["pon", "pass"]
    assert options(st, 2) == ["ron", "pass"]
    play(st, "2 ron", "1 pon")  # answered out of turn order
    assert st.over
    assert st.result is not None
    assert [w.seat for w in st.result.winners] == [2]
    assert [a.move for a in st.history] == ["0 discard 5z", "1 pon", "2 ron"]
    assert st.melds[1] == []
    assert tile_counts(st) == [4] * 25 + [1] * 4


def test_pon_when_the_ron_seat_passes() -> None:
    st = deal(RON_VS_PON, draws="5z")
    play(st, "0 discard 5z", "1 pon", "2 pass")
    assert st.phase == "discard" and st.turn == 1 and st.drawn == -1
    assert [(m.kind, m.tile, m.source) for m in st.melds[1]] == [("pon", 22, 0)]
    assert st.rivers[0] == []
    assert "tsumo" not in options(st, 1)
    assert st.golla[2] is False  # the 뽕 lifted the 골라 쏘아 금지 at once


# Seats 1 and 3 both wait on 5z alone; seat 0 discards it on its first turn.
DOUBLE_RON = [
    "147m258p369p1234z",
    "123m456m789m234p5z",
    "258m147p67z123z69p",
    "456p789p666z777z5z",
]


@pytest.mark.parametrize(
    ("multiple_ron", "answers", "winners"),
    [
        (False, ("1 ron", "3 ron"), [1]),
        (True, ("1 ron", "3 ron"), [1, 3]),
        (False, ("1 pass", "3 ron"), [3]),
        (True, ("3 ron", "1 pass"), [3]),
    ],
    ids=["first-in-turn-order", "multiple-ron-option", "first-passes", "option-one-claims"],
)
def test_several_ron(multiple_ron: bool, answers: tuple[str, ...], winners: list[int]) -> None:
    st = deal(DOUBLE_RON, draws="5z", rules={"multiple_ron": multiple_ron}, pot=10)
    play(st, "0 discard 5z")
    assert st.pending == [1, 3]
    play(st, *answers)
    assert st.result is not None
    assert [w.seat for w in st.result.winners] == winners
    first = st.result.winners[0]
    assert first.sheet.pot == 10
    assert all(w.sheet.pot == 0 for w in st.result.winners[1:])
    assert "first_draw" in first.flags  # 지화: a non-dealer wins before their first draw
    assert all(p[0] == 0 for p in st.result.payments)
    paid = sum(p[2] for p in st.result.payments)
    assert paid == sum(2 * w.sheet.points for w in st.result.winners)
    assert tile_counts(st) == [4] * 25 + [1] * 4


# Seat 1 waits on 1p/4p; it draws 4p (it could 올라) and discards it: 진팅.
FURITEN = [
    "147m258p369p1234z",
    "123m456m789m23p55z",
    "258m69m47p67z1234z",
    "147m369m589p67z5z1z",
]


def test_furiten_blocks_ron_not_tsumo() -> None:
    st = deal(FURITEN, draws="7z 4p 8m 2p 1p 1p")
    play(st, "0 discard 7z")
    assert "tsumo" in options(st, 1)
    play(st, "1 discard 4p", "2 discard 8m", "3 discard 2p")
    assert st.turn == 0 and st.drawn == 9
    play(st, "0 discard 1p")  # seat 1 waits on 1p but discarded 4p: not asked
    assert st.phase == "discard" and st.turn == 1
    assert options(st, 1)[0] == "tsumo"  # 진팅 still allows 올라
    play(st, "1 tsumo")
    assert st.result is not None and st.result.winners[0].by == "tsumo"


# Seat 3 waits on 5z alone. Seat 0 discards 5z and seat 3 lets it go.
GOLLA_OWN_TURN = [
    "147m258p369p1234z",
    "258m147p67z1234z6m",
    "99m15m37p67z1234z5p",
    "123p456p789p234m5z",
]


def test_golla_lasts_until_own_turn() -> None:
    st = deal(GOLLA_OWN_TURN, draws="5z 5z 9p 7z 5z")
    play(st, "0 discard 5z")
    assert st.pending == [3]
    play(st, "3 pass")
    assert st.golla[3]
    play(st, "1 discard 5z")  # 골라 쏘아 금지: seat 3 is not asked
    assert st.phase == "discard" and st.turn == 2
    play(st, "2 discard 9p")
    assert not st.golla[3]  # its own turn has come
    play(st, "3 discard 7z", "0 discard 5z")
    assert st.pending == [3] and options(st, 3) == ["ron", "pass"]
    play(st, "3 ron")
    assert st.result is not None and st.result.winners[0].seat == 3


GOLLA_PON = [
    "147m258p369p1234z",
    "258m147p67z1234z6m",
    "99m15m37p67z1234z5z",
    "123p456p789p234m5z",
]


def test_golla_lifted_by_a_pon() -> None:
    st = deal(GOLLA_PON, draws="5z 9m")
    play(st, "0 discard 5z", "3 pass")
    assert st.golla[3]
    play(st, "1 discard 9m")
    assert st.pending == [2] and options(st, 2) == ["pon", "pass"]
    play(st, "2 pon")
    assert st.golla == [False] * 4
    play(st, "2 discard 5z")
    assert options(st, 3) == ["ron", "pass"]


def test_golla_not_lifted_without_a_call() -> None:
    st = deal(GOLLA_PON, draws="5z 9m")
    play(st, "0 discard 5z", "3 pass", "1 discard 9m", "2 pass")
    assert st.golla[3] and st.turn == 2


# Seat 1 holds 55p; seat 2 waits on 5p (46p). Seat 1 pons seat 0's 5p, later draws the
# fourth 5p and adds it (가깡): seat 2 may rob it.
ROB = [
    "147m258m369m1234z",
    "55p19p37p567z12z9m8m",
    "123m456m789m46p11z",
    "268p2345z67z35m79p",
]


def rob_state(rules: dict[str, Any] | None = None, hands: list[str] = ROB) -> HandState:
    st = deal(hands, draws="5p 4z 7m 1p 5p", rules=rules, back="3z")
    play(st, "0 discard 5p")
    for seat in st.pending[::-1]:
        play(st, f"{seat} {'pon' if seat == 1 else 'pass'}")
    play(st, "1 discard 9m", "2 discard 4z", "3 discard 7m", "0 discard 1p")
    assert st.turn == 1 and st.drawn == 13
    assert "kakan 5p" in options(st, 1)
    play(st, "1 kakan 5p")
    return st


def test_robbing_a_kan() -> None:
    st = rob_state()
    assert st.phase == "rob" and st.pending == [2]
    assert options(st, 2) == ["ron", "pass"]
    assert tile_counts(st) == [4] * 25 + [1] * 4
    play(st, "2 ron")
    assert st.result is not None
    win = st.result.winners[0]
    assert (win.seat, win.by, win.source) == (2, "ron", 1)
    assert "robbed_kan" in win.flags
    assert [(m.kind, m.tile) for m in st.melds[1]] == [("pon", 13)]
    assert tile_counts(st) == [4] * 25 + [1] * 4


def test_kan_completes_when_nobody_robs() -> None:
    st = rob_state()
    play(st, "2 pass")
    assert [(m.kind, m.tile) for m in st.melds[1]] == [("kan", 13)]
    assert st.phase == "discard" and st.turn == 1 and st.kan_draw
    assert st.drawn == 20  # 3z, the replacement from the back of the wall
    assert not any(st.golla)


@pytest.mark.parametrize(
    ("hand2", "min_pan", "robbable"),
    [
        ("123m456m789m46p11z", 3, True),  # 통관 2 + 멘젠 1
        ("123m456m46p11z789p", 0, True),
        ("123m456m46p11z789p", 2, False),  # 멘젠 1 only
    ],
    ids=["ittsu-sampan", "menjen-mupan", "menjen-yangpan"],
)
def test_rob_needs_the_table_minimum(hand2: str, min_pan: int, robbable: bool) -> None:
    st = rob_state({"min_pan": min_pan}, [ROB[0], ROB[1], hand2, ROB[3]])
    if robbable:
        assert st.phase == "rob" and st.pending == [2]
    else:
        assert st.phase == "discard" and st.turn == 1 and st.kan_draw


# The dealer discards 5z; seat 1 holds three 5z.
OPEN_KAN = [
    "147m258p369p1234z",
    "555z123m456m789m2p",
    "258m147p67z1234z6m",
    "369m369p67z123z4p",
]


def test_open_kan_draws_from_the_back() -> None:
    st = deal(OPEN_KAN, draws="5z", back="2p")
    play(st, "0 discard 5z")
    assert options(st, 1) == ["pon", "kan", "pass"]
    play(st, "1 kan")
    assert [(m.kind, m.tile) for m in st.melds[1]] == [("kan", 22)]
    assert st.turn == 1 and st.drawn == 10 and st.kan_draw
    assert st.back == 103
    assert options(st, 1)[0] == "tsumo"  # 123m456m789m 22p + kan 5z
    play(st, "1 tsumo")
    assert st.result is not None
    assert "kan_draw" in st.result.winners[0].flags


def test_no_claims_on_the_last_discard_but_ron() -> None:
    # Everyone discards what they draw and passes. Seat 1 holds 55z, seat 2 waits on
    # 5z, and the last tile of the wall is the fourth 5z: seat 3 draws and discards it.
    hands = [
        "1234f147m258p369p",  # flowers replaced from the back at the deal
        "55z2589m147p1236z",
        "123m456m789m234p5z",
        "123p456p789p234m6z",
    ]
    st = new_hand(wall=build_wall(hands, back="1z1z7z7z", tail="5z"))
    while not (st.phase == "discard" and st.wall_count == 0):
        for seat in list(st.pending):
            step(st, default_action(st, seat))
    assert (st.turn, st.drawn) == (3, 22)
    play(st, "3 discard 5z")
    assert st.pending == [2]
    assert options(st, 2) == ["ron", "pass"]  # seat 1's 뽕 is not offered
    play(st, "2 ron")
    assert st.result is not None and "haitei" in st.result.winners[0].flags


def test_kan_replacement_that_empties_the_wall_counts_kkang_olla_and_haitei() -> None:
    # Seat 2 holds 111z and draws the fourth 1z as the last tile from the front; its
    # concealed 깡's replacement (from the back) is then the last tile of the wall and
    # wins: 깡올라 and 하이떼이 올라 both count (mahjong.md §6 pairs no replacement).
    hands = [
        "1234f147m258p369p",  # four flowers, replaced from the back at the deal
        "258m147p2356z",
        "111z123m456m789m5p",
        "",
    ]
    st = new_hand(wall=build_wall(hands, back="6z6z6z7z5p", tail="1z"))
    while not (st.phase == "discard" and st.turn == 2 and st.wall_count == 1):
        for seat in list(st.pending):
            step(st, default_action(st, seat))
    assert st.drawn == 18  # the fourth 1z
    play(st, "2 ankan 1z")
    assert st.wall_count == 0 and st.kan_draw
    play(st, "2 tsumo")
    assert st.result is not None
    win = st.result.winners[0]
    assert {"kan_draw", "haitei"} <= win.flags
    extras = {i.name: i.pan for i in win.sheet.extra_items}
    assert extras["kkang_olla"] == 5 and extras["haitei_olla"] == 5
