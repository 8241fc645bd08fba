"""The `scorebook` command line, on each backend (a SQLite file; PostgreSQL with SCOREBOOK_TEST_POSTGRES)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import inspect
from sqlalchemy.engine import Engine
from typer.testing import CliRunner

from recorder.sql.migrate import head_revisions
from scorebook.cli import app
from tests.support.examples import examples_dir, load_example

runner = CliRunner()


@pytest.fixture
def db(bare_url: str) -> str:
    """An empty database's URL: `import` and the other writing commands bring its schema to head."""
    return bare_url


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_import_scores_export_verify(db: str, tmp_path: Path) -> None:
    code, out, _ = run("import", str(examples_dir() / "hats-off-01.jsonl"), "--db", db)
    assert code == 0
    match_id = out.strip()
    code, out, _ = run("scores", match_id, "--json", "--db", db)
    _, expected = load_example("hats-off-01")
    assert code == 0 and json.loads(out) == {**expected, "match_id": match_id}
    code, out, _ = run("scores", match_id, "--at", "3", "--json", "--db", db)
    assert json.loads(out)["seq"] == 3
    code, out, _ = run("scores", match_id, "--db", db)
    assert code == 0 and "Ann" in out and "75" in out
    exported = tmp_path / "m.jsonl"
    code, _, _ = run("export", match_id, "-o", str(exported), "--db", db)
    assert code == 0 and len(exported.read_text().splitlines()) == expected["seq"]
    code, out, _ = run("verify", str(exported))
    assert code == 0 and json.loads(out) == {"ok": True, "events": expected["seq"]}
    code, out, _ = run("verify", match_id, "--db", db)
    assert code == 0 and json.loads(out)["ok"]
    code, out, _ = run("state", match_id, "--at", "2", "--db", db)
    assert code == 0 and json.loads(out)["seq"] == 2
    code, out, _ = run("matches", "--json", "--db", db)
    assert json.loads(out)["items"][0]["match_id"] == match_id


def test_verify_names_the_first_bad_line_of_a_tampered_file(db: str, tmp_path: Path) -> None:
    match_id = run("import", str(examples_dir() / "hats-off-01.jsonl"), "--db", db)[1].strip()
    exported = tmp_path / "m.jsonl"
    run("export", match_id, "-o", str(exported), "--db", db)
    rows = exported.read_text().splitlines()
    assert '"to": "off"' in rows[6]
    rows[6] = rows[6].replace('"to": "off"', '"to": "board"')  # seq 7: a miss rewritten
    exported.write_text("\n".join(rows) + "\n")
    code, out, _ = run("verify", str(exported))
    assert code == 1 and json.loads(out)["first_bad_seq"] == 7


def test_refused_import_names_file_line_reason_and_stores_nothing(db: str, tmp_path: Path) -> None:
    good = examples_dir() / "hats-off-01.jsonl"
    bad = tmp_path / "bad.jsonl"
    lines = good.read_text().splitlines()
    lines[5] = lines[5].replace('"hat": 2', '"hat": 9')
    bad.write_text("\n".join(lines) + "\n")
    code, _, err = run("import", str(good), str(bad), "--db", db)
    assert code != 0
    assert "bad.jsonl" in err and "line 6" in err and "hat" in err
    code, _, err = run("matches", "--json", "--db", db)
    assert code == 1 and "scorebook migrate" in err  # nothing refused touches the database, not even its schema
    assert run("migrate", "--db", db)[0] == 0
    code, out, _ = run("matches", "--json", "--db", db)
    assert json.loads(out)["total"] == 0  # not even the good file went in


def test_unknown_match_is_an_error(db: str) -> None:
    run("migrate", "--db", db)
    code, _, err = run("scores", "nope", "--db", db)
    assert code == 1 and "no match" in err


def test_token_create_prints_a_working_token(db: str) -> None:
    from recorder import Scorebook
    from recorder.access.auth import Principal

    code, out, _ = run("token", "create", "desk-3", "--role", "referee", "--db", db)
    assert code == 0
    with Scorebook.open(db, migrate=False) as sb:
        assert sb.authenticate(out.strip()) == Principal("desk-3", "referee")
    code, out, _ = run("token", "list", "--db", db)
    assert code == 0 and [t["name"] for t in json.loads(out)] == ["desk-3"]
    code, _, err = run("token", "create", "x", "--role", "king", "--db", db)
    assert code == 1 and "role" in err
    assert run("token", "revoke", "1", "--db", db)[0] == 0
    code, _, err = run("token", "revoke", "1", "--db", db)
    assert code == 1 and "no active token 1" in err


@pytest.mark.parametrize(
    "command",
    [["matches"], ["matches", "--json"], ["scores", "m1"], ["state", "m1"], ["export", "m1"], ["verify", "m1"],
     ["token", "list"]],
)
def test_read_only_commands_on_an_empty_database_say_to_migrate(
    bare_engine: Engine, db: str, command: list[str]
) -> None:
    with bare_engine.connect():
        pass  # the database exists, with no schema yet
    code, out, err = run(*command, "--db", db)
    assert (code, out) == (1, "")
    head = head_revisions()[0]
    assert f"error: the database schema is at revision none (an empty database), not head {head}" in err
    assert "run `scorebook migrate`" in err
    assert inspect(bare_engine).get_table_names() == []  # a read-only command migrates nothing
    assert run("migrate", "--db", db)[0] == 0
    code, _, err = run(*command, "--db", db)
    assert "scorebook migrate" not in err


def test_a_missing_sqlite_file_is_not_created_by_a_read_only_command(tmp_path: Path) -> None:
    path = tmp_path / "typo.db"
    code, _, err = run("matches", "--db", str(path))
    assert code == 1 and "no database at" in err and "scorebook migrate" in err
    assert not path.exists()


def test_importing_the_cli_loads_no_web_stack_and_no_migrations() -> None:
    """`scorebook --help` and `scorebook matches` start fast: the heavy packages load in the commands
    that need them (serve: FastAPI, uvicorn, Dash; migrate: Alembic)."""
    code = (
        "import scorebook.cli, sys; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'fastapi','dash','plotly','uvicorn','alembic'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_matches_on_a_migrated_database_loads_no_web_stack_and_no_migrations(db: str) -> None:
    assert run("migrate", "--db", db)[0] == 0
    code = (
        "import sys; from scorebook.cli import app; "
        f"app(['matches', '--json', '--db', {db!r}], standalone_mode=False); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'fastapi','dash','plotly','uvicorn','alembic'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out[: out.rindex("}") + 1])["total"] == 0
    assert out.strip().splitlines()[-1] == "[]"
