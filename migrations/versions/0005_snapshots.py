"""Snapshots of match states every N events (recorder/store/snapshots.py), so that a cold read folds at most N - 1.

Only a table is added: the events table and its append-only triggers are not touched (no batch
operation, which on SQLite would rebuild a table and lose its triggers). Existing matches get their
snapshots from `scorebook rebuild`; until then they are folded from their logs, as before.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("version", sa.String(64), nullable=False),
        sa.Column("mac", sa.String(64), nullable=False),
        sa.Column("payload", sa.LargeBinary, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
