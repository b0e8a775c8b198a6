"""Points and stakes in 64-bit columns, as the ledger's amounts already are: a game's
points (``games.points``), a ledger row's (``ledger.points``) and the stakes
(``tables.stake``, ``games.stake``). PostgreSQL's ``integer`` stops at 2³¹ − 1.

SQLite stores every integer in up to 8 bytes whatever the declared type, so these
columns already held 64-bit values there; its tables are left as they are (changing a
declared type means rebuilding a table other tables refer to).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

COLUMNS = (("games", "points"), ("games", "stake"), ("tables", "stake"), ("ledger", "points"))


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    for table, column in COLUMNS:
        op.alter_column(table, column, type_=sa.BigInteger, existing_type=sa.Integer)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    for table, column in COLUMNS:
        op.alter_column(table, column, type_=sa.Integer, existing_type=sa.BigInteger)
