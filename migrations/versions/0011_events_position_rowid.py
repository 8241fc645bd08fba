"""SQLite: an event's global position is the events table's rowid (`position INTEGER PRIMARY KEY`), and the
match's own order, `(match_id, seq)`, a unique index (`ix_events_match_seq`).

Before, the table was keyed by its hidden rowid, with one unique index for `(match_id, seq)` and one more for
`position`. Each append wrote to both indexes and to the table. Now the table is kept in the order of the
positions, so the position index is not needed: each append writes one page less to the WAL (about 6 → 5).
The rows are appended at the end of the table, as before, and followers read in position order straight
from the table.

Every guarantee stays as it was:
- a seq appears at most once in a match (the unique index);
- a position appears at most once: it is the primary key;
- an event_id appears at most once;
- the append-only triggers are created again on the new table.

PostgreSQL is not changed: its tables are heaps, not ordered by a key, so there is no page to save there.

SQLite cannot change a table's primary key in place: the table is built again, its rows copied in position
order. This is written out here rather than left to Alembic's batch mode, which would copy the models'
primary key.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from alembic import op

from recorder.sql.triggers import create_triggers, drop_triggers

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

COLUMNS = "match_id, seq, position, type, data, recorded_at, recorded_by, prev_hash, hash, event_id"


def _table(key: str, position: str) -> str:
    return f"""CREATE TABLE events_rebuilt (
    match_id VARCHAR(32) NOT NULL,
    seq INTEGER NOT NULL,
    position {position},
    type VARCHAR(64) NOT NULL,
    data JSON NOT NULL,
    recorded_at DATETIME NOT NULL,
    recorded_by VARCHAR(128) NOT NULL,
    prev_hash VARCHAR(64) NOT NULL,
    hash VARCHAR(64) NOT NULL,
    event_id VARCHAR(128),
    {key},
    FOREIGN KEY(match_id) REFERENCES matches (id),
    UNIQUE (event_id)
)"""


def _rebuild(table: str, indexes: list[str]) -> None:
    conn = op.get_bind()
    drop_triggers(conn, ["events"])
    conn.exec_driver_sql(table)
    conn.exec_driver_sql(f"INSERT INTO events_rebuilt ({COLUMNS}) SELECT {COLUMNS} FROM events ORDER BY position")
    conn.exec_driver_sql("DROP TABLE events")  # its indexes go with it
    conn.exec_driver_sql("ALTER TABLE events_rebuilt RENAME TO events")
    for index in indexes:
        conn.exec_driver_sql(index)
    create_triggers(conn, ["events"])


FIRST_HASH = "CREATE INDEX ix_events_first_hash ON events (hash) WHERE seq = 1"


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    _rebuild(
        _table("CONSTRAINT pk_events_position PRIMARY KEY (position)", "INTEGER NOT NULL"),
        ["CREATE UNIQUE INDEX ix_events_match_seq ON events (match_id, seq)", FIRST_HASH],
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    _rebuild(
        _table("PRIMARY KEY (match_id, seq)", "BIGINT NOT NULL"),
        ["CREATE UNIQUE INDEX ix_events_position ON events (position)", FIRST_HASH],
    )
