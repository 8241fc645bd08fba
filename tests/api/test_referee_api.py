"""The referee's part over HTTP, on SQLite and PostgreSQL: marking a match abandoned (a referee's or an admin's; a
recorder's is a 403 storing nothing), what an abandoned match takes afterwards, and the correction requests of a
match and of a tournament (`/api/matches/{id}/corrections`, `/api/tournaments/{id}/corrections`)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from projections.registry import get_game
from recorder.access import auth
from recorder.api import create_api
from recorder.facade import Scorebook
from tests.support.clubs import NAMES, OPTIONS


@pytest.fixture
def client(scorebook: Scorebook) -> TestClient:
    return TestClient(create_api(scorebook))


@pytest.fixture
def tokens(scorebook: Scorebook) -> dict[str, dict[str, str]]:
    return {role: {"Authorization": f"Bearer {scorebook.create_token(f'{role}-desk', role)}"} for role in auth.ROLES}


def game_events(seats: list[str], seed: int = 5) -> list[dict[str, Any]]:
    log = get_game("hats-off").random_match(random.Random(seed), [{"id": p, "name": NAMES[p]} for p in seats], OPTIONS)
    return [{"type": e["type"], "data": e["data"]} for e in log]


def post(client: TestClient, match_id: str, events: list[dict[str, Any]], seq: int, h: dict[str, str]) -> Any:
    return client.post(f"/api/matches/{match_id}/events", json={"expected_seq": seq, "events": events}, headers=h)


def started(client: TestClient, h: dict[str, str], seats: list[str], n: int) -> tuple[str, list[dict[str, Any]]]:
    log = game_events(seats)
    r = client.post("/api/matches", json=log[0]["data"], headers=h)
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    assert post(client, match_id, log[1:n], 1, h).status_code == 201
    return match_id, log


def test_only_a_referee_or_an_admin_marks_a_match_abandoned(client: TestClient, tokens: dict) -> None:
    match_id, log = started(client, tokens["recorder"], ["ann", "bo"], 5)
    abandon = [{"type": "match_abandoned", "data": {"reason": "the hall closed"}}]
    r = post(client, match_id, abandon, 5, tokens["recorder"])
    assert r.status_code == 403 and "only a referee may match_abandoned" in r.text
    assert client.get(f"/api/matches/{match_id}").json()["seq"] == 5  # nothing stored
    r = post(client, match_id, [{"type": "match_abandoned", "data": {}}], 5, tokens["referee"])
    assert r.status_code == 422 and "give the reason" in r.json()["reason"]
    assert post(client, match_id, abandon, 5, tokens["admin"]).status_code == 201
    detail = client.get(f"/api/matches/{match_id}").json()
    assert detail["status"] == "abandoned" and detail["seq"] == 6
    r = post(client, match_id, log[5:6], 6, tokens["recorder"])
    assert r.status_code == 422 and "abandoned at #6 (the hall closed)" in r.json()["reason"]
    assert post(client, match_id, [{"type": "note", "data": {"text": "gone home"}}], 6, tokens["recorder"]
                ).status_code == 201
    listed = client.get("/api/matches", params={"status": "abandoned"}).json()["items"]
    assert [m["match_id"] for m in listed] == [match_id]


def test_a_match_lists_its_correction_requests(client: TestClient, tokens: dict) -> None:
    match_id, _ = started(client, tokens["recorder"], ["ann", "bo"], 6)
    ask = {"type": "note", "data": {"text": "wrong hat", "about_seq": 5, "correction": True}}
    assert post(client, match_id, [ask], 6, tokens["recorder"]).status_code == 201  # any recorder may ask
    body = client.get(f"/api/matches/{match_id}/corrections").json()
    assert body["status"] == "in_progress"
    assert [(r["seq"], r["about_seq"], r["text"], r["open"], r["recorded_by"]) for r in body["requests"]] == [
        (7, 5, "wrong hat", True, "recorder-desk")]
    # a recorder may not close a request; a referee's note may
    dismiss = {"type": "note", "data": {"text": "it stands", "resolves": 7}}
    assert post(client, match_id, [dismiss], 7, tokens["recorder"]).status_code == 403
    assert client.get(f"/api/matches/{match_id}").json()["seq"] == 7
    r = post(client, match_id, [{"type": "note", "data": {"text": "x", "resolves": 3}}], 7, tokens["referee"])
    assert r.status_code == 422 and "not a correction request" in r.json()["reason"]
    assert post(client, match_id, [dismiss], 7, tokens["referee"]).status_code == 201
    assert client.get(f"/api/matches/{match_id}/corrections").json()["requests"] == []
    closed = client.get(f"/api/matches/{match_id}/corrections", params={"all": "true"}).json()["requests"]
    assert [(r["seq"], r["open"], r["resolved_by"], r["resolution"]) for r in closed] == [(7, False, 8, "note")]
    assert client.get("/api/matches/nosuchmatch/corrections").status_code == 404
    bad = client.get(f"/api/matches/{match_id}/corrections", params={"all": "maybe"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_request" and "all" in bad.json()["reason"]


def test_a_tournament_lists_the_open_requests_of_its_tables(client: TestClient, tokens: dict,
                                                            scorebook: Scorebook) -> None:
    ref = tokens["referee"]
    r = client.post("/api/tournaments", json={"name": "Elm Open", "game": "hats-off", "format": "swiss", "rounds": 1,
                                               "table_size": 2}, headers=ref)
    tid = r.json()["tournament_id"]
    for pid in ("ann", "bo", "cy", "dee"):
        assert client.post(f"/api/tournaments/{tid}/entries", json={"player": pid, "name": NAMES[pid]},
                           headers=ref).status_code == 201
    tables = client.post(f"/api/tournaments/{tid}/rounds", json={}, headers=ref).json()["tables"]
    ids = [client.post(f"/api/tournaments/{tid}/rounds/1/tables/{t['table']}/match", json={"options": OPTIONS},
                       headers=ref).json()["match_id"] for t in tables]
    ask = {"type": "note", "data": {"text": "score wrong", "about_seq": 1, "correction": True}}
    assert post(client, ids[1], [ask], 1, tokens["recorder"]).status_code == 201
    body = client.get(f"/api/tournaments/{tid}/corrections").json()
    assert body["tournament_id"] == tid
    assert [(q["round"], q["table"], q["match_id"], q["seq"], q["text"], q["status"], q["seats"])
            for q in body["requests"]] == [(1, 2, ids[1], 2, "score wrong", "in_progress", tables[1]["seats"])]
    assert client.get("/api/tournaments/nosuch/corrections").status_code == 404
    bad = client.get(f"/api/tournaments/{tid}/corrections", params={"all": "maybe"})
    assert bad.status_code == 400 and "all" in bad.json()["reason"]
