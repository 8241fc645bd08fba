"""The dashboard in a real headless Chromium: what a person sees, checked against the projections."""

from __future__ import annotations

import re
from typing import Any

import pytest

from dashboard.model import ReplayCache
from dashboard.pages.matches import PAGE_SIZE
from projections.registry import GAME_NAMES
from tests.support.browser import (
    LiveServer,
    board_traces,
    expected_board,
    expected_score_text,
    games_quick,
    open_replay,
    shot,
    wait_step,
)

pytestmark = pytest.mark.browser


def wait_slider(page: Any, k: int) -> None:
    page.wait_for_function("k => document.querySelector('[role=slider]').getAttribute('aria-valuenow') === String(k)",
                           arg=k)


# Hi-Spot in the quick run: a to-scale board with the game's extras (the tile patterns) and racks hidden.
@pytest.mark.parametrize("game", games_quick("hi-spot"))
def test_step_with_the_keyboard_and_the_url_keeps_the_step(page: Any, live_server: LiveServer, game: str) -> None:
    match_id = live_server.by_game[game]
    n = open_replay(page, live_server, match_id)
    assert page.inner_text("#step-label").strip() == f"Step 0 of {n}"
    page.locator("body").click(position={"x": 5, "y": 5})  # focus the page, not a control
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    wait_step(page, 5, n)
    assert page.inner_text("#score-text").strip() == expected_score_text(live_server, match_id, 5)
    assert board_traces(page) == expected_board(live_server, match_id, 5)
    assert page.locator("tr.event-row.current").get_attribute("data-seq") == "5"
    assert re.search(r"[?&]step=5\b", page.url)
    wait_slider(page, 5)  # the slider follows once stepping pauses
    shot(page, f"replay-{game}-step5")

    # The URL reproduces the step in a fresh page.
    link = page.url
    fresh = page.context.new_page()
    fresh.goto(link)
    fresh.wait_for_selector("#board .js-plotly-plot .main-svg")
    assert fresh.inner_text("#step-label").strip() == f"Step 5 of {n}"
    assert fresh.inner_text("#score-text").strip() == expected_score_text(live_server, match_id, 5)
    assert board_traces(fresh) == expected_board(live_server, match_id, 5)
    fresh.close()

    # End, then a mid-match position for the screenshots; Home goes back to the start.
    page.keyboard.press("End")
    wait_step(page, n, n)
    assert page.inner_text("#score-text").strip() == expected_score_text(live_server, match_id, n)
    assert board_traces(page) == expected_board(live_server, match_id, n)
    shot(page, f"replay-{game}-end")
    page.keyboard.press("Home")
    wait_step(page, 0, n)
    bonus = ReplayCache().replay(live_server.sb, match_id).bonus_steps  # a busy position for the picture
    mid = max([s for s in bonus if s <= n * 3 // 5] or [n // 2])
    open_replay(page, live_server, match_id, f"?step={mid}")
    assert board_traces(page) == expected_board(live_server, match_id, mid)
    shot(page, f"replay-{game}-mid")


def test_buttons_slider_bonus_jump_and_autoplay(page: Any, live_server: LiveServer) -> None:
    match_id = live_server.by_game["tri-ominos"]
    n = open_replay(page, live_server, match_id)
    page.click("#step-next")
    page.click("#step-next")
    wait_step(page, 2, n)
    page.click("#step-prev")
    wait_step(page, 1, n)
    page.click("#step-last")
    wait_step(page, n, n)
    page.click("#step-first")
    wait_step(page, 0, n)
    # The slider itself: focus its handle and use the arrow keys.
    page.focus("[role=slider]")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_step(page, 3, n)
    wait_slider(page, 3)
    # Next bonus: the first event after step 3 tagged as a bonus.
    replay = ReplayCache().replay(live_server.sb, match_id)
    target = next(s for s in replay.bonus_steps if s > 3)
    page.click("#step-bonus")
    wait_step(page, target, n)
    assert "bonus" in (page.locator("tr.event-row.current").get_attribute("class") or "")
    # A click on an event row goes to that step.
    page.locator('tr.event-row[data-seq="7"]').click()
    wait_step(page, 7, n)
    # Autoplay moves on by itself, and stops when asked.
    page.click("#step-play")
    page.wait_for_function(
        "() => Number(document.querySelector('#step-label').innerText.match(/Step (\\d+)/)[1]) >= 9", timeout=10_000
    )
    page.click("#step-play")
    page.wait_for_function("() => document.querySelector('#step-play').innerText.trim() === 'Play'")
    stopped = page.inner_text("#step-label")
    page.wait_for_timeout(1500)
    assert page.inner_text("#step-label") == stopped


def test_matches_page_lists_filters_and_links(page: Any, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    page.wait_for_selector("tr.match-row")
    _, total = live_server.sb.matches(limit=1)
    assert page.locator("tr.match-row").count() == total
    games = page.locator("tr.match-row").evaluate_all("rows => rows.map(r => r.dataset.game)")
    assert set(games) == set(GAME_NAMES)
    shot(page, "matches")
    # Filter by game through the dropdown.
    page.click("#filter-game")
    page.get_by_role("option", name="High Five").click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('tr.match-row')].every(r => r.dataset.game === 'high-five')")
    _, hf_total = live_server.sb.matches(game="high-five", limit=1)
    assert page.locator("tr.match-row").count() == hf_total
    # Each row links to its replay.
    page.locator("tr.match-row a.replay-link").first.click()
    page.wait_for_selector("#step-label")
    assert "/matches/" in page.url


def test_status_and_player_filters(page: Any, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    page.wait_for_selector("tr.match-row")
    page.click("#filter-status")
    page.get_by_role("option", name="in progress").click()
    unfinished, _ = live_server.sb.matches(status="in_progress", limit=PAGE_SIZE)
    _, total = live_server.sb.matches(limit=1)
    # The session's server is shared: other tests may have started matches too. The seeded two are among these,
    # and the filter leaves the finished ones out.
    assert {live_server.in_progress, live_server.rewound} <= {m["match_id"] for m in unfinished}
    assert len(unfinished) < total
    page.wait_for_function("n => document.querySelectorAll('tr.match-row').length === n", arg=len(unfinished))
    assert all("in progress" in t for t in page.locator("tr.match-row").all_inner_texts())
    page.click("#filter-status")
    page.get_by_role("option", name="finished").click()
    page.click("#filter-player")
    page.get_by_role("option", name="Ann", exact=True).click()
    expected, _ = live_server.sb.matches(player="ann", status="finished", limit=PAGE_SIZE)
    page.wait_for_function("n => document.querySelectorAll('tr.match-row').length === n", arg=len(expected))
    assert all("Ann" in t for t in page.locator("tr.match-row").all_inner_texts())


def test_hands_hidden_in_progress_and_shown_when_finished(page: Any, live_server: LiveServer) -> None:
    n = open_replay(page, live_server, live_server.in_progress, "?step=20")
    assert n == 40
    panel = page.inner_text("#player-panel")
    assert "tiles in hand" in panel and "hand:" not in panel
    assert "hidden while the match is in progress" in panel
    shot(page, "replay-in-progress")
    open_replay(page, live_server, live_server.by_game["tri-ominos"], "?step=20")
    panel = page.inner_text("#player-panel")
    assert "hand:" in panel


def test_superseded_events_are_struck_through_with_the_reason(page: Any, live_server: LiveServer) -> None:
    open_replay(page, live_server, live_server.rewound, "?step=32")
    row = page.locator('tr.event-row[data-seq="29"]')
    assert "superseded" in (row.get_attribute("class") or "")
    decoration = row.locator(".what").evaluate("e => getComputedStyle(e).textDecorationLine")
    assert decoration == "line-through"
    assert "tile recorded in the wrong section" in row.inner_text()
    assert "rewind #32" in row.inner_text()
    chain = page.inner_text("#chain-check")
    assert chain.endswith("35 events, chain intact")
    shot(page, "replay-rewind")


def test_chain_check_is_shown(page: Any, live_server: LiveServer) -> None:
    match_id = live_server.by_game["hats-off"]
    n = open_replay(page, live_server, match_id)
    assert page.inner_text("#chain-check").strip() == f"✓ {n} events, chain intact"


# High Five in the quick run: the one game whose bonuses are charted by the points they won (captures, claims);
# the other games' bonus counts and penalties are drawn in test_stats_browser.py too.
@pytest.mark.parametrize("game", games_quick("high-five"))
def test_statistics_page_draws_its_charts(page: Any, live_server: LiveServer, game: str) -> None:
    page.goto(f"{live_server.url}/stats?game={game}")
    ids = ["stats-trend", "stats-turns", "stats-bonus", "stats-length", "stats-first"]
    for graph in ids:
        page.wait_for_selector(f"#{graph} .js-plotly-plot .main-svg")
    page.wait_for_function(
        "ids => ids.every(id => { const g = document.querySelector('#' + id + ' .js-plotly-plot');"
        " return g && g.data && g.data.length > 0; })",
        arg=ids,
    )
    for graph in ids:
        assert page.locator(f"#{graph} .js-plotly-plot .trace").count() > 0, graph
    assert page.inner_text("#stats-summary").startswith(
        {"tri-ominos": "Tri-Ominos", "high-five": "High Five", "hi-spot": "Hi-Spot", "hats-off": "Hats Off"}[game]
    )
    shot(page, f"stats-{game}")


def test_unknown_pages_and_api_paths(page: Any, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/matches/nope")
    page.wait_for_selector("h1")
    assert page.inner_text("h1") == "No such match"
    response = page.request.get(live_server.url + "/api/nothing-here")
    assert response.status == 404 and response.json()["error"] == "not_found"


def test_no_page_is_wider_than_a_phone(browser: Any, live_server: LiveServer) -> None:
    """At 390 px every page fits across: wide boards scroll inside their own frame, and the tables drop the
    columns a phone has no room for (the match list's count, tournament and replay link)."""
    context = browser.new_context(viewport={"width": 390, "height": 900}, device_scale_factor=1)
    page = context.new_page()
    try:
        player = next(iter(live_server.sb.players()))
        paths = ["/", "/stats", "/players", f"/players/{player}",
                 *(f"/matches/{match_id}" for match_id in live_server.by_game.values())]
        for path in paths:
            page.goto(live_server.url + path)
            page.wait_for_load_state("networkidle")
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 390, (path, width)
    finally:
        context.close()
