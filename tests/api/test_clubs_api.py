"""The club over HTTP (recorder/api/routers/clubs.py), on SQLite and PostgreSQL: players, a tournament run
from creation to its archive, and the refusals — each a 4xx naming the problem, storing nothing."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from projections.registry import get_game
from recorder.access import auth
from recorder.api import create_api
from recorder.facade import Scorebook


@pytest.fixture
def client(scorebook: Scorebook) -> TestClient:
    return TestClient(create_api(scorebook))


@pytest.fixture
def tokens(scorebook: Scorebook) -> dict[str, dict[str, str]]:
    return {role: {"Authorization": f"Bearer {scorebook.create_token(f'{role}-desk', role)}"} for role in auth.ROLES}


def _register(client: TestClient, h: dict[str, str], n: int) -> None:
    for i in range(n):
        r = client.post("/api/players", json={"player": f"p{i}", "name": f"Player {i}", "club": "Elm"}, headers=h)
        assert r.status_code == 201, r.text


def test_players_are_registered_aliased_and_merged(client: TestClient, tokens: dict) -> None:
    _register(client, tokens["recorder"], 3)
    assert [p["id"] for p in client.get("/api/players").json()["players"]] == ["p0", "p1", "p2"]
    r = client.post("/api/players/p1/aliases", json={"alias": "Bobby"}, headers=tokens["recorder"])
    assert r.status_code == 200 and r.json()["aliases"] == ["Bobby"]
    # merging needs a referee
    r = client.post("/api/players/p2/merge", json={"into": "p1"}, headers=tokens["recorder"])
    assert r.status_code == 403
    r = client.post("/api/players/p2/merge", json={"into": "p1"}, headers=tokens["referee"])
    assert r.status_code == 200 and r.json()["merged"] == ["p2"]
    assert [p["id"] for p in client.get("/api/players").json()["players"]] == ["p0", "p1"]
    assert client.get("/api/players/p2").json()["player"]["id"] == "p1"  # every read follows the merge


def test_bad_player_writes_are_refused_and_store_nothing(client: TestClient, tokens: dict) -> None:
    h = tokens["recorder"]
    _register(client, h, 1)
    assert client.post("/api/players", json={"player": "p0", "name": "Again"}, headers=h).status_code == 422
    assert client.post("/api/players", json={"player": "Bad Id", "name": "X"}, headers=h).status_code == 400
    assert client.post("/api/players", json={"player": "p9", "name": "X"}).status_code == 401
    r = client.post("/api/players/p0/merge", json={"into": "p0"}, headers=tokens["referee"])
    assert r.status_code == 422 and r.json()["reason"]
    assert client.get("/api/players/nobody").status_code == 404
    assert [(p["id"], p["name"]) for p in client.get("/api/players").json()["players"]] == [("p0", "Player 0")]


def test_a_tournament_from_creation_to_its_archive(client: TestClient, tokens: dict, scorebook: Scorebook,
                                                   tmp_path) -> None:  # type: ignore[no-untyped-def]
    ref, rec = tokens["referee"], tokens["recorder"]
    _register(client, rec, 5)
    body = {"name": "Elm Open", "game": "hats-off", "format": "swiss", "rounds": 2, "table_size": 2,
            "date": "2026-12-01"}
    assert client.post("/api/tournaments", json=body, headers=rec).status_code == 403
    r = client.post("/api/tournaments", json=body, headers=ref)
    assert r.status_code == 201, r.text
    tid = r.json()["tournament_id"]
    for i in range(5):
        assert client.post(f"/api/tournaments/{tid}/entries", json={"player": f"p{i}"}, headers=ref).status_code == 201
    game = get_game("hats-off")
    for round_ in (1, 2):
        r = client.post(f"/api/tournaments/{tid}/rounds", headers=ref)
        assert r.status_code == 201, r.text
        paired = r.json()
        assert len(paired["tables"]) == 2 and len(paired["byes"]) == 1
        # the next round waits for this one's results, and says which tables are missing
        r = client.post(f"/api/tournaments/{tid}/rounds", headers=ref)
        reason = "table 1" if round_ == 1 else "all 2 rounds are paired"
        assert r.status_code == 422 and reason in r.json()["reason"], r.text
        for t in paired["tables"]:
            r = client.post(f"/api/tournaments/{tid}/rounds/{round_}/tables/{t['table']}/match",
                            json={"options": {"target_score": 60}}, headers=ref)
            assert r.status_code == 201, r.text
            match_id = r.json()["match_id"]
            players = [{"id": p, "name": f"Player {p[1:]}"} for p in t["seats"]]
            log = game.random_match(random.Random(round_ * 10 + t["table"]), players, {"target_score": 60})
            scorebook.append(match_id, [{"type": e["type"], "data": e["data"]} for e in log[1:]], 1, "desk")
        standings = client.get(f"/api/tournaments/{tid}/standings").json()
        assert len(standings["missing"]) == 2  # finished, not yet taken
        assert client.post(f"/api/tournaments/{tid}/results", headers=ref).json()["taken"] == 2
    standings = client.get(f"/api/tournaments/{tid}/standings").json()
    assert standings["missing"] == []
    points = sorted(s["match_points"] for s in standings["standings"])
    assert sum(points) == 6  # 2 rounds: 2 tables won and one bye each
    csv_text = client.get(f"/api/tournaments/{tid}/standings?format=csv").text
    assert csv_text.splitlines()[0].startswith("rank,player,name,match_points")
    assert len(csv_text.splitlines()) == 6
    archive = client.get(f"/api/tournaments/{tid}/archive")
    assert archive.status_code == 200
    other = Scorebook.open(f"sqlite:///{tmp_path / 'other.db'}")
    try:
        token = other.create_token("ref", "referee")
        there = TestClient(create_api(other))
        r = there.post("/api/tournaments/import", content=archive.content, headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 201, r.text
        assert r.json()["matches_added"] == 4
        assert there.get(f"/api/tournaments/{tid}/standings").json()["standings"] == standings["standings"]
        again = there.post("/api/tournaments/import", content=archive.content,
                           headers={"Authorization": f"Bearer {token}"})
        assert again.status_code == 201 and again.json()["existing"] and again.json()["matches_added"] == 0
    finally:
        other.close()
    ratings = client.get("/api/ratings?game=hats-off").json()["ratings"]["hats-off"]
    assert {p["player"] for p in ratings["players"]} == {f"p{i}" for i in range(5)}


def test_bad_tournament_writes_are_refused_and_store_nothing(client: TestClient, tokens: dict) -> None:
    ref = tokens["referee"]
    bad = {"name": "X", "game": "chess", "format": "swiss", "rounds": 3, "table_size": 2}
    r = client.post("/api/tournaments", json=bad, headers=ref)
    assert r.status_code in (400, 422) and "chess" in r.json()["reason"]
    assert client.get("/api/tournaments").json()["tournaments"] == []
    body = {"name": "Y", "game": "hats-off", "format": "swiss", "rounds": 1, "table_size": 2}
    tid = client.post("/api/tournaments", json=body, headers=ref).json()["tournament_id"]
    assert client.post(f"/api/tournaments/{tid}/entries", json={"player": "ghost"}, headers=ref).status_code == 400
    r = client.post(f"/api/tournaments/{tid}/rounds", headers=ref)
    assert r.status_code == 422  # nobody entered
    assert client.get(f"/api/tournaments/{tid}").json()["paired_rounds"] == []
    assert client.get("/api/tournaments/nope").status_code == 404
    assert client.post("/api/tournaments/import", content=b"not an archive\n", headers=ref).status_code == 422
