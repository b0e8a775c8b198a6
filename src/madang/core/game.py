"""The game contract: what every layer above the engines needs of a game, in one shape.

A game is registered (:mod:`madang.core.registry`) with a :class:`GameSpec`: its name,
seats, presets, rating scheme and ruleset version, a factory of :class:`Session` (a
match in progress at a table, one game or hand at a time) and the replay frames of a
finished game's record.

An action is an int, one id space per game (the game's reinforcement-learning encoding
numbers the same ids), from the engine up to bots, RL and the server's session; the move
strings of the record notation exist only at the edges (records and the journal, the
wire, the command line), through :meth:`Session.action_to_string` and
:meth:`Session.string_to_action`. The server's rooms and replays use only
this; each game implements it in its own package (``matgo/game.py``,
``mahjong/game.py``). A new game is one package and one registration.

>>> from madang.core.registry import spec
>>> s = spec("matgo").session("default", seed=1)
>>> seat = s.pending()[0]
>>> action = s.legal(seat)[0]
>>> s.string_to_action(s.action_to_string(action)) == action
True
>>> ev = s.step(seat, action)
>>> s.version_events(ev, 1 - seat)[0]["type"]
'play'
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, cast, runtime_checkable

from typing_extensions import TypeVar

from madang.core.match import Match

__all__ = [
    "BotSeat",
    "Chooser",
    "GameSpec",
    "Pacing",
    "Session",
    "check_action",
    "pacing",
    "with_overrides",
]

V = TypeVar("V", bound=Mapping[str, Any], default=Any)
"""A game's view type (:meth:`Session.view`): a ``TypedDict`` per game (``MatgoView``,
``MahjongView``); code that serves any game (the server's rooms, the arena, the bot
runner) holds a bare ``Session``, whose views are untyped."""
S = TypeVar("S", bound=Mapping[str, Any], default=V)
"""A game's view as a table shows it to a person (:meth:`Session.annotate`): the view
and its help (``MatgoTableView``); the view type itself for a game with no help."""
S_co = TypeVar("S_co", bound=Mapping[str, Any], default=Any, covariant=True)
_T = TypeVar("_T", bound=Mapping[str, Any])


def with_overrides(base: Any, overrides: object) -> Any:
    """A preset's rules with some options changed (``{"name": value}``), validated by the
    rules type's ``from_dict``; bad names or values raise RuleConfigError.

    >>> from madang.matgo.rules import preset
    >>> with_overrides(preset("default"), {"bonus_steals_pi": True}).bonus_steals_pi
    True
    """
    from madang.core.errors import RuleConfigError

    if overrides is None or overrides == {}:
        return base
    if not isinstance(overrides, dict):
        raise RuleConfigError("rules must be an object of option names and values")
    from_dict = getattr(type(base), "from_dict", None)
    if from_dict is None:
        raise RuleConfigError("this game has no rules options to change")
    return from_dict({**base.to_dict(), **overrides})


def check_action(action: object, count: int) -> int:
    """``action`` if it is an action id of a game with ``count`` of them, else an
    InvalidActionError (a bool, a float or a string is not an id).

    >>> check_action(3, 175)
    3
    >>> check_action("go", 175)
    Traceback (most recent call last):
    ...
    madang.core.errors.InvalidActionError: an action is an int id, not str
    """
    from madang.core.errors import InvalidActionError

    if not isinstance(action, int) or isinstance(action, bool):
        raise InvalidActionError(f"an action is an int id, not {type(action).__name__}")
    if not 0 <= action < count:
        raise InvalidActionError(f"no action has id {action}")
    return action


class Chooser(Protocol):
    """What a session asks of a bot (:class:`madang.bots.Bot` is one): one of the legal
    action ids, from the seat's view, a seeded ``rng`` and its thinking budget."""

    def act(self, view: dict[str, Any], legal: list[int], rng: random.Random, budget: Any) -> int:
        """One element of ``legal``."""
        ...


class BotSeat(Protocol):
    """What a session needs of the bot playing a seat: the bot (None: the game's
    default answer) and its thinking budget."""

    @property
    def bot(self) -> Chooser | None: ...

    @property
    def budget(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One registered game."""

    name: str
    """The registry name (``matgo``, ``mahjong``)."""
    seats: int
    """Seats at a table."""
    rules_module: str
    """The module of the game's rules: its ``PRESETS`` (names, the default first) and
    ``preset(name)`` (the rules object of a name)."""
    rating: Literal["pairwise", "placement"]
    """How results rate players: Glicko-2 per game (two seats) or placements per match."""
    ruleset_version: str
    """The version of the rules implementation (records of another version may differ)."""
    session: Callable[..., Session]
    """``session(preset, seed, overrides=None)``: a match under the named preset (with
    some options changed, see :func:`with_overrides`) from a seed (None: unpredictable)."""
    frames: Callable[[dict[str, Any]], list[dict[str, Any]]]
    """The replay frames of a finished game's record: the spectator view with every hand
    shown and the unredacted events of each move, the deal first."""
    cli: str | None = None
    """The module whose ``register_cli(sub)`` adds the game's ``madang GAME …`` commands."""
    terminal: str | None = None
    """``module:Class`` of the game's terminal session (``madang play GAME``)."""
    deal: Callable[[Any, int], Session] | None = None
    """``deal(rules, seed)``: one game of the deal fixed by ``seed`` under a rules object
    (the same seed deals the same cards to the same seats with the same dealer), with no
    offers: the arena's duplicate deals and the research environments play these."""
    bots: str | None = None
    """The module that registers the game's bots (:func:`madang.bots.base.register_bot`),
    imported when the game's bots are first asked for."""
    encoding: str | None = None
    """``module:Class`` of the game's reinforcement-learning encoding (:mod:`madang.rl`):
    fixed action ids for its moves and observation tensors from its views."""
    fair_deal: Callable[..., dict[str, Any]] | None = None
    """``fair_deal(rules, key, game_no, first_picks=None)``: what a deal key
    (:mod:`madang.core.fair`) fixes of a game under a record's ``rules`` object, as the
    record's fields (the deck or wall, top first, and anything else chance decides;
    ``game_no`` is the game's number at its table; ``first_picks``: the rounds of the
    first dealer's picks, for a game with ``first_pick``). ``docs/fairness.md``
    specifies it; ``madang verify`` checks a record's fields against it (FairnessError
    for picks the game cannot take)."""
    first_pick: str | None = None
    """``module:Class`` of the game's 선 뽑기 (Matgo's
    :class:`~madang.matgo.first_pick.FirstPick`): ``Class(rules, key)`` lays out
    face-down cards from a deal key (``slots``, ``codes(round)``) and says who deals
    first by the seats' picks (``winner(round, picks)``, ``decide(rounds)``). A table
    with a person seated runs it before its first verifiable deal; None: the game has
    none (its first dealer comes from the key alone, or is fixed)."""
    max_points: Callable[[Any], int] | None = None
    """``max_points(rules)``: a bound on the points one game under a rules object can move,
    every payment together, when it starts with nothing carried from the games before it
    (a 나가리 multiplier or pot, which the game's page states): times the stake, what a
    table risks in one game (the server caps it, ``docs/server.md``, Stakes)."""
    unit_points: Callable[[Any], dict[str, int]] | None = None
    """``unit_points(rules)``: the game's scoring units besides the point, each with the
    points it is worth under a rules object (mahjong: ``{"pan": pan_value}``), so that a
    table can say what they are worth at its stake."""

    def presets(self) -> list[str]:
        """The names of the rules presets (the first is the default)."""
        return list(importlib.import_module(self.rules_module).PRESETS)

    def rules(self, preset: str, overrides: object = None) -> Any:
        """The rules object of a preset name with some options changed (unknown names
        and bad options: RuleConfigError)."""
        return with_overrides(importlib.import_module(self.rules_module).preset(preset), overrides)

    def seats_under(self, rules: Any) -> int:
        """Seats at a table under ``rules`` (a rules object, or None for the game's):
        its ``players`` where the game's rules name the count (고스톱: 3, or 4 with
        광팔기), else :attr:`seats`."""
        players = getattr(rules, "players", None)
        return players if type(players) is int else self.seats


class Session(ABC, Generic[V, S]):
    """A match in progress at a table, one game (or hand) at a time: the games in series
    and the balances are the generic :class:`~madang.core.match.Match` ``series`` (each
    session makes one of its seats); the game deals (:meth:`deal_next`) and says when a
    match ends (:meth:`ends_match`).

    Generic in the game's view type ``V`` (what :meth:`view` returns, a ``TypedDict``:
    ``Session[MatgoView, MatgoTableView]``) and in ``S``, the view with a person's help
    (what :meth:`annotate` returns; ``V`` itself where the game adds none:
    ``Session[PairsView]``). A bare ``Session`` is any game's."""

    game: str
    seats: int
    series: Match

    @property
    def game_no(self) -> int:
        """The current game's number at the table (from 1, counting on across matches)."""
        return self.series.game_no

    @abstractmethod
    def pending(self) -> list[int]:
        """The seats that must answer now ([] exactly when the game is over)."""

    @property
    def over(self) -> bool:
        """Whether the current game has ended (no seat is asked anything)."""
        return not self.pending()

    def public_pending(self) -> list[int]:
        """The pending seats everyone may know of: all of them, but in a game with
        private questions (a mahjong claim window)."""
        return self.pending()

    @abstractmethod
    def question(self, seat: int) -> str:
        """What ``seat`` is asked."""

    @abstractmethod
    def legal(self, seat: int) -> list[int]:
        """The action ids ``seat`` may take now."""

    @abstractmethod
    def step(self, seat: int, action: int) -> list[Any]:
        """Apply ``seat``'s action id; return the raw events. An id that is not one of
        the game's raises InvalidActionError, one not legal now IllegalActionError;
        either changes nothing."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """The record notation of an action id (``go``, ``discard 3m``): the edges'
        form (records, the journal, the wire, the command line)."""

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """The action id of a move in the record notation; malformed text (or not a
        string) raises InvalidActionError."""

    @abstractmethod
    def default_move(self, seat: int) -> int:
        """The answer taken when ``seat``'s time runs out."""

    def bot_move(self, seat: int, bot: BotSeat, rng: random.Random, strict: bool = False) -> int:
        """What a bot answers for ``seat``: it is given the seat's :meth:`view` and the
        legal action ids, never the state. An answer that is not legal is replaced by
        :meth:`default_move`, or with ``strict`` raises IllegalActionError."""
        return self.bot_choice(seat, bot, rng, self.legal(seat), strict)

    def bot_choice(
        self, seat: int, bot: BotSeat, rng: random.Random, legal: list[int], strict: bool = False
    ) -> int:
        """What ``bot`` picks for ``seat`` among ``legal`` (some of the seat's legal
        action ids) from the seat's :meth:`view` (:meth:`bot_move`), given as a plain
        dict (a copy: the bots' interface is any game's, ``dict[str, Any]``)."""
        from madang.core.errors import IllegalActionError

        if bot.bot is None or not legal:
            return self.default_move(seat)
        choice = bot.bot.act(dict(self.view(seat)), list(legal), rng, bot.budget)
        if choice not in legal:
            if strict:
                raise IllegalActionError(f"the bot chose {choice!r}, not a legal action")
            return self.default_move(seat)
        return int(choice)

    def timeout_move(self, seat: int, bot: BotSeat, rng: random.Random) -> int:
        """The answer played for a person whose time ran out at a table: what ``bot``
        answers for ``seat`` (:meth:`bot_move`: it sees only the seat's view), never
        simply the first legal move. A game may keep :meth:`default_move` for a question
        a timeout must not decide (Matgo's 고, a mahjong win or claim)."""
        return self.bot_move(seat, bot, rng)

    def auto_move(self, seat: int) -> int | None:
        """The move ``seat`` makes by itself now, with nothing left to decide (a declared
        mahjong hand discarding a drawn tile it cannot win on), else None. The room plays
        it for a person after a short pause, as a portal does."""
        return None

    @abstractmethod
    def start_events(self) -> list[Any]:
        """The raw events of the deal of the current game."""

    @abstractmethod
    def version_events(self, events: list[Any], seat: int | None) -> list[dict[str, Any]]:
        """``events`` as ``seat`` (``None``: spectator) may see them."""

    @abstractmethod
    def view(self, seat: int | None) -> V:
        """What ``seat`` (``None``: a spectator) knows of the current game: the view bots
        and RL get, with no help for a person (:meth:`annotate`), as the game's view
        type (every key of it, and nothing else: ``tests/contract/test_view_types.py``)."""

    def annotate(self, view: V, seat: int | None) -> S:
        """``view`` (this session's :meth:`view` of ``seat`` now) with the help a person
        reads beside it (Matgo's piles, 족보 progress, 박 warnings; mahjong's discard
        help): the game's ``S``, the view's keys first. The table adds it to the views
        it sends to people; bots and RL never pay for it. A game without help (whose
        ``S`` is its ``V``) returns ``view``."""
        return cast(S, view)

    @abstractmethod
    def payments(self) -> list[tuple[int, int, int, str]]:
        """The finished game's payments ``(from, to, points, reason)``."""

    @abstractmethod
    def outcome(self) -> dict[str, Any]:
        """The finished game's ``winner`` (seat or None), ``points``, ``reason``, ``sheet``."""

    @abstractmethod
    def record(self) -> dict[str, Any]:
        """The current game's record (``notation.md``)."""

    def next_game(self) -> bool:
        """Settle the finished game into the match and deal the next; True when a new
        match began (the finished game ended the last one: :meth:`ends_match`)."""
        over = self.ends_match()
        self.series.settle(self.payments(), over=over)
        self.deal_next(over)
        return over

    @abstractmethod
    def deal_next(self, new_match: bool) -> None:
        """Deal the next game (:meth:`next_game` has settled the finished one): the first
        of a new match when ``new_match``."""

    def ends_match(self) -> bool:
        """Whether the finished current game ends the match, asked of the game's rules
        (mahjong: the last pass of the dealership); False for a game whose matches go on
        while the table does (Matgo)."""
        return False

    def match_scores(self) -> list[int] | None:
        """At the end of a match (the current game finished and :meth:`ends_match`): the
        final totals, this game's payments included; else None."""
        if not self.over or not self.ends_match():
            return None
        return self.series.totals(self.payments())

    def placement_scores(self) -> list[int] | None:
        """The scores a placement rating (``GameSpec.rating``) ranks the seats by now,
        higher first, or None when nothing is to be rated yet: the match's final totals
        (:meth:`match_scores`); a game whose every game is rated on its own (고스톱)
        gives that game's net points."""
        return self.match_scores()

    def redeal(self, key: bytes, first_picks: Sequence[Sequence[int]] | None = None) -> None:
        """Deal the current game again from a fairness deal key (``docs/fairness.md``),
        before any move of it: the deck or wall — and whatever else chance decides of it
        (Matgo's first 선 in a table's game 1, its mission) — come from the key by the
        game's ``GameSpec.fair_deal``; the dealer, the carry and the pot stay the
        match's. ``first_picks``: the rounds of 선 뽑기 (``GameSpec.first_pick``) that
        chose a table's first dealer instead of the key alone. A table with verifiable
        deals calls it after :meth:`next_game` (or the session's creation) and before
        showing the deal."""
        raise NotImplementedError(f"{self.game} cannot deal from a fairness key")

    def resampled(self, seat: int | None, rng: random.Random) -> Session:
        """A copy of this session in which what ``seat`` (``None``: a spectator) cannot
        see is dealt again at random: the other hands and the unseen stock. The copy
        shows ``seat`` the same view (that is what "views leak nothing" means, and what
        the conformance test checks) and plays on from there; the original is not
        touched. Search and research code use it as a world consistent with a seat's
        information."""
        raise NotImplementedError(f"{self.game} cannot re-deal its hidden cards")

    def win_tags(self) -> list[str]:
        """What made the finished game's (first) winner's payment: its multipliers or
        patterns, as names (``go_2``, ``pibak``, ``cheongilsaek`` …); [] for none."""
        return []

    def deal_ins(self) -> list[bool] | None:
        """Per seat, whether the finished game was won on that seat's discard (games with
        discards that others win on); None where the game has no such thing."""
        return None


@runtime_checkable
class Pacing(Protocol[S_co]):
    """The optional hook of a game whose moves others may claim in private (a mahjong
    discard or 가깡): the *offer*, the pause after such a move. The room shows it for
    the same time whether or not anyone was asked, and shows the seats that were not
    asked the same content either way. A session that implements these members is
    paced (:func:`pacing`); the room asks nothing of the others, which never offer."""

    offering: bool
    """Whether the last step made an offer (until :meth:`end_offer`)."""

    def window(self) -> list[int]:
        """The seats answering a private question now (a claim window), else []."""
        ...

    def offered_view(self, seat: int | None) -> S_co:
        """The view during an offer of a seat that is not answering it (or a spectator),
        as the table shows it to a person (its help added, :meth:`Session.annotate`)."""
        ...

    def split_offer(self, events: list[Any]) -> tuple[list[Any], list[Any]]:
        """The events of a step during an offer: those shown now (the offered move, the
        private questions and answers) and those shown when the offer ends."""
        ...

    def end_offer(self) -> None:
        """The offer's pause is over."""
        ...


def pacing(session: Session[Any, _T]) -> Pacing[_T] | None:
    """``session`` as a :class:`Pacing` game, or None where its game never offers.

    >>> from madang.core.registry import spec
    >>> pacing(spec("matgo").session("default", 1)) is None
    True
    >>> pacing(spec("mahjong").session("default", 1)) is not None
    True
    """
    kind = type(session)
    paced = _PACED.get(kind)
    if paced is None:  # isinstance on a runtime protocol is slow: once per class
        paced = _PACED[kind] = isinstance(session, Pacing)
    return cast("Pacing[_T]", session) if paced else None


_PACED: dict[type, bool] = {}
