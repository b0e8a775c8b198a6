"""Properties of random 3-seat games on the family's engine, under every 고스톱 preset.

Hypothesis draws a preset, a deck (``st.permutations``), 선, a 나가리 carry and a walk of
legal actions; every step checks: cards conserved, legal actions non-empty exactly while
the game runs, an illegal action raises and changes nothing, clones are independent; each
game ends, its payments are positive transfers between seats (so they sum to zero over
the seats), what the winner is paid is the end's points, and the deck and moves replay
it exactly.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from madang.core.errors import IllegalActionError
from madang.gostop.rules import PRESETS, GostopRules
from madang.matgo import actions as A
from madang.matgo.cards import BIT
from madang.matgo.engine import MatgoState, new_game

PRESET_NAMES = sorted(PRESETS)
MAX_STEPS = 100  # 7 plays each, bonus plays, bomb tokens, picks and 고/스톱: far less


def _deck(rules: GostopRules) -> list[int]:
    return [c for c in range(len(BIT)) if rules.deck_mask & BIT[c]]


@st.composite
def games(draw: st.DrawFn) -> tuple[MatgoState, random.Random]:
    rules = PRESETS[draw(st.sampled_from(PRESET_NAMES))]
    deck = draw(st.permutations(_deck(rules)))
    dealer = draw(st.integers(0, 2))
    carry = draw(st.sampled_from((1, 2, 4)))
    rng = draw(st.randoms(use_true_random=False))
    return new_game(rules, deck=deck, dealer=dealer, carry=carry), rng


def _check_step(g: MatgoState, rng: random.Random) -> None:
    assert g.total_cards() == g.rules.deck_mask
    assert g.count_cards() == g.rules.deck_size
    legal = g.legal_actions()
    assert bool(legal) is not g.over
    assert all(len(x) == 3 for x in (g.hands, g.captured, g.go_count, g.turns))
    if legal and rng.random() < 0.3:
        bad = next(a for a in range(A.NUM_ACTIONS) if a not in legal)
        before = g.snapshot()
        try:
            g.step(bad)
        except IllegalActionError:
            pass
        else:  # pragma: no cover - a failure
            raise AssertionError(f"illegal action {bad} was accepted")
        assert g.snapshot() == before


@settings(max_examples=60, deadline=None)
@given(games())
def test_random_three_seat_games(game: tuple[MatgoState, random.Random]) -> None:
    g, rng = game
    start = g.clone()
    steps = 0
    while not g.over:
        _check_step(g, rng)
        legal = g.legal_actions()
        action = legal[rng.randrange(len(legal))]
        if rng.random() < 0.1:  # a clone is independent of its original
            c = g.clone()
            c.step(action)
            assert c.snapshot() != g.snapshot()
        g.step(action)
        steps += 1
        assert steps <= MAX_STEPS
    _check_step(g, rng)
    # payments: positive transfers between two seats; net over the seats is zero
    net = [0, 0, 0]
    for frm, to, points, _ in g.payments:
        assert frm != to and points > 0 and {frm, to} <= {0, 1, 2}
        net[frm] -= points
        net[to] += points
    assert sum(net) == 0
    if g.winner is None:
        assert g.points == 0 and g.end_reason in ("nagari", "redeal")
    else:
        paid_at_end = [p for p in g.payments if p[3] in ("win", "chongtong", "sam_ppeok")]
        assert all(to == g.winner for _, to, _, _ in paid_at_end)
        assert sum(p for _, _, p, _ in paid_at_end) == g.points
        if g.end_reason in ("stop", "last_card"):
            assert len(g.sheets) == 2 and g.sheet is g.sheets[0]
    # the deck and the moves replay the game exactly
    again = new_game(g.rules, deck=g.deck, dealer=g.dealer, carry=g.carry)
    for a in g.moves:
        again.step(a)
    assert again.snapshot() == g.snapshot()
    assert start.moves == []


def test_many_seeded_games_end_and_balance() -> None:
    """A fast sweep beside Hypothesis: 300 seeded games of the default rules."""
    rules = GostopRules()
    ends: set[str] = set()
    for seed in range(300):
        g = new_game(rules, seed=seed, dealer=seed % 3)
        rng = random.Random(seed)
        while not g.over:
            legal = g.legal_actions()
            g.step(legal[rng.randrange(len(legal))])
            assert len(g.moves) <= MAX_STEPS
        assert g.total_cards() == rules.deck_mask
        ends.add(g.end_reason)
    assert {"stop", "last_card"} <= ends
