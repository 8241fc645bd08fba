"""How an append writes: the contract each database's append path keeps (`Appender`), and the statements and
parameter binding the two paths share. The paths themselves: recorder/sql/sqlite.py and recorder/sql/postgres.py.

An append is one transaction, for a match (`events` under `matches`) as for a club stream (`stream_events` under
`streams`): its stream's head row locked (`Appender.transaction`, then `Appender.head`, which reads the head's
last seq, and whether any of the batch's event_ids is stored already, in one query), the retry and the
`expected_seq` checked against that head, the rows inserted, the head moved, the commit. How the lock is had:

- SQLite lets one writer in at a time, for the whole database. A writer's transaction begins IMMEDIATE (the
  write lock taken at BEGIN, not at its first write), so reading the head needs no FOR UPDATE, and the log's
  head (the last position) is read with it. This process's writers first take turns on a lock of their own
  (SQLite wakes a waiting writer only by polling), on one connection kept for them (`sqlite.AppendTurns`).
- PostgreSQL lets appends to different streams run at once: the head row is read SELECT … FOR UPDATE on a
  pooled connection of the append's own. A match's events take their global positions under LOCK TABLE events
  IN EXCLUSIVE MODE (readers go on, other appenders wait), taken just before the inserts and held until the
  commit, so that positions are handed out in commit order; NOTIFY in the same transaction wakes followers.
- A match's append whose writer has the match's fold cached at `expected_seq` skips the read: `one_trip`
  moves the head only if it is still there and writes everything in one go (PostgreSQL: one round trip, in
  autocommit; SQLite: on the kept connection), and answers False, having stored nothing, otherwise.

Each statement is written once per dialect and run on the cursor of the caller's connection, inside the caller's
transaction: SQLAlchemy builds, caches and compiles a Core statement each time it runs one (about 40 µs a
statement, five an append: more than the database's own work for the whole transaction). Parameters go through
the columns' own bind processors (the JSON serializer, SQLite's datetime text), so a row is stored exactly as
SQLAlchemy would have stored it. Statements that run rarely (a club stream's rows, snapshots outside an append,
the match list's version) stay Core statements in the stores.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy import Table
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError

from recorder.sql.rows import EVENTS
from recorder.sql.stream_tables import STREAM_EVENTS, STREAMS
from recorder.sql.tables import Match, MatchSnapshot

MATCHES = Match.__table__  # type: ignore[attr-defined]
SNAPSHOTS = MatchSnapshot.__table__  # type: ignore[attr-defined]
SNAPSHOT_COLUMNS = tuple(c.name for c in SNAPSHOTS.columns)  # `Snapshots.values` gives a row's, by name
EVENT_COLUMNS = ("match_id", "seq", "position", "type", "data", "recorded_at", "recorded_by", "prev_hash", "hash",
                 "event_id")
ROW_COLUMNS = tuple(c for c in EVENT_COLUMNS if c != "position")  # a row as the store gives it: numbered here
MATCH_COLUMNS = ("last_seq", "status", "winners", "updated_at", "id")
HEAD_COLUMNS = ("last_seq", "updated_at", "id")  # a match whose status stays as it was

Processor = Callable[[Any], Any] | None


class Chain(NamedTuple):
    """A kind of hash-chained stream as stored: the table of its heads (a row per stream: `id`, `last_seq`: the
    row an append locks) and the table of its events (keyed by the stream's column `owner` and `seq`; a unique
    `event_id` or none)."""

    heads: Table
    events: Table
    owner: str  # the events' column naming their stream
    detail: str  # the heads' column an append reads with the last seq
    positions: bool  # the events carry the log's global position (read with the head where the lock allows)


MATCH_CHAIN = Chain(MATCHES, EVENTS, "match_id", "status", positions=True)
STREAM_CHAIN = Chain(STREAMS, STREAM_EVENTS, "stream_id", "kind", positions=False)


class Head(NamedTuple):
    """A stream's head as an append reads it under the row's lock. (A named tuple: built in C, once an append.)"""

    id: str
    last_seq: int
    detail: str  # the chain's `detail` column: a match's status, a club stream's kind
    position: int | None = None  # the log's head, when it was read under the same lock (SQLite, matches)


def processors(table: Any, names: Sequence[str], dialect: Dialect) -> list[Processor]:
    """The bind processors of `table`'s columns `names` (None: the value goes as it is)."""
    out = [table.c[name].type.dialect_impl(dialect).bind_processor(dialect) for name in names]
    if "recorded_at" in names:  # an append's or an import's rows share their time: formatted once (SQLite)
        at = names.index("recorded_at")
        processor = out[at]
        out[at] = None if processor is None else lru_cache(maxsize=16)(processor)
    return out


def as_is(value: Any) -> Any:
    return value


def bound(processors: list[Processor], values: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(v if p is None or v is None else p(v) for p, v in zip(processors, values, strict=True))


AT = EVENT_COLUMNS.index("recorded_at")
ROW_AT = ROW_COLUMNS.index("recorded_at")  # in a row without its position (which comes before the time)


class Appender(ABC):
    """The append path of one database (`SqliteAppender`, `PostgresAppender`): the writer's transaction, the
    locked head, the writes. Built once per store; the stores of one Scorebook share one (SQLite: one turn)."""

    # What follows the head's query: its row lock, where the database needs one (PostgreSQL's FOR UPDATE).
    HEAD_LOCK = ""
    # Whether the log's head (the last position) is read with a match's head: where the head's lock holds every
    # appender off (SQLite's write lock), not only the match's.
    LOG_HEAD_WITH_HEAD = False

    def __init__(self, dialect: Dialect) -> None:
        mark = self.mark = "?" if dialect.paramstyle == "qmark" else "%s"
        self._insert = f"INSERT INTO events ({', '.join(EVENT_COLUMNS)}) VALUES ({', '.join([mark] * 10)})"
        self._update = (f"UPDATE matches SET last_seq = {mark}, status = {mark}, winners = {mark}, "
                        f"updated_at = {mark} WHERE id = {mark}")
        # Without the status when it stays: SQLite rewrites an index's entry for every column SET, changed or not
        # (two more pages an append, for the indexes on status).
        self._move_head = f"UPDATE matches SET last_seq = {mark}, updated_at = {mark} WHERE id = {mark}"
        # A snapshot due among an append's rows (`recorder.store.snapshots`) goes with them.
        self._insert_snapshot = (f"INSERT INTO {SNAPSHOTS.name} ({', '.join(SNAPSHOT_COLUMNS)}) "
                                 f"VALUES ({', '.join([mark] * len(SNAPSHOT_COLUMNS))})")
        self._snapshot_processors = processors(SNAPSHOTS, SNAPSHOT_COLUMNS, dialect)
        self._driver_error = dialect.loaded_dbapi.Error
        self._event_processors = processors(EVENTS, EVENT_COLUMNS, dialect)
        self._row_processors = processors(EVENTS, ROW_COLUMNS, dialect)
        # The same, for rows that carry their data's stored text (recorder.log.file.chained): not encoded again.
        self._text_processors = self._as_text(self._event_processors, EVENT_COLUMNS.index("data"))
        self._row_text_processors = self._as_text(self._row_processors, ROW_COLUMNS.index("data"))
        self._match_processors = processors(MATCHES, MATCH_COLUMNS, dialect)
        self._head_processors = processors(MATCHES, HEAD_COLUMNS, dialect)

    # -- the contract: each database's own ----------------------------------------------------------------

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Connection]:
        """A connection in a writer's transaction (this process's turn, on SQLite), committed when the block ends
        without an exception, rolled back when it raises. An append then reads its head with `head`."""
        ...

    @abstractmethod
    def _read(self, cur: Any, sql: str, params: tuple[Any, ...]) -> Any:
        """The first row of the head's query, run at the start of the writer's transaction."""
        ...

    @abstractmethod
    def _script(self, cur: Any, rows: Sequence[Sequence[Any]], update: str, match: tuple[Any, ...], commit: bool,
                texts: bool = False, position: int | None = None) -> None:
        """`write`'s statements as the database takes them at once: the rows, numbered after the log's head
        `position` (None: read under the lock that hands positions out), the match's head moved by `update` (its
        parameters `match`), and the COMMIT with them when `commit` and the database sends it in the same trip."""
        ...

    @abstractmethod
    def one_trip(self, rows: Sequence[Sequence[Any]], match_id: str, expected_seq: int, last_seq: int,
                 updated_at: Any, snapshots: Sequence[Mapping[str, Any]] = ()) -> bool:
        """A match's append with no read before its writes, as one transaction of its own, for a writer that knows
        the match's head (its cached fold): the match row moved from `expected_seq` to `last_seq` only if it is
        still at `expected_seq`, then the rows (data as stored text), the snapshots due among them (their rows'
        column values). False, and nothing stored, when the match is not at `expected_seq` or a row breaks a
        unique index (an event_id stored before): the caller then appends the careful way, which words the answer."""
        ...

    @abstractmethod
    def close(self) -> None:
        """Give back what the path keeps open (SQLite: the kept connection); it stays usable."""

    # -- shared --------------------------------------------------------------------------------------------

    def write(self, cur: Any, rows: Sequence[Sequence[Any]], position: int | None, match_id: str, last_seq: int,
              status: str | None, winners: list[str], updated_at: Any, commit: bool = False,
              texts: bool = False) -> None:
        """Insert a match's event rows (each the values of ROW_COLUMNS, in order), numbered after the log's head
        `position` (None: read here, under the positions' lock on PostgreSQL), and move the match's head (`status`
        None: it stays, and so do the winners); `commit`: and commit (the caller writes nothing more in this
        transaction). `texts`: the rows' data is its stored JSON text already."""
        update, match = self._head_update(match_id, last_seq, status, winners, updated_at)
        self._script(cur, rows, update, match, commit, texts, position)

    @staticmethod
    def cursor(conn: Connection) -> Any:
        """A cursor of the driver's connection under `conn`: in `conn`'s transaction."""
        return conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]

    def head(self, cur: Any, chain: Chain, owner: str, event_ids: Sequence[str] = ()) -> tuple[Head | None, bool]:
        """The stream's head, its row locked for the transaction (None when there is no such stream), and whether
        any of `event_ids` is stored already in the chain's events: one round trip for both."""
        columns = [f"id, last_seq, {chain.detail}"]
        params: tuple[Any, ...] = (owner,)
        if event_ids:
            columns.append(f"{self._any_stored(chain, len(event_ids))} AS stored")
            params = (*event_ids, owner)
        logged = chain.positions and self.LOG_HEAD_WITH_HEAD
        if logged:
            columns.append(f"(SELECT coalesce(max(position), 0) FROM {chain.events.name})")
        sql = f"SELECT {', '.join(columns)} FROM {chain.heads.name} WHERE id = {self.mark}{self.HEAD_LOCK}"
        row = self._read(cur, sql, params)
        if row is None:
            return None, bool(event_ids) and self.any_stored(cur, chain, event_ids)
        return Head(row[0], int(row[1]), row[2], int(row[-1]) if logged else None), bool(event_ids) and bool(row[3])

    def any_stored(self, cur: Any, chain: Chain, event_ids: Sequence[str]) -> bool:
        """Whether any of `event_ids` is stored in the chain's events (its unique index answers)."""
        self._run(cur, f"SELECT {self._any_stored(chain, len(event_ids))}", tuple(event_ids))
        return bool(cur.fetchone()[0])

    def _any_stored(self, chain: Chain, n: int) -> str:
        """The SQL expression: is any of `n` event_ids (the next `n` parameters) stored?"""
        return f"EXISTS (SELECT 1 FROM {chain.events.name} WHERE event_id IN ({', '.join([self.mark] * n)}))"

    def _run(self, cur: Any, sql: str, params: Any, many: bool = False) -> Any:
        """Execute on the driver's cursor; a driver error is raised as SQLAlchemy raises it (IntegrityError
        and the rest), so callers catch the same exceptions whichever way a statement ran."""
        try:
            return cur.executemany(sql, params) if many else cur.execute(sql, params)
        except self._driver_error as e:
            raise DBAPIError.instance(sql, params, e, self._driver_error) from e

    def _head_update(self, match_id: str, last_seq: int, status: str | None, winners: list[str],
                     updated_at: Any) -> tuple[str, tuple[Any, ...]]:
        """`write`'s statement moving the match's head, and its parameters (`status` None: it stays)."""
        if status is None:
            return self._move_head, bound(self._head_processors, (last_seq, updated_at, match_id))
        return self._update, bound(self._match_processors, (last_seq, status, winners, updated_at, match_id))

    def _numbered(self, rows: Sequence[Sequence[Any]], first: int, texts: bool) -> list[tuple[Any, ...]]:
        """The rows with their positions (after the log's head `first`), bound: `_insert`'s parameters."""
        processors = self._text_processors if texts else self._event_processors
        return [bound(processors, (*row[:2], first + i, *row[2:])) for i, row in enumerate(rows, 1)]

    def _snapshot_values(self, snapshot: Mapping[str, Any]) -> tuple[Any, ...]:
        """A snapshot row's column values (`Snapshots.values`) as bound to `_insert_snapshot`."""
        return bound(self._snapshot_processors, [snapshot[c] for c in SNAPSHOT_COLUMNS])

    def _as_text(self, processors: list[Processor], at: int) -> list[Processor]:
        """`processors` for rows whose column `at` (the event data) is given as its stored JSON text already:
        passed as it is (a backend that must say it is JSON says so: `_json_text`)."""
        out = list(processors)
        out[at] = self._json_text()
        return out

    def _json_text(self) -> Processor:
        """How the data's stored JSON text is bound: as it is (SQLite's column takes the text)."""
        return None

