"""복기 on the server: reviews of finished games computed off the event loop.

:class:`Reviewer` runs :func:`madang.review.review` in a small process pool
(``review_workers`` processes, at a lower priority: nice +10 on Linux), so the tables'
event loop and threads never wait on a review's search. At most ``review_queue``
reviews are running or waiting; past that a request is answered ``busy`` (503,
``retry_after``) at once. Two requests for the same game and seat share one
computation. The route keeps each review with the game (``game_reviews``), so a game's
review is computed once.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from madang.server.wire import WireError

REVIEW_SEED = 0
"""The seed of the server's reviews (a review is deterministic from its seed)."""


def _lower_priority() -> None:
    """The workers' initializer: below the tables' process on a busy core."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux, or not allowed
        os.nice(10)


def _review(record: dict[str, Any], seat: int, samples: int) -> dict[str, Any]:
    from madang.review import review

    return review(record, seat, seed=REVIEW_SEED, samples=samples)


class Reviewer:
    """The bounded pool of review workers (see the module doc)."""

    def __init__(self, workers: int, queue: int, samples: int) -> None:
        self.workers = max(1, workers)
        self.queue = max(1, queue)
        self.samples = samples
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[tuple[int, int], asyncio.Future[dict[str, Any]]] = {}

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:  # started on first use: a server that reviews nothing has none
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
            )
        return self._pool

    @property
    def pending(self) -> int:
        """Reviews running or waiting for a worker."""
        return len(self._running)

    async def review(self, game_id: int, seat: int, record: dict[str, Any]) -> dict[str, Any]:
        """The review of ``seat`` in finished game ``game_id`` (its ``record``), computed
        in the pool; ``busy`` when ``queue`` reviews are already under way."""
        key = (game_id, seat)
        running = self._running.get(key)
        if running is None:
            if len(self._running) >= self.queue:
                raise WireError(
                    "busy",
                    "the server is reviewing other games; try again in a moment",
                    retry_after=2.0 * (1 + len(self._running) // self.workers),
                )
            loop = asyncio.get_running_loop()
            running = loop.run_in_executor(self._executor(), _review, record, seat, self.samples)
            self._running[key] = running
            running.add_done_callback(lambda _: self._running.pop(key, None))
        return await asyncio.shield(running)

    def close(self) -> None:
        """Stop the workers (server shutdown); reviews under way are dropped."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
