"""PettingZoo AEC environments: one implementation for every game, on two paths.

:class:`FastAECEnv` (``matgo_v0.env()`` / ``raw_env()``, ``mahjong_v0`` likewise) steps
the engine by action id through the game encoding's ``fast()`` adapter and computes an
agent's observation and mask from the engine state when asked: the loop at engine speed.
:class:`MadangAECEnv` plays one game of a registered game's
:class:`~madang.core.game.Session` through move strings only; the game's encoding
(``GameSpec.encoding``) turns moves into fixed action ids and views into observation
tensors. It is the reference (tests play both side by side), the base of
:class:`~madang.rl.single.SingleAgentEnv` (whose bots play through the contract), and
serves a game whose encoding has no ``fast()``. One episode is one Matgo game or one
mahjong hand. Agents are ``player_0`` … (agent ``player_i`` plays seat ``i``).

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
from _random import Random as _CRandom  # random.Random's generator, in C
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from madang.core.errors import InvalidActionError, RulesError
from madang.core.game import Session, pacing
from madang.core.registry import spec
from madang.rl.encoding import Encoding, FastGame, load_encoding

__all__ = ["FastAECEnv", "MadangAECEnv", "env_functions", "seeded", "wrapped"]

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
        # one agent a seat of the rules (고스톱: 3, or 4 with 광팔기), else of the game
        seats = self.spec.seats_under(self.rules)
        self.possible_agents = [f"player_{i}" for i in range(seats)]
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


class FastAECEnv(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """A registered game as a PettingZoo AEC environment at engine speed: the engine
    stepped by action id through the encoding's :meth:`~madang.rl.encoding.Encoding.fast`
    adapter, each observation and mask computed from the engine state when ``observe``
    (or ``last``) asks for it: no move strings, no views.

    The same environment as :class:`MadangAECEnv` (agents, turn order, observations,
    masks, rewards, episodes: the module docstring; a test plays both side by side),
    except the deal: a game is the adapter's ``new(seed)``, its dealer drawn from the
    deal's seed for every game (Matgo's is the contract's ``deal``; mahjong's dealer is
    any seat, not always seat 0).

    ``illegal_reward``: None (``raw_env``) raises :class:`IllegalActionError` on an
    action outside the mask, changing nothing; a number (``env``) ends the game instead,
    that number to the agent and 0 to the others, as PettingZoo's
    ``TerminateIllegalWrapper`` does. An action that is not an id in range raises
    :class:`InvalidActionError` either way (``AssertOutOfBoundsWrapper``), and ``step``
    or ``observe`` before ``reset`` raise ``RuntimeError`` (``OrderEnforcingWrapper``):
    the classic wrappers' checks built in, so that the loop does not pay three wrapper
    layers per call.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "madang_v0",
        "is_parallelizable": False,
    }
    # the attributes in slots rather than the instance's dict, whose look-ups cost about
    # 2,400 instructions a step of the loop (counted by callgrind); PettingZoo's own
    # (none on the hot path) go to the dict
    __slots__ = (
        "_cumulative_rewards", "_current", "_num_actions", "_observe_masked", "_paid",
        "_payments", "_rewarded", "_seat_of", "_seeds", "_step_one", "action_spaces",
        "agent_selection", "agents", "deal_seed", "encoding", "fast", "game",
        "illegal_reward", "infos", "observation_spaces", "possible_agents", "preset",
        "render_mode", "rewards", "rules", "spec", "state", "terminations", "truncations",
    )  # fmt: skip

    def __init__(
        self,
        game: str,
        preset: str | None = None,
        rules: dict[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_reward: float | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.spec = spec(game)
        self.preset = preset or self.spec.presets()[0]
        self.rules = self.spec.rules(self.preset, dict(rules or {}))  # bad options raise
        self.encoding: Encoding = load_encoding(game, self.rules)
        self.fast: FastGame = self.encoding.fast()
        # the adapter's methods bound once (each is called every step)
        self._observe_masked = self.fast.observe_masked
        self._step_one = self.fast.step
        self._current = self.fast.current
        self._payments = self.fast.payments
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        self.metadata = {**FastAECEnv.metadata, "name": f"{game}_v0"}  # type: ignore[misc]
        self.possible_agents = [f"player_{i}" for i in range(self.spec.seats)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        enc = self.encoding
        self._num_actions = enc.num_actions
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
        self._rewarded = False  # whether the last step paid (its rewards to clear)

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episodes

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = seeded(seed)
        self.deal_seed = self._seeds.getrandbits(63)
        self.state = self.fast.new(self.deal_seed)
        self._paid = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._rewarded = self._pay()  # a game may pay at its deal (총통 settled at once)
        self._accumulate_rewards()
        self._select()

    def _select(self) -> None:
        """Select the agent to answer now, or end the episode."""
        seat = self._current(self.state)
        if seat < 0:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[seat]

    def _pay(self) -> bool:
        """Reward the payments made since the last step; whether there were any."""
        pays = self._payments(self.state)
        if len(pays) == self._paid:
            return False
        agents = self.possible_agents
        for frm, to, points, _ in pays[self._paid :]:
            self.rewards[agents[frm]] -= points
            self.rewards[agents[to]] += points
        self._paid = len(pays)
        return True

    def step(self, action: int | None) -> None:
        if self.state is None:
            raise RuntimeError("reset() the environment before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:
            if not isinstance(action, (int, np.integer)) or isinstance(action, bool):
                raise InvalidActionError(f"an action is an int id, not {action!r}")
            action = int(action)
        if not 0 <= action < self._num_actions:
            raise InvalidActionError(f"no action has id {action}")
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # the last step's rewards, cleared
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        st = self.state
        try:
            self._step_one(st, self._seat_of[agent], action)
        except RulesError:
            if self.illegal_reward is None:
                raise
            self._end_illegal(agent)
            return
        # _pay and _select, inlined for the common step: no payment, a seat to answer
        seat = self._current(st)
        if len(self._payments(st)) == self._paid and seat >= 0:
            self.agent_selection = self.possible_agents[seat]
        elif self._pay():
            self._rewarded = True
            self._select()
            self._accumulate_rewards()
        else:
            self._select()

    def _end_illegal(self, agent: str) -> None:
        """End the game after ``agent``'s illegal action (TerminateIllegalWrapper's way)."""
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward or 0.0)
        self._accumulate_rewards()
        self._deads_step_first()

    # ------------------------------------------------------------------ observing

    def legal_ids(self, agent: str) -> list[int]:
        """The action ids ``agent`` may take now (empty if it is not asked)."""
        return np.flatnonzero(self.fast.legal_mask(self.state, self._seat_of[agent])).tolist()

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to act, until the episode ends (PettingZoo's ``agent_iter``, as a
        generator: the loop resumes it instead of calling an iterator's method)."""
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def last(
        self, observe: bool = True
    ) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation (computed now), cumulative reward, ends and
        info: :meth:`AECEnv.last` without the call through :meth:`observe`."""
        st = self.state
        if st is None:
            raise RuntimeError("reset() the environment before last()")
        agent = self.agent_selection
        obs: ObsDict | None = None
        if observe:
            o, mask = self._observe_masked(st, self._seat_of[agent])
            obs = {"observation": o, "action_mask": mask}
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> ObsDict:
        st = self.state
        if st is None:
            raise RuntimeError("reset() the environment before observe()")
        o, mask = self._observe_masked(st, self._seat_of[agent])
        return {"observation": o, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        over = self._current(self.state) < 0
        seat = 0 if over else self._seat_of[self.agent_selection]
        text: str = self.encoding.render(self._view(seat))
        return text

    def _view(self, seat: int) -> dict[str, Any]:
        """``seat``'s view of the game (for rendering only: the hot path builds none)."""
        import importlib

        module = importlib.import_module(f"madang.{self.game}.view")
        v: dict[str, Any] = module.view(self.state, seat)
        return v

    def close(self) -> None:
        pass


def seeded(seed: object) -> Any:
    """``random.Random(seed)``, seeded once: an int seeds random.Random's C generator
    directly, which gives the same numbers (``random.Random(seed)`` seeds it twice, in
    ``__new__`` and again in ``__init__``: about 5,000 instructions a reset, counted by
    callgrind); any other seed goes through ``random.Random``."""
    return _CRandom(seed) if type(seed) is int else random.Random(seed)  # type: ignore[arg-type]


def wrapped(raw: MadangAECEnv) -> Any:
    """``raw`` with the wrappers of PettingZoo's classic games: an illegal move ends the
    game with -1 to its agent, actions out of range raise, the API order is enforced."""
    env: Any = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def env_functions(game: str) -> tuple[Callable[..., FastAECEnv], Callable[..., FastAECEnv]]:
    """The ``raw_env`` and ``env`` of a game's environment module (``matgo_v0`` …), as
    PettingZoo's classic games have them, on the engine's fast path
    (:class:`FastAECEnv`)."""

    def raw_env(
        preset: str | None = None,
        rules: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> FastAECEnv:
        """The environment whose illegal actions raise: ``preset`` names the rules
        preset (the default first), ``rules`` changes some options, ``render_mode`` is
        None or ``"ansi"``."""
        return FastAECEnv(game, preset, rules, render_mode)

    def env(
        preset: str | None = None,
        rules: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> FastAECEnv:
        """The environment with the checks of PettingZoo's classic wrappers built in: an
        illegal action ends the game with -1 to its agent (see ``raw_env``)."""
        return FastAECEnv(game, preset, rules, render_mode, illegal_reward=-1)

    return raw_env, env
