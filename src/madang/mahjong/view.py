"""시점 (sijeom): what one seat, or a spectator, may know of a mahjong hand.

:func:`view` is the one function bots, the server and RL encoders read the game
through. A seat sees its own concealed tiles exactly; of every other seat only the
number of concealed tiles, plus everything on the table (melds, discards, flowers), the
waits announced by 불러, and whether a hand lies face down after 엎어. The wall is a
count; its order never appears. A spectator (``seat=None``) sees no concealed tile.

>>> from madang.mahjong.engine import new_hand
>>> v = view(new_hand(seed=2), 1)
>>> v["players"][1]["hand"] is not None, v["players"][0]["hand"], v["wall_count"] > 0
(True, None, True)
"""

from __future__ import annotations

from typing import Any

from madang.core.errors import InvalidActionError
from madang.mahjong.hand import waits
from madang.mahjong.state import PHASE_DISCARD, HandState, WinInfo
from madang.mahjong.tiles import NUM_KINDS, tile_name

__all__ = ["view"]

_DECLARED = (None, "eopeo", "bulleo")


def _names(kinds: Any) -> list[str]:
    return [tile_name(k) for k in kinds]


def _hand_names(counts: list[int]) -> list[str]:
    return [tile_name(k) for k in range(NUM_KINDS) for _ in range(counts[k])]


def view(state: HandState, seat: int | None) -> dict[str, Any]:
    """The knowledge of ``seat`` (0–3) or of a spectator (``None``), as a JSON-ready dict.

    Keys: ``seat``, ``rules``, ``dealer``, ``round_wind``, ``pot``, ``wall_count``,
    ``turn``, ``phase``, ``pending`` (the turn seat during a turn; in a claim window only
    the viewer, if asked), ``claim`` (the tile offered in a window and who offered it),
    ``legal_actions`` (the viewer's, in notation), ``players`` (one dict per seat:
    ``seat``, ``wind``, ``concealed`` count, ``hand`` (the viewer's own tiles, else
    ``None``), ``drawn``, ``melds``, ``river``, ``flowers``, ``declared``, ``double``,
    ``face_down``, ``waits`` (불러 only), ``golla``, ``my_waits`` and ``jinting`` (own
    only: the ready hand's waits and whether one is among its own discards)), and
    ``result`` once the hand is over (winners' hands are shown then).
    """
    if seat is not None and (type(seat) is not int or not 0 <= seat < 4):
        raise InvalidActionError(f"a view is for seat 0-3 or None (spectator), not {seat!r}")
    from madang.mahjong.engine import legal_actions

    players: list[dict[str, Any]] = []
    for s in range(4):
        counts = state.hands[s]
        own = s == seat
        declared = state.declared[s]
        p: dict[str, Any] = {
            "seat": s,
            "wind": tile_name(state.seat_wind(s)),
            "concealed": sum(counts),
            "hand": _hand_names(counts) if own else None,
            "drawn": (
                tile_name(state.drawn)
                if own and state.turn == s and state.drawn >= 0 and state.phase == PHASE_DISCARD
                else None
            ),
            "melds": [m.to_dict() for m in state.melds[s]],
            "river": _names(state.rivers[s]),
            "flowers": _names(state.flowers[s]),
            "declared": _DECLARED[declared],
            "double": state.double[s],
            "face_down": declared > 0,
            "waits": _names(state.declared_waits[s]) if declared == 2 else None,
            "golla": state.golla[s] if own else None,
        }
        if own:
            p.update(_own_waits(state, s))
        players.append(p)
    if state.phase == PHASE_DISCARD:
        pending = list(state.pending)
    else:
        pending = [seat] if seat is not None and seat in state.pending else []
    out: dict[str, Any] = {
        "game": "mahjong",
        "seat": seat,
        "rules": state.rules.to_dict(),
        "dealer": state.dealer,
        "round_wind": tile_name(state.round_wind),
        "pot": state.pot,
        "wall_count": state.wall_count,
        "turn": state.turn,
        "phase": state.phase,
        "pending": pending,
        "claim": (
            {"tile": tile_name(state.claim_tile), "from": state.claim_from}
            if state.claim_tile >= 0
            else None
        ),
        "legal_actions": ([str(a) for a in legal_actions(state, seat)] if seat is not None else []),
        "players": players,
        "result": None,
    }
    res = state.result
    if res is not None:
        out["result"] = {
            "nagari": res.nagari,
            "winners": [_winner(w) for w in res.winners],
            "payments": [
                {"from": f, "to": t, "points": p, "reason": r} for f, t, p, r in res.payments
            ],
            "next_pot": res.next_pot,
            "dealer_keeps": res.dealer_keeps,
        }
    return out


def _own_waits(state: HandState, seat: int) -> dict[str, Any]:
    """A seat's own waits while its hand is ready between turns, and whether it is in
    진팅 (furiten: a wait among its own discards); ``None`` while holding a drawn tile."""
    counts = state.hands[seat]
    if sum(counts) % 3 != 1:
        return {"my_waits": None, "jinting": None}
    ws = waits(counts, len(state.melds[seat]), state.rules.quad_as_two_pairs)
    discarded = state.discarded[seat]
    return {
        "my_waits": _names(ws),
        "jinting": any(discarded >> k & 1 for k in ws),
    }


def _winner(w: WinInfo) -> dict[str, Any]:
    sheet = w.sheet
    return {
        "seat": w.seat,
        "by": w.by,
        "tile": tile_name(w.tile),
        "from": w.source,
        "hand": _names(w.hand),
        "melds": [m.to_dict() for m in w.melds],
        "flags": sorted(w.flags),
        "base_pan": sheet.base_pan,
        "extra_pan": sheet.extra_pan,
        "base_points": sheet.base_points,
        "points": sheet.points,
        "items": [
            {"name": i.name, "name_ko": i.name_ko, "pan": i.pan}
            for i in (*sheet.base_items, *sheet.extra_items)
        ],
    }
