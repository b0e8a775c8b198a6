"""The server's game adapters: the tests' deal seeds start live games, and forged moves
are refused: whatever string a client sends for whatever seat, ``string_to_action``
reads it as an action id or raises InvalidActionError, and ``Session.step`` either plays
a legal action or raises a typed :class:`MadangError` and leaves every seat's view as it
was."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.server.conftest import DEAL_SEED

from madang.core.errors import InvalidActionError, MadangError
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


def play_random(s: Session, rng: random.Random, limit: int = 10_000) -> int:
    """Play up to ``limit`` random legal moves (fewer if the game ends); how many."""
    moves = 0
    while moves < limit and not s.over:
        seat = rng.choice(s.pending())
        s.step(seat, rng.choice(s.legal(seat)))
        moves += 1
    return moves


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
@pytest.mark.parametrize("table_id", range(1, 9))
def test_deal_seed_gives_live_tables(game: str, table_id: int) -> None:
    """The tests' tables (see ``DEAL_SEED``) start with a card to play and last a while."""
    s = make_session(game, "default", DEAL_SEED + table_id)
    assert not s.over and s.pending()
    if game == "matgo":
        assert s.question(s.pending()[0]) == "play"
    assert play_random(s, random.Random(0)) >= 12
    assert s.over


@pytest.mark.parametrize("game", ["matgo", "mahjong"])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.lists(forged, min_size=1, max_size=8), data=st.data())
def test_forged_moves_raise_and_change_nothing(
    game: str, seed: int, moves: list[str], data: st.DataObject
) -> None:
    s = make_session(game, "default", seed)
    rng = random.Random(seed)
    for move in moves:
        play_random(s, rng, data.draw(st.integers(0, 15), label="legal moves first"))
        seat = data.draw(st.integers(0, s.seats - 1), label="seat")
        try:
            action = s.string_to_action(move)  # the wire's notation
        except InvalidActionError:
            continue  # malformed text never reaches the session's step
        if action in s.legal(seat):
            continue
        before = views(s)
        with pytest.raises(MadangError):
            s.step(seat, action)
        assert views(s) == before
