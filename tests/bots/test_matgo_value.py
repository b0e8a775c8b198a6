"""The learned Matgo evaluation: its features, its model and the fitting tool."""

from __future__ import annotations

import math
import random

import pytest

from madang.bots._matgo_value_weights import WEIGHTS
from madang.bots.matgo_search import SearchBot
from madang.bots.matgo_value import NAMES, features, win_probability
from madang.core.errors import RuleConfigError
from madang.matgo.cards import mask_of, parse_cards
from madang.matgo.engine import MatgoState, new_game

np = pytest.importorskip("numpy")


def _with_piles(mine: str, theirs: str, seed: int = 3) -> MatgoState:
    """A fresh deal whose captured piles are set to ``mine`` (seat 0) and ``theirs``."""
    g = new_game(seed=seed, dealer=0, events=False)
    a, b = mask_of(parse_cards(mine)), mask_of(parse_cards(theirs))
    for seat in (0, 1):
        g.hands[seat] &= ~(a | b)
    g.floor &= ~(a | b)
    g.pile = [c for c in g.pile if not (a | b) >> c & 1]
    g.captured = [a, b]
    return g


def test_weights_match_the_features() -> None:
    assert len(WEIGHTS) == len(NAMES)
    g = new_game(seed=1)
    for seat in (0, 1):
        xs = features(g, seat)
        assert len(xs) == len(NAMES) and all(math.isfinite(x) for x in xs)


@pytest.mark.parametrize("seed", range(8))
def test_features_are_the_same_position_seen_from_the_other_side(seed: int) -> None:
    g = new_game(seed=seed, dealer=seed & 1, events=False)
    rng = random.Random(seed)
    for _ in range(2 * seed):
        g.step(rng.choice(g.legal_actions()))
    side = (len(NAMES) - 3) // 2
    a, b = features(g, 0), features(g, 1)
    assert a[:side] == b[side : 2 * side] and a[side : 2 * side] == b[:side]
    assert a[2 * side] + b[2 * side] == 1.0  # exactly one seat is to move
    assert a[2 * side + 1 :] == b[2 * side + 1 :]


# (seat 0's pile, seat 1's pile): seat 0 is ahead, so the model must favour it.
AHEAD = [
    ("01g 03g 08g", ""),  # 3 광 against nothing
    ("01g 03g", "04a"),  # 2 live 광
    ("02a 04a", "01r"),  # 2 live 고도리 birds
    ("01r 02r", "05a"),  # 2 live 홍단 ribbons
    ("01p1 01p2 02p1 02p2 03p1 03p2 04p1 04p2 05p1 05p2 06p1", "07p1"),  # 1 point of 피
    ("01g 03g 08g 12g", "05r"),  # 4 광: 4 points against none
]


@pytest.mark.parametrize(("mine", "theirs"), AHEAD)
def test_the_side_that_is_ahead_is_favoured(mine: str, theirs: str) -> None:
    g, even = _with_piles(mine, theirs), _with_piles("", "")
    g.current = even.current = 1  # not the leader's move: being ahead outweighs the tempo
    assert win_probability(g, 0) > win_probability(even, 0)
    assert win_probability(g, 0) > win_probability(g, 1)


def test_a_broken_set_is_worth_less_than_a_live_one() -> None:
    live = _with_piles("02a 04a", "05a")
    dead = _with_piles("02a 04a", "08a")  # the third bird is gone
    assert win_probability(live, 0) > win_probability(dead, 0)


def test_finished_games_are_certain() -> None:
    g = new_game(seed=2, events=False)
    while not g.over:
        g.step(g.default_action())
    if g.winner is None:
        assert win_probability(g, 0) == win_probability(g, 1) == 0.5
    else:
        assert win_probability(g, g.winner) == 1.0
        assert win_probability(g, 1 - g.winner) == 0.0


def test_an_unknown_leaf_is_refused() -> None:
    with pytest.raises(RuleConfigError):
        SearchBot(leaf="oracle")


def test_self_play_rows_carry_both_sides_outcomes() -> None:
    from madang.bots._matgo_value_train import play

    rows, outcomes = play(seed=5, epsilon=0.2)
    assert rows and len(rows) == len(outcomes) and len(rows) % 2 == 0
    assert all(len(r) == len(NAMES) for r in rows)
    # Positions come in pairs (seat 0's side, then seat 1's) with complementary outcomes.
    for i in range(0, len(outcomes), 2):
        assert outcomes[i] + outcomes[i + 1] == 1.0
        assert outcomes[i] in (0.0, 0.5, 1.0)


def test_the_fitter_recovers_a_known_logistic_model() -> None:
    from madang.bots._matgo_value_train import fit, log_loss

    rng = np.random.default_rng(0)
    x = rng.normal(size=(20000, 3)).astype(np.float32)
    true = np.array([0.3, 1.5, -2.0, 0.0])
    p = 1.0 / (1.0 + np.exp(-(true[0] + x @ true[1:])))
    y = (rng.random(len(p)) < p).astype(np.float32)
    w = fit(x, y, l2=0.0)
    assert np.allclose(w, true, atol=0.1)
    loss, acc = log_loss(w, x, y)
    assert loss < 0.6 and acc > 0.75
