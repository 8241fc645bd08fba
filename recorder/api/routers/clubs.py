"""The club: registered players, tournaments (pairings, tables, results, standings, the archive) and ratings.

Every write is an event on a club stream (recorder/clubs/service.py, docs/TOURNAMENTS.md). Players are registered by
a recorder; merging two ids, and everything about a tournament, needs a referee (or an admin).
"""
# No `from __future__ import annotations`: FastAPI must see the route annotations as real objects.

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, Field

from recorder.api.deps import Book, Recorder, Referee
from recorder.api.errors import responses
from recorder.api.models import TournamentCorrections

router = APIRouter(tags=["club"])


class JSONLines(PlainTextResponse):
    media_type = "application/x-ndjson"


PlayerId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[a-z0-9_-]+$")]
TournamentId = Annotated[str, Field(min_length=1, max_length=32)]


class ClubPlayer(BaseModel):
    id: str
    name: str
    club: str | None = None
    aliases: list[str] = []
    merged: list[str] = Field(default=[], description="ids merged into this one: every read follows them")


class PlayersOut(BaseModel):
    players: list[ClubPlayer]


class NewPlayer(BaseModel):
    player: PlayerId
    name: str = Field(min_length=1, max_length=100)
    club: str | None = Field(default=None, max_length=100)


class AliasIn(BaseModel):
    alias: str = Field(min_length=1, max_length=100, description="a free name older matches use for this player")


class MergeIn(BaseModel):
    into: PlayerId = Field(description="the id that stays; the path's id goes")


class PlayerPage(BaseModel):
    player: dict[str, Any]
    registered: bool
    matches: list[dict[str, Any]] = Field(description="newest first: game, date, score, won, the players")
    ratings: dict[str, list[dict[str, Any]]] = Field(description="per game: the rating after each match")


class TournamentIn(BaseModel):
    name: str = Field(min_length=1, max_length=100)
    game: str
    format: Literal["swiss", "tables"]
    rounds: int = Field(ge=1, le=50)
    table_size: int = Field(ge=2, le=8)
    scoring: dict[str, float] | None = Field(default=None, description='{"win": 1, "bye": 1} by default')
    date: str | None = Field(default=None, max_length=10, description="the day it is played (YYYY-MM-DD)")
    meta: dict[str, Any] | None = None
    id: str | None = Field(default=None, max_length=32, pattern=r"^[a-z0-9_-]+$", description="its id (else new)")


class TournamentCreated(BaseModel):
    tournament_id: str


class TournamentRow(BaseModel):
    id: str
    name: str
    game: str
    format: str
    rounds: int
    paired: int
    players: int
    closed: bool
    date: str | None = None


class TournamentsOut(BaseModel):
    tournaments: list[TournamentRow]


class EntryIn(BaseModel):
    player: PlayerId
    name: str | None = Field(default=None, max_length=100, description="needed for a player not registered")


class WithdrawIn(BaseModel):
    player: PlayerId


class TableIn(BaseModel):
    table: int = Field(ge=1)
    seats: list[str] = Field(description="player ids in clockwise seat order")


class PairIn(BaseModel):
    tables: list[TableIn] | None = Field(default=None, description="a round paired by hand (else by the method)")
    byes: list[str] = []


class StartTableIn(BaseModel):
    options: dict[str, Any] = Field(default={}, description="the game's options (defaults otherwise)")


class AssignIn(BaseModel):
    match_id: str = Field(min_length=1, max_length=64)


class ForfeitIn(BaseModel):
    players: list[str] = Field(min_length=1)


class StandingRow(BaseModel):
    rank: int
    player: str
    name: str
    match_points: float
    buchholz: float
    game_points: int
    spread: int
    played: int
    byes: int
    withdrawn: bool


class StandingsOut(BaseModel):
    tournament_id: str
    standings: list[StandingRow]
    missing: list[dict[str, Any]] = Field(description="tables still without a result: round, table, seats")


class Done(BaseModel):
    tournament_id: str
    taken: int = Field(default=0, description="results taken from finished matches")


class MatchStarted(BaseModel):
    match_id: str


class ArchiveImported(BaseModel):
    tournament_id: str
    existing: bool
    matches_added: int


class TournamentDetail(BaseModel):
    id: str
    name: str
    game: str
    format: str
    rounds: int
    table_size: int
    scoring: dict[str, float]
    date: str | None = None
    meta: dict[str, Any] = {}
    closed: bool
    current_round: int
    entrants: list[dict[str, Any]]
    paired_rounds: list[dict[str, Any]] = Field(description="each round: its tables (seats, match, forfeits, result)")
    missing_results: list[dict[str, Any]]


class RoundOut(BaseModel):
    round: int
    tables: list[TableIn]
    byes: list[str]
    by_hand: bool


class RatingsOut(BaseModel):
    ratings: dict[str, dict[str, Any]] = Field(description="per game: players best first, and each one's history")


# -- players ----------------------------------------------------------------------------------------------


@router.get("/players", summary="The registered players", response_model=PlayersOut)
def list_players(sb: Book) -> dict[str, Any]:
    return {"players": [p.to_json() for p in sb.clubs.club_players()]}


@router.post("/players", status_code=201, summary="Register a player", response_model=ClubPlayer,
             responses=responses(400, 401, 403, 413, 422, s422="The id is taken (`illegal_event`)"))
def register_player(sb: Book, who: Recorder, body: NewPlayer) -> dict[str, Any]:
    return sb.clubs.register_player(body.player, body.name, who.name, club=body.club)


@router.get("/players/{player_id}", summary="A player: their matches, scores and rating history",
            response_model=PlayerPage, responses=responses(404))
def player_page(sb: Book, player_id: str) -> dict[str, Any]:
    return sb.clubs.player(player_id)


@router.post("/players/{player_id}/aliases", summary="Add a name older matches use for this player",
             response_model=ClubPlayer, responses=responses(400, 401, 403, 404, 413, 422))
def add_alias(sb: Book, who: Recorder, player_id: str, body: AliasIn) -> dict[str, Any]:
    return sb.clubs.add_alias(player_id, body.alias, who.name)


@router.post("/players/{player_id}/merge", summary="Merge this id into another (the same person)",
             response_model=ClubPlayer, responses=responses(400, 401, 403, 404, 413, 422))
def merge_players(sb: Book, who: Referee, player_id: str, body: MergeIn) -> dict[str, Any]:
    return sb.clubs.merge_players(player_id, body.into, who.name)


@router.get("/ratings", summary="Ratings per game (openskill, Plackett-Luce), with each player's history",
            response_model=RatingsOut, responses=responses(400))
def ratings(sb: Book, game: Annotated[str | None, Query(max_length=32)] = None) -> dict[str, Any]:
    return {"ratings": {g: r.to_json() for g, r in sb.clubs.ratings(game).items()}}


# -- tournaments ------------------------------------------------------------------------------------------

TOURNAMENT = "/tournaments/{tournament_id}"
TABLE = TOURNAMENT + "/rounds/{round}/tables/{table}"


@router.get("/tournaments", summary="Every tournament, latest first", response_model=TournamentsOut)
def list_tournaments(sb: Book) -> dict[str, Any]:
    return {"tournaments": sb.clubs.tournaments()}


@router.post("/tournaments", status_code=201, summary="Create a tournament", response_model=TournamentCreated,
             responses=responses(400, 401, 403, 409, 413, 422))
def create_tournament(sb: Book, who: Referee, body: TournamentIn) -> dict[str, Any]:
    data = body.model_dump(exclude_none=True, exclude={"id"})
    return {"tournament_id": sb.clubs.create_tournament(data, who.name, body.id)}


@router.post("/tournaments/import", status_code=201, summary="Import a tournament archive (every hash kept)",
             response_model=ArchiveImported, responses=responses(400, 401, 403, 409, 413, 422))
async def import_tournament(sb: Book, who: Referee, request: Request) -> dict[str, Any]:
    text = (await request.body()).decode("utf-8", "replace")
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(sb.clubs.import_archive, text, who.name)


@router.get(TOURNAMENT, summary="A tournament: entries, rounds, tables, results, missing results",
            response_model=TournamentDetail, responses=responses(404))
def tournament(sb: Book, tournament_id: str) -> dict[str, Any]:
    return sb.clubs.tournament_json(tournament_id)


@router.get(TOURNAMENT + "/corrections", summary="The open correction requests of the tournament's tables",
            description="Every table's match, its correction requests (notes flagged for the referee) that no "
            "rewind or resolving note has closed; `all=true` lists the closed ones too.",
            response_model=TournamentCorrections, responses=responses(400, 404))
def tournament_corrections(sb: Book, tournament_id: str,
                           all: Annotated[bool, Query(description="the closed requests too")] = False
                           ) -> dict[str, Any]:
    return {"tournament_id": tournament_id, "requests": sb.clubs.corrections(tournament_id, open_only=not all)}


@router.post(TOURNAMENT + "/entries", status_code=201, summary="Enter a player", response_model=Done,
             responses=responses(400, 401, 403, 404, 409, 413, 422))
def enter(sb: Book, who: Referee, tournament_id: str, body: EntryIn) -> dict[str, Any]:
    sb.clubs.enter(tournament_id, body.player, who.name, body.name)
    return {"tournament_id": tournament_id}


@router.post(TOURNAMENT + "/withdrawals", summary="Withdraw a player from later rounds", response_model=Done,
             responses=responses(400, 401, 403, 404, 409, 413, 422))
def withdraw(sb: Book, who: Referee, tournament_id: str, body: WithdrawIn) -> dict[str, Any]:
    sb.clubs.withdraw(tournament_id, body.player, who.name)
    return {"tournament_id": tournament_id}


@router.post(TOURNAMENT + "/rounds", status_code=201, summary="Pair the next round",
             description="Results of finished matches are taken first. Without a body the round is paired by the "
             "tournament's method (docs/TOURNAMENTS.md); with `tables` (and `byes`) it is paired by hand.",
             response_model=RoundOut,
             responses=responses(400, 401, 403, 404, 409, 413, 422, s422="The round cannot be paired yet (the reason)"))
def pair_round(sb: Book, who: Referee, tournament_id: str,
               body: Annotated[PairIn | None, Body()] = None) -> dict[str, Any]:
    if body is None or body.tables is None:
        return sb.clubs.pair(tournament_id, who.name)
    tables = [t.model_dump() for t in body.tables]
    return sb.clubs.pair(tournament_id, who.name, tables=tables, byes=body.byes)


@router.post(TABLE + "/match", status_code=201, summary="Start the table's match (its seats, the game)",
             response_model=MatchStarted, responses=responses(400, 401, 403, 404, 409, 413, 422))
def start_table(sb: Book, who: Referee, tournament_id: str, round: int, table: int,
                body: Annotated[StartTableIn | None, Body()] = None) -> dict[str, Any]:
    options = body.options if body is not None else {}
    return {"match_id": sb.clubs.start_table(tournament_id, round, table, who.name, options)}


@router.post(TABLE + "/assign", summary="Assign a stored match to the table", response_model=Done,
             responses=responses(400, 401, 403, 404, 409, 413, 422))
def assign(sb: Book, who: Referee, tournament_id: str, round: int, table: int, body: AssignIn) -> dict[str, Any]:
    sb.clubs.assign(tournament_id, round, table, body.match_id, who.name)
    return {"tournament_id": tournament_id}


@router.post(TABLE + "/forfeit", summary="Record forfeits at a table", response_model=Done,
             responses=responses(400, 401, 403, 404, 409, 413, 422))
def forfeit(sb: Book, who: Referee, tournament_id: str, round: int, table: int, body: ForfeitIn) -> dict[str, Any]:
    sb.clubs.forfeit(tournament_id, round, table, body.players, who.name)
    return {"tournament_id": tournament_id}


@router.post(TOURNAMENT + "/results", summary="Take the results of the tables' finished matches",
             response_model=Done, responses=responses(401, 403, 404, 409, 422))
def collect(sb: Book, who: Referee, tournament_id: str) -> dict[str, Any]:
    return {"tournament_id": tournament_id, "taken": sb.clubs.collect_results(tournament_id, who.name)}


@router.post(TOURNAMENT + "/close", summary="Close the tournament (results taken first)", response_model=Done,
             responses=responses(401, 403, 404, 409, 422))
def close(sb: Book, who: Referee, tournament_id: str) -> dict[str, Any]:
    sb.clubs.close(tournament_id, who.name)
    return {"tournament_id": tournament_id}


@router.get(TOURNAMENT + "/standings", summary="Standings (JSON, or CSV with ?format=csv)",
            response_model=StandingsOut, responses=responses(400, 404))
def standings(sb: Book, tournament_id: str,
              format: Annotated[Literal["json", "csv"], Query()] = "json") -> Any:
    if format == "csv":
        return PlainTextResponse(sb.clubs.standings_csv(tournament_id), media_type="text/csv",
                                 headers={"Content-Disposition": f'attachment; filename="{tournament_id}.csv"'})
    detail = sb.clubs.tournament_json(tournament_id)
    return {"tournament_id": tournament_id, "standings": [s.to_json() for s in sb.clubs.standings(tournament_id)],
            "missing": detail["missing_results"]}


@router.get(TOURNAMENT + "/archive", summary="The whole tournament and its matches as one file (every hash)",
            response_class=JSONLines,
            responses={200: {"description": "JSON Lines: the header, the tournament's events, its matches as in a "
                             "backup file; POST /api/tournaments/import stores it",
                             "content": {"application/x-ndjson": {"schema": {"type": "string"}}}},
                       **responses(404)})
def archive(sb: Book, tournament_id: str) -> JSONLines:
    disposition = f'attachment; filename="{tournament_id}.jsonl"'
    return JSONLines(sb.clubs.archive(tournament_id), headers={"Content-Disposition": disposition})
