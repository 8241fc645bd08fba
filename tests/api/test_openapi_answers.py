"""Answers the framework gives itself are documented ones: a body that is not JSON,
a method a route does not take. They carry the ErrorBody every other refusal carries; the statuses are
checked against the document by the schemathesis run (tests/api/test_openapi_fuzz.py)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from recorder.api import create_api
from recorder.facade import Scorebook


@pytest.fixture
def client(scorebook: Scorebook) -> TestClient:
    return TestClient(create_api(scorebook))


@pytest.fixture
def admin(scorebook: Scorebook) -> dict[str, str]:
    return {"Authorization": f"Bearer {scorebook.create_token('desk', 'admin')}"}


def _documented(client: TestClient, path: str, method: str) -> set[str]:
    return set(client.get("/openapi.json").json()["paths"][path][method]["responses"])


@pytest.mark.parametrize("path", ["/api/matches", "/api/matches/m1/events", "/api/tokens"])
def test_a_body_that_is_not_json_is_an_error_body(client: TestClient, admin: dict[str, str], path: str) -> None:
    r = client.post(path, content=b"\xff{not json", headers={**admin, "Content-Type": "application/json"})
    assert r.status_code == 400
    body = r.json()
    assert body["error"] == "bad_request" and body["reason"]
    assert "detail" not in body
    spec_path = path.replace("m1", "{match_id}")
    assert "400" in _documented(client, spec_path, "post")


def test_a_method_a_route_does_not_take_is_an_error_body(client: TestClient) -> None:
    r = client.put("/api/matches")
    assert r.status_code == 405
    assert r.json()["error"] == "method_not_allowed" and r.json()["reason"]
    assert r.headers["allow"]  # kept from the framework's answer


def test_no_stored_error_keeps_the_frameworks_shape(client: TestClient) -> None:
    r = client.get("/api/matches/nope")
    assert r.status_code == 404 and set(r.json()) == {"error", "reason"}
