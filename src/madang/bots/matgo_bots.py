"""The Matgo bots and their levels: ``easy`` random, ``normal`` greedy, ``hard`` search.

>>> sorted(bot_names("matgo"))
['capture', 'easy', 'first', 'greedy', 'hard', 'normal', 'random', 'search', 'search_value']
"""

from __future__ import annotations

from madang.bots.base import FirstBot, RandomBot, bot_names, register_bot
from madang.bots.matgo_greedy import GreedyBot
from madang.bots.matgo_search import CaptureBot, SearchBot

register_bot("matgo", "random", RandomBot, level="easy")
register_bot("matgo", "greedy", GreedyBot, level="normal")
register_bot("matgo", "search", SearchBot, level="hard")
register_bot("matgo", "first", FirstBot)
register_bot("matgo", "capture", CaptureBot)
register_bot("matgo", "search_value", lambda: SearchBot(horizon=1, leaf="learned", search_go=False))

__all__ = ["CaptureBot", "GreedyBot", "RandomBot", "SearchBot", "bot_names"]
