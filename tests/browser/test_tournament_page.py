"""A tournament's page, the ratings and a rated player's page in a real Chromium: the round sheet and the
standings are shown, the round picker switches rounds, the printed page is the sheet without the header and
the links, and a phone's 390 px take the pages without sideways scrolling (screenshots in test-artifacts)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from recorder.facade import Scorebook
from scorebook.app import build_app
from tests.support.browser import ARTIFACTS, shot
from tests.support.clubs import NAMES, build_club
from tests.support.servers import served

pytestmark = pytest.mark.browser


class Club:
    def __init__(self, url: str, sb: Scorebook, tid: str) -> None:
        self.url, self.sb, self.tid = url, sb, tid


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Club]:
    """Its own server (the shared one's matches stay as the other browser tests expect them)."""
    sb, tid, _ = build_club(tmp_path_factory.mktemp("club-browser") / "x.db")
    with served(build_app(sb)) as url:
        yield Club(url, sb, tid)
    sb.close()


@pytest.fixture
def sized(browser: Any) -> Iterator[Any]:
    """`sized(width, height)`: a page of that viewport; console errors fail the test as with `page`."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(width: int, height: int = 900) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
        contexts.append(context)
        p = context.new_page()
        p.on("console", lambda msg: errors.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None)
        p.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
        p.set_default_timeout(15_000)
        return p

    yield make
    for context in contexts:
        context.close()
    assert not errors, "browser console errors:\n" + "\n".join(errors)


def open_sheet(page: Any, club: Club, search: str = "") -> None:
    page.goto(f"{club.url}/tournaments/{club.tid}{search}")
    page.wait_for_selector("#round-sheet .table-block")
    page.wait_for_selector("#standings tr.standing")


def overflow(page: Any) -> int:
    return int(page.evaluate("() => document.documentElement.scrollWidth"))


def test_the_nav_leads_to_the_tournament(sized: Any, club: Club) -> None:
    page = sized(1400)
    page.goto(club.url + "/")
    page.click("#nav-tournaments")
    page.wait_for_selector("#tournaments-table .tournament-link")
    page.click("#tournaments-table .tournament-link")
    page.wait_for_selector("#round-sheet .table-block")
    assert page.url.endswith(f"/tournaments/{club.tid}")
    page.click("#nav-ratings")
    page.wait_for_selector("#ratings-table tr.rating-row")


def test_the_sheet_the_standings_and_the_round_picker(sized: Any, club: Club) -> None:
    page = sized(1400)
    open_sheet(page, club)
    state = club.sb.clubs.tournament(club.tid)
    sheet = page.locator("#round-sheet")
    assert sheet.is_visible() and sheet.get_attribute("data-round") == "2"
    blocks = page.locator("#round-sheet .table-block[data-table]")
    assert blocks.count() == 2
    for i, table in enumerate(state.round(2).tables):
        seats = blocks.nth(i).locator("tr.seat .player-link").all_inner_texts()
        assert seats == [NAMES[p] for p in table.seats]
        assert blocks.nth(i).locator(".replay-link").get_attribute("href") == f"/matches/{table.match_id}"
    assert NAMES[state.round(2).byes[0]] in page.inner_text("#round-byes")
    standings = club.sb.clubs.standings(club.tid)
    rows = page.locator("#standings tr.standing")
    assert rows.count() == len(standings) and rows.first.is_visible()
    assert page.locator("#standings tr.standing .player-link").all_inner_texts() == [s.name for s in standings]
    assert "Round 2, table 2" in page.inner_text("#missing-results")
    assert page.locator("#download-standings").get_attribute("href") == (
        f"/api/tournaments/{club.tid}/standings?format=csv")
    response = page.request.get(club.url + page.locator("#download-standings").get_attribute("href"))
    assert response.ok and response.text().startswith("rank,player,name,match_points")

    page.click("#round-picker a[data-round='1']")
    page.wait_for_url(f"**/tournaments/{club.tid}?round=1")
    page.wait_for_selector("#round-sheet[data-round='1'] .table-block")
    assert page.inner_text("#sheet-title") == "Round 1 of 3"
    assert page.locator("#round-picker .current").inner_text() == "Round 1"
    for i, table in enumerate(state.round(1).tables):
        block = page.locator("#round-sheet .table-block[data-table]").nth(i)
        assert table.result is not None
        scores = block.locator("td.seat-score").all_inner_texts()
        assert scores == [str(table.result.totals[p]) for p in table.seats]
        assert block.locator("tr.winner .player-link").all_inner_texts() == [NAMES[p] for p in table.result.winners]
    assert overflow(page) <= 1400
    shot(page, "tournament-page-1400")

    page.emulate_media(media="print")
    assert page.locator("header.top").is_hidden()
    assert page.locator("#round-picker").is_hidden()
    assert page.locator("#tournament-downloads").is_hidden()
    assert page.locator("#missing-results").is_hidden()
    assert page.locator("#round-sheet").is_visible() and page.locator("#standings").is_visible()
    avoid = page.evaluate("() => [...document.querySelectorAll('.table-block')].map(b => getComputedStyle(b)"
                          ".breakInside)")
    assert avoid and set(avoid) == {"avoid"}
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi: the sheet as it goes on paper
    assert overflow(page) <= 794
    shot(page, "tournament-print-a4")
    ARTIFACTS.mkdir(exist_ok=True)
    pdf = ARTIFACTS / "tournament-round-sheet.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=False)
    assert pdf.stat().st_size > 5_000 and Path(pdf).read_bytes().startswith(b"%PDF")
    page.emulate_media(media="screen")
    assert page.locator("header.top").is_visible()


@pytest.mark.parametrize("width", [390, 1400])
def test_the_club_pages_fit_the_screen(sized: Any, club: Club, width: int) -> None:
    page = sized(width, 844 if width == 390 else 900)
    open_sheet(page, club)
    assert overflow(page) <= width, f"the tournament page is {overflow(page)} px wide at {width}"
    assert page.locator("#standings").is_visible()
    shot(page, f"tournament-page-{width}-round-2")
    page.goto(club.url + "/ratings")
    page.wait_for_selector("#ratings-history .js-plotly-plot .main-svg")
    assert overflow(page) <= width, f"the ratings page is {overflow(page)} px wide at {width}"
    assert page.locator("#ratings-table tr.rating-row").count() == len(club.sb.clubs.ratings()["hats-off"].players)
    shot(page, f"ratings-{width}")
    best = next(iter(club.sb.clubs.ratings()["hats-off"].players))
    page.goto(f"{club.url}/players/{best}")
    page.wait_for_selector("#player-rating-hats-off .js-plotly-plot .main-svg")
    assert page.inner_text("#player-club") == "Club: Elm Club"
    assert overflow(page) <= width, f"the player page is {overflow(page)} px wide at {width}"
    shot(page, f"player-rating-{width}")
