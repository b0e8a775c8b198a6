"""The game registry, the one table of game names.

``spec("matgo")`` is the game's :class:`~madang.core.game.GameSpec`, the contract every
layer plays it through; :func:`games` lists the registered names. The built-in games'
contracts are imported on first use; another game registers its own
(:func:`register_spec`, one line). Nothing outside a game's package names the game.

>>> spec("matgo").seats, "mahjong" in games()
(2, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from madang.core.errors import RuleConfigError

if TYPE_CHECKING:
    from madang.core.game import GameSpec

_SPECS: dict[str, GameSpec] = {}

#: The modules holding each built-in game's ``SPEC`` (imported on first use).
BUILTIN_SPECS = {"matgo": "madang.matgo.game", "mahjong": "madang.mahjong.game"}


def register_spec(game: GameSpec) -> None:
    """Register a game's contract under its name (later ones replace earlier ones)."""
    _SPECS[game.name] = game


def unregister_spec(name: str) -> None:
    """Forget a registered contract (tests register toy games for a while)."""
    _SPECS.pop(name, None)


def spec(name: object) -> GameSpec:
    """The contract of the game called ``name``; unknown names raise RuleConfigError."""
    if isinstance(name, str) and name not in _SPECS and name in BUILTIN_SPECS:
        import importlib

        register_spec(importlib.import_module(BUILTIN_SPECS[name]).SPEC)
    if not isinstance(name, str) or name not in _SPECS:
        known = ", ".join(games())
        raise RuleConfigError(f"unknown game {name!r}; known: {known}")
    return _SPECS[name]


def games() -> list[str]:
    """The names of the games with a contract (the built-in ones first, then the rest)."""
    return [*BUILTIN_SPECS, *sorted(set(_SPECS) - set(BUILTIN_SPECS))]
