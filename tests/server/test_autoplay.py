"""자동치기 (issue 26 item 5): a person hands their seat to the ``normal`` bot until they
take it back (``docs/protocol.md``, ``autoplay``). The bot plays that seat only, through
the session's bot path; the flag is public seat state that a reconnecting client gets in
its welcome; spectators and bad values are refused and change nothing."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import play_out, recv_until, register, use_session
from tests.server.test_absent import two_people
from tests.server.test_ws import hello, new_table

from madang.mahjong.game import MahjongSession
from madang.matgo.game import MatgoSession
from madang.server import store
from madang.server.room import Room

MAHJONG_VS_BOTS = {"game": "mahjong", "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3}


def _room(c: TestClient, tid: int) -> Room:
    room: Room = c.app.state.hub.rooms[tid]  # type: ignore[attr-defined]
    return room


def _moves(c: TestClient, tid: int) -> list[dict[str, Any]]:
    """The current game's journal."""
    room = _room(c, tid)
    return [dict(m) for m in store.journal(c.app.state.hub.engine, room.game_id)[1]]  # type: ignore[attr-defined]


def _until(check: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _autoplay(ws: Any, on: object) -> None:
    ws.send_text(json.dumps({"type": "autoplay", "on": on}))


def _seats_auto(ws: Any) -> list[bool]:
    return [s["auto"] for s in recv_until(ws, "seats")["seats"]]


def _spy_bot_moves(
    monkeypatch: pytest.MonkeyPatch, cls: type[MatgoSession] | type[MahjongSession]
) -> list[tuple[int, str]]:
    """Record every (seat, bot level) the session's bot path plays for."""
    calls: list[tuple[int, str]] = []
    original = cls.bot_move

    def spy(self: Any, seat: int, bot: Any, rng: Any, strict: bool = False) -> str:
        calls.append((seat, bot.level))
        return original(self, seat, bot, rng, strict)

    monkeypatch.setattr(cls, "bot_move", spy)
    return calls


def test_autoplay_plays_only_that_seat_with_the_normal_bot(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _spy_bot_moves(monkeypatch, MatgoSession)
    c = make_client(turn_seconds=60.0, grace_seconds=60.0)
    tid, host, other = two_people(c)
    use_session(c, other)
    assert c.post(f"/api/tables/{tid}/join", json={"stake": 10}).status_code == 200
    use_session(c, host)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws_host:
        hello(ws_host)
        use_session(c, other)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws_other:
            snap = hello(ws_other)
            assert snap["status"] == "playing"
            assert [s["auto"] for s in snap["seats"]] == [False, False]
            _autoplay(ws_host, True)
            assert _seats_auto(ws_other) == [True, False]  # everybody sees the badge
            # the other person answers their own questions; nobody answers the host's
            last = play_out(ws_other, 1, snap, lambda legal: legal[0])
    assert last["result"]["game_id"]
    moves = store.journal(c.app.state.hub.engine, last["result"]["game_id"])[1]  # type: ignore[attr-defined]
    host_moves = [m for m in moves if m["seat"] == 0]
    assert host_moves and not any(m["timed_out"] for m in moves)
    assert calls and set(calls) == {(0, "normal")}  # the host's seat only, the normal bot
    assert len(calls) == len(host_moves)


def test_autoplay_off_gives_the_seat_back(make_client: Callable[..., TestClient]) -> None:
    c = make_client(turn_seconds=60.0, bot_delay=0.1)  # the bot's pace: time to take it back
    register(c)
    tid = new_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws)
        room = _room(c, tid)
        _autoplay(ws, True)
        assert _seats_auto(ws) == [True, False]
        _until(lambda: sum(m["seat"] == 0 for m in _moves(c, tid)) >= 2)
        _autoplay(ws, False)
        assert _seats_auto(ws) == [False, False]
        assert room.session is not None and not room.session.over
        _until(lambda: room.session.pending() == [0] and 0 in room.asked)  # type: ignore[union-attr]
        before = len(_moves(c, tid))
        time.sleep(0.6)  # the bot's pace is 0.1 s: it would have played by now
        assert len(_moves(c, tid)) == before and room.session.pending() == [0]
        # the person plays for themselves again
        snap = hello(ws)
        ws.send_text(
            json.dumps(
                {"type": "act", "version": snap["version"], "action": snap["prompt"]["legal"][0]}
            )
        )
        _until(lambda: len(_moves(c, tid)) > before)
        assert _moves(c, tid)[before]["seat"] == 0


def test_autoplay_refuses_spectators_and_bad_values(client: TestClient) -> None:
    register(client)
    tid = new_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as player:
        hello(player)
        for bad in ("true", 1, None, [True]):
            _autoplay(player, bad)
            err = recv_until(player, "error")
            assert err["code"] == "bad_autoplay", err
        player.send_text(json.dumps({"type": "autoplay"}))
        assert recv_until(player, "error")["code"] == "bad_autoplay"
        client.cookies.clear()
        with client.websocket_connect(f"/ws/tables/{tid}") as spectator:
            hello(spectator)
            _autoplay(spectator, True)
            assert recv_until(spectator, "error")["code"] == "not_seated"
        room = _room(client, tid)
        assert [s.auto for s in room.seats] == [False, False]  # nothing changed


def test_autoplay_survives_a_reconnect(make_client: Callable[..., TestClient]) -> None:
    c = make_client(turn_seconds=60.0, grace_seconds=60.0)
    register(c)
    tid = new_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws)
        _autoplay(ws, True)
        assert _seats_auto(ws) == [True, False]
    room = _room(c, tid)
    played = len(_moves(c, tid))
    # away (and within the grace, so the seat is not "away"-controlled): the bot plays on
    _until(lambda: room.session.over or len(_moves(c, tid)) > played + 1)  # type: ignore[union-attr]
    assert not room.seats[0].bot_control
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_text(json.dumps({"type": "hello", "last_version": None}))
        welcome = recv_until(ws, "welcome")
        assert welcome["table"]["seats"][0]["auto"] is True
        snap = recv_until(ws, "snapshot")
        assert snap["seats"][0]["auto"] is True
        _autoplay(ws, False)
        assert _seats_auto(ws) == [False, False]


def test_autoplay_plays_a_mahjong_hand_with_its_claims(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _spy_bot_moves(monkeypatch, MahjongSession)
    c = make_client(turn_seconds=60.0, claim_decision_seconds=60.0)
    register(c)
    tid = new_table(c, MAHJONG_VS_BOTS)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws)
        _autoplay(ws, True)
        assert _seats_auto(ws) == [True, False, False, False]
        for _ in range(5000):  # the person never acts: the hand plays itself to its end
            m = recv_until(ws, "update")
            if "result" in m:
                break
        else:  # pragma: no cover
            raise AssertionError("the hand did not end")
    moves = store.journal(c.app.state.hub.engine, m["result"]["game_id"])[1]  # type: ignore[attr-defined]
    mine = [mv for mv in moves if mv["seat"] == 0]
    assert mine and not any(mv["timed_out"] for mv in moves)
    assert {lvl for seat, lvl in calls if seat == 0} == {"normal"}
    assert sum(seat == 0 for seat, _ in calls) == len(mine)
