"""짝 맞추기 (pairs): a toy two-player game that exists only to show that a new game is
"write one package, register it" — the conformance test, the server's room and the
lobby play it with no edit outside this file and its one registration line.

Six cards, three pairs (``a1 a2 b1 b2 c1 c2``), three to each hand from a seeded
shuffle. On its turn a player plays a card from its hand onto the floor (action id: the card's
place in ``CARDS``; notation ``play a1``); a card that
matches the floor's last card takes both (1 point). When the hands are empty the one
with more points wins and is paid the difference. Three games make a match.
"""

from __future__ import annotations

import copy
import random
from typing import Any, TypedDict

from madang.core.errors import IllegalActionError, InvalidActionError
from madang.core.game import GameSpec, Session, check_action, with_overrides
from madang.core.match import Match

CARDS = ("a1", "a2", "b1", "b2", "c1", "c2")


class PairsView(TypedDict):
    """What a seat (or a spectator) knows of a game of pairs: its own hand only."""

    game: str
    seat: int | None
    hands: list[list[str] | None]
    counts: list[int]
    floor: list[str]
    points: list[int]
    over: bool


class PairsSession(Session[PairsView]):
    """Games of pairs in series (no help for a person: the table shows the view)."""

    def __init__(self, preset_name: str, seed: int | None, overrides: object = None) -> None:
        with_overrides(preset(preset_name), overrides)  # bad names and options: errors
        self.game = "pairs"
        self.seats = 2
        self.rng = random.Random(seed)
        self.series = Match(2)
        self._deal()

    def _deal(self) -> None:
        deck = list(CARDS)
        self.rng.shuffle(deck)
        self.deck = list(deck)
        self.hands = [sorted(deck[:3]), sorted(deck[3:])]
        self.floor: list[str] = []
        self.points = [0, 0]
        self.turn = 0
        self.moves: list[str] = []

    def pending(self) -> list[int]:
        return [self.turn] if self.hands[self.turn] else []

    def question(self, seat: int) -> str:
        return "play"

    def legal(self, seat: int) -> list[int]:
        return [CARDS.index(c) for c in self.hands[seat]] if seat in self.pending() else []

    def step(self, seat: int, action: int) -> list[Any]:
        card = CARDS[check_action(action, len(CARDS))]
        if seat not in self.pending() or card not in self.hands[seat]:
            raise IllegalActionError(f"play {card} is not legal now")
        self.hands[seat].remove(card)
        self.moves.append(f"{seat} play {card}")
        events: list[Any] = [{"type": "play", "seat": seat, "card": card}]
        if self.floor and self.floor[-1][0] == card[0]:
            self.floor.pop()
            self.points[seat] += 1
            events.append({"type": "take", "seat": seat})
        else:
            self.floor.append(card)
        self.turn = 1 - seat
        return events

    def action_to_string(self, action: int) -> str:
        return f"play {CARDS[check_action(action, len(CARDS))]}"

    def string_to_action(self, text: str) -> int:
        words = text.split() if isinstance(text, str) else []
        if len(words) != 2 or words[0] != "play" or words[1] not in CARDS:
            raise InvalidActionError(f"not a pairs move: {text!r}")
        return CARDS.index(words[1])

    def default_move(self, seat: int) -> int:
        return self.legal(seat)[0]

    def resampled(self, seat: int | None, rng: random.Random) -> PairsSession:
        new = copy.deepcopy(self)
        hidden = [s for s in (0, 1) if s != seat]
        pool = [c for s in hidden for c in new.hands[s]]
        rng.shuffle(pool)
        for s in hidden:
            n = len(new.hands[s])
            new.hands[s], pool = sorted(pool[:n]), pool[n:]
        return new

    def start_events(self) -> list[Any]:
        return [{"type": "deal", "seat": s, "cards": list(self.hands[s])} for s in (0, 1)]

    def version_events(self, events: list[Any], seat: int | None) -> list[dict[str, Any]]:
        out = []
        for e in events:
            if e["type"] == "deal" and e["seat"] != seat:
                e = {"type": "deal", "seat": e["seat"], "count": len(e["cards"])}
            out.append(e)
        return out

    def view(self, seat: int | None) -> PairsView:
        return {
            "game": "pairs",
            "seat": seat,
            "hands": [h if s == seat else None for s, h in enumerate(self.hands)],
            "counts": [len(h) for h in self.hands],
            "floor": list(self.floor),
            "points": list(self.points),
            "over": self.over,
        }

    def payments(self) -> list[tuple[int, int, int, str]]:
        a, b = self.points
        if not self.over or a == b:
            return []
        win = 0 if a > b else 1
        return [(1 - win, win, abs(a - b), "pairs")]

    def outcome(self) -> dict[str, Any]:
        pays = self.payments()
        return {
            "winner": pays[0][1] if pays else None,
            "points": pays[0][2] if pays else 0,
            "reason": "pairs" if pays else "draw",
            "sheet": None,
        }

    def record(self) -> dict[str, Any]:
        return {"game": "pairs", "deck": list(self.deck), "moves": list(self.moves)}

    def deal_next(self, new_match: bool) -> None:
        self._deal()

    def ends_match(self) -> bool:
        """A match is three games (the table's games 3, 6, 9 … end one)."""
        return self.over and self.game_no % 3 == 0


PRESETS = ("default",)


def preset(name: str) -> str:
    """The rules of a preset (pairs has one, and no options)."""
    if name not in PRESETS:
        from madang.core.errors import RuleConfigError

        raise RuleConfigError(f"unknown pairs preset {name!r}")
    return name


def frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Replay frames: the deal, then each move, with both hands shown."""
    s = PairsSession("default", 0)
    s.deck = list(record["deck"])
    s.hands = [sorted(s.deck[:3]), sorted(s.deck[3:])]

    def frame(move: str | None, events: list[Any]) -> dict[str, Any]:
        v = s.view(None)
        v["hands"] = [list(h) for h in s.hands]
        return {"move": move, "events": events, "view": dict(v)}

    out = [frame(None, s.start_events())]
    for m in record["moves"]:
        seat, move = m.split(" ", 1)
        out.append(frame(m, s.step(int(seat), s.string_to_action(move))))
    return out


SPEC = GameSpec(
    name="pairs",
    seats=2,
    rules_module="tests.contract.toy",
    rating="pairwise",
    ruleset_version="1",
    session=PairsSession,
    frames=frames,
    deal=lambda rules, seed: PairsSession(rules, seed),
)
