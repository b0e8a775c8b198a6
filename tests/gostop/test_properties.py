"""Properties of random games of 3 and 4 seats on the family's engine, under every 고스톱
preset (the 광팔기 presets seat four, one sitting out each game).

Hypothesis draws a preset, a deck (``st.permutations``), 선, a 나가리 carry, the seats
barred from `die` (four seats) and a walk of legal actions; every step checks: cards
conserved, legal actions non-empty exactly while the game runs, an illegal action raises
and changes nothing, clones are independent, and no view shows a card its seat may not
know (another hand's unshown cards, the draw pile — the sitter's cards lie there); each
game ends, its payments are positive transfers between seats that play or sell (so they
sum to zero over the seats, 광값 included), the sitter pays and is paid nothing but
its 광값, what the winner is paid is the end's points, and the record replays it exactly.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from madang.core.errors import IllegalActionError
from madang.gostop.record import export_record, replay
from madang.gostop.rules import PRESETS, GostopRules
from madang.matgo import actions as A
from madang.matgo.cards import BIT, CODES, parse_card
from madang.matgo.engine import MatgoState, new_game
from madang.matgo.view import view

PRESET_NAMES = sorted(PRESETS)
MAX_STEPS = 110  # 7 plays each, bonus plays, tokens, picks, 고/스톱, join/die, 쇼당: far less
CODE_SET = frozenset(CODES)


def _deck(rules: GostopRules) -> list[int]:
    return [c for c in range(len(BIT)) if rules.deck_mask & BIT[c]]


@st.composite
def games(draw: st.DrawFn) -> tuple[MatgoState, random.Random]:
    rules = PRESETS[draw(st.sampled_from(PRESET_NAMES))]
    n = rules.players
    deck = draw(st.permutations(_deck(rules)))
    dealer = draw(st.integers(0, n - 1))
    carry = draw(st.sampled_from((1, 2, 4)))
    no_die = draw(st.lists(st.integers(0, n - 1), max_size=1)) if n == 4 else []
    rng = draw(st.randoms(use_true_random=False))
    return new_game(rules, deck=deck, dealer=dealer, carry=carry, no_die=no_die), rng


def shown_cards(obj: Any) -> int:
    """Every card code anywhere in a JSON-able object, as a mask."""
    m = 0
    if isinstance(obj, str):
        if obj in CODE_SET:
            m |= BIT[parse_card(obj)]
    elif isinstance(obj, dict):
        for k, v in obj.items():
            m |= shown_cards(k) | shown_cards(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            m |= shown_cards(v)
    return m


def check_views(g: MatgoState) -> None:
    """No view shows another seat's unshown cards or a card of the pile (the sitter's
    seven lie there), nor, to a spectator, any hand."""
    pile = sum(BIT[c] for c in g.pile)
    for seat in (*range(len(g.hands)), None):
        secret = pile
        for o, hand in enumerate(g.hands):
            if o != seat:
                secret |= hand & ~g.revealed[o]
        shown = shown_cards(json.loads(json.dumps(view(g, seat))))
        assert not shown & secret, (
            seat,
            [CODES[c] for c in range(len(BIT)) if shown & secret & BIT[c]],
        )


def _check_step(g: MatgoState, rng: random.Random) -> None:
    n = g.rules.players
    assert g.total_cards() == g.rules.deck_mask
    assert g.count_cards() == g.rules.deck_size
    legal = g.legal_actions()
    assert bool(legal) is not g.over
    mask = g.legal_mask()  # the legal moves as bits (the batched path's), the same
    assert [a for a in range(A.NUM_FAMILY_ACTIONS) if mask >> a & 1] == legal
    assert all(len(x) == n for x in (g.hands, g.captured, g.go_count, g.turns))
    if g.sitter >= 0:
        assert not g.hands[g.sitter] and not g.captured[g.sitter]
        assert g.current != g.sitter or g.over
    if legal and rng.random() < 0.3:
        bad = next(a for a in range(A.NUM_FAMILY_ACTIONS) if a not in legal)
        before = g.snapshot()
        try:
            g.step(bad)
        except IllegalActionError:
            pass
        else:  # pragma: no cover - a failure
            raise AssertionError(f"illegal action {bad} was accepted")
        assert g.snapshot() == before
    if rng.random() < 0.2:
        check_views(g)


@settings(max_examples=80, deadline=None)
@given(games())
def test_random_games_of_three_and_four_seats(game: tuple[MatgoState, random.Random]) -> None:
    g, rng = game
    n = g.rules.players
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
    check_views(g)
    # payments: positive transfers between two seats; net over the seats is zero
    net = [0] * n
    for frm, to, points, reason in g.payments:
        assert frm != to and points > 0 and {frm, to} <= set(range(n))
        assert g.sitter not in (frm, to) or (to == g.seller and reason == "gwang_sale")
        net[frm] -= points
        net[to] += points
    assert sum(net) == 0
    if n == 4 and g.end_reason != "redeal":
        assert g.sitter >= 0  # a redeal may come before anyone decides
    assert g.sitter != g.dealer  # 선 never sits out
    if g.winner is None:
        assert g.points == 0 and g.end_reason in ("nagari", "redeal")
        assert all(p[3] != "win" for p in g.payments)
    else:
        assert g.winner != g.sitter
        paid_at_end = [p for p in g.payments if p[3] in ("win", "chongtong", "sam_ppeok")]
        assert all(to == g.winner for _, to, _, _ in paid_at_end)
        assert sum(p for _, _, p, _ in paid_at_end) == g.points
        if g.end_reason in ("stop", "last_card"):
            assert len(g.sheets) == 2 and g.sheet is g.sheets[0]
    # the record (deck, moves, no_die) replays the game exactly
    again = replay(json.loads(json.dumps(export_record(g))))
    assert again.snapshot() == g.snapshot()
    assert start.moves == []


def test_many_seeded_games_end_and_balance() -> None:
    """A fast sweep beside Hypothesis: 300 seeded games each of 3 and of 4 seats (쇼당
    called whenever it may be, so that some games have one); each record replays."""
    for rules in (GostopRules(), GostopRules(players=4, shodang=True)):
        ends: set[str] = set()
        calls = 0
        for seed in range(300):
            g = new_game(rules, seed=seed, dealer=seed % rules.players)
            rng = random.Random(seed)
            while not g.over:
                legal = g.legal_actions()
                g.step(A.SHODANG if A.SHODANG in legal else legal[rng.randrange(len(legal))])
                assert len(g.moves) <= MAX_STEPS
            assert g.total_cards() == rules.deck_mask
            assert sum(p for _, _, p, _ in g.payments) >= 0
            ends.add(g.end_reason)
            if g.shodang_by >= 0:
                calls += 1
                assert replay(export_record(g)).snapshot() == g.snapshot()
        assert {"stop", "last_card"} <= ends
        assert calls >= (2 if rules.shodang else 0)
