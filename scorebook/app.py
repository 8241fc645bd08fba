"""One ASGI app: the API under /api (and /docs, /redoc), the dashboard on every other path."""

from __future__ import annotations

from fastapi import FastAPI

from dashboard.mount import mount_dashboard
from recorder.api import create_api
from recorder.api.guards import guard_dashboard
from recorder.facade import Scorebook

WORKER_APP = "scorebook.app:worker_app"  # what `scorebook serve --workers N` hands uvicorn


def build_app(sb: Scorebook) -> FastAPI:
    app = create_api(sb)
    mount_dashboard(app, sb)  # after every API route: it answers all other paths
    guard_dashboard(app.state.dash)  # an unregistered component-suite file is a 404, not a 500
    return app


def worker_app() -> FastAPI:
    """The app of one of `scorebook serve --workers N`'s worker processes: the database the parent process
    migrated and named in $SCOREBOOK_DATABASE_URL (the parent runs the read models' follower; workers only
    answer requests, each with its own fold cache)."""
    return build_app(Scorebook.open(None, migrate=False))
