"""Time to a seat with 빠른 시작 (quick match): person + person and person + computer.

    python3 benchmarks/quick_match.py --rounds 20

Starts ``madang serve`` (SQLite in a temporary folder, the default ``quick_fill_seconds``
unless ``--fill`` says otherwise), then for each round:

* person + person: two new guests ask for 맞고 at the same stake, the second 50 ms after
  the first; the time from the SECOND one's request to both answers (the first one's
  whole wait is printed too);
* person + computer: one new guest asks for 마작 alone; the time from the request to the
  answer (the fill time plus making the table).

Prints the median, 90th percentile and largest of each. ``--url`` measures a server that
is already running (its guest limit must allow ``3 × rounds`` guests from this address).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def guest(base: str) -> httpx.AsyncClient:
    c = httpx.AsyncClient(base_url=base, timeout=30)
    r = await c.post("/api/guest", json={})
    r.raise_for_status()
    return c


async def ask(c: httpx.AsyncClient, game: str, stake: int) -> tuple[float, dict[str, object]]:
    start = time.perf_counter()
    r = await c.post("/api/quick", json={"game": game, "stake": stake})
    took = time.perf_counter() - start
    if r.status_code != 201:
        raise RuntimeError(f"quick match answered {r.status_code}: {r.text}")
    return took, r.json()


async def pair(base: str) -> tuple[float, float]:
    """Two people for 맞고; (the second's time to a seat, the first's)."""
    a, b = await guest(base), await guest(base)
    try:
        first = asyncio.create_task(ask(a, "matgo", 1))
        await asyncio.sleep(0.05)
        (second_s, got_b), (first_s, got_a) = await asyncio.gather(ask(b, "matgo", 1), first)
        assert got_a["table"] == got_b["table"], "not seated together"
        return second_s, first_s
    finally:
        await a.aclose()
        await b.aclose()


async def solo(base: str) -> float:
    """One person for 마작: the computer fills the other three seats."""
    c = await guest(base)
    try:
        took, got = await ask(c, "mahjong", 1)
        assert got["people"] == 1
        return took
    finally:
        await c.aclose()


def summary(name: str, xs: list[float]) -> str:
    xs = sorted(xs)
    p90 = xs[min(len(xs) - 1, int(0.9 * len(xs)))]
    return (
        f"{name:<34} n={len(xs):<3} median {statistics.median(xs) * 1000:7.1f} ms   "
        f"p90 {p90 * 1000:7.1f} ms   max {xs[-1] * 1000:7.1f} ms"
    )


async def run(base: str, rounds: int) -> None:
    seconds, firsts, alone = [], [], []
    for _ in range(rounds):
        s, f = await pair(base)
        seconds.append(s)
        firsts.append(f)
        alone.append(await solo(base))
    print(summary("person + person (second to ask)", seconds))
    print(summary("person + person (first, waited)", firsts))
    print(summary("person + computer (mahjong)", alone))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--fill", type=float, default=None, help="quick_fill_seconds (default 3)")
    ap.add_argument("--url", default=None, help="a running server instead of starting one")
    args = ap.parse_args()
    if args.url:
        asyncio.run(run(args.url, args.rounds))
        return
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        sets = ["--set", f"guest_limit={4 * args.rounds + 10}/hour"]
        if args.fill is not None:
            sets += ["--set", f"quick_fill_seconds={args.fill}"]
        proc = subprocess.Popen(
            [sys.executable, "-m", "madang", "serve", "--port", str(port), "--data", data,
             *sets],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=os.environ.copy(),
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(150):
                try:
                    if httpx.get(base + "/api/config", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.2)
            else:
                raise SystemExit("madang serve did not start")
            asyncio.run(run(base, args.rounds))
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
