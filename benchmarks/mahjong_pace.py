"""Mahjong's pace against bots, and what the claim pause leaks (issue 26 item 4).

    python3 benchmarks/mahjong_pace.py --hands 3 --think-ms 0
    python3 benchmarks/mahjong_pace.py --hands 3 --think-ms 1200 --claim-ms 1500

Pace: a real server (uvicorn in a thread, the default settings but a temporary SQLite
database and a fixed deal seed) with one person, a scripted WebSocket client answering
its own turns after ``--think-ms`` and its claim questions (always 패스) after
``--claim-ms``, against three ``normal`` bots. It prints the median and 90th percentile of
the time between the person's turns (from one turn's question to the next; and the
person's wait, from their discard to their next question) and the decision time a claim
question offers.

Leak: offers at a table of two people and two bots, timed by the room's own code
(``Room._open_offer``): a person is asked in a fifth of them and answers after a
log-normal time (median 1.5 s, capped at the decision time). For each ``claim_decoy_rate``
it prints what an observer (the other person, a spectator) can tell from the pause: the
two-sample Kolmogorov–Smirnov statistic and p-value between the pauses with and without a
person asked, the best threshold classifier's accuracy against always guessing "nobody
asked", and the mutual information between the pause and the window (bits per offer,
from a histogram).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import math
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets

from madang.server.app import create_app
from madang.server.cli import uvicorn_config
from madang.server.config import ServerConfig
from madang.server.db import make_engine
from madang.server.room import Kind, Room, Seat


def serve(config: ServerConfig) -> tuple[uvicorn.Server, int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    server = uvicorn.Server(uvicorn_config(create_app(config), config, host="127.0.0.1", port=port))
    threading.Thread(target=server.run, daemon=True).start()
    for _ in range(500):
        if server.started:
            return server, port
        time.sleep(0.02)
    raise RuntimeError("the server did not start")


def plain_discard(legal: list[str]) -> str:
    return next(a for a in legal if a.startswith("discard") and len(a.split()) == 2)


async def play(port: int, hands: int, think: float, claim: float) -> dict[str, list[float]]:
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base) as http:
        (await http.post("/api/guest", json={})).raise_for_status()
        bots = [{"kind": "bot", "level": "normal"}] * 3
        body = {"game": "mahjong", "stake": 1, "seats": [{"kind": "human"}, *bots]}
        r = await http.post("/api/tables", json=body)
        r.raise_for_status()
        tid = r.json()["table"]["id"]
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    turns: list[float] = []  # when each own-turn question arrived
    waits: list[float] = []  # from the person's discard to their next question
    offered: list[float] = []  # the claim questions' decision time (s)
    sent_at: float | None = None
    url = f"ws://127.0.0.1:{port}/ws/tables/{tid}"
    async with websockets.connect(url, additional_headers={"Cookie": cookie}) as ws:
        await ws.send(json.dumps({"type": "hello", "last_version": None}))
        played = 0
        while played < hands:
            m = json.loads(await ws.recv())
            if m["type"] not in ("snapshot", "update"):
                continue
            if m.get("result") is not None:
                played += 1
                turns.append(math.nan)  # a new hand: no interval across it
                sent_at = None
                await ws.send(json.dumps({"type": "ready"}))
                continue
            p = m.get("prompt")
            if not p or p["seat"] != 0:
                continue
            now = time.monotonic()
            if p["question"] == "claim":
                offered.append(p["remaining_ms"] / 1000)
                await asyncio.sleep(claim)
                move = "pass"
            else:
                turns.append(now)
                if sent_at is not None:
                    waits.append(now - sent_at)
                await asyncio.sleep(think)
                legal = p["legal"]
                move = plain_discard(legal) if any(" " in a for a in legal) else legal[0]
            await ws.send(json.dumps({"type": "act", "version": m["version"], "action": move}))
            if p["question"] != "claim":
                sent_at = time.monotonic()
    between = [b - a for a, b in itertools.pairwise(turns) if not math.isnan(a + b)]
    return {"between": between, "waits": waits, "offered": offered}


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else math.nan


class Window:
    """A stand-in session whose next offer asks ``seats``: the room reads only its offer
    hook (:class:`madang.core.game.Pacing`), so it implements all of that hook."""

    offering = False

    def __init__(self) -> None:
        self.seats: list[int] = []

    def window(self) -> list[int]:
        return self.seats

    def offered_view(self, seat: int | None) -> dict[str, Any]:
        raise AssertionError("not shown")

    def split_offer(self, events: list[Any]) -> tuple[list[Any], list[Any]]:
        return events, []

    def end_offer(self) -> None:
        self.offering = False


def pauses(rate: float, n: int, seed: int) -> tuple[list[float], list[float]]:
    """The pauses an observer sees with and without the other person asked."""
    cfg = ServerConfig(claim_decoy_rate=rate)
    seats = [Seat(0, Kind.HUMAN, user_id=1), Seat(1, Kind.HUMAN, user_id=2)]
    seats += [Seat(i, Kind.BOT, level="normal") for i in (2, 3)]
    room = Room(
        table_id=1, game="mahjong", preset="default", stake=1, private=False, invite="x",
        seats=seats, config=cfg, engine=make_engine("sqlite://"), seed=seed,
    )  # fmt: skip
    win = Window()
    room.session = win  # type: ignore[assignment]
    rng = random.Random(seed)
    asked: list[float] = []
    other: list[float] = []
    for i in range(n):
        t = 30.0 * i
        person = rng.random() < 0.2
        win.seats = [1] if person else rng.choice([[], [], [2], [3, 2]])
        room._open_offer(t)
        if person:
            room._offer_answered(t + min(rng.lognormvariate(math.log(1.5), 0.6), 8.0))
        assert room.offer_until is not None
        (asked if person else other).append(room.offer_until - t)
    return asked, other


def leak(asked: list[float], other: list[float]) -> dict[str, float]:
    from scipy.stats import ks_2samp

    n = len(asked) + len(other)
    base = max(len(asked), len(other)) / n
    # guess "asked" above a cut: sweep the cuts over the pauses in order
    right = len(asked)  # the cut below every pause
    best = max(base, right / n)
    marks = sorted([(x, True) for x in asked] + [(x, False) for x in other])
    for i, (x, was_asked) in enumerate(marks):
        right += -1 if was_asked else 1
        if i + 1 == len(marks) or marks[i + 1][0] != x:  # a cut between two pauses
            best = max(best, right / n)
    bins = [0.0, 0.61, 1.0, 1.5, 2.0, 3.0, 4.5, 8.0, 9.0]

    def hist(xs: list[float]) -> Counter[int]:
        return Counter(next(i for i, b in enumerate(bins[1:]) if x <= b) for x in xs)

    ha, ho = hist(asked), hist(other)
    pw = len(asked) / n
    mi = 0.0
    for b in set(ha) | set(ho):
        pb = (ha[b] + ho[b]) / n
        for h, pws in ((ha, pw), (ho, 1 - pw)):
            joint = h[b] / n
            if joint:
                mi += joint * math.log2(joint / (pb * pws))
    ks = ks_2samp(asked, other)
    return {"ks": float(ks.statistic), "p": float(ks.pvalue), "accuracy": best, "base": base,
            "mi_bits": mi}  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--think-ms", type=int, default=0, help="the person's time per own turn")
    ap.add_argument("--claim-ms", type=int, default=0, help="the person's time per claim")
    ap.add_argument("--deal-seed", type=int, default=40)
    ap.add_argument("--offers", type=int, default=20000, help="offers simulated per decoy rate")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as data:
        cfg = ServerConfig(data_dir=data, deal_seed=args.deal_seed, web_dir=Path(data))
        server, port = serve(cfg)
        started = time.monotonic()
        got = asyncio.run(play(port, args.hands, args.think_ms / 1000, args.claim_ms / 1000))
        server.should_exit = True
    print(f"settings: claim_seconds {cfg.claim_seconds} s, claim_decision_seconds "
          f"{cfg.claim_decision_seconds} s, bot_delay {cfg.bot_delay} s; the person thinks "
          f"{args.think_ms} ms a turn, {args.claim_ms} ms a claim")  # fmt: skip
    b, w, o = got["between"], got["waits"], got["offered"]
    print(f"{args.hands} hands in {time.monotonic() - started:.1f} s, {len(b)} intervals")
    print(f"between the person's turns: median {statistics.median(b):.2f} s, "
          f"p90 {pct(b, 0.9):.2f} s")  # fmt: skip
    print(f"the person's wait (discard to next turn): median {statistics.median(w):.2f} s, "
          f"p90 {pct(w, 0.9):.2f} s")  # fmt: skip
    if o:
        print(f"claim questions: {len(o)}, decision time offered: median "
              f"{statistics.median(o):.2f} s (min {min(o):.2f})")  # fmt: skip
    else:
        print("claim questions: none in these hands")
    print(f"\nleak at a table of two people and two bots ({args.offers} offers a row):")
    print("decoy rate   KS D    KS p      best accuracy (vs always 'no')   MI bits/offer"
          "   mean pause")  # fmt: skip
    for rate in (1.0, 0.5, 0.2, 0.0):
        a, other = pauses(rate, args.offers, seed=1)
        a, other = a[len(a) // 10 :], other[len(other) // 10 :]  # past the decoys' warm-up
        r = leak(a, other)
        mean = statistics.fmean(a + other)
        print(f"{rate:10.1f}   {r['ks']:.3f}  {r['p']:.2e}   {r['accuracy']:.3f} ({r['base']:.3f})"
              f"                    {r['mi_bits']:.4f}          {mean:.2f} s")  # fmt: skip
    sys.stdout.flush()


if __name__ == "__main__":
    main()
