"""A match at a table, whatever the game: games in series, each seat's balance, and the
end of the match asked of the game's rules.

Every :class:`~madang.core.game.Session` keeps one (``session.series``): the session
settles each finished game's payments into it when it deals the next
(:meth:`~madang.core.game.Session.next_game`), and a game whose matches end (mahjong's
East or East–South rounds) says when through
:meth:`~madang.core.game.Session.ends_match`; the match's final totals and the next
match's fresh balances follow from here, not from each game.

>>> m = Match(2)
>>> m.totals([(0, 1, 3, "win")])
[-3, 3]
>>> m.settle([(0, 1, 3, "win")], over=False), m.game_no, m.balances
(False, 2, [-3, 3])
>>> m.settle([(1, 0, 1, "win")], over=True), m.game_no, m.balances
(True, 3, [0, 0])
>>> Match(1)
Traceback (most recent call last):
...
madang.core.errors.RuleConfigError: a match needs two seats or more, not 1
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from madang.core.errors import RuleConfigError

__all__ = ["Match", "Payment"]

Payment = tuple[int, int, int, str]
"""One payment of a game: ``(from, to, points, reason)``."""


@dataclass(slots=True)
class Match:
    """Games in series between ``seats`` seats: the current game's number at the table
    (``game_no``, from 1, counting on across matches) and each seat's balance in points
    over the finished games of the current match."""

    seats: int
    game_no: int = 1
    balances: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if isinstance(self.seats, bool) or not isinstance(self.seats, int) or self.seats < 2:
            raise RuleConfigError(f"a match needs two seats or more, not {self.seats!r}")
        if not self.balances:
            self.balances = [0] * self.seats

    def totals(self, payments: Iterable[Payment]) -> list[int]:
        """The balances with ``payments`` (the current game's) added; the match's
        balances themselves do not change."""
        out = list(self.balances)
        for frm, to, points, _ in payments:
            out[frm] -= points
            out[to] += points
        return out

    def settle(self, payments: Iterable[Payment], *, over: bool) -> bool:
        """A game ended with ``payments``: count them and go on to the next game, which
        begins a new match (balances at zero) when ``over``; returns ``over``."""
        self.balances = [0] * self.seats if over else self.totals(payments)
        self.game_no += 1
        return over

    def clone(self) -> Match:
        """An independent copy."""
        return Match(self.seats, self.game_no, list(self.balances))
