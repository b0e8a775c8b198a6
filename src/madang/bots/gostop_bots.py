"""The 고스톱 (gostop) bots and their levels: ``easy`` random, ``normal`` greedy,
``hard`` search.

The family's bots (:mod:`madang.bots.matgo_greedy`, :mod:`madang.bots.matgo_search`)
play any table of the Go-Stop family: they read the seat count from the view, value a
capture against every opponent, and the search deals every opponent's hidden hand
afresh in each sampled world. At four seats (광팔기) the seat sitting out is no opponent
and the join/die question is answered by
:func:`~madang.bots.matgo_greedy.join_or_die`. The learned leaf evaluation
(``search_value``) was fitted on 맞고 games and is not offered here.

>>> sorted(bot_names("gostop"))
['capture', 'easy', 'first', 'greedy', 'hard', 'normal', 'random', 'search']
"""

from __future__ import annotations

from madang.bots.base import FirstBot, RandomBot, bot_names, register_bot
from madang.bots.matgo_greedy import GreedyBot
from madang.bots.matgo_search import CaptureBot, SearchBot

register_bot("gostop", "random", RandomBot, level="easy")
register_bot("gostop", "greedy", GreedyBot, level="normal")
register_bot("gostop", "search", SearchBot, level="hard")
register_bot("gostop", "first", FirstBot)
register_bot("gostop", "capture", CaptureBot)

__all__ = ["CaptureBot", "GreedyBot", "RandomBot", "SearchBot", "bot_names"]
