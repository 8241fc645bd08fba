"""The replay page's frames (dashboard/replay_frames.py): every step's frame, sent as differences, decodes to
exactly what the server draws for that step; the differences round-trip whatever JSON they are given; a
match whose stored rows break gets frames up to the break only. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dashboard.model import ReplayCache
from dashboard.pages.replay import render_parts, render_step, viewed_replay
from dashboard.replay_frames import apply, decode, delta, pack, plain, step_frames, unpack
from projections.registry import GAME_NAMES, get_game
from recorder.facade import Scorebook
from recorder.log.file import import_lines
from scorebook.app import build_app
from tests.support.replay_payload import frames_request, split_frames
from tests.support.tampering import EDITS, five_events, restarted, tamper

PLAYERS = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_frame_is_what_the_server_draws_for_its_step(scorebook: Scorebook, game: str) -> None:
    log = get_game(game).random_match(random.Random(3), PLAYERS, None)[:60]
    match_id = str(scorebook.import_log(import_lines(log), "desk")["match_id"])
    cache = ReplayCache()
    replay = viewed_replay(scorebook, cache, match_id)  # no session: a spectator, as render_step draws it
    frames = decode(unpack(pack(step_frames(scorebook, replay, render_parts))))
    assert len(frames) == replay.seq + 1 == len(log) + 1
    for k, frame in enumerate(frames):
        figure, panel, label, score_text, now, _ = render_step(scorebook, cache, match_id, k)
        assert frame["figure"] == json.loads(json.dumps(figure)), f"step {k}"
        assert frame["panel"] == plain(panel) and frame["now"] == plain(now) and frame["score"] == score_text
        assert label == f"Step {k} of {len(log)}"


CASES: list[tuple[Any, Any]] = [
    ({"a": 1}, {"a": 2, "b": [1, None]}),
    ({"a": 1, "b": 2}, {"b": 2}),
    ([1, 2, 3, 4, 5], [1, 2, 9, 4, 5]),
    ([1, 2, 3], [1, 2, 3, 4, 5]),
    ([1, 2, 3, 4, 5], [1, 5]),
    ([0, 1, 2, 3], [7, 0, 1, 2, 3]),
    ([{"x": [1, 2]}, {"x": [3]}], [{"x": [1, 2, 3]}, {"x": [3]}, {"y": "new"}]),
    ([{"x": [1, 2]}, {"x": [3]}], [{"x": [1, 2, 4]}, {"x": []}]),
    ([1, 1, 1], [1, 1]),
    ("text", {"now": "an object"}),
    ([], [None, None]),
]


@pytest.mark.parametrize(("old", "new"), CASES)
def test_a_difference_turns_the_old_value_into_the_new_and_leaves_the_old_alone(old: Any, new: Any) -> None:
    before = json.dumps(old)
    op = json.loads(json.dumps(delta(old, new)))  # as the browser gets it
    assert apply(old, op) == new
    assert json.dumps(old) == before
    assert delta(new, new) is None


def test_a_match_broken_in_the_middle_gets_frames_up_to_the_break(scorebook: Scorebook) -> None:
    match_id = five_events(scorebook)
    tamper(scorebook.engine, EDITS["edited"][0], m=match_id, **EDITS["edited"][1])
    for sb in (scorebook, restarted(scorebook)):
        client = TestClient(build_app(sb))
        r = client.post("/_dash-update-component", json=frames_request(match_id, 5))
        assert r.status_code == 200, r.text
        _, frames = split_frames(r.text)
        assert len(frames) == 4  # steps 0-3: the replay stops before seq 4


def test_a_match_broken_at_its_first_event_gets_no_frames(scorebook: Scorebook) -> None:
    match_id = five_events(scorebook)
    tamper(scorebook.engine, "UPDATE events SET recorded_by = 'mallory' WHERE match_id = :m AND seq = 1",
           m=match_id)
    r = TestClient(build_app(restarted(scorebook))).post("/_dash-update-component", json=frames_request(match_id, 5))
    assert r.status_code == 204 or split_frames(r.text)[1] == []
