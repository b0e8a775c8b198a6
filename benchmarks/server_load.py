"""Load test of the game server: N concurrent Matgo tables, each a WebSocket client
(a person seat) against a server bot, on one local uvicorn worker.

    python3 benchmarks/server_load.py --tables 500 --seconds 60 --think-ms 1000

Starts ``madang serve`` (SQLite in a temporary folder, bots answer at once), makes N
guest accounts and N tables, then each client answers its prompts with random legal
moves after a think time (uniform between 0.5× and 1.5× ``--think-ms``) and starts the
next game after each result. Prints the move latency (from sending a move to receiving
the update that contains it) p50 / p90 / p99 / max, moves and games per second, and the
error count (error messages, dropped connections, timeouts), the server's CPU per move
and the load clients' own event-loop lag. The started server is pinned to CPU 0 and the
clients to CPU 1 (``--server-cpu`` / ``--client-cpu``). ``--url`` tests a server that is
already running instead.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.games = 0
        self.moves = 0
        self.lags: list[float] = []


async def watch_loop(stats: Stats, measuring: list[bool], stop_at: float) -> None:
    """The load clients' own event-loop lag: a starved client inflates the latency
    it measures, so the report says how late the clients themselves were."""
    while time.monotonic() < stop_at:
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        if measuring[0]:
            stats.lags.append(time.perf_counter() - t - 0.01)


async def make_table(http: httpx.AsyncClient, base: str, level: str) -> tuple[int, str]:
    r = await http.post(f"{base}/api/guest")
    r.raise_for_status()
    cookie = r.cookies["madang_session"]
    r = await http.post(
        f"{base}/api/tables",
        json={"game": "matgo", "seats": [{"kind": "human"}, {"kind": "bot", "level": level}]},
        cookies={"madang_session": cookie},
    )
    r.raise_for_status()
    return int(r.json()["table"]["id"]), cookie


async def client(
    ws_base: str,
    table: int,
    cookie: str,
    stop_at: float,
    think: float,
    stats: Stats,
    rng: random.Random,
    measuring: list[bool],
) -> None:
    try:
        async with websockets.connect(
            f"{ws_base}/ws/tables/{table}",
            additional_headers={"Cookie": f"madang_session={cookie}"},
            max_size=2**20,
            open_timeout=60,
        ) as ws:
            await ws.send(json.dumps({"type": "hello", "last_version": None}))
            version = 0
            prompt: dict[str, Any] | None = None
            sent_at: float | None = None
            waiting_for = -1
            while time.monotonic() < stop_at:
                if prompt is not None and prompt["seat"] == 0 and sent_at is None:
                    if think > 0:
                        await asyncio.sleep(think * (0.5 + rng.random()))
                    await ws.send(
                        json.dumps(
                            {
                                "type": "act",
                                "version": version,
                                "action": rng.choice(prompt["legal"]),
                            }
                        )
                    )
                    sent_at = time.perf_counter()
                    waiting_for = version + 1
                    prompt = None
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=30)
                except TimeoutError:
                    stats.errors.append(f"table {table}: no message for 30 s")
                    return
                msg = json.loads(text)
                kind = msg["type"]
                if kind == "error":
                    stats.errors.append(f"table {table}: {msg['code']} {msg['message']}")
                    sent_at = None
                    continue
                if kind == "snapshot":
                    version, prompt = msg["version"], msg["prompt"]
                    if msg["status"] == "between":  # a game ended before we came
                        await ws.send(json.dumps({"type": "ready"}))
                    continue
                if kind != "update":
                    continue
                if msg["version"] != version + 1:
                    stats.errors.append(f"table {table}: version gap {version} -> {msg['version']}")
                version = msg["version"]
                prompt = msg["prompt"]
                if sent_at is not None and version == waiting_for:
                    if measuring[0]:
                        stats.latencies.append(time.perf_counter() - sent_at)
                        stats.moves += 1
                    sent_at = None
                if "result" in msg:
                    if measuring[0]:
                        stats.games += 1
                    prompt = None
                    await ws.send(json.dumps({"type": "ready"}))
    except (OSError, websockets.WebSocketException) as e:
        stats.errors.append(f"table {table}: connection {type(e).__name__}: {e}")


def cpus(spec: str) -> set[int]:
    """A CPU list such as ``0`` or ``0,2-3``."""
    out: set[int] = set()
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def pin(pid: int, spec: str, who: str) -> None:
    """Pin a process to a CPU list (Linux); say so, or say why not."""
    if not spec:
        return
    try:
        os.sched_setaffinity(pid, cpus(spec))
        print(f"{who} pinned to CPU {spec}", flush=True)
    except (AttributeError, OSError, ValueError) as e:
        print(f"{who} not pinned: {e}", flush=True)


def cpu_times(pid: int | None) -> tuple[float, float] | None:
    """User and system CPU time of a process (Linux), for the server's load."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick
    except OSError:
        return None


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU time of a process (Linux)."""
    t = cpu_times(pid)
    return None if t is None else t[0] + t[1]


async def run(args: argparse.Namespace, base: str, pid: int | None) -> Stats:
    stats = Stats()
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        for _ in range(100):
            try:
                (await http.get(f"{base}/api/config")).raise_for_status()
                break
            except httpx.HTTPError:
                await asyncio.sleep(0.2)
        sem = asyncio.Semaphore(20)

        async def one() -> tuple[int, str]:
            async with sem:
                return await make_table(http, base, args.level)

        t0 = time.perf_counter()
        tables = await asyncio.gather(*(one() for _ in range(args.tables)))
        print(f"created {len(tables)} tables in {time.perf_counter() - t0:.1f} s", flush=True)
    ws_base = base.replace("http", "ws", 1)
    stop_at = time.monotonic() + args.warmup + args.seconds
    measuring = [False]
    tasks = [
        asyncio.create_task(
            client(ws_base, t, c, stop_at, args.think_ms / 1000, stats, random.Random(i), measuring)
        )
        for i, (t, c) in enumerate(tables)
    ]
    tasks.append(asyncio.create_task(watch_loop(stats, measuring, stop_at)))
    await asyncio.sleep(args.warmup)
    measuring[0] = True
    t1 = time.perf_counter()
    cpu0 = cpu_times(pid)
    own0 = cpu_seconds(os.getpid())
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - t1
    cpu1 = cpu_times(pid)
    own1 = cpu_seconds(os.getpid())
    print_report(args, stats, elapsed)
    if own0 is not None and own1 is not None:
        print(f"load clients' CPU {100 * (own1 - own0) / elapsed:.0f}% of one core")
    if cpu0 is not None and cpu1 is not None:
        user, system = cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]
        per_move = 1000 * (user + system) / max(1, stats.moves)
        print(
            f"server CPU {100 * (user + system) / elapsed:.0f}% of one core "
            f"(user {100 * user / elapsed:.0f}%, system {100 * system / elapsed:.0f}%), "
            f"{per_move:.2f} ms per move (the person's move and the bot's answer)"
        )
    return stats


def print_report(args: argparse.Namespace, stats: Stats, elapsed: float) -> None:
    lat = sorted(x * 1000 for x in stats.latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    print(
        f"tables {args.tables}, think {args.think_ms} ms, bot {args.level}, "
        f"{elapsed:.1f} s measured"
    )
    print(
        f"moves {stats.moves} ({stats.moves / elapsed:.0f}/s), games {stats.games} "
        f"({stats.games / elapsed:.1f}/s)"
    )
    if lat:
        print(
            f"move latency ms: p50 {pct(0.5):.1f}  p90 {pct(0.9):.1f}  p99 {pct(0.99):.1f}  "
            f"max {lat[-1]:.1f}  mean {statistics.fmean(lat):.1f}"
        )
    if stats.lags:
        lags = sorted(x * 1000 for x in stats.lags)
        print(
            f"load clients' own loop lag ms: p50 {lags[len(lags) // 2]:.1f}  "
            f"p99 {lags[int(0.99 * len(lags))]:.1f}  max {lags[-1]:.1f}"
        )
    print(f"errors {len(stats.errors)}")
    for e in stats.errors[:10]:
        print("  ", e)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--seconds", type=float, default=30.0, help="measured time")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--think-ms", type=float, default=1000.0, help="mean think time per move")
    ap.add_argument("--level", default="easy", help="the server bot's level")
    ap.add_argument("--url", default=None, help="a running server (default: start one)")
    ap.add_argument("--database-url", default="", help="for the started server")
    ap.add_argument(
        "--server-cpu",
        default="0",
        help="CPU list the started server is pinned to ('' : no pinning)",
    )
    ap.add_argument(
        "--client-cpu",
        default="1",
        help="CPU list the load clients are pinned to ('' : no pinning)",
    )
    args = ap.parse_args()
    proc = None
    if args.url is None:
        port = free_port()
        data = tempfile.mkdtemp(prefix="madang-load-")
        cmd = [
            sys.executable,
            "-m",
            "madang",
            "serve",
            "--port",
            str(port),
            "--data",
            data,
            "--bot-delay",
            "0",
            # one address makes every account and socket here: lift the per-address caps
            "--guest-limit",
            "1000000/hour",
            "--connections-per-address",
            "1000000",
            "--ws-per-address",
            "1000000",
            "--tables-per-user",
            "1000000",
            "--turn-seconds",
            "120",
            # a table is dealt once its person connects, and a seat nobody connects to
            # within the grace is given up: room for making every table before play
            "--set",
            "grace_seconds=120",
        ]
        if args.database_url:
            cmd += ["--database-url", args.database_url]
        proc = subprocess.Popen(cmd, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        pin(proc.pid, args.server_cpu, "server")
        print(f"server pid {proc.pid}", flush=True)
        base = f"http://127.0.0.1:{port}"
    else:
        base = args.url.rstrip("/")
    pin(0, args.client_cpu, "load clients")
    try:
        stats = asyncio.run(run(args, base, proc.pid if proc else None))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
    return 1 if stats.errors else 0


if __name__ == "__main__":
    sys.exit(main())
