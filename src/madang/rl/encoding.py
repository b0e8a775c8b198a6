"""What the environments need of a game's encoding, and how they find it.

A game's :class:`~madang.core.game.GameSpec` names its encoding class (``encoding``,
``"module:Class"``); the class is built with the game's rules object. The game packages
implement it without importing :mod:`madang.rl` (the engine layer imports no outer layer),
so the shape below is a :class:`~typing.Protocol`.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from madang.core.errors import RuleConfigError
from madang.core.registry import spec

__all__ = ["Encoding", "FastGame", "load_encoding"]

FloatArray = npt.NDArray[np.float32]
Int8Array = npt.NDArray[np.int8]


class FastGame(Protocol):
    """An engine stepped by action id, for the batched environment."""

    def new(self, seed: int) -> Any:
        """A new game (or hand) dealt from ``seed``."""
        ...

    def current(self, state: Any) -> int:
        """The seat to answer now (the first one asked), -1 once over."""
        ...

    def legal_ids(self, state: Any, seat: int) -> list[int]:
        """The action ids legal for ``seat`` now."""
        ...

    def step(self, state: Any, seat: int, action: int) -> None:
        """Apply ``seat``'s action id."""
        ...

    def payments(self, state: Any) -> Sequence[tuple[int, int, int, str]]:
        """The payments made so far ``(from, to, points, reason)``."""
        ...

    # one state, one seat (the AEC and Parallel environments' hot path)

    def observe(self, state: Any, seat: int) -> FloatArray:
        """``seat``'s observation of ``state``: a new array, the numbers of
        :meth:`Encoding.observe` of its view."""
        ...

    def legal_mask(self, state: Any, seat: int) -> Int8Array:
        """A new array, 1 at the action ids legal for ``seat`` now (as
        :meth:`legal_ids`), 0 elsewhere."""
        ...

    def observe_masked(self, state: Any, seat: int) -> tuple[FloatArray, Int8Array]:
        """:meth:`observe` and :meth:`legal_mask` in one call (an adapter may build both
        from one pass over the state)."""
        ...

    # the same for many states at once (the batched environment's hot path)

    def currents(self, states: Sequence[Any]) -> list[int]:
        """:meth:`current` of each state."""
        ...

    def legal_masks(self, states: Sequence[Any], seats: Sequence[int], out: Int8Array) -> None:
        """``out[i]``: 1 at the action ids legal for ``seats[i]`` in ``states[i]`` (as
        :meth:`legal_ids`), 0 elsewhere."""
        ...

    def step_many(
        self, states: Sequence[Any], seats: Sequence[int], actions: Sequence[int]
    ) -> list[int]:
        """:meth:`step` of each state, seat and action; the indices of the states that
        made a payment or ended in that step."""
        ...


class Encoding(Protocol):
    """A game's fixed action ids and observation tensors (one seat's, from its view)."""

    num_actions: int
    obs_size: int
    planes: tuple[str, ...]
    scalars: tuple[str, ...]
    plane_size: int

    def action_id(self, move: str) -> int:
        """The id of a move in the contract's notation."""
        ...

    def move(self, action: int) -> str:
        """The move of an action id."""
        ...

    def observe(self, view: dict[str, Any]) -> FloatArray:
        """The observation (``obs_size`` float32 numbers) of a seat's view."""
        ...

    def observe_states(self, states: Sequence[Any], seats: Sequence[int], out: FloatArray) -> None:
        """The same observations computed from engine states, one row each."""
        ...

    def render(self, view: dict[str, Any]) -> str:
        """A view as plain text."""
        ...

    def fast(self) -> FastGame:
        """The engine adapter of the batched environment."""
        ...


def load_encoding(game: str, rules: Any = None) -> Encoding:
    """The encoding of the registered game ``game`` for ``rules`` (games without one:
    RuleConfigError)."""
    path = spec(game).encoding
    if path is None:
        raise RuleConfigError(f"game {game!r} has no reinforcement-learning encoding")
    module, _, name = path.partition(":")
    cls = getattr(importlib.import_module(module), name)
    enc: Encoding = cls(rules)
    return enc
