"""고스톱 (gostop) rules: the options of ``gostop.md`` §10 on the Go-Stop family's engine.

:class:`GostopRules` extends :class:`~madang.matgo.rules.MatgoRules`: the options the two
games share keep their names (고스톱's defaults where they differ), and the values 맞고
fixes (``players``, ``stop_points``, ``pibak_max_pi`` and the points of the special
endings) become options. The one engine (:mod:`madang.matgo.engine`) reads them all from
the rules, so three seats are a rules value, not a branch (``gostop.md`` §12).

>>> r = GostopRules()
>>> r.players, r.stop_points, r.deck_size, r.changes()
(3, 3, 51, {})
>>> GostopRules.from_dict({"missions": True})
Traceback (most recent call last):
...
madang.core.errors.RuleConfigError: unknown gostop rules option 'missions' (known: ...)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar, Final

from madang.core.errors import RuleConfigError
from madang.core.options import OptionField, Options, option
from madang.matgo.rules import (
    BbeokStealFrom,
    BonusCards,
    Chongtong,
    Gukjin,
    GwangPayers,
    GwangSeller,
    MatgoRules,
)

__all__ = [
    "GOSTOP_DEAL",
    "PRESETS",
    "GostopRules",
    "GwangPayers",
    "GwangSeller",
    "NagariCarry",
    "NagariDealer",
    "preset",
]


class NagariDealer(Enum):
    """선 after a 나가리 (``gostop.md`` §2)."""

    STAY = "stay"  #: 선 stays
    NEXT = "next"  #: 선 passes to 선+1


class NagariCarry(Enum):
    """The 나가리 carry over consecutive 나가리 (``gostop.md`` §6.4)."""

    STACK = "stack"  #: x2, x4, … (each 나가리 doubles it)
    DOUBLE = "double"  #: always x2


#: The deal of ``gostop.md`` §2 (and §8.2), top first: 4 to each hand from 선+1 round
#: to 선, 3 to the floor, 3 to each hand, 3 to the floor.
GOSTOP_DEAL: Final[tuple[tuple[str, int], ...]] = (
    ("hands", 4), ("floor", 3), ("hands", 3), ("floor", 3),
)  # fmt: skip

_POINTS_MAX: Final = 100  # the largest value of the points options (rules are bounded)


@dataclass(frozen=True, slots=True)
class GostopRules(MatgoRules):
    """The house rules of one 고스톱 table (fixed for a match; ``gostop.md`` §10)."""

    GAME: ClassVar[str] = "gostop"
    ENUM_VALUES: ClassVar[dict[str, tuple[Enum, ...]]] = {
        "bonus_cards": tuple(BonusCards),
        "gukjin": (Gukjin.AUTO, Gukjin.ASK),
    }

    bonus_cards: BonusCards = BonusCards.TWO_TWO_THREE
    """Bonus cards in the deck: ``"2+2+3"`` (default, 51 cards), ``"2+3"``, ``"2+2+2"``,
    ``"none"`` (§1)."""
    chongtong: Chongtong = Chongtong.INSTANT
    """총통 (chongtong): wins at once (default), or the holder stops or plays on (§4.3)."""
    players: int = option(3, choices={3: "3인", 4: "4인 광팔기"})
    """Seats at the table: 3, or 4 with one sitting out each game (광팔기, §8)."""
    nagari_dealer: NagariDealer = NagariDealer.STAY
    """선 after a 나가리: stays, or passes to 선+1 (§2)."""
    stop_points: int = option(3, minimum=1, maximum=_POINTS_MAX)
    """The 족보 points that let a player go or stop (§5)."""
    bbeok_steal_from: BbeokStealFrom = BbeokStealFrom.EACH
    """Taking another's 뻑 stack steals from each opponent, or from its maker (§3)."""
    chongtong_points: int = option(5, minimum=1, maximum=_POINTS_MAX)
    """What a 총통 win is worth, from each other player (§4.3)."""
    three_bbeok_points: int = option(3, minimum=1, maximum=_POINTS_MAX)
    """What a 3뻑 (sam_ppeok) win is worth, from each other player (§6.4)."""
    first_bbeok_points: int = option(3, minimum=0, maximum=_POINTS_MAX)
    """첫뻑 / 연뻑 / 3연뻑 / 첫따닥 pay ×1 / ×2 / ×3 / ×1 this from each (0: off; §6.4)."""
    pibak_max_pi: int = option(5, minimum=1, maximum=9)
    """피박 (pibak) when the loser's 피 value is at most this (§6.1)."""
    gobak_multiplier: int = option(1, choices={1: "x1", 2: "x2"})
    """The 독박 (dokbak) payer pays the two shares once or twice (§6.3)."""
    nagari_carry: NagariCarry = NagariCarry.STACK
    """Consecutive 나가리: x2, x4 …, or always x2 (§6.4)."""
    shodang: bool = False
    """쇼당 (shodang, §7)."""
    gwang_seller: GwangSeller = GwangSeller.CHOICE
    """4 players: join/die in order, or 선+3 always sells (§8.3)."""
    yeonsa_ban: bool = True
    """연사 금지 (yeonsa geumji): no `die` two games in a row (§8.3)."""
    gwang_price: int = option(1, minimum=0, maximum=_POINTS_MAX)
    """Points per 광 sold (§8.5)."""
    gwang_bonus_counts: bool = True
    """A bonus card in the seller's hand counts as a 광 (§8.5)."""
    gwang_payers: GwangPayers = GwangPayers.NON_DEALERS
    """Who pays 광값 (§8.5)."""

    # The family's rules values that are not options in 고스톱 (class attributes).
    gobak_doubles_share = False
    """고박 is not a 박 here: the loser in 고박 pays every share (독박, §6.3)."""
    deal = GOSTOP_DEAL
    """The deal layout (:data:`GOSTOP_DEAL`)."""

    @classmethod
    def option_fields(cls) -> tuple[OptionField, ...]:
        """Every option of 고스톱: those of 맞고 but ``missions`` (§10), and its own."""
        every: tuple[OptionField, ...] = Options.option_fields.__func__(cls)  # type: ignore[attr-defined]
        return tuple(f for f in every if f.name not in _NOT_OPTIONS)

    def validate(self) -> None:
        MatgoRules.validate(self)
        if self.missions:
            raise RuleConfigError("gostop has no missions (gostop.md §10)")


_NOT_OPTIONS: Final = frozenset(("missions",))

#: Named presets: the default table of ``gostop.md`` and common variants of §10.
PRESETS: dict[str, GostopRules] = {
    "default": GostopRules(),
    "classic": GostopRules(bonus_cards=BonusCards.NONE),
    "bonus2": GostopRules(bonus_cards=BonusCards.TWO_THREE),
    "strict": GostopRules(pibak_zero_pi=True, gobak_multiplier=2, jabbeok=False),
    "maker_pays": GostopRules(bbeok_steal_from=BbeokStealFrom.MAKER, first_bbeok_points=0),
    "shodang": GostopRules(shodang=True),
    # four at the table, one sitting out each game (광팔기, §8): join/die, and the sale
    "gwangpalgi": GostopRules(players=4),
    "gwangpalgi_last": GostopRules(
        players=4, gwang_seller=GwangSeller.LAST, gwang_payers=GwangPayers.ALL, shodang=True
    ),
}


def preset(name: str) -> GostopRules:
    """The preset called ``name``."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RuleConfigError(
            f"unknown gostop preset {name!r} (known: {', '.join(PRESETS)})"
        ) from None
