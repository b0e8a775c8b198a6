"""Many games stepped at once by action id, the observations of all encoded together.

The fast path for throughput (``benchmarks/rl_throughput.py``): no move strings and no
views. Each game's engine is stepped through its encoding's :meth:`fast` adapter and the
observations of all games are computed together from the engine states
(``observe_states``), the same numbers as the view-based encoding (tested).

>>> import numpy as np
>>> vg = VectorGames("matgo", 4, seed=0)
>>> obs, mask = vg.reset()
>>> obs.shape, mask.shape, vg.seats.tolist() == [vg.fast.current(s) for s in vg.states]
((4, 547), (4, 175), True)
>>> actions = np.array([np.flatnonzero(m)[0] for m in mask])
>>> obs, mask, rewards, done = vg.step(actions)
>>> rewards.shape, done.dtype.name
((4, 2), 'bool')

Every row is the game's seat to act (``seats``); a game that ends is dealt again at
once (its ``done`` is True and its ``rewards`` row carries the final payments), so all
rows always have a question to answer (a deal that ends the game at once, an instant
총통, is not played: the next one is dealt). Rewards are points, as in the AEC environment:
each payment is ``-points`` to its payer and ``+points`` to its payee when it is made.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from madang.core.registry import spec
from madang.rl.encoding import load_encoding

__all__ = ["VectorGames"]


class VectorGames:
    """``n`` games of a registered game (with an encoding), stepped together."""

    def __init__(
        self,
        game: str,
        n: int,
        seed: int | None = None,
        preset: str | None = None,
        rules: dict[str, Any] | None = None,
    ) -> None:
        gs = spec(game)
        self.game = game
        self.n = n
        self.num_seats = gs.seats
        self.encoding = load_encoding(game, gs.rules(preset or gs.presets()[0], rules))
        self.fast = self.encoding.fast()
        self._rng = random.Random(seed)
        enc = self.encoding
        self.obs = np.zeros((n, enc.obs_size), dtype=np.float32)
        self.mask = np.zeros((n, enc.num_actions), dtype=np.int8)
        self.rewards = np.zeros((n, gs.seats), dtype=np.float32)
        self.done = np.zeros(n, dtype=bool)
        self.seats = np.zeros(n, dtype=np.int64)
        self.states: list[Any] = []
        self._paid = [0] * n
        # an encoding whose observe_states also writes the legal masks (``legal=``)
        self._observe_legal: Callable[..., None] | None = (
            enc.observe_states if getattr(enc, "observes_legal", False) else None
        )

    def _deal(self) -> Any:
        return self.fast.new(self._rng.getrandbits(63))

    def reset(
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """Deal every game; the observations and masks of the seats to act."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.states = []
        for i in range(self.n):
            st = self._deal()
            while self.fast.current(st) < 0:  # a game over at its deal: deal again
                st = self._deal()
            self.states.append(st)
            self._paid[i] = len(self.fast.payments(st))
        self._observe()
        return self.obs, self.mask

    def _observe(self) -> None:
        fast = self.fast
        states = self.states
        seats = fast.currents(states)
        self.seats[:] = seats
        if self._observe_legal is not None:  # one pass over the states for both
            self._observe_legal(states, seats, self.obs, legal=self.mask)
        else:
            fast.legal_masks(states, seats, self.mask)
            self.encoding.observe_states(states, seats, self.obs)

    def step(
        self, actions: npt.NDArray[np.integer[Any]] | list[int]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
    ]:
        """Apply one action id per game (for its seat to act); the new observations and
        masks, each game's rewards per seat, and which games ended (and were dealt anew)."""
        fast = self.fast
        rewards = self.rewards
        rewards[:] = 0
        done = self.done
        done[:] = False
        acts = actions.tolist() if isinstance(actions, np.ndarray) else list(actions)
        for i in fast.step_many(self.states, self.seats.tolist(), acts):
            st = self.states[i]
            pays = fast.payments(st)
            for frm, to, points, _ in pays[self._paid[i] :]:
                rewards[i, frm] -= points
                rewards[i, to] += points
            self._paid[i] = len(pays)
            if fast.current(st) < 0:
                done[i] = True
                st = self._deal()
                while fast.current(st) < 0:
                    st = self._deal()
                self.states[i] = st
                self._paid[i] = len(fast.payments(st))
        self._observe()
        return self.obs, self.mask, rewards, done
