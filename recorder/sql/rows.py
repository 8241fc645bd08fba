"""Stored events read as plain rows, for the paths that fold whole matches: a cold read, a whole fold,
`rebuild`. An ORM object costs about 70 µs to build against a few µs for a row, which made loading the rows
cost more than folding them; the rows are read on the driver's cursor (SQLAlchemy's result rows and type
processing cost about as much again as the driver's reading).

`EventRow` answers what `StoredEvent` answers on those paths (`seq`, `type`, `data`, `stored_envelope()`);
the time goes through the column type's own reader (lenient on SQLite) and the data text through the JSON
column's reader, so a row reads the same either way. The data is read as its stored text: the store writes
it in the hash chain's canonical spelling, so `linked_data` checks a row's hash over that text as it is,
and decodes it once, where decoding it to encode it again for the hash cost a fifth of a whole-match read.
`link_texts` does that for a whole match at once: every row's hash, then one decoding of all their texts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from itertools import starmap
from operator import attrgetter
from typing import Any, cast
from weakref import WeakKeyDictionary

from sqlalchemy import func, select
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError

from recorder.log.file import format_time, parse_time, stored_event_hash
from recorder.log.readable import loads_leniently
from recorder.sql.tables import UNREADABLE_TIME, StoredEvent, stored_envelope

EVENTS = StoredEvent.__table__  # type: ignore[attr-defined]
# The data as its text: PostgreSQL's `json` keeps the text it was given, SQLite's column is TEXT.
_SELECT = ("SELECT match_id, seq, type, CAST(data AS TEXT), recorded_at, recorded_by, prev_hash, hash "
           "FROM events WHERE ")
# PostgreSQL spells the time as the hash chain does (`format_time`: UTC, milliseconds cut, not rounded): in
# Python, a zone-aware time cost 5 µs a row to format, a fifth of a rebuild's work per event.
# The columns in `EventRow`'s order, the time read from its spelling when asked (NULL), so the driver's rows are
# its arguments as they are.
_SELECT_SPELLED = ("SELECT match_id, seq, type, CAST(data AS TEXT), NULL, recorded_by, prev_hash, hash, "
                   """to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM events WHERE """)
_UNREAD = object()
_SEQ = attrgetter("seq")
# How SQLite's DATETIME column spells a time (SQLAlchemy's storage format): its canonical spelling in the hash
# chain is the same digits, cut to milliseconds (`format_time`).
_SQLITE_TIME = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}")


class EventRow:
    __slots__ = ("match_id", "seq", "type", "text", "_at", "recorded_by", "prev_hash", "hash", "_data",
                 "canonical", "_time")

    def __init__(self, match_id: str, seq: int, type: str, text: str | None, recorded_at: Any, recorded_by: str,
                 prev_hash: str, hash: str, time: str | None = None) -> None:
        # One store a statement (a rebuild makes a row per event; tuples packed and unpacked cost a third more).
        self.match_id = match_id
        self.seq = seq
        self.type = type
        self.text = text
        self._at = recorded_at
        self.recorded_by = recorded_by
        self.prev_hash = prev_hash
        self.hash = hash
        self._data: Any = _UNREAD
        # The text is known to be the data's canonical JSON (`linked_data` or `link_texts` showed it).
        self.canonical = False
        self._time = time  # `format_time(recorded_at)`, when the column's text gave it already

    @property
    def recorded_at(self) -> Any:
        """The time, as the column type reads it; from its hashed spelling when only that was read (PostgreSQL:
        the same instant, cut to the milliseconds that spelling and every hash keep)."""
        if self._at is None and self._time is not None:
            self._at = parse_time(self._time)
        return self._at

    @property
    def data(self) -> Any:
        """The stored data as the JSON column reads it (a marker for text that is not JSON)."""
        if self._data is _UNREAD:
            self._data = None if self.text is None else loads_leniently(self.text)
        return self._data

    def linked_data(self, prev: str) -> Any:
        """The data, when the row's own hash over its stored text shows it to be the chain's next link after
        the hash `prev`; None when it does not show that (a row stored in another spelling, or a broken
        one: the caller then checks the row the long way, which says what is wrong)."""
        if self.prev_hash != prev:
            return None
        if self.canonical:  # shown already (`link_texts`): the row's columns are what they were then
            return self._data
        text = self.text
        if type(text) is not str:
            return None
        try:
            if not self._hashed_over(text):
                return None
            # The bytes the hash covers, so the data that was hashed: decoded once, and kept.
            self._data = json.loads(text)
        except Exception:  # a value no append could have written: the long way names it
            return None
        self.canonical = True
        return self._data

    def _hashed_over(self, text: str) -> bool:
        """Whether the row's hash is the chain's hash of its columns with `text` as the data's canonical JSON
        (raises for a column no append could have written)."""
        time = self._time if self._time is not None else format_time(self.recorded_at)
        return stored_event_hash(self.seq, self.type, text, time, self.recorded_by, self.prev_hash) == self.hash

    def stored_envelope(self) -> dict[str, Any]:
        """`StoredEvent.stored_envelope`: the data exactly as read (the fold checks the hash first)."""
        return stored_envelope(self)


def link_texts(rows: Sequence[EventRow], prev: str) -> None:
    """Check the rows' hashes in order from the hash `prev`, as `linked_data` would one by one, up to the first
    that does not show itself the next link; their texts are then decoded all at once (one JSON array: one
    decoder call per match rather than per row), and `linked_data` answers them without checking again. A row
    that does not show itself so is left to `linked_data` and the long way, as are the rest after it."""
    shown: list[EventRow] = []
    texts: list[str] = []
    for row in rows:
        text = row.text
        if row.prev_hash != prev or type(text) is not str:
            break
        try:
            # `stored_event_hash` keeps the spelling of what repeats from row to row (types, authors, a batch's time).
            if not row._hashed_over(text):
                break
        except Exception:  # a column no append could have written: the long way names it
            break
        shown.append(row)
        texts.append(text)
        prev = row.hash
    if not shown:
        return
    try:
        # Each text is one whole JSON value (its hash shows it to be the data's canonical spelling), so the
        # array holds one value per row, in order.
        values = json.loads("[" + ",".join(texts) + "]")
    except Exception:  # a text only its own decoding can judge: one by one, by `linked_data`
        return
    if len(values) != len(shown):
        return
    for row, value in zip(shown, values, strict=True):
        row._data, row.canonical = value, True


def log_head(conn: Connection) -> int:
    """The log's last global position (0 when empty): the last entry of the positions' unique index."""
    return int(conn.execute(select(func.coalesce(func.max(EVENTS.c.position), 0))).scalar_one())


def match_rows(conn: Connection, match_id: str, after: int = 0, upto: int | None = None) -> list[EventRow]:
    """The match's rows with seq in (after, upto], in seq order."""
    reader = _reader(conn.dialect)
    m = reader.mark
    where = f"match_id = {m} AND seq > {m}" + ("" if upto is None else f" AND seq <= {m}")
    params = (match_id, after) if upto is None else (match_id, after, upto)
    return reader.rows(conn, where + " ORDER BY seq", params)


def rows_by_match(conn: Connection, match_ids: Iterable[str]) -> dict[str, list[EventRow]]:
    """Every row of each of `match_ids` (one query), in seq order; a match without rows is left out."""
    ids = list(match_ids)
    out: dict[str, list[EventRow]] = {}
    if not ids:
        return out
    reader = _reader(conn.dialect)
    # SQLite reads the primary key's index in its order, free; PostgreSQL sorted the rows by match_id in its
    # collation, two thirds of the query's work, so there each match's rows are put in seq order here (already
    # in it, mostly: a check).
    where = f"match_id IN ({', '.join([reader.mark] * len(ids))})"
    for row in reader.rows(conn, where + " ORDER BY match_id, seq" if reader.sqlite else where, ids):
        rows = out.get(row.match_id)
        if rows is None:
            rows = out[row.match_id] = []
        rows.append(row)
    if not reader.sqlite:
        for rows in out.values():
            rows.sort(key=_SEQ)
    return out


class _Reader:
    """Event rows of one dialect, read on the driver's cursor: SQLAlchemy's result rows and type processing
    cost more than the driver's reading (a rebuild reads every row of the log). The columns are read as Core
    reads them: the time through the column type's own reader (lenient on SQLite), the rest as the driver
    gives them."""

    def __init__(self, dialect: Dialect) -> None:
        self.sqlite = dialect.name == "sqlite"
        self.mark = "?" if self.sqlite else "%s"
        self._select = _SELECT_SPELLED if dialect.name == "postgresql" else _SELECT
        self._time: Callable[[Any], Any] | None = EVENTS.c.recorded_at.type.dialect_impl(dialect).result_processor(
            dialect, None)
        self._error = dialect.loaded_dbapi.Error

    def rows(self, conn: Connection, where: str, params: Sequence[Any]) -> list[EventRow]:
        sql = self._select + where
        driver = conn.connection.dbapi_connection
        fetched = self._fetched_strictly(driver, sql, params) if self.sqlite else None
        if fetched is None:
            try:
                fetched = self._fetched(driver, sql, params)
            except self._error as e:  # raised as SQLAlchemy raises it, whichever way the query ran
                raise DBAPIError.instance(sql, params, e, self._error) from e
        if self._select is _SELECT_SPELLED:
            return list(starmap(EventRow, fetched))
        read_time = self._time
        if read_time is None:
            return [EventRow(*r) for r in fetched]
        out = []
        last_at: Any = _UNREAD
        time: Any = None
        hashed_time: str | None = None
        for match_id, seq, type_, text, at, by, prev, hash_ in fetched:
            if at != last_at:  # rows stored together (an import, a batch) share their time: read once
                # SQLite's text time: its canonical spelling is cut from it when it has the column's own format
                # (and reads as a time), so that it is not formatted again for every hash check.
                last_at, time = at, read_time(at)
                hashed_time = (at[:10] + "T" + at[11:23] + "Z" if type(at) is str and _SQLITE_TIME.fullmatch(at)
                               and time is not UNREADABLE_TIME else None)
            out.append(EventRow(match_id, seq, type_, text, time, by, prev, hash_, hashed_time))
        return out

    @staticmethod
    def _fetched(driver: Any, sql: str, params: Sequence[Any]) -> list[Any]:
        cur = driver.cursor()
        try:
            cur.execute(sql, tuple(params))
            return cast(list[Any], cur.fetchall())
        finally:
            cur.close()

    def _fetched_strictly(self, driver: Any, sql: str, params: Sequence[Any]) -> list[Any] | None:
        """SQLite's rows with their text decoded by the driver itself (`str`), a third of the reading's cost
        less than the connection's lenient decoder (`recorder.sql.sqlite`) called for every column; None when a text
        is not UTF-8 (written by hand), which fails the whole query: the rows are then read leniently."""
        lenient = driver.text_factory
        driver.text_factory = str
        try:
            return self._fetched(driver, sql, params)
        except self._error:
            return None
        finally:
            driver.text_factory = lenient


_READERS: WeakKeyDictionary[Dialect, _Reader] = WeakKeyDictionary()


def _reader(dialect: Dialect) -> _Reader:
    reader = _READERS.get(dialect)
    if reader is None:
        reader = _READERS[dialect] = _Reader(dialect)
    return reader
