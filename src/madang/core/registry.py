"""The game registry: ``make("matgo")`` returns a game object by name.

Each game module registers a factory; the engine layer stays free of the server, bots
and RL code (a test enforces that the engine imports none of them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from madang.core.errors import RuleConfigError

_FACTORIES: dict[str, Callable[..., Any]] = {}


def register(name: str, factory: Callable[..., Any]) -> None:
    """Register ``factory`` under ``name`` (later registrations replace earlier ones)."""
    _FACTORIES[name] = factory


#: Built-in games and the modules that register them (imported on first use).
BUILTIN = {"matgo": "madang.matgo", "mahjong": "madang.mahjong"}


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
