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

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NotRequired, TypedDict, TypeGuard, cast

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
from madang.matgo.engine import MatgoState, Pending, Phase, TurnDict, rules_class
from madang.matgo.rules import MatgoRules
from madang.matgo.scoring import SheetDict, bak_risks, jokbo_items

__all__ = [
    "HELP_KEYS",
    "FloorMonth",
    "GostopPosition",
    "GostopTable",
    "GostopTableView",
    "GostopView",
    "InForce",
    "LoserSheet",
    "MatgoHelp",
    "MatgoMatchInfo",
    "MatgoPosition",
    "MatgoPublic",
    "MatgoTableView",
    "MatgoView",
    "MissionInfo",
    "Payment",
    "Pending",
    "Piles",
    "Progress",
    "ScoreItem",
    "Shodang",
    "StopNow",
    "TurnDict",
    "annotate",
    "check_seat",
    "help_of",
    "is_gostop_table_view",
    "is_gostop_view",
    "public_view",
    "seat_view",
    "view",
]


class FloorMonth(TypedDict):
    """The floor's cards of one month."""

    month: int
    cards: list[str]
    ppeok: int | None
    """The seat whose 뻑 made the stack (None: no 뻑 stack)."""
    bonus: list[str]
    """Bonus cards lying on the stack."""


class MissionInfo(TypedDict):
    """미션 (mission): its cards, multiplier, and the cards of it each seat holds."""

    name: str
    cards: list[str]
    multiplier: int
    held: list[list[str]]
    done: list[bool]


class StopNow(TypedDict):
    """At the 고/스톱 question: what 스톱 pays now."""

    seat: int
    points: int
    sheet: SheetDict


Payment = TypedDict("Payment", {"from": int, "to": int, "points": int, "reason": str})
"""One payment of a game: ``from`` pays ``to`` ``points`` for ``reason``."""


class Shodang(TypedDict):
    """쇼당 (shodang) in progress: who called it, who accepted, who refused."""

    by: int | None
    accepted: list[int]
    refused: list[int]


class GostopTable(TypedDict):
    """What a table of three or more knows besides Matgo's (``gostop.md`` §7, §8)."""

    no_die: list[int]
    """The seats that may not die (연사 금지: 광팔기)."""
    gwang_due: int
    shodang: Shodang
    bonus_played: bool
    """The seat to act played a bonus card this turn (쇼당 comes before one)."""


class MatgoPublic(TypedDict):
    """The facts of the position a table's software keeps (``public``)."""

    rules: dict[str, Any]
    """The game's rules (``to_dict``)."""
    go_score: list[int]
    turns: list[int]
    ppeok_turns: list[int]
    no_shake: list[list[int]]
    """Per seat, the months it may no longer shake."""
    table: NotRequired[GostopTable]
    """고스톱 only (three seats or more)."""


class MatgoPosition(TypedDict):
    """What everyone may know of a position (:func:`public_view`): every key of a view
    but ``game``, ``seat``, ``hand`` and ``sheet``."""

    dealer: int
    phase: str
    """The :class:`~madang.matgo.engine.Phase`'s name in lower case."""
    pending: Pending
    """Who must answer what (``{}`` once the game is over)."""
    hand_counts: list[int]
    revealed: list[list[str]]
    """Per seat, the cards of its hand a 흔들기 or 총통 showed."""
    floor: list[FloorMonth]
    pile: int
    """The draw pile's count."""
    captured: list[list[str]]
    scores: list[int]
    go: list[int]
    shakes: list[int]
    tokens: list[int]
    ppeok: list[int]
    carry: int
    """The 나가리 multiplier carried into this game."""
    mission: str | None
    gukjin: str
    """How a 국진 counts: ``free`` (its holder chooses), ``animal`` or ``pi``."""
    gukjin_as: list[str | None]
    mission_info: MissionInfo | None
    last_played: list[str | None]
    stop_now: StopNow | None
    turn: TurnDict
    payments: list[Payment]
    public: MatgoPublic
    over: bool
    winner: int | None
    points: int


class MatgoMatchInfo(TypedDict):
    """A table's match, which a session adds to its views (``match``)."""

    game_no: int
    balances: list[int]
    first_draws: list[list[int | None]]
    """선 결정: per round the months each seat drew (None: not drawing). Months only."""
    first_dealer_rule: str


class MatgoView(MatgoPosition):
    """What a seat (or a spectator) knows of a game of 맞고 (:func:`view`,
    :meth:`MatgoSession.view <madang.matgo.game.MatgoSession.view>`). ``docs/protocol.md``
    describes every key."""

    game: str
    seat: int | None
    hand: NotRequired[list[str]]
    """The seat's own hand (a spectator's view has none)."""
    sheet: NotRequired[SheetDict]
    """The finished game's score sheet, once there is one."""
    match: NotRequired[MatgoMatchInfo]
    """A table's match (a session's views only)."""


class GostopPosition(MatgoPosition):
    """What everyone may know of a position of 고스톱: Matgo's, and who sits out and
    who sold (광팔기: seats, or None); its ``public`` has the ``table``."""

    sitting_out: int | None
    seller: int | None


class GostopView(MatgoView, GostopPosition):
    """What a seat (or a spectator) knows of a game of 고스톱 (three seats or more):
    Matgo's view with :class:`GostopPosition`'s keys."""


class ScoreItem(TypedDict):
    """One 족보 that scores now."""

    name: str
    points: int


class Progress(TypedDict):
    """족보 progress of a captured pile: cards of each kind, and of each set (of 3)."""

    gwang: int
    yeol: int
    tti: int
    pi: int
    godori: int
    hongdan: int
    cheongdan: int
    chodan: int


class Piles(TypedDict):
    """A captured pile as the board lays it out."""

    gwang: list[str]
    yeol: list[str]
    tti: list[str]
    pi: list[str]


class InForce(TypedDict):
    """A multiplier a seat's win would get whatever the piles (3고 and up, 흔들기,
    a mission, the 나가리 carry)."""

    name: str
    count: NotRequired[int]
    factor: int


class MatgoHelp(TypedDict):
    """The help a person reads beside a Matgo view (:func:`help_of`), per seat."""

    warnings: list[list[str]]
    """The 박 the seat risks now (``pibak``, ``gwangbak``, ``meongtta``, ``gobak``)."""
    score_items: list[list[ScoreItem]]
    """The 족보 that score now, summing to the view's ``scores``."""
    progress: list[Progress]
    """Cards of each kind (국진 where it counts) and of each set (out of 3)."""
    piles: list[Piles]
    """The captured pile as the board lays it out."""
    in_force: list[list[InForce]]
    """The multipliers the seat's win would get whatever the piles."""


class MatgoTableView(MatgoView, MatgoHelp):
    """A Matgo view as a table shows it to a person (:meth:`MatgoSession.annotate
    <madang.matgo.game.MatgoSession.annotate>`): the view, then on the seat's turn its
    ``legal`` moves in the notation, then the help (:class:`MatgoHelp`)."""

    legal: NotRequired[list[str]]


class LoserSheet(SheetDict):
    """The sheet one loser of a 고스톱 스톱 pays (``loser``: its seat)."""

    loser: int


class GostopTableView(GostopView, MatgoTableView):
    """A 고스톱 view as a table shows it to a person: Matgo's, and once a 스톱 is
    settled each loser's sheet (:func:`madang.gostop.game.loser_sheets`)."""

    sheets: NotRequired[list[LoserSheet]]


HELP_KEYS = tuple(MatgoHelp.__annotations__)
"""The keys :func:`help_of` adds to a view: a person's help, not the seat's knowledge."""

_GUKJIN = {-1: "free", 0: "animal", 1: "pi"}


def view(state: MatgoState, seat: int | None) -> MatgoView:
    """A JSON-able dict of what ``seat`` (a seat of the game's ``rules.players``, or
    ``None`` for a spectator) may know: a :class:`GostopView` where the game seats more
    than two (:func:`is_gostop_view`)."""
    check_seat(seat, state.rules.players)
    return seat_view(public_view(state), state, seat)


def check_seat(seat: object, players: int) -> None:
    """A ValueError unless ``seat`` is one of ``players`` seats or ``None`` (a spectator)."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < players):
        seats = ", ".join(map(str, range(players - 1)))
        raise ValueError(f"seat must be {seats}, {players - 1} or None, not {seat!r}")


def seat_view(public: MatgoPosition, state: MatgoState, seat: int | None) -> MatgoView:
    """``seat``'s view from the state's :func:`public_view` (computed once for every
    seat of one position): the public part plus the seat's own hand and moves."""
    # (mypy cannot know that ``public`` has none of the keys added below)
    out: MatgoView = {"game": state.rules.GAME, "seat": seat, **public}  # type: ignore[typeddict-item]
    if seat is not None:
        out["hand"] = codes_of(state.hands[seat])
    if state.sheet is not None:
        out["sheet"] = state.sheet.to_dict()
    return out


def is_gostop_view(v: MatgoView) -> TypeGuard[GostopView]:
    """Whether ``v`` is the view of a game of three seats or more (고스톱's keys)."""
    return "sitting_out" in v


def is_gostop_table_view(v: MatgoTableView) -> TypeGuard[GostopTableView]:
    """Whether ``v`` is a table's view of a game of three seats or more."""
    return "sitting_out" in v


def public_view(state: MatgoState) -> MatgoPosition:
    """What everyone may know of the position (every key of :func:`view` but ``game``,
    ``seat``, ``hand`` and ``sheet``; no help, :func:`help_of`). Treat it as
    read-only: the views of one position share its parts."""
    seats = range(len(state.hands))
    floor: list[FloorMonth] = []
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
    out: MatgoPosition = {
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
        table: GostopPosition = {
            **out,
            "sitting_out": None if state.sitter < 0 else state.sitter,
            "seller": None if state.seller < 0 else state.seller,
        }
        return table
    return out


def _gukjin_as(state: MatgoState, p: int) -> str | None:
    """How a 국진 in ``p``'s pile counts in ``p``'s score now (None: not held)."""
    if not state.captured[p] & GUKJIN_BIT:
        return None
    return "pi" if state.gukjin_as_pi(p) else "animal"


def help_of(v: Mapping[str, Any]) -> MatgoHelp:
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


def annotate(v: MatgoView, legal: list[str] | None = None) -> MatgoTableView:
    """``v`` as a table shows it to a person: ``legal`` (the seat's moves in the
    notation, where it has any), then :func:`help_of` it, added in place (``v`` is
    returned, now a :class:`MatgoTableView`)."""
    help_ = help_of(v)
    out = cast(MatgoTableView, v)  # the same dict, which the lines below complete
    if legal:
        out["legal"] = legal
    out["warnings"] = help_["warnings"]
    out["score_items"] = help_["score_items"]
    out["progress"] = help_["progress"]
    out["piles"] = help_["piles"]
    out["in_force"] = help_["in_force"]
    return out


@lru_cache(maxsize=64)
def _rules(game: str, items: tuple[tuple[str, Any], ...]) -> MatgoRules:
    """The rules of a view's ``game`` and ``public.rules`` (as sorted items: hashable)."""
    return rules_class(game).from_dict(dict(items))


def _mask(codes: list[str]) -> int:
    m = 0
    for c in codes:
        m |= 1 << parse_card(c)
    return m


def _progress(m: int, as_pi: bool) -> Progress:
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


def _piles(m: int, as_pi: bool) -> Piles:
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


def _in_force(v: Mapping[str, Any], p: int) -> list[InForce]:
    """The multipliers that ``p``'s score would get now whatever the piles: 3고 and up,
    흔들기·폭탄, a completed mission and the 나가리 carry (the 박 are ``warnings``)."""
    out: list[InForce] = []
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


def _mission_info(state: MatgoState) -> MissionInfo | None:
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


def _stop_now(state: MatgoState) -> StopNow | None:
    """At the 고/스톱 question: what 스톱 pays now (the sheet it would settle)."""
    if state.phase is not Phase.GO_STOP:
        return None
    sheet = state.settle_now(state.current)
    return {"seat": state.current, "points": sheet.points, "sheet": sheet.to_dict()}
