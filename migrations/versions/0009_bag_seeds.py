"""Committed bags: `bag_seeds`, the secret seed of each match started with bag "committed".

One row per such match: the seed (hex) and whether it has been revealed in the log. No read path serves
this table (recorder/store/bag.py). Only a new table: the events table and its triggers are not touched.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bag_seeds",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("revealed", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bag_seeds")
