"""The plain append, answered before the app's routing: POST /api/matches/{match_id}/events with a
JSON body and a bearer token is the write path's one hot request, and Starlette's routing among the app's ~60
routes, FastAPI's request wrappers and its dependency solving cost it more CPU than its own work outside the
store. Here it is read, validated and answered by the same code the route runs (`events.appended`, in the same
thread pool), its store errors by the same handler.

Anything but the plain case goes on to the app untouched, its body replayed as it came, so that the route
answers it exactly as before, every refusal included: another method, path or content type, no well-formed
bearer token, a body that is not JSON or not an AppendIn. The middleware sits inside the request guards and the
body limit (`create_api` adds it first), so those have run by the time it sees a request.
"""

from __future__ import annotations

import json
import re

from fastapi.security import HTTPAuthorizationCredentials
from fastapi.security.utils import get_authorization_scheme_param
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from recorder.api.errors import store_error_response
from recorder.api.models import AppendIn
from recorder.api.routers.events import appended
from recorder.errors import StoreError

# The route's own pattern (`/api` + events.APPEND_PATH): a path parameter is one segment, `[^/]+`.
PATH = re.compile("/api/matches/([^/]+)/events")


def _header(scope: Scope, name: bytes) -> str | None:
    """The first value of the header `name`, as Starlette's `Headers.get` reads it."""
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _bearer(scope: Scope) -> HTTPAuthorizationCredentials | None:
    """The credentials FastAPI's `HTTPBearer(auto_error=False)` would give the route, or None."""
    authorization = _header(scope, b"authorization")
    scheme, credentials = get_authorization_scheme_param(authorization)
    if not (authorization and scheme and credentials) or scheme.lower() != "bearer":
        return None
    return HTTPAuthorizationCredentials(scheme=scheme, credentials=credentials)


def _json(scope: Scope) -> bool:
    """A content type FastAPI reads as JSON, in its plainest spelling (any other goes to the route)."""
    kind = _header(scope, b"content-type")
    return kind is not None and kind.split(";", 1)[0].strip().lower() == "application/json"


class AppendFastPath:
    """ASGI middleware: the plain append answered here, everything else passed on (see the module)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = None
        if scope["type"] == "http" and scope["method"] == "POST" and not scope.get("root_path"):
            match = PATH.fullmatch(scope["path"])
        creds = _bearer(scope) if match is not None and _json(scope) else None
        if match is None or creds is None:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left: the app sees it as it would have
                await self.app(scope, _replay(chunks, receive, message), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        try:  # as FastAPI reads the route's body: json.loads, then AppendIn validated from Python objects
            parsed = AppendIn.model_validate(json.loads(body), from_attributes=True) if body else None
        except Exception:  # noqa: BLE001 - whatever the route would refuse, it refuses itself
            parsed = None
        if parsed is None:
            await self.app(scope, _replay([body], receive), send)
            return
        try:
            response = await run_in_threadpool(appended, scope["app"].state.scorebook, match[1], parsed, creds)
        except StoreError as e:
            response = store_error_response(e)
        await response(scope, receive, send)


def _replay(chunks: list[bytes], receive: Receive, last: Message | None = None) -> Receive:
    """`receive` with the body already read given first (and then the message that stopped the reading)."""
    pending: list[Message] = [{"type": "http.request", "body": b"".join(chunks), "more_body": last is not None}]
    if last is not None:
        pending.append(last)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed
