"""The engine's fast paths agree with their plain forms: the deck order of a seed is
the one ``random.Random(seed)`` draws, the legal ids as bits (``legal_mask``) and the
legality check (``is_legal``) are ``legal_actions``, what 스톱 pays without the sheet
(``stop_points``) is the sheet's points, and a step applied unchecked
(``_apply``, the batched path's) reaches the state ``step`` reaches."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from madang.matgo import actions as A
from madang.matgo.cards import cards_of
from madang.matgo.engine import Phase, new_game, shuffled_deck
from madang.matgo.rules import PRESETS

PRESET_NAMES = sorted(PRESETS)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PRESET_NAMES), st.integers(-(2**70), 2**70))
def test_the_deck_order_is_random_random_s(name: str, seed: int) -> None:
    rules = PRESETS[name]
    rnd = random.Random(seed).random
    keys = [rnd() for _ in range(52)]
    assert shuffled_deck(rules, seed) == sorted(cards_of(rules.deck_mask), key=keys.__getitem__)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(PRESET_NAMES), st.integers(0, 2**63), st.randoms(use_true_random=False))
def test_legal_mask_and_is_legal_are_the_legal_actions(
    name: str, seed: int, rng: random.Random
) -> None:
    g = new_game(PRESETS[name], seed=seed, dealer=seed & 1)
    h = new_game(PRESETS[name], seed=seed, dealer=seed & 1)
    while True:
        legal = g.legal_actions()
        mask = g.legal_mask()
        assert [a for a in range(A.NUM_ACTIONS) if mask >> a & 1] == legal
        assert mask >> A.NUM_ACTIONS == 0
        assert [a for a in range(-2, A.NUM_ACTIONS + 2) if g.is_legal(a)] == legal
        if g.phase is Phase.GO_STOP:  # what 스톱 pays, with and without the sheet
            assert g.stop_points(g.current) == g.settle_now(g.current).points
        if g.over:
            break
        a = rng.choice(legal)
        g.step(a)
        h._apply(a)
        assert g.snapshot() == h.snapshot()
