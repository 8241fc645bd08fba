"""Every game's pad and replay on a 390×844 phone: the board fills its frame's width, nothing is wider than the
screen, the header is one row with its links behind a ☰ menu, every button, link and checkbox is a finger's
target, one finger on the board scrolls the page and two fingers zoom the board (screenshots in
test-artifacts/phone-*.png)."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest

from dashboard.model import build_position
from projections.registry import get_game
from projections.timeline import fold_dicts
from recorder.demo import PLAYERS
from recorder.log.file import import_lines
from tests.support.browser import LiveServer, games_quick, open_replay, shot

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 390, 844
SHORT = {"tri-ominos": {"target_score": 60}, "high-five": {"target_score": 25}, "hi-spot": {"target_score": 40},
         "hats-off": {"target_score": 50}}

# The board across its frame: its own ranges (`layout.meta.board`) in pixels over the frame's width, and the
# frame's height over what the board needs at that width.
FILL = """id => {
  const gd = document.querySelector('#' + id + ' .js-plotly-plot');
  const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, own = gd.layout.meta.board, size = gd._fullLayout._size;
  const frame = gd.getBoundingClientRect();
  const across = Math.abs(xa.l2p(own[0][1]) - xa.l2p(own[0][0])), up = Math.abs(ya.l2p(own[1][1]) - ya.l2p(own[1][0]));
  return {across: across / frame.width, frameWidth: frame.width, frameHeight: frame.height, boardHeight: up,
          plotHeight: size.h, pageWidth: document.scrollingElement.scrollWidth};
}"""
# Every visible button, link and checkbox of the header and the page's controls: [what, width, height].
TARGETS = """selector => [...document.querySelectorAll(selector)].filter(e => e.offsetParent !== null).map(e => {
  const target = e.matches('input[type=checkbox]') ? (e.closest('label') || e) : e;
  const box = target.getBoundingClientRect();
  return [e.id || e.className || e.textContent.trim().slice(0, 20), box.width, box.height];
})"""
# The screen point of the first target of the pad's board, or null.
TARGET = """() => {
  const gd = document.querySelector('#pad-board .js-plotly-plot');
  const t = gd.data.find(t => t.customdata && t.customdata.some(v => v) && t.marker && t.marker.opacity === 0);
  if (!t) { return null; }
  const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, box = gd.getBoundingClientRect();
  return [box.left + xa._offset + xa.l2p(t.x[0]), box.top + ya._offset + ya.l2p(t.y[0]), t.customdata[0]];
}"""
PAD_CONTROLS = ("header.top a, header.top summary, header.top button, #pad-top button, #pad-steps button, "
                "#pad-hints input, .pad-head a, #pad-undo-wrap button")


def phone(browser: Any, server: LiveServer | None = None, role: str | None = None) -> Any:
    """A page in a fresh 390×844 touch context, signed in with `role` when one is given."""
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, device_scale_factor=1,
                                  has_touch=True, is_mobile=True)
    if role is not None and server is not None:
        token = server.sb.create_token(f"phone-{uuid.uuid4().hex[:6]}", role)
        assert context.request.post(server.url + "/login", form={"token": token, "next": "/record"}).ok
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def pad_match(server: LiveServer, game: str) -> str:
    """A match part played, at a position whose next move is placed on the board (targets to draw)."""
    log = get_game(game).random_match(random.Random(4), PLAYERS[:3], dict(SHORT[game]))
    fold = fold_dicts(log)
    k = next((k for k in range(len(log) * 2 // 5, len(log))
              if any(s.kind == "board" for m in build_position("m", fold.at(k)).moves for s in m.path)),
             len(log) * 2 // 5)
    start = {**log[0], "data": {**log[0]["data"], "meta": {"test": uuid.uuid4().hex}}}
    return str(server.sb.import_log(import_lines([start, *log[1:k]]), "desk-0")["match_id"])


def check_header(page: Any) -> None:
    header = page.locator("header.top").bounding_box()
    assert header is not None and header["height"] <= 56, header
    assert not page.locator("#nav-stats").is_visible()  # behind the menu
    page.click("#nav-menu-button")
    page.wait_for_selector("#nav-stats", state="visible")
    links = page.evaluate(TARGETS, "header.top nav a")
    assert len(links) == 7 and all(h >= 44 for _, _, h in links), links
    page.screenshot(path=str(shot(page, "phone-menu-open")), full_page=False)
    page.click("#nav-menu-button")
    page.wait_for_selector("#nav-stats", state="hidden")


def check_board(page: Any, graph: str) -> dict[str, Any]:
    fill = page.evaluate(FILL, graph)
    assert fill["pageWidth"] <= WIDTH, fill  # nothing wider than the screen
    assert fill["across"] >= 0.85, fill  # the board fills its frame's width
    return dict(fill)


@pytest.mark.parametrize("game", games_quick("tri-ominos"))
def test_the_pad_on_a_phone(browser: Any, live_server: LiveServer, game: str) -> None:
    page = phone(browser, live_server, "referee")
    try:
        page.goto(f"{live_server.url}/record/{pad_match(live_server, game)}")
        page.wait_for_selector("#pad-board .js-plotly-plot .main-svg")
        first = page.locator("#pad-steps button.kind-hand").first  # a tile or hat picked: the targets drawn
        if first.count():
            first.click()
            page.wait_for_selector("#pad-chosen")
        page.wait_for_timeout(400)  # the board fitted to the width
        fill = check_board(page, "pad-board")
        assert fill["plotHeight"] <= fill["boardHeight"] + 4, fill  # no blank bands above and below
        small = [t for t in page.evaluate(TARGETS, PAD_CONTROLS) if t[1] < 44 or t[2] < 44]
        assert not small, small
        shot(page, f"phone-pad-{game}")
        target = page.evaluate(TARGET)
        if target is not None:  # a finger's tap on a target takes that step
            page.evaluate("y => window.scrollBy(0, y - window.innerHeight * 0.6)", target[1])
            x, y, value = page.evaluate(TARGET)
            crumbs = page.inner_text("#pad-chosen")
            page.touchscreen.tap(x, y)
            page.wait_for_function("c => { const e = document.querySelector('#pad-chosen'); "
                                   "return !e || e.innerText !== c; }", arg=crumbs)
            assert page.evaluate("() => document.querySelector('#pad-steps').innerText").count(" › ") >= 1
        page.evaluate("() => window.scrollTo(0, 0)")
        check_header(page)
    finally:
        page.context.close()


@pytest.mark.parametrize("game", games_quick("tri-ominos"))
def test_the_replay_on_a_phone(browser: Any, live_server: LiveServer, game: str) -> None:
    page = phone(browser)
    try:
        n = open_replay(page, live_server, live_server.by_game[game], "?step=")
        page.goto(f"{live_server.url}/matches/{live_server.by_game[game]}?step={n * 2 // 3}")
        page.wait_for_selector("#replay-controls[data-frames='ready']")
        page.wait_for_timeout(300)
        check_board(page, "board")
        small = [t for t in page.evaluate(TARGETS, "header.top a, header.top summary, header.top button, "
                                                   ".controls button") if t[2] < 44]
        assert not small, small
        shot(page, f"phone-replay-{game}")
        check_header(page)
    finally:
        page.context.close()


def touch(cdp: Any, kind: str, *points: tuple[float, float]) -> None:
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y, "id": k}
                                                                         for k, (x, y) in enumerate(points)]})


@pytest.mark.parametrize("graph", ["board", "score-chart"])
def test_one_finger_on_a_graph_scrolls_the_page(browser: Any, live_server: LiveServer, graph: str) -> None:
    """Plotly cancels the page's scroll under a finger on a graph; here the finger scrolls the page."""
    page = phone(browser)
    try:
        open_replay(page, live_server, live_server.by_game["tri-ominos"], "?step=40")
        page.wait_for_selector("#replay-controls[data-frames='ready']")
        page.wait_for_selector(f"#{graph} .js-plotly-plot .main-svg")
        cdp = page.context.new_cdp_session(page)
        page.evaluate("y => window.scrollTo(0, y - 100)", page.locator(f"#{graph}").bounding_box()["y"])
        box = page.locator(f"#{graph}").bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 300)
        before = page.evaluate("() => window.scrollY")
        touch(cdp, "touchStart", (x, y))
        for k in range(1, 13):
            touch(cdp, "touchMove", (x, y - 20 * k))
        touch(cdp, "touchEnd")
        page.wait_for_timeout(200)
        assert page.evaluate("() => window.scrollY") >= before + 150
    finally:
        page.context.close()


def test_two_fingers_zoom_the_board_and_pinching_back_out_restores_it(browser: Any, live_server: LiveServer) -> None:
    page = phone(browser)
    try:
        open_replay(page, live_server, live_server.by_game["tri-ominos"], "?step=40")
        page.wait_for_selector("#replay-controls[data-frames='ready']")
        page.wait_for_timeout(300)
        cdp = page.context.new_cdp_session(page)
        page.evaluate("y => window.scrollTo(0, y - 100)", page.locator("#board").bounding_box()["y"])
        box = page.locator("#board").bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        ranges = "() => document.querySelector('#board .js-plotly-plot')._fullLayout.xaxis.range.slice()"
        whole = page.evaluate(ranges)
        touch(cdp, "touchStart", (x - 30, y), (x + 30, y))
        for k in range(1, 9):
            touch(cdp, "touchMove", (x - 30 - 10 * k, y), (x + 30 + 10 * k, y))
        touch(cdp, "touchEnd")
        page.wait_for_function("w => { const r = document.querySelector('#board .js-plotly-plot')._fullLayout"
                               ".xaxis.range; return r[1] - r[0] < 0.6 * (w[1] - w[0]); }", arg=whole)
        assert page.evaluate("() => window.visualViewport.scale") == 1  # the board zoomed, not the page
        shot(page, "phone-replay-zoomed")
        touch(cdp, "touchStart", (x - 110, y), (x + 110, y))
        for k in range(1, 9):
            touch(cdp, "touchMove", (x - 110 + 12 * k, y), (x + 110 - 12 * k, y))
        touch(cdp, "touchEnd")
        page.wait_for_function("w => { const r = document.querySelector('#board .js-plotly-plot')._fullLayout"
                               ".xaxis.range; return Math.abs((r[1] - r[0]) - (w[1] - w[0])) < 1e-6; }", arg=whole)
    finally:
        page.context.close()
