"""The events table as the database itself holds it, for the tests of its migrations (0010, 0011 and 0012) on
both databases: its rows, a row written below the store, an index's definition, and a query's plan."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

_ROW = text(
    "INSERT INTO events (match_id, seq, position, type, data, recorded_at, recorded_by, prev_hash, hash, event_id) "
    "VALUES (:m, :seq, :position, 'round_started', '{}', '2026-12-02 12:00:00.000000', 'x', :h, :h, :event_id)")


def stored_events(engine: Engine) -> list[tuple[Any, ...]]:
    """Every event row (its columns but the time), in position order."""
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(
            "SELECT match_id, seq, position, type, data, recorded_by, prev_hash, hash, event_id "
            "FROM events ORDER BY position"))]


def insert_row(conn: Connection, match_id: str, seq: int, position: int, event_id: str | None = None) -> None:
    """A row written straight to the table, past the store's checks: what the database alone refuses."""
    conn.execute(_ROW, {"m": match_id, "seq": seq, "position": position, "h": "0" * 64, "event_id": event_id})


def index_definition(engine: Engine, name: str) -> str:
    """The index `name` as the database holds it (SQLite's `sql`, PostgreSQL's `indexdef`)."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            q = "SELECT sql FROM sqlite_master WHERE name = :name"
        else:
            q = "SELECT indexdef FROM pg_indexes WHERE indexname = :name AND schemaname = current_schema()"
        return str(conn.execute(text(q), {"name": name}).scalar_one())


def plan(engine: Engine, sql: str) -> str:
    """The query plan of `sql`, on one line. On PostgreSQL sequential scans are switched off for it: the tables
    hold a few rows, and the plan should show what the planner can use."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            return " ".join(str(row[-1]) for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}"))
        conn.execute(text("SET LOCAL enable_seqscan = off"))
        return " ".join(str(row[0]) for row in conn.exec_driver_sql(f"EXPLAIN {sql}"))
