"""A policy trained with sb3-contrib's MaskablePPO as a bot (the ``train`` extra).

The bot sees what every bot sees, a seat's view and the legal action ids, and encodes
the view with the game's encoding, so a policy trained on :mod:`madang.rl` environments
plays in the arena and at a table. :func:`register_learned` registers a saved model as
the bot ``learned:PATH`` of a game.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np

from madang.bots import Budget, bot_names, register_bot
from madang.rl.encoding import load_encoding

__all__ = ["LearnedBot", "register_learned"]


class LearnedBot:
    """A saved MaskablePPO model playing ``game`` (deterministic: its likeliest action)."""

    def __init__(self, game: str, path: str | Path) -> None:
        from sb3_contrib import MaskablePPO

        self.name = f"learned:{path}"
        self.encoding = load_encoding(game)
        self.model = MaskablePPO.load(str(path), device="cpu")

    def act(
        self, view: dict[str, Any], legal: list[Any], rng: random.Random, budget: Budget
    ) -> Any:
        """The model's choice among ``legal`` (action ids, or the game's action objects)."""
        ids = [self.encoding.action_id(str(a)) if not isinstance(a, int) else a for a in legal]
        mask = np.zeros(self.encoding.num_actions, dtype=bool)
        mask[ids] = True
        action, _ = self.model.predict(
            self.encoding.observe(view), action_masks=mask, deterministic=True
        )
        return legal[ids.index(int(action))]


def register_learned(game: str, path: str | Path) -> str:
    """Register the model at ``path`` as the bot ``learned:PATH`` of ``game``; its name."""
    name = f"learned:{path}"
    bot_names(game)  # load the game's own bots first (registering one first would hide them)
    register_bot(game, name, lambda: LearnedBot(game, path))
    return name
