"""The events' hash index keeps only each match's first event (seq 1): the one row an import looks up by hash to
recognise a match already stored. Indexing every row's hash made each append write one more index page at a
random place in the file (about 1.5 of the 7.5 pages an append writes to SQLite's WAL), for look-ups that never
happen.

Only an index is dropped and a partial one created: the events table and its append-only triggers are not touched
(no batch operation, which on SQLite would rebuild the table and lose its triggers).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

FIRST = sa.text("seq = 1")


def upgrade() -> None:
    op.drop_index("ix_events_hash", table_name="events")
    op.create_index("ix_events_first_hash", "events", ["hash"], sqlite_where=FIRST, postgresql_where=FIRST)


def downgrade() -> None:
    op.drop_index("ix_events_first_hash", table_name="events")
    op.create_index("ix_events_hash", "events", ["hash"])
