"""Conformance of the mahjong engine over random games (hypothesis).

Random legal play from random seeds under random rules: the 104 tiles are conserved at
every step, legal actions are non-empty exactly while the hand runs, every hand ends,
an illegal action raises and changes nothing, the exported record replays to the same
state, no view shows another seat's concealed tiles or the wall, payments sum to zero.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from madang.core.errors import IllegalActionError
from madang.mahjong.engine import (
    MahjongMatch,
    default_action,
    legal_actions,
    new_hand,
    resample_hidden,
    step,
    tile_counts,
)
from madang.mahjong.events import redact
from madang.mahjong.record import export_record, replay
from madang.mahjong.rules import MahjongRules
from madang.mahjong.state import VERBS, Action, HandState
from madang.mahjong.view import view

FULL = [4] * 25 + [1] * 4
MAX_STEPS = 400  # a hand has at most ~47 draws, each followed by a claim window

rules_st = st.builds(
    MahjongRules,
    min_pan=st.sampled_from([0, 2, 3]),
    ron_pays=st.sampled_from([2, 1]),
    multiple_ron=st.booleans(),
    quad_as_two_pairs=st.booleans(),
    pan_value=st.sampled_from([1, 2]),
)

ALL_ACTIONS = [
    Action(s, v, t, d)
    for s in range(4)
    for v in VERBS
    for t in (range(25) if v in ("discard", "ankan", "kakan") else [-1])
    for d in (("", "eopeo", "bulleo") if v == "discard" else ("",))
]


def choose(rng: random.Random, acts: list[Action]) -> Action:
    wins = [a for a in acts if a.verb in ("tsumo", "ron")]
    if wins and rng.random() < 0.7:
        return rng.choice(wins)
    return rng.choice(acts)


def resampled(state: HandState, seat: int | None, rng: random.Random) -> HandState:
    """A copy with every tile ``seat`` cannot see dealt again (the engine's
    :func:`resample_hidden`): the tiles are conserved and the seat's view is the same."""
    c = state.clone()
    resample_hidden(c, seat, rng)
    assert tile_counts(c) == FULL
    if not c.over and seat is not None:
        assert legal_actions(c, seat) == legal_actions(state, seat)
    return c


def check_views(state: HandState, rng: random.Random) -> None:
    for seat in (0, 1, 2, 3, None):
        v = view(state, seat)
        text = json.dumps(v)
        assert '"wall":' not in text
        for p in v["players"]:
            if p["seat"] != seat:
                assert p["hand"] is None and p["drawn"] is None
        if not state.over:
            assert view(resampled(state, seat, rng), seat) == v


def play_hand(st_: HandState, rng: random.Random, deep: bool) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = list(st_.deal_events)
    for _ in range(MAX_STEPS):
        assert tile_counts(st_) == FULL
        acts = legal_actions(st_)
        assert bool(acts) is (not st_.over)
        if st_.over:
            break
        assert all(a.seat in st_.pending for a in acts)
        for seat in st_.pending:
            assert default_action(st_, seat) in legal_actions(st_, seat)
        if deep and rng.random() < 0.1:
            bad = rng.choice([a for a in ALL_ACTIONS if a not in acts])
            before = st_.snapshot()
            with pytest.raises(IllegalActionError):
                step(st_, bad)
            assert st_.snapshot() == before
        if deep and rng.random() < 0.05:
            check_views(st_, rng)
        events.extend(step(st_, choose(rng, acts)))
    else:  # pragma: no cover - would mean a hand that never ends
        raise AssertionError("hand did not end")
    return events


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    rules=rules_st,
    dealer=st.integers(0, 3),
    pot=st.sampled_from([0, 5, 20]),
)
def test_random_hands(seed: int, rules: MahjongRules, dealer: int, pot: int) -> None:
    rng = random.Random(seed)
    state = new_hand(rules, seed=seed, dealer=dealer, pot=pot)
    events = play_hand(state, rng, deep=True)
    res = state.result
    assert res is not None
    net = [0, 0, 0, 0]
    for frm, to, pts, _ in res.payments:
        assert frm != to and pts > 0
        net[frm] -= pts
        net[to] += pts
    assert sum(net) == 0
    if res.nagari:
        assert res.next_pot == pot + 5 and res.dealer_keeps and state.wall_count == 0
    else:
        assert res.next_pot == 0
        assert res.dealer_keeps == any(w.seat == dealer for w in res.winners)
        for w in res.winners:
            assert w.sheet.valid and w.sheet.base_pan >= rules.min_pan
    # replay of the exported record reproduces the final state
    record = json.loads(json.dumps(export_record(state)))
    assert replay(record).snapshot() == state.snapshot()
    # redaction: no seat's event stream shows another seat's draws or deal
    for seat in (0, 1, 2, 3, None):
        for e in events:
            r = redact(e, seat)
            if r is None:
                continue
            json.dumps(r)
            if r["type"] in ("draw", "deal") and r["seat"] != seat:
                assert "tile" not in r and "tiles" not in r
    check_views(state, rng)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32), rounds=st.sampled_from([1, 2]))
def test_random_matches(seed: int, rounds: int) -> None:
    rng = random.Random(seed)
    m = MahjongMatch({"rounds": rounds}, seed=seed)
    while not m.over:
        play_hand(m.hand, rng, deep=False)
        m.next_hand()
    assert sum(m.scores) == 0 and m.passes == 4 * rounds


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 200))
def test_clone_and_partial_replay(seed: int, cut: int) -> None:
    rng = random.Random(seed)
    state = new_hand(seed=seed)
    for _ in range(cut):
        if state.over:
            break
        step(state, choose(rng, legal_actions(state)))
    twin = state.clone()
    assert twin.snapshot() == state.snapshot()
    assert replay(export_record(state)).snapshot() == state.snapshot()
    if not state.over:
        step(twin, default_action(twin, twin.pending[0]))
        assert replay(export_record(state)).snapshot() == state.snapshot()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), rules=rules_st)
def test_steps_without_events_change_the_hand_the_same(seed: int, rules: MahjongRules) -> None:
    """``step(..., events=False)`` (the batched environments' path) returns no events and
    leaves the hand exactly as the ordinary step does, to its end and its payments."""
    rng = random.Random(seed)
    loud = new_hand(rules, seed=seed)
    quiet = new_hand(rules, seed=seed)
    while not loud.over:
        action = choose(rng, legal_actions(loud))
        assert step(loud, action)  # every step has something to say
        assert step(quiet, action, events=False) == []
        assert quiet.snapshot() == loud.snapshot()
    assert quiet.over and quiet.result == loud.result
