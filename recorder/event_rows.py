"""Stored events read as plain rows (SQLAlchemy Core), for the paths that fold whole matches: a cold read,
a whole fold, `rebuild`. An ORM object costs about 70 µs to build against a few µs for a row, which made
loading the rows cost more than folding them.

`EventRow` answers what `StoredEvent` answers on those paths (`seq`, `type`, `data`, `stored_envelope()`);
the columns go through the same column types (lenient times on SQLite) and the data text through the JSON
column's reader, so a row reads the same either way. The data is read as its stored text: the store writes
it in the hash chain's canonical spelling, so `linked_data` checks a row's hash over that text as it is,
and decodes it once, where decoding it to encode it again for the hash cost a fifth of a whole-match read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Text, cast, func, select
from sqlalchemy.engine import Connection

from recorder.logfile import format_time, stored_event_hash
from recorder.readable import loads_leniently
from recorder.tables import StoredEvent, stored_envelope

EVENTS = StoredEvent.__table__  # type: ignore[attr-defined]
# The data as its text: PostgreSQL's `json` keeps the text it was given, SQLite's column is TEXT.
_COLUMNS = (EVENTS.c.match_id, EVENTS.c.seq, EVENTS.c.type, cast(EVENTS.c.data, Text), EVENTS.c.recorded_at,
            EVENTS.c.recorded_by, EVENTS.c.prev_hash, EVENTS.c.hash)
_UNREAD = object()


class EventRow:
    __slots__ = ("match_id", "seq", "type", "text", "recorded_at", "recorded_by", "prev_hash", "hash", "_data",
                 "canonical")

    def __init__(self, match_id: str, seq: int, type: str, text: str | None, recorded_at: Any, recorded_by: str,
                 prev_hash: str, hash: str) -> None:
        self.match_id, self.seq, self.type, self.text = match_id, seq, type, text
        self.recorded_at, self.recorded_by, self.prev_hash, self.hash = recorded_at, recorded_by, prev_hash, hash
        self._data: Any = _UNREAD
        self.canonical = False  # the text is known to be the data's canonical JSON (`linked_data` showed it)

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
        text = self.text
        if self.prev_hash != prev or type(text) is not str:
            return None
        try:
            if stored_event_hash(self.seq, self.type, text, format_time(self.recorded_at), self.recorded_by,
                                 prev) != self.hash:
                return None
            # The bytes the hash covers, so the data that was hashed: decoded once, and kept.
            self._data = json.loads(text)
        except Exception:  # a value no append could have written: the long way names it
            return None
        self.canonical = True
        return self._data

    def stored_envelope(self) -> dict[str, Any]:
        """`StoredEvent.stored_envelope`: the data exactly as read (the fold checks the hash first)."""
        return stored_envelope(self)


def log_head(conn: Connection) -> int:
    """The log's last global position (0 when empty): the last entry of the positions' unique index."""
    return int(conn.execute(select(func.coalesce(func.max(EVENTS.c.position), 0))).scalar_one())


def match_rows(conn: Connection, match_id: str, after: int = 0, upto: int | None = None) -> list[EventRow]:
    """The match's rows with seq in (after, upto], in seq order."""
    q = select(*_COLUMNS).where(EVENTS.c.match_id == match_id, EVENTS.c.seq > after)
    if upto is not None:
        q = q.where(EVENTS.c.seq <= upto)
    return [EventRow(*r) for r in conn.execute(q.order_by(EVENTS.c.seq))]


def rows_by_match(conn: Connection, match_ids: Iterable[str]) -> dict[str, list[EventRow]]:
    """Every row of each of `match_ids` (one query), in seq order; a match without rows is left out."""
    ids = list(match_ids)
    out: dict[str, list[EventRow]] = {}
    if not ids:
        return out
    q = select(*_COLUMNS).where(EVENTS.c.match_id.in_(ids)).order_by(EVENTS.c.match_id, EVENTS.c.seq)
    for r in conn.execute(q):
        row = EventRow(*r)
        rows = out.get(row.match_id)
        if rows is None:
            rows = out[row.match_id] = []
        rows.append(row)
    return out
