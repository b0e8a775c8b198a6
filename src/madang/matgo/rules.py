"""Matgo rules configuration: one field per house rule of ``matgo.md``.

The field names are the option names of ``notation.md``; validation and
(de)serialisation come from the dataclass (:class:`madang.core.options.Options`). A
record stores every option it was played under (:meth:`MatgoRules.to_dict`) and
:meth:`MatgoRules.from_dict` reads them back (missing ones take the defaults), rejecting
unknown names and bad values.

>>> MatgoRules.from_dict({"bonus_cards": "none", "jabbeok": False}).deck_size
48
>>> MatgoRules().changes(), MatgoRules().to_dict()["bonus_cards"]
({}, '2+3')
>>> MatgoRules.from_dict({"jabbeok": "yes"})
Traceback (most recent call last):
...
madang.core.errors.RuleConfigError: matgo option 'jabbeok' must be true or false, not 'yes'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Final

from madang.core.errors import RuleConfigError
from madang.core.options import Options
from madang.matgo.cards import ALL_MONTH_CARDS, B2, B2X, B2Y, B3, BIT


class BonusCards(Enum):
    """보너스 패 (bonus cards) in the deck."""

    TWO_THREE = "2+3"  #: one 쌍피 bonus card and one 쓰리피 bonus card (50 cards)
    NONE = "none"  #: no bonus cards (48 cards)
    THREE_TWOS = "2+2+2"  #: three 쌍피 bonus cards (51 cards)
    #: two 쌍피 bonus cards and one 쓰리피 bonus card (51 cards; 고스톱 only, ``gostop.md`` §1)
    TWO_TWO_THREE = "2+2+3"


class FirstDealer(Enum):
    """How the first 선 (dealer) of a session is drawn."""

    HIGH = "high"  #: the higher month wins
    NIGHT_LOW = "night_low"  #: 밤일낮장 (bamil najjang): at night the lower month wins


class Chongtong(Enum):
    """총통 (chongtong): what holding all four cards of a month does."""

    CHOICE = "choice"  #: the holder chooses: stop with 10 points, or play on (one 흔들기)
    INSTANT = "instant"  #: the game ends at once, won with 10 points


class Meong(Enum):
    """The x2 for seven or more 열끗."""

    MEONGTTA = "meongtta"  #: 멍따 (meongtta): the winner holds 7+ 열끗
    MEONGBAK = "meongbak"  #: 멍박 (meongbak): the winner holds 7+ 열끗 and the loser none


class Gukjin(Enum):
    """국진 (gukjin): how the September animal counts."""

    AUTO = "auto"  #: whichever is best for its owner, at every check
    ASK = "ask"  #: its owner answers 열끗 or 쌍피 once, right after capturing it
    #: it counts as 열끗 until the score check where the two counts differ and one of them
    #: makes its owner's score (7, or more than at the last 고); the owner is asked then,
    #: as online games do (seed 002: 점수나기 직전 쌍피로 바꿀지 물어본다)
    BEFORE_SCORE = "before_score"


#: The deal of ``matgo.md`` §2, top of the deck first: each step deals ``n`` cards to
#: the floor, or to every hand in turn from 선+1 round to 선 (``"hands"``).
MATGO_DEAL: Final[tuple[tuple[str, int], ...]] = (
    ("floor", 4), ("hands", 5), ("floor", 4), ("hands", 5),
)  # fmt: skip


class BbeokStealFrom(Enum):
    """Whom taking another player's 뻑 stack steals from (``gostop.md`` §3)."""

    EACH = "each"  #: one 피 from each opponent
    MAKER = "maker"  #: one 피 from the player who made the stack


class GwangSeller(Enum):
    """광팔기 (gwangpalgi): who sits out with four at the table (``gostop.md`` §8.3)."""

    CHOICE = "choice"  #: 선+1 then 선+2 answer join or die; else 선+3 sells
    LAST = "last"  #: nobody is asked: 선+3 always sits out and sells


class GwangPayers(Enum):
    """Who pays the seller's 광값 (gwanggap, ``gostop.md`` §8.5)."""

    NON_DEALERS = "non_dealers"  #: each of the two players other than 선, at once
    ALL = "all"  #: each of the three players, at once
    WINNER = "winner"  #: the game's winner, at settlement (nobody after 나가리)


RULESET_VERSION = "1"
"""The version of this implementation of the Matgo rules (records carry it)."""


@dataclass(frozen=True, slots=True)
class MatgoRules(Options):
    """The house rules of one Matgo table (fixed for a match)."""

    GAME: ClassVar[str] = "matgo"

    bonus_cards: BonusCards = BonusCards.TWO_THREE
    """Bonus cards in the deck: ``"2+3"`` (default), ``"none"`` or ``"2+2+2"``."""
    jabbeok: bool = True
    """자뻑 (jabbeok): taking one's own 뻑 stack steals two 피 (off: one, like any 뻑)."""
    bonus_steals_pi: bool = False
    """Taking a bonus card (from the hand or from a flip) steals one 피."""
    first_dealer: FirstDealer = FirstDealer.HIGH
    """How the first 선 of a match is drawn."""
    chongtong: Chongtong = Chongtong.CHOICE
    """총통: the holder chooses to stop or play on, or the game ends at once."""
    pibak_zero_pi: bool = False
    """A loser with no 피 at all is 피박 too (default: only a 피 value of 1 to 7)."""
    meong: Meong = Meong.MEONGTTA
    """멍따 (x2 for the winner's 7+ 열끗) or 멍박 (only when the loser has no 열끗)."""
    gukjin: Gukjin = Gukjin.AUTO
    """국진: counted the best way for its owner, or asked once."""
    missions: bool = False
    """미션 (mission): each game has a mission that multiplies a winner's score who completed it."""

    # The Go-Stop family's rules values that 맞고 fixes (``gostop.md`` §12: one engine for
    # the family; the differences are rules). Plain class attributes, not options: they
    # never appear in a Matgo record or form; :class:`madang.gostop.rules.GostopRules`
    # makes them options.
    players = 2
    """Seats at the table (맞고: two)."""
    stop_points = 7
    """The 족보 points that let a player go or stop (``matgo.md`` §7)."""
    pibak_max_pi = 7
    """피박 (pibak) when the loser's 피 value is at most this (and at least one)."""
    chongtong_points = 10
    """What a 총통 (chongtong) win is worth, before the 나가리 carry."""
    three_bbeok_points = 7
    """What a 3뻑 (sam_ppeok) win is worth, before the 나가리 carry."""
    first_bbeok_points = 7
    """첫뻑 / 연뻑 / 3연뻑 / 첫따닥 pay ×1 / ×2 / ×3 / ×1 this, from each opponent."""
    gobak_doubles_share = True
    """고박 (gobak) is a 박: x2 on the share of a loser who called 고 (맞고); in 고스톱 it
    moves the other loser's share instead (독박, ``gostop.md`` §6.3)."""
    gobak_multiplier = 1
    """The 독박 (dokbak) payer pays the shares this many times (unused where 고박 is a 박)."""
    deal = MATGO_DEAL
    """The deal layout, top first (:data:`MATGO_DEAL`)."""
    bbeok_steal_from = BbeokStealFrom.EACH
    """Taking another's 뻑 stack steals from each opponent (맞고: the one), or its maker."""
    shodang = False
    """쇼당 (shodang, ``gostop.md`` §7): not in 맞고."""
    # 광팔기 (``gostop.md`` §8): read only where a fourth seat sits out (never in 맞고)
    gwang_seller = GwangSeller.CHOICE
    """Four seats: join/die in order, or 선+3 always sells."""
    yeonsa_ban = True
    """연사 금지 (yeonsa geumji): a seat that chose `die` last game is not asked."""
    gwang_price = 1
    """광값 (gwanggap): points per 광 sold."""
    gwang_bonus_counts = True
    """A bonus card in the seller's hand counts as a 광."""
    gwang_payers = GwangPayers.NON_DEALERS
    """Who pays the 광값."""

    ENUM_VALUES: ClassVar[dict[str, tuple[Enum, ...]]] = {
        "bonus_cards": (BonusCards.TWO_THREE, BonusCards.NONE, BonusCards.THREE_TWOS),
    }
    """The values an Enum option allows where the game uses only some of the Enum's
    (the family shares one Enum; ``"2+2+3"`` is 고스톱's)."""

    def validate(self) -> None:
        for name, allowed in self.ENUM_VALUES.items():
            value = getattr(self, name)
            if value not in allowed:
                values = ", ".join(repr(e.value) for e in allowed)
                raise RuleConfigError(
                    f"{self.GAME} option {name!r} must be one of {values}, not {value.value!r}"
                )

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """:meth:`Options.describe`, with the Enum values this game leaves out removed."""
        out: list[dict[str, Any]] = Options.describe.__func__(cls)  # type: ignore[attr-defined]
        for d in out:
            allowed = cls.ENUM_VALUES.get(d["name"])
            if allowed is not None:
                d["values"] = [e.value for e in allowed]
        return out

    @property
    def bonus_ids(self) -> tuple[int, ...]:
        """The ids of the bonus cards in the deck."""
        return _BONUS_IDS[self.bonus_cards]

    @property
    def deck_mask(self) -> int:
        """Every card of the deck under these rules, as a mask."""
        m = ALL_MONTH_CARDS
        for b in self.bonus_ids:
            m |= BIT[b]
        return m

    @property
    def deck_size(self) -> int:
        return 48 + len(self.bonus_ids)


_BONUS_IDS: dict[BonusCards, tuple[int, ...]] = {
    BonusCards.TWO_THREE: (B2, B3),
    BonusCards.NONE: (),
    BonusCards.THREE_TWOS: (B2, B2X, B2Y),
    BonusCards.TWO_TWO_THREE: (B2, B2X, B3),
}


#: Named presets. ``default`` is the table of ``matgo.md``.
PRESETS: dict[str, MatgoRules] = {
    "default": MatgoRules(),
    "classic": MatgoRules(bonus_cards=BonusCards.NONE),
    "bonus3": MatgoRules(bonus_cards=BonusCards.THREE_TWOS),
    "strict": MatgoRules(pibak_zero_pi=True, meong=Meong.MEONGBAK, chongtong=Chongtong.INSTANT),
    "tournament": MatgoRules(gukjin=Gukjin.BEFORE_SCORE, jabbeok=False),
    "missions": MatgoRules(missions=True),
}


def preset(name: str) -> MatgoRules:
    """The preset called ``name``."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RuleConfigError(
            f"unknown matgo preset {name!r} (known: {', '.join(PRESETS)})"
        ) from None
