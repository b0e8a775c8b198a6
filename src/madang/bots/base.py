"""The bot interface: what a bot sees, what it returns, and how bots are found by name.

A bot is called with ``(view, legal, rng, budget)``: the seat's view dict (from the
game's ``view(state, seat)``: never the engine state), the legal action ids, a seeded
``random.Random`` and a :class:`Budget`. It returns one id from ``legal``. The runner
(:func:`play`) builds a fresh view and a copy of the legal list for every decision, so
nothing a bot does can reach or change the game.

Bots are registered per game under a name, and levels (``easy`` / ``normal`` /
``hard``) map to names; each game's bots live in a module listed in
:data:`BUILTIN_BOT_MODULES`, imported on first use, so a new game registers its bots
without touching this file's logic.

>>> bot = make_bot("matgo", "easy")
>>> bot.name
'random'
>>> bot.act({}, [3, 7], random.Random(0), Budget()) in (3, 7)
True
>>> make_bot("matgo", "nobody")
Traceback (most recent call last):
...
madang.core.errors.RuleConfigError: unknown matgo bot 'nobody'; known: capture, easy, ...
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from madang.core.errors import RuleConfigError

View = dict[str, Any]

LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a bot may think about one decision.

    ``time_s`` is a wall-clock limit in seconds, ``iterations`` a cap on search
    iterations (samples); either may be ``None`` (no limit of that kind). A search bot
    stops at whichever limit comes first; bots that do not search ignore the budget.
    ``cpu``: count ``time_s`` in the thread's CPU time (``time.thread_time``) instead of
    the wall clock, so that a measurement on a shared machine is not weakened by the
    time other processes take (the arena's ``--cpu-clock``; play stays on the wall clock).

    >>> Budget(0.1).deadline(10.0)
    10.1
    >>> Budget(time_s=-1)
    Traceback (most recent call last):
    ...
    madang.core.errors.RuleConfigError: time_s must be a positive number or None, not -1
    """

    time_s: float | None = 0.1
    iterations: int | None = None
    cpu: bool = False

    def __post_init__(self) -> None:
        t = self.time_s
        if t is not None and (isinstance(t, bool) or not isinstance(t, int | float) or t <= 0):
            raise RuleConfigError(f"time_s must be a positive number or None, not {t!r}")
        n = self.iterations
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
            raise RuleConfigError(f"iterations must be a positive integer or None, not {n!r}")

    def now(self) -> float:
        """The clock that :meth:`deadline` is read on: ``perf_counter`` or, with ``cpu``,
        ``thread_time``."""
        return time.thread_time() if self.cpu else time.perf_counter()

    def deadline(self, start: float) -> float:
        """The :meth:`now` time by which a decision begun at ``start`` must end."""
        return start + self.time_s if self.time_s is not None else float("inf")


@runtime_checkable
class Bot(Protocol):
    """Anything that picks an action from a view: ``act(view, legal, rng, budget)``."""

    name: str

    def act(self, view: View, legal: list[int], rng: random.Random, budget: Budget) -> int:
        """Return one element of ``legal``."""
        ...


class RandomBot:
    """A uniformly random legal action; the ``easy`` level of every game."""

    name = "random"

    def act(self, view: View, legal: list[int], rng: random.Random, budget: Budget) -> int:
        """A legal action drawn uniformly with ``rng``."""
        return legal[rng.randrange(len(legal))]


BotFactory = Callable[[], Bot]

#: game -> bot name -> factory
_BOTS: dict[str, dict[str, BotFactory]] = {}
#: game -> level -> bot name
_LEVELS: dict[str, dict[str, str]] = {}
#: Built-in bot modules per game, imported when a game's bots are first asked for.
BUILTIN_BOT_MODULES: dict[str, str] = {
    "matgo": "madang.bots.matgo_bots",
    "mahjong": "madang.bots.mahjong_bots",
}


def register_bot(game: str, name: str, factory: BotFactory, level: str | None = None) -> None:
    """Register ``factory`` as bot ``name`` of ``game``; ``level`` makes it that level.

    >>> register_bot("demo", "first", lambda: FirstBot(), level="easy")
    >>> make_bot("demo", "easy").name
    'first'
    """
    if level is not None and level not in LEVELS:
        raise RuleConfigError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
    _BOTS.setdefault(game, {})[name] = factory
    if level is not None:
        _LEVELS.setdefault(game, {})[level] = name


def _load(game: str) -> None:
    module = BUILTIN_BOT_MODULES.get(game)
    if module is not None and game not in _BOTS:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name != module:
                raise


def bot_names(game: str) -> list[str]:
    """Every bot name and level known for ``game``, sorted."""
    _load(game)
    return sorted(set(_BOTS.get(game, {})) | set(_LEVELS.get(game, {})))


def make_bot(game: str, level_or_name: str) -> Bot:
    """A new bot of ``game`` by level (``easy``/``normal``/``hard``) or by name."""
    _load(game)
    bots = _BOTS.get(game, {})
    name = _LEVELS.get(game, {}).get(level_or_name, level_or_name)
    try:
        factory = bots[name]
    except KeyError:
        known = ", ".join(bot_names(game)) or "none"
        raise RuleConfigError(f"unknown {game} bot {level_or_name!r}; known: {known}") from None
    return factory()


class FirstBot:
    """Always the first legal action (a deterministic baseline for tests)."""

    name = "first"

    def act(self, view: View, legal: list[int], rng: random.Random, budget: Budget) -> int:
        """``legal[0]``."""
        return legal[0]


class GameAdapter(Protocol):
    """What the runner and the arena need of a game; one adapter per game."""

    game: str
    seats: int

    def view(self, state: Any, seat: int) -> View:
        """What ``seat`` may know (a fresh dict on every call)."""
        ...

    def legal(self, state: Any) -> list[int]:
        """The legal action ids now."""
        ...

    def current(self, state: Any) -> int:
        """The seat that must act."""
        ...

    def step(self, state: Any, action: int) -> None:
        """Apply an action."""
        ...

    def over(self, state: Any) -> bool:
        """Whether the game has ended."""
        ...


@dataclass
class DecisionLog:
    """Per seat, the seconds each decision took (for p50/p95)."""

    times: list[list[float]]


class IllegalBotAction(RuleConfigError):
    """A bot returned something that is not one of the legal actions."""


def play(
    adapter: GameAdapter,
    state: Any,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    budget: Budget,
    log: DecisionLog | None = None,
) -> Any:
    """Step ``state`` to its end, asking ``bots[seat]`` for every decision of ``seat``.

    Each call gets ``adapter.view(state, seat)`` (a fresh dict) and a copy of the legal
    list, never the state. A bot that answers with an illegal action raises
    :class:`IllegalBotAction`. Returns the finished state.
    """
    clock = time.perf_counter
    while not adapter.over(state):
        seat = adapter.current(state)
        legal = adapter.legal(state)
        v = adapter.view(state, seat)
        t0 = clock()
        action = bots[seat].act(v, list(legal), rngs[seat], budget)
        dt = clock() - t0
        if log is not None:
            log.times[seat].append(dt)
        if action not in legal:
            raise IllegalBotAction(
                f"bot {bots[seat].name!r} (seat {seat}) chose {action!r}, not a legal action"
            )
        adapter.step(state, action)
    return state
