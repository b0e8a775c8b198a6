"""기보 (gibo): mahjong hand records — export, replay, and the ``replay --json`` summary.

A record is a JSON object::

    {"game": "mahjong", "rules": {...}, "dealer": 0, "round": "1z", "pot": 0,
     "wall": ["1m", ... 104 codes, flowers as 1f-4f, top first],
     "moves": ["0 discard 3m", "2 pon", "2 discard 7z", "1 pass", "3 ron", ...]}

Each move is ``SEAT VERB [TILE] [eopeo|bulleo]`` — the seat first, because several
seats answer a claim window. The moves are the decisions only (draws, flower and kan
replacements follow from the wall). A window's answers are listed in turn order after
the discarder. ``rules`` holds any options of notation.md (``{}``: the defaults); an
exported record holds them all. ``dealer`` (default 0), ``round`` (default ``"1z"``),
``pot`` (default 0) are the hand's situation. A record whose moves stop before the hand
ends is a hand in progress. ``notes`` is free text; ``fairness`` (optional) is the data
that proves the wall was the one committed to (``docs/fairness.md``, ``madang verify``).

>>> from madang.mahjong.engine import new_hand, step, default_action
>>> st = new_hand(seed=4)
>>> _ = step(st, default_action(st, 0))
>>> rec = export_record(st)
>>> replay(rec).snapshot() == st.snapshot()
True
>>> replay_json(rec)["finished"]
False
"""

from __future__ import annotations

from typing import Any

from madang.core.errors import MadangError, RecordError
from madang.core.records import check_header
from madang.mahjong.engine import new_hand, step
from madang.mahjong.rules import RULESET_VERSION, MahjongRules
from madang.mahjong.state import Action, HandState
from madang.mahjong.tiles import WINDS, tile_name

__all__ = ["export_record", "replay", "replay_json", "summary"]

_KEYS = frozenset(
    ("game", "ruleset", "rules", "dealer", "round", "pot", "wall", "moves", "notes", "fairness")
)


def export_record(state: HandState) -> dict[str, Any]:
    """The record of ``state``'s hand so far (full rules, the wall, every move)."""
    return {
        "game": "mahjong",
        "ruleset": RULESET_VERSION,
        "rules": state.rules.to_dict(),
        "dealer": state.dealer,
        "round": tile_name(state.round_wind),
        "pot": state.pot,
        "wall": [tile_name(k) for k in state.wall],
        "moves": [a.move for a in state.history],
    }


def replay(record: Any) -> HandState:
    """Deal the record's wall and apply its moves; return the resulting state.

    A malformed record raises :class:`~madang.core.errors.RecordError`; a move that is
    malformed or illegal raises ``RecordError`` with ``index`` the move's 0-based index.
    """
    check_header(record, game="mahjong", keys=_KEYS, ruleset=RULESET_VERSION)
    try:
        rules = MahjongRules.from_dict(record.get("rules", {}))
    except MadangError as e:
        raise RecordError(f"rules: {e}") from None
    dealer = record.get("dealer", 0)
    if type(dealer) is not int or not 0 <= dealer < 4:
        raise RecordError(f"dealer must be a seat 0-3, not {dealer!r}")
    rnd = record.get("round", "1z")
    names = {tile_name(w): w for w in WINDS}
    if rnd not in names:
        raise RecordError(f"round must be a wind 1z-4z, not {rnd!r}")
    pot = record.get("pot", 0)
    if type(pot) is not int or pot < 0:
        raise RecordError(f"pot must be a non-negative integer, not {pot!r}")
    if "wall" not in record:
        raise RecordError("a mahjong record needs its wall")
    moves = record.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError("moves must be a list of strings")
    state = new_hand(rules, wall=record["wall"], dealer=dealer, round_wind=names[rnd], pot=pot)
    for i, move in enumerate(moves):
        if state.over:
            raise RecordError(f"move {i} ({move!r}) comes after the end of the hand", index=i)
        try:
            if not isinstance(move, str):
                raise RecordError(f"move {i} is not a string: {move!r}")
            step(state, Action.parse(move))
        except MadangError as e:
            raise RecordError(f"move {i} ({move!r}): {e}", index=i) from None
    return state


def summary(state: HandState) -> dict[str, Any]:
    """The outcome of a hand as plain data (what ``madang mahjong replay --json`` prints).

    ``finished``; ``winners`` (seats, in turn order after the discarder); ``points``
    (each winner's points, same order; the pot included for the first); ``payments``
    (``from``, ``to``, ``points``, ``reason``: ``ssoa`` or ``olla``); ``nagari``;
    ``pot`` (the pot the next hand starts with; the current one while unfinished);
    ``dealer_keeps``; ``results`` (each win itemised); ``pending`` and ``moves``.
    """
    res = state.result
    out: dict[str, Any] = {
        "finished": res is not None,
        "winners": [],
        "points": [],
        "payments": [],
        "nagari": False,
        "pot": state.pot,
        "dealer_keeps": None,
        "results": [],
        "pending": list(state.pending),
        "moves": len(state.history),
    }
    if res is None:
        return out
    out["winners"] = [w.seat for w in res.winners]
    out["points"] = [w.sheet.points for w in res.winners]
    out["payments"] = [
        {"from": f, "to": t, "points": p, "reason": r} for f, t, p, r in res.payments
    ]
    out["nagari"] = res.nagari
    out["pot"] = res.next_pot
    out["dealer_keeps"] = res.dealer_keeps
    out["results"] = [
        {
            "seat": w.seat,
            "by": w.by,
            "tile": tile_name(w.tile),
            "from": w.source,
            "hand": [tile_name(k) for k in w.hand],
            "melds": [m.to_dict() for m in w.melds],
            "flags": sorted(w.flags),
            "base_pan": w.sheet.base_pan,
            "extra_pan": w.sheet.extra_pan,
            "base_points": w.sheet.base_points,
            "points": w.sheet.points,
            "items": [i.name for i in (*w.sheet.base_items, *w.sheet.extra_items)],
        }
        for w in res.winners
    ]
    return out


def replay_json(obj: Any) -> dict[str, Any]:
    """Replay a record (already parsed JSON) and return :func:`summary` of the result."""
    return summary(replay(obj))
