"""The server's side of the game contract (:mod:`madang.core.game`): the registered
games by name, and the bot that plays a seat.

Nothing here knows a game: the rooms, the lobby and the replays go through
:func:`madang.core.registry.spec`.

>>> s = make_session("matgo", "default", seed=1)
>>> seat = s.pending()[0]
>>> ev = s.step(seat, s.legal(seat)[0])
>>> s.version_events(ev, 1 - seat)[0]["type"]
'play'
"""

from __future__ import annotations

from typing import Any

from madang.core.errors import MadangError
from madang.core.game import Pacing, Session, pacing
from madang.core.registry import games, spec

__all__ = ["BotPlayer", "Pacing", "Session", "games", "make_session", "pacing", "presets", "seats"]


def seats(game: str) -> int:
    """Seats at a table of ``game``."""
    return spec(game).seats


def presets(game: str) -> list[str]:
    """The rules presets of ``game``."""
    return list(spec(game).presets())


def make_session(
    game: str, preset_name: str, seed: int | None = None, overrides: dict[str, Any] | None = None
) -> Session:
    """A session of ``game`` under the named preset with some options changed (unknown
    names, bad options: RuleConfigError)."""
    return spec(game).session(preset_name, seed, overrides)


class BotPlayer:
    """A bot of a level for one game; falls back to the default answer when the game
    has no bot of that level."""

    def __init__(self, game: str, level: str, budget_s: float) -> None:
        from madang.bots import Budget, make_bot

        self.level = level
        self.bot: Any = None
        self.budget = Budget(budget_s)
        try:
            self.bot = make_bot(game, level)
        except MadangError:
            self.bot = None
