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

from collections.abc import Iterable
from typing import Any, NotRequired, TypedDict

from madang.core.errors import InvalidActionError
from madang.mahjong.hand import waits
from madang.mahjong.state import PHASE_DISCARD, HandState, MeldInfo, WinInfo
from madang.mahjong.tiles import NUM_KINDS, tile_name

__all__ = [
    "Claim",
    "DiscardHelp",
    "HandShown",
    "MahjongMatchInfo",
    "MahjongTableView",
    "MahjongView",
    "Meld",
    "Payment",
    "Player",
    "Result",
    "SheetItem",
    "Winner",
    "declare_pan",
    "discard_help",
    "view",
]

Meld = TypedDict("Meld", {"kind": str, "tile": str, "from": int})
"""A declared meld: ``pon``, ``kan`` or ``ankan``, its tile and the seat the claimed tile
came from (-1 for ``ankan``)."""

Claim = TypedDict("Claim", {"tile": str, "from": int})
"""The tile offered in a claim window and the seat that offered it."""

Payment = TypedDict("Payment", {"from": int, "to": int, "points": int, "reason": str})
"""One payment of a hand."""


class Player(TypedDict):
    """One seat as a view shows it (its concealed tiles only to itself)."""

    seat: int
    wind: str
    concealed: int
    """How many concealed tiles it holds."""
    hand: list[str] | None
    """The viewer's own concealed tiles, else None."""
    drawn: str | None
    """The viewer's tile drawn this turn, on its turn to discard."""
    melds: list[Meld]
    river: list[str]
    flowers: list[str]
    declared: str | None
    """``eopeo`` or ``bulleo`` once declared."""
    double: bool
    face_down: bool
    waits: list[str] | None
    """The waits a 불러 announced."""
    golla: bool | None
    """The viewer's own 골라 (else None)."""
    my_waits: NotRequired[list[str] | None]
    """The viewer's own only: its ready hand's waits between turns (None: not ready, or
    holding a drawn tile)."""
    jinting: NotRequired[bool | None]
    """The viewer's own only: whether one of those waits is among its own discards."""


class SheetItem(TypedDict):
    """One pattern of a winner's sheet."""

    name: str
    name_ko: str
    pan: int


Winner = TypedDict(
    "Winner",
    {
        "seat": int,
        "by": str,  # ron (쏘아) or tsumo (올라)
        "tile": str,
        "from": int,  # the discarder (-1: 올라)
        "hand": list[str],
        "melds": list[Meld],
        "flags": list[str],
        "base_pan": int,
        "extra_pan": int,
        "base_points": int,
        "total_pan": int,
        "pan_value": int,
        "pan_points": int,
        "pot": int,
        "points": int,
        "ron_pays": int,
        "sets": list[str],
        "wait": str,
        "items": list[SheetItem],
    },
)
"""One winner of a finished hand and its score sheet."""


class HandShown(TypedDict):
    """A hand shown after a 나가리."""

    seat: int
    hand: list[str]
    melds: list[Meld]


class Result(TypedDict):
    """A finished hand's result."""

    nagari: bool
    winners: list[Winner]
    payments: list[Payment]
    next_pot: int
    dealer_keeps: bool
    hands: NotRequired[list[HandShown]]
    """After 나가리: every hand, shown as on an online table."""


class MahjongMatchInfo(TypedDict):
    """A table's match, which a session adds to its views (``match``)."""

    scores: list[int]
    hand_no: int
    kyoku: int
    repeat: int
    """연장: hands in a row that this dealer has dealt before this one."""
    rounds: int


class MahjongView(TypedDict):
    """What a seat (or a spectator) knows of a hand (:func:`view`,
    :meth:`MahjongSession.view <madang.mahjong.game.MahjongSession.view>`)."""

    game: str
    seat: int | None
    rules: dict[str, Any]
    dealer: int
    round_wind: str
    pot: int
    wall_count: int
    turn: int
    phase: str
    pending: list[int]
    claim: Claim | None
    drew: bool
    kan_draw: bool
    answered: str | None
    players: list[Player]
    result: Result | None
    match: NotRequired[MahjongMatchInfo]
    """A table's match (a session's views only)."""


class DiscardHelp(TypedDict):
    """A discard that leaves the hand ready (:func:`discard_help`)."""

    tile: str
    waits: list[str]
    jinting: list[str]
    """Those waits among the seat's own discards (진팅)."""
    eopeo: int | None
    """엎어's 부가판 where it may go with this discard, else None."""
    bulleo: int | None


class MahjongTableView(MahjongView):
    """A mahjong view as a table shows it to a person
    (:meth:`MahjongSession.annotate <madang.mahjong.game.MahjongSession.annotate>`):
    the seat's ``legal_actions`` in the notation and its discard ``help``."""

    legal_actions: list[str]
    help: list[DiscardHelp] | None


_DECLARED = (None, "eopeo", "bulleo")


def _names(kinds: Iterable[int]) -> list[str]:
    return [tile_name(k) for k in kinds]


def _hand_names(counts: list[int]) -> list[str]:
    return [tile_name(k) for k in range(NUM_KINDS) for _ in range(counts[k])]


def view(state: HandState, seat: int | None) -> MahjongView:
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
    players: list[Player] = []
    for s in range(4):
        counts = state.hands[s]
        own = s == seat
        declared = state.declared[s]
        p: Player = {
            "seat": s,
            "wind": tile_name(state.seat_wind(s)),
            "concealed": sum(counts),
            "hand": _hand_names(counts) if own else None,
            "drawn": (
                tile_name(state.drawn)
                if own and state.turn == s and state.drawn >= 0 and state.phase == PHASE_DISCARD
                else None
            ),
            "melds": _melds(state.melds[s]),
            "river": _names(state.rivers[s]),
            "flowers": _names(state.flowers[s]),
            "declared": _DECLARED[declared],
            "double": state.double[s],
            "face_down": declared > 0,
            "waits": _names(state.declared_waits[s]) if declared == 2 else None,
            "golla": state.golla[s] if own else None,
        }
        if own:
            p["my_waits"], p["jinting"] = _own_waits(state, s)
        players.append(p)
    if state.phase == PHASE_DISCARD:
        pending = list(state.pending)
    else:
        pending = [seat] if seat is not None and seat in state.pending else []
    out: MahjongView = {
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
        result: Result = {
            "nagari": res.nagari,
            "winners": [_winner(w) for w in res.winners],
            "payments": [
                {"from": f, "to": t, "points": p, "reason": r} for f, t, p, r in res.payments
            ],
            "next_pot": res.next_pot,
            "dealer_keeps": res.dealer_keeps,
        }
        if res.nagari:  # 나가리: every hand is shown, as on an online table
            result["hands"] = [
                {"seat": s, "hand": _hand_names(state.hands[s]), "melds": _melds(state.melds[s])}
                for s in range(4)
            ]
        out["result"] = result
    return out


def _melds(melds: Iterable[MeldInfo]) -> list[Meld]:
    return [{"kind": m.kind, "tile": tile_name(m.tile), "from": m.source} for m in melds]


def declare_pan(first_discard: bool) -> dict[str, int]:
    """The 부가판 that 엎어 and 불러 add when declared now (부지부 in the first turn),
    from the pattern table."""
    from madang.mahjong.patterns import by_name

    if first_discard:
        return {"eopeo": by_name("bujibu_eopeo").pan, "bulleo": by_name("bujibu_bulleo").pan}
    return {"eopeo": by_name("eopeo").pan, "bulleo": by_name("bulleo").pan}


def discard_help(state: HandState, seat: int) -> list[DiscardHelp] | None:
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
    out: list[DiscardHelp] = []
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


def _own_waits(state: HandState, seat: int) -> tuple[list[str] | None, bool | None]:
    """A seat's own waits while its hand is ready between turns, and whether it is in
    진팅 (furiten: a wait among its own discards); ``None`` while holding a drawn tile."""
    counts = state.hands[seat]
    if sum(counts) % 3 != 1:
        return None, None
    ws = waits(counts, len(state.melds[seat]), state.rules.quad_as_two_pairs)
    discarded = state.discarded[seat]
    return _names(ws), any(discarded >> k & 1 for k in ws)


def _winner(w: WinInfo) -> Winner:
    sheet = w.sheet
    return {
        "seat": w.seat,
        "by": w.by,
        "tile": tile_name(w.tile),
        "from": w.source,
        "hand": _names(w.hand),
        "melds": _melds(w.melds),
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
