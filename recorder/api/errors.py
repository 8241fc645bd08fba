"""The one place where store errors become HTTP statuses, and where routes document the statuses they answer.

The store, the facade and the CLI raise `recorder.errors` classes that carry a JSON body and a message,
no status; `status_of` maps each class here. `responses(...)` builds a route's `responses=` OpenAPI
documentation from the same table, so the documented statuses and the answered ones come from one list.
"""
# No `from __future__ import annotations`: FastAPI reads the handlers' annotations.

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from recorder.api.models import ErrorBody
from recorder.errors import (
    BadRequest,
    BodyTooLarge,
    Conflict,
    Forbidden,
    ImportRefused,
    NotFound,
    Refused,
    SchemaBehind,
    StoreError,
    Unauthorized,
)

# Most specific class first: the first class the error is an instance of gives its status.
STATUSES: tuple[tuple[type[StoreError], int], ...] = (
    (Unauthorized, 401),
    (Forbidden, 403),
    (NotFound, 404),  # MatchNotFound is a NotFound
    (Conflict, 409),
    (BodyTooLarge, 413),
    (Refused, 422),
    (SchemaBehind, 503),
    (BadRequest, 400),
)


def status_of(exc: StoreError) -> int:
    """The HTTP status of a store error."""
    if isinstance(exc, ImportRefused):
        return 400 if exc.malformed else 422
    for cls, status in STATUSES:
        if isinstance(exc, cls):
            return status
    return 400  # any other StoreError is the client's input


def store_error_response(exc: StoreError) -> JSONResponse:
    """The answer to a store error: its body, its status."""
    return JSONResponse(exc.body(), status_code=status_of(exc))


def _store_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StoreError)
    return store_error_response(exc)


def _malformed(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()]
    return JSONResponse({"error": "bad_request", "reason": "; ".join(problems)}, status_code=400)


# The error names of the statuses FastAPI and Starlette answer themselves (a body that is not JSON, a method
# the route does not take), so that those bodies are ErrorBody too.
HTTP_ERRORS = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 413: "body_too_large"}


def _http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    error = HTTP_ERRORS.get(exc.status_code, "bad_request" if exc.status_code < 500 else "server_error")
    return JSONResponse({"error": error, "reason": str(exc.detail)}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


def install(app: FastAPI) -> None:
    """Answer store errors with their status and body, malformed requests with 400 (not FastAPI's 422),
    and the framework's own refusals (a body that is not JSON) with the same ErrorBody."""
    app.add_exception_handler(StoreError, _store_error)
    app.add_exception_handler(RequestValidationError, _malformed)
    app.add_exception_handler(StarletteHTTPException, _http_error)


# What each error status means, for the OpenAPI; a route may say it more precisely.
DESCRIPTIONS = {
    400: "Malformed request: a body, parameter or field that is not what the route takes (`bad_request`)",
    401: "No bearer token, or an unknown or revoked one (`unauthorized`)",
    403: "The token's role may not do this (`forbidden`)",
    404: "No such match (`not_found`)",
    409: "`expected_seq` is not the match's last seq (`conflict`, with `current_seq`), or an event_id reused",
    413: "The body is larger than 4 MiB (`body_too_large`)",
    422: "An event that breaks a rule (`illegal_event`, with `seq` and `type`); nothing is stored",
    503: "The database schema is behind: run `scorebook migrate` (`schema_behind`)",
}


def responses(*statuses: int, **described: str) -> dict[int | str, dict[str, Any]]:
    """A route's `responses=`: each error status with the ErrorBody model and what it means.

    `described` overrides a description by status, spelled `s404="No such game"`.
    """
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        description = described.get(f"s{status}", DESCRIPTIONS[status])
        out[status] = {"model": ErrorBody, "description": description}
    return out
