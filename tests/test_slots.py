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
