"""The club's pages without a browser: /tournaments, /tournaments/<id> (round sheet, standings, missing results,
downloads, the unknown id), /ratings and the rating part of /players/<id>, drawn from a small club built with
the service (recorder/clubs/service.py): five registered players, a Swiss tournament of Hats Off to 60, two rounds
paired, one table still playing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dashboard.pages import players as players_page
from dashboard.pages import ratings as ratings_page
from dashboard.pages import tournaments as tournaments_page
from recorder.facade import Scorebook
from scorebook.app import build_app
from tests.support.clubs import NAMES, build_club, play

# --- a small club ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Scorebook, str, str]]:
    sb, tid, playing = build_club(tmp_path_factory.mktemp("club") / "x.db")
    yield sb, tid, playing
    sb.close()


# --- reading a drawn layout -------------------------------------------------------------------------------


def tree(component: Any) -> Any:
    """The layout as the browser gets it (plain JSON)."""
    return json.loads(json.dumps(component.to_plotly_json(), default=lambda c: c.to_plotly_json()))


def nodes(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, list):
        for n in node:
            yield from nodes(n)
    elif isinstance(node, dict) and "props" in node:
        yield node
        yield from nodes(node["props"].get("children"))


def text(node: Any) -> str:
    if isinstance(node, str | int | float) and not isinstance(node, bool):
        return str(node)
    if isinstance(node, list):
        return "".join(text(n) for n in node)
    if isinstance(node, dict) and "props" in node:
        return text(node["props"].get("children"))
    return ""


def by_id(node: Any, ident: str) -> dict[str, Any]:
    found = [n for n in nodes(node) if n["props"].get("id") == ident]
    assert len(found) == 1, f"{len(found)} nodes with id {ident!r}"
    return found[0]


def with_class(node: Any, cls: str) -> list[dict[str, Any]]:
    return [n for n in nodes(node) if cls in str(n["props"].get("className", "")).split()]


def links(node: Any) -> dict[str, str]:
    """Each link's text -> its address."""
    return {text(n): n["props"]["href"] for n in nodes(node) if n["props"].get("href")}


# --- /tournaments ---------------------------------------------------------------------------------------


def test_the_tournament_list(club: tuple[Scorebook, str, str]) -> None:
    sb, tid, _ = club
    page = tree(tournaments_page.index(sb))
    rows = with_class(page, "tournament-row")
    assert len(rows) == 1 and rows[0]["props"]["data-tournament"] == tid
    cells = [text(c) for c in rows[0]["props"]["children"]]
    assert cells == ["Elm Open", "Hats Off", "Swiss", "2 of 3", "5", "running", "2026-03-01"]
    assert links(page)["Elm Open"] == f"/tournaments/{tid}"


def test_the_round_sheet_shows_the_latest_round_by_default(club: tuple[Scorebook, str, str]) -> None:
    sb, tid, playing = club
    state = sb.clubs.tournament(tid)
    page = tree(tournaments_page.layout(sb, tid))
    assert text(by_id(page, "tournament-name")) == "Elm OpenHats Off"
    facts = text(by_id(page, "tournament-facts"))
    assert "Swiss" in facts and "2 of 3 paired" in facts and "5 players" in facts and "2026-03-01" in facts
    assert "running" in facts
    sheet = by_id(page, "round-sheet")
    assert sheet["props"]["data-round"] == "2"
    assert text(by_id(page, "sheet-title")) == "Round 2 of 3"
    rnd = state.round(2)
    blocks = [b for b in with_class(sheet, "table-block") if "byes" not in b["props"]["className"]]
    assert [b["props"]["data-table"] for b in blocks] == ["1", "2"]
    for block, table in zip(blocks, rnd.tables, strict=True):
        seats = with_class(block, "seat")
        assert [s["props"]["data-player"] for s in seats] == list(table.seats)  # clockwise order
        assert [text(with_class(s, "player-link")) for s in seats] == [NAMES[p] for p in table.seats]
        assert table.match_id is not None
        assert f"/matches/{table.match_id}" in links(block).values()
    done, open_ = blocks
    result = rnd.tables[0].result
    assert result is not None and result.winners
    for seat in with_class(done, "seat"):
        pid = seat["props"]["data-player"]
        assert text(with_class(seat, "seat-score")) == str(result.totals[pid])
        assert ("★ won" in text(seat)) == (pid in result.winners)
    assert "result taken" in text(done)
    assert "playing" in text(open_) and rnd.tables[1].match_id == playing
    assert all(text(with_class(s, "seat-score")) == "" for s in with_class(open_, "seat"))
    byes = by_id(page, "round-byes")
    assert text(byes).startswith("Bye") and NAMES[rnd.byes[0]] in text(byes)
    assert links(byes)[NAMES[rnd.byes[0]]] == f"/players/{rnd.byes[0]}"
    picker = by_id(page, "round-picker")
    current = with_class(picker, "current")
    assert [text(c) for c in current] == ["Round 2"]
    assert links(picker) == {"Round 1": f"/tournaments/{tid}?round=1", "Round 2": f"/tournaments/{tid}?round=2"}
    assert [text(n) for n in with_class(picker, "unpaired")] == ["Round 3"]


def test_the_round_picker_picks_a_round(club: tuple[Scorebook, str, str]) -> None:
    sb, tid, _ = club
    rnd = sb.clubs.tournament(tid).round(1)
    page = tree(tournaments_page.layout(sb, tid, "?round=1"))
    sheet = by_id(page, "round-sheet")
    assert sheet["props"]["data-round"] == "1" and text(by_id(page, "sheet-title")) == "Round 1 of 3"
    assert "Every table is settled." in text(sheet)
    for block, table in zip(with_class(sheet, "table-block"), rnd.tables, strict=False):
        assert table.result is not None
        scores = {s["props"]["data-player"]: text(with_class(s, "seat-score")) for s in with_class(block, "seat")}
        assert scores == {p: str(v) for p, v in table.result.totals.items()}
    for search in ("?round=9", "?round=0", "?round=x", ""):
        assert by_id(tree(tournaments_page.layout(sb, tid, search)), "round-sheet")["props"]["data-round"] == "2"


def test_the_standings_and_the_downloads(club: tuple[Scorebook, str, str]) -> None:
    sb, tid, _ = club
    page = tree(tournaments_page.layout(sb, tid))
    rows = with_class(by_id(page, "standings"), "standing")
    want = sb.clubs.standings(tid)
    assert [r["props"]["data-player"] for r in rows] == [s.player for s in want]
    for row, s in zip(rows, want, strict=True):
        cells = [text(c) for c in row["props"]["children"]]
        spread = f"+{s.spread}" if s.spread > 0 else f"−{-s.spread}" if s.spread < 0 else "0"
        assert cells == [str(s.rank), s.name, f"{s.match_points:g}", f"{s.buchholz:g}", str(s.game_points),
                         spread, str(s.played), str(s.byes)]
        assert links(row) == {s.name: f"/players/{s.player}"}
    assert sum(s.match_points for s in want) == 5  # three tables taken, a bye in each of two rounds
    downloads = links(by_id(page, "tournament-downloads"))
    assert downloads == {"Standings (CSV)": f"/api/tournaments/{tid}/standings?format=csv",
                         "Archive (tournament and matches)": f"/api/tournaments/{tid}/archive"}


def test_the_missing_results(club: tuple[Scorebook, str, str]) -> None:
    sb, tid, playing = club
    table = sb.clubs.tournament(tid).round(2).tables[1]
    missing = by_id(tree(tournaments_page.layout(sb, tid)), "missing-results")
    items = with_class(missing, "missing")
    assert [(i["props"]["data-round"], i["props"]["data-table"]) for i in items] == [("2", "2")]
    assert " – ".join(NAMES[p] for p in table.seats) in text(items[0])
    assert links(items[0]) == {"Round 2, table 2": f"/tournaments/{tid}?round=2", "match ▸": f"/matches/{playing}"}


def test_a_withdrawn_player_is_marked(tmp_path: Path) -> None:
    sb, tid, playing = build_club(tmp_path / "x.db")
    try:
        seats = sb.clubs.tournament(tid).round(2).tables[1].seats
        play(sb, playing, list(seats), 99)
        sb.clubs.collect_results(tid, "desk")
        sb.clubs.withdraw(tid, "ed", "ref")
        page = tree(tournaments_page.layout(sb, tid))
        assert "None: every paired table has its result." in text(by_id(page, "missing-results"))
        assert "4 players (1 withdrawn)" in text(by_id(page, "tournament-facts"))
        rows = {r["props"]["data-player"]: r for r in with_class(by_id(page, "standings"), "standing")}
        assert "withdrawn" in rows["ed"]["props"]["className"] and "withdrawn" in text(rows["ed"])
        assert not any("withdrawn" in text(r) for p, r in rows.items() if p != "ed")
    finally:
        sb.close()


def test_an_unknown_tournament(club: tuple[Scorebook, str, str]) -> None:
    sb, _, _ = club
    page = tree(tournaments_page.layout(sb, "no-such-one"))
    assert text(by_id(page, "tournament-missing")) == "No such tournament"
    assert "no-such-one" in text(page) and links(page) == {"See the tournaments": "/tournaments"}


def test_no_round_paired_yet(tmp_path: Path) -> None:
    sb = Scorebook.open(f"sqlite:///{tmp_path / 'x.db'}")
    try:
        tid = sb.clubs.create_tournament({"name": "Empty Cup", "game": "hats-off", "format": "swiss", "rounds": 2,
                                          "table_size": 2}, "ref")
        page = tree(tournaments_page.layout(sb, tid))
        assert text(by_id(page, "round-sheet")) == "No round is paired yet."
        assert text(by_id(page, "standings")) == "Nobody has entered yet."
        assert "no round is paired" in text(by_id(page, "missing-results"))
        assert [c["props"]["children"] for c in with_class(page, "unpaired")] == ["Round 1", "Round 2"]
        assert "Empty Cup" in text(tree(tournaments_page.index(sb)))
    finally:
        sb.close()


# --- /ratings --------------------------------------------------------------------------------------------


def test_the_ratings_page(club: tuple[Scorebook, str, str]) -> None:
    sb, _, _ = club
    rated = sb.clubs.ratings()["hats-off"]
    for search in ("", "?game=hats-off"):
        page = tree(ratings_page.layout(sb, search))
        assert by_id(page, "ratings-table")["props"]["data-game"] == "hats-off"
        rows = with_class(page, "rating-row")
        assert [r["props"]["data-player"] for r in rows] == list(rated.players)  # best first
        for rank, (row, (pid, r)) in enumerate(zip(rows, rated.players.items(), strict=True), start=1):
            cells = [text(c) for c in row["props"]["children"]]
            assert cells == [str(rank), NAMES[pid], f"{r.ordinal:.1f}", f"{r.mu:.1f}", f"{r.sigma:.1f}",
                             str(r.matches)]
            assert links(row) == {NAMES[pid]: f"/players/{pid}"}
        ordinals = [r.ordinal for r in rated.players.values()]
        assert ordinals == sorted(ordinals, reverse=True)
        assert links(by_id(page, "ratings-games")) == {"Hats Off": "/ratings?game=hats-off"}
        figure = by_id(page, "ratings-history")["props"]["figure"]
        assert [t["name"] for t in figure["data"]] == [NAMES[p] for p in rated.players]
        for trace, pid in zip(figure["data"], rated.players, strict=True):
            assert trace["y"] == [round(h.ordinal, 2) for h in rated.history[pid]]
            assert trace["x"] == sorted(trace["x"]) and len(trace["x"]) == rated.players[pid].matches
        method = text(by_id(page, "ratings-method"))
        assert "Plackett–Luce" in method and "mu − 3σ" in method


def test_a_game_without_ratings(club: tuple[Scorebook, str, str], tmp_path: Path) -> None:
    sb, _, _ = club
    page = tree(ratings_page.layout(sb, "?game=tri-ominos"))
    assert "No finished Tri-Ominos match yet" in text(by_id(page, "ratings-empty"))
    empty = Scorebook.open(f"sqlite:///{tmp_path / 'x.db'}")
    try:
        page = tree(ratings_page.layout(empty, ""))
        assert "nobody has a rating" in text(by_id(page, "ratings-empty"))
        assert links(by_id(page, "ratings-games")) == {}
    finally:
        empty.close()


# --- /players/<id> ----------------------------------------------------------------------------------------


def test_a_registered_players_page_has_their_club_aliases_and_rating(club: tuple[Scorebook, str, str]) -> None:
    sb, _, _ = club
    page = tree(players_page.layout(sb, "ann"))
    assert text(by_id(page, "player-name")) == "Ann Lee"
    assert text(by_id(page, "player-club")) == "Club: Elm Club"
    assert text(by_id(page, "player-aliases")) == "Also known as: Annie"
    history = sb.clubs.player("ann")["ratings"]["hats-off"]
    now = sb.clubs.ratings()["hats-off"].players["ann"]
    card = by_id(page, "player-ratings")
    assert f"{now.ordinal:.1f}" == text(with_class(card, "rating-now")) and f"after {now.matches} match" in text(card)
    figure = by_id(page, "player-rating-hats-off")["props"]["figure"]
    assert figure["data"][0]["y"] == [round(p["ordinal"], 2) for p in history]
    assert figure["data"][0]["x"] == list(range(1, len(history) + 1))
    assert "/ratings?game=hats-off" in links(card).values()
    assert with_class(page, "player-match")  # what was there stays: the matches, the record


def test_a_registered_player_without_a_match_has_a_page(club: tuple[Scorebook, str, str]) -> None:
    sb, _, _ = club
    page = tree(players_page.layout(sb, "fay"))
    assert text(by_id(page, "player-name")) == "Fay Wu"
    assert text(by_id(page, "player-club")) == "Club: none given"
    assert text(by_id(page, "player-summary")) == "No match recorded yet."
    assert "No rated match yet" in text(by_id(page, "player-ratings"))
    assert "Fay Wu" in text(tree(players_page.index(sb)))
    nobody = tree(players_page.layout(sb, "zed"))
    assert "No such player" in text(nobody)


# --- the app: routes, nav, stylesheet -------------------------------------------------------------------


def test_the_app_routes_the_club_pages(club: tuple[Scorebook, str, str]) -> None:
    sb, tid, _ = club
    client = TestClient(build_app(sb))

    def route(path: str, search: str = "") -> str:
        body = {
            "output": "..page.children...whoami.children..",
            "outputs": [{"id": "page", "property": "children"}, {"id": "whoami", "property": "children"}],
            "inputs": [{"id": "url", "property": "pathname", "value": path}],
            "state": [{"id": "url", "property": "search", "value": search}],
            "changedPropIds": ["url.pathname"],
        }
        r = client.post("/_dash-update-component", json=body)
        assert r.status_code == 200, r.text
        return json.dumps(r.json()["response"]["page"], ensure_ascii=False)

    assert "Elm Open" in route("/tournaments")
    assert '"data-round": "1"' in route(f"/tournaments/{tid}", "?round=1")
    assert "No such tournament" in route("/tournaments/nope")
    assert "ratings-table" in route("/ratings", "?game=hats-off")
    assert "Fay Wu" in route("/players/fay")
    layout = client.get("/_dash-layout").text
    assert '"nav-tournaments"' in layout and '"nav-ratings"' in layout
    css = client.get("/assets/clubs.css")
    assert css.status_code == 200 and "@media print" in css.text
    csv_text = client.get(f"/api/tournaments/{tid}/standings?format=csv").text
    assert len(csv_text.splitlines()) == 1 + len(NAMES)
