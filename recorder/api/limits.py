"""Request body limits, enforced before a body reaches a route."""

from __future__ import annotations

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from recorder.api.errors import status_of
from recorder.errors import BodyTooLarge

MAX_BODY_BYTES = 4 * 1024 * 1024


class BodyLimit:
    """Refuse bodies over `limit` bytes with 413 before any of them reaches a route."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app, self.limit = app, limit

    def refusal(self) -> JSONResponse:
        """The 413 (made only when needed: building it on every request cost more than the rest of the check)."""
        too_large = BodyTooLarge(f"the body is larger than {self.limit} bytes")
        return JSONResponse(too_large.body(), status_code=status_of(too_large))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self.refusal()(scope, receive, send)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self.refusal()(scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body, sent = b"".join(chunks), False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)
