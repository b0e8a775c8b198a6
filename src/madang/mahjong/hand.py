"""패 분석 (pae bunseok): hand analysis — shanten, winning hands, decompositions, waits.

A hand is a count vector of length 25 (concealed tiles only, indexed by tile kind; see
:mod:`madang.mahjong.tiles`) plus the number of melds already declared (뽕 or 깡, each
one set). Shanten (향청, hyangcheong) is the number of tiles a hand lacks to be ready:
0 is ready (텐파이, tenpai), −1 is a complete hand.

Shanten is *exact*: it is one less than the least number of tiles that must be drawn
(each replacing a discard) to complete the hand, where the completed concealed part may
hold at most four of a kind. So a hand whose only wait is a tile it already holds four
of is not ready. Declared melds and discards are not taken into account.

Shanten is table driven (see ``docs/mahjong-hand-analysis.md``): each suit is
summarised by its base-5 key, three lookups give its distance profile, and two more
combine the suits.

>>> from madang.mahjong.tiles import parse_tiles, to_counts
>>> h = to_counts(parse_tiles("123456789m1135p"))
>>> shanten(h), waits(h) == parse_tiles("4p")
(0, True)
>>> shanten(to_counts(parse_tiles("11223344556677z")))
-1
>>> [str(d) for d in decompositions(to_counts(parse_tiles("11122233344m")))]
['11m 123m 234m 234m', '44m 111m 222m 333m', '44m 123m 123m 123m']
"""

from __future__ import annotations

import base64
import functools
import itertools
import lzma
import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, cast

from madang.core.errors import InvalidActionError
from madang.core.slots import register_values
from madang.mahjong import _tables
from madang.mahjong.tiles import NUM_KINDS, format_tiles, tile_name

__all__ = [
    "KIND_STEP",
    "KIND_SUIT",
    "Decomposition",
    "Set",
    "chiitoi_pairs",
    "counts_keys",
    "decompositions",
    "is_agari",
    "ready_waits",
    "shanten",
    "shanten_chiitoi",
    "shanten_keys",
    "shanten_standard",
    "suit_keys",
    "ukeire",
    "waits",
]

Set = tuple[str, int]
"""A set of a decomposition: ``("pung", k)`` (커쯔, triplet of kind k) or ``("chow", k)``
(슌쯔, run k, k+1, k+2)."""


# --------------------------------------------------------------------------- tables


def _unblob(parts: str) -> bytes:
    return lzma.decompress(base64.b85decode(parts))


def _scaled(ids: bytes, factor: int) -> array[int]:
    """``array('H')`` of ``id * factor`` for every byte of ``ids``, built at C speed."""
    lo = ids.translate(bytes((x * factor) & 255 for x in range(256)))
    hi = ids.translate(bytes((x * factor) >> 8 for x in range(256)))
    raw = bytearray(2 * len(ids))
    raw[0::2], raw[1::2] = (lo, hi) if sys.byteorder == "little" else (hi, lo)
    out = array("H")
    out.frombytes(raw)
    return out


def _digit_table(width: int, value: Sequence[int]) -> bytes:
    """Table over base-5 keys of ``width`` digits of ``sum(value[digit])`` (≤ 255)."""
    add = {v: bytes((x + v) & 255 for x in range(256)) for v in value}
    table = bytes(value)
    for _ in range(width - 1):
        table = b"".join(table.translate(add[v]) for v in value)
    return table


# The hot path computes ``_FIN[_MP[_SUIT126[km] + _SUIT[kp]] + _HONOR5[kz] + melds]``:
# suit key -> suit profile id (255 marks more than 14 tiles), the pair of man and pin
# profiles -> a combined profile, then with the honor profile and the melds -> shanten.
if (_tables.N_SUIT_PROFILES, _tables.N_HONOR_PROFILES) != (126, 55):
    raise ImportError("madang.mahjong._tables does not match hand.py; regenerate it")
_SUIT: Final = _unblob(_tables.SUIT)
_SUIT126: Final = _scaled(_SUIT, 126)
_HONOR5: Final = _scaled(_unblob(_tables.HONOR), 5)
_MP: Final = [q * 55 * 5 for q in _unblob(_tables.MP)]
_FIN: Final = [d - 1 for d in _unblob(_tables.FIN)]

# 칠대작 codes: pairs * 26 + kinds (kinds with >= 1 tile); sums over the three suits
# stay below 26 kinds, so the fields do not mix.
_CHI_SUIT: Final = _digit_table(9, (0, 1, 27, 27, 27))
_CHI_HONOR: Final = _digit_table(7, (0, 1, 27, 27, 27))
_CHI: Final = [6 - min(7, code // 26) + max(0, 7 - code % 26) for code in range(26 * 27 * 3)]
# 칠대작 with a quad as two pairs: the number of pairs, sum of count // 2.
_CHI2_SUIT: Final = _digit_table(9, (0, 0, 1, 1, 2))
_CHI2_HONOR: Final = _digit_table(7, (0, 0, 1, 1, 2))
_CHI2: Final = [6 - min(7, n) for n in range(64)]
# Tile counts of a key (to validate that no count exceeded 4).
_SUM_SUIT: Final = _digit_table(9, (0, 1, 2, 3, 4))
_SUM_HONOR: Final = _digit_table(7, (0, 1, 2, 3, 4))

KIND_SUIT: Final = tuple([0] * 9 + [1] * 9 + [2] * 7)
"""For each kind, which of the three keys of :func:`suit_keys` it belongs to."""
KIND_STEP: Final = tuple([5**i for i in range(9)] * 2 + [5**i for i in range(7)])
"""For each kind, what one tile of it adds to its suit key."""


# --------------------------------------------------------------------------- checks


def _total(counts: Sequence[object]) -> tuple[int, int, int, int]:
    """Validate ``counts``; return the three suit keys and the number of tiles. (Typed
    ``object``: its job is to reject what is not an int, which a compiled build would
    otherwise reject with a bare ``TypeError`` before the check.)"""
    if len(counts) != NUM_KINDS:
        raise InvalidActionError(f"a count vector has {NUM_KINDS} entries, not {len(counts)}")
    for c in counts:
        if not isinstance(c, int) or not 0 <= c <= 4:
            raise InvalidActionError(f"a tile count must be an int from 0 to 4, not {c!r}")
    ints = cast("Sequence[int]", counts)
    km, kp, kz = counts_keys(ints)
    return km, kp, kz, sum(ints)


def counts_keys(counts: Sequence[int]) -> tuple[int, int, int]:
    """The base-5 suit keys of a count vector, unchecked (the hot paths' :func:`suit_keys`)."""
    # (typed a list: the compiled build reads its items natively)
    c: list[int] = counts if isinstance(counts, list) else list(counts)
    return (
        c[0] + 5 * c[1] + 25 * c[2] + 125 * c[3] + 625 * c[4]
        + 3125 * c[5] + 15625 * c[6] + 78125 * c[7] + 390625 * c[8],
        c[9] + 5 * c[10] + 25 * c[11] + 125 * c[12] + 625 * c[13]
        + 3125 * c[14] + 15625 * c[15] + 78125 * c[16] + 390625 * c[17],
        c[18] + 5 * c[19] + 25 * c[20] + 125 * c[21] + 625 * c[22]
        + 3125 * c[23] + 15625 * c[24],
    )  # fmt: skip


def _check_melds(melds: int) -> None:
    if not isinstance(melds, int) or isinstance(melds, bool) or not 0 <= melds <= 4:
        raise InvalidActionError(f"melds must be an int from 0 to 4, not {melds!r}")


def _check_size(n: int, melds: int, sizes: tuple[int, ...]) -> None:
    if n + 3 * melds not in sizes:
        want = " or ".join(str(s - 3 * melds) for s in sizes)
        raise InvalidActionError(f"a hand with {melds} melds holds {want} tiles, not {n}")


def suit_keys(counts: Sequence[int]) -> tuple[int, int, int]:
    """The base-5 keys (man, pin, honors) of a count vector, for :func:`shanten_keys`.

    A key is ``sum(count[k] * 5**i)`` over the kinds of the suit in order; adding one
    tile of kind ``k`` adds ``KIND_STEP[k]`` to key number ``KIND_SUIT[k]``.

    >>> suit_keys([1, 1] + [0] * 16 + [2] + [0] * 6)
    (6, 0, 2)
    """
    km, kp, kz, _ = _total(counts)
    return km, kp, kz


# --------------------------------------------------------------------------- shanten


def shanten_keys(km: int, kp: int, kz: int, melds: int = 0, quad_as_two_pairs: bool = False) -> int:
    """Shanten from the suit keys of :func:`suit_keys` — the fast, unchecked path.

    The caller guarantees valid keys (counts 0–4, tiles + 3 × melds = 13 or 14).

    >>> shanten_keys(*suit_keys([2] * 7 + [0] * 18))
    -1
    """
    std = _FIN[_MP[_SUIT126[km] + _SUIT[kp]] + _HONOR5[kz] + melds]
    if melds:
        return std
    if quad_as_two_pairs:
        chi = _CHI2[_CHI2_SUIT[km] + _CHI2_SUIT[kp] + _CHI2_HONOR[kz]]
    else:
        chi = _CHI[_CHI_SUIT[km] + _CHI_SUIT[kp] + _CHI_HONOR[kz]]
    return chi if chi < std else std


def shanten(counts: Sequence[int], melds: int = 0, quad_as_two_pairs: bool = False) -> int:
    """향청 (hyangcheong): shanten, the tiles a hand lacks to be ready; −1 is complete.

    The minimum of the standard form (4 − ``melds`` sets and a pair) and, with no
    melds, 칠대작 (seven pairs). ``counts`` holds the concealed tiles: 13 or 14 minus
    3 per meld.

    >>> from madang.mahjong.tiles import parse_tiles, to_counts
    >>> shanten(to_counts(parse_tiles("19m19p1234567z555m")))  # 칠대작: 55m + 6 singles
    5
    >>> shanten(to_counts(parse_tiles("1122m")), melds=3)
    0
    """
    # Validation costs little: a count above 4 changes the digit sums of the keys,
    # a negative count shows in the bitwise or; anything odd takes the slow path,
    # which raises the right error.
    # fmt: off
    try:
        (
            c0, c1, c2, c3, c4, c5, c6, c7, c8,
            c9, c10, c11, c12, c13, c14, c15, c16, c17,
            c18, c19, c20, c21, c22, c23, c24,
        ) = counts
        km = c0 + 5 * (c1 + 5 * (c2 + 5 * (c3 + 5 * (c4 + 5 * (
            c5 + 5 * (c6 + 5 * (c7 + 5 * c8)))))))
        kp = c9 + 5 * (c10 + 5 * (c11 + 5 * (c12 + 5 * (c13 + 5 * (
            c14 + 5 * (c15 + 5 * (c16 + 5 * c17)))))))
        kz = c18 + 5 * (c19 + 5 * (c20 + 5 * (c21 + 5 * (c22 + 5 * (c23 + 5 * c24)))))
        n = _SUM_SUIT[km] + _SUM_SUIT[kp] + _SUM_HONOR[kz]
        ok = (
            n == sum(counts)
            and (
                c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11 | c12
                | c13 | c14 | c15 | c16 | c17 | c18 | c19 | c20 | c21 | c22 | c23 | c24
            ) >= 0
            and 13 <= n + 3 * melds <= 14
            and melds.__class__ is int
            and melds >= 0
        )
    except (TypeError, ValueError, IndexError):
        ok = False
    # fmt: on
    if not ok:
        _, _, _, n = _total(counts)
        _check_melds(melds)
        _check_size(n, melds, (13, 14))
        km, kp, kz = counts_keys(counts)
    std = _FIN[_MP[_SUIT126[km] + _SUIT[kp]] + _HONOR5[kz] + melds]
    if melds:
        return std
    if quad_as_two_pairs:
        chi = _CHI2[_CHI2_SUIT[km] + _CHI2_SUIT[kp] + _CHI2_HONOR[kz]]
    else:
        chi = _CHI[_CHI_SUIT[km] + _CHI_SUIT[kp] + _CHI_HONOR[kz]]
    return chi if chi < std else std


def shanten_standard(counts: Sequence[int], melds: int = 0) -> int:
    """Shanten of the standard form only: 4 − ``melds`` sets and a pair.

    >>> from madang.mahjong.tiles import parse_tiles, to_counts
    >>> shanten_standard(to_counts(parse_tiles("11223344556677z")))
    3
    """
    km, kp, kz, n = _total(counts)
    _check_melds(melds)
    _check_size(n, melds, (13, 14))
    return _FIN[_MP[_SUIT126[km] + _SUIT[kp]] + _HONOR5[kz] + melds]


def shanten_chiitoi(counts: Sequence[int], quad_as_two_pairs: bool = False) -> int:
    """Shanten of 칠대작 (childaejak): seven pairs, for a concealed 13- or 14-tile hand.

    Without ``quad_as_two_pairs`` the seven pairs must be of seven different kinds (a
    quad is one pair and two useless tiles).

    >>> from madang.mahjong.tiles import parse_tiles, to_counts
    >>> h = to_counts(parse_tiles("1111223344556m"))
    >>> shanten_chiitoi(h), shanten_chiitoi(h, quad_as_two_pairs=True)
    (2, 0)
    """
    km, kp, kz, n = _total(counts)
    _check_size(n, 0, (13, 14))
    if quad_as_two_pairs:
        return _CHI2[_CHI2_SUIT[km] + _CHI2_SUIT[kp] + _CHI2_HONOR[kz]]
    return _CHI[_CHI_SUIT[km] + _CHI_SUIT[kp] + _CHI_HONOR[kz]]


def is_agari(counts: Sequence[int], melds: int = 0, quad_as_two_pairs: bool = False) -> bool:
    """화료 (hwaryo): whether the hand is complete — 14 − 3 × ``melds`` concealed tiles
    forming sets and a pair, or (no melds) 칠대작.

    >>> from madang.mahjong.tiles import parse_tiles, to_counts
    >>> is_agari(to_counts(parse_tiles("11123456789999m")))
    True
    >>> is_agari(to_counts(parse_tiles("1111m3355p112233z")))
    False
    >>> is_agari(to_counts(parse_tiles("1111m3355p112233z")), quad_as_two_pairs=True)
    True
    """
    km, kp, kz, n = _total(counts)
    _check_melds(melds)
    _check_size(n, melds, (14,))
    return shanten_keys(km, kp, kz, melds, quad_as_two_pairs) < 0


def waits(counts: Sequence[int], melds: int = 0, quad_as_two_pairs: bool = False) -> list[int]:
    """대기패 (daegipae): the kinds that would complete a ready hand of 13 − 3 × ``melds``
    tiles, sorted. A kind the hand already holds four of cannot arrive and is excluded.

    >>> from madang.mahjong.tiles import parse_tiles, to_counts, format_tiles
    >>> format_tiles(waits(to_counts(parse_tiles("1112345678999m"))))
    '123456789m'
    >>> waits(to_counts(parse_tiles("1113m234p567p789p")))
    [1, 2]
    >>> waits(to_counts(parse_tiles("1111m234p567p789p")))  # only 1m would complete it
    []
    >>> waits(to_counts(parse_tiles("111m23p55z")), melds=2)
    [9, 12]
    """
    _, _, _, n = _total(counts)
    _check_melds(melds)
    _check_size(n, melds, (13,))
    return ready_waits(list(counts), melds, quad_as_two_pairs)


def ready_waits(counts: list[int], melds: int, quad_as_two_pairs: bool) -> list[int]:
    """:func:`waits`, unchecked: the hot paths' call (the engine's, the encodings')."""
    km, kp, kz = counts_keys(counts)
    if shanten_keys(km, kp, kz, melds, quad_as_two_pairs) > 0:
        return []  # one tile lowers shanten by one at most: no tile completes it
    keys = [km, kp, kz]
    out: list[int] = []
    for k in range(NUM_KINDS):
        if counts[k] < 4:
            s = KIND_SUIT[k]
            keys[s] += KIND_STEP[k]
            if shanten_keys(keys[0], keys[1], keys[2], melds, quad_as_two_pairs) < 0:
                out.append(k)
            keys[s] -= KIND_STEP[k]
    return out


def ukeire(
    counts: Sequence[int],
    melds: int = 0,
    visible: Sequence[int] | None = None,
    quad_as_two_pairs: bool = False,
) -> dict[int, int]:
    """유효패 (yuhyopae): for each kind whose draw lowers the shanten of a 13 − 3 × ``melds``
    tile hand, how many copies remain unseen: 4 − in hand − ``visible[k]``.

    ``visible`` (a count vector) is what the player can see elsewhere: discards, melds,
    flowers excluded. A kind the hand holds four of is never listed.

    >>> from madang.mahjong.tiles import parse_tiles, to_counts
    >>> ukeire(to_counts(parse_tiles("1234567m123p45p7z")))
    {0: 3, 3: 3, 6: 3, 11: 3, 14: 4, 24: 3}
    """
    km, kp, kz, n = _total(counts)
    _check_melds(melds)
    _check_size(n, melds, (13,))
    if visible is not None:
        if len(visible) != NUM_KINDS:
            raise InvalidActionError(f"visible has {NUM_KINDS} entries, not {len(visible)}")
        for k in range(NUM_KINDS):
            v = visible[k]
            if not isinstance(v, int) or v < 0 or v + counts[k] > 4:
                raise InvalidActionError(f"impossible visible count {v!r} of {tile_name(k)}")
    now = shanten_keys(km, kp, kz, melds, quad_as_two_pairs)
    keys = [km, kp, kz]
    out: dict[int, int] = {}
    for k in range(NUM_KINDS):
        if counts[k] < 4:
            s = KIND_SUIT[k]
            keys[s] += KIND_STEP[k]
            if shanten_keys(keys[0], keys[1], keys[2], melds, quad_as_two_pairs) < now:
                out[k] = 4 - counts[k] - (visible[k] if visible is not None else 0)
            keys[s] -= KIND_STEP[k]
    return out


# --------------------------------------------------------------------------- decompositions


@dataclass(frozen=True)
class Decomposition:
    """One reading of a complete concealed part as sets and one pair (머리, meori).

    ``sets`` are sorted by kind, a run before a triplet of the same lowest kind.
    """

    pair: int
    sets: tuple[Set, ...]

    def __str__(self) -> str:
        parts = [format_tiles([self.pair] * 2)]
        for name, k in self.sets:
            parts.append(format_tiles([k] * 3 if name == "pung" else [k, k + 1, k + 2]))
        return " ".join(parts)


@functools.lru_cache(maxsize=65536)
def _suit_sets(base: int, counts: tuple[int, ...], runs: bool) -> tuple[tuple[Set, ...], ...]:
    """Every way to split one suit's counts into sets (empty tuple: impossible)."""
    i = 0
    while i < len(counts) and counts[i] == 0:
        i += 1
    if i == len(counts):
        return ((),)
    c = counts[i]
    out: list[tuple[Set, ...]] = []
    for pung in (1, 0) if c >= 3 else (0,):
        chows = c - 3 * pung
        rest = list(counts)
        rest[i] -= 3 * pung + chows
        if chows:
            if not runs or i + 2 >= len(counts) or rest[i + 1] < chows or rest[i + 2] < chows:
                continue
            rest[i + 1] -= chows
            rest[i + 2] -= chows
        head: tuple[Set, ...] = (("chow", base + i),) * chows + (("pung", base + i),) * pung
        for tail in _suit_sets(base, tuple(rest), runs):
            out.append(head + tail)
    return tuple(out)


_SUIT_RANGES: Final = ((0, 9, True), (9, 18, True), (18, 25, False))


def decompositions(counts: Sequence[int]) -> list[Decomposition]:
    """Every reading of a complete concealed part (3k + 2 tiles) as k sets and a pair.

    칠대작 is not included (see :func:`chiitoi_pairs`). Listed by pair kind; readings
    with more triplets come first.

    >>> from madang.mahjong.tiles import parse_tiles, to_counts
    >>> [str(d) for d in decompositions(to_counts(parse_tiles("111222333m55z")))]
    ['55z 111m 222m 333m', '55z 123m 123m 123m']
    >>> decompositions(to_counts(parse_tiles("11m124p")))
    []
    """
    _, _, _, n = _total(counts)
    if n % 3 != 2:
        raise InvalidActionError(f"a complete concealed part holds 3k + 2 tiles, not {n}")
    found: list[Decomposition] = []
    c = list(counts)
    for pair in range(NUM_KINDS):
        if c[pair] < 2:
            continue
        c[pair] -= 2
        per_suit = [_suit_sets(lo, tuple(c[lo:hi]), runs) for lo, hi, runs in _SUIT_RANGES]
        c[pair] += 2
        for combo in itertools.product(*per_suit):
            sets = tuple(itertools.chain.from_iterable(combo))
            found.append(Decomposition(pair, sets))
    return found


def chiitoi_pairs(counts: Sequence[int], quad_as_two_pairs: bool = False) -> tuple[int, ...] | None:
    """칠대작 (childaejak): the seven pair kinds of a 14-tile seven-pairs hand, or None.

    A quad is two pairs only with ``quad_as_two_pairs`` (then its kind appears twice).

    >>> from madang.mahjong.tiles import parse_tiles, to_counts
    >>> chiitoi_pairs(to_counts(parse_tiles("1122m3344p556677z")))
    (0, 1, 11, 12, 22, 23, 24)
    >>> chiitoi_pairs(to_counts(parse_tiles("1111m3344p556677z"))) is None
    True
    >>> chiitoi_pairs(to_counts(parse_tiles("1111m3344p556677z")), quad_as_two_pairs=True)
    (0, 0, 11, 12, 22, 23, 24)
    """
    _, _, _, n = _total(counts)
    if n != 14:
        return None
    pairs: list[int] = []
    for k, c in enumerate(counts):
        if c % 2:
            return None
        if c == 4 and not quad_as_two_pairs:
            return None
        pairs.extend([k] * (c // 2))
    return tuple(pairs)


# pickle and copy rebuild these values through their constructors (a compiled build needs it)
register_values(Decomposition)
