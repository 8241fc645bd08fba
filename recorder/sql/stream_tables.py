"""The club streams' tables: the player registry and tournaments, stored like matches.

Changed only through an Alembic migration (0008 made them); migrations/env.py imports this module so that
they are on the metadata the migrations are compared with.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Column, ForeignKey, String
from sqlmodel import Field, SQLModel

from recorder.sql.tables import UtcDateTime, utcnow


class Stream(SQLModel, table=True):
    """One row per stream: its kind, its head (the lock appends take, and the last seq) and a title for lists."""

    __tablename__ = "streams"

    id: str = Field(primary_key=True, max_length=32)
    kind: str = Field(index=True, max_length=32)
    last_seq: int = 0
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(UtcDateTime(), nullable=False))
    updated_at: datetime = Field(default_factory=utcnow, sa_column=Column(UtcDateTime(), nullable=False))
    title: str | None = Field(default=None, max_length=200)


class StoredStreamEvent(SQLModel, table=True):
    """A stream's event as stored: append-only (the database refuses UPDATE, DELETE and TRUNCATE: see
    recorder/sql/triggers.py), hash-chained exactly as a match's events are (FORMAT.md's envelope)."""

    __tablename__ = "stream_events"

    stream_id: str = Field(sa_column=Column(String(32), ForeignKey("streams.id"), primary_key=True))
    seq: int = Field(primary_key=True)
    type: str = Field(max_length=64)
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    recorded_at: datetime = Field(sa_column=Column(UtcDateTime(), nullable=False))
    recorded_by: str = Field(max_length=128)
    prev_hash: str = Field(max_length=64)
    hash: str = Field(max_length=64)
    event_id: str | None = Field(default=None, max_length=128, unique=True)


STREAMS = Stream.__table__  # type: ignore[attr-defined]
STREAM_EVENTS = StoredStreamEvent.__table__  # type: ignore[attr-defined]
