"""Verifiable deals: each game's secret seed (``games.fair_seed``, 64 hex digits), stored
with the game when it is dealt so that a restart can rebuild the game and reveal the
seed at its end (``docs/fairness.md``). Null for a game of a seeded table (``deal_seed``)
or from before this revision. Never served: the record carries the seed only once the
game has ended.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("fair_seed", sa.String(64)))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("fair_seed")
