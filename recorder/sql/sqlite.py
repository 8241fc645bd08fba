"""SQLite's append path: the connections' setup, the writers' turns, BEGIN IMMEDIATE and the one-trip append.

How an append locks on SQLite (the contract: recorder/sql/append.py):

- SQLite lets one writer in at a time, for the whole database. Every transaction of a writer (an engine marked
  by `for_writing`, recorder.sql.engine) begins IMMEDIATE: the write lock is taken at BEGIN, so a writer's
  read-check-append cannot interleave with another writer's, and what it reads under that lock (a stream's head,
  the log's last position) stays true until its commit. Its head is read without FOR UPDATE, which SQLite has
  not. Readers begin deferred and, in WAL mode, neither wait for writers nor block them.
- A writer that finds the lock taken sleeps in SQLite's busy handler (1, 2, 5, 10 … ms) and is not woken when it
  is free, so this process's writers — appends, creates and imports of matches and of club streams, the read
  models' catch-up — queue on a lock of their own first (`AppendTurns`), and each starts the moment the one
  before commits (other processes, and other writes, still meet SQLite's wait).
- Taking turns, they share one connection, kept open: checking a connection out of the pool and back in (its
  reset included) cost a sixth of an append's own CPU. A path's first turn still borrows a pooled connection: one
  made for a single append (a script, the first append after a restart) would otherwise take a connection out of
  the pool for good, and the pool would open a new one (SQLite reads the schema again on it) for the next taker.
- A match's append whose writer has its fold cached goes in one transaction with no read before its writes
  (`SqliteAppender.one_trip`): on the kept connection's driver, BEGIN IMMEDIATE, the head moved only if it is
  still at `expected_seq`, the rows (each numbered by SQLite: the position is the events table's rowid), COMMIT.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

from recorder.sql.append import AT, EVENT_COLUMNS, ROW_AT, Appender, as_is

T = TypeVar("T")
WRITE_OPTION = "scorebook_write"  # an engine's execution option: its transactions begin IMMEDIATE


def _lenient_text(raw: bytes) -> str:
    """SQLite's TEXT may hold bytes that are not UTF-8 (written with the sqlite3 shell, say): read them with
    U+FFFD in place of each bad byte rather than failing the whole read (costs nothing measurable)."""
    return raw.decode("utf-8", "replace")


def configure(engine: Engine) -> None:
    """Set up an SQLite engine's connections: foreign keys, a busy timeout, WAL (on a file), lenient text, and
    transactions begun by hand — IMMEDIATE for a writer (`WRITE_OPTION`), deferred for a reader."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # let us emit BEGIN ourselves
        dbapi_conn.text_factory = _lenient_text
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        if engine.url.database not in (None, "", ":memory:"):
            cur.execute("PRAGMA journal_mode=WAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        # On the driver's connection: exec_driver_sql's own bookkeeping cost more than the BEGIN itself.
        conn.connection.dbapi_connection.execute(
            "BEGIN IMMEDIATE" if conn.get_execution_options().get(WRITE_OPTION) else "BEGIN")


class AppendTurns:
    """This process's writers of one SQLite database, one at a time, on a kept connection (see the module).
    `transaction()`: a connection in a writing transaction, committed when the block ends without an exception,
    rolled back when it raises."""

    def __init__(self, writer: Engine) -> None:
        self._writer = writer
        self._lock = threading.Lock()
        # An in-memory database is one per connection of its pool's thread: nothing kept, a connection each time.
        self._keep = writer.url.database not in (None, "", ":memory:")
        self._kept: Connection | None = None
        self._borrowed = False  # the first turn was taken on a pooled connection
        self._driver: Any = None  # the kept connection's own: closed by hand, as an invalidated one is not

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
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

    def on_driver(self, work: Callable[..., T], *args: Any) -> T:
        """`work(driver connection, *args)` in this process's writing turn, outside any transaction: `work` writes
        BEGIN IMMEDIATE and ends the transaction itself (SQLAlchemy's begin and commit, with their events, cost
        more than the two statements; so did a context manager for the turn)."""
        with self._lock:
            kept = self._ready()
            if kept is None:
                with self._writer.connect() as conn:
                    return work(conn.connection.dbapi_connection, *args)
            return work(self._driver, *args)

    def _ready(self) -> Connection | None:
        """Under the lock: the kept connection (opened when there is none, or it failed), or None when this turn
        borrows a pooled one (the first, or every turn on an in-memory database)."""
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
        """Close the kept connection (a closed store; the next turn opens another)."""
        with self._lock:
            self._drop()

    def _drop(self) -> None:
        if self._kept is not None:
            self._kept.close()
            self._driver.close()  # a transaction left open (the connection failed in it) is rolled back
            self._kept = self._driver = None


class SqliteAppender(Appender):
    """The append path on SQLite (see the module)."""

    LOG_HEAD_WITH_HEAD = True  # BEGIN IMMEDIATE holds every other writer off: the log's head is read with the head

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine.dialect)
        self.turns = AppendTurns(engine.execution_options(**{WRITE_OPTION: True}))
        self._integrity_error = engine.dialect.loaded_dbapi.IntegrityError
        mark = self.mark
        # The one-trip append: the head moved only from the seq the writer knows, and the position left to SQLite,
        # which numbers a row of a rowid table (the position is the events table's rowid, migration 0011)
        # max(rowid) + 1 under the write lock BEGIN IMMEDIATE holds: the log's head + 1, without reading it.
        self._move_head_from = f"{self._move_head} AND last_seq = {mark}"
        self._insert_numbered = (f"INSERT INTO events ({', '.join(EVENT_COLUMNS)}) VALUES ({mark}, {mark}, NULL, "
                                 f"{', '.join([mark] * 7)})")
        # Rows with their data's text need only their time bound: decided once, not on every write.
        self._only_time_for_texts = all(p is None for i, p in enumerate(self._text_processors) if i != AT)

    def transaction(self) -> AbstractContextManager[Connection]:
        return self.turns.transaction()

    def close(self) -> None:
        self.turns.close()

    def _read(self, cur: Any, sql: str, params: tuple[Any, ...]) -> Any:
        self._run(cur, sql, params)
        return cur.fetchone()

    def _script(self, cur: Any, rows: Sequence[Sequence[Any]], update: str, match: tuple[Any, ...], commit: bool,
                texts: bool = False, position: int | None = None) -> None:
        """The rows in one `executemany`, then the head (the commit is the transaction's own)."""
        if position is None:
            self._run(cur, "SELECT coalesce(max(position), 0) FROM events", ())
            position = int(cur.fetchone()[0])
        if texts and self._only_time_for_texts:
            at = self._text_processors[AT] or as_is
            events = [(*row[:2], position + i, *row[2:4], at(row[4]), *row[5:]) for i, row in enumerate(rows, 1)]
        else:
            events = self._numbered(rows, position, texts)
        self._run(cur, self._insert, events, many=True)
        self._run(cur, update, match)

    def one_trip(self, rows: Sequence[Sequence[Any]], match_id: str, expected_seq: int, last_seq: int,
                 updated_at: Any, snapshots: Sequence[Mapping[str, Any]] = ()) -> bool:
        """`Appender.one_trip` in this process's writing turn, on the kept connection's driver (see the module)."""
        return self.turns.on_driver(self._one_trip, rows, match_id, expected_seq, last_seq, updated_at, snapshots)

    def _one_trip(self, driver: Any, rows: Sequence[Sequence[Any]], match_id: str, expected_seq: int, last_seq: int,
                  updated_at: Any, snapshots: Sequence[Mapping[str, Any]]) -> bool:
        assert self._only_time_for_texts and self._head_processors[0] is None and self._head_processors[2] is None
        # The data is text already: only the times are bound, by the column's processor, which remembers its last
        # few answers (the rows' time is mostly `updated_at` itself: written out once).
        at = self._row_text_processors[ROW_AT] or as_is
        head = (last_seq, at(updated_at), match_id, expected_seq)
        events = [(*row[:4], at(row[4]), *row[5:]) for row in rows]
        sql = self._move_head_from
        cur = driver.cursor()  # one cursor for the four statements; `execute` for a single row (cheaper than many)
        try:
            cur.execute("BEGIN IMMEDIATE")
            try:
                if cur.execute(sql, head).rowcount != 1:
                    driver.rollback()
                    return False
                sql = self._insert_numbered
                if len(events) == 1:
                    cur.execute(sql, events[0])
                else:
                    cur.executemany(sql, events)
                if snapshots:
                    sql = self._insert_snapshot
                    cur.executemany(sql, [self._snapshot_values(snapshot) for snapshot in snapshots])
                cur.execute("COMMIT")
            except BaseException:
                if driver.in_transaction:
                    driver.rollback()
                raise
        except self._integrity_error:
            return False
        except self._driver_error as e:
            raise DBAPIError.instance(sql, events, e, self._driver_error) from e
        return True
