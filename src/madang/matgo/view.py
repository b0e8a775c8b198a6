"""What a seat may know of a Matgo game: :func:`view`.

Bots, the server and RL code all see a game through this one function. A seat sees its
own hand exactly, the opponent's hand as a count plus the cards a 흔들기 or 총통 showed,
the draw pile as a count; a spectator (``seat=None``) sees no hand at all. The deck order
never appears.

>>> from madang.matgo.engine import new_game
>>> g = new_game(seed=1)
>>> v = view(g, 0)
>>> len(v["hand"]), v["hand_counts"], v["pile"] + len(v["captured"][0]) + len(v["captured"][1])
(10, [10, 10], 22)
>>> "hand" in view(g, None)
False
"""

from __future__ import annotations

from typing import Any

from madang.matgo.actions import action_str
from madang.matgo.cards import CODES, MONTH_MASK, codes_of
from madang.matgo.engine import PLAYED_CARD_MODES, MatgoState
from madang.matgo.scoring import bak_risks

_GUKJIN = {-1: "free", 0: "animal", 1: "pi"}


def view(state: MatgoState, seat: int | None) -> dict[str, Any]:
    """A JSON-able dict of what ``seat`` (0, 1, or ``None`` for a spectator) may know."""
    if seat not in (0, 1, None):
        raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
    floor = []
    for m in range(1, 13):
        cards = state.floor & MONTH_MASK[m]
        if cards:
            maker = state.stack_maker[m]
            floor.append(
                {
                    "month": m,
                    "cards": codes_of(cards),
                    "ppeok": maker if maker >= 0 else None,
                    "bonus": codes_of(state.stack_extra[m]),
                }
            )
    out: dict[str, Any] = {
        "game": "matgo",
        "seat": seat,
        "dealer": state.dealer,
        "phase": state.phase.name.lower(),
        "pending": state.pending(),
        "hand_counts": [state.hands[0].bit_count(), state.hands[1].bit_count()],
        "revealed": [codes_of(state.revealed[p] & state.hands[p]) for p in (0, 1)],
        "floor": floor,
        "pile": len(state.pile),
        "captured": [codes_of(state.captured[0]), codes_of(state.captured[1])],
        "scores": [state.score(0), state.score(1)],
        "warnings": [
            bak_risks(state.captured[p], state.captured[1 - p], state.go_count[p] > 0, state.rules)
            for p in (0, 1)
        ],
        "go": list(state.go_count),
        "shakes": list(state.shakes),
        "tokens": list(state.tokens),
        "ppeok": list(state.ppeok_count),
        "carry": state.carry,
        "mission": state.mission.name if state.mission else None,
        "gukjin": _GUKJIN[state.gukjin_mode],
        "turn": {
            "captured": codes_of(state.t_cap | state.t_bonus),
            "flipped": CODES[state.t_flip] if state.t_flip >= 0 else None,
        },
        "payments": [
            {"from": f, "to": t, "points": p, "reason": r} for f, t, p, r in state.payments
        ],
        "public": {
            "rules": state.rules.to_dict(),
            "go_score": list(state.go_score),
            "turns": list(state.turns),
            "ppeok_turns": list(state.ppeok_turns),
            "no_shake": [[m for m in range(1, 13) if ns >> m & 1] for ns in state.no_shake],
            "t_card": CODES[state.t_card] if state.t_mode in PLAYED_CARD_MODES else None,
            "t_mode": state.t_mode,
            "t_pair": codes_of(state.t_pair),
            "t_bonus": codes_of(state.t_bonus),
            "t_options": codes_of(state.t_options),
            "t_last": state.t_last,
            "t_steals": list(state.t_steals),
        },
        "over": state.over,
        "winner": state.winner,
        "points": state.points,
    }
    if seat is not None:
        out["hand"] = codes_of(state.hands[seat])
        if not state.over and state.current == seat:
            out["legal"] = [action_str(a) for a in state.legal_actions()]
    if state.sheet is not None:
        out["sheet"] = state.sheet.to_dict()
    return out
