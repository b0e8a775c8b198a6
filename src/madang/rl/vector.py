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
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from madang.core.errors import IllegalActionError, InvalidActionError
from madang.core.registry import spec
from madang.rl.encoding import load_encoding

__all__ = ["MadangVectorEnv", "VectorGames"]


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


class MadangVectorEnv(VectorEnv):
    """A Gymnasium vector environment with action masks: ``num_envs`` games on the
    batched path, one learning seat in each, the other seats playing random legal
    actions (batched too): the vectorised :class:`~madang.rl.single.SingleAgentEnv`
    with its default ``random`` opponents (``gymnasium.make_vec("madang/Matgo-v0",
    num_envs=N)``).

    * **Observations**: a ``Dict`` of ``observation`` (``float32 (num_envs, obs_size)``)
      and ``action_mask`` (``int8 (num_envs, num_actions)``), the learner's; the mask is
      also ``infos["action_mask"]`` (as bools). TorchRL's ``ActionMask`` transform and
      sample-factory read the mask from the observation dict, AgileRL from the info.
    * **Rewards**: the learner's points from its action until it is asked again (the
      opponents' moves in between included), so an episode's return is its net payment.
    * **Episodes**: one game each. ``seat`` is the learner's seat (``None``: drawn at
      every deal). A game over before the learner's first decision is not an episode:
      the next deal is played. Autoreset is ``SAME_STEP``: a row that ends returns the
      first observation of its next game, with ``infos["final_obs"]`` (and
      ``"_final_obs"``, ``"final_info"``, ``"_final_info"``) as Gymnasium's same-step
      mode has them. No game is truncated.
    * An action outside the mask raises :class:`IllegalActionError` and changes nothing.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's shape)

    def __init__(
        self,
        game: str,
        num_envs: int = 8,
        seat: int | None = 0,
        preset: str | None = None,
        rules: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None:
            raise ValueError("the vector environment has no render mode")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        gs = spec(game)
        if seat is not None and not 0 <= seat < gs.seats:
            raise ValueError(f"seat must be one of 0-{gs.seats - 1} or None, not {seat!r}")
        self.game = game
        self.num_envs = num_envs
        self.num_seats = gs.seats
        self.fixed_seat = seat
        self.encoding = load_encoding(game, gs.rules(preset or gs.presets()[0], rules))
        self.fast = self.encoding.fast()
        enc = self.encoding
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (enc.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (enc.num_actions,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(enc.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rng = random.Random()
        self._np_rng = np.random.default_rng()
        self.states: list[Any] = []
        self.seats = np.zeros(num_envs, dtype=np.int64)  # the learner's seat per game
        self._paid = [0] * num_envs
        self._started = [False] * num_envs  # whether the learner has acted in the game
        self._obs = np.zeros((num_envs, enc.obs_size), dtype=np.float32)
        self._mask = np.zeros((num_envs, enc.num_actions), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._ended: dict[int, npt.NDArray[np.float32]] = {}  # final observations

    def _deal(self, i: int) -> None:
        """Deal game ``i`` anew (its learner's seat drawn too, unless fixed)."""
        st = self.fast.new(self._rng.getrandbits(63))
        self.seats[i] = (
            self._rng.randrange(self.num_seats) if self.fixed_seat is None else (self.fixed_seat)
        )
        if len(self.states) <= i:
            self.states.append(st)
        else:
            self.states[i] = st
        self._paid[i] = len(self.fast.payments(st))
        self._started[i] = False

    def _pay(self, i: int) -> None:
        """The learner's points from game ``i``'s payments since the last call."""
        pays = self.fast.payments(self.states[i])
        me = int(self.seats[i])
        for frm, to, points, _ in pays[self._paid[i] :]:
            self._rewards[i] += points if to == me else -points if frm == me else 0
        self._paid[i] = len(pays)

    def _advance(self) -> None:
        """Play the opponents' turns until every game asks its learner; end (and deal
        anew) the games that finish on the way."""
        fast = self.fast
        mask = self._mask
        while True:
            currents = fast.currents(self.states)
            rows, seats = [], []
            for i, cur in enumerate(currents):
                if cur < 0:  # over: an episode ends, or a deal that was no episode
                    if self._started[i]:
                        self._pay(i)
                        self._ended[i] = fast.observe(self.states[i], int(self.seats[i]))
                    self._deal(i)
                    rows.append(i)  # (look at it again: its first question)
                    seats.append(-1)
                elif cur != self.seats[i]:
                    rows.append(i)
                    seats.append(cur)
            asked = [(i, s) for i, s in zip(rows, seats, strict=True) if s >= 0]
            if not rows:
                return
            if not asked:
                continue
            states = [self.states[i] for i, _ in asked]
            who = [s for _, s in asked]
            fast.legal_masks(states, who, mask)
            picks = np.argmax(mask[: len(asked)] * self._np_rng.random(mask[: len(asked)].shape), 1)
            for k in fast.step_many(states, who, picks.tolist()):
                if self._started[asked[k][0]]:
                    self._pay(asked[k][0])
                else:  # before the learner's first decision: not its episode yet
                    self._paid[asked[k][0]] = len(fast.payments(states[k]))

    def _observe(self) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        enc = self.encoding
        seats = self.seats.tolist()
        if getattr(enc, "observes_legal", False):
            enc.observe_states(self.states, seats, self._obs, legal=self._mask)  # type: ignore[call-arg]
        else:
            self.fast.legal_masks(self.states, seats, self._mask)
            enc.observe_states(self.states, seats, self._obs)
        mask = self._mask.copy()
        obs: dict[str, npt.NDArray[Any]] = {"observation": self._obs.copy(), "action_mask": mask}
        infos: dict[str, Any] = {
            "action_mask": mask.astype(bool),
            "seat": self.seats.copy(),
        }
        return obs, infos

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        if seed is not None:
            self._rng = random.Random(seed)
            self._np_rng = np.random.default_rng(seed)
        self.states = []
        for i in range(self.num_envs):
            self._deal(i)
        self._rewards[:] = 0
        self._advance()
        self._ended.clear()
        return self._observe()

    def step(
        self, actions: npt.NDArray[Any]
    ) -> tuple[
        dict[str, npt.NDArray[Any]],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        if not self.states:
            raise RuntimeError("reset() the environment before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise InvalidActionError(
                f"one int action id per game ({self.num_envs}), not {actions!r}"
            )
        if ((acts < 0) | (acts >= self.encoding.num_actions)).any():
            raise InvalidActionError("an action id is out of range")
        bad = np.flatnonzero(self._mask[np.arange(self.num_envs), acts] == 0)
        if len(bad):
            raise IllegalActionError(
                f"actions {acts[bad].tolist()} of games {bad.tolist()} are not legal"
            )
        self._rewards[:] = 0
        self._ended.clear()
        fast = self.fast
        for i in fast.step_many(self.states, self.seats.tolist(), acts.tolist()):
            self._pay(i)
        self._started = [True] * self.num_envs
        self._advance()
        obs, infos = self._observe()
        terminated = np.zeros(self.num_envs, dtype=bool)
        if self._ended:
            done = sorted(self._ended)
            terminated[done] = True
            final = np.zeros_like(self._obs)
            final_mask = np.zeros_like(self._mask)
            for i in done:
                final[i] = self._ended[i]
            infos["final_obs"] = {"observation": final, "action_mask": final_mask}
            infos["_final_obs"] = terminated.copy()
            infos["final_info"] = {}
            infos["_final_info"] = terminated.copy()
        return obs, self._rewards.copy(), terminated, np.zeros(self.num_envs, dtype=bool), infos
