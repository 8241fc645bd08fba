"""What the statistics count (projections/stats.py, dashboard/pages/stats.py, dashboard/pages/players.py):
bonuses apart from penalties, in-progress matches out of the trends, a match imported twice counted once,
win rates with shared wins, and the facts' JSON round trip (what the `match_facts` table stores)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dash import dcc, html

from dashboard.boards import board_figure
from dashboard.boards.hi_spot import LAYER_COLOURS
from dashboard.pages import players as players_page
from dashboard.pages import stats as stats_page
from projections import stats
from projections.boxstats import box_stats
from projections.registry import GAME_NAMES, get_game
from projections.timeline import fold_dicts
from recorder.demo import PLAYERS
from recorder.facade import Scorebook
from tests.support.stats import FINISHED, REWOUND
from tests.support.tri_ominos import draw, opened, pass_turn

# Ann opens with 5-5-5 (15 + start bonus 10); Bo draws three times (−5 each) and passes (−10). In progress.
TRI_LOG = [*opened(), draw("bo"), draw("bo"), draw("bo"), pass_turn("bo")]


def facts_of(match_id: str, game: str, players: str, winners: str, totals: dict[str, int],
             finished: bool = True, date: str = "2026-10-01") -> stats.MatchFacts:
    """Facts written by hand: players and winners as space-separated ids."""
    ids = players.split()
    return stats.MatchFacts(
        match_id=match_id, game=game, date=date, players=tuple((p, p.capitalize()) for p in ids),
        finished=finished, winners=tuple(winners.split()) if finished else (), totals=totals,
        first_player=ids[0], moves=10, events=12, rounds=1, turn_points={}, fingerprint=match_id,
    )


# --- the JSON round trip -------------------------------------------------------------------------


def random_facts() -> Iterator[stats.MatchFacts]:
    for game in GAME_NAMES:
        for seed in range(4):
            players = 2 + seed % 3
            fold = fold_dicts(get_game(game).random_match(random.Random(seed), PLAYERS[:players]))
            yield stats.match_facts(fold, f"{game}-{seed}", "2026-10-0" + str(seed + 1))
            yield stats.match_facts(fold.at(max(2, fold.seq // 2)), f"{game}-{seed}-half", "2026-10-09")


def test_facts_round_trip_through_json_exactly_for_every_game() -> None:
    seen_values = False
    for facts in random_facts():
        text = json.dumps(facts.to_json())
        back = stats.MatchFacts.from_json(json.loads(text))
        assert back == facts, facts.match_id
        assert json.dumps(back.to_json()) == text
        assert all(isinstance(v, int) for c in back.values.values() for v in c)  # keys back to ints
        assert all(isinstance(c, Counter) for c in (*back.tags.values(), *back.values.values()))
        seen_values = seen_values or any(back.values.values())
    assert seen_values  # High Five's valued captures went through the string keys


def test_facts_of_another_version_are_refused() -> None:
    obj = stats.match_facts(fold_dicts(FINISHED), "m").to_json()
    assert obj["version"] == stats.FACTS_VERSION
    for other in (0, stats.FACTS_VERSION + 1, None):
        with pytest.raises(ValueError, match=f"version {other!r}"):
            stats.MatchFacts.from_json({**obj, "version": other})


# --- bonuses, penalties and the rest ---------------------------------------------------------------


def test_each_games_tags_are_sorted_by_the_descriptor() -> None:
    assert stats.charted_tags("tri-ominos", "bonus") == ("start_bonus", "hexagon", "bridge", "bridge_extension",
                                                          "going_out")
    assert stats.charted_tags("tri-ominos", "penalty") == ("draw", "pass")
    assert stats.charted_tags("tri-ominos", "other") == ()
    assert stats.charted_tags("high-five", "penalty") == () and stats.charted_tags("high-five", "other") == ("missed",)
    assert stats.charted_tags("hi-spot", "bonus") == ("full_stack", "going_out")
    assert stats.charted_tags("hi-spot", "penalty") == ("blocked",)
    assert stats.charted_tags("hi-spot", "other") == ("new_stack", "exchange")
    assert stats.charted_tags("hats-off", "penalty") == () and stats.charted_tags("hats-off", "other") == ()


def test_draws_and_passes_are_penalties_not_bonuses() -> None:
    facts = [stats.match_facts(fold_dicts(TRI_LOG), "t1", "2026-10-01")]
    assert stats.tag_counts(facts, kind="bonus") == {"ann": Counter(start_bonus=1), "bo": Counter()}
    assert stats.tag_counts(facts, kind="penalty") == {"ann": Counter(), "bo": Counter({"draw": 3, "pass": 1})}
    out = stats_page.charts(facts, "tri-ominos", None, None, None)
    bonus = {t["name"]: dict(zip(t["x"], t["y"], strict=True)) for t in out["stats-bonus"]["data"]}
    assert bonus == {"Ann": {"start bonus": 1}, "Bo": {"start bonus": 0}}  # no draw, no pass
    penalties = {t["name"]: dict(zip(t["x"], t["y"], strict=True)) for t in out["stats-penalties"]["data"]}
    assert penalties == {"Ann": {"draws": 0, "passes": 0}, "Bo": {"draws": 3, "passes": 1}}
    assert out["stats-bonus-sub"].startswith("Tri-Ominos: bonuses only (start bonus, hexagons, bridges")
    assert out["stats-penalties-sub"].startswith("Tri-Ominos: penalties: draws, passes")


def test_subtitles_name_the_selected_game_only() -> None:
    titles = {g: get_game(g).descriptor.title for g in GAME_NAMES}
    facts = [stats.match_facts(fold_dicts(FINISHED), "m2", "2026-09-12")]
    for game in GAME_NAMES:
        out = stats_page.charts(facts, game, None, None, None)
        subs = [v for k, v in out.items() if k.endswith("-sub")]
        assert len(subs) == 7
        for text in subs:
            assert titles[game] in text
            assert not [t for g, t in titles.items() if g != game and t in text], text
    high_five = stats_page.subtitles("high-five", 0)
    assert high_five["stats-bonus"].startswith("High Five: captures and claims per player, by the points each won")
    assert high_five["stats-penalties"].startswith("High Five: no penalty in this game")
    assert "missed captures" in high_five["stats-penalties"]
    assert stats_page.subtitles("hats-off", 0)["stats-penalties"] == "Hats Off: no penalty in this game"


def test_a_blocked_hi_spot_round_counts_for_each_player_it_cost() -> None:
    for seed in range(6):
        fold = fold_dicts(get_game("hi-spot").random_match(random.Random(seed), PLAYERS[:3]))
        facts = stats.match_facts(fold, "h")
        expected: Counter[str] = Counter()
        for seq in stats.effective_moves(fold):
            if "blocked" in fold.describe(seq).tags:
                expected.update(pid for pid, pts in fold.points(seq).items() if pts)
        assert {pid: c["blocked"] for pid, c in facts.tags.items() if c["blocked"]} == dict(expected)
    assert expected  # the last seed's match had a blocked round


# --- in progress, duplicates, win rates -------------------------------------------------------------


def test_in_progress_matches_stay_out_of_the_trend_the_lengths_and_the_records() -> None:
    facts = [stats.match_facts(fold_dicts(REWOUND), "m1", "2026-09-05"),  # in progress, Ann 15 Bo 5
             stats.match_facts(fold_dicts(FINISHED), "m2", "2026-09-12")]  # Ann 10 (won), Bo 5
    out = stats_page.charts(facts, "hats-off", None, None, None)
    assert [(t["name"], t["x"], t["y"]) for t in out["stats-trend"]["data"]] == [
        ("Ann", ["2026-09-12"], [10]), ("Bo", ["2026-09-12"], [5])]
    assert out["stats-length"]["data"][0]["x"] == [10]  # m2's 10 moves; m1's 6 left out
    turns = stats.points_per_turn(facts)
    assert sum(map(len, turns.values())) == 4 + 3  # every turn, m1's too
    assert [(t["name"], t["median"], t["mean"]) for t in out["stats-turns"]["data"]] == [
        ({"ann": "Ann", "bo": "Bo"}[pid], [box_stats(turns[pid]).median], [box_stats(turns[pid]).mean])
        for pid in ("ann", "bo")]
    assert out["stats-summary"] == "Hats Off: 2 matches, 1 finished, 1 in progress"
    assert "1 match in progress left out" in out["stats-trend-sub"]
    records = stats.player_records(facts)["hats-off"]
    assert (records["ann"].matches, records["ann"].wins, records["ann"].average_score) == (1, 1, 10.0)
    assert (records["bo"].matches, records["bo"].wins, records["bo"].average_score) == (1, 0, 5.0)


def test_win_rate_and_average_score_with_a_shared_win() -> None:
    facts = [
        facts_of("m1", "hats-off", "ann bo", "ann bo", {"ann": 75, "bo": 75}),  # shared
        facts_of("m2", "hats-off", "ann bo cy", "ann", {"ann": 80, "bo": 40, "cy": 60}),
        facts_of("m3", "hats-off", "ann bo cy", "cy", {"ann": 30, "bo": 50, "cy": 77}),
        facts_of("m4", "hats-off", "ann bo", "", {"ann": 500, "bo": 0}, finished=False),  # left out
        facts_of("m5", "hi-spot", "ann cy", "cy", {"ann": 20, "cy": 101}),
    ]
    hats = stats.player_records(facts)["hats-off"]
    assert (hats["ann"].matches, hats["ann"].wins, hats["ann"].win_rate) == (3, 2, 2 / 3)
    assert hats["ann"].average_score == (75 + 80 + 30) / 3 and hats["ann"].best == 80
    assert (hats["bo"].matches, hats["bo"].wins, hats["bo"].average_score) == (3, 1, 55.0)
    assert (hats["cy"].matches, hats["cy"].wins, hats["cy"].win_rate, hats["cy"].average_score) == (2, 1, 0.5, 68.5)
    assert stats.player_records(facts)["hi-spot"]["ann"].win_rate == 0.0
    table = stats_page.charts(facts, "hats-off", None, None, None)["stats-players"]
    rows = [[_text(td) for td in tr.children] for tr in table.children[1].children]
    assert rows == [["Ann", "3", "2", "67%", "61.7", "80"], ["Cy", "2", "1", "50%", "68.5", "77"],
                    ["Bo", "3", "1", "33%", "55.0", "75"]]
    links = [tr.children[0].children for tr in table.children[1].children]
    assert [(link.children, link.href) for link in links] == [("Ann", "/players/ann"), ("Cy", "/players/cy"),
                                                                ("Bo", "/players/bo")]


def test_two_copies_of_one_match_share_a_fingerprint_and_count_once() -> None:
    a = stats.match_facts(fold_dicts(FINISHED), "bbb", "2026-09-12")
    b = stats.match_facts(fold_dicts(FINISHED), "aaa", "2026-09-12")
    other = stats.match_facts(fold_dicts(REWOUND), "ccc", "2026-09-05")
    assert a.fingerprint == b.fingerprint != other.fingerprint
    assert stats.distinct([a, other, b]) == [other, b]  # the smallest match id stays, order kept
    out = stats_page.charts([a, other, b], "hats-off", None, None, None)
    assert out["stats-summary"] == ("Hats Off: 2 matches, 1 finished, 1 in progress · 1 copy of a match imported "
                                    "twice not counted again")
    assert stats.player_records([a, other, b])["hats-off"]["ann"].matches == 2  # without distinct: twice
    assert stats.player_records(stats.distinct([a, other, b]))["hats-off"]["ann"].matches == 1


def jsonl(lines: list[dict[str, Any]]) -> str:
    return "\n".join(json.dumps(line) for line in lines)


def test_a_match_imported_from_two_different_files_counts_once(scorebook: Scorebook) -> None:
    log = get_game("hats-off").random_match(random.Random(5), PLAYERS[:2])
    first = scorebook.import_log(jsonl(log), "desk", "match.jsonl")
    assert scorebook.import_log(jsonl(log), "desk", "match.jsonl")["existing"]  # the same file: one match
    # The same events typed in again by someone else: another file, stored as another match.
    retyped = scorebook.import_log(jsonl([{**e, "recorded_by": "bo"} for e in log]), "bo", "copy.jsonl")
    assert not retyped["existing"] and retyped["match_id"] != first["match_id"]
    facts = stats_page.all_facts(scorebook)
    assert len(facts) == 2 and facts[0].fingerprint == facts[1].fingerprint
    out = stats_page.charts(facts, "hats-off", None, None, None)
    assert out["stats-summary"].startswith("Hats Off: 1 match, 1 finished, 0 in progress · 1 copy")
    assert sum(len(t["y"]) for t in out["stats-trend"]["data"]) == 2  # one point per player, not two
    keep = min(first["match_id"], retyped["match_id"])
    page = players_page.layout(scorebook, PLAYERS[0]["id"])
    hrefs = [c.href for c in _walk(page) if isinstance(c, dcc.Link) and c.children == "Replay ▸"]
    assert hrefs == [f"/matches/{keep}"]


# --- the player page and the legend ----------------------------------------------------------------


def _walk(component: Any) -> Iterator[Any]:
    yield component
    children = getattr(component, "children", None)
    for child in children if isinstance(children, list) else [children]:
        if child is not None and not isinstance(child, (str, int, float)):
            yield from _walk(child)


def _text(component: Any) -> str:
    return "".join(c if isinstance(c, str) else _text(c) for c in
                   (component.children if isinstance(component.children, list) else [component.children])
                   if c is not None) if not isinstance(component, str) else component


@pytest.fixture
def club(scorebook: Scorebook) -> Scorebook:
    for seed, game in enumerate(GAME_NAMES):
        scorebook.import_log(jsonl(get_game(game).random_match(random.Random(seed), PLAYERS[:3])), "desk")
    log = get_game("hats-off").random_match(random.Random(9), PLAYERS[:2])
    scorebook.import_log(jsonl(log[: len(log) // 2]), "desk")  # one in progress
    return scorebook


def test_the_player_page_lists_matches_records_and_the_trend(club: Scorebook) -> None:
    pid, name = PLAYERS[0]["id"], PLAYERS[0]["name"]
    facts = stats.distinct(stats_page.all_facts(club))
    mine = stats.filter_facts(facts, player=pid)
    page = players_page.layout(club, pid)
    parts = {c.id: c for c in _walk(page) if getattr(c, "id", None)}
    assert _text(parts["player-name"]) == name
    assert _text(parts["player-summary"]).startswith(f"{len(mine)} matches, {len(mine) - 1} finished, 1 in progress")
    rows = parts["player-matches"].children[1].children
    assert sorted(r.to_plotly_json()["props"]["data-match"] for r in rows) == sorted(f.match_id for f in mine)
    for row, f in zip(rows, sorted(mine, key=lambda f: (f.date, f.match_id), reverse=True), strict=True):
        cells = row.children
        assert _text(cells[3]) == str(f.totals[pid])
        assert _text(cells[4]) == players_page.result(f, pid)
        assert cells[5].children.href == f"/matches/{f.match_id}"
    records = stats.player_records(mine)
    table_rows = parts["player-records"].children[1].children
    assert [r.to_plotly_json()["props"]["data-game"] for r in table_rows] == [g for g in GAME_NAMES if g in records]
    trend = parts["player-trend"].figure
    assert sum(len(t["y"]) for t in trend["data"]) == sum(1 for f in mine if f.finished)
    missing = players_page.layout(club, "nobody")
    assert _text(missing.children[0]) == "No such player"


def test_the_match_list_links_player_names_to_their_pages(club: Scorebook) -> None:
    from dashboard.pages import matches as matches_page

    items, _ = club.matches(limit=10)
    links = [c for c in _walk(matches_page.table(items)) if isinstance(c, dcc.Link) and "player-link" in c.className]
    assert {(link.children, link.href) for link in links} == {(p["name"], f"/players/{p['id']}")
                                                              for m in items for p in m["players"]}


def test_odd_player_ids_are_quoted_in_links() -> None:
    from dashboard.pages.links import player_href

    assert player_href("a b/c?") == "/players/a%20b%2Fc%3F"


def test_hi_spot_dot_colours_have_a_legend() -> None:
    fold = fold_dicts(get_game("hi-spot").random_match(random.Random(2), PLAYERS[:2]))
    board = fold.game.to_json(fold.state_at(fold.seq // 2))  # type: ignore[union-attr]
    fig = board_figure("hi-spot", board, fold.players, reveal=False)
    layers = [t for t in fig["data"] if str(t.get("name", "")).startswith("tile ")]
    legend = next(a for a in fig["layout"]["annotations"] if a.get("name") == "dot-legend")
    assert len(layers) >= 2
    for i, trace in enumerate(layers):
        assert trace["marker"]["color"] == LAYER_COLOURS[i]
        assert f"<span style='color:{LAYER_COLOURS[i]}'>●</span> tile {i + 1}" in legend["text"]
    assert "tile 1 (bottom)" in legend["text"] and f"tile {len(layers) + 1}" not in legend["text"]
    empty = {**board, "tray": [{**s, "stack": None} for s in board["tray"]]}
    assert all(a.get("name") != "dot-legend" for a in board_figure("hi-spot", empty, fold.players, False)["layout"]
               ["annotations"])


def test_nav_links_to_the_players(tmp_path: Path) -> None:
    from dashboard.app import create_dash

    sb = Scorebook.open(f"sqlite:///{tmp_path / 'db.sqlite'}")
    app = create_dash(sb)
    assert any(isinstance(c, dcc.Link) and c.href == "/players" for c in _walk(app.layout))
    assert isinstance(app.layout, html.Div)
