"""The match rules of Korean mahjong: one field per house rule of ``mahjong.md``.

The field names are the option names of ``notation.md`` ("Rules option names"), so a
record's ``"rules"`` object maps onto :class:`MahjongRules` one to one.

>>> r = MahjongRules.from_dict({"min_pan": 2})
>>> r.min_pan, r.ron_pays
(2, 2)
>>> MahjongRules.from_dict(r.to_dict()) == r
True
>>> preset("sampan").min_pan
3
>>> MahjongRules(min_pan=1)
Traceback (most recent call last):
...
madang.core.errors.RuleConfigError: min_pan must be one of 0, 2, 3 (무판, 양판, 삼판), not 1
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from madang.core.errors import RuleConfigError

__all__ = ["MIN_PAN_NAMES", "PRESETS", "MahjongRules", "preset"]

MIN_PAN_NAMES: dict[int, str] = {0: "무판", 2: "양판", 3: "삼판"}
"""판 미니멈 (min pan): the allowed table minimums and their Korean names."""


@dataclass(frozen=True, slots=True)
class MahjongRules:
    """마작 규칙 (majak gyuchik): the house rules fixed for a whole mahjong match.

    Every field is validated on creation; a bad value raises
    :class:`~madang.core.errors.RuleConfigError`. Use :func:`dataclasses.replace`
    to derive a variant (it validates too).
    """

    min_pan: int = 0
    """무판/양판/삼판 (mupan/yangpan/sampan): the least 기본판 a hand needs to win: 0, 2 or 3.

    Only 기본판 (hand patterns) count towards it; 부가판 (extras) and base points do not."""

    pan_value: int = 1
    """판 값 (pan value): points paid per 판 (a positive integer)."""

    ron_pays: int = 2
    """쏘아 지불 (ssoa payment): on 쏘아 the discarder pays this many times the winner's
    points (2, the default, or 1)."""

    multiple_ron: bool = False
    """다중 쏘아 (multiple ssoa): several players may 쏘아 the same discard and all win.

    When false, the first claimant in turn order after the discarder wins alone."""

    quad_as_two_pairs: bool = False
    """칠대작 깡 (childaejak kkang): four of a kind counts as two pairs in 칠대작."""

    rounds: int = 1
    """판 바람 수 (rounds): 1 plays the East round only, 2 plays East then South."""

    OPTION_NAMES: ClassVar[tuple[str, ...]] = (
        "min_pan",
        "pan_value",
        "ron_pays",
        "multiple_ron",
        "quad_as_two_pairs",
        "rounds",
    )

    def __post_init__(self) -> None:
        for name in ("multiple_ron", "quad_as_two_pairs"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise RuleConfigError(f"{name} must be true or false, not {value!r}")
        for name in ("min_pan", "pan_value", "ron_pays", "rounds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleConfigError(f"{name} must be an integer, not {value!r}")
        if self.min_pan not in MIN_PAN_NAMES:
            raise RuleConfigError(
                f"min_pan must be one of 0, 2, 3 (무판, 양판, 삼판), not {self.min_pan}"
            )
        if self.pan_value < 1:
            raise RuleConfigError(f"pan_value must be a positive integer, not {self.pan_value}")
        if self.ron_pays not in (1, 2):
            raise RuleConfigError(f"ron_pays must be 2 or 1, not {self.ron_pays}")
        if self.rounds not in (1, 2):
            raise RuleConfigError(
                f"rounds must be 1 (East) or 2 (East and South), not {self.rounds}"
            )

    def to_dict(self) -> dict[str, Any]:
        """Every option by its notation name (defaults included), JSON-ready.

        >>> MahjongRules().to_dict()["ron_pays"]
        2
        """
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Any) -> MahjongRules:
        """Build rules from a record's ``"rules"`` object; missing options take defaults.

        An unknown option name, a non-object, or a bad value raises ``RuleConfigError``.

        >>> MahjongRules.from_dict({"ron_pays": 1, "rounds": 2}).rounds
        2
        >>> MahjongRules.from_dict({"min_pann": 2})
        Traceback (most recent call last):
        ...
        madang.core.errors.RuleConfigError: unknown mahjong rules option 'min_pann'; ...
        """
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RuleConfigError(f"mahjong rules must be a JSON object, not {type(data).__name__}")
        known = cls.OPTION_NAMES
        for key in data:
            if key not in known:
                raise RuleConfigError(
                    f"unknown mahjong rules option {key!r}; known: {', '.join(known)}"
                )
        return cls(**{str(k): v for k, v in data.items()})

    def replace(self, **changes: Any) -> MahjongRules:
        """A copy with some options changed (validated like a new instance)."""
        for key in changes:
            if key not in self.OPTION_NAMES:
                raise RuleConfigError(f"unknown mahjong rules option {key!r}")
        return dataclasses.replace(self, **changes)


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
