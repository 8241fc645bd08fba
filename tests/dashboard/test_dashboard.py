"""The dashboard without a browser: figure builders, the replay model, the step callback, the mount."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dashboard.boards import board_figure, hats_off, hi_spot, high_five, player_lines, tri_ominos
from dashboard.charts import bonus_chart, first_player_chart, match_length_chart, score_chart
from dashboard.model import ReplayCache, step_view
from dashboard.pages import stats as stats_page
from dashboard.pages.replay import render_step, step_from_search
from projections.boxstats import box_stats
from projections.games.high_five.tiles import value as hf_value
from projections.registry import get_game
from projections.scores import scores_json
from projections.timeline import Fold, fold_dicts
from recorder.demo import PLAYERS, record_demo
from recorder.facade import Scorebook
from recorder.log.file import NewEvent, import_lines
from scorebook.app import build_app
from tests.support.replay_payload import frames_request, split_frames


def random_fold(game: str, seed: int = 3, players: int = 3) -> Fold:
    return fold_dicts(get_game(game).random_match(random.Random(seed), PLAYERS[:players]))


def trace(fig: dict[str, Any], name: str) -> dict[str, Any]:
    return next(t for t in fig["data"] if t.get("name") == name)


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Scorebook:
    sb = Scorebook.open(f"sqlite:///{tmp_path_factory.mktemp('dash') / 'db.sqlite'}")
    record_demo(sb, 1, seed=2)
    return sb


def first_match(sb: Scorebook, game: str) -> str:
    items, _ = sb.matches(game=game, limit=1)
    return str(items[0]["match_id"])


# --- boards -------------------------------------------------------------------------------------


def test_tri_ominos_geometry_numbers_and_last_tile() -> None:
    assert tri_ominos.point_xy((1, 0)) == (1.0, 0.0)
    assert tri_ominos.point_xy((0, 1)) == (0.0, math.sqrt(3))
    fold = random_fold("tri-ominos")
    seq = max(s for s in range(1, fold.seq + 1) if fold.event(s).type == "tile_placed" and s < fold.seq // 2)
    board = fold.game.to_json(fold.state_at(seq))  # type: ignore[union-attr]
    fig = board_figure("tri-ominos", board, fold.players, reveal=True)
    numbers = trace(fig, "corners")["text"]
    assert len(numbers) == 3 * len(board["board"])
    assert numbers == [str(n) for t in board["board"] for n in t["corners"]]
    # Every number sits inside its own triangle, nearer its own corner than the tile's other two.
    xs, ys = trace(fig, "corners")["x"], trace(fig, "corners")["y"]
    for i, t in enumerate(board["board"]):
        corners = [tri_ominos.point_xy(p) for p in t["points_at"]]
        for j, corner in enumerate(corners):
            number = (xs[3 * i + j], ys[3 * i + j])
            near = math.dist(number, corner)
            assert near < 0.6 and all(near < math.dist(number, c) for c in corners if c != corner)
    last = trace(fig, "last tile")
    placed = fold.event(seq).data
    tile = next(t for t in board["board"] if t["cell"] == placed["cell"])
    corners = [tri_ominos.point_xy(p) for p in tile["points_at"]]
    assert list(zip(last["x"][:3], last["y"][:3], strict=True)) == corners


def test_tri_ominos_empty_table() -> None:
    fold = random_fold("tri-ominos")
    fig = board_figure("tri-ominos", fold.game.to_json(fold.state_at(1)), fold.players, reveal=False)  # type: ignore[union-attr]
    assert fig["data"] == [] and "No tile" in fig["layout"]["annotations"][0]["text"]


def test_high_five_layout_and_piles_with_values() -> None:
    fold = random_fold("high-five")
    board = fold.game.to_json(fold.state_at(fold.seq // 2))  # type: ignore[union-attr]
    fig = board_figure("high-five", board, fold.players, reveal=False)
    tiles = list(board["layout"]) + [t for p in board["players"] for t in p["pile"]]
    # A tile's value under it: "+v", or a dot for a tile worth nothing.
    assert trace(fig, "values")["text"] == [f"+{hf_value(t)}" for t in tiles if hf_value(t)]
    assert trace(fig, "no value")["x"].count(None) == sum(1 for t in tiles if not hf_value(t))
    # Each tile's two numbers, either side of its divider, and its hover; a layout tile's tap picks it on the pad.
    ends = trace(fig, "ends")
    assert [text.split() for text in ends["text"]] == [t.split("-") for t in tiles]
    assert all(text[2] == " " and len(text) == 5 for text in ends["text"])
    assert ends["hovertext"] == [f"{t} · worth {hf_value(t)}" for t in tiles]
    assert ends["customdata"] == [*board["layout"], *[None] * (len(tiles) - len(board["layout"]))]
    titles = trace(fig, "labels")["text"]
    assert not fig["layout"].get("annotations")  # words as a text trace: plotly draws annotations slowly
    for p in board["players"]:
        assert any(f"{p['name']} · pile worth {p['pile_value']}" in t for t in titles)


def test_hi_spot_tray_dots_and_totals() -> None:
    fold = random_fold("hi-spot")
    board = fold.game.to_json(fold.state_at(fold.seq // 2))  # type: ignore[union-attr]
    fig = board_figure("hi-spot", board, fold.players, reveal=False)
    stacks = [s["stack"] for s in board["tray"] if s["stack"]]
    dots = sum(len(t["x"]) for t in fig["data"] if str(t.get("name", "")).startswith("tile "))
    assert dots == sum(s["dots"] for s in stacks)
    labels = " ".join(trace(fig, "labels")["text"])
    assert all(f"#{n}" in labels for n in range(1, 10))
    for s in stacks:
        assert f"<b>{s['dots']}</b>" in labels
    # Racks are drawn only when revealed.
    patterns = {t: [0, 4, 8] for p in board["players"] for t in p["rack"]}
    shown = hi_spot.figure(board, fold.players, True, patterns)
    assert any(t.get("name") == "rack dots" for t in shown["data"])
    assert not any(t.get("name") == "rack dots" for t in fig["data"])


def test_hats_off_hats_in_holes_nests_and_off_the_board() -> None:
    fold = random_fold("hats-off", players=2)
    seq = next(s for s in range(fold.seq, 0, -1) if "nested" in fold.describe(s).tags)
    board = fold.game.to_json(fold.state_at(seq))  # type: ignore[union-attr]
    fig = hats_off.figure(board, fold.players, True)
    hats = trace(fig, "hats")
    in_holes = sum(len(h["stack"]) for h in board["holes"])
    loose = sum(1 for h in board["hats"] if not h["counts"] or h["to"] in ("board", "off"))
    assert len(hats["text"]) == in_holes + loose
    colours = {pid: c for pid, c in zip([p for p, _ in fold.players], ("#0072B2", "#D55E00"), strict=True)}
    first = board["holes"][0]["stack"][0]
    assert hats["marker"]["color"][0] == colours[first["player"]]
    assert any("nested" in h for h in hats["customdata"])
    labels = trace(fig, "labels")["text"]  # titles, the holes' numbers, the rows' names: one text trace
    assert sorted(t for t in labels if t.isdigit()) == sorted(str(n) for n in range(1, 10) for _ in fold.players)
    assert not fig["layout"].get("annotations")


def test_panels_hide_hands_unless_revealed() -> None:
    fold = random_fold("tri-ominos")
    board = fold.game.to_json(fold.state_at(20))  # type: ignore[union-attr]
    hidden = player_lines("tri-ominos", board, reveal=False)
    shown = player_lines("tri-ominos", board, reveal=True)
    for p in board["players"]:
        assert hidden[p["id"]] == [f"{p['tiles']} tile{'s' if p['tiles'] != 1 else ''} in hand"]
        assert shown[p["id"]][0] == "hand: " + " ".join(p["hand"])
    fold = random_fold("high-five")
    board = fold.game.to_json(fold.state_at(10))  # type: ignore[union-attr]
    assert all("hand:" not in line for lines in high_five.panel(board, False).values() for line in lines)


# --- charts ---------------------------------------------------------------------------------------


def test_score_chart_lines_and_step_marker() -> None:
    players = (("ann", "Ann"), ("bo", "Bo"))
    totals = [{"ann": 0, "bo": 0}, {"ann": 5, "bo": 0}, {"ann": 5, "bo": 10}]
    fig = score_chart(players, totals, 1, [2])
    assert [t["y"] for t in fig["data"][:2]] == [[0, 5, 5], [0, 0, 10]]
    assert fig["data"][2]["x"] == [2] and fig["data"][2]["y"] == [10]
    assert fig["layout"]["shapes"][0]["x0"] == 1


def test_stats_figures_from_facts(demo_store: Scorebook) -> None:
    facts = stats_page.all_facts(demo_store)
    out = stats_page.charts(facts, "high-five", None, None, None)  # by element id since the page grew charts
    trend, turns, bonus, length, first, summary = (
        out[k] for k in ("stats-trend", "stats-turns", "stats-bonus", "stats-length", "stats-first", "stats-summary"))
    hf = [f for f in facts if f.game == "high-five"]
    assert summary.startswith("High Five: 1 match")
    assert {t["name"] for t in trend["data"]} == {name for pid, name in hf[0].players}
    for t in trend["data"]:
        pid = next(p for p, n in hf[0].players if n == t["name"])
        assert t["y"] == [hf[0].totals[pid]]
    boxes = {t["name"]: (t["q1"], t["median"], t["q3"], t["mean"]) for t in turns["data"]}
    assert boxes == {name: ([b.q1], [b.median], [b.q3], [b.mean])
                     for pid, name in hf[0].players for b in [box_stats(hf[0].turn_points[pid])]}
    assert sum(sum(t["y"]) for t in bonus["data"]) == sum(sum(c.values()) for c in hf[0].values.values())
    assert length["data"][0]["x"] == [hf[0].moves]
    assert [b for b in first["data"][0]["x"]] == ["Tri-Ominos", "High Five", "Hi-Spot", "Hats Off"]
    assert bonus_chart("tri-ominos", {}, {}, {}, 0)["data"] == []
    assert match_length_chart([])["data"] == []
    assert first_player_chart({}, {}, None)["data"] == []


def test_stats_page_charts_one_game_from_summaries_and_that_games_whole_facts(demo_store: Scorebook) -> None:
    from plotly.utils import PlotlyJSONEncoder

    from projections.registry import GAME_NAMES

    every = stats_page.all_facts(demo_store)
    for game in GAME_NAMES:
        page = stats_page.page_facts(demo_store, game)
        assert [f.match_id for f in page] == [f.match_id for f in every]
        assert {type(f).__name__ for f in page if f.game != game} <= {"MatchSummary", "MatchFacts"}
        for player, start, end in [(None, None, None), ("ann", None, None), (None, "2026-01-01", "2026-12-31")]:
            assert json.dumps(stats_page.charts(page, game, player, start, end), cls=PlotlyJSONEncoder) == \
                json.dumps(stats_page.charts(every, game, player, start, end), cls=PlotlyJSONEncoder)
    from recorder.readmodels.facts import FactsReader
    from recorder.store.matches import EventStore

    brief = FactsReader.of(EventStore(demo_store.engine)).summaries()  # another process: nothing decoded whole
    with pytest.raises(TypeError, match="whole facts"):  # summaries alone cannot chart a game's turns
        stats_page.charts(brief, "high-five", None, None, None)


# --- the replay model and the step callback ----------------------------------------------------------


def test_step_view_matches_the_projection(demo_store: Scorebook) -> None:
    match_id = first_match(demo_store, "hi-spot")
    cache = ReplayCache()
    replay = cache.replay(demo_store, match_id)
    fold = demo_store.fold(match_id)
    assert cache.replay(demo_store, match_id) is replay  # built once per version
    for k in (1, 5, fold.seq // 2, fold.seq):
        view = step_view(demo_store, replay, k)
        assert view.scores == scores_json(demo_store.fold(match_id, at=k), match_id)
        assert view.board == fold.game.to_json(fold.state_at(k))  # type: ignore[union-attr]
        assert replay.totals[k] == {p["id"]: p["score"] for p in view.scores["players"]}
    start = step_view(demo_store, replay, 0)
    assert start.step == 0 and start.row is None and all(p["score"] == 0 for p in start.scores["players"])
    assert step_view(demo_store, replay, 10**6).step == fold.seq
    assert replay.chain_text == f"{fold.seq} events, chain intact"
    assert all(not replay.rows[s - 1].superseded_by for s in replay.bonus_steps)


def test_rewinds_and_the_cache_follow_new_events(tmp_path: Path) -> None:
    store = Scorebook.open(f"sqlite:///{tmp_path / 'db.sqlite'}")
    log = get_game("hats-off").random_match(random.Random(4), PLAYERS[:2])
    match_id = store.import_log(import_lines(log[:10]), "desk")["match_id"]
    cache = ReplayCache()
    assert cache.replay(store, match_id).seq == 10
    store.append(match_id, [NewEvent("rewind", {"to_seq": 8, "reason": "hat knocked by a sleeve"})], 10, "referee")
    replay = cache.replay(store, match_id)
    assert replay.seq == 11 and not replay.finished
    assert [(r.seq, r.superseded_by, r.superseded_reason) for r in replay.rows if r.superseded_by] == [
        (9, 11, "hat knocked by a sleeve"), (10, 11, "hat knocked by a sleeve")]
    assert replay.rows[10].recorded_by == "referee"
    assert replay.totals[11] == replay.totals[8]


def test_render_step_outputs(demo_store: Scorebook) -> None:
    match_id = first_match(demo_store, "tri-ominos")
    cache = ReplayCache()
    figure, panel, label, score_text, now, chart = render_step(demo_store, cache, match_id, 40)
    n = demo_store.fold(match_id).seq
    sheet = scores_json(demo_store.fold(match_id, at=40), match_id)
    assert label == f"Step 40 of {n}"
    assert score_text == " · ".join(f"{p['name']} {p['score']}" for p in sheet["players"])
    assert chart.to_plotly_json()["operations"][0]["location"] == ["layout", "shapes", 0]
    assert step_from_search("?step=12") == 12 and step_from_search("") is None and step_from_search("?step=x") == 0


# --- one server ---------------------------------------------------------------------------------------


def test_one_app_serves_the_api_and_the_dashboard(demo_store: Scorebook) -> None:
    client = TestClient(build_app(demo_store))
    page = client.get("/matches/whatever?step=3")
    assert page.status_code == 200 and "<title>Scorebook</title>" in page.text
    assert client.get("/api/matches").json()["total"] == 4
    missing = client.get("/api/no-such-route")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    assert client.get("/docs").status_code == 200
    assert client.get("/assets/scorebook.js").status_code == 200
    match_id = first_match(demo_store, "high-five")
    n = demo_store.fold(match_id).seq
    # The replay page at step 7, then every step's frame (the browser steps without the server).
    body = {
        "output": "..page.children...whoami.children..",
        "outputs": [{"id": "page", "property": "children"}, {"id": "whoami", "property": "children"}],
        "inputs": [{"id": "url", "property": "pathname", "value": f"/matches/{match_id}"}],
        "state": [{"id": "url", "property": "search", "value": "?step=7"}],
        "changedPropIds": ["url.pathname"],
    }
    r = client.post("/_dash-update-component", json=body)
    assert r.status_code == 200, r.text
    assert f"Step 7 of {n}" in json.dumps(json.loads(r.text)["response"]["page"])
    r = client.post("/_dash-update-component", json=frames_request(match_id, n))
    assert r.status_code == 200, r.text
    assert len(split_frames(r.text)[1]) == n + 1
