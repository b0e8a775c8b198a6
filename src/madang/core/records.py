"""What every game record starts with (``notation.md``): a JSON object of known fields,
naming its game and, optionally, the version of the rules implementation it was played
under (``ruleset``; absent: the current one) and the data that proves its deal fair
(``fairness``, :mod:`madang.core.fair`; checked for its form here, verified by
``madang verify``).

>>> check_header({"game": "matgo", "moves": []}, game="matgo", keys={"game", "moves"}, ruleset="1")
>>> check_header({"game": "matgo", "ruleset": "0"}, game="matgo", keys={"game", "ruleset"},
...              ruleset="1")
Traceback (most recent call last):
...
madang.core.errors.RecordError: a matgo record of ruleset '0'; this is ruleset '1'
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from madang.core.errors import RecordError

__all__ = ["check_header"]


def check_header(obj: Any, *, game: str, keys: Collection[str], ruleset: str) -> None:
    """Raise :class:`RecordError` unless ``obj`` is a mapping with no field outside
    ``keys``, whose ``game`` (if given) is ``game``, whose ``ruleset`` (if given) is
    ``ruleset`` and whose ``fairness`` (if given) is well-formed (else its subclass
    :class:`~madang.core.errors.FairnessError`)."""
    if not isinstance(obj, Mapping):
        raise RecordError(f"a {game} record must be a JSON object")
    unknown = sorted(str(k) for k in obj if k not in keys)
    if unknown:
        raise RecordError(f"unknown {game} record field(s): {', '.join(unknown)}")
    if obj.get("game", game) != game:
        raise RecordError(f"not a {game} record (game is {obj.get('game')!r})")
    if obj.get("ruleset", ruleset) != ruleset:
        raise RecordError(
            f"a {game} record of ruleset {obj['ruleset']!r}; this is ruleset {ruleset!r}"
        )
    if "fairness" in obj:
        from madang.core.fair import Fairness

        Fairness.from_dict(obj["fairness"])
