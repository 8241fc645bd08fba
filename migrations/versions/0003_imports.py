"""Imports are recorded (who imported which file, when, into which match), and a stored event can be
found by its hash, so that importing or restoring the same match twice answers the match already stored.

Only a table and indexes are added: the events table and its append-only triggers are not touched (no
batch operation, which on SQLite would rebuild the table and lose its triggers).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "imports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("imported_by", sa.String(128), nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("file_name", sa.String(255), nullable=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("first_seq", sa.Integer, nullable=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
    )
    op.create_index("ix_imports_match_id", "imports", ["match_id"])
    op.create_index("ix_imports_digest", "imports", ["digest"])
    op.create_index("ix_events_hash", "events", ["hash"])


def downgrade() -> None:
    op.drop_index("ix_events_hash", table_name="events")
    op.drop_index("ix_imports_digest", table_name="imports")
    op.drop_index("ix_imports_match_id", table_name="imports")
    op.drop_table("imports")
