"""The replay page steps in the browser. On a 500-event match of every game (in progress,
seen by a spectator; Tri-Ominos only in the quick run, every game in CI's full run), 50 steps with → each
show the right board, step label, score text and URL, and none of them asks the server anything; the
key-press-to-paint times are printed (never asserted: see `python -m bench replay` and docs/PERFORMANCE.md).
Also: a link opens at its step, every control still steps, and a match whose stored rows break steps up to
the break."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bench.replay import long_log
from bench.step_timer import median_p90, time_steps
from dashboard.boards import board_figure
from dashboard.model import ReplayCache, step_view
from dashboard.pages.replay import render_parts
from projections.registry import GAME_NAMES
from recorder.access.visibility import reader
from tests.support.browser import LiveServer, board_traces, games_quick, import_match, open_replay, shot, wait_step

pytestmark = pytest.mark.browser

STEPS = 50
MARKER_PATH = "() => document.querySelector('#score-chart .shapelayer path[data-index=\"0\"]').getAttribute('d')"
# The expected steps' replays, built once per match and view (rebuilt if the match grows), not once per step.
EXPECTED = ReplayCache()


def spectator_step(server: LiveServer, match_id: str, k: int) -> tuple[list[dict[str, Any]], str, str]:
    """What a spectator must see at step k, drawn on the server as the page used to be: board traces, score
    text, the current event's words."""
    sb = server.sb
    replay = EXPECTED.replay(sb, match_id, view=sb.view(match_id, reader(None)))
    view = step_view(sb, replay, k)
    figure = board_figure(replay.game, view.board, replay.players, replay.finished, **replay.extras)
    traces = [{key: t.get(key) for key in ("x", "y", "text", "name")} for t in json.loads(json.dumps(figure["data"]))]
    _, _, _, score_text, now = render_parts(replay, view)
    words = now.children if hasattr(now, "children") else "".join(str(part.children) for part in now)
    return traces, score_text, str(words)


@pytest.fixture(scope="module")
def long_matches(live_server: LiveServer) -> dict[str, str]:
    return {game: import_match(live_server.sb, long_log(game)) for game in GAME_NAMES}


def server_calls(page: Any) -> list[str]:
    calls: list[str] = []
    page.on("request", lambda r: calls.append(r.url) if "/_dash-update-component" in r.url else None)
    return calls


# Tri-Ominos in the quick run: hands hidden from the spectator, a to-scale board.
@pytest.mark.parametrize("game", games_quick("tri-ominos"))
def test_fifty_steps_of_a_500_event_match_each_show_the_right_step_without_asking_the_server(
    page: Any, live_server: LiveServer, long_matches: dict[str, str], game: str
) -> None:
    match_id = long_matches[game]
    start = 200
    n = open_replay(page, live_server, match_id, f"?step={start}")
    assert n == 500
    page.wait_for_selector("#replay-controls[data-frames=ready]")  # the frames are here and decoded
    calls = server_calls(page)

    def check(k: int) -> None:
        traces, score_text, words = spectator_step(live_server, match_id, k)
        assert page.inner_text("#step-label").strip() == f"Step {k} of {n}"
        assert board_traces(page) == traces, f"the board of step {k}"
        assert page.inner_text("#score-text").strip() == score_text
        assert " ".join(words.split()) == " ".join(page.inner_text("#event-now").split())
        page.wait_for_function("k => new URL(location.href).searchParams.get('step') === String(k)", arg=k)
        assert page.locator("tr.event-row.current").get_attribute("data-seq") == str(k)

    times = time_steps(page, STEPS, check)
    assert len(times) == STEPS
    assert calls == [], "a step asked the server"
    med, p90 = median_p90(times)
    print(f"\n{game}: key press → painted board over {STEPS} steps: median {med:.1f} ms, p90 {p90:.1f} ms, "
          f"max {max(times):.1f} ms")
    if game == "tri-ominos":
        shot(page, "replay-500-tri-ominos-step250")


def test_a_link_opens_at_its_step_and_every_control_steps_in_the_browser(
    page: Any, live_server: LiveServer, long_matches: dict[str, str]
) -> None:
    match_id = long_matches["high-five"]
    n = open_replay(page, live_server, match_id, "?step=321")
    assert page.inner_text("#step-label").strip() == f"Step 321 of {n}"
    assert board_traces(page) == spectator_step(live_server, match_id, 321)[0]
    calls = server_calls(page)
    page.locator("#step-label").click()
    page.keyboard.press("End")
    wait_step(page, n, n)
    assert board_traces(page) == spectator_step(live_server, match_id, n)[0]
    page.keyboard.press("Home")
    wait_step(page, 0, n)
    assert page.inner_text("#score-text").strip() == spectator_step(live_server, match_id, 0)[1]
    page.click("#step-bonus")
    bonus = ReplayCache().replay(live_server.sb, match_id, view=live_server.sb.view(match_id, reader(None)))
    wait_step(page, bonus.bonus_steps[0], n)
    page.locator('tr.event-row[data-seq="17"]').click()
    wait_step(page, 17, n)
    assert board_traces(page) == spectator_step(live_server, match_id, 17)[0]
    # The score chart's step marker follows, drawn where plotly itself draws it.
    marker = page.evaluate("() => document.querySelector('#score-chart .js-plotly-plot').layout.shapes[0].x0")
    assert marker == 17
    drawn = page.evaluate(MARKER_PATH)
    page.evaluate("() => { const c = document.querySelector('#score-chart .js-plotly-plot');"
                  " return Plotly.react(c, {data: c.data, layout: Object.assign({}, c.layout)}).then(() => null); }")
    assert drawn == page.evaluate(MARKER_PATH)
    page.focus("[role=slider]")
    page.keyboard.press("ArrowLeft")
    wait_step(page, 16, n)
    page.click("#step-play")
    page.wait_for_function(
        "() => Number(document.querySelector('#step-label').innerText.match(/Step (\\d+)/)[1]) >= 18", timeout=10_000
    )
    page.click("#step-play")
    page.wait_for_function("() => document.querySelector('#step-play').innerText.trim() === 'Play'")
    k = int(re.search(r"Step (\d+)", page.inner_text("#step-label")).group(1))  # type: ignore[union-attr]
    wait_step(page, k, n)  # the URL follows once stepping pauses
    assert re.search(rf"[?&]step={k}\b", page.url)
    assert board_traces(page) == spectator_step(live_server, match_id, k)[0]
    assert calls == [], "a step asked the server"


@pytest.mark.parametrize("game", ["tri-ominos", "hi-spot"])
def test_on_a_phone_a_board_drawn_to_scale_is_only_as_tall_as_its_width_needs(
    browser: Any, live_server: LiveServer, game: str
) -> None:
    """The server draws a to-scale board (Tri-Ominos, Hi-Spot) for a desktop's width; at 390 px the page fits
    it to its width, as shown and after a step, so no blank band sits above or below it; the event list
    keeps what happened readable (the type and recorded columns give way)."""
    context = browser.new_context(viewport={"width": 390, "height": 900}, device_scale_factor=1)
    page = context.new_page()
    try:
        match_id = live_server.by_game[game]
        n = open_replay(page, live_server, match_id, "?step=5")
        page.wait_for_selector("#replay-controls[data-frames='ready']")
        fitted = """() => { const g = document.querySelector('#board .js-plotly-plot'), L = g._fullLayout, m = L.margin;
            const x = L.xaxis.range, y = L.yaxis.range;
            const want = (g.clientWidth - m.l - m.r) * Math.abs(y[1] - y[0]) / Math.abs(x[1] - x[0]) + m.t + m.b;
            return Math.abs(L.height - want) <= 3 && L.height < 560; }"""
        page.wait_for_function(fitted)
        page.focus("[role=slider]")
        page.keyboard.press("ArrowRight")
        wait_step(page, 6, n)
        page.wait_for_function(fitted)
        widths = page.evaluate("() => Array.from(document.querySelectorAll('.events tr:first-child > *'))"
                               ".map(c => c.offsetWidth)")
        assert widths[1] == 0 and widths[5] == 0 and widths[3] > 150, widths
        shot(page, f"replay-phone-{game}")
    finally:
        context.close()
