"""The Matgo bots and their levels: ``easy`` random, ``normal`` greedy, ``hard`` search;
``hard_learned`` is the search with a learned evaluation in points (no level);
``hard-2026-12`` is ``hard`` as it played in December 2026, issue 29's reference level.

>>> sorted(bot_names("matgo"))
['capture', 'easy', 'first', 'greedy', 'hard', 'hard-2026-12', 'hard_learned', 'normal',
 'random', 'search', 'search_value']
"""

from __future__ import annotations

from pathlib import Path

from madang.bots.base import (
    FirstBot,
    RandomBot,
    bot_names,
    register_bot,
    register_model_loader,
)
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


def register_net(path: str | Path) -> str:
    """Register ``hard_learned`` reading the points net saved at ``path`` (a second
    generation, say) as the bot ``learned:PATH``; its name. The net is loaded, and a
    file that is not one refused (:class:`~madang.bots.matgo_net.NetWeightsError`), here.
    """
    from madang.bots.matgo_net import load

    net = load(path)
    name = f"learned:{path}"

    def factory() -> SearchBot:
        bot = SearchBot(leaf="net", go_net=True, net=net)
        bot.name = name
        return bot

    register_bot("matgo", name, factory)  # no bot_names() first: this module is the one it loads
    return name


def _net_loader(path: str) -> str | None:
    """``learned:PATH`` of a points net: :func:`register_net` (``None``: not a net)."""
    if not path.endswith(".npz"):
        return None
    try:
        from madang.bots.matgo_net import is_points_net
    except ImportError:  # no numpy: no net, and the policy loader says what is missing
        return None
    return register_net(path) if is_points_net(path) else None


register_model_loader("matgo", _net_loader)


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
