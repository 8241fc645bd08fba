"""The matches page: every recorded match, newest first, filtered by game, player and status; above them,
on the first page, the matches being played now ("Live now": in progress, with an event recorded in the last
`recorder.live.LIVE_MINUTES` minutes, the latest first; docs/LIVE.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dash import Dash, Input, Output, State, ctx, dcc, html

from dashboard.model import match_date
from dashboard.pages.links import player_href
from dashboard.theme import seat_colours
from projections.registry import GAME_NAMES, game_title
from recorder.facade import Scorebook
from recorder.live import LIVE_MINUTES, live_match_ids

PAGE_SIZE = 50
LIVE_REFRESH_MS = 20_000  # "Live now" is read again this often (a match starts, ends or goes quiet)


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
                options=[{"label": "in progress", "value": "in_progress"}, {"label": "finished", "value": "finished"},
                         {"label": "abandoned", "value": "abandoned"}],
                placeholder="Any status", clearable=True)]),
        ]),
        dcc.Store(id="matches-offset", data=0),
        html.Div(id="live-now", className="live-now"),
        dcc.Interval(id="live-refresh", interval=LIVE_REFRESH_MS),
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


def status_cell(words: str, status: str, live: bool) -> list[Any]:
    cell: list[Any] = [html.Span(words, className=f"badge badge-{status}")]
    if live:
        cell += [" ", html.Span("● live", className="badge badge-live", title="an event recorded in the last "
                                f"{LIVE_MINUTES} minutes")]
    return cell


def table(items: list[dict[str, Any]], live: frozenset[str] | set[str] = frozenset(),
          row_class: str = "match-row") -> html.Table:
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
        rows.append(html.Tr(className=row_class, **{"data-game": m["game"]}, children=[
            html.Td(match_date(m)),
            html.Td(dcc.Link(game_title(m["game"]), href=href, className="game-link")),
            html.Td(players),
            html.Td(status_cell(status, m["status"], m["match_id"] in live)),
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
        live_ids = {m["match_id"] for m in live_matches(sb, game or None, player or None, status or None)}
        shown = f"{offset + 1}–{offset + len(items)} of {total}" if total > PAGE_SIZE else f"{total}"
        return table(items, live_ids), f"{shown} match{'es' if total != 1 else ''}, newest first"

    @app.callback(
        Output("live-now", "children"),
        Input("matches-offset", "data"),
        Input("filter-game", "value"),
        Input("filter-player", "value"),
        Input("filter-status", "value"),
        Input("live-refresh", "n_intervals"),
    )
    def live_now(offset: int | None, game: Any, player: Any, status: Any, _tick: Any) -> Any:
        """The matches being played, first (on the first page), read again every LIVE_REFRESH_MS."""
        playing = [] if offset else live_matches(sb, game or None, player or None, status or None)
        if not playing:
            return []
        return [html.H2("Live now"), table(playing, {m["match_id"] for m in playing}, "live-row")]


def live_matches(sb: Scorebook, game: str | None, player: str | None, status: str | None) -> list[dict[str, Any]]:
    """The matches being played now that the filters let through, the latest event first."""
    if status not in (None, "in_progress"):
        return []
    out = []
    for match_id in live_match_ids(sb.engine):
        m = sb.summary(match_id)
        if (game is None or m["game"] == game) and (player is None or any(p["id"] == player for p in m["players"])):
            out.append(m)
    return out
