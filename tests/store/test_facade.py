"""The Python API, `recorder.Scorebook`, on each backend: what the CLI, the HTTP API and the dashboard
call instead of assembling an engine, the migrations and a store themselves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from recorder import Scorebook
from recorder.errors import BadRequest, ImportRefused, MatchNotFound, NotFound, Refused, SchemaBehind
from recorder.log.file import NewEvent
from recorder.sql.migrate import downgrade, head_revisions, upgrade
from tests.support.examples import example_names, load_example
from tests.support.logs import START, launch, round_start


@pytest.mark.parametrize("name", example_names())
def test_every_example_log_can_be_appended_event_by_event(scorebook: Scorebook, name: str) -> None:
    """What a live client does: start the match, then append one event at a time."""
    log, expected = load_example(name)
    started = scorebook.start_match(log[0]["data"], "desk-1")
    match_id = started["match_id"]
    assert started["seq"] == 1 and not started["replayed"] and started["event"]["type"] == "match_started"
    for seq, event in enumerate(log[1:], start=1):
        stored, replayed = scorebook.append(match_id, [event], seq, "desk-1")
        assert stored[0]["seq"] == seq + 1 and not replayed
    assert scorebook.scores(match_id) == {**expected, "match_id": match_id}
    assert scorebook.verify(match_id).ok


def test_append_takes_mappings_or_new_events_and_names_a_malformed_one(scorebook: Scorebook) -> None:
    match_id = scorebook.start_match(dict(START))["match_id"]
    stored, _ = scorebook.append(match_id, [round_start(), NewEvent("hat_launched", launch("ann", 1, 5)["data"])], 1)
    assert [e["seq"] for e in stored] == [2, 3] and stored[0]["recorded_by"] == "python"
    with pytest.raises(BadRequest, match=r"events\[1\]: type"):
        scorebook.append(match_id, [launch("ann", 2), {"data": {}}], 3)
    with pytest.raises(BadRequest, match="a list of events"):
        scorebook.append(match_id, launch("ann", 2), 3)  # type: ignore[arg-type]
    with pytest.raises(Refused):
        scorebook.append(match_id, [launch("ann", 7)], 3)
    assert scorebook.summary(match_id)["seq"] == 3


def test_reads(scorebook: Scorebook) -> None:
    log, expected = load_example("hats-off-01")
    imported = scorebook.import_log("".join(f"{json.dumps(e)}\n" for e in log), "importer")
    match_id = imported["match_id"]
    assert imported["seq"] == expected["seq"]
    assert scorebook.scores(match_id, at=3)["seq"] == 3
    state = scorebook.state(match_id, at=2)
    assert (state["match_id"], state["game"], state["seq"], state["superseded"]) == (match_id, "hats-off", 2, [])
    assert isinstance(state["state"], dict)
    legal = scorebook.legal(match_id, "ann", at=2)
    assert legal["seq"] == 2 and legal["player"] == "ann" and legal["moves"]
    with pytest.raises(BadRequest, match="does not play"):
        scorebook.legal(match_id, "zed")
    text_ = scorebook.export(match_id)
    assert text_ == "".join(scorebook.export_lines(match_id)) and len(text_.splitlines()) == expected["seq"]
    again = scorebook.import_log(text_, "someone-else")  # its own export: the match already stored
    assert (again["match_id"], again["existing"], again["added"]) == (match_id, True, 0)
    copy = scorebook.start_match({"game": "hats-off", "players": [{"id": "ann"}, {"id": "bo"}]})["match_id"]
    assert scorebook.events(match_id, 2, 3) == scorebook.events(match_id)[1:3]
    assert [r.seq for r in scorebook.event_rows(match_id)][:3] == [1, 2, 3]
    assert len(scorebook.events_after(0, limit=5)) == 5
    assert scorebook.fold(match_id).seq == expected["seq"]
    items, total = scorebook.matches(game="hats-off")
    assert total == 2 and {m["match_id"] for m in items} == {match_id, copy}
    assert scorebook.summary(match_id)["status"] == expected["status"]
    with pytest.raises(MatchNotFound):
        scorebook.scores("nope")
    with pytest.raises(ImportRefused, match="line 1"):
        scorebook.import_log("{oops")


def test_tokens(scorebook: Scorebook) -> None:
    token = scorebook.create_token("desk-3", "referee")
    who = scorebook.authenticate(token)
    assert who is not None and (who.name, who.role) == ("desk-3", "referee")
    [listed] = scorebook.list_tokens()
    assert listed["name"] == "desk-3" and not listed["revoked"]
    assert scorebook.revoke_token(int(listed["id"])) and not scorebook.revoke_token(int(listed["id"]))
    assert scorebook.authenticate(token) is None
    with pytest.raises(ValueError, match="role"):
        scorebook.create_token("x", "king")


def test_games_and_their_schemas(scorebook: Scorebook) -> None:
    games = scorebook.games()
    assert [g["name"] for g in games] == ["tri-ominos", "high-five", "hi-spot", "hats-off"]
    schema = scorebook.game_schema("hats-off")
    assert "hat_launched" in schema["events"] and "match_started" in schema["events"]
    with pytest.raises(NotFound, match="unknown game"):
        scorebook.game_schema("chess")


def test_read_only_open_refuses_a_database_behind_head(bare_engine: Engine, bare_url: str, tmp_path: Path) -> None:
    url = bare_url
    with bare_engine.connect():
        pass  # the database exists, and is empty
    head = head_revisions()[0]
    with pytest.raises(SchemaBehind) as exc:
        Scorebook.open(url, migrate=False)
    assert exc.value.message == (
        f"the database schema is at revision none (an empty database), not head {head}: run `scorebook migrate`"
    )
    with pytest.raises(SchemaBehind, match="no database at .*: run `scorebook migrate`"):
        Scorebook.open(str(tmp_path / "missing.db"), migrate=False)
    assert not (tmp_path / "missing.db").exists()  # a read-only open creates nothing
    with Scorebook.open(url) as sb:  # migrates
        assert sb.matches() == ([], 0)
    with Scorebook.open(url, migrate=False) as sb:
        assert sb.matches() == ([], 0)
    downgrade(bare_engine, "base")
    with pytest.raises(SchemaBehind, match="scorebook migrate"):
        Scorebook.open(url, migrate=False)
    upgrade(bare_engine)
    with bare_engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(SchemaBehind, match="revision 9999, which this version of Scorebook does not know"):
        Scorebook.open(url, migrate=False)


def test_head_is_read_like_alembic_reads_it(engine: Engine) -> None:
    from alembic.script import ScriptDirectory

    from recorder.sql.migrate import alembic_config

    assert head_revisions() == tuple(sorted(ScriptDirectory.from_config(alembic_config(engine)).get_heads()))
