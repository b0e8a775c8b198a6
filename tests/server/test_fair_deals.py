"""Verifiable deals at the table (issue 27 item 5, ``docs/fairness.md``), over real
WebSockets: the commitment comes before the first card, the seats' entropy is mixed
into the deal, bad entropy is refused with a typed error and changes nothing, the seed
revealed at the end verifies, and a restart mid-game keeps the commitment and deals the
same game. On SQLite and on PostgreSQL (``MADANG_TEST_POSTGRES_URL``)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.server.conftest import play_out, recv_until, register, use_session
from tests.server.test_ws import MATGO_VS_BOT, new_table

from madang.cli import main
from madang.core import fair
from madang.core.errors import MadangError
from madang.core.registry import spec
from madang.server import db

SEED = bytes(range(32))


def _fair_client(make_client: Callable[..., TestClient], **kw: Any) -> TestClient:
    """A server with verifiable deals (no ``deal_seed``) that waits for entropy."""
    return make_client(deal_seed=None, entropy_seconds=kw.pop("entropy_seconds", 30.0), **kw)


def _hello(ws: Any) -> list[dict[str, Any]]:
    """Say hello; the messages up to and including the snapshot, in order."""
    ws.send_text(json.dumps({"type": "hello", "last_version": None}))
    seen = []
    while True:
        m = ws.receive_json()
        seen.append(m)
        if m["type"] == "snapshot":
            return seen


def _send_entropy(ws: Any, value: object) -> None:
    ws.send_text(json.dumps({"type": "fair_entropy", "entropy": value}))


def _deal_update(ws: Any) -> dict[str, Any]:
    """Read until the first update (the deal)."""
    return recv_until(ws, "update")


def _engine(c: TestClient) -> Any:
    return c.app.state.hub.engine  # type: ignore[attr-defined]


def test_commitment_before_the_first_card_entropy_mixed_in_and_the_seed_verifies(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("madang.server.fairdeal.new_seed", lambda: SEED)
    c = _fair_client(make_client)
    register(c)
    tid = new_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = _hello(ws)[-1]
        # the commitment, and no card: the deal waits for the seats' entropy
        assert snap["status"] == "waiting" and snap["view"] is None
        commit = snap["fair"]
        assert set(commit) == {"binding", "commitment"}
        assert SEED.hex() not in json.dumps(snap)
        binding = fair.Binding(**commit["binding"])
        assert binding.table == str(tid) and binding.game_no == 1
        assert fair.commitment(SEED, binding) == commit["commitment"]
        _send_entropy(ws, "alpha 마당")
        ack = recv_until(ws, "fair_ack")
        assert ack == {"type": "fair_ack", "game_no": 1, "entropy": "alpha 마당"}
        deal = _deal_update(ws)
        assert deal["fair"] == {**commit, "entropy": ["alpha 마당", ""]}
        last = play_out(ws, 0, deal, random.Random(3).choice)
    revealed = last["result"]["fair"]
    assert revealed["seed"] == SEED.hex() and revealed["commitment"] == commit["commitment"]
    record = c.get(f"/api/games/{last['result']['game_id']}").json()["record"]
    assert record["fairness"] == revealed
    frames = c.get(f"/api/games/{last['result']['game_id']}/replay").json()["frames"]
    assert len(frames) == len(record["moves"]) + 1  # the replay reads the field
    checked = fair.verify(record, commitment_seen=commit["commitment"])
    # the player's string is in the key: without it the same seed deals another game
    rules = record["rules"]
    assert checked.key == fair.deal_key(SEED, binding, ["alpha 마당", ""])
    other = spec("matgo").fair_deal(rules, fair.deal_key(SEED, binding, ["", ""]), 1)  # type: ignore[misc]
    assert other["deck"] != record["deck"]
    tampered = {**record, "fairness": {**revealed, "entropy": ["alpha", ""]}}
    with pytest.raises(fair.VerificationError):
        fair.verify(tampered)


def test_bad_entropy_is_refused_with_a_typed_error_and_changes_nothing(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a fixed seed: with a random one, a deal that ends at once (a 총통) commits the next
    # game, whose entropy the late string below would then rightly join
    monkeypatch.setattr("madang.server.fairdeal.new_seed", lambda: SEED)
    c = _fair_client(make_client)
    register(c)
    cookie = c.cookies.get("madang_session")
    tid = new_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        commit = _hello(ws)[-1]["fair"]
        for bad, code in [
            (5, "bad_entropy"),
            (None, "bad_entropy"),
            (["a"], "bad_entropy"),
            ("x" * 257, "bad_entropy"),
            ("가" * 86, "bad_entropy"),  # 258 UTF-8 bytes
            ("tab\there", "bad_entropy"),
            ("\ud800", "bad_entropy"),
        ]:
            ws.send_text(json.dumps({"type": "fair_entropy", "entropy": bad}))
            err = recv_until(ws, "error")
            assert err["code"] == code, (bad, err)
        # a spectator adds nothing
        c.cookies.clear()
        with c.websocket_connect(f"/ws/tables/{tid}") as spectator:
            assert _hello(spectator)[-1]["fair"] == commit  # the same commitment
            _send_entropy(spectator, "mine")
            assert recv_until(spectator, "error")["code"] == "not_seated"
        use_session(c, cookie)
        _send_entropy(ws, "x" * 256)  # at the cap: accepted
        recv_until(ws, "fair_ack")
        deal = _deal_update(ws)
        assert deal["fair"]["entropy"] == ["x" * 256, ""]
        assert deal["fair"]["commitment"] == commit["commitment"]
        assert deal.get("result") is None  # game 1 goes on: no next deal is committed yet
        _send_entropy(ws, "again")  # once per game, and not after the deal
        assert recv_until(ws, "error")["code"] == "entropy_closed"


def test_a_silent_seat_counts_as_the_empty_string_after_the_wait(
    make_client: Callable[..., TestClient],
) -> None:
    c = _fair_client(make_client, entropy_seconds=0.3)
    register(c)
    tid = new_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = _hello(ws)[-1]
        deal = snap if snap["status"] == "playing" else _deal_update(ws)
    assert deal["fair"]["entropy"] == ["", ""]


def test_a_restart_mid_game_keeps_the_commitment_and_deals_the_same_game(
    make_client: Callable[..., TestClient], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    c = _fair_client(make_client)
    register(c)
    cookie = c.cookies.get("madang_session")
    rng = random.Random(7)
    for _ in range(10):  # a table whose game lasts past a few moves
        tid = new_table(c)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            commit = _hello(ws)[-1]["fair"]
            _send_entropy(ws, "restart me")
            m = _deal_update(ws)
            moves = 0
            while "result" not in m:
                p = m["prompt"]
                if p and p["seat"] == 0:
                    if moves == 3:
                        break  # the table waits for this seat's answer
                    act = {"type": "act", "version": m["version"], "action": rng.choice(p["legal"])}
                    ws.send_text(json.dumps(act))
                    moves += 1
                m = recv_until(ws, "update")
        if "result" not in m:
            break
        assert c.post(f"/api/tables/{tid}/leave").status_code == 200
    else:
        pytest.fail("every game ended within 3 moves")
    room = c.app.state.hub.rooms[tid]  # type: ignore[attr-defined]
    seed_hex = room.fair.seed.hex()
    with _engine(c).connect() as conn:
        row = conn.execute(sa.select(db.games).where(db.games.c.id == room.game_id)).one()
    assert row.fair_seed == seed_hex  # kept server-side …
    assert "seed" not in row.record["fairness"]  # … the record in play has none
    assert row.record["fairness"]["entropy"] == ["restart me", ""]
    assert c.get(f"/api/games/{room.game_id}").status_code == 404  # not served in play
    c.__exit__(None, None, None)

    c2 = _fair_client(make_client)
    use_session(c2, cookie)
    assert c2.app.state.hub.resumed_at_start == 1  # type: ignore[attr-defined]
    with c2.websocket_connect(f"/ws/tables/{tid}") as ws:
        snap = _hello(ws)[-1]
        assert snap["view"] == m["view"]  # the same game, where it was
        assert snap["fair"] == {**commit, "entropy": ["restart me", ""]}
        assert seed_hex not in json.dumps(snap)
        last = play_out(ws, 0, snap, rng.choice)
        nxt = recv_until(ws, "fair_commit")  # the next game's, at the end of this one
    assert nxt["binding"]["game_no"] == 2 and nxt["commitment"] != commit["commitment"]
    assert last["result"]["fair"]["seed"] == seed_hex
    record = c2.get(f"/api/games/{last['result']['game_id']}").json()["record"]
    fair.verify(record, commitment_seen=commit["commitment"])
    # `madang verify` checks the record as downloaded, against the commitment seen
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False))
    assert main(["verify", str(path), "--json", "--commitment", commit["commitment"]]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["commitment"] == commit["commitment"]
    assert out["checked"] == ["commitment", "deck", "dealer"]
    path.write_text(json.dumps({**record, "deck": record["deck"][::-1]}))
    assert main(["verify", str(path)]) == 2
    assert "the record's deck is not the seed's deal" in capsys.readouterr().err


def test_seeded_tables_keep_their_deals(client: TestClient) -> None:
    register(client)
    tid = new_table(client, MATGO_VS_BOT)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        seen = _hello(ws)
    assert all(m["type"] != "fair_commit" for m in seen) and seen[-1]["fair"] is None


def test_a_commitment_never_dealt_is_revealed_when_the_table_closes(
    make_client: Callable[..., TestClient],
) -> None:
    c = _fair_client(make_client)
    register(c)
    tid = new_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        commit = _hello(ws)[-1]["fair"]
        assert c.post(f"/api/tables/{tid}/leave").status_code == 200  # before the deal
        reveal = recv_until(ws, "fair_reveal")["fair"]
        assert recv_until(ws, "closed")["reason"] == "nobody is seated"
    assert reveal["commitment"] == commit["commitment"] and reveal["entropy"] == ["", ""]
    binding = fair.Binding(**commit["binding"])
    assert fair.commitment(bytes.fromhex(reveal["seed"]), binding) == commit["commitment"]


@pytest.mark.parametrize(
    ("game", "preset"),
    [("matgo", "default"), ("matgo", "missions"), ("mahjong", "default"), ("mahjong", "sampan")],
)
def test_a_session_deals_its_game_from_a_key_before_any_move(game: str, preset: str) -> None:
    g = spec(game)
    assert g.fair_deal is not None
    s = g.session(preset, 5)
    key = bytes(range(32))
    s.redeal(key)
    record = s.record()
    for name, want in g.fair_deal(record["rules"], key, s.game_no).items():
        assert record[name] == want, name
    seat = s.pending()[0]
    s.step(seat, s.legal(seat)[0])
    with pytest.raises(MadangError):
        s.redeal(key)
