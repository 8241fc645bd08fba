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


# What must be in force: the triggers by name, each refusing (not a same-named trigger that lets changes
# through, nor a disabled one).
EXPECTED = {
    "sqlite": ("events_no_update", "events_no_delete"),
    "postgresql": ("events_no_update_delete", "events_no_truncate"),
}


def missing_triggers(conn: Connection) -> list[str]:
    """The append-only triggers not in force on `events`: absent, disabled (PostgreSQL), or altered so
    that they no longer refuse. Empty when the table is protected."""
    dialect = conn.dialect.name
    if dialect == "sqlite":
        rows = conn.exec_driver_sql(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'"
        ).all()
        found = {name for name, sql in rows if "RAISE(ABORT" in (sql or "").upper().replace(" ", "")}
    else:
        rows = conn.exec_driver_sql(
            "SELECT t.tgname, t.tgenabled, p.prosrc FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid "
            "WHERE t.tgrelid = 'events'::regclass AND NOT t.tgisinternal"
        ).all()
        found = {name for name, enabled, src in rows if enabled != "D" and "RAISE EXCEPTION" in src.upper()}
    return [name for name in EXPECTED.get(dialect, ()) if name not in found]


def repair_triggers(conn: Connection) -> None:
    """Put every append-only trigger back as `create_triggers` makes it (an altered one is replaced)."""
    drop_triggers(conn)
    create_triggers(conn)
