"""A policy's prior: a hand-written valuation of every legal action, read by the network
as one more input (``madang train matgo --prior greedy_hard``).

A student with a prior computes its logits as ``trunk([obs, prior]) + beta * prior``,
where ``prior`` holds one number per action id and ``beta`` is a learned scale that
starts at 0: the untrained student plays at random, and what it learns (the trunk's
weights and ``beta``) is how much of the valuation to follow and where to depart from
it. The prior is computed from the seat's view and the legal actions only, at training
and at play alike (:class:`madang.rl.learned.LearnedBot`), so it leaks nothing the
seat does not see.

``greedy_hard``: the one-ply valuation of ``greedy`` with ``hard``'s weights
(:func:`madang.bots.matgo_greedy.play_values`). In the play phase an action's number is
its value less the best legal action's, in points, cut at :data:`PRIOR_CLIP` below it
(so the valuation's choice has 0); in every other phase (고/스톱, a pick, 국진, ...) the
valuation's answer has 0 and the other legal actions −1. Illegal actions have 0 (they
are masked out).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["PRIORS", "PRIOR_CLIP", "greedy_hard_prior", "prior_of"]

PRIOR_CLIP = 5.0
"""How far below the best action's value (in points) a play's prior is cut."""


def greedy_hard_prior(view: dict[str, Any], legal: list[int], size: int) -> npt.NDArray[Any]:
    """The ``greedy_hard`` prior of ``legal`` (action ids) from a Matgo seat's view: a row
    of ``size`` numbers (the module doc says what they are).

    >>> from madang.matgo.engine import new_game
    >>> from madang.matgo.view import view
    >>> s = new_game(seed=3)
    >>> legal = s.legal_actions()
    >>> row = greedy_hard_prior(view(s, s.current), legal, 175)
    >>> float(row.max()), bool((row[legal] <= 0).all()), bool((row[legal] >= -PRIOR_CLIP).all())
    (0.0, True, True)
    """
    from madang.bots.matgo_greedy import Knowledge, choose, play_values
    from madang.bots.matgo_search import HARD_WEIGHTS
    from madang.matgo.engine import Phase

    row = np.zeros(size, dtype=np.float32)
    if len(legal) < 2:
        return row
    k = Knowledge.from_view(view, HARD_WEIGHTS)
    if k.phase is Phase.PLAY:
        values = play_values(k, legal)
        best = max(values)
        row[legal] = np.maximum(np.asarray(values, dtype=np.float32) - best, -PRIOR_CLIP)
    else:
        row[legal] = -1.0
        row[choose(k, legal)] = 0.0
    return row


PRIORS: dict[str, dict[str, Callable[[dict[str, Any], list[int], int], npt.NDArray[Any]]]] = {
    "matgo": {"greedy_hard": greedy_hard_prior},
}
"""The priors by game and name (``--prior``)."""


def prior_of(game: str, name: str) -> Callable[[dict[str, Any], list[int], int], npt.NDArray[Any]]:
    """The prior ``name`` of ``game``; an unknown one raises :class:`RuleConfigError`.

    >>> prior_of("matgo", "greedy_hard") is greedy_hard_prior
    True
    """
    from madang.core.errors import RuleConfigError

    found = PRIORS.get(game, {}).get(name)
    if found is None:
        known = ", ".join(PRIORS.get(game, {})) or "none"
        raise RuleConfigError(f"no prior {name!r} for {game} (known: {known})")
    return found
