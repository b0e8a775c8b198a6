"""A person's time runs out (U6 of the second UX review): the server plays the move the
seat's bot (``normal``, the one that answers for a disconnected person) makes from the
seat's view, never simply the first legal move, and announces it (``timeout``). A
question a timeout must not decide keeps the default answer (Matgo's 스톱, a mahjong
win, claim or declaration); a bot that fails gives the default answer, and the table
plays on.

The deals are fixed (``deal_seed``: table 1 deals from ``deal_seed + 1``) so that the
first legal move, which is also the default answer, is a bad one: a 광 thrown to an
empty month while a capture is there, a tile broken out of a triplet.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import recv_until, register
from tests.server.test_ws import hello, new_table

from madang.bots import Budget, make_bot
from madang.mahjong.engine import legal_actions
from madang.mahjong.game import MahjongSession
from madang.mahjong.tiles import parse_tile
from madang.mahjong.view import view as mahjong_view
from madang.matgo.actions import action_str
from madang.matgo.cards import KINDS, Kind, parse_card
from madang.matgo.game import MatgoSession
from madang.matgo.view import view as matgo_view
from madang.server import store
from madang.server.games import make_session

MATGO_SEED = 7
"""Table 1's deal with ``deal_seed=6``: the person (seat 0) plays first; the lowest card
in the hand is 1월 광 and no 1월 card is on the floor."""
MAHJONG_SEED = 8
"""Table 1's deal with ``deal_seed=7``: the person is the dealer and holds three 6m (the
tile just drawn among them) and a lone 1p."""
MAHJONG_VS_BOTS = {"game": "mahjong", "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3}


def _timed_out_update(ws: Any) -> dict[str, Any]:
    """Wait for the person's question, answer nothing, and return the update that shows
    the move the server made (it says ``timeout``: 0)."""
    snap = hello(ws)
    prompt = snap["prompt"]
    while not (prompt and prompt["seat"] == 0):
        prompt = recv_until(ws, "update")["prompt"]
    while True:
        m = recv_until(ws, "update")
        if m.get("timeout") == 0:
            return m


def _journal_last(c: TestClient, tid: int) -> dict[str, Any]:
    room = c.app.state.hub.rooms[tid]  # type: ignore[attr-defined]
    moves = store.journal(c.app.state.hub.engine, room.game_id)[1]  # type: ignore[attr-defined]
    timed_out = [m for m in moves if m["timed_out"]]
    assert timed_out, moves
    return dict(timed_out[0])


def test_a_matgo_timeout_plays_the_bots_card_not_the_first(
    make_client: Callable[..., TestClient],
) -> None:
    s = make_session("matgo", "default", MATGO_SEED)
    assert isinstance(s, MatgoSession)
    g = s.match.game
    assert s.pending() == [0] and s.question(0) == "play"
    first = s.legal(0)[0]
    assert first == s.default_move(0)
    assert s.action_to_string(first) == "play 01g"  # what a timeout used to play
    floor_months = {pile["month"] for pile in matgo_view(g, 0)["floor"] if pile["cards"]}
    assert KINDS[parse_card("01g")] == Kind.GWANG and 1 not in floor_months
    bot = make_bot("matgo", "normal")  # from the seat's view alone
    want = action_str(bot.act(matgo_view(g, 0), list(g.legal_actions()), random.Random(0), None))
    assert want == "play 07r" and 7 in floor_months  # a capture

    c = make_client(turn_seconds=0.3, deal_seed=MATGO_SEED - 1)
    register(c)
    tid = new_table(c)
    assert tid == 1
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        m = _timed_out_update(ws)
    played = [e for e in m["events"] if e.get("seat") == 0 and e["type"] == "play"]
    assert played and played[0]["card"] == "07r", m["events"]
    row = _journal_last(c, tid)
    assert (row["seat"], row["move"]) == (0, want)


def test_a_mahjong_timeout_discards_the_bots_tile_not_the_drawn_one(
    make_client: Callable[..., TestClient],
) -> None:
    s = make_session("mahjong", "default", MAHJONG_SEED)
    assert isinstance(s, MahjongSession)
    st = s.match.hand
    assert s.pending() == [0] and s.question(0) == "discard"
    assert s.default_move(0) == s.legal(0)[0]
    assert s.action_to_string(s.default_move(0)) == "discard 6m"
    assert st.hands[0][parse_tile("6m")] == 3 and st.hands[0][parse_tile("1p")] == 1
    discards = [a.code for a in legal_actions(st, 0) if a.verb == "discard" and not a.declare]
    bot = make_bot("mahjong", "normal")
    choice = bot.act(mahjong_view(st, 0), discards, random.Random(0), Budget(0.01))
    want = s.action_to_string(choice)
    assert want == "discard 1p"

    c = make_client(turn_seconds=0.3, deal_seed=MAHJONG_SEED - 1)
    register(c)
    tid = new_table(c, MAHJONG_VS_BOTS)
    assert tid == 1
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        m = _timed_out_update(ws)
    played = [e for e in m["events"] if e.get("seat") == 0 and e["type"] == "discard"]
    assert played and played[0]["tile"] == "1p", m["events"]
    row = _journal_last(c, tid)
    assert (row["seat"], row["move"]) == (0, want)


def test_a_timeout_never_calls_go_wins_claims_or_declares() -> None:
    """Whatever the bot would answer (here the random one, which tries everything), a
    timeout keeps the default answer at 고/스톱, 총통 and a mahjong claim window, and on a
    mahjong turn only discards (no win, kan or 엎어/불러) — but for a declared 엎어/불러
    hand, whose time runs out to its win; elsewhere it is the bot's."""
    from madang.server.games import BotPlayer

    rng = random.Random(3)
    seen: set[str] = set()
    not_default = declared_wins = 0
    for seed in range(30):
        for game in ("matgo", "mahjong"):
            s = make_session(game, "default", seed)
            bot = BotPlayer(game, "easy", 0.01)
            for _ in range(400):
                if s.over:
                    break
                seat = rng.choice(s.pending())
                q = s.question(seat)
                move = s.timeout_move(seat, bot, rng)
                assert move in s.legal(seat)
                wins = [a for a in s.legal(seat) if s.action_to_string(a) in ("ron", "tsumo")]
                if game == "mahjong" and s.match.hand.declared[seat] and wins:  # type: ignore[attr-defined]
                    assert move == wins[0]  # a declared hand's time runs out to its win
                    declared_wins += 1
                elif q in ("go_stop", "chongtong", "claim", "rob"):
                    assert move == s.default_move(seat), (game, q, move)
                    seen.add(q)
                elif move != s.default_move(seat):
                    not_default += 1
                if game == "mahjong" and move not in wins:
                    words = s.action_to_string(move).split()
                    assert words[0] in ("discard", "pass") and len(words) <= 2, words
                s.step(seat, rng.choice(s.legal(seat)))
    assert {"go_stop", "claim"} <= seen
    assert not_default > 100
    assert declared_wins > 0


def test_a_failing_bot_gives_the_default_answer(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: Any) -> str:
        raise RuntimeError("the bot fell over")

    monkeypatch.setattr(MatgoSession, "timeout_move", broken)
    c = make_client(turn_seconds=0.3, deal_seed=MATGO_SEED - 1)
    register(c)
    tid = new_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        m = _timed_out_update(ws)
        played = [e for e in m["events"] if e.get("seat") == 0 and e["type"] == "play"]
        assert played and played[0]["card"] == "01g"  # the default answer
        again = recv_until(ws, "update")  # the table plays on
    assert again["version"] == m["version"] + 1
    assert _journal_last(c, tid)["move"] == "play 01g"
