"""The `scorebook` command line, on a SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from recorder.cli import app
from tests.examples import examples_dir, load_example

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'cli.db'}"


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
    code, out, _ = run("matches", "--json", "--db", db)
    assert json.loads(out)["total"] == 0  # not even the good file went in


def test_unknown_match_is_an_error(db: str) -> None:
    code, _, err = run("scores", "nope", "--db", db)
    assert code == 1 and "no match" in err


def test_token_create_prints_a_working_token(db: str) -> None:
    from recorder import auth
    from recorder.db import make_engine

    code, out, _ = run("token", "create", "desk-3", "--role", "referee", "--db", db)
    assert code == 0
    who = auth.authenticate(make_engine(db), out.strip())
    assert who == auth.Principal("desk-3", "referee")
    code, _, err = run("token", "create", "x", "--role", "king", "--db", db)
    assert code == 1 and "role" in err
