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

(``TILE`` is a kind 0–24: 1m–9m, 1p–9p, 1z–7z.) An observation is a flat ``float32``
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
from itertools import chain
from typing import Any

import numpy as np
import numpy.typing as npt

from madang.core.errors import InvalidActionError
from madang.mahjong.hand import counts_keys, shanten_keys, waits
from madang.mahjong.state import (
    PHASE_CLAIM,
    PHASE_DISCARD,
    PHASE_OVER,
    PHASE_ROB,
    Action,
    HandState,
    act,
)
from madang.mahjong.tiles import NUM_KINDS, tile_name

__all__ = ["NUM_ACTIONS", "OBS_SIZE", "PLANES", "SCALARS", "MahjongEncoding"]

_TILE_FORMS = (("discard", ""), ("discard", "eopeo"), ("discard", "bulleo"), ("ankan", ""),
               ("kakan", ""))  # fmt: skip
_PLAIN = ("tsumo", "ron", "pon", "kan", "pass")
NUM_ACTIONS = NUM_KINDS * len(_TILE_FORMS) + len(_PLAIN)

_REL = ("mine", "right", "across", "left")

PLANES: tuple[str, ...] = (
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

SCALARS: tuple[str, ...] = (
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

OBS_SIZE = len(PLANES) * NUM_KINDS + len(SCALARS)
_P = NUM_KINDS
_PHASES = (PHASE_DISCARD, PHASE_CLAIM, PHASE_ROB, "over")
_MELD_SIZE = {"pon": 3, "kan": 4, "ankan": 4}
_KIND = {tile_name(k): k for k in range(NUM_KINDS + 4)}
_AR4 = np.arange(4)
_PHASE_INDEX = {p: i for i, p in enumerate(_PHASES)}
# offsets of the planes and scalars in an observation
_MY_WAITS, _CLAIM, _MELDS, _RIVER, _WAITS, _VISIBLE = (
    2 * _P,
    3 * _P,
    4 * _P,
    8 * _P,
    12 * _P,
    16 * _P,
)
_S = len(PLANES) * _P
_FLOWER = _S + 41

FloatArray = npt.NDArray[np.float32]
_ORDER = tuple(tuple((s + r) % 4 for r in range(4)) for s in range(4))  # relative -> seat
_TO_REL = tuple(tuple((t - s) % 4 for t in range(4)) for s in range(4))  # seat -> relative
_NO_MELDS: list[list[Any]] = [[], [], [], []]
_UNDECLARED = [0, 0, 0, 0]
# observe_states' small counts per state: five indices of one-hot scalars (at _HOT_AT),
# to act, wall, golla, jinting; then 엎어/불러, 부지부 and the concealed count per seat
_HOT_AT = np.array([_S, _S + 5, _S + 9, _S + 13, _S + 37])
_SMALL = 9 + 3 * 4
_ORDER_ARRAY = np.array(_ORDER)


def _counts_of(lists: list[list[int]]) -> Any:
    """``(len(lists), 25)``: the count of each tile kind in each list."""
    k = len(lists)
    lengths = np.frombuffer(bytes(map(len, lists)), dtype=np.uint8)  # (each below 256)
    kinds = np.frombuffer(bytes(chain.from_iterable(lists)), dtype=np.uint8)
    at = np.repeat(np.arange(0, k * NUM_KINDS, NUM_KINDS), lengths) + kinds
    return np.bincount(at, minlength=k * NUM_KINDS).reshape(k, NUM_KINDS)


def _ready_waits(hand: bytes, melds: int, quad_as_two_pairs: bool) -> list[int]:
    """:func:`~madang.mahjong.hand.waits` of a hand between turns (none unless ready)."""
    counts = list(hand)
    if shanten_keys(*counts_keys(counts), melds, quad_as_two_pairs) > 0:
        return []  # one tile lowers shanten by one at most: no tile completes it
    return waits(counts, melds, quad_as_two_pairs)


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

    def __init__(self, rules: Any = None) -> None:
        self.rules = rules
        self._ids: dict[tuple[str, int, str], int] = {}
        self._waits: dict[tuple[bytes, int, bool], list[int]] = {}  # ready hands' waits
        self._forms: list[tuple[str, int, str]] = []
        for verb, declare in _TILE_FORMS:
            for k in range(NUM_KINDS):
                self._ids[verb, k, declare] = len(self._forms)
                self._forms.append((verb, k, declare))
        for verb in _PLAIN:
            self._ids[verb, -1, ""] = len(self._forms)
            self._forms.append((verb, -1, ""))

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
        a = Action.parse(move, seat=0)
        return self._ids[a.verb, a.tile, a.declare]

    def move(self, action: int) -> str:
        """The notation of an action id."""
        return str(self.action(0, action))

    def action(self, seat: int, action: int) -> Action:
        """``seat``'s :class:`~madang.mahjong.state.Action` of an id."""
        if not 0 <= action < NUM_ACTIONS:
            raise InvalidActionError(f"no action has id {action!r}")
        verb, tile, declare = self._forms[action]
        return act(seat, verb, tile, declare)

    def id_of(self, a: Action) -> int:
        """The id of an action (any seat)."""
        return self._ids[a.verb, a.tile, a.declare]

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
        self, states: Sequence[HandState], seats: Sequence[int], out: FloatArray
    ) -> None:
        """The observations of ``seats[i]`` in ``states[i]`` into ``out[i]``: the numbers
        of :meth:`observe` of their views, from the engine states directly (the fast path
        of ``madang.rl.vector``).

        One Python pass gathers, per state, the own hand, the small counts (per seat by
        absolute seat, the others already relative to the observer), the rivers, and
        the flat positions of the planes' single tiles, melds and flowers; numpy then
        counts, turns the seats relative and writes them for all states at once."""
        n = len(states)
        if n == 0:
            return
        own: list[int] = []  # the observer's 25 counts, per state
        small: list[int] = []  # _SMALL small counts per state (see _HOT_AT)
        pots: list[int] = []
        ones: list[int] = []  # flat positions (state * OBS_SIZE + column) that are 1
        meld_at: list[int] = []  # flat positions of meld tiles, and their counts
        meld_n: list[int] = []
        rivers: list[list[int]] = []  # four per state, by absolute seat
        flower_at: list[int] = []  # flat positions of laid-out flowers
        cache = self._waits
        for i, (st, s) in enumerate(zip(states, seats, strict=True)):
            # plain attribute reads (specialised by the interpreter: an attrgetter of the
            # same fields costs several times the instructions)
            (hands, st_melds, st_rivers, st_flowers, declared, declared_waits, double, golla,
             discarded, phase, pending, turn, dealer, round_wind, pot, front, back, drawn,
             claim, claim_from, rules) = (
                st.hands, st.melds, st.rivers, st.flowers, st.declared, st.declared_waits,
                st.double, st.golla, st.discarded, st.phase, st.pending, st.turn, st.dealer,
                st.round_wind, st.pot, st.front, st.back, st.drawn, st.claim_tile,
                st.claim_from, st.rules,
            )  # fmt: skip
            base = i * OBS_SIZE
            hand = hands[s]
            own += hand
            # concealed tiles: 13 less 3 per meld (a kan's fourth tile is replaced by a
            # draw), one more for the seat to discard; summed once the hand is over
            m0, m1, m2, m3 = map(len, st_melds)
            counts = [13 - 3 * m0, 13 - 3 * m1, 13 - 3 * m2, 13 - 3 * m3]
            if phase == PHASE_DISCARD:
                counts[turn] += 1
            elif phase == PHASE_OVER:
                counts = list(map(sum, hands))
            mine = counts[s]
            if st_melds != _NO_MELDS:
                for t, ms in enumerate(st_melds):
                    if ms:  # (a seat melds each tile once at most: no position twice)
                        off = base + _MELDS + _TO_REL[s][t] * _P
                        for meld in ms:
                            meld_at.append(off + meld.tile)
                            meld_n.append(_MELD_SIZE[meld.kind])
            if declared != _UNDECLARED:
                for t, decl in enumerate(declared):
                    if decl == 2:  # 불러: the waits announced
                        off = base + _WAITS + _TO_REL[s][t] * _P
                        ones += [off + k for k in declared_waits[t]]
            jinting = False
            if mine % 3 == 1:  # between turns: the waits of a ready hand
                key = (bytes(hand), len(st_melds[s]), rules.quad_as_two_pairs)
                ws = cache.get(key)
                if ws is None:
                    if len(cache) > 200_000:
                        cache.clear()
                    ws = cache[key] = _ready_waits(*key)
                if ws:
                    ones += [base + _MY_WAITS + k for k in ws]
                    mask = discarded[s]
                    jinting = any(mask >> k & 1 for k in ws)
            if drawn >= 0 and turn == s and phase == PHASE_DISCARD:
                ones.append(base + _P + drawn)
            if claim >= 0:
                ones.append(base + _CLAIM + claim)
            rivers += st_rivers  # by absolute seat (numpy turns them relative)
            if st_flowers != _NO_MELDS:  # (no flower laid out: four empty lists)
                for t, laid in enumerate(st_flowers):
                    off = base + _FLOWER - NUM_KINDS + 4 * _TO_REL[s][t]
                    for k in laid:
                        flower_at.append(off + k)
            small += (
                _PHASE_INDEX[phase],
                (turn - s) & 3,
                (dealer - s) & 3,
                round_wind - 18,
                (claim_from - s) & 3 if claim >= 0 else 4,
                s in pending,
                back - front,
                golla[s],
                jinting,
            )
            small += declared  # by absolute seat, as the next two
            small += double
            small += counts
            pots.append(pot)
        contiguous = out[:n].flags.c_contiguous
        o = out[:n] if contiguous else np.empty((n, OBS_SIZE), dtype=np.float32)
        o[:] = 0
        flat = o.reshape(-1)  # a view (o is contiguous): flat positions write into o
        sm = np.frombuffer(bytes(small), dtype=np.uint8).reshape(n, _SMALL)
        # one-hot scalars (phase, turn, dealer, round wind, who offered the claim) and
        # the planes of single tiles
        hot = (np.arange(n) * OBS_SIZE)[:, None] + _HOT_AT + sm[:, :5]
        flat[hot[:, :4].ravel()] = 1
        flat[hot[:, 4][sm[:, 4] < 4]] = 1
        if ones:
            flat[ones] = 1
        if meld_at:
            flat[meld_at] = meld_n
        o[:, _S + 4] = sm[:, 5]  # to act
        o[:, _S + 18] = sm[:, 6]  # wall
        o[:, _S + 35 : _S + 37] = sm[:, 7:9]  # golla, jinting
        o[:, _S + 17] = pots
        # the per-seat counts, from absolute seats to relative: [i, r] = [i, order[r]]
        rows = np.arange(n)[:, None]
        order = _ORDER_ARRAY[seats]
        per_seat = sm[:, 9:].reshape(n, 3, 4)[rows, :, order]  # (n, 4 relative, 3)
        o[:, _S + 23 : _S + 27] = per_seat[:, :, 0] == 1  # 엎어
        o[:, _S + 27 : _S + 31] = per_seat[:, :, 0] == 2  # 불러
        o[:, _S + 31 : _S + 35] = per_seat[:, :, 1]  # 부지부
        o[:, _S + 19 : _S + 23] = per_seat[:, :, 2]  # concealed
        o[:, :_P] = np.frombuffer(bytes(own), dtype=np.uint8).reshape(n, _P)
        river = _counts_of(rivers).reshape(n, 4, _P)[rows, order]
        o[:, _RIVER:_WAITS] = river.reshape(n, 4 * _P)
        if flower_at:  # (one copy of each flower: counts of 1, unless the rules change)
            at, count = np.unique(flower_at, return_counts=True)
            flat[at] = count
        o[:, _VISIBLE : _VISIBLE + _P] = (
            o[:, :_P] + o[:, _MELDS:_RIVER].reshape(n, 4, _P).sum(axis=1) + river.sum(axis=1)
        )
        if not contiguous:
            out[:n] = o

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


class MahjongFast:
    """The engine stepped by action id, for many hands at once (``madang.rl.vector``)."""

    def __init__(self, encoding: MahjongEncoding) -> None:
        from madang.mahjong.rules import MahjongRules

        self.encoding = encoding
        self.rules = encoding.rules if encoding.rules is not None else MahjongRules()
        # the engine's actions are interned (alive for the whole process): their ids are
        # keys that need no hashing of fields
        self._acts = [[encoding.action(seat, i) for i in range(NUM_ACTIONS)] for seat in range(4)]
        self._by_obj = {
            id(encoding.action(seat, i)): i for seat in range(4) for i in range(NUM_ACTIONS)
        }

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

        by_obj = self._by_obj
        ids = self.encoding._ids
        out = []
        for a in legal_actions(state, seat):
            i = by_obj.get(id(a))
            out.append(i if i is not None else ids[a.verb, a.tile, a.declare])
        return out

    def step(self, state: HandState, seat: int, action: int) -> None:
        """Apply ``seat``'s action id."""
        from madang.mahjong.engine import step

        step(state, self._acts[seat][action])

    def payments(self, state: HandState) -> Sequence[tuple[int, int, int, str]]:
        """The hand's payments (made when it ends)."""
        return () if state.result is None else state.result.payments

    def currents(self, states: Sequence[HandState]) -> list[int]:
        """The first seat to answer in each hand (-1 where it is over)."""
        return [s.pending[0] if s.pending else -1 for s in states]

    def legal_masks(
        self, states: Sequence[HandState], seats: Sequence[int], out: npt.NDArray[np.int8]
    ) -> None:
        """``out[i]``: 1 at the action ids legal for ``seats[i]`` in ``states[i]``."""
        from madang.mahjong.engine import legal_actions

        legal = list(map(legal_actions, states, seats))
        n = len(legal)
        try:  # the engine's actions are interned: their ids by object identity
            ids = bytes(map(self._by_obj.__getitem__, map(id, chain.from_iterable(legal))))
        except KeyError:  # an action not interned (never from the engine): by fields
            ids = bytes(map(self.encoding.id_of, chain.from_iterable(legal)))
        out[:n] = 0
        out[np.repeat(np.arange(n), list(map(len, legal))), np.frombuffer(ids, np.uint8)] = 1

    def step_many(
        self, states: Sequence[HandState], seats: Sequence[int], actions: Sequence[int]
    ) -> list[int]:
        """Apply each seat's action id; the indices of the hands that ended (a hand pays
        when it ends)."""
        from madang.mahjong.engine import step

        acts = self._acts
        touched = []
        for i, (st, seat, action) in enumerate(zip(states, seats, actions, strict=True)):
            step(st, acts[seat][action])
            if st.phase == PHASE_OVER:
                touched.append(i)
        return touched
