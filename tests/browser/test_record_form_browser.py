"""The new-match form's seat rows, counted in the browser (`scorepad.seats` in dashboard/assets/pad.js): quick
clicks on "+ Add player" each add a row; a row's ✕ removes that player and moves the later ones up; the rows stay
within the chosen game's fewest and most players."""

from __future__ import annotations

from typing import Any

from tests.support.browser import LiveServer, shot

# Dash's callback requests answered 0.8 s late: what a busy club server or a slow network does.
SLOW_SERVER = """() => {
  const fetch = window.fetch;
  window.fetch = (...args) => String(args[0]).includes('_dash-update-component')
    ? new Promise(done => setTimeout(done, 800)).then(() => fetch(...args)) : fetch(...args);
}"""
ROWS = "() => [...document.querySelectorAll('.player-row:not([hidden]) input')].map(i => i.value)"


def _rows(page: Any) -> list[str]:
    return list(page.evaluate(ROWS))


def _wait_rows(page: Any, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('.player-row:not([hidden])').length === {count}")


def test_quick_clicks_each_add_a_row_and_the_rows_follow_the_game(signed_in: Any, live_server: LiveServer) -> None:
    page = signed_in("recorder")
    page.goto(live_server.url + "/record")
    page.wait_for_selector("#new-start")
    page.locator("#new-game label", has_text="High Five").click()  # 2–8 players
    page.wait_for_function("() => document.querySelector('#new-players-hint').innerText === '(2–8 players)'")
    _wait_rows(page, 2)
    assert page.is_hidden("#new-player-remove-0")  # at the fewest, no row can go
    # Three clicks one after the other while the server is slow to answer: three rows. (Counted by a server
    # callback, every click's request carried the count from before the first answer: one row.)
    page.evaluate(SLOW_SERVER)
    for _ in range(3):
        page.click("#new-player-add")
    _wait_rows(page, 5)
    for i, name in enumerate(["Ann", "Bo", "Cy", "Dee", "Eli"]):
        page.fill(f"#new-player-{i}", name)
    page.click("#new-player-remove-1")  # Bo goes; the later players move up a seat
    _wait_rows(page, 4)
    assert _rows(page) == ["Ann", "Cy", "Dee", "Eli"]
    assert not page.is_disabled("#new-player-add")

    page.locator("#new-game label", has_text="Hats Off").click()  # 2–4: four rows is the most
    page.wait_for_function("() => document.querySelector('#new-players-hint').innerText === '(2–4 players)'")
    page.wait_for_selector('[data-option="target_score"]', state="attached")  # the server drew its options
    assert _rows(page) == ["Ann", "Cy", "Dee", "Eli"]
    assert page.is_disabled("#new-player-add")
    shot(page, "record-form-hats-off-four-players")

    page.click("#new-player-remove-0")
    page.click("#new-player-remove-0")
    _wait_rows(page, 2)
    assert page.is_hidden("#new-player-remove-0")
    page.dispatch_event("#new-player-remove-0", "click")  # a click that still arrives on the hidden ✕
    page.click("#new-player-add")  # counted after it
    _wait_rows(page, 3)
    assert _rows(page) == ["Dee", "Eli", ""]  # the ✕ removed no one: never fewer than the fewest
    page.click("#new-player-remove-2")
    _wait_rows(page, 2)
    page.click("#new-start")
    page.wait_for_url("**/record/*")  # and the match starts with those two, in that order
    match_id = page.url.rsplit("/", 1)[1]
    assert [p["name"] for p in live_server.sb.summary(match_id)["players"]] == ["Dee", "Eli"]


def test_the_new_match_form_fits_a_phone(signed_in: Any, live_server: LiveServer) -> None:
    """At 390 px (a phone held upright) the form is a column: nothing wider than the screen, each seat row's label,
    input and ✕ side by side and within it, the start button reachable."""
    page = signed_in("recorder", width=390, height=844)
    page.goto(live_server.url + "/record")
    page.wait_for_selector("#new-start")
    page.locator("#new-game label", has_text="Tri-Ominos").click()
    page.click("#new-player-add")
    _wait_rows(page, 3)
    for i, name in enumerate(["Ann", "Bo", "Cy"]):
        page.fill(f"#new-player-{i}", name)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    for i in range(3):
        field, remove = page.locator(f"#new-player-{i}").bounding_box(), page.locator(
            f"#new-player-remove-{i}").bounding_box()
        assert field is not None and remove is not None
        assert 0 <= field["x"] and remove["x"] + remove["width"] <= 390  # both on the screen
        assert abs((field["y"] + field["height"] / 2) - (remove["y"] + remove["height"] / 2)) < field["height"]
    # "Seat 1" on one line beside its input (squeezed by the row, it wrapped under itself)
    heights = page.evaluate("() => [...document.querySelectorAll('.player-row:not([hidden]) .seat')]"
                            ".map(s => s.getBoundingClientRect().height)")
    assert len(heights) == 3 and max(heights) < 24
    start = page.locator("#new-start").bounding_box()
    assert start is not None and start["x"] + start["width"] <= 390
    shot(page, "record-form-phone")
