"""Game money and self-care (issue 27, items 1 and 7).

* ``ledger.game_id`` may be null: a row without a game is a grant of game money (the
  starting amount, ``reason`` ``start``; a daily refill, ``refill``). A game's rows still
  sum to zero.
* ``refills``: one row per player and day (the primary key), so a second refill the same
  day cannot be written, whatever races.
* ``self_limits``: the limits a player set on themselves (a daily play time in minutes,
  a daily loss in game money, a self-exclusion in months), kept as history: each setting
  is a row with the time it takes effect (``effective_at``).
* Every existing account but the bots' (the house: they never run out) gets the starting
  amount, 100,000, on top of its current net, never below 0: one ``start`` row of
  ``max(100000, -net)``. The amount is written here, not read from the code, so the
  migration stays what it was when the code changes.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

START = 100_000
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("ledger") as batch:
        batch.alter_column("game_id", existing_type=sa.Integer, nullable=True)
    op.create_table(
        "refills",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_table(
        "self_limits",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("value", sa.BigInteger),
        sa.Column("set_at", TS, nullable=False),
        sa.Column("effective_at", TS, nullable=False),
    )
    op.create_index("ix_self_limits_user_id", "self_limits", ["user_id"])
    bind = op.get_bind()
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("is_bot", sa.Boolean))
    ledger = sa.table(
        "ledger",
        sa.column("user_id", sa.Integer),
        sa.column("game_id", sa.Integer),
        sa.column("amount", sa.BigInteger),
        sa.column("points", sa.BigInteger),
        sa.column("reason", sa.String),
        sa.column("created_at", TS),
    )
    net = (
        sa.select(ledger.c.user_id, sa.func.sum(ledger.c.amount).label("net"))
        .group_by(ledger.c.user_id)
        .subquery()
    )
    rows = bind.execute(
        sa.select(users.c.id, sa.func.coalesce(net.c.net, 0))
        .join(net, net.c.user_id == users.c.id, isouter=True)
        .where(users.c.is_bot.is_(False))
        .order_by(users.c.id)
    ).all()
    now = datetime.now(UTC)
    grants = [
        {
            "user_id": uid,
            "game_id": None,
            "amount": max(START, -int(have)),
            "points": 0,
            "reason": "start",
            "created_at": now,
        }
        for uid, have in rows
    ]
    if grants:
        bind.execute(sa.insert(ledger), grants)


def downgrade() -> None:
    bind = op.get_bind()
    bind.execute(sa.text("DELETE FROM ledger WHERE game_id IS NULL"))
    op.drop_index("ix_self_limits_user_id", "self_limits")
    op.drop_table("self_limits")
    op.drop_table("refills")
    with op.batch_alter_table("ledger") as batch:
        batch.alter_column("game_id", existing_type=sa.Integer, nullable=False)
