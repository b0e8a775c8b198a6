"""The rules options of every registered game, as data: what the lobby's table form
offers and what the table shows as the rules in force.

Built from the rules types alone (``spec(game).rules(preset)``, a
:class:`~madang.core.options.Options` dataclass), so a new game or a new option needs
no edit here: each option's name, type, default and allowed values come from
:meth:`~madang.core.options.Options.describe`.

>>> c = catalogue("matgo")
>>> c["options"][0]
{'name': 'bonus_cards', 'type': 'enum', 'default': '2+3', 'values': ['2+3', 'none', '2+2+2']}
>>> c["presets"]["classic"]["bonus_cards"], c["presets"]["default"]["jabbeok"]
('none', True)
>>> [o.get("values", o.get("min")) for o in catalogue("mahjong")["options"][:2]]
[[0, 2, 3], 1]
"""

from __future__ import annotations

from typing import Any

from madang.core.options import Options
from madang.core.registry import spec

__all__ = ["catalogue", "option_values", "options_of"]


def option_values(rules: object) -> dict[str, Any]:
    """Every option of a rules object by name, JSON-ready (an Enum by its value); {} for
    a game whose rules have no options.

    >>> from madang.matgo.rules import preset
    >>> option_values(preset("strict"))["meong"]
    'meongbak'
    """
    return rules.to_dict() if isinstance(rules, Options) else {}


def options_of(rules: object) -> list[dict[str, Any]]:
    """Each option of a rules object: ``name``, ``type`` (``bool``, ``int``, ``str``,
    ``enum``), ``default`` and what it allows (``values`` with ``labels`` where the
    values have names, or ``min`` and ``max`` for an integer range)."""
    return type(rules).describe() if isinstance(rules, Options) else []


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
