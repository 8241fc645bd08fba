"""Migration 0008 (club streams): its tables and append-only triggers come with it and go with it, and the
events table keeps its own triggers either way. On each backend."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlmodel import SQLModel

import recorder.sql.stream_tables  # noqa: F401  (the stream tables on the metadata, whoever imported what)
import recorder.sql.tables  # noqa: F401
from projections.clubs.protocol import StreamKind
from recorder import Scorebook
from recorder.log.file import NewEvent
from recorder.sql.migrate import current_revisions, downgrade, head_revisions, schema_drift, upgrade
from recorder.sql.triggers import expected, missing_triggers
from recorder.store.streams import StreamStore
from tests.support.logs import START, round_start

NOTES: StreamKind[int] = StreamKind("notes", "opened", lambda d: 0, {"noted": lambda n, d: n + 1}, lambda n: {"n": n})


def trigger_names(conn: Connection, table: str) -> set[str]:
    if conn.dialect.name == "sqlite":
        rows = conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = :t"),
                            {"t": table})
    else:
        rows = conn.execute(text("SELECT t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                                 "WHERE c.relname = :t AND c.relnamespace = current_schema()::regnamespace "
                                 "AND NOT t.tgisinternal"), {"t": table})
    return set(rows.scalars())


def test_the_migrated_schema_matches_the_models_with_the_stream_tables(engine: Engine) -> None:
    assert {"streams", "stream_events"} <= set(SQLModel.metadata.tables)
    with engine.connect() as conn:
        assert schema_drift(conn) == []


def test_upgrade_creates_the_stream_tables_and_their_triggers(bare_engine: Engine) -> None:
    upgrade(bare_engine)
    assert current_revisions(bare_engine) == head_revisions()  # 0008 or a later head
    insp = inspect(bare_engine)
    assert {"streams", "stream_events"} <= set(insp.get_table_names())
    assert "ix_streams_kind" in {i["name"] for i in insp.get_indexes("streams")}
    assert insp.get_pk_constraint("stream_events")["constrained_columns"] == ["stream_id", "seq"]
    [fk] = insp.get_foreign_keys("stream_events")
    assert fk["referred_table"] == "streams" and fk["constrained_columns"] == ["stream_id"]
    dialect = bare_engine.dialect.name
    with bare_engine.connect() as conn:
        assert trigger_names(conn, "stream_events") == set(expected(dialect, ["stream_events"]))
        assert missing_triggers(conn) == []
    store = StreamStore(bare_engine, {"notes": NOTES}.__getitem__)
    sid = store.create("notes", {}, "d")["stream_id"]
    store.append(sid, [NewEvent("noted", {"text": "hello"})], 1, "d")
    for sql in ("UPDATE stream_events SET recorded_by = 'x'", "DELETE FROM stream_events"):
        with pytest.raises(DBAPIError, match="append-only"):
            with bare_engine.begin() as conn:
                conn.execute(text(sql))
    assert store.verify(sid).ok and store.state(sid) == ("notes", 1, 2)


def test_downgrade_to_0007_removes_them_and_leaves_the_events_triggers(bare_engine: Engine) -> None:
    upgrade(bare_engine)
    sb = Scorebook.from_engine(bare_engine)
    match_id = sb.start_match(dict(START), "d")["match_id"]
    sb.append(match_id, [round_start()], 1, "d")
    StreamStore(bare_engine, {"notes": NOTES}.__getitem__).create("notes", {}, "d")
    dialect = bare_engine.dialect.name

    downgrade(bare_engine, "0007")
    assert current_revisions(bare_engine) == ("0007",)
    tables = set(inspect(bare_engine).get_table_names())
    assert not tables & {"streams", "stream_events"} and {"events", "matches"} <= tables
    with bare_engine.connect() as conn:
        assert trigger_names(conn, "events") == set(expected(dialect, ["events"]))
        assert missing_triggers(conn) == []
        if dialect == "postgresql":
            functions = set(conn.execute(text(
                "SELECT proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace"))
                            .scalars())
            assert "scorebook_stream_events_append_only" not in functions
            assert "scorebook_events_append_only" in functions
    for sql in ("UPDATE events SET recorded_by = 'x'", "DELETE FROM events"):
        with pytest.raises(DBAPIError, match="events are append-only"):
            with bare_engine.begin() as conn:
                conn.execute(text(sql))
    assert sb.verify(match_id).ok

    upgrade(bare_engine)  # and back: the tables and triggers again, the match untouched
    with bare_engine.connect() as conn:
        assert missing_triggers(conn) == []
    assert StreamStore(bare_engine, {"notes": NOTES}.__getitem__).streams() == []
    assert sb.verify(match_id).ok
