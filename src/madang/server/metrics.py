"""The server's Prometheus metrics (``GET /metrics``, the text exposition format).

Counted by the rooms as they go (one registry for the process): moves stored, the time a
person's move takes from its arrival at the table to the update that shows it (the
journal's commit included), and tables taken over from a process that stopped holding
them. Read when scraped: the tables this process plays, the sockets it holds, whether it
is draining.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

__all__ = ["FAILOVERS", "MOVES", "MOVE_SECONDS", "REGISTRY", "exposition"]

REGISTRY = CollectorRegistry(auto_describe=True)

MOVES = Counter(
    "madang_moves", "Moves stored in the journal (people's, bots' and timeouts').",
    registry=REGISTRY,
)  # fmt: skip
MOVE_SECONDS = Histogram(
    "madang_move_seconds",
    "A person's move: from its arrival at the table to the update that shows it.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY,
)
FAILOVERS = Counter(
    "madang_failovers",
    "Tables this process took over from a process that stopped holding them.",
    registry=REGISTRY,
)


class _Live(Collector):
    def __init__(self, read: Callable[[], dict[str, float]]) -> None:
        self.read = read

    def collect(self) -> Iterator[Any]:
        helps = {
            "madang_tables": "Open tables played by this process.",
            "madang_connections": "Table sockets open on this process.",
            "madang_draining": "1 while this process hands its tables over (SIGTERM).",
        }
        for name, value in self.read().items():
            g = GaugeMetricFamily(name, helps.get(name, name))
            g.add_metric([], value)
            yield g


def exposition(read: Callable[[], dict[str, float]]) -> bytes:
    """The metrics as Prometheus text: the counters and the gauges ``read`` gives."""
    live = CollectorRegistry()
    live.register(_Live(read))
    return generate_latest(REGISTRY) + generate_latest(live)
