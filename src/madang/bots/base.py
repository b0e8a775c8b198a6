"""The bot interface: what a bot sees, what it returns, and how bots are found by name.

A bot is called with ``(view, legal, rng, budget)``: the seat's view dict (from the
game's ``view(state, seat)``: never the engine state), the legal action ids, a seeded
``random.Random`` and a :class:`Budget`. It returns one id from ``legal``. The runner
(:func:`play`) builds a fresh view and a copy of the legal list for every decision, so
nothing a bot does can reach or change the game.

A bot written outside Madang — another language, another process — is a
:class:`MoveBot`: it is given the seat's view through the contract and the legal moves
as strings (the record notation), and answers one of them. :func:`make_agent` builds
one from ``cmd:COMMAND`` (:class:`madang.bots.external.ExternalBot`, the JSON-lines
protocol of ``docs/bot-protocol.md``). Its bad answers are typed faults
(:class:`BotFault`): the runner plays the game's default move instead, and after
:attr:`BotLimits.max_faults` faults in a game it asks that bot no more until the game ends.

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

import contextlib
import importlib
import logging
import random
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard, cast, runtime_checkable

from madang.core.errors import MadangError, RuleConfigError

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


@contextlib.contextmanager
def registered_bot(game: str, name: str, factory: BotFactory) -> Iterator[None]:
    """Bot ``name`` of ``game`` registered for the ``with`` block only (a tool's own
    instrumented bot must not stay among the game's bots after it).

    >>> with registered_bot("demo", "probe", lambda: FirstBot()):
    ...     make_bot("demo", "probe").name
    'first'
    >>> "probe" in bot_names("demo")
    False
    """
    before = _BOTS.get(game, {}).get(name)
    register_bot(game, name, factory)
    try:
        yield
    finally:
        if before is None:
            _BOTS[game].pop(name, None)
        else:
            _BOTS[game][name] = before


#: game -> loaders of the game's own saved models (``learned:PATH``)
_MODEL_LOADERS: dict[str, list[Callable[[str], str | None]]] = {}


def register_model_loader(game: str, loader: Callable[[str], str | None]) -> None:
    """A kind of saved model of ``game`` that ``learned:PATH`` may name: ``loader(PATH)``
    registers the bot ``learned:PATH`` and returns its name when the file is one of its
    models, and returns ``None`` when it is not (a policy of ``madang train`` is then
    tried, :func:`load_model`'s caller's business)."""
    _MODEL_LOADERS.setdefault(game, []).append(loader)


def load_model(game: str, path: str) -> str | None:
    """The name under which a loader of ``game`` (:func:`register_model_loader`)
    registered the model at ``path``; ``None`` when none of them takes the file.

    >>> register_model_loader("demo", lambda p: None)
    >>> load_model("demo", "policy.npz") is None
    True
    """
    _load(game)  # the game's bots register its loaders
    for loader in _MODEL_LOADERS.get(game, ()):
        name = loader(path)
        if name is not None:
            return name
    return None


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


# --- bots at the string edge: faults, limits, the runner's policy ---------------------


class BotFault(MadangError):
    """A :class:`MoveBot`'s answer that cannot be played. The runner logs and records it
    and plays the game's default move instead (``kind`` names the fault in the arena's
    report)."""

    code = "bot_fault"
    kind = "fault"


class MalformedAnswer(BotFault):
    """An answer that is not a JSON object with the request's ``id`` and a string
    ``move`` (or, to ``hello``, its ``protocol``)."""

    code = "bot_malformed"
    kind = "malformed"


class IllegalAnswer(BotFault):
    """A well-formed answer whose move is not one of the legal moves."""

    code = "bot_illegal"
    kind = "illegal"


class AnswerTimeout(BotFault):
    """No answer within the hard time limit (or, at start, within the start limit)."""

    code = "bot_timeout"
    kind = "timeout"


class BotExited(BotFault):
    """The bot's process could not be started, exited, or closed its end of a pipe."""

    code = "bot_exited"
    kind = "exited"


class ProtocolMismatch(BotFault):
    """The bot answered ``hello`` with another protocol version."""

    code = "bot_protocol"
    kind = "protocol"


@dataclass(frozen=True, slots=True)
class BotLimits:
    """How long a bot outside Madang gets, and how many faults it may make.

    ``limit_s``: the hard limit per decision (``None``: the budget's time plus one
    second, or 10 s when the budget has no time); past it the answer is a timeout.
    ``start_s``: the limit for the process to start and answer ``hello``.
    ``max_faults``: faults in one game after which the bot is asked nothing more in that
    game (its seat plays default moves to the end). ``close_s``: how long a bot may take
    to exit once its input is closed before it is killed.

    >>> BotLimits().limit(Budget(0.1))
    1.1
    >>> BotLimits(limit_s=0.5).limit(Budget(None))
    0.5
    >>> BotLimits(max_faults=0)
    Traceback (most recent call last):
    ...
    madang.core.errors.RuleConfigError: max_faults must be a positive integer, not 0
    """

    limit_s: float | None = None
    start_s: float = 10.0
    max_faults: int = 3
    close_s: float = 1.0

    def __post_init__(self) -> None:
        for name in ("limit_s", "start_s", "close_s"):
            t = getattr(self, name)
            if t is None and name == "limit_s":
                continue
            if isinstance(t, bool) or not isinstance(t, int | float) or t <= 0:
                raise RuleConfigError(f"{name} must be a positive number, not {t!r}")
        k = self.max_faults
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise RuleConfigError(f"max_faults must be a positive integer, not {k!r}")

    def limit(self, budget: Budget) -> float:
        """The hard limit in seconds of one decision under ``budget``."""
        if self.limit_s is not None:
            return float(self.limit_s)
        return 10.0 if budget.time_s is None else round(budget.time_s + 1.0, 6)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a :class:`MoveBot` is told when a game begins: the game, its rules (as the
    record stores them), the number of seats and its own seat, and the time it has."""

    game: str
    ruleset: str
    rules: dict[str, Any]
    seats: int
    seat: int
    budget: Budget


class MoveBot(Protocol):
    """A bot at the string edge: told when a game begins and ends, given the seat's view
    (``Session.view(seat)``) and the legal moves in the record notation, it answers one
    of them or raises a :class:`BotFault`. One instance plays one seat at a time."""

    name: str

    def begin(self, info: GameInfo) -> None:
        """A game begins with this bot at ``info.seat``."""
        ...

    def choose(self, view: View, legal: list[str]) -> str:
        """A move for the seat (the runner checks that it is one of ``legal``)."""
        ...

    def finish(self, result: dict[str, Any]) -> None:
        """The game is over: its ``winner``, ``reason``, ``points``, ``payments`` and the
        seat's final ``view``."""
        ...

    def close(self) -> None:
        """No more games: release what the bot holds (its process)."""
        ...


def is_move_bot(bot: Bot | MoveBot) -> TypeGuard[MoveBot]:
    """Whether ``bot`` plays at the string edge (a :class:`MoveBot`). A plain attribute
    check: ``isinstance`` on a runtime protocol costs tens of microseconds, as much as a
    random bot's whole decision, and the runner asks it at every decision.

    >>> is_move_bot(RandomBot())
    False
    """
    return hasattr(bot, "choose") and hasattr(bot, "begin")


class TimedBot:
    """A bot that thinks its own time a decision, whatever the match's budget: the
    arena's ``NAME@MS`` (:func:`make_agent`), e.g. ``hard@1000`` against ``hard`` at the
    match's 100 ms. The time is counted on the match's clock (wall or CPU) with no cap
    on iterations.

    >>> bot = TimedBot(FirstBot(), 1.0)
    >>> bot.name, bot.act({}, [4, 2], random.Random(0), Budget(0.1, 60))
    ('first@1000ms', 4)
    """

    def __init__(self, bot: Bot, time_s: float) -> None:
        self.bot, self.time_s = bot, time_s
        self.name = f"{bot.name}@{time_s * 1000:g}ms"

    def act(self, view: View, legal: list[int], rng: random.Random, budget: Budget) -> int:
        """The wrapped bot's answer with :attr:`time_s` to think."""
        return self.bot.act(view, legal, rng, Budget(self.time_s, None, budget.cpu))


_TIMED = re.compile(r"(?P<bot>.+)@(?P<ms>[0-9]+(?:\.[0-9]*)?)(?:ms)?")


def _timed(game: str, match: re.Match[str]) -> Bot:
    """``NAME@MS`` (or ``NAME@MSms``): bot ``NAME`` thinking ``MS`` ms a decision."""
    ms = float(match["ms"])
    if not 0 < ms <= 3_600_000:
        raise RuleConfigError(
            f"{match[0]!r}: the time after @ is milliseconds a decision, above 0 and at "
            "most an hour"
        )
    return TimedBot(make_bot(game, match["bot"]), ms / 1000)


def make_agent(game: str, name: str, limits: BotLimits | None = None) -> Bot | MoveBot:
    """A bot of ``game`` by level or name (:func:`make_bot`), or for ``cmd:COMMAND`` a
    bot run as a process that speaks the bot protocol (``docs/bot-protocol.md``).
    ``NAME@MS`` is bot ``NAME`` given ``MS`` milliseconds a decision, whatever the
    match's budget (:class:`TimedBot`; the arena's way to match two budgets).

    >>> make_agent("matgo", "hard@1000").name
    'search@1000ms'
    >>> make_agent("matgo", "cmd:").name
    Traceback (most recent call last):
    ...
    madang.core.errors.RuleConfigError: cmd: needs a command, e.g. cmd:"python3 mybot.py"
    >>> make_agent("matgo", "hard@0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    madang.core.errors.RuleConfigError: 'hard@0': the time after @ is milliseconds ...

    A name whose ``@`` is not followed by a number is a name (a ``learned:`` path may
    hold one).
    """
    if name.startswith("cmd:"):
        from madang.bots.external import ExternalBot

        return ExternalBot(name[4:], limits=limits, name=name)
    timed = _TIMED.fullmatch(name)
    if timed is not None:
        return _timed(game, timed)
    return make_bot(game, name)


@dataclass(frozen=True, slots=True)
class Fault:
    """One fault of a bot in a game: the seat, the decision number (0-based, of the
    whole game) and the typed error."""

    seat: int
    decision: int
    kind: str
    message: str


@dataclass
class GameFaults:
    """The faults of one game, and the policy: a seat with ``max_faults`` faults is
    *broken* for the rest of the game (asked nothing, its default moves played)."""

    max_faults: int = 3
    faults: list[Fault] = field(default_factory=list)

    def count(self, seat: int) -> int:
        """Faults of ``seat`` so far."""
        return sum(1 for f in self.faults if f.seat == seat)

    def broken(self, seat: int) -> bool:
        """Whether ``seat``'s bot is asked no more in this game."""
        return self.count(seat) >= self.max_faults


_log = logging.getLogger("madang.bots")


@dataclass(frozen=True, slots=True)
class SeatBot:
    """A bot at a seat with its budget (the contract's :class:`~madang.core.game.BotSeat`)."""

    bot: Bot
    budget: Budget


def _game_info(session: Session, seat: int, budget: Budget) -> GameInfo:
    """The start of a game for the bot at ``seat``: the game's ruleset version from its
    registration and the rules from the game's record (which stores every option; a
    game whose record has none has no options), and nothing else of the record."""
    from madang.core.registry import spec

    rules = session.record().get("rules") or {}
    g = spec(session.game)
    return GameInfo(session.game, g.ruleset_version, dict(rules), session.seats, seat, budget)


def _result(session: Session, seat: int) -> dict[str, Any]:
    """What a bot is told when the game is over (public by then)."""
    out = session.outcome()
    return {
        "winner": out["winner"],
        "reason": out["reason"],
        "points": out["points"],
        "payments": [list(p) for p in session.payments()],
        "view": session.view(seat),
    }


def decide(
    session: Session,
    seat: int,
    bot: Bot | MoveBot,
    rng: random.Random,
    budget: Budget,
    faults: GameFaults,
    decision: int = 0,
) -> int:
    """The action id of ``seat``'s bot now.

    A :class:`Bot` answers through :meth:`~madang.core.game.Session.bot_move` (an
    illegal answer raises :class:`IllegalBotAction`: built-in bots do not fault). A
    :class:`MoveBot` is given ``session.view(seat)`` and the legal moves as strings
    (:meth:`~madang.core.game.Session.action_to_string`); a :class:`BotFault` it raises,
    or a move not in the legal list, is recorded in ``faults`` and logged, and the
    default move is played; a broken seat is not asked.
    """
    from madang.core.errors import IllegalActionError

    if is_move_bot(bot):
        return _edge_move(session, seat, bot, faults, decision)
    plain = cast(Bot, bot)
    try:
        return session.bot_move(seat, SeatBot(plain, budget), rng, strict=True)
    except IllegalActionError as e:
        raise IllegalBotAction(f"bot {plain.name!r} (seat {seat}): {e}") from None


def _edge_move(session: Session, seat: int, bot: MoveBot, faults: GameFaults, decision: int) -> int:
    """A :class:`MoveBot`'s move, or the default move for a fault or a broken seat."""
    if faults.broken(seat):
        return session.default_move(seat)
    legal = session.legal(seat)
    moves = [session.action_to_string(a) for a in legal]
    try:
        move = bot.choose(session.view(seat), list(moves))
        if move not in moves:
            raise IllegalAnswer(f"{move!r} is not one of the {len(moves)} legal moves")
    except BotFault as e:
        faults.faults.append(Fault(seat, decision, e.kind, str(e)))
        _log.warning(
            "bot %r (seat %d): %s: %s; the default move is played", bot.name, seat, e.kind, e
        )
        if faults.broken(seat):
            _log.warning(
                "bot %r (seat %d): %d faults, default moves to the end of the game",
                bot.name,
                seat,
                faults.max_faults,
            )
        return session.default_move(seat)
    return legal[moves.index(move)]


def play(
    session: Session,
    bots: Sequence[Bot | MoveBot],
    rngs: Sequence[random.Random],
    budget: Budget,
    log: DecisionLog | None = None,
    faults: GameFaults | None = None,
) -> Session:
    """Play the current game of ``session`` to its end, asking ``bots[seat]`` for every
    decision of ``seat`` (the first seat asked, when several are).

    Each bot gets the seat's view and a copy of the legal actions (:func:`decide`), never
    the state. A :class:`Bot` that answers with an illegal action raises
    :class:`IllegalBotAction`; a :class:`MoveBot`'s faults go to ``faults`` (one
    :class:`GameFaults` per game) and its seat plays the default move. A :class:`MoveBot`
    is told when the game begins and ends. Returns the session.
    """
    faults = GameFaults() if faults is None else faults
    edge = [(s, b) for s, b in enumerate(bots) if is_move_bot(b)]
    if len({id(b) for _, b in edge}) < len(edge):
        raise RuleConfigError("a bot outside Madang plays one seat at a time")
    for s, b in edge:
        b.begin(_game_info(session, s, budget))
    clock = time.perf_counter
    n = 0
    while not session.over:
        seat = session.pending()[0]
        t0 = clock()
        move = decide(session, seat, bots[seat], rngs[seat], budget, faults, n)
        dt = clock() - t0
        if log is not None:
            log.times[seat].append(dt)
        session.step(seat, move)
        n += 1
    for s, b in edge:
        b.finish(_result(session, s))
    return session
