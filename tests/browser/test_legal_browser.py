"""The "could they have played?" panel, in Chromium: the replay page's panel of the player to move's legal
moves (with the bonus a move would score), hindsight's missed plays marked in the event list, on the score
chart and in the panel — for a referee of a match in progress and anyone once it is finished — and for a
spectator of a match in progress the table's moves only, with no hidden tile. Screenshots in test-artifacts/."""

from __future__ import annotations

import random
from typing import Any

import pytest

from projections.registry import get_game
from tests.support.browser import LiveServer, import_match, open_replay, shot, wait_step
from tests.support.tri_ominos import LATER, OPENING, THREE

pytestmark = pytest.mark.browser

MISSED_TRACE = """() => {
  const chart = document.querySelector('#score-chart .js-plotly-plot');
  const trace = chart && chart.data.find(t => t.name === 'missed play');
  return trace ? trace.x : null;
}"""


@pytest.fixture(scope="module")
def matches(live_server: LiveServer) -> dict[str, str]:
    finished = get_game("tri-ominos").random_match(random.Random(0), THREE, None)  # Ann left a hexagon at #22
    return {"passed": import_match(live_server.sb, [*OPENING, *LATER]),
            "hexagon": import_match(live_server.sb, finished)}


def panel_at(page: Any, k: int) -> str:
    page.wait_for_selector(f'#legal-body[data-at="{k}"]')
    return str(page.inner_text("#legal-panel"))


def test_a_referee_sees_the_moves_and_the_missed_placements(signed_in: Any, live_server: LiveServer,
                                                            matches: dict[str, str]) -> None:
    page = signed_in("referee", width=1500, height=1050)
    n = open_replay(page, live_server, matches["passed"], "?step=5")
    assert n == 9
    text = panel_at(page, 5)
    assert "Could they have played?" in text and "Bo to play · 1 legal move" in text
    assert "bo draw ?" in text and "Bo holds 9 tiles recorded unseen" in text
    assert "⚠ Next, #6: Bo drew although they held 0-5-5 (revealed at #9), which fitted" in text
    assert "bo 0-5-5 @" in text
    rows = page.eval_on_selector_all("tr.event-row.missed", "rows => rows.map(r => r.dataset.seq)")
    assert rows == ["6", "7"]
    assert "⚠ missed: Bo passed although they held 0-5-5" in page.inner_text('tr.event-row[data-seq="7"]')
    assert page.evaluate(MISSED_TRACE) == [6, 7]
    page.keyboard.press("ArrowRight")  # stepping stays in the browser; the panel follows the step
    wait_step(page, 6, n)
    text = panel_at(page, 6)
    assert "Bo to play" in text and "bo pass" in text and "⚠ Next, #7: Bo passed" in text
    assert "⚠ missed: Bo drew although" in page.inner_text("#event-now")
    path = shot(page, "legal-referee")
    assert path.stat().st_size > 10_000
    page.click("#step-missed")  # the next missed play: the pass at #7, then round to the draw at #6
    wait_step(page, 7, n)
    assert "Ann to play" in panel_at(page, 7)
    page.click("#step-missed")
    wait_step(page, 6, n)


def test_a_spectator_of_a_match_in_progress_gets_the_table_s_moves_and_no_hindsight(
    page: Any, live_server: LiveServer, matches: dict[str, str]
) -> None:
    n = open_replay(page, live_server, matches["passed"], "?step=6")
    text = panel_at(page, 6)
    assert "As the table knew it" in text and "Bo holds 10 tiles nobody saw" in text and "bo pass" in text
    assert "⚠" not in text and not page.query_selector("tr.event-row.missed")
    assert not page.query_selector("#step-missed")  # no hindsight, no button to it
    assert page.evaluate(MISSED_TRACE) is None
    assert "0-0-0" not in page.inner_text("body")  # Bo's draw at #6 was recorded in sight of the recorder only
    page.keyboard.press("ArrowRight")
    wait_step(page, 7, n)
    assert "Ann to play" in panel_at(page, 7)
    shot(page, "legal-spectator")


def test_a_finished_match_shows_the_bonus_a_move_would_score_and_the_one_missed(
    page: Any, live_server: LiveServer, matches: dict[str, str]
) -> None:
    open_replay(page, live_server, matches["hexagon"], "?step=21")
    text = panel_at(page, 21)
    assert "Ann to play" in text and "★ hexagon +50" in text
    assert "⚠ Next, #22: Ann placed" in text and "with no hexagon, although ann 0-0-5 @-2,0 050" in text
    assert "22" in [r for r in page.eval_on_selector_all("tr.event-row.missed", "rs => rs.map(r => r.dataset.seq)")]
    shot(page, "legal-finished")


def test_the_panel_and_the_missed_marks_fit_a_phone(signed_in: Any, live_server: LiveServer,
                                                     matches: dict[str, str]) -> None:
    width = 390
    page = signed_in("referee", width=width, height=844)
    n = open_replay(page, live_server, matches["passed"], "?step=5")
    text = panel_at(page, 5)
    assert "Bo to play" in text and "⚠ Next, #6" in text
    box = page.eval_on_selector("#legal-panel",
                                "e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; }")
    assert 0 <= box[0] and box[1] <= width, f"the panel spans {box} on a {width} px screen"
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= width, f"the replay page is {wide} px wide on a {width} px screen"
    page.keyboard.press("ArrowRight")
    wait_step(page, 6, n)
    assert "⚠ missed" in page.inner_text("#event-now")
    shot(page, "legal-referee-phone")
