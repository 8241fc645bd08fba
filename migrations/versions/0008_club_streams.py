"""Club streams: the player registry and tournaments as event streams beside the matches.

- `streams`: one row per stream (its kind, its last seq, a title for lists), indexed by kind.
- `stream_events`: its events, hash-chained like a match's, append-only by the same triggers as `events`.

Only new tables: the events table and its triggers are not touched (no batch operation, which on SQLite
would rebuild a table and lose its triggers).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

from recorder.sql.triggers import create_triggers, drop_trigger_function, drop_triggers

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "streams",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("title", sa.String(200), nullable=True),
    )
    op.create_index("ix_streams_kind", "streams", ["kind"])
    op.create_table(
        "stream_events",
        sa.Column("stream_id", sa.String(32), sa.ForeignKey("streams.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(128), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("event_id", sa.String(128), nullable=True, unique=True),
    )
    create_triggers(op.get_bind(), ["stream_events"])


def downgrade() -> None:
    bind = op.get_bind()
    drop_triggers(bind, ["stream_events"])
    op.drop_table("stream_events")
    drop_trigger_function(bind, "stream_events")
    op.drop_index("ix_streams_kind", table_name="streams")
    op.drop_table("streams")
