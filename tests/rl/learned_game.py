"""A learned Matgo policy plays one whole game against itself, every move legal."""

from __future__ import annotations

import random
from pathlib import Path


def plays_a_matgo_game(policy: Path, seed: int) -> None:
    """Seat ``learned:policy`` at both seats of the game dealt from ``seed`` and play it
    to the end from each seat's view; every answer is one of the legal actions."""
    from madang.bots import Budget, make_bot
    from madang.matgo.engine import new_game
    from madang.matgo.view import view
    from madang.rl.learned import register_learned

    bot = make_bot("matgo", register_learned("matgo", policy))
    g = new_game(seed=seed)
    while not g.over:
        legal = g.legal_actions()
        a = bot.act(view(g, g.current), list(legal), random.Random(0), Budget())
        assert a in legal
        g.step(a)
