"""The bot interface: what a bot sees, what it returns, and how bots are found by name.

A bot is called with ``(view, legal, rng, budget)``: the seat's view dict (from the
game's ``view(state, seat)``: never the engine state), the legal action ids, a seeded
``random.Random`` and a :class:`Budget`. It returns one id from ``legal``. The runner
(:func:`play`) builds a fresh view and a copy of the legal list for every decision, so
nothing a bot does can reach or change the game.

Bots are registered per game under a name, and levels (``easy`` / ``normal`` /
``hard``) map to names; each game's bots live in the module its contract names
(:attr:`madang.core.game.GameSpec.bots`), imported on first use, so a new game
registers its bots without touching this file. ``random`` (also ``easy``) and
``first`` play any registered game.

:func:`play` plays a game to its end through the game contract
(:class:`madang.core.game.Session`), asking a bot for every decision.

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
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from madang.core.errors import RuleConfigError

if TYPE_CHECKING:
    from madang.core.game import Session

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
#: The bots of every game (the game's own registrations come first).
_GENERIC: dict[str, BotFactory] = {"random": RandomBot, "first": lambda: FirstBot()}
_GENERIC_LEVELS = {"easy": "random"}


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


_LOADED: set[str] = set()


def _load(game: str) -> bool:
    """Import the module of ``game``'s bots once; whether ``game`` is a registered game."""
    from madang.core.errors import MadangError
    from madang.core.registry import spec

    try:
        module = spec(game).bots
    except MadangError:
        return game in _BOTS
    if module is not None and game not in _LOADED:
        importlib.import_module(module)
        _LOADED.add(game)
    return True


def _bots_of(game: str) -> tuple[dict[str, BotFactory], dict[str, str]]:
    if not _load(game):
        return _BOTS.get(game, {}), _LEVELS.get(game, {})
    return {**_GENERIC, **_BOTS.get(game, {})}, {**_GENERIC_LEVELS, **_LEVELS.get(game, {})}


def bot_names(game: str) -> list[str]:
    """Every bot name and level known for ``game``, sorted."""
    bots, levels = _bots_of(game)
    return sorted(set(bots) | set(levels))


def make_bot(game: str, level_or_name: str) -> Bot:
    """A new bot of ``game`` by level (``easy``/``normal``/``hard``) or by name."""
    bots, levels = _bots_of(game)
    name = levels.get(level_or_name, level_or_name)
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


@dataclass
class DecisionLog:
    """Per seat, the seconds each decision took (for p50/p95)."""

    times: list[list[float]]


class IllegalBotAction(RuleConfigError):
    """A bot returned something that is not one of the legal actions."""


@dataclass(frozen=True, slots=True)
class SeatBot:
    """A bot at a seat with its budget (the contract's :class:`~madang.core.game.BotSeat`)."""

    bot: Bot
    budget: Budget


def play(
    session: Session,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    budget: Budget,
    log: DecisionLog | None = None,
) -> Session:
    """Play the current game of ``session`` to its end, asking ``bots[seat]`` for every
    decision of ``seat`` (the first seat asked, when several are).

    Each bot gets the seat's view and a copy of the legal actions through
    :meth:`~madang.core.game.Session.bot_move`, never the state. A bot that answers with
    an illegal action raises :class:`IllegalBotAction`. Returns the session.
    """
    from madang.core.errors import IllegalActionError

    clock = time.perf_counter
    seats = [SeatBot(b, budget) for b in bots]
    while not session.over:
        seat = session.pending()[0]
        t0 = clock()
        try:
            move = session.bot_move(seat, seats[seat], rngs[seat], strict=True)
        except IllegalActionError as e:
            raise IllegalBotAction(f"bot {bots[seat].name!r} (seat {seat}): {e}") from None
        dt = clock() - t0
        if log is not None:
            log.times[seat].append(dt)
        session.step(seat, move)
    return session
