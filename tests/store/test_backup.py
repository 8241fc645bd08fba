"""`scorebook backup` and `scorebook restore`: every match with its ids and hashes, into an empty or a
used database, on SQLite and PostgreSQL, never storing anything twice."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from typer.testing import CliRunner

from recorder.errors import BadRequest, Conflict, ImportRefused
from recorder.facade import Scorebook
from recorder.sql.migrate import upgrade
from scorebook.cli import app
from tests.support.databases import POSTGRES_URL, admin, postgres_engine
from tests.support.examples import examples_dir
from tests.support.logs import START, launch, round_start

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def club(sb: Scorebook) -> list[str]:
    """A small club history: an imported example, a live match with event_ids, a finished one, a rewind."""
    ids = [sb.import_log((examples_dir() / "hats-off-01.jsonl").read_text(), "desk", "night.jsonl")["match_id"]]
    live = sb.start_match(dict(START), "desk-2", event_id="start-1")["match_id"]
    sb.append(live, [{**round_start(), "event_id": "e-1"}, {**launch("ann", 1, 5), "event_id": "e-2"}], 1, "desk-2")
    sb.append(live, [{"type": "rewind", "data": {"to_seq": 2, "reason": "wrong hat"}}], 3, "ref")
    ids.append(live)
    for path in [p for p in sorted(examples_dir().glob("*.jsonl")) if p.name != "hats-off-01.jsonl"][:3]:
        ids.append(sb.import_log(path.read_text(), "desk", path.name)["match_id"])
    return ids


def everything(sb: Scorebook) -> dict[str, object]:
    """What must survive a round trip: per match its creation time, events (hashes), event_ids, imports."""
    out: dict[str, object] = {}
    for m in sb.store.backup_matches():
        out[m.id] = (m.created_at, m.envelopes, m.event_ids, [{**i, "digest": i["digest"]} for i in m.imports])
    return out


def write_backup(sb: Scorebook, path: Path, with_tokens: bool = False) -> str:
    text = "".join(sb.backup(with_tokens))
    path.write_text(text, encoding="utf-8")
    return text


def test_backup_and_restore_into_an_empty_database_keeps_ids_and_hashes(
    scorebook: Scorebook, tmp_path: Path
) -> None:
    ids = club(scorebook)
    text = write_backup(scorebook, tmp_path / "club.backup")
    assert "sb_" not in text and '"token"' not in text  # no tokens unless asked for
    with Scorebook.open(str(tmp_path / "restored.db")) as other:
        counts = other.restore(text)
        assert counts["matches_added"] == len(ids) and counts["events_added"] == sum(
            len(scorebook.events(m)) for m in ids)
        assert everything(other) == everything(scorebook)
        for m in ids:
            assert other.verify(m).ok and other.scores(m) == scorebook.scores(m)
        # Restoring twice, or importing one of its matches again, stores nothing twice.
        assert other.restore(text) == {"matches_added": 0, "matches_extended": 0, "matches_unchanged": len(ids),
                                       "events_added": 0, "tokens_added": 0}
        again = other.import_log(scorebook.export(ids[1]), "someone")
        assert (again["match_id"], again["existing"]) == (ids[1], True)
        assert other.matches()[1] == len(ids)
        # An event_id keeps making retries safe after a restore.
        stored, replayed = other.append(ids[1], [{**launch("ann", 1, 5), "event_id": "e-2"}], 4)
        assert replayed


def test_restore_extends_a_match_and_keeps_what_else_is_there(scorebook: Scorebook, tmp_path: Path) -> None:
    live = scorebook.start_match(dict(START), "desk")["match_id"]
    scorebook.append(live, [round_start()], 1)
    early = write_backup(scorebook, tmp_path / "early.backup")
    scorebook.append(live, [launch("ann", 1, 5), launch("bo", 2, 3)], 2)
    late = write_backup(scorebook, tmp_path / "late.backup")
    with Scorebook.open(str(tmp_path / "other.db")) as other:
        own = other.start_match(dict(START), "elsewhere")["match_id"]
        assert other.restore(early)["matches_added"] == 1
        counts = other.restore(late)
        assert (counts["matches_extended"], counts["events_added"]) == (1, 2)
        assert other.events(live) == scorebook.events(live)
        assert other.fold(live).seq == 4 and other.matches()[1] == 2 and other.verify(own).ok


def test_a_restore_that_clashes_or_does_not_verify_stores_nothing(scorebook: Scorebook, tmp_path: Path) -> None:
    club(scorebook)
    text = write_backup(scorebook, tmp_path / "club.backup")
    rows = text.splitlines()
    with Scorebook.open(str(tmp_path / "target.db")) as target:
        # an event edited in the file: its hash no longer covers it
        edited = [r.replace('"hat": 2', '"hat": 3', 1) if '"event"' in r and '"hat": 2' in r else r for r in rows]
        with pytest.raises(ImportRefused, match="hash"):
            target.restore("\n".join(edited))
        # cut short: the end line is missing
        with pytest.raises(BadRequest, match="cut short"):
            target.restore("\n".join(rows[:-1]))
        with pytest.raises(BadRequest, match="not a Scorebook backup"):
            target.restore('{"hello": 1}\n')
        assert target.matches()[1] == 0
        # the same id stored here with other events
        first = json.loads(rows[1])["match"]["id"]
        target.restore(text)
        forked = []
        for r in rows:
            obj = json.loads(r)
            if "event" in obj and obj["event"]["match_id"] != first:
                obj["event"]["match_id"] = first  # another match's events under the first one's id
            forked.append(json.dumps(obj))
        with pytest.raises((Conflict, ImportRefused, BadRequest)):
            target.restore("\n".join(forked))
        assert everything(target) == everything(scorebook)


def test_tokens_only_with_tokens_and_never_in_the_clear(scorebook: Scorebook, tmp_path: Path) -> None:
    token = scorebook.create_token("desk", "recorder")
    revoked = scorebook.create_token("old", "referee")
    scorebook.revoke_token(next(t["id"] for t in scorebook.list_tokens() if t["name"] == "old"))
    club(scorebook)
    text = write_backup(scorebook, tmp_path / "club.backup", with_tokens=True)
    assert token not in text and revoked not in text and text.count('"token"') == 2
    with Scorebook.open(str(tmp_path / "t.db")) as other:
        assert other.restore(text)["tokens_added"] == 2
        assert other.authenticate(token) is not None and other.authenticate(revoked) is None
        assert other.restore(text)["tokens_added"] == 0


@pytest.fixture
def postgres_url() -> Iterator[str]:
    if not POSTGRES_URL:
        pytest.skip("SCOREBOOK_TEST_POSTGRES is not set")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    engine: Engine = postgres_engine(schema)
    upgrade(engine)
    try:
        yield engine.url.render_as_string(hide_password=False)
    finally:
        engine.dispose()
        admin(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.mark.postgres
def test_sqlite_to_postgresql_to_sqlite_keeps_ids_and_hashes(tmp_path: Path, postgres_url: str) -> None:
    first, last = tmp_path / "first.db", tmp_path / "last.db"
    with Scorebook.open(str(first)) as sb:
        club(sb)
        original = everything(sb)
    for source, target, name in ((str(first), postgres_url, "a"), (postgres_url, str(last), "b")):
        path = tmp_path / f"{name}.backup"
        code, _, err = run("backup", str(path), "--db", source)
        assert code == 0, err
        code, out, err = run("restore", str(path), "--db", target)
        assert code == 0, err
        assert json.loads(out)["matches_added"] == len(original)
        code, out, _ = run("restore", str(path), "--db", target)  # twice: nothing more
        assert code == 0 and json.loads(out)["events_added"] == 0
    with Scorebook.open(str(last)) as sb:
        assert everything(sb) == original
        assert all(sb.verify(m).ok for m in original)
    code, out, _ = run("verify", next(iter(original)), "--db", postgres_url)
    assert code == 0 and json.loads(out)["ok"]


def test_restore_of_a_broken_file_from_the_cli_says_why_and_stores_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bad.backup"
    path.write_text('{"scorebook_backup": 1}\n{"match": {"id": "x", "created_at": "2026-01-01T00:00:00.000Z"}}\n')
    code, _, err = run("restore", str(path), "--db", str(tmp_path / "db.sqlite"))
    assert code == 1 and "cut short" in err
    code, out, _ = run("matches", "--json", "--db", str(tmp_path / "db.sqlite"))
    assert json.loads(out)["total"] == 0
