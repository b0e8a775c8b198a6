"""Mahjong for reinforcement learning: fixed action ids and observation tensors.

:class:`MahjongEncoding` is the game's ``encoding`` in its
:class:`~madang.core.game.GameSpec` (:mod:`madang.rl` reads it). An action id is one of
:data:`NUM_ACTIONS` (130):

=========  =========================
ids        action
=========  =========================
0–24       ``discard TILE``
25–49      ``discard TILE eopeo`` (엎어)
50–74      ``discard TILE bulleo`` (불러)
75–99      ``ankan TILE``
100–124    ``kakan TILE``
125–129    ``tsumo``, ``ron``, ``pon``, ``kan``, ``pass``
=========  =========================

(``TILE`` is a kind 0–24: 1m–9m, 1p–9p, 1z–7z.) The id is the action's
:attr:`~madang.mahjong.state.Action.code`, its place in
:data:`~madang.mahjong.state.ACTION_FORMS`. An observation is a flat ``float32``
vector of :data:`OBS_SIZE` numbers seen from one seat, the other seats relative to it
(``right`` plays after it, then ``across``, then ``left``): :data:`PLANES` planes of 25
tile counts, then the :data:`SCALARS`. ``docs/rl/mahjong.md`` documents every channel.
It is built only from the seat's view (:func:`madang.mahjong.view.view`);
:meth:`MahjongEncoding.observe_states` computes the same numbers from engine states for
the batched environment (a test checks that both agree).

>>> from madang.mahjong.engine import new_hand
>>> from madang.mahjong.view import view
>>> enc = MahjongEncoding()
>>> obs = enc.observe(view(new_hand(seed=2), 0))
>>> obs.shape, int(obs[:25].sum())
((482,), 14)
>>> enc.move(enc.action_id("discard 3m bulleo")), enc.move(129)
('discard 3m bulleo', 'pass')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from librt.strings import BytesWriter

from madang.core.errors import InvalidActionError
from madang.mahjong.engine import legal_actions, step
from madang.mahjong.hand import ready_waits
from madang.mahjong.state import (
    ACTION_FORMS,
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
    SHOWN_RIVERS,
    SHOWN_WAITS,
    Action,
    HandState,
    act,
)
from madang.mahjong.tiles import NUM_KINDS, tile_name

__all__ = ["NUM_ACTIONS", "OBS_SIZE", "PLANES", "SCALARS", "MahjongEncoding", "observe_one"]

NUM_ACTIONS: Final = len(ACTION_FORMS)

_REL: Final = ("mine", "right", "across", "left")

PLANES: Final[tuple[str, ...]] = (
    "hand",  # own concealed tiles (the drawn tile included)
    "drawn",  # the tile just drawn, on own turn
    "my_waits",  # own ready hand's waits between turns
    "claim",  # the tile offered in a claim window (a discard, or a 가깡 to rob)
    *(f"melds_{r}" for r in _REL),  # tiles in each seat's declared melds
    *(f"river_{r}" for r in _REL),  # each seat's discards still on the table
    *(f"waits_{r}" for r in _REL),  # waits announced by 불러
    "visible",  # every tile this seat sees: own hand, all melds and rivers
)
"""The planes of 25 tile counts, in order."""

SCALARS: Final[tuple[str, ...]] = (
    "phase_discard",
    "phase_claim",
    "phase_rob",
    "phase_over",
    "to_act",  # 1 when this seat must answer now
    *(f"turn_{r}" for r in _REL),  # whose turn it is
    *(f"dealer_{r}" for r in _REL),
    "round_east",
    "round_south",
    "round_west",
    "round_north",
    "pot",  # 나가리 pot carried in
    "wall",  # tiles left in the live wall
    *(f"concealed_{r}" for r in _REL),  # concealed tile counts
    *(f"eopeo_{r}" for r in _REL),  # declared 엎어
    *(f"bulleo_{r}" for r in _REL),  # declared 불러
    *(f"double_{r}" for r in _REL),  # 부지부: declared in the first turn
    "golla",  # own 골라 쏘아 금지 in force
    "jinting",  # own ready hand is in 진팅 (a wait among own discards)
    *(f"claim_from_{r}" for r in _REL),  # who offered the claim tile
    *(f"flower_{r}_{f}" for r in _REL for f in range(1, 5)),  # flowers 1f–4f laid out
)
"""The scalars after the planes, in order (raw counts, not normalised)."""

OBS_SIZE: Final = len(PLANES) * NUM_KINDS + len(SCALARS)
_P: Final = NUM_KINDS
_PHASES: Final = (PHASE_DISCARD, PHASE_CLAIM, PHASE_ROB, "over")
_MELD_SIZE: Final = {"pon": 3, "kan": 4, "ankan": 4}
_KIND: Final = {tile_name(k): k for k in range(NUM_KINDS + 4)}
_PHASE_INDEX: Final = {p: i for i, p in enumerate(_PHASES)}
# offsets of the planes and scalars in an observation
# (Final: the compiled build reads them as constants, not from the module's globals)
_MY_WAITS: Final = 2 * _P
_CLAIM: Final = 3 * _P
_MELDS: Final = 4 * _P
_RIVER: Final = 8 * _P
_WAITS: Final = 12 * _P
_VISIBLE: Final = 16 * _P
_S: Final = len(PLANES) * _P
_FLOWER: Final = _S + 41

FloatArray = npt.NDArray[np.float32]
_TO_REL: Final = tuple(tuple((t - s) % 4 for t in range(4)) for s in range(4))  # seat -> relative
_QUAD: Final = (b"\x00", b"\x01")  # the waits cache key's last byte, by quad_as_two_pairs


def _ready_waits(key: bytes) -> int:
    """:func:`~madang.mahjong.hand.waits` of a hand between turns (3k+1 tiles) as a
    bitmask of kinds (none unless ready); ``key`` is its 25 counts, then the rules'
    ``quad_as_two_pairs`` (:func:`_observe_into`'s cache key: the melds follow from the
    tile count)."""
    counts = list(key[:NUM_KINDS])
    mask = 0
    for k in ready_waits(counts, (13 - sum(counts)) // 3, bool(key[NUM_KINDS])):
        mask |= 1 << k
    return mask


def _counts(kinds: Any) -> list[int]:
    out = [0] * NUM_KINDS
    for k in kinds:
        out[k] += 1
    return out


def _one_hot(index: int, size: int) -> list[int]:
    out = [0] * size
    if index >= 0:
        out[index] = 1
    return out


class MahjongEncoding:
    """Korean mahjong in tensors: the action ids and the observation of one seat."""

    num_actions = NUM_ACTIONS
    obs_size = OBS_SIZE
    planes = PLANES
    scalars = SCALARS
    plane_size = NUM_KINDS
    #: :meth:`observe_states` also writes the legal masks (``legal=``)
    observes_legal = True

    def __init__(self, rules: Any = None) -> None:
        self.rules = rules
        # ready hands' waits, by hand (bytes and ints only: nothing the garbage collector
        # must walk, however large the cache grows)
        self._waits: dict[bytes, int] = {}

    def session_from_view(self, view: dict[str, Any], rng: random.Random) -> Any:
        """A session whose hand is a random world consistent with a seat's ``view``
        (:func:`madang.mahjong.engine.from_view`: the tiles the seat cannot see dealt at
        random, declared hands ready on their waits), for a search bot that is given
        only a view (OpenSpiel's ISMCTS in the arena)."""
        from madang.mahjong.engine import from_view
        from madang.mahjong.game import deal

        session = deal(self.rules, 0)
        hand = from_view(view, rng)
        m = session.match
        m.hand = hand
        m.hands[-1] = hand
        m.dealer, m.pot = hand.dealer, hand.pot
        return session

    def action_id(self, move: str) -> int:
        """The id of a move in notation (without the seat)."""
        return Action.parse(move, seat=0).code

    def move(self, action: int) -> str:
        """The notation of an action id."""
        return str(self.action(0, action))

    def action(self, seat: int, action: int) -> Action:
        """``seat``'s :class:`~madang.mahjong.state.Action` of an id."""
        if not 0 <= action < NUM_ACTIONS:
            raise InvalidActionError(f"no action has id {action!r}")
        verb, tile, declare = ACTION_FORMS[action]
        return act(seat, verb, tile, declare)

    def scalar(self, obs: FloatArray, name: str) -> float:
        """One named scalar of an observation."""
        return float(obs[len(PLANES) * _P + SCALARS.index(name)])

    def observe(self, view: dict[str, Any]) -> FloatArray:
        """The observation of ``view``'s seat (a seat's view, not a spectator's)."""
        me = view["seat"]
        if me is None:
            raise ValueError("an observation is of a seat, not a spectator")
        order = [(me + i) % 4 for i in range(4)]
        players = view["players"]
        own = players[me]
        hand = _counts(_KIND[t] for t in own["hand"])
        melds = []
        for s in order:
            m = [0] * NUM_KINDS
            for meld in players[s]["melds"]:
                m[_KIND[meld["tile"]]] += _MELD_SIZE[meld["kind"]]
            melds.append(m)
        rivers = [_counts(_KIND[t] for t in players[s]["river"]) for s in order]
        claim = view["claim"]
        row: list[float] = []
        row += hand
        row += _one_hot(_KIND[own["drawn"]] if own["drawn"] else -1, _P)
        row += _counts(_KIND[t] for t in own["my_waits"] or ())
        row += _one_hot(_KIND[claim["tile"]] if claim else -1, _P)
        for m in melds:
            row += m
        for r in rivers:
            row += r
        for s in order:
            row += _counts(_KIND[t] for t in players[s]["waits"] or ())
        vis = hand[:]
        for m in melds + rivers:
            for k in range(NUM_KINDS):
                vis[k] += m[k]
        row += vis
        row += _one_hot(_PHASES.index(view["phase"]), 4)
        row.append(float(me in view["pending"]))
        row += _one_hot((view["turn"] - me) % 4, 4)
        row += _one_hot((view["dealer"] - me) % 4, 4)
        row += _one_hot(_KIND[view["round_wind"]] - 18, 4)
        row += [view["pot"], view["wall_count"]]
        row += [players[s]["concealed"] for s in order]
        row += [float(players[s]["declared"] == "eopeo") for s in order]
        row += [float(players[s]["declared"] == "bulleo") for s in order]
        row += [float(players[s]["double"]) for s in order]
        row += [float(bool(own["golla"])), float(bool(own["jinting"]))]
        row += _one_hot((claim["from"] - me) % 4 if claim else -1, 4)
        for s in order:
            f = [0] * 4
            for t in players[s]["flowers"]:
                f[_KIND[t] - NUM_KINDS] += 1
            row += f
        return np.array(row, dtype=np.float32)

    def observe_states(
        self,
        states: Sequence[HandState],
        seats: Sequence[int],
        out: FloatArray,
        legal: npt.NDArray[np.int8] | None = None,
    ) -> None:
        """The observations of ``seats[i]`` in ``states[i]`` into ``out[i]``: the numbers
        of :meth:`observe` of their views, from the engine states directly (the fast path
        of ``madang.rl.vector``). With ``legal``, also the legal masks into its rows
        (:meth:`MahjongFast.legal_masks`, in the same call).

        One pass over the states writes each observation's counts into one byte buffer
        (:func:`_observe_into`: a typed loop that the compiled build runs as native
        code, its bytes written by ``librt``'s :class:`~librt.strings.BytesWriter`
        without boxing), and another the masks' ones into a second; numpy adds the
        ``visible`` plane and casts the buffers into ``out`` and ``legal`` for all
        states at once."""
        n = len(states)
        if n == 0:
            return
        if len(seats) != n:
            raise ValueError("one seat per state")
        buf = BytesWriter()
        buf.write(bytes(n * OBS_SIZE))
        pots: list[tuple[int, int]] = []  # (the pot is not bounded by a byte)
        cache = self._waits
        if len(cache) > 200_000:
            cache.clear()
        for i in range(n):
            st = states[i]
            _observe_into(buf, i * OBS_SIZE, st, seats[i], cache)
            if st.pot:
                pots.append((i, st.pot))
        o = np.frombuffer(buf.getvalue(), dtype=np.uint8).reshape(n, OBS_SIZE)
        out[:n] = o
        # every tile this seat sees: own hand, all melds and rivers (4 of a kind at most)
        visible = o[:, :_P].copy()
        for at in range(_MELDS, _WAITS, _P):
            visible += o[:, at : at + _P]
        out[:n, _VISIBLE : _VISIBLE + _P] = visible
        for i, pot in pots:
            out[i, _S + 17] = pot
        if legal is not None:
            self._legal_into(states, seats, legal)

    def _legal_into(
        self, states: Sequence[HandState], seats: Sequence[int], out: npt.NDArray[np.int8]
    ) -> None:
        """``out[i]``: 1 at the action ids legal for ``seats[i]`` in ``states[i]``."""
        from madang.mahjong.engine import legal_actions

        n = len(states)
        if len(seats) != n:
            raise ValueError("one seat per state")
        buf = BytesWriter()
        buf.write(bytes(n * NUM_ACTIONS))
        for i in range(n):
            base = i * NUM_ACTIONS
            for a in legal_actions(states[i], seats[i]):
                buf[base + a.code] = 1
        out[:n] = np.frombuffer(buf.getvalue(), dtype=np.int8).reshape(n, NUM_ACTIONS)

    def render(self, view: dict[str, Any]) -> str:
        """The table of ``view`` as plain text, from the terminal renderer."""
        from rich.text import Text

        from madang.mahjong.render import hand_markup, table_lines

        lines = table_lines(view)
        me = view["seat"]
        if me is not None:
            lines.append(hand_markup(view["players"][me]["hand"], numbered=False))
        return "\n".join(Text.from_markup(line).plain for line in lines)

    def fast(self) -> MahjongFast:
        """The engine adapter of the batched environment (:mod:`madang.rl.vector`)."""
        return MahjongFast(self)


def _observe_into(
    buf: BytesWriter,
    base: int,
    st: HandState,
    s: int,
    cache: dict[bytes, int],
) -> None:
    """Write the counts of ``s``'s observation of ``st`` into ``buf[base:]`` (zeros):
    every plane and scalar but ``visible`` (summed by numpy for the whole batch) and
    ``pot`` (not bounded by a byte), which :meth:`MahjongEncoding.observe_states`
    writes."""
    hand = st.hands[s]
    for k in range(_P):
        c = hand[k]
        if c:
            buf[base + k] = c
    rel = _TO_REL[s]
    phase = st.phase
    turn = st.turn
    melds = st.melds
    # concealed tiles: 13 less 3 per meld (a kan's fourth tile is replaced by a draw),
    # one more for the seat to discard; summed once the hand is over
    scalars = base + _S
    mine = 0
    for t in range(4):
        r = rel[t]
        ms = melds[t]
        if phase == PHASE_OVER:
            concealed = sum(st.hands[t])
        else:
            concealed = 13 - 3 * len(ms) + (phase == PHASE_DISCARD and t == turn)
        buf[scalars + 19 + r] = concealed
        if t == s:
            mine = concealed
        off = base + _MELDS + r * _P
        for meld in ms:  # (a seat melds each tile once at most)
            buf[off + meld.tile] = _MELD_SIZE[meld.kind]
        off = base + _RIVER + r * _P
        for k in st.rivers[t]:  # (not ``+=``: the compiled build writes bytes natively)
            buf[off + k] = buf[off + k] + 1
        decl = st.declared[t]
        if decl:
            buf[scalars + 23 + 4 * (decl - 1) + r] = 1  # 엎어, 불러
            if decl == 2:  # the waits announced
                off = base + _WAITS + r * _P
                for k in st.declared_waits[t]:
                    buf[off + k] = 1
        if st.double[t]:
            buf[scalars + 31 + r] = 1
        off = base + _FLOWER - NUM_KINDS + 4 * r
        for k in st.flowers[t]:
            buf[off + k] = buf[off + k] + 1
    if mine % 3 == 1:  # between turns: the waits of a ready hand
        key = bytes(hand) + _QUAD[st.rules.quad_as_two_pairs]
        ws = cache.get(key)
        if ws is None:
            ws = cache[key] = _ready_waits(key)
        if ws:
            if ws & st.discarded[s]:
                buf[scalars + 36] = 1  # 진팅: a wait among own discards
            at = base + _MY_WAITS
            while ws:
                low = ws & -ws
                buf[at + low.bit_length() - 1] = 1
                ws ^= low
    drawn = st.drawn
    if drawn >= 0 and turn == s and phase == PHASE_DISCARD:
        buf[base + _P + drawn] = 1
    claim = st.claim_tile
    if claim >= 0:
        buf[base + _CLAIM + claim] = 1
        buf[scalars + 37 + rel[st.claim_from]] = 1
    buf[scalars + _PHASE_INDEX[phase]] = 1
    buf[scalars + 4] = s in st.pending
    buf[scalars + 5 + rel[turn]] = 1
    buf[scalars + 9 + rel[st.dealer]] = 1
    buf[scalars + 13 + st.round_wind - 18] = 1
    buf[scalars + 18] = st.back - st.front  # the live wall
    buf[scalars + 35] = st.golla[s]


_ZEROS: Final = bytes(OBS_SIZE)
# observe_one's places, as numbers and slices built once (the interpreter adds no
# constants up: each `_S + 19` written out costs an addition a call)
_PHASE_AT: Final = {p: _S + i for i, p in enumerate(_PHASES)}
_TO_ACT, _TURN, _DEALER, _ROUND = _S + 4, _S + 5, _S + 9, _S + 13 - 18  # (round: a wind 18-21)
_POT, _WALL, _CONCEALED, _GOLLA, _JINTING, _CLAIM_FROM = (
    _S + 17, _S + 18, _S + 19, _S + 35, _S + 36, _S + 37,
)  # fmt: skip
_HAND_AT: Final = slice(0, _P)
_VISIBLE_AT: Final = slice(_VISIBLE, _VISIBLE + _P)
# where each group of HandState.shown goes in the observation, and, by seat, where its
# four seats in turn order from the seat are in shown
_MELDS_TO, _RIVERS_TO, _WAITS_TO = (slice(a, a + 4 * _P) for a in (_MELDS, _RIVER, _WAITS))
_CONCEALED_TO, _EOPEO_TO, _BULLEO_TO, _DOUBLE_TO = (
    slice(a, a + 4) for a in (_CONCEALED, _S + 23, _S + 27, _S + 31)
)
_FLOWERS_TO: Final = slice(_FLOWER, _FLOWER + 16)
_SHOWN_FROM: Final = tuple(
    tuple(
        slice(a + w * s, a + w * s + n)
        for a, w, n in (
            (SHOWN_MELDS, _P, 4 * _P), (SHOWN_RIVERS, _P, 4 * _P), (SHOWN_WAITS, _P, 4 * _P),
            (SHOWN_CONCEALED, 1, 4), (SHOWN_EOPEO, 1, 4), (SHOWN_BULLEO, 1, 4),
            (SHOWN_DOUBLE, 1, 4), (SHOWN_FLOWERS, 4, 16),
        )
    )
    for s in range(4)
)  # fmt: skip
_SHOWN_ALL_AT: Final = slice(SHOWN_ALL, SHOWN_ALL + _P)
_frombuffer, _U8, _F32 = np.frombuffer, np.uint8, np.float32


def observe_one(st: HandState, seat: int, cache: dict[bytes, int]) -> FloatArray:
    """The observation of ``seat`` in ``st``: the numbers of
    :meth:`MahjongEncoding.observe_states` for one hand (a test keeps them equal), as
    bytes cast once; ``cache``: the ready hands' waits (:meth:`MahjongEncoding.
    observe_states`' own).

    What every seat sees of each seat (melds, rivers, announced waits, declarations,
    flowers, concealed counts) is copied in slices from the counts the engine keeps
    (:attr:`~madang.mahjong.state.HandState.shown`: each group stored twice, so that the
    seats from ``seat`` on in turn order are one slice), where counting the rivers tile
    by tile cost about half of an AEC step; the ``visible`` plane is the hand plus every
    meld and river, added as two 25-byte integers (no byte carries: 4 of a kind at
    most)."""
    data = bytearray(_ZEROS)
    hand = st.hands[seat]
    data[_HAND_AT] = hand
    shown = st.shown
    melds, rivers, waits, concealed, eopeo, bulleo, double, flowers = _SHOWN_FROM[seat]
    data[_MELDS_TO] = shown[melds]
    data[_RIVERS_TO] = shown[rivers]
    data[_WAITS_TO] = shown[waits]
    data[_CONCEALED_TO] = shown[concealed]
    data[_EOPEO_TO] = shown[eopeo]
    data[_BULLEO_TO] = shown[bulleo]
    data[_DOUBLE_TO] = shown[double]
    data[_FLOWERS_TO] = shown[flowers]
    visible = int.from_bytes(data[_HAND_AT], "little") + int.from_bytes(
        shown[_SHOWN_ALL_AT], "little"
    )
    data[_VISIBLE_AT] = visible.to_bytes(_P, "little")
    rel = _TO_REL[seat]
    phase = st.phase
    turn = st.turn
    if phase == PHASE_DISCARD:  # the seat to discard holds one tile more
        data[_CONCEALED + rel[turn]] += 1
    elif phase == PHASE_OVER:  # the hands as they ended
        for t in range(4):
            data[_CONCEALED + rel[t]] = sum(st.hands[t])
    if data[_CONCEALED] % 3 == 1:  # between turns: the waits of a ready hand
        key = bytes(hand) + _QUAD[st.rules.quad_as_two_pairs]
        ws = cache.get(key)
        if ws is None:
            if len(cache) > 200_000:
                cache.clear()
            ws = cache[key] = _ready_waits(key)
        if ws:
            if ws & st.discarded[seat]:
                data[_JINTING] = 1  # 진팅: a wait among own discards
            while ws:
                low = ws & -ws
                data[_MY_WAITS + low.bit_length() - 1] = 1
                ws ^= low
    drawn = st.drawn
    if drawn >= 0 and turn == seat and phase == PHASE_DISCARD:
        data[_P + drawn] = 1
    claim = st.claim_tile
    if claim >= 0:
        data[_CLAIM + claim] = 1
        data[_CLAIM_FROM + rel[st.claim_from]] = 1
    data[_PHASE_AT[phase]] = 1
    data[_TO_ACT] = seat in st.pending
    data[_TURN + rel[turn]] = 1
    data[_DEALER + rel[st.dealer]] = 1
    data[_ROUND + st.round_wind] = 1
    data[_WALL] = st.back - st.front  # the live wall
    data[_GOLLA] = st.golla[seat]
    out = _frombuffer(data, _U8).astype(_F32)  # (dtypes by position)
    if st.pot:  # (not bounded by a byte)
        out[_POT] = st.pot
    return out


class MahjongFast:
    """The engine stepped by action id, for many hands at once (``madang.rl.vector``)."""

    def __init__(self, encoding: MahjongEncoding) -> None:
        from madang.mahjong.rules import MahjongRules

        self.encoding = encoding
        self.rules = encoding.rules if encoding.rules is not None else MahjongRules()
        # the engine's actions, by id (interned: alive for the whole process)
        self._acts = [[encoding.action(seat, i) for i in range(NUM_ACTIONS)] for seat in range(4)]

    def new(self, seed: int) -> HandState:
        """A new hand dealt from ``seed`` (the dealer drawn from it too)."""
        from madang.mahjong.engine import new_hand

        return new_hand(self.rules, seed=seed, dealer=seed & 3)

    def current(self, state: HandState) -> int:
        """The first seat to answer (in turn order after the discarder in a claim
        window; -1 once the hand is over)."""
        return state.pending[0] if state.pending else -1

    def legal_ids(self, state: HandState, seat: int) -> list[int]:
        """The action ids legal for ``seat`` now."""
        from madang.mahjong.engine import legal_actions

        return [a.code for a in legal_actions(state, seat)]

    def step(self, state: HandState, seat: int, action: int) -> None:
        """Apply ``seat``'s action id."""
        step(state, self._acts[seat][action], False)

    def payments(self, state: HandState) -> Sequence[tuple[int, int, int, str]]:
        """The hand's payments (made when it ends)."""
        return () if state.result is None else state.result.payments

    def observe(self, state: HandState, seat: int) -> FloatArray:
        """``seat``'s observation of one hand (:func:`observe_one`)."""
        return observe_one(state, seat, self.encoding._waits)

    def legal_mask(self, state: HandState, seat: int) -> npt.NDArray[np.int8]:
        """``seat``'s legal mask in one hand: 1 at its legal action ids."""
        data = bytearray(NUM_ACTIONS)
        for a in legal_actions(state, seat):
            data[a.code] = 1
        return np.frombuffer(data, np.int8)  # (dtype by position: a keyword costs more)

    def observe_masked(
        self, state: HandState, seat: int
    ) -> tuple[FloatArray, npt.NDArray[np.int8]]:
        """:meth:`observe` and :meth:`legal_mask`."""
        return observe_one(state, seat, self.encoding._waits), self.legal_mask(state, seat)

    def currents(self, states: Sequence[HandState]) -> list[int]:
        """The first seat to answer in each hand (-1 where it is over)."""
        return [s.pending[0] if s.pending else -1 for s in states]

    def legal_masks(
        self, states: Sequence[HandState], seats: Sequence[int], out: npt.NDArray[np.int8]
    ) -> None:
        """``out[i]``: 1 at the action ids legal for ``seats[i]`` in ``states[i]``."""
        self.encoding._legal_into(states, seats, out)

    def step_many(
        self, states: Sequence[HandState], seats: Sequence[int], actions: Sequence[int]
    ) -> list[int]:
        """Apply each seat's action id; the indices of the hands that ended (a hand pays
        when it ends)."""
        from madang.mahjong.engine import step

        acts = self._acts
        touched = []
        for i, (st, seat, action) in enumerate(zip(states, seats, actions, strict=True)):
            step(st, acts[seat][action], False)
            if st.phase == PHASE_OVER:
                touched.append(i)
        return touched
