"""Alembic environment: runs on a connection handed over by :func:`madang.server.db.migrate`,
or (from the ``alembic`` command with the root ``alembic.ini``) on ``sqlalchemy.url`` /
the ``MADANG_DATABASE_URL`` environment variable."""

from __future__ import annotations

import os

import sqlalchemy as sa
from alembic import context

from madang.server.db import normalize_url


def run() -> None:
    config = context.config
    conn = config.attributes.get("connection")
    if conn is not None:
        context.configure(connection=conn, target_metadata=None)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = os.environ.get("MADANG_DATABASE_URL") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no database URL: set sqlalchemy.url or MADANG_DATABASE_URL")
    engine = sa.create_engine(normalize_url(url))
    with engine.begin() as connection:
        context.configure(connection=connection, target_metadata=None)
        with context.begin_transaction():
            context.run_migrations()


if getattr(context, "config", None) is not None:  # not when merely imported (pytest)
    run()
