"""The greedy bot of the Go-Stop family (맞고 and 고스톱; level ``normal``): one-ply
valuation of every legal action.

Every action is valued by what it does to every player's 족보 (jokbo) prospects: a
*potential* function estimates what a captured pile is worth (real points plus partial
progress towards 광, 고도리, the three 단, 피, 열끗 and 띠, counting only sets that
no other player has already broken), and a capture is worth the potential it adds for
the player plus what it denies the opponent it is worth most to. A card left on the
floor costs what it is worth to the opponent who gains most by it times the chance that
one of them can take it; a pairing play risks a 뻑 when the month's last cards are
unseen; a steal is worth one 피 from each opponent. 고/스톱 weighs the score in hand
against the opponents' threats (summed: at a table of three a 고 that fails pays every
share, 독박) and the cards left (고박 risk). 흔들기 is declared whenever a card of a
triple is played, a 폭탄 is always worth it, and a bomb token is used when no card play
is worth more than a free flip. With two seats every sum and maximum over the opponents
is over one, and the bot is 맞고's as it always was. With four seats (광팔기) the seat
sitting the game out is no opponent (its cards lie under the draw pile, unseen), and the
join/die question is answered by :func:`join_or_die`: join with a hand of strength
:data:`JOIN_STRENGTH` or more (2 per 광, 1 per card that pairs the floor, 1 per 피 of
value, 3 more per bonus card), else die.

The bot reads only the view (:class:`Knowledge.from_view`); the search bot reuses the
same valuation on its own sampled worlds (:meth:`Knowledge.from_state`).

>>> import random
>>> from madang.matgo.engine import new_game
>>> from madang.matgo.view import view
>>> g = new_game(seed=4)
>>> bot = GreedyBot()
>>> a = bot.act(view(g, g.current), g.legal_actions(), random.Random(0), None)
>>> a in g.legal_actions()
True
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from madang.bots.base import Budget
from madang.matgo import actions as A
from madang.matgo.cards import (
    ANIMAL_MASK,
    BIT,
    BONUS_MASK,
    CHEONGDAN_MASK,
    CHODAN_MASK,
    CODES,
    GODORI_MASK,
    GWANG_MASK,
    HONGDAN_MASK,
    MONTH,
    MONTH_MASK,
    PI_MASK,
    RIBBON_MASK,
    SSANGPI_MASK,
    SSEURIPI_MASK,
    pi_value,
)
from madang.matgo.engine import MatgoState, Phase, rules_class
from madang.matgo.rules import MatgoRules
from madang.matgo.scoring import best_jokbo_points, jokbo_points, settle

_CODE_BIT = {c: 1 << i for i, c in enumerate(CODES)}
_DANS = (HONGDAN_MASK, CHEONGDAN_MASK, CHODAN_MASK)


@dataclass(frozen=True, slots=True)
class Weights:
    """The knobs of the valuation (points-equivalents); the defaults are the greedy bot's."""

    gwang_prog: tuple[float, float, float] = (0.0, 0.7, 1.9)  #: 0, 1, 2 광 of 3
    bird_prog: tuple[float, float, float, float] = (0.0, 0.8, 2.4, 0.0)  #: 고도리 birds held
    dan_prog: tuple[float, float, float, float] = (0.0, 0.5, 1.5, 0.0)  #: ribbons of a 단
    pi: float = 0.3  #: per 피 below ten
    pibak: float = 0.25  #: extra per 피 up to eight (out of 피박 range)
    animal: float = 0.22  #: per 열끗 below five
    ribbon: float = 0.15  #: per 띠 below five
    deny: float = 0.8  #: weight of what a capture denies the opponent
    setup: float = 0.35  #: a landed card that my hand can take back next turn
    ppeok: float = 0.6  #: extra cost of making a 뻑
    steal: float = 0.8  #: one 피 stolen
    shake: float = 1.2  #: declaring 흔들기
    bomb: float = 2.5  #: a 폭탄 (on top of its capture and steal)
    token_flip: float = 0.15  #: using a bomb token instead of a card


DEFAULT_WEIGHTS = Weights()
_MATGO_STOP = MatgoRules.stop_points  #: the stop score the go rule was tuned for (7)
_BONUS_PLAY = 100.0


def _mask(codes: list[str]) -> int:
    m = 0
    for c in codes:
        m |= _CODE_BIT[c]
    return m


@lru_cache(maxsize=64)
def _rules(game: str, key: str) -> MatgoRules:
    """The rules of a view's ``game`` (맞고 or 고스톱) from its options as sorted JSON."""
    return rules_class(game).from_dict(json.loads(key))


def potential(m: int, dead: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """What a captured pile ``m`` is worth, in points: real 족보 plus partial progress.

    ``dead`` holds the cards the owner can no longer get (the opponent's pile): a set
    with a card there is broken and counts nothing.

    >>> from madang.matgo.cards import mask_of, parse_cards
    >>> potential(0, 0)
    0.0
    >>> potential(mask_of(parse_cards("02a 04a")), 0) > potential(mask_of(parse_cards("02a")), 0)
    True
    >>> b = mask_of(parse_cards("08a"))
    >>> two = mask_of(parse_cards("02a 04a"))
    >>> potential(two, b) < potential(two, 0)
    True
    """
    t = float(best_jokbo_points(m))
    g = (m & GWANG_MASK).bit_count()
    if g < 3 and g + (GWANG_MASK & ~dead & ~m).bit_count() >= 3:
        t += w.gwang_prog[g]
    b = m & GODORI_MASK
    if b != GODORI_MASK and not dead & GODORI_MASK:
        t += w.bird_prog[b.bit_count()]
    for dan in _DANS:
        k = (m & dan).bit_count()
        if k < 3 and not dead & dan:
            t += w.dan_prog[k]
    v = (m & PI_MASK).bit_count() + 2 * (m & (SSANGPI_MASK | BONUS_MASK)).bit_count()
    v += (m & SSEURIPI_MASK).bit_count()
    if v < 10:
        t += w.pi * v
    t += w.pibak * min(v, 8)
    a = (m & ANIMAL_MASK).bit_count()
    if a < 5:
        t += w.animal * a
    elif a < 7:
        t += 0.5 * (a - 4)  # towards 멍따
    r = (m & RIBBON_MASK).bit_count()
    if r < 5:
        t += w.ribbon * r
    return t


class Knowledge:
    """What one seat knows, as masks: built from a view, or from a (sampled) state."""

    __slots__ = (
        "carry",
        "deck",
        "floor",
        "go",
        "hand",
        "me",
        "mine",
        "opp",
        "opp_hand",
        "opps",
        "options",
        "phase",
        "pile",
        "piles",
        "rules",
        "scores",
        "shakes",
        "stack_maker",
        "steal",
        "theirs",
        "unseen",
        "w",
    )

    me: int
    hand: int
    floor: int
    mine: int  #: my captured pile
    theirs: int  #: the opponents' captured piles together (the cards I can no longer get)
    opps: tuple[int, ...]  #: the other seats, in turn order after mine
    piles: tuple[int, ...]  #: each opponent's captured pile, in the order of ``opps``
    unseen: int  #: cards whose place I do not know (opponents' hidden hands, draw pile)
    opp_hand: int  #: the opponents' hidden hand sizes together
    pile: int
    phase: Phase
    options: int
    scores: tuple[int, ...]  #: per seat
    go: tuple[int, ...]  #: per seat
    shakes: tuple[int, ...]  #: per seat
    carry: int
    rules: MatgoRules
    stack_maker: dict[int, int]
    deck: int
    opp: int  #: the opponent who plays next (``opps[0]``)
    steal: float  #: what stealing a 피 from each opponent is worth (``w.steal`` each)
    w: Weights

    @classmethod
    def from_view(cls, v: dict[str, Any], w: Weights = DEFAULT_WEIGHTS) -> Knowledge:
        """Parse a seat's view."""
        k = cls.__new__(cls)
        k.w = w
        me = v["seat"]
        k.me = me
        n = len(v["hand_counts"])
        sitter = v.get("sitting_out")  # 광팔기: the seat sitting out plays no part
        opps = k.opps = tuple(o for i in range(1, n) if (o := (me + i) % n) != sitter)
        k.opp = opps[0]
        k.steal = w.steal * len(opps)
        pub = v["public"]
        k.rules = _rules(v.get("game", "matgo"), json.dumps(pub["rules"], sort_keys=True))
        k.hand = _mask(v["hand"])
        floor = 0
        known_extra = 0
        k.stack_maker = {}
        for group in v["floor"]:
            floor |= _mask(group["cards"])
            known_extra |= _mask(group["bonus"])
            if group["ppeok"] is not None:
                k.stack_maker[group["month"]] = group["ppeok"]
        k.floor = floor
        k.mine = _mask(v["captured"][me])
        k.piles = tuple(_mask(v["captured"][o]) for o in opps)
        theirs = revealed = 0
        for o, pile in zip(opps, k.piles, strict=True):
            theirs |= pile
            revealed |= _mask(v["revealed"][o])
        k.theirs = theirs
        turn = v["turn"]
        known_extra |= _mask(turn["captured"])
        if turn["flipped"]:
            known_extra |= _CODE_BIT[turn["flipped"]]
        known = k.hand | floor | k.mine | k.theirs | revealed | known_extra
        k.deck = k.rules.deck_mask
        k.unseen = k.deck & ~known
        k.opp_hand = sum(v["hand_counts"][o] for o in opps) - revealed.bit_count()
        k.pile = v["pile"]
        k.phase = Phase[v["phase"].upper()]
        k.options = _mask(v["turn"]["options"])
        k.scores = tuple(v["scores"])
        k.go = tuple(v["go"])
        k.shakes = tuple(v["shakes"])
        k.carry = v["carry"]
        return k

    @classmethod
    def from_state(cls, s: MatgoState, me: int, w: Weights = DEFAULT_WEIGHTS) -> Knowledge:
        """What ``me`` would know in state ``s`` (used on sampled worlds only)."""
        k = cls.__new__(cls)
        k.w = w
        k.me = me
        opps = k.opps = s.after[me]
        k.opp = opps[0]
        k.steal = w.steal * len(opps)
        k.rules = s.rules
        k.hand = s.hands[me]
        k.floor = s.floor
        k.stack_maker = {m: p for m, p in enumerate(s.stack_maker) if p >= 0}
        k.mine = s.captured[me]
        k.piles = tuple(s.captured[o] for o in opps)
        theirs = hidden = 0
        for o in opps:
            theirs |= s.captured[o]
            hidden |= s.hands[o] & ~s.revealed[o]
        k.theirs = theirs
        pile = 0
        for c in s.pile:
            pile |= BIT[c]
        k.deck = s.rules.deck_mask
        k.unseen = hidden | pile
        k.opp_hand = hidden.bit_count()
        k.pile = len(s.pile)
        k.phase = s.phase
        k.options = s.turn.options
        k.scores = tuple(s.score(p) for p in range(len(s.hands)))
        k.go = tuple(s.go_count)
        k.shakes = tuple(s.shakes)
        k.carry = s.carry
        return k


def _denied(k: Knowledge, cards: int) -> float:
    """What ``cards`` would add to the opponent they are worth most to (the cards one
    opponent cannot get are the other players' piles)."""
    mine, theirs, w = k.mine, k.theirs, k.w
    best = -1e18
    for pile in k.piles:
        dead = mine | (theirs ^ pile)
        d = potential(pile | cards, dead, w) - potential(pile, dead, w)
        if d > best:
            best = d
    return best


def _gain(k: Knowledge, cards: int) -> float:
    """What capturing ``cards`` is worth to me: my potential gained plus what it denies
    the opponent it is worth most to."""
    mine, theirs = k.mine, k.theirs
    g = potential(mine | cards, theirs, k.w) - potential(mine, theirs, k.w)
    return g + k.w.deny * _denied(k, cards)


def _their_gain(k: Knowledge, cards: int) -> float:
    """What ``cards`` are worth to the opponent who gains most by them, plus half what
    they would have been worth to me."""
    mine, theirs = k.mine, k.theirs
    return _denied(k, cards) + 0.5 * (
        potential(mine | cards, theirs, k.w) - potential(mine, theirs, k.w)
    )


def _p_opp_has(k: Knowledge, month_unseen: int) -> float:
    """The chance an opponent holds at least one of ``month_unseen`` unseen cards."""
    total = k.unseen.bit_count()
    if not month_unseen or not total or not k.opp_hand:
        return 0.0
    # 1 - C(total - n, h) / C(total, h), computed as a product.
    miss = 1.0
    h = k.opp_hand
    for i in range(month_unseen):
        miss *= max(0.0, (total - h - i) / (total - i))
    return 1.0 - miss


def _best_option(k: Knowledge, options: int) -> int:
    best, best_v = 0, -1e9
    o = options
    while o:
        low = o & -o
        o ^= low
        v = _gain(k, low)
        if v > best_v:
            best, best_v = low, v
    return best


def _play_value(k: Knowledge, card: int) -> float:
    """The value of playing ``card`` from the hand (without the flip's luck, but with its risks)."""
    bit = BIT[card]
    m = MONTH[card]
    mm = MONTH_MASK[m]
    fm = k.floor & mm
    n = fm.bit_count()
    unseen_m = (k.unseen & mm).bit_count()
    total = max(1, k.unseen.bit_count())
    p_flip_m = unseen_m / total if k.pile else 0.0
    rest_floor = k.floor & ~mm
    if n == 0:
        # Lands: the opponent may take it; a card of the same month kept in my hand may
        # take it back next turn; a 쪽 if the flip is the same month.
        p_take = _p_opp_has(k, unseen_m)
        own = (k.hand & mm & ~bit).bit_count()
        v = -p_take * _their_gain(k, bit)
        if own:
            v += k.w.setup * (1.0 - p_take) * _gain(k, bit)
        v += p_flip_m * (_gain(k, bit) + k.steal)
        return v
    if n == 1:
        got = bit | fm
        v = _gain(k, got)
        if not rest_floor:
            v += k.steal * (1 - p_flip_m)  # 싹쓸이 unless the flip spoils it
        # 뻑: the pair is lost and a stack is left to take.
        v -= p_flip_m * (v + 0.5 * _their_gain(k, got) + k.w.ppeok)
        return v
    if n == 2:
        got = bit | _best_option(k, fm)
        v = _gain(k, got)
        v += p_flip_m * (_gain(k, fm | bit) - v + k.steal)  # 따닥
        return v
    got = bit | fm
    v = _gain(k, got)
    if m in k.stack_maker:
        v += k.steal * (2 if k.stack_maker[m] == k.me and k.rules.jabbeok else 1)
    if not rest_floor:
        v += k.steal
    return v


def _go_decision(k: Knowledge) -> int:
    """고 or 스톱: go only when the opponents are far from the stop score, cards remain,
    and stopping is small.

    The danger is every opponent's progress and score together, read against the stop
    score (맞고's 7; 고스톱's 3 is nearer, so the same progress weighs more): with two
    opponents a 고 that fails pays both shares (독박), and either of them may get there.
    """
    me = k.me
    for o in k.opps:
        if k.go[o]:
            return A.STOP  # they called 고: stopping now makes them pay 고박 (or 독박)
    my_cards = k.hand.bit_count()
    if my_cards <= 1:
        return A.STOP
    stop_pts = 0
    for pile in k.piles:
        stop_pts += settle(
            k.mine,
            pile,
            go=k.go[me],
            loser_went_go=False,
            shakes=k.shakes[me],
            carry=k.carry,
            rules=k.rules,
        ).points
    if stop_pts >= 14 and k.go[me] >= 1:
        return A.STOP
    # Rough danger: each opponent's progress plus what the floor offers them.
    danger = 0.0
    for o, pile in zip(k.opps, k.piles, strict=True):
        threat = potential(pile, k.mine | (k.theirs ^ pile), k.w)
        danger += threat + 0.4 * k.scores[o]
    danger *= _MATGO_STOP / k.rules.stop_points
    allowance = 1.2 * my_cards - 1.0 - 1.5 * k.go[me]
    return A.GO if danger < allowance else A.STOP


JOIN_FEATURES = ("gwang", "pairs", "floor", "pi", "bonus")
"""What :func:`join_features` counts in a hand, in its order."""

JOIN_WEIGHTS = (2, 0, 1, 1, 3)
"""The strength of a hand for :func:`join_or_die`: points per :data:`JOIN_FEATURES`
(2 per 광, 1 per card that pairs the floor, 1 per 피 of value, 3 more per bonus card;
months held twice count nothing). Fitted on the review's values of 1,600 questions
(``madang.bots._gostop_join_train``, docs/bots.md)."""

JOIN_STRENGTH = 12
"""The hand strength from which :func:`join_or_die` joins a game of 광팔기."""


def join_features(hand: int, floor: int) -> tuple[int, ...]:
    """The hand's features for 광팔기's join/die (:data:`JOIN_FEATURES`): its 광, its
    months held twice or more, its cards whose month is on ``floor``, its 피 value
    (쌍피 and bonus cards counted at their worth) and its bonus cards.

    >>> join_features(_mask(["01g", "01p1", "03g", "11d", "b3"]), _mask(["01p2"]))
    (2, 1, 2, 6, 1)
    """
    pairs = matches = 0
    for mm in MONTH_MASK[1:13]:
        held = (hand & mm).bit_count()
        pairs += held >= 2
        if floor & mm:
            matches += held
    return (
        (hand & GWANG_MASK).bit_count(),
        pairs,
        matches,
        pi_value(hand),
        (hand & BONUS_MASK).bit_count(),
    )


def join_or_die(hand: int, floor: int) -> int:
    """광팔기's join/die answer (``gostop.md`` §8.3) for ``hand`` facing ``floor``:
    `join` when the hand's strength (:data:`JOIN_WEIGHTS` over :func:`join_features`:
    2 per 광, 1 per card whose month is on the floor, 1 per 피 of value, 3 more per
    bonus card) is at least :data:`JOIN_STRENGTH`, else `die` (sitting out risks
    nothing; a hand that cannot win often pays more than it wins).

    >>> hand = _mask(["01g", "03g", "08g", "05p1", "07p1", "11d", "10a"])
    >>> join_or_die(hand, _mask(["05p2", "07p2"])) == A.JOIN  # 6 + 2 + 4
    True
    >>> join_or_die(hand, 0) == A.DIE  # 6 + 4: three 광 alone are not enough
    True
    """
    strength = 0
    for w, f in zip(JOIN_WEIGHTS, join_features(hand, floor), strict=True):
        strength += w * f
    return A.JOIN if strength >= JOIN_STRENGTH else A.DIE


def play_values(k: Knowledge, legal: list[int]) -> list[float]:
    """The one-ply value of each action of ``legal`` in the play phase, in points (a
    bonus card's play counts 100: it is always played first); :func:`choose` plays the
    first of the highest."""
    values: list[float] = []
    cache: dict[int, float] = {}
    for a in legal:
        if a < A.SHAKE:
            if BIT[a] & BONUS_MASK:
                v = _BONUS_PLAY
            else:
                cached = cache.get(a)
                v = cached if cached is not None else _play_value(k, a)
                cache[a] = v
        elif a < A.BOMB:
            c = a - A.SHAKE
            pv = cache.get(c)
            if pv is None:
                pv = cache[c] = _play_value(k, c)
            v = pv + k.w.shake
        elif a < A.FLIP:
            mm = MONTH_MASK[a - A.BOMB + 1]
            v = _gain(k, mm) + k.steal + k.w.bomb
        else:
            v = k.w.token_flip
        values.append(v)
    return values


def choose(k: Knowledge, legal: list[int]) -> int:
    """The greedy action for knowledge ``k`` among ``legal``."""
    if len(legal) == 1:
        return legal[0]
    phase = k.phase
    if phase is Phase.PLAY:
        values = play_values(k, legal)
        return legal[values.index(max(values))]
    if phase is Phase.PICK_PLAY or phase is Phase.PICK_FLIP:
        best_card = _best_option(k, k.options)
        return A.PICK + best_card.bit_length() - 1
    if phase is Phase.GO_STOP:
        return _go_decision(k)
    if phase is Phase.GUKJIN:
        as_pi = jokbo_points(k.mine, True)
        as_animal = jokbo_points(k.mine, False)
        if as_pi != as_animal:
            return A.GUKJIN_PI if as_pi > as_animal else A.GUKJIN_ANIMAL
        animals = (k.mine & ANIMAL_MASK).bit_count()
        return A.GUKJIN_ANIMAL if animals >= 4 else A.GUKJIN_PI
    if phase is Phase.CHONGTONG:
        return A.CHONGTONG_STOP
    if phase is Phase.JOIN:
        return join_or_die(k.hand, k.floor)
    return legal[0]


class GreedyBot:
    """The ``normal`` Matgo bot: the best action by one-ply valuation (see module doc)."""

    name = "greedy"

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights

    def act(
        self, view: dict[str, Any], legal: list[int], rng: random.Random, budget: Budget | None
    ) -> int:
        """The greedy action; ties go to the lowest action id (deterministic)."""
        if len(legal) == 1:
            return legal[0]
        return choose(Knowledge.from_view(view, self.weights), legal)
