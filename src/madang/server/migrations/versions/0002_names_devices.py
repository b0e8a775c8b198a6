"""Look-alike-proof user names, and device cookies for login throttling.

``users.name_key``: the key two names that look alike share (NFKC, lower case, 0→o,
1/i/|→l, 5→s, _→-, rn→m, vv→w), unique. Existing rows get theirs here; should two
existing names share a key, the later ones keep ``key#id`` so that both stay usable.
``devices``: the browsers that logged in as a user (only a SHA-256 of the cookie).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)

# Frozen copy of madang.server.auth.name_key as of this revision (a migration must not
# change when the code does).
_FOLD = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "_": "-"})


def _key(name: str) -> str:
    key = unicodedata.normalize("NFKC", name).lower().translate(_FOLD)
    return key.replace("rn", "m").replace("vv", "w")


def upgrade() -> None:
    op.add_column("users", sa.Column("name_key", sa.String(80)))
    bind = op.get_bind()
    users = sa.table(
        "users", sa.column("id", sa.Integer), sa.column("username"), sa.column("name_key")
    )
    seen: set[str] = set()
    for uid, name in bind.execute(sa.select(users.c.id, users.c.username).order_by(users.c.id)):
        key = _key(name)
        if key in seen:
            key = f"{key}#{uid}"
        seen.add(key)
        bind.execute(sa.update(users).where(users.c.id == uid).values(name_key=key))
    op.create_index("ix_users_name_key", "users", ["name_key"], unique=True)
    op.create_table(
        "devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_index("ix_devices_user_id", "devices", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_devices_user_id", "devices")
    op.drop_table("devices")
    op.drop_index("ix_users_name_key", "users")
    op.drop_column("users", "name_key")
