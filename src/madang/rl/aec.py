"""PettingZoo AEC environments over the game contract: one class for every game.

:class:`MadangAECEnv` plays one game (one Matgo game, one mahjong hand) of a registered
game's :class:`~madang.core.game.Session` per episode, through move strings only; the
game's encoding (``GameSpec.encoding``) turns moves into fixed action ids and views into
observation tensors. Agents are ``player_0`` … (agent ``player_i`` plays seat ``i``).

* **Turn order.** The agent selected is the first seat of ``session.pending()``. Where
  several seats are asked at once (a mahjong claim window on a discard or a 가깡), they
  answer one after another in turn order after the seat that offered the tile (the
  engine's own order, the order of its records). An answer is private until the window
  resolves: a later seat's observation does not show an earlier seat's answer, since
  it is built from its own view.
* **Observations.** ``{"observation": float32[obs_size], "action_mask": int8[num_actions]}``
  from the seat's view only (the mask is all zero for a seat not asked now).
* **Rewards.** Points: every payment ``(from, to, points)`` the game makes is
  ``-points`` to the payer and ``+points`` to the payee at the step where it is made
  (Matgo's instant 뻑 / 총통 payments during the game, the settlement at its end;
  mahjong pays at the end of the hand). An episode's return is the seat's net payment.
* **Episodes.** One game: the contract's ``deal(rules, seed)`` where the game has it
  (the arena's duplicate deals), else a session's first game. ``reset(seed=s)`` deals
  from ``s``; later ``reset()`` calls deal the following games of the same seeded
  sequence. Rules: ``preset`` and ``rules``
  (option overrides, as the server's rooms take them).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from madang.core.game import Session, pacing
from madang.core.registry import spec
from madang.rl.encoding import Encoding, load_encoding

__all__ = ["MadangAECEnv", "env_functions", "wrapped"]

ObsDict = dict[str, npt.NDArray[Any]]


class MadangAECEnv(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """A registered game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "madang_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        preset: str | None = None,
        rules: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.spec = spec(game)
        self.preset = preset or self.spec.presets()[0]
        self.rules_overrides = dict(rules or {})
        self.rules = self.spec.rules(self.preset, self.rules_overrides)  # bad options raise
        self.encoding: Encoding = load_encoding(game, self.rules)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.metadata = {**MadangAECEnv.metadata, "name": f"{game}_v0"}  # type: ignore[misc]
        self.possible_agents = [f"player_{i}" for i in range(self.spec.seats)]
        self.agents = self.possible_agents[:]
        enc = self.encoding
        obs = spaces.Box(low=-np.inf, high=np.inf, shape=(enc.obs_size,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(enc.num_actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs, "action_mask": mask}) for a in self.agents
        }
        self.action_spaces = {a: spaces.Discrete(enc.num_actions) for a in self.agents}
        self._seeds = random.Random()
        self.session: Session | None = None
        self._paid = 0

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episodes

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        seed = self._seeds.getrandbits(63)
        if self.spec.deal is not None:  # the game of one deal, with no offers
            self.session = self.spec.deal(self.rules, seed)
        else:
            self.session = self.spec.session(self.preset, seed, self.rules_overrides or None)
        self._paid = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._pay()  # a game may pay at its deal (총통 settled at once)
        self._accumulate_rewards()
        self._select()

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _select(self) -> None:
        """Select the agent to answer now, or end the episode."""
        s = self.session
        assert s is not None
        if s.over:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[s.pending()[0]]

    def _pay(self) -> None:
        """Reward the payments made since the last step."""
        s = self.session
        assert s is not None
        pays = s.payments()
        for frm, to, points, _ in pays[self._paid :]:
            self.rewards[self.possible_agents[frm]] -= points
            self.rewards[self.possible_agents[to]] += points
        self._paid = len(pays)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.session
        assert s is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        s.step(self._seat(agent), int(action))
        pace = pacing(s)  # a table's pause for the others to see the discard
        if pace is not None and pace.offering:
            pace.end_offer()
        self._pay()
        self._select()
        self._accumulate_rewards()

    # ------------------------------------------------------------------ observing

    def legal_ids(self, agent: str) -> list[int]:
        """The action ids ``agent`` may take now (empty if it is not asked)."""
        s = self.session
        assert s is not None
        return s.legal(self._seat(agent))

    def observe(self, agent: str) -> ObsDict:
        s = self.session
        assert s is not None
        seat = self._seat(agent)
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        mask[self.legal_ids(agent)] = 1
        return {"observation": self.encoding.observe(s.view(seat)), "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        s = self.session
        assert s is not None
        seat = 0 if s.over else self._seat(self.agent_selection)
        text: str = self.encoding.render(s.view(seat))
        return text

    def close(self) -> None:
        pass


def wrapped(raw: MadangAECEnv) -> Any:
    """``raw`` with the wrappers of PettingZoo's classic games: an illegal move ends the
    game with -1 to its agent, actions out of range raise, the API order is enforced."""
    env: Any = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def env_functions(game: str) -> tuple[Callable[..., MadangAECEnv], Callable[..., Any]]:
    """The ``raw_env`` and ``env`` of a game's environment module (``matgo_v0`` …), as
    PettingZoo's classic games have them."""

    def raw_env(
        preset: str | None = None,
        rules: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> MadangAECEnv:
        """The environment without wrappers: ``preset`` names the rules preset (the
        default first), ``rules`` changes some options, ``render_mode`` is None or
        ``"ansi"``."""
        return MadangAECEnv(game, preset, rules, render_mode)

    def env(
        preset: str | None = None,
        rules: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> Any:
        """The environment with PettingZoo's classic wrappers (see ``raw_env``)."""
        return wrapped(raw_env(preset, rules, render_mode))

    return raw_env, env
