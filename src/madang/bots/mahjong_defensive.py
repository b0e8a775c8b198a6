"""The defensive mahjong bot (level ``hard``): efficiency plus a danger estimate per tile.

:class:`DangerModel` rates, from the view alone, how likely each tile kind is to be
won on (쏘아) by each opponent, and how threatening each opponent is:

* 진팅 (jinting, furiten): a tile an opponent has discarded (in the river, or claimed
  from it) can never win for them by 쏘아 — if it completed their hand they could not
  쏘아 at all. So their own discards are safe against them; so is the other end of a
  two-sided wait (suji: with 4p discarded, a 5-6p wait on 4p/7p is 진팅, so 7p is safer).
* 골라 쏘아 금지 (golla ssoa geumji): an opponent who let a discard go since their last
  turn could not, or may not, win on it now — the last discard of each seat that played
  after them is safe against them until their next turn.
* Visible tiles: a kind whose copies are all in sight cannot be held; an honor with no
  unseen copy is safe, with one unseen only a single wait remains; a run wait needs its
  two neighbours, so when every copy of a neighbour is visible (kabe) that wait is gone.
* 불러 (bulleo): the announced waits are exact: those tiles are *fatal*, all others safe
  against that player.

Threat: a seat that declared 엎어/불러 is ready for sure; otherwise the chance grows
with its discards and open melds, and open melds that show a big hand (역패 triplets,
one suit with honors) raise what a deal-in would cost.

The bot never discards a fatal tile while a non-fatal one exists. When pushing, it
chooses among the discards that leave the hand as close to ready as the best one,
trading acceptance against danger (``risk_weight``). It folds — discards the safest
tile, efficiency breaking ties — against a declared hand unless it is ready itself, and
against strong open threats while two or more tiles from ready, unless its pushing
discard is safe anyway (``safe_enough``). It declares 엎어/불러 only while nobody
threatens, makes no added kan on a tile others may rob, and calls no 뽕 while two or
more from ready against a declared hand.

>>> import random
>>> from madang.bots.base import Budget
>>> from madang.mahjong.engine import new_hand, legal_actions
>>> from madang.mahjong.view import view
>>> st = new_hand(seed=5)
>>> legal = [a.code for a in legal_actions(st, 0)]
>>> DefensiveBot().act(view(st, 0), legal, random.Random(0), Budget()) in legal
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from madang.bots.mahjong_efficiency import EfficiencyBot, Table, hand_keys
from madang.mahjong.engine import EOPEO_MIN_WALL
from madang.mahjong.hand import shanten_keys
from madang.mahjong.state import Action
from madang.mahjong.tiles import DRAGONS, NUM_KINDS

__all__ = ["FATAL", "DangerModel", "DefensiveBot"]

FATAL: Final = 1.0
"""The danger of a tile that surely wins for a seat (a 불러 wait)."""

_RYANMEN: Final = 0.12
_EDGE: Final = 0.05
_PAIRWISE: Final = 0.03


class DangerModel:
    """위험도 (wiheomdo): per tile kind, how dangerous it is to discard, from a view.

    ``threat[s]`` is the estimated chance that seat ``s`` is ready, ``weight[s]`` what a
    deal-in to it would cost (1 = an ordinary hand), ``safe[s]`` a bitmask of kinds
    that cannot win for ``s`` by 쏘아 now.
    """

    turn_threat: float = 0.025
    """Threat added by each discard a seat has made (hands get ready as turns pass)."""
    open_threat: float = 0.15
    """Threat of a seat that has called at all (bots call to get close to ready)."""
    call_threat: float = 0.15
    """Threat added by each open meld."""
    closed_threat: float = 1.0
    """Scale on the threat of a concealed seat that has not declared while it still
    could (four or more tiles in the wall): a ready concealed hand is often declared."""

    def __init__(self, t: Table, passed: Sequence[int] | None = None) -> None:
        self.t = t
        self.passed = passed
        me = t.seat
        self.opponents = [(me + i) % 4 for i in (1, 2, 3)]
        self.threat = [0.0] * 4
        self.weight = [0.0] * 4
        self.safe = [0] * 4
        self.discarded = [0] * 4
        for ms in t.melds:
            for kind, tile, source in ms:
                if kind != "ankan" and source >= 0:
                    self.discarded[source] |= 1 << tile
        for s in range(4):
            for k in t.rivers[s]:
                self.discarded[s] |= 1 << k
        for p in self.opponents:
            self.threat[p] = self._threat(p)
            self.weight[p] = self._weight(p)
            self.safe[p] = self._safe(p)

    def _threat(self, p: int) -> float:
        t = self.t
        if t.declared[p]:
            return 1.0
        opened = sum(1 for kind, _, _ in t.melds[p] if kind != "ankan")
        calls = self.call_threat * opened + (self.open_threat if opened else 0.0)
        threat = min(0.9, self.turn_threat * t.discards_made(p) + calls)
        if not opened and t.wall_count >= EOPEO_MIN_WALL:
            threat *= self.closed_threat
        return threat

    def _weight(self, p: int) -> float:
        t = self.t
        melds = t.melds[p]
        w = 1.0
        if not melds:
            return w
        wind = 18 + (p - t.seat + (t.seat_wind - 18)) % 4
        tiles = [tile for _, tile, _ in melds]
        w += 0.5 * sum(1 for k in tiles if k in DRAGONS or k in (wind, t.round_wind))
        suits = {k // 9 for k in tiles if k < 18}
        if len(suits) <= 1 and len(tiles) >= 2:
            w += 0.5
        return w

    def _safe(self, p: int) -> int:
        t = self.t
        mask = self.discarded[p]
        if self.passed is not None:
            mask |= self.passed[p]
        waits = t.bulleo_waits[p]
        if waits is not None:
            wmask = 0
            for k in waits:
                wmask |= 1 << k
            return ((1 << NUM_KINDS) - 1) & ~wmask
        # 골라 쏘아 금지: the seats that played after p since p's last discard.
        q = (p + 1) % 4
        while q != t.seat:
            river = t.rivers[q]
            if river:
                mask |= 1 << river[-1]
            q = (q + 1) % 4
        return mask

    def fatal(self, k: int) -> bool:
        """Whether ``k`` surely wins for some opponent (it is a 불러 wait and not 진팅)."""
        t = self.t
        for p in self.opponents:
            waits = t.bulleo_waits[p]
            if waits is not None and k in waits and not (self.discarded[p] >> k) & 1:
                return True
        return False

    def tile_danger(self, k: int, p: int) -> float:
        """How likely ``k`` is one of ``p``'s winning tiles, if ``p`` is ready."""
        if (self.safe[p] >> k) & 1:
            return 0.0
        t = self.t
        waits = t.bulleo_waits[p]
        if waits is not None:
            return FATAL if k in waits else 0.0
        unseen = t.unseen
        d = _PAIRWISE * unseen[k]  # 단기/샤보 (a pair or single of k in their hand)
        if k >= 18:
            return d
        n = k % 9
        base = k - n
        gone = self.discarded[p]
        # two-sided (or edge) waits from (n+1, n+2) and (n-2, n-1); closed from (n-1, n+1)
        if n <= 6 and unseen[k + 1] and unseen[k + 2]:
            if n == 6:
                d += _EDGE
            elif not (gone >> (k + 3)) & 1:
                d += _RYANMEN
        if n >= 2 and unseen[k - 1] and unseen[k - 2]:
            if n == 2:
                d += _EDGE
            elif not (gone >> (k - 3)) & 1:
                d += _RYANMEN
        if 1 <= n <= 7 and unseen[base + n - 1] and unseen[base + n + 1]:
            d += _EDGE
        return d

    def danger(self, k: int) -> float:
        """The expected cost of discarding ``k``: Σ threat × weight × tile danger."""
        total = 0.0
        for p in self.opponents:
            th = self.threat[p]
            if th > 0:
                total += th * self.weight[p] * self.tile_danger(k, p)
        return total

    @property
    def max_threat(self) -> float:
        """The strongest opponent's threat."""
        return max(self.threat[p] for p in self.opponents)

    @property
    def strong_threat(self) -> bool:
        """An opponent is declared, or shows an open hand likely ready and worth a lot."""
        return any(
            self.threat[p] >= 1.0 or self.threat[p] * self.weight[p] >= 0.6 for p in self.opponents
        )


class DefensiveBot(EfficiencyBot):
    """수비 (subi): the ``hard`` mahjong bot — efficiency with a danger model; it folds
    against 엎어/불러 and strong threats unless close to winning."""

    name = "defensive"

    fold_declared: int = 1
    """Fold against a declared (엎어/불러) hand while this many or more tiles from ready."""
    fold_strong: int = 2
    """Fold against a strong open threat while this many or more tiles from ready."""
    near_ratio: float = 0.0
    """Only discards with at least this share of the best ukeire are considered when
    pushing (0: every discard as close to ready as the best)."""
    danger_model: type[DangerModel] = DangerModel
    """The danger model the bot reads the table with."""
    safe_enough: float = 0.04
    """A push discard this safe is played even when folding is called for."""
    risk_weight: float = 1.0
    """When pushing: how much ukeire (as a share of the best) one unit of danger costs."""

    def danger(self, t: Table) -> DangerModel:
        """The danger model of this decision (:attr:`danger_model` on the table)."""
        return self.danger_model(t)

    def turn(self, t: Table, legal: list[Action]) -> Action:
        """A kan, or the push discard (:meth:`push_choice`) unless folding is called for
        and it is not safe enough; a fold discards the safest tile that is not fatal."""
        danger = self.danger(t)
        kan = self.kan_choice(t, legal)
        if kan is not None:
            return kan
        options = self.rank_discards(t)
        best_eff = options[0][1]
        risks = {k: danger.danger(k) for k, _, _ in options}
        fatal = {k for k, _, _ in options if danger.fatal(k)}
        pool = [o for o in options if o[0] not in fatal] or options
        pick = self.push_choice(t, options, pool, risks)
        if self.folds(t, danger, best_eff, pick, risks[pick[0]]):
            order = {o[0]: i for i, o in enumerate(options)}
            k = min(pool, key=lambda o: (round(risks[o[0]], 3), order[o[0]]))[0]
            return self.with_declaration(t, legal, k, 0.0)
        return self.with_declaration(t, legal, pick[0], pick[2])

    def folds(
        self,
        t: Table,
        danger: DangerModel,
        best_eff: float,
        pick: tuple[int, float, float],
        risk: float,
    ) -> bool:
        """Whether to fold rather than play the push discard ``pick`` (of danger
        ``risk``; ``best_eff`` the best distance from ready): against a declared hand
        from :attr:`fold_declared` tiles from ready, against a strong open threat from
        :attr:`fold_strong`, unless the push discard is safe enough (:meth:`safe_limit`)."""
        fold = (danger.max_threat >= 1.0 and best_eff >= self.fold_declared) or (
            danger.strong_threat and best_eff >= self.fold_strong
        )
        return fold and risk > self.safe_limit(t)

    def safe_limit(self, t: Table) -> float:
        """The danger up to which a push discard is played even when folding is called
        for: :attr:`safe_enough` (the value bot sets it by table minimum)."""
        return self.safe_enough

    def push_choice(
        self,
        t: Table,
        options: list[tuple[int, float, float]],
        pool: list[tuple[int, float, float]],
        risks: dict[int, float],
    ) -> tuple[int, float, float]:
        """The discard when pushing: of those as close to ready as the best, the most
        ukeire less ``risk_weight`` times the danger (``options`` as ranked, ``pool``
        without the fatal ones)."""
        best_eff, best_acc = options[0][1], options[0][2]
        near = [o for o in pool if o[1] == best_eff and o[2] >= self.near_ratio * best_acc]
        near = near or pool[:1]
        scale = max(best_acc, 1.0)
        lam = self.risk_weight
        return max(near, key=lambda o: o[2] / scale - lam * risks[o[0]])

    def claim(self, t: Table, legal: list[Action], verbs: dict[str, Action]) -> Action:
        """Like the efficiency bot, but no 뽕/깡 while folding (two or more from ready
        against a declared hand)."""
        if "pass" in verbs and self.danger(t).max_threat >= 1.0:
            keys = hand_keys(t.hand)
            now = shanten_keys(keys[0], keys[1], keys[2], len(t.my_melds), t.quad_as_two_pairs)
            if now >= 2:
                return verbs["pass"]
        return super().claim(t, legal, verbs)

    def kan_safe(self, t: Table, action: Action) -> bool:
        """No added kan on a tile an opponent may rob (깡쏘아) while anyone threatens."""
        if action.verb != "kakan":
            return True
        return self.danger(t).danger(action.tile) < 0.02

    def declare_ok(self, t: Table) -> bool:
        """Lock the hand with 엎어/불러 only while no opponent threatens."""
        return self.danger(t).max_threat < 0.5
