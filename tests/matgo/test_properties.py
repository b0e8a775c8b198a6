"""Conformance properties over random decks and random legal play, under every preset.

Hypothesis draws a preset, a deck (``st.permutations``), the dealer and a random walk of
legal actions; every step is checked against the invariants of ``STYLE.md``: cards
conserved, legal actions non-empty exactly while the game runs, illegal actions raise
and change nothing, views leak no hidden card, clones are independent, replays
reproduce, payments are never negative, and a match's balances sum to zero.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from madang.core.errors import IllegalActionError, InvalidActionError, MadangError
from madang.matgo import actions as A
from madang.matgo.cards import BIT, CODES, codes_of
from madang.matgo.engine import MatgoState, new_game
from madang.matgo.record import export_record, replay
from madang.matgo.rules import PRESETS, MatgoRules
from madang.matgo.view import view

PRESET_NAMES = sorted(PRESETS)
MAX_STEPS = 120  # 20 plays, bonus plays, bomb tokens, picks, 고/스톱 and 국진: far less

MALFORMED = ["", "play", "play 13g", "pick", "bomb 13", "bomb 8", "go now", "flip 01g", "zz"]


def _deck(rules: MatgoRules) -> list[int]:
    return [c for c in range(len(BIT)) if rules.deck_mask & BIT[c]]


@st.composite
def games(draw: st.DrawFn) -> tuple[str, MatgoState, random.Random]:
    name = draw(st.sampled_from(PRESET_NAMES))
    rules = PRESETS[name]
    deck = draw(st.permutations(_deck(rules)))
    dealer = draw(st.integers(0, 1))
    rng = draw(st.randoms(use_true_random=False))
    return name, new_game(rules, deck=deck, dealer=dealer), rng


def _hidden_from(g: MatgoState, seat: int | None) -> list[int]:
    """Cards ``seat`` must not see: the draw pile and the unrevealed opponent hands."""
    hidden = list(g.pile)
    for p in (0, 1):
        if p != seat:
            hidden += [c for c in range(len(BIT)) if g.hands[p] & ~g.revealed[p] & BIT[c]]
    return hidden


def _check_views(g: MatgoState) -> None:
    for seat in (0, 1, None):
        v = view(g, seat)
        info = v["mission_info"]
        if info is not None:  # the mission's cards are public: named by the mission
            assert g.mission is not None and info["cards"] == codes_of(g.mission.cards)
            v = {**v, "mission_info": {**info, "cards": []}}
        text = json.dumps(v)
        for c in _hidden_from(g, seat):
            assert f'"{CODES[c]}"' not in text, (seat, CODES[c])
        if seat is None:
            assert '"hand"' not in text
        else:
            mine = view(g, seat)["hand"]
            assert sorted(mine) == sorted(
                CODES[c] for c in range(len(BIT)) if g.hands[seat] >> c & 1
            )


def _check_illegal(g: MatgoState, rng: random.Random) -> None:
    before = g.snapshot()
    legal = set(g.legal_actions())
    illegal = [a for a in range(A.NUM_ACTIONS) if a not in legal]
    for a in rng.sample(illegal, 3):
        with pytest.raises(IllegalActionError):
            g.step(a)
        with pytest.raises(IllegalActionError):
            g.step(A.action_str(a))
    for bad in (rng.choice(MALFORMED), -1, A.NUM_ACTIONS, True, 1.0, None):
        with pytest.raises((IllegalActionError, InvalidActionError)):
            g.step(bad)  # type: ignore[arg-type]
    assert g.snapshot() == before
    assert set(g.legal_actions()) == legal


def _pick(legal: list[int], rng: random.Random) -> int:
    """A random legal action, with 고 favoured so that long games and 나가리 occur."""
    if A.GO in legal and rng.random() < 0.75:
        return A.GO
    return rng.choice(legal)


@given(games())
@settings(max_examples=200, deadline=None)
def test_random_walks_keep_every_invariant(game: tuple[str, MatgoState, random.Random]) -> None:
    name, g, rng = game
    rules = g.rules
    steps = 0
    probe = rng.randrange(1, 30)  # the step at which clone and partial replay are probed
    while True:
        assert g.total_cards() == rules.deck_mask
        assert g.count_cards() == rules.deck_size
        assert all(p[2] >= 0 for p in g.payments)
        legal = g.legal_actions()
        if g.over:
            break
        assert legal, "no legal action in a running game"
        assert legal == sorted(set(legal))
        assert g.default_action() in legal
        assert g.pending()["seat"] == g.current
        _check_views(g)
        if steps % 4 == 0:
            _check_illegal(g, rng)
        if steps == probe:
            snap = g.snapshot()
            c = g.clone()
            c.step(rng.choice(c.legal_actions()))
            while not c.over:
                c.step(c.default_action())
            assert g.snapshot() == snap
            assert replay(export_record(g)).snapshot() == snap
        g.step(_pick(legal, rng))
        steps += 1
        assert steps <= MAX_STEPS, f"{name}: the game did not end"
    assert g.legal_actions() == []
    assert g.pending() == {}
    with pytest.raises(IllegalActionError):
        g.default_action()
    with pytest.raises(IllegalActionError):
        g.step(A.STOP)
    _check_views(g)
    assert replay(export_record(g)).snapshot() == g.snapshot()
    if g.winner is None:
        assert g.points == 0
        assert all(reason != "win" for *_, reason in g.payments)
    else:
        assert g.points > 0
        assert g.payments[-1] == (1 - g.winner, g.winner, g.points, g.payments[-1][3])
    assert len(g.moves) == steps


@given(games())
@settings(max_examples=100, deadline=None)
def test_default_play_ends_and_replays(game: tuple[str, MatgoState, random.Random]) -> None:
    """A player whose time always runs out still plays a whole, replayable game."""
    _, g, _ = game
    for _ in range(MAX_STEPS):
        if g.over:
            break
        a = g.default_action()
        assert a in g.legal_actions()
        g.step(a)
    assert g.over
    assert replay(export_record(g)).snapshot() == g.snapshot()


@given(st.sampled_from(PRESET_NAMES), st.integers(0, 2**32), st.integers(1, 500))
@settings(max_examples=40, deadline=None)
def test_match_balances_sum_to_zero(name: str, seed: int, stake: int) -> None:
    match = pytest.importorskip("madang.matgo.match", reason="MatgoMatch not written yet")
    m = match.MatgoMatch(PRESETS[name], seed=seed, stake=stake)
    rng = random.Random(seed)
    carry = 1
    for _ in range(4):
        g = m.game
        assert g.carry == carry
        while not g.over:
            g.step(_pick(g.legal_actions(), rng))
        m.next_game()
        if g.end_reason == "redeal":
            pass
        elif g.winner is None:
            carry *= 2
        else:
            carry = 1
            assert m.game.dealer == g.winner
        assert sum(m.balances) == 0
        for seat in (0, 1):
            assert m.balances[seat] == sum(
                e.amount * ((e.payee == seat) - (e.payer == seat)) for e in m.ledger
            )
        assert all(e.amount == e.points * stake and e.points >= 0 for e in m.ledger)


@given(st.sampled_from(PRESET_NAMES), st.integers(0, 2**32))
@settings(max_examples=30, deadline=None)
def test_seeded_games_are_reproducible(name: str, seed: int) -> None:
    rules = PRESETS[name]
    a = new_game(rules, seed=seed)
    b = new_game(rules, seed=seed)
    assert a.snapshot() == b.snapshot()
    while not a.over:
        act = a.default_action()
        assert a.step(act) == b.step(act)
    assert a.snapshot() == b.snapshot()


@given(st.permutations(_deck(MatgoRules())), st.integers(0, 3))
@settings(max_examples=30, deadline=None)
def test_bad_decks_are_rejected(deck: list[int], cut: int) -> None:
    bad: list[int] | list[str] = list(deck)
    if cut == 0:
        bad = deck[:-1]  # a card missing
    elif cut == 1:
        bad = [deck[1], *deck[1:]]  # a card twice
    elif cut == 2:
        bad = [*deck, len(BIT) - 1]  # a bonus card not in these rules
    else:
        bad = [CODES[c] for c in deck[:-1]] + ["13g"]  # an unknown code
    with pytest.raises(MadangError):
        new_game(deck=bad)


@given(games())
@settings(max_examples=60, deadline=None)
def test_redacted_events_hide_drawn_cards(game: tuple[str, MatgoState, random.Random]) -> None:
    """A card drawn after a bonus play is seen by its drawer only."""
    from madang.matgo.events import event_to_dict, redact

    _, g, rng = game
    while not g.over:
        g.step(_pick(g.legal_actions(), rng))
    for e in g.events:
        for seat in (0, 1, None):
            d = redact(e, seat)
            json.dumps(d)
            if e[0] == "draw" and seat != e[1]:
                assert d == {"type": "draw", "seat": e[1]}
            else:
                assert d == event_to_dict(e)
