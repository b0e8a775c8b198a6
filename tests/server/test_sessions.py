"""The server's game adapters refuse forged moves: whatever string a client sends for
whatever seat, ``Session.step`` either plays a legal move or raises a typed
:class:`MadangError` and leaves every seat's view as it was."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from madang.core.errors import MadangError
from madang.server.games import Session, make_session

WORDS = [
    *("play", "flip", "go", "stop", "shake", "bomb", "pick", "chongtong", "gukjin"),
    *("discard", "pass", "ron", "tsumo", "pung", "kong", "chow", "declare", "fold"),
    *("01a", "12d", "13", "5m", "9s", "1z", "0", "-1", "99", "x", ""),
]

forged = st.one_of(
    st.text(max_size=16),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join),
)


def views(s: Session) -> str:
    return json.dumps([s.view(k) for k in range(s.seats)], sort_keys=True, default=str)


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.lists(forged, min_size=1, max_size=8), data=st.data())
def test_forged_moves_raise_and_change_nothing(
    game: str, seed: int, moves: list[str], data: st.DataObject
) -> None:
    s = make_session(game, "default", seed)
    rng = random.Random(seed)
    for move in moves:
        # advance a random number of legal moves, then try the forged one
        for _ in range(data.draw(st.integers(0, 15), label="legal moves first")):
            if s.over:
                break
            seat = rng.choice(s.pending())
            s.step(seat, rng.choice(s.legal(seat)))
        seat = data.draw(st.integers(0, s.seats - 1), label="seat")
        if move in s.legal(seat):
            continue
        before = views(s)
        with pytest.raises(MadangError):
            s.step(seat, move)
        assert views(s) == before
