"""Bring a database's schema to head with Alembic (used by `scorebook migrate`/`serve`, the facade, the
tests), and tell whether a database is at head without importing Alembic (read-only commands)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
VERSION_TABLE = "alembic_version"


def alembic_config(engine: Engine) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    from alembic import command

    cfg = alembic_config(engine)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def downgrade(engine: Engine, revision: str) -> None:
    from alembic import command

    cfg = alembic_config(engine)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)


def _assigned(tree: ast.Module, name: str) -> object:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return ast.literal_eval(node.value) if node.value is not None else None
    return None


@cache
def revisions() -> dict[str, tuple[str, ...]]:
    """Every migration's revision and the revisions it follows, read from migrations/versions/ as text
    (the same `revision` / `down_revision` assignments Alembic reads, without importing Alembic)."""
    graph: dict[str, tuple[str, ...]] = {}
    for path in sorted((MIGRATIONS / "versions").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        revision = _assigned(tree, "revision")
        if not isinstance(revision, str):
            continue
        down = _assigned(tree, "down_revision")
        graph[revision] = (down,) if isinstance(down, str) else tuple(down or ())  # type: ignore[arg-type]
    return graph


def head_revisions() -> tuple[str, ...]:
    """The revisions no other migration follows (one, unless the history branches)."""
    graph = revisions()
    followed = {down for downs in graph.values() for down in downs}
    return tuple(sorted(r for r in graph if r not in followed))


def current_revisions(engine: Engine) -> tuple[str, ...]:
    """The revisions the database is at; () for an empty database (no version table)."""
    with engine.connect() as conn:
        if not inspect(conn).has_table(VERSION_TABLE):
            return ()
        rows = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars().all()
    return tuple(sorted(rows))


def behind_head(engine: Engine) -> str | None:
    """None when the database is at head; else why not, ending in what to run."""
    current, heads = current_revisions(engine), head_revisions()
    if current == heads:
        return None
    head = ", ".join(heads)
    if not current:
        return f"the database schema is at revision none (an empty database), not head {head}: run `scorebook migrate`"
    at = ", ".join(current)
    unknown = [r for r in current if r not in revisions()]
    if unknown:
        return (f"the database schema is at revision {at}, which this version of Scorebook does not know "
                f"(its head is {head}): upgrade Scorebook, or use a database made by this version")
    return f"the database schema is at revision {at}, not head {head}: run `scorebook migrate`"


def schema_drift(conn: Connection) -> list[Any]:
    """What Alembic finds between the schema of `conn`'s database and the models (empty when they agree), each
    database's own indexes compared on that database only (`tables.in_schema`)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlmodel import SQLModel

    import recorder.sql.stream_tables  # noqa: F401  (every table on the metadata, as migrations/env.py has them)
    from recorder.sql.tables import in_schema

    context = MigrationContext.configure(conn, opts={"include_object": in_schema(conn.dialect.name)})
    return list(compare_metadata(context, SQLModel.metadata))
