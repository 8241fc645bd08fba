"""An event_id is unique among the events that carry one (migration 0012): a partial unique index, so that an
event without one (every imported event) writes no index entry. The database still refuses an event_id stored
twice, across matches; a retry's look-ups are served by the index on both databases; and a database migrated
with events in it keeps every one of them, in both directions."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from recorder.errors import Conflict
from recorder.facade import Scorebook
from recorder.sql.migrate import downgrade, upgrade
from recorder.sql.triggers import missing_triggers
from tests.support.events_table import index_definition, insert_row, plan, stored_events
from tests.support.logs import START, launch, round_start


def _insert(engine: Engine, match_id: str, seq: int, event_id: str | None) -> None:
    with engine.begin() as conn:
        position = conn.execute(text("SELECT coalesce(max(position), 0) + 1 FROM events")).scalar_one()
        insert_row(conn, match_id, seq, position, event_id)


def _next_seq(engine: Engine, match_id: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT max(seq) FROM events WHERE match_id = :m"), {"m": match_id})
                   .scalar_one()) + 1


def test_the_index_is_unique_and_holds_only_rows_with_an_event_id(engine: Engine) -> None:
    definition = index_definition(engine, "ix_events_event_id")
    assert "UNIQUE" in definition and "(event_id)" in definition, definition
    assert "WHERE event_id IS NOT NULL" in definition or "WHERE (event_id IS NOT NULL)" in definition, definition


@pytest.mark.parametrize("lookup", [
    "SELECT * FROM events WHERE event_id IN ('a', 'b')",  # a retry's rows (`ChainedStore._replayed`)
    "SELECT EXISTS (SELECT 1 FROM events WHERE event_id IN ('a'))",  # the one trip's refusal (`Appender.any_stored`)
])
def test_a_retry_is_looked_up_through_the_index(engine: Engine, lookup: str) -> None:
    assert "ix_events_event_id" in plan(engine, lookup)


def test_the_database_refuses_an_event_id_stored_twice_across_matches(scorebook: Scorebook, engine: Engine) -> None:
    first = scorebook.start_match(dict(START), "d")["match_id"]
    other = scorebook.start_match(dict(START), "d")["match_id"]
    scorebook.append(first, [{**round_start(), "event_id": "once"}], 1, "d")
    before = stored_events(engine)
    with pytest.raises(IntegrityError):  # below the store: the index itself
        _insert(engine, other, 2, "once")
    with pytest.raises(Conflict):  # through the store: the reused id is a 409, the other match unmoved
        scorebook.append(other, [{**round_start(), "event_id": "once"}], 1, "d")
    assert stored_events(engine) == before
    # Rows without one are many, and none is refused for it.
    for seq in (2, 3):
        _insert(engine, other, seq, None)
    assert [r[8] for r in stored_events(engine) if r[0] == other] == [None, None, None]


def test_an_import_and_a_retry_behave_as_before(scorebook: Scorebook) -> None:
    match_id = scorebook.start_match(dict(START), "d")["match_id"]
    batch = [{**round_start(), "event_id": "r1"}, {**launch("ann", 1, 5), "event_id": "r2"}]
    stored, replayed = scorebook.append(match_id, batch, 1, "d")
    assert not replayed
    assert scorebook.append(match_id, batch, 1, "d") == (stored, True)  # a retry: the same answer, nothing new
    imported = scorebook.import_log("\n".join(scorebook.export_lines(match_id)), "d")
    assert imported["existing"] and imported["match_id"] == match_id and imported["added"] == 0
    lines = [{"type": e["type"], "data": e["data"]} for e in scorebook.events(match_id)]
    lines[0]["data"]["meta"] = {"copy": True}  # another match: the same events, no event_id, no hash
    copy = scorebook.import_log("\n".join(json.dumps(line) for line in lines), "d")
    assert not copy["existing"] and copy["seq"] == 3
    assert [e["seq"] for e in scorebook.events(copy["match_id"])] == [1, 2, 3]


def test_migrating_keeps_every_event_in_both_directions(bare_engine: Engine) -> None:
    upgrade(bare_engine, "0011")  # a database made before 0012, with events with and without an event_id
    sb = Scorebook.from_engine(bare_engine)
    match_id = sb.start_match(dict(START), "d")["match_id"]
    sb.append(match_id, [{**round_start(), "event_id": "k1"}], 1, "d")
    sb.append(match_id, [launch("ann", 1, 5)], 2, "d")
    before = stored_events(bare_engine)
    exported = "\n".join(sb.export_lines(match_id))

    upgrade(bare_engine)
    assert stored_events(bare_engine) == before
    with bare_engine.connect() as conn:
        assert missing_triggers(conn) == []
    fresh = Scorebook.from_engine(bare_engine)
    assert "\n".join(fresh.export_lines(match_id)) == exported  # the chain verifies as before
    with pytest.raises(IntegrityError):
        _insert(bare_engine, match_id, 4, "k1")
    fresh.append(match_id, [{**launch("bo", 2, 1), "event_id": "k2"}], 3, "d")
    after = stored_events(bare_engine)
    assert after[:-1] == before and after[-1][8] == "k2"

    downgrade(bare_engine, "0011")
    assert stored_events(bare_engine) == after
    with bare_engine.connect() as conn:
        assert missing_triggers(conn) == []
    with pytest.raises(IntegrityError):  # the unique constraint is back
        _insert(bare_engine, match_id, _next_seq(bare_engine, match_id), "k2")
    with pytest.raises(DBAPIError, match="append-only"), bare_engine.begin() as conn:
        conn.execute(text("DELETE FROM events"))
