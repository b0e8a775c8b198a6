"""Ratings: Glicko-2 for Matgo, a placement rating for mahjong.

Glicko-2 follows Mark Glickman, *Example of the Glicko-2 system* (2013): one game is
one rating period. His worked example (a 1500/200/0.06 player who beats a 1400/30,
loses to a 1550/100 and to a 1700/300):

>>> r = glicko2_update(Glicko(1500, 200, 0.06), [(Glicko(1400, 30, 0.06), 1.0),
...     (Glicko(1550, 100, 0.06), 0.0), (Glicko(1700, 300, 0.06), 0.0)])
>>> round(r.rating, 2), round(r.rd, 2), round(r.vol, 6)
(1464.05, 151.52, 0.059996)

순위 점수 (suwi jeomsu): the mahjong placement rating is Tenhou's: after a match each
player's rating moves by ``k * (base[place] + (table_mean - own) / 40)`` with
``base = (30, 10, -10, -30)`` at four seats and ``(30, 0, -30)`` at three (Tenhou's
sanma; tied places share their bases, so a table's bases always sum to 0) and ``k =
max(0.2, 1 - 0.002 * games_played)``.

>>> [round(x, 1) for x in placement_deltas([1500.0] * 4, [40, 10, -20, -30], [0] * 4)]
[30.0, 10.0, -10.0, -30.0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

GLICKO_SCALE = 173.7178
TAU = 0.5
"""The system constant τ (Glickman suggests 0.3 to 1.2)."""
START_RATING = 1500.0
START_RD = 350.0
START_VOL = 0.06
PLACEMENT_BASE = (30.0, 10.0, -10.0, -30.0)
"""The placement bases of a four-player match, first to fourth."""
PLACEMENT_BASES: dict[int, tuple[float, ...]] = {4: PLACEMENT_BASE, 3: (30.0, 0.0, -30.0)}
"""The bases by the number of players: a rating made for its table size (the first
three of the four-player bases would sum to +30 and inflate every three-player table)."""


@dataclass(frozen=True, slots=True)
class Glicko:
    """A Glicko-2 rating on the Glicko scale: rating, deviation (RD), volatility."""

    rating: float = START_RATING
    rd: float = START_RD
    vol: float = START_VOL


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def glicko2_update(player: Glicko, results: Sequence[tuple[Glicko, float]]) -> Glicko:
    """The player's rating after one period with ``results`` (opponent, score 1/0.5/0).

    With no games the deviation grows (step 6 of the algorithm) and nothing else moves.
    """
    mu = (player.rating - 1500.0) / GLICKO_SCALE
    phi = player.rd / GLICKO_SCALE
    sigma = player.vol
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Glicko(player.rating, phi_star * GLICKO_SCALE, sigma)
    v_inv = 0.0
    delta_sum = 0.0
    for opp, score in results:
        mu_j = (opp.rating - 1500.0) / GLICKO_SCALE
        g = _g(opp.rd / GLICKO_SCALE)
        e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        v_inv += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    # Step 5: the new volatility by the Illinois algorithm.
    a = math.log(sigma * sigma)
    eps = 1e-6

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (TAU * TAU)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > eps:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2.0)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Glicko(mu_new * GLICKO_SCALE + 1500.0, phi_new * GLICKO_SCALE, sigma_new)


def placement_deltas(
    rating: Sequence[float], scores: Sequence[int], games: Sequence[int]
) -> list[float]:
    """The placement rating change of each player of one finished mahjong match.

    ``rating`` and ``games`` (matches played before) per seat, ``scores`` the match's
    final point totals; higher is better, tied players share the mean of their bases.
    """
    n = len(scores)
    if not n == len(rating) == len(games) or n not in PLACEMENT_BASES:
        raise ValueError("one rating, score and game count per seat (3 or 4 seats)")
    bases = PLACEMENT_BASES[n]
    mean = sum(rating) / n
    order = sorted(range(n), key=lambda s: -scores[s])
    base = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        shared = sum(bases[i : j + 1]) / (j - i + 1)
        for k in range(i, j + 1):
            base[order[k]] = shared
        i = j + 1
    out: list[float] = []
    for s in range(n):
        weight = max(0.2, 1.0 - 0.002 * games[s])
        out.append(weight * (base[s] + (mean - rating[s]) / 40.0))
    return out
