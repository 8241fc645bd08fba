"""`scorebook players` and `scorebook tournament`: a club night from the command line, and its refusals."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from projections.registry import get_game
from recorder.facade import Scorebook
from scorebook.cli import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_club_night_from_the_command_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    for i in range(4):
        assert run("players", "add", f"p{i}", f"Player {i}", "--club", "Elm", "--db", db)[0] == 0
    code, out, _ = run("players", "--json", "--db", db)
    assert code == 0 and [p["id"] for p in json.loads(out)] == ["p0", "p1", "p2", "p3"]
    code, out, _ = run("tournament", "create", "Elm night", "--game", "hats-off", "--rounds", "2", "--db", db)
    assert code == 0
    tid = out.strip()
    assert run("tournament", "enter", tid, "p0", "p1", "p2", "p3", "--db", db)[0] == 0
    code, out, _ = run("tournament", "pair", tid, "--db", db)
    assert code == 0 and out.count("round 1 table") == 2
    code, _, err = run("tournament", "pair", tid, "--db", db)
    assert code == 1 and "round 1 is not complete" in err  # the results are not in yet
    with Scorebook.open(db) as sb:  # the tables' matches, played
        state = sb.clubs.tournament(tid)
        for table in state.round(1).tables:
            match_id = sb.clubs.start_table(tid, 1, table.number, "desk", {"target_score": 60})
            players = [{"id": p, "name": state.entrants[p].name} for p in table.seats]
            log = get_game("hats-off").random_match(random.Random(table.number), players, {"target_score": 60})
            sb.append(match_id, [{"type": e["type"], "data": e["data"]} for e in log[1:]], 1, "desk")
    code, out, _ = run("tournament", "results", tid, "--db", db)
    assert code == 0 and out.strip() == "2 results taken"
    code, out, _ = run("tournament", "standings", tid, "--json", "--db", db)
    standings = json.loads(out)
    assert code == 0 and standings["missing"] == [] and sum(r["match_points"] for r in standings["standings"]) == 2
    code, out, _ = run("tournament", "standings", tid, "--csv", "--db", db)
    assert code == 0 and out.splitlines()[0].startswith("rank,player") and len(out.splitlines()) == 5
    archive = tmp_path / "night.jsonl"
    assert run("tournament", "export", tid, "-o", str(archive), "--db", db)[0] == 0
    other = f"sqlite:///{tmp_path / 'other.db'}"
    code, out, _ = run("tournament", "import", str(archive), "--db", other)
    assert code == 0 and json.loads(out)["matches_added"] == 2
    code, out, _ = run("tournament", "standings", tid, "--json", "--db", other)
    assert json.loads(out)["standings"] == standings["standings"]


def test_refusals_name_the_problem_and_change_nothing(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    assert run("players", "add", "p0", "Player 0", "--db", db)[0] == 0
    code, _, err = run("players", "add", "p0", "Someone else", "--db", db)
    assert code == 1 and "p0" in err
    code, _, err = run("tournament", "create", "X", "--game", "chess", "--rounds", "2", "--db", db)
    assert code == 1 and "chess" in err
    code, _, err = run("tournament", "standings", "nope", "--db", db)
    assert code == 1 and "nope" in err
    code, out, _ = run("players", "--json", "--db", db)
    assert [p["name"] for p in json.loads(out)] == ["Player 0"]
    assert json.loads(run("tournament", "list", "--db", db)[1]) == []
