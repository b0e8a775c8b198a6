"""What the terminal games share: the console, the keys, the session loop, questions."""

from __future__ import annotations

import random
from typing import Any

from rich.console import Console

from madang.bots.base import Budget
from madang.play.keys import ENTER, QUIT, KeyReader

PROMPT = "▶ "
GOODBYE = "끝! 고맙습니다."


class Quit(Exception):
    """The player pressed ``q``."""


class TerminalSession:
    """A person against bots on a Rich console; subclasses draw one game's table."""

    def __init__(
        self,
        *,
        level: str = "normal",
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
        self.log: list[str] = []
        self.start(level, rules, seed)

    # what each game provides
    def start(self, level: str, rules: Any, seed: int | None) -> None:
        """Seat the bots of ``level`` and begin the match under ``rules`` (None: the
        defaults) from ``seed``."""
        raise NotImplementedError

    def draw(self, state: Any, prompt: str, cursor: int | None = None) -> None:
        raise NotImplementedError

    def play_one(self) -> None:
        """Play one game (hand) to its settlement screen."""
        raise NotImplementedError

    def advance(self) -> bool:
        """Settle the finished game into the match; ``False`` when the match is over."""
        raise NotImplementedError

    def totals_line(self) -> str:
        raise NotImplementedError

    # shared
    def key(self) -> str:
        """The next key; ``q`` ends the session."""
        k = self.keys.key()
        if k == QUIT:
            raise Quit
        return k

    def choose(self, state: Any, question: str, options: list[str]) -> int:
        """Ask a numbered question (keys 1, 2 …); return the index of the answer."""
        text = "  /  ".join(f"[b]{i + 1}[/] {o}" for i, o in enumerate(options))
        while True:
            self.draw(state, f"{question}  {text}")
            k = self.key()
            if k.isdigit() and 1 <= int(k) <= len(options):
                return int(k) - 1

    def run(self, games: int | None = None) -> None:
        """Play until ``games`` games are done, the match ends, or ``q``."""
        with self.keys:
            try:
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
