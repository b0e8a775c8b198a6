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

__all__ = [
    "BotPlayer",
    "Pacing",
    "Session",
    "bot_level_for",
    "bot_levels",
    "games",
    "make_session",
    "pacing",
    "presets",
    "seats",
]


def seats(game: str, rules: Any = None) -> int:
    """Seats at a table of ``game`` under ``rules`` (a rules object): its ``players``
    where the game's rules name the count (고스톱: 3, or 4 with 광팔기), else the game's.

    >>> from madang.core.registry import spec
    >>> seats("gostop"), seats("gostop", spec("gostop").rules("gwangpalgi")), seats("matgo")
    (3, 4, 2)
    """
    return spec(game).seats_under(rules)


def presets(game: str) -> list[str]:
    """The rules presets of ``game`` (every one is played at tables: 고스톱's four-seat
    광팔기 and 쇼당 among them, ``docs/server.md``).

    >>> presets("gostop")[:2], "gwangpalgi" in presets("gostop"), "shodang" in presets("gostop")
    (['default', 'classic'], True, True)
    """
    return list(spec(game).presets())


def make_session(
    game: str, preset_name: str, seed: int | None = None, overrides: dict[str, Any] | None = None
) -> Session:
    """A session of ``game`` under the named preset with some options changed (unknown
    names, bad options: RuleConfigError)."""
    return spec(game).session(preset_name, seed, overrides)


def bot_levels(game: str | None = None) -> list[str]:
    """The bot levels the lobby offers: of ``game``, those it has a bot for (고스톱's
    levels come as its bots learn three seats, ``docs/server.md``); without a game,
    every level.

    >>> bot_levels("matgo"), bot_levels("gostop")[0]
    (['easy', 'normal', 'hard'], 'easy')
    """
    from madang.bots import LEVELS, make_bot

    if game is None:
        return list(LEVELS)
    out = []
    for level in LEVELS:
        try:
            make_bot(game, level)
        except MadangError:
            continue
        out.append(level)
    return out


def bot_level_for(game: str, wanted: str) -> str:
    """``wanted`` if ``game`` has a bot of that level, else the strongest level it has
    (a quick match's bots at a game whose bots do not play every level yet)."""
    levels = bot_levels(game)
    return wanted if wanted in levels else levels[-1]


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
