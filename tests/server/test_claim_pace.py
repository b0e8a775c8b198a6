"""Mahjong's pace and claims (``docs/server.md``, Claims): a person asked to claim gets
``claim_decision_seconds`` and the table waits for them; an offer that asks no person
lasts the uniform pause (bots' answers are held, never waited for); at a table of several
people the pause an observer sees has the same distribution whether or not a person was
asked (decoys); a declared 엎어/불러 hand answers 쏘아 on its winning tile when its time
runs out, and discards a drawn tile it cannot win on by itself."""

from __future__ import annotations

import importlib.util
import json
import random
import statistics
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from scipy.stats import ks_2samp
from starlette.testclient import TestClient

from madang.server import pauses as pauses_module
from madang.server.config import ServerConfig
from madang.server.db import make_engine
from madang.server.room import Kind, Room, Seat

from .conftest import recv_until, register, use_session
from .test_ws import hello, new_table

BOTS = [{"kind": "bot", "level": "normal"}] * 3


@pytest.fixture(autouse=True)
def own_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's decoys come from its own tables' pauses, not the process's earlier ones."""
    monkeypatch.setattr(pauses_module, "_SHARED", deque(maxlen=pauses_module.POOL))


def mahjong_table(c: TestClient, bots: list[dict[str, Any]] = BOTS) -> int:
    register(c)
    return new_table(c, {"game": "mahjong", "seats": [{"kind": "human"}, *bots]})


def act(ws: Any, version: int, action: str) -> None:
    ws.send_text(json.dumps({"type": "act", "version": version, "action": action}))


def plain_discard(legal: list[str]) -> str:
    return next(a for a in legal if a.startswith("discard") and len(a.split()) == 2)


def test_a_person_asked_to_claim_gets_the_decision_time(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(claim_seconds=0.05, claim_decision_seconds=1.5)
    tid = mahjong_table(c)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        m = hello(ws)
        for _ in range(5000):
            p, version = m["prompt"], m["version"]
            if p and p["question"] == "claim":
                break
            if p:
                act(ws, version, plain_discard(p["legal"]))
            m = recv_until(ws, "update")
            assert "result" not in m, "no claim question in this hand"
        assert 1300 <= p["remaining_ms"] <= 1500  # the decision time, not the 0.05 s pause
        asked = time.monotonic()
        time.sleep(0.8)  # well past the uniform pause: the table waits for the answer
        act(ws, version, "pass")
        m = recv_until(ws, "update")
        assert time.monotonic() - asked >= 0.8
        assert "timeout" not in m  # the answer was taken, not a timeout's
        assert any(e["type"] == "answer" and e["seat"] == 0 for e in m["events"]), m["events"]


def test_offers_that_ask_no_person_do_not_wait_for_the_decision_time(
    make_client: Callable[..., TestClient],
) -> None:
    # Bots' windows (and no window) last the uniform pause: a whole hand in which the
    # person answers at once takes far less than the decision time per offer.
    c = make_client(claim_seconds=0.03, claim_decision_seconds=5.0)
    tid = mahjong_table(c)
    pauses: list[float] = []
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        m = hello(ws)
        offered: float | None = None
        for _ in range(5000):
            p, version = m["prompt"], m["version"]
            if p:
                act(ws, version, "pass" if p["question"] == "claim" else plain_discard(p["legal"]))
            m = recv_until(ws, "update")
            now = time.monotonic()
            types = {e["type"] for e in m["events"]}
            if offered is not None and not types <= {"ask", "answer"}:
                pauses.append(now - offered)
                offered = None
            if types & {"discard", "kakan"} and not (m["prompt"] and m["prompt"]["seat"] == 0):
                offered = now  # an offer that does not ask this person
            if "result" in m:
                break
    gid = c.get("/api/games").json()["games"][0]["id"]
    moves = c.get(f"/api/games/{gid}").json()["record"]["moves"]
    assert any(mv.split()[0] in "123" and mv.split()[1] == "pass" for mv in moves), moves
    assert len(pauses) > 10
    # never the 5 s decision time (a loaded machine may stretch one pause, not the hand)
    assert all(0.02 <= s < 4.0 for s in pauses), pauses
    assert statistics.median(pauses) < 0.5, pauses


def offering_room(cfg: ServerConfig, *, people: int, seed: int) -> tuple[Room, Window]:
    """A room (not started) with ``people`` person seats first, then bots, whose session
    is a :class:`Window`."""
    seats = [Seat(i, Kind.HUMAN, user_id=i + 1) for i in range(people)]
    seats += [Seat(i, Kind.BOT, level="normal") for i in range(people, 4)]
    room = Room(
        table_id=1, game="mahjong", preset="default", stake=1, private=False, invite="x",
        seats=seats, config=cfg, engine=make_engine("sqlite://"), seed=seed,
    )  # fmt: skip
    win = Window()
    room.session = win  # type: ignore[assignment]
    return room, win


class Window:
    """A stand-in session whose next offer asks ``seats`` (the room only reads its window
    of the offer hook, :class:`madang.core.game.Pacing`, which it implements)."""

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


def observed_pauses(rate: float, n: int, seed: int) -> tuple[list[float], list[float]]:
    """Offers at a table of two people (seats 0, 1) and two bots, as the room times them:
    seat 1 is asked in a fifth of them and answers after a log-normal time (median 1.5 s);
    the rest ask nobody or a bot. The pauses an observer (seat 0, a spectator) sees, with
    and without seat 1 asked."""
    cfg = ServerConfig(claim_seconds=0.6, claim_decision_seconds=8.0, claim_decoy_rate=rate)
    room, win = offering_room(cfg, people=2, seed=seed)
    rng = random.Random(seed)
    asked: list[float] = []
    not_asked: list[float] = []
    t = 0.0
    for _ in range(n):
        t += 30.0
        person = rng.random() < 0.2
        win.seats = [1] if person else rng.choice([[], [], [2], [3, 2]])
        room._open_offer(t)
        if person:
            answer = min(rng.lognormvariate(0.405, 0.6), 8.0)
            room._offer_answered(t + answer)
        assert room.offer_until is not None and room.offer_until >= room.offer_min
        (asked if person else not_asked).append(room.offer_until - t)
    return asked, not_asked


def test_observers_see_the_same_pauses_with_and_without_a_window() -> None:
    asked, not_asked = observed_pauses(1.0, 3000, seed=5)
    assert min(asked + not_asked) >= 0.6 - 1e-9
    assert ks_2samp(asked[100:], not_asked[400:]).pvalue > 0.01  # past the warm-up
    # without decoys the pause gives a person's window away
    asked, not_asked = observed_pauses(0.0, 1000, seed=5)
    assert {round(x, 9) for x in not_asked} == {0.6}
    assert ks_2samp(asked, not_asked).pvalue < 1e-6


def test_one_person_and_bots_draw_no_decoys() -> None:
    cfg = ServerConfig(claim_seconds=0.6, claim_decoy_rate=1.0)
    room, win = offering_room(cfg, people=1, seed=6)
    room.pauses.asked(3.0)  # decoys would have a length to draw
    for i in range(200):
        win.seats = [1, 2] if i % 2 else []  # bots only, or nobody
        room._open_offer(float(i))
        assert room.offer_until == room.offer_min == pytest.approx(i + 0.6)
    win.seats = [0, 2]  # the person: the table waits for them
    room._open_offer(1000.0)
    assert room.offer_until == 1008.0


def test_a_declared_hand_wins_on_timeout_and_discards_by_itself(
    make_client: Callable[..., TestClient],
) -> None:
    # Deal 7 (table 1 of deal seed 7, as in review U2): the person may declare 불러 on
    # their first turn, and a bot later discards one of its waits. After declaring, the
    # person never answers: each drawn tile it cannot win on is discarded for it after
    # bot_delay (not a timeout), and on the winning tile its time runs out to 쏘아.
    c = make_client(
        deal_seed=7, bot_delay=0.05, turn_seconds=5.0, claim_seconds=0.02,
        claim_decision_seconds=0.3,
    )  # fmt: skip
    tid = mahjong_table(c, [{"kind": "bot", "level": "easy"}] * 3)
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        m = hello(ws)
        while not (m["prompt"] and m["prompt"]["seat"] == 0):
            m = recv_until(ws, "update")
        declare = next(a for a in m["prompt"]["legal"] if a.endswith("bulleo"))
        act(ws, m["version"], declare)
        auto = 0
        timeouts = []
        asked: float | None = None
        for _ in range(5000):
            m = recv_until(ws, "update")
            now = time.monotonic()
            mine = [e for e in m["events"] if e["type"] == "discard" and e["seat"] == 0]
            if mine and asked is not None:
                assert "timeout" not in m and now - asked < 2.0  # by itself, not at 5 s
                auto += 1
            if m.get("timeout") == 0:
                timeouts.append(m["events"])
            asked = None
            p = m["prompt"]
            if p and p["question"] != "claim":
                assert len(p["legal"]) == 1 and p["legal"][0].startswith("discard"), p
                asked = now
            if "result" in m:
                break
    assert auto >= 1
    assert len(timeouts) == 1  # the person's time ran out once: on the winning tile …
    (win,) = m["view"]["result"]["winners"]
    assert win["seat"] == 0 and win["by"] == "ron" and "bulleo" in win["flags"]  # … to 쏘아


def test_a_spectator_of_two_people_sees_decoys_as_long_as_their_windows(
    make_client: Callable[..., TestClient],
) -> None:
    # Two people (who never answer: their time runs out, so a window that asks one of
    # them lasts the decision time) and two bots; a spectator times every offer. The
    # offers that asked no person last as long as those that did (decoys), not the
    # uniform 0.02 s.
    c = make_client(
        claim_seconds=0.02, claim_decision_seconds=0.2, turn_seconds=0.05, grace_seconds=60
    )
    register(c, "other1")
    other = c.cookies.get("madang_session") or ""
    c.cookies.clear()
    register(c, "host1")
    host = c.cookies.get("madang_session") or ""
    seats = [{"kind": "human"}, {"kind": "human"}, *BOTS[:2]]
    tid = new_table(c, {"game": "mahjong", "stake": 1, "seats": seats})
    use_session(c, other)
    assert c.post(f"/api/tables/{tid}/join", json={"stake": 1}).status_code == 200
    room: Room = c.app.state.hub.rooms[tid]  # type: ignore[attr-defined]
    pauses: list[float] = []
    with c.websocket_connect(f"/ws/tables/{tid}") as ws_other:
        hello(ws_other)
        use_session(c, host)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws_host:
            hello(ws_host)
            register(c, "watcher")
            with c.websocket_connect(f"/ws/tables/{tid}") as ws:
                m = hello(ws)
                offered: float | None = None
                while len(pauses) < 30 and m.get("result") is None:
                    m = recv_until(ws, "update")
                    now = time.monotonic()
                    if offered is not None:
                        pauses.append(now - offered)
                        offered = None
                    if any(e["type"] in ("discard", "kakan") for e in m["events"]):
                        offered = now
                moves = room.session.record()["moves"]  # type: ignore[union-attr]
    asked: list[bool] = []  # per offer, in order: whether a person answered in its window
    for mv in moves:
        seat, verb = int(mv.split()[0]), mv.split()[1]
        if verb in ("discard", "kakan"):
            asked.append(False)
        elif verb in ("pass", "pon", "kan", "ron") and seat in (0, 1):
            asked[-1] = True
    with_person = [p for p, a in zip(pauses, asked, strict=False) if a]
    without = [p for p, a in zip(pauses, asked, strict=False) if not a]
    assert with_person and len(without) > 8, (asked, pauses)
    assert min(pauses) > 0.01  # the uniform pause, as a client measures it
    assert statistics.median(without) > 0.15  # decoys, not the 0.02 s uniform pause
    assert abs(statistics.median(without) - statistics.median(with_person)) < 0.1


def test_the_pace_benchmark_measures_the_leak() -> None:
    """``benchmarks/mahjong_pace.py``'s leak measure runs on the room as it is (its
    stand-in session implements the whole offer hook) and tells the default decoys from
    none."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "mahjong_pace.py"
    spec = importlib.util.spec_from_file_location("mahjong_pace", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    asked, other = bench.pauses(1.0, 2000, seed=1)
    decoys = bench.leak(asked[len(asked) // 10 :], other[len(other) // 10 :])
    assert decoys["p"] > 0.01 and decoys["mi_bits"] < 0.02, decoys
    asked, other = bench.pauses(0.0, 2000, seed=1)
    bare = bench.leak(asked, other)
    assert bare["ks"] > 0.8 and bare["accuracy"] > bare["base"] + 0.1, bare
