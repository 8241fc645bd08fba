"""The matches page: every recorded match, newest first, filtered by game, player and status."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dash import Dash, Input, Output, State, ctx, dcc, html

from dashboard.model import match_date
from dashboard.pages.links import player_href
from dashboard.theme import seat_colours
from projections.registry import GAME_NAMES, game_title
from recorder.facade import Scorebook

PAGE_SIZE = 50


def layout(sb: Scorebook) -> html.Div:
    players = sb.players()
    return html.Div(className="page", children=[
        html.H1("Matches"),
        html.Div(className="filters", children=[
            html.Label(["Game", dcc.Dropdown(
                id="filter-game", options=[{"label": game_title(g), "value": g} for g in GAME_NAMES],
                placeholder="All games", clearable=True)]),
            html.Label(["Player", dcc.Dropdown(
                id="filter-player",
                options=[{"label": n, "value": p} for p, n in sorted(players.items(), key=lambda kv: kv[1])],
                placeholder="Anyone", clearable=True)]),
            html.Label(["Status", dcc.Dropdown(
                id="filter-status",
                options=[{"label": "in progress", "value": "in_progress"}, {"label": "finished", "value": "finished"}],
                placeholder="Any status", clearable=True)]),
        ]),
        dcc.Store(id="matches-offset", data=0),
        html.Div(id="matches-count", className="muted"),
        html.Div(id="matches-table"),
        html.Div(className="pager", children=[
            html.Button("← newer", id="matches-prev", className="btn"),
            html.Button("older →", id="matches-next", className="btn"),
        ]),
    ])


def _meta_text(meta: Mapping[str, Any]) -> str:
    parts = []
    if meta.get("tournament"):
        parts.append(str(meta["tournament"]))
    if meta.get("round") is not None:
        parts.append(f"round {meta['round']}")
    if meta.get("table") is not None:
        parts.append(f"table {meta['table']}")
    return " · ".join(parts)


def table(items: list[dict[str, Any]]) -> html.Table:
    head = html.Thead(html.Tr([html.Th(h) for h in
                               ("Date", "Game", "Players", "Status", "Winner", "Events", "Tournament", "")]))
    rows = []
    for m in items:
        href = f"/matches/{m['match_id']}"
        colours = seat_colours([p["id"] for p in m["players"]])
        names = {p["id"]: p["name"] for p in m["players"]}
        players = [dcc.Link(p["name"], href=player_href(p["id"]), className="player-chip player-link",
                            style={"borderColor": colours[p["id"]]}) for p in m["players"]]
        status = m["status"].replace("_", " ")
        winners = ", ".join(names.get(w, w) for w in m["winners"]) or ("—" if m["status"] == "finished" else "")
        rows.append(html.Tr(className="match-row", **{"data-game": m["game"]}, children=[
            html.Td(match_date(m)),
            html.Td(dcc.Link(game_title(m["game"]), href=href, className="game-link")),
            html.Td(players),
            html.Td(html.Span(status, className=f"badge badge-{m['status']}")),
            html.Td(winners),
            html.Td(str(m["seq"]), className="num"),
            html.Td(_meta_text(m.get("meta") or {}), className="muted"),
            html.Td(dcc.Link("Replay ▸", href=href, className="replay-link")),
        ]))
    if not rows:
        rows = [html.Tr(html.Td("No match matches these filters.", colSpan=8, className="muted"))]
    return html.Table(className="table matches match-list", children=[head, html.Tbody(rows)])


def register(app: Dash, sb: Scorebook) -> None:
    @app.callback(
        Output("matches-offset", "data"),
        Input("filter-game", "value"),
        Input("filter-player", "value"),
        Input("filter-status", "value"),
        Input("matches-prev", "n_clicks"),
        Input("matches-next", "n_clicks"),
        State("matches-offset", "data"),
    )
    def page_offset(game: Any, player: Any, status: Any, _p: Any, _n: Any, offset: int | None) -> int:
        offset = offset or 0
        if ctx.triggered_id == "matches-prev":
            return max(0, offset - PAGE_SIZE)
        if ctx.triggered_id == "matches-next":
            _, total = sb.matches(game or None, player or None, status or None, 1, 0)
            return offset + PAGE_SIZE if offset + PAGE_SIZE < total else offset
        return 0

    @app.callback(
        Output("matches-table", "children"),
        Output("matches-count", "children"),
        Input("matches-offset", "data"),
        Input("filter-game", "value"),
        Input("filter-player", "value"),
        Input("filter-status", "value"),
    )
    def show(offset: int | None, game: Any, player: Any, status: Any) -> tuple[Any, str]:
        offset = offset or 0
        items, total = sb.matches(game or None, player or None, status or None, PAGE_SIZE, offset)
        if not total:
            return table([]), "No match recorded yet." if not (game or player or status) else "0 matches"
        shown = f"{offset + 1}–{offset + len(items)} of {total}" if total > PAGE_SIZE else f"{total}"
        return table(items), f"{shown} match{'es' if total != 1 else ''}, newest first"
