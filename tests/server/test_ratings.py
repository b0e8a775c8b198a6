"""Glicko-2 against Glickman's worked example; the placement rating."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from madang.server.ratings import Glicko, glicko2_update, placement_deltas


def test_glickman_worked_example() -> None:
    # Glickman, "Example of the Glicko-2 system": r' = 1464.06, RD' = 151.52, σ' = 0.05999.
    player = Glicko(1500, 200, 0.06)
    results = [
        (Glicko(1400, 30, 0.06), 1.0),
        (Glicko(1550, 100, 0.06), 0.0),
        (Glicko(1700, 300, 0.06), 0.0),
    ]
    new = glicko2_update(player, results)
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.vol == pytest.approx(0.05999, abs=1e-5)


def test_no_games_only_widens_the_deviation() -> None:
    new = glicko2_update(Glicko(1500, 200, 0.06), [])
    assert new.rating == 1500
    assert new.rd == pytest.approx((200**2 + (0.06 * 173.7178) ** 2) ** 0.5, abs=1e-3)


@given(st.floats(1000, 2000), st.floats(40, 350), st.floats(1000, 2000), st.floats(40, 350))
def test_a_win_raises_and_a_loss_lowers(r1: float, d1: float, r2: float, d2: float) -> None:
    me, opp = Glicko(r1, d1), Glicko(r2, d2)
    assert glicko2_update(me, [(opp, 1.0)]).rating > r1
    assert glicko2_update(me, [(opp, 0.0)]).rating < r1
    # A game always narrows the deviation below its pre-period widening (φ* of the paper):
    # 1/φ'² = 1/φ*² + 1/v. (It can end slightly above the old RD when v is huge.)
    new = glicko2_update(me, [(opp, 1.0)])
    assert new.rd < (d1**2 + (new.vol * 173.7178) ** 2) ** 0.5


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ([40, 10, -20, -30], [30, 10, -10, -30]),
        ([-30, -20, 10, 40], [-30, -10, 10, 30]),
        ([10, 10, -10, -10], [20, 20, -20, -20]),
        ([0, 0, 0, 0], [0, 0, 0, 0]),
    ],
    ids=["in-order", "reversed", "two-ties", "all-tied"],
)
def test_placement_bases(scores: list[int], expected: list[float]) -> None:
    assert placement_deltas([1500.0] * 4, scores, [0] * 4) == pytest.approx(expected)


def test_placement_weights_table_strength_and_experience() -> None:
    # A weaker player gains more for first place; an experienced one moves less.
    d = placement_deltas([1400.0, 1600.0, 1500.0, 1500.0], [30, 10, -10, -30], [0, 0, 0, 400])
    assert d[0] == pytest.approx(30 + 100 / 40)
    assert d[1] == pytest.approx(10 - 100 / 40)
    assert d[3] == pytest.approx(0.2 * -30)


@pytest.mark.parametrize(
    ("scores", "expected"),
    [([50, 0, -50], [30, 0, -30]), ([5, 5, -10], [15, 15, -30]), ([1, 1, 1], [0, 0, 0])],
    ids=["in-order", "tied-top", "all-tied"],
)
def test_three_player_placement_is_tenhous_sanma(scores: list[int], expected: list[float]) -> None:
    """Three players use (30, 0, -30), not the first three four-player bases (which sum
    to +30): equal players' changes sum to 0 at every table size."""
    d = placement_deltas([1500.0] * 3, scores, [0] * 3)
    assert d == pytest.approx(expected)
    assert sum(d) == pytest.approx(0)


@pytest.mark.parametrize("seats", [1, 2, 5])
def test_placement_needs_three_or_four_players(seats: int) -> None:
    with pytest.raises(ValueError, match="3 or 4 seats"):
        placement_deltas([1500.0] * seats, [0] * seats, [0] * seats)
