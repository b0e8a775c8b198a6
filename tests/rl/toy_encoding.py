"""An encoding of the contract tests' toy game (pairs), registered by the RL tests only."""

from __future__ import annotations

from typing import Any

import numpy as np


class PairsEncoding:
    """The toy game of the contract tests, in tensors: a game that is one package and
    one registration gets the environments with no code in :mod:`madang.rl`."""

    num_actions = 6
    obs_size = 6 * 2 + 2
    planes = ("hand", "floor")
    scalars = ("points_mine", "points_theirs")
    plane_size = 6

    def __init__(self, rules: Any = None) -> None:
        from tests.contract.toy import CARDS

        self.cards = CARDS

    def action_id(self, move: str) -> int:
        return self.cards.index(move.split()[1])

    def move(self, action: int) -> str:
        return f"play {self.cards[action]}"

    def observe(self, view: dict[str, Any]) -> Any:
        me = view["seat"]
        out = np.zeros(self.obs_size, dtype=np.float32)
        for c in view["hands"][me]:
            out[self.cards.index(c)] = 1
        for c in view["floor"]:
            out[6 + self.cards.index(c)] = 1
        out[12:] = view["points"][me], view["points"][1 - me]
        return out

    def render(self, view: dict[str, Any]) -> str:
        return f"floor {' '.join(view['floor'])}"
