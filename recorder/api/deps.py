"""Route dependencies: the Scorebook facade, the principal behind the bearer token, a role requirement."""
# No `from __future__ import annotations`: FastAPI must see the dependencies' annotations as real objects.

from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from recorder.access.auth import ROLES, Principal
from recorder.access.sessions import SESSION_COOKIE
from recorder.access.visibility import Viewer, reader
from recorder.errors import Forbidden, Unauthorized
from recorder.facade import Scorebook

bearer = HTTPBearer(auto_error=False, description="a token from `scorebook token create` or POST /api/tokens")


# Dependencies that neither wait nor read the database are `async def`: FastAPI runs a plain `def`
# dependency in its thread pool, and each such hop cost more than an append's own work.


async def scorebook(request: Request) -> Scorebook:
    """The facade `create_api` was given."""
    sb: Scorebook = request.app.state.scorebook
    return sb


Book = Annotated[Scorebook, Depends(scorebook)]


Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def principal(sb: Book, creds: Bearer) -> Principal:
    """Who is writing: the name and role of the request's bearer token."""
    if creds is None:
        raise Unauthorized("writes need an Authorization: Bearer TOKEN header")
    who = sb.authenticate(creds.credentials)
    if who is None:
        raise Unauthorized("unknown or revoked token")
    return who


def authorized(sb: Scorebook, creds: HTTPAuthorizationCredentials | None, role: str) -> Principal:
    """`require(role)`'s check, called by a route itself: the append route authenticates in the thread its
    own work runs in, rather than in a thread-pool hop of its own before it (a third of a request's CPU)."""
    who = principal(sb, creds)
    _check_role(who, role)
    return who


def _check_role(who: Principal, role: str) -> None:
    if not who.may(role):
        raise Forbidden(f"token {who.name!r} is a {who.role}; this needs a {role}")


def viewer(request: Request, sb: Book, creds: Bearer) -> Viewer:
    """Who is reading (recorder/access/visibility.py): reads need no token, and without one (nor a sign-in
    session cookie) the reader is a spectator; a token that is sent must be valid: an unknown or revoked
    one is a 401, never silently a spectator."""
    if creds is not None:
        who = sb.authenticate(creds.credentials)
        if who is None:
            raise Unauthorized("unknown or revoked token (reads need no token: send none to read as a spectator)")
        return reader(who)
    return reader(sb.session_principal(request.cookies.get(SESSION_COOKIE)))


def require(role: str) -> Callable[[Principal], Coroutine[Any, Any, Principal]]:
    """A dependency: the principal, if its role may act as `role` (roles: recorder < referee < admin)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")

    async def check(who: Annotated[Principal, Depends(principal)]) -> Principal:
        _check_role(who, role)
        return who

    return check


Recorder = Annotated[Principal, Depends(require("recorder"))]
Referee = Annotated[Principal, Depends(require("referee"))]
Admin = Annotated[Principal, Depends(require("admin"))]
Reader = Annotated[Viewer, Depends(viewer)]
