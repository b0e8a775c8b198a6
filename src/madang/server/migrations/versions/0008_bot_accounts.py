"""Bot accounts' API tokens (``bot_tokens``): a bot account (``users.is_bot``, made by
``POST /api/account/bot``) connects to ``/ws/bot`` with one of them. Only each token's
SHA-256 is stored; a revoked token's row is deleted.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_tokens",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("label", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_bot_tokens_user_id", "bot_tokens", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_bot_tokens_user_id", "bot_tokens")
    op.drop_table("bot_tokens")
