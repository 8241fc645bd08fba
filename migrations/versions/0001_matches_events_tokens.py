"""Matches, their seats, the append-only events table and API tokens.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

from recorder.sql.triggers import create_triggers, drop_triggers

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("winners", sa.JSON, nullable=False),
        sa.Column("meta", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_matches_game", "matches", ["game"])
    op.create_index("ix_matches_status", "matches", ["status"])
    op.create_table(
        "match_players",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
    )
    op.create_index("ix_match_players_player_id", "match_players", ["player_id"])
    op.create_table(
        "events",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("position", sa.BigInteger, nullable=False),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(128), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("event_id", sa.String(128), nullable=True, unique=True),
    )
    op.create_index("ix_events_position", "events", ["position"], unique=True)
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_api_tokens_name", "api_tokens", ["name"])
    create_triggers(op.get_bind())


def downgrade() -> None:
    drop_triggers(op.get_bind())
    op.drop_table("api_tokens")
    op.drop_table("events")
    op.drop_table("match_players")
    op.drop_table("matches")
