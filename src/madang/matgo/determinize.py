"""Resampling hidden cards from what a seat knows (OpenSpiel's ResampleFromInfostate).

Search bots never see the engine state: they get a :func:`madang.matgo.view.view` dict.
:func:`determinize` deals the cards that seat cannot see (the opponent's unrevealed
hand and the draw pile) at random, consistently with the view, and returns a full
:class:`MatgoState` to search on. Every visible fact (floor, stacks, piles, counts, the
turn in progress, the question pending) is kept exactly.

>>> import random
>>> from madang.matgo.engine import new_game
>>> from madang.matgo.view import view
>>> g = new_game(seed=11)
>>> d = determinize(view(g, g.current), random.Random(0))
>>> d.legal_actions() == g.legal_actions(), d.hands[g.current] == g.hands[g.current]
(True, True)
"""

from __future__ import annotations

import random
from typing import Any

from madang.core.errors import RecordError
from madang.matgo.cards import BIT, MONTH_MASK, mask_of, parse_card, parse_cards
from madang.matgo.engine import MatgoState, Phase
from madang.matgo.rules import MatgoRules
from madang.matgo.scoring import mission_by_name

_GUKJIN = {"free": -1, "animal": 0, "pi": 1}


def _mask(codes: list[str]) -> int:
    return mask_of(parse_cards(codes))


def determinize(v: dict[str, Any], rng: random.Random) -> MatgoState:
    """A full game state consistent with the view ``v`` of a seat (not a spectator)."""
    seat = v.get("seat")
    if seat not in (0, 1) or "hand" not in v:
        raise RecordError("determinize needs a seat's view (with its hand)")
    pub = v["public"]
    rules = MatgoRules.from_dict(pub["rules"])
    s = MatgoState.__new__(MatgoState)
    s.rules = rules
    s.dealer = v["dealer"]
    s.carry = v["carry"]
    s.mission = mission_by_name(v["mission"]) if v["mission"] else None
    s.floor = 0
    s.stack_maker = [-1] * 13
    s.stack_extra = [0] * 13
    for group in v["floor"]:
        m = group["month"]
        s.floor |= _mask(group["cards"])
        if group["ppeok"] is not None:
            s.stack_maker[m] = group["ppeok"]
        s.stack_extra[m] = _mask(group["bonus"])
    s.captured = [_mask(v["captured"][0]), _mask(v["captured"][1])]
    own = _mask(v["hand"])
    other = 1 - seat
    revealed = [_mask(v["revealed"][0]), _mask(v["revealed"][1])]
    turn = v["turn"]
    t_cap = _mask(turn["captured"])
    t_flip = parse_card(turn["flipped"]) if turn["flipped"] else -1
    known = own | s.floor | s.captured[0] | s.captured[1] | revealed[other] | t_cap
    for extra in s.stack_extra:
        known |= extra
    if t_flip >= 0:
        known |= BIT[t_flip]
    unknown = [c for c in range(len(BIT)) if rules.deck_mask & BIT[c] and not known & BIT[c]]
    rng.shuffle(unknown)
    need = v["hand_counts"][other] - revealed[other].bit_count()
    if need < 0 or need + v["pile"] != len(unknown):
        raise RecordError("the view is inconsistent: hidden card counts do not add up")
    hands = [0, 0]
    hands[seat] = own
    hands[other] = revealed[other] | mask_of(unknown[:need])
    s.hands = hands
    s.pile = unknown[need:]
    s.deck = ()
    s.tokens = list(v["tokens"])
    s.shakes = list(v["shakes"])
    s.no_shake = [sum(1 << m for m in months) for months in pub["no_shake"]]
    s.revealed = revealed
    s.go_count = list(v["go"])
    s.go_score = list(pub["go_score"])
    s.ppeok_count = list(v["ppeok"])
    s.ppeok_turns = list(pub["ppeok_turns"])
    s.turns = list(pub["turns"])
    s.gukjin_mode = _GUKJIN[v["gukjin"]]
    s.phase = Phase[v["phase"].upper()]
    s.current = v["pending"].get("seat", 0)
    s.winner = v["winner"]
    s.points = v["points"]
    s.payments = [(p["from"], p["to"], p["points"], p["reason"]) for p in v["payments"]]
    s.sheet = None
    s.end_reason = ""
    s.t_mode = pub["t_mode"]
    s.t_card = parse_card(pub["t_card"]) if pub["t_card"] else 0
    s.t_month = (s.t_card >> 2) + 1 if pub["t_card"] and s.t_card < 48 else 0
    s.t_pair = _mask(pub["t_pair"])
    s.t_bonus = _mask(pub["t_bonus"])
    s.t_cap = t_cap & ~s.t_bonus
    s.t_flip = t_flip
    s.t_options = _mask(pub["t_options"])
    s.t_last = pub["t_last"]
    s.t_steals = list(pub["t_steals"])
    s.events = []
    s.moves = []
    s._legal = None
    if s.t_mode and s.t_month and not MONTH_MASK[s.t_month]:  # pragma: no cover
        raise RecordError("bad turn state")
    return s
