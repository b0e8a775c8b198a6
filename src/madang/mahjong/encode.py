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

from collections.abc import Sequence
from itertools import chain
from operator import attrgetter
from typing import Any

import numpy as np
import numpy.typing as npt

from madang.core.errors import InvalidActionError
from madang.mahjong.hand import waits
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
_PENDING = attrgetter("pending")
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
        self._waits: dict[tuple[int | bool, ...], list[int]] = {}  # ready hands' waits
        self._forms: list[tuple[str, int, str]] = []
        for verb, declare in _TILE_FORMS:
            for k in range(NUM_KINDS):
                self._ids[verb, k, declare] = len(self._forms)
                self._forms.append((verb, k, declare))
        for verb in _PLAIN:
            self._ids[verb, -1, ""] = len(self._forms)
            self._forms.append((verb, -1, ""))

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
        of :meth:`observe` of their views, from the engine states directly, encoded for
        all states in a few numpy operations (the fast path of ``madang.rl.vector``)."""
        n = len(states)
        if n == 0:
            return
        me = np.asarray(seats, dtype=np.int64)
        rel = (me[:, None] + _AR4) % 4  # rel[i, r]: the absolute seat r places after i's seat
        rows = np.arange(n)[:, None]
        inv = (_AR4[None, :] - me[:, None]) % 4  # inv[i, s]: seat s relative to i's seat
        flat_hands = bytes(chain.from_iterable(chain.from_iterable(st.hands for st in states)))
        hands = np.frombuffer(flat_hands, dtype=np.uint8).reshape(n, 4, _P).astype(np.float32)
        mine = hands[np.arange(n), me]
        # ragged lists (rivers, flowers, melds, waits) as flat index lists, counted at once
        flat: list[int] = []
        weights: list[int] = []
        cache = self._waits
        scal: list[tuple[int, ...]] = []
        for i, st in enumerate(states):
            s = seats[i]
            base = i * OBS_SIZE
            row_inv = ((0, 1, 2, 3), (3, 0, 1, 2), (2, 3, 0, 1), (1, 2, 3, 0))[s]
            for t, melds in enumerate(st.melds):
                for meld in melds:
                    flat.append(base + _MELDS + row_inv[t] * _P + meld.tile)
                    weights.append(len(flat) - 1)
                    weights.append(_MELD_SIZE[meld.kind] - 1)
            declared = st.declared
            for t in range(4):
                if declared[t] == 2:
                    off = base + _WAITS + row_inv[t] * _P
                    flat += [off + k for k in st.declared_waits[t]]
            hand = st.hands[s]
            phase = st.phase
            jinting = 0
            if sum(hand) % 3 == 1:
                key = (*hand, len(st.melds[s]), st.rules.quad_as_two_pairs)
                ws = cache.get(key)
                if ws is None:
                    if len(cache) > 200_000:
                        cache.clear()
                    ws = cache[key] = waits(hand, len(st.melds[s]), st.rules.quad_as_two_pairs)
                if ws:
                    flat += [base + _MY_WAITS + k for k in ws]
                    discarded = st.discarded[s]
                    jinting = int(any(discarded >> k & 1 for k in ws))
            drawn = st.drawn if st.turn == s and phase == PHASE_DISCARD else -1
            if drawn >= 0:
                flat.append(base + _P + drawn)
            claim = st.claim_tile
            if claim >= 0:
                flat.append(base + _CLAIM + claim)
            scal.append(
                (
                    _PHASE_INDEX[phase],
                    int(s in st.pending),
                    st.turn,
                    st.dealer,
                    st.round_wind - 18,
                    st.pot,
                    st.wall_count,
                    int(st.golla[s]),
                    jinting,
                    st.claim_from if claim >= 0 else -1,
                    *declared,
                    *st.double,
                )
            )
        # rivers and flowers of every state: flattened in C, their offsets by np.repeat
        base_rel = (np.arange(n)[:, None] * OBS_SIZE + inv * _P).ravel()  # (n*4,)
        rivers = [r for st in states for r in st.rivers]
        lengths = np.fromiter(map(len, rivers), dtype=np.int64, count=4 * n)
        tiles = np.fromiter(chain.from_iterable(rivers), dtype=np.int64, count=int(lengths.sum()))
        flowers = [f for st in states for f in st.flowers]
        flens = np.fromiter(map(len, flowers), dtype=np.int64, count=4 * n)
        ftiles = np.fromiter(chain.from_iterable(flowers), dtype=np.int64, count=int(flens.sum()))
        fbase = (np.arange(n)[:, None] * OBS_SIZE + inv * 4).ravel()
        flat_np = np.concatenate(
            (
                np.asarray(flat, dtype=np.int64),
                np.repeat(base_rel + _RIVER, lengths) + tiles,
                np.repeat(fbase + _FLOWER - NUM_KINDS, flens) + ftiles,
            )
        )
        planes = np.zeros(n * OBS_SIZE, dtype=np.float32)
        if len(flat_np):
            w = np.ones(len(flat_np), dtype=np.float32)
            if weights:  # melds count 3 or 4 tiles: (position in flat, extra) pairs
                w[weights[0::2]] += weights[1::2]
            planes = np.bincount(flat_np, weights=w, minlength=n * OBS_SIZE).astype(np.float32)
        o = planes.reshape(n, OBS_SIZE)
        o[:, :_P] = mine
        o[:, _VISIBLE : _VISIBLE + _P] = (
            mine
            + o[:, _MELDS:_RIVER].reshape(n, 4, _P).sum(1)
            + o[:, _RIVER:_WAITS].reshape(n, 4, _P).sum(1)
        )
        sc = np.array(scal, dtype=np.int64)
        ar = np.arange(n)
        o[ar, _S + sc[:, 0]] = 1
        o[:, _S + 4] = sc[:, 1]
        o[ar, _S + 5 + (sc[:, 2] - me) % 4] = 1
        o[ar, _S + 9 + (sc[:, 3] - me) % 4] = 1
        o[ar, _S + 13 + sc[:, 4]] = 1
        o[:, _S + 17] = sc[:, 5]
        o[:, _S + 18] = sc[:, 6]
        o[:, _S + 19 : _S + 23] = hands.sum(2)[rows, rel]
        decl = sc[:, 10:14][rows, rel]
        o[:, _S + 23 : _S + 27] = decl == 1
        o[:, _S + 27 : _S + 31] = decl == 2
        o[:, _S + 31 : _S + 35] = sc[:, 14:18][rows, rel]
        o[:, _S + 35] = sc[:, 7]
        o[:, _S + 36] = sc[:, 8]
        has = sc[:, 9] >= 0
        o[ar[has], _S + 37 + (sc[has, 9] - me[has]) % 4] = 1
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
        return [p[0] if p else -1 for p in map(_PENDING, states)]

    def legal_ids_many(
        self, states: Sequence[HandState], seats: Sequence[int]
    ) -> list[Sequence[int]]:
        """The action ids legal for each seat in its hand."""
        from madang.mahjong.engine import legal_actions

        by_obj = self._by_obj.__getitem__
        out: list[Sequence[int]] = []
        for legal in map(legal_actions, states, seats):
            try:
                out.append(list(map(by_obj, map(id, legal))))
            except KeyError:  # an action not interned (never from the engine): by fields
                out.append([self.encoding.id_of(a) for a in legal])
        return out

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
