"""Matgo scoring: the 족보 table, the 박 multipliers and the score sheet.

The 족보 are one declarative table, :data:`PATTERNS`: each entry names the pattern in
Hangul, romanization and English and gives a function from a captured pile to points.
:func:`jokbo_points` is the fast sum the engine uses at every score check;
:func:`settle` builds the :class:`ScoreSheet` a settlement screen shows.

>>> from madang.matgo.cards import mask_of, parse_cards
>>> pile = mask_of(parse_cards("01g 03g 08g 02a 04a 08a"))
>>> [(i.name, i.points) for i in jokbo_items(pile)]
[('gwang', 3), ('godori', 5)]
>>> jokbo_points(pile)
8
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from operator import attrgetter
from typing import Final, TypedDict

from madang.core.errors import RecordError
from madang.core.slots import register_values
from madang.matgo.cards import (
    ANIMAL_MASK,
    BIGWANG_BIT,
    CHEONGDAN_MASK,
    CHODAN_MASK,
    GODORI_MASK,
    GUKJIN_BIT,
    GWANG_MASK,
    HONGDAN_MASK,
    NUM_CARDS,
    PI_MASK,
    RIBBON_MASK,
    SSANGPI_MASK,
    SSEURIPI_MASK,
    mask_of,
    parse_cards,
    pi_value,
)
from madang.matgo.rules import MatgoRules, Meong


class GukjinMode(Enum):
    """How a captured 국진 counts at settlement."""

    ANIMAL = "animal"  #: as 열끗
    PI = "pi"  #: as 쌍피
    BEST = "best"  #: the best way for its owner


def _gwang(m: int, gp: bool) -> int:
    n = (m & GWANG_MASK).bit_count()
    if n < 3:
        return 0
    if n == 3:
        return 2 if m & BIGWANG_BIT else 3
    return 4 if n == 4 else 15


def _animals(m: int, gp: bool) -> int:
    return (m & ANIMAL_MASK).bit_count() - (1 if gp and m & GUKJIN_BIT else 0)


def _yeol(m: int, gp: bool) -> int:
    n = _animals(m, gp)
    return n - 4 if n >= 5 else 0


def _godori(m: int, gp: bool) -> int:
    return 5 if m & GODORI_MASK == GODORI_MASK else 0


def _tti(m: int, gp: bool) -> int:
    n = (m & RIBBON_MASK).bit_count()
    return n - 4 if n >= 5 else 0


def _dan(mask: int) -> Callable[[int, bool], int]:
    def points(m: int, gp: bool) -> int:
        return 3 if m & mask == mask else 0

    return points


#: The 피 value of a pile (쌍피 2, 쓰리피 3, 국진 2 when it counts as 피): one definition.
pi_count = pi_value


def _pi(m: int, gp: bool) -> int:
    v = pi_count(m, gp)
    return v - 9 if v >= 10 else 0


@dataclass(frozen=True, slots=True)
class Pattern:
    """One 족보 (jokbo) category."""

    name: str  #: identifier (romanized)
    name_ko: str  #: Hangul
    gloss: str  #: English
    points: Callable[[int, bool], int]  #: (captured mask, 국진 as 피) -> points


#: 족보 (jokbo): the scoring table of ``matgo.md`` §6, in settlement-screen order.
PATTERNS: Final[tuple[Pattern, ...]] = (
    Pattern("gwang", "광", "brights: 3 (2 with 비광), 4, or 15 for 오광", _gwang),
    Pattern("yeol", "열끗", "animals: 1 for five, +1 per extra", _yeol),
    Pattern("godori", "고도리", "the three birds", _godori),
    Pattern("tti", "띠", "ribbons: 1 for five, +1 per extra", _tti),
    Pattern("hongdan", "홍단", "red poem ribbons of months 1, 2, 3", _dan(HONGDAN_MASK)),
    Pattern("cheongdan", "청단", "blue ribbons of months 6, 9, 10", _dan(CHEONGDAN_MASK)),
    Pattern("chodan", "초단", "grass ribbons of months 4, 5, 7", _dan(CHODAN_MASK)),
    Pattern("pi", "피", "junk: 1 for a value of ten, +1 per extra", _pi),
)


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One line of a score sheet."""

    name: str
    name_ko: str
    points: int


def jokbo_items(captured: int, gukjin_as_pi: bool = False) -> list[ScoreItem]:
    """The 족보 that a captured pile scores, one item per category that scores."""
    out = []
    for p in PATTERNS:
        pts = p.points(captured, gukjin_as_pi)
        if pts:
            out.append(ScoreItem(p.name, p.name_ko, pts))
    return out


def _subsets(mask: int) -> list[int]:
    """Every subset of the cards of ``mask``."""
    out = [0]
    while mask:
        low = mask & -mask
        out += [m | low for m in out]
        mask ^= low
    return out


def _points_by_subset(kind: int) -> dict[int, int]:
    """The 족보 points of every pile made only of cards of ``kind`` (from :data:`PATTERNS`)."""
    return {m: sum(p.points(m, False) for p in PATTERNS) for m in _subsets(kind)}


# The 족보 add up over four disjoint kinds of cards, so a pile's points are one table
# entry per kind: by the pile's brights, its animals (고도리 included), its ribbons (the
# 단 included), and its 피 value (a test checks them against PATTERNS).
_GWANG_POINTS: Final = _points_by_subset(GWANG_MASK)
_ANIMAL_POINTS: Final = _points_by_subset(ANIMAL_MASK)
_RIBBON_POINTS: Final = _points_by_subset(RIBBON_MASK)
_PI_POINTS: Final = tuple(max(0, v - 9) for v in range(3 * NUM_CARDS + 3))
_NOT_GUKJIN: Final = ANIMAL_MASK & ~GUKJIN_BIT


def jokbo_points(m: int, gukjin_as_pi: bool = False) -> int:
    """The 족보 points of a captured pile (the sum of :data:`PATTERNS`, from tables)."""
    v = (m & PI_MASK).bit_count() + 2 * (m & SSANGPI_MASK).bit_count()
    v += 3 * (m & SSEURIPI_MASK).bit_count()
    if gukjin_as_pi and m & GUKJIN_BIT:  # no animal: +2 to the 피 value
        return (
            _GWANG_POINTS[m & GWANG_MASK]
            + _ANIMAL_POINTS[m & _NOT_GUKJIN]
            + _RIBBON_POINTS[m & RIBBON_MASK]
            + _PI_POINTS[v + 2]
        )
    return (
        _GWANG_POINTS[m & GWANG_MASK]
        + _ANIMAL_POINTS[m & ANIMAL_MASK]
        + _RIBBON_POINTS[m & RIBBON_MASK]
        + _PI_POINTS[v]
    )


#: The 족보 points of piles scored lately (:meth:`MatgoState.score
#: <madang.matgo.engine.MatgoState.score>`), by pile: a pile without 국진 by its cards, one
#: with 국진 by its cards and, above them, what else the score reads (the 국진 mode, whether
#: the rules count it as 열끗 until asked). The engine's score check fills it as a turn
#: ends, and the RL observation, which scores both piles at every step, reads it rather
#: than scoring a pile again (about 3,000 instructions a turn, counted by callgrind).
#: Bounded: cleared past 100,000 piles.
PILE_POINTS: Final[dict[int, int]] = {}


def remember_points(key: int, points: int) -> int:
    """Remember ``points`` under ``key`` in :data:`PILE_POINTS`; return them."""
    if len(PILE_POINTS) > 100_000:
        PILE_POINTS.clear()
    PILE_POINTS[key] = points
    return points


def best_jokbo_points(m: int) -> int:
    """족보 points with a held 국진 counted the better way (``gukjin: auto``)."""
    if m & GUKJIN_BIT:
        return max(jokbo_points(m, False), jokbo_points(m, True))
    return jokbo_points(m, False)


@dataclass(frozen=True, slots=True)
class Mission:
    """미션 (mission): a set of cards that multiplies the score of a winner who holds it."""

    name: str
    name_ko: str
    cards: int
    multiplier: int


def _m(name: str, name_ko: str, codes: str, multiplier: int) -> Mission:
    return Mission(name, name_ko, mask_of(parse_cards(codes)), multiplier)


#: The mission table (``missions: true``): one is drawn for each game.
MISSIONS: Final[tuple[Mission, ...]] = (
    _m("godori", "고도리", "02a 04a 08a", 2),
    _m("hongdan", "홍단", "01r 02r 03r", 2),
    _m("cheongdan", "청단", "06r 09r 10r", 2),
    _m("chodan", "초단", "04r 05r 07r", 2),
    _m("ssangpi", "쌍피 둘", "11d 12d", 2),
    _m("gwang_1_3_8", "1·3·8월 광", "01g 03g 08g", 3),
    _m("gwang_11_12", "똥·비 광", "11g 12g", 4),
    _m("ogwang", "오광", "01g 03g 08g 11g 12g", 8),
)
_MISSIONS_BY_NAME: Final = {m.name: m for m in MISSIONS}


def mission_by_name(name: str) -> Mission:
    """The mission called ``name``."""
    try:
        return _MISSIONS_BY_NAME[name]
    except KeyError:
        raise RecordError(f"unknown mission {name!r}") from None


#: The multipliers judged per loser (``gostop.md`` §6.1).
PER_LOSER: Final = frozenset(("pibak", "gwangbak", "meongbak", "gobak"))


@dataclass(frozen=True, slots=True)
class Multiplier:
    """One x-factor of a settlement (피박, 광박, 흔들기 …)."""

    name: str
    name_ko: str
    factor: int


class SheetItemDict(TypedDict):
    """One 족보 of a score sheet as records and views give it."""

    name: str
    name_ko: str
    points: int


class MultiplierDict(TypedDict):
    """One multiplier of a score sheet as records and views give it."""

    name: str
    name_ko: str
    factor: int


class SheetDict(TypedDict):
    """A score sheet as records and views give it (:meth:`ScoreSheet.to_dict`)."""

    items: list[SheetItemDict]
    jokbo: int
    go: int
    base: int
    multipliers: list[MultiplierDict]
    points: int
    gukjin: dict[str, str]


@dataclass(frozen=True)
class ScoreSheet:
    """What a settlement screen shows: every item, every multiplier and the result."""

    items: tuple[ScoreItem, ...]
    go: int
    multipliers: tuple[Multiplier, ...]
    base: int  #: 족보 points plus the go bonus
    points: int  #: the final score
    gukjin: dict[str, str] = field(default_factory=dict)  #: how each held 국진 counted

    @property
    def jokbo(self) -> int:
        return sum(i.points for i in self.items)

    @property
    def stake(self) -> int:
        """S (``gostop.md`` §6.1): the points before the 박 judged per loser (피박, 광박,
        멍박, 고박), the same for every loser of a game."""
        points = self.base
        for m in self.multipliers:
            if m.name not in PER_LOSER:
                points *= m.factor
        return points

    def to_dict(self) -> SheetDict:
        return {
            "items": [
                {"name": i.name, "name_ko": i.name_ko, "points": i.points} for i in self.items
            ],
            "jokbo": self.jokbo,
            "go": self.go,
            "base": self.base,
            "multipliers": [
                {"name": m.name, "name_ko": m.name_ko, "factor": m.factor} for m in self.multipliers
            ],
            "points": self.points,
            "gukjin": dict(self.gukjin),
        }


def flat_sheet(name: str, name_ko: str, points: int, carry: int) -> ScoreSheet:
    """The sheet of a flat win (3뻑, 총통): fixed points, multiplied only by the 나가리 carry."""
    mults = (Multiplier("nagari_carry", "나가리", carry),) if carry > 1 else ()
    return ScoreSheet((ScoreItem(name, name_ko, points),), 0, mults, points, points * carry)


def _multipliers(
    winner: int,
    loser: int,
    w_pi: bool,
    l_pi: bool,
    go: int,
    loser_went_go: bool,
    shakes: int,
    carry: int,
    rules: MatgoRules,
    mission: Mission | None,
    scores_pi: bool,
    scores_gwang: bool,
) -> list[tuple[str, str, int]]:
    """The x-factors of a settlement ``(name, name_ko, factor)``, in sheet order
    (``scores_pi``, ``scores_gwang``: whether the winner's 피 and 광 score)."""
    mults: list[tuple[str, str, int]] = []
    if go >= 3:
        mults.append(("go", f"{go}고", 1 << (go - 2)))
    if shakes:
        mults.append(("heundeulgi", "흔들기·폭탄", 1 << shakes))
    if scores_pi:
        lp = pi_count(loser, l_pi)
        if 1 <= lp <= rules.pibak_max_pi or (lp == 0 and rules.pibak_zero_pi):
            mults.append(("pibak", "피박", 2))
    if scores_gwang and not loser & GWANG_MASK:
        mults.append(("gwangbak", "광박", 2))
    if _animals(winner, w_pi) >= 7:
        if rules.meong is Meong.MEONGTTA:
            mults.append(("meongtta", "멍따", 2))
        elif _animals(loser, l_pi) == 0:
            mults.append(("meongbak", "멍박", 2))
    if loser_went_go:
        mults.append(("gobak", "고박", 2))
    if mission is not None and winner & mission.cards == mission.cards:
        mults.append((f"mission_{mission.name}", f"미션 {mission.name_ko}", mission.multiplier))
    if carry > 1:
        mults.append(("nagari_carry", "나가리", carry))
    return mults


def _sheet(
    winner: int,
    loser: int,
    w_pi: bool,
    l_pi: bool,
    go: int,
    loser_went_go: bool,
    shakes: int,
    carry: int,
    rules: MatgoRules,
    mission: Mission | None,
) -> ScoreSheet:
    items = tuple(jokbo_items(winner, w_pi))
    jokbo = sum(i.points for i in items)
    base = jokbo + go
    names = {i.name for i in items}
    mults = [
        Multiplier(*m)
        for m in _multipliers(winner, loser, w_pi, l_pi, go, loser_went_go, shakes, carry,
                              rules, mission, "pi" in names, "gwang" in names)
    ]  # fmt: skip
    points = base
    for m in mults:
        points *= m.factor
    gukjin = {}
    if winner & GUKJIN_BIT:
        gukjin["winner"] = "pi" if w_pi else "animal"
    if loser & GUKJIN_BIT:
        gukjin["loser"] = "pi" if l_pi else "animal"
    return ScoreSheet(items, go, tuple(mults), base, points, gukjin)


def _points(
    winner: int,
    loser: int,
    w_pi: bool,
    l_pi: bool,
    go: int,
    loser_went_go: bool,
    shakes: int,
    carry: int,
    rules: MatgoRules,
    mission: Mission | None,
) -> int:
    """``_sheet(...).points`` without building the sheet."""
    return (jokbo_points(winner, w_pi) + go) * settle_factor(
        winner, loser, w_pi, l_pi, go, loser_went_go, shakes, carry, rules, mission
    )


def settle_factor(
    winner: int,
    loser: int,
    w_pi: bool,
    l_pi: bool,
    go: int,
    loser_went_go: bool,
    shakes: int,
    carry: int,
    rules: MatgoRules,
    mission: Mission | None,
) -> int:
    """The product of a settlement's multipliers (:func:`settle`'s x-factors, without
    naming them; what :func:`settle_points` multiplies the base by, tested with it)."""
    f = carry
    if go >= 3:
        f <<= go - 2
    f <<= shakes
    if pi_value(winner, w_pi) >= 10:  # the winner's 피 score
        lp = pi_value(loser, l_pi)
        if 1 <= lp <= rules.pibak_max_pi or (lp == 0 and rules.pibak_zero_pi):
            f *= 2
    if not loser & GWANG_MASK and (winner & GWANG_MASK).bit_count() >= 3:  # 광 score
        f *= 2
    if _animals(winner, w_pi) >= 7 and (
        rules.meong is Meong.MEONGTTA or _animals(loser, l_pi) == 0  # 멍따, else 멍박
    ):
        f *= 2
    if loser_went_go:
        f *= 2
    if mission is not None and winner & mission.cards == mission.cards:
        f *= mission.multiplier
    return f


_POINTS: Final = attrgetter("points")


def _modes(mask: int, mode: GukjinMode) -> tuple[bool, ...]:
    if not mask & GUKJIN_BIT:
        return (False,)
    if mode is GukjinMode.BEST:
        return (False, True)
    return (mode is GukjinMode.PI,)


def settle(
    winner: int,
    loser: int,
    *,
    go: int = 0,
    loser_went_go: bool = False,
    shakes: int = 0,
    carry: int = 1,
    rules: MatgoRules | None = None,
    winner_gukjin: GukjinMode = GukjinMode.BEST,
    loser_gukjin: GukjinMode = GukjinMode.BEST,
    mission: Mission | None = None,
) -> ScoreSheet:
    """Settle a won game from both captured piles (masks).

    With ``BEST``, a 국진 counts as the winner's highest final score when the winner holds
    it and as the loser's smallest payment when the loser does (``matgo.md`` §6).

    >>> from madang.matgo.cards import mask_of, parse_cards
    >>> w = mask_of(parse_cards("01g 03g 08g 01r 02r 03r"))
    >>> s = settle(w, mask_of(parse_cards("05p1 11g")), go=1)
    >>> s.base, s.points, [m.name for m in s.multipliers]
    (7, 7, [])
    """
    rules = _checked(rules, go, shakes, carry)

    def worst(w_pi: bool) -> ScoreSheet:  # the loser's 국진 choice (the first of equals)
        sheets = (
            _sheet(winner, loser, w_pi, l_pi, go, loser_went_go, shakes, carry, rules, mission)
            for l_pi in _modes(loser, loser_gukjin)
        )
        return min(sheets, key=_POINTS)

    return max(map(worst, _modes(winner, winner_gukjin)), key=_POINTS)  # the winner's


def _checked(rules: MatgoRules | None, go: int, shakes: int, carry: int) -> MatgoRules:
    """The rules (the defaults for ``None``) once the counts are checked."""
    if go < 0 or shakes < 0 or carry < 1:
        raise RecordError("go and shakes must be >= 0 and carry >= 1")
    return rules or MatgoRules()


def settle_points(
    winner: int,
    loser: int,
    *,
    go: int = 0,
    loser_went_go: bool = False,
    shakes: int = 0,
    carry: int = 1,
    rules: MatgoRules | None = None,
    winner_gukjin: GukjinMode = GukjinMode.BEST,
    loser_gukjin: GukjinMode = GukjinMode.BEST,
    mission: Mission | None = None,
) -> int:
    """``settle(...).points``, several times faster: the score sheet is not built (what a
    player would be paid on stopping now, at every 고/스톱 observation of the RL path).

    >>> from madang.matgo.cards import mask_of, parse_cards
    >>> w = mask_of(parse_cards("01g 03g 08g 01r 02r 03r"))
    >>> settle_points(w, mask_of(parse_cards("05p1 11g")), go=1), settle_points(w, 0, go=1)
    (7, 14)
    """
    rules = _checked(rules, go, shakes, carry)
    return max(
        min(
            _points(winner, loser, w_pi, l_pi, go, loser_went_go, shakes, carry, rules, mission)
            for l_pi in _modes(loser, loser_gukjin)
        )
        for w_pi in _modes(winner, winner_gukjin)
    )


def dokbak_pays(shares: Sequence[int], payer: int | None, multiplier: int = 1) -> list[int]:
    """독박 (dokbak, ``gostop.md`` §6.3): what each loser pays of these shares — its own,
    or when ``payer`` (an index in ``shares``) is in 고박, the payer every share times
    ``multiplier`` and the others nothing.

    >>> dokbak_pays([3, 6], None), dokbak_pays([3, 6], 0), dokbak_pays([3, 3], 1, 2)
    ([3, 6], [9, 0], [0, 12])
    """
    if payer is None:
        return list(shares)
    total = sum(shares) * multiplier
    return [total if i == payer else 0 for i in range(len(shares))]


def _went_go(losers: Sequence[int], went_go: Sequence[bool] | None) -> Sequence[bool]:
    """The losers' 고 flags (none called by default), one per loser, checked."""
    went = [False] * len(losers) if went_go is None else went_go
    if len(went) != len(losers) or not losers:
        raise RecordError("one 고 flag per loser, and at least one loser")
    return went


def settle_losers(
    winner: int,
    losers: Sequence[int],
    *,
    go: int = 0,
    went_go: Sequence[bool] | None = None,
    dokbak: int | None = None,
    shakes: int = 0,
    carry: int = 1,
    rules: MatgoRules | None = None,
    gukjin: GukjinMode = GukjinMode.BEST,
    mission: Mission | None = None,
) -> tuple[tuple[ScoreSheet, ...], list[int]]:
    """Settle a won game against every loser (in turn order after the winner): one sheet
    per loser, each with its own 박, and what each pays (:func:`dokbak_pays`, ``dokbak``
    the index of the loser in 고박). ``went_go``: per loser, whether it called 고 (a 박
    where ``rules.gobak_doubles_share``, 맞고). A 국진 counts as ``gukjin`` says; with
    ``BEST`` the winner's counts the way that makes the larger total (the larger S on a
    tie, else 열끗) and a loser's the way that makes its own share smaller (§6.5).

    >>> from madang.matgo.cards import mask_of, parse_cards
    >>> from madang.gostop.rules import GostopRules
    >>> w = mask_of(parse_cards("01g 03g 08g"))
    >>> sheets, pays = settle_losers(w, [mask_of(parse_cards("11g")), 0], rules=GostopRules())
    >>> [s.stake for s in sheets], pays
    ([3, 3], [3, 6])
    """
    rules = _checked(rules, go, shakes, carry)
    went = _went_go(losers, went_go)
    doubles = rules.gobak_doubles_share
    wmode = gukjin
    if gukjin is GukjinMode.BEST and winner & GUKJIN_BIT:
        # the losers hold no 국진; every loser's share (and so the total, 독박 or not)
        # moves with the winner's count
        totals = [
            sum(
                _points(winner, loser, w_pi, False, go, doubles and w, shakes, carry, rules,
                        mission)
                for loser, w in zip(losers, went, strict=True)
            )
            for w_pi in (False, True)
        ]  # fmt: skip
        if totals[0] != totals[1]:
            wmode = GukjinMode.ANIMAL if totals[0] > totals[1] else GukjinMode.PI
        else:
            stakes = [
                _sheet(winner, losers[0], w_pi, False, go, doubles and went[0], shakes, carry,
                       rules, mission).stake
                for w_pi in (False, True)
            ]  # fmt: skip
            wmode = GukjinMode.PI if stakes[1] > stakes[0] else GukjinMode.ANIMAL
    sheets = tuple(
        settle(winner, loser, go=go, loser_went_go=doubles and w, shakes=shakes, carry=carry,
               rules=rules, winner_gukjin=wmode, loser_gukjin=gukjin, mission=mission)
        for loser, w in zip(losers, went, strict=True)
    )  # fmt: skip
    shares = [s.points for s in sheets]
    if dokbak is None:
        return sheets, shares
    return sheets, dokbak_pays(shares, dokbak, rules.gobak_multiplier)


def settle_losers_total(
    winner: int,
    losers: Sequence[int],
    *,
    go: int = 0,
    went_go: Sequence[bool] | None = None,
    shakes: int = 0,
    carry: int = 1,
    rules: MatgoRules | None = None,
    gukjin: GukjinMode = GukjinMode.BEST,
    mission: Mission | None = None,
) -> int:
    """``sum(settle_losers(...)[1])`` (no 독박: each loser pays its own share) without
    building the sheets: what the losers pay together if the winner stops now (the RL
    path's observation asks it at every 고/스톱 with a 국진 held). With ``BEST`` the
    winner's 국진 counts the way that makes the larger total, as in
    :func:`settle_losers` (whose tie-break between equal totals changes no total), a
    loser's the way that makes its own share smaller.

    >>> from madang.matgo.cards import mask_of, parse_cards
    >>> from madang.gostop.rules import GostopRules
    >>> w = mask_of(parse_cards("01g 03g 08g 09a"))
    >>> settle_losers_total(w, [mask_of(parse_cards("11g")), 0], rules=GostopRules())
    9
    """
    rules = _checked(rules, go, shakes, carry)
    went = _went_go(losers, went_go)
    doubles = rules.gobak_doubles_share
    return max(
        sum(
            min(
                _points(winner, loser, w_pi, l_pi, go, doubles and w, shakes, carry, rules,
                        mission)
                for l_pi in _modes(loser, gukjin)
            )
            for loser, w in zip(losers, went, strict=True)
        )
        for w_pi in _modes(winner, gukjin)
    )  # fmt: skip


def bak_risks(own: int, opponent: int, went_go: bool, rules: MatgoRules | None = None) -> list[str]:
    """The 박 a player would pay if the opponent won now (a table's warnings).

    ``own`` and ``opponent`` are the two captured piles. Returns identifiers among
    ``pibak``, ``gwangbak``, ``meongtta`` / ``meongbak`` and ``gobak``.

    >>> from madang.matgo.cards import mask_of, parse_cards
    >>> bak_risks(mask_of(parse_cards("01p1")), mask_of(parse_cards("01g 03g 08g")), True)
    ['gwangbak', 'gobak']
    """
    rules = rules or MatgoRules()
    out = []
    opp_pi = max(pi_count(opponent, False), pi_count(opponent, True))
    mine = pi_count(own, False)
    if opp_pi >= 10 and (1 <= mine <= rules.pibak_max_pi or (mine == 0 and rules.pibak_zero_pi)):
        out.append("pibak")
    if (opponent & GWANG_MASK).bit_count() >= 3 and not own & GWANG_MASK:
        out.append("gwangbak")
    if _animals(opponent, False) >= 7:
        if rules.meong is Meong.MEONGTTA:
            out.append("meongtta")
        elif _animals(own, False) == 0:
            out.append("meongbak")
    if went_go:
        out.append("gobak")
    return out


# pickle and copy rebuild these values through their constructors (a compiled build needs it)
register_values(Pattern, ScoreItem, Mission, Multiplier, ScoreSheet)


# -- what one game can move ----------------------------------------------------------

MAX_GO: Final = 9
"""The most 고 one player can call in a game. A player plays at most ten cards of the
months (the hand's ten, a bonus card played bringing one in for itself), so takes at
most ten turns (a 폭탄's three cards give one turn and two token flips), and no 고 is
called on the last."""

MAX_SHAKES: Final = 4
"""The most 흔들기 + 폭탄 (+ 총통 played on) one player can count. Each needs three cards of
a month in the hand, and a month counts once, except with all four of it (a 총통, or a
흔들기 of four after a draw): then a 폭탄 may follow. So a month gives two at most with
four cards, one with three, and the ten month cards a player holds in a game give four
at most (4 + 4 + 2 or 4 + 3 + 3; two 총통 months are one 총통)."""


def max_points(rules: MatgoRules) -> int:
    """A bound on the points one Matgo game under ``rules`` can move, every payment
    together, when it starts without a 나가리 carry (each 나가리 before it doubles the
    win): the largest 족보 of the whole deck plus :data:`MAX_GO`, times 2^(MAX_GO − 2),
    2^:data:`MAX_SHAKES`, the four ×2 박 (피박, 광박, 멍따 or 멍박, 고박) and the largest
    mission; plus both players' instant payments (첫따닥, 첫뻑, 연뻑, 3연뻑). A sound
    bound, far above any game seen (``docs/server.md``, Stakes): the multipliers cannot
    all hold at once.

    >>> max_points(MatgoRules()), max_points(MatgoRules(missions=True))
    (2359394, 18874466)
    """
    from madang.matgo.engine import CHEOT_TTADAK_POINTS, INSTANT_PPEOK

    jokbo = best_jokbo_points(rules.deck_mask)
    factor = (1 << (MAX_GO - 2)) * (1 << MAX_SHAKES) * 2**4
    if rules.missions:
        factor *= max(m.multiplier for m in MISSIONS)
    instant = CHEOT_TTADAK_POINTS + sum(points for points, _ in INSTANT_PPEOK.values())
    return (jokbo + MAX_GO) * factor + 2 * instant
