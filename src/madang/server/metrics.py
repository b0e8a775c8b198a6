"""The server's Prometheus metrics, for the operator only: served on a port of their own
(``madang serve --metrics-port``, loopback by default: :func:`serve_operator`), never on
the public port, which any player can reach.

Counted by the rooms as they go (one registry for the process): moves stored, the time a
person's move takes from its arrival at the table to the update that shows it (the
journal's commit included), and tables taken over from a process that stopped holding
them. A mahjong claim window's answers are counted when its pause ends, with the rest of
what the pause hid (``docs/server.md``, Claims). Read when scraped: the tables this
process plays, the sockets it holds, whether it is draining, and its name in a cluster.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily, InfoMetricFamily
from prometheus_client.registry import Collector

__all__ = [
    "FAILOVERS",
    "MOVES",
    "MOVE_SECONDS",
    "REGISTRY",
    "Operator",
    "operator_registry",
    "serve_operator",
]

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
    """The counters of :data:`REGISTRY` and the gauges ``read`` gives when scraped (in
    the metrics server's thread: ``read`` must only copy what it reads)."""

    def __init__(self, read: Callable[[], dict[str, float]], node: str | None) -> None:
        self.read = read
        self.node = node

    def collect(self) -> Iterator[Any]:
        yield from REGISTRY.collect()
        helps = {
            "madang_tables": "Open tables played by this process.",
            "madang_connections": "Table sockets open on this process.",
            "madang_draining": "1 while this process hands its tables over (SIGTERM).",
        }
        for name, value in self.read().items():
            g = GaugeMetricFamily(name, helps.get(name, name))
            g.add_metric([], value)
            yield g
        if self.node is not None:
            yield InfoMetricFamily("madang_node", "This process's name in the cluster.",
                                   value={"node": self.node})  # fmt: skip


def operator_registry(read: Callable[[], dict[str, float]], node: str | None) -> CollectorRegistry:
    """A registry of everything the operator sees: the counters and the live gauges."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Live(read, node))
    return registry


class Operator:
    """The operator's metrics server (``prometheus_client``'s own, in a thread)."""

    def __init__(self, server: WSGIServer, thread: threading.Thread) -> None:
        self.server = server
        self.thread = thread

    @property
    def port(self) -> int:
        """The port it listens on (the one asked for, or the one given for 0)."""
        return int(self.server.server_address[1])

    def close(self) -> None:
        """Stop serving and free the port."""
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


def serve_operator(
    host: str, port: int, read: Callable[[], dict[str, float]], node: str | None = None
) -> Operator:
    """Serve the metrics (Prometheus text, at any path) on ``host:port``."""
    server, thread = start_http_server(port, host, registry=operator_registry(read, node))
    return Operator(server, thread)
