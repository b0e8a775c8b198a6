"""The whole truth of one mahjong hand (국, guk), and the actions that change it.

:class:`HandState` is mutable and clones cheaply (lists of small ints, shared immutable
pieces); :class:`Action` is a small frozen value with a text notation that round-trips:

>>> a = Action.parse("2 discard 3m eopeo")
>>> a.seat, a.verb, str(a), a.move
(2, 'discard', 'discard 3m eopeo', '2 discard 3m eopeo')
>>> Action.parse("pon", seat=1) == Action(1, "pon")
True
>>> Action.parse("discard 3s", seat=0)
Traceback (most recent call last):
...
madang.mahjong.tiles.TileNotationError: unknown suit letter 's' in '3s'

The engine (:mod:`madang.mahjong.engine`) reads and writes the fields of the state;
bots and clients should use :func:`madang.mahjong.view.view` instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from madang.core.errors import InvalidActionError
from madang.core.slots import compile_clone, register_values
from madang.mahjong.rules import MahjongRules
from madang.mahjong.tiles import NUM_KINDS, parse_tile, tile_name

__all__ = [
    "ACTION_FORMS",
    "DECLARES",
    "PHASE_CLAIM",
    "PHASE_DISCARD",
    "PHASE_OVER",
    "PHASE_ROB",
    "VERBS",
    "Action",
    "HandResult",
    "HandState",
    "MeldInfo",
    "WinInfo",
    "shown_counts",
]

PHASE_DISCARD: Final = "discard"
"""타패 (tapae): the turn seat holds 3k+2 tiles and must win, kan or discard."""
PHASE_CLAIM: Final = "claim"
"""뽕/깡/쏘아 window: seats that can claim the last discard answer it."""
PHASE_ROB: Final = "rob"
"""깡쏘아 (kkang-ssoa) window: seats that can win on a tile added to a 뽕 answer it."""
PHASE_OVER: Final = "over"
"""The hand has ended: a win or 나가리."""

VERBS: Final = ("discard", "tsumo", "ron", "pon", "kan", "ankan", "kakan", "pass")
"""Every action verb, in notation order."""
DECLARES: Final = ("eopeo", "bulleo")
"""The declarations that may go with a discard: 엎어 and 불러."""

_TILE_VERBS: Final = frozenset(("discard", "ankan", "kakan"))

_TILE_FORMS: Final = (
    ("discard", ""), ("discard", "eopeo"), ("discard", "bulleo"), ("ankan", ""), ("kakan", ""),
)  # fmt: skip
ACTION_FORMS: Final[tuple[tuple[str, int, str], ...]] = (
    *((verb, k, declare) for verb, declare in _TILE_FORMS for k in range(NUM_KINDS)),
    *((verb, -1, "") for verb in ("tsumo", "ron", "pon", "kan", "pass")),
)
"""Every action without its seat, as ``(verb, tile, declare)``, numbered by position: an
action's :attr:`Action.code` (the action id of :mod:`madang.mahjong.encode`)."""
_CODES: Final = {form: i for i, form in enumerate(ACTION_FORMS)}


# HandState.shown: what every seat sees of each seat, as counts the engine keeps as the
# hand changes (the RL observation reads them in a few slices rather than counting the
# rivers and melds tile by tile). A group of one number (or plane) per seat is stored
# twice, seats 0-3 then 0-3 again, so that the four seats in turn order from any seat
# ``s`` are one slice from ``s``'s place.
SHOWN_MELDS: Final = 0  # 8 planes of 25 counts: the tiles of each seat's melds
SHOWN_RIVERS: Final = 200  # each seat's discards still in its river
SHOWN_WAITS: Final = 400  # the waits each seat announced by 불러 (1 each)
SHOWN_ALL: Final = 600  # 25: every meld and river together (not per seat)
SHOWN_CONCEALED: Final = 625  # 8: the concealed tiles between turns (13 less 3 a meld)
SHOWN_EOPEO: Final = 633  # 8: 1 where the seat declared 엎어
SHOWN_BULLEO: Final = 641  # 8: 1 where it declared 불러
SHOWN_DOUBLE: Final = 649  # 8: 1 where it declared in its first turn (부지부)
SHOWN_FLOWERS: Final = 657  # 8 x 4: the flowers 1f-4f each seat laid out
SHOWN_SIZE: Final = 689
SHOWN_PLANE: Final = 4 * NUM_KINDS  # a 25-wide group's second copy is this far on
_MELD_TILES: Final = {"pon": 3, "kan": 4, "ankan": 4}
# a hand's shown counts before the deal: 13 concealed tiles a seat, nothing else
_NO_SHOWN: Final = bytes(
    [13 if SHOWN_CONCEALED <= i < SHOWN_CONCEALED + 8 else 0 for i in range(SHOWN_SIZE)]
)


def shown_counts(st: HandState) -> bytearray:
    """:attr:`HandState.shown` counted from the hand's melds, rivers, declarations and
    flowers (the engine keeps it as it steps; a state built another way is counted by
    this, and a test checks the kept counts against it at every step)."""
    out = bytearray(SHOWN_SIZE)
    for t in range(4):
        for copy in (t, t + 4):
            plane = NUM_KINDS * copy
            for m in st.melds[t]:
                out[SHOWN_MELDS + plane + m.tile] = _MELD_TILES[m.kind]
            for k in st.rivers[t]:
                out[SHOWN_RIVERS + plane + k] += 1
            if st.declared[t] == 2:
                for k in st.declared_waits[t]:
                    out[SHOWN_WAITS + plane + k] = 1
            out[SHOWN_CONCEALED + copy] = 13 - 3 * len(st.melds[t])
            out[SHOWN_EOPEO + copy] = st.declared[t] == 1
            out[SHOWN_BULLEO + copy] = st.declared[t] == 2
            out[SHOWN_DOUBLE + copy] = bool(st.double[t])
            for k in st.flowers[t]:
                out[SHOWN_FLOWERS + 4 * copy + k - NUM_KINDS] += 1
        for m in st.melds[t]:
            out[SHOWN_ALL + m.tile] += _MELD_TILES[m.kind]
        for k in st.rivers[t]:
            out[SHOWN_ALL + k] += 1
    return out


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat, e.g. ``0 discard 3m bulleo``.

    ``verb`` is one of :data:`VERBS`; ``tile`` is a tile kind (0–24) for ``discard``,
    ``ankan`` and ``kakan`` and -1 otherwise; ``declare`` is ``""``, ``"eopeo"`` or
    ``"bulleo"`` (only with ``discard``). ``kan`` is the open kan on a discard;
    ``ankan`` the concealed one and ``kakan`` the added one (on one's own turn).
    ``str(action)`` is the notation without the seat, ``action.move`` the record form
    with it. ``code`` (not a constructor argument) is the action's number without its
    seat: its position in :data:`ACTION_FORMS`.
    """

    seat: int
    verb: str
    tile: int = -1
    declare: str = ""
    code: int = field(default=-1, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.seat, int) or isinstance(self.seat, bool) or not 0 <= self.seat < 4:
            raise InvalidActionError(f"seat must be 0-3, not {self.seat!r}")
        if self.verb not in VERBS:
            raise InvalidActionError(f"unknown action {self.verb!r}; known: {', '.join(VERBS)}")
        if self.verb in _TILE_VERBS:
            if not isinstance(self.tile, int) or not 0 <= self.tile < NUM_KINDS:
                raise InvalidActionError(f"{self.verb} needs a tile 1m-7z, not {self.tile!r}")
        elif self.tile != -1:
            raise InvalidActionError(f"{self.verb} takes no tile")
        if self.declare and (self.verb != "discard" or self.declare not in DECLARES):
            raise InvalidActionError(f"bad declaration {self.declare!r} with {self.verb}")
        object.__setattr__(self, "code", _CODES[self.verb, self.tile, self.declare])

    def __str__(self) -> str:
        text = self.verb
        if self.tile >= 0:
            text += " " + tile_name(self.tile)
        if self.declare:
            text += " " + self.declare
        return text

    def __repr__(self) -> str:
        return f"Action.parse({self.move!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy give the interned action (compare madang.core.slots.rebuild)
        return act, (self.seat, self.verb, self.tile, self.declare)

    @property
    def move(self) -> str:
        """The record form: the seat, then the notation (``"0 discard 3m"``)."""
        return f"{self.seat} {self}"

    @classmethod
    def parse(cls, text: object, seat: int | None = None) -> Action:
        """Read ``"[SEAT] VERB [TILE] [eopeo|bulleo]"``; malformed text raises
        :class:`~madang.core.errors.InvalidActionError`.

        The seat is either the first word or the ``seat`` argument (both: they must
        agree).

        >>> Action.parse("3 ankan 1z").tile
        18
        >>> Action.parse("1 pon", seat=2)
        Traceback (most recent call last):
        ...
        madang.core.errors.InvalidActionError: action '1 pon' names seat 1, not 2
        """
        if not isinstance(text, str):
            raise InvalidActionError(f"an action must be text, not {type(text).__name__}")
        words = text.split()
        if words and words[0].isdigit():
            named = int(words[0])
            if seat is not None and seat != named:
                raise InvalidActionError(f"action {text!r} names seat {named}, not {seat}")
            seat = named
            words = words[1:]
        if seat is None:
            raise InvalidActionError(f"action {text!r} names no seat")
        if not words:
            raise InvalidActionError(f"empty action {text!r}")
        verb = words[0]
        if verb not in VERBS:
            raise InvalidActionError(f"unknown action {verb!r} in {text!r}")
        tile = -1
        declare = ""
        rest = words[1:]
        if verb in _TILE_VERBS:
            if not rest:
                raise InvalidActionError(f"{verb} needs a tile: {text!r}")
            tile = parse_tile(rest[0])
            if tile >= NUM_KINDS:
                raise InvalidActionError(f"cannot {verb} a flower: {text!r}")
            rest = rest[1:]
            if verb == "discard" and rest:
                declare = rest[0]
                if declare not in DECLARES:
                    raise InvalidActionError(f"unknown declaration {declare!r} in {text!r}")
                rest = rest[1:]
        if rest:
            raise InvalidActionError(f"unexpected {' '.join(rest)!r} in action {text!r}")
        return _interned(seat, verb, tile, declare)


_INTERN: Final[dict[tuple[int, str, int, str], Action]] = {}


def _interned(seat: int, verb: str, tile: int = -1, declare: str = "") -> Action:
    key = (seat, verb, tile, declare)
    a = _INTERN.get(key)
    if a is None:
        a = _INTERN[key] = Action(seat, verb, tile, declare)
    return a


def act(seat: int, verb: str, tile: int = -1, declare: str = "") -> Action:
    """The shared (interned) :class:`Action` for these fields: equal to a fresh one,
    cheaper to build and compare on hot paths."""
    return _interned(seat, verb, tile, declare)


@dataclass(frozen=True, slots=True)
class MeldInfo:
    """A declared meld as the table sees it: ``pon``, ``kan`` (open) or ``ankan``.

    ``source`` is the seat the claimed tile came from (-1 for ``ankan``; for a ``kan``
    added to a 뽕, the seat of the original 뽕 tile).
    """

    kind: str
    tile: int
    source: int = -1

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "tile": tile_name(self.tile), "from": self.source}


@dataclass(frozen=True, slots=True)
class WinInfo:
    """One winner of a hand: who, how, on which tile, from whom, and the score sheet."""

    seat: int
    by: str  # "ron" | "tsumo"
    tile: int
    source: int  # the discarder (ron / 깡쏘아) or -1 (tsumo)
    hand: tuple[int, ...]  # concealed kinds, the winning tile included, sorted
    melds: tuple[MeldInfo, ...]
    flags: frozenset[str]
    sheet: Any  # madang.mahjong.scoring.ScoreSheet


@dataclass(frozen=True, slots=True)
class HandResult:
    """The end of a hand: winners (empty for 나가리), payments, the pot carried on."""

    winners: tuple[WinInfo, ...]
    payments: tuple[tuple[int, int, int, str], ...]  # (from, to, points, reason)
    nagari: bool
    next_pot: int
    dealer_keeps: bool


class HandState:
    """One hand (국, guk): everything about it, hidden parts included.

    Create it with :func:`madang.mahjong.engine.new_hand`; change it only with
    :func:`madang.mahjong.engine.step`. Fields (all seats indexed 0–3):

    * ``wall`` (tuple of 104 kinds, top first, never changed), ``front`` (next draw
      index), ``back`` (one past the next replacement index): the live wall is
      ``wall[front:back]``;
    * ``hands``: concealed tiles as 25 counts per seat; ``melds``, ``rivers``
      (discards still on the table), ``flowers``;
    * ``discarded``: bitmask of every kind a seat has discarded (for 진팅);
    * ``declared``: 0, 1 (엎어) or 2 (불러); ``double``: 부지부 (first turn);
      ``declared_waits``: the waits fixed at the declaration;
    * ``golla``: 골라 쏘아 금지 in force; ``any_call``: a 뽕 or 깡 has been made;
    * ``turn``, ``phase``, ``pending``, ``drawn`` (the tile just drawn, -1 if none),
      ``kan_draw``, ``claim_tile``/``claim_from`` (the tile offered in a window);
    * ``history``: the moves so far (claim answers in canonical order);
    * ``result``: a :class:`HandResult` once the hand is over;
    * ``shown``: counts of what every seat sees of each seat (melds, rivers, announced
      waits, declarations, flowers; the layout at ``SHOWN_MELDS`` …), kept by the engine
      as the hand changes: read it, do not write it (:func:`shown_counts` counts it
      afresh).
    """

    __slots__: ClassVar[tuple[str, ...]] = (
        "_legal",
        "_waits",
        "answers",
        "any_call",
        "back",
        "claim_from",
        "claim_tile",
        "deal_events",
        "dealer",
        "declared",
        "declared_waits",
        "discarded",
        "discards_made",
        "double",
        "drawn",
        "draws",
        "flowers",
        "front",
        "golla",
        "hands",
        "history",
        "kan_draw",
        "melds",
        "options",
        "pending",
        "phase",
        "pot",
        "result",
        "rivers",
        "round_wind",
        "rules",
        "shown",
        "turn",
        "turn_shanten",
        "wall",
        "window_start",
    )

    rules: MahjongRules
    dealer: int
    round_wind: int
    pot: int
    wall: tuple[int, ...]
    front: int
    back: int
    hands: list[list[int]]
    melds: list[list[MeldInfo]]
    rivers: list[list[int]]
    discarded: list[int]
    flowers: list[list[int]]
    declared: list[int]
    double: list[bool]
    declared_waits: list[tuple[int, ...]]
    golla: list[bool]
    any_call: bool
    draws: list[int]
    discards_made: list[int]
    turn: int
    phase: str
    pending: list[int]
    options: dict[int, tuple[Action, ...]]
    answers: dict[int, Action]
    drawn: int
    kan_draw: bool
    turn_shanten: int
    claim_tile: int
    claim_from: int
    history: list[Action]
    window_start: int
    result: HandResult | None
    deal_events: tuple[dict[str, Any], ...]
    shown: bytearray
    _waits: list[int]
    _legal: dict[int | None, list[Action]] | None

    @property
    def wall_count(self) -> int:
        """Tiles left in the live wall."""
        return self.back - self.front

    @property
    def over(self) -> bool:
        """Whether the hand has ended."""
        return self.phase == PHASE_OVER

    def seat_wind(self, seat: int) -> int:
        """자기 바람 (jagi baram): the seat wind of ``seat`` (the dealer is East, 18)."""
        return 18 + (seat - self.dealer) % 4

    @classmethod
    def blank(
        cls, rules: MahjongRules, wall: tuple[int, ...], dealer: int, round_wind: int, pot: int
    ) -> HandState:
        """A hand before the deal: every field at its starting value (the one place a
        state is built; :func:`madang.mahjong.engine.new_hand` deals into it)."""
        st = cls()
        st.rules = rules
        st.dealer = dealer
        st.round_wind = round_wind
        st.pot = pot
        st.wall = wall
        st.front = 53
        st.back = 104
        st.hands = [[0] * NUM_KINDS for _ in range(4)]
        st.melds = [[] for _ in range(4)]
        st.rivers = [[] for _ in range(4)]
        st.discarded = [0, 0, 0, 0]
        st.flowers = [[] for _ in range(4)]
        st.declared = [0, 0, 0, 0]
        st.double = [False] * 4
        st.declared_waits = [(), (), (), ()]
        st.golla = [False] * 4
        st.any_call = False
        st.draws = [0, 0, 0, 0]
        st.discards_made = [0, 0, 0, 0]
        st.turn = dealer
        st.phase = PHASE_DISCARD
        st.pending = [dealer]
        st.options = {}
        st.answers = {}
        st.drawn = -1
        st.kan_draw = False
        st.turn_shanten = 8
        st.claim_tile = -1
        st.claim_from = -1
        st.history = []
        st.window_start = 0
        st.result = None
        st.deal_events = ()
        st.shown = bytearray(_NO_SHOWN)
        st._waits = [-1, -1, -1, -1]
        st._legal = None
        return st

    def clone(self) -> HandState:
        """An independent copy (a few microseconds: only small lists are copied), by a
        body generated from the field tables below (:mod:`madang.core.slots`); called
        rather than assigned to the class, which a build compiled by mypyc would not
        allow."""
        return _clone(self)  # type: ignore[no-any-return]

    def snapshot(self) -> dict[str, Any]:
        """Every field as plain data (for equality checks in tests and replays)."""
        return {
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "round_wind": self.round_wind,
            "pot": self.pot,
            "wall": list(self.wall),
            "front": self.front,
            "back": self.back,
            "hands": [h[:] for h in self.hands],
            "melds": [[(m.kind, m.tile, m.source) for m in ms] for ms in self.melds],
            "rivers": [r[:] for r in self.rivers],
            "discarded": self.discarded[:],
            "flowers": [f[:] for f in self.flowers],
            "declared": self.declared[:],
            "double": self.double[:],
            "declared_waits": [list(w) for w in self.declared_waits],
            "golla": self.golla[:],
            "any_call": self.any_call,
            "draws": self.draws[:],
            "discards_made": self.discards_made[:],
            "turn": self.turn,
            "phase": self.phase,
            "pending": self.pending[:],
            "options": {s: [a.move for a in acts] for s, acts in sorted(self.options.items())},
            "answers": {s: a.move for s, a in sorted(self.answers.items())},
            "drawn": self.drawn,
            "kan_draw": self.kan_draw,
            "claim_tile": self.claim_tile,
            "claim_from": self.claim_from,
            "history": [a.move for a in self.history],
            "result": None if self.result is None else _result_data(self.result),
        }


#: How :meth:`HandState.clone` copies each field: shared (immutable values, and the
#: ``_legal`` cache, which no step mutates), a flat list, a list of lists, a dict.
_NESTED: Final = ("hands", "melds", "rivers", "flowers")
_FLAT: Final = ("discarded", "declared", "double", "declared_waits", "golla", "draws",
         "discards_made", "pending", "history", "shown", "_waits")  # fmt: skip
_DICTS: Final = ("options", "answers")
_SHARED: Final = tuple(n for n in HandState.__slots__ if n not in _NESTED + _FLAT + _DICTS)


_clone: Final = compile_clone(HandState, shared=_SHARED, lists=_FLAT, nested=_NESTED, dicts=_DICTS)


def _result_data(result: HandResult) -> dict[str, Any]:
    return {
        "winners": [
            (w.seat, w.by, w.tile, w.source, w.hand, sorted(w.flags), w.sheet.points)
            for w in result.winners
        ],
        "payments": list(result.payments),
        "nagari": result.nagari,
        "next_pot": result.next_pot,
        "dealer_keeps": result.dealer_keeps,
    }


# pickle and copy rebuild these values through their constructors (a compiled build needs it)
register_values(MeldInfo, WinInfo, HandResult)
