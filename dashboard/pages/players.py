"""The players: `/players` lists everyone who played, `/players/<id>` one player's record per game (finished
matches: win rate, average and best score), the trend of their final scores and their matches, each linked to
its replay. Facts come from the statistics page's `all_facts`, counted with the same rules (projections/stats.py):
a match imported twice counts once, in-progress matches are listed but stay out of the records and the trend."""

from __future__ import annotations

from typing import Any

from dash import dcc, html

from dashboard.charts import player_trend_chart
from dashboard.pages.links import player_href, replay_href
from dashboard.pages.stats import GRAPH_CONFIG, all_facts
from dashboard.theme import seat_colours
from projections import stats
from projections.registry import GAME_NAMES, game_title, game_titles
from recorder.facade import Scorebook


def index(sb: Scorebook) -> html.Div:
    facts = stats.distinct(all_facts(sb))
    names = stats.player_names(facts)
    played: dict[str, int] = {}
    for f in facts:
        for pid in f.player_ids:
            played[pid] = played.get(pid, 0) + 1
    rows = [
        html.Tr([html.Td(dcc.Link(name, href=player_href(pid), className="player-link")),
                 html.Td(str(played[pid]), className="num")])
        for pid, name in sorted(names.items(), key=lambda kv: (kv[1].lower(), kv[0]))
    ] or [html.Tr(html.Td("No match recorded yet.", colSpan=2, className="muted"))]
    return html.Div(className="page players", children=[
        html.H1("Players"),
        html.Table(className="table players", children=[
            html.Thead(html.Tr([html.Th("Player"), html.Th("Matches")])), html.Tbody(rows)]),
    ])


def layout(sb: Scorebook, player_id: str) -> html.Div:
    facts = stats.distinct(all_facts(sb))
    mine = stats.filter_facts(facts, player=player_id)
    if not mine:
        return html.Div(className="page", children=[
            html.H1("No such player"),
            html.P(["Nobody with the id ", html.Code(player_id), " played a recorded match. ",
                    dcc.Link("See the players", href="/players")]),
        ])
    names = stats.player_names(facts)
    name = names.get(player_id, player_id)
    records = stats.player_records(mine)
    trend = {g: stats.score_trend(stats.filter_facts(mine, g), player_id).get(player_id, []) for g in GAME_NAMES}
    in_progress = sum(1 for f in mine if not f.finished)
    return html.Div(className="page player", children=[
        html.H1(name, id="player-name"),
        html.P(className="muted", id="player-summary", children=(
            f"{len(mine)} match{'es' if len(mine) != 1 else ''}, {len(mine) - in_progress} finished, "
            f"{in_progress} in progress (listed, left out of the record and the trend)")),
        html.H2("Record per game"),
        html.P("Finished matches; a shared win counts as a win for each winner.", className="muted small"),
        record_table(records, player_id),
        html.H2("Final scores"),
        html.P("One line per game, finished matches only.", className="muted small"),
        dcc.Graph(id="player-trend", config=GRAPH_CONFIG,
                  figure=player_trend_chart({g: t for g, t in trend.items() if t}, game_titles())),
        html.H2("Matches"),
        matches_table(mine, player_id, names),
    ])


def record_table(records: dict[str, dict[str, stats.PlayerRecord]], player_id: str) -> Any:
    rows = []
    for game in GAME_NAMES:
        r = records.get(game, {}).get(player_id)
        if r is None:
            continue
        attrs: dict[str, Any] = {"data-game": game}
        rows.append(html.Tr(className="record-row", **attrs, children=[
            html.Td(game_title(game)),
            html.Td(str(r.matches), className="num"),
            html.Td(str(r.wins), className="num"),
            html.Td(f"{100 * r.win_rate:.0f}%", className="num"),
            html.Td(f"{r.average_score:.1f}", className="num"),
            html.Td(str(r.best), className="num"),
        ]))
    if not rows:
        return html.P("No finished match yet.", className="muted")
    head = html.Thead(html.Tr([html.Th(h) for h in ("Game", "Finished", "Wins", "Win rate", "Avg score", "Best")]))
    return html.Table(className="table records", id="player-records", children=[head, html.Tbody(rows)])


def result(f: stats.MatchFacts, player_id: str) -> str:
    if not f.finished:
        return "in progress"
    if player_id in f.winners:
        return "won" if len(f.winners) == 1 else "shared win"
    return "lost"


def matches_table(mine: list[stats.MatchFacts], player_id: str, names: dict[str, str]) -> html.Table:
    head = html.Thead(html.Tr([html.Th(h) for h in ("Date", "Game", "Players", "Score", "Result", "")]))
    rows = []
    for f in sorted(mine, key=lambda f: (f.date, f.match_id), reverse=True):
        colours = seat_colours(list(f.player_ids))
        chips = [
            html.Span(name, className="player-chip me", style={"borderColor": colours[pid], "fontWeight": 700})
            if pid == player_id
            else dcc.Link(names.get(pid, name), href=player_href(pid), className="player-chip player-link",
                          style={"borderColor": colours[pid]})
            for pid, name in f.players
        ]
        outcome = result(f, player_id)
        attrs: dict[str, Any] = {"data-match": f.match_id}
        rows.append(html.Tr(className="player-match", **attrs, children=[
            html.Td(f.date),
            html.Td(game_title(f.game)),
            html.Td(chips),
            html.Td(str(f.totals.get(player_id, 0)), className="num"),
            html.Td(html.Span(outcome, className=f"badge badge-{outcome.replace(' ', '_')}")),
            html.Td(dcc.Link("Replay ▸", href=replay_href(f.match_id), className="replay-link")),
        ]))
    return html.Table(className="table matches", id="player-matches", children=[head, html.Tbody(rows)])
