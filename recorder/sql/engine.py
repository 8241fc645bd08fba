"""Engines: SQLite with immediate write transactions (set up in recorder/sql/sqlite.py), PostgreSQL through
psycopg 3; a writer's engine (`for_writing`), and a pooled connection's driver for a hot read."""

from __future__ import annotations

import select
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlmodel import create_engine

from recorder.config import database_url
from recorder.log.readable import dumps_strictly, loads_leniently
from recorder.sql import sqlite

# JSON columns, the same on both databases (psycopg's dialect hands these to psycopg's own JSON adapters):
# written as standard JSON only, and read without ever raising, so that one unreadable row cannot fail a
# whole read (it becomes a marker, see recorder.log.readable).
JSON_OPTIONS: dict[str, Any] = {"json_serializer": dumps_strictly, "json_deserializer": loads_leniently}


def make_engine(url: str | None = None) -> Engine:
    url = database_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **JSON_OPTIONS)
        sqlite.configure(engine)
        return engine
    engine = create_engine(url, **JSON_OPTIONS)
    _postgres_liveness(engine)
    return engine


def _postgres_liveness(engine: Engine) -> None:
    """A pooled connection the server has dropped is replaced before it is used, without a round trip.

    `pool_pre_ping` asks the server (`SELECT 1`) on every checkout: a round trip of the six a one-event append
    took. Instead: a connection psycopg knows to be closed or broken, or whose socket has something to read
    while it sits idle in the pool — what a server says when it drops a connection (a restart,
    `pg_terminate_backend`, an idle timeout) or the end of the stream — is discarded and another one taken
    (SQLAlchemy retries the checkout on DisconnectionError). Nothing else arrives unasked on a pooled
    connection: none of them LISTENs."""

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
        if dbapi_conn.closed or dbapi_conn.broken or _readable(dbapi_conn.fileno()):
            raise DisconnectionError("the server has closed this pooled connection")


def _readable(fd: int) -> bool:
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLERR | select.POLLHUP)
    return bool(poller.poll(0))


def for_writing(engine: Engine) -> Engine:
    """The same engine (and pool), marked so that its transactions begin as writers (SQLite: IMMEDIATE). An
    append takes its writer's transaction from its store's append path instead (recorder/sql/append.py)."""
    return engine.execution_options(**{sqlite.WRITE_OPTION: True})


@contextmanager
def autocommit_driver(engine: Engine) -> Iterator[Any]:
    """A pooled connection's driver connection, each statement its own transaction: on PostgreSQL psycopg is
    put in autocommit (no BEGIN sent before a query, no ROLLBACK when the pool takes the connection back: one
    round trip, not three), and back out of it before the pool has the connection again — one that cannot be
    (it broke) is dropped from the pool, never handed to a writer in autocommit. SQLite's connections are so
    already (recorder/sql/sqlite.py leaves transactions to BEGIN)."""
    conn = engine.raw_connection()
    try:
        driver: Any = conn.driver_connection
        postgres = engine.dialect.name == "postgresql"
        if postgres:
            driver.autocommit = True
        try:
            yield driver
        finally:
            if postgres:
                try:
                    driver.autocommit = False
                except Exception:
                    conn.invalidate()
                    raise
    finally:
        conn.close()


def driver_rows(driver: Any, dialect: Dialect, sql: str, params: tuple[Any, ...]) -> list[Any]:
    """The rows of `sql` (a read, its parameters marked `?`) run on the driver connection `driver`, in the
    transaction it is in: for a read on a hot path, where building and running a Core statement cost more than
    the query. A driver error is raised as SQLAlchemy raises it (DBAPIError and its kinds), for the same handlers."""
    if dialect.paramstyle != "qmark":
        sql = sql.replace("?", "%s")
    driver_error = dialect.loaded_dbapi.Error
    cur = driver.cursor()
    try:
        cur.execute(sql, params)
        return list(cur.fetchall())
    except driver_error as e:
        raise DBAPIError.instance(sql, params, e, driver_error) from e
    finally:
        cur.close()
