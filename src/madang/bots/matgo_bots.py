"""The Matgo bots and their levels: ``easy`` random, ``normal`` greedy, ``hard`` search;
``hard_learned`` is the search with a learned evaluation in points (no level);
``hard-2026-12`` is ``hard`` as it played in December 2026, issue 29's reference level.

>>> sorted(bot_names("matgo"))
['capture', 'easy', 'first', 'greedy', 'hard', 'hard-2026-12', 'hard_learned', 'normal',
 'random', 'search', 'search_value']
"""

from __future__ import annotations

from madang.bots.base import FirstBot, RandomBot, bot_names, register_bot
from madang.bots.matgo_greedy import GreedyBot, Weights
from madang.bots.matgo_search import CaptureBot, SearchBot

register_bot("matgo", "random", RandomBot, level="easy")
register_bot("matgo", "greedy", GreedyBot, level="normal")
register_bot("matgo", "search", SearchBot, level="hard")
register_bot("matgo", "first", FirstBot)
register_bot("matgo", "capture", CaptureBot)
register_bot("matgo", "search_value", lambda: SearchBot(horizon=1, leaf="learned", search_go=False))


# the search with the learned points net (madang.bots.matgo_net; needs numpy) at its
# leaves and in its 고/스톱 playouts: a candidate for hard (docs/bots.md)
def _hard_learned() -> SearchBot:
    bot = SearchBot(leaf="net", go_net=True)
    bot.name = "hard_learned"
    return bot


register_bot("matgo", "hard_learned", _hard_learned)


# today's hard with every setting written out, so that a new hard leaves it as it is:
# the reference level of issue 29's target (docs/bots.md, "The reference level"; a test
# pins its moves)
def _hard_2026_12() -> SearchBot:
    bot = SearchBot(
        horizon=3,
        max_candidates=8,
        search_go=True,
        weights=Weights(pi=0.2),
        reach=0.3,
        replies=0,
        leaf="potential",
        go_margin=0.0,
        go_risk=0.05,
    )
    bot.name = "hard-2026-12"
    return bot


register_bot("matgo", "hard-2026-12", _hard_2026_12)

__all__ = ["CaptureBot", "GreedyBot", "RandomBot", "SearchBot", "bot_names"]
