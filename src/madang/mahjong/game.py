"""마작 (mahjong) under the game contract (:mod:`madang.core.game`): a table's session
(hands in series, a new match after the last) with the offer after every discard, and
replay frames.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any, cast

from madang.core.errors import FairnessError, IllegalActionError, InvalidActionError
from madang.core.game import BotSeat, GameSpec, Session, check_action, with_overrides
from madang.core.match import Match
from madang.mahjong.rules import RULESET_VERSION
from madang.mahjong.view import MahjongTableView, MahjongView

__all__ = [
    "SPEC",
    "MahjongSession",
    "deal",
    "fair_deal",
    "frames",
    "max_points",
    "session",
    "unit_points",
]


class MahjongSession(Session[MahjongView, MahjongTableView]):
    """Mahjong hands in series; a new match (from a fresh seed) after the last hand.

    ``offers``: whether a discard or 가깡 makes an offer (the room's pause: the session
    is :class:`~madang.core.game.Pacing`); the arena's sessions make none.
    """

    offering: bool = False
    """Whether the last step made an offer (until :meth:`end_offer`)."""

    def __init__(
        self, rules: Any, seed: int | None, *, first_seed: int | None = None, offers: bool = True
    ) -> None:
        self.game = "mahjong"
        self.seats = 4
        self.rules = rules
        self.rng = random.Random(seed)
        self.series = Match(4)
        self.offers = offers
        self._new_match(first_seed)

    def _new_match(self, first_seed: int | None = None) -> None:
        from madang.mahjong.engine import MahjongMatch

        seed = self.rng.getrandbits(64) if first_seed is None else first_seed
        self.match = MahjongMatch(self.rules, seed=seed, first_seed=first_seed)

    @property
    def state(self) -> Any:
        return self.match.hand

    @property
    def over(self) -> bool:
        return bool(self.match.hand.over)

    def pending(self) -> list[int]:
        st = self.match.hand
        return [] if st.over else list(st.pending)

    def public_pending(self) -> list[int]:
        from madang.mahjong.state import PHASE_DISCARD

        st = self.match.hand
        return list(st.pending) if st.phase == PHASE_DISCARD and not st.over else []

    def question(self, seat: int) -> str:
        return str(self.match.hand.phase)

    def legal(self, seat: int) -> list[int]:
        from madang.mahjong.engine import legal_actions

        return [a.code for a in legal_actions(self.match.hand, seat)]

    def step(self, seat: int, action: int) -> list[Any]:
        from madang.mahjong.engine import legal_actions, offered, step
        from madang.mahjong.state import ACTION_FORMS, PHASE_DISCARD, act

        check_action(action, len(ACTION_FORMS))
        if not isinstance(seat, int) or not 0 <= seat < 4:
            raise InvalidActionError(f"seat must be 0-3, not {seat!r}")
        move = act(seat, *ACTION_FORMS[action])
        st = self.match.hand
        offer = None
        if (
            self.offers
            and st.phase == PHASE_DISCARD
            and move.verb in ("discard", "kakan")
            and move in legal_actions(st, seat)
        ):
            offer = offered(st, move)
        events = step(st, move)
        if offer is not None:
            self._offer = offer
            self.offering = True
        return events

    def action_to_string(self, action: int) -> str:
        from madang.mahjong.state import ACTION_FORMS, act

        return str(act(0, *ACTION_FORMS[check_action(action, len(ACTION_FORMS))]))

    def string_to_action(self, text: str) -> int:
        from madang.mahjong.state import Action

        words = text.split() if isinstance(text, str) else []
        if words and words[0].isdigit():
            raise InvalidActionError("send the move without a seat number")
        return Action.parse(text, seat=0).code

    def window(self) -> list[int]:
        from madang.mahjong.state import PHASE_CLAIM, PHASE_ROB

        st = self.match.hand
        return list(st.pending) if st.phase in (PHASE_CLAIM, PHASE_ROB) else []

    def offered_view(self, seat: int | None) -> MahjongTableView:
        """The offer as the table shows it to a seat not asked (or a spectator), with
        the discard help of that moment."""
        st = self._offer if self.offering else self.match.hand
        return self._help(self._view_of(st, seat), st, seat)

    def split_offer(self, events: list[Any]) -> tuple[list[Any], list[Any]]:
        now: list[Any] = []
        later: list[Any] = []
        for e in events:
            (now if e["type"] in _OFFER_NOW else later).append(e)
        return now, later

    def end_offer(self) -> None:
        self.offering = False

    def default_move(self, seat: int) -> int:
        from madang.mahjong.engine import default_action

        return default_action(self.match.hand, seat).code

    def timeout_move(self, seat: int, bot: BotSeat, rng: random.Random) -> int:
        """Never a claim, a kan or a declaration (the rules' defaults), and no win but a
        declared hand's: a seat under 엎어/불러 answers 쏘아 on its winning tile (올라 on
        its turn), since its hand cannot change (``docs/rules/mahjong.md``, Timeouts).
        Otherwise in a claim window ``pass``; on the seat's turn the plain discard the
        bot picks."""
        from madang.mahjong.engine import legal_actions
        from madang.mahjong.state import PHASE_DISCARD

        st = self.match.hand
        if st.declared[seat]:
            wins = [a for a in legal_actions(st, seat) if a.verb in ("ron", "tsumo")]
            if wins:
                return wins[0].code
        if st.phase != PHASE_DISCARD:
            return self.default_move(seat)
        legal = legal_actions(st, seat)
        discards = [a.code for a in legal if a.verb == "discard" and not a.declare]
        return self.bot_choice(seat, bot, rng, discards)

    def auto_move(self, seat: int) -> int | None:
        """A declared (엎어/불러) hand on its turn that cannot win on its drawn tile
        discards it: its only legal move."""
        from madang.mahjong.engine import legal_actions
        from madang.mahjong.state import PHASE_DISCARD

        st = self.match.hand
        if st.over or st.phase != PHASE_DISCARD or seat not in st.pending:
            return None
        if not st.declared[seat]:
            return None
        legal = legal_actions(st, seat)
        return legal[0].code if len(legal) == 1 and legal[0].verb == "discard" else None

    def start_events(self) -> list[Any]:
        return list(self.match.hand.deal_events)

    def version_events(self, events: list[Any], seat: int | None) -> list[dict[str, Any]]:
        from madang.mahjong.events import redact_all

        return redact_all(events, seat)

    def view(self, seat: int | None) -> MahjongView:
        return self._view_of(self.match.hand, seat)

    def annotate(self, view: MahjongView, seat: int | None) -> MahjongTableView:
        """The view with the seat's discard help
        (:func:`madang.mahjong.view.discard_help`: on its turn, every discard that
        leaves the hand ready, its waits, and 엎어/불러)."""
        return self._help(view, self.match.hand, seat)

    @staticmethod
    def _help(view: MahjongView, st: Any, seat: int | None) -> MahjongTableView:
        """``view`` (of ``st``) with what the board offers a person, added in place: the
        seat's ``legal_actions`` in the notation and its discard ``help``."""
        from madang.mahjong.engine import legal_actions
        from madang.mahjong.view import discard_help

        out = cast(MahjongTableView, view)  # the same dict, which the lines below complete
        out["legal_actions"] = [str(a) for a in legal_actions(st, seat)] if seat is not None else []
        out["help"] = discard_help(st, seat) if seat is not None else None
        return out

    def _view_of(self, st: Any, seat: int | None) -> MahjongView:
        """The engine's view of ``st`` (the hand, or an offer of it) with the match."""
        from madang.mahjong.view import view

        v = view(st, seat)
        m = self.match
        repeat = 0  # 연장: hands in a row that this dealer has dealt before this one
        for h in reversed(m.hands[:-1]):
            if h.dealer != st.dealer or h.round_wind != st.round_wind:
                break
            repeat += 1
        # the finished hand's payments, not yet in the match, included
        scores = self.series.totals(st.result.payments if st.result is not None else ())
        v["match"] = {
            "scores": scores,
            "hand_no": len(m.hands),
            "kyoku": m.passes % 4 + 1,
            "repeat": repeat,
            "rounds": m.rules.rounds,
        }
        return v

    def payments(self) -> list[tuple[int, int, int, str]]:
        res = self.match.hand.result
        return [] if res is None else [(f, t, p, r) for f, t, p, r in res.payments]

    def outcome(self) -> dict[str, Any]:
        res = self.match.hand.result
        winners = [] if res is None else [w.seat for w in res.winners]
        points = sum(p[2] for p in self.payments())
        return {
            "winner": winners[0] if winners else None,
            "winners": winners,
            "points": points,
            "reason": "nagari" if res is None or res.nagari else "win",
            "sheet": self.view(None)["result"],
        }

    def record(self) -> dict[str, Any]:
        from madang.mahjong.record import export_record

        return export_record(self.match.hand)

    def ends_match(self) -> bool:
        """Whether the finished hand ends the match (:meth:`MahjongMatch.ends
        <madang.mahjong.engine.MahjongMatch.ends>`: the dealership's last pass)."""
        return self.match.ends()

    def deal_next(self, new_match: bool) -> None:
        """The next hand, or the first hand of a new match (from a fresh seed)."""
        if self.match.next_hand() is None:
            self._new_match()

    def redeal(self, key: bytes, first_picks: Sequence[Sequence[int]] | None = None) -> None:
        from madang.mahjong.fair import fair_hand

        m = self.match
        if first_picks is not None:
            raise IllegalActionError("mahjong has no 선 뽑기: the first dealer is seat 0")
        if m.hand.history:
            raise IllegalActionError("the hand has begun: it cannot be dealt again")
        st = fair_hand(m.rules, key, dealer=m.dealer, round_wind=m.round_wind, pot=m.pot)
        m.hands[-1] = st
        m.hand = st

    def resampled(self, seat: int | None, rng: random.Random) -> MahjongSession:
        from madang.mahjong.engine import resample_hidden

        new = copy.copy(self)
        new.rng = copy.copy(self.rng)
        new.match = self.match.clone()
        new.series = self.series.clone()
        resample_hidden(new.match.hand, seat, rng)
        return new

    def win_tags(self) -> list[str]:
        """The (first) winner's ``ron`` or ``tsumo``, then its 기본판 patterns
        (``menjen``, ``cheongilsaek`` …)."""
        res = self.match.hand.result
        if res is None or not res.winners:
            return []
        w = res.winners[0]
        return [w.by, *(i.name for i in w.sheet.base_items)]

    def deal_ins(self) -> list[bool] | None:
        """Per seat, whether its discard (or added kan) was won on."""
        res = self.match.hand.result
        sources = set() if res is None else {w.source for w in res.winners if w.by == "ron"}
        return [s in sources for s in range(4)]


def session(preset_name: str, seed: int | None, overrides: object = None) -> MahjongSession:
    """A table's hands in series under a preset (some options changed), from a seed."""
    from madang.mahjong.rules import preset

    return MahjongSession(with_overrides(preset(preset_name), overrides), seed)


def deal(rules: Any, seed: int) -> MahjongSession:
    """The hand of the deal ``seed``: the wall shuffled by it, seat 0 dealing in the East
    round (``rules``: a :class:`~madang.mahjong.rules.MahjongRules`, None: defaults)."""
    from madang.mahjong.rules import MahjongRules

    return MahjongSession(rules or MahjongRules(), seed, first_seed=seed, offers=False)


_OFFER_NOW = frozenset(("discard", "kakan", "ask", "answer"))
"""Mahjong events shown at once during an offer; the rest wait for its end."""


def frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The replay frames of a mahjong record (every hand shown)."""
    from madang.mahjong.engine import step
    from madang.mahjong.record import replay
    from madang.mahjong.state import Action
    from madang.mahjong.view import view

    moves = list(record.get("moves", []))
    state = replay({**record, "moves": []})

    def frame(move: str | None, events: list[Any]) -> dict[str, Any]:
        v = view(state, None)
        for s in range(4):
            v["players"][s]["hand"] = view(state, s)["players"][s]["hand"]
        shown: dict[str, Any] = {**v, "legal_actions": []}  # a spectator's, as a table shows it
        return {"move": move, "events": list(events), "view": shown}

    out = [frame(None, list(state.deal_events))]
    for m in moves:
        out.append(frame(m, step(state, Action.parse(m))))
    return out


def fair_deal(
    rules: Any, key: bytes, game_no: int, first_picks: Sequence[Sequence[int]] | None = None
) -> dict[str, Any]:
    """What a deal key fixes of a game (``docs/fairness.md``; :mod:`madang.mahjong.fair`);
    mahjong has no 선 뽑기 (``first_picks``: FairnessError)."""
    from madang.mahjong.fair import fair_deal as deal_of_key

    if first_picks is not None:
        raise FairnessError("mahjong has no 선 뽑기: a record with first_picks is not mahjong's")
    return deal_of_key(rules, key, game_no)


def max_points(rules: Any) -> int:
    """A bound on the points one hand under ``rules`` moves (the contract's ``max_points``;
    :func:`madang.mahjong.scoring.max_points`)."""
    from madang.mahjong.scoring import max_points as bound

    return bound(rules)


def unit_points(rules: Any) -> dict[str, int]:
    """What a 판 is worth in points under ``rules`` (the contract's ``unit_points``).

    >>> from madang.mahjong.rules import MahjongRules
    >>> unit_points(MahjongRules(pan_value=2))
    {'pan': 2}
    """
    return {"pan": rules.pan_value}


SPEC = GameSpec(
    name="mahjong",
    seats=4,
    rules_module="madang.mahjong.rules",
    rating="placement",
    ruleset_version=RULESET_VERSION,
    session=session,
    frames=frames,
    cli="madang.mahjong.cli",
    terminal="madang.play.mahjong_tui:MahjongTerminal",
    deal=deal,
    bots="madang.bots.mahjong_bots",
    encoding="madang.mahjong.encode:MahjongEncoding",
    fair_deal=fair_deal,
    max_points=max_points,
    unit_points=unit_points,
)
