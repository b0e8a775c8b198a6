"""The engine's fast paths agree with their plain forms: the deck order of a seed is
the one ``random.Random(seed)`` draws, the legal ids as bits (``legal_mask``) and the
legality check (``is_legal``) are ``legal_actions``, what 스톱 pays without the sheet
(``stop_points``) is the sheet's points (the settlement's total, 국진 held or not, in 맞고
and 고스톱), and a step applied unchecked
(``_apply``, the batched path's) reaches the state ``step`` reaches."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from madang.gostop.rules import PRESETS as GOSTOP_PRESETS
from madang.matgo import actions as A
from madang.matgo.cards import GUKJIN_BIT, cards_of
from madang.matgo.engine import Phase, new_game, shuffled_deck
from madang.matgo.rules import PRESETS

PRESET_NAMES = sorted(PRESETS)
#: every preset of both games the engine plays (맞고 and 고스톱)
ALL_RULES = [
    *(PRESETS[n] for n in PRESET_NAMES),
    *(GOSTOP_PRESETS[n] for n in sorted(GOSTOP_PRESETS)),
]


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


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, len(ALL_RULES) - 1),
    st.integers(0, 2**32),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_stop_points_is_the_settlements_total_with_or_without_gukjin(
    which: int, seed: int, gukjin: bool, rng: random.Random
) -> None:
    """What 스톱 pays without the sheets (``stop_points``; with a 국진 held, by
    ``settle_losers_total``) is the sum of the settlement's payments (``_settlement``:
    the sheets, 독박 included), over random piles and counts of both games."""
    rules = ALL_RULES[which]
    g = new_game(rules, seed=seed)
    n = rules.players
    piles = [0] * n
    spread = n + rng.randrange(1, 3 * n)  # how many of the cards lie in no pile
    for c in cards_of(rules.deck_mask & ~GUKJIN_BIT):
        k = rng.randrange(spread)
        if k < n:
            piles[k] |= 1 << c
    if gukjin:
        piles[rng.randrange(n)] |= GUKJIN_BIT
    g.captured = piles
    g.gukjin_mode = rng.choice([-1, 0, 1])
    g.go_count = [rng.choice([0, 0, 1, 2, 3, 4]) for _ in range(n)]
    g.go_at = [rng.randrange(1, 40) if go else 0 for go in g.go_count]
    g.shakes = [rng.choice([0, 0, 1, 2]) for _ in range(n)]
    g.carry = rng.choice([1, 2, 4])
    playing = [s for s in range(n) if s != g.seller]  # a 광 seller sits the game out
    if rules.shodang:  # as the game leaves them: every other seat in play answered
        g.shodang_by = by = rng.choice([-1, *playing])
        answers = [(o, rng.random() < 0.5) for o in playing if by >= 0 and o != by]
        g.shodang_yes = sum(1 << o for o, yes in answers if yes)
        g.shodang_no = sum(1 << o for o, yes in answers if not yes)
    p = rng.choice(playing)
    assert g.stop_points(p) == sum(g._settlement(p)[1])
