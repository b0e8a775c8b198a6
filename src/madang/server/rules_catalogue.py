"""The rules options of every registered game, as data: what the lobby's table form
offers and what the table shows as the rules in force.

Built from the rules dataclasses alone (``spec(game).rules(preset)``), so a new game or
a new option needs no edit here: each field is an option, its annotation its type
(``bool``, ``int``, ``str`` or an ``Enum``, whose values are the allowed ones). An
integer option's allowed values are asked of the rules type itself: of 0 to 16, those
its validation accepts, a closed list when 16 is refused (``min_pan``: 0, 2, 3), else an
open range from the least accepted (``pan_value``: 1 and up).

>>> c = catalogue("matgo")
>>> c["options"][0]
{'name': 'bonus_cards', 'type': 'enum', 'values': ['2+3', 'none', '2+2+2']}
>>> c["presets"]["classic"]["bonus_cards"], c["presets"]["default"]["jabbeok"]
('none', True)
>>> catalogue("mahjong")["options"][:2]  # doctest: +NORMALIZE_WHITESPACE
[{'name': 'min_pan', 'type': 'int', 'values': [0, 2, 3]},
 {'name': 'pan_value', 'type': 'int', 'min': 1}]
"""

from __future__ import annotations

import dataclasses
import typing
from enum import Enum
from typing import Any

from madang.core.errors import RuleConfigError
from madang.core.registry import spec

__all__ = ["catalogue", "option_values", "options_of"]

#: The integers an integer option is tried with; accepting the last means "and up".
_PROBE = range(17)


def option_values(rules: object) -> dict[str, Any]:
    """Every option of a rules object by name, JSON-ready (an Enum by its value).

    >>> from madang.matgo.rules import preset
    >>> option_values(preset("strict"))["meong"]
    'meongbak'
    """
    if not dataclasses.is_dataclass(rules):
        return {}
    out: dict[str, Any] = {}
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        out[f.name] = value.value if isinstance(value, Enum) else value
    return out


def options_of(rules: object) -> list[dict[str, Any]]:
    """Each option of a rules object: ``name``, ``type`` (``bool``, ``int``, ``str``,
    ``enum``) and what it allows (``values``, or ``min`` for an open integer range)."""
    if not dataclasses.is_dataclass(rules) or isinstance(rules, type):
        return []
    hints = typing.get_type_hints(type(rules))
    out: list[dict[str, Any]] = []
    for f in dataclasses.fields(rules):
        kind = hints.get(f.name)
        option: dict[str, Any] = {"name": f.name}
        if kind is bool:
            option["type"] = "bool"
        elif isinstance(kind, type) and issubclass(kind, Enum):
            option["type"] = "enum"
            option["values"] = [e.value for e in kind]
        elif kind is int:
            option["type"] = "int"
            accepted = [v for v in _PROBE if _accepts(rules, f.name, v)]
            if accepted and accepted[-1] == _PROBE[-1]:
                option["min"] = accepted[0]
            else:
                option["values"] = accepted
        else:
            option["type"] = "str"
        out.append(option)
    return out


def _accepts(rules: Any, name: str, value: object) -> bool:
    """Whether the rules type validates ``rules`` with option ``name`` set to ``value``."""
    try:
        dataclasses.replace(rules, **{name: value})
    except (RuleConfigError, ValueError, TypeError):
        return False
    return True


def catalogue(game: str) -> dict[str, Any]:
    """``game``'s rules as data: its ruleset version, its options (from the default
    preset's rules type) and every preset's value of each (``presets``, the default
    first). Unknown games raise RuleConfigError."""
    g = spec(game)
    names = g.presets()
    return {
        "ruleset_version": g.ruleset_version,
        "options": options_of(g.rules(names[0])) if names else [],
        "presets": {p: option_values(g.rules(p)) for p in names},
    }
