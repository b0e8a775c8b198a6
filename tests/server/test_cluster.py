"""Three ``madang serve`` processes on one PostgreSQL and one Redis, behind HAProxy
(round robin, no stickiness), on loopback (issue 13, items 3–5).

Clients reach any process and play tables owned by any; then one process is killed
with ``kill -9`` mid-play, all three are restarted one by one with ``SIGTERM``, and
Redis itself is restarted empty. Every game completes, none is aborted, the ledger sums
to zero and matches the finished games one to one, each game is the uninterrupted
replay of its journal, and no client ever gets another seat's view.

Needs PostgreSQL (``MADANG_TEST_POSTGRES_URL``), Debian's ``redis-server`` and
``haproxy`` and the ``redis`` client (``.ci/run`` installs them).
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from tests.server.cluster import (
    Node,
    Player,
    Proxy,
    RedisServer,
    cluster_skip_reason,
    guest,
    http,
    new_table,
)
from tests.server.conftest import PG_URL, reset_postgres

from madang.server import db, store
from madang.server.db import make_engine
from madang.server.games import make_session

SKIP = cluster_skip_reason(PG_URL)
pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")


class Cluster:
    def __init__(self, folder: Path) -> None:
        assert PG_URL is not None
        reset_postgres(PG_URL)
        self.redis = RedisServer(folder)
        self.nodes = [Node(f"n{i}", PG_URL, self.redis.url, folder) for i in range(3)]
        self.proxy = Proxy(self.nodes, folder)
        self.engine = make_engine(PG_URL)
        try:
            self.redis.start()
            for n in self.nodes:
                n.start()
            self.proxy.start()
            for n in self.nodes:
                self.wait_ready(n)
            self.cookie = guest(self.proxy.port)
        except BaseException:
            self.close()  # no process may outlive a failed start
            raise

    def wait_ready(self, node: Node, seconds: float = 30) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                _, got = http(node.port, "GET", "/api/ready")
                if got["ready"]:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"{node.name} is not ready")

    def close(self) -> None:
        self.engine.dispose()
        self.proxy.stop()
        for n in self.nodes:
            n.kill()
        self.redis.kill()

    def play(
        self, games: list[str], during: Callable[[], None] | None, *, think_s: float = 0.15
    ) -> list[Player]:
        """Tables of ``games`` made through the proxy, each played to its end by a
        client through the proxy; ``during`` runs (in a thread) once play is under way."""
        rng = random.Random(len(games))
        tables = [new_table(self.proxy.port, self.cookie, g) for g in games]
        players = [
            Player(self.proxy.port, self.cookie, t, random.Random(rng.random()), think_s)
            for t in tables
        ]

        async def main() -> None:
            deadline = time.monotonic() + float(os.environ.get("PLAY_S", "180"))
            tasks = [asyncio.create_task(p.play(deadline)) for p in players]
            if during is not None:
                await asyncio.sleep(1.5)
                await asyncio.to_thread(during)
            await asyncio.gather(*tasks)

        asyncio.run(main())
        return players

    def settled(self, players: list[Player]) -> None:
        """Every game of these players' tables finished once, as its journal replays."""
        assert all(p.result is not None for p in players), [p.errors[-3:] for p in players]
        assert not [leak for p in players for leak in p.leaks]
        tids = [p.table_id for p in players]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # the last settlements may be in flight
            with self.engine.connect() as c:
                games = c.execute(
                    sa.select(db.games).where(db.games.c.table_id.in_(tids)).order_by(db.games.c.id)
                ).all()
            if games and all(g.status == "finished" for g in games):
                break
            time.sleep(0.2)
        assert {g.status for g in games} == {"finished"}
        with self.engine.connect() as c:
            ledger = c.execute(sa.select(db.ledger)).all()
            seeds = dict(c.execute(sa.select(db.tables.c.id, db.tables.c.seed)).all())
            players_of = {}
            for r in c.execute(sa.select(db.game_players)).all():
                players_of.setdefault(r.game_id, {})[r.seat] = r.user_id
            aborted = c.execute(
                sa.select(sa.func.count()).where(db.games.c.status == "aborted")
            ).scalar()
        assert aborted == 0
        assert sum(r.amount for r in ledger) == 0
        by_game: dict[int, int] = {}
        for r in ledger:
            by_game[r.game_id] = by_game.get(r.game_id, 0) + 1
        for tid in tids:
            mine = [g for g in games if g.table_id == tid]
            assert mine
            game = "matgo" if mine[0].game == "matgo" else "mahjong"
            sess = make_session(game, "default", int(seeds[tid]))
            for i, g in enumerate(mine):
                if i:
                    sess.next_game()
                for m in store.journal(self.engine, g.id)[1]:
                    sess.step(m["seat"], m["move"])
                assert sess.over and sess.record() == g.record
                pays = [
                    (p["from"], p["to"], p["points"], p["reason"]) for p in g.result["payments"]
                ]
                assert pays == [tuple(p) for p in sess.payments()]
                seats = players_of[g.id]
                paid = [p for p in pays if p[2] and seats[p[0]] != seats[p[1]]]
                assert by_game.get(g.id, 0) == 2 * len(paid)  # settled once, one to one

    def metric(self, name: str) -> float:
        total = 0.0
        for n in self.nodes:
            if n.proc is None:
                continue
            text = _get_text(n.port, "/metrics")
            for line in text.splitlines():
                if line.startswith(name + " "):
                    total += float(line.split()[1])
        return total


def _get_text(port: int, path: str) -> str:
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
        return str(r.read().decode())


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield c
    finally:
        c.close()


def test_a_client_plays_through_any_process_and_the_lobby_is_shared(cluster: Cluster) -> None:
    tid = new_table(cluster.proxy.port, cluster.cookie, "matgo")
    for n in cluster.nodes:  # every process lists it and shows it
        _, got = http(n.port, "GET", "/api/tables")
        assert tid in [t["id"] for t in got["tables"]]
        _, one = http(n.port, "GET", f"/api/tables/{tid}", cookie=cluster.cookie)
        assert one["table"]["id"] == tid and "invite" in one["table"]
    player = Player(cluster.nodes[0].port, cluster.cookie, tid, random.Random(0))
    asyncio.run(player.play(time.monotonic() + 60))
    cluster.settled([player])
    _, health = http(cluster.nodes[0].port, "GET", "/api/health")
    assert health["ok"] and health["node"] == "n0"
    assert "madang_moves_total" in _get_text(cluster.nodes[1].port, "/metrics")


def test_kill_9_of_a_process_loses_no_game(cluster: Cluster) -> None:
    before = cluster.metric("madang_failovers_total")
    victim = cluster.nodes[1]

    def kill_and_restart() -> None:
        victim.kill()
        time.sleep(4)  # its tables fail over meanwhile
        victim.start()
        cluster.wait_ready(victim)

    players = cluster.play(["matgo"] * 6 + ["mahjong"] * 3, kill_and_restart)
    cluster.settled(players)
    assert cluster.metric("madang_failovers_total") > before  # tables were taken over
    assert sum(p.reconnects for p in players) > 0


def test_a_rolling_restart_with_sigterm_loses_no_game(cluster: Cluster) -> None:
    def rolling() -> None:
        for n in cluster.nodes:
            n.term()
            n.start()
            cluster.wait_ready(n)

    players = cluster.play(["matgo"] * 6 + ["mahjong"] * 3, rolling)
    cluster.settled(players)


def test_redis_restarted_empty_and_every_game_still_settles_once(cluster: Cluster) -> None:
    def restart_redis() -> None:
        cluster.redis.kill()
        time.sleep(1.0)
        cluster.redis.start()

    players = cluster.play(["matgo"] * 4 + ["mahjong"] * 2, restart_redis)
    cluster.settled(players)
