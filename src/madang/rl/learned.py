"""A trained policy as a bot: a ``policy.npz`` of ``madang train`` (numpy only), or a
model saved by sb3-contrib's MaskablePPO (the ``train`` extra).

The bot sees what every bot sees, a seat's view and the legal action ids, and encodes
the view with the game's encoding, so a policy trained on :mod:`madang.rl` environments
plays in the arena and at a table. :func:`register_learned` registers a saved model as
the bot ``learned:PATH`` of a game.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np

from madang.bots import Budget, bot_names, register_bot
from madang.rl.encoding import load_encoding

__all__ = ["LearnedBot", "NumpyPolicy", "register_learned"]


class NumpyPolicy:
    """A multilayer perceptron saved by ``madang train`` (``W0, b0, ...``; ReLU between
    layers), evaluated with numpy: the logits of an observation. A policy trained with a
    prior (``meta["prior"]``, :mod:`madang.rl.prior`) reads the observation and the
    prior's row, and adds ``beta`` times that row to its logits."""

    def __init__(self, path: str | Path) -> None:
        from madang.core.errors import UNREADABLE_NPZ, RuleConfigError

        try:
            with np.load(path, allow_pickle=False) as z:
                self.meta = json.loads(str(z["meta"]))
                n = int(self.meta["layers"])
                self.layers = [(z[f"W{i}"], z[f"b{i}"]) for i in range(n)]
                self.beta = float(z["beta"]) if "beta" in z.files else None
        except (*UNREADABLE_NPZ, KeyError) as e:
            raise RuleConfigError(f"{path} is not a policy saved by madang train: {e}") from None
        self.path = path
        self.prior: str | None = self.meta.get("prior")
        if (self.prior is None) != (self.beta is None):
            raise RuleConfigError(f"{path}: a prior needs its scale beta, and beta its prior")

    def check_fits(self, game: str, obs_size: int, num_actions: int) -> None:
        """Raise :class:`RuleConfigError` unless the policy plays ``game``: trained on it
        (its ``meta``), ``obs_size`` numbers in and ``num_actions`` logits out (a Matgo
        policy seated at a mahjong table is refused here, before it plays)."""
        from madang.core.errors import RuleConfigError

        trained = self.meta.get("game")
        if trained is not None and trained != game:
            raise RuleConfigError(f"{self.path} is a {trained} policy, not a {game} one")
        shape = (self.layers[0][0].shape[0], self.layers[-1][0].shape[-1])
        if self.prior is not None:
            obs_size += num_actions  # the prior's row is read beside the observation
        if shape != (obs_size, num_actions):
            raise RuleConfigError(
                f"{self.path} maps {shape[0]} numbers to {shape[1]} actions; {game}'s "
                f"encoding has {obs_size} and {num_actions}"
            )

    def logits(
        self, obs: np.ndarray[Any, Any], prior: np.ndarray[Any, Any] | None = None
    ) -> np.ndarray[Any, Any]:
        """The logits of ``obs`` (and, for a policy with a prior, its prior's row)."""
        x = obs.astype(np.float32)
        if self.beta is not None:
            if prior is None:
                raise ValueError(f"{self.path} was trained with the prior {self.prior}: give it")
            x = np.concatenate([x, prior.astype(np.float32)], axis=-1)
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < len(self.layers) - 1:
                x = np.maximum(x, 0)
        if self.beta is None or prior is None:  # (a prior was required above)
            return x
        return x + self.beta * prior

    def predict(
        self,
        obs: np.ndarray[Any, Any],
        action_masks: np.ndarray[Any, Any],
        deterministic: bool,
        prior: np.ndarray[Any, Any] | None = None,
    ) -> tuple[int, None]:
        """The likeliest legal action (the MaskablePPO ``predict`` shape)."""
        z = np.where(action_masks, self.logits(obs, prior), -np.inf)
        return int(np.argmax(z)), None


class LearnedBot:
    """A saved policy playing ``game`` (deterministic: its likeliest action): a ``.npz``
    of ``madang train`` (:class:`NumpyPolicy`), else a MaskablePPO model."""

    def __init__(self, game: str, path: str | Path) -> None:
        self.name = f"learned:{path}"
        self.encoding = load_encoding(game)
        self.model: Any
        self.prior: Any = None
        if str(path).endswith(".npz"):
            self.model = NumpyPolicy(path)
            self.model.check_fits(game, self.encoding.obs_size, self.encoding.num_actions)
            if self.model.prior is not None:
                from madang.rl.prior import prior_of

                self.prior = prior_of(game, self.model.prior)
        else:
            from sb3_contrib import MaskablePPO

            self.model = MaskablePPO.load(str(path), device="cpu")

    def act(
        self, view: dict[str, Any], legal: list[Any], rng: random.Random, budget: Budget
    ) -> Any:
        """The model's choice among ``legal`` (action ids, or the game's action objects)."""
        ids = [self.encoding.action_id(str(a)) if not isinstance(a, int) else a for a in legal]
        mask = np.zeros(self.encoding.num_actions, dtype=bool)
        mask[ids] = True
        obs = self.encoding.observe(view)
        if self.prior is not None:
            row = self.prior(view, ids, self.encoding.num_actions)
            action, _ = self.model.predict(obs, action_masks=mask, deterministic=True, prior=row)
        else:
            action, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
        return legal[ids.index(int(action))]


def register_learned(game: str, path: str | Path) -> str:
    """Register the model at ``path`` as the bot ``learned:PATH`` of ``game``; its name."""
    name = f"learned:{path}"
    bot_names(game)  # load the game's own bots first (registering one first would hide them)
    register_bot(game, name, lambda: LearnedBot(game, path))
    return name
