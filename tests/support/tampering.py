"""Rows that are not what the store wrote, for the integrity tests: a small match, edits made in the database
(`tamper`: the append-only triggers dropped first), data no read may fail on, and a store restarted."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Engine

from recorder.facade import Scorebook
from recorder.log.inputs import MAX_DATA_BYTES
from recorder.sql.triggers import drop_triggers
from recorder.store.matches import EventStore
from tests.support.logs import START, launch, round_start


def five_events(sb: Scorebook) -> str:
    match_id = sb.start_match(dict(START), "desk")["match_id"]
    sb.append(match_id, [round_start(), launch("ann", 1, 5), launch("ann", 2, 6), launch("bo", 1, 2)], 1, "desk")
    return match_id


def tamper(engine: Engine, sql: str, **params: object) -> None:
    with engine.begin() as conn:
        drop_triggers(conn)
        conn.execute(text(sql), params)


def restarted(sb: Scorebook) -> Scorebook:
    """The same database through a new store: an empty fold cache, as after a restart."""
    return Scorebook(EventStore(sb.engine))


EDITS = {
    # a legal edit: the rules accept it, the hash does not
    "edited": ("UPDATE events SET data = :d WHERE match_id = :m AND seq = 4",
               {"d": '{"player": "ann", "hat": 2, "to": "off"}'}),
    # an edit the rules refuse (no hat 9) and that breaks the hash
    "illegal": ("UPDATE events SET data = :d WHERE match_id = :m AND seq = 4",
                {"d": '{"player": "ann", "hat": 9, "to": "off"}'}),
    "not an object": ("UPDATE events SET data = :d WHERE match_id = :m AND seq = 4", {"d": "[1, 2]"}),
    "deleted": ("DELETE FROM events WHERE match_id = :m AND seq = 4", {}),
}


def nested(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def nested_text(depth: int) -> str:
    return "[" * depth + "]" * depth


UNREADABLE_ROWS_BOTH = {
    "nested 300 deep": json.dumps({"x": nested(300)}),
    "nested 5000 deep": '{"x": ' + nested_text(5000) + "}",
    "a list": "[1, 2, 3]",
    "a number": "42",
    "a string": '"some text"',
    "over 64 KiB": json.dumps({"text": "y" * (MAX_DATA_BYTES + 10)}),
}
UNREADABLE_ROWS_SQLITE = {  # PostgreSQL's json type refuses these itself
    "NaN in the text": '{"text": "t", "x": NaN}',
    "not JSON at all": "{this is not json",
    "a lone surrogate": '{"text": "\\ud800"}',
}
