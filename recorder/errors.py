"""Why a request is not carried out; each error names its HTTP status and JSON body."""

from __future__ import annotations

from typing import Any


class StoreError(Exception):
    status = 400
    error = "bad_request"

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.error, "reason": self.message, **self.extra}


class BadRequest(StoreError):
    """Malformed input, or an event type the game does not know."""


class MatchNotFound(StoreError):
    status = 404
    error = "not_found"


class Unauthorized(StoreError):
    status = 401
    error = "unauthorized"


class Forbidden(StoreError):
    status = 403
    error = "forbidden"


class BodyTooLarge(StoreError):
    status = 413
    error = "body_too_large"


class Conflict(StoreError):
    """`expected_seq` is not the match's last seq (or an event_id was reused for another event)."""

    status = 409
    error = "conflict"


class Refused(StoreError):
    """An event that breaks a rule: FORMAT.md's refusal body."""

    status = 422
    error = "illegal_event"

    def __init__(self, reason: str, seq: int, type: str) -> None:
        super().__init__(reason, seq=seq, type=type)

    def body(self) -> dict[str, Any]:
        return {"error": self.error, "seq": self.extra["seq"], "type": self.extra["type"], "reason": self.message}


class ImportRefused(StoreError):
    """A match file refused at one line; nothing of it is stored."""

    status = 422
    error = "import_refused"

    def __init__(self, reason: str, line: int, status: int = 422) -> None:
        super().__init__(f"line {line}: {reason}", line=line)
        self.status = status
