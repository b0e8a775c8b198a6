"""A flood of wrong passwords from many loopback addresses while an honest player logs in
with the right one (review §3.4), for ``test_login_flood.py`` and
``benchmarks/login_flood.py``: ``madang serve`` in a child process, and the clients in
one asyncio loop, each flooder bound to an address of its own (127.0.1.N; Linux routes
all of 127.0.0.0/8 to loopback). Nothing leaves 127.0.0.1/8; every run is bounded in
time."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing as mp
import socket
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve(data: Path, *extra: str) -> Any:
    """``madang serve`` on a free loopback port (SQLite in ``data``): its base URL."""
    port = free_port()
    args = [sys.executable, "-m", "madang", "serve", "--port", str(port), "--data", str(data)]
    args += ["--register-limit", "1000/hour", *extra]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > end:
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    raise RuntimeError(f"the server did not start: {err[-2000:]}") from None
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(10)


@dataclass
class Flood:
    """What the honest player and the flooders got."""

    honest: list[tuple[int, float]] = field(default_factory=list)
    """The honest player's answers: (status, seconds)."""
    flood: Counter[int] = field(default_factory=Counter)
    """The flooders' answers by status (0: no answer)."""

    def success(self) -> float:
        return sum(s == 200 for s, _ in self.honest) / max(1, len(self.honest))

    def line(self) -> str:
        waits = sorted(t for _, t in self.honest)
        p50 = waits[len(waits) // 2] if waits else 0.0
        statuses = dict(sorted(Counter(s for s, _ in self.honest).items()))
        return (
            f"honest logins: {sum(s == 200 for s, _ in self.honest)}/{len(self.honest)} "
            f"succeeded ({100 * self.success():.1f} %), answers {statuses}, "
            f"p50 {p50:.2f} s, max {waits[-1] if waits else 0:.2f} s; "
            f"flood: {sum(self.flood.values())} answers {dict(sorted(self.flood.items()))}"
        )


async def register(base: str, name: str, password: str) -> dict[str, str]:
    """Register ``name``; its cookies (the session and the device cookie)."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        r = await c.post("/api/register", json={"username": name, "password": password})
        r.raise_for_status()
        return {
            "madang_session": r.cookies["madang_session"],
            "madang_device": r.cookies["madang_device"],
        }


async def _flood(base: str, names: list[str], flooders: int, seconds: float) -> Counter[int]:
    counts: Counter[int] = Counter()
    stop = time.monotonic() + seconds

    async def flooder(i: int) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.1.{i + 1}")
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as c:
            n = 0
            while time.monotonic() < stop:
                n += 1
                body = {"username": names[(i + n) % len(names)], "password": f"guess-{i}-{n}"}
                try:
                    r = await c.post("/api/login", json=body)
                    counts[r.status_code] += 1
                except httpx.HTTPError:
                    counts[0] += 1
                    await asyncio.sleep(0.05)

    await asyncio.gather(*(flooder(i) for i in range(flooders)))
    return counts


def _flood_process(
    base: str, names: list[str], flooders: int, seconds: float, started: Any, out: Any
) -> None:
    started.set()
    out.put(dict(asyncio.run(_flood(base, names, flooders, seconds))))


async def run_flood(
    base: str,
    *,
    names: list[str],
    honest: tuple[str, str],
    device: str | None,
    flooders: int = 32,
    seconds: float = 10.0,
    every: float = 0.5,
) -> Flood:
    """``flooders`` addresses send wrong passwords for ``names`` as fast as they are
    answered for ``seconds`` (from a process of their own, so that the honest player's
    timings are not theirs), while the honest player (another address; with its device
    cookie if ``device``) logs in with the right password, waiting ``every`` seconds
    after each answer."""
    ctx = mp.get_context("spawn")
    started, results = ctx.Event(), ctx.Queue()
    proc = ctx.Process(
        target=_flood_process, args=(base, names, flooders, seconds + 1.0, started, results)
    )
    proc.start()
    out = Flood()
    try:
        assert await asyncio.to_thread(started.wait, 60), "the flood did not start"
        await asyncio.sleep(1.0)  # the flood is under way
        stop = time.monotonic() + seconds - 1.0
        transport = httpx.AsyncHTTPTransport(local_address="127.0.2.1")
        cookies = {"madang_device": device} if device else {}
        async with httpx.AsyncClient(
            base_url=base, transport=transport, timeout=60, cookies=cookies
        ) as c:
            while time.monotonic() < stop:
                started_at = time.perf_counter()
                try:
                    r = await c.post(
                        "/api/login", json={"username": honest[0], "password": honest[1]}
                    )
                    status = r.status_code
                except httpx.HTTPError:
                    status = 0
                out.honest.append((status, time.perf_counter() - started_at))
                await asyncio.sleep(every)
        out.flood.update(await asyncio.to_thread(results.get, True, seconds + 60))
    finally:
        proc.join(10)
        if proc.is_alive():
            proc.kill()
    return out


def loopback_aliases_work() -> bool:
    """Whether this host can bind 127.0.1.1 (Linux: all of 127/8 is loopback)."""
    try:
        with socket.socket() as s:
            s.bind(("127.0.1.1", 0))
        return True
    except OSError:
        return False


__all__ = ["Flood", "free_port", "loopback_aliases_work", "register", "run_flood", "serve"]
