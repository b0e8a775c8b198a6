"""광팔기's join/die rule (:func:`madang.bots.matgo_greedy.join_or_die`) on concrete hands:
card codes in, `join` or `die` out."""

from __future__ import annotations

import pytest

from madang.bots.matgo_greedy import JOIN_STRENGTH, join_features, join_or_die
from madang.matgo.actions import DIE, JOIN
from madang.matgo.cards import mask_of, parse_card


def _m(codes: str) -> int:
    return mask_of(parse_card(c) for c in codes.split())


# hand, floor, answer; the strength (2 per 광, 1 per card pairing the floor, 1 per 피 of
# value, 3 more per bonus card) in the comment.
CASES = [
    # two 광 and little else: the rule before issue 29 joined (2 per 광 ≥ 4): 4 + 4 = 8
    ("01g 03g 05a 07p1 09p1 10a 11d", "02p1 04a 06r", DIE),
    # three 광, no card for the floor: 6 + 4 = 10
    ("01g 03g 08g 05p1 07p1 11d 10a", "02p1 04a 06r", DIE),
    # the same three 광 with two cards that pair the floor: 6 + 2 + 4 = 12, just enough
    ("01g 03g 08g 05p1 07p1 11d 10a", "05p2 07p2 06r", JOIN),
    # one 피 fewer (a 띠 for a 피): 6 + 2 + 3 = 11, just short
    ("01g 03g 08g 05p1 07r 11d 10a", "05p2 07p2 06r", DIE),
    # pairs count nothing now: three pairs and two of them on the floor: 0 + 4 + 0 = 4
    # (the rule before joined: 3 pairs + 4 matches)
    ("02a 02r 04a 04r 06a 06r 10a", "02p1 04p1 12r", DIE),
    # no 광, but 피 and bonus cards: 12 + 6 = 18
    ("b3 b2 11d 12d 01p1 02p1 03p1", "05a 06a 07a", JOIN),
    # one bonus card, a 광, a 쌍피 and three floor pairings: 2 + 3 + 6 + 3 = 14
    ("b3 01g 11d 03p1 05a 06a 07a", "01p1 03p2 05p1", JOIN),
    # a hand of 피 without bonus cards and nothing on the floor: 0 + 0 + 9 = 9
    ("01p1 02p1 03p1 04p1 11d 12d 06p1", "05a 07a 08a", DIE),
    # the same hand with four cards that pair the floor: 4 + 9 = 13
    ("01p1 02p1 03p1 04p1 11d 12d 06p1", "01p2 02p2 03p2 04p2", JOIN),
]


@pytest.mark.parametrize(("hand", "floor", "answer"), CASES)
def test_join_or_die_on_concrete_hands(hand: str, floor: str, answer: int) -> None:
    assert join_or_die(_m(hand), _m(floor)) == answer


def test_the_strength_counts_each_feature() -> None:
    hand = _m("01g 03g 08g 05p1 07p1 11d 10a")
    assert join_features(hand, _m("05p2 07p2 06r")) == (3, 0, 2, 4, 0)
    assert join_features(_m("b3 b2 11d 12d 01p1 01p2 03p1"), 0) == (0, 1, 0, 12, 2)
    assert JOIN_STRENGTH == 12


def test_the_answer_depends_only_on_the_hand_and_the_floor_months() -> None:
    hand = _m("01g 03g 08g 05p1 07p1 11d 10a")
    # another card of the same months on the floor: the same answer
    assert join_or_die(hand, _m("05p2 07p2 06r")) == join_or_die(hand, _m("05r 07a 06p1"))
    assert join_or_die(hand, _m("05p2 07p2")) == JOIN
    assert join_or_die(hand, _m("05p2")) == DIE
