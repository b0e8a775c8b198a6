"""Static Matgo card values, shared by the search bot's rollout policy and the learned
evaluation (:mod:`madang.bots.matgo_value`).

A card's value is a rough points-equivalent of capturing it: 광 3, 고도리 birds and 비광
2.2, 열끗 and 띠 1.2, 피 1, 쌍피 2, bonus cards 2.5, the plain December ribbon 0.6.

>>> CARD_VALUE[0], CARD_VALUE[4], CARD_VALUE[3]
(3.0, 2.2, 1.0)
>>> from madang.matgo.cards import mask_of, parse_cards
>>> hand_reach(mask_of(parse_cards("01p1 02r")), mask_of(parse_cards("01g 03g")))
3.0
"""

from __future__ import annotations

from madang.matgo.cards import KINDS, Kind

_KIND_VALUE = {
    Kind.GWANG: 3.0,
    Kind.ANIMAL: 1.2,
    Kind.RIBBON: 1.2,
    Kind.PI: 1.0,
    Kind.SSANGPI: 2.0,
    Kind.BONUS: 2.5,
}
_values = [_KIND_VALUE[k] for k in KINDS]
for _c in (4, 12, 29):  # 고도리 birds
    _values[_c] = 2.2
_values[44] = 2.2  # 비광
_values[46] = 0.6  # the plain December ribbon
#: CARD_VALUE[card id]: the static value of a card.
CARD_VALUE: tuple[float, ...] = tuple(_values)
#: NIB_VALUE[g][nib]: the summed value of the cards of month group g in a 4-bit pattern.
NIB_VALUE: tuple[tuple[float, ...], ...] = tuple(
    tuple(sum(CARD_VALUE[4 * g + i] for i in range(4) if nib >> i & 1) for nib in range(16))
    for g in range(12)
)
#: NIB_MAX[g][nib]: the value of the best card of month group g in a 4-bit pattern.
NIB_MAX: tuple[tuple[float, ...], ...] = tuple(
    tuple(
        max([CARD_VALUE[4 * g + i] for i in range(4) if nib >> i & 1] or [0.0]) for nib in range(16)
    )
    for g in range(12)
)


def hand_reach(hand: int, floor: int) -> float:
    """The summed static value of the floor cards that ``hand`` can pair with."""
    t = 0.0
    for g in range(12):
        shift = g << 2
        if (hand >> shift) & 15:
            nib = (floor >> shift) & 15
            if nib:
                t += NIB_VALUE[g][nib]
    return t
