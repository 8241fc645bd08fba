"""The events' hash is indexed only for each match's first event (migration 0010): the one look-up by hash, an
import recognising a match already stored, is served by that partial index on both databases, and an append
(seq > 1) adds nothing to it."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.engine import Engine

from recorder.facade import Scorebook
from recorder.store.matches import FIRST_HASH_LOOKUP
from tests.support.events_table import index_definition, plan
from tests.support.logs import START, launch, round_start


def _plan(engine: Engine, first_hash: str) -> str:
    with engine.connect() as conn:
        sql = str(FIRST_HASH_LOOKUP.params(hash=first_hash).compile(conn, compile_kwargs={"literal_binds": True}))
    return plan(engine, sql)


def test_an_import_finds_a_stored_match_through_the_first_hash_index(scorebook: Scorebook, engine: Engine) -> None:
    match_id = scorebook.start_match(dict(START))["match_id"]
    scorebook.append(match_id, [round_start(), launch("ann", 1, 5), launch("bo", 2, 3)], 1)
    first = scorebook.events(match_id)[0]["hash"]
    plan = _plan(engine, first)
    assert "ix_events_first_hash" in plan, plan
    # The export imported again is recognised as that match, through the look-up.
    again = scorebook.import_log("\n".join(scorebook.export_lines(match_id)))
    assert again["existing"] and again["match_id"] == match_id and again["added"] == 0


def test_only_first_events_are_indexed(engine: Engine) -> None:
    definition = index_definition(engine, "ix_events_first_hash")
    assert "(hash)" in definition and ("WHERE seq = 1" in definition or "WHERE (seq = 1)" in definition), definition
    with engine.connect() as conn:  # and the full index it replaced is gone
        if engine.dialect.name == "sqlite":
            names = [r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type = 'index'")]
        else:
            names = list(conn.execute(text("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"))
                         .scalars())
    assert "ix_events_hash" not in names
