"""In a real browser: a spectator steps through a match in progress and no answer the
page receives (the route's `/_dash-update-component` answer, with every step's frame it carries: stepping
asks the server nothing more) names a hidden tile, nor does the page's text; a referee's session gets the
tiles in the event list."""

from __future__ import annotations

import json
from typing import Any

import pytest

from projections.registry import get_game
from recorder.demo import PLAYERS
from tests.support.browser import LiveServer, capture, import_match, open_replay, wait_step
from tests.support.hidden_tiles import in_progress_log, leaks, secret_tiles
from tests.support.replay_payload import split_frames

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", ["hi-spot", "tri-ominos", "high-five"])
def test_a_spectator_stepping_through_a_match_in_progress_never_receives_a_hidden_tile(
    page: Any, live_server: LiveServer, game: str
) -> None:
    log = in_progress_log(get_game(game), 21, [dict(p) for p in PLAYERS[:2]])
    secret = secret_tiles(get_game(game), log)
    assert secret
    match_id = import_match(live_server.sb, log)
    bodies = capture(page)
    n = open_replay(page, live_server, match_id, "?step=3")
    page.wait_for_selector("#replay-controls[data-frames=ready]")  # the page and its frames are here
    asked = len(bodies)
    for k in range(4, min(n, 16) + 1):
        page.keyboard.press("ArrowRight")
        wait_step(page, k, n)
    page.keyboard.press("End")
    wait_step(page, n, n)
    assert len(bodies) == asked, "a step asked the server"
    frames = []
    for body in bodies:
        text, carried = split_frames(body)
        frames.extend(carried)
        assert not leaks(text, secret), f"{game}: a callback answer names {leaks(text, secret)}"
    assert len(frames) == n + 1
    for k, frame in enumerate(frames):
        assert not leaks(frame, secret), f"{game}: the frame of step {k} names {leaks(frame, secret)}"
    assert not leaks(page.inner_text("body"), secret)
    assert not leaks(json.dumps(page.evaluate("() => document.body.innerHTML")), secret)


def test_a_referee_s_session_sees_the_tiles_drawn(signed_in: Any, live_server: LiveServer) -> None:
    log = in_progress_log(get_game("hi-spot"), 22, [dict(p) for p in PLAYERS[:2]])
    secret = secret_tiles(get_game("hi-spot"), log)
    match_id = import_match(live_server.sb, log)
    referee = signed_in("referee")
    open_replay(referee, live_server, match_id)
    referee.wait_for_selector("#event-list table")
    assert leaks(referee.inner_text("#event-list"), secret)
