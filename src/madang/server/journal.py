"""Writing the move journal with group commits.

Every room stores each accepted move before it shows it (``docs/server.md``). One
transaction per move would cost the server as much CPU as playing the move, so the
rooms' moves share transactions: a room's :meth:`JournalWriter.append` waits until its
row is committed, and while one batch is being written in the database thread the rows
that arrive meanwhile gather into the next. Under light load a move is written alone
(no waiting for a batch to fill); under heavy load batches grow by themselves.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from sqlalchemy.engine import Engine

from madang.server import store
from madang.server.db import run_in_db

__all__ = ["JournalWriter", "journal_of"]


class JournalWriter:
    """The journal of one database, shared by every room of the process."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._rows: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None

    async def append(self, row: dict[str, Any]) -> None:
        """Store ``row`` (``game_id``, ``seq``, ``seat``, ``move``, ``timed_out``);
        return once it is committed, or raise what the write raised."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._rows.append((row, fut))
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._task = loop.create_task(self._write())
        await fut

    async def _write(self) -> None:
        while self._rows:
            batch, self._rows = self._rows, []
            try:
                await run_in_db(self.engine, store.journal_moves, [r for r, _ in batch])
            except Exception as e:
                if len(batch) == 1:
                    _settle(batch[0][1], e)
                    continue
                for row, f in batch:  # one bad row must not fail the other tables' moves
                    try:
                        await run_in_db(self.engine, store.journal_moves, [row])
                    except Exception as e1:
                        _settle(f, e1)
                    else:
                        _settle(f, None)
            else:
                for _, f in batch:
                    _settle(f, None)


def _settle(f: asyncio.Future[None], error: BaseException | None) -> None:
    if f.done():  # the room gave up waiting (it closed)
        return
    if error is None:
        f.set_result(None)
    else:
        f.set_exception(error)


_WRITERS: weakref.WeakKeyDictionary[Engine, JournalWriter] = weakref.WeakKeyDictionary()


def journal_of(engine: Engine) -> JournalWriter:
    """The engine's journal writer (one per database per process)."""
    w = _WRITERS.get(engine)
    if w is None:
        w = _WRITERS[engine] = JournalWriter(engine)
    return w
