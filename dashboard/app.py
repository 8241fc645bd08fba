"""The Dash app: a header (with who is signed in), a router on the URL path, and the pages: matches, replay,
statistics, players, tournaments (`/tournaments`, `/tournaments/<id>`), ratings, and the scorepad's two
(`/record`, `/record/<id>`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote

from dash import Dash, Input, Output, State, dcc, html

from dashboard.header import header
from dashboard.model import PositionCache, ReplayCache
from dashboard.pages import matches, pad, players, ratings, record, replay, stats, tournaments
from dashboard.pages.signin import principal, whoami
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
    positions = PositionCache()
    app.layout = html.Div(className="shell", children=[
        dcc.Location(id="url", refresh=False),
        header(),
        html.Main(id="page"),
    ])

    @app.callback(Output("page", "children"), Output("whoami", "children"), Input("url", "pathname"),
                  State("url", "search"))
    def route(pathname: str | None, search: str | None) -> tuple[Any, Any]:
        path = (pathname or "/").rstrip("/") or "/"
        return page(path, search), whoami(principal(sb), path if path.startswith("/record") else "/record")

    def page(path: str, search: str | None) -> Any:
        if path in ("/", "/matches"):
            return matches.layout(sb)
        if path == "/stats":
            return stats.layout(sb, search)
        if path == "/players":
            return players.index(sb)
        if path.startswith("/players/"):
            return players.layout(sb, unquote(path.removeprefix("/players/")))
        if path == "/tournaments":
            return tournaments.index(sb)
        if path.startswith("/tournaments/"):
            return tournaments.layout(sb, unquote(path.removeprefix("/tournaments/")), search)
        if path == "/ratings":
            return ratings.layout(sb, search)
        if path.startswith("/matches/"):
            return replay.layout(sb, cache, path.removeprefix("/matches/"), search)
        if path == "/record":
            return record.layout(sb)
        if path.startswith("/record/"):
            return pad.layout(sb, positions, path.removeprefix("/record/"))
        return html.Div(className="page", children=[
            html.H1("Not found"), html.P(["Nothing at ", html.Code(path), ". ", dcc.Link("See the matches", href="/")]),
        ])

    matches.register(app, sb)
    replay.register(app, sb, cache)
    stats.register(app, sb)
    record.register(app, sb)
    pad.register(app, sb, positions)
    return app
