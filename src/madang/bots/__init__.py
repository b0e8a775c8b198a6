"""Bots: players that see a seat's view and the legal actions, never the engine state.

>>> from madang.bots import Budget, make_bot
>>> make_bot("matgo", "hard").name
'search'
"""

from madang.bots.base import (
    LEVELS,
    AnswerTimeout,
    Bot,
    BotExited,
    BotFault,
    BotLimits,
    Budget,
    DecisionLog,
    Fault,
    GameFaults,
    GameInfo,
    IllegalAnswer,
    IllegalBotAction,
    MalformedAnswer,
    MoveBot,
    ProtocolMismatch,
    SeatBot,
    bot_names,
    decide,
    is_move_bot,
    make_agent,
    make_bot,
    play,
    register_bot,
)

__all__ = [
    "LEVELS",
    "AnswerTimeout",
    "Bot",
    "BotExited",
    "BotFault",
    "BotLimits",
    "Budget",
    "DecisionLog",
    "Fault",
    "GameFaults",
    "GameInfo",
    "IllegalAnswer",
    "IllegalBotAction",
    "MalformedAnswer",
    "MoveBot",
    "ProtocolMismatch",
    "SeatBot",
    "bot_names",
    "decide",
    "is_move_bot",
    "make_agent",
    "make_bot",
    "play",
    "register_bot",
]
