"""Where an append's transaction runs: the connection it takes and the turn it waits for.

SQLite lets one writer in at a time. A writer that finds the lock taken sleeps in SQLite's busy handler
(1, 2, 5, 10 … ms) and is not woken when it is free, so this process's appenders queue on a lock of their
own first, and each starts the moment the one before commits (other processes, and other writes, still
meet SQLite's wait). Taking turns, they can share one connection, kept open: checking a connection out of
the pool and back in (its reset included) cost a sixth of an append's own CPU. A store's first append still
borrows a pooled connection: a store made for one append (a script, the first append after a restart) would
otherwise take a connection out of the pool for good, and the pool would open a new one (SQLite reads the
schema again on it) for the next taker.

PostgreSQL lets appends to different matches run at once: each takes a pooled connection of its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy.engine import Connection, Engine

T = TypeVar("T")


class AppendTurns:
    """`transaction()`: a connection in a writing transaction, committed when the block ends without an
    exception, rolled back when it raises."""

    def __init__(self, writer: Engine) -> None:
        self._writer = writer
        self._lock = threading.Lock() if writer.dialect.name == "sqlite" else None
        # An in-memory database is one per connection of its pool's thread: nothing kept, a connection each time.
        self._keep = writer.url.database not in (None, "", ":memory:")
        self._kept: Connection | None = None
        self._borrowed = False  # the first turn was taken on a pooled connection
        self._driver: Any = None  # the kept connection's own: closed by hand, as an invalidated one is not

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        if self._lock is None:
            with self._writer.connect() as conn, conn.begin():
                yield conn
            return
        with self._lock:
            kept = self._ready()
            if kept is None:
                with self._writer.connect() as conn, conn.begin():
                    yield conn
                return
            try:
                with kept.begin():
                    yield kept
            except BaseException:
                if kept.invalidated:  # the driver's connection failed: the next turn opens another
                    self._drop()
                raise

    def on_driver(self, work: Callable[[Any], T]) -> T:
        """SQLite: `work(driver connection)` in this process's writing turn, outside any transaction: `work` writes
        BEGIN IMMEDIATE and ends the transaction itself (SQLAlchemy's begin and commit, with their events, cost
        more than the two statements; so did a context manager for the turn)."""
        assert self._lock is not None, "only SQLite's appends take turns"
        with self._lock:
            kept = self._ready()
            if kept is None:
                with self._writer.connect() as conn:
                    return work(conn.connection.dbapi_connection)
            return work(self._driver)

    def _ready(self) -> Connection | None:
        """Under the lock: the kept connection (opened when there is none, or it failed), or None when this turn
        borrows a pooled one (the store's first, or every turn on an in-memory database)."""
        if not self._keep or not self._borrowed:
            self._borrowed = True
            return None
        kept = self._kept
        if kept is None or kept.closed or kept.invalidated:
            kept = self._writer.connect()
            kept.detach()  # out of the pool's count: a store that is never closed holds no slot of it
            self._kept, self._driver = kept, kept.connection.dbapi_connection
        return kept

    def close(self) -> None:
        """Close the kept connection (a closed store; the next append opens another)."""
        if self._lock is None:
            return
        with self._lock:
            self._drop()

    def _drop(self) -> None:
        if self._kept is not None:
            self._kept.close()
            self._driver.close()  # a transaction left open (the connection failed in it) is rolled back
            self._kept = self._driver = None
