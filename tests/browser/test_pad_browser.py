"""The scorepad in a real headless Chromium: sign in, start a match on /record, then record a whole match
of every game through the pad only — clicking the point-and-click path for some moves (buttons, and
targets on the board), typing the notation for the others — and compare what was stored with the log
(Tri-Ominos in the quick run, every game in CI's full run: see `games_quick`).
Refusals, a recorder's rewind, the session after /logout and after revoking the token, a 409, a retry
after a lost answer, the hints switch, and the pad at phone and laptop widths (screenshots)."""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest

from dashboard.model import PadMove, build_position
from projections.errors import IllegalEvent
from projections.events import Event
from projections.notation import parse_line, to_notation
from projections.options import parse_options
from projections.registry import game_title, get_game
from projections.scores import scores_json
from projections.timeline import fold_dicts
from recorder.demo import PLAYERS
from recorder.log.file import import_lines
from tests.support.browser import LiveServer, games_quick, shot

pytestmark = pytest.mark.browser

SHORT = {"tri-ominos": {"target_score": 60}, "high-five": {"target_score": 25}, "hi-spot": {"target_score": 40},
         "hats-off": {"target_score": 50}}
SEED = 11

ECHO_STARTS = "s => document.querySelector('#pad-echo').innerText.startsWith(s)"
# The step was taken: the crumbs show the path so far, or the move is the one left ("Record …").
STEP_TAKEN = """([crumbs, line]) => {
  const chosen = document.querySelector('#pad-chosen');
  return (chosen && chosen.innerText === crumbs)
    || [...document.querySelectorAll('#pad-steps button[data-line]')].some(b => b.dataset.line === line);
}"""
TARGET_XY = """value => {
  const gd = document.querySelector('#pad-board .js-plotly-plot');
  if (!gd || !gd.data) { return null; }
  for (const t of gd.data) {
    const k = (t.customdata || []).indexOf(value);
    if (k < 0) { continue; }
    const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, box = gd.getBoundingClientRect();
    return [box.left + xa._offset + xa.l2p(t.x[k]), box.top + ya._offset + ya.l2p(t.y[k])];
  }
  return null;
}"""


def match_log(game: str, players: int = 3, seed: int = SEED) -> list[dict[str, Any]]:
    return get_game(game).random_match(random.Random(seed), PLAYERS[:players], dict(SHORT[game]))


def imported(server: LiveServer, log: list[dict[str, Any]]) -> str:
    """A new match of `log` for one test (a meta of its own: the same file imported twice is one match)."""
    start = {**log[0], "data": {**log[0]["data"], "meta": {"test": uuid.uuid4().hex}}}
    return str(server.sb.import_log(import_lines([start, *log[1:]]), "desk-0")["match_id"])


def open_pad(page: Any, server: LiveServer, match_id: str) -> None:
    page.goto(f"{server.url}/record/{match_id}")
    page.wait_for_selector("#move-input")
    page.wait_for_selector("#pad-board .js-plotly-plot .main-svg")


def type_line(page: Any, line: str) -> None:
    page.click("#move-input")
    page.locator("#move-input").press_sequentially(line)  # key by key, each key's events handled before the next
    page.press("#move-input", "Enter")


def wait_echo(page: Any, seq: int) -> str:
    page.wait_for_function(ECHO_STARTS, arg=f"#{seq} ")
    return str(page.inner_text("#pad-echo"))


def wait_refused(page: Any) -> str:
    page.wait_for_function("() => document.querySelector('#pad-echo').classList.contains('refused')")
    return str(page.inner_text("#pad-echo"))


def tap_target(page: Any, value: str) -> None:
    """Tap a target the board draws for `value`, in the middle of the screen (not under the sticky top)."""
    xy = page.evaluate(TARGET_XY, value)
    assert xy is not None, f"no target {value!r} on the board"
    page.evaluate("y => window.scrollBy(0, y - window.innerHeight * 0.6)", xy[1])
    xy = page.evaluate(TARGET_XY, value)
    page.mouse.click(xy[0], xy[1])


def click_path(page: Any, move: PadMove, use_board: bool) -> None:
    """Choose `move` step by step (a button, or a target on the board for a "board" step), then Record."""
    record = page.locator(f'#pad-steps button[data-line="{move.notation}"]')
    for j, step in enumerate(move.path):
        if record.count():
            break
        if step.kind == "board" and use_board:
            tap_target(page, step.value)
        else:
            page.locator(f'#pad-steps button[data-value="{step.value}"]').click()
        crumbs = " › ".join(s.label for s in move.path[: j + 1])
        page.wait_for_function(STEP_TAKEN, arg=[crumbs, move.notation])
    record.click()


def start_through_the_form(page: Any, server: LiveServer, game: str, names: list[str],
                           options: dict[str, Any]) -> str:
    page.goto(server.url + "/record")
    page.wait_for_selector("#new-start")
    page.locator("#new-game label", has_text=game_title(game)).click()
    wanted = sorted(get_game(game).descriptor.options)
    page.wait_for_function(
        "names => JSON.stringify([...document.querySelectorAll('[data-option]')].map(e => e.dataset.option).sort())"
        " === JSON.stringify(names)", arg=wanted)
    while page.locator(".player-row:not([hidden])").count() < len(names):
        shown = page.locator(".player-row:not([hidden])").count()
        page.click("#new-player-add")
        page.wait_for_function("n => document.querySelectorAll('.player-row:not([hidden])').length > n", arg=shown)
    for i, name in enumerate(names):
        page.fill(f"#new-player-{i}", name)
    page.click(".record-new details summary")
    for key, value in options.items():
        page.fill(f'[data-option="{key}"] input', str(value))
    page.fill("#new-date", "")
    page.click("#new-start")
    page.wait_for_url(f"{server.url}/record/*")
    page.wait_for_selector("#move-input")
    return str(page.url.rsplit("/", 1)[1])


# -- a whole match through the pad ---------------------------------------------------------------------


# Tri-Ominos in the quick run: hands dealt and tiles drawn (hidden) are typed, placements clicked on the board with
# a rotation, a pass clicked, three players, options through the form.
@pytest.mark.parametrize("game", games_quick("tri-ominos"))
def test_a_whole_match_recorded_through_the_pad_equals_the_log(signed_in: Any, live_server: LiveServer,
                                                               game: str) -> None:
    page = signed_in("recorder")
    g = get_game(game)
    log = match_log(game)
    players = log[0]["data"]["players"]
    match_id = start_through_the_form(page, live_server, game, [p["name"] for p in players], SHORT[game])
    fold = fold_dicts(log)
    clicked = typed = board_taps = 0
    for i, event in enumerate(log[1:], start=1):  # the pad shows seq i; the event becomes seq i + 1
        move = next((m for m in build_position(match_id, fold.at(i)).moves if m.path and m.event == event), None)
        if move is not None and clicked <= typed:
            use_board = any(s.kind == "board" for s in move.path) and board_taps <= clicked // 2
            click_path(page, move, use_board)
            clicked += 1
            board_taps += use_board
        else:
            type_line(page, to_notation(g, event))
            typed += 1
        echo = wait_echo(page, i + 1)
        assert f" {event['type']}: " in echo
    stored = live_server.sb.events(match_id)
    assert [{"type": e["type"], "data": e["data"]} for e in stored[1:]] == log[1:]
    started = stored[0]["data"]
    assert started["players"] == players and started["game"] == game
    assert parse_options(started.get("options"), g.descriptor.options, game) == \
        parse_options(log[0]["data"].get("options"), g.descriptor.options, game)
    expected = scores_json(fold, match_id)
    sheet = live_server.sb.scores(match_id)
    assert sheet["players"] == expected["players"] and sheet["winners"] == expected["winners"]
    assert clicked and typed, (clicked, typed)
    final = {p["id"]: p["score"] for p in expected["players"]}
    for pid, score in final.items():
        assert page.locator(f'.total-chip[data-player="{pid}"] .total-score').inner_text() == str(score)
    if any(s.kind == "board" for m in build_position(match_id, fold.at(1)).moves for s in m.path) or board_taps:
        assert board_taps, "no board target was tapped"
    assert {e["recorded_by"] for e in stored} == {page.token_name}


# Hi-Spot in the quick run: the pad shows a refusal the same way for every game (the reasons are each game's own
# rules, tested without a browser with each game).
@pytest.mark.parametrize("game", games_quick("hi-spot"))
def test_a_refused_move_shows_its_reason_and_stores_nothing(signed_in: Any, live_server: LiveServer,
                                                           game: str) -> None:
    g = get_game(game)
    log = match_log(game)
    fold = fold_dicts(log)
    # A position and a later event of the log that reads in it but breaks a rule there.
    found = None
    for k in range(len(log) // 3, len(log) - 1):
        state = fold.state_at(k)
        for later in log[k + 5:]:
            line = to_notation(g, later)
            try:
                event = parse_line(g, state, line)
                g.apply(state, Event(k + 1, event["type"], event["data"]))
            except IllegalEvent as e:
                if "not understood" not in e.reason:
                    found = (k, line, e.reason)
                    break
        if found:
            break
    assert found, f"no refusable line found in a {game} match"
    k, line, reason = found
    match_id = imported(live_server, log[:k])
    page = signed_in("recorder")
    open_pad(page, live_server, match_id)
    type_line(page, line)
    echo = wait_refused(page)
    assert reason in echo, (echo, reason)
    assert page.input_value("#move-input") == line  # the typed line is kept
    assert live_server.sb.fold(match_id).seq == k
    shot(page, f"pad-{game}-refused")


def test_a_line_template_starts_the_line_and_the_tiles_typed_finish_it(signed_in: Any,
                                                                         live_server: LiveServer) -> None:
    g = get_game("tri-ominos")
    log = match_log("tri-ominos", players=2)
    k = next(i for i, e in enumerate(log) if e["type"] == "tiles_dealt")  # the first deal: typed, never clicked
    deal = log[k]
    match_id = imported(live_server, log[:k])
    page = signed_in("recorder")
    open_pad(page, live_server, match_id)
    prefix = f"deal {deal['data']['player']} "
    page.click(f'#pad-templates button[data-template="{prefix}"]')
    assert page.input_value("#move-input") == prefix
    assert page.evaluate("() => document.activeElement.id") == "move-input"
    line = to_notation(g, deal)
    page.keyboard.type(line[len(prefix):])  # key by key: the cursor is on the line, after the prefix
    page.keyboard.press("Enter")
    wait_echo(page, k + 1)
    stored = live_server.sb.fold(match_id).event(k + 1)
    assert (stored.type, stored.data) == (deal["type"], deal["data"])


# -- who may write -------------------------------------------------------------------------------------


def test_a_recorder_cannot_rewind_and_a_referee_undoes_with_a_reason(signed_in: Any, live_server: LiveServer) -> None:
    log = match_log("hats-off")
    match_id = imported(live_server, log[:6])
    page = signed_in("recorder")
    open_pad(page, live_server, match_id)
    assert page.text_content("#whoami-role") == "recorder"
    assert page.locator("#pad-undo").count() == 0
    type_line(page, "rewind 5 the hat bounced out")
    assert "only a referee may rewind" in wait_refused(page)
    assert live_server.sb.fold(match_id).seq == 6

    referee = signed_in("referee")
    open_pad(referee, live_server, match_id)
    assert referee.text_content("#whoami-role") == "referee"
    referee.click("#pad-undo")
    referee.fill("#pad-undo-reason", "the hat bounced out")
    referee.click("#pad-undo-confirm")
    echo = wait_echo(referee, 7)
    assert "rewind to #5: the hat bounced out" in echo
    fold = live_server.sb.fold(match_id)
    assert fold.event(7).type == "rewind" and fold.superseded_by == {6: 7}
    assert "superseded" in (referee.locator('.pad-event[data-seq="6"]').get_attribute("class") or "")
    assert referee.inner_text("#pad-undo") == "Undo #5…"
    shot(referee, "pad-undo")


def test_the_session_is_refused_after_logout_and_after_the_token_is_revoked(signed_in: Any,
                                                                             live_server: LiveServer) -> None:
    match_id = imported(live_server, match_log("hats-off")[:2])
    page = signed_in("recorder")
    open_pad(page, live_server, match_id)
    stale = page.context.new_page()  # a second tab on the pad, left open
    open_pad(stale, live_server, match_id)
    page.click("#signout")  # POST /logout
    page.wait_for_url(f"{live_server.url}/login*")
    page.goto(f"{live_server.url}/record/{match_id}")
    page.wait_for_selector("#signin-prompt")
    assert page.locator("#move-input").count() == 0
    assert "/login?next=" in (page.get_attribute("#signin-prompt", "href") or "")
    type_line(stale, "ann 1 ann9")
    assert "signed out" in wait_refused(stale)
    assert live_server.sb.fold(match_id).seq == 2

    other = signed_in("recorder")
    open_pad(other, live_server, match_id)
    assert live_server.sb.revoke_token(other.token_id)
    type_line(other, "ann 1 ann9")
    assert "signed out" in wait_refused(other)
    assert live_server.sb.fold(match_id).seq == 2
    other.reload()
    other.wait_for_selector("#signin-prompt")
    assert other.locator("#move-input").count() == 0


# -- a flaky network -------------------------------------------------------------------------------------


def test_someone_else_recording_first_reloads_the_pad_and_keeps_the_line(signed_in: Any,
                                                                           live_server: LiveServer) -> None:
    match_id = imported(live_server, match_log("hats-off")[:2])
    page = signed_in("recorder")
    open_pad(page, live_server, match_id)
    live_server.sb.append(match_id, [{"type": "hat_launched", "data": {"player": "bo", "hat": 1, "to": "off"}}], 2,
                          "desk-2")
    type_line(page, "ann 4 ann9")
    page.wait_for_function("() => document.querySelector('#pad-echo').classList.contains('conflict')")
    assert "#3" in page.inner_text("#pad-echo")
    assert page.input_value("#move-input") == "ann 4 ann9"
    assert page.locator('.pad-event[data-seq="3"]').count() == 1  # the other desk's event is shown
    page.press("#move-input", "Enter")  # checked against the board: send it again
    assert "Ann" in wait_echo(page, 4)
    assert live_server.sb.fold(match_id).seq == 4


def test_a_retry_after_a_lost_answer_reuses_the_event_id_and_stores_once(signed_in: Any,
                                                                          live_server: LiveServer) -> None:
    match_id = imported(live_server, match_log("hats-off")[:2])
    page = signed_in("recorder")
    page.allow("Callback failed: the server did not respond")  # Dash's words for the answer this test drops
    page.allow("net::ERR_FAILED")
    page.clock.install()  # the page's timers, to run on through the pad's wait for an answer (below)
    open_pad(page, live_server, match_id)
    sent: list[dict[str, Any]] = []

    def lose_first_answer(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        if "pad-send.data" not in body.get("changedPropIds", []):
            route.continue_()
            return
        sent.append(next(i["value"] for i in body["inputs"] if i["id"] == "pad-send"))
        if len(sent) == 1:
            route.fetch()  # the server stores the event …
            route.abort("failed")  # … and its answer never arrives
        else:
            route.continue_()

    page.route("**/_dash-update-component*", lose_first_answer)
    with page.expect_event("requestfailed", lambda r: "_dash-update-component" in r.url):
        type_line(page, "ann 4 ann9")
    page.clock.fast_forward(8_000)  # no answer for as long as the pad waits for one (NO_ANSWER_MS in pad.js)
    page.wait_for_selector("#pad-net.stalled")
    assert "at most once" in page.inner_text("#pad-net")
    assert live_server.sb.fold(match_id).seq == 3  # stored, though the pad never heard
    page.press("#move-input", "Enter")
    echo = wait_echo(page, 3)
    assert "already recorded" in echo
    assert len(sent) == 2 and sent[0]["event_id"] == sent[1]["event_id"] and sent[0]["seq"] == sent[1]["seq"] == 2
    assert live_server.sb.fold(match_id).seq == 3
    assert page.input_value("#move-input") == ""


# -- hints, suggestions, the form --------------------------------------------------------------------------


def test_hints_switch_off_the_suggestions_and_the_click_path(signed_in: Any, live_server: LiveServer) -> None:
    log = match_log("hats-off")
    match_id = imported(live_server, log[:3])
    page = signed_in("recorder")
    open_pad(page, live_server, match_id)
    position = build_position(match_id, live_server.sb.fold(match_id))
    page.wait_for_function("n => document.querySelectorAll('#pad-moves option').length === n",
                           arg=len(position.moves))
    options = page.eval_on_selector_all("#pad-moves option", "os => os.map(o => o.value)")
    assert sorted(options) == sorted(position.notations)
    assert page.get_attribute("#move-input", "list") == "pad-moves"
    page.locator(".pad-hints label").click()
    page.wait_for_function("() => document.querySelectorAll('#pad-moves option').length === 0")
    assert page.locator("#pad-steps button").count() == 0
    assert "Hints are off" in page.inner_text("#pad-steps")
    type_line(page, to_notation(get_game("hats-off"), log[3]))  # the keyboard line still records
    wait_echo(page, 4)
    page.reload()  # the switch is remembered on this device
    page.wait_for_selector("#pad-steps")
    page.wait_for_function("() => document.querySelector('#pad-steps').innerText.includes('Hints are off')")
    page.locator(".pad-hints label").click()
    page.wait_for_function("() => document.querySelectorAll('#pad-steps button').length > 0")


def test_the_new_match_form_refuses_inline_and_suggests_earlier_players(signed_in: Any,
                                                                         live_server: LiveServer) -> None:
    page = signed_in("recorder")
    page.goto(live_server.url + "/record")
    page.wait_for_selector("#new-start")
    known = page.eval_on_selector_all("#known-players option", "os => os.map(o => o.value)")
    assert {"Ann", "Bo", "Cy"} <= set(known)
    assert page.get_attribute("#new-player-0", "list") == "known-players"
    page.locator("#new-game label", has_text="Hats Off").click()
    page.wait_for_selector('[data-option="target_score"]', state="attached")
    page.click(".record-new details summary")
    assert page.input_value('[data-option="target_score"] input') == "75"  # the descriptor's default
    page.fill("#new-player-0", "Ann")
    page.click("#new-start")
    page.wait_for_function("() => document.querySelector('#new-error').innerText.includes('seat 2 needs a name')")
    # Two quick clicks, two rows (quick clicks against a slow server: test_record_form_browser.py).
    page.click("#new-player-add")
    page.click("#new-player-add")
    page.wait_for_selector("#new-player-row-3:not([hidden])")
    assert page.is_disabled("#new-player-add")  # Hats Off takes 2–4
    page.fill("#new-player-1", "Bo Lee")
    page.fill("#new-player-2", "Cy")
    page.fill("#new-player-3", "Dee")
    page.click("#new-player-remove-2")
    page.wait_for_selector("#new-player-row-3[hidden]", state="attached")
    assert [page.input_value(f"#new-player-{i}") for i in range(3)] == ["Ann", "Bo Lee", "Dee"]
    page.fill("#new-round", "2")
    page.fill("#new-table", "5")
    shot(page, "record-new-match")
    page.click("#new-start")
    page.wait_for_url(f"{live_server.url}/record/*")
    match_id = page.url.rsplit("/", 1)[1]
    data = live_server.sb.events(match_id)[0]["data"]
    assert data["players"] == [{"id": "ann", "name": "Ann"}, {"id": "bo-lee", "name": "Bo Lee"},
                               {"id": "dee", "name": "Dee"}]
    assert data["meta"]["round"] == 2 and data["meta"]["table"] == 5 and "options" not in data
    page.wait_for_selector("#move-input")
    assert page.locator(f'.continue-link[href="/record/{match_id}"]').count() == 0  # we are on the pad


# -- the pad on a phone and on a laptop --------------------------------------------------------------------


# Hats Off in the quick run: its board is wider than a phone (it scrolls in its own frame) and its pad offers the
# longest list of step buttons.
@pytest.mark.parametrize("game", games_quick("hats-off"))
def test_the_pad_fits_a_phone_and_a_laptop(signed_in: Any, live_server: LiveServer, game: str) -> None:
    log = match_log(game, players=3, seed=4)
    fold = fold_dicts(log)
    # From about 2/5 of the match on, the first position with a choice of places: the screenshots show targets.
    k = next((k for k in range(len(log) * 2 // 5, len(log)) if len(build_position("m", fold.at(k)).moves) > 1
              and any(s.kind == "board" for m in build_position("m", fold.at(k)).moves for s in m.path)),
             len(log) * 2 // 5)
    match_id = imported(live_server, log[:k])
    for width, height in ((390, 844), (768, 1024), (1280, 900)):
        page = signed_in("referee", width, height)
        open_pad(page, live_server, match_id)
        page.wait_for_timeout(300)  # the board's first draw
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width  # nothing wider than the screen
        for selector in ("#move-input", "#pad-totals", "#pad-echo"):
            box = page.locator(selector).bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (width, selector, box)
        first = page.locator("#pad-steps button.kind-hand").first  # a picked tile or hat: targets on the board
        if first.count():
            first.click()
            page.wait_for_selector("#pad-chosen")
        if width in (390, 1280):
            shot(page, f"pad-{game}-{width}")
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # the line stays on top
        page.wait_for_timeout(100)
        box = page.locator("#move-input").bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height, (width, "sticky", box)
        for button in page.locator("#pad-steps button").all()[:10]:
            b = button.bounding_box()
            assert b is not None and b["height"] >= 40, (width, b)  # a finger's touch target
        page.context.close()
