"""The plain append's own entry (recorder/api/fast_append.py) answers as the route does, and only the plain
append takes it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from recorder.api import create_api, fast_append
from recorder.api.fast_append import AppendFastPath
from recorder.api.limits import MAX_BODY_BYTES
from recorder.api.routers import events
from recorder.facade import Scorebook
from tests.support.logs import START, illegal_launch, launch, round_start

JSON = "application/json"
VOLATILE = ("recorded_at", "prev_hash", "hash")


def route_only(sb: Scorebook) -> FastAPI:
    """The API as it was before the fast path: every append goes through the router."""
    app = create_api(sb)
    app.user_middleware = [m for m in app.user_middleware if m.cls is not AppendFastPath]
    return app


def _requests(token: str, referee: str, tag: str) -> list[tuple[str, dict[str, str], bytes, str]]:
    """(what, headers, body, path tail) of each request, in order: each leaves both matches in the same state."""
    ok = {"Authorization": f"Bearer {token}", "content-type": JSON}

    def body(expected: int, *evs: dict[str, Any], **more: Any) -> bytes:
        return json.dumps({"expected_seq": expected, "events": list(evs), **more}).encode()

    with_id = {**launch("ann", 1, 4), "event_id": f"{tag}-1"}
    rewind = {"type": "rewind", "data": {"to_seq": 1, "reason": "wrong caller"}}
    deep = b'{"expected_seq": 6, "events": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    return [
        ("append", ok, body(1, round_start()), "events"),
        ("append with an event_id", ok, body(2, with_id), "events"),
        ("its retry", ok, body(2, with_id), "events"),
        ("a stale expected_seq", ok, body(2, launch("bo", 1, 2)), "events"),
        ("an illegal event after a legal one", ok, body(3, launch("bo", 1, 2), illegal_launch()), "events"),
        ("a field the data does not have", ok,
         body(3, {"type": "hat_launched", "data": {"player": "bo", "hat": 1, "to": "off", "spin": 2}}), "events"),
        ("an unknown event type", ok, body(3, {"type": "hat_dropped", "data": {}}), "events"),
        ("a rewind by a recorder", ok, body(3, rewind), "events"),
        ("no token", {"content-type": JSON}, body(4, launch("bo", 1, 2)), "events"),
        ("a token without its scheme", {**ok, "Authorization": token}, body(4, launch("bo", 1, 2)), "events"),
        ("a Basic token", {**ok, "Authorization": f"Basic {token}"}, body(4, launch("bo", 1, 2)), "events"),
        ("the scheme alone", {**ok, "Authorization": "Bearer "}, body(4, launch("bo", 1, 2)), "events"),
        ("an unknown token", {**ok, "Authorization": "Bearer sb_nope"}, body(4, launch("bo", 1, 2)), "events"),
        ("the scheme in lower case", {**ok, "Authorization": f"bearer {token}"}, body(3, launch("bo", 1, 2)),
         "events"),
        ("JSON with a charset", {**ok, "content-type": "application/json; charset=utf-8"},
         body(4, launch("bo", 2, 3)), "events"),
        ("not JSON", ok, b'{"expected_seq": 6, "events": [', "events"),
        ("not UTF-8", ok, b'{"expected_seq": 6, "events": ["\xff"]}', "events"),
        ("text/plain", {**ok, "content-type": "text/plain"}, body(6, launch("bo", 3, 2)), "events"),
        ("no content type", {"Authorization": f"Bearer {token}"}, body(6, launch("bo", 3, 2)), "events"),
        ("+json", {**ok, "content-type": "application/vnd.x+json"}, body(5, launch("ann", 2, 3)), "events"),
        ("an empty body", ok, b"", "events"),
        ("null", ok, b"null", "events"),
        ("a list", ok, b"[]", "events"),
        ("a key too many", ok, body(6, launch("bo", 3, 2), note="x"), "events"),
        ("expected_seq as text", ok, json.dumps({"expected_seq": "6", "events": [launch("bo", 3, 2)]}).encode(),
         "events"),
        ("no events", ok, body(6), "events"),
        ("an event without a type", ok, body(6, {"data": {}}), "events"),
        ("a long event_id", ok, body(6, {**launch("bo", 3, 2), "event_id": "x" * 129}), "events"),
        ("nested too deeply", ok, deep, "events"),
        ("a body over the limit", ok, b" " * (MAX_BODY_BYTES + 1), "events"),
        ("a trailing slash", ok, body(6, launch("bo", 3, 2)), "events/"),
        ("another match's tail", ok, body(6, launch("bo", 3, 2)), "eventsx"),
        ("the last legal append", ok, body(6, launch("bo", 3, 5)), "events"),
        ("a rewind by a referee", {**ok, "Authorization": f"Bearer {referee}"}, body(7, rewind), "events"),
    ]


def _same(answer: Any, tag: str, other_tag: str, match: str, other_match: str) -> Any:
    """An answer with what differs between the two matches made the same: hashes and times dropped."""
    if isinstance(answer, dict):
        return {k: _same(v, tag, other_tag, match, other_match) for k, v in answer.items() if k not in VOLATILE}
    if isinstance(answer, list):
        return [_same(v, tag, other_tag, match, other_match) for v in answer]
    if isinstance(answer, str):
        return answer.replace(tag, other_tag).replace(match, other_match)
    return answer


def test_the_fast_path_answers_every_request_as_the_route_does(scorebook: Scorebook) -> None:
    token = scorebook.create_token("desk-1", "recorder")
    referee = scorebook.create_token("ref-1", "referee")
    fast, slow = TestClient(create_api(scorebook)), TestClient(route_only(scorebook))
    headers = {"Authorization": f"Bearer {token}"}
    ids = [c.post("/api/matches", json=START, headers=headers).json()["match_id"] for c in (fast, slow)]
    sent = [_requests(token, referee, tag) for tag in ("fast", "slow")]
    for (what, h, body, tail), (_, h2, body2, _) in zip(*sent, strict=True):
        a = fast.post(f"/api/matches/{ids[0]}/{tail}", content=body, headers=h, follow_redirects=False)
        b = slow.post(f"/api/matches/{ids[1]}/{tail}", content=body2, headers=h2, follow_redirects=False)
        assert a.status_code == b.status_code, (what, a.text, b.text)
        assert a.headers.get("content-type") == b.headers.get("content-type"), what
        if a.headers.get("content-type") == JSON:
            assert _same(a.json(), "fast", "slow", *ids) == _same(b.json(), "slow", "slow", ids[1], ids[1]), what
        else:
            assert a.content.replace(ids[0].encode(), ids[1].encode()) == b.content, what
    # Both matches hold the same events, recorded by the same tokens.
    logs = [[(e["seq"], e["type"], e["data"], e["recorded_by"]) for e in scorebook.events(m)] for m in ids]
    assert logs[0] == logs[1] and [e[1] for e in logs[0]][-2:] == ["hat_launched", "rewind"]


def test_only_the_plain_append_takes_the_fast_path(client_counts: dict[str, int], scorebook: Scorebook) -> None:
    token = scorebook.create_token("desk-1", "recorder")
    client = TestClient(create_api(scorebook))
    h = {"Authorization": f"Bearer {token}"}
    match_id = client.post("/api/matches", json=START, headers=h).json()["match_id"]
    url = f"/api/matches/{match_id}/events"
    assert client.post(url, json={"expected_seq": 1, "events": [round_start()]}, headers=h).status_code == 201
    assert client.post(url, json={"expected_seq": 1, "events": [round_start()]}, headers=h).status_code == 409
    assert client_counts == {"fast": 2, "route": 0}
    assert client.post(url, json={"expected_seq": 2}, headers=h).status_code == 400  # not an AppendIn
    assert client.post(url, json={"expected_seq": 2, "events": [launch("ann", 1, 2)]}).status_code == 401
    assert client.post(url, content=b"{}", headers={**h, "content-type": "text/plain"}).status_code == 400
    assert client_counts == {"fast": 2, "route": 1}  # the 401 and the text/plain: the route, before its work


@pytest.fixture
def client_counts(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many appends each way has run (the fast path's `appended`, and the route's)."""
    counts = {"fast": 0, "route": 0}

    def counted(way: str) -> Any:
        def run(*args: Any) -> Any:
            counts[way] += 1
            return events_appended(*args)
        return run

    events_appended = events.appended
    monkeypatch.setattr(fast_append, "appended", counted("fast"))
    monkeypatch.setattr(events, "appended", counted("route"))
    return counts
