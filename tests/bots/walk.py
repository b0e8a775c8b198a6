"""The bots' tests' positions: a game advanced by random legal actions."""

from __future__ import annotations

import random

from madang.matgo.engine import MatgoState


def random_walk(g: MatgoState, seed: int, steps: int) -> MatgoState:
    """``g`` advanced by up to ``steps`` random legal actions (drawn from ``seed``),
    stopping before the end: the last position still asking a question (``g`` itself
    when its deal ended at once)."""
    rng = random.Random(seed)
    for _ in range(steps):
        if g.over:
            break
        legal = g.legal_actions()
        nxt = g.clone()
        nxt.step(legal[rng.randrange(len(legal))])
        if nxt.over:
            break
        g = nxt
    return g
