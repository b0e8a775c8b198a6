"""맞고 (matgo) under the game contract (:mod:`madang.core.game`): a table's session
(games in series, the winner deals the next, 나가리 doubles the next) and replay frames.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from madang.core.errors import FairnessError, IllegalActionError
from madang.core.game import BotSeat, GameSpec, Session, check_action, with_overrides
from madang.core.match import Match
from madang.matgo.actions import NUM_ACTIONS
from madang.matgo.rules import RULESET_VERSION
from madang.matgo.view import MatgoPosition, MatgoTableView, MatgoView

if TYPE_CHECKING:
    from madang.matgo.match import MatgoMatch

__all__ = ["SPEC", "MatgoSession", "deal", "fair_deal", "frames", "max_points", "session"]

_FLAT_WINS = frozenset({"chongtong", "sam_ppeok"})
_TIMEOUT_DEFAULTS = frozenset({"go_stop", "chongtong", "join", "shodang"})
"""The questions a timeout answers with the default (스톱, take the 총통; 고스톱's `die`
and accepting a 쇼당), not the bot's."""


class MatgoSession(Session[MatgoView, MatgoTableView]):
    """Matgo games in series (the winner deals the next, 나가리 doubles the next)."""

    ACTION_COUNT: ClassVar[int] = NUM_ACTIONS
    """The action ids of the game (맞고's; 고스톱 adds its own after them)."""

    def __init__(self, match: MatgoMatch) -> None:
        self.game = "matgo"
        self.seats = 2
        self.match = match
        self.series = Match(2)
        self._version = 0  # bumped by every change of the position
        self._public: tuple[int, MatgoPosition] | None = None

    def _public_view(self) -> MatgoPosition:
        """The position's public view, computed once for every seat and the bots."""
        from madang.matgo.view import public_view

        if self._public is None or self._public[0] != self._version:
            self._public = (self._version, public_view(self.match.game))
        return self._public[1]

    @property
    def over(self) -> bool:
        return self.match.game.over

    def pending(self) -> list[int]:
        g = self.match.game
        return [] if g.over else [g.current]

    def question(self, seat: int) -> str:
        return self.match.game.phase.name.lower()

    def legal(self, seat: int) -> list[int]:
        g = self.match.game
        if g.over or g.current != seat:
            return []
        return list(g.legal_actions())

    def step(self, seat: int, action: int) -> list[Any]:
        g = self.match.game
        check_action(action, self.ACTION_COUNT)
        if g.over:
            raise IllegalActionError("the game is over")
        if g.current != seat:
            raise IllegalActionError(f"it is seat {g.current}'s turn, not yours")
        events = g.step(action)
        self._version += 1
        return events

    def action_to_string(self, action: int) -> str:
        from madang.matgo.actions import action_str

        return action_str(action)

    def string_to_action(self, text: str) -> int:
        from madang.matgo.actions import parse_action

        return parse_action(text)

    def default_move(self, seat: int) -> int:
        return self.match.game.default_action()

    def timeout_move(self, seat: int, bot: BotSeat, rng: random.Random) -> int:
        """The bot's card, pick or 국진 count; but 스톱 at 고/스톱 and stop at 총통 (the
        default answers): a timeout never raises the stakes for the player."""
        if self.question(seat) in _TIMEOUT_DEFAULTS:
            return self.default_move(seat)
        return self.bot_move(seat, bot, rng)

    def start_events(self) -> list[Any]:
        return list(self.match.game.events)

    def version_events(self, events: list[Any], seat: int | None) -> list[dict[str, Any]]:
        from madang.matgo.events import redact

        return [redact(e, seat) for e in events]

    def view(self, seat: int | None) -> MatgoView:
        from madang.matgo.cards import MONTH
        from madang.matgo.view import seat_view

        if seat not in (0, 1, None):
            raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
        v = seat_view(self._public_view(), self.match.game, seat)
        m = self.match
        v["match"] = {
            "game_no": self.game_no,
            "balances": list(self.series.balances),
            # 선 결정: the months drawn for the first 선 (each pair: seat 0's, seat 1's; a
            # tie draws again). Months only: the drawn cards are not the deal's.
            "first_draws": (
                [[MONTH[a], MONTH[b]] for a, b in m.first_draws] if m.games_played == 0 else []
            ),
            "first_dealer_rule": m.rules.first_dealer.value,
        }
        return v

    def annotate(self, view: MatgoView, seat: int | None) -> MatgoTableView:
        """The view with, on the seat's turn, its ``legal`` moves in the notation (what
        the board offers) and :func:`madang.matgo.view.help_of` it (piles, progress,
        points, warnings, multipliers in force)."""
        from madang.matgo.view import annotate

        legal = self.legal(seat) if seat is not None else []
        return annotate(view, [self.action_to_string(a) for a in legal])

    def payments(self) -> list[tuple[int, int, int, str]]:
        return [(f, t, p, r) for f, t, p, r in self.match.game.payments]

    def outcome(self) -> dict[str, Any]:
        g = self.match.game
        return {
            "winner": g.winner,
            "points": g.points,
            "reason": g.end_reason,
            "sheet": g.sheet.to_dict() if g.sheet is not None else None,
        }

    def record(self) -> dict[str, Any]:
        from madang.matgo.record import export_record

        return export_record(self.match.game)

    def deal_next(self, new_match: bool) -> None:
        """The next game of the endless match (the winner deals, 나가리 doubles it)."""
        self.match.next_game()
        self._version += 1

    def redeal(self, key: bytes, first_picks: Sequence[Sequence[int]] | None = None) -> None:
        from madang.matgo.fair import fair_first_dealer, fair_game
        from madang.matgo.first_pick import FirstPick

        m = self.match
        if m.game.moves:
            raise IllegalActionError("the game has begun: it cannot be dealt again")
        if first_picks is not None and self.game_no != 1:
            raise IllegalActionError("선 뽑기 chooses the first game's 선 only")
        if first_picks is not None:  # 선 뽑기: the players' picks (docs/fairness.md)
            try:
                m.dealer, m.first_draws = FirstPick(m.rules, key).decide(first_picks)
            except FairnessError as e:
                raise IllegalActionError(str(e)) from None
        elif self.game_no == 1:  # a table's first 선 is drawn too (docs/fairness.md)
            m.dealer, m.first_draws = fair_first_dealer(m.rules, key)
        m.game = fair_game(m.rules, key, dealer=m.dealer, carry=m.carry)
        self._version += 1

    def resampled(self, seat: int | None, rng: random.Random) -> MatgoSession:
        new = copy.copy(self)
        new.match = self.match.clone()
        new.match.game.resample_hidden(seat, rng)
        new.series = self.series.clone()
        new._public = None
        return new

    def win_tags(self) -> list[str]:
        """The winner's score sheet: ``go_N`` for N 고 called, then each multiplier
        (``heundeulgi`` for 흔들기 or 폭탄, ``pibak``, ``gwangbak``, ``meongtta``,
        ``gobak`` …), or the flat win's name (``chongtong``, ``sam_ppeok``).

        >>> deal(None, 1).win_tags()
        []
        """
        g = self.match.game
        sheet = g.sheet
        if g.winner is None or sheet is None:
            return []
        tags = [f"go_{sheet.go}"] if sheet.go else []
        tags += [i.name for i in sheet.items if i.name in _FLAT_WINS]
        tags += [m.name for m in sheet.multipliers if m.name != "go"]
        return tags


def session(preset_name: str, seed: int | None, overrides: object = None) -> MatgoSession:
    """A match at a table under a preset (some options changed), from a seed."""
    from madang.matgo.match import MatgoMatch
    from madang.matgo.rules import preset

    return MatgoSession(MatgoMatch(with_overrides(preset(preset_name), overrides), seed=seed))


def deal(rules: Any, seed: int) -> MatgoSession:
    """The game of the deal ``seed``: the deck shuffled by it, its lowest bit the dealer
    (``rules``: a :class:`~madang.matgo.rules.MatgoRules`, None for the defaults)."""
    from madang.matgo.match import MatgoMatch

    dealer = seed & 1
    return MatgoSession(MatgoMatch(rules, seed=seed, dealer=dealer, first_seed=seed))


def frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The replay frames of a Matgo record (both hands shown)."""
    from madang.matgo.actions import parse_action
    from madang.matgo.cards import codes_of
    from madang.matgo.events import event_to_dict
    from madang.matgo.record import load_record
    from madang.matgo.view import annotate, view

    state, moves = load_record(record)

    def frame(move: str | None, events: list[Any]) -> dict[str, Any]:
        v: dict[str, Any] = {
            **annotate(view(state, None)),
            "hands": [codes_of(state.hands[0]), codes_of(state.hands[1])],
        }
        return {"move": move, "events": [event_to_dict(e) for e in events], "view": v}

    out = [frame(None, list(state.events))]
    for m in moves:
        out.append(frame(m, state.step(parse_action(m))))
    return out


def fair_deal(
    rules: Any, key: bytes, game_no: int, first_picks: Sequence[Sequence[int]] | None = None
) -> dict[str, Any]:
    """What a deal key fixes of a game (``docs/fairness.md``; :mod:`madang.matgo.fair`)."""
    from madang.matgo.fair import fair_deal as deal_of_key

    return deal_of_key(rules, key, game_no, first_picks)


def max_points(rules: Any) -> int:
    """A bound on the points one game under ``rules`` moves (the contract's ``max_points``;
    :func:`madang.matgo.scoring.max_points`)."""
    from madang.matgo.scoring import max_points as bound

    return bound(rules)


SPEC = GameSpec(
    name="matgo",
    seats=2,
    rules_module="madang.matgo.rules",
    rating="pairwise",
    ruleset_version=RULESET_VERSION,
    session=session,
    frames=frames,
    cli="madang.matgo.cli",
    terminal="madang.play.matgo_tui:MatgoTerminal",
    deal=deal,
    bots="madang.bots.matgo_bots",
    encoding="madang.matgo.encode:MatgoEncoding",
    fair_deal=fair_deal,
    first_pick="madang.matgo.first_pick:FirstPick",
    max_points=max_points,
)
