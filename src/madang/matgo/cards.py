"""화투 (hwatu) cards for Matgo: ids, notation codes and the bitmasks the engine uses.

Cards are small ints. Month cards are ``0..47``: month ``m`` (1–12) holds ids
``4*(m-1) .. 4*(m-1)+3`` in the order of ``notation.md`` (bright or animal first, then
ribbon, then the 피). Bonus cards are ``48..51``: ``b2``, ``b3``, ``b2x``, ``b2y``.
A set of cards is an ``int`` bitmask (bit ``i`` set = card ``i`` present), which makes
the engine's set operations single integer instructions.

>>> parse_card("09a"), card_code(32)
(32, '09a')
>>> format_cards(mask_of(parse_cards("01g 03g 08g")))
'01g 03g 08g'
>>> month_of(parse_card("12d")), month_of(parse_card("b3"))
(12, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

from madang.core.errors import InvalidActionError


class Kind(IntEnum):
    """The kind of a card, as it counts in 족보."""

    GWANG = 0  #: 광 (gwang): bright
    ANIMAL = 1  #: 열끗 (yeol): animal
    RIBBON = 2  #: 띠 (tti): ribbon
    PI = 3  #: 피 (pi): junk, worth 1 피
    SSANGPI = 4  #: 쌍피 (ssangpi): junk worth 2 피
    BONUS = 5  #: 보너스 패 (bonus): bonus card, worth 2 or 3 피


# (code, kind, pi value) in id order.
_G, _A, _R, _P, _D = Kind.GWANG, Kind.ANIMAL, Kind.RIBBON, Kind.PI, Kind.SSANGPI
_MONTH_CARDS: Final[tuple[tuple[str, Kind, int], ...]] = (
    ("01g", _G, 0), ("01r", _R, 0), ("01p1", _P, 1), ("01p2", _P, 1),
    ("02a", _A, 0), ("02r", _R, 0), ("02p1", _P, 1), ("02p2", _P, 1),
    ("03g", _G, 0), ("03r", _R, 0), ("03p1", _P, 1), ("03p2", _P, 1),
    ("04a", _A, 0), ("04r", _R, 0), ("04p1", _P, 1), ("04p2", _P, 1),
    ("05a", _A, 0), ("05r", _R, 0), ("05p1", _P, 1), ("05p2", _P, 1),
    ("06a", _A, 0), ("06r", _R, 0), ("06p1", _P, 1), ("06p2", _P, 1),
    ("07a", _A, 0), ("07r", _R, 0), ("07p1", _P, 1), ("07p2", _P, 1),
    ("08g", _G, 0), ("08a", _A, 0), ("08p1", _P, 1), ("08p2", _P, 1),
    ("09a", _A, 0), ("09r", _R, 0), ("09p1", _P, 1), ("09p2", _P, 1),
    ("10a", _A, 0), ("10r", _R, 0), ("10p1", _P, 1), ("10p2", _P, 1),
    ("11g", _G, 0), ("11d", _D, 2), ("11p1", _P, 1), ("11p2", _P, 1),
    ("12g", _G, 0), ("12a", _A, 0), ("12r", _R, 0), ("12d", _D, 2),
)  # fmt: skip
_BONUS_CARDS: Final[tuple[tuple[str, Kind, int], ...]] = (
    ("b2", Kind.BONUS, 2), ("b3", Kind.BONUS, 3), ("b2x", Kind.BONUS, 2), ("b2y", Kind.BONUS, 2),
)  # fmt: skip
_ALL: Final = _MONTH_CARDS + _BONUS_CARDS

NUM_MONTH_CARDS: Final = 48
NUM_CARDS: Final = len(_ALL)  # 52 ids; a deck uses the 48 month cards and the rules' bonus cards

CODES: Final[tuple[str, ...]] = tuple(c for c, _, _ in _ALL)
KINDS: Final[tuple[Kind, ...]] = tuple(k for _, k, _ in _ALL)
PI_VALUE: Final[tuple[int, ...]] = tuple(v for _, _, v in _ALL)
MONTH: Final[tuple[int, ...]] = tuple(
    (i >> 2) + 1 if i < NUM_MONTH_CARDS else 0 for i in range(NUM_CARDS)
)
BIT: Final[tuple[int, ...]] = tuple(1 << i for i in range(NUM_CARDS))
_CODE_TO_ID: Final = {c: i for i, c in enumerate(CODES)}

B2, B3, B2X, B2Y = 48, 49, 50, 51
GUKJIN: Final = _CODE_TO_ID["09a"]  #: 국진 (gukjin): the September animal, may count as 쌍피
BIGWANG: Final = _CODE_TO_ID["12g"]  #: 비광 (bigwang): the rain bright


def _mask(codes: Iterable[str]) -> int:
    m = 0
    for c in codes:
        m |= 1 << _CODE_TO_ID[c]
    return m


#: ``MONTH_MASK[m]``: the four cards of month m (index 0 is empty: bonus cards have no month).
MONTH_MASK: Final[tuple[int, ...]] = (0, *(0xF << (4 * (m - 1)) for m in range(1, 13)))
ALL_MONTH_CARDS: Final = (1 << NUM_MONTH_CARDS) - 1
BONUS_MASK: Final = _mask(("b2", "b3", "b2x", "b2y"))
GWANG_MASK: Final = _mask(c for c, k, _ in _ALL if k is Kind.GWANG)
ANIMAL_MASK: Final = _mask(c for c, k, _ in _ALL if k is Kind.ANIMAL)
RIBBON_MASK: Final = _mask(c for c, k, _ in _ALL if k is Kind.RIBBON)
PI_MASK: Final = _mask(c for c, k, _ in _ALL if k is Kind.PI)  #: single 피 cards
SSANGPI_MASK: Final = _mask(("11d", "12d", "b2", "b2x", "b2y"))  #: cards worth two 피
SSEURIPI_MASK: Final = _mask(("b3",))  #: 쓰리피 (sseuripi): the card worth three 피
GODORI_MASK: Final = _mask(("02a", "04a", "08a"))  #: 고도리 (godori): the three birds
HONGDAN_MASK: Final = _mask(("01r", "02r", "03r"))  #: 홍단 (hongdan): the red poem ribbons
CHEONGDAN_MASK: Final = _mask(("06r", "09r", "10r"))  #: 청단 (cheongdan): the blue ribbons
CHODAN_MASK: Final = _mask(("04r", "05r", "07r"))  #: 초단 (chodan): the grass ribbons
GUKJIN_BIT: Final = 1 << GUKJIN
BIGWANG_BIT: Final = 1 << BIGWANG

#: For each card, the mask of the cards it is interchangeable with (same month, kind, value).
_SAME: Final = tuple(
    _mask(
        CODES[j]
        for j in range(NUM_MONTH_CARDS)
        if MONTH[j] == MONTH[i] and KINDS[j] == KINDS[i] and PI_VALUE[j] == PI_VALUE[i]
    )
    if i < NUM_MONTH_CARDS
    else 1 << i
    for i in range(NUM_CARDS)
)
SAME_AS: Final[tuple[int, ...]] = _SAME


def parse_card(code: object) -> int:
    """The id of the card written ``code`` (e.g. ``"08g"``); unknown codes are invalid."""
    card = _CODE_TO_ID.get(code) if isinstance(code, str) else None
    if card is None:
        raise InvalidActionError(f"unknown card {code!r}")
    return card


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Card ids from a space-separated string or a list of codes, in the order given."""
    codes = text.split() if isinstance(text, str) else list(text)
    return [parse_card(c) for c in codes]


def card_code(card: int) -> str:
    """The notation code of a card id."""
    return CODES[card]


def iter_mask(mask: int) -> Iterator[int]:
    """The card ids in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> list[int]:
    """The card ids in ``mask`` as a sorted list."""
    return list(iter_mask(mask))


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of a collection of card ids."""
    m = 0
    for c in cards:
        m |= BIT[c]
    return m


def format_cards(mask: int) -> str:
    """The cards of ``mask`` as space-separated codes, in month order."""
    return " ".join(CODES[c] for c in iter_mask(mask))


#: Per byte position (0–6) and byte value: the codes of those cards (for :func:`codes_of`).
_BYTE_CODES: Final[tuple[tuple[tuple[str, ...], ...], ...]] = tuple(
    tuple(
        tuple(CODES[8 * pos + i] for i in range(8) if b >> i & 1 and 8 * pos + i < NUM_CARDS)
        for b in range(256)
    )
    for pos in range(7)
)


def codes_of(mask: int) -> list[str]:
    """The cards of ``mask`` as a list of codes, in month order (seven table lookups)."""
    if not mask:
        return []
    t = _BYTE_CODES
    return [
        *t[0][mask & 255], *t[1][(mask >> 8) & 255], *t[2][(mask >> 16) & 255],
        *t[3][(mask >> 24) & 255], *t[4][(mask >> 32) & 255], *t[5][(mask >> 40) & 255],
        *t[6][(mask >> 48) & 255],
    ]  # fmt: skip


def month_of(card: int) -> int:
    """The month (1–12) of a card; 0 for a bonus card."""
    return MONTH[card]


def pi_value(mask: int, gukjin_as_pi: bool = False) -> int:
    """The 피 value of a set of cards (쌍피 2, 쓰리피 3, 국진 2 when counted as 피)."""
    v = (mask & PI_MASK).bit_count() + 2 * (mask & SSANGPI_MASK).bit_count()
    v += 3 * (mask & SSEURIPI_MASK).bit_count()
    if gukjin_as_pi and mask & GUKJIN_BIT:
        v += 2
    return v
