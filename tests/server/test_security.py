"""The attacks of issue 10 that the app itself must refuse (the real app, SQLite and
PostgreSQL): forgery from other origins, forms, stakes, names, sessions, throttles,
limits, malformed ids and headers. Those that need a real server socket (ping floods,
chunked uploads, slow clients, forwarded headers) are in ``test_live.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import recv_until, register, use_session

MATGO = {"game": "matgo", "stake": 10, "seats": [{"kind": "human"}, {"kind": "bot"}]}


def code_of(r: Any) -> str:
    c: str = r.json()["error"]["code"]
    return c


# ---------------------------------------------------------------------- 5. forgery


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "http://testserver:9999"},  # another port of the same host
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site", "origin": "http://testserver"},
    ],
    ids=["other-site", "other-port", "null-origin", "cross-site", "same-site"],
)
def test_cross_origin_posts_are_refused_and_change_nothing(
    client: TestClient, headers: dict[str, str]
) -> None:
    register(client)
    r = client.post("/api/tables", json=MATGO, headers=headers)
    assert r.status_code == 403 and code_of(r) == "forbidden"
    assert client.get("/api/tables").json()["tables"] == []
    r = client.post("/api/logout", json={}, headers=headers)
    assert r.status_code == 403
    r = client.post("/api/logout", json={"everywhere": True}, headers=headers)
    assert r.status_code == 403
    assert client.get("/api/me").status_code == 200  # still logged in


def test_same_origin_posts_pass(client: TestClient) -> None:
    register(client)
    for headers in (
        {"origin": "http://testserver", "sec-fetch-site": "same-origin"},
        {"origin": "http://testserver"},
        {},  # not a browser: no cookie of a victim comes with it
    ):
        r = client.post("/api/tables", json={**MATGO, "private": True}, headers=headers)
        assert r.status_code == 201, r.text
        client.post(f"/api/tables/{r.json()['table']['id']}/leave", json={})


def test_allowed_origins_are_configurable(make_client: Callable[..., TestClient]) -> None:
    c = make_client(allowed_origins=("https://madang.example",))
    r = c.post("/api/guest", json={}, headers={"origin": "https://madang.example"})
    assert r.status_code == 201
    r = c.post("/api/guest", json={}, headers={"origin": "https://other.example"})
    assert r.status_code == 403


def test_login_forgery_by_form_is_refused(client: TestClient) -> None:
    """A form on another site posting the attacker's name and password (login CSRF)."""
    register(client, "attacker")
    client.cookies.clear()
    form = "username=attacker&password=secret1"
    for ctype in ("application/x-www-form-urlencoded", "text/plain", "multipart/form-data"):
        r = client.post("/api/login", content=form, headers={"content-type": ctype})
        assert r.status_code == 415 and code_of(r) == "bad_media_type"
        assert "set-cookie" not in r.headers
    r = client.post(
        "/api/login",
        json={"username": "attacker", "password": "secret1"},
        headers={"origin": "http://evil.example"},
    )
    assert r.status_code == 403 and "set-cookie" not in r.headers


def test_cross_origin_websocket_is_refused(client: TestClient) -> None:
    register(client)
    tid = client.post("/api/tables", json=MATGO).json()["table"]["id"]
    for headers in ({"origin": "http://evil.example"}, {"origin": "http://testserver:9999"}):
        with (
            pytest.raises(WebSocketDisconnect) as e,
            client.websocket_connect(f"/ws/tables/{tid}", headers=headers) as ws,
        ):
            ws.receive_json()
        assert e.value.code == 4403
    with client.websocket_connect(
        f"/ws/tables/{tid}", headers={"origin": "http://testserver"}
    ) as ws:
        ws.send_json({"type": "hello"})
        recv_until(ws, "welcome")


def test_security_headers_on_every_answer(client: TestClient) -> None:
    for path in ("/", "/api/config", "/static/app.js", "/api/nothing"):
        h = client.get(path).headers
        assert "frame-ancestors 'none'" in h["content-security-policy"], path
        assert "script-src 'self'" in h["content-security-policy"]
        assert h["x-content-type-options"] == "nosniff"
        assert h["referrer-policy"] == "no-referrer"
        assert h["x-frame-options"] == "DENY"
        assert "strict-transport-security" not in h


def test_secure_cookie_flag_and_hsts(make_client: Callable[..., TestClient]) -> None:
    c = make_client(secure_cookie=True)
    r = c.post("/api/guest", json={})
    assert "secure" in r.headers["set-cookie"].lower()
    assert r.headers["strict-transport-security"].startswith("max-age=")


# ---------------------------------------------------------------------- 6. stakes


@pytest.mark.parametrize("stake", [1_000_000, 2, 0, -10, "10", 10.0, None, True])
def test_only_advertised_stakes(client: TestClient, stake: object) -> None:
    register(client)
    r = client.post("/api/tables", json={**MATGO, "stake": stake})
    assert r.status_code == 400 and "stake" in r.json()["error"]["message"]
    assert client.get("/api/tables").json()["tables"] == []


def test_joining_needs_the_stake_confirmed(client: TestClient) -> None:
    """A link to /table/ID must not seat anyone at a stake they were not shown."""
    register(client, "host1")
    body = {"game": "matgo", "stake": 1000, "seats": [{"kind": "human"}] * 2}
    tid = client.post("/api/tables", json=body).json()["table"]["id"]
    client.cookies.clear()
    register(client, "victim")
    for sent in ({}, {"stake": 1}, {"stake": "1000"}, {"stake": 1000.0}):
        r = client.post(f"/api/tables/{tid}/join", json=sent)
        assert r.status_code == 409 and code_of(r) == "stake_unconfirmed", sent
        assert "1000" in r.json()["error"]["message"]
    seats = client.get(f"/api/tables/{tid}").json()["table"]["seats"]
    assert seats[1]["username"] is None
    r = client.post(f"/api/tables/{tid}/join", json={"stake": 1000})
    assert r.status_code == 200 and r.json()["seat"] == 1


def test_configured_stakes(make_client: Callable[..., TestClient]) -> None:
    c = make_client(stakes=(5, 50))
    register(c)
    assert c.get("/api/config").json()["stakes"] == [5, 50]
    assert c.post("/api/tables", json={**MATGO, "stake": 10}).status_code == 400
    assert c.post("/api/tables", json={**MATGO, "stake": 50}).status_code == 201


# ---------------------------------------------------------------------- 8. no 500s


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/tables", {**MATGO, "game": []}),
        ("post", "/api/tables", {**MATGO, "game": {}}),
        ("post", "/api/tables", {**MATGO, "preset": ["x"]}),
        ("post", "/api/tables", {**MATGO, "seats": [{"kind": "bot", "level": []}, {}]}),
        ("post", "/api/tables", {**MATGO, "seats": [{"kind": []}, {"kind": "bot"}]}),
        ("get", f"/api/games/{2**63}", None),
        ("get", f"/api/games/{2**31}", None),
        ("get", "/api/games/0", None),
        ("get", f"/api/games/{2**63}/replay", None),
        ("get", f"/api/games?before={2**63}", None),
        ("get", f"/api/games?before={2**31 + 5}", None),
        ("get", f"/api/ledger?before={2**63}", None),
        ("get", "/api/ledger?limit=many", None),
        ("get", f"/api/tables/{2**63}", None),
        ("get", "/api/games?user=%ED%A0%80", None),  # a lone surrogate, UTF-8-encoded
        ("get", "/api/games?user=a%00b", None),
        ("post", "/api/login", {"username": "\ud800abc", "password": "secret1"}),
        ("post", "/api/register", {"username": "\ud800abc", "password": "secret1"}),
        ("post", "/api/register", {"username": "minsu2", "password": "\ud800secret"}),
        ("post", f"/api/tables/{2**63}/join", {}),
    ],
)
def test_malformed_input_is_a_4xx(
    client: TestClient, method: str, path: str, body: dict[str, Any] | None
) -> None:
    register(client)
    if body is None:
        r = client.request(method, path)
    else:
        import json

        raw = json.dumps(body)  # keeps lone surrogates as \\ud800 escapes
        r = client.request(method, path, content=raw, headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    assert r.json()["error"]["message"]


# ---------------------------------------------------------------------- 10. names


@pytest.mark.parametrize(
    "name",
    [
        "minsu\n",
        "min\u200bsu",  # zero-width space
        "min\u00adsu",  # soft hyphen (format)
        "\u3164\u3164\u3164",  # Hangul filler
        "\u115f\u1160\u115f",
        "ab\x07cd",
        "bot-easy",
        "BOT-EASY",
        "b0t-easy",
        "bot_easy",
        "Guest-123",
        "ｂｏｔ－ｅａｓｙ",  # fullwidth
        "bоt-easy",  # Cyrillic о
        "minsu ",
    ],
    ids=repr,
)
def test_bad_and_reserved_names_are_refused(client: TestClient, name: str) -> None:
    r = client.post("/api/register", json={"username": name, "password": "secret1"})
    assert r.status_code == 400 and code_of(r) == "bad_request", name


@pytest.mark.parametrize("twin", ["MINSU", "MinSu", "m1nsu", "minsu"], ids=repr)
def test_names_that_look_alike_are_one_name(client: TestClient, twin: str) -> None:
    register(client, "minsu")
    client.cookies.clear()
    r = client.post("/api/register", json={"username": twin, "password": "secret1"})
    assert r.status_code == 409 and code_of(r) == "username_taken"


def test_login_ignores_case_and_width(client: TestClient) -> None:
    register(client, "Minsu")
    client.cookies.clear()
    for name in ("minsu", "MINSU", "ｍｉｎｓｕ"):
        r = client.post("/api/login", json={"username": name, "password": "secret1"})
        assert r.status_code == 200 and r.json()["user"]["username"] == "Minsu"
    r = client.post("/api/login", json={"username": "m1nsu", "password": "secret1"})
    assert r.status_code == 401  # a look-alike is not the name


def test_nfkc_name_is_stored_normalised(client: TestClient) -> None:
    user = register(client, "ＪｉＹｏｕｎｇ")
    assert user["username"] == "JiYoung"


def test_a_name_keeps_its_hangul_jamo_as_typed(client: TestClient) -> None:
    """ㅋㅋ in a name is not turned into syllable parts (NFKC would: then refused)."""
    user = register(client, "ㅋㅋ민수")
    assert user["username"] == "ㅋㅋ민수"


# ---------------------------------------------------------------------- 11. sessions


def test_guest_upgrade_ends_the_guest_sessions(client: TestClient) -> None:
    client.post("/api/guest", json={})
    guest_token = client.cookies.get("madang_session")
    register(client, "jiyoung")
    new_token = client.cookies.get("madang_session")
    assert new_token != guest_token
    use_session(client, guest_token)
    assert client.get("/api/me").status_code == 401
    use_session(client, new_token)
    assert client.get("/api/me").json()["user"]["username"] == "jiyoung"


def test_login_rotates_the_session(client: TestClient) -> None:
    register(client)
    old = client.cookies.get("madang_session")
    r = client.post("/api/login", json={"username": "minsu", "password": "secret1"})
    assert r.status_code == 200
    new = client.cookies.get("madang_session")
    assert new and new != old
    use_session(client, old)
    assert client.get("/api/me").status_code == 401


# ---------------------------------------------------------------------- 7. login throttle


def fail_login(c: TestClient, name: str, n: int, device: str | None = None) -> None:
    for _ in range(n):
        c.cookies.clear()
        if device:
            c.cookies.set("madang_device", device)
        r = c.post("/api/login", json={"username": name, "password": "wrong-pw"})
        assert r.status_code in (401, 429)


def login(c: TestClient, name: str, device: str | None = None, **kw: Any) -> Any:
    c.cookies.clear()
    if device:
        c.cookies.set("madang_device", device)
    return c.post("/api/login", json={"username": name, "password": "secret1"}, **kw)


def test_an_attacker_cannot_lock_the_owner_out(make_client: Callable[..., TestClient]) -> None:
    c = make_client(login_failures=3, login_name_failures=6, login_address_failures=1000)
    register(c)
    device = c.cookies.get("madang_device")
    assert device
    # The attacker shares the owner's address (the test client's): the pair is blocked …
    fail_login(c, "minsu", 3)
    assert login(c, "minsu").status_code == 429
    # … but the owner's browser, which holds the device cookie, logs in.
    assert login(c, "minsu", device).status_code == 200
    # and a guesser who stole nothing but sends a made-up device cookie is a stranger
    assert login(c, "minsu", "made-up").status_code == 429


def test_guessing_many_names_from_one_address_is_throttled(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(login_address_failures=4)
    for name in ("aaa1", "bbb2", "ccc3", "ddd4"):
        fail_login(c, name, 1)
    r = login(c, "eee5")
    assert r.status_code == 429 and code_of(r) == "throttled"


def test_guessing_one_name_from_many_places_blocks_only_strangers(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(login_name_failures=3)
    register(c)
    device = c.cookies.get("madang_device")
    hub = c.app.state.hub  # type: ignore[attr-defined]
    for i in range(3):  # three attacking addresses, one failure each
        hub.throttle.fail("minsu", f"10.0.0.{i}", None)
    assert login(c, "minsu").status_code == 429  # a new browser must wait
    assert login(c, "minsu", device).status_code == 200  # a known one need not


# ---------------------------------------------------------------------- 3. registration


def test_taken_name_is_refused_before_hashing(client: TestClient) -> None:
    register(client)
    client.cookies.clear()
    hub = client.app.state.hub  # type: ignore[attr-defined]
    calls: list[str] = []
    real = hub.passwords.hash
    hub.passwords.hash = lambda pw: calls.append(pw) or real(pw)
    r = client.post("/api/register", json={"username": "MINSU", "password": "secret1"})
    assert r.status_code == 409 and calls == []


def test_registration_is_throttled_per_address(make_client: Callable[..., TestClient]) -> None:
    c = make_client(register_limit="3/hour")
    for i in range(3):
        c.cookies.clear()
        register(c, f"user{i}")
    c.cookies.clear()
    r = c.post("/api/register", json={"username": "user9", "password": "secret1"})
    assert r.status_code == 429 and code_of(r) == "throttled"
    assert r.json()["error"]["retry_after"] > 0
    c.cookies.clear()
    assert (
        c.post("/api/login", json={"username": "user9", "password": "secret1"}).status_code == 401
    )


def test_hashing_has_its_own_bounded_pool(make_client: Callable[..., TestClient]) -> None:
    import threading

    c = make_client(hash_workers=1, hash_queue=0)
    hub = c.app.state.hub  # type: ignore[attr-defined]
    gate = threading.Event()
    started = threading.Event()
    names: list[str] = []

    def slow_hash(pw: str) -> str:
        names.append(threading.current_thread().name)
        started.set()
        gate.wait(10)
        return "x"

    hub.passwords.hash = slow_hash
    results: list[int] = []
    t = threading.Thread(
        target=lambda: results.append(
            c.post("/api/register", json={"username": "slow1", "password": "secret1"}).status_code
        )
    )
    t.start()
    assert started.wait(10)
    # the one hashing thread is busy: a second registration is answered at once (here
    # "throttled": this address has a hash under way already; from another address
    # "busy", test_login_flood.py) …
    r = c.post("/api/register", json={"username": "slow2", "password": "secret1"})
    assert r.status_code == 429 and code_of(r) == "throttled"
    # … and reads do not wait on the hash
    assert c.get("/api/config").status_code == 200
    gate.set()
    t.join(10)
    assert results == [201] and names[0].startswith("madang-hash")


# ---------------------------------------------------------------------- 12. limits


def test_guest_accounts_per_address(make_client: Callable[..., TestClient]) -> None:
    c = make_client(guest_limit="5/hour")
    for _ in range(5):
        assert c.post("/api/guest", json={}).status_code == 201
    r = c.post("/api/guest", json={})
    assert r.status_code == 429 and code_of(r) == "throttled"


def test_open_tables_per_user(make_client: Callable[..., TestClient]) -> None:
    c = make_client(tables_per_user=2)
    register(c)
    ids = [c.post("/api/tables", json=MATGO).json()["table"]["id"] for _ in range(2)]
    r = c.post("/api/tables", json=MATGO)
    assert r.status_code == 429 and code_of(r) == "too_many_tables"
    c.post(f"/api/tables/{ids[0]}/leave", json={})
    assert c.post("/api/tables", json=MATGO).status_code == 201


def test_silent_websocket_is_closed(make_client: Callable[..., TestClient]) -> None:
    c = make_client(ws_hello_s=0.2, ws_idle_s=0.4)
    register(c)
    tid = c.post("/api/tables", json=MATGO).json()["table"]["id"]
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:  # never says hello
        with pytest.raises(WebSocketDisconnect) as e:
            for _ in range(1000):
                ws.receive_json()
        assert e.value.code == 4408
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:  # says hello, then nothing
        ws.send_json({"type": "hello"})
        with pytest.raises(WebSocketDisconnect) as e:
            for _ in range(1000):
                ws.receive_json()
        assert e.value.code == 4408


def test_websockets_per_address(make_client: Callable[..., TestClient]) -> None:
    c = make_client(ws_per_address=2)
    register(c)
    tid = c.post("/api/tables", json=MATGO).json()["table"]["id"]
    with (
        c.websocket_connect(f"/ws/tables/{tid}") as a,
        c.websocket_connect(f"/ws/tables/{tid}") as b,
    ):
        a.send_json({"type": "hello"})
        b.send_json({"type": "hello"})
        recv_until(a, "welcome")
        recv_until(b, "welcome")
        with (
            pytest.raises(WebSocketDisconnect) as e,
            c.websocket_connect(f"/ws/tables/{tid}") as third,
        ):
            third.receive_json()
        assert e.value.code == 4429


# ---------------------------------------------------------------------- 9. forged types


@pytest.mark.parametrize("kind", [[], ["act"], {"a": 1}, 5, None, True])
def test_unhashable_message_type_is_bad_message(client: TestClient, kind: object) -> None:
    register(client)
    tid = client.post("/api/tables", json=MATGO).json()["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": kind})
        m = recv_until(ws, "error")
        assert m["code"] == "bad_request" and "type" in m["message"]
        ws.send_json({"type": "hello"})  # the connection lives on
        recv_until(ws, "welcome")
