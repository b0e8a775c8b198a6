"""점수 계산 (jeomsu gyesan): scoring a won hand of Korean mahjong (``mahjong.md`` §6).

:func:`score_hand` checks the input, reads the hand every possible way (every
decomposition × every set the winning tile could have completed, 칠대작 included),
applies the pattern table of :mod:`madang.mahjong.patterns` to each reading and keeps
the reading with the most points.

>>> from madang.mahjong.tiles import parse_tiles, parse_tile
>>> from madang.mahjong.rules import MahjongRules
>>> ctx = WinContext(by="tsumo", win_tile=parse_tile("6m"), seat_wind=19, round_wind=18)
>>> sheet = score_hand(parse_tiles("234m 234p 678p 45m 88p 6m"), [], ctx, MahjongRules())
>>> [i.name for i in sheet.base_items], sheet.base_pan, sheet.extra_pan, sheet.points
(['menjen', 'seumu', 'pingheo', 'dangyo'], 4, 1, 15)
>>> sheet.payments(1, None)
[(0, 1, 15), (2, 1, 15), (3, 1, 15)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from madang.core.errors import InvalidActionError, RecordError
from madang.core.slots import register_values
from madang.mahjong.hand import chiitoi_pairs, decompositions
from madang.mahjong.patterns import Item, Reading, evaluate
from madang.mahjong.rules import MIN_PAN_NAMES, MahjongRules
from madang.mahjong.tiles import EAST, NUM_KINDS, WINDS, format_tiles, tile_name

__all__ = [
    "FLAGS",
    "MAX_BASE_PAN",
    "MAX_BASE_POINTS",
    "MAX_EXTRA_PAN",
    "MELD_KINDS",
    "Meld",
    "ScoreInputError",
    "ScoreSheet",
    "WinContext",
    "max_hand_points",
    "max_points",
    "payers_factor",
    "score_hand",
]

FLAGS: Final = frozenset(
    ("eopeo", "bulleo", "double_eopeo", "haitei", "kan_draw", "robbed_kan", "first_draw")
)
"""The circumstances of a win that change its score (notation.md)."""

MELD_KINDS: Final = ("pon", "kan", "ankan")
"""뽕 (ppong), open 깡 (kkang, from a discard or added to a 뽕), concealed 깡."""

MAX_BASE_PAN: Final = 34
"""The most 기본판 any hand scores: 대사시 12 + 자일색 12 + 사앙꼬 8 + 멘젠 + 스무 (four
wind triplets and a dragon pair, concealed, won by 올라). Every reading of every hand
was checked (``benchmarks/mahjong_max_pan.py``); seven pairs reach at most 18."""

MAX_EXTRA_PAN: Final = 28
"""A bound on the 부가판 of one hand. Without ``first_draw``: 화만관 8 + 겐쇼 4 (four copies
at most) + 부지부불러 6 (the largest of the 엎어 family, which replace each other) + 깡올라
or 깡쏘아 5 (올라 or 쏘아) + 하이떼이 5 (올라 or 쏘아; not with 깡쏘아). With it
(천화/인화/지화 16, exclusive) no other flag may hold: 16 + 8 + 4. Both sums are 28."""

MAX_BASE_POINTS: Final = 10
"""The largest 기본점수 (a 멘젠 hand won by 올라)."""

_MELD_SIZE: Final = {"pon": 3, "kan": 4, "ankan": 4}
_EOPEO_FLAGS: Final = ("eopeo", "bulleo", "double_eopeo")


class ScoreInputError(RecordError):
    """Calculator input that cannot be a real won hand (fifth copy, wrong tile count,
    contradictory flags …)."""

    code = "bad_hand"


@dataclass(frozen=True, slots=True)
class Meld:
    """뽕/깡 (ppong/kkang): a declared meld.

    ``kind`` is ``"pon"`` (open triplet), ``"kan"`` (open quad: from a discard or added to
    a 뽕) or ``"ankan"`` (concealed quad); ``tile`` is the tile kind.

    >>> Meld.parse("pon 5z")
    Meld(kind='pon', tile=22)
    >>> Meld.parse("ankan 1111z").text()
    'ankan 1z'
    """

    kind: str
    tile: int

    def __post_init__(self) -> None:
        if self.kind not in _MELD_SIZE:
            raise InvalidActionError(
                f"unknown meld kind {self.kind!r}; expected one of {', '.join(MELD_KINDS)}"
            )
        if type(self.tile) is not int or not 0 <= self.tile < NUM_KINDS:
            raise InvalidActionError(f"a meld needs a non-flower tile kind, not {self.tile!r}")

    @property
    def size(self) -> int:
        """Tiles the meld holds: 3 for 뽕, 4 for a 깡."""
        return _MELD_SIZE[self.kind]

    @property
    def is_open(self) -> bool:
        """Whether the meld breaks 멘젠 (뽕 and open 깡 do; a concealed 깡 does not)."""
        return self.kind != "ankan"

    def text(self) -> str:
        """Notation form, ``"pon 5z"``."""
        return f"{self.kind} {tile_name(self.tile)}"

    @classmethod
    def parse(cls, text: object) -> Meld:
        """Parse ``"pon 5z"`` / ``"kan 3p"`` / ``"ankan 1z"``; the meld's tiles may also be
        written out in full (``"pon 555z"``, ``"kan 3333p"``)."""
        from madang.mahjong.tiles import parse_tiles

        if not isinstance(text, str):
            raise InvalidActionError(f"a meld must be a string like 'pon 5z', not {text!r}")
        parts = text.split(None, 1)
        if len(parts) != 2:
            raise InvalidActionError(f"a meld must look like 'pon 5z', not {text!r}")
        kind, tiles_text = parts
        if kind not in _MELD_SIZE:
            raise InvalidActionError(
                f"unknown meld kind {kind!r} in {text!r}; expected one of {', '.join(MELD_KINDS)}"
            )
        kinds = parse_tiles(tiles_text)
        if not kinds or len(set(kinds)) != 1 or len(kinds) not in (1, _MELD_SIZE[kind]):
            raise InvalidActionError(
                f"meld {text!r} must name one tile, or {_MELD_SIZE[kind]} of the same tile"
            )
        return cls(kind, kinds[0])


@dataclass(frozen=True, slots=True)
class WinContext:
    """올라/쏘아 상황 (olla/ssoa sanghwang): the circumstances of one win.

    ``by`` is ``"ron"`` (쏘아, on a discard) or ``"tsumo"`` (올라, own draw);
    ``win_tile`` the winning tile's kind; ``seat_wind``/``round_wind`` kinds 18–21 (18,
    East, is the dealer); ``flowers`` 0–4; ``flags`` a subset of :data:`FLAGS`; ``pot``
    the 나가리 pot the winner collects.
    """

    by: str
    win_tile: int
    seat_wind: int
    round_wind: int
    flowers: int = 0
    flags: frozenset[str] = field(default_factory=frozenset)
    pot: int = 0

    @property
    def tsumo(self) -> bool:
        """올라 (olla): won on one's own draw."""
        return self.by == "tsumo"

    @property
    def dealer(self) -> bool:
        """선 (seon): the winner is the dealer (seat wind East)."""
        return self.seat_wind == EAST


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """점수표 (jeomsupyo): the itemised score of a hand.

    ``points`` = (``base_pan`` + ``extra_pan``) × ``pan_value`` + ``base_points`` + ``pot``
    for a valid hand, all zero otherwise (``reason`` says why).
    """

    valid: bool
    base_items: tuple[Item, ...]
    """기본판 (gibonpan) lines, in table order."""
    extra_items: tuple[Item, ...]
    """부가판 (bugapan) lines, in table order."""
    base_pan: int
    extra_pan: int
    base_points: int
    """기본점수 (gibon jeomsu): 5 for a 멘젠 쏘아, 10 for a 멘젠 올라, else 0."""
    pot: int
    """나가리 (nagari) pot collected."""
    points: int
    reason: str = ""
    """Why the hand is not valid, or ``""``."""
    by: str = "tsumo"
    """``"ron"`` or ``"tsumo"``."""
    ron_pays: int = 2
    """What the discarder pays on 쏘아, times ``points`` (the rules in force)."""
    pan_value: int = 1
    """Points per 판 (the rules in force)."""
    sets: tuple[str, ...] = ()
    """The counted reading: each set in compact notation (melds as ``"pon 555z"``)."""
    wait: str = ""
    """How the winning tile completed the reading: ``two_sided``, ``edge``, ``closed``,
    ``pair`` or ``triplet`` (empty when not valid)."""

    @property
    def total_pan(self) -> int:
        """기본판 + 부가판."""
        return self.base_pan + self.extra_pan

    def payments(
        self, winner_seat: int, discarder_seat: int | None, nseats: int = 4
    ) -> list[tuple[int, int, int]]:
        """Who pays whom: ``(from, to, points)`` triples; empty when the hand is not valid.

        On 쏘아 the discarder alone pays ``ron_pays`` × points; on 올라 every other seat
        pays the points.
        """
        if not 0 <= winner_seat < nseats:
            raise InvalidActionError(f"no seat {winner_seat} at a table of {nseats}")
        if (discarder_seat is None) != (self.by == "tsumo"):
            raise InvalidActionError(
                "a discarder is needed for a 쏘아 win and meaningless for an 올라 win"
            )
        if not self.valid:
            return []
        if discarder_seat is not None:
            if not 0 <= discarder_seat < nseats or discarder_seat == winner_seat:
                raise InvalidActionError(f"seat {discarder_seat} cannot be the discarder")
            return [(discarder_seat, winner_seat, self.points * self.ron_pays)]
        return [(s, winner_seat, self.points) for s in range(nseats) if s != winner_seat]


def max_hand_points(rules: MahjongRules) -> int:
    """A bound on the points of one won hand under ``rules`` without a 나가리 pot:
    (:data:`MAX_BASE_PAN` + :data:`MAX_EXTRA_PAN`) × ``pan_value`` + the base points.

    >>> max_hand_points(MahjongRules()), max_hand_points(MahjongRules(pan_value=2))
    (72, 134)
    """
    return (MAX_BASE_PAN + MAX_EXTRA_PAN) * rules.pan_value + MAX_BASE_POINTS


def payers_factor(rules: MahjongRules) -> int:
    """How many times a hand's points one hand can move at most: 3 on 올라 (each other
    seat pays them), ``ron_pays`` on 쏘아, times 3 with ``multiple_ron`` (three winners
    on one discard, each paid by the discarder).

    >>> payers_factor(MahjongRules()), payers_factor(MahjongRules(multiple_ron=True))
    (3, 6)
    """
    return max(3, rules.ron_pays * (3 if rules.multiple_ron else 1))


def max_points(rules: MahjongRules) -> int:
    """A bound on the points one hand under ``rules`` moves, every payment together,
    when it starts with an empty 나가리 pot: :func:`payers_factor` ×
    :func:`max_hand_points`. A pot adds 5 points per drawn hand before it to the
    first winner's points (so at most :func:`payers_factor` × the pot more); the pot
    is never multiplied by ``pan_value``.

    >>> max_points(MahjongRules()), max_points(MahjongRules(pan_value=100, multiple_ron=True))
    (216, 37260)
    """
    return payers_factor(rules) * max_hand_points(rules)


# -- input checks --------------------------------------------------------------------


def _check_input(concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext) -> list[int]:
    """Validate everything; return the concealed count vector."""
    if ctx.by not in ("ron", "tsumo"):
        raise ScoreInputError(f"by must be 'ron' or 'tsumo', not {ctx.by!r}")
    for name, wind in (("seat", ctx.seat_wind), ("round", ctx.round_wind)):
        if type(wind) is not int or wind not in WINDS:
            raise ScoreInputError(f"the {name} wind must be a wind (1z–4z), not {wind!r}")
    if type(ctx.flowers) is not int or not 0 <= ctx.flowers <= 4:
        raise ScoreInputError(f"flowers must be an integer 0–4, not {ctx.flowers!r}")
    if type(ctx.pot) is not int or ctx.pot < 0:
        raise ScoreInputError(f"pot must be a non-negative integer, not {ctx.pot!r}")
    unknown = set(ctx.flags) - FLAGS
    if unknown:
        raise ScoreInputError(
            f"unknown flag(s) {', '.join(sorted(map(str, unknown)))}; "
            f"known: {', '.join(sorted(FLAGS))}"
        )
    counts = [0] * NUM_KINDS
    for k in concealed:
        if type(k) is not int or not 0 <= k < NUM_KINDS:
            raise ScoreInputError(f"the hand holds a tile that is not a non-flower kind: {k!r}")
        counts[k] += 1
    win = ctx.win_tile
    if type(win) is not int or not 0 <= win < NUM_KINDS:
        raise ScoreInputError(f"the winning tile must be a non-flower kind, not {win!r}")
    if counts[win] == 0:
        raise ScoreInputError(f"the winning tile {tile_name(win)} is not in the hand")
    total = list(counts)
    for m in melds:
        if not isinstance(m, Meld):
            raise ScoreInputError(f"not a meld: {m!r}")
        total[m.tile] += m.size
    for k, c in enumerate(total):
        if c > 4:
            raise ScoreInputError(f"{c} copies of {tile_name(k)}: there are only 4")
    ntiles = len(concealed) + 3 * len(melds)
    if ntiles != 14:
        raise ScoreInputError(
            f"a won hand has 14 tiles (each meld counting 3), not {ntiles}: "
            f"{len(concealed)} concealed and {len(melds)} meld(s)"
        )
    _check_flags(melds, ctx, total)
    return counts


def _check_flags(melds: Sequence[Meld], ctx: WinContext, total: Sequence[int]) -> None:
    flags = frozenset(ctx.flags)
    tsumo = ctx.by == "tsumo"
    if "kan_draw" in flags:
        if not tsumo:
            raise ScoreInputError("kan_draw (깡올라) needs a win by tsumo")
        if not any(m.kind != "pon" for m in melds):
            raise ScoreInputError("kan_draw (깡올라) needs a kan among the melds")
    if "robbed_kan" in flags:
        if tsumo:
            raise ScoreInputError("robbed_kan (깡쏘아) needs a win by ron")
        if total[ctx.win_tile] != 1:
            raise ScoreInputError(
                "robbed_kan (깡쏘아): the other three copies of the winning tile are in "
                "the robbed 뽕, so the hand holds exactly one"
            )
    if "haitei" in flags and "robbed_kan" in flags:
        raise ScoreInputError(
            "haitei cannot combine with robbed_kan: no kan is added once the wall is empty"
        )
    if "eopeo" in flags and ("bulleo" in flags or "double_eopeo" in flags):
        raise ScoreInputError(
            "eopeo goes with neither bulleo nor double_eopeo (불러 and 부지부엎어 include 엎어)"
        )
    if any(f in flags for f in _EOPEO_FLAGS) and any(m.is_open for m in melds):
        raise ScoreInputError("엎어/불러 need a concealed hand (no pon or open kan)")
    if "first_draw" in flags:
        if ctx.seat_wind == EAST and not tsumo:
            raise ScoreInputError("first_draw with ron: the dealer wins first by tsumo (천화)")
        if melds:
            raise ScoreInputError("first_draw (천화/인화/지화) allows no meld before the win")
        clash = flags - {"first_draw"}
        if clash:
            raise ScoreInputError(f"first_draw cannot combine with {', '.join(sorted(clash))}")


# -- readings ------------------------------------------------------------------------


def _chow_wait(low: int, win: int) -> str:
    n = low % 9  # 0 for a run starting at 1
    if win == low + 1:
        return "closed"
    if win == low:
        return "two_sided" if n <= 5 else "edge"
    return "two_sided" if n >= 1 else "edge"


def _nine_gates(counts: Sequence[int], win: int, melds: Sequence[Meld]) -> bool:
    if melds or win >= 18:
        return False
    base = win - win % 9
    for k in range(NUM_KINDS):
        if (counts[k] - (k == win)) != (
            (3 if k in (base, base + 8) else 1) if base <= k <= base + 8 else 0
        ):
            return False
    return True


def _mask(kinds: Iterable[int]) -> int:
    m = 0
    for k in kinds:
        m |= 1 << k
    return m


_RUN_NAMES: Final = tuple(
    format_tiles((k, k + 1, k + 2)) if k < 18 and k % 9 <= 6 else "" for k in range(NUM_KINDS)
)
_TRIPLET_NAMES: Final = tuple(format_tiles((k, k, k)) for k in range(NUM_KINDS))
_PAIR_NAMES: Final = tuple(format_tiles((k, k)) for k in range(NUM_KINDS))


def _sheet_sets(
    pair: int, sets: Sequence[tuple[str, int]], pairs: Sequence[int], melds: Sequence[Meld]
) -> tuple[str, ...]:
    out = [(_RUN_NAMES if kind == "chow" else _TRIPLET_NAMES)[k] for kind, k in sets]
    out += [_PAIR_NAMES[p] for p in pairs]
    if pair >= 0:
        out.append(_PAIR_NAMES[pair])
    out += [f"{m.kind} {format_tiles([m.tile] * m.size)}" for m in melds]
    return tuple(out)


class _Candidate(NamedTuple):
    """The best reading so far: its items and what the sheet reports of it."""

    base_pan: int
    base: tuple[Item, ...]
    extra: tuple[Item, ...]
    pair: int
    sets: Sequence[tuple[str, int]]
    pairs: tuple[int, ...]
    wait: str


def score_hand(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    ctx: WinContext,
    rules: MahjongRules,
) -> ScoreSheet:
    """Score a won hand: ``concealed`` are the concealed tile kinds, winning tile included.

    Input that cannot be a real hand raises :class:`ScoreInputError` (a
    ``RecordError``) or ``InvalidActionError``; a hand that is not a winning shape, or
    misses the table's minimum 기본판, gives ``valid=False`` and zero points.
    """
    counts = _check_input(concealed, melds, ctx)
    win = ctx.win_tile
    tsumo = ctx.by == "tsumo"
    flags = frozenset(ctx.flags)
    menjen = not any(m.is_open for m in melds)
    meld_triplets = tuple(m.tile for m in melds)
    ankans = sum(1 for m in melds if m.kind == "ankan")
    win_copies = counts[win] + sum(m.size for m in melds if m.tile == win)
    present = _mask(k for k in range(NUM_KINDS) if counts[k]) | _mask(meld_triplets)
    nine = _nine_gates(counts, win, melds)

    best: _Candidate | None = None

    def consider(
        triplets: tuple[int, ...],
        concealed_triplets: int,
        chows: tuple[int, ...],
        pair: int,
        pairs: tuple[int, ...],
        sets: Sequence[tuple[str, int]],
        wait: str,
    ) -> None:
        nonlocal best
        reading = Reading(
            triplets=triplets,
            concealed_triplets=concealed_triplets,
            chows=chows,
            pair=pair,
            pairs=pairs,
            present=present,
            menjen=menjen,
            tsumo=tsumo,
            two_sided=wait == "two_sided",
            nine_gates=nine,
            seat_wind=ctx.seat_wind,
            round_wind=ctx.round_wind,
            win_copies=win_copies,
            flowers=ctx.flowers,
            flags=flags,
        )
        base, extra = evaluate(reading)
        base_pan = sum(i.pan for i in base)
        if best is None or base_pan > best.base_pan:
            best = _Candidate(base_pan, base, extra, pair, sets, pairs, wait)

    for d in decompositions(counts):
        pungs = tuple(k for kind, k in d.sets if kind == "pung")
        chows = tuple(k for kind, k in d.sets if kind != "pung")
        triplets = meld_triplets + pungs
        concealed_pungs = ankans + len(pungs)
        waits: list[str] = []
        if d.pair == win:
            waits.append("pair")
        if win in pungs:
            waits.append("triplet")
        for low in sorted(set(chows)):
            if low <= win <= low + 2:
                waits.append(_chow_wait(low, win))
        for wait in waits:
            # a triplet completed by 쏘아 is not concealed
            ron_triplet = 1 if wait == "triplet" and not tsumo else 0
            consider(triplets, concealed_pungs - ron_triplet, chows, d.pair, (), d.sets, wait)
    if not melds:
        pairs = chiitoi_pairs(counts, rules.quad_as_two_pairs)
        if pairs is not None:
            consider((), 0, (), -1, tuple(pairs), (), "pair")

    if best is None:
        return _invalid("not a winning hand", ctx, rules)
    base_pan, base, extra = best.base_pan, best.base, best.extra
    if base_pan < rules.min_pan:
        reason = (
            f"{base_pan} 기본판 is below the table minimum of {rules.min_pan} "
            f"({MIN_PAN_NAMES[rules.min_pan]})"
        )
        return _invalid(reason, ctx, rules)
    extra_pan = sum(i.pan for i in extra)
    base_points = (10 if tsumo else 5) if menjen else 0
    points = (base_pan + extra_pan) * rules.pan_value + base_points + ctx.pot
    return ScoreSheet(
        valid=True,
        base_items=base,
        extra_items=extra,
        base_pan=base_pan,
        extra_pan=extra_pan,
        base_points=base_points,
        pot=ctx.pot,
        points=points,
        by=ctx.by,
        ron_pays=rules.ron_pays,
        pan_value=rules.pan_value,
        sets=_sheet_sets(best.pair, best.sets, best.pairs, melds),
        wait=best.wait,
    )


def _invalid(reason: str, ctx: WinContext, rules: MahjongRules) -> ScoreSheet:
    return ScoreSheet(
        valid=False,
        base_items=(),
        extra_items=(),
        base_pan=0,
        extra_pan=0,
        base_points=0,
        pot=0,
        points=0,
        reason=reason,
        by=ctx.by,
        ron_pays=rules.ron_pays,
        pan_value=rules.pan_value,
    )


# pickle and copy rebuild these values through their constructors (a compiled build needs it)
register_values(Meld, WinContext, ScoreSheet)
