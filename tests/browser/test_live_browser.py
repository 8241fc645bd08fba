"""Live following, in a real browser: the replay page of a match in progress grows as events are
appended through the API — the board, the totals and the step follow the end within a couple of seconds,
unless the viewer has stepped back — a spectator's page never receives a hidden tile meanwhile, and the match
list shows the matches being played first."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

from projections.registry import get_game
from recorder.demo import PLAYERS
from tests.support.browser import (
    LiveServer,
    board_traces,
    capture,
    expected_board,
    expected_score_text,
    import_match,
    open_replay,
    shot,
)
from tests.support.hidden_tiles import leaks, secret_tiles
from tests.support.replay_payload import split_frames

pytestmark = pytest.mark.browser


def label_is(page: Any, k: int, n: int, timeout: float = 5000) -> float:
    """Waits for "Step k of n"; the seconds it took."""
    began = time.monotonic()
    page.wait_for_function("t => document.querySelector('#step-label').innerText.trim() === t",
                           arg=f"Step {k} of {n}", timeout=timeout)
    return time.monotonic() - began


def test_the_replay_of_a_match_in_progress_follows_appends(page: Any, live_server: LiveServer) -> None:
    game = get_game("tri-ominos")
    log = game.random_match(random.Random(31), [dict(p) for p in PLAYERS[:2]], None)
    cut = next(i for i in range(30, len(log) - 2) if log[i]["type"] == log[i + 1]["type"] == "tile_placed")
    match_id = import_match(live_server.sb, log[:cut])
    token = live_server.sb.create_token("live-desk", "recorder")
    secret = secret_tiles(game, log[: cut + 2])
    assert secret
    bodies = capture(page)

    def append(i: int) -> float:
        r = httpx.post(f"{live_server.url}/api/matches/{match_id}/events", headers={"Authorization": f"Bearer {token}"},
                       json={"expected_seq": i, "events": [{"type": log[i]["type"], "data": log[i]["data"]}]})
        assert r.status_code == 201, r.text
        return time.monotonic()

    n = open_replay(page, live_server, match_id)  # no ?step: a match in progress opens at its last step
    assert n == cut and page.inner_text("#step-label").strip() == f"Step {cut} of {cut}"
    page.wait_for_selector("#replay-controls[data-frames=ready]")
    assert page.locator("#live-badge").is_visible() and "live" in page.inner_text("#live-badge")
    before = board_traces(page)

    # Following the end: the new step is shown, its board and totals, within a couple of seconds.
    sent = append(cut)
    page.wait_for_function("t => document.querySelector('#step-label').innerText.trim() === t",
                           arg=f"Step {cut + 1} of {cut + 1}")
    took = time.monotonic() - sent
    page.wait_for_function("t => document.querySelector('#score-text').innerText.trim() === t",
                           arg=expected_score_text(live_server, match_id, cut + 1), timeout=3000)
    assert board_traces(page) == expected_board(live_server, match_id, cut + 1) != before
    assert f"#{cut + 1} tile_placed" in page.inner_text("#event-now")
    assert page.locator(f'tr.event-row[data-seq="{cut + 1}"]').count() == 1
    assert took < 2.0, f"the page showed the new event {took:.2f} s after the append"
    print(f"live: the page showed the appended event {took:.2f} s after the API answered")
    path = shot(page, "replay-live-followed")
    assert path.exists()

    # Stepped back: the page grows (its label counts the new event), the step stays.
    page.keyboard.press("ArrowLeft")
    label_is(page, cut, cut + 1)
    shown = expected_score_text(live_server, match_id, cut)
    append(cut + 1)
    label_is(page, cut, cut + 2)
    page.wait_for_function("s => document.querySelector('tr.event-row[data-seq=\"' + s + '\"]') !== null",
                           arg=cut + 2)
    time.sleep(0.5)
    assert page.inner_text("#step-label").strip() == f"Step {cut} of {cut + 2}"
    assert page.inner_text("#score-text").strip() == shown
    page.keyboard.press("End")
    label_is(page, cut + 2, cut + 2)
    page.wait_for_function("t => document.querySelector('#score-text').innerText.trim() === t",
                           arg=expected_score_text(live_server, match_id, cut + 2), timeout=3000)

    # A spectator's page: no answer it received (the grown match's frames included) names a hidden tile.
    frames = []
    for body in bodies:
        text, carried = split_frames(body)
        frames.extend(carried)
        assert not leaks(text, secret), leaks(text, secret)
    assert len(frames) >= 2 * (cut + 1)  # the first frames, and the grown ones
    assert not leaks("".join(frames), secret)


def test_the_match_list_shows_the_matches_being_played_first(page: Any, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    page.wait_for_selector("#live-now tr.live-row")
    playing = page.locator("#live-now tr.live-row a.game-link")
    hrefs = [playing.nth(i).get_attribute("href") for i in range(playing.count())]
    assert f"/matches/{live_server.in_progress}" in hrefs
    assert not any(h.endswith(m) for h in hrefs for m in live_server.by_game.values())  # finished: not live
    box = page.locator("#live-now").bounding_box()
    listed = page.locator("#matches-table").bounding_box()
    assert box and listed and box["y"] < listed["y"]
    assert page.locator("#live-now .badge-live").first.is_visible()
    shot(page, "matches-live-now")
