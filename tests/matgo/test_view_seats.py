"""Matgo's views and help are the same JSON since the view became N-seat (issue 28):
a digest of every view (each seat's and the spectator's, with the help a person
reads) over random games under every preset, taken from the two-seat code before the
change, must not move."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from madang.matgo.engine import new_game
from madang.matgo.rules import PRESETS
from madang.matgo.view import annotate, help_of, view

#: sha256 of the views below, computed by the two-seat view.py (commit 06feb57).
DIGEST = "d7f702bae6dc3dd4bd60b8de604ff487eef08daba079e6029ba01168e806bd52"


def all_views() -> str:
    h = hashlib.sha256()
    rng = random.Random(2028)
    for name, rules in PRESETS.items():
        for _ in range(20):
            g = new_game(rules, seed=rng.getrandbits(32), dealer=rng.randrange(2))
            while True:
                for seat in (0, 1, None):
                    h.update(json.dumps(annotate(view(g, seat)), sort_keys=False).encode())
                if g.over:
                    break
                g.step(rng.choice(g.legal_actions()))
        h.update(name.encode())
    return h.hexdigest()


def test_matgo_views_and_help_are_unchanged() -> None:
    assert all_views() == DIGEST


@pytest.mark.parametrize("seat", [2, -1, True, "0", 1.0])
def test_a_seat_not_at_the_table_is_a_value_error(seat: object) -> None:
    with pytest.raises(ValueError, match="seat must be 0, 1 or None"):
        view(new_game(seed=1), seat)  # type: ignore[arg-type]


def test_help_of_a_view_of_an_unknown_game_is_a_typed_error() -> None:
    from madang.core.errors import RecordError

    v = view(new_game(seed=1), 0)
    v["game"] = "sutda"
    with pytest.raises(RecordError, match="Go-Stop family"):
        help_of(v)
