"""The request and response bodies of the HTTP API, as pydantic models (FORMAT.md's shapes).

The response models describe what the routes answer today, key for key: a field is never added or
dropped by the model (the one optional pair, verify's `first_bad_seq`/`reason`, is left out when None by
its route; an event redacted for a spectator carries one more key, `redacted`, see Envelope). Free-form
parts stay free-form: an event's `data` (typed per game in the OpenAPI, see `recorder.api.openapi`), a
match's `meta`, the reducer's state.
"""
# No `from __future__ import annotations`: FastAPI and pydantic must see real annotations.

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

# -- requests --------------------------------------------------------------------------------------


class EventIn(BaseModel):
    """One event to append; `data` is checked against the match's game by the store."""

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
    role: Literal["recorder", "referee", "admin"]


# -- answers ---------------------------------------------------------------------------------------


class ErrorBody(BaseModel):
    """Every refusal: `error` names the kind, `reason` says why in the table's words. Some carry more."""

    error: str = Field(examples=["illegal_event"], description="bad_request, unauthorized, forbidden, not_found, "
                       "conflict, body_too_large, illegal_event, import_refused, schema_behind, method_not_allowed")
    reason: str
    seq: int | None = Field(default=None, description="illegal_event (and an unknown event type): the refused seq")
    type: str | None = Field(default=None, description="illegal_event: the refused event's type")
    current_seq: int | None = Field(default=None, description="conflict: the match's last seq")
    line: int | None = Field(default=None, description="import_refused: the refused line of the file")
    file: str | None = Field(default=None, description="import_refused of several files: the file refused")
    first_bad_seq: int | None = Field(
        default=None, description="chain_broken: the first seq whose stored row does not verify"
    )


class Envelope(BaseModel):
    """A stored event, as FORMAT.md's envelope: `hash` is SHA-256 over the canonical JSON of the rest.

    For a spectator of a match in progress an event with hidden tiles is answered redacted: its hidden tiles
    are null and it carries one more key, `"redacted": true` (its hash, the stored one, no longer matches)."""

    model_config = ConfigDict(extra="allow")  # "redacted", only on a redacted event

    seq: int
    type: str
    data: dict[str, Any]
    recorded_at: str = Field(examples=["2025-10-04T19:21:07.412Z"])
    recorded_by: str
    prev_hash: str
    hash: str


class MatchCreated(BaseModel):
    match_id: str
    seq: int
    events: list[Envelope] = Field(description="the stored match_started event")


class Player(BaseModel):
    id: str
    name: str


class ScorePlayer(BaseModel):
    id: str
    name: str
    score: int


class Round(BaseModel):
    number: int
    scores: dict[str, int] = Field(description="points each player gained (or lost) in the round")


class Scores(BaseModel):
    """FORMAT.md's scores JSON."""

    match_id: str
    game: str
    seq: int
    status: Literal["in_progress", "finished"]
    players: list[ScorePlayer] = Field(description="seat order")
    winners: list[str] = Field(description="the winners' ids once finished, seat order")
    rounds: list[Round]


class MatchSummary(BaseModel):
    match_id: str
    game: str
    players: list[Player]
    status: Literal["in_progress", "finished", "abandoned"] = Field(
        description="abandoned: a referee's match_abandoned stopped it (no result, out of statistics)")
    winners: list[str]
    seq: int = Field(description="the last seq")
    meta: dict[str, Any]
    created_at: str
    updated_at: str


class CorrectionOut(BaseModel):
    """A correction request: a note flagged for the referee (docs/FORMAT.md, "Correction requests")."""

    seq: int = Field(description="the request's own seq (a note)")
    about_seq: int | None = Field(description="the event to correct; null when not said")
    text: str
    recorded_by: str | None
    recorded_at: str | None
    open: bool = Field(description="false once a rewind covered the event or a note resolved the request")
    resolved_by: int | None = Field(description="the seq of the rewind or note that closed it")
    resolution: Literal["rewind", "note"] | None


class MatchCorrections(BaseModel):
    match_id: str
    status: Literal["in_progress", "finished", "abandoned"]
    requests: list[CorrectionOut] = Field(description="in seq order")


class TableCorrection(CorrectionOut):
    """A request with the tournament table whose match it is in."""

    round: int
    table: int
    seats: list[str]
    match_id: str
    status: Literal["in_progress", "finished", "abandoned"]


class TournamentCorrections(BaseModel):
    tournament_id: str
    requests: list[TableCorrection] = Field(description="by round, table, then seq")


class ImportInfo(BaseModel):
    """One import into the match: who brought its events here, when, from which file, which seqs."""

    imported_by: str
    imported_at: str
    file_name: str | None
    first_seq: int
    last_seq: int


class Broken(BaseModel):
    first_bad_seq: int
    reason: str


class MatchDetail(MatchSummary):
    """A match's summary with its scores, its imports, and whether its stored rows verify."""

    scores: Scores | None = Field(description="as far as the stored events verify; null when seq 1 does not")
    rules_version: int | None = Field(
        default=None, description="the rules version the match is played under; null when seq 1 does not verify")
    imports: list[ImportInfo] = Field(description="how the match's events came here, if imported")
    broken: Broken | None = Field(
        description="null, or where the stored events stop verifying (edited in the database): the match "
        "then replays up to the seq before"
    )


class MatchList(BaseModel):
    items: list[MatchSummary] = Field(description="newest first")
    total: int
    limit: int
    offset: int
    next: str | None = Field(default=None, description="the cursor of the next page (`?after=`), null on the last")


class AppendResult(BaseModel):
    events: list[Envelope]


class EventsPage(BaseModel):
    events: list[Envelope]


class FollowedEvent(BaseModel):
    """An envelope with its match and its global position (`"redacted": true` as in Envelope)."""

    model_config = ConfigDict(extra="allow")

    match_id: str
    position: int
    seq: int
    type: str
    data: dict[str, Any]
    recorded_at: str
    recorded_by: str
    prev_hash: str
    hash: str


class FollowOut(BaseModel):
    events: list[FollowedEvent] = Field(description="in global order; follow on with ?after=<last position>")


class StateOut(BaseModel):
    match_id: str
    game: str
    seq: int
    superseded: list[int] = Field(description="seqs a rewind has superseded")
    rules_version: int = Field(description="the rules version the match is played under")
    state: dict[str, Any] = Field(description="the reducer's state as JSON; its shape is the game's")


class Move(BaseModel):
    """A legal next event, ready to append, with its scorepad notation (docs/scorepad.md)."""

    model_config = ConfigDict(extra="allow")
    type: str
    data: dict[str, Any]
    notation: str = Field(description="the line that records it on the scorepad, e.g. `ann 2-5-5 @-1,0 525`")


class MissedPlay(BaseModel):
    """A play missed in hindsight (docs/FORMAT.md "Missed plays"): a draw, pass or exchange while a held tile
    fitted, or a Tri-Ominos placement that took no hexagon or bridge bonus while one was there."""

    seq: int = Field(description="the event recorded instead")
    player: str
    type: str = Field(description="that event's type", examples=["tile_drawn"])
    kind: Literal["placement", "bonus"]
    tiles: list[str] = Field(description="the held tiles that fitted (or would have scored the bonus)")
    certain: bool = Field(description="each tile was held; false: at least one of them was (the miss is certain)")
    moves: list[Move] = Field(description="the best moves they could have made instead, best first")
    bonus: list[str] = Field(description="kind bonus: the bonus tags that were there (hexagon, bridge …)")
    revealed_at: list[int] = Field(description="the seqs that revealed the tiles later (empty: known then)")
    text: str = Field(description="in words, for the event list")


class LegalOut(BaseModel):
    match_id: str
    seq: int
    player: str | None = Field(description="the player asked for, else the player to move; null: every player's "
                               "moves (the game names nobody to move)")
    to_move: str | None = Field(description="the player the game names to act at this seq")
    view: Literal["recorded", "table"] = Field(
        description="recorded: from the log as recorded; table: a spectator of a match in progress, from the log "
        "with the hidden tiles redacted (moves that would name an unseen tile are left out)")
    unseen: dict[str, int] = Field(description="tiles in the hand of the player(s) the moves are for that the log "
                                   "(as this viewer reads it) does not name: their moves are not listed")
    moves: list[Move]
    missed: list[MissedPlay] | None = Field(
        description="hindsight about the event recorded next (seq + 1): the plays it missed, empty when none; "
        "null for a spectator of a match in progress")


class MissedOut(BaseModel):
    match_id: str
    seq: int = Field(description="the match's last seq: hindsight as far as the log goes")
    finished: bool
    missed: list[MissedPlay] = Field(description="in seq order")


class VerifyOut(BaseModel):
    ok: bool
    events: int
    first_bad_seq: int | None = Field(default=None, description="only when not ok")
    reason: str | None = Field(default=None, description="only when not ok")
    bag: str | None = Field(default=None, description="a match with a committed bag, when ok: what was checked of "
                            "its draws (all of them, against the revealed seed; or not yet, before the reveal)")


class ImportOut(BaseModel):
    match_id: str
    seq: int
    existing: bool = Field(description="the file's match was already stored (the same file, or an export of it)")
    added: int = Field(description="events this import stored (0 when the match was already complete)")


class TokenCreated(BaseModel):
    name: str
    role: str
    token: str = Field(description="shown once: only its SHA-256 is stored")


class TokenInfo(BaseModel):
    id: int
    name: str
    role: str
    revoked: bool


class TokenList(BaseModel):
    tokens: list[TokenInfo]


class Revoked(BaseModel):
    revoked: int


class GameEvent(BaseModel):
    type: str
    summary: str
    fields: list[str] = Field(description="the fields of the event's data")
    example: dict[str, Any] = Field(description="an example of the event's data")
    turn: bool = Field(description="the event makes a turn for the statistics")
    hidden: list[str] = Field(description="fields not everyone at the table sees")


class RulesVersionInfo(BaseModel):
    number: int
    summary: str = Field(description="what this version changed")


class GameInfo(BaseModel):
    name: str = Field(examples=["hi-spot"])
    title: str = Field(examples=["Hi-Spot"])
    min_players: int
    max_players: int
    options: dict[str, dict[str, Any]] = Field(description="each option's JSON Schema, with its default")
    events: list[GameEvent] = Field(description="the shared events first, then the game's own")
    schema_: str = Field(alias="schema", description="where the JSON Schema of every event's data is")
    rules_version: int = Field(description="the current rules version: what a new match plays unless it names another")
    rules_versions: list[RulesVersionInfo] = Field(description="every published rules version, oldest first")

    model_config = ConfigDict(populate_by_name=True)


class GameList(BaseModel):
    games: list[GameInfo]


class GameSchema(BaseModel):
    """A JSON Schema document per event type of the game."""

    model_config = ConfigDict(populate_by_name=True)
    dialect: str = Field(alias="$schema")
    title: str
    game: str
    events: dict[str, dict[str, Any]] = Field(description="event type -> JSON Schema of its data")
