"""고스톱 (gostop) under the game contract (:mod:`madang.core.game`): a table's session
of three seats (games in series: the winner deals the next, 나가리 carries) and replay
frames.

The game runs on the family's engine (:mod:`madang.matgo.engine`), so the session is
Matgo's (:class:`~madang.matgo.game.MatgoSession`: the same int action ids and
notation, questions, default and timeout answers, events, help and re-dealt worlds)
over a match of N seats (:class:`GostopMatch`). Each seat's view shows only its own
hand (:mod:`madang.matgo.view`).

With four seats (``players: 4``, 광팔기) one sits each game out: the match carries
``no_die`` (연사 금지) from game to game beside 선 and the carry, the join/die answers
are questions of the session like any other, and the sitter's cards are in no view.
Deals from a fairness key (``redeal``) are :mod:`madang.gostop.fair`'s.

A built-in game (:mod:`madang.core.registry`): the server seats three at a table and the
browser plays it on Matgo's board for N seats (``docs/client.md``). Each won game is
rated by placement (:meth:`GostopSession.placement_scores`).
Its bots (:mod:`madang.bots.gostop_bots`), terminal play (:mod:`madang.play.gostop_tui`)
and RL encoding (:mod:`madang.gostop.encode`) are named here.

>>> s = session("default", 1)
>>> s.seats, len(s.view(0)["hand"]), "hand" in s.view(None), s.view(0)["hand_counts"]
(3, 7, False, [7, 7, 7])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from madang.core.errors import IllegalActionError, RecordError, RuleConfigError
from madang.core.game import GameSpec, with_overrides
from madang.core.match import Match
from madang.gostop.record import RULESET_VERSION, export_record
from madang.gostop.record import next_game as next_of
from madang.gostop.rules import GostopRules
from madang.matgo.actions import NUM_FAMILY_ACTIONS
from madang.matgo.cards import MONTH, NUM_MONTH_CARDS
from madang.matgo.engine import MatgoState, new_game
from madang.matgo.game import MatgoSession
from madang.matgo.match import MatgoMatch
from madang.matgo.rules import FirstDealer
from madang.matgo.view import GostopTableView, GostopView, LoserSheet, MatgoView

__all__ = [
    "SPEC",
    "GostopMatch",
    "GostopSession",
    "deal",
    "draw_first_dealer",
    "fair_deal",
    "frames",
    "loser_sheets",
    "max_points",
]


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

    rules: GostopRules

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
        self.no_die: list[int] = []
        self.ledger = []
        self.balances = [0] * rules.players
        self.records = []
        self.games_played = 0
        self.game: MatgoState = self._deal(first_seed)

    def clone(self) -> GostopMatch:
        new = MatgoMatch.clone(self)
        assert isinstance(new, GostopMatch)
        new.first_rounds = [list(r) for r in self.first_rounds]
        new.no_die = list(self.no_die)
        return new

    def _deal(self, seed: int | None = None) -> MatgoState:
        """The next game, from ``seed`` (None: a seed drawn from the match's), with the
        match's 선, carry and ``no_die``."""
        if seed is None:
            seed = self.rng.getrandbits(64)
        no_die = getattr(self, "no_die", [])  # (the first deal comes before it is set)
        return new_game(self.rules, seed=seed, dealer=self.dealer, carry=self.carry,
                        no_die=no_die)  # fmt: skip

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
        self.no_die = after["no_die"]
        self.game = self._deal()
        return self.game


class GostopSession(MatgoSession):
    """고스톱 games in series at a table of ``rules.players`` seats."""

    match: GostopMatch
    ACTION_COUNT = NUM_FAMILY_ACTIONS  # join, die and the 쇼당 moves beside 맞고's

    def __init__(self, match: GostopMatch) -> None:
        super().__init__(match)
        self.game = "gostop"
        self.seats = match.rules.players
        self.series = Match(self.seats)

    def view(self, seat: int | None) -> GostopView:
        from madang.matgo.view import check_seat, is_gostop_view, seat_view

        check_seat(seat, self.seats)
        v = seat_view(self._public_view(), self.match.game, seat)
        if not is_gostop_view(v):  # (never: 고스톱's rules seat three or more)
            raise RuleConfigError(f"고스톱 is played by three or more, not {self.seats}")
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

    def annotate(self, view: MatgoView, seat: int | None) -> GostopTableView:
        """Matgo's help (:meth:`MatgoSession.annotate`) and, once a 스톱 is settled, each
        loser's sheet (:func:`loser_sheets`): every loser pays with its own 박."""
        from madang.matgo.view import is_gostop_table_view

        out = super().annotate(view, seat)
        if not is_gostop_table_view(out):
            raise RuleConfigError("not a view of 고스톱 (three seats or more)")
        sheets = loser_sheets(self.match.game)
        if sheets:
            out["sheets"] = sheets
        return out

    def placement_scores(self) -> list[int] | None:
        """Every won 고스톱 game is rated on its own by placement (``docs/server.md``,
        Ratings): each seat's net points in it (the winner first, then the loser who paid
        less); a 나가리 is not rated."""
        if not self.over or self.match.game.winner is None:
            return None
        return Match(self.seats).totals(self.payments())

    def record(self) -> dict[str, Any]:
        return export_record(self.match.game)

    def outcome(self) -> dict[str, Any]:
        """:meth:`MatgoSession.outcome`, with who sat out and who sold (광팔기: seats, or
        None)."""
        g = self.match.game
        out = super().outcome()
        out["sitting_out"] = None if g.sitter < 0 else g.sitter
        out["seller"] = None if g.seller < 0 else g.seller
        return out

    def redeal(self, key: bytes, first_picks: Sequence[Sequence[int]] | None = None) -> None:
        """Deal the current game again from a fairness deal key, before any move of it
        (``docs/fairness.md``, :mod:`madang.gostop.fair`): the deck, and in a table's
        first game its 선 drawn for every seat; the carry and ``no_die`` stay the match's.
        고스톱 has no 선 뽑기: ``first_picks`` is an IllegalActionError."""
        from madang.gostop.fair import fair_deck, fair_first_dealer

        m = self.match
        if m.game.moves:
            raise IllegalActionError("the game has begun: it cannot be dealt again")
        if first_picks is not None:
            raise IllegalActionError("고스톱 has no 선 뽑기: its first 선 is drawn from the key")
        if self.game_no == 1:
            m.dealer, m.first_rounds = fair_first_dealer(m.rules, key)
        m.game = new_game(
            m.rules, deck=fair_deck(m.rules, key), dealer=m.dealer, carry=m.carry,
            no_die=m.no_die,
        )  # fmt: skip
        self._version += 1


def loser_sheets(state: MatgoState) -> list[LoserSheet]:
    """The score sheets of a 스톱 win, one per loser (``loser``: its seat) in turn order
    after the winner; [] while the game runs, after 나가리, or for a flat win (3뻑, 총통,
    whose one ``sheet`` every loser pays)."""
    w = state.winner
    if w is None or len(state.sheets) != len(state.after[w]):
        return []
    return [
        {"loser": o, **sheet.to_dict()}
        for o, sheet in zip(state.after[w], state.sheets, strict=True)
    ]


def max_points(rules: Any) -> int:
    """A bound on the points one 고스톱 game under ``rules`` moves, every payment
    together, with nothing carried (the contract's ``max_points``; the server caps a
    table's stake by it): each loser's share bounded as Matgo's
    (:func:`madang.matgo.scoring.max_points`: the deck's largest 족보 plus the most 고,
    every 고, 흔들기 and 박 doubling), times the losers and ``gobak_multiplier`` (독박
    moves the shares to one payer), plus the larger flat win (총통, 3뻑) from each loser
    and every seat's instant payments (첫뻑, 연뻑, 3연뻑 ×1/×2/×3 and 첫따닥 ×1 of
    ``first_bbeok_points``, from each other seat). At four seats (광팔기) three play, so
    there are two losers as at three, plus the 광값 the sitter is paid: at most its seven
    cards, doubled, from each of the three players (``gwang_payers`` ``"all"``).

    >>> max_points(GostopRules())
    4849800
    >>> max_points(GostopRules(players=4)) - max_points(GostopRules())
    42
    """
    from madang.matgo.scoring import MAX_GO, MAX_SHAKES, best_jokbo_points

    playing: int = min(rules.players, 3)  # 광팔기: one of four sits out
    others = playing - 1
    share = (best_jokbo_points(rules.deck_mask) + MAX_GO) << (MAX_GO - 2 + MAX_SHAKES + 4)
    flat = max(rules.chongtong_points, rules.three_bbeok_points)
    instant = playing * others * rules.first_bbeok_points * (1 + 2 + 3 + 1)
    gwang = 0 if rules.players == playing else 3 * 2 * 7 * rules.gwang_price
    return int(others * (share * rules.gobak_multiplier + flat) + instant + gwang)


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


def fair_deal(
    rules: Any, key: bytes, game_no: int, first_picks: Sequence[Sequence[int]] | None = None
) -> dict[str, Any]:
    """What a deal key fixes of a game (``docs/fairness.md``; :mod:`madang.gostop.fair`)."""
    from madang.gostop.fair import fair_deal as deal_of_key

    return deal_of_key(rules, key, game_no, first_picks)


def frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The replay frames of a 고스톱 record (every hand shown)."""
    from madang.gostop.record import load_record
    from madang.matgo.actions import parse_action
    from madang.matgo.cards import codes_of
    from madang.matgo.events import event_to_dict
    from madang.matgo.view import annotate, view

    state, moves = load_record(record)

    def frame(move: str | None, events: list[Any]) -> dict[str, Any]:
        v: dict[str, Any] = {
            **annotate(view(state, None)),
            "hands": [codes_of(h) for h in state.hands],
        }
        sheets = loser_sheets(state)
        if sheets:
            v["sheets"] = sheets
        return {"move": move, "events": [event_to_dict(e) for e in events], "view": v}

    out = [frame(None, list(state.events))]
    for m in moves:
        out.append(frame(m, state.step(parse_action(m))))
    return out


SPEC = GameSpec(
    name="gostop",
    seats=3,
    rules_module="madang.gostop.rules",
    rating="placement",  # each won game by itself (GostopSession.placement_scores)
    ruleset_version=RULESET_VERSION,
    session=session,
    frames=frames,
    cli="madang.gostop.cli",
    deal=deal,
    fair_deal=fair_deal,
    max_points=max_points,
    bots="madang.bots.gostop_bots",
    terminal="madang.play.gostop_tui:GostopTerminal",
    encoding="madang.gostop.encode:GostopEncoding",
)
