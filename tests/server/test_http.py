"""Accounts, lobby and reading endpoints against the real app (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import START, recv_until, register, use_session


def error_code(r: object) -> str:
    code: str = r.json()["error"]["code"]  # type: ignore[attr-defined]
    return code


def test_register_login_logout(client: TestClient) -> None:
    user = register(client)
    assert user["username"] == "minsu" and not user["guest"]
    cookie = client.cookies.get("madang_session")
    assert cookie
    me = client.get("/api/me").json()
    assert me["balance"] == START and me["ratings"]["matgo"]["rating"] == 1500
    assert client.post("/api/logout").json() == {"ok": True}
    client.cookies.clear()
    assert error_code(client.get("/api/me")) == "unauthorized"
    r = client.post("/api/login", json={"username": "minsu", "password": "secret1"})
    assert r.status_code == 200 and r.json()["user"]["id"] == user["id"]
    set_cookie = r.headers["set-cookie"].lower()
    assert "httponly" in set_cookie and "samesite=lax" in set_cookie


def test_session_answers_without_a_401(client: TestClient) -> None:
    assert client.get("/api/session").json() == {"user": None}
    register(client)
    got = client.get("/api/session").json()
    assert got["user"]["username"] == "minsu" and got["balance"] == START


def test_old_session_dies_on_logout(client: TestClient) -> None:
    register(client)
    token = client.cookies.get("madang_session")
    client.post("/api/logout")
    use_session(client, token)
    assert client.get("/api/me").status_code == 401


def _login(c: TestClient, name: str = "minsu", password: str = "secret1") -> str:
    c.cookies.clear()
    r = c.post("/api/login", json={"username": name, "password": password})
    assert r.status_code == 200, r.text
    token: str = r.cookies["madang_session"]
    return token


def _me(c: TestClient, token: str) -> int:
    use_session(c, token)
    return c.get("/api/me").status_code


def test_logout_everywhere_ends_every_session_of_the_account(client: TestClient) -> None:
    """§3.8 of the second security review: a session opened elsewhere (here two more
    logins) ends too; another account's does not. A plain logout ends only its own."""
    register(client)
    here = client.cookies.get("madang_session")
    assert here
    elsewhere, phone = _login(client), _login(client)
    register(client, "younghee")
    other = client.cookies.get("madang_session")
    assert other
    use_session(client, phone)
    assert client.post("/api/logout").json() == {"ok": True}  # this device only
    assert [_me(client, t) for t in (here, elsewhere, phone)] == [200, 200, 401]
    use_session(client, here)
    r = client.post("/api/logout", json={"everywhere": True})
    assert r.status_code == 200 and r.json() == {"ok": True, "ended": 2}
    assert "max-age=0" in r.headers["set-cookie"].lower()  # this browser's cookie is cleared
    assert [_me(client, t) for t in (here, elsewhere, other)] == [401, 401, 200]
    again = _login(client)  # the account itself is untouched
    assert _me(client, again) == 200


def test_a_guest_logs_out_everywhere_too(client: TestClient) -> None:
    assert client.post("/api/guest", json={}).status_code == 201
    token = client.cookies.get("madang_session")
    assert token
    r = client.post("/api/logout", json={"everywhere": True})
    assert r.json() == {"ok": True, "ended": 1}
    assert _me(client, token) == 401


def test_logout_everywhere_refuses_bad_input_and_changes_nothing(client: TestClient) -> None:
    register(client)
    token = client.cookies.get("madang_session")
    assert token
    for bad in ({"everywhere": "yes"}, {"everywhere": 1}, {"everywhere": None}):
        r = client.post("/api/logout", json=bad)
        assert r.status_code == 400 and error_code(r) == "bad_request", bad
        assert _me(client, token) == 200
    client.cookies.clear()
    r = client.post("/api/logout", json={"everywhere": True})  # whose sessions?
    assert r.status_code == 401 and error_code(r) == "unauthorized"
    assert _me(client, token) == 200


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"username": "ab", "password": "secret1"}, "bad_request"),
        ({"username": "has space", "password": "secret1"}, "bad_request"),
        ({"username": "bot-easy", "password": "secret1"}, "bad_request"),
        ({"username": "minsu2", "password": "short"}, "bad_request"),
        ({"username": 5, "password": "secret1"}, "bad_request"),
        ({"username": "minsu"}, "bad_request"),
    ],
    ids=["short-name", "space", "reserved", "short-password", "number-name", "no-password"],
)
def test_register_rejects_bad_input(client: TestClient, body: dict[str, object], code: str) -> None:
    r = client.post("/api/register", json=body)
    assert r.status_code == 400 and error_code(r) == code


def test_duplicate_name_and_bad_credentials(client: TestClient) -> None:
    register(client)
    client.cookies.clear()
    r = client.post("/api/register", json={"username": "minsu", "password": "another1"})
    assert r.status_code == 409 and error_code(r) == "username_taken"
    r = client.post("/api/login", json={"username": "minsu", "password": "wrong!!"})
    assert r.status_code == 401 and error_code(r) == "bad_credentials"
    r = client.post("/api/login", json={"username": "nobody", "password": "wrong!!"})
    assert r.status_code == 401


def test_login_throttling(make_client: Callable[..., TestClient]) -> None:
    c = make_client(login_failures=3)
    register(c)
    c.cookies.clear()
    for _ in range(3):
        assert (
            c.post("/api/login", json={"username": "minsu", "password": "nope!!"}).status_code
            == 401
        )
    r = c.post("/api/login", json={"username": "minsu", "password": "secret1"})
    assert r.status_code == 429 and error_code(r) == "throttled"
    assert r.json()["error"]["retry_after"] > 0


def test_guest_then_register_keeps_the_account(client: TestClient) -> None:
    r = client.post("/api/guest")
    assert r.status_code == 201
    guest = r.json()["user"]
    assert guest["guest"] and guest["username"].startswith("guest-")
    user = register(client, "jiyoung")
    assert user["id"] == guest["id"] and not user["guest"]


def test_bodies_malformed_and_oversized(client: TestClient) -> None:
    r = client.post("/api/register", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and error_code(r) == "bad_request"
    r = client.post(
        "/api/register", content=b"[1, 2]", headers={"content-type": "application/json"}
    )
    assert error_code(r) == "bad_request"
    r = client.post("/api/register", content=b"[1, 2]")  # no media type: not JSON
    assert r.status_code == 415 and error_code(r) == "bad_media_type"
    r = client.post("/api/register", content=b"x" * (70 * 1024))
    assert r.status_code == 413 and error_code(r) == "too_large"


def test_config_and_static(client: TestClient) -> None:
    cfg = client.get("/api/config").json()
    assert cfg["games"]["matgo"]["seats"] == 2 and cfg["games"]["mahjong"]["seats"] == 4
    assert "default" in cfg["games"]["matgo"]["presets"]
    assert cfg["bot_levels"] == ["easy", "normal", "hard"]
    r = client.get("/")
    assert r.status_code == 200 and "html" in r.headers["content-type"]
    assert client.get("/table/3").status_code == 200  # client-side route
    r = client.get("/api/nothing")
    assert r.status_code == 404 and error_code(r) == "not_found"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "poker", "seats": []}, "bad_request"),
        (
            {"game": "matgo", "preset": "nope", "seats": [{"kind": "human"}, {"kind": "bot"}]},
            "rule_config",
        ),
        ({"game": "matgo", "seats": [{"kind": "human"}]}, "bad_request"),
        ({"game": "matgo", "seats": [{"kind": "bot"}, {"kind": "bot"}]}, "bad_request"),
        (
            {"game": "matgo", "stake": 0, "seats": [{"kind": "human"}, {"kind": "bot"}]},
            "bad_request",
        ),
        (
            {"game": "matgo", "seats": [{"kind": "human"}, {"kind": "bot", "level": "god"}]},
            "bad_request",
        ),
        ({"game": "matgo", "seats": [{"kind": "human"}, {"kind": "alien"}]}, "bad_request"),
    ],
    ids=[
        "unknown-game",
        "unknown-preset",
        "too-few-seats",
        "no-person",
        "zero-stake",
        "unknown-level",
        "unknown-kind",
    ],
)
def test_create_table_rejects(client: TestClient, body: dict[str, object], code: str) -> None:
    register(client)
    r = client.post("/api/tables", json=body)
    assert error_code(r) == code
    assert client.get("/api/tables").json()["tables"] == []


def test_create_join_and_private_tables(make_client: Callable[..., TestClient]) -> None:
    a = make_client()
    register(a, "host1")
    assert (
        a.post("/api/tables", json={"game": "matgo", "seats": [{"kind": "human"}] * 2}).status_code
        == 201
    )
    r = a.post(
        "/api/tables",
        json={"game": "matgo", "private": True, "stake": 100, "seats": [{"kind": "human"}] * 2},
    )
    private = r.json()
    tid = private["table"]["id"]
    assert private["invite_url"].endswith(private["table"]["invite"])
    lobby = a.get("/api/tables").json()["tables"]
    assert [t["id"] for t in lobby] == [tid - 1]  # the private one is not listed
    assert "invite" not in lobby[0]
    b = a  # one client (one event loop); users differ by their cookies
    a.cookies.clear()
    register(b, "guest1x")
    r = b.post(f"/api/tables/{tid}/join", json={"stake": 100})
    assert r.status_code == 403 and error_code(r) == "forbidden"
    assert error_code(b.get(f"/api/tables/{tid}")) == "forbidden"
    r = b.post(f"/api/tables/{tid}/join", json={"invite": private["table"]["invite"], "stake": 100})
    assert r.status_code == 200 and r.json()["seat"] == 1
    assert r.json()["table"]["status"] == "waiting"  # dealt once both are connected
    c = a
    a.cookies.clear()
    register(c, "third1")
    r = c.post(f"/api/tables/{tid}/join", json={"invite": private["table"]["invite"], "stake": 100})
    assert error_code(r) == "table_full"
    r = c.post(f"/api/tables/{tid - 1}/join", json={"seat": 0, "stake": 1})
    assert error_code(r) == "seat_taken"
    assert error_code(c.post("/api/tables/999/join", json={"stake": 1})) == "not_found"


def test_leave_before_start_frees_the_seat(client: TestClient) -> None:
    register(client, "host1")
    host = client.cookies.get("madang_session")
    tid = client.post(
        "/api/tables", json={"game": "matgo", "seats": [{"kind": "human"}] * 2}
    ).json()["table"]["id"]
    client.cookies.clear()
    register(client, "other1")
    other = client.cookies.get("madang_session")
    assert client.post(f"/api/tables/{tid}/join", json={"stake": 1}).json()["seat"] == 1
    use_session(client, host)
    assert client.post(f"/api/tables/{tid}/leave").json() == {"ok": True}
    seats = client.get(f"/api/tables/{tid}").json()["table"]["seats"]
    assert seats[0]["username"] is None and seats[1]["username"] == "other1"
    assert error_code(client.post(f"/api/tables/{tid}/leave")) == "not_seated"
    use_session(client, other)  # the last person leaves: the table closes
    assert client.post(f"/api/tables/{tid}/leave").json() == {"ok": True}
    assert error_code(client.get(f"/api/tables/{tid}")) == "not_found"


def test_reading_endpoints_need_valid_arguments(client: TestClient) -> None:
    register(client)
    assert error_code(client.get("/api/ledger?limit=x")) == "bad_request"
    assert error_code(client.get("/api/games?game=chess")) == "bad_request"
    assert error_code(client.get("/api/games?user=nobody")) == "not_found"
    assert error_code(client.get("/api/games/12345")) == "not_found"
    assert error_code(client.get("/api/games/12345/replay")) == "not_found"
    assert error_code(client.get("/api/leaderboard?game=go")) == "bad_request"
    for bad in ("0", "1001"):  # a minimum of rated games outside 1-1000 (U17)
        assert error_code(client.get(f"/api/leaderboard?min_games={bad}")) == "bad_request"
    assert client.get("/api/leaderboard?game=mahjong").json() == {
        "game": "mahjong",
        "min_games": 10,
        "entries": [],
    }


def test_a_table_plays_a_preset_with_options_changed(client: TestClient) -> None:
    register(client)
    body = {
        "game": "matgo",
        "preset": "default",
        "rules": {"bonus_steals_pi": True, "gukjin": "ask"},
        "seats": [{"kind": "human"}, {"kind": "bot"}],
    }
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    assert table["rules"] == {"bonus_steals_pi": True, "gukjin": "ask"}
    assert table["rules_in_force"]["bonus_steals_pi"] is True
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"type": "hello"})
        snap = recv_until(ws, "snapshot")
    assert snap["view"]["public"]["rules"]["bonus_steals_pi"] is True
    assert snap["view"]["public"]["rules"]["gukjin"] == "ask"
    for bad in ({"no_such": 1}, {"gukjin": "sometimes"}, {"jabbeok": "yes"}, [1], "x"):
        r = client.post("/api/tables", json={**body, "rules": bad})
        assert r.status_code == 400 and error_code(r) == "rule_config", bad
