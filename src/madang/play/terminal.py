"""What the terminal games share: the console, the keys, and the loop that plays a match
through the game contract (:class:`madang.core.game.Session`).

A game's terminal is its renderer only (:mod:`madang.play.matgo_tui`,
:mod:`madang.play.mahjong_tui`): it draws the person's seat from the seat's view and the
help a table adds to it (``Session.view`` + ``Session.annotate``), narrates the events
as the seat sees them, and turns the person's keys into a move in the record notation.
The loop here does the rest, for any game: it opens the session from a preset
(``GameSpec.session``), asks who is pending, lets the bots answer through
``Session.bot_move`` (they see their seat's view only), reads the person's move with
``Session.string_to_action`` and plays it with ``Session.step`` — a move that is
malformed or not legal now is shown as its typed error and changes nothing — and goes
from game to game with ``Session.next_game`` until the match ends (``ends_match``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Generic

from rich.console import Console
from rich.markup import escape

from madang.bots.base import Budget, SeatBot, make_bot
from madang.core.errors import MadangError, RuleConfigError
from madang.core.game import S, Session, V, pacing
from madang.core.registry import spec
from madang.play.keys import ENTER, QUIT, KeyReader

PROMPT = "▶ "
GOODBYE = "끝! 고맙습니다."
HUMAN = 0
"""The person's seat; bots play every other seat."""


class Quit(Exception):
    """The player pressed ``q``."""


class TerminalSession(Generic[V, S]):
    """A person (seat :data:`HUMAN`) against bots of one level at a session of the game
    :attr:`game`, on a Rich console. A game's subclass draws the table
    (:meth:`draw`, :meth:`settlement`), narrates events (:meth:`describe`) and turns
    keys into moves in the notation (:meth:`human_move`); :meth:`run` plays."""

    game: ClassVar[str]
    """The registry name of the game (:func:`madang.core.registry.spec`)."""
    title: ClassVar[str]
    """What the screen calls the game."""
    names: tuple[str, ...]
    """Per seat, how the table names it (the person's seat first)."""

    def __init__(
        self,
        *,
        level: str = "normal",
        preset: str | None = None,
        rules: Any = None,
        seed: int | None = None,
        budget: Budget | None = None,
        console: Console | None = None,
        keys: KeyReader | None = None,
    ) -> None:
        self.console = console or Console(highlight=False)
        self.keys = keys or KeyReader()
        self.budget = budget or Budget(0.1)
        self.rng = random.Random(seed)
        self.seeded = seed is not None
        """Dealt from ``--seed``: the first 선 too comes from the seed (no 선 뽑기), as at
        a seeded server table."""
        self.log: list[str] = []
        self.session: Session[V, S] = self.open(preset, rules, seed)
        self.bots = {
            seat: SeatBot(make_bot(self.game, level), self.budget)
            for seat in range(self.session.seats)
            if seat != HUMAN
        }
        self.final: list[int] | None = None
        """The match's final totals, once a game has ended it."""
        self.seated()

    def open(self, preset: str | None, rules: Any, seed: int | None) -> Session[V, S]:
        """The game's session under ``preset`` (None: the default), its options changed
        to those of ``rules`` (a rules object of the game, or None), from ``seed``."""
        game = spec(self.game)
        preset = preset or game.presets()[0]
        expected = type(game.rules(preset))
        if rules is not None and type(rules) is not expected:
            raise RuleConfigError(
                f"{self.title} is played under {self.game} rules ({expected.__name__})"
            )
        overrides = None if rules is None else rules.to_dict()
        session: Session[V, S] = game.session(preset, seed, overrides)
        return session

    # what each game provides
    def seated(self) -> None:
        """Called once the session is open and the bots are seated."""

    def before_match(self) -> None:
        """Called once before the first game is shown (Matgo: 선 뽑기)."""

    def draw(self, prompt: str, cursor: int | None = None) -> None:
        """Redraw the screen from the person's view, ``prompt`` on the last line."""
        raise NotImplementedError

    def human_move(self, seat: int) -> str:
        """The person's answer to ``seat``'s question, from the keys, in the notation."""
        raise NotImplementedError

    def describe(self, event: dict[str, Any]) -> tuple[str | None, str | None]:
        """An event as the person's seat sees it: its caption (what just happened,
        large) and its line in the log; None for none."""
        raise NotImplementedError

    def settlement(self) -> None:
        """The finished game's settlement screen."""
        raise NotImplementedError

    def totals_line(self) -> str:
        raise NotImplementedError

    def intro_lines(self) -> list[str]:
        """What the log says before a game's first move (Matgo: how 선 was drawn)."""
        return []

    # shared
    def scores(self) -> list[int]:
        """Each seat's points over the match so far (its final totals once it ended)."""
        return list(self.final if self.final is not None else self.session.series.balances)

    def key(self) -> str:
        """The next key; ``q`` ends the session."""
        k = self.keys.key()
        if k == QUIT:
            raise Quit
        return k

    def choose(self, question: str, options: list[str]) -> int:
        """Ask a numbered question (keys 1, 2 …); return the index of the answer."""
        text = "  /  ".join(f"[b]{i + 1}[/] {o}" for i, o in enumerate(options))
        while True:
            self.draw(f"{question}  {text}")
            k = self.key()
            if k.isdigit() and 1 <= int(k) <= len(options):
                return int(k) - 1

    def narrate(self, events: list[Any]) -> None:
        """Log ``events`` as the person's seat sees them."""
        for seen in self.session.version_events(events, HUMAN):
            big, line = self.describe(seen)
            if big:  # what just happened, large: 뻑!, 쪽!, 뽕! …
                self.log.append(f"[bold reverse] {big} [/]")
            if line:
                self.log.append(line)

    def human_step(self, seat: int) -> list[Any]:
        """Ask the person until its move is one the game takes, and play it: a move
        that is malformed (InvalidActionError) or not legal now (IllegalActionError)
        is said in the log, and changes nothing."""
        s = self.session
        while True:
            move = self.human_move(seat)
            try:
                return s.step(seat, s.string_to_action(move))
            except MadangError as e:
                self.log.append(f"[bold red]{escape(str(e))}[/]")

    def play_one(self) -> None:
        """Play the current game to its settlement screen."""
        s = self.session
        self.log = self.intro_lines()
        self.narrate(s.start_events())
        while not s.over:
            seat = s.pending()[0]
            if seat == HUMAN:
                events = self.human_step(seat)
            else:
                events = s.step(seat, s.bot_move(seat, self.bots[seat], self.rng))
            pace = pacing(s)
            if pace is not None and pace.offering:
                pace.end_offer()  # (the terminal has no pause after a claimable move)
            self.narrate(events)
        self.settlement()

    def advance(self) -> bool:
        """Settle the finished game into the match and deal the next; ``False`` when
        the game ended the match (its totals are :meth:`scores`)."""
        self.final = self.session.match_scores()
        self.session.next_game()
        return self.final is None

    def run(self, games: int | None = None) -> None:
        """Play until ``games`` games are done, the match ends, or ``q``."""
        with self.keys:
            try:
                self.before_match()
                played = 0
                while True:
                    self.play_one()
                    played += 1
                    more = self.advance()
                    self.console.print(self.totals_line())
                    if not more or (games is not None and played >= games):
                        self.console.print(GOODBYE)
                        return
                    self.console.print(PROMPT + "Enter: 다음 판  /  q: 끝내기")
                    while self.key() != ENTER:
                        pass
            except (Quit, EOFError):
                self.console.print(GOODBYE)
