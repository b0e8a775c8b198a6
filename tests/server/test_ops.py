"""The operations endpoints tell a player nothing about a game (issue 25, review §3.3,
§3.9): the metrics are served only on the operator's port (loopback by default), the
public health check says only that the process lives, and the move counter does not
move while a mahjong claim window is open."""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from tests.server import conftest
from tests.server.cluster import free_port
from tests.server.conftest import recv_until, register
from tests.server.live import running

from madang.cli import build_parser
from madang.server.cli import config_from_args
from madang.server.room import Room


def scrape(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        return str(r.read().decode())


def value(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"no {name} in the metrics")


def test_the_public_port_serves_no_metrics_and_health_says_only_alive(db_url: str) -> None:
    ops = free_port()
    config = conftest.test_config(db_url, metrics_port=ops, forwarded_allow_ips="127.0.0.1")
    with running(config) as live:
        live.table()
        for headers in ({}, {"X-Forwarded-For": "203.0.113.7"}):  # a player, through a proxy
            req = urllib.request.Request(live.url("/metrics"), headers=headers)
            with pytest.raises(urllib.error.HTTPError) as e:
                urllib.request.urlopen(req, timeout=10)
            assert e.value.code == 404
            req = urllib.request.Request(live.url("/api/health"), headers=headers)
            with urllib.request.urlopen(req, timeout=10) as r:
                assert json.loads(r.read()) == {"ok": True}  # no node, no table count
        # the operator's port, on loopback only, has the detail
        text = scrape(ops)
        assert value(text, "madang_tables") == 1.0
        assert "madang_moves_total" in text and "madang_connections" in text
        # bound to 127.0.0.1 alone, not to every address: another address of this host
        # (127.0.0.2 here, a public interface in production) is refused
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.2", ops), timeout=2).close()


def test_serve_takes_the_metrics_port_and_binds_loopback() -> None:
    parser = build_parser("serve")
    config = config_from_args(parser.parse_args(["serve", "--metrics-port", "9100"]))
    assert (config.metrics_port, config.metrics_host) == (9100, "127.0.0.1")
    assert config_from_args(parser.parse_args(["serve"])).metrics_port is None


MAHJONG_VS_BOTS = {
    "game": "mahjong",
    "stake": 1,
    "seats": [{"kind": "human"}, *[{"kind": "bot", "level": "normal"}] * 3],
}


def test_claim_answers_are_counted_when_the_pause_ends(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(metrics_port=0, claim_seconds=0.6, bot_delay=0.1, grace_seconds=0.3)
    hub = c.app.state.hub  # type: ignore[attr-defined]
    port = hub.operator.port
    register(c)
    tid = c.post("/api/tables", json=MAHJONG_VS_BOTS).json()["table"]["id"]
    room: Room = hub.rooms[tid]
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:  # dealt; then a bot plays for us
        ws.send_text(json.dumps({"type": "hello", "last_version": None}))
        recv_until(ws, "snapshot")
    seen = 0
    deadline = time.monotonic() + 60
    while seen < 2 and time.monotonic() < deadline:
        until = room.offer_until
        if until is None:
            time.sleep(0.005)
            continue
        before = value(scrape(port), "madang_moves_total")
        answered = False
        while room.offer_until == until:  # the same pause, still open
            now = value(scrape(port), "madang_moves_total")
            if room.offer_until != until:
                break  # it ended while we read
            assert now == before, "the counter moved during an open claim window"
            answered = answered or room.held_moves > 0  # answers stored, held uncounted
            time.sleep(0.01)
        if not answered:
            continue  # nobody was asked (or nobody answered before it ended)
        seen += 1
        after = value(scrape(port), "madang_moves_total")
        assert after >= before + 1  # the answers count once the pause is over
    assert seen == 2, "no claim window with an answer was seen"
