"""The database: schema (SQLAlchemy Core), engines and Alembic migrations.

The schema here is what the queries of :mod:`madang.server.store` use; the migrations
in ``migrations/versions`` create it (they never import this module, as migrations
must not change when the code does). :func:`migrate` brings any database up to date
and is run by the app at start.

>>> eng = make_engine("sqlite://")
>>> migrate(eng)
>>> {"alembic_version", "users", "games", "game_moves"} <= set(sa.inspect(eng).get_table_names())
True
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

metadata = sa.MetaData()

users = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("username", sa.String(40), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(200)),
    sa.Column("is_guest", sa.Boolean, nullable=False, default=False),
    sa.Column("is_bot", sa.Boolean, nullable=False, default=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("name_key", sa.String(80), unique=True),
)

devices = sa.Table(
    "devices",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
)

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("preset", sa.String(40), nullable=False),
    sa.Column("stake", sa.BigInteger, nullable=False),
    sa.Column("private", sa.Boolean, nullable=False),
    sa.Column("invite", sa.String(64), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id")),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("closed_at", sa.DateTime(timezone=True)),
    sa.Column("seed", sa.String(24)),
    sa.Column("rules", sa.JSON),
)

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False, index=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("preset", sa.String(40), nullable=False),
    sa.Column("stake", sa.BigInteger, nullable=False),
    sa.Column("game_no", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("winner", sa.Integer),
    sa.Column("points", sa.BigInteger),
    sa.Column("end_reason", sa.String(40)),
    sa.Column("record", sa.JSON),
    sa.Column("result", sa.JSON),
    sa.Column("fair_seed", sa.String(64)),  # secret until the game ends (docs/fairness.md)
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True)),
)

game_players = sa.Table(
    "game_players",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
)

game_moves = sa.Table(
    "game_moves",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("move", sa.String(80), nullable=False),
    sa.Column("timed_out", sa.Boolean, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
"""The move journal: every accepted decision of a game in play, in order (``seq`` from
0, the index of the move in the game's record), written before any update shows it."""

game_reviews = sa.Table(
    "game_reviews",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("review", sa.JSON, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
"""복기: a finished game's review of one seat (:mod:`madang.review`), computed once on
demand (``GET /api/games/{id}/review``) and kept with the game (0009)."""

ledger = sa.Table(
    "ledger",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id")),  # None: a grant (0007)
    sa.Column("amount", sa.BigInteger, nullable=False),
    sa.Column("points", sa.BigInteger, nullable=False),
    sa.Column("reason", sa.String(40), nullable=False),
    sa.Column("counterparty_id", sa.Integer, sa.ForeignKey("users.id")),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

refills = sa.Table(
    "refills",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("day", sa.Date, primary_key=True),
    sa.Column("amount", sa.BigInteger, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
"""The daily refills of game money: one per player and day (``madang.server.money``)."""

self_limits = sa.Table(
    "self_limits",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("value", sa.BigInteger),
    sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("effective_at", sa.DateTime(timezone=True), nullable=False),
)
"""The limits players set on themselves, as history (``madang.server.selfcare``)."""

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("game", sa.String(16), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("rd", sa.Float, nullable=False),
    sa.Column("vol", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
)

bot_tokens = sa.Table(
    "bot_tokens",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("label", sa.String(40), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
"""A bot account's API tokens (``docs/bot-protocol.md``, At the server): only the
SHA-256 of each (a 256-bit random token needs no slow hash); revoked: deleted."""

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` mean psycopg 3 (SQLAlchemy's default is
    psycopg2, which is not installed)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL mode, foreign keys and a busy timeout."""
    url = normalize_url(url)
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        if memory:
            kwargs["poolclass"] = StaticPool
        else:
            path = Path(url.split("///", 1)[1])
            path.parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, **kwargs)

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            if not memory:
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


T = TypeVar("T")

_THREADS: weakref.WeakKeyDictionary[Engine, ThreadPoolExecutor] = weakref.WeakKeyDictionary()


def db_threads(engine: Engine) -> int:
    """How many threads run the store's calls on ``engine``: one for SQLite (it has one
    writer: more threads would only wait on its lock, holding the GIL in between, and an
    in-memory database is one shared connection), the connection pool's size otherwise."""
    if engine.dialect.name == "sqlite":
        return 1
    size = getattr(engine.pool, "size", None)
    return max(1, size()) if callable(size) else 4


def run_in_db(engine: Engine, fn: Callable[..., T], *args: Any, **kwargs: Any) -> asyncio.Future[T]:
    """The server's one database-thread policy: ``fn(engine, *args, **kwargs)`` (a store
    function) runs in the engine's own pool of :func:`db_threads` threads, never on the
    event loop and never in asyncio's default executor, for the HTTP routes and the
    rooms alike. A room awaits each of its writes, so its writes keep their order."""
    pool = _THREADS.get(engine)
    if pool is None:
        pool = _THREADS[engine] = ThreadPoolExecutor(
            max_workers=db_threads(engine), thread_name_prefix="madang-db"
        )
    call = functools.partial(fn, engine, *args, **kwargs)
    return asyncio.get_running_loop().run_in_executor(pool, call)


def close_db_threads(engine: Engine) -> None:
    """Stop the engine's database threads (at shutdown, after the last call)."""
    pool = _THREADS.pop(engine, None)
    if pool is not None:
        pool.shutdown(wait=True)


def alembic_config(url: str | None = None) -> Any:
    """An Alembic ``Config`` pointing at this package's migrations."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return cfg


MIGRATION_LOCK = 0x6D6164616E67  # "madang"
"""The PostgreSQL advisory lock held while migrating."""


def migrate(engine: Engine) -> None:
    """Apply every Alembic migration not yet applied to ``engine``'s database."""
    from alembic import command

    cfg = alembic_config()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # several processes may start at once (a cluster): one migrates, the others
            # wait for its transaction and then find nothing left to do
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
