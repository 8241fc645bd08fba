"""The statements an append runs for every request, on the driver's own cursor.

SQLAlchemy builds, caches and compiles a Core statement each time it runs one: about 40 µs a statement,
five statements an append, which was more than the database's own work for the whole transaction
(BEGIN IMMEDIATE, the reads, the inserts, the commit: about 165 µs of CPU on SQLite). Here each statement is
written once per dialect and run on the cursor of the caller's connection, inside the caller's
transaction; parameters go through the columns' own bind processors (the JSON serializer, SQLite's
datetime text), so a row is stored exactly as SQLAlchemy would have stored it. Statements that run
rarely (snapshots, the match list's version) stay Core statements in `recorder.store.matches`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError

from recorder.sql.rows import EVENTS
from recorder.sql.tables import Match, MatchSnapshot

MATCHES = Match.__table__  # type: ignore[attr-defined]
SNAPSHOTS = MatchSnapshot.__table__  # type: ignore[attr-defined]
SNAPSHOT_COLUMNS = tuple(c.name for c in SNAPSHOTS.columns)  # `Snapshots.values` gives a row's, by name
EVENT_COLUMNS = ("match_id", "seq", "position", "type", "data", "recorded_at", "recorded_by", "prev_hash", "hash",
                 "event_id")
MATCH_COLUMNS = ("last_seq", "status", "winners", "updated_at", "id")
HEAD_COLUMNS = ("last_seq", "updated_at", "id")  # a match whose status stays as it was

Processor = Callable[[Any], Any] | None
SCRIPT_ROWS = 100  # PostgreSQL: up to this many rows (an append) are written in one simple query
# PostgreSQL: wakes the servers' live followers (recorder/live.py), with the match's id. Sent in the writing
# transaction, it is delivered at commit (never for a rolled-back append); one per append however many rows.
NOTIFY = "SELECT pg_notify('scorebook_events', %s)"


class Head(NamedTuple):
    """A match row's head, as an append reads it under the row's lock. (A named tuple: built in C, once an
    append.)"""

    id: str
    last_seq: int
    status: str
    position: int | None = None  # the log's head, when it was read under the same lock (SQLite)


def _processors(table: Any, names: Sequence[str], dialect: Dialect) -> list[Processor]:
    out = [table.c[name].type.dialect_impl(dialect).bind_processor(dialect) for name in names]
    if "recorded_at" in names:  # an append's or an import's rows share their time: formatted once (SQLite)
        at = names.index("recorded_at")
        processor = out[at]
        out[at] = None if processor is None else lru_cache(maxsize=16)(processor)
    return out


def _as_text(processors: list[Processor], dialect: Dialect, at: int) -> list[Processor]:
    """`processors` for rows whose column `at` (the event data) is given as its stored JSON text already: passed
    as it is (SQLite's column takes the text; psycopg is told it is JSON, as the column's processor does)."""
    out = list(processors)
    if dialect.name == "postgresql":
        from psycopg.types.json import Json

        out[at] = lambda text: Json(text, dumps=str)  # `dumps` of the text: itself
    else:
        out[at] = None
    return out


_AT = EVENT_COLUMNS.index("recorded_at")
_AT_BUT_POSITION = _AT - 1  # in a row without its position (which comes before the time)


def _as_is(value: Any) -> Any:
    return value


def _bound(processors: list[Processor], values: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(v if p is None or v is None else p(v) for p, v in zip(processors, values, strict=True))


class AppendStatements:
    """The hot statements of one dialect (SQLite or PostgreSQL)."""

    def __init__(self, dialect: Dialect) -> None:
        self.sqlite = dialect.name == "sqlite"
        mark = "?" if self.sqlite else "%s"
        self._mark = mark
        head = "(SELECT coalesce(max(position), 0) FROM events)"
        # On SQLite the writer's transaction (BEGIN IMMEDIATE) already holds the database's write lock, so the
        # log's head can be read with the match row; on PostgreSQL positions are taken later, under a table
        # lock held only from the insert to the commit (see `log_head`).
        self._head = (f"SELECT id, last_seq, status, {head} FROM matches WHERE id = ?" if self.sqlite
                      else "SELECT id, last_seq, status FROM matches WHERE id = %s FOR UPDATE")
        self._insert = f"INSERT INTO events ({', '.join(EVENT_COLUMNS)}) VALUES ({', '.join([mark] * 10)})"
        # PostgreSQL, more than SCRIPT_ROWS rows (an import): psycopg pipelines an INSERT a row at far more cost.
        self._copy = f"COPY events ({', '.join(EVENT_COLUMNS)}) FROM STDIN"
        self._update = (f"UPDATE matches SET last_seq = {mark}, status = {mark}, winners = {mark}, "
                        f"updated_at = {mark} WHERE id = {mark}")
        # Without the status when it stays: SQLite rewrites an index's entry for every column SET, changed or not
        # (two more pages an append, for the indexes on status).
        self._move_head = f"UPDATE matches SET last_seq = {mark}, updated_at = {mark} WHERE id = {mark}"
        self._move_head_from = f"{self._move_head} AND last_seq = {mark}"
        # `one_trip`'s check: no row moved (the match is elsewhere, or gone) divides by zero, which ends the query.
        self._moved_from = (f"WITH moved AS ({self._move_head} AND last_seq = {mark} RETURNING 1) "
                            "SELECT 1 / count(*) FROM moved")
        # PostgreSQL's append: the position read by the INSERT itself, under the positions' lock (`_script`).
        columns = [c for c in EVENT_COLUMNS if c != "position"]
        self._insert_next = (f"INSERT INTO events ({', '.join(EVENT_COLUMNS)}) VALUES ({mark}, {mark}, "
                             f"(SELECT coalesce(max(position), 0) + 1 FROM events), {', '.join([mark] * 7)})")
        # SQLite's one-trip append: the position left to SQLite, which numbers a row of a rowid table (the position
        # is the events table's rowid, migration 0011) max(rowid) + 1 under the write lock BEGIN IMMEDIATE holds:
        # the same number as the subquery, without running it.
        self._insert_numbered = (f"INSERT INTO events ({', '.join(EVENT_COLUMNS)}) VALUES ({mark}, {mark}, NULL, "
                                 f"{', '.join([mark] * 7)})")
        self._event_processors_but_position = _processors(EVENTS, columns, dialect)
        # A snapshot due among an append's rows (`recorder.store.snapshots`) goes in the same trip.
        self._insert_snapshot = (f"INSERT INTO {SNAPSHOTS.name} ({', '.join(SNAPSHOT_COLUMNS)}) "
                                 f"VALUES ({', '.join([mark] * len(SNAPSHOT_COLUMNS))})")
        self._snapshot_processors = _processors(SNAPSHOTS, SNAPSHOT_COLUMNS, dialect)
        self._driver_error = dialect.loaded_dbapi.Error
        self._integrity_error = dialect.loaded_dbapi.IntegrityError
        self._event_processors = _processors(EVENTS, EVENT_COLUMNS, dialect)
        # The same, for rows that carry their data's stored text (recorder.log.file.chained): not encoded again.
        self._text_processors = _as_text(self._event_processors, dialect, EVENT_COLUMNS.index("data"))
        self._text_processors_but_position = _as_text(self._event_processors_but_position, dialect,
                                                      columns.index("data"))
        self._match_processors = _processors(MATCHES, MATCH_COLUMNS, dialect)
        # Rows with their data's text need only their time bound, on SQLite: decided once, not on every write.
        self._only_time_for_texts = all(p is None for i, p in enumerate(self._text_processors) if i != _AT)
        self._head_processors = _processors(MATCHES, HEAD_COLUMNS, dialect)

    def _run(self, cur: Any, sql: str, params: Any, many: bool = False) -> Any:
        """Execute on the driver's cursor; a driver error is raised as SQLAlchemy raises it (IntegrityError
        and the rest), so callers catch the same exceptions whichever way a statement ran."""
        try:
            return cur.executemany(sql, params) if many else cur.execute(sql, params)
        except self._driver_error as e:
            raise DBAPIError.instance(sql, params, e, self._driver_error) from e

    @staticmethod
    def cursor(conn: Connection) -> Any:
        """A cursor of the driver's connection under `conn`: in `conn`'s transaction."""
        return conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]

    def head(self, cur: Any, match_id: str, event_ids: Sequence[str] = ()) -> tuple[Head | None, bool]:
        """The match's head, its row locked for the transaction (None when there is no such match), and
        whether any of `event_ids` is stored already: one round trip for both."""
        sql = self._head
        params: tuple[Any, ...] = (match_id,)
        if event_ids:
            stored = self._any_stored(len(event_ids))
            sql = sql.replace("SELECT id, last_seq, status", f"SELECT id, last_seq, status, {stored} AS stored", 1)
            params = (*event_ids, match_id)
        if self.sqlite:
            self._run(cur, sql, params)
        else:  # psycopg sends the transaction's BEGIN with the query in one round trip, not one each
            with cur.connection.pipeline():
                self._run(cur, sql, params)
        row = cur.fetchone()
        if row is None:
            return None, bool(event_ids) and self.any_stored(cur, event_ids)
        at = 4 if event_ids else 3
        head = Head(row[0], int(row[1]), row[2], int(row[at]) if self.sqlite else None)
        return head, bool(event_ids) and bool(row[3])

    def any_stored(self, cur: Any, event_ids: Sequence[str]) -> bool:
        """Whether any of `event_ids` is stored (the unique index answers)."""
        self._run(cur, f"SELECT {self._any_stored(len(event_ids))}", tuple(event_ids))
        return bool(cur.fetchone()[0])

    def _any_stored(self, n: int) -> str:
        """The SQL expression: is any of `n` event_ids (the next `n` parameters) stored?"""
        return f"EXISTS (SELECT 1 FROM events WHERE event_id IN ({', '.join([self._mark] * n)}))"

    def log_head(self, cur: Any) -> int:
        """The log's last position, for the rows about to be inserted. On PostgreSQL the events table is locked
        first (EXCLUSIVE: readers go on, other appenders wait) until the commit, so that positions are handed
        out in commit order and a follower never sees a gap fill in later."""
        if self.sqlite:
            self._run(cur, "SELECT coalesce(max(position), 0) FROM events", ())
        else:  # both in one round trip (no parameters: the simple query protocol takes two statements)
            self._run(cur, "LOCK TABLE events IN EXCLUSIVE MODE; SELECT coalesce(max(position), 0) FROM events", None)
            cur.nextset()
        return int(cur.fetchone()[0])

    def write(self, cur: Any, rows: Sequence[Sequence[Any]], position: int | None, match_id: str, last_seq: int,
              status: str | None, winners: list[str], updated_at: Any, commit: bool = False,
              texts: bool = False) -> None:
        """Insert event rows (each the values of EVENT_COLUMNS but `position`, in order), numbered after the
        log's head `position` (None: read here, under PostgreSQL's lock, see `log_head`), and move the match's
        head (`status` None: it stays, and so do the winners); `commit`: and commit (the caller writes nothing
        more in this transaction). `texts`: the rows' data is its stored JSON text already."""
        if status is None:
            update, match = self._move_head, _bound(self._head_processors, (last_seq, updated_at, match_id))
        else:
            update = self._update
            match = _bound(self._match_processors, (last_seq, status, winners, updated_at, match_id))
        if not self.sqlite and len(rows) <= SCRIPT_ROWS:
            self._script(cur, rows, update, match, commit, texts)
            return
        first = position if position is not None else self.log_head(cur)
        processors = self._text_processors if texts else self._event_processors
        if texts and self._only_time_for_texts:
            at = processors[_AT] or _as_is
            events = [(*row[:2], first + i, *row[2:4], at(row[4]), *row[5:]) for i, row in enumerate(rows, 1)]
        else:
            events = [_bound(processors, (*row[:2], first + i, *row[2:])) for i, row in enumerate(rows, 1)]
        if self.sqlite:
            self._run(cur, self._insert, events, many=True)
            self._run(cur, update, match)
            return
        try:  # an import's many rows: COPY (psycopg adapts each value as the insert would), then the head
            with cur.copy(self._copy) as copy:
                for event in events:
                    copy.write_row(event)
            with cur.connection.pipeline():
                cur.execute(update, match)
                cur.execute(NOTIFY, (match_id,))
        except self._driver_error as e:
            raise DBAPIError.instance(self._copy, events, e, self._driver_error) from e

    def one_trip(self, driver: Any, rows: Sequence[Sequence[Any]], match_id: str, expected_seq: int, last_seq: int,
                 updated_at: Any, snapshots: Sequence[Mapping[str, Any]] = ()) -> bool:
        """PostgreSQL: a whole append in one round trip, when its writer already knows the match's head (its
        cached fold): the match row moved from `expected_seq` to `last_seq` only if it is still at `expected_seq`
        (its row lock taken, as `head` takes it), then the positions' lock, the rows (`write`'s, data as stored
        text), the snapshots due among them (their rows' column values) and the notification, sent as one simple
        query that PostgreSQL runs as one transaction. False, and nothing stored, when the match is not at
        `expected_seq` or a row breaks a unique index (an event_id stored before): the caller then appends the
        careful way, which words the answer. `driver`: a psycopg connection in autocommit mode (no BEGIN sent
        before the query)."""
        from psycopg import ClientCursor
        from psycopg.errors import DivisionByZero, UniqueViolation

        params: list[Any] = [*_bound(self._head_processors, (last_seq, updated_at, match_id)), expected_seq]
        for row in rows:
            params.extend(_bound(self._text_processors_but_position, row))
        for snapshot in snapshots:
            params.extend(self._snapshot_values(snapshot))
        params.append(match_id)
        script = "; ".join([self._moved_from, "LOCK TABLE events IN EXCLUSIVE MODE", *[self._insert_next] * len(rows),
                            *[self._insert_snapshot] * len(snapshots), NOTIFY])
        try:
            with ClientCursor(driver) as client:
                client.execute(script, params)
        except (DivisionByZero, UniqueViolation):
            return False
        except self._driver_error as e:
            raise DBAPIError.instance(script, params, e, self._driver_error) from e
        return True

    def one_trip_sqlite(self, driver: Any, rows: Sequence[Sequence[Any]], match_id: str, expected_seq: int,
                        last_seq: int, updated_at: Any, snapshots: Sequence[Mapping[str, Any]] = ()) -> bool:
        """SQLite: `one_trip`'s append, as one transaction on the writing turn's driver connection
        (`AppendTurns.on_driver`) with no read before its writes: the match row moved from `expected_seq` to
        `last_seq` only if it is still at `expected_seq`, then the rows, each numbered by SQLite as the log's head + 1
        (its rowid: BEGIN IMMEDIATE holds the database's write lock), the snapshots due among them, then COMMIT.
        False, and nothing stored, when the match is not at `expected_seq` or a row breaks a unique index (an
        event_id stored before)."""
        assert self._only_time_for_texts and self._head_processors[0] is None and self._head_processors[2] is None
        # The data is text already: only the times are bound, by the column's processor, which remembers its last
        # few answers (the rows' time is mostly `updated_at` itself: written out once).
        at = self._text_processors_but_position[_AT_BUT_POSITION] or _as_is
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

    def _snapshot_values(self, snapshot: Mapping[str, Any]) -> tuple[Any, ...]:
        """A snapshot row's column values (`Snapshots.values`) as bound to `_insert_snapshot`."""
        return _bound(self._snapshot_processors, [snapshot[c] for c in SNAPSHOT_COLUMNS])

    def _script(self, cur: Any, rows: Sequence[Sequence[Any]], update: str, match: tuple[Any, ...], commit: bool,
                texts: bool = False) -> None:
        """An append's writes on PostgreSQL as one simple query, one round trip: the positions' lock (see
        `log_head`), each row numbered by its own INSERT (the log's head + 1, read under that lock: each
        statement sees the rows before it), the match's new head, and the COMMIT. Parameters are bound on the
        client by psycopg's ClientCursor, which quotes every value as a literal of its type."""
        from psycopg import ClientCursor

        params: list[Any] = []
        processors = self._text_processors_but_position if texts else self._event_processors_but_position
        for row in rows:
            params.extend(_bound(processors, row))
        params.extend(match)
        params.append(match[-1])  # NOTIFY's payload: the match's id
        script = "; ".join(["LOCK TABLE events IN EXCLUSIVE MODE", *[self._insert_next] * len(rows), update,
                            NOTIFY, *(["COMMIT"] if commit else [])])
        with ClientCursor(cur.connection) as client:
            self._run(client, script, params)
