"""Migration 0011: on SQLite an event's position is the events table's rowid and `(match_id, seq)` a unique index;
PostgreSQL keeps `(match_id, seq)` as the key and an index on positions. Either way a seq is stored once per
match, a position once, the events stay append-only, and a database migrated with events in it keeps every one
of them as it was, in both directions."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from recorder.facade import Scorebook
from recorder.sql.migrate import downgrade, upgrade
from recorder.sql.triggers import missing_triggers
from tests.support.events_table import insert_row, plan, stored_events
from tests.support.logs import START, launch, round_start


def _two_matches(sb: Scorebook) -> list[str]:
    ids = [sb.start_match(dict(START), "d")["match_id"] for _ in range(2)]
    sb.append(ids[0], [round_start()], 1, "d")
    sb.append(ids[1], [round_start(), launch("ann", 1, 5)], 1, "d")
    sb.append(ids[0], [launch("ann", 1, 4), launch("bo", 2, 2)], 2, "d")
    return ids


def test_on_sqlite_the_position_is_the_rowid(engine: Engine) -> None:
    if engine.dialect.name != "sqlite":
        pytest.skip("PostgreSQL keeps its index on positions")
    # Followers read in position order from the table itself; a match's events come through its unique index.
    assert "INTEGER PRIMARY KEY" in plan(engine, "SELECT * FROM events WHERE position > 5 ORDER BY position")
    assert "ix_events_match_seq" in plan(engine, "SELECT * FROM events WHERE match_id = 'm' ORDER BY seq")
    with engine.connect() as conn:
        names = {r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "ix_events_position" not in names


def test_a_seq_and_a_position_are_each_stored_once(scorebook: Scorebook, engine: Engine) -> None:
    match_id = scorebook.start_match(dict(START), "d")["match_id"]
    scorebook.append(match_id, [round_start()], 1, "d")
    before = stored_events(engine)
    (position,) = [r[2] for r in before if r[1] == 2]
    for seq, pos in ((2, position + 100), (3, position)):  # the seq taken; then a new seq at a taken position
        with pytest.raises(IntegrityError), engine.begin() as conn:
            insert_row(conn, match_id, seq, pos)
    assert stored_events(engine) == before


def test_migrating_keeps_every_event_in_both_directions(bare_engine: Engine) -> None:
    upgrade(bare_engine, "0010")  # a database made before 0011, with events in it
    sb = Scorebook.from_engine(bare_engine)
    ids = _two_matches(sb)
    before = stored_events(bare_engine)
    exported = ["\n".join(sb.export_lines(m)) for m in ids]
    assert len(before) == 7

    upgrade(bare_engine)
    assert stored_events(bare_engine) == before
    with bare_engine.connect() as conn:
        assert missing_triggers(conn) == []
    fresh = Scorebook.from_engine(bare_engine)
    assert ["\n".join(fresh.export_lines(m)) for m in ids] == exported  # the chains verify as before
    fresh.append(ids[1], [launch("bo", 2, 1)], 3, "d")  # and the log goes on at the next position
    after = stored_events(bare_engine)
    assert after[:-1] == before and after[-1][:3] == (ids[1], 4, before[-1][2] + 1)
    with pytest.raises(DBAPIError, match="append-only"), bare_engine.begin() as conn:
        conn.execute(text("DELETE FROM events"))

    downgrade(bare_engine, "0010")
    assert stored_events(bare_engine) == after
    with bare_engine.connect() as conn:
        assert missing_triggers(conn) == []
    with pytest.raises(DBAPIError, match="append-only"), bare_engine.begin() as conn:
        conn.execute(text("UPDATE events SET seq = seq"))
