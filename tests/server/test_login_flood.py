"""A flood of wrong passwords cannot lock everyone out (issue 25, review §3.4): the
hashing queue's lanes and per-address share (``auth.Passwords``), in themselves and
under a flood from 32 addresses against a real server."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from tests.server.flood import loopback_aliases_work, register, run_flood, serve

from madang.server.auth import Passwords, Throttles
from madang.server.wire import WireError


def gated(gate: threading.Event, order: list[str], name: str) -> str:
    order.append(name)
    gate.wait(10)
    return name


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0.005)


def test_one_hash_per_key_at_a_time_and_a_full_lane_is_busy() -> None:
    async def main() -> None:
        pw = Passwords(time_cost=1, memory_kib=8192, workers=1, queue=1)
        gate, order = threading.Event(), []
        first = asyncio.ensure_future(pw.run(gated, gate, order, "a", key="10.0.0.1"))
        await settle()
        with pytest.raises(WireError) as e:  # its first is under way
            await pw.run(gated, gate, order, "a2", key="10.0.0.1")
        assert e.value.code == "throttled" and e.value.retry_after is not None
        second = asyncio.ensure_future(pw.run(gated, gate, order, "b", key="10.0.0.2"))
        await settle()
        with pytest.raises(WireError) as e:  # one running, one waiting: the lane is full
            await pw.run(gated, gate, order, "c", key="10.0.0.3")
        assert e.value.code == "busy"
        gate.set()
        assert await first == "a" and await second == "b"
        assert await pw.run(gated, gate, order, "a3", key="10.0.0.1") == "a3"  # free again
        assert order == ["a", "b", "a3"]
        pw.close()

    asyncio.run(main())


def test_a_known_device_waits_for_one_stranger_at_most() -> None:
    async def main() -> None:
        pw = Passwords(time_cost=1, memory_kib=8192, workers=1, queue=8)
        gate, order = threading.Event(), []
        jobs = [asyncio.ensure_future(pw.run(gated, gate, order, "s0", key="s0"))]
        await settle()
        jobs += [
            asyncio.ensure_future(pw.run(gated, gate, order, f"s{i}", key=f"s{i}"))
            for i in range(1, 6)
        ]
        await settle()
        with pytest.raises(WireError):  # the strangers' lane is not the device's
            await pw.run(gated, gate, order, "x", key="s3")
        jobs.append(
            asyncio.ensure_future(pw.run(gated, gate, order, "owner", key="d1", known=True))
        )
        gate.set()
        await asyncio.gather(*jobs)
        assert order.index("owner") <= 2, order  # after the running one and one more
        pw.close()

    asyncio.run(main())


def test_a_request_that_went_away_frees_its_place() -> None:
    async def main() -> None:
        pw = Passwords(time_cost=1, memory_kib=8192, workers=1, queue=2)
        gate, order = threading.Event(), []
        running = asyncio.ensure_future(pw.run(gated, gate, order, "a", key="a"))
        await settle()
        waiting = asyncio.ensure_future(pw.run(gated, gate, order, "b", key="b"))
        await settle()
        waiting.cancel()
        gate.set()
        await running
        assert await pw.run(gated, gate, order, "b2", key="b") == "b2"
        assert order == ["a", "b2"]  # the one cancelled never hashed
        pw.close()

    asyncio.run(main())


@pytest.mark.skipif(not loopback_aliases_work(), reason="needs 127.0.1.x on loopback")
def test_the_owner_logs_in_while_32_addresses_flood_wrong_passwords(tmp_path: Path) -> None:
    # the address throttle lifted, so that only the queue's lanes protect the owner;
    # argon2 cheaper than in production (benchmarks/login_flood.py runs the real cost),
    # still far slower than the flood: the strangers' lane stays full
    costs = ["--set", "argon2_time_cost=1", "--set", "argon2_memory_kib=32768"]
    with serve(tmp_path, "--set", "login_address_failures=1000000", *costs) as base:

        async def main() -> float:
            names = [f"player{i}" for i in range(4)]
            for name in names[1:]:
                await register(base, name, "secret-password")
            cookies = await register(base, names[0], "right-password")
            flood = await run_flood(
                base,
                names=names,
                honest=(names[0], "right-password"),
                device=cookies["madang_device"],
                seconds=8.0,
            )
            print(flood.line())
            assert len(flood.honest) >= 2 and flood.flood[503] > 20  # the lane was full
            return flood.success()

        assert asyncio.run(main()) >= 0.95


def test_attempts_refused_unchecked_count_against_the_address_alone() -> None:
    t = Throttles(pair_failures=5, address_failures=3, name_failures=50)
    for _ in range(3):  # busy, or one of its attempts still waiting
        t.refused("10.0.0.9", None)
    with pytest.raises(WireError) as e:
        t.check("minsu", "10.0.0.9", None)
    assert e.value.code == "throttled"
    t.check("minsu", "10.0.0.8", None)  # the name is not locked by it
    t.check("minsu", "10.0.0.9", "device-token")  # nor the owner's browser
    for _ in range(10):  # a known device refused busy: the server's fault, not counted
        t.refused("10.0.0.7", "device-token")
    t.check("minsu", "10.0.0.7", None)
