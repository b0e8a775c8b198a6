"""PettingZoo Parallel API environments on the engine's fast path: one class for every
game whose encoding has a :meth:`~madang.rl.encoding.Encoding.fast` adapter.

>>> from madang.rl import matgo_v0
>>> env = matgo_v0.parallel_env()
>>> obs, infos = env.reset(seed=1)
>>> acting = [a for a in env.agents if obs[a]["action_mask"].any()]
>>> len(acting)
1
>>> actions = {a: int(obs[a]["action_mask"].argmax()) for a in acting}
>>> obs, rewards, terminations, truncations, infos = env.step(actions)
>>> sorted(rewards) == env.possible_agents
True

Matgo and mahjong are turn-based. Here every ``step`` takes one action from each
**acting agent**: an agent whose ``action_mask`` is not all zero in the observations of
the last ``reset`` or ``step`` (one agent in Matgo; in a mahjong claim window every seat
asked about the discard answers in the same step, applied in the engine's order, turn
order after the discarder, as the AEC environment asks them one by one). Actions of the
other agents are ignored (their masks are all zero; PettingZoo's own tools send an
action for every live agent); a missing or illegal action of an acting agent raises
and changes nothing. Every live agent gets its observation, reward and info at every
step. Observations, rewards (points: each payment is ``-points`` to the payer and
``+points`` to the payee in the step where it is made) and episodes are those of the AEC
environment (:class:`~madang.rl.aec.FastAECEnv`); when the game ends every agent is
terminated at once and ``agents`` is empty.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import ParallelEnv

from madang.core.errors import IllegalActionError, InvalidActionError
from madang.core.registry import spec
from madang.rl.aec import seeded
from madang.rl.encoding import Encoding, FastGame, load_encoding

__all__ = ["MadangParallelEnv"]

ObsDict = dict[str, npt.NDArray[Any]]


class MadangParallelEnv(ParallelEnv[str, ObsDict, int]):  # type: ignore[misc]
    """A registered game as a PettingZoo Parallel environment (the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "madang_v0"}

    def __init__(
        self,
        game: str,
        preset: str | None = None,
        rules: dict[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_reward: float | None = None,
    ) -> None:
        self.game = game
        self.illegal_reward = illegal_reward
        self.spec = spec(game)
        self.preset = preset or self.spec.presets()[0]
        self.rules = self.spec.rules(self.preset, dict(rules or {}))  # bad options raise
        self.encoding: Encoding = load_encoding(game, self.rules)
        self.fast: FastGame = self.encoding.fast()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.metadata = {**MadangParallelEnv.metadata, "name": f"{game}_v0"}  # type: ignore[misc]
        self.possible_agents = [f"player_{i}" for i in range(self.spec.seats)]
        self.agents: list[str] = []
        enc = self.encoding
        obs = spaces.Box(low=-np.inf, high=np.inf, shape=(enc.obs_size,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(enc.num_actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(enc.num_actions) for a in self.possible_agents}
        self._seeds = random.Random()
        self.state: Any = None
        self.deal_seed = -1
        """The seed of the game being played (``fast.new(deal_seed)``)."""
        self._paid = 0
        self._masks: list[npt.NDArray[np.int8]] = []  # each seat's, as last observed

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _observe(self) -> dict[str, ObsDict]:
        st, observe = self.state, self.fast.observe_masked
        both = [observe(st, seat) for seat in range(len(self.possible_agents))]
        self._masks = [mask for _, mask in both]
        return {
            a: {"observation": both[seat][0], "action_mask": both[seat][1]}
            for seat, a in enumerate(self.agents)
        }

    def _rewards(self) -> dict[str, float]:
        """Each agent's points from the payments made since the last call."""
        rewards = dict.fromkeys(self.possible_agents, 0.0)
        pays = self.fast.payments(self.state)
        for frm, to, points, _ in pays[self._paid :]:
            rewards[self.possible_agents[frm]] -= points
            rewards[self.possible_agents[to]] += points
        self._paid = len(pays)
        return rewards

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, ObsDict], dict[str, dict[str, Any]]]:
        """Deal a game (from ``seed``: later resets deal the following games of the same
        seeded sequence). A game over at its deal (an instant 총통) is not played: its
        payments are dropped and the next deal is played (the Parallel API has no reward
        at reset)."""
        if seed is not None:
            self._seeds = seeded(seed)
        while True:
            self.deal_seed = self._seeds.getrandbits(63)
            self.state = self.fast.new(self.deal_seed)
            if self.fast.current(self.state) >= 0:
                break
        self._paid = len(self.fast.payments(self.state))
        self.agents = self.possible_agents[:]
        return self._observe(), {a: {} for a in self.agents}

    def acting(self) -> list[str]:
        """The agents whose actions the next ``step`` takes, in the order applied."""
        return [self.possible_agents[s] for s in self._order()]

    def _order(self) -> list[int]:
        asked = [s for s, m in enumerate(self._masks) if m.any()]
        first = self.fast.current(self.state)
        if first < 0:
            return []
        n = len(self.possible_agents)
        return sorted(asked, key=lambda s: (s - first) % n)

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, ObsDict],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        if self.state is None or not self.agents:
            raise RuntimeError("reset() the environment: no game is in play")
        order = self._order()
        chosen: list[tuple[int, int]] = []
        for seat in order:  # check every action before applying any
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise InvalidActionError(f"{agent} must act now: its action is missing")
            action = actions[agent]
            if not isinstance(action, (int, np.integer)) or isinstance(action, bool):
                raise InvalidActionError(f"an action is an int id, not {action!r}")
            action = int(action)
            if not 0 <= action < self.encoding.num_actions:
                raise InvalidActionError(f"no action has id {action}")
            if not self._masks[seat][action]:
                if self.illegal_reward is None:
                    raise IllegalActionError(f"action {action} is not legal for {agent} now")
                return self._end_illegal(agent)
            chosen.append((seat, action))
        fast, st = self.fast, self.state
        for seat, action in chosen:  # in the engine's order (the first asked first)
            if fast.current(st) != seat:
                raise AssertionError(f"the engine asks seat {fast.current(st)}, not {seat}")
            fast.step(st, seat, action)
        agents = self.agents
        rewards = self._rewards()
        over = fast.current(st) < 0
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, False)
        observations = self._observe()
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _end_illegal(
        self, agent: str
    ) -> tuple[
        dict[str, ObsDict],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """End the game after ``agent``'s illegal action: ``illegal_reward`` to it, 0 to
        the others (as the AEC ``env()`` and PettingZoo's TerminateIllegalWrapper)."""
        agents = self.agents
        rewards = dict.fromkeys(agents, 0.0)
        rewards[agent] = float(self.illegal_reward or 0.0)
        observations = self._observe()
        self.agents = []
        done = dict.fromkeys(agents, True)
        return observations, rewards, done, dict(done), {a: {} for a in agents}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        import importlib

        seat = max(self.fast.current(self.state), 0)
        view = importlib.import_module(f"madang.{self.game}.view").view(self.state, seat)
        text: str = self.encoding.render(view)
        return text

    def close(self) -> None:
        pass
