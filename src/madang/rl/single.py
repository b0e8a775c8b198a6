"""A Gymnasium single-agent environment: one seat learns, registered bots play the rest.

>>> env = SingleAgentEnv("matgo", opponents=["greedy"])
>>> obs, info = env.reset(seed=3)
>>> obs.shape, env.action_masks().dtype.name, sorted(info)
((547,), 'bool', ['action_mask', 'seat'])

It wraps the PettingZoo environment (:class:`~madang.rl.aec.MadangAECEnv`), so it serves
every registered game with an encoding. The other seats are bots by name or level
(:func:`madang.bots.make_bot`) answering through the game contract, which shows them only
their own views. The learner's reward for a step is the sum of its point rewards from
its action until it is asked again (the bots' moves in between included), so an
episode's return is its net payment. ``action_masks()`` gives the legal actions, for
MaskablePPO-style algorithms (also ``info["action_mask"]``). An action outside the mask
plays the seat's default answer instead (the one taken when a player's time runs out)
and sets ``info["illegal_action"]``. A game that ends before the learner's first
decision (a bot's 총통 at the deal) is not an episode: the next deal is played instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from madang.bots import Budget, make_bot
from madang.rl.aec import MadangAECEnv

__all__ = ["SingleAgentEnv"]


class _Seat:
    """A bot at a seat, as the contract's ``bot_move`` takes it."""

    def __init__(self, bot: Any, budget: Budget) -> None:
        self.bot = bot
        self.budget = budget


class SingleAgentEnv(gym.Env[npt.NDArray[np.float32], np.int64]):
    """One learning seat of a registered game against bots.

    ``opponents`` names a bot (or level) per other seat, in seat order after the
    learner; one name serves them all. ``seat`` is the learner's seat (``None``: drawn
    at each reset). ``budget`` is each bot's thinking budget per decision (the default,
    a count of iterations and no clock, keeps episodes reproducible from a seed).
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's own shape)

    def __init__(
        self,
        game: str,
        opponents: Sequence[str] = ("random",),
        seat: int | None = 0,
        preset: str | None = None,
        rules: dict[str, Any] | None = None,
        budget: Budget | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.aec = MadangAECEnv(game, preset, rules, render_mode)
        self.render_mode = render_mode
        seats = len(self.aec.possible_agents)
        names = list(opponents)
        if len(names) == 1:
            names = names * (seats - 1)
        if len(names) != seats - 1:
            raise ValueError(f"{game} needs {seats - 1} opponents, not {len(names)}")
        self.opponent_names = names
        self.bots = [make_bot(game, n) for n in names]  # unknown names raise here
        self.budget = budget or Budget(time_s=None, iterations=32)
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        enc = self.aec.encoding
        self.observation_space = spaces.Box(
            low=-np.inf, high=np.inf, shape=(enc.obs_size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(enc.num_actions)
        self._bot_rng = random.Random()
        self._seats: dict[int, _Seat] = {}
        self._mask = np.zeros(self.aec.encoding.num_actions, dtype=bool)  # the learner's now

    @property
    def agent(self) -> str:
        return self.aec.possible_agents[self.seat]

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now (all False once the game is over)."""
        mask = np.zeros(self.aec.encoding.num_actions, dtype=bool)
        if not self.aec.terminations.get(self.agent, True):
            mask[self.aec.legal_ids(self.agent)] = True
        return mask

    def _observation(self) -> npt.NDArray[np.float32]:
        s = self.aec.session
        assert s is not None
        obs: npt.NDArray[np.float32] = self.aec.encoding.observe(s.view(self.seat))
        return obs

    def _info(self) -> dict[str, Any]:
        self._mask = self.action_masks()
        return {"action_mask": self._mask, "seat": self.seat}

    def _advance(self) -> float:
        """Let the bots play until the learner is asked or the game ends; the learner's
        rewards meanwhile."""
        aec = self.aec
        s = aec.session
        assert s is not None
        total = 0.0
        while not all(aec.terminations.values()) and aec.agent_selection != self.agent:
            seat = aec.possible_agents.index(aec.agent_selection)
            move = s.bot_move(seat, self._seats[seat], self._bot_rng)
            aec.step(move)
            total += aec.rewards[self.agent]
        return total

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._bot_rng = random.Random(seed)
        self.seat = (
            self.fixed_seat
            if self.fixed_seat is not None
            else int(self.np_random.integers(len(self.aec.possible_agents)))
        )
        n = len(self.aec.possible_agents)
        self._seats = {
            (self.seat + k) % n: _Seat(bot, self.budget) for k, bot in enumerate(self.bots, 1)
        }
        self.aec.reset(seed=int(self.np_random.integers(2**62)))
        self._advance()
        while all(self.aec.terminations.values()):  # over before the learner's first move
            self.aec.reset()  # (a bot's 총통): the next deal of the same seeded sequence
            self._advance()
        return self._observation(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if all(aec.terminations.values()):
            raise RuntimeError("the episode is over: call reset()")
        s = aec.session
        assert s is not None
        illegal = not 0 <= int(action) < aec.encoding.num_actions or not self._mask[action]
        if illegal:  # the seat's default answer, as when its time runs out
            action = s.default_move(self.seat)
        aec.step(int(action))
        reward = aec.rewards[self.agent] + self._advance()
        info = self._info()
        info["illegal_action"] = illegal
        return self._observation(), float(reward), all(aec.terminations.values()), False, info

    def render(self) -> str | None:
        return self.aec.render()
