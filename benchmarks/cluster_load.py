"""Load and failover of a cluster on this machine: 1, 2 and 3 ``madang serve`` processes
on one PostgreSQL and one Redis behind HAProxy (``docs/deploy.md``), against one process
without Redis, at the same total load.

    python3 benchmarks/cluster_load.py --database-url postgresql://… [--tables 60]
        [--seconds 20] [--think-ms 500] [--steps 10,20,40,80,160] [--json PATH]

Each table is a Matgo game between a person — a WebSocket client of this script,
connected through HAProxy (round robin, so most clients reach a process that does not
own their table and are forwarded) — and a server bot; the client answers each prompt
after a think time (uniform 0.5×–1.5× ``--think-ms``) and starts the next game after
each result. Printed, for each set-up:

* move latency p50 / p99 (sending a move → the update that shows it) and moves/s;
* CPU per person's move (with the bot's answer) of the server processes and of Redis,
  from ``/proc``, less what they spend idle (measured for 3 s before the load): the
  cost of routing through Redis is the difference against the single process;
* failover (3 processes): one process is killed with ``kill -9``; for each table whose
  owner or whose client's process it was, the time from the kill to the next move
  served, p50 / p99;
* the largest number of tables (of ``--steps``, each run) whose move latency p99 stays
  ≤ 50 ms on 3 processes.

Needs Debian's ``redis-server`` and ``haproxy``, PostgreSQL (a database this script may
empty) and the ``redis`` client. The test harness (``tests/server/cluster.py``) starts
the processes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.server.cluster import (  # noqa: E402
    Node,
    Player,
    Proxy,
    RedisServer,
    guest,
    http,
    new_table,
)
from tests.server.conftest import reset_postgres  # noqa: E402


def cpu_of_pid(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


class Setup:
    """Redis (unless single), ``n`` processes, HAProxy, on a fresh database."""

    def __init__(self, db_url: str, n: int, folder: Path, *, single: bool = False) -> None:
        reset_postgres(db_url)
        self.redis = RedisServer(folder)
        self.single = single
        # one address (the load generator's) opens every socket: lift the per-address caps
        opts = {"bot_delay": 0.0, "turn_seconds": 60.0, "next_game_seconds": 0.2,
                "grace_seconds": 30.0, "connections_per_address": 100000,
                "ws_per_address": 100000}  # fmt: skip
        self.nodes = [Node(f"n{i}", db_url, "" if single else self.redis.url, folder, **opts)
                      for i in range(n)]  # fmt: skip
        self.proxy = Proxy(self.nodes, folder)

    def __enter__(self) -> Setup:
        try:
            if not self.single:
                self.redis.start()
            for n in self.nodes:
                n.start()
            self.proxy.start()
            for n in self.nodes:
                end = time.monotonic() + 30
                while time.monotonic() < end:
                    try:
                        if http(n.port, "GET", "/api/ready")[1]["ready"]:
                            break
                    except OSError:
                        pass
                    time.sleep(0.1)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.proxy.stop()
        for n in self.nodes:
            n.kill()
        self.redis.kill()

    def cpu(self) -> tuple[float, float]:
        nodes = sum(cpu_of_pid(n.proc.pid) for n in self.nodes if n.proc is not None)
        redis = cpu_of_pid(self.redis.proc.pid) if self.redis.proc is not None else 0.0
        return nodes, redis


async def drive(setup: Setup, tables: int, seconds: float, think_s: float,
                kill_after: float | None = None) -> dict[str, Any]:  # fmt: skip
    port = setup.proxy.port
    i0, t0 = setup.cpu(), time.monotonic()  # the processes' own idle work (timers, scans)
    await asyncio.sleep(3.0)
    i1, t1 = setup.cpu(), time.monotonic()
    idle = ((i1[0] - i0[0]) / (t1 - t0), (i1[1] - i0[1]) / (t1 - t0))
    cookies = [guest(port) for _ in range(max(1, tables // 50 + 1))]
    tids = [new_table(port, cookies[i % len(cookies)], "matgo") for i in range(tables)]
    clients = [
        Player(port, cookies[i % len(cookies)], t, random.Random(i), think_s, endless=True)
        for i, t in enumerate(tids)
    ]
    warm = time.monotonic() + 2.0
    until = warm + seconds
    tasks = [asyncio.create_task(c.play(until)) for c in clients]
    await asyncio.sleep(2.0)
    c0 = setup.cpu()
    killed_at = None
    owned: set[int] = set()
    errors_before: list[int] = []
    if kill_after is not None:
        import redis

        await asyncio.sleep(kill_after)
        r = redis.Redis(port=setup.redis.port, decode_responses=True)
        victim = setup.nodes[1]
        owned = {t for t in tids if r.get(f"madang:lease:{t}") == victim.name}
        errors_before = [len(c.errors) for c in clients]
        killed_at = time.monotonic()
        await asyncio.to_thread(victim.kill)
    await asyncio.gather(*tasks)
    c1 = setup.cpu()
    span = time.monotonic() - warm
    lat = [s for c in clients for (t, s) in c.latencies if t >= warm]
    out: dict[str, Any] = {
        "tables": tables,
        "moves": len(lat),
        "moves_per_s": len(lat) / seconds,
        "p50_ms": 1000 * pct(lat, 0.5),
        "p99_ms": 1000 * pct(lat, 0.99),
        "server_cpu_ms_per_move": 1000 * (c1[0] - c0[0] - idle[0] * span) / max(1, len(lat)),
        "redis_cpu_ms_per_move": 1000 * (c1[1] - c0[1] - idle[1] * span) / max(1, len(lat)),
        "server_idle_cpu_per_s": idle[0],
        "errors": sum(len(c.errors) for c in clients),
    }
    if killed_at is not None:
        # the next move served after the kill, for each table whose owner or whose
        # client's socket was the killed process
        gaps = []
        for c, errs in zip(clients, errors_before, strict=True):
            if c.table_id not in owned and len(c.errors) == errs:
                continue  # neither its table nor its socket was on the killed process
            nxt = [t for t, _ in c.latencies if t > killed_at]
            if nxt:
                gaps.append(nxt[0] - killed_at)
        out["failover_tables"] = len(gaps)
        out["failover_p50_s"] = pct(gaps, 0.5)
        out["failover_p99_s"] = pct(gaps, 0.99)
        out["failover_max_s"] = max(gaps) if gaps else float("nan")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--database-url", default=os.environ.get("MADANG_TEST_POSTGRES_URL", ""))
    ap.add_argument("--tables", type=int, default=60)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--think-ms", type=float, default=500.0)
    ap.add_argument("--steps", default="10,20,40,80,160")
    ap.add_argument("--json", default="")
    a = ap.parse_args()
    if not a.database_url.startswith("postgresql"):
        raise SystemExit("cluster_load: --database-url postgresql://… (it will be emptied)")
    think = a.think_ms / 1000
    report: dict[str, Any] = {"tables": a.tables, "seconds": a.seconds, "think_ms": a.think_ms}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = []
        for label, n, single in (("1 process, no Redis", 1, True), ("1 process", 1, False),
                                 ("2 processes", 2, False), ("3 processes", 3, False)):  # fmt: skip
            with Setup(a.database_url, n, folder, single=single) as s:
                r = asyncio.run(drive(s, a.tables, a.seconds, think))
            r["setup"] = label
            rows.append(r)
            print(f"{label:22} {r['tables']:4} tables  {r['moves_per_s']:7.1f} moves/s  "
                  f"p50 {r['p50_ms']:6.1f} ms  p99 {r['p99_ms']:7.1f} ms  "
                  f"server CPU {r['server_cpu_ms_per_move']:.2f} ms/move  "
                  f"Redis {r['redis_cpu_ms_per_move']:.3f} ms/move  "
                  f"errors {r['errors']}", flush=True)  # fmt: skip
        report["load"] = rows
        with Setup(a.database_url, 3, folder) as s:
            f = asyncio.run(drive(s, a.tables, max(a.seconds, 15.0), think, kill_after=3.0))
        report["failover"] = f
        print(f"failover (kill -9 of 1 of 3): {f['failover_tables']} tables moved; next move "
              f"served p50 {f['failover_p50_s']:.2f} s, p99 {f['failover_p99_s']:.2f} s, "
              f"max {f['failover_max_s']:.2f} s", flush=True)  # fmt: skip
        best = 0
        steps = []
        for n_tables in (int(x) for x in a.steps.split(",")):
            with Setup(a.database_url, 3, folder) as s:
                r = asyncio.run(drive(s, n_tables, a.seconds, think))
            steps.append(r)
            ok = r["p99_ms"] <= 50
            print(
                f"3 processes, {n_tables:4} tables: p99 {r['p99_ms']:7.1f} ms, "
                f"{r['moves_per_s']:.1f} moves/s {'ok' if ok else '> 50 ms'}",
                flush=True,
            )
            if ok:  # every step is run: a small one's p99 rests on a few samples
                best = max(best, n_tables)
        report["steps"] = steps
        report["largest_tables_p99_le_50ms"] = best
        print(f"largest number of tables with p99 <= 50 ms on 3 processes: {best}")
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=1, default=float))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
