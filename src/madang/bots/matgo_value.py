"""A learned evaluation of Matgo positions: the chance that a seat wins from here.

:func:`features` describes a position from one seat's side with a few dozen numbers
(both captured piles' 족보 progress, what each hand can take from the floor, the cards
left, who is to move, 고 and 흔들기 counts); :func:`win_probability` is a logistic
model over them. The weights (:mod:`madang.bots._matgo_value_weights`) are fitted by
``python -m madang.bots._matgo_value_train`` to the outcomes of self-play games between greedy bots
that sometimes play a random card, so they say how often a position like this one was
won. The ``search_value`` bot (``SearchBot(leaf="learned")``) values the end of its
short playouts with it.

Positions are whole states (a sampled world, for the search bot): the evaluation reads
the opponent's hand, which is right for a world the searcher dealt itself and wrong for
a real game, where a bot must only see its view.

>>> from madang.matgo.engine import new_game
>>> g = new_game(seed=4)
>>> len(features(g, 0)) == len(NAMES)
True
>>> 0.0 < win_probability(g, 0) < 1.0
True
"""

from __future__ import annotations

import math

from madang.bots._matgo_value_weights import BIAS, WEIGHTS
from madang.bots.matgo_static import NIB_VALUE
from madang.matgo.cards import (
    ANIMAL_MASK,
    BIGWANG_BIT,
    CHEONGDAN_MASK,
    CHODAN_MASK,
    GODORI_MASK,
    GWANG_MASK,
    HONGDAN_MASK,
    RIBBON_MASK,
    pi_value,
)
from madang.matgo.engine import MatgoState

_DANS = (HONGDAN_MASK, CHEONGDAN_MASK, CHODAN_MASK)

_SIDE = (
    # one-hot 족보 points now: 0 … 6 and 7 or more
    *(f"score_{i}" for i in range(8)),
    "score",
    "gwang_1",
    "gwang_2",
    "gwang_3plus",
    "gwang_dead",
    "birds_1",
    "birds_2",
    "dan_1",
    "dan_2",
    "pi",
    "pi_over_9",
    "pi_5_or_less",
    "pi_7_or_less",
    "animals",
    "animals_5plus",
    "ribbons",
    "ribbons_5plus",
    "go",
    "shakes",
    "hand",
    "hand_takes",
    "hand_pairs",
    "reach",
    "reach_best",
)
#: The feature names, in order: the seat's side, the opponent's side, then shared ones.
NAMES: tuple[str, ...] = (
    *(f"me_{n}" for n in _SIDE),
    *(f"opp_{n}" for n in _SIDE),
    "to_move",
    "pile",
    "floor_cards",
)


def _side(s: MatgoState, seat: int, out: list[float]) -> None:
    m = s.captured[seat]
    dead = s.captured[1 - seat]
    sc = s.score(seat)
    hot = [0.0] * 8
    hot[min(sc, 7)] = 1.0
    out += hot
    out.append(float(min(sc, 15)))
    g = (m & GWANG_MASK).bit_count()
    live_g = g + (GWANG_MASK & ~dead & ~m).bit_count() >= 3
    out.append(1.0 if g == 1 and live_g else 0.0)
    out.append((0.5 if m & BIGWANG_BIT else 1.0) if g == 2 and live_g else 0.0)
    out.append(1.0 if g >= 3 else 0.0)
    out.append(0.0 if live_g or g >= 3 else 1.0)
    b = (m & GODORI_MASK).bit_count()
    live_b = not dead & GODORI_MASK
    out.append(1.0 if b == 1 and live_b else 0.0)
    out.append(1.0 if b == 2 and live_b else 0.0)
    d1 = d2 = 0.0
    for dan in _DANS:
        if not dead & dan:
            k = (m & dan).bit_count()
            if k == 1:
                d1 += 1.0
            elif k == 2:
                d2 += 1.0
    out.append(d1)
    out.append(d2)
    v = pi_value(m)
    out.append(float(min(v, 10)))
    out.append(float(max(0, v - 9)))
    out.append(1.0 if v <= 5 else 0.0)
    out.append(1.0 if v <= 7 else 0.0)
    a = (m & ANIMAL_MASK).bit_count()
    out.append(float(min(a, 5)))
    out.append(float(max(0, a - 4)))
    r = (m & RIBBON_MASK).bit_count()
    out.append(float(min(r, 5)))
    out.append(float(max(0, r - 4)))
    out.append(float(s.go_count[seat]))
    out.append(float(s.shakes[seat]))
    h = s.hands[seat]
    out.append(float(h.bit_count()))
    f = s.floor
    takes = pairs = 0
    reach = best = 0.0
    for g in range(12):
        shift = g << 2
        nib = (h >> shift) & 15
        if nib:
            fn = (f >> shift) & 15
            if fn:
                takes += 1
                val = NIB_VALUE[g][fn]
                reach += val
                if val > best:
                    best = val
            if nib & (nib - 1):
                pairs += 1
    out.append(float(takes))
    out.append(float(pairs))
    out.append(reach)
    out.append(best)


def features(s: MatgoState, seat: int) -> list[float]:
    """The position from ``seat``'s side, as the numbers named in :data:`NAMES`."""
    out: list[float] = []
    _side(s, seat, out)
    _side(s, 1 - seat, out)
    out.append(1.0 if s.current == seat else 0.0)
    out.append(len(s.pile) / 10.0)
    out.append(float(s.floor.bit_count()))
    return out


def win_probability(s: MatgoState, seat: int) -> float:
    """The model's chance that ``seat`` wins the game from position ``s`` (a game that is
    over: 1 won, 0 lost, ½ 나가리)."""
    if s.winner is not None:
        return 1.0 if s.winner == seat else 0.0
    if s.over:
        return 0.5
    z = BIAS
    for x, w in zip(features(s, seat), WEIGHTS, strict=True):
        if x:
            z += x * w
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))
