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

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        too_large = BodyTooLarge(f"the body is larger than {self.limit} bytes")
        refusal = JSONResponse(too_large.body(), status_code=status_of(too_large))
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await refusal(scope, receive, send)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await refusal(scope, receive, send)
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
