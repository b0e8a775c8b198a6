"""A game dealt with ``events=False`` (the RL path's games) is the same game: over random
games under every preset, the same moves reach the same states (every field but the
events), the same legal actions and the same outcome; its steps return no events and
its events list, clones' included, stays empty."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from madang.matgo.engine import MatgoState, new_game
from madang.matgo.events import NoEvents
from madang.matgo.rules import PRESETS

PRESET_NAMES = sorted(PRESETS)
_EVENTS = [n for n in MatgoState.__slots__ if n not in ("_legal", "turn")].index("events")


def _without_events(g: MatgoState) -> tuple[object, ...]:
    snap = g.snapshot()
    return (*snap[:_EVENTS], *snap[_EVENTS + 1 :])


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(PRESET_NAMES),
    st.integers(0, 2**63),
    st.integers(0, 1),
    st.randoms(use_true_random=False),
)
def test_an_events_off_game_is_the_same_game(
    name: str, seed: int, dealer: int, rng: random.Random
) -> None:
    on = new_game(PRESETS[name], seed=seed, dealer=dealer)
    off = new_game(PRESETS[name], seed=seed, dealer=dealer, events=False)
    assert isinstance(off.events, NoEvents) and not off.events
    assert on.events  # the deal at least
    while True:
        assert _without_events(on) == _without_events(off)
        assert on.legal_actions() == off.legal_actions()
        assert on.over == off.over
        if on.over:
            break
        action = rng.choice(on.legal_actions())
        on.step(action)
        assert off.step(action) == []
        assert not off.events
        clone = off.clone()
        assert isinstance(clone.events, NoEvents) and not clone.events
    assert (on.winner, on.points, on.payments, on.end_reason) == (
        off.winner,
        off.points,
        off.payments,
        off.end_reason,
    )
    assert on.sheet == off.sheet
