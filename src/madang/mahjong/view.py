"""What one seat, or a spectator, may know of a mahjong hand.

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

__all__ = ["declare_pan", "discard_help", "view"]

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
    ``drew`` (the turn seat drew a tile this turn: false after a 뽕), ``kan_draw`` (that
    draw replaced a kan), ``answered`` (the viewer's own answer in the open claim window,
    once given, else ``None``), ``players`` (one dict per seat: ``seat``, ``wind``,
    ``concealed`` count, ``hand``
    (the viewer's own tiles, else ``None``), ``drawn``, ``melds``, ``river``,
    ``flowers``, ``declared``, ``double``, ``face_down``, ``waits`` (불러 only), ``golla``,
    ``my_waits`` and ``jinting`` (own only: the ready hand's waits and whether one is
    among its own discards)), and ``result`` once the hand is over (winners' hands are shown then).
    The table adds what it offers a person (``legal_actions`` in the notation and the
    discard ``help``: :meth:`madang.mahjong.game.MahjongSession.annotate`).
    """
    if seat is not None and (type(seat) is not int or not 0 <= seat < 4):
        raise InvalidActionError(f"a view is for seat 0-3 or None (spectator), not {seat!r}")
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
        "drew": state.phase == PHASE_DISCARD and state.drawn >= 0,
        "kan_draw": state.phase == PHASE_DISCARD and state.kan_draw,
        "answered": (
            str(answer)
            if seat is not None and (answer := state.answers.get(seat)) is not None
            else None
        ),
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
        if res.nagari:  # 나가리: every hand is shown, as on an online table
            out["result"]["hands"] = [
                {"seat": s, "hand": _hand_names(state.hands[s]),
                 "melds": [m.to_dict() for m in state.melds[s]]}
                for s in range(4)
            ]  # fmt: skip
    return out


def declare_pan(first_discard: bool) -> dict[str, int]:
    """The 부가판 that 엎어 and 불러 add when declared now (부지부 in the first turn),
    from the pattern table."""
    from madang.mahjong.patterns import by_name

    if first_discard:
        return {"eopeo": by_name("bujibu_eopeo").pan, "bulleo": by_name("bujibu_bulleo").pan}
    return {"eopeo": by_name("eopeo").pan, "bulleo": by_name("bulleo").pan}


def discard_help(state: HandState, seat: int) -> list[dict[str, Any]] | None:
    """On ``seat``'s own turn: every discard that leaves the hand ready, with its waits
    (and which of them are 진팅: in the seat's own discards) and whether 엎어 / 불러 may
    go with it (their 부가판); ``None`` when it is not ``seat``'s turn to discard.

    Derived from the engine's own legality (``legal_actions``) and wait finder: the
    client only shows it.
    """
    from madang.mahjong.engine import legal_actions

    if state.phase != PHASE_DISCARD or state.turn != seat or seat not in state.pending:
        return None
    legal = legal_actions(state, seat)
    declarable = {(a.tile, a.declare) for a in legal if a.verb == "discard" and a.declare}
    pans = declare_pan(state.discards_made[seat] == 0)
    counts = state.hands[seat]
    melds = len(state.melds[seat])
    discarded = state.discarded[seat]
    out: list[dict[str, Any]] = []
    for a in legal:
        if a.verb != "discard" or a.declare:
            continue
        k = a.tile
        counts[k] -= 1
        try:
            ws = waits(counts, melds, state.rules.quad_as_two_pairs)
        finally:
            counts[k] += 1
        if not ws:
            continue
        out.append(
            {
                "tile": tile_name(k),
                "waits": _names(ws),
                "jinting": _names(w for w in ws if discarded >> w & 1 or w == k),
                "eopeo": pans["eopeo"] if (k, "eopeo") in declarable else None,
                "bulleo": pans["bulleo"] if (k, "bulleo") in declarable else None,
            }
        )
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
        "total_pan": sheet.total_pan,
        "pan_value": sheet.pan_value,
        "pan_points": sheet.total_pan * sheet.pan_value,
        "pot": sheet.pot,
        "points": sheet.points,
        "ron_pays": sheet.ron_pays if w.by == "ron" else 1,
        "sets": list(sheet.sets),
        "wait": sheet.wait,
        "items": [
            {"name": i.name, "name_ko": i.name_ko, "pan": i.pan}
            for i in (*sheet.base_items, *sheet.extra_items)
        ],
    }
