"""The flow of a Korean mahjong hand and match (``mahjong.md`` §2–§8).

The shape follows OpenSpiel / Pgx: :func:`new_hand` makes a mutable
:class:`~madang.mahjong.state.HandState`; :func:`legal_actions` lists what a seat may do;
:func:`step` applies one :class:`~madang.mahjong.state.Action` and returns the events
(an illegal action raises :class:`~madang.core.errors.IllegalActionError` and changes
nothing); :func:`default_action` is the answer taken when a player's time runs out.

>>> st = new_hand(seed=1)
>>> st.phase, st.turn, st.wall_count + 4 * 13 + 1 + sum(map(len, st.flowers)) == 104
('discard', 0, True)
>>> events = step(st, default_action(st, 0))
>>> events[0]["type"]
'discard'

Claim windows: after a discard every other seat that can 쏘아, 뽕 or 깡 it is asked at
once — ``state.pending`` lists the seats still to answer (in turn order after the
discarder) and ``legal_actions(state, seat)`` each one's choices. Answers may be stepped
in any order; the window resolves when the last one is in (쏘아 beats 뽕/깡; of several
쏘아 the first in turn order after the discarder wins, or all with ``multiple_ron``).
A record lists a window's answers in turn order after the discarder, whatever order
they were given in, so the same game always has the same record.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Mapping, Sequence
from itertools import compress, repeat, starmap
from operator import itemgetter
from types import FunctionType
from typing import Any, Final

from madang.core.errors import (
    IllegalActionError,
    InvalidActionError,
    MadangError,
    RecordError,
    RuleConfigError,
)
from madang.core.rng import make_rng
from madang.mahjong.events import Event
from madang.mahjong.hand import counts_keys, ready_waits, shanten_keys, waits
from madang.mahjong.rules import MahjongRules
from madang.mahjong.scoring import Meld, ScoreSheet, WinContext, score_hand
from madang.mahjong.state import (
    PHASE_CLAIM,
    PHASE_DISCARD,
    PHASE_OVER,
    PHASE_ROB,
    SHOWN_ALL,
    SHOWN_BULLEO,
    SHOWN_CONCEALED,
    SHOWN_DOUBLE,
    SHOWN_EOPEO,
    SHOWN_FLOWERS,
    SHOWN_MELDS,
    SHOWN_PLANE,
    SHOWN_RIVERS,
    SHOWN_WAITS,
    Action,
    HandResult,
    HandState,
    MeldInfo,
    WinInfo,
    act,
    shown_counts,
)
from madang.mahjong.tiles import ALL_TILES, EAST, NUM_KINDS, WINDS, parse_tiles, tile_name

__all__ = [
    "NAGARI_POT",
    "MahjongMatch",
    "build_wall",
    "default_action",
    "from_view",
    "legal_actions",
    "new_hand",
    "offered",
    "resample_hidden",
    "step",
    "tile_counts",
    "wall_from_codes",
]

NAGARI_POT: Final = 5
"""나가리 (nagari): points added to the pot by each drawn hand."""

EOPEO_MIN_WALL: Final = 4
"""엎어/불러 need at least this many tiles left in the wall."""

_KIND_OF: Final = tuple(t >> 2 if t < 100 else t - 75 for t in ALL_TILES)
_NAMES: Final = tuple(tile_name(k) for k in range(29))
_FULL_SET: Final = tuple([4] * NUM_KINDS + [1] * 4)

# Interned actions for the hot paths.
_DISCARD: Final = tuple(tuple(act(s, "discard", k) for k in range(NUM_KINDS)) for s in range(4))
_EOPEO: Final = tuple(
    tuple(act(s, "discard", k, "eopeo") for k in range(NUM_KINDS)) for s in range(4)
)
_BULLEO: Final = tuple(
    tuple(act(s, "discard", k, "bulleo") for k in range(NUM_KINDS)) for s in range(4)
)
_ANKAN: Final = tuple(tuple(act(s, "ankan", k) for k in range(NUM_KINDS)) for s in range(4))
_KAKAN: Final = tuple(tuple(act(s, "kakan", k) for k in range(NUM_KINDS)) for s in range(4))
_TSUMO: Final = tuple(act(s, "tsumo") for s in range(4))
_RON: Final = tuple(act(s, "ron") for s in range(4))
_PON: Final = tuple(act(s, "pon") for s in range(4))
_KAN: Final = tuple(act(s, "kan") for s in range(4))
_PASS: Final = tuple(act(s, "pass") for s in range(4))
_AFTER: Final = tuple(tuple((s + i) % 4 for i in (1, 2, 3)) for s in range(4))
"""The other seats in turn order after each seat."""


# -- creating a hand -----------------------------------------------------------------


def _coerce_rules(rules: MahjongRules | Mapping[str, Any] | None) -> MahjongRules:
    if rules is None:
        return MahjongRules()
    if isinstance(rules, MahjongRules):
        return rules
    return MahjongRules.from_dict(rules)


def wall_from_codes(wall: Sequence[str] | Sequence[int]) -> tuple[int, ...]:
    """A wall as tile kinds, top first, from 104 tile codes (``"3m"``, ``"1f"`` …) or
    from 104 physical tile ids (0–103, each once). A wrong set of tiles raises
    :class:`~madang.core.errors.RecordError`.

    >>> codes = [tile_name(k) for k in range(25) for _ in range(4)] + ["1f", "2f", "3f", "4f"]
    >>> wall_from_codes(codes)[:5], wall_from_codes(list(range(104)))[-5:]
    ((0, 0, 0, 0, 1), (24, 25, 26, 27, 28))
    """
    if isinstance(wall, str | bytes) or not isinstance(wall, Sequence):
        raise RecordError("a wall must be a list of 104 tiles")
    if len(wall) != 104:
        raise RecordError(f"a wall has 104 tiles, not {len(wall)}")
    kinds: list[int] = []
    ids = [t for t in wall if type(t) is int]
    if len(ids) == 104:
        if sorted(ids) != list(ALL_TILES):
            raise RecordError("a wall of tile ids must hold each of 0-103 exactly once")
        kinds = [_KIND_OF[t] for t in ids]
    else:
        for i, code in enumerate(wall):
            if not isinstance(code, str):
                raise RecordError(f"wall[{i}] is not a tile code: {code!r}")
            try:
                ks = parse_tiles(code)
            except InvalidActionError as e:
                raise RecordError(f"wall[{i}]: {e}") from None
            if len(ks) != 1:
                raise RecordError(f"wall[{i}] must be exactly one tile, not {code!r}")
            kinds.append(ks[0])
        counts = [0] * 29
        for k in kinds:
            counts[k] += 1
        if tuple(counts) != _FULL_SET:
            bad = [tile_name(k) for k in range(29) if counts[k] != _FULL_SET[k]]
            raise RecordError(f"the wall does not hold the 104 tiles once each: check {bad}")
    return tuple(kinds)


def _deal_positions(offset: int) -> list[int]:
    """Wall indices of the 13 tiles dealt to the seat ``offset`` places after the dealer."""
    pos = [16 * r + 4 * offset + j for r in range(3) for j in range(4)]
    pos.append(48 + offset)
    return pos


# by offset from the dealer: the 13 tiles a seat is dealt, from the wall's kinds
_DEALT: Final = tuple(itemgetter(*_deal_positions(offset)) for offset in range(4))


def build_wall(
    hands: Sequence[str],
    *,
    draws: str = "",
    back: str = "",
    tail: str = "",
    dealer: int = 0,
) -> list[str]:
    """Craft a wall (tile codes, top first) that deals ``hands[seat]`` to each seat.

    ``draws`` are the tiles taken from the front in order, starting with the dealer's
    14th tile; ``back`` the replacement tiles (flowers, kans) in the order taken from the
    back; ``tail`` the tiles just in front of the ``back`` ones (when exactly the
    ``back`` tiles are used for replacements, the last of ``tail`` is the last tile of
    the wall, the 하이떼이 tile). Hands shorter than 13 tiles and the rest of the wall
    are filled with the tiles left over, in kind order. Too many copies of a tile raise
    ``RecordError``.

    >>> w = build_wall(["123456789m1234p", "", "", ""], draws="5p", back="7z")
    >>> st = new_hand(wall=w)
    >>> st.hands[0][:9], st.drawn, st.wall[-1]
    ([1, 1, 1, 1, 1, 1, 1, 1, 1], 13, 24)
    """
    if len(hands) != 4:
        raise RecordError("build_wall needs four hands (use '' to fill)")
    left = list(_FULL_SET)

    def take(text: str) -> list[int]:
        ks = parse_tiles(text)
        for k in ks:
            left[k] -= 1
            if left[k] < 0:
                raise RecordError(f"too many {tile_name(k)} in the crafted wall")
        return ks

    hand_kinds = [take(h) for h in hands]
    for s, ks in enumerate(hand_kinds):
        if len(ks) > 13:
            raise RecordError(f"hand {s} has {len(ks)} tiles; at most 13 are dealt")
    draw_kinds = take(draws)
    back_kinds = take(back)
    tail_kinds = take(tail)
    filler = [k for k in range(29) for _ in range(left[k])]
    fill_at = 0
    for ks in hand_kinds:
        while len(ks) < 13:
            ks.append(filler[fill_at])
            fill_at += 1
    filler = filler[fill_at:]
    wall: list[int] = [-1] * 104
    for s in range(4):
        for pos, k in zip(_deal_positions((s - dealer) % 4), hand_kinds[s], strict=True):
            wall[pos] = k
    middle = draw_kinds + filler + tail_kinds
    if 52 + len(middle) + len(back_kinds) != 104:  # pragma: no cover - counts guarantee it
        raise RecordError("crafted wall does not add up to 104 tiles")
    wall[52 : 52 + len(middle)] = middle
    for i, k in enumerate(back_kinds):
        wall[103 - i] = k
    return [_NAMES[k] for k in wall]


def new_hand(
    rules: MahjongRules | Mapping[str, Any] | None = None,
    *,
    seed: int | None = None,
    wall: Sequence[str] | Sequence[int] | None = None,
    dealer: int = 0,
    round_wind: int = EAST,
    pot: int = 0,
) -> HandState:
    """Deal a new hand and return its state, the dealer to act on 14 tiles.

    The wall is shuffled from ``seed`` (``None``: from the OS) or given as ``wall``
    (see :func:`wall_from_codes`), top first. The deal (§2): from the dealer, each seat
    takes 4, 4, 4, then 1 tile from the top; the dealer then draws a 14th. Flowers are
    laid out and replaced from the back of the wall, the dealer first, then in turn
    order, each seat's flowers in tile order (a replacement flower is replaced again).
    """
    rules = _coerce_rules(rules)
    if type(dealer) is not int or not 0 <= dealer < 4:
        raise RuleConfigError(f"dealer must be a seat 0-3, not {dealer!r}")
    if round_wind not in WINDS:
        raise RuleConfigError(f"round_wind must be a wind kind 18-21, not {round_wind!r}")
    if type(pot) is not int or pot < 0:
        raise RuleConfigError(f"pot must be a non-negative integer, not {pot!r}")
    if wall is None:
        rng = make_rng(seed)
        if _INTERPRETED:  # the keys and kinds by map, whose loops run in C (the
            # interpreter's comprehensions cost about 50,000 instructions more a deal)
            keys = list(starmap(rng.random, repeat((), len(ALL_TILES))))
            kinds = tuple(map(_KIND_OF.__getitem__, sorted(ALL_TILES, key=keys.__getitem__)))
        else:  # compiled: the comprehensions are native loops (cheaper than map's)
            rnd = rng.random
            keys = [rnd() for _ in ALL_TILES]
            kinds = tuple([_KIND_OF[t] for t in sorted(ALL_TILES, key=keys.__getitem__)])
    else:
        kinds = wall_from_codes(wall)

    st = HandState.blank(rules, kinds, dealer, round_wind, pot)

    events: list[Event] = []
    dealt: list[list[int]] = [[] for _ in range(4)]
    for offset in range(4):
        seat = (dealer + offset) % 4
        dealt[seat] = list(_DEALT[offset](kinds))
    dealt[dealer].append(kinds[52])
    st.draws[dealer] = 1
    for offset in range(4):
        seat = (dealer + offset) % 4
        tiles = dealt[seat]
        events.append({"type": "deal", "seat": seat, "tiles": [_NAMES[k] for k in tiles[:13]]})
        if seat == dealer:
            events.append({"type": "draw", "seat": seat, "tile": _NAMES[tiles[13]]})
    last_dealer_tile = kinds[52] if kinds[52] < NUM_KINDS else -1
    for offset in range(4):
        seat = (dealer + offset) % 4
        hand = st.hands[seat]
        nflowers = 0
        for k in dealt[seat]:
            if k >= NUM_KINDS:
                nflowers += 1
            else:
                hand[k] += 1
        for k in sorted(k for k in dealt[seat] if k >= NUM_KINDS):
            st.flowers[seat].append(k)
            _show_flower(st, seat, k)
            events.append({"type": "flower", "seat": seat, "tile": _NAMES[k]})
            got = _draw_back(st, seat, events)
            if got < 0:  # pragma: no cover - the wall cannot run out during the deal
                raise RecordError("the wall ran out during the deal")
            if seat == dealer and kinds[52] >= NUM_KINDS:
                last_dealer_tile = got
    st.deal_events = tuple(events)
    _enter_discard(st, dealer, last_dealer_tile, False)
    return st


# -- helpers ---------------------------------------------------------------------------


def _draw_back(st: HandState, seat: int, events: list[Event] | None) -> int:
    """Draw from the back for ``seat``, laying out flowers; -1 if the wall ran out."""
    while st.back > st.front:
        st.back -= 1
        k = st.wall[st.back]
        if k >= NUM_KINDS:
            st.flowers[seat].append(k)
            _show_flower(st, seat, k)
            if events is not None:
                events.append({"type": "flower", "seat": seat, "tile": _NAMES[k]})
            continue
        st.hands[seat][k] += 1
        if events is not None:
            events.append({"type": "draw", "seat": seat, "tile": _NAMES[k], "back": True})
        return k
    return -1


def _show_flower(st: HandState, seat: int, k: int) -> None:
    """A flower laid out, counted in :attr:`HandState.shown` (both copies)."""
    at = SHOWN_FLOWERS + 4 * seat + k - NUM_KINDS
    shown = st.shown
    shown[at] += 1
    shown[at + 16] += 1  # (the second copy: 4 seats of 4 flowers on)


def _show_meld(st: HandState, seat: int, tile: int, before: int, after: int) -> None:
    """A meld of ``tile`` that showed ``before`` tiles shows ``after``, in
    :attr:`HandState.shown` (both copies, and the count of every tile shown)."""
    shown = st.shown
    at = SHOWN_MELDS + NUM_KINDS * seat + tile
    shown[at] = shown[at + SHOWN_PLANE] = after
    shown[SHOWN_ALL + tile] += after - before


def _show_new_meld(st: HandState, seat: int, tile: int, tiles: int) -> None:
    """A new meld of ``tiles`` tiles (퐁 3, 깡 and 안깡 4), in :attr:`HandState.shown`:
    its tiles shown, and three fewer concealed tiles between turns."""
    _show_meld(st, seat, tile, 0, tiles)
    st.shown[SHOWN_CONCEALED + seat] -= 3
    st.shown[SHOWN_CONCEALED + seat + 4] -= 3


def _show_taken(st: HandState, d: int, tile: int) -> None:
    """``d``'s last discard taken out of its river (claimed, or won on), in
    :attr:`HandState.shown`."""
    shown = st.shown
    at = SHOWN_RIVERS + NUM_KINDS * d + tile
    shown[at] -= 1
    shown[at + SHOWN_PLANE] -= 1
    shown[SHOWN_ALL + tile] -= 1


def _shanten(st: HandState, seat: int) -> int:
    km, kp, kz = counts_keys(st.hands[seat])
    return shanten_keys(km, kp, kz, len(st.melds[seat]), st.rules.quad_as_two_pairs)


def _waits_of(st: HandState, seat: int) -> tuple[int, ...]:
    """The kinds that complete the seat's hand and can still arrive: a kind whose four
    copies the seat already holds, melds included, is no wait."""
    melds = st.melds[seat]
    hand = st.hands[seat]
    ws = ready_waits(hand, len(melds), st.rules.quad_as_two_pairs)
    if melds:
        held = [0] * len(hand)
        for m in melds:
            held[m.tile] += 3 if m.kind == "pon" else 4
        ws = [k for k in ws if hand[k] + held[k] < 4]
    return tuple(ws)


def _waits_mask(st: HandState, seat: int) -> int:
    """The seat's waits (3k+1 tiles) as a bitmask, computed once per hand change."""
    m = st._waits[seat]
    if m < 0:
        m = 0
        for k in _waits_of(st, seat):  # (none unless the hand is ready)
            m |= 1 << k
        st._waits[seat] = m
    return m


def _enter_discard(st: HandState, seat: int, drawn: int, kan_draw: bool) -> None:
    st.phase = PHASE_DISCARD
    st.turn = seat
    st.pending = [seat]
    st.options = {}
    st.answers = {}
    st.drawn = drawn
    st.kan_draw = kan_draw
    st.claim_tile = -1
    st.claim_from = -1
    if st.declared[seat]:
        st.turn_shanten = -1 if (st._waits[seat] >> drawn) & 1 else 0
    else:
        st.turn_shanten = _shanten(st, seat)


def _score(
    st: HandState,
    seat: int,
    counts: Sequence[int],
    tile: int,
    by: str,
    flags: frozenset[str],
    pot: int,
) -> ScoreSheet:
    kinds = [k for k in range(NUM_KINDS) for _ in range(counts[k])]
    melds = [Meld(m.kind, m.tile) for m in st.melds[seat]]
    ctx = WinContext(
        by=by,
        win_tile=tile,
        seat_wind=st.seat_wind(seat),
        round_wind=st.round_wind,
        flowers=len(st.flowers[seat]),
        flags=flags,
        pot=pot,
    )
    return score_hand(kinds, melds, ctx, st.rules)


def _declare_flags(st: HandState, seat: int) -> set[str]:
    d = st.declared[seat]
    if not d:
        return set()
    if st.double[seat]:
        return {"double_eopeo", "bulleo"} if d == 2 else {"double_eopeo"}
    return {"bulleo"} if d == 2 else {"eopeo"}


def _ron_flags(st: HandState, seat: int, robbed: bool) -> frozenset[str]:
    flags = _declare_flags(st, seat)
    if robbed:
        flags.add("robbed_kan")
    elif st.front == st.back:
        flags.add("haitei")
    if not st.any_call and st.draws[seat] == 0:
        flags.add("first_draw")
    return frozenset(flags)


def _tsumo_flags(st: HandState, seat: int) -> frozenset[str]:
    flags = _declare_flags(st, seat)
    if st.kan_draw:
        flags.add("kan_draw")
    if st.front == st.back:  # a kan replacement that empties the wall counts both
        flags.add("haitei")
    if not st.any_call and st.draws[seat] == 1 and st.discards_made[seat] == 0:
        flags.add("first_draw")
    return frozenset(flags)


def _with_tile(counts: Sequence[int], tile: int) -> list[int]:
    c = list(counts)
    c[tile] += 1
    return c


def _can_ron(st: HandState, seat: int, tile: int, robbed: bool) -> bool:
    """쏘아 (ssoa) allowed: the tile completes the hand, no 진팅, no 골라 쏘아 금지,
    and the hand reaches the table minimum."""
    mask = _waits_mask(st, seat)
    if not (mask >> tile) & 1 or mask & st.discarded[seat] or st.golla[seat]:
        return False
    if st.rules.min_pan == 0:
        return True
    sheet = _score(
        st,
        seat,
        _with_tile(st.hands[seat], tile),
        tile,
        "ron",
        _ron_flags(st, seat, robbed),
        0,
    )
    return sheet.valid


def _can_tsumo(st: HandState, seat: int) -> bool:
    if st.drawn < 0 or st.turn_shanten != -1:
        return False
    if st.rules.min_pan == 0:
        return True
    return _score(st, seat, st.hands[seat], st.drawn, "tsumo", _tsumo_flags(st, seat), 0).valid


def _declarable_waits(st: HandState, seat: int) -> tuple[int, ...]:
    """The waits of the seat's hand (3k+1 tiles) if 엎어 may be declared on it, else ():
    ready, and under a table minimum on a wait that reaches it."""
    w = _waits_of(st, seat)
    if w and st.rules.min_pan:
        c = st.hands[seat]
        for k in w:
            if _score(st, seat, _with_tile(c, k), k, "ron", frozenset(), 0).valid:
                return w
        return ()
    return w


def _eopeo_waits(st: HandState, seat: int, tile: int) -> tuple[int, ...]:
    """The waits after discarding ``tile`` if 엎어 is allowed with that discard, else ()."""
    c = st.hands[seat]
    c[tile] -= 1
    try:
        return _declarable_waits(st, seat)
    finally:
        c[tile] += 1


def _can_declare(st: HandState, seat: int) -> bool:
    return (
        not st.declared[seat]
        and st.turn_shanten <= 0
        and st.back - st.front >= EOPEO_MIN_WALL
        and all(m.kind == "ankan" for m in st.melds[seat])
    )


# -- the public API --------------------------------------------------------------------


def legal_actions(state: HandState, seat: int | None = None) -> list[Action]:
    """What ``seat`` may do now (``[]`` if it has nothing to answer); with ``seat=None``
    the actions of every seat in ``state.pending``. Empty exactly when the hand is over.

    Order: ``tsumo``, ``ankan``, ``kakan``, plain discards, discards with ``eopeo`` and
    ``bulleo``; in a claim window ``ron``, ``pon``, ``kan``, ``pass``. The list is cached
    on the state until the next :func:`step`: read it, do not modify it.
    """
    cache = state._legal
    if cache is None:
        cache = state._legal = {}
    got = cache.get(seat)
    if got is not None:
        return got
    if seat is None:
        pending = state.pending
        if len(pending) == 1:
            out = legal_actions(state, pending[0])
        else:
            out = []
            for s in pending:
                out.extend(legal_actions(state, s))
    elif seat not in state.pending:
        out = []
    elif state.phase == PHASE_DISCARD:
        out = _turn_actions(state, seat)
    else:
        out = list(state.options[seat])
    cache[seat] = out
    return out


def _turn_actions(st: HandState, seat: int) -> list[Action]:
    c = st.hands[seat]
    out: list[Action] = []
    if _can_tsumo(st, seat):
        out.append(_TSUMO[seat])
    if st.declared[seat]:
        out.append(_DISCARD[seat][st.drawn])
        return out
    # Plain loops over the counts for the compiled build, which runs them natively; the
    # interpreter runs 25 turns of each, where `4 in c` and `compress` scan in C (about
    # 10,000 instructions less a call, counted by callgrind): the same actions.
    if st.drawn >= 0 and st.back > st.front:
        ankan = _ANKAN[seat]
        if not _INTERPRETED:
            for k in range(NUM_KINDS):
                if c[k] == 4:
                    out.append(ankan[k])
        elif 4 in c:
            out.extend([ankan[k] for k in range(NUM_KINDS) if c[k] == 4])
        for m in st.melds[seat]:
            if m.kind == "pon" and c[m.tile]:
                out.append(_KAKAN[seat][m.tile])
    discard = _DISCARD[seat]
    if _INTERPRETED:
        out.extend(compress(discard, c))
    else:
        for k in range(NUM_KINDS):
            if c[k]:
                out.append(discard[k])
    if _can_declare(st, seat):
        eo = _EOPEO[seat]
        bu = _BULLEO[seat]
        decl = [k for k in range(NUM_KINDS) if c[k] and _eopeo_waits(st, seat, k)]
        out.extend([eo[k] for k in decl])
        out.extend([bu[k] for k in decl])
    return out


_INTERPRETED: Final = isinstance(_turn_actions, FunctionType)  # not the compiled build


def default_action(state: HandState, seat: int) -> Action:
    """The answer taken when ``seat``'s time runs out: never a win.

    In a claim window: ``pass``. On one's turn: discard the tile just drawn, or after a
    뽕 (no draw) the highest tile in the hand (the last one in sorted order).
    """
    if seat not in state.pending:
        raise IllegalActionError(f"seat {seat} has nothing to answer")
    if state.phase != PHASE_DISCARD:
        return _PASS[seat]
    if state.drawn >= 0:
        return _DISCARD[seat][state.drawn]
    c = state.hands[seat]
    for k in range(NUM_KINDS - 1, -1, -1):
        if c[k]:
            return _DISCARD[seat][k]
    raise IllegalActionError("empty hand")  # pragma: no cover - a hand is never empty


def step(state: HandState, action: object, events: bool = True) -> list[Event]:
    """Apply ``action`` and return the events it caused (see :mod:`madang.mahjong.events`).

    Not legal now (wrong seat, not in :func:`legal_actions`, hand over) raises
    :class:`~madang.core.errors.IllegalActionError` and leaves ``state`` unchanged.
    ``events=False`` builds no events and returns ``[]`` (the batched environments'
    steps, a little faster); the hand changes the same.
    """
    if state.phase == PHASE_OVER:
        raise IllegalActionError("the hand is over")
    if not isinstance(action, Action):
        raise IllegalActionError(f"not an action: {action!r}")
    seat = action.seat
    if seat not in state.pending:
        raise IllegalActionError(f"seat {seat} is not asked to act now ({action})")
    for a in legal_actions(state, seat):
        if a is action:
            break
    else:
        legal = legal_actions(state, seat)
        if action not in legal:
            raise IllegalActionError(f"{action.move} is not legal now")
        action = legal[legal.index(action)]
    state._legal = None
    out: list[Event] = []
    sink = out if events else None
    if state.phase == PHASE_DISCARD:
        state.history.append(action)
        verb = action.verb
        if verb == "discard":
            _discard(state, seat, action.tile, action.declare, sink)
        elif verb == "tsumo":
            _win_tsumo(state, seat, sink)
        elif verb == "ankan":
            _ankan(state, seat, action.tile, sink)
        else:
            _kakan(state, seat, action.tile, sink)
    else:
        _answer(state, action, sink)
    return out


# -- turn actions ----------------------------------------------------------------------


def _discard(st: HandState, seat: int, tile: int, declare: str, events: list[Event] | None) -> None:
    _place_discard(st, seat, tile, declare, events)
    _open_claims(st, seat, tile, events)


def _place_discard(
    st: HandState, seat: int, tile: int, declare: str, events: list[Event] | None
) -> None:
    """The tile leaves the hand for the river (with its 엎어/불러); nothing follows yet."""
    if declare:
        w = _eopeo_waits(st, seat, tile)
    st.hands[seat][tile] -= 1
    st.rivers[seat].append(tile)
    shown = st.shown
    at = SHOWN_RIVERS + NUM_KINDS * seat + tile  # (the river counted: both copies)
    shown[at] += 1
    shown[at + SHOWN_PLANE] += 1
    shown[SHOWN_ALL + tile] += 1
    st.discarded[seat] |= 1 << tile
    first = st.discards_made[seat] == 0
    st.discards_made[seat] += 1
    if declare:
        st.declared[seat] = 2 if declare == "bulleo" else 1
        st.double[seat] = first
        st.declared_waits[seat] = w
        mask = 0
        for k in w:
            mask |= 1 << k
        st._waits[seat] = mask
        for place in (seat, seat + 4):  # (shown: the declaration, 부지부, 불러's waits)
            shown[(SHOWN_BULLEO if declare == "bulleo" else SHOWN_EOPEO) + place] = 1
            shown[SHOWN_DOUBLE + place] = first
            if declare == "bulleo":
                for k in w:
                    shown[SHOWN_WAITS + NUM_KINDS * place + k] = 1
    elif not st.declared[seat]:
        st._waits[seat] = 0 if st.turn_shanten >= 1 else -1
    if events is not None:
        ev: Event = {"type": "discard", "seat": seat, "tile": _NAMES[tile]}
        if declare:
            ev["declare"] = declare
            if first:
                ev["double"] = True
            if declare == "bulleo":
                ev["waits"] = [_NAMES[k] for k in w]
        events.append(ev)
    st.drawn = -1
    st.kan_draw = False


def _open_claims(st: HandState, discarder: int, tile: int, events: list[Event] | None) -> None:
    pending, options = _claim_options(st, discarder, tile)
    if not pending:
        _next_turn(st, _AFTER[discarder][0], events)
        return
    _open_window(st, PHASE_CLAIM, pending, options, tile, discarder, events)


def _claim_options(
    st: HandState, discarder: int, tile: int
) -> tuple[list[int], dict[int, tuple[Action, ...]]]:
    """Who may claim the discarded ``tile`` (in turn order), and with which answers."""
    last = st.front == st.back  # 하이떼이: only 쏘아 on the last discard
    options: dict[int, tuple[Action, ...]] = {}
    pending: list[int] = []
    hands = st.hands
    waits_ = st._waits
    for s in _AFTER[discarder]:
        w = waits_[s]
        ron = (w < 0 or (w >> tile) & 1) and _can_ron(st, s, tile, False)
        n = 0 if last or st.declared[s] else hands[s][tile]
        if not ron and n < 2:
            continue
        acts = [_RON[s]] if ron else []
        if n >= 2:
            acts.append(_PON[s])
            if n == 3:
                acts.append(_KAN[s])
        acts.append(_PASS[s])
        options[s] = tuple(acts)
        pending.append(s)
    return pending, options


def _open_window(
    st: HandState,
    phase: str,
    pending: list[int],
    options: dict[int, tuple[Action, ...]],
    tile: int,
    source: int,
    events: list[Event] | None,
) -> None:
    """Ask every seat in ``pending`` about ``tile`` (a discard, or a 깡 to rob)."""
    st.phase = phase
    st.pending = pending
    st.options = options
    st.answers = {}
    st.claim_tile = tile
    st.claim_from = source
    st.window_start = len(st.history)
    if events is not None:
        for s in pending:
            events.append({"type": "ask", "seat": s, "tile": _NAMES[tile],
                           "options": [a.verb for a in options[s]]})  # fmt: skip


def _next_turn(st: HandState, seat: int, events: list[Event] | None) -> None:
    """쓰무 (sseumu): ``seat`` draws from the front (flowers replaced from the back)."""
    st.golla[seat] = False
    if st.front >= st.back:
        _nagari(st, events)
        return
    k = st.wall[st.front]
    st.front += 1
    st.draws[seat] += 1
    if k >= NUM_KINDS:
        st.flowers[seat].append(k)
        _show_flower(st, seat, k)
        if events is not None:
            events.append({"type": "flower", "seat": seat, "tile": _NAMES[k]})
        k = _draw_back(st, seat, events)
        if k < 0:
            _nagari(st, events)
            return
    else:
        st.hands[seat][k] += 1
        if events is not None:
            events.append({"type": "draw", "seat": seat, "tile": _NAMES[k]})
    _enter_discard(st, seat, k, False)


def _replacement(st: HandState, seat: int, events: list[Event] | None) -> None:
    """The replacement draw after a kan, from the back."""
    k = _draw_back(st, seat, events)
    if k < 0:
        _nagari(st, events)
        return
    _enter_discard(st, seat, k, True)


def _made_call(st: HandState) -> None:
    st.any_call = True
    st.golla = [False, False, False, False]


def _ankan(st: HandState, seat: int, tile: int, events: list[Event] | None) -> None:
    st.hands[seat][tile] -= 4
    st.melds[seat].append(MeldInfo("ankan", tile))
    _show_new_meld(st, seat, tile, 4)
    st._waits[seat] = -1
    _made_call(st)
    if events is not None:
        events.append({"type": "ankan", "seat": seat, "tile": _NAMES[tile]})
    _replacement(st, seat, events)


def _rob_options(
    st: HandState, seat: int, tile: int
) -> tuple[list[int], dict[int, tuple[Action, ...]]]:
    """Who may rob ``seat``'s 가깡 of ``tile`` (창깡), in turn order."""
    robbers: dict[int, tuple[Action, ...]] = {}
    pending: list[int] = []
    for s in _AFTER[seat]:
        if _can_ron(st, s, tile, True):
            robbers[s] = (_RON[s], _PASS[s])
            pending.append(s)
    return pending, robbers


def _kakan(st: HandState, seat: int, tile: int, events: list[Event] | None) -> None:
    pending, robbers = _rob_options(st, seat, tile)
    _add_to_pon(st, seat, tile, events)
    if not pending:
        _made_call(st)
        _replacement(st, seat, events)
        return
    st.drawn = -1
    _open_window(st, PHASE_ROB, pending, robbers, tile, seat, events)


def _add_to_pon(st: HandState, seat: int, tile: int, events: list[Event] | None) -> None:
    """가깡 (gakang): the fourth tile joins the 뽕; nothing follows yet."""
    st.hands[seat][tile] -= 1
    melds = st.melds[seat]
    for i, m in enumerate(melds):
        if m.kind == "pon" and m.tile == tile:
            melds[i] = MeldInfo("kan", tile, m.source)
            _show_meld(st, seat, tile, 3, 4)
            break
    st._waits[seat] = -1
    st.any_call = True
    if events is not None:
        events.append({"type": "kakan", "seat": seat, "tile": _NAMES[tile]})


def offered(state: HandState, action: Action) -> HandState:
    """The hand as the whole table may see it while ``action`` (a discard or a 가깡 of
    the turn seat) is offered to the others: a copy with the tile in the river (or on the
    뽕), in a window (``claim`` or ``rob``) that asks nobody, before any claim, draw or
    replacement.

    The server shows this to every seat that was not asked, whether or not anyone was:
    the same content in both cases, so no seat learns from it that another could claim.
    ``action`` must be legal now (check it with :func:`step` on the real state).

    >>> st = new_hand(seed=3)
    >>> a = next(a for a in legal_actions(st, st.turn) if a.verb == "discard")
    >>> shown = offered(st, a)
    >>> shown.phase, shown.pending, shown.claim_from == st.turn, st.phase
    ('claim', [], True, 'discard')
    """
    st = state.clone()
    st._legal = None
    seat, tile = action.seat, action.tile
    if action.verb == "discard":
        _place_discard(st, seat, tile, action.declare, None)
        st.phase = PHASE_CLAIM
    elif action.verb == "kakan":
        _add_to_pon(st, seat, tile, None)
        st.drawn = -1
        st.phase = PHASE_ROB
    else:
        raise IllegalActionError(f"only a discard or a 가깡 is offered, not {action.verb}")
    st.pending = []
    st.options = {}
    st.answers = {}
    st.claim_tile = tile
    st.claim_from = seat
    return st


def resample_hidden(state: HandState, seat: int | None, rng: random.Random) -> None:
    """Deal again, at random and in place, the tiles that ``seat`` (``None``: a
    spectator) cannot see: the concealed tiles of the other seats and the live wall (a
    new world for a search; the wall's order is forgotten). Flowers stay in the wall.

    Kept as they are: the hands of seats that declared 엎어 or 불러 (their waits are
    fixed) and of the seats asked in an open claim window (the options they are
    answering stand on them). The turn seat's drawn tile becomes one of its re-dealt
    tiles. Everything ``seat`` may see (its view) is unchanged.

    >>> import random
    >>> from madang.mahjong.view import view
    >>> st = new_hand(seed=2)
    >>> before = view(st, 1)
    >>> resample_hidden(st, 1, random.Random(0))
    >>> view(st, 1) == before, st.hands[0] == new_hand(seed=2).hands[0]
    (True, False)
    """
    if state.over:
        return
    asked = state.pending if state.phase in (PHASE_CLAIM, PHASE_ROB) else []
    redeal = [s for s in range(4) if s != seat and not state.declared[s] and s not in asked]
    pool: list[int] = []
    for s in redeal:
        for k, n in enumerate(state.hands[s]):
            pool += [k] * n
    live = state.wall[state.front : state.back]
    pool += [k for k in live if k < NUM_KINDS]
    rng.shuffle(pool)
    i = 0
    for s in redeal:
        n = sum(state.hands[s])
        hand = [0] * NUM_KINDS
        for k in pool[i : i + n]:
            hand[k] += 1
        i += n
        state.hands[s] = hand
        state._waits[s] = -1
    rest = pool[i:] + [k for k in live if k >= NUM_KINDS]
    rng.shuffle(rest)
    state.wall = state.wall[: state.front] + tuple(rest) + state.wall[state.back :]
    turn = state.turn
    if state.phase == PHASE_DISCARD and turn in redeal:
        if state.drawn >= 0:
            tiles = [k for k, n in enumerate(state.hands[turn]) for _ in range(n)]
            state.drawn = rng.choice(tiles)
        state.turn_shanten = _shanten(state, turn)
    state._legal = None


# -- a state from a view ---------------------------------------------------------------

_DECLARED_CODES: Final = {None: 0, "eopeo": 1, "bulleo": 2}
_MELD_KINDS: Final = ("pon", "kan", "ankan")
_CHOW_STARTS: Final = tuple(k for k in range(18) if k % 9 <= 6)
_WORLD_TRIES: Final = 400
"""Deals tried for a world before :func:`from_view` gives up (a claim window nobody
else could be asked in, or a declared hand that cannot be built from the unseen tiles)."""
_READY_TRIES: Final = 60


def from_view(v: Mapping[str, Any], rng: random.Random) -> HandState:
    """A full hand consistent with a seat's view (:func:`madang.mahjong.view.view`):
    every visible fact kept, the tiles the seat cannot see dealt at random (OpenSpiel's
    ResampleFromInfostate; see :func:`resample_hidden` to re-deal a true state).

    What the view does not show is chosen so that the world could be the real hand:

    * the other seats' concealed tiles and the live wall are dealt from the unseen
      tiles; a seat that declared 엎어 gets a ready hand it could have declared on (its
      waits become its fixed waits), a 불러 seat one ready on exactly its shown waits;
    * another seat's 골라 쏘아 금지 is off; counts only the table shows (discards made,
      draws, whether a call was made) are derived from the rivers and melds;
    * in an open claim window the seats asked are those the dealt hands let claim the
      tile, at least one besides the viewer if the viewer has answered or was not
      asked (deals are drawn until that holds; after many plain deals one of the
      others is dealt a hand that can claim: a pair of the tile or a ready hand on it);
      answers already given by others are forgotten (they are hidden), the viewer's
      own stands;
    * the wall's order and the moves so far are unknown: ``wall`` holds the live wall
      only (``-1`` outside it) and ``history`` is empty.

    A declared hand is built as a complete hand less one tile (or six pairs and a
    single), or for a 불러 on several waits of one suit from a ready shape with exactly
    those waits, so its shape is random but not uniform over all ready hands. Under a
    table minimum a declared hand must have reached it; when the first half of the
    tries finds none, a hand ready on the same waits that would not have is accepted
    (which 판 a face-down hand holds is what the view cannot tell). A bad or
    inconsistent view raises :class:`RecordError`.

    >>> from madang.mahjong.view import view
    >>> st = new_hand(seed=4)
    >>> w = from_view(view(st, st.turn), random.Random(0))
    >>> view(w, st.turn) == view(st, st.turn), legal_actions(w) == legal_actions(st)
    (True, True)
    """
    seat = v.get("seat") if isinstance(v, Mapping) else None
    if type(seat) is not int or not 0 <= seat < 4 or v.get("game") != "mahjong":
        raise RecordError("a state from a view needs a seat's mahjong view (with its hand)")
    try:
        return _from_view(v, seat, rng)
    except RecordError:
        raise
    except (MadangError, KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise RecordError(f"bad view: {e}") from None


def _seat_no(x: Any) -> int:
    if type(x) is not int or not 0 <= x < 4:
        raise RecordError(f"not a seat: {x!r}")
    return x


def _from_view(v: Mapping[str, Any], seat: int, rng: random.Random) -> HandState:
    phase = v["phase"]
    if phase not in (PHASE_DISCARD, PHASE_CLAIM, PHASE_ROB) or v["result"] is not None:
        raise RecordError(f"no hidden tiles to deal in phase {phase!r}")
    pot = v["pot"]
    if type(pot) is not int or pot < 0:
        raise RecordError(f"bad pot: {pot!r}")
    st = HandState.blank(
        MahjongRules.from_dict(v["rules"]),
        (),
        _seat_no(v["dealer"]),
        parse_tiles(v["round_wind"])[0],
        pot,
    )
    if st.round_wind not in WINDS:
        raise RecordError(f"bad round wind: {v['round_wind']!r}")
    left = list(_FULL_SET)

    def take(kinds: Sequence[int], n: int = 1) -> None:
        for k in kinds:
            left[k] -= n
            if left[k] < 0:
                raise RecordError(f"the view shows too many {tile_name(k)}")

    players = v["players"]
    if len(players) != 4:
        raise RecordError("a view has four players")
    turn = _seat_no(v["turn"])
    concealed: list[int] = []
    for s, p in enumerate(players):
        for m in p["melds"]:
            kind, tile, source = m["kind"], parse_tiles(m["tile"])[0], m["from"]
            if kind not in _MELD_KINDS or tile >= NUM_KINDS or not -1 <= source < 4:
                raise RecordError(f"bad meld: {m!r}")
            if (source < 0) != (kind == "ankan") or source == s:
                raise RecordError(f"bad meld source: {m!r}")
            st.melds[s].append(MeldInfo(kind, tile, source))
            take([tile], 3 if kind == "pon" else 4)
        st.rivers[s] = parse_tiles("".join(p["river"]))
        st.flowers[s] = parse_tiles("".join(p["flowers"]))
        if any(k >= NUM_KINDS for k in st.rivers[s]) or any(k < NUM_KINDS for k in st.flowers[s]):
            raise RecordError("a flower in a river, or a plain tile among flowers")
        take(st.rivers[s])
        take(st.flowers[s])
        declared = _DECLARED_CODES[p["declared"]]
        st.declared[s] = declared
        st.double[s] = bool(p["double"]) and declared > 0
        if declared == 2:
            st.declared_waits[s] = tuple(parse_tiles("".join(p["waits"])))
        if declared and any(m.kind != "ankan" for m in st.melds[s]):
            raise RecordError("a declared hand with an open meld")
        n = p["concealed"]
        size = 13 - 3 * len(st.melds[s]) + (phase == PHASE_DISCARD and s == turn)
        if n != size:
            raise RecordError(f"seat {s} holds {n!r} tiles, not {size}")
        concealed.append(n)
    for s in range(4):
        for k in st.rivers[s]:
            st.discarded[s] |= 1 << k
        st.discards_made[s] = len(st.rivers[s])
    for melds in st.melds:
        for m in melds:
            if m.source >= 0:  # the claimed tile was that seat's discard
                st.discarded[m.source] |= 1 << m.tile
                st.discards_made[m.source] += 1
    st.any_call = any(st.melds)
    st.draws = [st.discards_made[s] + (phase == PHASE_DISCARD and s == turn) for s in range(4)]

    own = players[seat]
    hand = [0] * NUM_KINDS
    kinds = parse_tiles("".join(own["hand"]))
    take(kinds)
    for k in kinds:
        hand[k] += 1
    if len(kinds) != concealed[seat] or max(kinds, default=0) >= NUM_KINDS:
        raise RecordError("the seat's own hand does not match its count")
    st.hands[seat] = hand
    st.golla[seat] = bool(own["golla"])

    drew = bool(v["drew"]) and phase == PHASE_DISCARD
    st.kan_draw = bool(v["kan_draw"]) and drew
    st.turn = turn
    st.phase = phase
    if phase == PHASE_DISCARD:
        st.pending = [turn]
        if v["claim"] is not None:
            raise RecordError("a claim in a turn")
    else:
        claim = v["claim"]
        st.claim_tile = parse_tiles(claim["tile"])[0]
        st.claim_from = _seat_no(claim["from"])
        if st.claim_tile >= NUM_KINDS:
            raise RecordError("a flower cannot be claimed")
        if phase == PHASE_CLAIM and st.rivers[st.claim_from][-1:] != [st.claim_tile]:
            raise RecordError("the claimed tile is not the last discard of its seat")
        if phase == PHASE_ROB and MeldInfo("kan", st.claim_tile) not in [
            MeldInfo(m.kind, m.tile) for m in st.melds[st.claim_from]
        ]:
            raise RecordError("the robbed tile is not on a kan of its seat")
    if seat == turn and phase == PHASE_DISCARD:
        drawn = own["drawn"]
        if (drawn is not None) != drew:
            raise RecordError("the seat's drawn tile does not match 'drew'")
        st.drawn = -1 if drawn is None else parse_tiles(drawn)[0]
        if drawn is not None and not hand[st.drawn]:
            raise RecordError("the drawn tile is not in the hand")
    if st.declared[seat]:
        base = hand[:]
        if st.drawn >= 0 and seat == turn:
            base[st.drawn] -= 1
        st.hands[seat] = base
        w = _waits_of(st, seat)
        st.hands[seat] = hand
        if st.declared[seat] == 2 and w != st.declared_waits[seat]:
            raise RecordError("the seat's waits do not match its 불러")
        _fix_waits(st, seat, w)

    wall_count = v["wall_count"]
    backs = sum(len(f) for f in st.flowers) + sum(m.kind != "pon" for ms in st.melds for m in ms)
    st.back = 104 - backs
    st.front = st.back - wall_count
    flowers_left = [k for k in range(NUM_KINDS, len(_FULL_SET)) if left[k]]
    hidden = [s for s in range(4) if s != seat]
    unseen = sum(left[:NUM_KINDS])
    if (
        type(wall_count) is not int
        or st.front < 53
        or unseen + len(flowers_left) != (sum(concealed[s] for s in hidden) + wall_count)
    ):
        raise RecordError("the view is inconsistent: hidden tile counts do not add up")

    # the most constrained hands first: 불러 on many waits, then fewer, then 엎어
    order = sorted(hidden, key=lambda s: (-st.declared[s], -len(st.declared_waits[s])))
    claimers = [s for s in _AFTER[st.claim_from] if s != seat] if phase != PHASE_DISCARD else []
    for attempt in range(_WORLD_TRIES):
        pool = left[:NUM_KINDS]
        force: tuple[int, str] | None = None
        if claimers and attempt >= _WORLD_TRIES // 4:
            # Plain deals found nobody else to ask: build a claimer (a ready hand on the
            # tile, or a pair of it), as the real window had one.
            can_pon = phase == PHASE_CLAIM and st.front < st.back
            pons = [s for s in claimers if can_pon and not st.declared[s]]
            use_pon = pons and pool[st.claim_tile] >= 2 and rng.random() < 0.5
            force = (rng.choice(pons), "pon") if use_pon else (rng.choice(claimers), "ron")
            order = [force[0]] + [s for s in order if s != force[0]]
        # Late tries accept a declared hand that would not have reached the table
        # minimum at its declaration (which 판 it holds cannot be seen; see below).
        loose = attempt >= _WORLD_TRIES // 2
        if _deal_world(st, order, pool, concealed, drew, rng, force, loose) and _world_window(
            st, seat, v
        ):
            live = [k for k in range(NUM_KINDS) for _ in range(pool[k])] + flowers_left
            rng.shuffle(live)
            st.wall = (-1,) * st.front + tuple(live) + (-1,) * (104 - st.back)
            if st.phase == PHASE_DISCARD and not st.declared[turn]:
                st.turn_shanten = _shanten(st, turn)
            st.shown = shown_counts(st)
            st._legal = None
            return st
    raise RecordError("no world found for the view: its declared hands or claim window")


def _fix_waits(st: HandState, seat: int, w: tuple[int, ...]) -> None:
    """A declared seat's waits, fixed; on its turn, whether its drawn tile wins."""
    mask = 0
    for k in w:
        mask |= 1 << k
    st.declared_waits[seat] = w
    st._waits[seat] = mask
    if st.phase == PHASE_DISCARD and st.turn == seat:
        st.turn_shanten = -1 if st.drawn >= 0 and (mask >> st.drawn) & 1 else 0


def _draw_from(pool: list[int], n: int, rng: random.Random) -> list[int] | None:
    """``n`` tiles at random from the pool (counts by kind, taken out of it)."""
    tiles = [k for k in range(NUM_KINDS) for _ in range(pool[k])]
    if len(tiles) < n:
        return None
    hand = [0] * NUM_KINDS
    for k in rng.sample(tiles, n):
        hand[k] += 1
        pool[k] -= 1
    return hand


def _deal_world(
    st: HandState,
    order: list[int],
    pool: list[int],
    concealed: list[int],
    drew: bool,
    rng: random.Random,
    force: tuple[int, str] | None = None,
    loose: bool = False,
) -> bool:
    """Deal the hidden hands from ``pool`` in ``order``; ``force``: a seat given a
    ``"ron"`` (a ready hand on the claimed tile) or a ``"pon"`` (a pair of it). A
    declared hand leaves two of each wait of the 불러 hands dealt after it (the tiles
    their shapes are built on), unless it can only be built on them. False to deal
    again."""
    for i, s in enumerate(order):
        draws_now = drew and s == st.turn
        forced = force[1] if force is not None and force[0] == s else ""
        if forced == "pon":
            pool[st.claim_tile] -= 2
            got = _draw_from(pool, concealed[s] - 2, rng)
            if got is None:
                return False
            got[st.claim_tile] += 2
            st.hands[s] = got
            st._waits[s] = -1
            continue
        if st.declared[s] or forced:
            through = st.claim_tile if forced else -1
            mine = set(st.declared_waits[s]) if st.declared[s] == 2 else set()
            kept = [0] * NUM_KINDS
            for later in order[i + 1 :]:
                if st.declared[later] == 2:
                    for k in st.declared_waits[later]:
                        if k not in mine:
                            kept[k] = min(pool[k], 2)
            for k, n in enumerate(kept):
                pool[k] -= n
            size = concealed[s] - draws_now
            hand = _ready_hand(st, s, pool, size, rng, through, loose)
            for k, n in enumerate(kept):
                pool[k] += n
            if hand is None and any(kept):
                # the tiles kept back may be the ones this hand is built on (a 불러 on
                # 4m and 5m held as 222m 333m 5m, the later hand waiting on 3m)
                hand = _ready_hand(st, s, pool, size, rng, through, loose)
            if hand is None:
                return False
            if draws_now:
                got = _draw_from(pool, 1, rng)
                if got is None:
                    return False
                st.drawn = got.index(1)
                hand[st.drawn] += 1
            if st.declared[s]:
                _fix_waits(st, s, st.declared_waits[s])
            else:
                st._waits[s] = -1
        else:
            got = _draw_from(pool, concealed[s], rng)
            if got is None:
                return False
            hand = got
            st._waits[s] = -1
            if draws_now:
                st.drawn = rng.choice([k for k in range(NUM_KINDS) for _ in range(hand[k])])
        st.hands[s] = hand
    return True


def _complete_hand(
    c: list[int], sets: int, seeds: Sequence[int], rng: random.Random
) -> list[int] | None:
    """A complete hand of ``sets`` sets and a pair taken out of the counts ``c``, with a
    group holding each kind of ``seeds`` where one fits (or seven pairs, a tenth of the
    time); None if the counts ran short."""
    hand = [0] * NUM_KINDS
    if sets == 4 and rng.random() < 0.1:  # 칠대작 (seven pairs), the seeds' pairs first
        for i in range(7):
            pairs = [k for k in range(NUM_KINDS) if c[k] >= 2 and not hand[k]]
            first = [k for k in seeds[i : i + 1] if k in pairs]
            if not pairs:
                return None
            k = first[0] if first else rng.choice(pairs)
            c[k] -= 2
            hand[k] += 2
        return hand
    groups: list[tuple[int, ...]] = []
    paired = False
    for t in seeds:
        options: list[tuple[int, ...]] = []
        if not paired and c[t] >= 2:
            options.append((t, t))
        if len(groups) - paired < sets:
            if c[t] >= 3:
                options.append((t, t, t))
            options += [
                (k, k + 1, k + 2)
                for k in (t - 2, t - 1, t)
                if k in _CHOW_STARTS and c[k] and c[k + 1] and c[k + 2]
            ]
        if options:
            g = rng.choice(options)
            for k in g:
                c[k] -= 1
                hand[k] += 1
            groups.append(g)
            paired = paired or len(g) == 2
    if not paired:
        pairs = [k for k in range(NUM_KINDS) if c[k] >= 2]
        if not pairs:
            return None
        k = rng.choice(pairs)
        c[k] -= 2
        hand[k] += 2
        groups.append((k, k))
    if not _random_sets(c, hand, sets - (len(groups) - 1), rng):
        return None
    return hand


_SUIT_SHAPES: Final[dict[tuple[int, ...], list[tuple[int, ...]]]] = {}


def _suit_shapes() -> dict[tuple[int, ...], list[tuple[int, ...]]]:
    """Ready shapes within one suit of numbers, by their waits (positions 0–8): every
    count vector of 1, 4, 7 or 10 tiles (at most four of a number) whose waits, the rest
    of the hand being complete sets, are exactly those. Built once, on first use (about
    0.5 s, of it 0.4 s the 10-tile shapes: the waits that only a long run of one suit
    gives, such as 1234m 6m 789m 999m on 1m, 4m and 5m)."""
    if not _SUIT_SHAPES:

        def vectors(pos: int, left: int, vec: list[int]) -> Iterator[tuple[int, ...]]:
            if pos == 9:
                if not left:
                    yield tuple(vec)
                return
            for n in range(min(4, left) + 1):
                vec.append(n)
                yield from vectors(pos + 1, left - n, vec)
                vec.pop()

        for size in (1, 4, 7, 10):
            for vec in vectors(0, size, []):
                w = waits([*vec, *[0] * (NUM_KINDS - 9)], (13 - size) // 3)
                if w:
                    _SUIT_SHAPES.setdefault(tuple(w), []).append(vec)
    return _SUIT_SHAPES


def _random_sets(c: list[int], hand: list[int], sets: int, rng: random.Random) -> bool:
    """Add ``sets`` random 뽕/슌 shapes from the counts ``c`` to ``hand`` (both changed)."""
    for _ in range(sets):
        options = [(k, k, k) for k in range(NUM_KINDS) if c[k] >= 3]
        options += [(k, k + 1, k + 2) for k in _CHOW_STARTS if c[k] and c[k + 1] and c[k + 2]]
        if not options:
            return False
        for k in rng.choice(options):
            c[k] -= 1
            hand[k] += 1
    return True


def _shaped_hand(
    st: HandState,
    s: int,
    pool: list[int],
    size: int,
    rng: random.Random,
    want: tuple[int, ...],
    loose: bool = False,
) -> list[int] | None:
    """A 불러 hand ready on exactly ``want``, all in one suit of numbers: a ready shape
    of that suit with those waits (:func:`_suit_shapes`) and random complete sets."""
    suit = want[0] // 9
    if suit > 1 or any(k // 9 != suit for k in want):
        return None
    base = 9 * suit
    shapes = [
        v
        for v in _suit_shapes().get(tuple(k - base for k in want), ())
        if sum(v) <= size and all(pool[base + i] >= n for i, n in enumerate(v))
    ]
    for _ in range(_READY_TRIES if shapes else 0):
        v = rng.choice(shapes)
        c = pool[:]
        hand = [0] * NUM_KINDS
        for i, n in enumerate(v):
            c[base + i] -= n
            hand[base + i] += n
        if not _random_sets(c, hand, (size - sum(v)) // 3, rng):
            continue
        st.hands[s] = hand
        if (_waits_of(st, s) if loose else _declarable_waits(st, s)) == want:
            pool[:] = c
            return hand
    return None


def _ready_hand(
    st: HandState,
    s: int,
    pool: list[int],
    size: int,
    rng: random.Random,
    through: int = -1,
    loose: bool = False,
) -> list[int] | None:
    """A ready hand of ``size`` (3k+1) tiles from the pool for seat ``s``, taken out of
    the pool; None if none was found. It is a complete hand less one tile. With
    ``through``, the seat can 쏘아 that tile (the claim now offered). For a declared seat,
    a hand it could have declared on (for 불러, ready on exactly its shown waits), its
    waits set as the seat's declared waits."""
    declared = st.declared[s]
    want = st.declared_waits[s] if declared == 2 else None
    if want and through < 0 and (shaped := _shaped_hand(st, s, pool, size, rng, want, loose)):
        return shaped
    seeds = [through] if through >= 0 else list(want or ())
    robbed = st.phase == PHASE_ROB
    for _ in range(_READY_TRIES):
        # The tile left out of the complete hand need not be unseen (the claimed tile
        # is on the table; a wait's every copy may be): each seed gets one copy more.
        c = pool[:]
        for k in seeds:
            c[k] += 1
        rng.shuffle(seeds)
        hand = _complete_hand(c, size // 3, seeds, rng)
        if hand is None:
            continue
        held = [k for k in range(NUM_KINDS) for _ in range(hand[k]) if not seeds or k in seeds]
        if not held:
            continue
        hand[rng.choice(held)] -= 1
        if any(n > p for n, p in zip(hand, pool, strict=True)):
            continue
        c = [p - n for n, p in zip(hand, pool, strict=True)]
        st.hands[s] = hand
        w = _declarable_waits(st, s) if declared and not loose else _waits_of(st, s)
        if not w or (want is not None and w != want):
            continue
        if through >= 0:
            mask = 0
            for k in w:
                mask |= 1 << k
            st._waits[s] = mask if declared else -1
            if not _can_ron(st, s, through, robbed):
                continue
        pool[:] = c
        if declared:
            st.declared_waits[s] = w
        return hand
    return None


def _world_window(st: HandState, seat: int, v: Mapping[str, Any]) -> bool:
    """Open the claim window of the world from its dealt hands; False to deal again."""
    if st.phase == PHASE_DISCARD:
        return True
    if st.phase == PHASE_CLAIM:
        pending, options = _claim_options(st, st.claim_from, st.claim_tile)
    else:
        pending, options = _rob_options(st, st.claim_from, st.claim_tile)
    asked = seat in v["pending"]
    answered = v["answered"]
    answers: dict[int, Action] = {}
    if seat in pending:
        if answered is not None:
            answer = Action.parse(answered, seat)
            if answer not in options[seat] or asked:
                raise RecordError(f"the seat's answer {answered!r} is not one it had")
            answers[seat] = answer
            pending.remove(seat)
        elif not asked:
            raise RecordError("the seat could claim the tile but was not asked")
    elif asked or answered is not None:
        raise RecordError("the seat was asked about a tile it cannot claim")
    if not pending:
        return False
    st.pending = pending
    st.options = options
    st.answers = answers
    st.window_start = 0
    return True


# -- claim windows ---------------------------------------------------------------------


def _answer(st: HandState, action: Action, events: list[Event] | None) -> None:
    seat = action.seat
    st.answers[seat] = action
    st.pending.remove(seat)
    d = st.claim_from
    hist = st.history
    hist.append(action)
    tail = hist[st.window_start :]
    if len(tail) > 1:
        tail.sort(key=lambda a: (a.seat - d) % 4)
        hist[st.window_start :] = tail
    if events is not None:
        events.append({"type": "answer", "seat": seat, "action": action.verb})
    if not st.pending:
        _resolve(st, events)


def _resolve(st: HandState, events: list[Event] | None) -> None:
    tile = st.claim_tile
    d = st.claim_from
    robbing = st.phase == PHASE_ROB
    order = [(d + i) % 4 for i in (1, 2, 3)]
    answers = st.answers
    rons: list[int] = []
    caller = -1
    for s in order:
        a = answers.get(s)
        if a is None:
            continue
        if a.verb == "ron":
            rons.append(s)
        else:
            if st.options[s][0] is _RON[s]:  # (ron comes first when offered)
                st.golla[s] = True  # 골라 쏘아 금지: a winnable discard let go
            if a.verb != "pass":
                caller = s
    st.options = {}
    st.answers = {}
    if rons:
        winners = rons if st.rules.multiple_ron else rons[:1]
        _win_ron(st, winners, tile, d, robbing, events)
        return
    if robbing:
        _made_call(st)
        _replacement(st, d, events)
        return
    if caller >= 0:
        verb = answers[caller].verb
        st.rivers[d].pop()
        _show_taken(st, d, tile)
        st.hands[caller][tile] -= 2 if verb == "pon" else 3
        st.melds[caller].append(MeldInfo(verb, tile, d))
        _show_new_meld(st, caller, tile, 3 if verb == "pon" else 4)
        st._waits[caller] = -1
        _made_call(st)
        if events is not None:
            events.append({"type": verb, "seat": caller, "tile": _NAMES[tile], "from": d})
        if verb == "pon":
            _enter_discard(st, caller, -1, False)
        else:
            _replacement(st, caller, events)
        return
    _next_turn(st, (d + 1) % 4, events)


# -- end of the hand -------------------------------------------------------------------


def _win_tsumo(st: HandState, seat: int, events: list[Event] | None) -> None:
    flags = _tsumo_flags(st, seat)
    tile = st.drawn
    sheet = _score(st, seat, st.hands[seat], tile, "tsumo", flags, st.pot)
    info = WinInfo(
        seat, "tsumo", tile, -1, _kinds(st.hands[seat]), tuple(st.melds[seat]), flags, sheet
    )
    _finish(st, [info], None, events)


def _win_ron(
    st: HandState, winners: list[int], tile: int, d: int, robbed: bool, events: list[Event] | None
) -> None:
    infos: list[WinInfo] = []
    for i, w in enumerate(winners):
        flags = _ron_flags(st, w, robbed)
        counts = _with_tile(st.hands[w], tile)
        sheet = _score(st, w, counts, tile, "ron", flags, st.pot if i == 0 else 0)
        infos.append(WinInfo(w, "ron", tile, d, _kinds(counts), tuple(st.melds[w]), flags, sheet))
    # The tile goes to the first winner: out of the river, or back off the robbed kan.
    if robbed:
        melds = st.melds[d]
        for j, m in enumerate(melds):
            if m.kind == "kan" and m.tile == tile:
                melds[j] = MeldInfo("pon", tile, m.source)
                _show_meld(st, d, tile, 4, 3)
                break
    else:
        st.rivers[d].pop()
        _show_taken(st, d, tile)
    st.hands[winners[0]][tile] += 1
    _finish(st, infos, d, events)


def _kinds(counts: Sequence[int]) -> tuple[int, ...]:
    return tuple(k for k in range(NUM_KINDS) for _ in range(counts[k]))


def _finish(st: HandState, infos: list[WinInfo], d: int | None, events: list[Event] | None) -> None:
    payments: list[tuple[int, int, int, str]] = []
    for info in infos:
        sheet = info.sheet
        if not sheet.valid:  # pragma: no cover - legality checks prevent it
            raise RecordError(f"internal: invalid win for seat {info.seat}: {sheet.reason}")
        reason = "ssoa" if info.by == "ron" else "olla"
        for frm, to, pts in sheet.payments(info.seat, d):
            payments.append((frm, to, pts, reason))
        if events is not None:
            events.append(_win_event(info))
    for frm, to, pts, reason in payments:
        if events is not None:
            events.append(
                {"type": "payment", "from": frm, "to": to, "points": pts, "reason": reason}
            )
    dealer_keeps = any(i.seat == st.dealer for i in infos)
    st.result = HandResult(tuple(infos), tuple(payments), False, 0, dealer_keeps)
    _end(st, events)


def _win_event(info: WinInfo) -> Event:
    sheet = info.sheet
    return {
        "type": "win",
        "seat": info.seat,
        "by": info.by,
        "tile": _NAMES[info.tile],
        "from": info.source,
        "hand": [_NAMES[k] for k in info.hand],
        "melds": [m.to_dict() for m in info.melds],
        "flags": sorted(info.flags),
        "base_pan": sheet.base_pan,
        "extra_pan": sheet.extra_pan,
        "points": sheet.points,
        "items": [
            {"name": i.name, "name_ko": i.name_ko, "pan": i.pan}
            for i in (*sheet.base_items, *sheet.extra_items)
        ],
    }


def _nagari(st: HandState, events: list[Event] | None) -> None:
    """나가리 (nagari): the wall is empty and nobody won; the pot grows by 5."""
    st.result = HandResult((), (), True, st.pot + NAGARI_POT, True)
    if events is not None:
        events.append({"type": "nagari", "pot": st.pot + NAGARI_POT})
    _end(st, events)


def _end(st: HandState, events: list[Event] | None) -> None:
    st.phase = PHASE_OVER
    st.pending = []
    st.options = {}
    st.answers = {}
    st.drawn = -1
    st.kan_draw = False
    if events is not None:
        events.append({"type": "end"})


def tile_counts(state: HandState) -> list[int]:
    """How many tiles of each kind (0–28) are on the table: hands, melds, rivers,
    flowers and the live wall. Always four of each kind and one of each flower."""
    counts = [0] * 29
    for seat in range(4):
        for k in range(NUM_KINDS):
            counts[k] += state.hands[seat][k]
        for m in state.melds[seat]:
            counts[m.tile] += 3 if m.kind == "pon" else 4
        for k in state.rivers[seat]:
            counts[k] += 1
        for k in state.flowers[seat]:
            counts[k] += 1
    for k in state.wall[state.front : state.back]:
        counts[k] += 1
    return counts


# -- game and match --------------------------------------------------------------------


class MahjongMatch:
    """대국 (daeguk): a match — hands in series with a ledger of payments.

    The dealer keeps the seat after a win that includes the dealer, or after 나가리;
    otherwise the seat passes to the next player and the pass is counted. The East
    round ends when the dealership has passed four times (every player has dealt once;
    repeat hands of a dealer, 연장, do not count); with ``rounds == 2`` a South round
    (round wind 2z) follows, and the match ends after the eighth pass. The 나가리 pot
    carries over from hand to hand, also into the South round. Each hand's wall is
    shuffled from a seed drawn from the match seed (the first hand's from
    ``first_seed`` when given: a duplicate deal of the arena).

    >>> import random
    >>> rng, m = random.Random(0), MahjongMatch(seed=5)
    >>> while not m.over:
    ...     st = m.hand
    ...     while not st.over:
    ...         _ = step(st, rng.choice(legal_actions(st)))
    ...     _ = m.next_hand()
    >>> sum(m.scores), m.passes, len(m.hands) >= 4
    (0, 4, True)
    """

    def __init__(
        self,
        rules: MahjongRules | Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        first_dealer: int = 0,
        first_seed: int | None = None,
    ) -> None:
        self.rules = _coerce_rules(rules)
        self._rng = make_rng(seed)
        self.dealer = first_dealer
        self.passes = 0
        self.pot = 0
        self.scores = [0, 0, 0, 0]
        self.ledger: list[tuple[int, int, int, str]] = []
        self.hands: list[HandState] = []
        self.over = False
        self.hand = self._deal(first_seed)

    @property
    def round_wind(self) -> int:
        """판 바람 (pan baram): East for the first round, South for the second."""
        return EAST + self.passes // 4

    def _deal(self, seed: int | None = None) -> HandState:
        """The next hand, its wall from ``seed`` (None: a seed drawn from the match's)."""
        st = new_hand(
            self.rules,
            seed=self._rng.getrandbits(64) if seed is None else seed,
            dealer=self.dealer,
            round_wind=self.round_wind,
            pot=self.pot,
        )
        self.hands.append(st)
        return st

    def clone(self) -> MahjongMatch:
        """An independent copy: the current hand cloned (the finished ones shared: no
        step changes them), the scores and ledger copied, the seed stream too."""
        new = copy.copy(self)
        new._rng = copy.copy(self._rng)
        new.scores = list(self.scores)
        new.ledger = list(self.ledger)
        new.hand = self.hand.clone()
        new.hands = [*self.hands[:-1], new.hand]
        return new

    def ends(self) -> bool:
        """Whether the finished current hand ends the match: the dealership passes (it is
        not kept) for the ``4 * rounds``-th time. False while the hand is being played.

        >>> MahjongMatch(seed=1).ends()
        False
        """
        res = self.hand.result
        if res is None:
            return False
        return self.over or self.passes + (not res.dealer_keeps) >= 4 * self.rules.rounds

    def next_hand(self) -> HandState | None:
        """Settle the finished current hand and deal the next one (``None``: match over,
        :meth:`ends`)."""
        st = self.hand
        if st.result is None:
            raise IllegalActionError("the current hand is not over")
        if self.over:
            return None
        ending = self.ends()
        res = st.result
        for frm, to, pts, reason in res.payments:
            self.scores[frm] -= pts
            self.scores[to] += pts
            self.ledger.append((frm, to, pts, reason))
        self.pot = res.next_pot
        if not res.dealer_keeps:
            self.dealer = (self.dealer + 1) % 4
            self.passes += 1
        if ending:
            self.over = True
            return None
        self.hand = self._deal()
        return self.hand
