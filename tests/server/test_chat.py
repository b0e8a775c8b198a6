"""Chat at the table over real WebSockets (issue 27 item 3): emoticons, quick phrases and
free text broadcast to seats and spectators; spectators, guests' free text, bad text and
floods refused with typed errors that change nothing."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from tests.server.conftest import recv_until, register, use_session
from tests.server.test_ws import hello, new_table

from madang.server.chat import EMOTES, PHRASES, TEXT_MAX


def say(ws: Any, **body: Any) -> None:
    ws.send_text(json.dumps({"type": "chat", **body}))


def until_pong(ws: Any) -> list[dict[str, Any]]:
    """Everything the socket gets before the answer to a ``hello`` sent now: the room
    handles its queue in order, so what the messages sent before caused comes first
    (the snapshot that answers it is read and dropped)."""
    ws.send_text(json.dumps({"type": "hello", "last_version": None}))
    got = []
    for _ in range(1000):
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == "welcome":
            recv_until(ws, "snapshot")
            return got
        got.append(m)
    raise AssertionError("no welcome")


def chats(msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in msgs if m["type"] == "chat"]


def test_chat_is_broadcast_to_the_seats_and_spectators_and_changes_no_stream(
    client: TestClient,
) -> None:
    register(client)
    token = client.cookies.get("madang_session")
    tid = new_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as player:
        snap = hello(player)
        use_session(client, None)
        with client.websocket_connect(f"/ws/tables/{tid}") as watcher:
            hello(watcher)
            until_pong(player)  # the deal's updates, if any, are read
            say(player, emote="joy", ref=1)
            say(player, phrase="hurry")
            say(player, text="  잘 부탁드립니다 ")
            sent = [
                {"type": "chat", "seat": 0, "emote": "joy"},
                {"type": "chat", "seat": 0, "phrase": "hurry"},
                {"type": "chat", "seat": 0, "text": "잘 부탁드립니다"},
            ]
            assert chats(until_pong(player)) == sent
            assert chats(until_pong(watcher)) == sent
        # chat is no update: the stream's version did not move, nothing was missed
        player.send_text(json.dumps({"type": "hello", "last_version": snap["version"]}))
        welcome = recv_until(player, "welcome")
        assert welcome["version"] == snap["version"]
        assert [m for m in until_pong(player) if m["type"] in ("update", "snapshot")] == []
    use_session(client, token)
    got = client.get("/api/chat").json()
    assert [e["id"] for e in got["emotes"]] == list(EMOTES)
    assert [p["text"] for p in got["phrases"]] == list(PHRASES.values())
    assert got["text"] is True and got["text_max"] == TEXT_MAX


def test_a_spectator_is_refused_and_nobody_hears_it(client: TestClient) -> None:
    register(client)
    tid = new_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as player:
        hello(player)
        until_pong(player)
        for token in (None, "registered"):
            if token is None:
                use_session(client, None)  # an anonymous spectator
            else:
                register(client, "yeonghui")  # a registered one, not seated
            with client.websocket_connect(f"/ws/tables/{tid}") as watcher:
                hello(watcher)
                say(watcher, emote="angry", ref=7)
                err = recv_until(watcher, "error")
                assert (err["code"], err["ref"]) == ("not_seated", 7)
                assert chats(until_pong(watcher)) == []
        assert chats(until_pong(player)) == []


def test_guests_send_emoticons_but_no_free_text(client: TestClient) -> None:
    assert client.post("/api/guest").status_code in (200, 201)
    assert client.get("/api/chat").json()["text"] is False
    tid = new_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws)
        say(ws, text="안녕")
        assert recv_until(ws, "error")["code"] == "chat_off"
        assert chats(until_pong(ws)) == []
        say(ws, emote="sad")
        assert chats(until_pong(ws)) == [{"type": "chat", "seat": 0, "emote": "sad"}]


def test_the_server_can_turn_free_text_off(make_client: Callable[..., TestClient]) -> None:
    c = make_client(chat_text=False)
    register(c)
    assert c.get("/api/chat").json()["text"] is False
    tid = new_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws)
        say(ws, text="hello")
        assert recv_until(ws, "error")["code"] == "chat_off"
        say(ws, phrase="again")
        assert chats(until_pong(ws)) == [{"type": "chat", "seat": 0, "phrase": "again"}]


def test_one_connection_is_rate_limited(make_client: Callable[..., TestClient]) -> None:
    c = make_client(chat_per_s=0.5, chat_burst=3.0, chat_limit="100/minute")
    register(c)
    tid = new_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws)
        for _ in range(6):
            say(ws, emote="laugh")
        got = until_pong(ws)
        errors = [m for m in got if m["type"] == "error"]
        assert len(chats(got)) == 3
        assert [e["code"] for e in errors] == ["rate_limited"] * 3
        assert all(0 < e["retry_after"] <= 2.0 for e in errors)
        ws.send_text(json.dumps({"type": "ping"}))  # other messages are not chat's
        assert recv_until(ws, "pong")["server_time"] > 0


def test_one_account_is_rate_limited_over_its_connections(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(chat_per_s=100.0, chat_burst=100.0, chat_limit="3/minute")
    register(c)
    tid = new_table(c)
    with (
        c.websocket_connect(f"/ws/tables/{tid}") as a,
        c.websocket_connect(f"/ws/tables/{tid}") as b,
    ):
        hello(a)
        hello(b)
        for ws in (a, b, a):
            say(ws, emote="cheer")
        until_pong(a)
        say(b, emote="cheer")  # the fourth in a minute, from the other tab
        got = until_pong(b)
        assert len(chats(got)) == 3  # b heard the three, not the fourth
        err = [m for m in got if m["type"] == "error"]
        assert len(err) == 1 and err[0]["code"] == "rate_limited"
        assert 0 < err[0]["retry_after"] <= 60


BAD: list[tuple[str, dict[str, Any]]] = [
    ("control", {"text": "hi\x07there"}),
    ("newline", {"text": "a\nb"}),
    ("nul", {"text": "a\x00"}),
    ("rlo", {"text": "abc\u202edef"}),
    ("rlm", {"text": "\u200f안녕"}),
    ("isolate", {"text": "\u2066x\u2069"}),
    ("zero-width", {"text": "a\u200bb"}),
    ("bom", {"text": "\ufeffhey"}),
    ("hangul-filler", {"text": "\u3164\u3164"}),
    ("line-separator", {"text": "a\u2028b"}),
    ("private-use", {"text": "\ue000"}),
    ("zalgo", {"text": "a\u0301\u0302\u0303\u0304"}),
    ("too-long", {"text": "가" * (TEXT_MAX + 1)}),
    ("huge", {"text": "가" * 300}),
    ("empty", {"text": ""}),
    ("blank", {"text": "   "}),
    ("int-text", {"text": 5}),
    ("list-text", {"text": ["hi"]}),
    ("null-text", {"text": None}),
    ("unknown-emote", {"emote": "rage"}),
    ("emote-int", {"emote": 1}),
    ("emote-dict", {"emote": {"id": "joy"}}),
    ("unknown-phrase", {"phrase": "insult"}),
    ("phrase-text", {"phrase": "빨리 좀 치세요~"}),
    ("two-kinds", {"emote": "joy", "phrase": "hurry"}),
    ("none", {}),
    ("html-id", {"emote": "<img src=x>"}),
]


def test_bad_chat_is_a_typed_error_that_changes_nothing(
    make_client: Callable[..., TestClient],
) -> None:
    """Every bad message of :data:`BAD` in turn at one table (one app per backend keeps
    the suite fast): ``bad_chat`` and nothing said, the table as it was."""
    client = make_client(
        chat_per_s=100.0,
        chat_burst=100.0,
        chat_limit="1000/minute",
        rate_per_s=1000.0,
        rate_burst=1000.0,
    )
    register(client)
    tid = new_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        until_pong(ws)
        for case, body in BAD:
            say(ws, ref=3, **body)
            got = until_pong(ws)
            assert [(m["type"], m.get("code")) for m in got] == [("error", "bad_chat")], case
        # the table is as it was: the same version, the same question, and it still talks
        ws.send_text(json.dumps({"type": "hello", "last_version": None}))
        again = recv_until(ws, "snapshot")
        assert again["version"] == snap["version"]
        assert again["prompt"]["legal"] == snap["prompt"]["legal"]
        say(ws, emote="think")
        assert chats(until_pong(ws)) == [{"type": "chat", "seat": 0, "emote": "think"}]


def test_text_is_normalised_and_sent_as_text_not_markup(client: TestClient) -> None:
    register(client)
    tid = new_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws)
        say(ws, text=" <b>ＧＧ</b>   ㅋㅋ\u3000")
        assert chats(until_pong(ws)) == [{"type": "chat", "seat": 0, "text": "<b>GG</b> ㅋㅋ"}]


def test_forged_chat_messages_do_not_crash_the_room(
    make_client: Callable[..., TestClient],
) -> None:
    """Random chat messages of every shape: each is answered (a chat or an error), and
    the table then plays on."""
    client = make_client(rate_per_s=1000.0, rate_burst=1000.0)  # the syncing hellos pass
    register(client)
    tid = new_table(client)
    rng = random.Random(27)
    values: list[Any] = [None, 0, -1, 2**60, 1.5, True, "", "joy", "hurry", "x" * 300,
                         [], {}, ["joy"], {"a": 1}, "\ud800", "\u202e", "가나다"]  # fmt: skip
    keys = ["emote", "phrase", "text", "ref", "seat", "type", "version"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = hello(ws)
        until_pong(ws)
        for _ in range(60):
            body: dict[str, Any] = {"type": "chat"}
            for k in rng.sample(keys, rng.randint(0, 3)):
                body[k] = rng.choice(values)
            try:
                text = json.dumps(body)
            except ValueError:
                continue
            ws.send_text(text)
            got = until_pong(ws)
            assert got and all(m["type"] in ("chat", "error") for m in got), (body, got)
        # still the same game, and it takes a legal move
        ws.send_text(json.dumps({"type": "hello", "last_version": None}))
        again = recv_until(ws, "snapshot")
        assert again["version"] == snap["version"]
        move = snap["prompt"]["legal"][0]
        ws.send_text(json.dumps({"type": "act", "version": again["version"], "action": move}))
        assert recv_until(ws, "update")["version"] > snap["version"]
