"""The efficiency mahjong bot (level ``normal``): shanten first, then tile acceptance.

Everything the bot knows comes from the seat's view (:class:`Table.from_view`): its own
tiles, every river, meld, flower and 불러 wait on the table, and the wall count. From
that it counts the *unseen* copies of each kind (4 minus what it holds minus what lies
face up anywhere), which is what a draw can still bring.

Decisions:

* 올라 (olla) and 쏘아 (ssoa): always, when legal (the engine only offers valid wins).
* Discard: the tile whose removal leaves the lowest shanten (향청); among those, the
  most 유효패 (yuhyopae, ukeire) — unseen tiles that would lower the shanten — and then
  the least useful tile (isolated honors first, then terminals, then the middle).
* Table minimum (판 미니멈): under 양판/삼판 a discard that leaves a hand whose reachable
  기본판 (see :func:`pan_estimate`) is below the minimum is treated as one shanten worse,
  and a ready hand's waits count only if winning on them reaches the minimum (by 쏘아
  fully, by 올라 only a third).
* 뽕 (ppong): only when the best discard after it lowers the shanten, the hand keeps a
  path to the minimum, and the call is worth opening for (already open, a 역패 tile —
  dragon, seat or round wind — or it leaves the hand at most one from ready).
* 깡 (kkang): a concealed kan when it does not raise the shanten; an added kan when
  the tile is useless to the hand; an open kan from a discard only for an open hand or
  a 역패 tile.
* 엎어 (eopeo) / 불러 (bulleo): when the chosen discard leaves the hand ready and
  declaring is allowed, 엎어 if at least four winning tiles are unseen, 불러 instead if
  at least eight are (a wait that wide wins by 올라 often enough that showing it costs
  little).

>>> import random
>>> from madang.bots.base import Budget
>>> from madang.mahjong.engine import new_hand, legal_actions
>>> from madang.mahjong.view import view
>>> st = new_hand(seed=3)
>>> legal = [a.code for a in legal_actions(st, 0)]
>>> EfficiencyBot().act(view(st, 0), legal, random.Random(0), Budget()) in legal
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from madang.bots.base import Budget
from madang.core.errors import InvalidActionError
from madang.mahjong.hand import KIND_STEP, KIND_SUIT, shanten_keys
from madang.mahjong.rules import MahjongRules
from madang.mahjong.scoring import Meld, WinContext, score_hand
from madang.mahjong.state import ACTION_FORMS, Action, act
from madang.mahjong.tiles import DRAGONS, NUM_KINDS, tile_name

__all__ = [
    "EfficiencyBot",
    "Table",
    "discard_forms",
    "discard_options",
    "hand_keys",
    "pan_estimate",
]

KIND_OF_NAME: Final = {tile_name(k): k for k in range(29)}
"""MPSZ name -> tile kind."""

_NEAR: Final = tuple(
    tuple(j for j in range(max(k - 2, 9 * (k // 9)), min(k + 3, 9 * (k // 9) + 9)))
    if k < 18
    else (k,)
    for k in range(NUM_KINDS)
)
"""For each kind, the kinds a draw of which could connect with it (same suit, ±2)."""

_YAOJIU: Final = frozenset((0, 8, 9, 17, *range(18, 25)))
_STEP: Final = KIND_STEP
_SUIT: Final = KIND_SUIT


def _kinds(names: list[str] | None) -> list[int]:
    if not names:
        return []
    return [KIND_OF_NAME[n] for n in names]


@dataclass(slots=True)
class Table:
    """탁자 (takja): what one seat knows of the table, read from its view only.

    ``hand`` holds the seat's concealed counts (25 kinds); ``melds[s]`` each seat's
    melds as ``(kind, tile, source)``; ``rivers[s]`` the discards still on the table;
    ``unseen[k]`` the copies of kind ``k`` the seat cannot see anywhere (not in its
    hand, not face up); ``bulleo_waits[s]`` the waits announced by 불러 (else ``None``);
    ``flowers`` the seat's own flowers laid out; ``pot`` the 나가리 pot the next winner takes.
    """

    seat: int
    phase: str
    hand: list[int]
    drawn: int
    melds: list[list[tuple[str, int, int]]]
    rivers: list[list[int]]
    declared: list[str | None]
    bulleo_waits: list[list[int] | None]
    concealed: list[int]
    unseen: list[int]
    seat_wind: int
    round_wind: int
    wall_count: int
    min_pan: int
    quad_as_two_pairs: bool
    rules: MahjongRules
    claim_tile: int
    claim_from: int
    flowers: int = 0
    pot: int = 0

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Table:
        """Read a seat's view (``madang.mahjong.view.view(state, seat)``)."""
        seat = view.get("seat")
        if not isinstance(seat, int):
            raise InvalidActionError("a bot needs a seat's view, not a spectator's")
        players = view["players"]
        me = players[seat]
        hand = [0] * NUM_KINDS
        for k in _kinds(me["hand"]):
            hand[k] += 1
        seen = [0] * NUM_KINDS
        melds: list[list[tuple[str, int, int]]] = []
        rivers: list[list[int]] = []
        for p in players:
            ms = [(m["kind"], KIND_OF_NAME[m["tile"]], m["from"]) for m in p["melds"]]
            melds.append(ms)
            for kind, tile, _ in ms:
                seen[tile] += 3 if kind == "pon" else 4
            river = _kinds(p["river"])
            rivers.append(river)
            for k in river:
                seen[k] += 1
        unseen = [max(0, 4 - hand[k] - seen[k]) for k in range(NUM_KINDS)]
        rules_dict = view.get("rules") or {}
        rules = MahjongRules.from_dict(rules_dict)
        claim = view.get("claim")
        drawn = me.get("drawn")
        return cls(
            seat=seat,
            phase=view["phase"],
            hand=hand,
            drawn=KIND_OF_NAME[drawn] if drawn else -1,
            melds=melds,
            rivers=rivers,
            declared=[p["declared"] for p in players],
            bulleo_waits=[_kinds(p["waits"]) if p["waits"] is not None else None for p in players],
            concealed=[p["concealed"] for p in players],
            unseen=unseen,
            seat_wind=KIND_OF_NAME[me["wind"]],
            round_wind=KIND_OF_NAME[view["round_wind"]],
            wall_count=view["wall_count"],
            min_pan=rules.min_pan,
            quad_as_two_pairs=rules.quad_as_two_pairs,
            rules=rules,
            claim_tile=KIND_OF_NAME[claim["tile"]] if claim else -1,
            claim_from=claim["from"] if claim else -1,
            flowers=len(me["flowers"]),
            pot=view.get("pot", 0),
        )

    @property
    def my_melds(self) -> list[tuple[str, int, int]]:
        """The seat's own melds."""
        return self.melds[self.seat]

    @property
    def is_open(self) -> bool:
        """Whether the seat has a 뽕 or an open 깡 (no longer 멘젠)."""
        return any(kind != "ankan" for kind, _, _ in self.my_melds)

    def value_kinds(self) -> tuple[int, ...]:
        """역패 (yeokpae): kinds whose triplet scores for this seat — the dragons and
        the seat and round winds (a doubled wind appears twice)."""
        return (*DRAGONS, self.seat_wind, self.round_wind)

    def discards_made(self, seat: int) -> int:
        """How many tiles ``seat`` has discarded: its river plus those claimed from it."""
        n = len(self.rivers[seat])
        for ms in self.melds:
            for kind, _, source in ms:
                if source == seat and kind != "ankan":
                    n += 1
        return n


def discard_forms(
    legal: Sequence[Action], k: int
) -> tuple[Action | None, Action | None, Action | None]:
    """The legal discards of ``k``: plain, with 엎어, with 불러 (None where not legal)."""
    forms: dict[str, Action] = {}
    for a in legal:
        if a.verb == "discard" and a.tile == k:
            forms[a.declare] = a
    return forms.get(""), forms.get("eopeo"), forms.get("bulleo")


def hand_keys(counts: list[int]) -> list[int]:
    """The three base-5 suit keys of a count vector (see :func:`madang.mahjong.hand.suit_keys`)."""
    c = counts
    return [
        c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * (c[4] + 5 * (
            c[5] + 5 * (c[6] + 5 * (c[7] + 5 * c[8]))))))),
        c[9] + 5 * (c[10] + 5 * (c[11] + 5 * (c[12] + 5 * (c[13] + 5 * (
            c[14] + 5 * (c[15] + 5 * (c[16] + 5 * c[17]))))))),
        c[18] + 5 * (c[19] + 5 * (c[20] + 5 * (c[21] + 5 * (c[22] + 5 * (
            c[23] + 5 * c[24]))))),
    ]  # fmt: skip


def _acceptance(
    c: list[int], keys: list[int], melds: int, quad: bool, now: int, unseen: list[int]
) -> tuple[int, list[int]]:
    """유효패 of a 3k+1 hand: unseen tiles that lower the shanten ``now``, and their kinds."""
    cand: set[int] = set()
    for k in range(NUM_KINDS):
        if c[k]:
            cand.update(_NEAR[k])
    total = 0
    kinds: list[int] = []
    for j in sorted(cand):
        if c[j] >= 4 or unseen[j] <= 0:
            continue
        s = _SUIT[j]
        keys[s] += _STEP[j]
        if shanten_keys(keys[0], keys[1], keys[2], melds, quad) < now:
            total += unseen[j]
            kinds.append(j)
        keys[s] -= _STEP[j]
    return total, kinds


def discard_options(
    counts: list[int], melds: int, unseen: list[int], quad: bool = False
) -> list[tuple[int, int, int, list[int]]]:
    """For each kind held in a 3k+2 hand: ``(kind, shanten, ukeire, improving kinds)``
    after discarding it (ukeire counted over ``unseen``).

    >>> from madang.mahjong.tiles import parse_tiles, to_counts
    >>> opts = discard_options(to_counts(parse_tiles("123456789m1135p7z")), 0, [4] * 25)
    >>> min(opts, key=lambda o: (o[1], -o[2]))[:3]
    (24, 0, 4)
    """
    c = counts
    keys = hand_keys(c)
    out: list[tuple[int, int, int, list[int]]] = []
    for k in range(NUM_KINDS):
        if not c[k]:
            continue
        s = _SUIT[k]
        keys[s] -= _STEP[k]
        c[k] -= 1
        sh = shanten_keys(keys[0], keys[1], keys[2], melds, quad)
        uk, kinds = _acceptance(c, keys, melds, quad, sh, unseen)
        c[k] += 1
        keys[s] += _STEP[k]
        out.append((k, sh, uk, kinds))
    return out


def keep_value(counts: list[int], k: int, value_kinds: tuple[int, ...]) -> float:
    """How much a single tile of ``k`` is worth keeping, for breaking ties between
    discards: isolated honors least (a 역패 more), terminals next, middle tiles most,
    plus its neighbours in the hand."""
    if k >= 18:
        v = 0.5 if k in value_kinds else 0.0
        return v + (1.0 if counts[k] >= 2 else 0.0)
    n = k % 9
    v = 1.0 + 0.4 * min(n, 8 - n, 3)
    base = k - n
    for d in (-2, -1, 1, 2):
        j = n + d
        if 0 <= j < 9 and counts[base + j]:
            v += 0.6 if abs(d) == 1 else 0.3
    return v


def pan_estimate(
    counts: list[int],
    melds: list[tuple[str, int, int]],
    value_kinds: tuple[int, ...],
) -> float:
    """기본판 (gibonpan) a hand can plausibly reach: 멘젠 (+ half a 스무), 당요 if
    few terminals/honors stand in the way, 역패 triplets (pairs half), 혼일색/청일색
    when one suit dominates, 돌돌이 and 칠대작 when pairs abound.

    >>> from madang.mahjong.tiles import parse_tiles, to_counts
    >>> pan_estimate(to_counts(parse_tiles("234567m345p6688p")), [], (22, 23, 24, 18, 18))
    2.5
    """
    concealed = all(kind == "ankan" for kind, _, _ in melds)
    est = 1.5 if concealed else 0.0
    meld_tiles = [t for _, t, _ in melds]
    yaojiu = sum(counts[k] for k in _YAOJIU)
    if not any(t in _YAOJIU for t in meld_tiles) and yaojiu <= 3:
        est += 1.0 if yaojiu <= 1 else 0.6
    for v in value_kinds:
        if v in meld_tiles or counts[v] >= 3:
            est += 1.0
        elif counts[v] == 2:
            est += 0.5
    man = sum(counts[0:9]) + 3 * sum(1 for t in meld_tiles if t < 9)
    pin = sum(counts[9:18]) + 3 * sum(1 for t in meld_tiles if 9 <= t < 18)
    hon = sum(counts[18:25]) + 3 * sum(1 for t in meld_tiles if t >= 18)
    off = min(man, pin)
    if off == 0:
        est += 8.0 if hon == 0 else 2.0
    elif off <= 2:
        est += 1.0
    pairs = sum(1 for k in range(NUM_KINDS) if counts[k] >= 2)
    if pairs + len(melds) >= 4:
        est += 1.0
    if concealed and not melds and pairs >= 5:
        est += 2.0 if pairs == 5 else 4.0
    return est


class EfficiencyBot:
    """효율 (hyoyul): the ``normal`` mahjong bot — shanten and tile acceptance, aware of
    the table minimum; see the module docstring for every decision."""

    name = "efficiency"

    def act(
        self, view: dict[str, Any], legal: list[int], rng: random.Random, budget: Budget
    ) -> int:
        """One of ``legal`` (action ids, :attr:`~madang.mahjong.state.Action.code`)."""
        seat = view["seat"]
        return self.choose(view, [act(seat, *ACTION_FORMS[i]) for i in legal]).code

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """One of ``legal`` (the seat's :class:`~madang.mahjong.state.Action` values)."""
        if len(legal) == 1:
            return legal[0]
        verbs: dict[str, Action] = {}
        for a in legal:
            verbs.setdefault(a.verb, a)
        if "tsumo" in verbs:
            return verbs["tsumo"]
        if "ron" in verbs:
            return verbs["ron"]
        t = Table.from_view(view)
        if t.phase == "discard":
            return self.turn(t, legal)
        return self.claim(t, legal, verbs)

    # ------------------------------------------------------------------ claims

    def claim(self, t: Table, legal: list[Action], verbs: dict[str, Action]) -> Action:
        """뽕/깡/pass on the discard offered (쏘아 is taken before this)."""
        tile = t.claim_tile
        c = t.hand
        m = len(t.my_melds)
        quad = t.quad_as_two_pairs
        keys = hand_keys(c)
        now = shanten_keys(keys[0], keys[1], keys[2], m, quad)
        worth = t.is_open or tile in t.value_kinds()
        if "kan" in verbs and worth:
            c[tile] -= 3
            k2 = hand_keys(c)
            after = shanten_keys(k2[0], k2[1], k2[2], m + 1, quad)
            c[tile] += 3
            if after <= now and self.keeps_minimum(t, tile, "kan"):
                return verbs["kan"]
        if "pon" in verbs:
            c[tile] -= 2
            opts = discard_options(c, m + 1, t.unseen, quad)
            c[tile] += 2
            best = min(o[1] for o in opts)
            if best < now and (worth or best <= 1) and self.keeps_minimum(t, tile, "pon"):
                return verbs["pon"]
        return verbs["pass"]

    def keeps_minimum(self, t: Table, tile: int, kind: str) -> bool:
        """Whether the hand after calling ``tile`` still has a path to the table minimum."""
        if not t.min_pan:
            return True
        c = t.hand[:]
        c[tile] -= 2 if kind == "pon" else 3
        melds = [*t.my_melds, (kind, tile, t.claim_from)]
        return pan_estimate(c, melds, t.value_kinds()) >= t.min_pan

    # ------------------------------------------------------------------ own turn

    def turn(self, t: Table, legal: list[Action]) -> Action:
        """A kan, or the discard (possibly with 엎어/불러)."""
        kan = self.kan_choice(t, legal)
        if kan is not None:
            return kan
        options = self.rank_discards(t)
        k = options[0][0]
        return self.with_declaration(t, legal, k, options[0][2])

    def rank_discards(self, t: Table) -> list[tuple[int, float, float]]:
        """Every possible discard as ``(kind, effective shanten, ukeire)``, best first."""
        c = t.hand
        m = len(t.my_melds)
        vk = t.value_kinds()
        raw = discard_options(c, m, t.unseen, t.quad_as_two_pairs)
        ranked: list[tuple[float, float, float, int]] = []
        for k, sh, uk, kinds in raw:
            eff: float = sh
            acc: float = uk
            if t.min_pan:
                c[k] -= 1
                if sh == 0:
                    acc = self.valid_acceptance(t, c, kinds)
                    if acc <= 0:
                        eff = 1
                elif pan_estimate(c, t.my_melds, vk) < t.min_pan:
                    eff = sh + 1
                c[k] += 1
            ranked.append((eff, -acc, keep_value(c, k, vk), k))
        ranked.sort()
        return [(k, eff, -nacc) for eff, nacc, _, k in ranked]

    def valid_acceptance(self, t: Table, c13: list[int], waits: list[int]) -> float:
        """Unseen winning tiles of a ready hand, counting a wait fully if 쏘아 on it
        reaches the minimum, a third if only 올라 does, and not at all otherwise."""
        melds = [Meld(kind, tile) for kind, tile, _ in t.my_melds]
        total = 0.0
        for w in waits:
            kinds = [k for k in range(NUM_KINDS) for _ in range(c13[k] + (k == w))]
            ron = WinContext("ron", w, t.seat_wind, t.round_wind)
            if score_hand(kinds, melds, ron, t.rules).valid:
                total += t.unseen[w]
                continue
            tsumo = WinContext("tsumo", w, t.seat_wind, t.round_wind)
            if score_hand(kinds, melds, tsumo, t.rules).valid:
                total += t.unseen[w] / 3
        return total

    def kan_choice(self, t: Table, legal: list[Action]) -> Action | None:
        """A concealed or added kan that does not hurt the hand, or ``None``."""
        kans = [a for a in legal if a.verb in ("ankan", "kakan")]
        if not kans:
            return None
        c = t.hand
        m = len(t.my_melds)
        quad = t.quad_as_two_pairs
        keys = hand_keys(c)
        now = shanten_keys(keys[0], keys[1], keys[2], m, quad)
        for a in kans:
            k = a.tile
            if a.verb == "ankan":
                c[k] -= 4
                k2 = hand_keys(c)
                after = shanten_keys(k2[0], k2[1], k2[2], m + 1, quad)
                c[k] += 4
            else:
                c[k] -= 1
                k2 = hand_keys(c)
                after = shanten_keys(k2[0], k2[1], k2[2], m, quad)
                c[k] += 1
            if after <= now and self.kan_safe(t, a):
                return a
        return None

    def kan_safe(self, t: Table, action: Action) -> bool:
        """Whether this kan is safe enough to make (the defensive bot checks 깡쏘아)."""
        return True

    def with_declaration(self, t: Table, legal: list[Action], k: int, acc: float) -> Action:
        """The discard of ``k``, with 엎어 or 불러 when allowed and worth it."""
        plain, eopeo, bulleo = discard_forms(legal, k)
        if eopeo is not None and self.declare_ok(t):
            if bulleo is not None and acc >= 8:
                return bulleo
            if acc >= 4:
                return eopeo
        if plain is None:  # pragma: no cover - a held tile can always be discarded
            raise InvalidActionError(f"no discard of {tile_name(k)} among the legal actions")
        return plain

    def declare_ok(self, t: Table) -> bool:
        """Whether declaring (locking the hand) suits the situation."""
        return True
