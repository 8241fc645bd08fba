"""Why a request is not carried out: each error has a JSON body and a message, and no HTTP status.

The HTTP API maps these classes to statuses in one place (recorder/api/errors.py); the CLI and the
Python API (recorder.Scorebook) show `.message`.
"""

from __future__ import annotations

from typing import Any


class StoreError(Exception):
    """Base of every error the store, the facade and the API raise on purpose."""

    error = "bad_request"

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.error, "reason": self.message, **self.extra}


class BadRequest(StoreError):
    """Malformed input, a field the event does not have, or an event type the game does not know."""


class NotFound(StoreError):
    """Something asked for by name or id does not exist (a match, a game, a token)."""

    error = "not_found"


class MatchNotFound(NotFound):
    """No match with this id."""


class Unauthorized(StoreError):
    error = "unauthorized"


class Forbidden(StoreError):
    error = "forbidden"


class BodyTooLarge(StoreError):
    error = "body_too_large"


class Conflict(StoreError):
    """`expected_seq` is not the match's last seq (body carries `current_seq`), or an event_id was
    reused for another event."""

    error = "conflict"


class ChainBroken(Conflict):
    """The match's stored rows do not verify from some seq on (edited, deleted or unreadable by someone
    with database access): it replays only up to the seq before, and nothing can be appended to it."""

    error = "chain_broken"

    def __init__(self, message: str, seq: int) -> None:
        super().__init__(message, first_bad_seq=seq)
        self.seq = seq


class Refused(StoreError):
    """An event that breaks a rule: FORMAT.md's refusal body."""

    error = "illegal_event"

    def __init__(self, reason: str, seq: int, type: str) -> None:
        super().__init__(reason, seq=seq, type=type)

    def body(self) -> dict[str, Any]:
        return {"error": self.error, "seq": self.extra["seq"], "type": self.extra["type"], "reason": self.message}


class ImportRefused(StoreError):
    """A match file refused at one line; nothing of it is stored.

    `malformed` is True when the line is not a well-formed event (not JSON, not an object, a bad time,
    an unknown event type), False when it is well formed but breaks a rule or the hash chain.
    """

    error = "import_refused"

    def __init__(self, reason: str, line: int, malformed: bool = False, file: str | None = None) -> None:
        where = f"{file}: line {line}" if file else f"line {line}"
        super().__init__(f"{where}: {reason}", line=line, **({"file": file} if file else {}))
        self.reason = reason
        self.line = line
        self.malformed = malformed
        self.file = file


class SchemaBehind(StoreError):
    """The database schema is not at the head revision (or not there at all): run `scorebook migrate`."""

    error = "schema_behind"
