"""One ASGI app: the API under /api (and /docs), the dashboard on every other path."""

from __future__ import annotations

from fastapi import FastAPI

from recorder.api import create_api
from recorder.store import EventStore


def build_app(store: EventStore) -> FastAPI:
    app = create_api(store)
    try:
        from dashboard.mount import mount_dashboard
    except ImportError:  # the dashboard is optional for the API alone
        return app
    mount_dashboard(app, store)
    return app
