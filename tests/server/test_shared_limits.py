"""The login throttles and account caps counted in Redis (:class:`auth.Counters`): two
processes (two sets of counters on one Redis) allow no more than one, and a Redis that
does not answer leaves each process counting on its own instead of refusing or letting
everything through. Needs Debian's ``redis-server`` and the redis client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server.cluster import RedisServer, free_port, have_cluster_tools

from madang.server.auth import Counters, RateLimits, Throttles
from madang.server.wire import WireError

pytestmark = pytest.mark.skipif(
    not have_cluster_tools(), reason="needs redis-server and the redis client"
)


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server.url
    finally:
        server.kill()


def attempts_before_429(throttles: list[Throttles], name: str, addr: str) -> int:
    """Wrong passwords, round robin over the processes, until the first refusal."""
    for n in range(100):
        t = throttles[n % len(throttles)]
        try:
            t.check(name, addr, None)
        except WireError as e:
            assert e.code == "throttled"
            return n
        t.fail(name, addr, None)
    raise AssertionError("never throttled")


def test_login_throttles_hold_across_processes(redis_url: str) -> None:
    three = [Throttles(counters=Counters(redis_url)) for _ in range(3)]
    assert attempts_before_429(three, "minsu", "198.51.100.1") == 5  # as on one process
    assert attempts_before_429([Throttles()], "minsu", "198.51.100.1") == 5
    # the owner's success on any process starts that pair afresh everywhere
    three[1].succeed("minsu", "198.51.100.1", None)
    assert attempts_before_429(three, "minsu", "198.51.100.1") == 5
    # the name's own limit (50 an hour from anywhere) is the cluster's too
    many = [f"203.0.113.{i}" for i in range(60)]
    for i, addr in enumerate(many[:50]):
        three[i % 3].fail("jiho", addr, None)
    with pytest.raises(WireError):
        three[2].check("jiho", many[55], None)


def test_account_caps_hold_across_processes(redis_url: str) -> None:
    three = [RateLimits("10/hour", "3/hour", Counters(redis_url)) for _ in range(3)]
    for i in range(3):
        three[i].hit("guest", "198.51.100.2")
    with pytest.raises(WireError) as e:
        three[0].hit("guest", "198.51.100.2")
    assert e.value.code == "throttled" and (e.value.retry_after or 0) > 0


def test_without_redis_each_process_counts_on_its_own() -> None:
    down = Counters(f"redis://127.0.0.1:{free_port()}/0", retry_s=60.0)  # nothing listens
    assert down.sharing
    t = Throttles(counters=down)
    assert attempts_before_429([t], "minsu", "198.51.100.3") == 5  # still throttled
    assert not down.sharing  # and Redis is not asked again for a while
    caps = RateLimits("10/hour", "2/hour", down)
    caps.hit("guest", "198.51.100.3")
    caps.hit("guest", "198.51.100.3")
    with pytest.raises(WireError):
        caps.hit("guest", "198.51.100.3")
