"""Serve the dashboard from the API's own FastAPI app: one process, one port.

The Dash (Flask) app is mounted at "/" after every API route, through a2wsgi's WSGIMiddleware, so it
answers every path the API does not. Paths under /api that no API route matches stay a JSON 404
rather than the dashboard's page.
"""

from __future__ import annotations

from typing import Any

from a2wsgi import WSGIMiddleware
from fastapi import FastAPI
from starlette.responses import JSONResponse
from starlette.types import Receive, Scope, Send

from dashboard.app import create_dash
from recorder.facade import Scorebook


class _Dashboard:
    def __init__(self, wsgi: Any) -> None:
        self.wsgi = WSGIMiddleware(wsgi, workers=8)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("root_path", "") + scope.get("path", "")
        if scope["type"] == "http" and (path == "/api" or path.startswith("/api/")):
            response = JSONResponse({"error": "not_found", "reason": f"no API route {path}"}, status_code=404)
            await response(scope, receive, send)
            return
        await self.wsgi(scope, receive, send)  # type: ignore[arg-type]


def mount_dashboard(app: FastAPI, sb: Scorebook) -> None:
    dash_app = create_dash(sb)
    app.state.dash = dash_app
    app.mount("/", _Dashboard(dash_app.server), name="dashboard")
