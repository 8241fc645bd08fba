"""The match list at club-history scale: one player's matches newest first from an index, and counts kept
until a match is added or changes status.

- `match_players.created_at`: the match's created_at on each seat (filled in here for the matches already
  stored), indexed with the player id, so that a player's page is a range of one index.
- `match_list_version`: one row, bumped by every write that adds a match or changes a status; the list's
  counts are kept per version.

Only `match_players` and a new table change: the events table and its triggers are not touched (the column
is added with ADD COLUMN, not a batch operation, which on SQLite would rebuild the table).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("match_players", sa.Column("created_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE match_players SET created_at = "
               "(SELECT matches.created_at FROM matches WHERE matches.id = match_players.match_id)")
    op.create_index("ix_match_players_player_created", "match_players", ["player_id", "created_at", "match_id"])
    op.create_table(
        "match_list_version",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("version", sa.BigInteger, nullable=False),
    )
    op.execute("INSERT INTO match_list_version (id, version) VALUES (1, 0)")


def downgrade() -> None:
    op.drop_table("match_list_version")
    op.drop_index("ix_match_players_player_created", table_name="match_players")
    with op.batch_alter_table("match_players") as batch:
        batch.drop_column("created_at")
