"""Bots: players that see a seat's view and the legal actions, never the engine state.

>>> from madang.bots import Budget, make_bot
>>> make_bot("matgo", "hard").name
'search'
"""

from madang.bots.base import (
    LEVELS,
    Bot,
    Budget,
    DecisionLog,
    IllegalBotAction,
    SeatBot,
    bot_names,
    make_bot,
    play,
    register_bot,
)

__all__ = [
    "LEVELS",
    "Bot",
    "Budget",
    "DecisionLog",
    "IllegalBotAction",
    "SeatBot",
    "bot_names",
    "make_bot",
    "play",
    "register_bot",
]
