"""The HTTP API: FORMAT.md's routes, statuses and bodies, and who may write."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from projections.registry import GAME_NAMES, all_games
from projections.schemas import COMMON_EVENTS
from recorder.access import auth
from recorder.api import create_api
from recorder.api.errors import status_of
from recorder.errors import (
    BadRequest,
    BodyTooLarge,
    Conflict,
    Forbidden,
    ImportRefused,
    MatchNotFound,
    NotFound,
    Refused,
    SchemaBehind,
    Unauthorized,
)
from recorder.facade import Scorebook
from recorder.log.file import ChainCheck
from recorder.sql.engine import make_engine
from tests.support.examples import examples_dir, load_example
from tests.support.logs import START, illegal_launch, launch, round_start


@pytest.fixture
def client(scorebook: Scorebook) -> TestClient:
    return TestClient(create_api(scorebook))


@pytest.fixture
def tokens(scorebook: Scorebook) -> dict[str, dict[str, str]]:
    return {
        role: {"Authorization": f"Bearer {scorebook.create_token(f'{role}-desk', role)}"}
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


def test_writes_need_a_token_with_the_right_role(client: TestClient, tokens: dict) -> None:
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


def test_a_token_revoked_elsewhere_is_refused_at_once(client: TestClient, scorebook: Scorebook, bare_url: str) -> None:
    """Revoked by another process (here: another engine writing the table, as `scorebook token revoke` would),
    the token is refused by the very next request: writes, reads with it, and the append route's own check."""
    token = scorebook.create_token("desk-7", "recorder")
    h = {"Authorization": f"Bearer {token}"}
    match_id = start(client, h)  # the token has been used, so anything kept of it would be warm
    assert client.get(f"/api/matches/{match_id}/events", headers=h).status_code == 200
    elsewhere = make_engine(bare_url)
    try:
        with elsewhere.begin() as conn:
            revoked = conn.execute(text("UPDATE api_tokens SET revoked_at = CURRENT_TIMESTAMP WHERE name = 'desk-7'"))
            assert revoked.rowcount == 1
    finally:
        elsewhere.dispose()
    r = client.post(f"/api/matches/{match_id}/events", json={"expected_seq": 2, "events": [launch("ann", 1, 4)]},
                    headers=h)
    assert r.status_code == 401 and r.json()["error"] == "unauthorized"
    assert client.post("/api/matches", json=START, headers=h).status_code == 401
    assert client.get(f"/api/matches/{match_id}/events", headers=h).status_code == 401
    assert client.get(f"/api/matches/{match_id}").json()["seq"] == 2  # nothing stored


def test_a_token_lookup_leaves_the_pooled_connections_as_it_found_them(scorebook: Scorebook) -> None:
    """The lookup runs on a pooled driver connection (PostgreSQL's in autocommit for it): every connection goes
    back to the pool out of autocommit and outside any transaction, ready for a writer."""
    token = scorebook.create_token("desk-8", "referee")
    assert scorebook.authenticate(token) == auth.Principal("desk-8", "referee")
    assert scorebook.authenticate("sb_nope") is None
    pool = scorebook.engine.pool
    held = [scorebook.engine.raw_connection() for _ in range(pool.checkedin())]  # type: ignore[attr-defined]
    try:
        assert held
        for conn in held:
            driver: Any = conn.driver_connection
            if scorebook.engine.dialect.name == "postgresql":
                assert driver.autocommit is False and driver.info.transaction_status == 0  # IDLE
            else:
                assert not driver.in_transaction
    finally:
        for conn in held:
            conn.close()
    match_id = start(TestClient(create_api(scorebook)), {"Authorization": f"Bearer {token}"})
    assert scorebook.summary(match_id)["seq"] == 2


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
    assert client.get("/api/matches?player=zed").json() == {"items": [], "total": 0, "limit": 50, "offset": 0,
                                                            "next": None}
    # keyset paging: `next` leads to the page after, the same pages as offsets, and the last has none
    assert page["items"] == client.get("/api/matches?player=ann&limit=2&offset=0").json()["items"]
    rest = client.get(f"/api/matches?player=ann&limit=2&after={page['next']}").json()
    assert [m["match_id"] for m in rest["items"]] == [ids[0]] and rest["next"] is None and rest["total"] == 3
    everything = [m["match_id"] for m in client.get("/api/matches?limit=1").json()["items"]]
    after = client.get("/api/matches?limit=1").json()["next"]
    while after:
        page = client.get(f"/api/matches?limit=1&after={after}").json()
        everything += [m["match_id"] for m in page["items"]]
        after = page["next"]
    assert everything == ids[::-1]
    for bad in ("nonsense", "2026-01-01T00:00:00Z~not-an-id", "yesterday~" + ids[0]):
        refused = client.get(f"/api/matches?after={bad}")
        assert refused.status_code == 400 and "after must be a cursor" in refused.json()["reason"]


def test_openapi_documents_every_route(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for route in ("/api/matches", "/api/matches/{match_id}", "/api/matches/{match_id}/events",
                  "/api/matches/{match_id}/state", "/api/matches/{match_id}/scores", "/api/matches/{match_id}/export",
                  "/api/matches/import", "/api/matches/{match_id}/verify", "/api/matches/{match_id}/legal"):
        assert route in paths
    assert client.get("/docs").status_code == 200


# -- what the package adds: games, typed bodies, documented statuses, offline docs ----------------------


def test_games_lists_every_game_with_options_and_events(client: TestClient, scorebook: Scorebook) -> None:
    body = client.get("/api/games").json()
    assert body == {"games": scorebook.games()}
    games = {g["name"]: g for g in body["games"]}
    assert list(games) == list(GAME_NAMES)
    for game in all_games():
        info = games[game.name]
        assert info["title"] == game.descriptor.title and info["schema"] == f"/api/games/{game.name}/schema"
        assert (info["min_players"], info["max_players"]) == (game.descriptor.min_players,
                                                              game.descriptor.max_players)
        for name, option in game.descriptor.options.items():
            assert info["options"][name]["default"] == option.default
        types = [e["type"] for e in info["events"]]
        shared = ["match_started", "note", "rewind", "match_abandoned", "bag_revealed"]
        assert types[:5] == shared and set(types[5:]) == set(game.event_types)


def test_game_schema_types_every_event_and_names_known_games(client: TestClient, scorebook: Scorebook) -> None:
    for name in GAME_NAMES:
        r = client.get(f"/api/games/{name}/schema")
        assert r.status_code == 200 and r.json() == scorebook.game_schema(name)
        assert r.json()["$schema"].startswith("https://json-schema.org/")
    launched = client.get("/api/games/hats-off/schema").json()["events"]["hat_launched"]
    assert {"player", "hat", "to"} <= set(launched["properties"]) and launched["additionalProperties"] is False
    r = client.get("/api/games/chess/schema")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    assert all(name in r.json()["reason"] for name in GAME_NAMES)


def test_a_misspelled_field_is_a_400_naming_it_and_nothing_is_stored(client: TestClient, tokens: dict) -> None:
    h = tokens["recorder"]
    match_id = start(client, h)
    wrong = {"type": "hat_launched", "data": {"player": "ann", "hat": 1, "too": "off"}}
    r = client.post(f"/api/matches/{match_id}/events", json={"expected_seq": 2, "events": [launch("bo", 1), wrong]},
                    headers=h)
    assert r.status_code == 400 and r.json()["error"] == "bad_request", r.text
    assert "'too'" in r.json()["reason"]
    assert client.get(f"/api/matches/{match_id}").json()["seq"] == 2
    r = client.post("/api/matches", json={"game": "hats-off", "playrs": START["players"]}, headers=h)
    assert r.status_code == 400 and "playrs" in r.json()["reason"]
    assert client.get("/api/matches").json()["total"] == 1


def test_bodies_are_the_facades_json_key_for_key(client: TestClient, tokens: dict, scorebook: Scorebook,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    body = (examples_dir() / "hats-off-26.jsonl").read_bytes()
    finished = client.post("/api/matches/import", content=body, headers=tokens["recorder"]).json()["match_id"]
    playing = start(client, tokens["recorder"])
    for m in (finished, playing):
        assert client.get(f"/api/matches/{m}").json() == scorebook.summary(m)
        assert client.get(f"/api/matches/{m}/scores").json() == scorebook.scores(m)
        assert client.get(f"/api/matches/{m}/scores?at=2").json() == scorebook.scores(m, 2)
        assert client.get(f"/api/matches/{m}/state").json() == scorebook.state(m)
        assert client.get(f"/api/matches/{m}/events").json() == {"events": scorebook.events(m)}
        assert client.get(f"/api/matches/{m}/verify").json() == scorebook.verify(m).as_json()
        for player in ("ann", "bo"):
            assert client.get(f"/api/matches/{m}/legal?player={player}").json() == scorebook.legal(m, player)
    assert scorebook.legal(playing, "ann")["moves"], "a move's extra keys (points …) must be kept"
    items, total, following = scorebook.match_page()
    assert client.get("/api/matches").json() == {"items": items, "total": total, "limit": 50, "offset": 0,
                                                 "next": following}
    assert "scores" not in items[0]
    assert client.get("/api/events?after=3&limit=5").json() == {"events": scorebook.events_after(3, 5)}
    monkeypatch.setattr(scorebook, "verify", lambda _: ChainCheck(False, 7, 5, "hash does not match"))
    assert client.get(f"/api/matches/{finished}/verify").json() == {
        "ok": False, "events": 7, "first_bad_seq": 5, "reason": "hash does not match"}


def test_store_errors_map_to_statuses_in_one_place() -> None:
    assert [status_of(e) for e in (
        BadRequest("x"), Unauthorized("x"), Forbidden("x"), NotFound("x"), MatchNotFound("x"), Conflict("x"),
        BodyTooLarge("x"), Refused("x", 3, "t"), ImportRefused("x", 2, malformed=True), ImportRefused("x", 2),
        SchemaBehind("x"),
    )] == [400, 401, 403, 404, 404, 409, 413, 422, 400, 422, 503]


# Every status each operation answers; the doc must list exactly these.
TABLE = "/api/tournaments/{tournament_id}/rounds/{round}/tables/{table}"
STATUSES = {
    ("post", "/api/matches"): {201, 400, 401, 409, 413, 422},
    ("get", "/api/matches"): {200, 400},
    ("post", "/api/matches/import"): {200, 201, 400, 401, 403, 409, 413, 422},
    ("get", "/api/matches/{match_id}"): {200, 404},
    ("get", "/api/matches/{match_id}/state"): {200, 400, 401, 404},
    ("get", "/api/matches/{match_id}/scores"): {200, 400, 404},
    ("get", "/api/matches/{match_id}/legal"): {200, 400, 401, 404},  # a spectator: the table's moves, not a 403
    ("get", "/api/matches/{match_id}/missed"): {200, 401, 403, 404},
    ("get", "/api/matches/{match_id}/export"): {200, 401, 404},
    ("get", "/api/matches/{match_id}/verify"): {200, 404},
    ("get", "/api/matches/{match_id}/corrections"): {200, 400, 404},
    ("post", "/api/matches/{match_id}/events"): {200, 201, 400, 401, 403, 404, 409, 413, 422},
    ("get", "/api/matches/{match_id}/events"): {200, 400, 401, 404},
    ("get", "/api/events"): {200, 400, 401},
    ("get", "/api/events/stream"): {200, 400, 401},
    ("get", "/api/matches/{match_id}/stream"): {200, 400, 401, 404},
    ("get", "/api/games"): {200},
    ("get", "/api/games/{game}/schema"): {200, 404},
    ("post", "/api/tokens"): {201, 400, 401, 403, 413},
    ("get", "/api/tokens"): {200, 401, 403},
    ("delete", "/api/tokens/{token_id}"): {200, 400, 401, 403},
    # the club (recorder/api/routers/clubs.py)
    ("get", "/api/players"): {200},
    ("post", "/api/players"): {201, 400, 401, 403, 413, 422},
    ("get", "/api/players/{player_id}"): {200, 404},
    ("post", "/api/players/{player_id}/aliases"): {200, 400, 401, 403, 404, 413, 422},
    ("post", "/api/players/{player_id}/merge"): {200, 400, 401, 403, 404, 413, 422},
    ("get", "/api/ratings"): {200, 400},
    ("get", "/api/tournaments"): {200},
    ("post", "/api/tournaments"): {201, 400, 401, 403, 409, 413, 422},
    ("post", "/api/tournaments/import"): {201, 400, 401, 403, 409, 413, 422},
    ("get", "/api/tournaments/{tournament_id}"): {200, 404},
    ("get", "/api/tournaments/{tournament_id}/corrections"): {200, 400, 404},
    ("post", "/api/tournaments/{tournament_id}/entries"): {201, 400, 401, 403, 404, 409, 413, 422},
    ("post", "/api/tournaments/{tournament_id}/withdrawals"): {200, 400, 401, 403, 404, 409, 413, 422},
    ("post", "/api/tournaments/{tournament_id}/rounds"): {201, 400, 401, 403, 404, 409, 413, 422},
    ("post", f"{TABLE}/match"): {201, 400, 401, 403, 404, 409, 413, 422},
    ("post", f"{TABLE}/assign"): {200, 400, 401, 403, 404, 409, 413, 422},
    ("post", f"{TABLE}/forfeit"): {200, 400, 401, 403, 404, 409, 413, 422},
    ("post", "/api/tournaments/{tournament_id}/results"): {200, 401, 403, 404, 409, 422},
    ("post", "/api/tournaments/{tournament_id}/close"): {200, 401, 403, 404, 409, 422},
    ("get", "/api/tournaments/{tournament_id}/standings"): {200, 400, 404},
    ("get", "/api/tournaments/{tournament_id}/archive"): {200, 404},
}


def _resolve(doc: dict, schema: dict) -> dict:
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].removeprefix("#/components/schemas/")]
    return schema


def test_openapi_documents_every_status_with_its_body(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    operations = {(method, path): op for path, item in doc["paths"].items() for method, op in item.items()}
    assert set(operations) == set(STATUSES)
    for key, op in operations.items():
        assert {int(s) for s in op["responses"]} == STATUSES[key], key
        for status, answer in op["responses"].items():
            content = answer["content"]
            if key[1].endswith(("/export", "/archive")) and status == "200":
                assert set(content) == {"application/x-ndjson"}
                continue
            if key[1].endswith("/stream") and status == "200":  # Server-Sent Events (docs/LIVE.md)
                assert set(content) == {"text/event-stream"}
                continue
            ref = content["application/json"]["schema"]["$ref"]
            if int(status) >= 400:
                assert ref.endswith("/ErrorBody"), (key, status)
            else:  # a response model, never a free-form object
                assert _resolve(doc, content["application/json"]["schema"])["properties"], (key, status)
    assert "HTTPValidationError" not in doc["components"]["schemas"]


def test_openapi_types_the_append_body_per_game(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    body = doc["paths"]["/api/matches/{match_id}/events"]["post"]["requestBody"]["content"]["application/json"]
    events = _resolve(doc, body["schema"])["properties"]["events"]["items"]["anyOf"]
    seen = set()
    for branch in events:
        kind = branch["properties"]["type"]["const"]
        data = _resolve(doc, branch["properties"]["data"])
        assert data["type"] == "object" and data["additionalProperties"] is False, kind
        seen.add((branch["title"].split(":")[0], kind))
    expected = {("common", s.type) for s in COMMON_EVENTS if s.type != "match_started"}
    expected |= {(g.name, t) for g in all_games() for t in g.event_types}
    assert seen == expected
    launched = next(b for b in events if b["title"] == "hats-off: hat_launched")
    assert {"player", "hat", "to"} <= set(_resolve(doc, launched["properties"]["data"])["properties"])
    start_body = doc["paths"]["/api/matches"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert {"game", "players", "options", "meta", "event_id"} <= set(_resolve(doc, start_body)["properties"])


def test_docs_and_redoc_load_their_assets_from_this_server(client: TestClient) -> None:
    pages = {"/docs": "/docs-assets/swagger-ui-bundle.js", "/redoc": "/redoc-assets/redoc.standalone.js"}
    for page, asset in pages.items():
        html = client.get(page).text
        assert f'src="{asset}"' in html, html
        assert "cdn." not in html and "fonts.googleapis" not in html
        r = client.get(asset)
        assert r.status_code == 200 and len(r.content) > 100_000
        assert "cdn.redoc.ly" not in r.text
