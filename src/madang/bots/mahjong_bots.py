"""The mahjong bots and their levels: ``easy`` random, ``normal`` efficiency, ``hard``
value (the defensive bot choosing by expected points); ``defensive`` by name.

A mahjong bot is called as ``act(view, legal, rng, budget)`` with the seat's view
(:func:`madang.mahjong.view.view`) and the list of legal action ids (each an
:attr:`~madang.mahjong.state.Action.code`, the RL encoding's ids), and returns one of
them; the built-in bots reason on :class:`~madang.mahjong.state.Action` values
(``EfficiencyBot.choose``) and convert at their ``act``.

>>> sorted(bot_names("mahjong"))
['defensive', 'easy', 'efficiency', 'first', 'hard', 'normal', 'random', 'value']
"""

from __future__ import annotations

from madang.bots.base import FirstBot, RandomBot, bot_names, register_bot
from madang.bots.mahjong_defensive import DangerModel, DefensiveBot
from madang.bots.mahjong_efficiency import EfficiencyBot, Table
from madang.bots.mahjong_value import ValueBot

register_bot("mahjong", "random", RandomBot, level="easy")
register_bot("mahjong", "efficiency", EfficiencyBot, level="normal")
register_bot("mahjong", "defensive", DefensiveBot)
register_bot("mahjong", "value", ValueBot, level="hard")
register_bot("mahjong", "first", FirstBot)

__all__ = [
    "DangerModel",
    "DefensiveBot",
    "EfficiencyBot",
    "RandomBot",
    "Table",
    "ValueBot",
    "bot_names",
]
