"""What a table needs to be rebuilt after a restart: its seed (the deals of all its
games follow from it) and the options changed from its preset.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("seed", sa.String(24)))
        batch.add_column(sa.Column("rules", sa.JSON))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rules")
        batch.drop_column("seed")
