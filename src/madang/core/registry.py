"""The game registry, the one table of game names.

``make("matgo")`` builds a game's state by name (each game module registers a factory);
``spec("matgo")`` is its :class:`~madang.core.game.GameSpec`, the contract the server's
rooms and replays play it through. A game registers both in its own package; nothing
outside it names the game. The engine layer stays free of the server, bots and RL code
(a test enforces that the engine imports none of them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from madang.core.errors import RuleConfigError

if TYPE_CHECKING:
    from madang.core.game import GameSpec

_FACTORIES: dict[str, Callable[..., Any]] = {}
_SPECS: dict[str, GameSpec] = {}


def register(name: str, factory: Callable[..., Any]) -> None:
    """Register ``factory`` under ``name`` (later registrations replace earlier ones)."""
    _FACTORIES[name] = factory


#: Built-in games and the modules that register them (imported on first use).
BUILTIN = {"matgo": "madang.matgo", "mahjong": "madang.mahjong"}

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


def names() -> list[str]:
    """The registered game names (built-in ones included), sorted."""
    return sorted(set(_FACTORIES) | set(BUILTIN))


def make(name: str, **kwargs: Any) -> Any:
    """Build the game called ``name``; keyword arguments go to its factory."""
    if name not in _FACTORIES and name in BUILTIN:
        import importlib

        importlib.import_module(BUILTIN[name])
    try:
        factory = _FACTORIES[name]
    except KeyError:
        known = ", ".join(sorted(_FACTORIES))
        raise RuleConfigError(f"unknown game {name!r}; known: {known}") from None
    return factory(**kwargs)
