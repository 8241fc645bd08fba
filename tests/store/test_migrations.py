"""The schema comes only from Alembic, matches the SQLModel tables, and keeps its triggers."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

import recorder.sql.tables  # noqa: F401
from recorder import Scorebook
from recorder.sql.migrate import downgrade, schema_drift, upgrade
from tests.support.logs import START, round_start


def test_migrated_schema_matches_the_models(engine: Engine) -> None:
    with engine.connect() as conn:
        assert schema_drift(conn) == []


def test_upgrade_is_idempotent_and_downgrade_removes_everything(bare_engine: Engine) -> None:
    upgrade(bare_engine)
    upgrade(bare_engine)  # already at head: nothing to do, no error
    assert {"matches", "events", "match_players", "api_tokens"} <= set(inspect(bare_engine).get_table_names())
    downgrade(bare_engine, "base")
    assert set(inspect(bare_engine).get_table_names()) <= {"alembic_version"}
    upgrade(bare_engine)
    sb = Scorebook.from_engine(bare_engine)
    match_id = sb.start_match(dict(START), "d")["match_id"]
    sb.append(match_id, [round_start()], 1, "d")
    with pytest.raises(DBAPIError, match="append-only"):
        with bare_engine.begin() as conn:
            conn.execute(text("DELETE FROM events"))


def test_0007_dates_the_seats_of_matches_stored_before_it(bare_engine: Engine) -> None:
    upgrade(bare_engine)
    sb = Scorebook.from_engine(bare_engine)
    ids = [sb.start_match(dict(START), "d")["match_id"] for _ in range(3)]
    downgrade(bare_engine, "0006")  # the seats lose their created_at, as in a database made before 0007
    assert "created_at" not in {c["name"] for c in inspect(bare_engine).get_columns("match_players")}
    upgrade(bare_engine)
    with bare_engine.connect() as conn:
        undated = conn.execute(text("SELECT count(*) FROM match_players WHERE created_at IS NULL")).scalar_one()
        version = conn.execute(text("SELECT version FROM match_list_version")).scalar_one()
    assert undated == 0 and version == 0
    fresh = Scorebook.from_engine(bare_engine)
    items, total, _ = fresh.match_page(player="ann", limit=2)
    assert total == 3 and [m["match_id"] for m in items] == ids[::-1][:2]
    assert fresh.matches(player="ann")[0] == fresh.matches()[0]
