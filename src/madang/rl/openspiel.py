"""The registered games as OpenSpiel Python games (the ``open-spiel`` wheel).

>>> import pyspiel
>>> import madang.rl.openspiel  # registers the games, as OpenSpiel's own Python games
>>> game = pyspiel.load_game("python_madang_matgo")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 1000)
>>> state.apply_action(7)
>>> state.current_player() in (0, 1), len(state.observation_tensor(0))
(True, 547)

One implementation over the game contract (a :class:`~madang.core.game.Session` and the
game's encoding), registered for every game that has an encoding as
``python_madang_GAME`` when this module is imported (``pyspiel.register_game``, as
``open_spiel/python/games/kuhn_poker.py`` does; :func:`register` again after
registering a game later). Specifications:

* **Chance** is one explicit move at the start: the deal, one of ``num_deals`` seeded
  deals (a game parameter, 1000 by default), uniformly. Everything random in a game of
  Madang follows from its deal (the deck order, the mahjong wall), so this is the only
  chance node.
* **Actions** are the encoding's ids (``docs/rl/``); several seats asked at once (a
  mahjong claim window) answer one after another in turn order after the discarder, as
  in the PettingZoo environments.
* **Returns** are net payments in points so far (instant payments included: Matgo's and
  고스톱's 뻑 and 따닥 money, 고스톱's 광값), zero-sum; **rewards** (the ``REWARDS``
  model) are what the last move paid, so they add up to the returns at every state.
  **Observations** are the encoding's tensors of the player's view; the observation
  string lists the tensor's non-zero entries (``index:value``). No
  perfect-recall information state is provided (a view does not list the whole
  history), so OpenSpiel's ISMCTS runs with ``use_observation_string=True``.
* **Resampling** (``resample_from_infostate``, for ISMCTS): the contract's
  ``Session.resampled``, what the player cannot see dealt again at random.
* Rules: the game parameters ``preset`` (a preset name, the default first) and ``rules``
  (option overrides as a JSON object string). The players are the rules' seats: 고스톱
  (``python_madang_gostop``) has three, or four with ``{"preset": "gwangpalgi"}`` (the
  seat that sits out a game answers at most its 참가/죽기 and is paid only its 광값).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any, ClassVar

import numpy as np
import pyspiel

from madang.core.errors import RecordError
from madang.core.game import pacing
from madang.core.registry import games, spec
from madang.rl.encoding import Encoding, load_encoding

__all__ = ["MadangGame", "MadangState", "register"]

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_DEFAULT_DEALS = 1000
_MAX_UTILITY = 100_000.0
_MAX_LENGTH = {"matgo": 300, "mahjong": 1000}


def _game_type(game: str) -> Any:
    gs = spec(game)
    seats = [gs.seats_under(gs.rules(p)) for p in gs.presets()]
    return pyspiel.GameType(
        short_name=f"python_madang_{game}",
        long_name=f"Madang {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=max(seats),
        min_num_players=min(seats),
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"num_deals": _DEFAULT_DEALS, "preset": "", "rules": "{}"},
    )


class MadangGame(pyspiel.Game):  # type: ignore[misc]
    """A registered game as an OpenSpiel game."""

    def __init__(self, game: str, params: dict[str, Any] | None = None) -> None:
        setup = _Setup(game, dict(params or {}))
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.encoding.num_actions,
            max_chance_outcomes=setup.num_deals,
            num_players=setup.seats,
            min_utility=-_MAX_UTILITY,
            max_utility=_MAX_UTILITY,
            utility_sum=0.0,
            max_game_length=_MAX_LENGTH.get(game, 1000),
        )
        super().__init__(_game_type(game), info, params or {})

    def new_initial_state(self) -> MadangState:
        return MadangState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MadangObserver:
        return MadangObserver(_Setup.of(self).encoding)


def _new_session(game: str, preset: str, overrides: dict[str, Any], seed: int) -> Any:
    """The game of the deal ``seed`` (the contract's ``deal``, else a session's first)."""
    gs = spec(game)
    if gs.deal is not None:
        return gs.deal(gs.rules(preset, overrides or None), seed)
    return gs.session(preset, seed, overrides or None)


class _Setup:
    """What a state needs of its game, from the game's type and parameters (OpenSpiel
    may hand a state a copy of the game object without its Python attributes)."""

    _cache: ClassVar[dict[tuple[str, str], _Setup]] = {}

    def __init__(self, game: str, params: dict[str, Any]) -> None:
        gs = spec(game)
        self.madang_game = game
        self.num_deals = int(params.get("num_deals", _DEFAULT_DEALS))
        self.preset = str(params.get("preset") or gs.presets()[0])
        self.overrides = json.loads(str(params.get("rules") or "{}"))
        rules = gs.rules(self.preset, self.overrides)
        self.seats = gs.seats_under(rules)
        self.encoding: Encoding = load_encoding(game, rules)

    @classmethod
    def of(cls, game: Any) -> _Setup:
        name = game.get_type().short_name.removeprefix("python_madang_")
        params = dict(game.get_parameters())
        key = (name, json.dumps(params, sort_keys=True, default=str))
        got = cls._cache.get(key)
        if got is None:
            got = cls._cache[key] = cls(name, params)
        return got


class MadangState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the deal (chance), then the session's decisions."""

    def __init__(self, game: MadangGame) -> None:
        super().__init__(game)
        self.madang = _Setup.of(game)
        self.session: Any = None
        self.deal = -1
        self.paid = 0  # payments made before the last action: rewards() is what it paid

    def current_player(self) -> int:
        if self.session is None:
            return _CHANCE
        if self.session.over:
            return _TERMINAL
        return int(self.session.pending()[0])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self.madang.num_deals
        return [(i, 1.0 / n) for i in range(n)]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.session.legal(player))

    def _apply_action(self, action: int) -> None:
        g = self.madang
        if self.session is None:
            self.deal = int(action)
            self.session = _new_session(g.madang_game, g.preset, g.overrides, self.deal)
            return
        s = self.session
        self.paid = len(s.payments())
        s.step(s.pending()[0], int(action))
        pace = pacing(s)
        if pace is not None and pace.offering:
            pace.end_offer()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"deal {action}"
        return f"{player} {self.madang.encoding.move(int(action))}"

    def is_terminal(self) -> bool:
        return self.session is not None and bool(self.session.over)

    def returns(self) -> list[float]:
        return self._net(0)

    def rewards(self) -> list[float]:
        """What the last action paid each player (the deal's own payments after the
        chance move): the returns' steps, so that they add up to them."""
        return self._net(self.paid)

    def _net(self, start: int) -> list[float]:
        out = [0.0] * self.madang.seats
        if self.session is not None:
            for frm, to, points, _ in self.session.payments()[start:]:
                out[frm] -= points
                out[to] += points
        return out

    def resample_from_infostate(self, player: int, sampler: Any) -> MadangState:
        """A state the player cannot tell from this one: what it cannot see dealt again
        at random (the contract's ``Session.resampled``)."""
        draw = sampler() if callable(sampler) else random.random()
        new = MadangState(self.get_game())
        new.deal, new.paid = self.deal, self.paid
        new.session = self.session.resampled(player, random.Random(draw))
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> MadangState:
        new = MadangState(self.get_game())
        new.deal, new.paid = self.deal, self.paid
        new.session = copy.deepcopy(self.session, memo)
        return new

    def __str__(self) -> str:
        if self.session is None:
            return "deal pending"
        return json.dumps(self.session.view(None), sort_keys=True, ensure_ascii=False)


class MadangObserver:
    """A player's observation: the encoding's tensor and the view as JSON."""

    def __init__(self, encoding: Encoding) -> None:
        self.encoding = encoding
        self.tensor = np.zeros(encoding.obs_size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MadangState, player: int) -> None:
        if state.session is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = self.encoding.observe(state.session.view(player))

    def string_from(self, state: MadangState, player: int) -> str:
        if state.session is None:
            return "deal pending"
        obs = self.encoding.observe(state.session.view(player))
        return " ".join(f"{i}:{obs[i]:g}" for i in np.flatnonzero(obs))


def register() -> None:
    """Register every game with an encoding as ``python_madang_GAME`` (again: no-op)."""
    known = set(pyspiel.registered_names())
    for game in games():
        name = f"python_madang_{game}"
        if spec(game).encoding is None or name in known:
            continue
        pyspiel.register_game(_game_type(game), _game_class(game))


def _game_class(game: str) -> type[MadangGame]:
    """A subclass of :class:`MadangGame` for one game, built from its parameters alone
    (OpenSpiel makes games as ``cls(params)``)."""

    def __init__(self: MadangGame, params: dict[str, Any] | None = None) -> None:
        MadangGame.__init__(self, game, params)

    return type(f"Madang{game.title()}Game", (MadangGame,), {"__init__": __init__})


class ISMCTSPlayer:
    """OpenSpiel's ISMCTSBot as a Madang bot (``ismcts``): it sees a seat's view, deals
    a world consistent with it, and searches with random rollouts, resampling the hidden
    cards at every simulation. Simulations per decision follow the bot budget: its
    iterations, else as many as its time allows (from the measured time of one)."""

    name = "ismcts"

    def __init__(self, game: str, uct_c: float = 2.0, seed: int = 0) -> None:
        from open_spiel.python.algorithms import ismcts, mcts

        register()
        self.game = pyspiel.load_game(f"python_madang_{game}")
        self._rs = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(1, self._rs)
        self.bot = ismcts.ISMCTSBot(
            self.game, evaluator, uct_c, 1, random_state=self._rs, use_observation_string=True
        )
        self.encoding = _Setup.of(self.game).encoding
        self._per_sim = 0.005  # seconds per simulation, measured as it plays
        self.no_world = 0
        """Decisions taken without a search because no world fitted the view."""

    def act(self, view: dict[str, Any], legal: list[int], rng: random.Random, budget: Any) -> int:
        """The search's choice among ``legal``."""
        import time

        if len(legal) == 1:
            return legal[0]
        make: Any = getattr(self.encoding, "session_from_view", None)
        if make is None:
            raise NotImplementedError("this game cannot resample hidden cards")
        state = MadangState(self.game)
        state.deal = 0
        try:
            state.session = make(view, rng)
        except RecordError:  # no world found for the view (rare: docs/rl/README.md)
            self.no_world += 1
            return legal[0]
        sess, seat = state.session, view.get("seat")
        # A claim window asks several seats, one at a time here: those before this one
        # answer first, and their answers are hidden, so in this world they pass.
        while seat in sess.pending() and sess.pending()[0] != seat:
            other = sess.pending()[0]
            sess.step(other, sess.default_move(other))
        if budget.iterations is not None:
            sims = budget.iterations
        else:
            # at least two: OpenSpiel's first simulation only expands the root
            sims = max(2, int((budget.time_s or 0.1) / self._per_sim))
        self.bot._max_simulations = sims
        t0 = time.perf_counter()
        action = int(self.bot.step(state))
        self._per_sim = 0.8 * self._per_sim + 0.2 * (time.perf_counter() - t0) / sims
        return action if action in legal else legal[0]


def register_ismcts(game: str = "matgo") -> None:
    """Register :class:`ISMCTSPlayer` as the bot ``ismcts`` of ``game``."""
    from madang.bots import bot_names, register_bot

    bot_names(game)  # the game's own bots first
    register_bot(game, "ismcts", lambda: ISMCTSPlayer(game))


register()  # on import, as OpenSpiel's Python games register themselves
