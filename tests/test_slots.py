"""The generated clones: every slot in exactly one group, and copies independent."""

from __future__ import annotations

import random

import pytest

from madang.core.slots import compile_clone
from madang.mahjong.engine import legal_actions, new_hand, step
from madang.matgo.engine import new_game


def test_a_slot_in_no_group_or_two_is_an_error() -> None:
    class S:
        __slots__ = ("a", "b")

    with pytest.raises(TypeError, match=r"unclassified slots \['b'\]"):
        compile_clone(S, shared=("a",))
    with pytest.raises(TypeError, match="bad"):
        compile_clone(S, shared=("a", "b"), lists=("a",))


def test_clones_are_equal_and_independent() -> None:
    rng = random.Random(4)
    g = new_game(seed=4)
    for _ in range(12):
        c = g.clone()
        assert c.snapshot() == g.snapshot()
        c.step(rng.choice(c.legal_actions()))
        assert c.snapshot() != g.snapshot()
        g.step(rng.choice(g.legal_actions()))
    st = new_hand(seed=4)
    for _ in range(30):
        c = st.clone()
        assert c.snapshot() == st.snapshot()
        step(c, rng.choice(legal_actions(c, c.pending[0])))
        assert c.snapshot() != st.snapshot()
        step(st, rng.choice(legal_actions(st, st.pending[0])))


def test_finished_games_survive_pickle_and_deepcopy() -> None:
    """Every value a finished game holds (actions, melds, results, score sheets) comes
    back equal through pickle and deepcopy: the frozen values go through their
    constructors (``register_values``), as a compiled build requires."""
    import copy
    import pickle

    rng = random.Random(7)
    hand = new_hand(seed=7)
    while not hand.over:
        step(hand, rng.choice(legal_actions(hand, hand.pending[0])))
    game = new_game(seed=7)
    while not game.over:
        game.step(rng.choice(game.legal_actions()))
    assert hand.result is not None and game.sheet is not None
    for copied in (copy.deepcopy(hand), pickle.loads(pickle.dumps(hand))):
        assert copied.snapshot() == hand.snapshot()
        assert copied.result == hand.result
        assert copied.history[0] is hand.history[0]  # actions stay interned
    for g in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert g.snapshot() == game.snapshot()
        assert g.sheet == game.sheet
