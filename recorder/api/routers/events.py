"""Events: append to a match (all or none), read a match's events, follow every match's events."""
# No `from __future__ import annotations`: FastAPI must see the route annotations as real objects.

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials

from recorder.access.auth import check_events
from recorder.api.deps import Bearer, Book, Reader, authorized
from recorder.api.errors import responses
from recorder.api.models import AppendIn, AppendResult, EventsPage, FollowOut
from recorder.facade import Scorebook
from recorder.log.file import NewEvent
from recorder.log.inputs import MAX_POSITION, MAX_SEQ

router = APIRouter(tags=["events"])

APPEND_PATH = "/matches/{match_id}/events"
BAD_TOKEN = "An unknown or revoked token (reads need none)"
SPECTATOR_EVENTS = (
    "Reads need no token. While a match with hidden tiles is in progress, a reader without a referee or admin "
    "token, or the token of a recorder of this match, is a spectator (docs/FORMAT.md): the hidden tiles of its "
    "events are null and such an event carries `\"redacted\": true` (its hash is the stored one)."
)


@router.post(
    APPEND_PATH,
    status_code=201,
    response_model=AppendResult,
    summary="Append events (all or none)",
    response_description="Stored: the new events' envelopes, hash-chained",
    description="Every event is checked against the match's game: its type, the fields of its data (a misspelled "
    "field is a 400 that names it) and the rules (a 422 in the table's words). Nothing is stored unless every event "
    "is legal. An event with an `event_id` already stored is not stored again: a retried request is answered 200 "
    "with what was stored. The schema of each event's `data` is in GET /api/games/{game}/schema.",
    responses={
        200: {"model": AppendResult, "description": "A retry: every event's event_id was stored; what was stored"},
        **responses(
            400, 401, 403, 404, 409, 413, 422,
            s400="Malformed body, an unknown event type, or a field the event's data does not have (named)",
            s403="Only a referee (or an admin) may rewind",
        ),
    },
)
def append(sb: Book, match_id: str, body: AppendIn, creds: Bearer) -> Response:
    return appended(sb, match_id, body, creds)


def appended(sb: Scorebook, match_id: str, body: AppendIn, creds: HTTPAuthorizationCredentials | None) -> Response:
    """The append route's work, also run by `recorder.api.fast_append` for the plain request."""
    who = authorized(sb, creds, "recorder")  # here, not as a dependency: see `authorized`
    check_events(who, body.events)
    events = [NewEvent(e.type, e.data, e.event_id) for e in body.events]
    stored, replayed = sb.append(match_id, events, body.expected_seq, who.name)
    # The envelopes as the store made them are AppendResult's shape already: answered as they are, not
    # validated into models and serialized back (a tenth of the request's CPU).
    return JSONResponse({"events": stored}, status_code=200 if replayed else 201)


@router.get(
    APPEND_PATH,
    summary="The stored events, optionally a range of seqs",
    description=SPECTATOR_EVENTS,
    responses=responses(400, 401, 404, s401=BAD_TOKEN),
)
def read_events(
    sb: Book,
    match_id: str,
    who: Reader,
    from_: Annotated[int, Query(alias="from", ge=1, le=MAX_SEQ, description="the first seq")] = 1,
    to: Annotated[int | None, Query(ge=1, le=MAX_SEQ, description="the last seq")] = None,
) -> EventsPage:
    return EventsPage.model_validate({"events": sb.events(match_id, from_, to, who)})


@router.get(
    "/events",
    summary="Events of all matches in global order, after a position",
    description=SPECTATOR_EVENTS,
    responses=responses(400, 401, s401=BAD_TOKEN),
)
def follow(
    sb: Book,
    who: Reader,
    after: Annotated[int, Query(ge=0, le=MAX_POSITION, description="the last position already read")] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 500,
) -> FollowOut:
    return FollowOut.model_validate({"events": sb.events_after(after, limit, who)})
