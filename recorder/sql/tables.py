"""The tables. The schema only changes through an Alembic migration in migrations/versions/."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
)
from sqlalchemy import text as sql_text
from sqlalchemy.dialects import sqlite
from sqlalchemy.types import TypeDecorator, TypeEngine
from sqlmodel import Field, SQLModel

from recorder.log.file import format_time
from recorder.log.readable import readable_data


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


UNREADABLE_TIME = datetime(1970, 1, 1, tzinfo=timezone.utc)


class _LenientSqliteDateTime(sqlite.DATETIME):
    """SQLite's DATETIME (the same text, the same column type), read leniently: text that is no time reads as
    1970-01-01, so a row edited by hand fails its hash check instead of every read of its table."""

    def result_processor(self, dialect: Dialect, coltype: object) -> Any:
        strict = super().result_processor(dialect, coltype)

        def process(value: Any) -> Any:
            try:
                return strict(value) if strict is not None else value
            except (ValueError, TypeError):
                return UNREADABLE_TIME

        return process


class UtcDateTime(TypeDecorator[datetime]):
    """A timestamp with time zone; on SQLite, where the column is text anyone can overwrite, read leniently."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "sqlite":
            return dialect.type_descriptor(_LenientSqliteDateTime(timezone=True))
        return dialect.type_descriptor(DateTime(timezone=True))


class Match(SQLModel, table=True):
    """One row per match: the stream's head (its lock and last seq) and the summary lists filter on."""

    __tablename__ = "matches"
    __table_args__ = (
        Index("ix_matches_created", "created_at", "id"),
        Index("ix_matches_game_created", "game", "created_at", "id"),
        Index("ix_matches_status_created", "status", "created_at", "id"),
    )

    id: str = Field(primary_key=True, max_length=32)
    game: str = Field(index=True, max_length=32)
    status: str = Field(default="in_progress", index=True, max_length=16)
    last_seq: int = 0
    players: list[dict[str, str]] = Field(sa_column=Column(JSON, nullable=False))
    winners: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    meta: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(UtcDateTime(), nullable=False))
    updated_at: datetime = Field(default_factory=utcnow, sa_column=Column(UtcDateTime(), nullable=False))


class MatchPlayer(SQLModel, table=True):
    """Seats, so that matches can be listed by player."""

    __tablename__ = "match_players"
    # The match's created_at, copied here so that one player's matches are listed newest first from this index
    # alone, a page at a time, however many matches the club has.
    __table_args__ = (Index("ix_match_players_player_created", "player_id", "created_at", "match_id"),)

    match_id: str = Field(sa_column=Column(String(32), ForeignKey("matches.id"), primary_key=True))
    seat: int = Field(primary_key=True)
    player_id: str = Field(index=True, max_length=64)
    name: str = Field(max_length=128)
    created_at: datetime | None = Field(default=None, sa_column=Column(UtcDateTime(), nullable=True))


class MatchListVersion(SQLModel, table=True):
    """One row, bumped in the transaction that adds a match or changes a match's status: the match list's
    counts hold while it stays the same, so they are not counted again on every request."""

    __tablename__ = "match_list_version"

    id: int = Field(default=1, primary_key=True)
    version: int = Field(sa_column=Column(BigInteger, nullable=False))


def on_dialect(dialect: str, index: Index) -> Index:
    """An index that only `dialect`'s schema has: its DDL is emitted there only, and `in_schema` leaves it out of
    the comparison of the models with another database's migrated schema."""
    index.info["dialect"] = dialect
    return index.ddl_if(dialect=dialect)


def in_schema(dialect: str) -> Callable[[Any, str | None, str, bool, Any], bool]:
    """Alembic's `include_object` for a database of `dialect`: every object but another dialect's own indexes."""

    def include(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
        return type_ != "index" or obj.info.get("dialect", dialect) == dialect

    return include


# A match's first event: the condition of the partial index on hashes, and of the look-up it serves (written out,
# not a bound parameter, so that a planner can see the look-up's condition implies the index's).
FIRST_EVENT = sql_text("seq = 1")
HAS_EVENT_ID = sql_text("event_id IS NOT NULL")


class StoredEvent(SQLModel, table=True):
    """An event as stored: append-only (the database refuses UPDATE and DELETE), hash-chained."""

    __tablename__ = "events"
    # The hash is looked up only for a match's first event (an import recognising a stored match): indexed there.
    # On SQLite the position is the table's rowid (migration 0011): the table itself is in position order and
    # `(match_id, seq)` is a unique index; on PostgreSQL `(match_id, seq)` is the key and positions an index.
    __table_args__ = (
        on_dialect("postgresql", Index("ix_events_position", "position", unique=True)),
        on_dialect("sqlite", Index("ix_events_match_seq", "match_id", "seq", unique=True)),
        Index("ix_events_first_hash", "hash", sqlite_where=FIRST_EVENT, postgresql_where=FIRST_EVENT),
        # Only the rows that carry one (migration 0012): an imported event, which has none, writes no entry.
        Index("ix_events_event_id", "event_id", unique=True, sqlite_where=HAS_EVENT_ID, postgresql_where=HAS_EVENT_ID),
    )

    match_id: str = Field(sa_column=Column(String(32), ForeignKey("matches.id"), primary_key=True))
    seq: int = Field(primary_key=True)
    # Global order, for followers.
    position: int = Field(sa_column=Column(BigInteger().with_variant(Integer(), "sqlite"), nullable=False))
    type: str = Field(max_length=64)
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    recorded_at: datetime = Field(sa_column=Column(UtcDateTime(), nullable=False))
    recorded_by: str = Field(max_length=128)
    prev_hash: str = Field(max_length=64)
    hash: str = Field(max_length=64)
    event_id: str | None = Field(default=None, max_length=128)

    def envelope(self) -> dict[str, Any]:
        """FORMAT.md's envelope, exactly as hashed and exported. Data that cannot be served (not an object,
        beyond the limits, unreadable text) reads as `{"unreadable": why}`: its hash then fails, at this seq."""
        return served_envelope(self)

    def stored_envelope(self) -> dict[str, Any]:
        """The envelope with `data` exactly as read, unchecked: for the fold, which checks the hash first —
        data that passes it is what was hashed when it was written, and a rule check follows."""
        return stored_envelope(self)


def served_envelope(row: Any) -> dict[str, Any]:
    """`StoredEvent.envelope` of anything with its columns (an ORM row, a Core row)."""
    return {**stored_envelope(row), "data": readable_data(row.data)}


def stored_envelope(row: Any) -> dict[str, Any]:
    """`StoredEvent.stored_envelope` of anything with its columns (an ORM row, recorder.sql.rows.EventRow)."""
    return {
        "seq": row.seq,
        "type": row.type,
        "data": row.data,
        "recorded_at": format_time(row.recorded_at),
        "recorded_by": row.recorded_by,
        "prev_hash": row.prev_hash,
        "hash": row.hash,
    }


class ImportRecord(SQLModel, table=True):
    """One import into a match: who, when, from which file. The events keep their own `recorded_by` (it
    is hashed); this row says who brought them here. `digest` (SHA-256 of the file's events as read)
    makes a second import of the same file answer the match already stored."""

    __tablename__ = "imports"

    id: int | None = Field(default=None, primary_key=True)
    match_id: str = Field(sa_column=Column(String(32), ForeignKey("matches.id"), nullable=False, index=True))
    imported_by: str = Field(max_length=128)
    imported_at: datetime = Field(default_factory=utcnow, sa_column=Column(UtcDateTime(), nullable=False))
    file_name: str | None = Field(default=None, max_length=255)
    digest: str = Field(index=True, max_length=64)
    first_seq: int
    last_seq: int

    def as_json(self) -> dict[str, Any]:
        return {
            "imported_by": self.imported_by,
            "imported_at": format_time(self.imported_at),
            "file_name": self.file_name,
            "first_seq": self.first_seq,
            "last_seq": self.last_seq,
        }


class ProjectionCheckpoint(SQLModel, table=True):
    """How far a projector has read the log: the last global position whose events its read model holds."""

    __tablename__ = "projection_checkpoints"

    name: str = Field(primary_key=True, max_length=64)
    position: int = Field(sa_column=Column(BigInteger, nullable=False))
    updated_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class RebuildProgress(SQLModel, table=True):
    """A `scorebook rebuild` under way (recorder/readmodels/rebuild.py): the log's head when it began (`upto`) and the
    first-event position of the last match it has done (`done_through`), so that `--resume` skips those."""

    __tablename__ = "rebuild_progress"

    name: str = Field(primary_key=True, max_length=64)
    upto: int = Field(sa_column=Column(BigInteger, nullable=False))
    done_through: int = Field(sa_column=Column(BigInteger, nullable=False))
    started_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class MatchFactsRow(SQLModel, table=True):
    """A match's statistics facts (projections.stats.MatchFacts as JSON), as of its seq `seq`; `version` is
    the facts' format, so that a new one is rebuilt rather than misread."""

    __tablename__ = "match_facts"
    __table_args__ = (Index("ix_match_facts_game_date", "game", "date"),)

    match_id: str = Field(sa_column=Column(String(32), ForeignKey("matches.id"), primary_key=True))
    game: str = Field(max_length=32)
    finished: bool
    date: str = Field(max_length=10)
    seq: int
    version: int
    facts: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))


class MatchSnapshot(SQLModel, table=True):
    """A match's state right after seq `seq` (recorder/store/snapshots.py): a pickle, read only when `mac` (HMAC
    keyed by the server's secret over the match, seq, hash, version and payload) checks and `version` is
    this code's. `hash` is the hash of the event at `seq`: the chain is checked from it on."""

    __tablename__ = "snapshots"

    match_id: str = Field(sa_column=Column(String(32), ForeignKey("matches.id"), primary_key=True))
    seq: int = Field(primary_key=True)
    hash: str = Field(max_length=64)
    version: str = Field(max_length=64)
    mac: str = Field(max_length=64)
    payload: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class ApiToken(SQLModel, table=True):
    """A bearer token, stored only as its SHA-256."""

    __tablename__ = "api_tokens"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, max_length=128)
    role: str = Field(max_length=16)
    token_hash: str = Field(unique=True, max_length=64)
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))
    revoked_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))


class SignInSession(SQLModel, table=True):
    """A browser's sign-in: a token exchanged once for a session (recorder/access/sessions.py). The cookie carries
    the id signed with the server's secret; the session ends at expires_at, at sign-out, or when its token
    is revoked."""

    __tablename__ = "sessions"

    id: str = Field(primary_key=True, max_length=64)
    token_id: int = Field(sa_column=Column(Integer, ForeignKey("api_tokens.id"), nullable=False, index=True))
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))
    expires_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    ended_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))


# A committed bag's seed (migration 0009): read by no route, export or backup; `revealed` once the match ends.
BAG_SEEDS = Table(
    "bag_seeds",
    SQLModel.metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seed", String(64), nullable=False),  # hex; never served before `revealed`
    Column("revealed", Boolean, nullable=False),
)
