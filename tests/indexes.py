"""What the database itself says of an index: its definition, and whether a query's plan uses it (for the tests
of migrations 0010 and 0012, on both databases)."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.engine import Engine


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
