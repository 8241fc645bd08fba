"""Read models kept from the log (recorder/readmodels/projector.py): each match's statistics facts, the projector's
checkpoint (the last global position it has read), and indexes for every filter and sort of the match list.

Only tables and indexes are added: the events table and its append-only triggers are not touched.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "projection_checkpoints",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("position", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "match_facts",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("date", sa.String(10), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("facts", sa.JSON, nullable=False),
    )
    op.create_index("ix_match_facts_game_date", "match_facts", ["game", "date"])
    op.create_index("ix_matches_created", "matches", ["created_at", "id"])
    op.create_index("ix_matches_game_created", "matches", ["game", "created_at", "id"])
    op.create_index("ix_matches_status_created", "matches", ["status", "created_at", "id"])


def downgrade() -> None:
    op.drop_index("ix_matches_status_created", table_name="matches")
    op.drop_index("ix_matches_game_created", table_name="matches")
    op.drop_index("ix_matches_created", table_name="matches")
    op.drop_index("ix_match_facts_game_date", table_name="match_facts")
    op.drop_table("match_facts")
    op.drop_table("projection_checkpoints")
