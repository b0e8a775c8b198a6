"""Fixtures: the real app on SQLite always, and on PostgreSQL when
``MADANG_TEST_POSTGRES_URL`` is set (every app test runs on both)."""

from __future__ import annotations

import functools
import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from madang.server.app import create_app
from madang.server.config import ServerConfig
from madang.server.db import alembic_config, make_engine, metadata, migrate

PG_URL = os.environ.get("MADANG_TEST_POSTGRES_URL")

BACKENDS = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=pytest.mark.skipif(not PG_URL, reason="MADANG_TEST_POSTGRES_URL is not set"),
    ),
]


def reset_postgres(url: str, *, drop: bool = False) -> None:
    """Empty the test database for the next test's app.

    When it holds exactly this version's schema (the tables of ``db.metadata`` and
    Alembic's at the head revision), every row is deleted and every sequence restarted:
    about 0.1 s, where dropping the schema and migrating afresh takes 0.5-0.7 s, for each
    of the few hundred app tests run on PostgreSQL. Anything else (an empty database, an
    older or a foreign schema a test left), or everything when ``drop`` is set, is dropped
    whole, for the app to migrate."""
    eng = make_engine(url)
    try:
        with eng.begin() as c:
            if not drop and _at_head(c):
                for table in reversed(metadata.sorted_tables):
                    c.execute(table.delete())
                sequences = c.execute(
                    sa.text("SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")
                ).scalars()
                for name in list(sequences):
                    c.execute(sa.text(f'ALTER SEQUENCE "{name}" RESTART'))
                return
            c.execute(sa.text("DROP SCHEMA public CASCADE"))
            c.execute(sa.text("CREATE SCHEMA public"))
    finally:
        eng.dispose()


def _at_head(c: sa.Connection) -> bool:
    """Whether the database's public schema is exactly this version's."""
    tables = set(
        c.execute(sa.text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).scalars()
    )
    if tables != {t.name for t in metadata.sorted_tables} | {"alembic_version"}:
        return False
    version = c.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all()
    return version == [_head_revision()]


@functools.cache
def _head_revision() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database at this version's schema and with no rows, migrated once: each
    app test starts from a copy (migrating afresh costs about 0.09 s, finding a copy at
    the head 0.01 s, for the several hundred app tests run on SQLite)."""
    path = tmp_path_factory.mktemp("template") / "madang.sqlite3"
    eng = make_engine(f"sqlite:///{path}")
    try:
        migrate(eng)
    finally:
        eng.dispose()  # the last connection closed: the WAL is written back into the file
    return path


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database with no rows at this version's schema (SQLite: a copy of
    :func:`sqlite_template`; PostgreSQL: the schema emptied, or made by the app)."""
    if request.param == "sqlite":
        path = tmp_path / "madang.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    assert PG_URL is not None
    reset_postgres(PG_URL)
    return PG_URL


@pytest.fixture(params=BACKENDS)
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database with no schema at all, for the tests of the migrations themselves."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'madang.sqlite3'}"
    assert PG_URL is not None
    reset_postgres(PG_URL, drop=True)
    return PG_URL


START = ServerConfig().money_start
"""The game money a new account (or guest) starts with."""

DEAL_SEED = 100
"""Tables deal from seeds 101, 102, … (``ServerConfig.deal_seed``), so the app tests are
deterministic: a random deal may end at once (총통, 나가리) and leave no turn to play,
wait for or refuse. Each of tables 1–8 starts with a card to play and lasts a dozen
moves or more in both games (``test_sessions.test_deal_seed_gives_live_tables`` checks
it); the browser test's server deals from the same seeds."""


def test_config(db_url: str, **overrides: Any) -> ServerConfig:
    base: dict[str, Any] = {
        "deal_seed": DEAL_SEED,
        "database_url": db_url,
        "argon2_time_cost": 1,
        "argon2_memory_kib": 8192,
        "bot_delay": 0.0,
        "bot_budget_s": 0.01,
        "next_game_seconds": 30.0,
        "claim_seconds": 0.02,
        "claim_decision_seconds": 0.02,
        # 선 뽑기 at a verifiable table: a person who does not pick gets a card at once
        "first_pick_seconds": 0.05,
        "first_pick_reveal_seconds": 0.0,
    }
    base.update(overrides)
    return ServerConfig(**base)


@pytest.fixture
def make_client(db_url: str) -> Iterator[Callable[..., TestClient]]:
    """Build (and afterwards close) TestClients of one app config per call."""
    opened: list[TestClient] = []

    def make(**overrides: Any) -> TestClient:
        c = TestClient(create_app(test_config(db_url, **overrides)))
        c.__enter__()
        opened.append(c)
        return c

    yield make
    for c in reversed(opened):
        c.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()


def register(c: TestClient, name: str = "minsu", password: str = "secret1") -> dict[str, Any]:
    r = c.post("/api/register", json={"username": name, "password": password})
    assert r.status_code == 201, r.text
    user: dict[str, Any] = r.json()["user"]
    return user


def use_session(c: TestClient, token: str | None) -> None:
    """Make ``token`` the client's only session cookie (the client may hold the one the
    server set under another domain, and would then send both)."""
    c.cookies.clear()
    c.cookies.set("madang_session", token or "")


def recv_until(ws: Any, kind: str) -> dict[str, Any]:
    """Read messages until one of type ``kind`` (others are skipped)."""
    for _ in range(10_000):
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == kind:
            return m
    raise AssertionError(f"no {kind} message")


def play_out(
    ws: Any, seat: int, state: dict[str, Any], pick: Callable[[list[str]], str]
) -> dict[str, Any]:
    """Answer every prompt of ``seat`` until the game's result arrives; the last update."""
    version = state["version"]
    prompt = state.get("prompt")
    for _ in range(5000):
        if prompt and prompt["seat"] == seat:
            ws.send_text(
                json.dumps({"type": "act", "version": version, "action": pick(prompt["legal"])})
            )
        m = ws.receive_json()
        if m["type"] == "error":
            raise AssertionError(m)
        if m["type"] != "update":
            continue
        assert m["version"] == version + 1
        version = m["version"]
        prompt = m["prompt"]
        if "result" in m:
            return m
    raise AssertionError("the game did not end")
