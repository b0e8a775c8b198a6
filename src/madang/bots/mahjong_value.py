"""The value mahjong bot (level ``hard``): the defensive bot, choosing by expected points.

Korean mahjong pays for the hand, not for speed alone: a 멘젠 (menjen) hand adds 5 base
points won by 쏘아 and 10 by 올라 (plus 스무), so a concealed 1-판 hand won by 올라 takes
about 40 points from the table where an open 역패 hand takes under 10, and 청일색 alone
is 8 판. The bot values every discard and every call as *the chance of winning the hand
from there* × *the points the win would bring* (:func:`win_chance` × :meth:`ValueBot.
hand_value`), and keeps the defensive bot's danger model, folding rules and declarations.

* **Chance of winning** (:func:`win_chance`): a logistic model of how often a hand at a
  given 향청 (shanten) with a given 유효패 (ukeire) count goes on to win, by the tiles left
  in the wall, the other seats declared and the table minimum, fitted to ``hard``'s own
  hands against three ``normal`` (6,000 hands under 무판 and 양판,
  :mod:`madang.bots._mahjong_win_train`; the first fit, to the defensive bot's hands,
  gave ready hands too small a chance and hands far from ready early on too large a one).
* **Points if won**, received from the table: on 쏘아 the discarder pays ``ron_pays`` ×
  the points, on 올라 each of the three others pays them (taken as 70% 쏘아, 30% 올라).
  A ready hand is valued exactly: every wait is scored by
  :func:`~madang.mahjong.scoring.score_hand` (for 쏘아 and 올라, with the seat's flowers
  and the pot; 진팅 allows 올라 only; a win under the table minimum counts nothing),
  weighted by its unseen copies. A hand further from ready is valued by the 판 it can
  plausibly reach (:func:`line_pan`): 멘젠 with its base points, 역패 triplets (pairs in
  part), 혼일색/청일색 by how few tiles stand off the main suit, 당요, 칠대작,
  삼앙꼬/사앙꼬 and 돌돌이 by the triplets held, 통관 by the runs; under 양판/삼판 a line
  below the minimum counts only in part.
* **One draw ahead** (:meth:`ValueBot.draw_value`): a hand one tile from ready is
  valued by the ready hands its next draw makes — for every tile that makes it ready,
  weighted by its unseen copies, the best ready hand that draw allows, valued exactly
  as above (its waits, its points, the minimum by 쏘아 and by 올라) — instead of by
  :func:`line_pan`.
* **Discards**: among the tiles that are not fatal, the one with the best expected points
  less the danger (the defensive bot's estimate, weighed as a share of the best
  option's value); it folds when the defensive bot would, unless the push discard's
  expected points outweigh its danger × :attr:`ValueBot.fold_loss` points.
* **Calls** (뽕, open 깡): only when the expected points after the call (the best discard
  of the open hand) beat those of passing with the concealed hand: a call that gives up
  멘젠 for a cheap, slightly faster hand is declined; one that makes a valuable hand
  ready is taken.
* **Danger** (:class:`ValueDanger`): the defensive bot's model, but a concealed seat
  that has not declared while it could is counted at half the threat under 무판, since
  a ready concealed hand is usually declared, and not at all under 양판/삼판, where one
  that cannot be declared has no wait that 쏘아 reaches the minimum on (2,000 hands,
  seed 77: +0.17 points per hand under 무판, +0.15 more under 양판). A tile that a
  declared (엎어/불러) seat let pass since it declared is safe against it
  (:meth:`ValueBot.passed`): its hand cannot change and takes every win offered.
* **Calls** under 양판/삼판 need half again the expected points of passing
  (:attr:`ValueBot.call_margin`).
* **Declarations**: a concealed hand made ready is declared whenever the rules allow
  (at least one winning tile unseen), by 불러 rather than 엎어: 2 부가판 on every win
  for giving up the freedom to change the hand and to fold, and for showing the waits.
  The efficiency bot does not read announced waits, so against it showing them costs
  nothing (2,000 hands, seed 77: +0.13 points per hand over the efficiency bot's rule
  under 무판, +0.2 when declaring on any wait against any threat); against players who
  avoid the waits, a 불러 hand is left with 올라 alone.

>>> import random
>>> from madang.bots.base import Budget
>>> from madang.mahjong.engine import new_hand, legal_actions
>>> from madang.mahjong.view import view
>>> st = new_hand(seed=5)
>>> legal = [a.code for a in legal_actions(st, 0)]
>>> ValueBot().act(view(st, 0), legal, random.Random(0), Budget()) in legal
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any, Final

from madang.bots.mahjong_defensive import DangerModel, DefensiveBot
from madang.bots.mahjong_efficiency import (
    Table,
    _acceptance,
    discard_forms,
    discard_options,
    hand_keys,
)
from madang.mahjong.engine import EOPEO_MIN_WALL
from madang.mahjong.hand import KIND_STEP, KIND_SUIT, shanten_keys
from madang.mahjong.rules import MahjongRules
from madang.mahjong.scoring import Meld, WinContext, score_hand
from madang.mahjong.state import Action
from madang.mahjong.tiles import NUM_KINDS, TERMINALS_AND_HONORS

__all__ = [
    "RON_SHARE",
    "WIN_COEFFICIENTS",
    "WIN_FEATURES",
    "ValueBot",
    "ValueDanger",
    "declared_others",
    "line_pan",
    "wait_points",
    "win_chance",
    "win_features",
]

RON_SHARE: Final = 0.7
"""The share of wins taken by 쏘아 (the rest by 올라), as measured between these bots."""

WIN_FEATURES: Final = (
    "shanten",
    "ready",
    "log1p ukeire",
    "wall/10",
    "shanten × wall/10",
    "others declared",
    "table minimum",
)
"""The inputs of :func:`win_chance`'s logistic, in the order of :data:`WIN_COEFFICIENTS`."""
WIN_COEFFICIENTS: Final = (
    -4.0098,  # bias
    -1.4833,  # shanten
    1.1649,  # ready
    0.8122,  # log1p ukeire
    0.5463,  # wall/10
    0.0777,  # shanten × wall/10
    -0.6535,  # others declared
    -0.0076,  # table minimum
)
"""The logistic's bias and weights (:mod:`madang.bots._mahjong_win_train`)."""
_GENSYO: Final = 1.5
"""겐쇼 (gensyo): the copies of the winning tile in a won hand, on average."""
_YAOJIU: Final = TERMINALS_AND_HONORS


def win_features(
    shanten: int, ukeire: float, wall_count: int, others: int = 0, min_pan: int = 0
) -> tuple[float, ...]:
    """The inputs of :func:`win_chance`'s logistic (:data:`WIN_FEATURES`)."""
    w = wall_count / 10
    return (
        float(shanten),
        float(shanten == 0),
        math.log1p(max(0.0, ukeire)),
        w,
        shanten * w,
        float(others),
        float(min_pan > 0),
    )


def win_chance(
    shanten: int,
    ukeire: float,
    wall_count: int,
    others: int = 0,
    min_pan: int = 0,
    coefficients: Sequence[float] = WIN_COEFFICIENTS,
) -> float:
    """The chance that a hand ``shanten`` tiles from ready (0: ready), with ``ukeire``
    unseen tiles that improve it (a ready hand: its winning tiles), goes on to win with
    ``wall_count`` tiles left, ``others`` other seats declared (엎어/불러) and a table
    minimum of ``min_pan`` 판: the logistic of :func:`win_features` with
    ``coefficients`` (bias first).

    >>> round(win_chance(0, 8, 30), 2), round(win_chance(1, 8, 30), 2)
    (0.64, 0.14)
    >>> win_chance(-1, 0, 0)
    1.0
    """
    if shanten < 0:
        return 1.0
    b = coefficients
    z = b[0]
    for wi, xi in zip(
        b[1:], win_features(shanten, ukeire, wall_count, others, min_pan), strict=True
    ):
        z += wi * xi
    return 1.0 / (1.0 + math.exp(-z))


def declared_others(t: Table) -> int:
    """How many seats other than ``t.seat`` have declared (엎어/불러)."""
    return sum(1 for p in range(4) if p != t.seat and t.declared[p])


def _reach(pan: float, minimum: int) -> float:
    """How likely a line expecting ``pan`` 기본판 is to reach the table ``minimum``."""
    return 1.0 if pan >= minimum else (pan / minimum) ** 2


def line_pan(
    counts: list[int],
    melds: list[tuple[str, int, int]],
    value_kinds: tuple[int, ...],
    unseen: list[int],
) -> float:
    """기본판 (gibonpan) a hand of ``counts`` (concealed) and ``melds`` can expect when it
    wins, each pattern weighted by a rough chance that it will still hold: 멘젠 (kept
    while no call is made), 역패 triplets (a pair with a copy unseen: a quarter),
    혼일색/청일색 by the tiles off the main suit, 당요 by the terminals and honors held,
    칠대작 by the pairs of a concealed hand, 삼앙꼬/사앙꼬/돌돌이 by the triplets, 통관
    by the runs of one suit.

    >>> from madang.mahjong.tiles import parse_tiles, to_counts
    >>> vk = (22, 23, 24, 18, 18)
    >>> flush = line_pan(to_counts(parse_tiles("1235678m11199m5z")), [], vk, [2] * 25)
    >>> mixed = line_pan(to_counts(parse_tiles("1235678m119p99m5z")), [], vk, [2] * 25)
    >>> flush > mixed + 3
    True
    """
    concealed = all(kind == "ankan" for kind, _, _ in melds)
    meld_tiles = [tile for _, tile, _ in melds]
    pan = 1.0 if concealed else 0.0
    for v in value_kinds:
        if v in meld_tiles or counts[v] >= 3:
            pan += 1.0
        elif counts[v] == 2 and unseen[v]:
            pan += 0.25
    man = sum(counts[0:9]) + 3 * sum(1 for k in meld_tiles if k < 9)
    pin = sum(counts[9:18]) + 3 * sum(1 for k in meld_tiles if 9 <= k < 18)
    honors = sum(counts[18:25]) + 3 * sum(1 for k in meld_tiles if k >= 18)
    off = min(man, pin)
    if off <= 3:
        p_flush = (1.0, 0.55, 0.3, 0.12)[off]
        if honors == 0 or (honors <= 2 and not any(k >= 18 for k in meld_tiles)):
            # 청일색 (8) replaces 혼일색 (2); with a stray honor or two, a fair chance
            p_pure = 1.0 if honors == 0 else 0.35
            pan += p_flush * (2.0 + 6.0 * p_pure)
        else:
            pan += p_flush * 2.0
    yaojiu = sum(counts[k] for k in _YAOJIU)
    if not any(k in _YAOJIU for k in meld_tiles) and yaojiu <= 2:
        pan += (0.8, 0.45, 0.2)[yaojiu]
    pairs = sum(1 for k in range(NUM_KINDS) if counts[k] == 2)
    triplets = sum(1 for k in range(NUM_KINDS) if counts[k] >= 3)
    if concealed and not melds and pairs >= 5:
        pan += 4.0 * (0.25 if pairs == 5 else 0.5)
    hidden = triplets + sum(1 for kind, _, _ in melds if kind == "ankan")
    if hidden >= 3:
        pan += 4.0 * (0.6 if hidden == 3 else 2.0)  # 사앙꼬 (8) replaces 삼앙꼬
    elif hidden == 2 and pairs >= 2:
        pan += 4.0 * 0.15
    sets = triplets + len(melds)
    if sets >= 3 or (sets == 2 and pairs >= 3):
        pan += 2.0 * (0.5 if sets >= 3 else 0.15)
    for base in (0, 9):
        runs = sum(1 for b in (0, 3, 6) if all(counts[base + b + i] for i in range(3)))
        if runs >= 2:
            pan += 2.0 * (0.5 if runs == 3 else 0.1)
    return pan


@functools.lru_cache(maxsize=1 << 15)
def wait_points(
    c13: tuple[int, ...],
    melds: tuple[tuple[str, int], ...],
    wait: int,
    seat_wind: int,
    round_wind: int,
    flowers: int,
    pot: int,
    rules: MahjongRules,
) -> tuple[int, int]:
    """The points of a ready hand (concealed counts ``c13``, ``melds`` as (kind, tile))
    won on ``wait``: ``(by 쏘아, by 올라)``, -1 where that win does not score. Kept
    (32,768 entries, about 13 MB when full; least recently used first out): a hand's scores
    depend on nothing else, and the value bot asks for the same ones at decision after
    decision — scoring was most of its time under 양판.

    >>> from madang.mahjong.tiles import parse_tile, parse_tiles, to_counts
    >>> c13 = tuple(to_counts(parse_tiles("123m456m789m123p1z")))
    >>> east = parse_tile("1z")
    >>> ron, tsumo = wait_points(c13, (), east, east, east, 0, 0, MahjongRules())
    >>> 0 < ron < tsumo
    True
    """
    hand = sorted([k for k in range(NUM_KINDS) for _ in range(c13[k])] + [wait])
    ms = [Meld(kind, tile) for kind, tile in melds]
    out = []
    for how in ("ron", "tsumo"):
        ctx = WinContext(how, wait, seat_wind, round_wind, flowers, pot=pot)
        sc = score_hand(hand, ms, ctx, rules)
        out.append(sc.points if sc.valid else -1)
    return out[0], out[1]


class ValueDanger(DangerModel):
    """The defensive bot's danger model, with a concealed seat that has not declared
    while it could counted at a fraction of the threat (:attr:`DangerModel.
    closed_threat`, by table minimum: :attr:`closed_by_min`): a ready concealed hand is
    usually declared, by these bots at least, and under 양판/삼판 one that cannot be
    declared waits on 올라 alone (엎어 needs a wait that 쏘아 reaches the minimum on).

    >>> from madang.mahjong.engine import new_hand
    >>> from madang.mahjong.view import view
    >>> t = Table.from_view(view(new_hand(seed=5), 0))
    >>> t.rivers[1] = list(range(10))
    >>> round(DangerModel(t).threat[1], 3), round(ValueDanger(t).threat[1], 3)
    (0.25, 0.125)
    """

    closed_by_min: tuple[float, float, float, float] = (0.5, 0.5, 0.0, 0.0)
    """:attr:`DangerModel.closed_threat` by table minimum (0–3)."""

    def __init__(self, t: Table, passed: Sequence[int] | None = None) -> None:
        self.closed_threat = self.closed_by_min[t.min_pan]
        super().__init__(t, passed)


class ValueBot(DefensiveBot):
    """가치 (gachi): the ``hard`` mahjong bot — discards and calls by expected points
    (chance of winning × points won), with the defensive bot's danger model and folds."""

    name = "value"
    danger_model = ValueDanger

    ron_share: float = RON_SHARE
    """The share of wins expected by 쏘아; the rest by 올라."""
    call_margin: tuple[float, float, float, float] = (1.0, 1.0, 1.5, 1.5)
    """By table minimum (0–3): a 뽕 is made when its expected points exceed passing's by
    this factor (under 양판/삼판, 1.25, 1.5 and never calling all measured better than
    1.0: the estimate of an open hand's 판 is the rougher one)."""
    spared: tuple[float, float, float, float] = (4.0, 4.0, 0.0, 0.0)
    """By table minimum (0–3): points a win is worth beyond its own payment — what the
    hand would otherwise cost if another seat won it (about 4 under 무판). It favours
    speed; under 양판/삼판, where open hands often miss the minimum, 0 measured best."""
    slack: int = 0
    """Discards up to this many tiles further from ready than the best are considered
    (1 or more measured worse: the value of a distant line does not pay for the tempo)."""
    safe_by_min: tuple[float, float, float, float] = (0.08, 0.08, 0.04, 0.04)
    """By table minimum (0–3): the defensive bot's ``safe_enough`` — a fold is called off
    when the push discard's danger is at most this. Under 무판 0.08 (8,000 hands paired
    by deal: +0.09 points per hand on seed 80, +0.05 on seed 81, +0.03 on the walls of
    2026, for about a quarter of a point more deal-in rate); under 양판 it measured
    −0.01, so 0.04 stays there (docs/bots.md, the fifth pass)."""
    risk_points: float = 0.5
    """When pushing: how much of the best option's expected points one unit of danger
    costs (the defensive bot's ``risk_weight``, on the value scale)."""
    declare_min: float = 1.0
    """엎어/불러 when the chosen discard leaves the hand ready with at least this many
    winning tiles unseen (counted as :meth:`rank_discards` does), whoever threatens."""
    bulleo_min: float = 0.0
    """불러 rather than 엎어 with at least this many winning tiles unseen: 2 부가판
    instead of 1, for showing the waits (see the module doc)."""

    lookahead: tuple[bool, bool, bool, bool] = (True, True, True, True)
    """By table minimum (0–3): value a hand one tile from ready by the ready hands its
    next draw can make (:meth:`draw_value`) rather than by the 판 it may reach
    (:meth:`line_value`). Under 양판 it tells the lines whose ready hands reach the
    minimum by 쏘아 from those that do not (2,000 hands paired by deal: +0.24 points per
    hand on seed 77, −0.03 on seed 78, both within noise). Under 무판 it was off until
    the seventh pass: +0.04 on seed 77 (2,000 hands, dealing in more), then +0.07,
    +0.08, +0.04 and +0.05 on seeds 80–83 (8,000 hands each, deal-in within 0.2) and
    +0.06 on the walls of 2026 (docs/bots.md, the seventh pass)."""
    ready_ref: float = 5.0
    """The winning tiles of the ready hand :meth:`draw_value` is scaled to."""

    win_coefficients: tuple[float, ...] = WIN_COEFFICIENTS
    """The coefficients of :func:`win_chance` the bot values its hands with."""

    read_passes: bool = True
    """Count a tile let pass by a declared (엎어/불러) seat since it declared as safe
    against it (:meth:`passed`; 2,000 hands, seed 77: +0.03 points per hand under 무판,
    +0.01 under 양판)."""

    fold_loss: tuple[float, float, float, float] = (20.0, 20.0, 20.0, 20.0)
    """By table minimum (0–3): 0 folds by the distance from ready alone (the defensive
    bot's :meth:`~DefensiveBot.folds`); ``L`` above 0 calls off such a fold when the push
    discard's expected points × the chance it does not deal in reach its danger × ``L``
    points (:meth:`folds`): a valuable hand pushes on. 20 against 0, paired by deal: under
    무판 +0.10 and +0.04 points a hand (seeds 92 and 93, 8,000 hands each; 30: +0.01,
    10: +0.13 dealing in 0.9 points more), under 양판 +0.10, −0.04 and +0.05 (seeds
    94–96, 4,000 hands each; docs/bots.md, the eighth pass)."""

    def __init__(self) -> None:
        self._values: dict[int, float] = {}
        self._ready_cache: dict[tuple[int, ...], float] = {}
        self._seat = -1
        self._wall = -1
        self._made = [0, 0, 0, 0]
        self._marks: list[list[int] | None] = [None, None, None, None]

    def passed(self, t: Table) -> list[int]:
        """Per seat, the kinds it let pass since it declared 엎어/불러 (a bitmask; 0 for a
        seat not declared): every discard of any seat after the declaration whose claim
        window has closed. A declared hand cannot change and takes every win it is
        offered, so none of them completes it. The bot remembers, for each declared
        seat, the length of every river when it first saw the declaration (between
        its own decisions; a new hand — more tiles in the wall, fewer discards, a
        declaration gone — or another seat forgets); the discard whose window is open
        is not counted."""
        made = [t.discards_made(s) for s in range(4)]
        marks = self._marks
        if (
            t.seat != self._seat
            or t.wall_count > self._wall
            or any(a < b for a, b in zip(made, self._made, strict=True))
            or any(marks[p] is not None and not t.declared[p] for p in range(4))
        ):
            marks[:] = [None, None, None, None]
        self._seat = t.seat
        self._wall = t.wall_count
        self._made = made
        lengths = [len(r) for r in t.rivers]
        if t.phase != "discard" and t.claim_from >= 0:
            lengths[t.claim_from] -= 1
        out = [0, 0, 0, 0]
        for p in range(4):
            if p == t.seat or not t.declared[p]:
                continue
            mark = marks[p]
            if mark is None:
                marks[p] = lengths
                continue
            for q in range(4):
                for k in t.rivers[q][mark[q] : lengths[q]]:
                    out[p] |= 1 << k
        return out

    def safe_limit(self, t: Table) -> float:
        """:attr:`safe_by_min` at this table's minimum."""
        return self.safe_by_min[t.min_pan]

    def danger(self, t: Table) -> DangerModel:
        """The danger model, with the tiles declared seats let pass (:meth:`passed`)."""
        if not self.read_passes:
            return self.danger_model(t)
        return self.danger_model(t, self.passed(t))

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """As the efficiency bot; the ready hands valued for one decision are kept
        for that decision only (they depend on the tiles unseen)."""
        self._ready_cache.clear()
        return super().choose(view, legal)

    # ------------------------------------------------------------------ valuation

    def chance(self, t: Table, shanten: int, ukeire: float) -> float:
        """:func:`win_chance` of the seat's hand at this table (its wall, the other seats
        declared, the table minimum)."""
        others = declared_others(t)
        return win_chance(shanten, ukeire, t.wall_count, others, t.min_pan, self.win_coefficients)

    def _received(self, t: Table, points: int, tsumo: bool) -> float:
        return float(points * (3 if tsumo else t.rules.ron_pays))

    def ready_value(
        self, t: Table, c13: list[int], melds: list[tuple[str, int, int]], waits: list[int]
    ) -> tuple[float, float]:
        """A ready hand's ``(winning tiles, points if won)``: the unseen copies of the
        waits that score (by 쏘아 counted fully, by 올라 alone ``1 − ron_share``), and
        the mean points they bring, each wait scored exactly — with the 2 부가판 of the
        불러 it will be declared with when it can be (concealed, undeclared, four tiles
        or more in the wall, under 양판/삼판 a wait that 쏘아 reaches the minimum on).
        Each wait is scored by :func:`wait_points`, which keeps its scores."""
        furiten = any(k in t.rivers[t.seat] for k in waits)
        r = self.ron_share
        scored: list[tuple[int, int, int]] = []  # (unseen, ron points or -1, tsumo or -1)
        shape = tuple(c13)
        meld_keys = tuple((kind, tile) for kind, tile, _ in melds)
        for w in waits:
            u = t.unseen[w]
            if u <= 0:
                continue
            ron, tsumo = wait_points(
                shape, meld_keys, w, t.seat_wind, t.round_wind, t.flowers, t.pot, t.rules
            )
            scored.append((u, -1 if furiten else ron, tsumo))
        declarable = (
            not t.declared[t.seat]
            and all(kind == "ankan" for kind, _, _ in melds)
            and t.wall_count >= EOPEO_MIN_WALL
            and (not t.min_pan or any(ron >= 0 for _, ron, _ in scored))
        )
        extra = 2 * t.rules.pan_value if declarable else 0
        tiles = 0.0
        total = 0.0
        for u, ron_points, tsumo_points in scored:
            ron_pts = self._received(t, ron_points + extra, False) if ron_points >= 0 else 0.0
            tsumo_pts = self._received(t, tsumo_points + extra, True) if tsumo_points >= 0 else 0.0
            if ron_pts:
                share, pts = 1.0, r * ron_pts + (1 - r) * tsumo_pts
            elif tsumo_pts:
                share, pts = 1 - r, tsumo_pts
            else:
                continue
            tiles += u * share
            total += u * share * pts
        return tiles, (total / tiles if tiles else 0.0)

    def line_value(self, t: Table, c13: list[int], melds: list[tuple[str, int, int]]) -> float:
        """The points a hand further from ready can expect if it wins (see :func:`line_pan`);
        under 양판/삼판 a win whose line falls short of the minimum counts only in part
        (a concealed hand won by 올라 adds 스무 towards it)."""
        concealed = all(kind == "ankan" for kind, _, _ in melds)
        pan = line_pan(c13, melds, t.value_kinds(), t.unseen)
        extra = _GENSYO + t.flowers
        r = self.ron_share
        ron_pan, tsumo_pan = pan, pan + (1 if concealed else 0)  # 스무
        ron = (ron_pan + extra + (5 if concealed else 0) + t.pot) * t.rules.ron_pays
        tsumo = (tsumo_pan + extra + (10 if concealed else 0) + t.pot) * 3
        if t.min_pan:
            ron *= _reach(ron_pan, t.min_pan)
            tsumo *= _reach(tsumo_pan, t.min_pan)
        return r * ron + (1 - r) * tsumo

    def expected_points(
        self,
        t: Table,
        c13: list[int],
        melds: list[tuple[str, int, int]],
        shanten: int,
        ukeire: int,
        improving: list[int],
    ) -> float:
        """Chance of winning × points if won, for a 13-tile hand (see the module doc)."""
        spared = self.spared[t.min_pan]
        if shanten == 0:
            tiles, pts = self.ready_value(t, c13, melds, improving)
            return self.chance(t, 0, tiles) * (pts + spared) if tiles else 0.0
        if shanten == 1 and self.lookahead[t.min_pan] and improving:
            return self.chance(t, 1, ukeire) * self.draw_value(t, c13, melds, improving)
        value = self.line_value(t, c13, melds) + spared
        return self.chance(t, shanten, ukeire) * value

    def draw_value(
        self, t: Table, c13: list[int], melds: list[tuple[str, int, int]], improving: list[int]
    ) -> float:
        """The points a hand one tile from ready can expect if it wins, looking one draw
        ahead: for each tile that makes it ready (weighted by its unseen copies), the best
        ready hand that draw allows — its points (:meth:`ready_value`, the table minimum
        included) times its chance of winning relative to a ready hand with
        :attr:`ready_ref` winning tiles."""
        spared = self.spared[t.min_pan]
        m = len(melds)
        quad = t.quad_as_two_pairs
        unseen = t.unseen
        ref = self.chance(t, 0, self.ready_ref)
        cache = self._ready_cache
        total = 0.0
        weight = 0
        for j in improving:
            u = unseen[j]
            if u <= 0:
                continue
            c13[j] += 1
            unseen[j] -= 1
            keys = hand_keys(c13)
            best = 0.0
            for k in range(NUM_KINDS):
                if k == j or not c13[k]:
                    continue
                s = KIND_SUIT[k]
                keys[s] -= KIND_STEP[k]
                if shanten_keys(keys[0], keys[1], keys[2], m, quad) == 0:
                    c13[k] -= 1
                    ck = (*c13, j)
                    v = cache.get(ck)
                    if v is None:
                        _, waits = _acceptance(c13, keys, m, quad, 0, unseen)
                        tiles, pts = self.ready_value(t, c13, melds, waits)
                        v = self.chance(t, 0, tiles) * (pts + spared) if tiles else 0.0
                        cache[ck] = v
                    c13[k] += 1
                    best = max(best, v)
                keys[s] += KIND_STEP[k]
            unseen[j] += 1
            c13[j] -= 1
            total += u * best
            weight += u
        return total / weight / ref if weight else 0.0

    def discard_values(
        self, t: Table, counts: list[int], melds: list[tuple[str, int, int]]
    ) -> dict[int, float]:
        """For each kind held in a 14-tile hand, the expected points after discarding it."""
        out: dict[int, float] = {}
        n = len(melds)
        for k, sh, uk, kinds in discard_options(counts, n, t.unseen, t.quad_as_two_pairs):
            counts[k] -= 1
            out[k] = self.expected_points(t, counts, melds, sh, uk, kinds)
            counts[k] += 1
        return out

    # ------------------------------------------------------------------ own turn

    def push_choice(
        self,
        t: Table,
        options: list[tuple[int, float, float]],
        pool: list[tuple[int, float, float]],
        risks: dict[int, float],
    ) -> tuple[int, float, float]:
        """The discard with the best expected points less danger, of those within
        ``slack`` of the best shanten (the fold is :meth:`folds`); the values are kept
        for :meth:`folds`."""
        best_eff = options[0][1]
        values = self._values = self.discard_values(t, t.hand, t.my_melds)
        near = [o for o in pool if o[1] <= best_eff + self.slack] or pool[:1]
        scale = max(max(values[o[0]] for o in near), 1e-9)
        lam = self.risk_points
        order = {o[0]: i for i, o in enumerate(options)}
        return max(near, key=lambda o: (values[o[0]] / scale - lam * risks[o[0]], -order[o[0]]))

    def folds(
        self,
        t: Table,
        danger: DangerModel,
        best_eff: float,
        pick: tuple[int, float, float],
        risk: float,
    ) -> bool:
        """With :attr:`fold_loss` ``L`` at this minimum: where the defensive bot's rule
        calls for a fold, fold only if the push discard's expected points
        (:meth:`discard_values`, kept by :meth:`push_choice`) times the chance it does
        not deal in fall below its danger × ``L``."""
        if not super().folds(t, danger, best_eff, pick, risk):
            return False
        loss = self.fold_loss[t.min_pan]
        if not loss:
            return True
        d = min(risk, 1.0)
        return self._values[pick[0]] * (1.0 - d) < d * loss

    def with_declaration(self, t: Table, legal: list[Action], k: int, acc: float) -> Action:
        """The discard of ``k``; with 불러 (or 엎어) whenever the hand can be declared
        with ``declare_min`` winning tiles unseen."""
        plain, eopeo, bulleo = discard_forms(legal, k)
        if eopeo is not None and acc >= self.declare_min:
            if bulleo is not None and acc >= self.bulleo_min:
                return bulleo
            return eopeo
        if plain is None:  # pragma: no cover - a held tile can always be discarded
            return super().with_declaration(t, legal, k, acc)
        return plain

    # ------------------------------------------------------------------ claims

    def claim(self, t: Table, legal: list[Action], verbs: dict[str, Action]) -> Action:
        """뽕 or open 깡 only when it raises the expected points (see the module doc)."""
        if "pass" not in verbs:  # pragma: no cover - a claim window always offers pass
            return legal[0]
        tile = t.claim_tile
        c = t.hand
        melds = t.my_melds
        m = len(melds)
        quad = t.quad_as_two_pairs
        keys = hand_keys(c)
        now = shanten_keys(keys[0], keys[1], keys[2], m, quad)
        if self.danger(t).max_threat >= 1.0 and now >= 2:
            return verbs["pass"]
        stay = self.hold_value(t, c, melds, now)
        call_melds = [*melds, ("pon", tile, t.claim_from)]
        if "pon" in verbs:
            c[tile] -= 2
            after = max(self.discard_values(t, c, call_melds).values(), default=0.0)
            c[tile] += 2
            if after > stay * self.call_margin[t.min_pan]:
                return verbs["pon"]
        if "kan" in verbs and t.is_open:
            c[tile] -= 3
            k2 = hand_keys(c)
            after_sh = shanten_keys(k2[0], k2[1], k2[2], m + 1, quad)
            c[tile] += 3
            if after_sh <= now:
                return verbs["kan"]
        return verbs["pass"]

    def hold_value(
        self, t: Table, c13: list[int], melds: list[tuple[str, int, int]], shanten: int
    ) -> float:
        """The expected points of a 13-tile hand as it stands (before its next draw)."""
        keys = hand_keys(c13)
        uk, kinds = _acceptance(c13, keys, len(melds), t.quad_as_two_pairs, shanten, t.unseen)
        return self.expected_points(t, c13, melds, shanten, uk, kinds)
