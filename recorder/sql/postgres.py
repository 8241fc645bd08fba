"""PostgreSQL's append path: the head's row lock, the positions' table lock, the one-trip append and NOTIFY.

How an append locks on PostgreSQL (the contract: recorder/sql/append.py):

- Appends to different streams run at once, each on a pooled connection of its own. The stream's head row is
  read SELECT … FOR UPDATE at the start of the transaction (psycopg sends the BEGIN with it: one round trip), so
  a second writer of the same stream waits there until the first commits, then reads the moved head.
- A match's events carry the log's global position. Positions are handed out under LOCK TABLE events IN
  EXCLUSIVE MODE (readers go on, other appenders wait), taken just before the inserts and held until the commit,
  so that they are in commit order: a follower reading after position p never sees a gap fill in later. Each
  INSERT reads its own position (the log's head + 1) under that lock.
- An append's writes, up to SCRIPT_ROWS rows, go as one simple query (one round trip): the lock, the inserts,
  the head, `NOTIFY`, the COMMIT; more rows (an import) go by COPY.
- A match's append whose writer has its fold cached goes in one round trip with no read before its writes
  (`PostgresAppender.one_trip`), in autocommit: the head moved only if it is still at `expected_seq` (taking its
  row lock as FOR UPDATE would), the positions' lock, the rows, the snapshots due, `NOTIFY`, run by PostgreSQL as
  one transaction.
- `NOTIFY` (pg_notify on `scorebook_events`, with the match's id) wakes the servers' live followers
  (recorder/live.py). Sent in the writing transaction, it is delivered at commit — never for a rolled-back
  append — once per append however many rows.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

from recorder.sql.append import EVENT_COLUMNS, Appender, Processor, bound
from recorder.sql.engine import autocommit_driver

SCRIPT_ROWS = 100  # up to this many rows (an append) are written in one simple query
NOTIFY = "SELECT pg_notify('scorebook_events', %s)"
LOCK_POSITIONS = "LOCK TABLE events IN EXCLUSIVE MODE"


class PostgresAppender(Appender):
    """The append path on PostgreSQL (see the module)."""

    HEAD_LOCK = " FOR UPDATE"

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine.dialect)
        self._engine = engine
        mark = self.mark
        self._copy = f"COPY events ({', '.join(EVENT_COLUMNS)}) FROM STDIN"
        # The position read by the INSERT itself, under the positions' lock (`_script`).
        self._insert_next = (f"INSERT INTO events ({', '.join(EVENT_COLUMNS)}) VALUES ({mark}, {mark}, "
                             f"(SELECT coalesce(max(position), 0) + 1 FROM events), {', '.join([mark] * 7)})")
        # `one_trip`'s check: no row moved (the match is elsewhere, or gone) divides by zero, which ends the query.
        self._moved_from = (f"WITH moved AS ({self._move_head} AND last_seq = {mark} RETURNING 1) "
                            "SELECT 1 / count(*) FROM moved")

    def _json_text(self) -> Processor:
        from psycopg.types.json import Json

        return lambda text: Json(text, dumps=str)  # told it is JSON, as the column's processor does; `dumps`: itself

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        with self._engine.connect() as conn, conn.begin():
            yield conn

    def close(self) -> None:
        """Nothing is kept open: each transaction takes a pooled connection."""

    def _read(self, cur: Any, sql: str, params: tuple[Any, ...]) -> Any:
        with cur.connection.pipeline():  # psycopg sends the transaction's BEGIN with the query in one round trip
            self._run(cur, sql, params)
        return cur.fetchone()

    def _copied(self, cur: Any, rows: Sequence[Sequence[Any]], update: str, match: tuple[Any, ...], texts: bool,
                position: int | None) -> None:
        """More than SCRIPT_ROWS rows (an import): psycopg pipelines an INSERT a row at far more cost than COPY."""
        if position is None:  # both in one round trip (no parameters: the simple query protocol takes two)
            self._run(cur, f"{LOCK_POSITIONS}; SELECT coalesce(max(position), 0) FROM events", None)
            cur.nextset()
            position = int(cur.fetchone()[0])
        events = self._numbered(rows, position, texts)
        try:  # an import's many rows: COPY (psycopg adapts each value as the insert would), then the head
            with cur.copy(self._copy) as copy:
                for event in events:
                    copy.write_row(event)
            with cur.connection.pipeline():
                cur.execute(update, match)
                cur.execute(NOTIFY, (match[-1],))  # its payload: the match's id
        except self._driver_error as e:
            raise DBAPIError.instance(self._copy, events, e, self._driver_error) from e

    def _script(self, cur: Any, rows: Sequence[Sequence[Any]], update: str, match: tuple[Any, ...], commit: bool,
                texts: bool = False, position: int | None = None) -> None:
        """An append's writes as one simple query, one round trip: the positions' lock, each row numbered by its
        own INSERT (the log's head + 1, read under that lock: each statement sees the rows before it), the match's
        new head, NOTIFY and the COMMIT. Parameters are bound on the client by psycopg's ClientCursor, which quotes
        every value as a literal of its type. More than SCRIPT_ROWS rows go by COPY (`_copied`)."""
        from psycopg import ClientCursor

        if len(rows) > SCRIPT_ROWS:
            self._copied(cur, rows, update, match, texts, position)
            return
        params: list[Any] = []
        processors = self._row_text_processors if texts else self._row_processors
        for row in rows:
            params.extend(bound(processors, row))
        params.extend(match)
        params.append(match[-1])  # NOTIFY's payload: the match's id
        script = "; ".join([LOCK_POSITIONS, *[self._insert_next] * len(rows), update, NOTIFY,
                            *(["COMMIT"] if commit else [])])
        with ClientCursor(cur.connection) as client:
            self._run(client, script, params)

    def one_trip(self, rows: Sequence[Sequence[Any]], match_id: str, expected_seq: int, last_seq: int,
                 updated_at: Any, snapshots: Sequence[Mapping[str, Any]] = ()) -> bool:
        """`Appender.one_trip` as one simple query on a pooled connection in autocommit (no BEGIN sent before it),
        which PostgreSQL runs as one transaction (see the module)."""
        from psycopg import ClientCursor
        from psycopg.errors import DivisionByZero, UniqueViolation

        params: list[Any] = [*bound(self._head_processors, (last_seq, updated_at, match_id)), expected_seq]
        for row in rows:
            params.extend(bound(self._row_text_processors, row))
        for snapshot in snapshots:
            params.extend(self._snapshot_values(snapshot))
        params.append(match_id)
        script = "; ".join([self._moved_from, LOCK_POSITIONS, *[self._insert_next] * len(rows),
                            *[self._insert_snapshot] * len(snapshots), NOTIFY])
        try:
            with autocommit_driver(self._engine) as driver, ClientCursor(driver) as client:
                client.execute(script, params)
        except (DivisionByZero, UniqueViolation):
            return False
        except self._driver_error as e:
            raise DBAPIError.instance(script, params, e, self._driver_error) from e
        return True
