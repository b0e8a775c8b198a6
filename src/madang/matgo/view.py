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
from madang.matgo.cards import (
    ANIMAL_MASK,
    CHEONGDAN_MASK,
    CHODAN_MASK,
    CODES,
    GODORI_MASK,
    GUKJIN_BIT,
    GWANG_MASK,
    HONGDAN_MASK,
    MONTH_MASK,
    RIBBON_MASK,
    codes_of,
    pi_value,
)
from madang.matgo.engine import MatgoState, Phase
from madang.matgo.scoring import bak_risks, jokbo_items

_GUKJIN = {-1: "free", 0: "animal", 1: "pi"}


def view(state: MatgoState, seat: int | None) -> dict[str, Any]:
    """A JSON-able dict of what ``seat`` (0, 1, or ``None`` for a spectator) may know."""
    if seat not in (0, 1, None):
        raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
    return seat_view(public_view(state), state, seat)


def seat_view(public: dict[str, Any], state: MatgoState, seat: int | None) -> dict[str, Any]:
    """``seat``'s view from the state's :func:`public_view` (computed once for every
    seat of one position): the public part plus the seat's own hand and moves."""
    out: dict[str, Any] = {"game": "matgo", "seat": seat}
    out.update(public)
    if seat is not None:
        out["hand"] = codes_of(state.hands[seat])
        if not state.over and state.current == seat:
            out["legal"] = [action_str(a) for a in state.legal_actions()]
    if state.sheet is not None:
        out["sheet"] = state.sheet.to_dict()
    return out


def public_view(state: MatgoState) -> dict[str, Any]:
    """What everyone may know of the position (every key of :func:`view` but ``game``,
    ``seat``, ``hand``, ``legal`` and ``sheet``). Treat it as read-only: the views of
    one position share its parts."""
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
    return {
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
        "gukjin_as": [_gukjin_as(state, p) for p in (0, 1)],
        "score_items": [
            [
                {"name": i.name, "points": i.points}
                for i in jokbo_items(state.captured[p], state.gukjin_as_pi(p))
            ]
            for p in (0, 1)
        ],
        "progress": [_progress(state, p) for p in (0, 1)],
        "piles": [_piles(state, p) for p in (0, 1)],
        "in_force": [_in_force(state, p) for p in (0, 1)],
        "mission_info": _mission_info(state),
        "last_played": _last_played(state),
        "stop_now": _stop_now(state),
        "turn": state.turn.to_dict(),
        "payments": [
            {"from": f, "to": t, "points": p, "reason": r} for f, t, p, r in state.payments
        ],
        "public": {
            "rules": state.rules.to_dict(),
            "go_score": list(state.go_score),
            "turns": list(state.turns),
            "ppeok_turns": list(state.ppeok_turns),
            "no_shake": [[m for m in range(1, 13) if ns >> m & 1] for ns in state.no_shake],
        },
        "over": state.over,
        "winner": state.winner,
        "points": state.points,
    }


def _gukjin_as(state: MatgoState, p: int) -> str | None:
    """How a 국진 in ``p``'s pile counts in ``p``'s score now (None: not held)."""
    if not state.captured[p] & GUKJIN_BIT:
        return None
    return "pi" if state.gukjin_as_pi(p) else "animal"


def _progress(state: MatgoState, p: int) -> dict[str, int]:
    """족보 progress of ``p``'s pile: cards of each kind (국진 where it counts) and of
    each set (고도리, 홍단, 청단, 초단: out of 3)."""
    m = state.captured[p]
    as_pi = state.gukjin_as_pi(p)
    return {
        "gwang": (m & GWANG_MASK).bit_count(),
        "yeol": (m & ANIMAL_MASK).bit_count() - (1 if as_pi else 0),
        "tti": (m & RIBBON_MASK).bit_count(),
        "pi": pi_value(m, as_pi),
        "godori": (m & GODORI_MASK).bit_count(),
        "hongdan": (m & HONGDAN_MASK).bit_count(),
        "cheongdan": (m & CHEONGDAN_MASK).bit_count(),
        "chodan": (m & CHODAN_MASK).bit_count(),
    }


def _piles(state: MatgoState, p: int) -> dict[str, list[str]]:
    """``p``'s pile as the board lays it out: 광, 열끗, 띠 and 피 (쌍피, 쓰리피 and bonus
    cards with the 피, 국진 where it counts for its holder now); the counts are
    ``progress``."""
    m = state.captured[p]
    gwang, tti = m & GWANG_MASK, m & RIBBON_MASK
    yeol = m & ANIMAL_MASK
    if state.gukjin_as_pi(p):
        yeol &= ~GUKJIN_BIT
    return {
        "gwang": codes_of(gwang),
        "yeol": codes_of(yeol),
        "tti": codes_of(tti),
        "pi": codes_of(m & ~(gwang | yeol | tti)),
    }


def _in_force(state: MatgoState, p: int) -> list[dict[str, Any]]:
    """The multipliers that ``p``'s score would get now whatever the piles: 3고 and up,
    흔들기·폭탄, a completed mission and the 나가리 carry (the 박 are ``warnings``)."""
    out: list[dict[str, Any]] = []
    go = state.go_count[p]
    if go >= 3:
        out.append({"name": "go", "count": go, "factor": 1 << (go - 2)})
    if state.shakes[p]:
        out.append({"name": "heundeulgi", "count": state.shakes[p], "factor": 1 << state.shakes[p]})
    mission = state.mission
    if mission is not None and state.captured[p] & mission.cards == mission.cards:
        out.append({"name": f"mission_{mission.name}", "factor": mission.multiplier})
    if state.carry > 1:
        out.append({"name": "nagari_carry", "factor": state.carry})
    return out


def _mission_info(state: MatgoState) -> dict[str, Any] | None:
    """미션: its cards, multiplier, and the cards of it each seat holds."""
    mission = state.mission
    if mission is None:
        return None
    held = [codes_of(state.captured[p] & mission.cards) for p in (0, 1)]
    return {
        "name": mission.name,
        "cards": codes_of(mission.cards),
        "multiplier": mission.multiplier,
        "held": held,
        "done": [len(h) == mission.cards.bit_count() for h in held],
    }


def _last_played(state: MatgoState) -> list[str | None]:
    """The last card each seat played from its hand (a 폭탄's played card included)."""
    out: list[str | None] = [None, None]
    for e in reversed(state.events):
        kind = e[0]
        if kind in ("play", "bonus_play", "bomb") and out[e[1]] is None:
            card = e[2] if kind != "bomb" else (e[3] & -e[3]).bit_length() - 1
            out[e[1]] = CODES[card]
            if out[0] is not None and out[1] is not None:
                break
    return out


def _stop_now(state: MatgoState) -> dict[str, Any] | None:
    """At the 고/스톱 question: what 스톱 pays now (the sheet it would settle)."""
    if state.phase is not Phase.GO_STOP:
        return None
    sheet = state.settle_now(state.current)
    return {"seat": state.current, "points": sheet.points, "sheet": sheet.to_dict()}
