"""The HTTP API: FORMAT.md's routes, statuses and bodies, and who may write."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from recorder import auth
from recorder.api import create_api
from recorder.store import EventStore
from tests.examples import examples_dir, load_example
from tests.logs import START, illegal_launch, launch, round_start


@pytest.fixture
def client(store: EventStore) -> TestClient:
    return TestClient(create_api(store))


@pytest.fixture
def tokens(store: EventStore) -> dict[str, dict[str, str]]:
    return {
        role: {"Authorization": f"Bearer {auth.create_token(store.engine, f'{role}-desk', role)}"}
        for role in auth.ROLES
    }


def start(client: TestClient, headers: dict[str, str]) -> str:
    r = client.post("/api/matches", json=START, headers=headers)
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    r = client.post(f"/api/matches/{match_id}/events", json={"expected_seq": 1, "events": [round_start()]},
                    headers=headers)
    assert r.status_code == 201, r.text
    return match_id


def test_record_a_match_and_read_it_back(client: TestClient, tokens: dict) -> None:
    h = tokens["recorder"]
    match_id = start(client, h)
    r = client.post(f"/api/matches/{match_id}/events",
                    json={"expected_seq": 2, "events": [launch("ann", 1, 4), launch("bo", 3, 2)]}, headers=h)
    assert r.status_code == 201
    stored = r.json()["events"]
    assert [e["seq"] for e in stored] == [3, 4] and stored[0]["recorded_by"] == "recorder-desk"
    assert client.get(f"/api/matches/{match_id}/events").json()["events"][2:] == stored
    assert [e["seq"] for e in client.get(f"/api/matches/{match_id}/events?from=2&to=3").json()["events"]] == [2, 3]
    summary = client.get(f"/api/matches/{match_id}").json()
    assert summary["seq"] == 4 and summary["game"] == "hats-off" and summary["status"] == "in_progress"
    scores = client.get(f"/api/matches/{match_id}/scores").json()
    assert scores["seq"] == 4 and scores["match_id"] == match_id
    assert [p["id"] for p in scores["players"]] == ["ann", "bo"]
    assert client.get(f"/api/matches/{match_id}/scores?at=2").json()["seq"] == 2
    state = client.get(f"/api/matches/{match_id}/state?at=3").json()
    assert state["seq"] == 3 and isinstance(state["state"], dict)
    assert client.get(f"/api/matches/{match_id}/verify").json() == {"ok": True, "events": 4}
    legal = client.get(f"/api/matches/{match_id}/legal?player=ann").json()
    assert legal["player"] == "ann" and isinstance(legal["moves"], list)


def test_example_import_gives_expected_scores_and_exports(client: TestClient, tokens: dict) -> None:
    body = (examples_dir() / "hats-off-26.jsonl").read_bytes()
    r = client.post("/api/matches/import", content=body, headers=tokens["recorder"])
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    _, expected = load_example("hats-off-26")
    assert client.get(f"/api/matches/{match_id}/scores").json() == {**expected, "match_id": match_id}
    exported = client.get(f"/api/matches/{match_id}/export")
    assert exported.headers["content-type"].startswith("application/x-ndjson")
    rows = [json.loads(x) for x in exported.text.splitlines()]
    assert len(rows) == expected["seq"] and all("hash" in x for x in rows)
    again = client.post("/api/matches/import", content=exported.content, headers=tokens["recorder"]).json()
    assert [e["hash"] for e in client.get(f"/api/matches/{again['match_id']}/events").json()["events"]] == [
        x["hash"] for x in rows
    ]


def test_refusals_have_the_right_status_and_a_json_reason(client: TestClient, tokens: dict) -> None:
    h = tokens["recorder"]
    match_id = start(client, h)
    url = f"/api/matches/{match_id}/events"
    r = client.post(url, json={"expected_seq": 2, "events": [illegal_launch()]}, headers=h)
    assert r.status_code == 422
    assert r.json()["error"] == "illegal_event" and r.json()["seq"] == 3 and r.json()["type"] == "hat_launched"
    assert r.json()["reason"]
    r = client.post(url, json={"expected_seq": 1, "events": [launch("ann", 1, 1)]}, headers=h)
    assert r.status_code == 409 and r.json()["current_seq"] == 2
    r = client.post(url, json={"expected_seq": 2, "events": [{"type": "tile_placed", "data": {}}]}, headers=h)
    assert r.status_code == 400 and "unknown event type" in r.json()["reason"]
    r = client.post(url, content=b"{not json", headers={**h, "content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    r = client.post(url, json={"events": [launch("ann", 1, 1)]}, headers=h)
    assert r.status_code == 400 and "expected_seq" in r.json()["reason"]
    r = client.post(url, json={"expected_seq": "2", "events": [launch("ann", 1, 1)]}, headers=h)
    assert r.status_code == 400
    r = client.post(url, content=b"x" * (5 * 1024 * 1024), headers={**h, "content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "body_too_large"
    assert client.get("/api/matches/nope").status_code == 404
    assert client.get("/api/matches/nope/scores").json()["error"] == "not_found"
    assert client.post("/api/matches/nope/events", json={"expected_seq": 1, "events": [launch("ann", 1)]},
                       headers=h).status_code == 404
    assert client.get(f"/api/matches/{match_id}/scores?at=99").status_code == 400
    r = client.post("/api/matches", json={"game": "chess", "players": START["players"]}, headers=h)
    assert r.status_code == 422 and "chess" in r.json()["reason"]
    assert client.get(f"/api/matches/{match_id}").json()["seq"] == 2  # nothing of the above was stored


def test_import_refusal_names_the_line_and_stores_nothing(client: TestClient, tokens: dict) -> None:
    body = "\n".join(json.dumps(x) for x in [{"type": "match_started", "data": START}, round_start(),
                                             "# a comment", illegal_launch()] if not isinstance(x, str))
    body = body.replace('{"type": "hat_launched", "data": {"player": "ann", "hat": 7',
                        '# scorekeeper: table 3\n{"type": "hat_launched", "data": {"player": "ann", "hat": 7')
    r = client.post("/api/matches/import", content=body, headers=tokens["recorder"])
    assert r.status_code == 422 and r.json()["line"] == 4, r.text
    assert client.get("/api/matches").json()["total"] == 0
    r = client.post("/api/matches/import", content=b"not json\n", headers=tokens["recorder"])
    assert r.status_code == 400 and r.json()["line"] == 1


def test_writes_need_a_token_with_the_right_role(client: TestClient, tokens: dict, store: EventStore) -> None:
    assert client.post("/api/matches", json=START).status_code == 401
    assert client.post("/api/matches", json=START, headers={"Authorization": "Bearer nope"}).status_code == 401
    match_id = start(client, tokens["recorder"])
    rewind = {"type": "rewind", "data": {"to_seq": 1, "reason": "wrong caller"}}
    r = client.post(f"/api/matches/{match_id}/events", json={"expected_seq": 2, "events": [rewind]},
                    headers=tokens["recorder"])
    assert r.status_code == 403 and "referee" in r.json()["reason"]
    r = client.post(f"/api/matches/{match_id}/events", json={"expected_seq": 2, "events": [rewind]},
                    headers=tokens["referee"])
    assert r.status_code == 201 and r.json()["events"][0]["recorded_by"] == "referee-desk"
    assert client.post("/api/tokens", json={"name": "x", "role": "recorder"},
                       headers=tokens["referee"]).status_code == 403
    made = client.post("/api/tokens", json={"name": "desk-9", "role": "recorder"}, headers=tokens["admin"])
    assert made.status_code == 201
    new_h = {"Authorization": f"Bearer {made.json()['token']}"}
    assert client.post("/api/matches", json=START, headers=new_h).status_code == 201
    listed = client.get("/api/tokens", headers=tokens["admin"]).json()["tokens"]
    token_id = next(t["id"] for t in listed if t["name"] == "desk-9")
    assert all("token" not in t and "hash" not in t for t in listed)
    assert client.delete(f"/api/tokens/{token_id}", headers=tokens["admin"]).status_code == 200
    assert client.post("/api/matches", json=START, headers=new_h).status_code == 401
    # reads stay open
    assert client.get("/api/matches").status_code == 200


def test_retried_append_is_answered_with_what_was_stored(client: TestClient, tokens: dict) -> None:
    h = tokens["recorder"]
    match_id = start(client, h)
    body = {"expected_seq": 2, "events": [{**launch("ann", 1, 2), "event_id": "t1-0001"}]}
    first = client.post(f"/api/matches/{match_id}/events", json=body, headers=h)
    retry = client.post(f"/api/matches/{match_id}/events", json=body, headers=h)
    assert (first.status_code, retry.status_code) == (201, 200)
    assert first.json() == retry.json()
    assert client.get(f"/api/matches/{match_id}").json()["seq"] == 3


def test_list_matches_filters_and_paginates(client: TestClient, tokens: dict) -> None:
    ids = [start(client, tokens["recorder"]) for _ in range(3)]
    page = client.get("/api/matches?player=ann&limit=2").json()
    assert page["total"] == 3 and len(page["items"]) == 2
    assert page["items"][0]["match_id"] == ids[-1]  # newest first
    assert client.get("/api/matches?game=hats-off&status=in_progress").json()["total"] == 3
    assert client.get("/api/matches?status=finished").json()["total"] == 0
    assert client.get("/api/matches?status=bogus").status_code == 400
    assert client.get("/api/matches?player=zed").json() == {"items": [], "total": 0, "limit": 50, "offset": 0}


def test_openapi_documents_every_route(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for route in ("/api/matches", "/api/matches/{match_id}", "/api/matches/{match_id}/events",
                  "/api/matches/{match_id}/state", "/api/matches/{match_id}/scores", "/api/matches/{match_id}/export",
                  "/api/matches/import", "/api/matches/{match_id}/verify", "/api/matches/{match_id}/legal"):
        assert route in paths
    assert client.get("/docs").status_code == 200
