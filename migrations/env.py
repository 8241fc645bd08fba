"""Alembic environment: runs on a connection handed over by recorder.sql.migrate, or on the configured URL."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlmodel import SQLModel

import recorder.sql.stream_tables  # noqa: F401  (registers the club streams' tables too)
import recorder.sql.tables  # noqa: F401  (registers the tables on the metadata)
from recorder.config import database_url
from recorder.sql.tables import in_schema

config = context.config
target_metadata = SQLModel.metadata


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or database_url())
    with engine.connect() as conn:
        _run(conn)
        conn.commit()


def _run(connection) -> None:  # type: ignore[no-untyped-def]
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        include_object=in_schema(connection.dialect.name),
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url") or database_url(), target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
