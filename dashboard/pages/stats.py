"""The statistics page: per game and player, charts of how players score (projections/stats.py)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from dash import Dash, Input, Output, dcc, html

from dashboard.charts import (
    bonus_chart,
    first_player_chart,
    match_length_chart,
    points_per_turn_chart,
    score_trend_chart,
)
from dashboard.model import ReplayCache
from projections import stats
from projections.registry import GAME_NAMES, game_title, game_titles
from recorder.facade import Scorebook

ALL = 100_000
GRAPH_CONFIG: Any = {"displayModeBar": False}


def all_facts(sb: Scorebook, cache: ReplayCache) -> list[stats.MatchFacts]:
    """Every match's facts, from the read model (recorder/projector.py): no fold on the page's path."""
    return sb.facts()


def layout(sb: Scorebook, cache: ReplayCache, search: str | None = None) -> html.Div:
    summaries, _ = sb.matches(limit=ALL)
    games = [g for g in GAME_NAMES if any(s["game"] == g for s in summaries)] or list(GAME_NAMES)
    asked = parse_qs((search or "").lstrip("?")).get("game", [""])[0]
    if asked in GAME_NAMES:
        games.insert(0, asked)
    names: dict[str, str] = {}
    dates = []
    for s in summaries:
        for p in s["players"]:
            names.setdefault(p["id"], p["name"])
        dates.append(s.get("meta", {}).get("date") or s["created_at"][:10])
    return html.Div(className="page stats", children=[
        html.H1("Statistics"),
        html.Div(className="filters", children=[
            html.Label(["Game", dcc.Dropdown(
                id="stats-game", options=[{"label": game_title(g), "value": g} for g in GAME_NAMES],
                value=games[0], clearable=False)]),
            html.Label(["Player", dcc.Dropdown(
                id="stats-player",
                options=[{"label": n, "value": p} for p, n in sorted(names.items(), key=lambda kv: kv[1])],
                placeholder="Everyone", clearable=True)]),
            html.Label(["Dates", dcc.DatePickerRange(
                id="stats-dates", min_date_allowed=min(dates) if dates else None,
                max_date_allowed=max(dates) if dates else None, clearable=True,
                display_format="YYYY-MM-DD")], className="dates"),
        ]),
        html.Div(id="stats-summary", className="muted"),
        html.Div(className="chart-grid", children=[
            _card("Score trend across matches", "Final score of each finished match, by date", "stats-trend"),
            _card("Points per turn", "Distribution of what a turn earned (boxes: quartiles, dashed: mean)",
                  "stats-turns"),
            _card("Bonus frequency", "How often each bonus happened; High Five: captures and claims by value",
                  "stats-bonus"),
            _card("Match length", "Moves per match (notes, rewinds and undone events not counted)", "stats-length"),
            _card("First-player win rate", "Every game; the selected one highlighted, the line is the fair share",
                  "stats-first"),
        ]),
    ])


def _card(title: str, subtitle: str, graph_id: str) -> html.Div:
    return html.Div(className="chart-card", children=[
        html.H3(title),
        html.P(subtitle, className="muted small"),
        dcc.Graph(id=graph_id, config=GRAPH_CONFIG, className="stats-graph"),
    ])


def charts(
    facts: list[stats.MatchFacts], game: str, player: str | None, date_from: str | None, date_to: str | None
) -> tuple[Any, ...]:
    """The page's figures for a selection (pure: easy to test without a server)."""
    everyone = stats.filter_facts(facts, None, player, date_from, date_to)
    chosen = stats.filter_facts(everyone, game)
    names = stats.player_names(facts)
    finished = sum(1 for f in chosen if f.finished)
    who = f" with {names.get(player, player)}" if player else ""
    summary = (f"{game_title(game)}: {len(chosen)} match{'es' if len(chosen) != 1 else ''}{who}, "
               f"{finished} finished")
    return (
        score_trend_chart(stats.score_trend(chosen, player), names),
        points_per_turn_chart(stats.points_per_turn(chosen, player), names),
        bonus_chart(game, stats.tag_counts(chosen, player), stats.value_counts(chosen, player), names, len(chosen)),
        match_length_chart(stats.match_lengths(chosen)),
        first_player_chart(stats.first_player_win_rate(everyone), game_titles(), game),
        summary,
    )


def register(app: Dash, sb: Scorebook, cache: ReplayCache) -> None:
    @app.callback(
        Output("stats-trend", "figure"),
        Output("stats-turns", "figure"),
        Output("stats-bonus", "figure"),
        Output("stats-length", "figure"),
        Output("stats-first", "figure"),
        Output("stats-summary", "children"),
        Input("stats-game", "value"),
        Input("stats-player", "value"),
        Input("stats-dates", "start_date"),
        Input("stats-dates", "end_date"),
    )
    def update(game: str, player: str | None, start: str | None, end: str | None) -> tuple[Any, ...]:
        return charts(all_facts(sb, cache), game or GAME_NAMES[0], player or None, start, end)
