"""A Matgo match: games in series with the dealer rule, the 나가리 carry and a ledger.

>>> m = MatgoMatch(seed=5, stake=100)
>>> while m.games_played < 3:
...     g = m.game
...     while not g.over:
...         _ = g.step(g.default_action())
...     _ = m.next_game()
>>> sum(m.balances)
0
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

from madang.core.errors import IllegalActionError, RecordError
from madang.matgo.cards import MONTH, NUM_MONTH_CARDS
from madang.matgo.engine import MatgoState, new_game
from madang.matgo.record import export_record
from madang.matgo.rules import FirstDealer, MatgoRules


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One payment of a match: ``points`` at the table's ``stake`` make ``amount``."""

    game: int
    payer: int
    payee: int
    points: int
    amount: int
    reason: str


def draw_first_dealer(rules: MatgoRules, rng: random.Random) -> tuple[int, list[tuple[int, int]]]:
    """선 of the first game: each player draws a card, the higher month wins (밤일낮장:
    the lower); a tie draws again. Returns the dealer and the draws (card ids)."""
    draws: list[tuple[int, int]] = []
    while True:
        a, b = rng.sample(range(NUM_MONTH_CARDS), 2)
        draws.append((a, b))
        dealer = dealer_of_draw(rules, a, b)
        if dealer is not None:
            return dealer, draws


def dealer_of_draw(rules: MatgoRules, a: int, b: int) -> int | None:
    """The seat that becomes 선 when seat 0 draws card ``a`` and seat 1 card ``b`` (the
    higher month, or the lower with 밤일낮장); None for a tie (same month: draw again).

    >>> dealer_of_draw(MatgoRules(), 0, 47), dealer_of_draw(MatgoRules(), 0, 1)
    (1, None)
    """
    ma, mb = MONTH[a], MONTH[b]
    if ma == mb:
        return None
    high_wins = rules.first_dealer is FirstDealer.HIGH
    return 0 if (ma > mb) == high_wins else 1


class MatgoMatch:
    """Games in series between seats 0 and 1; the winner of a game deals the next.

    After 나가리 the dealer stays and the next game's score is doubled (stacking); a
    game with a winner uses the carry up. A redeal (four of a month on the floor, or two
    총통) changes nothing. Every payment, instant ones included, goes to the ledger at
    the table's ``stake`` per point; balances change by nothing else. ``first_seed``
    fixes the first game's deck (a duplicate deal of the arena); later games' decks
    come from ``seed``.
    """

    def __init__(
        self,
        rules: MatgoRules | None = None,
        *,
        seed: int | None = None,
        stake: int = 1,
        dealer: int | None = None,
        first_seed: int | None = None,
    ) -> None:
        if not isinstance(stake, int) or isinstance(stake, bool) or stake < 1:
            raise RecordError(f"stake must be a positive integer, not {stake!r}")
        self.rules = rules or MatgoRules()
        self.stake = stake
        self.rng = random.Random(seed)
        self.first_draws: list[tuple[int, int]] = []
        if dealer is None:
            dealer, self.first_draws = draw_first_dealer(self.rules, self.rng)
        elif dealer not in (0, 1):
            raise RecordError(f"dealer must be 0 or 1, not {dealer!r}")
        self.dealer = dealer
        self.carry = 1
        self.ledger: list[LedgerEntry] = []
        self.balances = [0, 0]
        self.records: list[dict[str, Any]] = []
        self.games_played = 0
        self.game: MatgoState = self._deal(first_seed)

    def _deal(self, seed: int | None = None) -> MatgoState:
        """The next game, from ``seed`` (None: a seed drawn from the match's)."""
        if seed is None:
            seed = self.rng.getrandbits(64)
        return new_game(self.rules, seed=seed, dealer=self.dealer, carry=self.carry)

    def clone(self) -> MatgoMatch:
        """An independent copy: the current game cloned, the ledger, balances and
        records copied as lists (their entries are immutable), the seed stream too."""
        new = copy.copy(self)
        new.rng = copy.copy(self.rng)
        new.first_draws = list(self.first_draws)
        new.ledger = list(self.ledger)
        new.balances = list(self.balances)
        new.records = list(self.records)
        new.game = self.game.clone()
        return new

    def next_game(self) -> MatgoState:
        """Settle the finished game into the ledger and deal the next one."""
        g = self.game
        if not g.over:
            raise IllegalActionError("the current game is not over")
        n = self.games_played
        for payer, payee, points, reason in g.payments:
            amount = points * self.stake
            self.ledger.append(LedgerEntry(n, payer, payee, points, amount, reason))
            self.balances[payer] -= amount
            self.balances[payee] += amount
        self.records.append(export_record(g))
        self.games_played += 1
        if g.end_reason == "redeal":
            pass
        elif g.winner is None:
            self.carry *= 2
        else:
            self.dealer = g.winner
            self.carry = 1
        self.game = self._deal()
        return self.game
