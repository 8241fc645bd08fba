"""An event_id is unique among the events that carry one: a partial unique index (`ix_events_event_id … WHERE
event_id IS NOT NULL`) instead of a unique constraint over every row.

Most rows carry no event_id: every imported event, and whatever a client sent without one. The unique
constraint still gave each of them an index entry (NULLs are never equal, so they were never refused, only
written). The only look-ups by event_id are a retry's and the one-trip append's refusal, both for given ids,
which both databases answer from the partial index (`event_id IN (…)` implies `event_id IS NOT NULL`).

Measured (sqlite3 alone, 1,000-row imports, rounds alternating): 5.9 against 6.6 µs a row.

Every guarantee stays: an event_id is stored at most once, across every match, and the database refuses a
second one. SQLite cannot drop a table constraint in place: the table is built again (as in 0011), its rows
copied in position order and its triggers created again.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from alembic import op

from recorder.sql.triggers import create_triggers, drop_triggers

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

COLUMNS = "match_id, seq, position, type, data, recorded_at, recorded_by, prev_hash, hash, event_id"
PARTIAL = "CREATE UNIQUE INDEX ix_events_event_id ON events (event_id) WHERE event_id IS NOT NULL"
SQLITE_INDEXES = [
    "CREATE UNIQUE INDEX ix_events_match_seq ON events (match_id, seq)",
    "CREATE INDEX ix_events_first_hash ON events (hash) WHERE seq = 1",
]


def _table(unique_event_id: bool) -> str:
    unique = ",\n    UNIQUE (event_id)" if unique_event_id else ""
    return f"""CREATE TABLE events_rebuilt (
    match_id VARCHAR(32) NOT NULL,
    seq INTEGER NOT NULL,
    position INTEGER NOT NULL,
    type VARCHAR(64) NOT NULL,
    data JSON NOT NULL,
    recorded_at DATETIME NOT NULL,
    recorded_by VARCHAR(128) NOT NULL,
    prev_hash VARCHAR(64) NOT NULL,
    hash VARCHAR(64) NOT NULL,
    event_id VARCHAR(128),
    CONSTRAINT pk_events_position PRIMARY KEY (position),
    FOREIGN KEY(match_id) REFERENCES matches (id){unique}
)"""


def _rebuild_sqlite(unique_event_id: bool, indexes: list[str]) -> None:
    conn = op.get_bind()
    drop_triggers(conn, ["events"])
    conn.exec_driver_sql(_table(unique_event_id))
    conn.exec_driver_sql(f"INSERT INTO events_rebuilt ({COLUMNS}) SELECT {COLUMNS} FROM events ORDER BY position")
    conn.exec_driver_sql("DROP TABLE events")  # its indexes go with it
    conn.exec_driver_sql("ALTER TABLE events_rebuilt RENAME TO events")
    for index in indexes:
        conn.exec_driver_sql(index)
    create_triggers(conn, ["events"])


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        _rebuild_sqlite(False, [*SQLITE_INDEXES, PARTIAL])
        return
    conn.exec_driver_sql("ALTER TABLE events DROP CONSTRAINT events_event_id_key")
    conn.exec_driver_sql(PARTIAL)


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        _rebuild_sqlite(True, SQLITE_INDEXES)
        return
    conn.exec_driver_sql("DROP INDEX ix_events_event_id")
    conn.exec_driver_sql("ALTER TABLE events ADD CONSTRAINT events_event_id_key UNIQUE (event_id)")
