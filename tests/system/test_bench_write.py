"""The write-path benchmark's own parts (bench/write_path.py, bench/bare_endpoint.py): the bare endpoint
really stores what it is posted into Scorebook's table, and goals are judged the right way round. No time
is asserted."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fastapi.testclient import TestClient

from bench.bare_endpoint import build_app
from bench.write_path import Figure
from recorder import Scorebook
from tests.support.logs import START


def test_the_bare_endpoint_inserts_the_posted_event_into_the_events_table(tmp_path: Path) -> None:
    db = str(tmp_path / "bare.db")
    with Scorebook.open(db) as sb:  # Scorebook's tables, as the benchmark makes them
        match_id = sb.start_match(START)["match_id"]
    client = TestClient(build_app(db, "FULL", token="t0k"))
    event = {"type": "round_started", "data": {"caller": "ann"}, "event_id": "e-2"}
    auth = {"Authorization": "Bearer t0k"}

    r = client.post(f"/matches/{match_id}/events", json={"expected_seq": 1, "events": [event]}, headers=auth)
    assert r.status_code == 201, r.text
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seq, position, type, data, event_id FROM events WHERE match_id = ? ORDER BY seq",
                            (match_id,)).fetchall()
    assert rows == [(1, 1, "match_started", rows[0][3], None), (2, 2, "round_started", '{"caller":"ann"}', "e-2")]

    again = client.post(f"/matches/{match_id}/events", json={"expected_seq": 1, "events": [event]}, headers=auth)
    assert again.status_code == 409  # the primary key refuses seq 2 twice
    wrong = client.post(f"/matches/{match_id}/events", json={"expected_seq": 2, "events": [event]},
                        headers={"Authorization": "Bearer other"})
    assert wrong.status_code == 401


def test_a_goal_is_a_ratio_reached_or_stayed_under() -> None:
    faster = Figure("append", "raw", "ev/s", 0.5, ours=[60, 40, 55], theirs=[100, 100, 100])
    assert faster.verdict() == "met"  # median ratio 0.55
    faster.ours = [40, 60, 45]
    assert faster.verdict() == "goal missed"
    latency = Figure("p95", "bare", "ms", 1.5, higher_better=False, ours=[140, 160, 149], theirs=[100, 100, 100])
    assert latency.verdict() == "met"
    latency.ours = [200, 151, 160]
    assert latency.verdict() == "goal missed"
    assert Figure("cpu", "bare", "ms", None, ours=[1.0], theirs=[2.0]).verdict() == ""
