"""One ASGI app: the API under /api (and /docs, /redoc), the dashboard on every other path."""

from __future__ import annotations

from fastapi import FastAPI

from dashboard.mount import mount_dashboard
from recorder.api import create_api
from recorder.facade import Scorebook
from recorder.store import EventStore


def build_app(sb: Scorebook | EventStore) -> FastAPI:
    """The API over the facade, then the dashboard. (An EventStore is wrapped in a facade: the callers
    that still pass one keep working while they move to Scorebook.)"""
    if isinstance(sb, EventStore):
        sb = Scorebook(sb)
    app = create_api(sb)
    mount_dashboard(app, sb.store)  # after every API route: it answers all other paths
    return app
