"""The HTTP API of FORMAT.md, under /api. Reads need no token (a spectator's view hides the tiles of a match
in progress: recorder/access/visibility.py); writes need a bearer token.

The browser's sign-in pages (/login, /logout: a token exchanged for a session cookie, recorder/access/sessions.py)
are served by the same app, outside /api, from `routers/signin.py`.

Laid out the FastAPI "bigger applications" way: `deps` (the facade, the principal, roles), `errors`
(store errors -> HTTP statuses, in one place), `limits` (the body limit), `models` (request and answer
bodies), `openapi` (the typed event bodies in the document), `docs` (/redoc), and one router per
resource under `routers/`. /docs (Swagger UI) and /redoc serve their scripts from the installed
`fastapi-offline` package: no CDN, so they work without internet.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI
from fastapi_offline import FastAPIOffline

from recorder.api import docs, errors, guards, openapi
from recorder.api.fast_append import AppendFastPath
from recorder.api.limits import MAX_BODY_BYTES, BodyLimit
from recorder.api.routers import clubs, events, games, live, matches, signin, tokens
from recorder.facade import Scorebook

DESCRIPTION = """Records tabletop tile-game matches as immutable, hash-chained events and replays them.

Reads need no token (while a match is in progress its hidden tiles are `null` to anyone but a referee, an
admin or a recorder of the match); writes carry `Authorization: Bearer TOKEN`. Every refusal is a JSON object with
`error` and `reason`. GET /api/games lists the games, their options and their events;
GET /api/games/{game}/schema has the JSON Schema of every event's data.
"""


def create_api(sb: Scorebook) -> FastAPI:
    """The API app over `sb`; the dashboard may be mounted after it (`scorebook.app.build_app`)."""
    app = FastAPIOffline(
        title="Scorebook",
        description=DESCRIPTION,
        version="0.1.0",
        docs_url="/docs",
        redoc_url=None,  # served by `docs`, from a bundle that asks no CDN for its logo
        openapi_url="/openapi.json",
        static_url=docs.ASSETS_URL,
    )
    docs.install_redoc(app)
    app.state.scorebook = sb
    app.add_middleware(AppendFastPath)  # first, so innermost: inside the body limit and the guards
    app.add_middleware(BodyLimit)
    errors.install(app)
    guards.install(app)  # NUL, surrogates and '..' in paths and queries; bodies FastAPI cannot parse
    api = APIRouter(prefix="/api")
    for router in (matches.router, events.router, live.router, games.router, tokens.router, clubs.router):
        api.include_router(router)
    app.include_router(api)
    app.include_router(signin.router)  # /login, /logout: HTML for the browser, outside /api and the OpenAPI
    openapi.install(app)
    return app


__all__ = ["create_api", "MAX_BODY_BYTES", "BodyLimit"]
