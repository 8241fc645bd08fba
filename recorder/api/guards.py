"""Request-level guards: what is refused before any route (the API's or the dashboard's) sees it.

- `RequestGuard` (ASGI middleware over the whole app, the dashboard mount included): a NUL character
  or a lone surrogate in the path or the query (PostgreSQL refuses NUL in text, UTF-8 has no
  surrogates), and a `.` or `..` path segment, are a 400 naming them.
- A body FastAPI cannot parse as JSON for a reason other than a syntax error (nested deeper than
  Python's parser goes, an integer of thousands of digits, not UTF-8) is a 400 in the API's error
  shape naming the problem, not `{"detail": ...}`; so is every other HTTPException FastAPI raises.
- The dashboard's `/_dash-component-suites/...` for a file Dash did not register is a JSON 404, not
  Flask's 500 (`guard_dashboard`, after the dashboard is mounted).

Values inside JSON bodies are checked by the store (recorder.log.inputs), so every caller shares them.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from recorder.log.inputs import MAX_DEPTH

_SURROGATE = re.compile("[\ud800-\udfff]")
_ERRORS = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
           413: "body_too_large", 415: "unsupported_media_type"}


def _text_problem(text: str) -> str | None:
    if "\x00" in text:
        return "holds a NUL character (%00)"
    if _SURROGATE.search(text):
        return "holds a lone surrogate, which is not Unicode text"
    return None


def request_problem(scope: Scope) -> str | None:
    """Why the request's path or query is refused, or None."""
    path: str = scope.get("path", "")
    problem = _text_problem(path)
    if problem is not None:
        return f"the path {problem}"
    if any(segment in (".", "..") for segment in path.split("/")):
        return "the path holds a '.' or '..' segment"
    query = scope.get("query_string", b"").decode("latin-1")
    for name, value in parse_qsl(query, keep_blank_values=True):
        problem = _text_problem(name) or _text_problem(value)
        if problem is not None:
            return f"the query parameter {name[:64]!r} {problem}"
    return None


class RequestGuard:
    """Refuse a request whose path or query `request_problem` finds fault with, with a 400."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            problem = request_problem(scope)
            if problem is not None:
                await JSONResponse({"error": "bad_request", "reason": problem}, status_code=400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _body_problem(exc: BaseException | None) -> str | None:
    """What FastAPI's "There was an error parsing the body" was (it keeps the exception as the cause)."""
    if isinstance(exc, RecursionError):
        return f"the body is nested too deeply to read (the limit is {MAX_DEPTH} levels)"
    if isinstance(exc, UnicodeDecodeError):
        return "the body is not UTF-8"
    if isinstance(exc, ValueError):
        if "integer string conversion" in str(exc):
            return "the body holds an integer too long to read"
        return f"the body is not JSON ({str(exc)[:200]})"
    return None


def _http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    reason = _body_problem(exc.__cause__) if exc.status_code == 400 else None
    body = {"error": _ERRORS.get(exc.status_code, "http_error"), "reason": reason or str(exc.detail)}
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


def install(app: FastAPI) -> None:
    """The middleware and the HTTPException handler, on the whole app."""
    app.add_middleware(RequestGuard)
    app.add_exception_handler(HTTPException, _http_error)


def guard_dashboard(dash_app: Any) -> None:
    """A component-suite file Dash did not register (`/_dash-component-suites/nope/x.js`) is a JSON 404:
    Dash raises DependencyException for it, which Flask would answer with a 500."""
    from dash.exceptions import DependencyException
    from flask import jsonify

    def missing(e: Exception) -> Any:
        return jsonify(error="not_found", reason=str(e).splitlines()[0] if str(e) else "no such file"), 404

    dash_app.server.register_error_handler(DependencyException, missing)


__all__ = ["RequestGuard", "guard_dashboard", "install", "request_problem"]
