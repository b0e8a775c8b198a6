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


def names() -> list[str]:
    """The registered game names, sorted."""
    _load_builtin()
    return sorted(_FACTORIES)


def make(name: str, **kwargs: Any) -> Any:
    """Build the game called ``name``; keyword arguments go to its factory."""
    _load_builtin()
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise RuleConfigError(f"unknown game {name!r}; known: {', '.join(sorted(_FACTORIES))}") from None
    return factory(**kwargs)


def _load_builtin() -> None:
    import importlib

    for mod in ("madang.matgo", "madang.mahjong"):
        try:
            importlib.import_module(mod)
        except ImportError:  # pragma: no cover - a game package still being written
            pass
