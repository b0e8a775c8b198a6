"""A state from a view and re-dealt hidden cards: :meth:`MatgoState.from_view` and
:meth:`MatgoState.resample_hidden`, the engine's doors for search bots.

Over random games under every preset: the state built from a seat's view shows that
seat the same view (every key but ``last_played``, which comes from the move history a
view does not carry), holds every card once, and offers the same legal actions; a
re-deal keeps the seat's view and changes only what the seat cannot see. Bad views
raise :class:`RecordError`.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from madang.core.errors import RecordError
from madang.matgo.engine import MatgoState, Turn, new_game
from madang.matgo.rules import PRESETS
from madang.matgo.view import view

PRESET_NAMES = sorted(PRESETS)


def _same_view(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert {k: v for k, v in a.items() if k != "last_played"} == {
        k: v for k, v in b.items() if k != "last_played"
    }


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PRESET_NAMES), st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_a_state_from_a_view_shows_the_same_view(name: str, seed: int, rng: random.Random) -> None:
    g = new_game(PRESETS[name], seed=seed)
    while not g.over:
        seat = g.current
        v = view(g, seat)
        w = MatgoState.from_view(v, rng)
        _same_view(view(w, seat), v)
        assert w.total_cards() == g.rules.deck_mask
        assert w.count_cards() == g.rules.deck_size
        assert w.legal_actions() == g.legal_actions()
        assert w.turn.snapshot()[:-1] == Turn.from_dict(v["turn"]).snapshot()[:-1]
        for _ in range(3):
            w.resample_hidden(seat, rng)
            _same_view(view(w, seat), v)
            assert w.total_cards() == g.rules.deck_mask
            assert w.legal_actions() == g.legal_actions()
        other = 1 - seat
        assert w.hands[other] & w.revealed[other] == g.hands[other] & g.revealed[other]
        # The world plays on like the real game would, through its own legal moves.
        w.step(rng.choice(w.legal_actions()))
        g.step(rng.choice(g.legal_actions()))


def test_resample_hidden_deals_uniformly_enough() -> None:
    g = new_game(seed=5)
    w = MatgoState.from_view(view(g, 0), random.Random(1))
    rng = random.Random(2)
    seen = 0
    for _ in range(50):
        w.resample_hidden(0, rng)
        seen |= w.hands[1]
    hidden = g.hands[1] | sum(1 << c for c in g.pile)
    # Over 50 deals the opponent's hand takes almost every hidden card at least once.
    assert (seen & hidden).bit_count() >= hidden.bit_count() - 2
    assert seen & g.hands[0] == 0


def test_the_view_turn_is_a_documented_object() -> None:
    g = new_game(seed=3)
    t = view(g, 0)["turn"]
    assert t == {
        "mode": "none",
        "card": None,
        "month": None,
        "pair": [],
        "captured": [],
        "bonus": [],
        "flipped": None,
        "options": [],
        "last": False,
        "steals": [],
    }
    assert "t_mode" not in view(g, 0)["public"]


@pytest.mark.parametrize(
    "spoil",
    [
        lambda v: v.pop("hand"),
        lambda v: v.__setitem__("seat", None),
        lambda v: v.__setitem__("pile", v["pile"] + 1),
        lambda v: v["hand_counts"].__setitem__(1 - v["seat"], 99),
        lambda v: v["turn"].__setitem__("mode", "sideways"),
        lambda v: v["turn"].__setitem__("month", 14),
        lambda v: v.pop("floor"),
        lambda v: v.__setitem__("phase", "dancing"),
        lambda v: v["public"].__setitem__("rules", {"no_such_option": 1}),
        lambda v: v.__setitem__("captured", "01g"),
    ],
)
def test_a_bad_view_raises_a_record_error(spoil: Any) -> None:
    g = new_game(seed=9)
    v = copy.deepcopy(view(g, g.current))
    spoil(v)
    with pytest.raises(RecordError):
        MatgoState.from_view(v, random.Random(0))
