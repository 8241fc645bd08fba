"""Sign-in sessions: a token exchanged for a signed session cookie (recorder/access/sessions.py).

Only a table is added: the events table and its append-only triggers are not touched (no batch
operation, which on SQLite would rebuild a table and lose its triggers).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("token_id", sa.Integer, sa.ForeignKey("api_tokens.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_sessions_token_id", "sessions", ["token_id"])


def downgrade() -> None:
    op.drop_index("ix_sessions_token_id", table_name="sessions")
    op.drop_table("sessions")
