"""족보 (jokbo): the scoring patterns of Korean mahjong, as one declarative table.

Each row of :data:`PATTERNS` is one 기본판 (base pattern) or 부가판 (extra) of
``mahjong.md`` §6: its romanized identifier, Hangul name, English gloss, 판 value, a
small predicate over a :class:`Reading`, and the patterns it *replaces* (the larger
replaces the smaller, which is then not counted). A predicate returns how many times
the pattern holds (0 = not at all): most return a bool, 귀족패 the number of dragon
triplets, 꽃 the number of flowers and 겐쇼 the number of copies of the winning tile.

:func:`evaluate` applies the whole table to one reading of a hand; the caller
(:mod:`madang.mahjong.scoring`) tries every reading and keeps the best.

>>> by_name("sa_angkko").replaces
('sam_angkko', 'doldori')
>>> by_name("cheongilsaek").pan, by_name("cheongilsaek").name_ko
(8, '청일색')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal, NamedTuple

from madang.core.slots import register_values
from madang.mahjong.tiles import DRAGONS, EAST, TERMINALS_AND_HONORS, WINDS

__all__ = [
    "BASE",
    "EXTRA",
    "PATTERNS",
    "Item",
    "Pattern",
    "Reading",
    "by_name",
    "evaluate",
]

BASE: Final = "base"
"""기본판 (gibonpan): hand patterns; they count towards the table's minimum."""
EXTRA: Final = "extra"
"""부가판 (bugapan): extras paid on top; they do not count towards the minimum."""

MAN_MASK: Final = (1 << 9) - 1
"""Bitmask of the 만수 kinds 1m–9m."""
PIN_MASK: Final = MAN_MASK << 9
"""Bitmask of the 통수 kinds 1p–9p."""
HONOR_MASK: Final = ((1 << 7) - 1) << 18
"""Bitmask of the 자패 kinds 1z–7z."""
YAOJIU_MASK: Final = sum(1 << k for k in TERMINALS_AND_HONORS)
"""Bitmask of the terminals (1, 9) and honors."""
_WIND_SET: Final = frozenset(WINDS)
_DRAGON_SET: Final = frozenset(DRAGONS)


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a complete hand, with what the patterns need to know.

    A reading fixes the sets (four sets and a pair, or 칠대작's seven pairs) and which
    set the winning tile completed. Declared melds are part of every reading.
    """

    triplets: tuple[int, ...]
    """Kinds of every triplet or quad: concealed ones, 뽕, 깡 and concealed 깡."""
    concealed_triplets: int
    """앙꼬 (angkko): triplets not made by 뽕/open 깡 and not completed by 쏘아; a concealed
    깡 counts."""
    chows: tuple[int, ...]
    """Lowest kind of every run."""
    pair: int
    """Kind of the pair (머리); -1 for 칠대작."""
    pairs: tuple[int, ...]
    """칠대작 (childaejak): the seven pair kinds; empty for a four-sets hand."""
    present: int
    """Bitmask of every kind in the hand, melds included."""
    menjen: bool
    """멘젠 (menjen): no 뽕 and no open 깡."""
    tsumo: bool
    """올라 (olla): won on one's own draw (else 쏘아, on a discard)."""
    two_sided: bool
    """양면 대기 (yangmyeon daegi): the winning tile completed a run at either open end."""
    nine_gates: bool
    """구련보등 (guryeon bodeung): the 13 tiles before the win are 1112345678999 of a suit."""
    seat_wind: int
    """자기 바람 (jagi baram): the winner's seat wind (kind 18–21; 18 is the dealer)."""
    round_wind: int
    """판 바람 (pan baram): the round's wind (kind 18–21)."""
    win_copies: int
    """겐쇼 (gensyo) count: copies of the winning tile's kind in the completed hand."""
    flowers: int
    """꽃 (kkot): flowers the winner laid out, 0–4."""
    flags: frozenset[str]
    """The win's circumstances: ``eopeo bulleo double_eopeo haitei kan_draw robbed_kan
    first_draw``."""


class Item(NamedTuple):
    """판 항목 (pan hangmok): one counted line of a score sheet."""

    name_ko: str
    """Hangul name, e.g. ``"청일색"``."""
    name: str
    """Romanized identifier, e.g. ``"cheongilsaek"``."""
    pan: int
    """판 it adds (value × how many times it holds)."""


Test = Callable[[Reading], int]


@dataclass(frozen=True, slots=True)
class Pattern:
    """족보 (jokbo): one scoring pattern, a row of :data:`PATTERNS`."""

    name: str
    """Romanized identifier (Revised Romanization, ``snake_case``)."""
    name_ko: str
    """Hangul name as players say it."""
    gloss: str
    """Short English gloss."""
    pan: int
    """판 per occurrence."""
    kind: Literal["base", "extra"]
    """:data:`BASE` (기본판) or :data:`EXTRA` (부가판)."""
    test: Test
    """How many times the pattern holds in a reading (0 = not at all)."""
    replaces: tuple[str, ...] = ()
    """Patterns not counted when this one holds."""


# -- the few predicates that are more than one expression ---------------------------


def _dragon_triplets(r: Reading) -> int:
    return sum(1 for k in r.triplets if k in _DRAGON_SET)


def _wind_triplets(r: Reading) -> int:
    return sum(1 for k in r.triplets if k in _WIND_SET)


def _tonggwan(r: Reading) -> bool:
    chows = r.chows
    return len(chows) >= 3 and any(b in chows and b + 3 in chows and b + 6 in chows for b in (0, 9))


def _one_suit(r: Reading) -> bool:
    """Only 만수 or only 통수, no honors."""
    p = r.present
    return p != 0 and (p & ~MAN_MASK == 0 or p & ~PIN_MASK == 0)


def _at_most_one_suit(r: Reading) -> bool:
    """Not both number suits (honors allowed; an all-honors hand qualifies too)."""
    return not (r.present & MAN_MASK and r.present & PIN_MASK)


def _flag(name: str) -> Test:
    def test(r: Reading) -> bool:
        return name in r.flags

    test.__name__ = f"flag_{name}"
    return test


_FIRST: Final = "first_draw"

# fmt: off
PATTERNS: Final[tuple[Pattern, ...]] = (
    # ---- 기본판 (base patterns) -----------------------------------------------------
    Pattern("menjen", "멘젠", "concealed hand: no 뽕 and no open kan", 1, BASE,
            lambda r: r.menjen),
    Pattern("seumu", "스무", "self-drawn win with a concealed hand", 1, BASE,
            lambda r: r.menjen and r.tsumo),
    Pattern("pingheo", "핑허", "concealed self-drawn win on a two-sided wait", 1, BASE,
            lambda r: r.menjen and r.tsumo and r.two_sided),
    Pattern("dangyo", "당요", "all simples: no terminals and no honors", 1, BASE,
            lambda r: r.present & YAOJIU_MASK == 0),
    Pattern("jagi_barampae", "자기 바람패", "triplet of the seat wind", 1, BASE,
            lambda r: r.seat_wind in r.triplets),
    Pattern("pan_barampae", "판 바람패", "triplet of the round wind", 1, BASE,
            lambda r: r.round_wind in r.triplets),
    Pattern("gwijokpae", "귀족패", "each dragon triplet (백 발 중)", 1, BASE,
            _dragon_triplets),
    Pattern("honilsaek", "혼일색", "half flush: one suit plus honors", 2, BASE,
            _at_most_one_suit),
    Pattern("doldori", "돌돌이", "all triplets: four triplets and a pair", 2, BASE,
            lambda r: len(r.triplets) == 4),
    Pattern("tonggwan", "통관", "pure straight: 123 456 789 of one suit", 2, BASE,
            _tonggwan),
    Pattern("childaejak", "칠대작", "seven pairs", 4, BASE,
            lambda r: len(r.pairs) == 7),
    Pattern("sam_angkko", "삼앙꼬", "three concealed triplets", 4, BASE,
            lambda r: r.concealed_triplets >= 3),
    Pattern("sosamwon", "소삼원", "little three dragons: two dragon triplets, dragon pair",
            6, BASE, lambda r: _dragon_triplets(r) == 2 and r.pair in _DRAGON_SET,
            replaces=("gwijokpae",)),
    Pattern("daesamwon", "대삼원", "big three dragons: three dragon triplets", 8, BASE,
            lambda r: _dragon_triplets(r) == 3, replaces=("gwijokpae",)),
    Pattern("sa_angkko", "사앙꼬", "four concealed triplets", 8, BASE,
            lambda r: r.concealed_triplets == 4, replaces=("sam_angkko", "doldori")),
    Pattern("cheongilsaek", "청일색", "full flush: one suit only", 8, BASE,
            _one_suit, replaces=("honilsaek",)),
    Pattern("honnodu", "혼노두", "all terminals and honors", 8, BASE,
            lambda r: r.present & ~YAOJIU_MASK == 0),
    Pattern("sosasi", "소사시", "little four winds: three wind triplets, wind pair", 8, BASE,
            lambda r: _wind_triplets(r) == 3 and r.pair in _WIND_SET,
            replaces=("jagi_barampae", "pan_barampae")),
    Pattern("daesasi", "대사시", "big four winds: four wind triplets", 12, BASE,
            lambda r: _wind_triplets(r) == 4,
            replaces=("sosasi", "jagi_barampae", "pan_barampae")),
    Pattern("jailsaek", "자일색", "all honors", 12, BASE,
            lambda r: r.present & ~HONOR_MASK == 0, replaces=("honnodu", "honilsaek")),
    Pattern("guryeon_bodeung", "구련보등", "nine gates: 1112345678999 of a suit plus any", 24,
            BASE, lambda r: r.nine_gates, replaces=("cheongilsaek",)),
    # ---- 부가판 (extras) --------------------------------------------------------------
    Pattern("kkot", "꽃", "one per flower", 1, EXTRA,
            lambda r: r.flowers),
    Pattern("hwamangwan", "화만관", "all four flowers", 8, EXTRA,
            lambda r: r.flowers == 4, replaces=("kkot",)),
    Pattern("gensyo", "겐쇼", "one per copy of the winning tile's kind in the hand", 1, EXTRA,
            lambda r: 4 if "robbed_kan" in r.flags else r.win_copies),
    Pattern("eopeo", "엎어", "concealed ready hand laid face down", 1, EXTRA,
            _flag("eopeo")),
    Pattern("bulleo", "불러", "엎어 with the waits announced", 2, EXTRA,
            _flag("bulleo"), replaces=("eopeo",)),
    Pattern("bujibu_eopeo", "부지부엎어", "엎어 in one's first turn", 5, EXTRA,
            _flag("double_eopeo"), replaces=("eopeo",)),
    Pattern("bujibu_bulleo", "부지부불러", "불러 in one's first turn", 6, EXTRA,
            lambda r: "double_eopeo" in r.flags and "bulleo" in r.flags,
            replaces=("bujibu_eopeo", "bulleo", "eopeo")),
    Pattern("kkang_olla", "깡올라", "win on a kan's replacement draw", 5, EXTRA,
            _flag("kan_draw")),
    Pattern("kkang_ssoa", "깡쏘아", "win on the tile added to another's 뽕 (robbing a kan)",
            5, EXTRA, _flag("robbed_kan")),
    Pattern("haitei_olla", "하이떼이 올라", "self-drawn win on the last wall tile", 5, EXTRA,
            lambda r: "haitei" in r.flags and r.tsumo),
    Pattern("haitei_ssoa", "하이떼이 쏘아", "win on the discard after the last wall tile", 5,
            EXTRA, lambda r: "haitei" in r.flags and not r.tsumo),
    Pattern("cheonhwa", "천화", "the dealer wins on the first 14 tiles", 16, EXTRA,
            lambda r: _FIRST in r.flags and r.seat_wind == EAST and r.tsumo),
    Pattern("inhwa", "인화", "a non-dealer wins on their first draw", 16, EXTRA,
            lambda r: _FIRST in r.flags and r.seat_wind != EAST and r.tsumo),
    Pattern("jihwa", "지화", "a non-dealer wins on a discard before their first draw", 16,
            EXTRA, lambda r: _FIRST in r.flags and r.seat_wind != EAST and not r.tsumo),
)
"""Every 기본판 and 부가판 of ``mahjong.md`` §6, in sheet order."""
# fmt: on

_INDEX: Final = {p.name: i for i, p in enumerate(PATTERNS)}


def _replacement_masks() -> tuple[int, ...]:
    masks: list[int] = []
    for p in PATTERNS:
        mask = 0
        for name in p.replaces:
            if name not in _INDEX:
                raise ValueError(f"pattern {p.name!r} replaces unknown pattern {name!r}")
            if PATTERNS[_INDEX[name]].kind != p.kind:
                raise ValueError(f"pattern {p.name!r} replaces {name!r} of another kind")
            mask |= 1 << _INDEX[name]
        masks.append(mask)
    if len(_INDEX) != len(PATTERNS):
        raise ValueError("duplicate pattern identifiers")
    return tuple(masks)


_REPLACES: Final = _replacement_masks()
_ROWS: Final = tuple(
    (p.test, rmask, i, p.kind == BASE, p.name_ko, p.name, p.pan)
    for i, (p, rmask) in enumerate(zip(PATTERNS, _REPLACES, strict=True))
)


def by_name(name: str) -> Pattern:
    """The pattern with identifier ``name`` (``KeyError`` if there is none)."""
    return PATTERNS[_INDEX[name]]


def evaluate(reading: Reading) -> tuple[tuple[Item, ...], tuple[Item, ...]]:
    """Apply the table to one reading: the counted (기본판, 부가판) items, in table order.

    A pattern that holds is counted unless another pattern that holds replaces it.
    """
    held: list[tuple[int, bool, str, str, int]] = []
    replaced = 0
    for test, rmask, i, is_base, name_ko, name, pan in _ROWS:
        times = test(reading)
        if times:
            held.append((i, is_base, name_ko, name, pan * int(times)))
            replaced |= rmask
    base: list[Item] = []
    extra: list[Item] = []
    for i, is_base, name_ko, name, pan in held:
        if not replaced >> i & 1:
            (base if is_base else extra).append(Item(name_ko, name, pan))
    return tuple(base), tuple(extra)


# pickle and copy rebuild these values through their constructors (a compiled build needs it)
register_values(Reading, Pattern)
