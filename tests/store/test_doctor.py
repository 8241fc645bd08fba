"""Append-only protection that is lost is noticed: `serve` refuses to start without
the triggers, `scorebook doctor` reports them and the chains and puts the triggers back with --repair,
`scorebook verify --all` checks every match. On each backend."""

from __future__ import annotations

import json
from typing import Any

import pytest
import uvicorn
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from typer.testing import CliRunner

from recorder.demo import record_demo
from recorder.facade import Scorebook
from recorder.sql.triggers import EXPECTED, drop_triggers
from scorebook.cli import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def sb(scorebook: Scorebook) -> Scorebook:
    """A database with one demo match per game."""
    record_demo(scorebook, 1, seed=3)
    return scorebook


def _ids(sb: Scorebook) -> list[str]:
    return sorted(m["match_id"] for m in sb.matches(limit=500)[0])


def _tamper(engine: Engine, sql: str, **params: Any) -> None:
    with engine.begin() as conn:
        drop_triggers(conn)
        conn.execute(text(sql), params)


def _refuses_update(engine: Engine) -> None:
    with pytest.raises(DBAPIError, match="append-only"):
        with engine.begin() as conn:
            conn.execute(text("UPDATE events SET recorded_by = 'mallory'"))


class _Served(Exception):
    pass


@pytest.fixture
def no_serving(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """uvicorn.run records that it was reached instead of serving."""
    reached: list[Any] = []

    def fake_run(*args: Any, **kwargs: Any) -> None:
        reached.append(args)
        raise _Served

    monkeypatch.setattr(uvicorn, "run", fake_run)
    return reached


def test_missing_triggers_names_each_trigger_dropped_disabled_or_altered(sb: Scorebook) -> None:
    expected = list(EXPECTED[sb.engine.dialect.name])
    assert sb.missing_triggers() == []
    with sb.engine.begin() as conn:
        drop_triggers(conn)
    assert sb.missing_triggers() == expected
    sb.repair_triggers()
    assert sb.missing_triggers() == []
    _refuses_update(sb.engine)
    # A trigger still there but no longer refusing counts as missing.
    with sb.engine.begin() as conn:
        if sb.engine.dialect.name == "sqlite":
            conn.execute(text("DROP TRIGGER events_no_update"))
            conn.execute(text("CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT 1; END"))
        else:
            conn.execute(text("ALTER TABLE events DISABLE TRIGGER events_no_update_delete"))
    assert sb.missing_triggers() == expected[:1]
    sb.repair_triggers()
    assert sb.missing_triggers() == []
    _refuses_update(sb.engine)


def test_serve_refuses_to_start_without_the_triggers(sb: Scorebook, bare_url: str, no_serving: list[Any]) -> None:
    with sb.engine.begin() as conn:
        drop_triggers(conn)
    code, out, err = run("serve", "--db", bare_url, "--port", "1")
    assert code == 1 and not no_serving
    assert "not append-only" in err and "scorebook doctor --repair" in err
    for name in EXPECTED[sb.engine.dialect.name]:
        assert name in err
    assert "Scorebook on http" not in out


def test_serve_starts_with_the_triggers(sb: Scorebook, bare_url: str, no_serving: list[Any]) -> None:
    code, _, _ = run("serve", "--db", bare_url, "--port", "1")
    assert len(no_serving) == 1 and code != 0  # it reached uvicorn.run (which the fixture makes raise)


def test_doctor_on_a_healthy_database(sb: Scorebook, bare_url: str) -> None:
    code, out, _ = run("doctor", "--db", bare_url)
    assert code == 0, out
    n = len(_ids(sb))
    events = sum(m["seq"] for m in sb.matches(limit=500)[0])
    assert "schema: at head" in out
    assert "append-only triggers: present" in out
    assert f"hash chains: {n} matches, 0 club streams, {events} events, all intact" in out


def test_doctor_reports_dropped_triggers_and_repair_puts_them_back(sb: Scorebook, bare_url: str) -> None:
    with sb.engine.begin() as conn:
        drop_triggers(conn)
    code, out, _ = run("doctor", "--db", bare_url)
    assert code == 1
    assert "MISSING" in out and "scorebook doctor --repair" in out
    assert sb.missing_triggers()  # a plain doctor changes nothing
    code, out, _ = run("doctor", "--repair", "--db", bare_url)
    assert code == 0, out
    assert "put back" in out and "all intact" in out
    assert sb.missing_triggers() == []
    _refuses_update(sb.engine)
    assert run("doctor", "--db", bare_url)[0] == 0


def test_doctor_and_verify_all_name_each_broken_match(sb: Scorebook, bare_url: str) -> None:
    edited, truncated, *intact = _ids(sb)
    last = sb.summary(truncated)["seq"]
    _tamper(sb.engine, "UPDATE events SET recorded_by = 'mallory' WHERE match_id = :m AND seq = 3", m=edited)
    _tamper(sb.engine, "DELETE FROM events WHERE match_id = :m AND seq = :s", m=truncated, s=last)
    sb.repair_triggers()

    code, out, _ = run("verify", "--all", "--db", bare_url)
    assert code == 1
    summary = json.loads(out)
    assert summary["ok"] is False and summary["matches"] == len(intact) + 2
    assert {b["match_id"]: b["first_bad_seq"] for b in summary["broken"]} == {edited: 3, truncated: last}
    reasons = {b["match_id"]: b["reason"] for b in summary["broken"]}
    assert "hash" in reasons[edited] and f"last seq is {last}" in reasons[truncated]

    code, out, _ = run("doctor", "--db", bare_url)
    assert code == 1
    assert "append-only triggers: present" in out and "BROKEN in 2" in out
    assert f"{edited} at seq 3" in out and f"{truncated} at seq {last}" in out


def test_verify_all_on_an_intact_database(sb: Scorebook, bare_url: str) -> None:
    code, out, _ = run("verify", "--all", "--db", bare_url)
    assert code == 0
    summary = json.loads(out)
    assert summary == {"ok": True, "matches": len(_ids(sb)), "streams": 0, "events": summary["events"], "broken": []}
    assert summary["events"] == sum(m["seq"] for m in sb.matches(limit=500)[0])
    assert run("verify", "--db", bare_url)[0] == 2  # neither a target nor --all
    assert run("verify", _ids(sb)[0], "--all", "--db", bare_url)[0] == 2


def test_doctor_on_a_database_behind_head(bare_url: str) -> None:
    code, out, _ = run("doctor", "--db", bare_url)
    assert code == 1 and "schema:" in out and "scorebook migrate" in out


def test_doctor_and_verify_all_check_the_club_streams(sb: Scorebook, bare_url: str) -> None:
    """The player registry and a tournament are hash-chained logs too: counted when intact, named when edited."""
    sb.clubs.register_player("ann", "Ann Lee", "desk")
    sb.clubs.register_player("bo", "Bo Chan", "desk")
    tid = sb.clubs.create_tournament({"name": "Elm Open", "game": "hats-off", "format": "swiss", "rounds": 3,
                                      "table_size": 2}, "director")
    match_events = sum(m["seq"] for m in sb.matches(limit=500)[0])
    stream_events = sum(s["last_seq"] for s in sb.clubs.streams.streams())
    code, out, _ = run("verify", "--all", "--db", bare_url)
    summary = json.loads(out)
    assert code == 0 and summary["streams"] == 2 and summary["events"] == match_events + stream_events

    _tamper(sb.engine, "UPDATE stream_events SET recorded_by = 'mallory' WHERE stream_id = :s AND seq = 1", s=tid)
    sb.repair_triggers()
    code, out, _ = run("verify", "--all", "--db", bare_url)
    assert code == 1
    assert [(b.get("stream_id"), b["first_bad_seq"]) for b in json.loads(out)["broken"]] == [(tid, 1)]
    code, out, _ = run("doctor", "--db", bare_url)
    assert code == 1 and f"club stream {tid} at seq 1" in out and "BROKEN in 1" in out
