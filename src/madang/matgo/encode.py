"""Matgo for reinforcement learning: fixed action ids and observation tensors.

:class:`MatgoEncoding` is the game's ``encoding`` in its :class:`~madang.core.game.GameSpec`
(:mod:`madang.rl` reads it). Actions are the engine's ids (:mod:`madang.matgo.actions`,
175 of them). An observation is a flat ``float32`` vector of :data:`OBS_SIZE` numbers,
seen from one seat ("mine" is the seat, "theirs" the opponent): :data:`PLANES` planes of
52 cards (ids as in :mod:`madang.matgo.cards`: 48 month cards then 4 bonus cards, 1.0
where the card is in the set), then the :data:`SCALARS`. ``docs/rl/matgo.md`` documents
every channel.

It is built only from the seat's view (:func:`madang.matgo.view.view`), so it cannot show
a hidden card. :meth:`MatgoEncoding.observe_states` is the fast path of the batched
environment: the same numbers computed from engine states without building the view
(a test checks that both agree at every step of random games).

>>> from madang.matgo.engine import new_game
>>> from madang.matgo.view import view
>>> enc = MatgoEncoding()
>>> g = new_game(seed=1)
>>> obs = enc.observe(view(g, 0))
>>> obs.shape, int(obs[:52].sum()), enc.scalar(obs, "pile")
((547,), 10, 22.0)
>>> enc.move(enc.action_id("play 08g shake"))
'play 08g shake'
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence
from itertools import compress, repeat
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from madang.core.errors import IllegalActionError
from madang.matgo import actions as A
from madang.matgo.cards import (
    ALL_MONTH_CARDS,
    ANIMAL_MASK,
    BIGWANG_BIT,
    CHEONGDAN_MASK,
    CHODAN_MASK,
    CODES,
    GODORI_MASK,
    GUKJIN_BIT,
    GWANG_MASK,
    HONGDAN_MASK,
    MONTH_MASK,
    NUM_CARDS,
    PI_MASK,
    RIBBON_MASK,
    SSANGPI_MASK,
    SSEURIPI_MASK,
    pi_value,
)
from madang.matgo.engine import _PHASE_LEGAL_BITS, MatgoState, Phase
from madang.matgo.rules import Gukjin
from madang.matgo.scoring import PILE_POINTS, jokbo_points

__all__ = [
    "OBS_SIZE",
    "PLANES",
    "SCALARS",
    "MatgoEncoding",
    "legal_one",
    "observe_masked",
    "observe_one",
]

PLANES: Final[tuple[str, ...]] = (
    "hand",  # own hand
    "revealed_theirs",  # the opponent's cards shown by 흔들기 / 총통, still in its hand
    "floor",  # cards on the floor (bonus cards lying in a stack included)
    "ppeok_mine",  # floor cards in a 뻑 stack that this seat made
    "ppeok_theirs",  # floor cards in a 뻑 stack that the opponent made
    "captured_mine",  # own captured pile
    "captured_theirs",  # the opponent's captured pile
    "in_flight",  # cards of the turn in progress: taken but not yet piled, or just flipped
    "seen",  # every card this seat has seen where it is now (the union of the above)
    "mission",  # the cards of the game's 미션 (missions rule), else empty
)
"""The card planes, in order (52 numbers each)."""

SCALARS: Final[tuple[str, ...]] = (
    "phase_play",
    "phase_pick_play",
    "phase_pick_flip",
    "phase_gukjin",
    "phase_go_stop",
    "phase_chongtong",
    "phase_over",
    "to_act",  # 1 when this seat must answer now
    "dealer",  # 1 when this seat is 선
    "hand_count_mine",
    "hand_count_theirs",
    "pile",  # cards left in the draw pile
    "score_mine",  # 족보 points now
    "score_theirs",
    "go_mine",  # 고 called
    "go_theirs",
    "shakes_mine",  # 흔들기 + 폭탄 (+ 총통 played on)
    "shakes_theirs",
    "tokens_mine",  # bomb tokens left (flips)
    "tokens_theirs",
    "ppeok_mine",  # 뻑 made
    "ppeok_theirs",
    "carry",  # the 나가리 multiplier in force
    "stop_points",  # at 고/스톱: what 스톱 pays now, else 0
    "gukjin_free",  # 국진 not yet fixed
    "gukjin_animal",  # 국진 fixed as 열끗
    "gukjin_pi",  # 국진 fixed as 쌍피
)
"""The scalars after the planes, in order (raw counts and points, not normalised)."""

NUM_PLANES: Final = len(PLANES)
OBS_SIZE: Final = NUM_PLANES * NUM_CARDS + len(SCALARS)

_CARD_ID: Final = {c: i for i, c in enumerate(CODES)}
_PHASES: Final = ("play", "pick_play", "pick_flip", "gukjin", "go_stop", "chongtong", "over")
_GUKJIN: Final = {"free": 0, "animal": 1, "pi": 2}
_SCALAR_INDEX: Final = {n: NUM_PLANES * NUM_CARDS + i for i, n in enumerate(SCALARS)}
FloatArray = npt.NDArray[np.float32]

_S: Final = NUM_PLANES * NUM_CARDS  # where the scalars start
_OVER, _GO_STOP = int(Phase.OVER), int(Phase.GO_STOP)
_OVER_PHASE: Final = Phase.OVER
# observe_states' per-state fields, as the state holds them, and how many numbers of
# them it copies: card masks (the floor, both hands, both captured piles, both seats'
# revealed cards, the turn's cards in flight, the mission's cards, the options of a 패
# 선택) and small counts (고,
# shakes, tokens and 뻑 of both seats, the pile's size, the phase, the seat to act,
# 선, the 국진 mode + 1, the 나가리 carry).
_RAW_MASKS: Final = 10
_RAW_SMALL: Final = 14
_FLIP_BIT: Final = (*(1 << c for c in range(NUM_CARDS)), 0)  # by Turn.flip (-1: none)
_NO_MAKERS: Final = [-1] * 13
_NO_EXTRA: Final = [0] * 13
_SEEN: Final = [0, 1, 2, 5, 6, 7]  # the planes whose union is the seen plane
_BEFORE_SCORE: Final = Gukjin.BEFORE_SCORE
# settlement modes by MatgoState.gukjin_mode + 1 (not fixed: the best way; 열끗; 쌍피)
_PHASE_EYE: Final = np.eye(len(_PHASES), dtype=np.float32)  # one-hot rows by phase
_GUKJIN_EYE: Final = np.eye(3, dtype=np.float32)  # by MatgoState.gukjin_mode + 1
_MASK_BYTES: Final = (A.NUM_ACTIONS + 7) // 8
_MASK_BITS: Final = 8 * _MASK_BYTES


# 족보 points of many captured piles at once, the batched twin of
# scoring.jokbo_points (a test checks them against each other). The 족보 add up over
# four disjoint kinds of cards (brights, animals, ribbons, 피), so a pile's points are
# one table entry per kind, indexed by what of that kind the pile holds. The indices
# are linear in the cards (one matrix product of the captured-pile planes gives them)
# and jokbo_points itself fills the tables.
def _pop(m: int) -> int:
    return m.bit_count()


def _jokbo_index(m: int) -> list[int]:
    """A pile's indices: brights (2 per card, +1 for 비광), animals (+10 per 고도리
    bird), ribbons (+11 per 홍단, 44 per 청단, 176 per 초단 ribbon), 피 value, 국진 held."""
    return [
        2 * _pop(m & GWANG_MASK) + _pop(m & BIGWANG_BIT),
        _pop(m & ANIMAL_MASK) + 10 * _pop(m & GODORI_MASK),
        _pop(m & RIBBON_MASK)
        + 11 * (_pop(m & HONGDAN_MASK) + 4 * _pop(m & CHEONGDAN_MASK) + 16 * _pop(m & CHODAN_MASK)),
        pi_value(m),
        _pop(m & GUKJIN_BIT),
    ]


def _subsets(kind: int) -> list[int]:
    """Every subset of the cards of ``kind`` (a mask)."""
    cards = [c for c in range(NUM_CARDS) if kind >> c & 1]
    return [sum(1 << c for j, c in enumerate(cards) if i >> j & 1) for i in range(1 << len(cards))]


def _jokbo_tables() -> list[FloatArray]:
    """The points by index of the brights, the animals, the ribbons and the 피."""
    tables: list[dict[int, int]] = [{}, {}, {}, {}]

    def put(kind: int, index: int, points: int) -> None:
        assert tables[kind].setdefault(index, points) == points, "the index misses a 족보"

    for kind, cards in enumerate((GWANG_MASK, ANIMAL_MASK, RIBBON_MASK)):
        for m in _subsets(cards):
            put(kind, _jokbo_index(m)[kind], jokbo_points(m))
    singles = [c for c in range(NUM_CARDS) if PI_MASK >> c & 1]
    for m in _subsets(SSANGPI_MASK | SSEURIPI_MASK):
        for k in range(len(singles) + 1):
            pile = m | sum(1 << c for c in singles[:k])
            put(3, pi_value(pile), jokbo_points(pile))
            # a 국진 as 쌍피 adds 2 to the value (and, as no animal, scores nothing else)
            put(3, pi_value(pile) + 2, jokbo_points(pile | GUKJIN_BIT, True))
    out = []
    for table in tables:
        arr = np.zeros(max(table) + 1, dtype=np.float32)
        arr[list(table)] = list(table.values())
        out.append(arr)
    return out


def _kinds() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """The cards grouped by their indices (cards of a group add the same to each index):
    the groups' masks, and their indices ``(5, groups)``."""
    groups: dict[tuple[int, ...], int] = {}
    for c in range(NUM_CARDS):
        index = tuple(_jokbo_index(1 << c))
        groups[index] = groups.get(index, 0) | 1 << c
    masks = np.array(list(groups.values()), dtype=np.int64)
    return masks, np.array(list(groups), dtype=np.float32).T


_GWANG, _ANIMALS, _RIBBONS, _PI = _jokbo_tables()
# Two tables of summed points: by brights and ribbons, and by animals and 피 (국진 as
# 열끗 or as 쌍피: its index moves by a fixed step); their indices are linear in the
# indices above, so one matrix product of a pile's counts per group gives all three.
_BRIGHTS_RIBBONS: Final = (_GWANG[:, None] + _RIBBONS[None, :]).reshape(-1)
_ANIMALS_PI: Final = (_ANIMALS[:, None] + _PI[None, :]).reshape(-1)
_KIND_MASKS, _KIND_INDEX = _kinds()
_KIND_WEIGHTS: Final = np.array(
    [[len(_RIBBONS), 0, 1, 0, 0],  # brights x ribbons
     [0, len(_PI), 0, 1, 0],  # animals x 피, 국진 as 열끗
     [0, len(_PI), 0, 1, 2 - len(_PI)]],  # as 쌍피: one animal less, 피 value + 2
    dtype=np.float32,
) @ _KIND_INDEX  # fmt: skip


def _jokbo(piles: npt.NDArray[np.int64]) -> FloatArray:
    """:func:`~madang.matgo.scoring.jokbo_points` of many piles, given as card masks
    ``(k,)`` (``int64``): ``(2, k)``, a held 국진 counted as 열끗 (row 0) and as 쌍피 (1)."""
    counts = np.bitwise_count(piles[:, None] & _KIND_MASKS).astype(np.float32)
    brights_ribbons, as_animal, as_pi = (_KIND_WEIGHTS @ counts.T).astype(np.intp)
    common = _BRIGHTS_RIBBONS[brights_ribbons]
    out = np.empty((2, len(piles)), dtype=np.float32)
    out[0] = common + _ANIMALS_PI[as_animal]
    out[1] = common + _ANIMALS_PI[as_pi]
    return out


def _scores(
    states: Sequence[MatgoState],
    piles: npt.NDArray[np.int64],
    gukjin: npt.NDArray[np.integer[Any]],
) -> FloatArray:
    """:meth:`MatgoState.score` of both seats of each state, ``(n, 2)``, from the masks
    of the two captured piles ``(n, 2)`` and the 국진 modes + 1."""
    n = len(states)
    as_animal, as_pi = _jokbo(piles.reshape(2 * n)).reshape(2, n, 2)
    use_pi = (gukjin == 2)[:, None]  # fixed as 쌍피
    # a 국진 not yet fixed counts as 열끗 until asked (BEFORE_SCORE), else the best way
    rules = [s.rules for s in states]
    if rules.count(rules[0]) == n:
        if rules[0].gukjin is not _BEFORE_SCORE:
            use_pi = use_pi | ((gukjin == 0)[:, None] & (as_pi > as_animal))
    else:
        best = np.array([r.gukjin is not _BEFORE_SCORE for r in rules]) & (gukjin == 0)
        use_pi = use_pi | (best[:, None] & (as_pi > as_animal))
    out: FloatArray = np.where(use_pi, as_pi, as_animal)
    return out


_MONTH_MASKS: Final = np.array(MONTH_MASK, dtype=np.int64)
_PLAY: Final = int(Phase.PLAY)
_IS_PICK: Final = np.array([p in (Phase.PICK_PLAY, Phase.PICK_FLIP) for p in Phase])  # by phase
# the legal ids from GO on by phase (MatgoState.legal_mask of the phases answered so)
_FIXED_ANSWERS: Final = np.array(
    [[_PHASE_LEGAL_BITS[p] >> a & 1 for a in range(A.GO, A.NUM_ACTIONS)] for p in Phase],
    dtype=np.int8,
)
# MatgoState.legal_mask's SWAR test: a nibble (a month) of three or four cards
_ONES_NP, _FIVES_NP, _THREES_NP = (np.int64(int(d * 13, 16)) for d in "153")
_FOURS_NP: Final = np.int64(int("4" * 13, 16) & ALL_MONTH_CARDS)


def _unpack_masks(bits: list[int]) -> npt.NDArray[np.uint8]:
    """Masks of legal ids (``MatgoState.legal_mask``), one row each ``(k, NUM_ACTIONS)``."""
    # each mask's bytes big-endian (int.to_bytes' default: no keyword to pass), so the
    # unpacked bits run from the highest id down
    raw = b"".join(map(int.to_bytes, bits, repeat(_MASK_BYTES)))
    unpacked = np.unpackbits(np.frombuffer(raw, dtype=np.uint8).reshape(len(bits), -1), axis=1)
    out: npt.NDArray[np.uint8] = unpacked[:, _MASK_BITS - 1 : _MASK_BITS - 1 - A.NUM_ACTIONS : -1]
    return out


# The single-state path (one seat's observation and mask, as the AEC environment asks
# for them): the planes and the legal ids as one bit string unpacked by one numpy call,
# the scalars as bytes among the bits, or as float32 bytes packed by struct when one is
# over a byte (numpy's functions bound here: one look-up less each).
_frombuffer, _unpackbits = np.frombuffer, np.unpackbits
_F32, _U8, _I8 = np.float32, np.uint8, np.int8
_S_BYTES: Final = 4 * NUM_PLANES * NUM_CARDS  # where the scalars' float32 bytes start
# observe_masked's bit string: the planes' 520 bits, 27 zeros where the scalars go, the
# legal ids' 175 bits: 92 bytes
_BITS_BYTES: Final = (OBS_SIZE + A.NUM_ACTIONS + 7) // 8
_REV: Final = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))  # a byte's bits reversed
_PHASE_F32: Final = tuple(
    struct.pack(f"<{len(_PHASES)}f", *(i == p for i in range(len(_PHASES))))
    for p in range(len(_PHASES))
)
_COUNTS_F32: Final = struct.Struct("<17f")  # the scalars from to_act to stop_points
_GUKJIN_F32: Final = tuple(struct.pack("<3f", *(i == m for i in range(3))) for m in range(3))
_PHASE_U8: Final = tuple(bytes(i == p for i in range(len(_PHASES))) for p in range(len(_PHASES)))
_GUKJIN_U8: Final = tuple(bytes(i == m for i in range(3)) for m in range(3))
_NO_LEGAL: Final = bytes(A.NUM_ACTIONS)
_MONTH_IDS: Final = range(len(MONTH_MASK))
_MADE: Final = (-1).__ne__  # a stack maker's seat, not -1 (none)


_SCORES_GET: Final = PILE_POINTS.get  # 족보 points by pile without 국진 (MatgoState.score's)


def observe_one(s: MatgoState, seat: int) -> FloatArray:
    """The observation of ``seat`` in ``s``: the numbers of
    :meth:`MatgoEncoding.observe_states` for one state (a test keeps them equal);
    :func:`observe_masked`'s observation."""
    return observe_masked(s, seat)[0]


def observe_masked(s: MatgoState, seat: int) -> tuple[FloatArray, npt.NDArray[np.int8]]:
    """The observation of ``seat`` in ``s`` (:func:`observe_one`) and its legal mask
    (:func:`legal_one`), built with as few numpy calls as can be: the planes as one bit
    string (plane ``i`` at bit ``52 i``) with the legal ids' bits after the
    observation's place (:meth:`MatgoState.legal_mask`: no legal list built, a play
    phase's ids are its hand's bits), unpacked by one ``np.unpackbits``; the scalars
    written as bytes where they go among the unpacked bits, the observation's part cast
    into a new float32 array, the mask a view of the rest as int8 (about 52,000
    instructions a call, counted by callgrind, where the observation alone and a mask
    from the engine's legal list took 62,500)."""
    theirs = 1 - seat
    hands = s.hands
    hand = hands[seat]
    hand_theirs = hands[theirs]
    floor = s.floor
    ppeok_mine = ppeok_theirs = 0
    makers = s.stack_maker
    extra = s.stack_extra
    if makers != _NO_MAKERS or extra != _NO_EXTRA:  # the stacks' bonus cards, the 뻑 planes
        plain = floor
        # (only the months with a stack maker or bonus cards: picked out in C)
        for m in {*compress(_MONTH_IDS, map(_MADE, makers)), *compress(_MONTH_IDS, extra)}:
            cards = plain & MONTH_MASK[m]
            if cards:
                cards |= extra[m]
                floor |= cards
                by = makers[m]
                if by == seat:
                    ppeok_mine |= cards
                elif by == theirs:
                    ppeok_theirs |= cards
    t = s.turn
    flight = t.cap | t.bonus | _FLIP_BIT[t.flip]
    captured = s.captured
    mine_pile = captured[seat]
    their_pile = captured[theirs]
    revealed = s.revealed[theirs] & hand_theirs
    seen = hand | revealed | floor | mine_pile | their_pile | flight
    mission = s.mission
    bits = (
        hand
        | revealed << 52
        | floor << 104
        | ppeok_mine << 156
        | ppeok_theirs << 208
        | mine_pile << 260
        | their_pile << 312
        | flight << 364
        | seen << 416
        | (0 if mission is None else mission.cards) << 468
    )
    phase = s.phase
    current = s.current
    go, shakes, tokens, ppeok = s.go_count, s.shakes, s.tokens, s.ppeok_count
    # both scores from MatgoState.score's table where it has them under the pile (one
    # with 국진 is remembered under a longer key: score reads it)
    score_mine = _SCORES_GET(mine_pile)
    if score_mine is None:
        score_mine = s.score(seat)
    score_theirs = _SCORES_GET(their_pile)
    if score_theirs is None:
        score_theirs = s.score(theirs)
    to_act = phase is not _OVER_PHASE and current == seat
    if to_act:
        bits |= s.legal_mask() << OBS_SIZE
    # each byte's bits reversed by a table, so that unpackbits' default order (the high
    # bit first) gives the low bit first with no keyword to parse (1,800 instructions)
    unpacked = _unpackbits(_frombuffer(bits.to_bytes(_BITS_BYTES, "little").translate(_REV), _U8))
    counts = (
        to_act,
        s.dealer == seat,
        hand.bit_count(),
        hand_theirs.bit_count(),
        len(s.pile),
        score_mine,
        score_theirs,
        go[seat],
        go[theirs],
        shakes[seat],
        shakes[theirs],
        tokens[seat],
        tokens[theirs],
        ppeok[seat],
        ppeok[theirs],
        s.carry,
        s.stop_points(current) if phase == _GO_STOP else 0,
    )
    gukjin = s.gukjin_mode + 1
    # The scalars as bytes in the unpacked bits' zeros where they go, cast with the
    # planes into a new float32 array (about 2,000 instructions less than packing them
    # as floats); a number over a byte (a large score or carry) is packed as a float
    # after the cast.
    try:
        unpacked.data[_S:OBS_SIZE] = _PHASE_U8[phase] + bytes(counts) + _GUKJIN_U8[gukjin]
        out = unpacked[:OBS_SIZE].astype(_F32)
    except ValueError:
        out = unpacked[:OBS_SIZE].astype(_F32)
        out.data.cast("B")[_S_BYTES:] = (
            _PHASE_F32[phase] + _COUNTS_F32.pack(*counts) + _GUKJIN_F32[gukjin]
        )
    return out, _frombuffer(unpacked, _I8, A.NUM_ACTIONS, OBS_SIZE)  # (a view, no copy)


def legal_one(s: MatgoState, seat: int) -> npt.NDArray[np.int8]:
    """The legal mask of ``seat`` in ``s`` (1 at the legal action ids; all 0 for a seat
    not to act), as :meth:`MatgoFast.legal_masks` for one state."""
    data = bytearray(_NO_LEGAL)
    if s.phase is not _OVER_PHASE and s.current == seat:
        for a in s.legal_actions():
            data[a] = 1
    return _frombuffer(data, _I8)  # (dtype by position: a keyword costs more)


def _mask(codes: Sequence[str]) -> int:
    m = 0
    for c in codes:
        m |= 1 << _CARD_ID[c]
    return m


def _encode(masks: list[list[int]], scalars: list[list[float]], out: FloatArray) -> None:
    """Write the planes of bitmasks and the scalars of several observations into
    ``out`` (one row each): the masks' bytes unpacked to bits in one numpy call."""
    n = len(masks)
    bits = np.array(masks, dtype="<u8").view(np.uint8)  # (n, 8 * planes), little-endian
    planes = np.unpackbits(bits, axis=1, bitorder="little").reshape(n, NUM_PLANES, 64)
    out[:n, : NUM_PLANES * NUM_CARDS] = planes[:, :, :NUM_CARDS].reshape(n, -1)
    out[:n, NUM_PLANES * NUM_CARDS :] = scalars


class MatgoEncoding:
    """맞고 (matgo) in tensors: the action ids and the observation of one seat."""

    num_actions = A.NUM_ACTIONS
    obs_size = OBS_SIZE
    planes = PLANES
    scalars = SCALARS
    plane_size = NUM_CARDS
    #: :meth:`observe_states` also writes the legal masks (``legal=``)
    observes_legal = True

    def __init__(self, rules: Any = None) -> None:
        self.rules = rules

    def action_id(self, move: str) -> int:
        """The id of a move in notation (``play 08g`` → 28)."""
        return A.parse_action(move)

    def move(self, action: int) -> str:
        """The notation of an action id."""
        return A.action_str(int(action))

    def scalar(self, obs: FloatArray, name: str) -> float:
        """One named scalar of an observation."""
        return float(obs[_SCALAR_INDEX[name]])

    def observe(self, view: dict[str, Any]) -> FloatArray:
        """The observation of ``view``'s seat (a seat's view, not a spectator's)."""
        me = view["seat"]
        if me not in (0, 1):
            raise ValueError("an observation is of a seat, not a spectator")
        opp = 1 - me
        floor = ppeok_mine = ppeok_theirs = 0
        for stack in view["floor"]:
            cards = _mask(stack["cards"]) | _mask(stack["bonus"])
            floor |= cards
            if stack["ppeok"] == me:
                ppeok_mine |= cards
            elif stack["ppeok"] == opp:
                ppeok_theirs |= cards
        turn = view["turn"]
        flight = _mask(turn["captured"]) | (_mask([turn["flipped"]]) if turn["flipped"] else 0)
        mission = view["mission_info"]
        pending = view["pending"]
        stop = view["stop_now"]
        phase = view["phase"]
        masks = [
            _mask(view["hand"]),
            _mask(view["revealed"][opp]),
            floor,
            ppeok_mine,
            ppeok_theirs,
            _mask(view["captured"][me]),
            _mask(view["captured"][opp]),
            flight,
            0,
            _mask(mission["cards"]) if mission else 0,
        ]
        masks[8] = masks[0] | masks[1] | floor | masks[5] | masks[6] | flight
        gukjin = _GUKJIN[view["gukjin"]]
        scalars = [float(phase == p) for p in _PHASES]
        scalars += [
            float(pending.get("seat") == me),
            float(view["dealer"] == me),
            view["hand_counts"][me],
            view["hand_counts"][opp],
            view["pile"],
            view["scores"][me],
            view["scores"][opp],
            view["go"][me],
            view["go"][opp],
            view["shakes"][me],
            view["shakes"][opp],
            view["tokens"][me],
            view["tokens"][opp],
            view["ppeok"][me],
            view["ppeok"][opp],
            view["carry"],
            stop["points"] if stop else 0,
            float(gukjin == 0),
            float(gukjin == 1),
            float(gukjin == 2),
        ]
        out = np.zeros((1, OBS_SIZE), dtype=np.float32)
        _encode([masks], [scalars], out)
        row: FloatArray = out[0]
        return row

    def observe_states(
        self,
        states: Sequence[MatgoState],
        seats: Sequence[int],
        out: FloatArray,
        legal: npt.NDArray[np.int8] | None = None,
    ) -> None:
        """The observations of ``seats[i]`` in ``states[i]`` into ``out[i]``: the numbers
        of :meth:`observe` of their views, from the engine states directly (fast). With
        ``legal``, also the legal masks into its rows (:meth:`MatgoFast.legal_masks`,
        from the same pass over the states: the batched environment's path).

        One short Python pass copies each state's fields as they are (by seat number,
        not seen from ``seats[i]``) into two flat lists, card masks and small counts;
        numpy then turns them round to each row's seat, unpacks the masks to planes and
        scores the captured piles of all states at once. Only the floors with 뻑 stacks
        are worked out apart (in numpy, on their rows), and the legal ids of a hand that
        may shake or bomb (three of a month) by :meth:`MatgoState.legal_mask`."""
        n = len(states)
        if n == 0:
            return
        masks: list[int] = []  # _RAW_MASKS card masks per state
        small: list[int] = []  # _RAW_SMALL small counts per state
        stacks: list[int] = []  # where the rows with 뻑 stacks begin in small
        stack_lists: list[list[int]] = []  # their stack makers, then their bonus cards
        stack_extra: list[list[int]] = []
        for s in states:
            # plain attribute reads: specialised for __slots__ (an attrgetter of the same
            # fields costs about four times the instructions)
            t = s.turn
            makers = s.stack_maker
            extra = s.stack_extra
            if makers != _NO_MAKERS or extra != _NO_EXTRA:
                stacks.append(len(small))
                stack_lists.append(makers)
                stack_extra.append(extra)
            mission = s.mission
            masks += (
                s.floor,
                *s.hands,
                *s.captured,
                *s.revealed,
                t.cap | t.bonus | _FLIP_BIT[t.flip],
                0 if mission is None else mission.cards,
                t.options,
            )
            small += (*s.go_count, *s.shakes, *s.tokens, *s.ppeok_count, len(s.pile), s.phase)
            small += (s.current, s.dealer, s.gukjin_mode + 1, s.carry)
        # the masks are below 2**52: read as int64 (faster than uint64), the same bits
        raw = np.fromiter(masks, dtype=np.int64, count=n * _RAW_MASKS).reshape(n, _RAW_MASKS)
        sm: npt.NDArray[np.integer[Any]]
        try:
            sm = np.frombuffer(bytes(small), dtype=np.uint8).reshape(n, _RAW_SMALL)
        except ValueError:  # a count over 255 (a carry of 256 or more): as ints
            sm = np.array(small, dtype=np.int64).reshape(n, _RAW_SMALL)
        seat = np.array(seats, dtype=np.int64)
        if len(seat) != n:
            raise ValueError("one seat per state")
        theirs = seat ^ 1
        rows = np.arange(n)
        hand, hand_theirs = raw[rows, 1 + seat], raw[rows, 1 + theirs]
        # the planes, then the options of a 패 선택 (for the legal masks)
        planes = np.zeros((n, NUM_PLANES + 1), dtype="<i8")
        planes[:, 0] = hand
        planes[:, 1] = raw[rows, 5 + theirs] & hand_theirs  # revealed cards still in hand
        planes[:, 2] = raw[:, 0]
        planes[:, 5] = raw[rows, 3 + seat]
        planes[:, 6] = raw[rows, 3 + theirs]
        planes[:, 7] = raw[:, 7]  # in flight
        planes[:, 9:11] = raw[:, 8:10]  # the mission, the options
        if stacks:  # the floor with its stacks' bonus cards, and the 뻑 planes
            at = np.array(stacks) // _RAW_SMALL
            by, bonus = np.array(stack_lists + stack_extra, dtype=np.int64).reshape(2, len(at), 13)
            cards = raw[at, :1] & _MONTH_MASKS  # (stack rows, month)
            cards = np.where(cards != 0, cards | bonus, 0)
            me = seat[at][:, None]
            planes[at, 2] = np.bitwise_or.reduce(cards, axis=1)
            planes[at, 3] = np.bitwise_or.reduce(np.where(by == me, cards, 0), axis=1)
            planes[at, 4] = np.bitwise_or.reduce(np.where(by == 1 - me, cards, 0), axis=1)
        planes[:, 8] = np.bitwise_or.reduce(planes[:, _SEEN], axis=1)
        bits = np.unpackbits(planes.view(np.uint8).reshape(n, -1), axis=1, bitorder="little")
        bits3 = bits.reshape(n, NUM_PLANES + 1, 64)
        o = out[:n]
        o[:, :_S] = bits3[:, :NUM_PLANES, :NUM_CARDS].reshape(n, _S)
        sc = o[:, _S:]
        phase = sm[:, 9]
        to_act = (phase != _OVER) & (sm[:, 10] == seat)
        sc[:, 0:7] = _PHASE_EYE[phase]
        sc[:, 7] = to_act
        sc[:, 8] = sm[:, 11] == seat
        sc[:, 9] = np.bitwise_count(hand)
        sc[:, 10] = np.bitwise_count(hand_theirs)
        sc[:, 11] = sm[:, 8]
        gukjin_modes = sm[:, 12]  # 0 not fixed, 1 열끗, 2 쌍피
        sc[:, 12:14] = _scores(states, planes[:, 5:7], gukjin_modes)
        pair = sm[:, :8].reshape(n, 4, 2)  # 고, shakes, tokens, 뻑 by seat number
        mine = pair[rows, :, seat]
        sc[:, 14:22:2] = mine
        sc[:, 15:22:2] = pair[rows, :, theirs]
        sc[:, 22] = sm[:, 13]
        sc[:, 23] = 0
        for i in np.flatnonzero(phase == _GO_STOP).tolist():
            sc[i, 23] = states[i].stop_points(states[i].current)
        sc[:, 24:27] = _GUKJIN_EYE[gukjin_modes]
        if legal is None:
            return
        # MatgoState.legal_mask, row by row: a play of any card in the hand (PLAY + card
        # is the card), a token flip, the options of a 패 선택, the fixed answers
        lg = legal[:n]
        play = to_act & (phase == _PLAY)
        pick = to_act & _IS_PICK[phase]
        # (bools as bytes: 0 or 1, so & keeps or clears a row without a cast)
        lg[:, : A.SHAKE] = bits3[:, 0, :NUM_CARDS] & play.view(np.uint8)[:, None]
        lg[:, A.SHAKE : A.FLIP] = 0
        lg[:, A.FLIP] = play & (mine[:, 2] > 0)
        lg[:, A.PICK : A.GO] = bits3[:, NUM_PLANES, :NUM_CARDS] & pick.view(np.uint8)[:, None]
        lg[:, A.GO :] = _FIXED_ANSWERS[phase] & to_act.view(np.int8)[:, None]
        # a hand with three or four of a month may shake or bomb: those rows from the
        # engine (the SWAR test of MatgoState.legal_mask, on every row at once)
        a = hand - ((hand >> 1) & _FIVES_NP)
        a = (a & _THREES_NP) + ((a >> 2) & _THREES_NP)
        maybe = np.flatnonzero(play & ((a + _ONES_NP) & _FOURS_NP != 0)).tolist()
        if maybe:
            lg[maybe] = _unpack_masks([states[i].legal_mask() for i in maybe])

    def render(self, view: dict[str, Any]) -> str:
        """The table of ``view`` as plain text, from the terminal renderer."""
        from rich.text import Text

        from madang.matgo.render import table_lines

        return "\n".join(Text.from_markup(line).plain for line in table_lines(view))

    def session_from_view(self, view: dict[str, Any], rng: random.Random) -> Any:
        """A session whose game is a random world consistent with a seat's ``view``
        (:meth:`MatgoState.from_view <madang.matgo.engine.MatgoState.from_view>`: the
        cards the seat cannot see dealt at random), for a search bot that is given only
        a view (OpenSpiel's ISMCTS in the arena)."""
        from madang.matgo.game import deal

        session = deal(self.rules, 0)
        session.match.game = MatgoState.from_view(view, rng)
        session._public = None  # the public view cached for the game it replaced
        return session

    def fast(self) -> MatgoFast:
        """The engine adapter of the batched environment (:mod:`madang.rl.vector`)."""
        return MatgoFast(self)


class MatgoFast:
    """The engine stepped by action id, for many games at once (``madang.rl.vector``)."""

    def __init__(self, encoding: MatgoEncoding) -> None:
        from madang.matgo.rules import MatgoRules

        self.encoding = encoding
        self.rules = encoding.rules if encoding.rules is not None else MatgoRules()

    def new(self, seed: int) -> MatgoState:
        """A new game dealt from ``seed`` (the dealer drawn from it too)."""
        from madang.matgo.engine import new_game

        return new_game(self.rules, seed=seed, dealer=seed & 1, events=False)

    def current(self, state: MatgoState) -> int:
        """The seat to answer (-1 once the game is over)."""
        return -1 if state.phase is _OVER_PHASE else state.current  # (no property call)

    def legal_ids(self, state: MatgoState, seat: int) -> list[int]:
        """The action ids legal for ``seat`` now."""
        return state.legal_actions() if not state.over and state.current == seat else []

    def step(self, state: MatgoState, seat: int, action: int) -> None:
        """Apply ``seat``'s action id (checked by :meth:`MatgoState.is_legal`, a test of
        its bits: no legal list built, about 10,000 instructions less a step)."""
        if type(action) is int and state.is_legal(action):
            state._apply(action)  # checked just now
        else:
            state.step(action)  # raises, unless a legal id given as another type

    def payments(self, state: MatgoState) -> Sequence[tuple[int, int, int, str]]:
        """Every payment made so far (instant ones during the game, then the settlement)."""
        return state.payments

    # ``seat``'s observation and legal mask in one state: the functions themselves (the
    # AEC environment calls them every step: no method in between)
    observe = staticmethod(observe_one)
    legal_mask = staticmethod(legal_one)
    observe_masked = staticmethod(observe_masked)

    def currents(self, states: Sequence[MatgoState]) -> list[int]:
        """The seat to answer in each state (-1 where it is over)."""
        return [-1 if s.phase is _OVER_PHASE else s.current for s in states]

    def legal_masks(
        self, states: Sequence[MatgoState], seats: Sequence[int], out: npt.NDArray[np.int8]
    ) -> None:
        """``out[i]``: 1 at the action ids legal for ``seats[i]`` in ``states[i]``."""
        bits = [
            s.legal_mask() if s.current == seat else 0
            for s, seat in zip(states, seats, strict=True)
        ]
        out[: len(bits)] = _unpack_masks(bits)

    def step_many(
        self, states: Sequence[MatgoState], seats: Sequence[int], actions: Sequence[int]
    ) -> list[int]:
        """Apply each seat's action id; the indices of the games that made a payment or
        ended (the action of a seat not to act raises, as in :meth:`step`)."""
        touched = []
        for i, (s, seat, action) in enumerate(zip(states, seats, actions, strict=True)):
            if s.current != seat:
                raise IllegalActionError(f"seat {seat} is not to act")
            paid = len(s.payments)
            if type(action) is int and s.is_legal(action):
                s._apply(action)  # checked just now
            else:
                s.step(action)  # raises, unless a legal id given as another type
            if s.phase is _OVER_PHASE or len(s.payments) != paid:
                touched.append(i)
        return touched
