"""The Dash app: a header, a router on the URL path, and the three pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dash import Dash, Input, Output, State, dcc, html

from dashboard.model import ReplayCache
from dashboard.pages import matches, replay, stats
from recorder.facade import Scorebook

ASSETS = Path(__file__).parent / "assets"


def create_dash(sb: Scorebook) -> Dash:
    app = Dash(
        __name__,
        assets_folder=str(ASSETS),
        title="Scorebook",
        update_title=None,  # type: ignore[arg-type]  # None: leave the tab title alone while updating
        suppress_callback_exceptions=True,
        serve_locally=True,
        compress=False,
    )
    cache = ReplayCache()
    app.layout = html.Div(className="shell", children=[
        dcc.Location(id="url", refresh=False),
        html.Header(className="top", children=[
            dcc.Link(html.Span(["Score", html.B("book")]), href="/", className="brand"),
            html.Nav(children=[
                dcc.Link("Matches", href="/", className="nav-link", id="nav-matches"),
                dcc.Link("Statistics", href="/stats", className="nav-link", id="nav-stats"),
                html.A("API", href="/docs", className="nav-link"),
            ]),
        ]),
        html.Main(id="page"),
    ])

    @app.callback(Output("page", "children"), Input("url", "pathname"), State("url", "search"))
    def route(pathname: str | None, search: str | None) -> Any:
        path = (pathname or "/").rstrip("/") or "/"
        if path in ("/", "/matches"):
            return matches.layout(sb)
        if path == "/stats":
            return stats.layout(sb, cache, search)
        if path.startswith("/matches/"):
            return replay.layout(sb, cache, path.removeprefix("/matches/"), search)
        return html.Div(className="page", children=[
            html.H1("Not found"), html.P(["Nothing at ", html.Code(path), ". ", dcc.Link("See the matches", href="/")]),
        ])

    matches.register(app, sb)
    replay.register(app, sb, cache)
    stats.register(app, sb, cache)
    return app
