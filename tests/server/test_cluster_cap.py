"""The cap on one person's open tables holds across a cluster's processes (issue 25,
point 3; review §3.7): racing creates and joins spread over two ``madang serve``
processes on one PostgreSQL seat the person at ``tables_per_user`` tables at most,
because the seat is counted in the database, not in a process or in Redis's lobby.

Needs PostgreSQL (``MADANG_TEST_POSTGRES_URL``), Debian's ``redis-server`` and the
``redis`` client, as ``test_cluster.py``.
"""

from __future__ import annotations

import urllib.error
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from tests.server.cluster import Node, RedisServer, guest, have_cluster_tools, http
from tests.server.conftest import PG_URL, reset_postgres

from madang.server import store
from madang.server.db import make_engine

pytestmark = pytest.mark.skipif(
    not (PG_URL and have_cluster_tools()),
    reason="needs MADANG_TEST_POSTGRES_URL, redis-server, haproxy and the redis client",
)

VS_BOT = {"game": "matgo", "stake": 1, "seats": [{"kind": "human"}, {"kind": "bot"}]}
TWO_PEOPLE = {"game": "matgo", "stake": 1, "seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[list[Node]]:
    assert PG_URL is not None
    reset_postgres(PG_URL)
    redis = RedisServer(tmp_path)
    # grace_seconds: the seats must not be given up while nobody connects (this test
    # never opens a table's socket)
    procs = [Node(f"n{i}", PG_URL, redis.url, tmp_path, tables_per_user=3, grace_seconds=60)
             for i in range(2)]  # fmt: skip
    try:
        redis.start()
        for n in procs:
            n.start()
        yield procs
    finally:
        for n in procs:
            n.kill()
        redis.kill()


def attempt(port: int, path: str, body: dict[str, Any], cookie: str) -> int:
    try:
        http(port, "POST", path, body, cookie)
        return 200
    except urllib.error.HTTPError as e:
        return int(e.code)


def test_racing_creates_and_joins_over_two_processes_seat_a_person_three_times(
    nodes: list[Node],
) -> None:
    ports = [n.port for n in nodes]
    others = [guest(ports[i % 2]) for i in range(4)]
    open_ids = []
    for i, cookie in enumerate(others):
        _, got = http(ports[i % 2], "POST", "/api/tables", TWO_PEOPLE, cookie)
        open_ids.append(int(got["table"]["id"]))
    me = guest(ports[0])
    calls = [(ports[i % 2], "/api/tables", VS_BOT) for i in range(20)]
    calls += [(ports[(i + 1) % 2], f"/api/tables/{t}/join", {"stake": 1})
              for i, t in enumerate(open_ids)]  # fmt: skip
    with ThreadPoolExecutor(len(calls)) as pool:
        statuses = list(pool.map(lambda c: attempt(c[0], c[1], c[2], me), calls))
    assert sum(s == 200 for s in statuses) == 3, statuses
    assert set(statuses) == {200, 429}
    eng = make_engine(PG_URL or "")
    try:
        uid = store.session_user(eng, me.split("=", 1)[1])
        assert uid is not None
        assert store.sitting_at(eng, uid["id"]) == 3
    finally:
        eng.dispose()
