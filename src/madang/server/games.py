"""One adapter per game: what the room actor needs of an engine, in one shape.

A :class:`Session` wraps a match (Matgo: :class:`~madang.matgo.match.MatgoMatch`, games
in series; mahjong: :class:`~madang.mahjong.engine.MahjongMatch`, hands in series, a new
match after the last hand). It speaks move strings, gives each seat its redacted events
and view, and answers for a seat whose time ran out or that a bot plays.

>>> s = make_session("matgo", "default", seed=1)
>>> seat = s.pending()[0]
>>> ev = s.step(seat, s.legal(seat)[0])
>>> s.version_events(ev, 1 - seat)[0]["type"]
'play'
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from madang.core.errors import IllegalActionError, InvalidActionError, MadangError, RuleConfigError

#: Seats per game.
SEATS = {"matgo": 2, "mahjong": 4}


def presets(game: str) -> list[str]:
    """The rules presets of ``game``."""
    if game == "matgo":
        from madang.matgo.rules import PRESETS as MP

        return list(MP)
    if game == "mahjong":
        from madang.mahjong.rules import PRESETS as JP

        return list(JP)
    raise RuleConfigError(f"unknown game {game!r}")


class BotPlayer:
    """A bot of a level for one game; falls back to the default answer when the game
    has no bot of that level yet (mahjong before its bots exist)."""

    def __init__(self, game: str, level: str, budget_s: float) -> None:
        from madang.bots import Budget, make_bot

        self.level = level
        self.bot: Any = None
        self.budget = Budget(budget_s)
        try:
            self.bot = make_bot(game, level)
        except MadangError:
            self.bot = None


class Session(ABC):
    """A match in progress at a table, one game (or hand) at a time."""

    game: str
    seats: int
    game_no: int

    @property
    @abstractmethod
    def over(self) -> bool:
        """Whether the current game has ended."""

    @abstractmethod
    def pending(self) -> list[int]:
        """The seats that must answer now."""

    @abstractmethod
    def public_pending(self) -> list[int]:
        """The pending seats everyone may know of (not a private claim question)."""

    @abstractmethod
    def question(self, seat: int) -> str:
        """What ``seat`` is asked."""

    @abstractmethod
    def legal(self, seat: int) -> list[str]:
        """The moves ``seat`` may send now."""

    @abstractmethod
    def step(self, seat: int, move: str) -> list[Any]:
        """Apply ``seat``'s move; return the raw events. Bad moves raise typed errors."""

    @abstractmethod
    def default_move(self, seat: int) -> str:
        """The answer taken when ``seat``'s time runs out."""

    @abstractmethod
    def bot_move(self, seat: int, bot: BotPlayer, rng: random.Random) -> str:
        """What a bot answers for ``seat`` (it sees only the seat's view)."""

    @abstractmethod
    def start_events(self) -> list[Any]:
        """The raw events of the deal of the current game."""

    @abstractmethod
    def version_events(self, events: list[Any], seat: int | None) -> list[dict[str, Any]]:
        """``events`` as ``seat`` (``None``: spectator) may see them."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """The engine's view of the current game for ``seat``."""

    @abstractmethod
    def payments(self) -> list[tuple[int, int, int, str]]:
        """The finished game's payments ``(from, to, points, reason)``."""

    @abstractmethod
    def outcome(self) -> dict[str, Any]:
        """The finished game's ``winner`` (seat or None), ``points``, ``reason``, ``sheet``."""

    @abstractmethod
    def record(self) -> dict[str, Any]:
        """The current game's record (``notation.md``)."""

    @abstractmethod
    def next_game(self) -> bool:
        """Deal the next game; True when a new match began (the last one was over)."""

    @abstractmethod
    def match_scores(self) -> list[int] | None:
        """At the end of a match that has placements (mahjong): the final totals."""

    # An offer is the pause after a move that others may claim (a mahjong discard or
    # 가깡): the room shows it for the same time whether or not anyone was asked, and
    # shows the seats that were not asked the same content either way. Games without
    # claims never offer.

    offering: bool = False
    """Whether the last step made an offer (until :meth:`end_offer`)."""

    def window(self) -> list[int]:
        """The seats answering a private question now (a claim window), else []."""
        return []

    def offered_view(self, seat: int | None) -> dict[str, Any]:
        """The view during an offer of a seat that is not answering it (or a spectator)."""
        return self.view(seat)

    def split_offer(self, events: list[Any]) -> tuple[list[Any], list[Any]]:
        """The events of a step during an offer: those shown now (the offered move, the
        private questions and answers) and those shown when the offer ends."""
        return events, []

    def end_offer(self) -> None:
        """The offer's pause is over."""
        self.offering = False


class MatgoSession(Session):
    """Matgo games in series (the winner deals the next, 나가리 doubles the next)."""

    def __init__(self, preset_name: str, seed: int | None) -> None:
        from madang.matgo.match import MatgoMatch
        from madang.matgo.rules import preset

        self.game = "matgo"
        self.seats = 2
        self.match = MatgoMatch(preset(preset_name), seed=seed)
        self.game_no = 1

    @property
    def over(self) -> bool:
        return self.match.game.over

    def pending(self) -> list[int]:
        g = self.match.game
        return [] if g.over else [g.current]

    def public_pending(self) -> list[int]:
        return self.pending()

    def question(self, seat: int) -> str:
        return self.match.game.phase.name.lower()

    def legal(self, seat: int) -> list[str]:
        from madang.matgo.actions import action_str

        g = self.match.game
        if g.over or g.current != seat:
            return []
        return [action_str(a) for a in g.legal_actions()]

    def step(self, seat: int, move: str) -> list[Any]:
        from madang.matgo.actions import parse_action

        g = self.match.game
        action = parse_action(move)
        if g.over:
            raise IllegalActionError("the game is over")
        if g.current != seat:
            raise IllegalActionError(f"it is seat {g.current}'s turn, not yours")
        return g.step(action)

    def default_move(self, seat: int) -> str:
        from madang.matgo.actions import action_str

        return action_str(self.match.game.default_action())

    def bot_move(self, seat: int, bot: BotPlayer, rng: random.Random) -> str:
        from madang.matgo.actions import action_str
        from madang.matgo.view import view

        g = self.match.game
        legal = list(g.legal_actions())
        if bot.bot is None:
            return action_str(g.default_action())
        choice = bot.bot.act(view(g, seat), list(legal), rng, bot.budget)
        if choice not in legal:
            return action_str(g.default_action())
        return action_str(choice)

    def start_events(self) -> list[Any]:
        return list(self.match.game.events)

    def version_events(self, events: list[Any], seat: int | None) -> list[dict[str, Any]]:
        from madang.matgo.events import redact

        return [redact(e, seat) for e in events]

    def view(self, seat: int | None) -> dict[str, Any]:
        from madang.matgo.cards import MONTH
        from madang.matgo.view import view

        v = view(self.match.game, seat)
        m = self.match
        v["match"] = {
            "game_no": self.game_no,
            "balances": list(m.balances),
            # 선 결정: the months drawn for the first 선 (each pair: seat 0's, seat 1's; a
            # tie draws again). Months only: the drawn cards are not the deal's.
            "first_draws": (
                [[MONTH[a], MONTH[b]] for a, b in m.first_draws] if m.games_played == 0 else []
            ),
            "first_dealer_rule": m.rules.first_dealer.value,
        }
        return v

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

    def next_game(self) -> bool:
        self.match.next_game()
        self.game_no += 1
        return False

    def match_scores(self) -> list[int] | None:
        return None


class MahjongSession(Session):
    """Mahjong hands in series; a new match (from a fresh seed) after the last hand."""

    def __init__(self, preset_name: str, seed: int | None) -> None:
        from madang.mahjong.rules import preset

        self.game = "mahjong"
        self.seats = 4
        self.rules = preset(preset_name)
        self.rng = random.Random(seed)
        self.game_no = 1
        self._new_match()
        self._finished_match: list[int] | None = None

    def _new_match(self) -> None:
        from madang.mahjong.engine import MahjongMatch

        self.match = MahjongMatch(self.rules, seed=self.rng.getrandbits(64))

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

    def legal(self, seat: int) -> list[str]:
        from madang.mahjong.engine import legal_actions

        return [str(a) for a in legal_actions(self.match.hand, seat)]

    def step(self, seat: int, move: str) -> list[Any]:
        from madang.mahjong.engine import legal_actions, offered, step
        from madang.mahjong.state import PHASE_DISCARD, Action

        words = move.split()
        if words and words[0].isdigit():
            raise InvalidActionError("send the move without a seat number")
        action = Action.parse(move, seat=seat)
        st = self.match.hand
        offer = None
        if (
            st.phase == PHASE_DISCARD
            and action.verb in ("discard", "kakan")
            and action in legal_actions(st, seat)
        ):
            offer = offered(st, action)
        events = step(st, action)
        if offer is not None:
            self._offer = offer
            self.offering = True
        return events

    def window(self) -> list[int]:
        from madang.mahjong.state import PHASE_CLAIM, PHASE_ROB

        st = self.match.hand
        return list(st.pending) if st.phase in (PHASE_CLAIM, PHASE_ROB) else []

    def offered_view(self, seat: int | None) -> dict[str, Any]:
        return self._view_of(self._offer, seat) if self.offering else self.view(seat)

    def split_offer(self, events: list[Any]) -> tuple[list[Any], list[Any]]:
        now: list[Any] = []
        later: list[Any] = []
        for e in events:
            (now if e["type"] in _OFFER_NOW else later).append(e)
        return now, later

    def default_move(self, seat: int) -> str:
        from madang.mahjong.engine import default_action

        return str(default_action(self.match.hand, seat))

    def bot_move(self, seat: int, bot: BotPlayer, rng: random.Random) -> str:
        from madang.mahjong.engine import default_action, legal_actions
        from madang.mahjong.view import view

        st = self.match.hand
        if bot.bot is None:
            return str(default_action(st, seat))
        legal = list(legal_actions(st, seat))
        choice = bot.bot.act(view(st, seat), list(legal), rng, bot.budget)
        if isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < len(legal):
            choice = legal[choice]
        if choice not in legal:
            return str(default_action(st, seat))
        return str(choice)

    def start_events(self) -> list[Any]:
        return list(self.match.hand.deal_events)

    def version_events(self, events: list[Any], seat: int | None) -> list[dict[str, Any]]:
        from madang.mahjong.events import redact_all

        return redact_all(events, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        return self._view_of(self.match.hand, seat)

    def _view_of(self, st: Any, seat: int | None) -> dict[str, Any]:
        """The engine's view of ``st`` (the hand, or an offer of it) with the match and
        the seat's discard help."""
        from madang.mahjong.view import discard_help, view

        v = view(st, seat)
        m = self.match
        repeat = 0  # 연장: hands in a row that this dealer has dealt before this one
        for h in reversed(m.hands[:-1]):
            if h.dealer != st.dealer or h.round_wind != st.round_wind:
                break
            repeat += 1
        scores = list(m.scores)
        if st.result is not None:  # the finished hand's payments, not yet in the match
            for frm, to, pts, _ in st.result.payments:
                scores[frm] -= pts
                scores[to] += pts
        v["match"] = {
            "scores": scores,
            "hand_no": len(m.hands),
            "kyoku": m.passes % 4 + 1,
            "repeat": repeat,
            "rounds": m.rules.rounds,
        }
        v["help"] = discard_help(st, seat) if seat is not None else None
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

    def match_scores(self) -> list[int] | None:
        """The final totals if the current hand ends the match (checked on a copy)."""
        m = self.match
        passes = m.passes
        res = m.hand.result
        if res is None:
            return None
        if not res.dealer_keeps:
            passes += 1
        if passes < 4 * m.rules.rounds:
            return None
        scores = list(m.scores)
        for frm, to, pts, _ in res.payments:
            scores[frm] -= pts
            scores[to] += pts
        return scores

    def next_game(self) -> bool:
        nxt = self.match.next_hand()
        self.game_no += 1
        if nxt is None:
            self._new_match()
            return True
        return False


_OFFER_NOW = frozenset(("discard", "kakan", "ask", "answer"))
"""Mahjong events shown at once during an offer; the rest wait for its end."""


def make_session(game: str, preset_name: str, seed: int | None = None) -> Session:
    """A session of ``game`` under the named preset (unknown names: RuleConfigError)."""
    if game == "matgo":
        return MatgoSession(preset_name, seed)
    if game == "mahjong":
        return MahjongSession(preset_name, seed)
    raise RuleConfigError(f"unknown game {game!r} (matgo or mahjong)")
