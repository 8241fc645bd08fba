"""The HTTP API of FORMAT.md, under /api. Reads are open; writes need a bearer token."""
# No `from __future__ import annotations`: FastAPI must see the route annotations as real objects.


from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from projections.errors import IllegalEvent
from projections.scores import scores_json
from recorder import auth
from recorder.errors import BadRequest, BodyTooLarge, Forbidden, StoreError, Unauthorized
from recorder.store import EventStore, NewEvent, parse_jsonl

MAX_BODY_BYTES = 4 * 1024 * 1024


class EventIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: str = Field(min_length=1, examples=["hat_launched"])
    data: dict[str, Any] = Field(default_factory=dict)
    event_id: str | None = Field(default=None, min_length=1, max_length=128, description="client id for retries")


class AppendIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    expected_seq: StrictInt = Field(description="the match's last seq as the client knows it")
    events: list[EventIn] = Field(min_length=1)


class TokenIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=128)
    role: str = Field(pattern="^(recorder|referee|admin)$")


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
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await JSONResponse(too_large.body(), status_code=413)(scope, receive, send)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await JSONResponse(too_large.body(), status_code=413)(scope, receive, send)
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


def create_api(store: EventStore) -> FastAPI:
    app = FastAPI(
        title="Scorebook",
        description="Records tabletop tile-game matches as immutable, hash-chained events and replays them.",
        version="0.1.0",
        docs_url="/docs",
        openapi_url="/openapi.json",
    )
    app.state.store = store
    app.add_middleware(BodyLimit)
    bearer = HTTPBearer(auto_error=False)

    @app.exception_handler(StoreError)
    async def store_error(_: Request, exc: StoreError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def malformed(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()]
        return JSONResponse({"error": "bad_request", "reason": "; ".join(problems)}, status_code=400)

    def principal(creds: HTTPAuthorizationCredentials | None = Depends(bearer)) -> auth.Principal:
        if creds is None:
            raise Unauthorized("writes need an Authorization: Bearer TOKEN header")
        who = auth.authenticate(store.engine, creds.credentials)
        if who is None:
            raise Unauthorized("unknown or revoked token")
        return who

    def needs(role: str) -> Any:
        def check(who: auth.Principal = Depends(principal)) -> auth.Principal:
            if not who.may(role):
                raise Forbidden(f"token {who.name!r} is a {who.role}; this needs a {role}")
            return who

        return check

    api = APIRouter(prefix="/api")
    Who = Annotated[auth.Principal, Depends(needs("recorder"))]

    @api.post("/matches", status_code=201, summary="Start a match (the body is match_started's data)")
    def create_match(
        who: Who,
        data: Annotated[
            dict[str, Any],
            Body(
                examples=[
                    {"game": "hats-off", "players": [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]}
                ]
            ),
        ],
    ) -> dict[str, Any]:
        event_id = data.pop("event_id", None) if isinstance(data.get("event_id"), str) else None
        created = store.create_match(data, who.name, event_id)
        return {"match_id": created["match_id"], "seq": 1, "events": [created["event"]]}

    @api.get("/matches", summary="List matches, newest first")
    def list_matches(
        game: str | None = None,
        player: str | None = None,
        status: str | None = Query(None, pattern="^(in_progress|finished)$"),
        limit: int = Query(50, ge=1, le=500),
        offset: int = Query(0, ge=0),
    ) -> dict[str, Any]:
        items, total = store.list_matches(game, player, status, limit, offset)
        return {"items": items, "total": total, "limit": limit, "offset": offset}

    @api.get("/matches/{match_id}", summary="One match: game, players, status, last seq, scores")
    def get_match(match_id: str) -> dict[str, Any]:
        return store.summary(match_id)

    @api.post("/matches/{match_id}/events", status_code=201, summary="Append events (all or none)")
    def append(match_id: str, body: AppendIn, who: Who, response: Response) -> dict[str, Any]:
        if any(e.type == "rewind" for e in body.events) and not who.may("referee"):
            raise Forbidden(f"only a referee may rewind; token {who.name!r} is a {who.role}")
        events = [NewEvent(e.type, e.data, e.event_id) for e in body.events]
        stored, replayed = store.append(match_id, events, body.expected_seq, who.name)
        if replayed:
            response.status_code = 200
        return {"events": stored}

    @api.get("/matches/{match_id}/events", summary="The stored events, optionally a range of seqs")
    def read_events(
        match_id: str,
        from_: Annotated[int, Query(alias="from", ge=1)] = 1,
        to: Annotated[int | None, Query(ge=1)] = None,
    ) -> dict[str, Any]:
        return {"events": store.events(match_id, from_, to)}

    @api.get("/matches/{match_id}/state", summary="The reducer's state (at a seq)")
    def state(match_id: str, at: Annotated[int | None, Query(ge=1)] = None) -> dict[str, Any]:
        fold = store.fold(match_id, at)
        assert fold.game is not None
        return {
            "match_id": match_id,
            "game": fold.game.name,
            "seq": fold.seq,
            "superseded": sorted(fold.superseded_by),
            "state": fold.game.to_json(fold.state),
        }

    @api.get("/matches/{match_id}/scores", summary="FORMAT.md's scores JSON (at a seq)")
    def scores(match_id: str, at: Annotated[int | None, Query(ge=1)] = None) -> dict[str, Any]:
        return scores_json(store.fold(match_id, at), match_id)

    @api.get("/matches/{match_id}/legal", summary="Every legal next event for a player's known tiles")
    def legal(
        match_id: str, player: str, at: Annotated[int | None, Query(ge=1)] = None
    ) -> dict[str, Any]:
        fold = store.fold(match_id, at)
        assert fold.game is not None
        if player not in {pid for pid, _ in fold.players}:
            raise BadRequest(f"{player!r} does not play in this match")
        try:
            moves = [] if fold.finished else fold.game.legal_moves(fold.state, player)
        except IllegalEvent as e:
            raise BadRequest(e.reason) from e
        return {"match_id": match_id, "seq": fold.seq, "player": player, "moves": moves}

    @api.get("/matches/{match_id}/export", summary="The match log as JSON Lines")
    def export(match_id: str) -> StreamingResponse:
        lines = list(store.export_lines(match_id))  # read before answering: a 404 stays a 404
        return StreamingResponse(
            iter(lines),
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{match_id}.jsonl"'},
        )

    @api.post(
        "/matches/import",
        status_code=201,
        summary="Import a match log (JSON Lines) as a new match",
        openapi_extra={"requestBody": {"content": {"application/x-ndjson": {"schema": {"type": "string"}}}}},
    )
    async def import_match(request: Request, who: Who) -> dict[str, Any]:
        raw = await request.body()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadRequest("the body must be UTF-8 JSON Lines") from e
        return store.import_log(parse_jsonl(text), who.name)

    @api.get("/matches/{match_id}/verify", summary="Check the hash chain")
    def verify(match_id: str) -> dict[str, Any]:
        return store.verify(match_id).as_json()

    @api.get("/events", summary="Events of all matches in global order, after a position")
    def follow(after: Annotated[int, Query(ge=0)] = 0, limit: Annotated[int, Query(ge=1, le=1000)] = 500) -> dict:
        return {"events": store.events_after(after, limit)}

    @api.post("/tokens", status_code=201, summary="Create a token (admin)")
    def create_token(body: TokenIn, _: Annotated[auth.Principal, Depends(needs("admin"))]) -> dict[str, Any]:
        return {"name": body.name, "role": body.role, "token": auth.create_token(store.engine, body.name, body.role)}

    @api.get("/tokens", summary="List tokens (admin)")
    def tokens(_: Annotated[auth.Principal, Depends(needs("admin"))]) -> dict[str, Any]:
        return {"tokens": auth.list_tokens(store.engine)}

    @api.delete("/tokens/{token_id}", summary="Revoke a token (admin)")
    def revoke(token_id: int, _: Annotated[auth.Principal, Depends(needs("admin"))]) -> dict[str, Any]:
        if not auth.revoke_token(store.engine, token_id):
            raise BadRequest(f"no active token {token_id}")
        return {"revoked": token_id}

    app.include_router(api)
    return app
