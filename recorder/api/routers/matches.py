"""Matches: start, list, summary, state, scores, legal moves, export, import, verify."""
# No `from __future__ import annotations`: FastAPI must see the route annotations as real objects.

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Request, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from projections.corrections import requests
from recorder.access.auth import check_events
from recorder.api.deps import Book, Reader, Recorder
from recorder.api.errors import responses
from recorder.api.models import (
    ImportOut,
    LegalOut,
    MatchCorrections,
    MatchCreated,
    MatchDetail,
    MatchList,
    MissedOut,
    Scores,
    StateOut,
    VerifyOut,
)
from recorder.errors import BadRequest
from recorder.log.file import parse_jsonl
from recorder.log.inputs import MAX_POSITION, MAX_SEQ

router = APIRouter(prefix="/matches", tags=["matches"])

At = Annotated[int | None, Query(ge=1, le=MAX_SEQ, description="a seq of the match: the answer as it was then")]
AT_400 = "`at` is not a seq of this match, or a malformed parameter"
BAD_TOKEN = "An unknown or revoked token (reads need none)"
SPECTATOR_NOTE = (
    "Reads need no token. While a match with hidden tiles is in progress, a reader without a referee or admin "
    "token, or the token of a recorder of this match, is a spectator (docs/FORMAT.md):"
)


class JSONLinesResponse(StreamingResponse):
    media_type = "application/x-ndjson"


@router.post(
    "",
    status_code=201,
    summary="Start a match (the body is match_started's data)",
    response_description="Started: the new match id and its stored match_started event",
    responses=responses(
        400, 401, 409, 413, 422,
        s400="Malformed data, or a field match_started does not have (named)",
        s409="The body's event_id was already used for another event",
        s422="The game, the players or the options are refused (`illegal_event`, seq 1)",
    ),
)
def create_match(
    sb: Book,
    who: Recorder,
    data: Annotated[
        dict[str, Any],
        Body(
            description="match_started's data, and optionally an `event_id` for retries",
            examples=[{"game": "hats-off", "players": [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]}],
        ),
    ],
) -> MatchCreated:
    event_id = data.pop("event_id", None) if isinstance(data.get("event_id"), str) else None
    created = sb.start_match(data, who.name, event_id)
    return MatchCreated(match_id=created["match_id"], seq=1, events=[created["event"]])


@router.get("", summary="List matches, newest first", responses=responses(400))
def list_matches(
    sb: Book,
    game: str | None = None,
    player: Annotated[str | None, Query(description="a player id")] = None,
    status: Literal["in_progress", "finished", "abandoned"] | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_POSITION)] = 0,
    after: Annotated[str | None, Query(max_length=200, description="the `next` cursor of the page before: "
                                       "pages by keyset, as fast at any depth")] = None,
) -> MatchList:
    items, total, following = sb.match_page(game, player, status, limit, offset, after)
    return MatchList.model_validate({"items": items, "total": total, "limit": limit, "offset": offset,
                                     "next": following})


@router.post(
    "/import",
    status_code=201,
    summary="Import a match log (JSON Lines) as a new match",
    response_description="Imported: the new match id and its last seq",
    description="Lines may carry their hashes (an export: every hash is kept) or not (they are chained anew). "
    "The import stops at the first refused line, names it, and stores nothing of the file. The import is "
    "recorded on the match (who, when, `file_name`). The same file again, or an export of a match already "
    "stored, answers 200 with that match (`existing`); an export that extends a stored match appends the rest. "
    "A file holding `rewind` events needs a referee's token, as appending one does.",
    responses={
        200: {"model": ImportOut, "description": "Already stored: the match this file is (`existing` true)"},
        **responses(
            400, 401, 403, 409, 413, 422,
        s403="The file holds a rewind and the token is a recorder's",
        s409="A stored match starts with the same event as the file but differs further on",
        s400="A line that is not a well-formed event: not JSON, not an object, an unknown type (`import_refused`, "
        "with `line`), or a body that is not UTF-8",
        s422="A line that breaks a rule or the hash chain (`import_refused`, with `line`); nothing is stored",
        ),
    },
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/x-ndjson": {"schema": {"type": "string"}}}}
    },
)
async def import_match(
    request: Request,
    response: Response,
    sb: Book,
    who: Recorder,
    file_name: Annotated[
        str | None, Query(max_length=255, description="the file's name, recorded with the import")
    ] = None,
) -> ImportOut:
    raw = await request.body()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadRequest("the body must be UTF-8 JSON Lines") from e
    lines = parse_jsonl(text)
    check_events(who, (item.obj for item in lines))  # a file's rewinds need a referee, as appended ones do
    imported = await run_in_threadpool(sb.import_log, lines, who.name, file_name)
    if imported["existing"]:
        response.status_code = 200
    return ImportOut.model_validate(imported)


@router.get(
    "/{match_id}",
    summary="One match: game, players, status, last seq, scores",
    responses=responses(404),
)
def get_match(sb: Book, match_id: str) -> MatchDetail:
    return MatchDetail.model_validate(sb.summary(match_id))


@router.get(
    "/{match_id}/corrections",
    summary="The match's correction requests (notes flagged for the referee)",
    description="Open ones by default; `all=true` lists the closed ones too, each with the rewind or note that "
    "closed it. A request is asked for with a note `{\"text\", \"about_seq\", \"correction\": true}` (any role); "
    "a referee closes it by a rewind to before `about_seq`, or dismisses it with a note `{\"text\", \"resolves\": "
    "seq}`.",
    responses=responses(400, 404, s400="`all` is not a boolean (`bad_request`)"),
)
def corrections(
    sb: Book, match_id: str,
    all: Annotated[bool, Query(description="the closed requests too")] = False,
) -> MatchCorrections:
    found = requests(sb.events(match_id))
    return MatchCorrections.model_validate({
        "match_id": match_id, "status": sb.summary(match_id)["status"],
        "requests": [r.to_json() for r in found if all or r.open]})


@router.get(
    "/{match_id}/state",
    summary="The reducer's state (at a seq)",
    description=f"{SPECTATOR_NOTE} the hands and racks in it are null.",
    responses=responses(400, 401, 404, s400=AT_400, s401=BAD_TOKEN),
)
def state(sb: Book, match_id: str, who: Reader, at: At = None) -> StateOut:
    return StateOut.model_validate(sb.state(match_id, at, who))


@router.get(
    "/{match_id}/scores", summary="FORMAT.md's scores JSON (at a seq)", responses=responses(400, 404, s400=AT_400)
)
def scores(sb: Book, match_id: str, at: At = None) -> Scores:
    return Scores.model_validate(sb.scores(match_id, at))


@router.get(
    "/{match_id}/legal",
    summary="Could they have played? Every legal next event at a seq, as the reader may know it",
    description="For `player`, by default the player to move (every player when the game names none), each "
    "move with its scorepad notation. A referee, an admin, a recorder of the match, or anyone once it is "
    "finished: from the log as recorded, with `missed`, hindsight about the event recorded next. "
    f"{SPECTATOR_NOTE} the moves are worked out from the log with the hidden tiles redacted (the table's "
    "knowledge), a move naming an unseen tile is left out (`unseen` counts them), and `missed` is null.",
    responses=responses(
        400, 401, 404,
        s400="The player does not play in the match, or `at` is not a seq of it",
        s401=BAD_TOKEN,
    ),
)
def legal(
    sb: Book, match_id: str, who: Reader,
    player: Annotated[str | None, Query(description="a player id; default: the player to move")] = None,
    at: At = None,
) -> LegalOut:
    return LegalOut.model_validate(sb.legal(match_id, player, at, who))


@router.get(
    "/{match_id}/missed",
    summary="Missed plays in hindsight: draws, passes and exchanges while a held tile fitted, missed bonuses",
    description="Every certain missed play of the match (docs/FORMAT.md \"Missed plays\"): a tile the log "
    "learnt of only later (drawn unseen and never revealed) is unknown, never assumed.",
    responses=responses(
        401, 403, 404,
        s401=BAD_TOKEN,
        s403="A game with hidden tiles in progress, and a reader who may not see them: hindsight names tiles "
        "the table has not seen yet",
    ),
)
def missed(sb: Book, match_id: str, who: Reader) -> MissedOut:
    return MissedOut.model_validate(sb.missed(match_id, who))


@router.get(
    "/{match_id}/export",
    summary="The match log as JSON Lines",
    response_class=JSONLinesResponse,
    responses={
        200: {
            "description": "One envelope per line, in seq order, with its hash: `import` reproduces every hash. "
            f"{SPECTATOR_NOTE} hidden tiles are null and such lines carry `\"redacted\": true`: "
            "that file neither verifies nor imports",
            "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
        },
        **responses(401, 404, s401="An unknown or revoked token (reads need none)"),
    },
)
def export(sb: Book, match_id: str, who: Reader) -> JSONLinesResponse:
    lines = sb.export_lines(match_id, who)  # read before answering: a 404 stays a 404
    return JSONLinesResponse(
        iter(lines), headers={"Content-Disposition": f'attachment; filename="{match_id}.jsonl"'}
    )


@router.get(
    "/{match_id}/verify",
    summary="Check the hash chain",
    response_model_exclude_none=True,
    responses=responses(404),
)
def verify(sb: Book, match_id: str) -> VerifyOut:
    return VerifyOut.model_validate(sb.verify(match_id).as_json())
