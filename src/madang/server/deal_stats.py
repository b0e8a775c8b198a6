"""Deal statistics of the server's finished games (:mod:`madang.stats`,
``docs/deal-stats.md``): the records read from the ``games`` table, the expectations
simulated once per process, the whole report cached with a bounded refresh.

>>> from madang.server.db import make_engine, migrate
>>> eng = make_engine("sqlite://")
>>> migrate(eng)
>>> database_report(eng, "matgo", simulate_games=20).games
0
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from madang import stats
from madang.core.registry import spec
from madang.server import db

__all__ = [
    "DealStatsCache",
    "StatsSettings",
    "Stopped",
    "database_report",
    "finished_records",
]

log = logging.getLogger("madang.server")


def finished_records(eng: Engine, game: str, batch: int = 500) -> Generator[Any, None, None]:
    """The records of ``game``'s finished games, oldest first, read in batches (a
    database whose schema has no ``games`` table: StatsError)."""
    if not sa.inspect(eng).has_table("games"):
        raise stats.StatsError("the database has no games table (not a madang database?)")
    q = (
        sa.select(db.games.c.record)
        .where(db.games.c.game == game, db.games.c.status == "finished")
        .order_by(db.games.c.id)
        .execution_options(yield_per=batch)
    )
    with eng.connect() as c:
        for row in c.execute(q):
            if row.record is not None:
                yield row.record


class Stopped(Exception):
    """A computation was stopped (the server is shutting down)."""


def _unless(stop: threading.Event | None, items: Iterable[Any]) -> Iterator[Any]:
    """``items`` until ``stop`` is set (then :class:`Stopped`)."""
    for item in items:
        if stop is not None and stop.is_set():
            raise Stopped("the deal statistics were stopped")
        yield item


_REFERENCES: OrderedDict[tuple[str, int, int, str, str], tuple[stats.Observation, ...]] = (
    OrderedDict()
)
_REFERENCES_LOCK = threading.Lock()
REFERENCES_KEPT = 8
"""How many simulated expectations a process keeps (the latest used)."""


def reference(
    game: str, n: int, seed: int, bot: str, preset: str, stop: threading.Event | None = None
) -> tuple[stats.Observation, ...]:
    """The simulated games of an expectation (computed once per process: they depend
    on nothing but the arguments); :class:`Stopped` when ``stop`` is set meanwhile (and
    nothing is kept)."""
    key = (game, n, seed, bot, preset)
    with _REFERENCES_LOCK:
        if key in _REFERENCES:
            _REFERENCES.move_to_end(key)
            return _REFERENCES[key]
    made = tuple(_unless(stop, stats.simulate(game, n, seed, bot=bot, preset=preset)))
    with _REFERENCES_LOCK:
        _REFERENCES[key] = made
        while len(_REFERENCES) > REFERENCES_KEPT:
            _REFERENCES.popitem(last=False)
    return made


def database_report(
    eng: Engine,
    game: str,
    *,
    preset: str = "default",
    simulate_games: int = 10_000,
    seed: int = 0,
    bot: str = "random",
    stop: threading.Event | None = None,
) -> stats.DealReport:
    """The deal statistics of ``game``'s finished games under ``preset`` (games under
    other rules are counted as skipped); :class:`Stopped` as soon as ``stop`` is set."""
    rules = spec(game).rules(preset).to_dict()
    counts = stats.RecordCounts()
    records = finished_records(eng, game)
    try:
        observed = stats.observations_of(
            game, _unless(stop, records), rules, strict=False, counts=counts
        )
        return stats.report(
            game,
            observed,
            reference(game, simulate_games, seed, bot, preset, stop),
            preset=preset,
            simulated=simulate_games,
            bot=bot,
            seed=seed,
            counts=counts,
        )
    finally:  # stopped or failed midway: the database connection goes back at once
        records.close()


def _log_failure(task: asyncio.Task[dict[str, Any]]) -> None:
    """Log a failed computation (its error is also raised to the next request)."""
    error = None if task.cancelled() else task.exception()
    if error is not None and not isinstance(error, Stopped):
        log.warning("deal statistics failed: %s", error)


@dataclass(frozen=True, slots=True)
class StatsSettings:
    """How the server computes its deal statistics page."""

    simulate_games: int = 10_000
    """Simulated games per game for the expectations (random self-play, seed ``seed``)."""
    seed: int = 0
    bot: str = "random"
    refresh_s: float = 600.0
    """A computed page is served this long before it is computed again."""


class DealStatsCache:
    """The page's JSON, computed in a thread (it reads the whole ``games`` table and
    replays every record), at most once per ``refresh_s``, never while a request waits:
    :meth:`get` answers the last value at once (None before the first one is ready)
    and starts a computation when there is none or it is older than ``refresh_s``.
    Concurrent requests share one computation; one that failed raises its error to
    the next request, which starts another. :meth:`close` stops a computation in
    progress within a game's simulation (a server's shutdown does not wait for it)."""

    def __init__(self, settings: StatsSettings) -> None:
        self.settings = settings
        self._value: dict[str, Any] | None = None
        self._at = 0.0
        self._task: asyncio.Task[dict[str, Any]] | None = None
        self._stop = threading.Event()

    def get(self, eng: Engine) -> dict[str, Any] | None:
        """The last computed value (None: the first is being computed)."""
        if self._stop.is_set():
            raise Stopped("the server is shutting down")
        task = self._task
        if task is not None and task.done():
            self._task = None
            error = task.exception()
            if error is not None:
                raise error
        fresh = self._value is not None and time.monotonic() - self._at < self.settings.refresh_s
        if not fresh and self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                asyncio.to_thread(self._compute, eng)
            )
            self._task.add_done_callback(_log_failure)
        return self._value

    async def wait(self) -> None:
        """Until the computation in progress (if any) ends (for tests and tools)."""
        if self._task is not None:
            await asyncio.wait([self._task])

    async def close(self) -> None:
        """Stop the computation in progress (if any) and wait for its thread to end;
        no computation starts after this."""
        self._stop.set()
        await self.wait()

    def _compute(self, eng: Engine) -> dict[str, Any]:
        s = self.settings
        t0 = time.perf_counter()
        reports = {
            g: database_report(
                eng, g, simulate_games=s.simulate_games, seed=s.seed, bot=s.bot, stop=self._stop
            ).to_dict()
            for g in stats.GAMES
        }
        value = {
            "status": "ready",
            "computed_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "seconds": round(time.perf_counter() - t0, 3),
            "refresh_s": s.refresh_s,
            "alpha": stats.ALPHA,
            "games": reports,
        }
        self._value, self._at = value, time.monotonic()
        return value
