"""One ASGI app: the API under /api (and /docs), the dashboard on every other path."""

from __future__ import annotations

from fastapi import FastAPI

from dashboard.mount import mount_dashboard
from recorder.api import create_api
from recorder.store import EventStore


def build_app(store: EventStore) -> FastAPI:
    app = create_api(store)
    mount_dashboard(app, store)  # after every API route: it answers all other paths
    return app
