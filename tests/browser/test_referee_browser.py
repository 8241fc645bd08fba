"""The referee's part in a real headless Chromium at a 390 px phone width: a recorder asks for a correction from
the pad, a referee's pad shows it and undoes the event in one click (the request closes, the rewind is in the
log); a referee marks a match abandoned and the replay and the match list show it (screenshots)."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest

from projections.corrections import open_requests
from projections.registry import get_game
from recorder.demo import PLAYERS
from recorder.log.file import import_lines
from tests.support.browser import LiveServer, shot

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


def a_match(server: LiveServer, events: int = 7) -> str:
    log = get_game("hats-off").random_match(random.Random(4), PLAYERS[:2], {"target_score": 50})
    start = {**log[0], "data": {**log[0]["data"], "meta": {"test": uuid.uuid4().hex}}}
    return str(server.sb.import_log(import_lines([start, *log[1:events]]), "desk-0")["match_id"])


def a_tournament_match(server: LiveServer, events: int = 7) -> tuple[str, str]:
    """(a new tournament's id, the match of its round 1 table 1, `events` events recorded)."""
    sb = server.sb
    tid = sb.clubs.create_tournament({"name": f"Hall night {uuid.uuid4().hex[:6]}", "game": "hats-off",
                                      "format": "swiss", "rounds": 1, "table_size": 2}, "ref")
    for p in PLAYERS[:2]:
        sb.clubs.enter(tid, p["id"], "ref", name=p["name"])
    seats = sb.clubs.pair(tid, "ref")["tables"][0]["seats"]
    match_id = sb.clubs.start_table(tid, 1, 1, "desk-0", {"target_score": 50})
    names = {p["id"]: p["name"] for p in PLAYERS}
    log = get_game("hats-off").random_match(random.Random(4), [{"id": p, "name": names[p]} for p in seats],
                                            {"target_score": 50})
    sb.append(match_id, [{"type": e["type"], "data": e["data"]} for e in log[1:events]], 1, "desk-0")
    return tid, match_id


def open_pad(page: Any, server: LiveServer, match_id: str) -> None:
    page.goto(f"{server.url}/record/{match_id}")
    page.wait_for_selector("#move-input")
    page.wait_for_selector("#referee-panel")


def events_of(server: LiveServer, match_id: str) -> list[dict[str, Any]]:
    return server.sb.events(match_id)


def test_a_correction_asked_on_one_phone_is_undone_on_the_referees(signed_in: Any, live_server: LiveServer) -> None:
    tid, match_id = a_tournament_match(live_server)
    desk = signed_in("recorder", **PHONE)
    open_pad(desk, live_server, match_id)
    desk.click("#referee-ask-open")
    assert desk.input_value("#referee-ask-seq") == "7"  # the last event, picked by default
    desk.click("#referee-ask")  # no text: asked for, nothing sent
    desk.wait_for_function("() => document.querySelector('#referee-msg').innerText.includes('what is wrong')")
    desk.select_option("#referee-ask-seq", "6")
    desk.fill("#referee-ask-text", "the hat went to the wrong hole")
    desk.click("#referee-ask")
    desk.wait_for_selector("#referee-request-8")
    assert "Waiting for a referee" in desk.inner_text("#referee-requests")
    assert desk.locator("#referee-undo-8").count() == 0
    shot(desk, "referee-recorder-asked-390")
    last = events_of(live_server, match_id)[-1]
    assert last["type"] == "note" and last["data"] == {"text": "the hat went to the wrong hole", "about_seq": 6,
                                                       "correction": True}

    ref = signed_in("referee", **PHONE)
    ref.goto(f"{live_server.url}/tournaments/{tid}")  # the referee finds the request on the tournament's page
    ref.wait_for_selector("#corrections li.correction")
    item = ref.locator("#corrections li.correction")
    assert item.count() == 1 and "the hat went to the wrong hole" in item.inner_text()
    assert "Round 1, table 1" in item.inner_text()
    shot(ref, "referee-tournament-request-390")
    ref.click("#corrections a.pad-link")
    ref.wait_for_selector("#referee-panel")
    assert ref.url.endswith(f"/record/{match_id}")
    undo = ref.locator("#referee-undo-8")
    assert undo.inner_text() == "Undo #6"
    box = undo.bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
    shot(ref, "referee-request-shown-390")
    undo.click()
    ref.wait_for_function("() => !document.querySelector('#referee-requests')")
    log = events_of(live_server, match_id)
    assert log[-1]["type"] == "rewind" and log[-1]["data"] == {"to_seq": 5,
                                                               "reason": "the hat went to the wrong hole"}
    assert log[-1]["recorded_by"] == ref.token_name
    assert open_requests(log) == []
    ref.wait_for_function("s => document.querySelector('#pad-echo').innerText.startsWith(s)", arg="#9 ")
    shot(ref, "referee-undone-390")
    ref.goto(f"{live_server.url}/tournaments/{tid}")
    ref.wait_for_selector("#corrections")
    assert "None open" in ref.inner_text("#corrections")


def test_a_referee_marks_a_match_abandoned(signed_in: Any, live_server: LiveServer) -> None:
    match_id = a_match(live_server)
    desk = signed_in("recorder", **PHONE)
    open_pad(desk, live_server, match_id)
    assert desk.locator("#referee-abandon-open").count() == 0  # a recorder has no such button
    ref = signed_in("referee", **PHONE)
    open_pad(ref, live_server, match_id)
    ref.click("#referee-abandon-open")
    ref.fill("#referee-abandon-reason", "Bo was taken ill")
    ref.click("#referee-abandon")
    ref.wait_for_selector("#referee-abandoned")
    assert "Abandoned at #8" in ref.inner_text("#referee-abandoned")
    assert ref.locator("#referee-abandon-open").count() == 0
    assert not ref.is_visible("#pad-steps")  # no move to offer
    shot(ref, "referee-abandoned-pad-390")
    assert live_server.sb.summary(match_id)["status"] == "abandoned"

    ref.goto(f"{live_server.url}/matches/{match_id}")
    ref.wait_for_selector("#status-badge")
    assert ref.inner_text("#status-badge") == "abandoned"
    shot(ref, "referee-abandoned-replay-390")
    ref.goto(f"{live_server.url}/")
    ref.wait_for_selector(".badge-abandoned")
    assert "abandoned" in ref.inner_text(".badge-abandoned")
    shot(ref, "referee-abandoned-list-390")
