"""What a seat may know of a game of the Go-Stop family (맞고, 고스톱): :func:`view`.

Bots, the server and RL code all see a game through this one function. A seat sees its
own hand exactly, each other hand as a count plus the cards a 흔들기 or 총통 showed,
the draw pile as a count; a spectator (``seat=None``) sees no hand at all. The deck order
never appears. A view is what the seat knows, not the help a person reads beside it:
the piles laid out by kind, 족보 progress and points, the 박 warnings and the multipliers
in force are :func:`help_of` the view, which the table adds (:func:`annotate`) to what
it shows a person; bots and RL never compute them.

>>> from madang.matgo.engine import new_game
>>> g = new_game(seed=1)
>>> v = view(g, 0)
>>> len(v["hand"]), v["hand_counts"], v["pile"] + len(v["captured"][0]) + len(v["captured"][1])
(10, [10, 10], 22)
>>> "hand" in view(g, None), "progress" in v, annotate(v)["progress"][0]["gwang"]
(False, False, 0)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypedDict

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
    parse_card,
    pi_value,
)
from madang.matgo.engine import MatgoState, Phase, rules_class
from madang.matgo.rules import MatgoRules
from madang.matgo.scoring import bak_risks, jokbo_items


class MatgoHelp(TypedDict):
    """The help a person reads beside a Matgo view (:func:`help_of`), per seat."""

    warnings: list[list[str]]
    """The 박 the seat risks now (``pibak``, ``gwangbak``, ``meongtta``, ``gobak``)."""
    score_items: list[list[dict[str, Any]]]
    """The 족보 that score now: ``{"name", "points"}``, summing to the view's ``scores``."""
    progress: list[dict[str, int]]
    """Cards of each kind (국진 where it counts) and of each set (out of 3)."""
    piles: list[dict[str, list[str]]]
    """The captured pile as the board lays it out: ``gwang``, ``yeol``, ``tti``, ``pi``."""
    in_force: list[list[dict[str, Any]]]
    """The multipliers the seat's win would get whatever the piles."""


HELP_KEYS = tuple(MatgoHelp.__annotations__)
"""The keys :func:`help_of` adds to a view: a person's help, not the seat's knowledge."""

_GUKJIN = {-1: "free", 0: "animal", 1: "pi"}


def view(state: MatgoState, seat: int | None) -> dict[str, Any]:
    """A JSON-able dict of what ``seat`` (a seat of the game's ``rules.players``, or
    ``None`` for a spectator) may know."""
    check_seat(seat, state.rules.players)
    return seat_view(public_view(state), state, seat)


def check_seat(seat: object, players: int) -> None:
    """A ValueError unless ``seat`` is one of ``players`` seats or ``None`` (a spectator)."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < players):
        seats = ", ".join(map(str, range(players - 1)))
        raise ValueError(f"seat must be {seats}, {players - 1} or None, not {seat!r}")


def seat_view(public: dict[str, Any], state: MatgoState, seat: int | None) -> dict[str, Any]:
    """``seat``'s view from the state's :func:`public_view` (computed once for every
    seat of one position): the public part plus the seat's own hand and moves."""
    out: dict[str, Any] = {"game": state.rules.GAME, "seat": seat}
    out.update(public)
    if seat is not None:
        out["hand"] = codes_of(state.hands[seat])
    if state.sheet is not None:
        out["sheet"] = state.sheet.to_dict()
    return out


def public_view(state: MatgoState) -> dict[str, Any]:
    """What everyone may know of the position (every key of :func:`view` but ``game``,
    ``seat``, ``hand`` and ``sheet``; no help, :func:`help_of`). Treat it as
    read-only: the views of one position share its parts."""
    seats = range(len(state.hands))
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
        "dealer": state.dealer,
        "phase": state.phase.name.lower(),
        "pending": state.pending(),
        "hand_counts": [h.bit_count() for h in state.hands],
        "revealed": [codes_of(state.revealed[p] & state.hands[p]) for p in seats],
        "floor": floor,
        "pile": len(state.pile),
        "captured": [codes_of(c) for c in state.captured],
        "scores": [state.score(p) for p in seats],
        "go": list(state.go_count),
        "shakes": list(state.shakes),
        "tokens": list(state.tokens),
        "ppeok": list(state.ppeok_count),
        "carry": state.carry,
        "mission": state.mission.name if state.mission else None,
        "gukjin": _GUKJIN[state.gukjin_mode],
        "gukjin_as": [_gukjin_as(state, p) for p in seats],
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
    if state.rules.players > 2:  # 고스톱: 광팔기 and 쇼당 (gostop.md §7, §8)
        out["sitting_out"] = None if state.sitter < 0 else state.sitter
        out["seller"] = None if state.seller < 0 else state.seller
        out["public"]["table"] = {
            "no_die": list(state.no_die),
            "gwang_due": state.gwang_due,
            "shodang": {
                "by": state.shodang_by if state.shodang_by >= 0 else None,
                "accepted": [p for p in seats if state.shodang_yes >> p & 1],
                "refused": [p for p in seats if state.shodang_no >> p & 1],
            },
            "bonus_played": bool(state.turn.bonus_played),  # 쇼당 comes before a bonus
        }
    return out


def _gukjin_as(state: MatgoState, p: int) -> str | None:
    """How a 국진 in ``p``'s pile counts in ``p``'s score now (None: not held)."""
    if not state.captured[p] & GUKJIN_BIT:
        return None
    return "pi" if state.gukjin_as_pi(p) else "animal"


def help_of(v: dict[str, Any]) -> MatgoHelp:
    """The help a person reads beside a view ``v`` (:data:`HELP_KEYS`), per seat, from
    the view alone: ``warnings`` (the 박 each seat risks now), ``score_items`` (its 족보
    points by category), ``progress`` (cards of each kind and set), ``piles`` (its
    captured pile as the board lays it out) and ``in_force`` (the multipliers its score
    would get whatever the piles)."""
    rules = _rules(v.get("game", "matgo"), tuple(sorted(v["public"]["rules"].items())))
    captured = [_mask(codes) for codes in v["captured"]]
    as_pi = [a == "pi" for a in v["gukjin_as"]]
    seats = range(len(captured))
    return {
        "warnings": [
            [] if p == v.get("sitting_out") else _warnings(captured, p, v["go"][p] > 0, rules)
            for p in seats
        ],  # (the seat sitting out, 광팔기, risks nothing)
        "score_items": [
            [{"name": i.name, "points": i.points} for i in jokbo_items(captured[p], as_pi[p])]
            for p in seats
        ],
        "progress": [_progress(captured[p], as_pi[p]) for p in seats],
        "piles": [_piles(captured[p], as_pi[p]) for p in seats],
        "in_force": [_in_force(v, p) for p in seats],
    }


def _warnings(captured: list[int], p: int, went_go: bool, rules: MatgoRules) -> list[str]:
    """The 박 ``p`` risks now: those it would pay if one of the others won now (each
    once, in :func:`~madang.matgo.scoring.bak_risks`' order). Where 고박 is not a 박
    (고스톱: the loser in 고박 pays every share), ``gobak`` reads ``dokbak``."""
    own = captured[p]
    found: set[str] = set()
    for o, theirs in enumerate(captured):
        if o != p:
            found.update(bak_risks(own, theirs, went_go, rules))
    risks = [r for r in _RISK_ORDER if r in found]
    if went_go and not rules.gobak_doubles_share:
        risks[-1] = "dokbak"  # gobak, always the last
    return risks


_RISK_ORDER = ("pibak", "gwangbak", "meongtta", "meongbak", "gobak")


def annotate(v: dict[str, Any]) -> dict[str, Any]:
    """``v`` with :func:`help_of` it added (in place; returned for chaining)."""
    v.update(help_of(v))
    return v


@lru_cache(maxsize=64)
def _rules(game: str, items: tuple[tuple[str, Any], ...]) -> MatgoRules:
    """The rules of a view's ``game`` and ``public.rules`` (as sorted items: hashable)."""
    return rules_class(game).from_dict(dict(items))


def _mask(codes: list[str]) -> int:
    m = 0
    for c in codes:
        m |= 1 << parse_card(c)
    return m


def _progress(m: int, as_pi: bool) -> dict[str, int]:
    """족보 progress of a captured pile ``m``: cards of each kind (국진 where it counts,
    ``as_pi``) and of each set (고도리, 홍단, 청단, 초단: out of 3)."""
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


def _piles(m: int, as_pi: bool) -> dict[str, list[str]]:
    """A captured pile ``m`` as the board lays it out: 광, 열끗, 띠 and 피 (쌍피, 쓰리피
    and bonus cards with the 피, 국진 where it counts for its holder now, ``as_pi``); the
    counts are ``progress``."""
    gwang, tti = m & GWANG_MASK, m & RIBBON_MASK
    yeol = m & ANIMAL_MASK
    if as_pi:
        yeol &= ~GUKJIN_BIT
    return {
        "gwang": codes_of(gwang),
        "yeol": codes_of(yeol),
        "tti": codes_of(tti),
        "pi": codes_of(m & ~(gwang | yeol | tti)),
    }


def _in_force(v: dict[str, Any], p: int) -> list[dict[str, Any]]:
    """The multipliers that ``p``'s score would get now whatever the piles: 3고 and up,
    흔들기·폭탄, a completed mission and the 나가리 carry (the 박 are ``warnings``)."""
    out: list[dict[str, Any]] = []
    go = v["go"][p]
    if go >= 3:
        out.append({"name": "go", "count": go, "factor": 1 << (go - 2)})
    shakes = v["shakes"][p]
    if shakes:
        out.append({"name": "heundeulgi", "count": shakes, "factor": 1 << shakes})
    mission = v["mission_info"]
    if mission is not None and mission["done"][p]:
        out.append({"name": f"mission_{mission['name']}", "factor": mission["multiplier"]})
    if v["carry"] > 1:
        out.append({"name": "nagari_carry", "factor": v["carry"]})
    return out


def _mission_info(state: MatgoState) -> dict[str, Any] | None:
    """미션: its cards, multiplier, and the cards of it each seat holds."""
    mission = state.mission
    if mission is None:
        return None
    held = [codes_of(c & mission.cards) for c in state.captured]
    return {
        "name": mission.name,
        "cards": codes_of(mission.cards),
        "multiplier": mission.multiplier,
        "held": held,
        "done": [len(h) == mission.cards.bit_count() for h in held],
    }


def _last_played(state: MatgoState) -> list[str | None]:
    """The last card each seat played from its hand (a 폭탄's played card included)."""
    out: list[str | None] = [None] * len(state.hands)
    left = len(out)
    for e in reversed(state.events):
        kind = e[0]
        if kind in ("play", "bonus_play", "bomb") and out[e[1]] is None:
            card = e[2] if kind != "bomb" else (e[3] & -e[3]).bit_length() - 1
            out[e[1]] = CODES[card]
            left -= 1
            if not left:
                break
    return out


def _stop_now(state: MatgoState) -> dict[str, Any] | None:
    """At the 고/스톱 question: what 스톱 pays now (the sheet it would settle)."""
    if state.phase is not Phase.GO_STOP:
        return None
    sheet = state.settle_now(state.current)
    return {"seat": state.current, "points": sheet.points, "sheet": sheet.to_dict()}
