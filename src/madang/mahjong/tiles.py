"""마작패 (majakpae): the 104 tiles of Korean mahjong, their kinds and MPSZ notation.

Tile *kinds* are small integers:

* 0–8: 만수 (mansu) characters 1m–9m,
* 9–17: 통수 (tongsu) circles 1p–9p,
* 18–24: honors 1z–7z (동 남 서 북 백 발 중),
* 25–28: flowers 1f–4f (춘 하 추 동).

Physical tiles are integers 0–103: tiles 0–99 are four copies of each of the 25
non-flower kinds (``kind_of(t) == t >> 2``), tiles 100–103 are the four flowers.

>>> parse_tiles("123m456p11z")
[0, 1, 2, 12, 13, 14, 18, 18]
>>> format_tiles([18, 0, 14, 1, 2, 12, 13, 18])
'123m456p11z'
>>> tile_name(EAST), tile_name(JUNG), tile_name(25)
('1z', '7z', '1f')
>>> kind_of(101)
26
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from madang.core.errors import InvalidActionError

__all__ = [
    "ALL_TILES",
    "BAEK",
    "BAL",
    "DRAGONS",
    "EAST",
    "FLOWER_KINDS",
    "HONOR_KINDS",
    "JUNG",
    "MAN_KINDS",
    "NORTH",
    "NUM_KINDS",
    "NUM_TILES",
    "PIN_KINDS",
    "SOUTH",
    "TERMINALS_AND_HONORS",
    "WEST",
    "WINDS",
    "TileNotationError",
    "counts_to_kinds",
    "format_tiles",
    "is_flower",
    "is_honor",
    "is_suited",
    "is_terminal",
    "kind_of",
    "number_of",
    "parse_tile",
    "parse_tiles",
    "suit_of",
    "tile_name",
    "to_counts",
]


class TileNotationError(InvalidActionError):
    """Tile text that is not valid MPSZ notation (``1m``–``9m``, ``1p``–``9p``, ``1z``–``7z``,
    ``1f``–``4f``)."""

    code = "bad_tile"


NUM_KINDS: Final = 25
"""Number of non-flower tile kinds (9 man + 9 pin + 7 honors)."""

NUM_TILES: Final = 104
"""Number of physical tiles: 4 copies of the 25 kinds plus 4 flowers."""

MAN_KINDS: Final = range(0, 9)
PIN_KINDS: Final = range(9, 18)
HONOR_KINDS: Final = range(18, 25)
FLOWER_KINDS: Final = range(25, 29)

EAST: Final = 18
"""동 (dong): East wind, 1z."""
SOUTH: Final = 19
"""남 (nam): South wind, 2z."""
WEST: Final = 20
"""서 (seo): West wind, 3z."""
NORTH: Final = 21
"""북 (buk): North wind, 4z."""
BAEK: Final = 22
"""백 (baek): white dragon, 5z."""
BAL: Final = 23
"""발 (bal): green dragon, 6z."""
JUNG: Final = 24
"""중 (jung): red dragon, 7z."""

WINDS: Final = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final = (BAEK, BAL, JUNG)
TERMINALS_AND_HONORS: Final = frozenset((0, 8, 9, 17, *range(18, 25)))
"""요구패 (yogupae): the kinds 1m 9m 1p 9p and every honor."""

ALL_TILES: Final = tuple(range(NUM_TILES))

_SUIT_LETTERS: Final = "mpzf"
_SUIT_BASE: Final = {"m": 0, "p": 9, "z": 18, "f": 25}
_SUIT_SIZE: Final = {"m": 9, "p": 9, "z": 7, "f": 4}
_NAMES: Final = tuple(
    [f"{n}m" for n in range(1, 10)]
    + [f"{n}p" for n in range(1, 10)]
    + [f"{n}z" for n in range(1, 8)]
    + [f"{n}f" for n in range(1, 5)]
)


def kind_of(tile: int) -> int:
    """The kind (0–28) of physical tile ``tile`` (0–103).

    >>> kind_of(0), kind_of(3), kind_of(4), kind_of(99), kind_of(100), kind_of(103)
    (0, 0, 1, 24, 25, 28)
    """
    if not 0 <= tile < NUM_TILES:
        raise InvalidActionError(f"no such tile: {tile!r}")
    return tile >> 2 if tile < 100 else tile - 75


def is_suited(kind: int) -> bool:
    """Whether ``kind`` is a 만수 or 통수 tile (the suits that form runs)."""
    return 0 <= kind < 18


def is_honor(kind: int) -> bool:
    """Whether ``kind`` is a 자패 (japae): honor tile, a wind or a dragon."""
    return 18 <= kind < 25


def is_flower(kind: int) -> bool:
    """Whether ``kind`` is a 꽃패 (kkotpae): flower tile, 1f–4f."""
    return 25 <= kind < 29


def is_terminal(kind: int) -> bool:
    """Whether ``kind`` is a 노두패 (nodupae): terminal, a 1 or a 9 of a suit."""
    return kind in (0, 8, 9, 17)


def suit_of(kind: int) -> int:
    """The suit of ``kind``: 0 man, 1 pin, 2 honor, 3 flower.

    >>> [suit_of(k) for k in (0, 8, 9, 17, 18, 24, 25)]
    [0, 0, 1, 1, 2, 2, 3]
    """
    _check_kind(kind)
    if kind < 9:
        return 0
    if kind < 18:
        return 1
    if kind < 25:
        return 2
    return 3


def number_of(kind: int) -> int:
    """The number written on ``kind``: 1–9 for suits, 1–7 for honors, 1–4 for flowers.

    >>> number_of(4), number_of(9), number_of(JUNG), number_of(28)
    (5, 1, 7, 4)
    """
    _check_kind(kind)
    if kind < 18:
        return kind % 9 + 1
    if kind < 25:
        return kind - 17
    return kind - 24


def tile_name(kind: int) -> str:
    """The MPSZ name of ``kind``, e.g. ``"3m"``, ``"7z"``, ``"2f"``."""
    _check_kind(kind)
    return _NAMES[kind]


def _check_kind(kind: int) -> None:
    if not isinstance(kind, int) or not 0 <= kind < 29:
        raise InvalidActionError(f"no such tile kind: {kind!r}")


def parse_tiles(text: object) -> list[int]:
    """Parse MPSZ notation into tile kinds, in the order written.

    Digits accumulate until a suit letter closes the group; whitespace is allowed
    between tiles. ``0``, ``8z``, ``5f``, bamboo ``s`` and dangling digits are errors.

    >>> parse_tiles("1m 2m3m")
    [0, 1, 2]
    >>> parse_tiles("")
    []
    >>> parse_tiles("12s")
    Traceback (most recent call last):
        ...
    madang.mahjong.tiles.TileNotationError: unknown suit letter 's' in '12s'
    """
    if not isinstance(text, str):
        raise TileNotationError(f"tile notation must be a string, not {type(text).__name__}")
    kinds: list[int] = []
    pending: list[int] = []
    for ch in text:
        if "0" <= ch <= "9":
            pending.append(ord(ch) - 48)
        elif ch in _SUIT_BASE:
            if not pending:
                raise TileNotationError(f"suit letter {ch!r} without numbers in {text!r}")
            size = _SUIT_SIZE[ch]
            base = _SUIT_BASE[ch]
            for n in pending:
                if not 1 <= n <= size:
                    raise TileNotationError(f"no tile {n}{ch} in {text!r}")
                kinds.append(base + n - 1)
            pending.clear()
        elif ch.isspace():
            continue
        elif ch.isalpha():
            raise TileNotationError(f"unknown suit letter {ch!r} in {text!r}")
        else:
            raise TileNotationError(f"unexpected character {ch!r} in {text!r}")
    if pending:
        raise TileNotationError(f"numbers without a suit letter at the end of {text!r}")
    return kinds


def parse_tile(text: object) -> int:
    """Parse exactly one tile, e.g. ``"5p"`` -> 13.

    >>> parse_tile("5p")
    13
    >>> parse_tile("5p6p")
    Traceback (most recent call last):
        ...
    madang.mahjong.tiles.TileNotationError: expected exactly one tile, got '5p6p'
    """
    kinds = parse_tiles(text)
    if len(kinds) != 1:
        raise TileNotationError(f"expected exactly one tile, got {text!r}")
    return kinds[0]


def format_tiles(kinds: Iterable[int]) -> str:
    """Canonical compact notation of ``kinds``: sorted, grouped by suit (``m p z f``).

    >>> format_tiles([24, 0, 0, 9])
    '11m1p7z'
    >>> format_tiles([])
    ''
    """
    ordered = sorted(kinds)
    for k in ordered:
        _check_kind(k)
    out: list[str] = []
    for letter in _SUIT_LETTERS:
        base = _SUIT_BASE[letter]
        digits = [str(k - base + 1) for k in ordered if base <= k < base + _SUIT_SIZE[letter]]
        if digits:
            out.append("".join(digits) + letter)
    return "".join(out)


def to_counts(kinds: Iterable[int]) -> list[int]:
    """Count vector (length 25) of ``kinds``; flowers are not counted.

    >>> to_counts(parse_tiles("112m7z1f"))[:3], to_counts([24])[24]
    ([2, 1, 0], 1)
    """
    counts = [0] * NUM_KINDS
    for k in kinds:
        _check_kind(k)
        if k < NUM_KINDS:
            counts[k] += 1
    return counts


def counts_to_kinds(counts: Sequence[int]) -> list[int]:
    """The sorted list of kinds a count vector holds.

    >>> counts_to_kinds(to_counts([3, 1, 1]))
    [1, 1, 3]
    """
    return [k for k, c in enumerate(counts) for _ in range(c)]
