"""The match rules of Korean mahjong: one field per house rule of ``mahjong.md``.

The field names are the option names of ``notation.md`` ("Rules option names"), so a
record's ``"rules"`` object maps onto :class:`MahjongRules` one to one; validation and
(de)serialisation come from the dataclass (:class:`madang.core.options.Options`).

>>> r = MahjongRules.from_dict({"min_pan": 2})
>>> r.min_pan, r.ron_pays
(2, 2)
>>> MahjongRules.from_dict(r.to_dict()) == r
True
>>> preset("sampan").min_pan
3
>>> MahjongRules(min_pan=1)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
madang.core.errors.RuleConfigError: mahjong option 'min_pan' must be one of 0, 2, 3 ..., not 1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from madang.core.errors import RuleConfigError
from madang.core.options import Options, option

__all__ = ["MIN_PAN_NAMES", "PAN_VALUE_MAX", "PRESETS", "RULESET_VERSION", "MahjongRules", "preset"]

RULESET_VERSION = "1"
"""The version of this implementation of the mahjong rules (records carry it)."""

MIN_PAN_NAMES: dict[int, str] = {0: "무판", 2: "양판", 3: "삼판"}
"""판 미니멈 (min pan): the allowed table minimums and their Korean names."""


PAN_VALUE_MAX = 100
"""The largest ``pan_value``: 100 points a 판 covers every house rule we know of (1 판 is
worth 1 to 10 points at Korean tables); the base points and the 나가리 pot are never
multiplied by it, so a larger value would only scale the 판 against them."""


@dataclass(frozen=True, slots=True)
class MahjongRules(Options):
    """마작 규칙 (majak gyuchik): the house rules fixed for a whole mahjong match.

    Every field is validated on creation; a bad value raises
    :class:`~madang.core.errors.RuleConfigError`. Use :func:`dataclasses.replace`
    to derive a variant (it validates too).
    """

    GAME: ClassVar[str] = "mahjong"

    min_pan: int = option(0, choices=MIN_PAN_NAMES)
    """무판/양판/삼판 (mupan/yangpan/sampan): the least 기본판 a hand needs to win: 0, 2 or 3.

    Only 기본판 (hand patterns) count towards it; 부가판 (extras) and base points do not."""

    pan_value: int = option(1, minimum=1, maximum=PAN_VALUE_MAX)
    """판 값 (pan value): points paid per 판, 1 to :data:`PAN_VALUE_MAX` (100)."""

    ron_pays: int = option(2, choices={2: "두 배", 1: "한 배"})
    """쏘아 지불 (ssoa payment): on 쏘아 the discarder pays this many times the winner's
    points (2, the default, or 1)."""

    multiple_ron: bool = False
    """다중 쏘아 (multiple ssoa): several players may 쏘아 the same discard and all win.

    When false, the first claimant in turn order after the discarder wins alone."""

    quad_as_two_pairs: bool = False
    """칠대작 깡 (childaejak kkang): four of a kind counts as two pairs in 칠대작."""

    rounds: int = option(1, choices={1: "동풍전", 2: "동남전"})
    """판 바람 수 (rounds): 1 plays the East round only, 2 plays East then South."""


PRESETS: dict[str, MahjongRules] = {
    "default": MahjongRules(),
    "mupan": MahjongRules(min_pan=0),
    "yangpan": MahjongRules(min_pan=2),
    "sampan": MahjongRules(min_pan=3),
    "east_south": MahjongRules(rounds=2),
}
"""Named rule sets: ``default`` (= ``mupan``, 무판), ``yangpan`` (양판, minimum 2),
``sampan`` (삼판, minimum 3) and ``east_south`` (무판, East and South rounds)."""


def preset(name: str) -> MahjongRules:
    """The named preset of :data:`PRESETS`; an unknown name raises ``RuleConfigError``.

    >>> preset("yangpan").min_pan
    2
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise RuleConfigError(
            f"unknown mahjong rules preset {name!r}; known: {', '.join(sorted(PRESETS))}"
        ) from None
