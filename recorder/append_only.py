"""The database itself refuses to change stored events: triggers, per dialect.

Kept in one place because every migration that rebuilds the events table (Alembic batch mode on
SQLite recreates it and loses its triggers) must create them again.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

_SQLITE = [
    """CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
       BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END""",
    """CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
       BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END""",
]

_POSTGRES = [
    """CREATE OR REPLACE FUNCTION scorebook_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'events are append-only: %% refused', TG_OP; END $$""",
    "DROP TRIGGER IF EXISTS events_no_update_delete ON events",
    """CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events
       FOR EACH ROW EXECUTE FUNCTION scorebook_events_append_only()""",
    # Row triggers do not fire on TRUNCATE.
    "DROP TRIGGER IF EXISTS events_no_truncate ON events",
    """CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
       FOR EACH STATEMENT EXECUTE FUNCTION scorebook_events_append_only()""",
]

_DROP = {
    "sqlite": ["DROP TRIGGER IF EXISTS events_no_update", "DROP TRIGGER IF EXISTS events_no_delete"],
    "postgresql": [
        "DROP TRIGGER IF EXISTS events_no_update_delete ON events",
        "DROP TRIGGER IF EXISTS events_no_truncate ON events",
    ],
}


def create_triggers(conn: Connection) -> None:
    for sql in _SQLITE if conn.dialect.name == "sqlite" else _POSTGRES:
        conn.exec_driver_sql(sql)


def drop_triggers(conn: Connection) -> None:
    for sql in _DROP.get(conn.dialect.name, []):
        conn.exec_driver_sql(sql)
