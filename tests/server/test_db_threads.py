"""The one database-thread policy: every store call runs in the engine's own threads."""

from __future__ import annotations

import asyncio
import os
import threading

import pytest

from madang.server.db import close_db_threads, db_threads, make_engine, migrate, run_in_db


def _where(engine: object, tag: str) -> tuple[str, str]:
    return tag, threading.current_thread().name


def test_sqlite_calls_run_in_one_database_thread() -> None:
    engine = make_engine("sqlite://")
    assert db_threads(engine) == 1

    async def main() -> list[tuple[str, str]]:
        await run_in_db(engine, migrate)
        return await asyncio.gather(*(run_in_db(engine, _where, str(i)) for i in range(8)))

    got = asyncio.run(main())
    assert [t for t, _ in got] == [str(i) for i in range(8)]  # in order, one thread
    assert {name for _, name in got} == {"madang-db_0"}
    close_db_threads(engine)
    engine.dispose()


@pytest.mark.skipif(
    not os.environ.get("MADANG_TEST_POSTGRES_URL"),
    reason="needs PostgreSQL: MADANG_TEST_POSTGRES_URL is not set",
)
def test_postgresql_gets_the_pool_size_in_threads() -> None:
    engine = make_engine(os.environ["MADANG_TEST_POSTGRES_URL"])
    assert db_threads(engine) == 10

    async def main() -> list[tuple[str, str]]:
        return await asyncio.gather(*(run_in_db(engine, _where, str(i)) for i in range(4)))

    got = asyncio.run(main())
    assert all(name.startswith("madang-db") for _, name in got)
    close_db_threads(engine)
    engine.dispose()
