"""고스톱 (gostop) under the game contract (:mod:`madang.core.game`): a table's session
of three seats (games in series: the winner deals the next, 나가리 carries) and replay
frames.

The game runs on the family's engine (:mod:`madang.matgo.engine`), so the session is
Matgo's (:class:`~madang.matgo.game.MatgoSession`: the same int action ids and
notation, questions, default and timeout answers, events, help and re-dealt worlds)
over a match of N seats (:class:`GostopMatch`). Each seat's view shows only its own
hand (:mod:`madang.matgo.view`).

Not registered among the built-in games yet (``docs/rules/gostop.md``): the browser has
no board of three seats, so the lobby would list a game nobody can play. Tests register
it (:func:`madang.core.registry.register_spec`). Its bots (:mod:`madang.bots.gostop_bots`),
terminal play (:mod:`madang.play.gostop_tui`) and RL encoding
(:mod:`madang.gostop.encode`) are named here. Not built yet: deals from a fairness key
(``redeal``) and 4 seats with 광팔기.

>>> s = session("default", 1)
>>> s.seats, len(s.view(0)["hand"]), "hand" in s.view(None), s.view(0)["hand_counts"]
(3, 7, False, [7, 7, 7])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from madang.core.errors import IllegalActionError, RecordError
from madang.core.game import GameSpec, with_overrides
from madang.core.match import Match
from madang.gostop.record import RULESET_VERSION, export_record
from madang.gostop.record import next_game as next_of
from madang.gostop.rules import GostopRules
from madang.matgo.cards import MONTH, NUM_MONTH_CARDS
from madang.matgo.engine import MatgoState
from madang.matgo.game import MatgoSession
from madang.matgo.match import MatgoMatch
from madang.matgo.rules import FirstDealer

__all__ = ["SPEC", "GostopMatch", "GostopSession", "deal", "draw_first_dealer", "frames"]


def draw_first_dealer(rules: GostopRules, rng: random.Random) -> tuple[int, list[list[int | None]]]:
    """선 of a session's first game (``gostop.md`` §2): each seat draws a card of the
    months, the highest month wins (밤일낮장, ``first_dealer: "night_low"``: the lowest);
    the seats tied for best draw again among themselves. Returns the dealer and the
    months drawn, a list per round indexed by seat (None: not drawing that round).

    >>> draw_first_dealer(GostopRules(), random.Random(3))[0] in (0, 1, 2)
    True
    """
    sign = 1 if rules.first_dealer is FirstDealer.HIGH else -1
    drawing = list(range(rules.players))
    rounds: list[list[int | None]] = []
    while True:
        cards = rng.sample(range(NUM_MONTH_CARDS), len(drawing))
        months: list[int | None] = [None] * rules.players
        for seat, card in zip(drawing, cards, strict=True):
            months[seat] = MONTH[card]
        rounds.append(months)
        best = max(sign * MONTH[c] for c in cards)
        drawing = [s for s, c in zip(drawing, cards, strict=True) if sign * MONTH[c] == best]
        if len(drawing) == 1:
            return drawing[0], rounds


class GostopMatch(MatgoMatch):
    """고스톱 games in series among ``rules.players`` seats: after a won game the winner
    deals, after 나가리 선 stays or passes (``nagari_dealer``) and the carry doubles or
    stacks (``nagari_carry``), a redeal changes nothing (:func:`madang.gostop.record.next_game`).
    ``first_seed`` fixes the first game's deck; later decks come from ``seed``."""

    def __init__(
        self,
        rules: GostopRules,
        *,
        seed: int | None = None,
        dealer: int | None = None,
        first_seed: int | None = None,
    ) -> None:
        self.rules = rules
        self.stake = 1
        self.rng = random.Random(seed)
        self.first_rounds: list[list[int | None]] = []
        self.first_draws = []  # Matgo's pairs of cards; 고스톱's draws are first_rounds
        if dealer is None:
            dealer, self.first_rounds = draw_first_dealer(rules, self.rng)
        elif type(dealer) is not int or not 0 <= dealer < rules.players:
            raise RecordError(
                f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer!r}"
            )
        self.dealer = dealer
        self.carry = 1
        self.ledger = []
        self.balances = [0] * rules.players
        self.records = []
        self.games_played = 0
        self.game: MatgoState = self._deal(first_seed)

    def clone(self) -> GostopMatch:
        new = MatgoMatch.clone(self)
        assert isinstance(new, GostopMatch)
        new.first_rounds = [list(r) for r in self.first_rounds]
        return new

    def next_game(self) -> MatgoState:
        """Keep the finished game's record and deal the next (the session's generic
        :class:`~madang.core.match.Match` keeps the balances)."""
        g = self.game
        after = next_of(g)
        if after is None:
            raise IllegalActionError("the current game is not over")
        self.records.append(export_record(g))
        self.games_played += 1
        self.dealer, self.carry = after["dealer"], after["carry"]
        self.game = self._deal()
        return self.game


class GostopSession(MatgoSession):
    """고스톱 games in series at a table of ``rules.players`` seats."""

    match: GostopMatch

    def __init__(self, match: GostopMatch) -> None:
        super().__init__(match)
        self.game = "gostop"
        self.seats = match.rules.players
        self.series = Match(self.seats)

    def view(self, seat: int | None) -> dict[str, Any]:
        from madang.matgo.view import check_seat, seat_view

        check_seat(seat, self.seats)
        v = seat_view(self._public_view(), self.match.game, seat)
        m = self.match
        v["match"] = {
            "game_no": self.game_no,
            "balances": list(self.series.balances),
            # 선 결정: per round the months each seat drew (None: not drawing; the seats
            # tied for best draw again). Months only: the drawn cards are not the deal's.
            "first_draws": m.first_rounds if m.games_played == 0 else [],
            "first_dealer_rule": m.rules.first_dealer.value,
        }
        return v

    def record(self) -> dict[str, Any]:
        return export_record(self.match.game)

    def redeal(self, key: bytes, first_picks: Sequence[Sequence[int]] | None = None) -> None:
        """Not built yet: 고스톱 has no deals from a fairness key (``docs/fairness.md``)."""
        raise IllegalActionError("gostop cannot deal from a fairness key yet")


def session(preset_name: str, seed: int | None, overrides: object = None) -> GostopSession:
    """A match at a table under a preset (some options changed), from a seed."""
    from madang.gostop.rules import preset

    rules = with_overrides(preset(preset_name), overrides)
    return GostopSession(GostopMatch(rules, seed=seed))


def deal(rules: Any, seed: int) -> GostopSession:
    """The game of the deal ``seed``: the deck shuffled by it, 선 the seed modulo the
    seats (``rules``: a :class:`~madang.gostop.rules.GostopRules`, None for the defaults)."""
    rules = rules or GostopRules()
    dealer = seed % rules.players
    return GostopSession(GostopMatch(rules, seed=seed, dealer=dealer, first_seed=seed))


def frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The replay frames of a 고스톱 record (every hand shown)."""
    from madang.gostop.record import load_record
    from madang.matgo.actions import parse_action
    from madang.matgo.cards import codes_of
    from madang.matgo.events import event_to_dict
    from madang.matgo.view import annotate, view

    state, moves = load_record(record)

    def frame(move: str | None, events: list[Any]) -> dict[str, Any]:
        v = annotate(view(state, None))
        v["hands"] = [codes_of(h) for h in state.hands]
        return {"move": move, "events": [event_to_dict(e) for e in events], "view": v}

    out = [frame(None, list(state.events))]
    for m in moves:
        out.append(frame(m, state.step(parse_action(m))))
    return out


SPEC = GameSpec(
    name="gostop",
    seats=3,
    rules_module="madang.gostop.rules",
    rating="placement",  # for now: the server's ratings of 3 seats come with its step
    ruleset_version=RULESET_VERSION,
    session=session,
    frames=frames,
    cli="madang.gostop.cli",
    deal=deal,
    bots="madang.bots.gostop_bots",
    terminal="madang.play.gostop_tui:GostopTerminal",
    encoding="madang.gostop.encode:GostopEncoding",
)
