"""The statistics page's counting rules and the player pages in a real Chromium (screenshots in test-artifacts)."""

from __future__ import annotations

from typing import Any

import pytest

from dashboard.pages import stats as stats_page
from projections import stats
from tests.support.browser import LiveServer, shot

pytestmark = pytest.mark.browser

GRAPH_DATA = "id => { const g = document.querySelector('#' + id + ' .js-plotly-plot'); return g ? g.data : null; }"


def graph(page: Any, graph_id: str) -> list[dict[str, Any]]:
    page.wait_for_function(f"() => {{ const d = ({GRAPH_DATA})('{graph_id}'); return d && d.length > 0; }}")
    return list(page.evaluate(GRAPH_DATA, graph_id))


def test_bonuses_and_penalties_are_charted_apart(page: Any, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/stats?game=tri-ominos")
    bonus = {t["name"]: dict(zip(t["x"], t["y"], strict=True)) for t in graph(page, "stats-bonus")}
    penalties = {t["name"]: dict(zip(t["x"], t["y"], strict=True)) for t in graph(page, "stats-penalties")}
    facts = [f for f in stats.distinct(stats_page.all_facts(live_server.sb)) if f.game == "tri-ominos"]
    names = stats.player_names(facts)
    want = stats.tag_counts(facts, kind="penalty")
    assert penalties == {names[p]: {"draws": c["draw"], "passes": c["pass"]} for p, c in want.items()}
    assert all(not {"draws", "passes"} & set(counts) for counts in bonus.values())
    subtitle = page.inner_text("#stats-bonus-sub")
    assert subtitle.startswith("Tri-Ominos: bonuses only")
    subtitles = page.locator(".chart-card p.small").all_inner_texts()
    assert len(subtitles) == 7 and all("Tri-Ominos" in text for text in subtitles)
    for other in ("High Five", "Hi-Spot", "Hats Off"):
        assert not [text for text in subtitles if other in text]
    summary = page.inner_text("#stats-summary")
    in_progress = sum(1 for f in facts if not f.finished)
    assert summary.startswith(f"Tri-Ominos: {len(facts)} matches") and f"{in_progress} in progress" in summary
    # Other browser tests may have added matches to the shared server: the words follow the count.
    words = f"{in_progress} match{'es' if in_progress != 1 else ''} in progress left out"
    assert in_progress and words in page.inner_text("#stats-trend-sub")
    page.wait_for_selector("#stats-players .player-link")
    shot(page, "stats-counting-tri-ominos")


def test_player_names_lead_to_the_player_page(page: Any, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/stats?game=hats-off")
    link = page.locator("#stats-players .player-link").first
    link.wait_for()
    name = link.inner_text()
    link.click()
    page.wait_for_selector("#player-name")
    assert page.inner_text("#player-name") == name
    pid = page.url.rsplit("/players/", 1)[1]
    facts = stats.filter_facts(stats.distinct(stats_page.all_facts(live_server.sb)), player=pid)
    assert page.locator("#player-matches tr.player-match").count() == len(facts)
    page.wait_for_selector("#player-trend .js-plotly-plot .main-svg")
    trend = graph(page, "player-trend")
    assert sum(len(t["y"]) for t in trend) == sum(1 for f in facts if f.finished)
    shot(page, "player-page")
    first = page.locator("#player-matches tr.player-match").first
    match_id = first.get_attribute("data-match")
    first.locator(".replay-link").click()
    page.wait_for_url(f"**/matches/{match_id}*")
    page.wait_for_selector("#board .js-plotly-plot .main-svg")


def test_the_match_list_links_to_the_players(page: Any, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    chip = page.locator("#matches-table .player-link").first
    chip.wait_for()
    name = chip.inner_text()
    chip.click()
    page.wait_for_selector("#player-name")
    assert page.inner_text("#player-name") == name
    page.click("#nav-players")
    page.wait_for_selector(".page.players .player-link")
    assert name in page.inner_text(".page.players")


def test_hi_spot_board_shows_what_the_dot_colours_mean(page: Any, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/matches/{live_server.by_game['hi-spot']}?step=40")
    page.wait_for_selector("#board .js-plotly-plot .main-svg")
    page.wait_for_function("() => document.querySelector('#board').innerText.includes('Dot colour')")
    assert "tile 1 (bottom)" in page.inner_text("#board")
    shot(page, "hi-spot-legend")
