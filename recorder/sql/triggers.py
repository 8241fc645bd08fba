"""The database itself refuses to change stored events: triggers, per dialect, on every append-only table
(the matches' `events` and the club streams' `stream_events`).

Kept in one place because every migration that rebuilds an events table (Alembic batch mode on SQLite
recreates it and loses its triggers) must create them again.

Without `tables`, each function covers the append-only tables the database holds: migration 0001 creates
the `events` triggers before `stream_events` exists, and a database downgraded below 0008 has none to miss.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import inspect
from sqlalchemy.engine import Connection

TABLES = ("events", "stream_events")

# Trigger names per table, in the order `missing_triggers` reports them.
_NAMES = {
    "sqlite": ("{t}_no_update", "{t}_no_delete"),
    "postgresql": ("{t}_no_update_delete", "{t}_no_truncate"),
}


def _sqlite(table: str) -> list[str]:
    return [
        f"""CREATE TRIGGER IF NOT EXISTS {table}_no_update BEFORE UPDATE ON {table}
       BEGIN SELECT RAISE(ABORT, '{table} are append-only: UPDATE refused'); END""",
        f"""CREATE TRIGGER IF NOT EXISTS {table}_no_delete BEFORE DELETE ON {table}
       BEGIN SELECT RAISE(ABORT, '{table} are append-only: DELETE refused'); END""",
    ]


def _function(table: str) -> str:
    return f"scorebook_{table}_append_only"


def _postgres(table: str) -> list[str]:
    function = _function(table)
    return [
        f"""CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION '{table} are append-only: %% refused', TG_OP; END $$""",
        f"DROP TRIGGER IF EXISTS {table}_no_update_delete ON {table}",
        f"""CREATE TRIGGER {table}_no_update_delete BEFORE UPDATE OR DELETE ON {table}
       FOR EACH ROW EXECUTE FUNCTION {function}()""",
        # Row triggers do not fire on TRUNCATE.
        f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}",
        f"""CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}
       FOR EACH STATEMENT EXECUTE FUNCTION {function}()""",
    ]


def _drop(dialect: str, table: str) -> list[str]:
    if dialect == "sqlite":
        return [f"DROP TRIGGER IF EXISTS {table}_no_update", f"DROP TRIGGER IF EXISTS {table}_no_delete"]
    if dialect == "postgresql":
        return [f"DROP TRIGGER IF EXISTS {table}_no_update_delete ON {table}",
                f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}"]
    return []


def _tables(conn: Connection, tables: Sequence[str] | None) -> list[str]:
    """`tables`, or the append-only tables present (the trigger statements name their table)."""
    if tables is not None:
        unknown = set(tables) - set(TABLES)
        if unknown:
            raise ValueError(f"not an append-only table: {sorted(unknown)}")
        return list(tables)
    present = set(inspect(conn).get_table_names())
    return [t for t in TABLES if t in present]


def create_triggers(conn: Connection, tables: Sequence[str] | None = None) -> None:
    for table in _tables(conn, tables):
        for sql in _sqlite(table) if conn.dialect.name == "sqlite" else _postgres(table):
            conn.exec_driver_sql(sql)


def drop_triggers(conn: Connection, tables: Sequence[str] | None = None) -> None:
    for table in _tables(conn, tables):
        for sql in _drop(conn.dialect.name, table):
            conn.exec_driver_sql(sql)


def drop_trigger_function(conn: Connection, table: str) -> None:
    """PostgreSQL's trigger function of `table` (for a migration that drops the table; SQLite has none)."""
    if conn.dialect.name == "postgresql" and table in TABLES:
        conn.exec_driver_sql(f"DROP FUNCTION IF EXISTS {_function(table)}()")


def expected(dialect: str, tables: Sequence[str] = TABLES) -> tuple[str, ...]:
    """The trigger names that must be in force on `tables`."""
    return tuple(name.format(t=t) for t in tables for name in _NAMES.get(dialect, ()))


# What must be in force: the triggers by name, each refusing (not a same-named trigger that lets changes
# through, nor a disabled one).
EXPECTED = {dialect: expected(dialect) for dialect in _NAMES}


def missing_triggers(conn: Connection) -> list[str]:
    """The append-only triggers not in force on the append-only tables present: absent, disabled
    (PostgreSQL), or altered so that they no longer refuse. Empty when the tables are protected."""
    dialect = conn.dialect.name
    tables = _tables(conn, None)
    found: set[tuple[str, str]] = set()
    if dialect == "sqlite":
        rows = conn.exec_driver_sql(
            "SELECT tbl_name, name, sql FROM sqlite_master WHERE type = 'trigger'"
        ).all()
        found = {(table, name) for table, name, sql in rows if "RAISE(ABORT" in (sql or "").upper().replace(" ", "")}
    else:
        for table in tables:
            rows = conn.exec_driver_sql(
                "SELECT t.tgname, t.tgenabled, p.prosrc FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid "
                f"WHERE t.tgrelid = '{table}'::regclass AND NOT t.tgisinternal"
            ).all()
            found |= {(table, name) for name, enabled, src in rows
                      if enabled != "D" and "RAISE EXCEPTION" in src.upper()}
    return [name for table in tables for name in expected(dialect, (table,)) if (table, name) not in found]


def repair_triggers(conn: Connection) -> None:
    """Put every append-only trigger back as `create_triggers` makes it (an altered one is replaced)."""
    drop_triggers(conn)
    create_triggers(conn)
