"""Where a `scorebook rebuild` has got to, so that `--resume` carries on after an interruption.

A rebuild recomputes the read models match by match (in the order of their first event's position) up to
the log's head when it began; the row holds that head and the first-event position of the last match
done. Only a table is added (no batch operation, which on SQLite would lose the events' triggers).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rebuild_progress",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("upto", sa.BigInteger, nullable=False),
        sa.Column("done_through", sa.BigInteger, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rebuild_progress")
